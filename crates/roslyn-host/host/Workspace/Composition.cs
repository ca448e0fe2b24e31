using Microsoft.CodeAnalysis.Host;
using Microsoft.CodeAnalysis.Host.Mef;

namespace RoslynMcp.Host.Workspace;

/// <summary>
/// The workspace's MEF composition: Roslyn discovers the services of the Workspaces and Features assemblies by
/// reflection, 0.6 to 0.7 s. <see cref="Begin"/> starts it as the process starts, so that a host the broker
/// keeps as a spare has it done before a load takes the host; every load of the process shares it.
/// </summary>
public static class Composition
{
    private static readonly Lazy<Task<HostServices>> Services = new(() => Task.Run<HostServices>(() =>
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var services = MSBuildMefHostServices.DefaultServices;
        Log.Info($"Roslyn's MEF composition done in {clock.ElapsedMilliseconds} ms");
        return services;
    }));

    public static void Begin() => _ = Services.Value;

    public static Task<HostServices> ServicesAsync() => Services.Value;
}
