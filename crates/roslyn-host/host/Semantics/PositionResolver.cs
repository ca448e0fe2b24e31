using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Text;
using Position = RoslynMcp.Host.Protocol.Position;
using ErrorCode = RoslynMcp.Host.Protocol.ErrorCode;
using HostErrorException = RoslynMcp.Host.Protocol.HostErrorException;

namespace RoslynMcp.Host.Semantics;

/// <summary>A validated position: its document, text, semantic model and 0-based offset.</summary>
public sealed record ResolvedPosition(Position Position, Document Document, SourceText Text, SemanticModel Model, int Offset);

/// <summary>The validation and symbol lookup shared by every position request.</summary>
public static class PositionResolver
{
    /// <summary>
    /// The document of a file; for a file in several projects (each framework of a multi-targeted project), the
    /// one of the project first in ordinal order, so that every question about it is asked of the same one.
    /// </summary>
    public static Document? DocumentAt(Solution solution, string path) => DocumentsAt(solution, path).FirstOrDefault();

    /// <summary>Every document of a file (one per project compiling it), the first project in ordinal order first.</summary>
    public static List<Document> DocumentsAt(Solution solution, string path) =>
        [.. solution.GetDocumentIdsWithFilePath(path)
            .Select(solution.GetDocument)
            .OfType<Document>()
            .OrderBy(d => d.Project.Name, StringComparer.Ordinal)];

    public static async Task<ResolvedPosition> ResolveAsync(Solution solution, Position position, CancellationToken cancellationToken)
    {
        // A place in a generator's output is asked by the virtual path answers give it.
        var document = await Sources.GeneratedDocuments.FindAsync(solution, position.File, cancellationToken)
            ?? FindDocument(solution, position.File);
        var text = await document.GetTextAsync(cancellationToken);
        var lineCount = text.Lines.Count;
        if (position.Line < 1 || position.Line > lineCount)
        {
            throw HostErrorException.Create(
                ErrorCode.InvalidLineNumber,
                $"Line {position.Line} is outside {position.File}, which has {lineCount} lines",
                new JsonObject { ["line"] = position.Line, ["lineCount"] = lineCount },
                "Lines are 1-based");
        }
        var line = text.Lines[(int)position.Line - 1];
        var lineLength = line.End - line.Start;
        if (position.Column < 1 || position.Column > lineLength + 1)
        {
            throw HostErrorException.Create(
                ErrorCode.InvalidPosition,
                $"Column {position.Column} is outside line {position.Line} of {position.File}, which has {lineLength} characters",
                new JsonObject { ["line"] = position.Line, ["column"] = position.Column, ["lineLength"] = lineLength },
                "Columns are 1-based and count UTF-16 code units");
        }
        var offset = line.Start + (int)position.Column - 1;
        document = await CompilingAsync(document, offset, cancellationToken);
        var model = await document.GetSemanticModelAsync(cancellationToken)
            ?? throw new InvalidOperationException($"{document.FilePath} has no semantic model");
        return new ResolvedPosition(position, document, text, model, offset);
    }

    /// <summary>
    /// The document of the file's first project that compiles the code at <paramref name="offset"/>: code under
    /// <c>#if NET8_0_OR_GREATER</c> is disabled text in a netstandard2.0 project of a multi-targeted one, and
    /// has its symbols in the net8.0 one. The first document when every project, or none, compiles it.
    /// </summary>
    private static async Task<Document> CompilingAsync(Document first, int offset, CancellationToken cancellationToken)
    {
        if (!await IsDisabledAsync(first, offset, cancellationToken))
        {
            return first;
        }
        foreach (var other in DocumentsAt(first.Project.Solution, first.FilePath!).Skip(1))
        {
            if (!await IsDisabledAsync(other, offset, cancellationToken))
            {
                return other;
            }
        }
        return first;
    }

