using System.Reflection;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Host;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMcp.Host.Semantics.Namespaces;

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
        return await task is { } changed ? await WithoutConflictBlocksAsync(document.Project.Solution, changed, cancellationToken) : null;
    }

    /// <summary>
    /// The service merges its changes to each target framework's copy of a file, and writes a change that differs
    /// from the first copy's as a conflict block in the text (Markdig's renderer moved across namespaces: one
    /// framework adds one using, another four). The first copy's change stands for all: each block gives back its
    /// "Before" side, and the compile check holds every framework to the result.
    /// </summary>
    private static async Task<Solution> WithoutConflictBlocksAsync(Solution original, Solution changed, CancellationToken cancellationToken)
    {
        var ids = changed.GetChanges(original).GetProjectChanges().SelectMany(p => p.GetChangedDocuments()).ToList();
        foreach (var id in ids)
        {
            var text = await changed.GetDocument(id)!.GetTextAsync(cancellationToken);
            var before = original.GetDocument(id) is { } document ? (await document.GetTextAsync(cancellationToken)).ToString() : "";
            if (WithoutConflictBlocks(text.ToString()) is { } resolved && !before.Contains(ConflictStart, StringComparison.Ordinal))
            {
                changed = changed.WithDocumentText(id, SourceText.From(resolved, text.Encoding, text.ChecksumAlgorithm));
            }
        }
        return changed;
    }

    private const string ConflictStart = "<<<<<<< TODO: Unmerged change from project ";

    /// <summary>
    /// The text with each block <c>&lt;&lt;&lt;&lt;&lt;&lt;&lt; TODO: Unmerged change from project 'P', Before:</c> ... <c>=======</c>
    /// ... <c>&gt;&gt;&gt;&gt;&gt;&gt;&gt; After</c> replaced by its "Before" lines; null when it has none.
    /// </summary>
    internal static string? WithoutConflictBlocks(string text)
    {
        if (!text.Contains(ConflictStart, StringComparison.Ordinal))
        {
            return null;
        }
        var kept = new StringBuilder();
        var side = Side.Outside;
        foreach (var line in text.Split('\n'))
        {
            var bare = line.Trim();
            if (side == Side.Outside && bare.StartsWith(ConflictStart, StringComparison.Ordinal))
            {
                side = Side.Before;
                continue;
            }
            if (side == Side.Before && bare == "=======")
            {
                side = Side.After;
                continue;
            }
            if (side == Side.After)
            {
                side = bare.StartsWith(">>>>>>>", StringComparison.Ordinal) ? Side.Outside : Side.After;
                continue;
            }
            kept.Append(line).Append('\n');
        }
        return kept.ToString(0, kept.Length - 1);
    }

    private enum Side { Outside, Before, After }
}
