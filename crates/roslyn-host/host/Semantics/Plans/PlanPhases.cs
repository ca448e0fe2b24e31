using System.Diagnostics;

namespace RoslynMcp.Host.Semantics.Plans;

/// <summary>
/// What each step of a plan took, summed over the files a whole-project plan goes through, logged once the plan
/// is made: on a large project the work around Roslyn's own services (compile checks, diffs, reading consumers)
/// can cost more than the services, and the log says which.
/// </summary>
public sealed class PlanPhases
{
    private readonly Stopwatch total = Stopwatch.StartNew();
    private readonly Stopwatch clock = Stopwatch.StartNew();
    private readonly List<(string Name, TimeSpan Time)> phases = [];

    /// <summary>Ends the step under way as <paramref name="name"/> (added to its earlier ones); the next starts now.</summary>
    public void End(string name)
    {
        var at = phases.FindIndex(p => p.Name == name);
        if (at < 0)
        {
            phases.Add((name, clock.Elapsed));
        }
        else
        {
            phases[at] = (name, phases[at].Time + clock.Elapsed);
        }
        clock.Restart();
    }

    /// <summary>Logs <paramref name="plan"/> with its time and each step's.</summary>
    public void Log(string plan) =>
        Host.Log.Info($"{plan}: {total.Elapsed.TotalMilliseconds:F0} ms ({string.Join(", ", phases.Select(p => $"{p.Name} {p.Time.TotalMilliseconds:F0} ms"))})");
}
