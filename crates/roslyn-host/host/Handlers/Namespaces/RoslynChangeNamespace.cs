using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Host;

namespace RoslynMcp.Host.Handlers.Namespaces;

/// <summary>
/// Roslyn's change namespace service (what its "Change namespace to match folder" fix runs): a document's
/// top-level namespace changed, every reference across the solution updated (usings added, qualified names
/// rewritten). The service is internal to Microsoft.CodeAnalysis.Features, so it is driven by reflection against
/// the pinned Roslyn version; the host test <c>SyncNamespacesTests.TheServiceHasTheShapeThisDriverExpects</c>
/// fails when that shape changes.
/// </summary>
internal static class RoslynChangeNamespace
{
    public const string ServiceType = "Microsoft.CodeAnalysis.ChangeNamespace.AbstractChangeNamespaceService";
    public const string Method = "TryChangeTopLevelNamespacesAsync";

    private static readonly Assembly Features = typeof(Microsoft.CodeAnalysis.Completion.CompletionItem).Assembly;

    /// <summary>The solution with the document's top-level namespace changed; null when Roslyn declines.</summary>
    public static async Task<Solution?> ChangeAsync(Document document, string target, CancellationToken cancellationToken)
    {
        var abstractType = Features.GetType(ServiceType, throwOnError: true)!;
        var contract = abstractType.GetInterfaces().Single(i => i.Name == "IChangeNamespaceService");
        var getService = typeof(LanguageServices).GetMethod(nameof(LanguageServices.GetService))!.MakeGenericMethod(contract);
        var service = getService.Invoke(document.Project.Services, null)
            ?? throw new InvalidOperationException("Roslyn's change namespace service is not in the host's composition");
        var task = (Task<Solution?>)abstractType.GetMethod(Method)!.Invoke(service, [document, target, cancellationToken])!;
        return await task;
    }
}
