namespace RoslynMcp.Host;

/// <summary>One line per event on stderr: stdout is not ours to write (the broker ignores it).</summary>
internal static class Log
{
    private static readonly Lock Gate = new();

    public static void Info(string message) => Write("info", message);

    public static void Warn(string message) => Write("warn", message);

    public static void Error(string message) => Write("error", message);

    private static void Write(string level, string message)
    {
        // Multi-line messages (exception traces) would break the one-line-per-event rule.
        var line = $"{DateTime.UtcNow:HH:mm:ss.fff} {level} roslyn-host: {message.ReplaceLineEndings(" | ")}";
        lock (Gate)
        {
            Console.Error.WriteLine(line);
        }
    }
}
