using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Operations;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Signature;

/// <summary>
/// What the bodies of the members say against the change: a removed parameter they still use (PARAMETER_IN_USE),
/// or a local, lambda parameter or local function already named as an added or renamed parameter would be
/// (NAME_COLLISION). Named arguments at calls are not uses: the change rewrites them.
/// </summary>
internal static class BodyChecks
{
    public static async Task CheckAsync(Solution solution, IReadOnlyList<ISymbol> members, NewSignature signature, CancellationToken cancellationToken)
    {
        var uses = new SortedSet<(string File, int Line, int Column, string Name)>();
        foreach (var member in members)
        {
            var parameters = ParameterLists.Of(member);
            foreach (var ordinal in signature.Removed.Where(o => o < parameters.Count))
            {
                var referenced = await SymbolFinder.FindReferencesAsync(parameters[ordinal], solution, cancellationToken);
                foreach (var location in referenced.SelectMany(r => r.Locations).Select(l => l.Location).Where(l => l.IsInSource))
                {
                    var token = (await location.SourceTree!.GetRootAsync(cancellationToken)).FindToken(location.SourceSpan.Start, findInsideTrivia: true);
                    if (token.Parent?.Parent is NameColonSyntax || token.Parent?.FirstAncestorOrSelf<DocumentationCommentTriviaSyntax>() is not null
                        || await PassedOnAsync(solution, token, members, ordinal, cancellationToken))
                    {
                        continue;
                    }
                    var at = location.GetLineSpan();
                    uses.Add((at.Path, at.StartLinePosition.Line + 1, at.StartLinePosition.Character + 1, parameters[ordinal].Name));
                }
            }
        }
        if (uses.Count > 0)
        {
            var first = uses.Min;
            throw HostErrorException.Create(
                ErrorCode.ParameterInUse,
                $"The parameter {first.Name} is used in {uses.Count} place{(uses.Count == 1 ? "" : "s")} the change would leave without it; the first at {first.File}:{first.Line}:{first.Column}",
                new JsonObject { ["uses"] = new JsonArray([.. uses.Take(50).Select(u => Json(u.File, u.Line, u.Column, u.Name))]) },
                "Remove or replace the uses in the body first, then remove the parameter");
        }
        await CheckNamesAsync(solution, members, signature, cancellationToken);
    }

    /// <summary>
    /// The parameter passed on as the same parameter of a member that changes with it (an override's
    /// <c>base.Price(quantity, label)</c>): the change drops that argument too.
    /// </summary>
    private static async Task<bool> PassedOnAsync(Solution solution, SyntaxToken token, IReadOnlyList<ISymbol> members, int ordinal, CancellationToken cancellationToken)
    {
        if (token.Parent is not IdentifierNameSyntax { Parent: ArgumentSyntax argument } || solution.GetDocument(token.SyntaxTree) is not { } document)
        {
            return false;
        }
        var model = await document.GetSemanticModelAsync(cancellationToken);
        return model!.GetOperation(argument, cancellationToken) is IArgumentOperation { Parameter: { Ordinal: var passed, ContainingSymbol: var callee } }
            && passed == ordinal
            && members.Any(m => SymbolEqualityComparer.Default.Equals(m.OriginalDefinition, callee.OriginalDefinition));
    }

    private static async Task CheckNamesAsync(Solution solution, IReadOnlyList<ISymbol> members, NewSignature signature, CancellationToken cancellationToken)
    {
        var names = signature.AddedNames.Concat(signature.Renamed.Values).Select(n => n.TrimStart('@')).ToHashSet(StringComparer.Ordinal);
        if (names.Count == 0)
        {
            return;
        }
        foreach (var member in members)
        {
            foreach (var reference in member.DeclaringSyntaxReferences)
            {
                var declaration = await reference.GetSyntaxAsync(cancellationToken);
                if (solution.GetDocument(reference.SyntaxTree) is not { } document)
                {
                    continue;
                }
                var model = await document.GetSemanticModelAsync(cancellationToken);
                foreach (var node in declaration.DescendantNodes().Where(n => !IsOwnParameter(n, declaration)))
                {
                    if (model!.GetDeclaredSymbol(node, cancellationToken) is (ILocalSymbol or IParameterSymbol or IRangeVariableSymbol or IMethodSymbol { MethodKind: MethodKind.LocalFunction }) and { } declared
                        && names.Contains(declared.Name))
                    {
                        var at = declared.Locations[0].GetLineSpan();
                        throw HostErrorException.Create(
                            ErrorCode.NameCollision,
                            $"{declared.Name} is already declared in {member.Name} at {at.Path}:{at.StartLinePosition.Line + 1}:{at.StartLinePosition.Character + 1}",
                            new JsonObject
                            {
                                ["conflicts"] = new JsonArray(Json(at.Path, at.StartLinePosition.Line + 1, at.StartLinePosition.Character + 1, declared.Name)),
                            },
                            "Choose another parameter name, or rename the local first");
                    }
                }
            }
        }
    }

    /// <summary>One of the member's own parameters (those of its lambdas and local functions are checked).</summary>
    private static bool IsOwnParameter(SyntaxNode node, SyntaxNode declaration) =>
        node is ParameterSyntax && node.Parent?.Parent == declaration;

    private static JsonObject Json(string file, int line, int column, string name) => new()
    {
        ["file"] = file,
        ["line"] = line,
        ["column"] = column,
        ["name"] = name,
    };
}
