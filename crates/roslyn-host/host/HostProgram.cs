using System.Net.Sockets;
using RoslynMcp.Host.Connection;
using RoslynMcp.Host.Dispatch;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host;

/// <summary>The process's work, callable in-process by tests: connect, serve one session, clean up.</summary>
public static class HostProgram
{
    public const string Usage = "usage: RoslynMcp.Host --socket <path> [--rehearse-load]";

    public static async Task<int> RunAsync(string[] args, CancellationToken cancellationToken = default)
    {
        if (args is not (["--socket", _] or ["--socket", _, "--rehearse-load"]))
        {
            Log.Error(Usage);
            return ExitCodes.Usage;
        }
        var socketPath = args[1];
        Composition.Begin();
        if (args.Length == 3)
        {
            LoadRehearsal.Begin(async cancellationToken =>
            {
                await SearchRehearsal.RunOnceAsync(cancellationToken);
                // What both rehearsals allocated is garbage now: an idle spare gives back the heap it grew.
                HeapTrim.CollectAll();
                Log.Info($"rehearsals done: {GC.GetGCMemoryInfo().HeapSizeBytes / (1024 * 1024)} MiB of heap live");
            });
        }

        using var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            await socket.ConnectAsync(new UnixDomainSocketEndPoint(socketPath), cancellationToken);
        }
        catch (SocketException e)
        {
            Log.Error($"cannot connect to {socketPath}: {e.Message}");
            return ExitCodes.Usage;
        }
        catch (OperationCanceledException)
        {
            return ExitCodes.Ok;
        }

        var hello = HostInfo.Hello();
        Log.Info($"connected to {socketPath}: host {hello.HostVersion}, Roslyn {hello.RoslynVersion}, " +
            $"SDK {(hello.DotnetSdkVersion.Length > 0 ? hello.DotnetSdkVersion : "not found")}, pid {hello.ProcessId}");

        // Disposing the host disposes the workspace, which ends its BuildHost child process.
        using var solutionHost = new SolutionHost();
        await using var stream = new NetworkStream(socket, ownsSocket: false);
        var readDelay = RequestDispatcher.ReadDelayFromEnvironment();
        if (readDelay > TimeSpan.Zero)
        {
            Log.Info($"{RequestDispatcher.ReadDelayVariable}: every read request waits {readDelay.TotalMilliseconds} ms first");
        }
        var crash = CrashFault.FromEnvironment();
        if (crash.Armed)
        {
            Log.Info($"{CrashFault.Variable}: a snippet holding its text kills this host");
        }
        var loadHold = ReleaseHold.FromEnvironment(ReleaseHold.LoadVariable);
        if (loadHold.Armed)
        {
            Log.Info($"{ReleaseHold.LoadVariable}: every load waits for its release file");
        }
        var warmUpHold = ReleaseHold.FromEnvironment(ReleaseHold.WarmUpVariable);
        if (warmUpHold.Armed)
        {
            Log.Info($"{ReleaseHold.WarmUpVariable}: every warm-up waits for its release file");
        }
        var dispatcher = new RequestDispatcher(solutionHost, readDelay, crash, loadHold, warmUpHold);
        var exitCode = await new HostSession(stream, dispatcher, hello).RunAsync(cancellationToken);
        Log.Info($"exiting with code {exitCode}");
        return exitCode;
    }
}
