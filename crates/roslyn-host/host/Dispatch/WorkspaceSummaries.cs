using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Dispatch;

public static class WorkspaceSummaries
{
    public static WorkspaceSummary Describe(SolutionSnapshot snapshot)
    {
        var solution = snapshot.Solution;
        var projects = solution.Projects
            .Select(project => Describe(solution, project))
            .OrderBy(p => p.Name, StringComparer.Ordinal)
            .ThenBy(p => p.FilePath, StringComparer.Ordinal)
            .ToValueList();
        return new WorkspaceSummary(snapshot.SolutionPath, projects, snapshot.LoadDiagnostics, snapshot.Generators.Describe(solution));
    }

    private static ProjectSummary Describe(Solution solution, Project project) => new(
        project.Name,
        project.FilePath ?? "",
        project.AssemblyName,
        TargetFrameworks.Of(solution, project).ToValueList(),
        (uint)project.DocumentIds.Count,
        project.ProjectReferences
            .Select(reference => solution.GetProject(reference.ProjectId)?.Name)
            .OfType<string>()
            .Order(StringComparer.Ordinal)
            .ToValueList());
}
