using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using RoslynMcp.Host.Handlers.Plans;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Handlers.Namespaces;

/// <summary>
/// Plans making every file of a project or folder declare the namespace its folder implies: the project's root
/// namespace, then each folder below the project (a folder name made an identifier). Files that already do, or
/// declare no single top-level namespace, get no edit; the others change one at a time with Roslyn's change
/// namespace service, consumers updated (what names the types with their namespace first, which the service
/// misses in places), and the whole must compile without new errors.
/// </summary>
public static class SyncNamespacesHandler
{
    public static async Task<SyncNamespacesPlan> HandleAsync(Solution solution, SyncNamespacesRequest request, CancellationToken cancellationToken)
    {
        var paths = await CoveredFiles.PathsAsync(solution, null, request.Project, cancellationToken);
        if (request.Folder is { } folder)
        {
            var prefix = Path.TrimEndingDirectorySeparator(folder) + Path.DirectorySeparatorChar;
            paths = [.. paths.Where(p => p.StartsWith(prefix, StringComparison.Ordinal))];
        }
        var current = solution;
        var changed = new List<NamespaceChange>();
        var warnings = new List<string>();
        foreach (var path in paths)
        {
            var document = PositionResolver.DocumentAt(current, path)!;
            if (Expected(document) is not { } expected)
            {
                continue;
            }
            var declared = Declared(await document.GetSyntaxRootAsync(cancellationToken));
            if (declared is null || declared == expected)
            {
                if (declared is null)
                {
                    warnings.Add($"Kept {Path.GetFileName(path)}: it declares no single top-level namespace");
                }
                continue;
            }
            var requalified = await QualifiedReferences.RequalifyAsync(current, document, declared, expected, cancellationToken);
            if (await RoslynChangeNamespace.ChangeAsync(PositionResolver.DocumentAt(requalified, path)!, expected, cancellationToken) is not { } next)
            {
                warnings.Add($"Kept {Path.GetFileName(path)}: Roslyn cannot change its namespace (a partial type declared in several files, or code the change cannot reach)");
                continue;
            }
            current = next;
            changed.Add(new NamespaceChange(path, declared, expected));
        }
        var title = $"Sync the namespaces of {changed.Count} file{(changed.Count == 1 ? "" : "s")}";
        var edits = await SolutionEdits.BetweenAsync(solution, current, title, cancellationToken);
        var added = await AddedErrors.BetweenAsync(solution, edits.After, cancellationToken);
        if (added.Count > 0)
        {
            throw PlanErrors.CompilationError("namespace change", added, "Sync a smaller folder, or fix the code the error points at first");
        }
        warnings.AddRange(edits.Warnings);
        return new SyncNamespacesPlan(
            new EditPlan(title, edits.Edits.ToValueList(), (uint)paths.Count, (uint)edits.Changes, warnings.ToValueList()),
            changed.ToValueList());
    }

    /// <summary>The root namespace and the document's folders below its project; null without a root namespace.</summary>
    private static string? Expected(Document document)
    {
        if (document.Project.DefaultNamespace is not { Length: > 0 } root)
        {
            return null;
        }
        return string.Join('.', [root, .. document.Folders.Select(Identifier)]);
    }

    /// <summary>A folder name as a namespace part: what is not an identifier character becomes <c>_</c>.</summary>
    private static string Identifier(string folder)
    {
        var part = new StringBuilder();
        foreach (var c in folder)
        {
            part.Append(SyntaxFacts.IsIdentifierPartCharacter(c) ? c : '_');
        }
        var name = part.ToString();
        return name.Length > 0 && SyntaxFacts.IsIdentifierStartCharacter(name[0]) ? name : "_" + name;
    }

    /// <summary>The one top-level namespace the file declares, or null.</summary>
    private static string? Declared(SyntaxNode? root) =>
        root is CompilationUnitSyntax unit && unit.Members.OfType<BaseNamespaceDeclarationSyntax>().ToList() is [var only]
            && unit.Members.Count == 1 && only.Members.All(m => m is not BaseNamespaceDeclarationSyntax)
            ? only.Name.ToString()
            : null;
}
