using System.Collections;
using System.Collections.Immutable;
using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Host;

namespace RoslynMcp.Host.Features.Signature;

/// <summary>One parameter of the new list as Roslyn's engine takes it: one it has now, or one added.</summary>
internal abstract record EngineParameter
{
    public sealed record Existing(int Ordinal) : EngineParameter;

    /// <summary><paramref name="Argument"/> empty: calls pass nothing (the parameter must then have a default).</summary>
    public sealed record Added(ITypeSymbol Type, string TypeName, string Name, string DefaultValue, string Argument, bool Named) : EngineParameter;
}

/// <summary>
/// Roslyn's change signature without its dialog: the IDE asks a person for the new parameter list; here it is an
/// argument. The engine (its service, context, parameter configuration and options) is internal to
/// Microsoft.CodeAnalysis.Features, so it is driven by reflection against the pinned Roslyn version; the host test
/// <c>ChangeSignatureTests.TheEngineHasTheShapeThisDriverExpects</c> fails when that shape changes.
/// </summary>
internal sealed class RoslynChangeSignature
{
    private const string Namespace = "Microsoft.CodeAnalysis.ChangeSignature.";
    private const BindingFlags Members = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic;

    /// <summary>Every internal type this driver uses, by name: what the shape test checks.</summary>
    public static readonly string[] Types =
    [
        "AbstractChangeSignatureService", "ChangeSignatureAnalysisSucceededContext", "CannotChangeSignatureAnalyzedContext",
        "ParameterConfiguration", "Parameter", "ExistingParameter", "AddedParameter", "CallSiteKind", "SignatureChange",
        "ChangeSignatureOptionsResult", "ChangeSignatureResult", "ChangeSignatureFailureKind",
    ];

    private static readonly Assembly Features = typeof(Microsoft.CodeAnalysis.Completion.CompletionItem).Assembly;

    private readonly object service;
    private readonly object context;

    private RoslynChangeSignature(object service, object context)
    {
        this.service = service;
        this.context = context;
    }

    /// <summary>The member the engine changes for a position (its own choice: a call names its method).</summary>
    public ISymbol Symbol => (ISymbol)Field(context, "Symbol");

    /// <summary>
    /// The engine's analysis at <paramref name="position"/>: null when nothing there has a signature it changes
    /// (with the reason Roslyn gives: DefinedInMetadata or IncorrectKind).
    /// </summary>
    public static async Task<(RoslynChangeSignature? Engine, string Failure)> AtAsync(Document document, int position, CancellationToken cancellationToken)
    {
        var serviceType = TypeOf("AbstractChangeSignatureService");
        var getService = typeof(LanguageServices).GetMethod(nameof(LanguageServices.GetService))!.MakeGenericMethod(serviceType);
        var service = getService.Invoke(document.Project.Services, null)
            ?? throw new InvalidOperationException("Roslyn's change signature service is not in the host's composition");
        var analyze = serviceType.GetMethod("GetChangeSignatureContextAsync", Members)!;
        var context = await ResultOf(analyze.Invoke(service, [document, position, false, cancellationToken])!);
        if (context.GetType().Name != "ChangeSignatureAnalysisSucceededContext")
        {
            return (null, Field(context, "CannotChangeSignatureReason").ToString()!);
        }
        return (new RoslynChangeSignature(service, context), "");
    }

    /// <summary>The parameters as the engine lists them (an extension method's <c>this</c> first).</summary>
    public IReadOnlyList<IParameterSymbol> Parameters =>
        [.. Existing().Select(p => (IParameterSymbol)Property(p, "Symbol"))];

    /// <summary>The solution with the signature changed everywhere the engine reaches; the engine's confirmation
    /// question (which the IDE would show), if any, beside it.</summary>
    public async Task<(Solution Solution, string? Confirmation)> ChangeAsync(IReadOnlyList<EngineParameter> parameters, CancellationToken cancellationToken)
    {
        var existing = Existing();
        var parameterType = TypeOf("Parameter");
        var list = Array.CreateInstance(parameterType, parameters.Count);
        for (var i = 0; i < parameters.Count; i++)
        {
            list.SetValue(parameters[i] switch
            {
                EngineParameter.Existing e => existing[e.Ordinal],
                EngineParameter.Added a => CreateAdded(a),
                _ => throw new InvalidOperationException("unknown parameter"),
            }, i);
        }
        var configurationType = TypeOf("ParameterConfiguration");
        var original = Field(context, "ParameterConfiguration");
        var isExtension = Field(original, "ThisParameter") is not null;
        var create = configurationType.GetMethod("Create", BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic)!;
        var updated = create.Invoke(null, [ImmutableArrayOf(parameterType, list), isExtension, Field(original, "SelectedIndex")])!;
        var change = New("SignatureChange", original, updated);
        var options = New("ChangeSignatureOptionsResult", change, false);
        var run = TypeOf("AbstractChangeSignatureService").GetMethod("ChangeSignatureWithContextAsync", Members)!;
        var result = await ResultOf(run.Invoke(service, [context, options, cancellationToken])!);
        if (!(bool)Property(result, "Succeeded"))
        {
            throw new InvalidOperationException($"Roslyn's change signature failed: {Property(result, "ChangeSignatureFailureKind")}");
        }
        return ((Solution)Property(result, "UpdatedSolution"), (string?)Property(result, "ConfirmationMessage"));
    }

    private object CreateAdded(EngineParameter.Added added)
    {
        var kinds = TypeOf("CallSiteKind");
        var kind = Enum.Parse(kinds, added.Argument.Length == 0 ? "Omitted" : added.Named ? "ValueWithName" : "Value");
        return New(
            "AddedParameter",
            added.Type,
            added.TypeName,
            added.Name,
            kind,
            added.Argument,
            added.DefaultValue.Length == 0,
            added.DefaultValue,
            added.Type.TypeKind != TypeKind.Error);
    }

    private List<object> Existing() =>
        [.. ((IEnumerable)TypeOf("ParameterConfiguration").GetMethod("ToListOfParameters", Members)!
            .Invoke(Field(context, "ParameterConfiguration"), null)!).Cast<object>()];

    private static Type TypeOf(string name) => Features.GetType(Namespace + name, throwOnError: true)!;

    private static object New(string type, params object?[] arguments) =>
        Activator.CreateInstance(TypeOf(type), Members, binder: null, arguments, culture: null)!;

    private static object Field(object target, string name) =>
        target.GetType().GetField(name, Members)!.GetValue(target)!;

    private static object Property(object target, string name) =>
        target.GetType().GetProperty(name, Members)!.GetValue(target)!;

    private static object ImmutableArrayOf(Type element, Array items)
    {
        var createRange = typeof(ImmutableArray).GetMethods()
            .Single(m => m.Name == nameof(ImmutableArray.CreateRange) && m.GetParameters() is [{ ParameterType.IsGenericType: true } p]
                && p.ParameterType.GetGenericTypeDefinition() == typeof(IEnumerable<>));
        return createRange.MakeGenericMethod(element).Invoke(null, [items])!;
    }

    /// <summary>Awaits a task whose result type is internal.</summary>
    private static async Task<object> ResultOf(object task)
    {
        await (Task)task;
        return task.GetType().GetProperty("Result")!.GetValue(task)!;
    }
}
