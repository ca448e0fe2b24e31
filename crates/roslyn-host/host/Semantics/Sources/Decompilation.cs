using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using ICSharpCode.Decompiler;
using ICSharpCode.Decompiler.CSharp;
using ICSharpCode.Decompiler.Metadata;
using ICSharpCode.Decompiler.TypeSystem;

namespace RoslynMcp.Host.Semantics.Sources;

/// <summary>
/// C# for a type of a referenced assembly, decompiled with ICSharpCode.Decompiler (ILSpy's engine): only the type
/// asked for. A reference assembly (a framework's <c>ref</c> pack) has no bodies, so its implementation in the
/// shared runtime of the same version is decompiled instead, following type forwards. One decompiler per
/// assembly is kept, the most recently used few: building its type system is most of a first decompilation.
/// </summary>
public sealed class Decompilation(int keptDecompilers)
{
    private readonly object gate = new();
    private readonly LinkedList<(string Path, CSharpDecompiler Decompiler)> decompilers = new();

    public static readonly string EngineVersion =
        typeof(CSharpDecompiler).Assembly.GetName().Version?.ToString(3) ?? "";

    /// <summary>The decompiled type and the file it came from (the implementation for a reference assembly).</summary>
    public (string Text, string DecompiledFrom) Decompile(string assemblyPath, string typeMetadataName, IEnumerable<string> searchFolders)
    {
        var path = Implementation(assemblyPath, typeMetadataName) ?? assemblyPath;
        var decompiler = DecompilerFor(path, searchFolders);
        // A decompiler's type system is not safe for concurrent use.
        lock (decompiler)
        {
            return (decompiler.DecompileTypeAsString(new FullTypeName(typeMetadataName)), path);
        }
    }

    private CSharpDecompiler DecompilerFor(string path, IEnumerable<string> searchFolders)
    {
        lock (gate)
        {
            var kept = decompilers.FirstOrDefault(d => d.Path == path);
            if (kept.Decompiler is not null)
            {
                decompilers.Remove(kept);
                decompilers.AddFirst(kept);
                return kept.Decompiler;
            }
        }
        var file = new PEFile(path, PEStreamOptions.PrefetchEntireImage);
        var resolver = new UniversalAssemblyResolver(path, throwOnError: false, file.DetectTargetFrameworkId());
        foreach (var folder in searchFolders.Distinct(StringComparer.Ordinal))
        {
            resolver.AddSearchDirectory(folder);
        }
        var settings = new DecompilerSettings(ICSharpCode.Decompiler.CSharp.LanguageVersion.Latest)
        {
            ThrowOnAssemblyResolveErrors = false,
            ShowXmlDocumentation = true,
        };
        var decompiler = new CSharpDecompiler(file, resolver, settings);
        lock (gate)
        {
            decompilers.AddFirst((path, decompiler));
            while (decompilers.Count > keptDecompilers)
            {
                decompilers.RemoveLast();
            }
        }
        return decompiler;
    }

    /// <summary>
    /// For a reference assembly in <c>&lt;dotnet&gt;/packs/&lt;pack&gt;.Ref/&lt;version&gt;/ref/&lt;tfm&gt;/</c>: the
    /// assembly of <c>&lt;dotnet&gt;/shared/&lt;pack&gt;/&lt;same major.minor&gt;/</c> that defines the type; null
    /// when the assembly has bodies or no runtime of that version is installed.
    /// </summary>
    private static string? Implementation(string assemblyPath, string typeMetadataName)
    {
        var tfmFolder = Path.GetDirectoryName(assemblyPath);
        var refFolder = Path.GetDirectoryName(tfmFolder);
        var versionFolder = Path.GetDirectoryName(refFolder);
        var packFolder = Path.GetDirectoryName(versionFolder);
        var packs = Path.GetDirectoryName(packFolder);
        if (Path.GetFileName(refFolder) != "ref" || Path.GetFileName(packs) != "packs"
            || Path.GetFileName(packFolder) is not { } pack || !pack.EndsWith(".Ref", StringComparison.Ordinal))
        {
            return null;
        }
        var version = Path.GetFileName(versionFolder)!;
        var majorMinor = string.Join('.', version.Split('.').Take(2)) + ".";
        var shared = Path.Combine(Path.GetDirectoryName(packs)!, "shared", pack[..^".Ref".Length]);
        if (!Directory.Exists(shared))
        {
            return null;
        }
        var runtime = Directory.GetDirectories(shared)
            .Where(d => Path.GetFileName(d).StartsWith(majorMinor, StringComparison.Ordinal))
            .OrderByDescending(d => Version.TryParse(Path.GetFileName(d).Split('-')[0], out var v) ? v : new Version())
            .FirstOrDefault();
        return runtime is null ? null : Defining(runtime, Path.GetFileName(assemblyPath), typeMetadataName);
    }

    /// <summary>The assembly in <paramref name="folder"/> that defines the type, following forwards from <paramref name="fileName"/>.</summary>
    private static string? Defining(string folder, string fileName, string typeMetadataName)
    {
        var (ns, name) = Split(typeMetadataName);
        for (var hops = 0; hops < 4; hops++)
        {
            var path = Path.Combine(folder, fileName);
            if (!File.Exists(path))
            {
                return null;
            }
            using var pe = new PEReader(File.OpenRead(path));
            var reader = pe.GetMetadataReader();
            if (reader.TypeDefinitions.Any(t => Is(reader, reader.GetTypeDefinition(t).Namespace, reader.GetTypeDefinition(t).Name, ns, name)))
            {
                return path;
            }
            var forward = reader.ExportedTypes
                .Select(reader.GetExportedType)
                .FirstOrDefault(t => t.IsForwarder && Is(reader, t.Namespace, t.Name, ns, name));
            if (forward.Implementation.Kind != HandleKind.AssemblyReference)
            {
                return null;
            }
            fileName = reader.GetString(reader.GetAssemblyReference((AssemblyReferenceHandle)forward.Implementation).Name) + ".dll";
        }
        return null;
    }

    private static bool Is(MetadataReader reader, StringHandle ns, StringHandle name, string wantedNamespace, string wantedName) =>
        reader.StringComparer.Equals(name, wantedName) && reader.StringComparer.Equals(ns, wantedNamespace);

    private static (string Namespace, string Name) Split(string typeMetadataName)
    {
        var dot = typeMetadataName.LastIndexOf('.');
        return dot < 0 ? ("", typeMetadataName) : (typeMetadataName[..dot], typeMetadataName[(dot + 1)..]);
    }
}
