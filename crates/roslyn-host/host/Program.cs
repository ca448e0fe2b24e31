using System.Runtime.InteropServices;
using RoslynMcp.Host;

// The Roslyn host: one process per loaded solution, driven by the broker over a Unix domain socket.

// An exception on a background task is logged, never fatal.
TaskScheduler.UnobservedTaskException += (_, e) =>
{
    Log.Error($"unobserved task exception: {e.Exception}");
    e.SetObserved();
};

// A termination signal ends the session like Shutdown does, so the workspace is disposed on the way out.
using var stop = new CancellationTokenSource();
void OnSignal(PosixSignalContext context)
{
    context.Cancel = true;
    Log.Info($"{context.Signal} received; exiting");
    stop.Cancel();
}
using var term = PosixSignalRegistration.Create(PosixSignal.SIGTERM, OnSignal);
using var interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, OnSignal);
using var hangUp = PosixSignalRegistration.Create(PosixSignal.SIGHUP, OnSignal);

var exitCode = await HostProgram.RunAsync(args, stop.Token);
ChildProcesses.KillRemaining();
return exitCode;
