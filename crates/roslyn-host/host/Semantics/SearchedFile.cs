using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMcp.Host.Semantics;

/// <summary>
/// A file searched once: a document's text from the snapshot (with every document id it has, one per target
/// framework), or a text file read from disk (no document ids), its byte order mark left out.
/// </summary>
internal sealed record SearchedFile(string Path, SourceText Text, IReadOnlyList<DocumentId> Documents);
