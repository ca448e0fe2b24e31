using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Host;

namespace RoslynMcp.Host.Workspace;

/// <summary>
/// The workspace of a solution whose projects several loaders loaded at once: of MSBuildWorkspace's kind, and
/// allowing the changes it allows, so that Roslyn's features offer what they offer on a solution it loaded.
/// </summary>
public sealed class JoinedWorkspace(HostServices services) : Microsoft.CodeAnalysis.Workspace(services, WorkspaceKind.MSBuild)
{
    public Solution Open(SolutionInfo solution)
    {
        OnSolutionAdded(solution);
        UpdateReferencesAfterAdd();
        return CurrentSolution;
    }

    public override bool CanApplyChange(ApplyChangesKind feature) => feature is
        ApplyChangesKind.ChangeDocument or
        ApplyChangesKind.AddDocument or
        ApplyChangesKind.RemoveDocument or
        ApplyChangesKind.AddMetadataReference or
        ApplyChangesKind.RemoveMetadataReference or
        ApplyChangesKind.AddProjectReference or
        ApplyChangesKind.RemoveProjectReference or
        ApplyChangesKind.AddAnalyzerReference or
        ApplyChangesKind.RemoveAnalyzerReference or
        ApplyChangesKind.ChangeAdditionalDocument;
}
