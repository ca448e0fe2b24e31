using System.Diagnostics;

namespace RoslynMcp.Host;

/// <summary>
/// The last step before exiting: no child of ours may outlive us. MSBuildWorkspace's BuildHost normally stops
/// when its load finishes or is cancelled, but one busy in a design-time build when we exit would otherwise be
/// orphaned.
/// </summary>
internal static class ChildProcesses
{
    /// <summary>Kills our direct children and their trees; Linux only (it reads /proc), a no-op elsewhere.</summary>
    public static void KillRemaining()
    {
        if (!OperatingSystem.IsLinux())
        {
            return;
        }
        foreach (var pid in DirectChildren())
        {
            try
            {
                using var child = Process.GetProcessById(pid);
                Log.Warn($"killing leftover child process {pid} ({child.ProcessName})");
                child.Kill(entireProcessTree: true);
            }
            catch (Exception e) when (e is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception)
            {
                // Already gone.
            }
        }
    }

    private static List<int> DirectChildren()
    {
        var self = Environment.ProcessId;
        var children = new List<int>();
        foreach (var folder in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(folder), out var pid))
            {
                continue;
            }
            try
            {
                // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may contain spaces and parentheses.
                var stat = File.ReadAllText(Path.Combine(folder, "stat"));
                var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
                if (fields.Length > 1 && int.TryParse(fields[1], out var parent) && parent == self)
                {
                    children.Add(pid);
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // The process ended while we looked.
            }
        }
        return children;
    }
}
