namespace RoslynMcp.Host.Protocol;

public enum FrameError
{
    /// <summary>The length prefix exceeds <see cref="Frames.MaxPayloadBytes"/>.</summary>
    Oversized,
    /// <summary>The payload is not one well-formed message.</summary>
    Malformed,
}

/// <summary>A frame that cannot be decoded; the byte stream cannot be resynchronised after one.</summary>
public sealed class FrameException(FrameError error, string message) : Exception(message)
{
    public FrameError Error { get; } = error;

    internal static FrameException Malformed(string message) => new(FrameError.Malformed, "malformed frame: " + message);
}