    private static async Task<bool> IsDisabledAsync(Document document, int offset, CancellationToken cancellationToken)
    {
        var root = await document.GetSyntaxRootAsync(cancellationToken);
        return root is not null && offset < root.FullSpan.End && root.FindTrivia(offset).IsKind(SyntaxKind.DisabledTextTrivia);
    }

    /// <summary>A document of the solution with exactly this path (the first, when several projects share it).</summary>
    public static Document FindDocument(Solution solution, string file)
    {
        string? path;
        try
        {
            path = Path.IsPathFullyQualified(file) ? Path.GetFullPath(file) : null;
        }
        catch (ArgumentException)
        {
            path = null;
        }
        var document = path is null ? null : DocumentAt(solution, path);
        return document ?? throw HostErrorException.Create(
            ErrorCode.SourceNotInWorkspace,
            $"{file} is not a source file of the loaded solution",
            new JsonObject { ["file"] = file },
            "Pass the absolute path of a .cs file that belongs to a project of the solution",
            "A file created since the last load appears once its change is applied");
    }

    /// <summary>The symbol at the position, or null.</summary>
    public static async Task<ISymbol?> FindSymbolAsync(ResolvedPosition at, CancellationToken cancellationToken)
    {
        var symbol = await SymbolFinder.FindSymbolAtPositionAsync(at.Document, at.Offset, cancellationToken);
        // A cursor just after an identifier (`name|`) means that identifier.
        if (symbol is null && at.Offset > 0 && IsIdentifierChar(at.Text[at.Offset - 1]))
        {
            symbol = await SymbolFinder.FindSymbolAtPositionAsync(at.Document, at.Offset - 1, cancellationToken);
        }
        // `(_compilation, _driver) = ...`: SymbolFinder answers the tuple's element; the name binds to what it assigns.
        if (symbol is IFieldSymbol { ContainingType.IsTupleType: true }
            && await NameAtAsync(at, cancellationToken) is { } name
            && at.Model.GetSymbolInfo(name, cancellationToken).Symbol is { } bound)
        {
            symbol = bound;
        }
        // `new Customer()` without a declared constructor names the class: there is nothing else to show.
        return symbol is IMethodSymbol { MethodKind: MethodKind.Constructor, IsImplicitlyDeclared: true } constructor
            ? constructor.ContainingType
            : symbol;
    }

    public static async Task<ISymbol> RequireSymbolAsync(ResolvedPosition at, CancellationToken cancellationToken) =>
        await FindSymbolAsync(at, cancellationToken) ?? throw await SymbolNotFoundAsync(at, cancellationToken);

    public static async Task<HostErrorException> SymbolNotFoundAsync(ResolvedPosition at, CancellationToken cancellationToken)
    {
        var root = await at.Model.SyntaxTree.GetRootAsync(cancellationToken);
        var token = root.FindToken(at.Offset);
        var tokenText = token.Span.Contains(at.Offset) ? token.Text : "";
        var p = at.Position;
        return HostErrorException.Create(
            ErrorCode.SymbolNotFound,
            $"No symbol at {p.File}:{p.Line}:{p.Column}" + (tokenText.Length > 0 ? $" (token '{tokenText}')" : ""),
            new JsonObject { ["file"] = p.File, ["line"] = p.Line, ["column"] = p.Column, ["tokenText"] = tokenText },
            "Place the column on an identifier (the first character of a name works best)",
            "Check the line and column are 1-based");
    }

    /// <summary>The name used at the position (or just before it), or null where none is.</summary>
    private static async Task<IdentifierNameSyntax?> NameAtAsync(ResolvedPosition at, CancellationToken cancellationToken)
    {
        var root = await at.Model.SyntaxTree.GetRootAsync(cancellationToken);
        var token = root.FindToken(at.Offset);
        if (!token.Span.Contains(at.Offset) && at.Offset > 0)
        {
            token = root.FindToken(at.Offset - 1);
        }
        return token.Parent as IdentifierNameSyntax;
    }

    private static bool IsIdentifierChar(char c) => char.IsLetterOrDigit(c) || c == '_';
}
