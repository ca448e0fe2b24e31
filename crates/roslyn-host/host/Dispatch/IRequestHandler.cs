using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Dispatch;

/// <summary>What the connection needs from the request side; tests drive it in-process.</summary>
public interface IRequestHandler
{
    /// <summary>The version of the current solution snapshot (0 before the first load).</summary>
    ulong CurrentVersion { get; }

    /// <summary>
    /// Answers one request with the version of the snapshot it used. Failures become <see cref="Outcome.Err"/>;
    /// only cancellation of <paramref name="cancellationToken"/> escapes, as <see cref="OperationCanceledException"/>.
    /// </summary>
    Task<(Outcome Outcome, ulong WorkspaceVersion)> HandleAsync(RequestBody body, CancellationToken cancellationToken);
}
