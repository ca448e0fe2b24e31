using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Semantics.Sources;

/// <summary>
/// A referenced assembly's type read as C#: the text, parsed, under its virtual path, and where each of its types
/// and members is declared, by documentation comment id (<see cref="Declarations"/>).
/// </summary>
public sealed record MetadataDocument(
    string Path, SourceOrigin Origin, string Assembly, SyntaxTree Tree, IReadOnlyDictionary<string, DeclarationSpan> Declared)
{
    /// <summary>
    /// Where the symbol is declared in this document; null when it is not. A delegate's <c>Invoke</c> is declared
    /// by the delegate itself (<c>public delegate void Action&lt;in T&gt;(T obj);</c>).
    /// </summary>
    public DeclarationSpan? DeclarationOf(ISymbol symbol) =>
        symbol is IMethodSymbol { MethodKind: MethodKind.DelegateInvoke, ContainingType: { } @delegate }
            ? DeclarationOf(@delegate)
            : Declarations.IdOf(symbol) is { } id && Declared.TryGetValue(id, out var span) ? span : null;
}

/// <summary>
/// The documents of referenced assemblies' types, under <c>roslyn-mcp://metadata/&lt;assembly&gt;/&lt;version&gt;/&lt;Namespace.Type&gt;.cs</c>
/// (a top-level type's metadata name, <c>List`1</c> for <c>List&lt;T&gt;</c>). The text is the source the PDB embeds
/// when it does, else the decompiled type. Documents are kept per assembly version (a version's text never
/// changes) until their total size passes a bound, least recently used first.
/// </summary>
public sealed class MetadataDocuments(long keptCharacters, int keptDecompilers)
{
    public const string Scheme = "roslyn-mcp://metadata/";

    /// <summary>One per host: every request of the solution shares what was decompiled.</summary>
    public static MetadataDocuments Shared { get; } = new(keptCharacters: 8L * 1024 * 1024, keptDecompilers: 4);

    private readonly Decompilation decompilation = new(keptDecompilers);
    private readonly object gate = new();
    private readonly LinkedList<MetadataDocument> kept = new();
    private readonly Dictionary<string, LinkedListNode<MetadataDocument>> byPath = new(StringComparer.Ordinal);
    private long keptLength;

    public static string VirtualPath(INamedTypeSymbol topLevel) =>
        $"{Scheme}{topLevel.ContainingAssembly.Identity.Name}/{topLevel.ContainingAssembly.Identity.Version}/{MetadataName(topLevel)}.cs";

    private static string MetadataName(INamedTypeSymbol type) =>
        type.ContainingNamespace is { IsGlobalNamespace: false } ns ? $"{ns.ToDisplayString()}.{type.MetadataName}" : type.MetadataName;

    /// <summary>Where a symbol of a referenced assembly reads as C#; null for one in source, or without a type.</summary>
    public async Task<MetadataSource?> PlaceOfAsync(Solution solution, ISymbol symbol, CancellationToken cancellationToken)
    {
        if (!SymbolFormat.IsMetadata(symbol) || TopLevel(symbol) is not { } type
            || await SourceOfAsync(solution, type, cancellationToken) is not { } document)
        {
            return null;
        }
        var root = await document.Tree.GetRootAsync(cancellationToken);
        var at = (document.DeclarationOf(symbol) ?? document.DeclarationOf(type))?.Name ?? root.GetFirstToken().Span;
        var text = await document.Tree.GetTextAsync(cancellationToken);
        return new MetadataSource(SymbolFormat.ToSpan(document.Tree, at), SymbolFormat.LineText(text, at.Start), document.Origin);
    }

    /// <summary>
    /// The type's document, or null when no project references its assembly as a file or the decompiler cannot
    /// make it (a type an assembly forwards to one no project references): a source is extra to an answer, and one
    /// type without it leaves the rest of the answer whole.
    /// </summary>
    public async Task<MetadataDocument?> SourceOfAsync(Solution solution, INamedTypeSymbol type, CancellationToken cancellationToken)
    {
        try
        {
            return await DocumentOfAsync(solution, type, cancellationToken);
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            Log.Warn($"no source for {type.ToDisplayString()}: {e.GetType().Name}: {e.Message}");
            return null;
        }
    }

    /// <summary>The outermost type containing the symbol (the symbol itself for a top-level type).</summary>
    public static INamedTypeSymbol? TopLevel(ISymbol symbol)
    {
        var type = symbol as INamedTypeSymbol ?? symbol.ContainingType;
        while (type?.ContainingType is { } outer)
        {
            type = outer;
        }
        return type?.OriginalDefinition;
    }

