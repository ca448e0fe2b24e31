using System.Text.Json.Nodes;

namespace RoslynMcp.Host.Protocol;

/// <summary>A failure the client should see with its catalog code, rather than as ROSLYN_ERROR.</summary>
public sealed class HostErrorException(HostError error) : Exception(error.Message)
{
    public HostError Error { get; } = error;

    public static HostErrorException Create(ErrorCode code, string message, JsonObject? details = null, params string[] suggestions) =>
        new(new HostError(code, message, details?.ToJsonString() ?? "", [.. suggestions]));
}
