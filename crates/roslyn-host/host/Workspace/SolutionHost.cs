using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Workspace;

/// <summary>
/// Owns the loaded solution: one current snapshot that reads capture, and a gate so that loads and file
/// change batches apply one at a time.
/// </summary>
public sealed class SolutionHost : IDisposable
{
    private readonly SemaphoreSlim changeGate = new(1, 1);
    private SolutionSnapshot? current;
    private Microsoft.CodeAnalysis.Workspace? workspace;
    private LoadProgress? loading;
    private bool disposed;

    public SolutionSnapshot? Current => Volatile.Read(ref current);

    /// <summary>The projects the load under way has opened so far; 0 when none runs.</summary>
    public uint ProjectsLoaded => Volatile.Read(ref loading)?.ProjectsLoaded ?? 0;

    /// <summary>0 until the first successful load; then increases with every load and applied batch.</summary>
    public ulong CurrentVersion => Current?.Version ?? 0;

    public static HostErrorException NotLoaded() => HostErrorException.Create(
        ErrorCode.WorkspaceNotLoaded,
        "No solution is loaded in this host",
        suggestions: "Load a solution first");

    public async Task<SolutionSnapshot> LoadAsync(string solutionPath, CancellationToken cancellationToken)
    {
        await changeGate.WaitAsync(cancellationToken);
        try
        {
            return await LoadLockedAsync(Path.GetFullPath(solutionPath), cancellationToken);
        }
        finally
        {
            changeGate.Release();
        }
    }

    public async Task<SolutionSnapshot> ApplyFileChangesAsync(FileChanges changes, CancellationToken cancellationToken)
    {
        await changeGate.WaitAsync(cancellationToken);
        try
        {
            var snapshot = Current ?? throw NotLoaded();
            if (FileChangeApplier.NeedsReload(changes))
            {
                Log.Info("project structure changed; reloading the solution");
                return await LoadLockedAsync(snapshot.SolutionPath, cancellationToken);
            }
            var solution = await FileChangeApplier.ApplyAsync(snapshot.Solution, changes, cancellationToken);
            // Files told of whose text did not change leave the snapshot, its version and the cursors on it as
            // they were.
            return solution == snapshot.Solution ? snapshot : Publish(snapshot with { Solution = solution, Version = snapshot.Version + 1 });
        }
        finally
        {
            changeGate.Release();
        }
    }

    /// <summary>
    /// Uses the service's builds of generator projects instead of the assemblies their consumers name; later loads
    /// keep using them.
    /// </summary>
    public async Task<SolutionSnapshot> UseGeneratorsAsync(UseGeneratorsRequest request, CancellationToken cancellationToken)
    {
        await changeGate.WaitAsync(cancellationToken);
        try
        {
            var snapshot = Current ?? throw NotLoaded();
            var generators = snapshot.Generators.With(request.Builds);
            var solution = generators.Apply(snapshot.Solution, snapshot.Generators);
            Log.Info($"using the service's build of {string.Join(", ", request.Builds.Select(b => Path.GetFileName(b.Assembly)))}");
            return Publish(snapshot with { Solution = solution, Generators = generators, Version = snapshot.Version + 1 });
        }
        finally
        {
            changeGate.Release();
        }
    }

    private async Task<SolutionSnapshot> LoadLockedAsync(string solutionPath, CancellationToken cancellationToken)
    {
        var progress = new LoadProgress();
        Volatile.Write(ref loading, progress);
        SolutionLoader.Loaded loaded;
        try
        {
            loaded = await SolutionLoader.OpenAsync(solutionPath, progress, cancellationToken);
        }
        finally
        {
            Volatile.Write(ref loading, null);
        }
        if (disposed)
        {
            // The host is exiting: nobody will read this solution.
            loaded.Workspace.Dispose();
            throw new OperationCanceledException("the host is shutting down");
        }
        var previous = workspace;
        workspace = loaded.Workspace;
        // The service's builds of generators stay in use across loads; each load finds the uses afresh.
        var generators = (Current?.Generators ?? Generators.None) with { Uses = Generators.Discover(loaded.Solution) };
        var solution = generators.Apply(loaded.Solution);
        foreach (var generator in generators.Describe(solution).Where(g => g.State != GeneratorState.Current))
        {
            Log.Warn(GeneratorNotice(generator));
        }
        var snapshot = Publish(new SolutionSnapshot(solution, CurrentVersion + 1, solutionPath, loaded.Diagnostics, generators));
        // Readers of the old snapshot keep their immutable Solution; the old workspace's BuildHost can go.
        previous?.Dispose();
        return snapshot;
    }

    private static string GeneratorNotice(GeneratorProject generator) => generator.State == GeneratorState.Missing
        ? $"generator {generator.Name} is not built ({generator.Assembly} is missing): code it writes is missing from {string.Join(", ", generator.Consumers)}"
        : $"generator {generator.Name} is older than its sources ({generator.Assembly}): code it writes may be out of date";

    private SolutionSnapshot Publish(SolutionSnapshot snapshot)
    {
        Volatile.Write(ref current, snapshot);
        return snapshot;
    }

    /// <summary>Disposes the workspace; bounded, because a wedged BuildHost must not keep us from exiting.</summary>
    public void Dispose()
    {
        if (disposed)
        {
            return;
        }
        disposed = true;
        var last = workspace;
        workspace = null;
        if (last is not null && !Task.Run(last.Dispose).Wait(TimeSpan.FromSeconds(5)))
        {
            Log.Warn("the workspace did not dispose within 5 s");
        }
    }
}