    /// <summary>The document a virtual path names, made when it is not kept; SOURCE_FILE_NOT_FOUND when no referenced assembly has it.</summary>
    public async Task<MetadataDocument> ReadAsync(Solution solution, string path, CancellationToken cancellationToken)
    {
        if (Kept(path) is { } document)
        {
            return document;
        }
        var parts = path[Scheme.Length..].Split('/');
        if (parts.Length == 3 && parts[2].EndsWith(".cs", StringComparison.Ordinal))
        {
            var typeName = parts[2][..^3];
            foreach (var project in solution.Projects)
            {
                var compilation = await project.GetCompilationAsync(cancellationToken);
                var type = compilation?.References
                    .Select(compilation.GetAssemblyOrModuleSymbol)
                    .OfType<IAssemblySymbol>()
                    .Where(a => a.Identity.Name == parts[0] && a.Identity.Version.ToString() == parts[1])
                    .Select(a => a.GetTypeByMetadataName(typeName))
                    .FirstOrDefault(t => t is not null);
                if (type is not null && await DocumentOfAsync(solution, type, cancellationToken) is { } made)
                {
                    return made;
                }
            }
        }
        throw HostErrorException.Create(
            ErrorCode.SourceFileNotFound,
            $"No referenced assembly of the solution has the type '{path}' names",
            new JsonObject { ["path"] = path },
            $"Use a path a definition answered, of the form {Scheme}<assembly>/<version>/<Namespace.Type>.cs");
    }

    /// <summary>The type's document, kept or made; null when no project references its assembly as a file.</summary>
    public async Task<MetadataDocument?> DocumentOfAsync(Solution solution, INamedTypeSymbol type, CancellationToken cancellationToken)
    {
        var path = VirtualPath(type);
        if (Kept(path) is { } document)
        {
            return document;
        }
        if (await ReferencingAsync(solution, type, cancellationToken) is not { } referencing)
        {
            return null;
        }
        var assembly = type.ContainingAssembly.Identity.GetDisplayName();
        var made = await Task.Run(() => Make(path, assembly, type, referencing, cancellationToken), cancellationToken);
        Keep(made);
        return made;
    }

    private MetadataDocument Make(string path, string assembly, INamedTypeSymbol type, Referencing referencing, CancellationToken cancellationToken)
    {
        var (origin, tree) = EmbeddedSources.Read(referencing.AssemblyPath, type) is { } source
            ? (SourceOrigin.EmbeddedSource, CSharpSyntaxTree.ParseText(source, path: path))
            : (SourceOrigin.Decompiled, Decompiled(path, assembly, type, referencing));
        return new MetadataDocument(path, origin, assembly, tree, Declarations.Index(tree, referencing.References, cancellationToken));
    }

    private SyntaxTree Decompiled(string path, string assembly, INamedTypeSymbol type, Referencing referencing)
    {
        var folders = referencing.References
            .OfType<PortableExecutableReference>()
            .Select(r => Path.GetDirectoryName(r.FilePath))
            .OfType<string>()
            .Distinct(StringComparer.Ordinal);
        var (text, from) = decompilation.Decompile(referencing.AssemblyPath, MetadataName(type), folders);
        var header = $"// {assembly}\n// Decompiled from {Path.GetFileName(from)} with ICSharpCode.Decompiler {Decompilation.EngineVersion}\n\n";
        return CSharpSyntaxTree.ParseText(header + text, path: path);
    }

    /// <summary>
    /// A project's reference to an assembly: the file (read for embedded sources or decompiled), and all the
    /// project's references (their folders for the decompiler's resolver; the compilation binding the text).
    /// </summary>
    private sealed record Referencing(string AssemblyPath, IReadOnlyList<MetadataReference> References);

    /// <summary>
    /// The first project referencing the type's assembly as a file that defines the type; null when none does. A
    /// facade of the same identity forwards it instead (netstandard2.0's <c>mscorlib</c> forwards
    /// <c>Dictionary`2</c>, which net462's <c>mscorlib</c> defines), and has nothing to read.
    /// </summary>
    private static async Task<Referencing?> ReferencingAsync(Solution solution, INamedTypeSymbol type, CancellationToken cancellationToken)
    {
        var assembly = type.ContainingAssembly;
        var name = MetadataName(type);
        foreach (var project in solution.Projects)
        {
            var compilation = await project.GetCompilationAsync(cancellationToken);
            if (compilation is null)
            {
                continue;
            }
            foreach (var reference in compilation.References.OfType<PortableExecutableReference>())
            {
                if (compilation.GetAssemblyOrModuleSymbol(reference) is IAssemblySymbol referenced
                    && referenced.Identity.Equals(assembly.Identity) && reference.FilePath is { } file
                    && SymbolEqualityComparer.Default.Equals(referenced.GetTypeByMetadataName(name)?.ContainingAssembly, referenced))
                {
                    return new Referencing(file, compilation.References.ToList());
                }
            }
        }
        return null;
    }

    private MetadataDocument? Kept(string path)
    {
        lock (gate)
        {
            if (!byPath.TryGetValue(path, out var node))
            {
                return null;
            }
            kept.Remove(node);
            kept.AddFirst(node);
            return node.Value;
        }
    }

    private void Keep(MetadataDocument document)
    {
        lock (gate)
        {
            if (byPath.ContainsKey(document.Path))
            {
                return;
            }
            byPath[document.Path] = kept.AddFirst(document);
            keptLength += document.Tree.Length;
            while (keptLength > keptCharacters && kept.Count > 1)
            {
                var last = kept.Last!.Value;
                keptLength -= last.Tree.Length;
                byPath.Remove(last.Path);
                kept.RemoveLast();
            }
        }
    }
}
