using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

internal static class SpanText
{
    /// <summary><c>src/Shop.App/Program.cs:21:41-21:50</c>: a span relative to a root, for compact assertions.</summary>
    public static string Of(Span span, string root) =>
        $"{Path.GetRelativePath(root, span.File).Replace(Path.DirectorySeparatorChar, '/')}:{span.StartLine}:{span.StartColumn}-{span.EndLine}:{span.EndColumn}";
}
