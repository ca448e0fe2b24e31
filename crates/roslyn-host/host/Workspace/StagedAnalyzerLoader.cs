using System.Reflection;
using System.Runtime.Loader;
using Microsoft.CodeAnalysis;

namespace RoslynMcp.Host.Workspace;

/// <summary>
/// Loads the service's build of a generator from its own folder, in a load context of its own: a later build,
/// in another folder, loads afresh instead of getting the assembly of the same name loaded before. What the host
/// itself has (the compiler, the runtime) is shared, so that the generator sees the compiler's own types.
/// </summary>
public sealed class StagedAnalyzerLoader(string folder) : IAnalyzerAssemblyLoader
{
    private readonly Context context = new(folder);

    public void AddDependencyLocation(string fullPath)
    {
        // Its dependencies are beside it: the context looks there.
    }

    public Assembly LoadFromPath(string fullPath) => context.LoadFromAssemblyPath(fullPath);

    private sealed class Context(string folder) : AssemblyLoadContext($"generator build {folder}")
    {
        protected override Assembly? Load(AssemblyName name)
        {
            try
            {
                return Default.LoadFromAssemblyName(name);
            }
            catch (IOException)
            {
                var beside = Path.Combine(folder, name.Name + ".dll");
                return File.Exists(beside) ? LoadFromAssemblyPath(beside) : null;
            }
        }
    }
}
