using System.Collections.Immutable;
using System.Reflection;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynCodeAction = Microsoft.CodeAnalysis.CodeActions.CodeAction;

namespace RoslynMcp.Host.Features.Actions;

/// <summary>
/// Extract interface without its dialog: the IDE asks a person for the name, the file and the members; here they
/// are arguments, with the defaults the dialog would show. Roslyn's options type is internal, so it is made by
/// reflection against the pinned Roslyn version (the host tests would catch a change of its shape).
/// </summary>
internal static class ExtractInterface
{
    private const string ActionType = "Microsoft.CodeAnalysis.ExtractInterface.ExtractInterfaceCodeAction";
    private const string OptionsType = "Microsoft.CodeAnalysis.ExtractInterface.ExtractInterfaceOptionsResult";

    public static bool Is(RoslynCodeAction action) => action.GetType().FullName == ActionType;

    /// <summary>The dialog's defaults for the type declared at <paramref name="span"/>.</summary>
    public static async Task<ExtractInterfaceOptions> DefaultsAsync(Document document, TextSpan span, CancellationToken cancellationToken)
    {
        var type = await TypeAtAsync(document, span, cancellationToken);
        var taken = type.ContainingNamespace.GetTypeMembers().Select(t => t.Name).ToHashSet(StringComparer.Ordinal);
        var name = $"I{type.Name}";
        for (var n = 1; taken.Contains(name); n++)
        {
            name = $"I{type.Name}{n}";
        }
        return new ExtractInterfaceOptions(name, $"{name}.cs", false, Extractable(type).Select(m => m.Name).Distinct().ToValueList());
    }

    /// <summary>Runs the action with <paramref name="options"/>; refused when a member named is not extractable.</summary>
    public static async Task<ImmutableArray<CodeActionOperation>> OperationsAsync(
        RoslynCodeAction action,
        Document document,
        TextSpan span,
        ExtractInterfaceOptions options,
        CancellationToken cancellationToken)
    {
        var type = await TypeAtAsync(document, span, cancellationToken);
        var extractable = Extractable(type);
        var unknown = options.Members.Where(m => extractable.All(e => e.Name != m)).ToList();
        if (unknown.Count > 0)
        {
            throw HostErrorException.Create(
                ErrorCode.InvalidParameter,
                $"{type.Name} has no public instance member {unknown[0]} to extract",
                new JsonObject
                {
                    ["field"] = "options.extractInterface.members",
                    ["extractable"] = new JsonArray([.. extractable.Select(e => JsonValue.Create(e.Name)).Distinct()]),
                },
                "Name members from the action's listed options, or none for all of them");
        }
        var members = options.Members.Count == 0 ? extractable : [.. extractable.Where(e => options.Members.Contains(e.Name))];
        var result = CreateOptions(action, members, options);
        var operations = await ((CodeActionWithOptions)action).GetOperationsAsync(result, cancellationToken);
        return [.. operations ?? []];
    }

    /// <summary>Public instance methods, properties, indexers and events: what extract interface can declare.</summary>
    private static ImmutableArray<ISymbol> Extractable(INamedTypeSymbol type) =>
        [.. type.GetMembers().Where(m => m is { DeclaredAccessibility: Microsoft.CodeAnalysis.Accessibility.Public, IsStatic: false, IsImplicitlyDeclared: false }
            && m is IMethodSymbol { MethodKind: MethodKind.Ordinary } or IPropertySymbol or IEventSymbol)];

    private static async Task<INamedTypeSymbol> TypeAtAsync(Document document, TextSpan span, CancellationToken cancellationToken)
    {
        var model = await document.GetSemanticModelAsync(cancellationToken);
        var root = await document.GetSyntaxRootAsync(cancellationToken);
        var node = root!.FindToken(span.Start).Parent;
        for (; node is not null; node = node.Parent)
        {
            if (model!.GetDeclaredSymbol(node, cancellationToken) is INamedTypeSymbol type)
            {
                return type;
            }
        }
        throw new InvalidOperationException("Extract interface was offered where no type is declared");
    }

    /// <summary>The options the dialog would return, of the type in the action's own assembly.</summary>
    private static object CreateOptions(RoslynCodeAction action, ImmutableArray<ISymbol> members, ExtractInterfaceOptions options)
    {
        var type = action.GetType().Assembly.GetType(OptionsType, throwOnError: true)!;
        var location = type.GetNestedType("ExtractLocation", BindingFlags.Public | BindingFlags.NonPublic)!;
        var where = Enum.Parse(location, options.SameFile ? "SameFile" : "NewFile");
        return Activator.CreateInstance(
            type,
            BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic,
            binder: null,
            [false, members, options.InterfaceName, options.FileName, where],
            culture: null)!;
    }
}
