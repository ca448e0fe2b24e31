using System.Diagnostics;
using Microsoft.CodeAnalysis.MSBuild;

namespace RoslynMcp.Host.Workspace;

/// <summary>
/// A load of a one-line project of the host's own, in a workspace thrown away after it, run by a spare host
/// while idle. A process's first MSBuildWorkspace load costs about a third of a second more than the next
/// one, even in a new workspace (Shop: 1,755 against 1,393 ms): the loading code runs for the first time. The
/// rehearsal pays that before a solution is asked for; its build host exits with it, so the solution's own
/// build host chooses its SDK from the solution's folder as always. What the host rehearses next (its
/// searches) follows it. A load that comes first cancels it.
/// </summary>
public static class LoadRehearsal
{
    /// <summary>
    /// The project it loads. MSBuild imports the <c>Directory.Build.*</c> and <c>Directory.Packages.props</c>
    /// of every folder above a project, and the temporary folder may be shared with other users: none is
    /// imported, which must be said before the SDK's props.
    /// </summary>
    private static readonly string ProjectText = $"""
        <Project>
          <PropertyGroup>
            <ImportDirectoryBuildProps>false</ImportDirectoryBuildProps>
            <ImportDirectoryBuildTargets>false</ImportDirectoryBuildTargets>
            <ImportDirectoryPackagesProps>false</ImportDirectoryPackagesProps>
          </PropertyGroup>
          <Import Project="Sdk.props" Sdk="Microsoft.NET.Sdk" />
          <PropertyGroup>
            <TargetFramework>net{Environment.Version.Major}.0</TargetFramework>
          </PropertyGroup>
          <Import Project="Sdk.targets" Sdk="Microsoft.NET.Sdk" />
        </Project>
        """;

    private static readonly CancellationTokenSource Stopping = new();

    public static void Begin(Func<CancellationToken, Task> next) => _ = Task.Run(() => RehearseAsync(next, Stopping.Token));

    /// <summary>
    /// The service that started this host names its rehearsal folders, so that its guardian removes them
    /// however the host ends (a killed host never runs its <c>finally</c>).
    /// </summary>
    private static string ServicePid =>
        Environment.GetEnvironmentVariable("ROSLYN_MCP_SERVICE_PID") ?? Environment.ProcessId.ToString();

    /// <summary>Cancels a rehearsal still running: a real load needs the cores.</summary>
    public static void Stop() => Stopping.Cancel();

    private static async Task RehearseAsync(Func<CancellationToken, Task> next, CancellationToken cancellationToken)
    {
        var folder = Directory.CreateTempSubdirectory($"roslyn-mcp-rehearsal-{ServicePid}-");
        try
        {
            var project = Path.Combine(folder.FullName, "Rehearsal.csproj");
            await File.WriteAllTextAsync(project, ProjectText, cancellationToken);
            var clock = Stopwatch.StartNew();
            using (var workspace = MSBuildWorkspace.Create(await Composition.ServicesAsync().WaitAsync(cancellationToken)))
            {
                await workspace.OpenProjectAsync(project, cancellationToken: cancellationToken);
            }
            Log.Info($"load rehearsed in {clock.ElapsedMilliseconds} ms");
            await next(cancellationToken);
        }
        catch (OperationCanceledException)
        {
            Log.Info("the load rehearsal gave way to a load");
        }
        catch (Exception e)
        {
            Log.Warn($"the load rehearsal failed: {e.Message}");
        }
        finally
        {
            try
            {
                folder.Delete(recursive: true);
            }
            catch (IOException)
            {
                // Best effort: a temp folder.
            }
        }
    }
}
