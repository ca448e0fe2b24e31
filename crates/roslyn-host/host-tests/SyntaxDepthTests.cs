using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Tests;

/// <summary>The depth measure walks without recursion: it must not be what overflows on hostile code.</summary>
public sealed class SyntaxDepthTests
{
    [Fact]
    public void FiftyThousandLevelsAreMeasuredOnASmallStack()
    {
        const string prefix = "class C { bool M() => ";
        var code = $"{prefix}{new string('!', 50_000)}true; }}";
        // Roslyn's parser recurses per level: it gets the room the host's threads have.
        Microsoft.CodeAnalysis.SyntaxNode root = null!;
        var parser = new Thread(() => root = CSharpSyntaxTree.ParseText(code).GetRoot(), 256 * 1024 * 1024);
        parser.Start();
        parser.Join();
        var depth = 0;
        // 256 KiB: a recursive walk of 50,000 levels would overflow it and end the test run.
        var thread = new Thread(() => depth = SyntaxDepth.Within(root, new TextSpan(prefix.Length, 50_000 + 4)), 256 * 1024);
        thread.Start();
        thread.Join();

        Assert.Equal(50_001, depth);
    }

    [Fact]
    public void OnlyNodesInsideTheSpanCount()
    {
        const string code = "class C { void M() { if (true) { if (true) { int x = 1; } } } }";
        var root = CSharpSyntaxTree.ParseText(code).GetRoot();
        var declaration = code.IndexOf("int x", StringComparison.Ordinal);

        // The local declaration statement, its declaration, declarator, initializer and literal; the type.
        Assert.Equal(5, SyntaxDepth.Within(root, new TextSpan(declaration, "int x = 1;".Length)));
        Assert.Equal(0, SyntaxDepth.Within(root, new TextSpan(declaration, 0)));
    }
}
