using System.Diagnostics;
using RoslynMcp.Host.Dispatch;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Tests;

/// <summary>A private copy of a fixture loaded through the request handlers, as the broker would drive them.</summary>
public abstract class LoadedSolution(string fixture, string solutionFile, Action<string>? prepare = null) : IAsyncLifetime
{
    private readonly SolutionHost host = new();

    public string Root { get; } = TestPaths.CopyFixture(fixture, prepare);

    public string SolutionPath => Path.Combine(Root, solutionFile);

    public RequestDispatcher Dispatcher => new(host);

    /// <summary>A dispatcher of this solution's host with its own number of computation slots.</summary>
    public RequestDispatcher DispatcherWithSlots(int slots) => new(host, computeSlots: slots);

    public WorkspaceSummary Summary { get; private set; } = null!;

    /// <summary>The current snapshot's solution, for checks in memory.</summary>
    public Microsoft.CodeAnalysis.Solution Solution => host.Current!.Solution;

    public TimeSpan LoadTime { get; private set; }

    public async Task InitializeAsync()
    {
        var clock = Stopwatch.StartNew();
        Summary = (await OkAsync<ResponseBody.Loaded>(new RequestBody.Load(new LoadRequest(SolutionPath)))).Value;
        LoadTime = clock.Elapsed;
        Console.Error.WriteLine($"loaded {SolutionPath} in {LoadTime.TotalMilliseconds:F0} ms (restore included)");
    }

    public Task DisposeAsync()
    {
        host.Dispose();
        try
        {
            Directory.Delete(Root, recursive: true);
        }
        catch (IOException)
        {
            // Best effort: the temp folder is for this run only.
        }
        return Task.CompletedTask;
    }

    public string PathOf(string relative) => Path.Combine(Root, relative.Replace('/', Path.DirectorySeparatorChar));

    public Position At(string relative, uint line, uint column) => new(PathOf(relative), line, column);

    public async Task<T> OkAsync<T>(RequestBody body)
        where T : ResponseBody
    {
        var (outcome, _) = await Dispatcher.HandleAsync(body, CancellationToken.None);
        Assert.False(outcome is Outcome.Err { Value: var error }, $"refused: {(outcome as Outcome.Err)?.Value}");
        return Assert.IsType<T>(Assert.IsType<Outcome.Ok>(outcome).Value);
    }

    public async Task<HostError> ErrAsync(RequestBody body)
    {
        var (outcome, _) = await Dispatcher.HandleAsync(body, CancellationToken.None);
        return Assert.IsType<Outcome.Err>(outcome).Value;
    }
}

public sealed class ShopSolution() : LoadedSolution("Shop", "Shop.sln");

public sealed class BrokenProject() : LoadedSolution("Broken", "Broken.csproj");

public sealed class MovesSolution() : LoadedSolution("Moves", "Moves.sln");

[CollectionDefinition(Name)]
public sealed class ShopCollection : ICollectionFixture<ShopSolution>
{
    public const string Name = "Shop";
}

[CollectionDefinition(Name)]
public sealed class MovesCollection : ICollectionFixture<MovesSolution>
{
    public const string Name = "Moves";
}

public sealed class RenameSolution() : LoadedSolution("Rename", "Rename.sln");

public sealed class MultiTargetProject() : LoadedSolution("MultiTarget", "Multi.csproj");

public sealed class UsingsSolution() : LoadedSolution("Usings", "Usings.sln");

[CollectionDefinition(Name)]
public sealed class RenameCollection : ICollectionFixture<RenameSolution>
{
    public const string Name = "Rename";
}

[CollectionDefinition(Name)]
public sealed class UsingsCollection : ICollectionFixture<UsingsSolution>
{
    public const string Name = "Usings";
}

public sealed class UnusedSolution() : LoadedSolution("Unused", "Unused.sln");

[CollectionDefinition(Name)]
public sealed class UnusedCollection : ICollectionFixture<UnusedSolution>
{
    public const string Name = "Unused";
}

public sealed class SignatureSolution() : LoadedSolution("Signature", "Signature.slnx");

[CollectionDefinition(Name)]
public sealed class SignatureCollection : ICollectionFixture<SignatureSolution>
{
    public const string Name = "Signature";
}

public sealed class LayoutSolution() : LoadedSolution("Layout", "Layout.slnx");

[CollectionDefinition(Name)]
public sealed class LayoutCollection : ICollectionFixture<LayoutSolution>
{
    public const string Name = "Layout";
}

/// <summary>The Sources fixture, its Widgets library built first (App references the DLL, not the project).</summary>
public sealed class SourcesSolution() : LoadedSolution("Sources", "Sources.slnx", prepare: root => FixtureBuild.Library(Path.Combine(root, "Widgets")));

[CollectionDefinition(Name)]
public sealed class SourcesCollection : ICollectionFixture<SourcesSolution>
{
    public const string Name = "Sources";
}
