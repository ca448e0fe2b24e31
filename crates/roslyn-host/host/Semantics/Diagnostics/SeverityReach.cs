using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Severity = RoslynMcp.Host.Protocol.Severity;

namespace RoslynMcp.Host.Semantics.Diagnostics;

/// <summary>
/// Which analyzers can report a diagnostic at or above a severity in a project as it is configured. Most IDE rules
/// are hidden or suggestions unless configured otherwise: asked for warnings, running them is work whose every
/// result is dropped, and it is most of the work (on a five-framework library, two thirds of the analyzers' time).
/// <para>
/// A rule reaches the severity when its default does (once enabled), or the project's options (NoWarn,
/// WarningsAsErrors) or any <c>.editorconfig</c> or global config (<c>dotnet_diagnostic.ID.severity</c>) raise it
/// there. Settings that raise severities without naming a rule make every analyzer run: a code-style option's
/// <c>:warning</c> suffix, a naming rule's severity, a category's or all analyzers' severity. An analyzer that
/// names no rule (a suppressor) or cannot say which it reports always runs.
/// </para>
/// </summary>
internal static class SeverityReach
{
    public static ImmutableArray<DiagnosticAnalyzer> Filter(
        ImmutableArray<DiagnosticAnalyzer> analyzers,
        Project project,
        Compilation compilation,
        Severity minimum,
        CancellationToken cancellationToken)
    {
        var floor = Rank(minimum);
        if (minimum == Severity.Hidden || RaisedWithoutRule(project, compilation, floor))
        {
            return analyzers;
        }
        // Per rule, not per id: two analyzers may describe one id with different defaults.
        var reach = new Dictionary<DiagnosticDescriptor, bool>();
        bool Reaches(DiagnosticDescriptor descriptor)
        {
            if (!reach.TryGetValue(descriptor, out var reached))
            {
                reached = Highest(descriptor, compilation, cancellationToken) >= floor;
                reach[descriptor] = reached;
            }
            return reached;
        }
        var kept = analyzers.Where(a => AnalyzerDiagnostics.Descriptors(a) is not { IsEmpty: false } rules || rules.Any(Reaches)).ToImmutableArray();
        Log.Info($"analyzers: {kept.Length} of {analyzers.Length} can report at {minimum} or above in {project.Name}");
        return kept;
    }

    /// <summary>The highest severity a rule can have in any file of the compilation, as a rank.</summary>
    private static int Highest(DiagnosticDescriptor descriptor, Compilation compilation, CancellationToken cancellationToken)
    {
        var options = compilation.Options;
        var highest = Rank(descriptor.GetEffectiveSeverity(options), descriptor);
        if (options.SyntaxTreeOptionsProvider is not { } configured)
        {
            return highest;
        }
        // A warning configured for a file becomes an error under TreatWarningsAsErrors.
        var warningsAreErrors = options.GeneralDiagnosticOption == ReportDiagnostic.Error;
        int Configured(ReportDiagnostic report) =>
            report == ReportDiagnostic.Warn && warningsAreErrors ? Rank(Severity.Error) : Rank(report, descriptor);
        if (configured.TryGetGlobalDiagnosticValue(descriptor.Id, cancellationToken, out var global))
        {
            highest = Math.Max(highest, Configured(global));
        }
        foreach (var tree in compilation.SyntaxTrees)
        {
            if (configured.TryGetDiagnosticValue(tree, descriptor.Id, cancellationToken, out var report))
            {
                highest = Math.Max(highest, Configured(report));
            }
        }
        return highest;
    }

    /// <summary>Whether a setting of the project raises some severity to <paramref name="floor"/> without naming a rule.</summary>
    private static bool RaisedWithoutRule(Project project, Compilation compilation, int floor)
    {
        var provider = project.AnalyzerOptions.AnalyzerConfigOptionsProvider;
        var seen = new HashSet<AnalyzerConfigOptions>(ReferenceEqualityComparer.Instance) { provider.GlobalOptions };
        foreach (var tree in compilation.SyntaxTrees)
        {
            seen.Add(provider.GetOptions(tree));
        }
        try
        {
            return seen.Any(options => options.Keys.Any(key => options.TryGetValue(key, out var value) && Raises(key, value, floor)));
        }
        catch (NotImplementedException)
        {
            // Options that cannot list their keys: nothing can be ruled out.
            return true;
        }
    }

    private static bool Raises(string key, string value, int floor)
    {
        var severity = key.EndsWith(".severity", StringComparison.OrdinalIgnoreCase)
            && (key.StartsWith("dotnet_analyzer_diagnostic.", StringComparison.OrdinalIgnoreCase)
                || key.StartsWith("dotnet_naming_rule.", StringComparison.OrdinalIgnoreCase))
            ? value
            : value.LastIndexOf(':') is var colon and >= 0 ? value[(colon + 1)..] : null;
        return severity is not null && Named(severity.Trim()) is { } named && named >= floor;
    }

    /// <summary>The rank of a severity as <c>.editorconfig</c> names it; null for what is not a severity.</summary>
    private static int? Named(string severity) => severity.ToLowerInvariant() switch
    {
        "error" => Rank(Severity.Error),
        "warning" => Rank(Severity.Warning),
        "suggestion" => Rank(Severity.Info),
        "silent" or "refactoring" => Rank(Severity.Hidden),
        "none" => 0,
        _ => null,
    };

    private static int Rank(Severity severity) => (int)severity + 1;

    /// <summary>0 for a suppressed rule, else the rank of its severity (its default one for <c>Default</c>).</summary>
    private static int Rank(ReportDiagnostic report, DiagnosticDescriptor descriptor) => report switch
    {
        ReportDiagnostic.Error => Rank(Severity.Error),
        ReportDiagnostic.Warn => Rank(Severity.Warning),
        ReportDiagnostic.Info => Rank(Severity.Info),
        ReportDiagnostic.Hidden => Rank(Severity.Hidden),
        ReportDiagnostic.Default => Rank(DiagnosticFormat.SeverityOf(descriptor.DefaultSeverity)),
        _ => 0,
    };
}
