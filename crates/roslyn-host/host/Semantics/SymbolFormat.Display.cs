using Microsoft.CodeAnalysis;

namespace RoslynMcp.Host.Semantics;

// Roslyn alone: the benches' probe compiles this file too, so that it writes names as the service does.
public static partial class SymbolFormat
{
    /// <summary><c>Shop.Core.Services.PriceCalculator.Calculate(decimal)</c>: C# keywords, no <c>global::</c>.</summary>
    public static readonly SymbolDisplayFormat Display = SymbolDisplayFormat.FullyQualifiedFormat
        .WithGlobalNamespaceStyle(SymbolDisplayGlobalNamespaceStyle.Omitted)
        .WithMemberOptions(
            SymbolDisplayMemberOptions.IncludeContainingType |
            SymbolDisplayMemberOptions.IncludeExplicitInterface |
            SymbolDisplayMemberOptions.IncludeParameters)
        .WithParameterOptions(
            SymbolDisplayParameterOptions.IncludeType |
            SymbolDisplayParameterOptions.IncludeParamsRefOut |
            SymbolDisplayParameterOptions.IncludeExtensionThis);
}
