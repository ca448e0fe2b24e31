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

    public sealed record Loaded(MSBuildWorkspace Workspace, Solution Solution, ValueList<WorkspaceDiagnostic> Diagnostics);

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
        var workspace = MSBuildWorkspace.Create(await Composition.ServicesAsync().WaitAsync(cancellationToken));
        using var failures = workspace.RegisterWorkspaceFailedHandler(e =>
        {
            lock (diagnostics)
            {
                diagnostics.Add(new WorkspaceDiagnostic(KindOf(e.Diagnostic.Kind), e.Diagnostic.Message));
            }
        });
        try
        {
            var solution = extension.Equals(".csproj", StringComparison.OrdinalIgnoreCase)
                ? (await workspace.OpenProjectAsync(solutionPath, progress: progress, cancellationToken: cancellationToken)).Solution
                : await workspace.OpenSolutionAsync(solutionPath, progress: progress, cancellationToken: cancellationToken);
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
            return [.. diagnostics];
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
