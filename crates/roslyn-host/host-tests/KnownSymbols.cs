using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>Symbols of the Shop fixture as the host describes them, shared by the codec and handler tests.</summary>
internal static class KnownSymbols
{
    /// <summary>`PriceCalculator.Calculate(decimal)`, also the symbol of the golden vectors.</summary>
    public static SymbolSummary Calculate { get; } = new(
        "Calculate",
        "Method",
        "Shop.Core.Services.PriceCalculator.Calculate(decimal)",
        "Shop.Core.Services.PriceCalculator",
        "Shop.Core.Services",
        "Shop.Core",
        false,
        "M:Shop.Core.Services.PriceCalculator.Calculate(System.Decimal)");
}
