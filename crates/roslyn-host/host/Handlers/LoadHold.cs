namespace RoslynMcp.Host.Handlers;

/// <summary>
/// A test fault: with <see cref="Variable"/> naming a file, every Load waits (cancellably) until that file exists,
/// so that tests can watch the service while a load is under way without racing the clock.
/// </summary>
public sealed class LoadHold(string? releaseFile)
{
    public const string Variable = "ROSLYN_MCP_FAULT_HOLD_LOAD";

    private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(20);

    public static LoadHold FromEnvironment() => new(Environment.GetEnvironmentVariable(Variable));

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
