namespace RoslynMcp.Host.Dispatch;

/// <summary>
/// A test fault: with its environment variable naming a file, the step it guards (every load, every warm-up)
/// waits (cancellably) until that file exists, so that tests can watch the service while the step is under way
/// without racing the clock.
/// </summary>
public sealed class ReleaseHold(string? releaseFile)
{
    public const string LoadVariable = "ROSLYN_MCP_FAULT_HOLD_LOAD";

    public const string WarmUpVariable = "ROSLYN_MCP_FAULT_HOLD_WARMUP";

    private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(20);

    public static ReleaseHold FromEnvironment(string variable) => new(Environment.GetEnvironmentVariable(variable));

    public bool Armed => !string.IsNullOrEmpty(releaseFile);

    public async Task WaitAsync(CancellationToken cancellationToken)
    {
        if (!Armed)
        {
            return;
        }
        while (!File.Exists(releaseFile))
        {
            await Task.Delay(Poll, cancellationToken);
        }
    }
}
