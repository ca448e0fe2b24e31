using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.TestDiscovery;

/// <summary>The nodes a change starts from: the symbol at a position, or the declarations on changed lines.</summary>
public static class ChangedSymbols
{
    public static async Task<List<ISymbol>> OfAsync(Solution solution, ChangeOrigin origin, CancellationToken cancellationToken) => origin switch
    {
        ChangeOrigin.Symbol { Value: var position } => [await AtAsync(solution, position, cancellationToken)],
        ChangeOrigin.Lines { Value: var files } => await OnLinesAsync(solution, files, cancellationToken),
        _ => throw new InvalidOperationException($"Unhandled origin {origin.GetType().Name}"),
    };

    private static async Task<ISymbol> AtAsync(Solution solution, Position position, CancellationToken cancellationToken)
    {
        var at = await PositionResolver.ResolveAsync(solution, position, cancellationToken);
        var symbol = Definitions.Of(await PositionResolver.RequireSymbolAsync(at, cancellationToken));
        // A local, parameter, lambda or local function changes the member it lives in.
        for (var scope = symbol; scope is not null; scope = scope.ContainingSymbol)
        {
            if (DocumentReach.Node(scope) is { } node)
            {
                return node;
            }
            if (scope is INamespaceSymbol)
            {
                break;
            }
        }
        var kind = SymbolFormat.KindOf(symbol);
        throw SymbolFormat.IsMetadata(symbol)
            ? HostErrorException.Create(
                ErrorCode.SymbolNotInSource,
                $"{symbol.ToDisplayString(SymbolFormat.Display)} is declared in {SymbolFormat.AssemblyOf(symbol)}, not in the solution: its tests are not the solution's to find",
                new JsonObject { ["symbol"] = symbol.ToDisplayString(SymbolFormat.Display), ["assembly"] = SymbolFormat.AssemblyOf(symbol) },
                "Place the position on a member or type the solution declares")
            : HostErrorException.Create(
                ErrorCode.SymbolNotFound,
                $"{position.File}:{position.Line}:{position.Column} is the {kind} {symbol.ToDisplayString(SymbolFormat.Display)}: tests are found for a type or a member",
                new JsonObject { ["file"] = position.File, ["line"] = position.Line, ["column"] = position.Column, ["kind"] = kind },
                "Place the position on a type or member name, or inside a member's body");
    }

    private static async Task<List<ISymbol>> OnLinesAsync(Solution solution, IEnumerable<ChangedLines> files, CancellationToken cancellationToken)
    {
        var found = new Dictionary<string, ISymbol>(StringComparer.Ordinal);
        foreach (var file in files)
        {
            foreach (var document in PositionResolver.DocumentsAt(solution, file.File))
            {
                var root = await document.GetSyntaxRootAsync(cancellationToken);
                var model = await document.GetSemanticModelAsync(cancellationToken);
                var text = await document.GetTextAsync(cancellationToken);
                if (root is null || model is null)
                {
                    continue;
                }
                foreach (var range in file.Ranges)
                {
                    foreach (var symbol in OnLines(root, model, text, range, cancellationToken))
                    {
                        found.TryAdd(DocumentReach.KeyOf(symbol), symbol);
                    }
                }
            }
        }
        return [.. found.Values];
    }

    /// <summary>
    /// The innermost declarations holding the tokens on the lines (a removal, <c>EndLine &lt; StartLine</c>: the
    /// lines around it); a token outside every type (a using directive, a namespace) changes every type of the
    /// file, listed once.
    /// </summary>
    private static IEnumerable<ISymbol> OnLines(SyntaxNode root, SemanticModel model, SourceText text, LineRange range, CancellationToken cancellationToken)
    {
        var lines = text.Lines.Count;
        var removal = range.EndLine < range.StartLine;
        var first = (int)Math.Clamp(removal ? range.StartLine - 1 : range.StartLine, 1, lines) - 1;
        var last = (int)Math.Clamp(removal ? range.StartLine : range.EndLine, 1, lines) - 1;
        var span = TextSpan.FromBounds(text.Lines[first].Start, text.Lines[Math.Max(first, last)].End);
        var outsideTypes = false;
        foreach (var token in root.DescendantTokens(span).Where(t => t.Span.IntersectsWith(span)))
        {
            var members = MembersOf(token, model, cancellationToken);
            outsideTypes |= members.Count == 0;
            foreach (var member in members)
            {
                yield return member;
            }
        }
        if (!outsideTypes)
        {
            yield break;
        }
        foreach (var type in root.DescendantNodes().OfType<BaseTypeDeclarationSyntax>())
        {
            if (model.GetDeclaredSymbol(type, cancellationToken) is { } symbol)
            {
                yield return symbol;
            }
        }
    }

    /// <summary>The innermost declaration holding a token; a field declaration stands for each of its variables.</summary>
    private static List<ISymbol> MembersOf(SyntaxToken token, SemanticModel model, CancellationToken cancellationToken)
    {
        foreach (var node in token.Parent?.AncestorsAndSelf() ?? [])
        {
            var fields = node switch
            {
                BaseFieldDeclarationSyntax declaration => declaration,
                VariableDeclaratorSyntax { Parent.Parent: BaseFieldDeclarationSyntax declaration } => declaration,
                _ => null,
            };
            if (fields is not null)
            {
                return [.. fields.Declaration.Variables.Select(v => model.GetDeclaredSymbol(v, cancellationToken)).OfType<ISymbol>()];
            }
            if (DocumentReach.DeclaredBy(node, model, cancellationToken) is { } declared && DocumentReach.Node(declared) is { } member)
            {
                return [member];
            }
        }
        return [];
    }
}
