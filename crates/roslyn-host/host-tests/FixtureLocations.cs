using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

internal static class FixtureLocations
{
    /// <summary>Where a symbol is declared as FIXTURE.md writes it (<c>src/...cs:line:column</c>); null for metadata.</summary>
    public static string? Where(this LoadedSolution solution, SymbolRef symbol) =>
        symbol.Location?.Span is { } span
            ? $"{Path.GetRelativePath(solution.Root, span.File).Replace('\\', '/')}:{span.StartLine}:{span.StartColumn}"
            : null;
}
