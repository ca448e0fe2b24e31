using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Unused;

/// <summary>
/// Non-private members nothing in the solution references (no analyzer reports them: outside code might). Never
/// overrides, virtual or abstract members, interface implementations, entry points or members with attributes
/// (reflection, serializers and test frameworks find those without a reference).
/// </summary>
internal static class UnreferencedMembers
{
    /// <summary>The identifiers of the document's unreferenced members, as its project sees them.</summary>
    public static async Task<List<TextSpan>> InAsync(Document document, CancellationToken cancellationToken)
    {
        var root = (await document.GetSyntaxRootAsync(cancellationToken))!;
        var model = (await document.GetSemanticModelAsync(cancellationToken))!;
        var entryPoint = model.Compilation.GetEntryPoint(cancellationToken);
        var spans = new List<TextSpan>();
        foreach (var (declaration, identifier) in MemberDeclarations.In(root))
        {
            if (model.GetDeclaredSymbol(declaration, cancellationToken) is { } symbol
                && IsCandidate(symbol, entryPoint)
                && !(await SymbolFinder.FindReferencesAsync(symbol, document.Project.Solution, cancellationToken)).Any(r => r.Locations.Any()))
            {
                spans.Add(identifier.Span);
            }
        }
        return spans;
    }

    /// <summary>Removes the members' declarations; returns the items removed.</summary>
    public static async Task<List<UnusedItem>> RemoveAsync(EvolvingSolution state, IReadOnlyList<UnusedItem> items, CancellationToken cancellationToken)
    {
        var editor = new SolutionEditor(state.Current);
        var removed = new List<UnusedItem>();
        foreach (var item in items)
        {
            if (state.Map(item.Path, item.Span) is not { } span || state.DocumentAt(item.Path) is not { } document)
            {
                continue;
            }
            var documentEditor = await editor.GetDocumentEditorAsync(document.Id, cancellationToken);
            if (MemberDeclarations.ToRemove(documentEditor.OriginalRoot, span.Start) is { } declaration)
            {
                NodeRemoval.Remove(documentEditor, declaration);
                removed.Add(item);
            }
        }
        await state.CommitAsync(editor.GetChangedSolution(), cancellationToken);
        return removed;
    }

    private static bool IsCandidate(ISymbol symbol, IMethodSymbol? entryPoint) =>
        symbol.DeclaredAccessibility is not (Accessibility.Private or Accessibility.NotApplicable)
        && symbol is { IsImplicitlyDeclared: false, IsOverride: false, IsVirtual: false, IsAbstract: false, IsExtern: false }
        && symbol.ContainingType is { TypeKind: TypeKind.Class or TypeKind.Struct }
        && symbol.GetAttributes().IsEmpty
        && !SymbolEqualityComparer.Default.Equals(symbol, entryPoint)
        && symbol switch
        {
            IMethodSymbol method => method is
            {
                MethodKind: MethodKind.Ordinary,
                ExplicitInterfaceImplementations.IsEmpty: true,
                PartialDefinitionPart: null,
                PartialImplementationPart: null,
            } && !(method is { Name: "Main", IsStatic: true }),
            IPropertySymbol property => property is { IsIndexer: false, ExplicitInterfaceImplementations.IsEmpty: true },
            IEventSymbol @event => @event.ExplicitInterfaceImplementations.IsEmpty,
            _ => symbol is IFieldSymbol,
        }
        && !ImplementsInterface(symbol);

    private static bool ImplementsInterface(ISymbol symbol) =>
        symbol.ContainingType.AllInterfaces.SelectMany(i => i.GetMembers())
            .Any(m => SymbolEqualityComparer.Default.Equals(symbol.ContainingType.FindImplementationForInterfaceMember(m), symbol));
}
