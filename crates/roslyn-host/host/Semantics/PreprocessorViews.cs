using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMcp.Host.Semantics;

/// <summary>
/// How the projects compiling one file (one per target framework) see it. The same text parses to the same tree
/// wherever the language version is the same (the parser reads some syntax by version) and the symbols its
/// <c>#if</c> and <c>#elif</c> conditions name are defined alike: a file without them is then one tree for
/// every framework, and work on its tree need not be repeated per framework.
/// </summary>
internal static class PreprocessorViews
{
    /// <summary>The symbols the conditions of <paramref name="root"/>'s <c>#if</c> and <c>#elif</c> name.</summary>
    public static HashSet<string> Named(SyntaxNode? root) =>
        root?.DescendantTrivia()
            .Select(t => t.GetStructure() switch
            {
                IfDirectiveTriviaSyntax conditional => conditional.Condition,
                ElifDirectiveTriviaSyntax conditional => conditional.Condition,
                _ => null,
            })
            .OfType<ExpressionSyntax>()
            .SelectMany(c => c.DescendantNodesAndSelf().OfType<IdentifierNameSyntax>())
            .Select(n => n.Identifier.ValueText)
            .ToHashSet(StringComparer.Ordinal) ?? [];

    /// <summary>Equal for projects of one language version that define the same of the <paramref name="named"/> symbols.</summary>
    public static string Of(Project project, IReadOnlySet<string> named) =>
        $"{(project.ParseOptions as CSharpParseOptions)?.LanguageVersion}: "
        + string.Join(' ', (project.ParseOptions?.PreprocessorSymbolNames ?? []).Where(named.Contains).Order(StringComparer.Ordinal));

    /// <summary>Of every file's documents among <paramref name="documents"/>, one for each way they see it.</summary>
    public static async Task<List<Document>> OfEachFileAsync(IEnumerable<Document> documents, CancellationToken cancellationToken)
    {
        var distinct = new List<Document>();
        foreach (var file in documents.GroupBy(d => d.FilePath ?? d.Id.ToString(), StringComparer.Ordinal))
        {
            distinct.AddRange(await DistinctAsync([.. file], cancellationToken));
        }
        return distinct;
    }

    /// <summary>One document of <paramref name="documents"/> (the same file's) for each way they see it.</summary>
    public static async Task<List<Document>> DistinctAsync(IReadOnlyList<Document> documents, CancellationToken cancellationToken)
    {
        var named = Named(await documents[0].GetSyntaxRootAsync(cancellationToken));
        return [.. documents.DistinctBy(d => Of(d.Project, named))];
    }
}
