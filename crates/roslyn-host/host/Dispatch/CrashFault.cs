using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Dispatch;

/// <summary>
/// A test fault: a snippet containing the text of <see cref="Variable"/> makes the host print a long trace and die,
/// as a stack overflow does, so that tests can watch the service outlive a request that kills its host.
/// </summary>
public sealed class CrashFault(string? marker)
{
    public const string Variable = "ROSLYN_MCP_FAULT_CRASH_ON_CODE";

    /// <summary>Lines of the fake trace: about 6 MB, the order of a real stack overflow's.</summary>
    public const int TraceLines = 100_000;

    public static CrashFault FromEnvironment() => new(Environment.GetEnvironmentVariable(Variable));

    public bool Armed => !string.IsNullOrEmpty(marker);

    /// <summary>Kills the process when <paramref name="body"/> is a snippet holding the marker.</summary>
    public void Check(RequestBody body)
    {
        if (Armed && body is RequestBody.AnalyzeCode { Value.Code: var code } && code.Contains(marker!, StringComparison.Ordinal))
        {
            Log.Error($"fault: crashing on request ({Variable})");
            var stderr = Console.Error;
            for (var frame = 0; frame < TraceLines; frame++)
            {
                stderr.WriteLine($"   at RoslynMcp.Host.Fault.Recurse(Int32 depth) in frame {frame}");
            }
            stderr.Flush();
            Environment.Exit(134);
        }
    }
}
