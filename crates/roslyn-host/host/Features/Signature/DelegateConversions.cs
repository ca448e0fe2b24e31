using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
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
    public static void Check(IReadOnlyList<CallSite> calls, NewSignature signature, string member)
    {
        if (!signature.ChangesShape || calls.FirstOrDefault(c => c.Delegate is not null) is not { Delegate: { } type } call)
        {
            return;
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
