namespace RoslynMcp.Host.Connection;

public static class ExitCodes
{
    /// <summary>Shutdown requested, or the broker closed the connection.</summary>
    public const int Ok = 0;

    /// <summary>Bad command line or the broker's socket could not be reached.</summary>
    public const int Usage = 1;

    /// <summary>A malformed or oversized frame: a byte stream cannot be resynchronised.</summary>
    public const int ProtocolFault = 2;

    /// <summary>The broker speaks another protocol version.</summary>
    public const int VersionMismatch = 3;
}
