using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using RoslynMcp.Host.Dispatch;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

public sealed class WarmUpTests
{
    /// <summary>
    /// An application of top-level statements: the type the compiler makes for them sits on a statement, where no
    /// symbol is; the warm-up compiles the project and warms its search on a type it declares.
    /// </summary>
    [Fact]
    public async Task AProjectOfTopLevelStatementsIsWarmed()
    {
        var solution = new AdhocWorkspace().CurrentSolution;
        var app = AdhocSolutions.AddProject(
            ref solution,
            "App",
            null,
            [("Program.cs", "const int Answer = 42;\nSystem.Console.WriteLine(new Greeter().Greet(Answer));\n\nclass Greeter\n{\n    public string Greet(int n) => $\"{n}\";\n}\n")],
            file => Path.Combine(AdhocSolutions.Root, "App", file));
        solution = solution.WithProjectCompilationOptions(app, new CSharpCompilationOptions(OutputKind.ConsoleApplication));

        var warmed = await WarmUpHandler.HandleAsync(solution, new WarmUpRequest("App"), CancellationToken.None);

        Assert.Equal(1u, warmed.Documents);
    }
}
