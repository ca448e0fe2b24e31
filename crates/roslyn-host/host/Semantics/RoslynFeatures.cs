using System.Collections.Immutable;
using System.Reflection;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CodeRefactorings;
using Microsoft.CodeAnalysis.Diagnostics;

namespace RoslynMcp.Host.Semantics;

/// <summary>
/// The C# refactoring providers, code fix providers and IDE analyzers that Roslyn's Features assemblies export,
/// made once per process, and the code fix providers of each analyzer reference, made once per reference. The IDE composes them with MEF; every one of them has a parameterless constructor, so
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

    /// <summary>Every diagnostic id a code fix provider fixes in <paramref name="project"/>: Roslyn's or its analyzer references'.</summary>
    public static IReadOnlySet<string> FixableIds(Project project)
    {
        var referenced = References(project).SelectMany(r => r.Keys).ToList();
        return referenced.Count == 0 ? Loaded.Value.FixableIds : Loaded.Value.FixableIds.Concat(referenced).ToHashSet(StringComparer.Ordinal);
    }

    /// <summary>
    /// The code fix providers that fix diagnostics of <paramref name="diagnosticId"/> in <paramref name="project"/>:
    /// Roslyn's, then those its analyzer references ship beside their analyzers (the SDK's CA fixes, StyleCop's).
    /// </summary>
    public static IEnumerable<CodeFixProvider> FixersOf(Project project, string diagnosticId) =>
        Loaded.Value.Fixers.GetValueOrDefault(diagnosticId, [])
            .Concat(References(project).SelectMany(r => r.GetValueOrDefault(diagnosticId, [])));

    /// <summary>A provider that throws offers nothing; the others still do.</summary>
    public static async Task Guarded(object provider, Func<Task> run)
    {
        try
        {
            await run();
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            Log.Warn($"{provider.GetType().Name} failed: {e.GetType().Name}: {e.Message}");
        }
    }

    private static readonly ConditionalWeakTable<AnalyzerFileReference, Dictionary<string, List<CodeFixProvider>>> ReferenceFixers = new();

    private static IEnumerable<Dictionary<string, List<CodeFixProvider>>> References(Project project) =>
        project.AnalyzerReferences.OfType<AnalyzerFileReference>().Select(r => ReferenceFixers.GetValue(r, FixersIn));

    /// <summary>The fixers an analyzer assembly exports; none when it cannot be read.</summary>
    private static Dictionary<string, List<CodeFixProvider>> FixersIn(AnalyzerFileReference reference)
    {
        try
        {
            return ById(Create<CodeFixProvider, ExportCodeFixProviderAttribute>(Sorted(LoadableTypes(reference.GetAssembly())), a => a.Languages));
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            Log.Info($"Roslyn features: no code fixes from {reference.FullPath}: {e.GetType().Name}");
            return [];
        }
    }

    private sealed record Catalog(
        IReadOnlyList<CodeRefactoringProvider> Refactorings,
        Dictionary<string, List<CodeFixProvider>> Fixers,
        ImmutableArray<DiagnosticAnalyzer> Analyzers)
    {
        public IReadOnlySet<string> FixableIds { get; } = Fixers.Keys.ToHashSet(StringComparer.Ordinal);
    }

    private static Catalog Load()
    {
        var types = Sorted(AssemblyNames.Select(Assembly.Load).SelectMany(LoadableTypes));
        var refactorings = Create<CodeRefactoringProvider, ExportCodeRefactoringProviderAttribute>(types, a => a.Languages);
        var fixers = ById(Create<CodeFixProvider, ExportCodeFixProviderAttribute>(types, a => a.Languages));
        var analyzers = Create<DiagnosticAnalyzer, DiagnosticAnalyzerAttribute>(types, a => a.Languages);
        Log.Info($"Roslyn features: {refactorings.Count} refactorings, {fixers.Values.SelectMany(f => f).Distinct().Count()} code fixes, {analyzers.Count} analyzers");
        return new Catalog(refactorings, fixers, [.. analyzers]);
    }

    private static List<Type> Sorted(IEnumerable<Type> types) =>
        [.. types.Where(t => t is { IsAbstract: false, IsGenericTypeDefinition: false }).OrderBy(t => t.FullName, StringComparer.Ordinal)];

    private static Dictionary<string, List<CodeFixProvider>> ById(IEnumerable<CodeFixProvider> fixers)
    {
        var byId = new Dictionary<string, List<CodeFixProvider>>(StringComparer.Ordinal);
        foreach (var fixer in fixers)
        {
            foreach (var id in fixer.FixableDiagnosticIds.Distinct())
            {
                (byId.TryGetValue(id, out var list) ? list : byId[id] = []).Add(fixer);
            }
        }
        return byId;
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
