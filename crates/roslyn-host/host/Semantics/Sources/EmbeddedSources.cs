using System.IO.Compression;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;
using System.Text;
using Microsoft.CodeAnalysis;

namespace RoslynMcp.Host.Semantics.Sources;

/// <summary>
/// The source an assembly's portable PDB (embedded in the DLL, or beside it) carries for a type: the document its
/// methods' sequence points name most, when the PDB embeds that document's text.
/// </summary>
public static class EmbeddedSources
{
    private static readonly Guid EmbeddedSource = new("0E8A571B-6926-466E-B4AD-8AB04611F5FE");

    /// <summary>The original file's text, or null when the PDB is missing, not portable, or does not embed it.</summary>
    public static string? Read(string assemblyPath, INamedTypeSymbol type)
    {
        try
        {
            using var pe = new PEReader(File.OpenRead(assemblyPath));
            using var provider = PdbOf(pe, assemblyPath);
            if (provider is null)
            {
                return null;
            }
            var pdb = provider.GetMetadataReader();
            var document = DocumentOf(pdb, type);
            return document is { } handle ? TextOf(pdb, handle) : null;
        }
        catch (Exception e) when (e is IOException or BadImageFormatException or InvalidDataException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    private static MetadataReaderProvider? PdbOf(PEReader pe, string assemblyPath)
    {
        var embedded = pe.ReadDebugDirectory().FirstOrDefault(e => e.Type == DebugDirectoryEntryType.EmbeddedPortablePdb);
        if (embedded.DataSize > 0)
        {
            return pe.ReadEmbeddedPortablePdbDebugDirectoryData(embedded);
        }
        var beside = Path.ChangeExtension(assemblyPath, ".pdb");
        if (!File.Exists(beside))
        {
            return null;
        }
        var stream = File.OpenRead(beside);
        Span<byte> signature = stackalloc byte[4];
        // A Windows PDB (MSF) has no embedded sources this reader could read.
        if (stream.Read(signature) < 4 || !signature.SequenceEqual("BSJB"u8))
        {
            stream.Dispose();
            return null;
        }
        stream.Position = 0;
        return MetadataReaderProvider.FromPortablePdbStream(stream);
    }

    /// <summary>The document that most of the type's (and its nested types') method bodies come from.</summary>
    private static DocumentHandle? DocumentOf(MetadataReader pdb, INamedTypeSymbol type)
    {
        var counts = new Dictionary<DocumentHandle, int>();
        foreach (var method in MethodsOf(type))
        {
            if (method.MetadataToken == 0 || MetadataTokens.EntityHandle(method.MetadataToken).Kind != HandleKind.MethodDefinition)
            {
                continue;
            }
            var handle = MetadataTokens.MethodDefinitionHandle(method.MetadataToken & 0xFFFFFF);
            if (MetadataTokens.GetRowNumber(handle) > pdb.MethodDebugInformation.Count)
            {
                continue;
            }
            var info = pdb.GetMethodDebugInformation(handle);
            if (info.SequencePointsBlob.IsNil)
            {
                continue;
            }
            foreach (var point in info.GetSequencePoints())
            {
                if (!point.Document.IsNil)
                {
                    counts[point.Document] = counts.GetValueOrDefault(point.Document) + 1;
                }
            }
        }
        return counts.Count == 0 ? null : counts.MaxBy(c => c.Value).Key;
    }

    private static IEnumerable<IMethodSymbol> MethodsOf(INamedTypeSymbol type) =>
        type.GetMembers().OfType<IMethodSymbol>().Concat(type.GetTypeMembers().SelectMany(MethodsOf));

    private static string? TextOf(MetadataReader pdb, DocumentHandle document)
    {
        foreach (var handle in pdb.GetCustomDebugInformation(document))
        {
            var information = pdb.GetCustomDebugInformation(handle);
            if (pdb.GetGuid(information.Kind) != EmbeddedSource)
            {
                continue;
            }
            var blob = pdb.GetBlobBytes(information.Value);
            // The first four bytes: 0 for stored text, else the size of the deflated text that follows.
            var size = BitConverter.ToInt32(blob, 0);
            if (size == 0)
            {
                return Decode(blob.AsSpan(4));
            }
            using var inflate = new DeflateStream(new MemoryStream(blob, 4, blob.Length - 4), CompressionMode.Decompress);
            var text = new byte[size];
            inflate.ReadExactly(text);
            return Decode(text);
        }
        return null;
    }

    private static string Decode(ReadOnlySpan<byte> bytes) =>
        bytes.StartsWith(Encoding.UTF8.Preamble) ? Encoding.UTF8.GetString(bytes[3..]) : Encoding.UTF8.GetString(bytes);
}
