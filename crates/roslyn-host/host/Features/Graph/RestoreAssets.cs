using System.Text.Json;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Features.Graph;

/// <summary>
/// What restore wrote for a project (<c>obj/project.assets.json</c>): the project references and packages the
/// project names itself (an implicit package the SDK adds is left out), each package's resolved version, and
/// the assemblies it brings to compile against, with those of the packages it depends on.
/// </summary>
internal sealed record RestoreAssets(List<string> ProjectReferences, List<PackageVersion> Packages, Dictionary<string, HashSet<string>> Assemblies)
{
    public static RestoreAssets? Read(string projectFile)
    {
        var path = Path.Combine(Path.GetDirectoryName(projectFile)!, "obj", "project.assets.json");
        if (!File.Exists(path))
        {
            return null;
        }
        using var json = JsonDocument.Parse(File.ReadAllBytes(path));
        var root = json.RootElement;
        var project = root.GetProperty("project");
        var references = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var framework in Objects(project, "restore", "frameworks"))
        {
            foreach (var reference in Objects(framework.Value, "projectReferences"))
            {
                references.Add(Path.GetFullPath(reference.Value.TryGetProperty("projectPath", out var at) ? at.GetString()! : reference.Name));
            }
        }
        var requested = new SortedDictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var framework in Objects(project, "frameworks"))
        {
            foreach (var dependency in Objects(framework.Value, "dependencies"))
            {
                if (!(dependency.Value.TryGetProperty("autoReferenced", out var auto) && auto.GetBoolean()))
                {
                    requested.TryAdd(dependency.Name, dependency.Value.TryGetProperty("version", out var range) ? range.GetString() ?? "" : "");
                }
            }
        }
        var resolved = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        var own = new Dictionary<string, HashSet<string>>(StringComparer.OrdinalIgnoreCase);
        var dependsOn = new Dictionary<string, HashSet<string>>(StringComparer.OrdinalIgnoreCase);
        foreach (var target in Objects(root, "targets"))
        {
            foreach (var library in target.Value.EnumerateObject().Where(l => l.Value.TryGetProperty("type", out var type) && type.GetString() == "package"))
            {
                var (name, version) = (library.Name[..library.Name.IndexOf('/')], library.Name[(library.Name.IndexOf('/') + 1)..]);
                resolved.TryAdd(name, version);
                var assemblies = own.TryGetValue(name, out var found) ? found : own[name] = new(StringComparer.Ordinal);
                assemblies.UnionWith(Objects(library.Value, "compile").Select(f => f.Name).Where(f => f.EndsWith(".dll", StringComparison.OrdinalIgnoreCase)).Select(Path.GetFileNameWithoutExtension)!);
                var dependencies = dependsOn.TryGetValue(name, out var known) ? known : dependsOn[name] = new(StringComparer.OrdinalIgnoreCase);
                dependencies.UnionWith(Objects(library.Value, "dependencies").Select(d => d.Name));
            }
        }
        var packages = requested.Select(r => new PackageVersion(r.Key, resolved.GetValueOrDefault(r.Key) ?? r.Value)).ToList();
        var closure = requested.Keys.ToDictionary(name => name, name => Closure(name, own, dependsOn), StringComparer.OrdinalIgnoreCase);
        return new RestoreAssets([.. references], packages, closure);
    }

    /// <summary>The assemblies of a package and of every package it depends on, directly or not.</summary>
    private static HashSet<string> Closure(string package, Dictionary<string, HashSet<string>> own, Dictionary<string, HashSet<string>> dependsOn)
    {
        var assemblies = new HashSet<string>(StringComparer.Ordinal);
        var seen = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        var pending = new Stack<string>([package]);
        while (pending.TryPop(out var next))
        {
            if (seen.Add(next))
            {
                assemblies.UnionWith(own.GetValueOrDefault(next) ?? []);
                foreach (var dependency in dependsOn.GetValueOrDefault(next) ?? [])
                {
                    pending.Push(dependency);
                }
            }
        }
        return assemblies;
    }

    /// <summary>The properties of the object at that path, or none when a step is missing.</summary>
    private static IEnumerable<JsonProperty> Objects(JsonElement element, params string[] path)
    {
        foreach (var step in path)
        {
            if (element.ValueKind != JsonValueKind.Object || !element.TryGetProperty(step, out element))
            {
                return [];
            }
        }
        return element.ValueKind == JsonValueKind.Object ? element.EnumerateObject() : [];
    }
}
