using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Semantics.Diagnostics;

/// <summary>How diagnostics are written into answers: their severity, and the source of the compiler's.</summary>
public static class DiagnosticFormat
{
    /// <summary>The <c>source</c> of a diagnostic the compiler reports, as opposed to an analyzer.</summary>
    public const string CompilerSource = "compiler";

    public static Severity SeverityOf(DiagnosticSeverity severity) => severity switch
    {
        DiagnosticSeverity.Hidden => Severity.Hidden,
        DiagnosticSeverity.Info => Severity.Info,
        DiagnosticSeverity.Warning => Severity.Warning,
        _ => Severity.Error,
    };
}
