using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Features.Unused;

/// <summary>
/// Something found unused in the original solution: what reported it, where (the span the diagnostic points at,
/// in the original text) and its name as written.
/// </summary>
internal sealed record UnusedItem(UnusedKind Kind, string Rule, string Path, TextSpan Span, string Name, LinePosition Start)
{
    /// <summary>The rule for non-private members nothing references, found by the handler rather than an analyzer.</summary>
    public const string Unreferenced = "unreferenced";

    public RemovedItem ToProtocol() =>
        new(Kind, Name, Rule, new Position(Path, (uint)Start.Line + 1, (uint)Start.Character + 1));
}
