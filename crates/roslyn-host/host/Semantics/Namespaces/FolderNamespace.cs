using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Semantics.Namespaces;

/// <summary>
/// The namespace a folder implies (the project's root namespace, then each folder below the project, a folder
/// name made an identifier), and one file's move to it: references that name its types with their namespace
/// first, then Roslyn's change namespace service for the declaration and every consumer, then the imports the
/// service lost (<see cref="ConsumerImports"/>). A file in a namespace a referenced assembly declares types in
/// keeps it: it fills in or extends that namespace on purpose.
/// </summary>
internal static class FolderNamespace
{
    /// <summary>The namespace of a file in these folders of the project; null without a root namespace.</summary>
    public static string? Implied(Project project, IEnumerable<string> folders) =>
        project.DefaultNamespace is { Length: > 0 } root ? string.Join('.', [root, .. folders.Select(Identifier)]) : null;

    /// <summary>
    /// <paramref name="solution"/> with the file at <paramref name="path"/> declaring <paramref name="expected"/>, and the change;
    /// the solution unchanged and no change when it already does, or cannot (a warning says why). Each step's time
    /// goes to <paramref name="phases"/>. The files that use its types are found in <paramref name="original"/>, the
    /// solution before any file of the plan changed: a namespace change moves no use of a type to another file,
    /// and one snapshot's compilations serve every file's search instead of each file's recompiling the project.
    /// </summary>
    public static async Task<(Solution Solution, NamespaceChange? Change)> FollowAsync(
        Solution original,
        Solution solution,
        string path,
        string expected,
        List<string> warnings,
        PlanPhases phases,
        CancellationToken cancellationToken)
    {
        var document = PositionResolver.DocumentAt(solution, path)!;
        var declared = Declared(await document.GetSyntaxRootAsync(cancellationToken));
        if (declared is null)
        {
            warnings.Add($"Kept the namespace of {Path.GetFileName(path)}: it declares no single top-level namespace");
            return (solution, null);
        }
        if (declared == expected)
        {
            return (solution, null);
        }
        // The file as the plan found it: its project's references are the same in every later solution of the
        // plan, and the first one's compilation serves every file instead of each changed solution's.
        var first = PositionResolver.DocumentAt(original, path) ?? document;
        if (await ReferencesDeclareAsync(first.Project, declared, cancellationToken))
        {
            warnings.Add($"Kept the namespace of {Path.GetFileName(path)}: {declared} is a namespace of a referenced assembly too, which the file extends on purpose (a polyfill, extension methods where their library's users find them)");
            return (solution, null);
        }
        phases.End("reading");
        var consumers = await ConsumerImports.ConsumersAsync(first, cancellationToken);
        phases.End("consumers");
        var requalified = await QualifiedReferences.RequalifyAsync(solution, document, declared, expected, cancellationToken);
        phases.End("requalified references");
        var next = await RoslynChangeNamespace.ChangeAsync(PositionResolver.DocumentAt(requalified, path)!, expected, cancellationToken);
        phases.End("Roslyn's change namespace");
        if (next is null)
        {
            warnings.Add($"Kept the namespace of {Path.GetFileName(path)}: Roslyn cannot change it (a partial type declared in several files, or code the change cannot reach)");
            return (solution, null);
        }
        // The service changes each target framework's document of a consumer by itself: each file's changes, merged,
        // go to all of them before the next file's change, which would otherwise start from texts that differ.
        var merged = await MergedChanges.IntoEveryFrameworkAsync(solution, next, cancellationToken);
        phases.End("frameworks merged");
        var repaired = await ConsumerImports.RepairAsync(solution, merged, consumers, declared, expected, cancellationToken);
        phases.End("consumers' imports");
        return (repaired, new NamespaceChange(path, declared, expected));
    }

    /// <summary>True when an assembly the project references declares types in the namespace.</summary>
    private static async Task<bool> ReferencesDeclareAsync(Project project, string name, CancellationToken cancellationToken)
    {
        if (await project.GetCompilationAsync(cancellationToken) is not { } compilation)
        {
            return false;
        }
        INamespaceSymbol? found = compilation.GlobalNamespace;
        foreach (var part in name.Split('.'))
        {
            found = found?.GetNamespaceMembers().FirstOrDefault(n => n.Name == part);
        }
        return found is not null && found.ConstituentNamespaces.Any(n =>
            !SymbolEqualityComparer.Default.Equals(n.ContainingAssembly, compilation.Assembly) && !n.GetTypeMembers().IsEmpty);
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
