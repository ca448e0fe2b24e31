using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using RoslynMcp.Host.Features.Navigation;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Diagnostics;

namespace RoslynMcp.Host.Dispatch;

/// <summary>
/// Compiles a project as a build would, on the current snapshot: its syntax trees parsed, its references'
/// metadata read and every method body bound; then answers find_references for one of its types, which builds
/// the per-document indexes every search reads across the solution and readies the search's own code.
/// Roslyn keeps what that computes for the snapshot (and carries it to the next one for documents that did not
/// change), so the first question after a load is answered from warm state instead of paying for it. Before
/// the first, the process rehearses searches of every kind of symbol (see <see cref="SearchRehearsal"/>),
/// unless a spare host already did while idle.
/// </summary>
public static class WarmUpHandler
{
    public static async Task<WarmedUp> HandleAsync(Solution solution, WarmUpRequest request, CancellationToken cancellationToken)
    {
        await SearchRehearsal.RunOnceAsync(cancellationToken);
        var documents = 0;
        foreach (var project in ProjectLookup.Find(solution, request.Project))
        {
            var compilation = await project.GetCompilationAsync(cancellationToken);
            if (compilation is null)
            {
                continue;
            }
            CompilerDiagnostics.Of(project, compilation, cancellationToken);
            documents += project.DocumentIds.Count;
            // A type's name in one of the project's documents: not in a source generator's output, which no
            // position names, nor the place of the class the compiler makes for top-level statements (a statement,
            // where no symbol is).
            var declared = TypesIn(compilation.Assembly.GlobalNamespace)
                .SelectMany(t => t.Locations)
                .FirstOrDefault(l => l.IsInSource
                    && project.GetDocument(l.SourceTree) is not null
                    && l.SourceTree!.GetRoot(cancellationToken).FindToken(l.SourceSpan.Start).IsKind(SyntaxKind.IdentifierToken));
            if (declared?.GetLineSpan() is { } at)
            {
                var position = new Position(at.Path, (uint)at.StartLinePosition.Line + 1, (uint)at.StartLinePosition.Character + 1);
                try
                {
                    await ReferencesHandler.HandleAsync(solution, new ReferencesRequest(position, true), cancellationToken);
                }
                catch (HostErrorException error)
                {
                    // Only the search's warmth is lost: the project is compiled, and later projects still warm.
                    Log.Warn($"warm-up of the search on {project.Name} refused: {error.Message}");
                }
            }
        }
        return new WarmedUp((uint)documents);
    }

    private static IEnumerable<INamedTypeSymbol> TypesIn(INamespaceSymbol ns) =>
        ns.GetTypeMembers().Concat(ns.GetNamespaceMembers().SelectMany(TypesIn));
}
