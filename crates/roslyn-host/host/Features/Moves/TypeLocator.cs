using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics;
using ErrorCode = RoslynMcp.Host.Protocol.ErrorCode;
using HostErrorException = RoslynMcp.Host.Protocol.HostErrorException;

namespace RoslynMcp.Host.Features.Moves;

/// <summary>Finds the type declaration a move names in its source file, or explains why there is none.</summary>
internal static class TypeLocator
{
    public static async Task<MovedType> LocateAsync(Document document, string symbolName, uint? line, CancellationToken cancellationToken)
    {
        var text = await document.GetTextAsync(cancellationToken);
        if (line is { } l && (l < 1 || l > text.Lines.Count))
        {
            throw MoveErrors.InvalidLine(l, text.Lines.Count, document.FilePath!);
        }
        var root = (CompilationUnitSyntax)(await document.GetSyntaxRootAsync(cancellationToken))!;
        var model = (await document.GetSemanticModelAsync(cancellationToken))!;
        var wanted = Normalize(symbolName);
        var declared = root
            .DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax or TypeDeclarationSyntax)
            .OfType<MemberDeclarationSyntax>()
            .Where(MovedType.IsTypeDeclaration)
            .Select(d => (Declaration: d, Symbol: (INamedTypeSymbol)model.GetDeclaredSymbol(d, cancellationToken)!))
            .ToList();

        var matches = declared
            .Where(t => t.Symbol.Name == wanted || t.Symbol.ToDisplayString(Names.Qualified) == wanted)
            .Where(t => line is null || Covers(text, t.Declaration, (int)line.Value - 1))
            .ToList();
        if (matches.Count == 0)
        {
            var member = FindMember(declared.Select(t => t.Symbol), wanted, root.SyntaxTree);
            throw member is null ? NotFound(document.FilePath!, symbolName, line, declared.Select(t => t.Symbol.Name)) : MoveErrors.NotMoveable(symbolName, member);
        }

        // At a line, the innermost declaration covering it; without one, the parts of a single type.
        var chosen = line is null ? matches[0] : matches.MinBy(t => t.Declaration.Span.Length);
        if (line is null && matches.Select(t => t.Symbol).Distinct(SymbolEqualityComparer.Default).Count() > 1)
        {
            throw MoveErrors.Ambiguous(symbolName, matches.Select(t => (
                t.Symbol.ToDisplayString(Names.Qualified),
                text.Lines.GetLineFromPosition(MovedType.IdentifierOf(t.Declaration).SpanStart).LineNumber + 1)));
        }
        if (chosen.Symbol.ContainingType is not null)
        {
            throw MoveErrors.Nested(symbolName, chosen.Symbol);
        }
        return new MovedType(document, text, root, chosen.Declaration, chosen.Symbol);
    }

    /// <summary><c>global::A.B&lt;T&gt;</c> and <c>A.B`1</c> name the type <c>A.B</c>.</summary>
    private static string Normalize(string name)
    {
        name = name.Trim();
        if (name.StartsWith("global::", StringComparison.Ordinal))
        {
            name = name["global::".Length..];
        }
        var cut = name.IndexOfAny(['<', '`']);
        return cut < 0 ? name : name[..cut];
    }

    private static bool Covers(SourceText text, SyntaxNode declaration, int line)
    {
        var span = text.Lines.GetLinePositionSpan(declaration.Span);
        return (span.Start.Line <= line && line <= span.End.Line)
            || text.Lines.GetLineFromPosition(MovedType.IdentifierOf(declaration).SpanStart).LineNumber == line;
    }

    /// <summary>A method, field, property or event declared in the file under that name (<c>Type.Member</c> works too).</summary>
    private static ISymbol? FindMember(IEnumerable<INamedTypeSymbol> types, string wanted, SyntaxTree tree)
    {
        var dot = wanted.LastIndexOf('.');
        var (owner, name) = dot < 0 ? ("", wanted) : (wanted[..dot], wanted[(dot + 1)..]);
        return types
            .Where(t => owner.Length == 0 || t.Name == owner || t.ToDisplayString(Names.Qualified) == owner)
            .SelectMany(t => t.GetMembers(name))
            .FirstOrDefault(m => !m.IsImplicitlyDeclared
                && m is IMethodSymbol { MethodKind: MethodKind.Ordinary } or IFieldSymbol or IPropertySymbol or IEventSymbol
                && m.Locations.Any(l => l.SourceTree == tree));
    }

    private static HostErrorException NotFound(string file, string symbolName, uint? line, IEnumerable<string> declared)
    {
        var wanted = Normalize(symbolName);
        var simple = wanted[(wanted.LastIndexOf('.') + 1)..];
        var nearby = declared
            .Distinct()
            .Select(name => (Name: name, Distance: Names.EditDistance(simple, name)))
            .OrderBy(n => n.Distance)
            .ThenBy(n => n.Name, StringComparer.Ordinal)
            .ToList();
        var details = new JsonObject { ["sourceFile"] = file, ["symbolName"] = symbolName };
        if (line is not null)
        {
            details["line"] = line;
        }
        details["nearbySymbols"] = new JsonArray([.. nearby.Select(n => JsonValue.Create(n.Name))]);

        var suggestions = new List<string> { "Check spelling of symbol name" };
        if (line is not null)
        {
            suggestions.Add("Verify the line number is correct");
        }
        if (nearby.Count > 0 && nearby[0].Distance <= 2)
        {
            suggestions.Add($"Did you mean {nearby[0].Name}?");
        }
        var where = line is null ? file : $"{file} at line {line}";
        return HostErrorException.Create(ErrorCode.SymbolNotFound, $"No type named '{symbolName}' is declared in {where}", details, [.. suggestions]);
    }
}
