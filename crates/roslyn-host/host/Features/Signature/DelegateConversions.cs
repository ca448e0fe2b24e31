using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Signature;

/// <summary>
/// A method converted to a delegate (<c>handler += OnEvent</c>, <c>Func&lt;string, int&gt; parse = Parse</c>) keeps
/// only a parameter list the delegate type takes: Roslyn's engine changes the method, never the delegate. Refused
/// (BINDING_CHANGED, naming the place and the delegate) before anything is computed when the change reorders,
/// adds, removes or retypes the parameters of a method so converted; renaming them is fine.
/// </summary>
internal static class DelegateConversions
{
    public static async Task CheckAsync(Solution solution, IReadOnlyList<CallSite> calls, NewSignature signature, string member, CancellationToken cancellationToken)
    {
        if (!signature.ChangesShape)
        {
            return;
        }
        foreach (var call in calls.Where(c => c.Arguments.Count == 0))
        {
            if (solution.GetDocument(call.Location.SourceTree) is not { } document
                || await DelegateAtAsync(document, call.Location.SourceSpan.Start, cancellationToken) is not { } type)
            {
                continue;
            }
            var at = call.Location.GetLineSpan();
            var line = at.StartLinePosition.Line + 1;
            var name = type.ToDisplayString(SymbolFormat.Display);
            throw HostErrorException.Create(
                ErrorCode.BindingChanged,
                $"{member} is converted to the delegate {name} at {at.Path}:{line}; with its parameters changed it would no longer convert",
                new JsonObject { ["file"] = at.Path, ["line"] = line, ["member"] = member, ["delegate"] = name },
                "Call the method from a lambda there first, change the delegate type with it, or only rename parameters");
        }
    }

    /// <summary>The delegate type the method group at <paramref name="position"/> converts to; null for a call or another use.</summary>
    private static async Task<ITypeSymbol?> DelegateAtAsync(Document document, int position, CancellationToken cancellationToken)
    {
        var root = await document.GetSyntaxRootAsync(cancellationToken);
        var model = await document.GetSemanticModelAsync(cancellationToken);
        var node = root?.FindToken(position).Parent;
        // `OnEvent`, `this.OnEvent`, `shipping.Cost`: the whole member access is the method group.
        while (node?.Parent is MemberAccessExpressionSyntax access && access.Name == node)
        {
            node = access;
        }
        return node is null ? null : model?.GetOperation(node, cancellationToken)?.Parent is IDelegateCreationOperation { Type: { } type } ? type : null;
    }
}
