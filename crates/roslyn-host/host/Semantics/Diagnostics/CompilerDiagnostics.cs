using System.Collections.Immutable;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;

namespace RoslynMcp.Host.Semantics.Diagnostics;

/// <summary>
/// The compiler's diagnostics of a whole compilation, kept as long as the compilation lives. Roslyn binds every
/// method body again on each <see cref="Compilation.GetDiagnostics"/>, while a project nothing changed keeps its
/// <see cref="Compilation"/> from one snapshot to the next: the warm-up, solution-wide diagnostics, a fix-all and
/// the compile check of every write ask the same compilation, and pay for it once. A project's new compilation
/// starts from its last one's diagnostics when only method bodies changed (<see cref="CarriedDiagnostics"/>).
/// </summary>
public static class CompilerDiagnostics
{
    private static readonly ConditionalWeakTable<Compilation, StrongBox<ImmutableArray<Diagnostic>>> Kept = new();

    /// <summary>Each project's last computed compilation, for as long as its workspace holds the project's id.</summary>
    private static readonly ConditionalWeakTable<ProjectId, Computed> Last = new();

    private sealed record Computed(Compilation Compilation, ImmutableArray<Diagnostic> Diagnostics);

    public static ImmutableArray<Diagnostic> Of(Project project, Compilation compilation, CancellationToken cancellationToken)
    {
        if (Kept.TryGetValue(compilation, out var kept))
        {
            return kept.Value;
        }
        // A cancelled computation throws before anything is kept; two callers racing compute the same thing.
        var diagnostics = Last.TryGetValue(project.Id, out var last)
            && CarriedDiagnostics.From(last.Compilation, last.Diagnostics, compilation, cancellationToken) is { } carried
            ? carried
            : compilation.GetDiagnostics(cancellationToken);
        Kept.AddOrUpdate(compilation, new StrongBox<ImmutableArray<Diagnostic>>(diagnostics));
        Last.AddOrUpdate(project.Id, new Computed(compilation, diagnostics));
        return diagnostics;
    }

    /// <summary>The compilation's diagnostics if they were computed and are still kept.</summary>
    public static ImmutableArray<Diagnostic>? KeptOf(Compilation compilation) =>
        Kept.TryGetValue(compilation, out var kept) ? kept.Value : null;

    /// <summary>
    /// The diagnostics of a planned compilation, never applied: carried from <paramref name="baseCompilation"/>
    /// (the compilation the plan changes, whose diagnostics are computed first) when only bodies changed. A plan
    /// is not the project's last compilation: the next plan still carries from the workspace's own.
    /// </summary>
    public static ImmutableArray<Diagnostic> OfPlanned(
        Project baseProject,
        Compilation baseCompilation,
        Compilation planned,
        CancellationToken cancellationToken)
    {
        if (Kept.TryGetValue(planned, out var kept))
        {
            return kept.Value;
        }
        var baseDiagnostics = Of(baseProject, baseCompilation, cancellationToken);
        var diagnostics = CarriedDiagnostics.From(baseCompilation, baseDiagnostics, planned, cancellationToken)
            ?? planned.GetDiagnostics(cancellationToken);
        Kept.AddOrUpdate(planned, new StrongBox<ImmutableArray<Diagnostic>>(diagnostics));
        return diagnostics;
    }
}
