using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;
using Position = RoslynMcp.Host.Protocol.Position;

namespace RoslynMcp.Host.Features.Rename;

/// <summary>
/// Plans a file's new name in its folder. A file named after a top-level type it declares (<c>Order.cs</c>, or
/// <c>Order.Lines.cs</c> for a part) renames the type with it when the new name names another type the same way
/// (<c>Purchase.cs</c>, an identifier): the rename plan, with every file named after the type. Otherwise the file alone moves to its
/// new name. A project file that lists the file gets the new name.
/// </summary>
public static class RenameFileHandler
{
    public static async Task<RenameFilePlan> HandleAsync(Solution solution, RenameFileRequest request, CancellationToken cancellationToken)
    {
        var document = PositionResolver.FindDocument(solution, request.File);
        var path = document.FilePath!;
        var target = Target(solution, path, request.NewName);
        var (oldType, oldRest) = Split(Path.GetFileName(path));
        var (newType, newRest) = Split(request.NewName);
        if (oldRest == newRest && oldType != newType && SyntaxFacts.IsValidIdentifier(newType) && await TypeNamedAsync(document, oldType, cancellationToken) is { } identifier)
        {
            var at = (await document.GetTextAsync(cancellationToken)).Lines.GetLinePosition(identifier.SpanStart);
            var position = new Position(path, (uint)at.Line + 1, (uint)at.Character + 1);
            var plan = await RenameHandler.HandleAsync(solution, new RenameRequest(position, newType, false, false, false, true), cancellationToken);
            return new RenameFilePlan(plan.Symbol, plan.Edits, plan.TotalEdits, plan.Warnings);
        }
        var text = (await document.GetTextAsync(cancellationToken)).ToString();
        var edits = new List<FileEdit>
        {
            new(path, EditKind.Delete, TextHash.Sha256(text), "", $"Renamed to {request.NewName}"),
            new(target, EditKind.Create, "", text, $"Renamed from {Path.GetFileName(path)}"),
        };
        edits.AddRange(await ProjectFileEntries.EditedAsync(solution, new Dictionary<string, string?> { [path] = target }, cancellationToken));
        return new RenameFilePlan(
            null,
            edits.OrderBy(e => e.Path, StringComparer.Ordinal).ToValueList(),
            1,
            [$"Renamed {Path.GetFileName(path)} to {request.NewName}"]);
    }

    /// <summary>The new path beside the file: a C# file name of its own, not taken.</summary>
    private static string Target(Solution solution, string path, string newName)
    {
        var folder = Path.GetDirectoryName(path)!;
        var valid = newName == Path.GetFileName(newName) && newName.EndsWith(".cs", StringComparison.Ordinal) && newName.Length > 3
            && newName.IndexOfAny(Path.GetInvalidFileNameChars()) < 0 && newName.Trim() == newName;
        if (!valid)
        {
            throw HostErrorException.Create(
                ErrorCode.InvalidTargetPath,
                $"'{newName}' is not a C# file name",
                new JsonObject { ["field"] = "newName", ["newName"] = newName },
                "Give a file name ending in .cs, without a folder (the file stays in its folder)");
        }
        var target = Path.Combine(folder, newName);
        if (newName == Path.GetFileName(path) || solution.GetDocumentIdsWithFilePath(target).Any() || File.Exists(target))
        {
            throw HostErrorException.Create(
                ErrorCode.InvalidTargetPath,
                $"{newName} already exists in {folder}",
                new JsonObject { ["field"] = "newName", ["path"] = target },
                "Choose a name no file of the folder has");
        }
        return target;
    }

    /// <summary><c>Order.Lines.cs</c> is the type <c>Order</c> and the rest <c>.Lines.cs</c>.</summary>
    private static (string Type, string Suffix) Split(string file)
    {
        var dot = file.IndexOf('.');
        return (file[..dot], file[dot..]);
    }

    /// <summary>The name of a top-level type the document declares with that name, if any.</summary>
    private static async Task<SyntaxToken?> TypeNamedAsync(Document document, string name, CancellationToken cancellationToken)
    {
        var root = await document.GetSyntaxRootAsync(cancellationToken);
        return root!.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax)
            .OfType<BaseTypeDeclarationSyntax>()
            .Select(t => (SyntaxToken?)t.Identifier)
            .FirstOrDefault(t => t!.Value.ValueText == name);
    }
}
