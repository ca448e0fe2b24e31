using System.Collections.Immutable;
using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CodeRefactorings;
using Microsoft.CodeAnalysis.Diagnostics;

namespace RoslynMcp.Host.Handlers.Actions;

/// <summary>
/// The C# refactoring providers, code fix providers and IDE analyzers that Roslyn's Features assemblies export,
/// made once per process. The IDE composes them with MEF; every one of them has a parameterless constructor, so
/// they are found by their export attributes and created directly, in a fixed order (by type name) so that the
/// same question lists the same actions in the same order.
/// </summary>
internal static class RoslynFeatures
{
    private static readonly string[] AssemblyNames = ["Microsoft.CodeAnalysis.Features", "Microsoft.CodeAnalysis.CSharp.Features"];

    private static readonly Lazy<Catalog> Loaded = new(Load, LazyThreadSafetyMode.ExecutionAndPublication);

    public static IReadOnlyList<CodeRefactoringProvider> Refactorings => Loaded.Value.Refactorings;

    /// <summary>The IDE analyzers (IDExxxx rules), as the IDE runs them beside a project's own analyzers.</summary>
    public static ImmutableArray<DiagnosticAnalyzer> Analyzers => Loaded.Value.Analyzers;

    /// <summary>Every diagnostic id some code fix provider fixes.</summary>
    public static IReadOnlySet<string> FixableIds => Loaded.Value.FixableIds;

    /// <summary>The code fix providers that fix diagnostics of <paramref name="diagnosticId"/>.</summary>
    public static IReadOnlyList<CodeFixProvider> FixersOf(string diagnosticId) =>
        Loaded.Value.Fixers.TryGetValue(diagnosticId, out var fixers) ? fixers : [];

    private sealed record Catalog(
        IReadOnlyList<CodeRefactoringProvider> Refactorings,
        IReadOnlyDictionary<string, List<CodeFixProvider>> Fixers,
        ImmutableArray<DiagnosticAnalyzer> Analyzers)
    {
        public IReadOnlySet<string> FixableIds { get; } = Fixers.Keys.ToHashSet(StringComparer.Ordinal);
    }

    private static Catalog Load()
    {
        var types = AssemblyNames.Select(Assembly.Load).SelectMany(LoadableTypes)
            .Where(t => t is { IsAbstract: false, IsGenericTypeDefinition: false })
            .OrderBy(t => t.FullName, StringComparer.Ordinal)
            .ToList();
        var refactorings = Create<CodeRefactoringProvider, ExportCodeRefactoringProviderAttribute>(types, a => a.Languages);
        var fixers = new Dictionary<string, List<CodeFixProvider>>(StringComparer.Ordinal);
        foreach (var fixer in Create<CodeFixProvider, ExportCodeFixProviderAttribute>(types, a => a.Languages))
        {
            foreach (var id in fixer.FixableDiagnosticIds.Distinct())
            {
                (fixers.TryGetValue(id, out var list) ? list : fixers[id] = []).Add(fixer);
            }
        }
        var analyzers = Create<DiagnosticAnalyzer, DiagnosticAnalyzerAttribute>(types, a => a.Languages);
        Log.Info($"Roslyn features: {refactorings.Count} refactorings, {fixers.Values.SelectMany(f => f).Distinct().Count()} code fixes, {analyzers.Count} analyzers");
        return new Catalog(refactorings, fixers, [.. analyzers]);
    }

    /// <summary>An instance of every type deriving from <typeparamref name="T"/> exported for C#.</summary>
    private static List<T> Create<T, TExport>(IEnumerable<Type> types, Func<TExport, IEnumerable<string>> languages)
        where T : class
        where TExport : Attribute
    {
        var created = new List<T>();
        foreach (var type in types.Where(typeof(T).IsAssignableFrom))
        {
            if (!type.GetCustomAttributes<TExport>(inherit: false).Any(a => languages(a).Contains(LanguageNames.CSharp)))
            {
                continue;
            }
            try
            {
                created.Add((T)Activator.CreateInstance(type, nonPublic: true)!);
            }
            catch (Exception e) when (e is MissingMethodException or TargetInvocationException or TypeLoadException or FileNotFoundException)
            {
                // A provider that needs the IDE's services (or an assembly the host does not ship) is left out.
                Log.Info($"Roslyn features: {type.FullName} left out: {e.GetType().Name}");
            }
        }
        return created;
    }

    private static IEnumerable<Type> LoadableTypes(Assembly assembly)
    {
        try
        {
            return assembly.GetTypes();
        }
        catch (ReflectionTypeLoadException e)
        {
            return e.Types.OfType<Type>();
        }
    }
}
