using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Sources;

namespace RoslynMcp.Host.Features.Sources;

/// <summary>
/// The declarations of symbols named by fully qualified name, from source, generated documents or referenced
/// assemblies; each name answered by itself, an unknown one with its error.
/// </summary>
public static class SymbolSourcesHandler
{
    public static async Task<SymbolSourceList> HandleAsync(Solution solution, SymbolSourcesRequest request, CancellationToken cancellationToken)
    {
        var compilations = new List<Compilation>();
        foreach (var project in solution.Projects)
        {
            if (await project.GetCompilationAsync(cancellationToken) is { } compilation)
            {
                compilations.Add(compilation);
            }
        }
        var entries = new List<SymbolSourceEntry>();
        foreach (var name in request.Names)
        {
            var symbols = SymbolNames.Resolve(compilations, name);
            if (symbols.Count == 0)
            {
                entries.Add(new SymbolSourceEntry(name, [], NotFound(name)));
                continue;
            }
            var declarations = new List<SymbolDeclaration>();
            foreach (var symbol in symbols)
            {
                declarations.AddRange(await DeclarationsAsync(solution, symbol, request.SignaturesOnly, cancellationToken));
            }
            entries.Add(new SymbolSourceEntry(name, declarations.ToValueList(), null));
        }
        return new SymbolSourceList(entries.ToValueList());
    }

    private static async Task<List<SymbolDeclaration>> DeclarationsAsync(
        Solution solution, ISymbol symbol, bool signaturesOnly, CancellationToken cancellationToken)
    {
        var summary = SymbolFormat.Summarize(symbol);
        var found = new List<SymbolDeclaration>();
        if (SymbolFormat.IsMetadata(symbol))
        {
            if (MetadataDocuments.TopLevel(symbol) is { } type
                && await MetadataDocuments.Shared.SourceOfAsync(solution, type, cancellationToken) is { } document
                && document.DeclarationOf(symbol) is { Whole: var whole })
            {
                var root = await document.Tree.GetRootAsync(cancellationToken);
                var node = root.FindNode(whole).AncestorsAndSelf().First(n => n.Span == whole);
                found.Add(new SymbolDeclaration(summary, SymbolFormat.ToSpan(document.Tree, whole), document.Origin, Text(node, signaturesOnly)));
            }
            return found;
        }
        // A partial member's implementing part (a generator's, often) is a symbol of its own.
        foreach (var reference in SymbolFormat.WithPartialPart(symbol).SelectMany(s => s.DeclaringSyntaxReferences))
        {
            var node = Whole(await reference.GetSyntaxAsync(cancellationToken));
            var span = SymbolFormat.ToSpan(reference.SyntaxTree, node.Span);
            var origin = span.File.StartsWith(GeneratedDocuments.Scheme, StringComparison.Ordinal) ? SourceOrigin.Generated : SourceOrigin.File;
            found.Add(new SymbolDeclaration(summary, span, origin, Text(node, signaturesOnly)));
        }
        return found;
    }

    /// <summary>A field's or an event field's declaration is its whole statement, not the one variable.</summary>
    private static SyntaxNode Whole(SyntaxNode node) =>
        node is VariableDeclaratorSyntax { Parent.Parent: BaseFieldDeclarationSyntax field } ? field : node;

    /// <summary>The declaration as written, with its documentation; a type's members without bodies on request.</summary>
    private static string Text(SyntaxNode node, bool signaturesOnly)
    {
        var shown = signaturesOnly && node is TypeDeclarationSyntax ? new SignaturesOnly().Visit(node)! : node;
        var lines = shown.ToFullString().Replace("\r\n", "\n").Split('\n').SkipWhile(string.IsNullOrWhiteSpace).ToList();
        while (lines.Count > 0 && string.IsNullOrWhiteSpace(lines[^1]))
        {
            lines.RemoveAt(lines.Count - 1);
        }
        var indent = lines.Where(l => l.Trim().Length > 0).Select(l => l.Length - l.TrimStart().Length).DefaultIfEmpty(0).Min();
        return string.Join('\n', lines.Select(l => l.Length >= indent ? l[indent..] : l.TrimStart()));
    }

    private static HostError NotFound(string name) => new(
        ErrorCode.SymbolNotFound,
        $"No type or member of the solution or its references is named '{name}'",
        new JsonObject { ["name"] = name }.ToJsonString(),
        ["Give a fully qualified name (Namespace.Type, Namespace.Type.Member, Namespace.Outer+Nested), or a documentation comment id (T:..., M:...)"]);
}
