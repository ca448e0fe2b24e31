namespace RoslynMcp.Host.Semantics;

/// <summary>
/// How far the request running on this flow has come through its files (a whole project's write), told to the
/// listener its connection set: the broker shows it in the call's job and progress notifications. A count
/// without a listener (a warm-up, a test) goes nowhere.
/// </summary>
public static class FileProgress
{
    private static readonly AsyncLocal<Action<int, int>?> Listener = new();

    /// <summary>Sets who hears the counts of the work that runs from here on this flow.</summary>
    public static void Listen(Action<int, int>? listener) => Listener.Value = listener;

    /// <summary>
    /// Each of <paramref name="files"/> in turn, the files done before it reported as it comes: a plan's loop
    /// over a project's files counts itself by going through this.
    /// </summary>
    public static IEnumerable<T> Through<T>(IReadOnlyList<T> files)
    {
        for (var done = 0; done < files.Count; done++)
        {
            Listener.Value?.Invoke(done, files.Count);
            yield return files[done];
        }
    }
}
