using RoslynMcp.Host;

// The Roslyn host: one process per loaded solution, driven by the broker over a Unix domain socket.

// An exception on a background task is logged, never fatal.
TaskScheduler.UnobservedTaskException += (_, e) =>
{
    Log.Error($"unobserved task exception: {e.Exception}");
    e.SetObserved();
};

return await HostProgram.RunAsync(args);
