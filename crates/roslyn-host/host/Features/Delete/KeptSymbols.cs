using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Delete;

/// <summary>
/// Why a symbol nothing in the solution references may still be used: code outside the solution, the runtime, a
/// test framework, a serializer or a markup file reaches it without a reference the compiler sees. Such a symbol
/// is deleted only when asked (includePublic).
/// </summary>
internal sealed class KeptSymbols(Project project)
{
    private static readonly string[] MarkupExtensions = [".razor", ".cshtml", ".xaml", ".axaml"];

    /// <summary>The project's Razor and XAML files, read once however many symbols are asked about.</summary>
    private readonly Lazy<List<SearchedFile>> markup = new(() => Markup(project));

    public async Task<string?> WhyAsync(ISymbol symbol, CancellationToken cancellationToken)
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
        var word = new Regex($@"\b{Regex.Escape(symbol.Name)}\b");
        if (markup.Value.FirstOrDefault(f => word.IsMatch(f.Text.ToString())) is { } mentioning)
        {
            return $"{Path.GetFileName(mentioning.Path)} mentions the name {symbol.Name}";
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

    /// <summary>
    /// The Razor and XAML files under the project's folder, as find_replace reads other files (build output,
    /// hidden and linked folders, links, devices and large or binary files left out).
    /// </summary>
    private static List<SearchedFile> Markup(Project project) =>
        Path.GetDirectoryName(project.FilePath) is { } folder && Directory.Exists(folder)
            ? [.. OtherFiles.Under(folder, f => MarkupExtensions.Contains(Path.GetExtension(f), StringComparer.OrdinalIgnoreCase), [])]
            : [];
}
