using Microsoft.CodeAnalysis;

namespace RoslynMcp.Host.Handlers.Delete;

/// <summary>
/// Why a symbol nothing in the solution references may still be used: code outside the solution, the runtime, a
/// test framework, a serializer or a markup file reaches it without a reference the compiler sees. Such a symbol
/// is deleted only when asked (includePublic).
/// </summary>
internal static class KeptSymbols
{
    private static readonly string[] MarkupExtensions = [".razor", ".cshtml", ".xaml", ".axaml"];

    public static async Task<string?> WhyAsync(ISymbol symbol, Project project, CancellationToken cancellationToken)
    {
        if (symbol is IParameterSymbol or ILocalSymbol || symbol is IMethodSymbol { MethodKind: MethodKind.LocalFunction })
        {
            return null;
        }
        if (symbol.IsOverride)
        {
            return "it overrides a base member: calls through the base run it";
        }
        if (ImplementedInterfaceMember(symbol) is { } implemented)
        {
            return $"it implements {implemented.ToDisplayString(SymbolFormat.Display)}: calls through the interface run it";
        }
        var entryPoint = (await project.GetCompilationAsync(cancellationToken))?.GetEntryPoint(cancellationToken);
        if (entryPoint is not null && (SymbolEqualityComparer.Default.Equals(entryPoint, symbol) || SymbolEqualityComparer.Default.Equals(entryPoint.ContainingType, symbol)))
        {
            return "it is the program's entry point";
        }
        if (symbol.GetAttributes().FirstOrDefault() is { AttributeClass: { } attribute })
        {
            return $"it has the attribute [{attribute.Name}]: test frameworks, serializers and reflection find members by their attributes";
        }
        if (PublicApi(symbol, project) is { } api)
        {
            return api;
        }
        if (MarkupMentioning(symbol.Name, project) is { } markup)
        {
            return $"{Path.GetFileName(markup)} mentions the name {symbol.Name}";
        }
        return null;
    }

    /// <summary>Why a library's public or protected symbol is kept: code outside the solution may use it.</summary>
    public static string? PublicApi(ISymbol symbol, Project project) =>
        project.CompilationOptions?.OutputKind == OutputKind.DynamicallyLinkedLibrary && IsVisibleOutside(symbol)
            ? $"it is public API of the library {Path.GetFileNameWithoutExtension(project.FilePath) ?? project.Name}: code outside the solution may use it"
            : null;

    private static ISymbol? ImplementedInterfaceMember(ISymbol symbol) => symbol.ContainingType is { } type && symbol is not INamedTypeSymbol
        ? type.AllInterfaces.SelectMany(i => i.GetMembers())
            .FirstOrDefault(m => SymbolEqualityComparer.Default.Equals(type.FindImplementationForInterfaceMember(m), symbol))
        : null;

    /// <summary>Public or protected, in types that are too, all the way out.</summary>
    private static bool IsVisibleOutside(ISymbol symbol)
    {
        for (var s = symbol; s is not null and not INamespaceSymbol; s = s.ContainingSymbol)
        {
            if (s.DeclaredAccessibility is not (Accessibility.Public or Accessibility.Protected or Accessibility.ProtectedOrInternal))
            {
                return false;
            }
        }
        return true;
    }

    /// <summary>A Razor or XAML file of the project whose text holds the name as a word.</summary>
    private static string? MarkupMentioning(string name, Project project)
    {
        if (Path.GetDirectoryName(project.FilePath) is not { } folder || !Directory.Exists(folder))
        {
            return null;
        }
        var options = new EnumerationOptions { RecurseSubdirectories = true, IgnoreInaccessible = true, AttributesToSkip = FileAttributes.ReparsePoint };
        var pattern = new System.Text.RegularExpressions.Regex($@"\b{System.Text.RegularExpressions.Regex.Escape(name)}\b");
        return Directory.EnumerateFiles(folder, "*", options)
            .Where(f => MarkupExtensions.Contains(Path.GetExtension(f), StringComparer.OrdinalIgnoreCase))
            .FirstOrDefault(f => pattern.IsMatch(File.ReadAllText(f)));
    }
}
