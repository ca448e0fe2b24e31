using System.Diagnostics;

namespace RoslynMcp.Host.Features.Rename;

/// <summary>
/// What each step of a rename plan took, logged once the plan is made: on a large solution the checks around
/// Roslyn's renamer cost more than the renamer itself, and the log says which.
/// </summary>
internal sealed class RenamePhases
{
    private readonly Stopwatch clock = Stopwatch.StartNew();
    private readonly List<string> phases = [];

    /// <summary>Ends the step under way as <paramref name="name"/>; the next starts now.</summary>
    public void End(string name)
    {
        phases.Add($"{name} {clock.Elapsed.TotalMilliseconds:F0} ms");
        clock.Restart();
    }

    public void Log(string symbol, int places, int fileEdits) =>
        Host.Log.Info($"rename of {symbol} planned ({places} places, {fileEdits} file edits): {string.Join(", ", phases)}");
}
