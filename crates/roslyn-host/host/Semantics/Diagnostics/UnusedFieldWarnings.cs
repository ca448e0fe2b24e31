using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace RoslynMcp.Host.Semantics.Diagnostics;

/// <summary>
/// The warnings only a whole compilation reports — a field never used, read or assigned, an event never used —
/// and whether an edit of method bodies leaves them as they were. Each depends on every body, so an edit that
/// touches such a field keeps them only when, after it, the field is surely both read and assigned: a value of
/// reference type read (a call on it, an argument, an operand, a returned or assigned value) and an initializer or
/// a plain assignment. The field then has no such warning, and it had none before.
/// </summary>
internal static class UnusedFieldWarnings
{
    public static readonly IReadOnlySet<string> Ids = new HashSet<string> { "CS0067", "CS0169", "CS0414", "CS0649" };

    public static bool StayAsTheyWere(
        Compilation before,
        Compilation after,
        ImmutableArray<Diagnostic> diagnostics,
        IEnumerable<(SyntaxTree Before, SyntaxTree After, BodyEdits Edits)> edited,
        CancellationToken cancellationToken)
    {
        var touched = new HashSet<string>(StringComparer.Ordinal);
        var read = new HashSet<string>(StringComparer.Ordinal);
        var assigned = new HashSet<string>(StringComparer.Ordinal);
        foreach (var (was, @is, edits) in edited)
        {
            var oldModel = before.GetSemanticModel(was);
            var newModel = after.GetSemanticModel(@is);
            foreach (var (oldBody, newBody) in edits.Members)
            {
                foreach (var (_, key) in Fields(oldModel, oldBody, cancellationToken))
                {
                    touched.Add(key);
                }
                foreach (var (name, key) in Fields(newModel, newBody, cancellationToken))
                {
                    touched.Add(key);
                    var use = newModel.GetOperation(name, cancellationToken);
                    if (SurelyRead(use))
                    {
                        read.Add(key);
                    }
                    if (SurelyAssigned(use))
                    {
                        assigned.Add(key);
                    }
                }
            }
        }
        if (touched.Count == 0)
        {
            return true;
        }
        var reported = diagnostics.Where(d => Ids.Contains(d.Id) && d.Location.SourceTree is not null)
            .Select(d => d.Location.SourceTree!.GetRoot(cancellationToken).FindToken(d.Location.SourceSpan.Start).ValueText)
            .ToHashSet(StringComparer.Ordinal);
        return touched.All(key => DocumentationCommentId.GetFirstSymbolForDeclarationId(key, after) switch
        {
            IFieldSymbol { IsConst: true } => true,
            IFieldSymbol field when PublicAllTheWay(field) => true,
            IFieldSymbol field => !reported.Contains(field.Name) && read.Contains(key)
                && (assigned.Contains(key) || HasInitializer(field, cancellationToken)),
            _ => false,
        });
    }

    /// <summary>Each name in <paramref name="body"/> that refers to a field or event, with its declaration id.</summary>
    private static IEnumerable<(IdentifierNameSyntax Name, string Key)> Fields(SemanticModel model, SyntaxNode body, CancellationToken cancellationToken)
    {
        foreach (var name in body.DescendantNodes().OfType<IdentifierNameSyntax>())
        {
            var info = model.GetSymbolInfo(name, cancellationToken);
            foreach (var symbol in info.CandidateSymbols.Prepend(info.Symbol))
            {
                if (symbol?.OriginalDefinition is (IFieldSymbol or IEventSymbol) and var member && member.GetDocumentationCommentId() is { } key)
                {
                    yield return (name, key);
                }
            }
        }
    }

    /// <summary>A field of reference type whose value is used: the compiler's flow analysis counts it as read.</summary>
    private static bool SurelyRead(IOperation? use)
    {
        if (use is not IFieldReferenceOperation { Field.Type.IsReferenceType: true })
        {
            return false;
        }
        var child = use;
        var parent = use.Parent;
        while (parent is IConversionOperation { IsImplicit: true })
        {
            child = parent;
            parent = parent.Parent;
        }
        return parent switch
        {
            IInvocationOperation call => call.Instance == child,
            IMemberReferenceOperation member => member.Instance == child,
            IArgumentOperation { Parameter.RefKind: RefKind.None } => true,
            IReturnOperation or IVariableInitializerOperation or IBinaryOperation => true,
            ISimpleAssignmentOperation assignment => assignment.Value == child,
            IConditionalAccessOperation access => access.Operation == child,
            _ => false,
        };
    }

    /// <summary>A plain assignment to a field of this instance (or a static one).</summary>
    private static bool SurelyAssigned(IOperation? use) =>
        use is IFieldReferenceOperation { Instance: null or IInstanceReferenceOperation } field
        && field.Parent is ISimpleAssignmentOperation { IsRef: false } assignment
        && assignment.Target == field;

    private static bool HasInitializer(IFieldSymbol field, CancellationToken cancellationToken) =>
        field.DeclaringSyntaxReferences.Any(r => r.GetSyntax(cancellationToken) is VariableDeclaratorSyntax { Initializer: not null });

    private static bool PublicAllTheWay(ISymbol symbol)
    {
        for (ISymbol? at = symbol; at is not null; at = at.ContainingType)
        {
            if (at.DeclaredAccessibility != Accessibility.Public)
            {
                return false;
            }
        }
        return true;
    }
}
