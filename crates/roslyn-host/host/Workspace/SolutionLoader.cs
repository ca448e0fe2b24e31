using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.MSBuild;
using RoslynMcp.Host.Protocol;
using WorkspaceDiagnostic = RoslynMcp.Host.Protocol.WorkspaceDiagnostic;
using WorkspaceDiagnosticKind = RoslynMcp.Host.Protocol.WorkspaceDiagnosticKind;

namespace RoslynMcp.Host.Workspace;

/// <summary>Opens a solution or project with MSBuildWorkspace, restoring first when needed.</summary>
public static class SolutionLoader
{
    private static readonly string[] Extensions = [".sln", ".slnx", ".csproj"];

    public sealed record Loaded(Microsoft.CodeAnalysis.Workspace Workspace, Solution Solution, ValueList<WorkspaceDiagnostic> Diagnostics);

    /// <summary>The caller owns (and must dispose) the returned workspace.</summary>
    public static async Task<Loaded> OpenAsync(string solutionPath, IProgress<ProjectLoadProgress> progress, CancellationToken cancellationToken)
    {
        var diagnostics = new List<WorkspaceDiagnostic>();
        if (!File.Exists(solutionPath))
        {
            throw LoadFailed(solutionPath, $"Solution file not found: {solutionPath}", diagnostics);
        }
        var extension = Path.GetExtension(solutionPath);
        if (!Extensions.Contains(extension, StringComparer.OrdinalIgnoreCase))
        {
            throw LoadFailed(solutionPath, $"Not a .sln, .slnx or .csproj file: {solutionPath}", diagnostics);
        }

        if (Restore.IsNeeded(solutionPath))
        {
            var failure = await Restore.RunAsync(solutionPath, cancellationToken);
            if (failure is not null)
            {
                diagnostics.Add(new WorkspaceDiagnostic(WorkspaceDiagnosticKind.Failure, failure));
            }
        }

        // No MSBuildLocator registration: since Roslyn 4.9 MSBuildWorkspace evaluates projects in a BuildHost
        // child process that finds the SDK itself; this process never loads MSBuild.
        LoadRehearsal.Stop();
        var services = await Composition.ServicesAsync().WaitAsync(cancellationToken);
        var beforeLoad = diagnostics.Count;
        if (LoadPartitions.Loaders > 1 && !extension.Equals(".csproj", StringComparison.OrdinalIgnoreCase))
        {
            var projects = await PartitionedLoad.ProjectsOfAsync(solutionPath, cancellationToken);
            var shares = LoadPartitions.Plan(projects, ProjectReferenceItems.Named, LoadPartitions.Loaders);
            if (shares.Count > 1)
            {
                Log.Info($"loading the {projects.Count} projects of {solutionPath} in {shares.Count} shares at once");
                var joined = await LoadWithAsync(
                    new JoinedWorkspace(services), solutionPath, diagnostics,
                    workspace => PartitionedLoad.LoadAsync(workspace, solutionPath, projects, shares, progress, cancellationToken));
                if (joined is not null)
                {
                    return joined;
                }
                diagnostics.RemoveRange(beforeLoad, diagnostics.Count - beforeLoad);
            }
        }
        var loaded = await LoadWithAsync(MSBuildWorkspace.Create(services), solutionPath, diagnostics, async workspace =>
            extension.Equals(".csproj", StringComparison.OrdinalIgnoreCase)
                ? (await workspace.OpenProjectAsync(solutionPath, progress: progress, cancellationToken: cancellationToken)).Solution
                : await workspace.OpenSolutionAsync(solutionPath, progress: progress, cancellationToken: cancellationToken));
        return loaded!;
    }

    /// <summary>
    /// Opens the solution in <paramref name="workspace"/> with <paramref name="open"/>, collecting what the
    /// workspace reports; null when <paramref name="open"/> gave up (the workspace is then disposed).
    /// </summary>
    private static async Task<Loaded?> LoadWithAsync<TWorkspace>(
        TWorkspace workspace, string solutionPath, List<WorkspaceDiagnostic> diagnostics, Func<TWorkspace, Task<Solution?>> open)
        where TWorkspace : Microsoft.CodeAnalysis.Workspace
    {
        using var failures = workspace.RegisterWorkspaceFailedHandler(e =>
        {
            lock (diagnostics)
            {
                diagnostics.Add(new WorkspaceDiagnostic(KindOf(e.Diagnostic.Kind), e.Diagnostic.Message));
            }
        });
        try
        {
            if (await open(workspace) is not { } solution)
            {
                workspace.Dispose();
                return null;
            }
            var reported = Snapshot(diagnostics);
            foreach (var diagnostic in reported)
            {
                Log.Warn($"workspace {diagnostic.Kind}: {diagnostic.Message}");
            }
            if (!solution.ProjectIds.Any())
            {
                throw LoadFailed(solutionPath, $"No project of {solutionPath} could be loaded", reported);
            }
            return new Loaded(workspace, solution, reported.ToValueList());
        }
        catch (Exception e) when (e is not HostErrorException and not OperationCanceledException)
        {
            workspace.Dispose();
            throw LoadFailed(solutionPath, $"Could not load {solutionPath}: {e.Message}", Snapshot(diagnostics));
        }
        catch
        {
            workspace.Dispose();
            throw;
        }
    }

    private static WorkspaceDiagnosticKind KindOf(Microsoft.CodeAnalysis.WorkspaceDiagnosticKind kind) =>
        kind == Microsoft.CodeAnalysis.WorkspaceDiagnosticKind.Failure ? WorkspaceDiagnosticKind.Failure : WorkspaceDiagnosticKind.Warning;

    private static List<WorkspaceDiagnostic> Snapshot(List<WorkspaceDiagnostic> diagnostics)
    {
        lock (diagnostics)
        {
            // A project two shares of a partitioned load both loaded is reported by each.
            return [.. diagnostics.Distinct()];
        }
    }

    private static HostErrorException LoadFailed(string solutionPath, string message, IEnumerable<WorkspaceDiagnostic> diagnostics)
    {
        var list = new JsonArray();
        foreach (var diagnostic in diagnostics)
        {
            list.Add(new JsonObject { ["kind"] = diagnostic.Kind.ToString(), ["message"] = diagnostic.Message });
        }
        return HostErrorException.Create(
            ErrorCode.SolutionLoadFailed,
            message,
            new JsonObject { ["solutionPath"] = solutionPath, ["diagnostics"] = list },
            "Check that the path exists and `dotnet build` succeeds on it",
            "Run `dotnet restore` on the solution if packages are missing");
    }
}
