using System.Diagnostics;

namespace RoslynMcp.Host.Workspace;

/// <summary>Runs <c>dotnet restore</c> when a project has never been restored: MSBuildWorkspace cannot resolve references without assets.</summary>
public static class Restore
{
    private static readonly HashSet<string> SkippedFolders = new(StringComparer.OrdinalIgnoreCase) { "bin", "obj", "node_modules" };

    /// <summary>Whether any project under the solution's folder lacks <c>obj/project.assets.json</c>.</summary>
    public static bool IsNeeded(string solutionPath)
    {
        if (solutionPath.EndsWith(".csproj", StringComparison.OrdinalIgnoreCase))
        {
            return !HasAssets(solutionPath);
        }
        var root = Path.GetDirectoryName(solutionPath);
        return root is not null && ProjectFilesUnder(root).Any(project => !HasAssets(project));
    }

    /// <summary>Restores; returns null on success, otherwise why it failed. Output goes to our stderr.</summary>
    public static async Task<string?> RunAsync(string solutionPath, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo(DotnetExecutable())
        {
            ArgumentList = { "restore", solutionPath, "--disable-build-servers" },
            WorkingDirectory = Path.GetDirectoryName(solutionPath) ?? Environment.CurrentDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
        };
        start.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        start.Environment["DOTNET_NOLOGO"] = "1";
        start.Environment["MSBUILDDISABLENODEREUSE"] = "1";

        Log.Info($"restoring {solutionPath}");
        using var process = new Process { StartInfo = start };
        // Our stdout is not a log: the child's output of both streams goes to stderr; its errors go into the
        // failure's message too (a reference cycle, a package the feed lacks), each once.
        var errors = new System.Collections.Concurrent.ConcurrentDictionary<string, byte>();
        process.OutputDataReceived += (_, e) => Forward(e.Data, errors);
        process.ErrorDataReceived += (_, e) => Forward(e.Data, errors);
        try
        {
            process.Start();
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            return $"dotnet restore could not start: {e.Message}";
        }
        process.StandardInput.Close();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        try
        {
            await process.WaitForExitAsync(cancellationToken);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }
        if (process.ExitCode == 0)
        {
            return null;
        }
        var why = errors.Keys.Order(StringComparer.Ordinal).Take(3).ToList();
        return $"dotnet restore {solutionPath} failed with exit code {process.ExitCode}{(why.Count > 0 ? ": " + string.Join("; ", why) : "")}";
    }

    private static void Forward(string? line, System.Collections.Concurrent.ConcurrentDictionary<string, byte> errors)
    {
        if (string.IsNullOrWhiteSpace(line))
        {
            return;
        }
        Log.Info($"restore: {line.Trim()}");
        if (line.Contains(": error ", StringComparison.Ordinal))
        {
            errors.TryAdd(line.Trim(), 0);
        }
    }

    /// <summary>The muxer running us when started as <c>dotnet RoslynMcp.Host.dll</c>, else whatever is on PATH.</summary>
    private static string DotnetExecutable()
    {
        var self = Environment.ProcessPath;
        var name = Path.GetFileNameWithoutExtension(self);
        return self is not null && string.Equals(name, "dotnet", StringComparison.OrdinalIgnoreCase) ? self : "dotnet";
    }

    private static bool HasAssets(string projectPath) =>
        File.Exists(Path.Combine(Path.GetDirectoryName(projectPath) ?? "", "obj", "project.assets.json"));

    private static IEnumerable<string> ProjectFilesUnder(string folder)
    {
        var pending = new Stack<string>([folder]);
        while (pending.TryPop(out var current))
        {
            string[] projects, children;
            try
            {
                projects = Directory.GetFiles(current, "*.csproj");
                children = Directory.GetDirectories(current);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                continue;
            }
            foreach (var project in projects)
            {
                yield return project;
            }
            foreach (var child in children)
            {
                var name = Path.GetFileName(child);
                if (!SkippedFolders.Contains(name) && !name.StartsWith('.'))
                {
                    pending.Push(child);
                }
            }
        }
    }
}
