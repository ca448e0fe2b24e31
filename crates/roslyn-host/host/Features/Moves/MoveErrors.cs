using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;
using ErrorCode = RoslynMcp.Host.Protocol.ErrorCode;
using HostErrorException = RoslynMcp.Host.Protocol.HostErrorException;

namespace RoslynMcp.Host.Features.Moves;

/// <summary>The refusals of a move, with the details and suggestions the client shows.</summary>
internal static class MoveErrors
{
    public static readonly string[] SupportedKinds = ["Class", "Struct", "Interface", "Enum", "Record", "RecordStruct", "Delegate"];

    public static HostErrorException SourceNotInWorkspace(string file) => HostErrorException.Create(
        ErrorCode.SourceNotInWorkspace,
        $"{file} is not a source file of the loaded solution",
        new JsonObject { ["sourceFile"] = file },
        "Pass the absolute path of a .cs file that belongs to a project of the solution");

    public static HostErrorException InvalidLine(uint line, int lineCount, string file) => HostErrorException.Create(
        ErrorCode.InvalidLineNumber,
        $"Line {line} is outside {file}, which has {lineCount} lines",
        new JsonObject { ["line"] = line, ["lineCount"] = lineCount },
        "Lines are 1-based");

    public static HostErrorException NotMoveable(string symbolName, ISymbol member) => HostErrorException.Create(
        ErrorCode.SymbolNotMoveable,
        $"'{symbolName}' is a {SymbolFormat.KindOf(member).ToLowerInvariant()} of {member.ContainingType.Name}; only types can be moved",
        new JsonObject
        {
            ["symbolName"] = symbolName,
            ["symbolKind"] = SymbolFormat.KindOf(member),
            ["containingType"] = member.ContainingType.ToDisplayString(Names.Qualified),
            ["supportedKinds"] = new JsonArray([.. SupportedKinds.Select(k => JsonValue.Create(k))]),
        },
        $"Move the containing type {member.ContainingType.Name} instead");

    public static HostErrorException PartialAcrossFiles(MovedType type, IEnumerable<string> parts) => HostErrorException.Create(
        ErrorCode.SymbolNotMoveable,
        $"{type.Name} is partial with parts in several files; a namespace move would have to edit them all",
        new JsonObject
        {
            ["symbolName"] = type.Name,
            ["symbolKind"] = type.Kind,
            ["partialDeclarations"] = new JsonArray([.. parts.Select(p => JsonValue.Create(p))]),
        },
        $"First gather the parts of {type.Name} in one file with move_type_to_file");

    public static HostErrorException PartialSharingNamespace(MovedType type) => HostErrorException.Create(
        ErrorCode.SymbolNotMoveable,
        $"{type.Name} is declared in several parts in {type.Path} next to other types",
        new JsonObject { ["symbolName"] = type.Name, ["symbolKind"] = type.Kind },
        $"Merge the parts of {type.Name} into one declaration first");

    public static HostErrorException Nested(string symbolName, INamedTypeSymbol type) => HostErrorException.Create(
        ErrorCode.SymbolIsNested,
        $"{type.Name} is nested in {type.ContainingType.Name}; nested types move with their containing type",
        new JsonObject { ["symbolName"] = symbolName, ["containingType"] = type.ContainingType.ToDisplayString(Names.Qualified) },
        $"Move the containing type {type.ContainingType.Name} instead");

    public static HostErrorException Ambiguous(string symbolName, IEnumerable<(string FullName, int Line)> candidates) => HostErrorException.Create(
        ErrorCode.SymbolAmbiguous,
        $"Several types named '{symbolName}' are declared in the file",
        new JsonObject
        {
            ["symbolName"] = symbolName,
            ["candidates"] = new JsonArray([.. candidates.Select(c => new JsonObject { ["fullyQualifiedName"] = c.FullName, ["line"] = c.Line })]),
        },
        "Pass `line` to choose one declaration, or the fully qualified name");

    public static HostErrorException SameLocation(string path) => HostErrorException.Create(
        ErrorCode.SameLocation,
        $"The type is already declared in {path}",
        new JsonObject { ["targetFile"] = path },
        "Choose another target file");

    public static HostErrorException SameNamespace(MovedType type) => HostErrorException.Create(
        ErrorCode.SameNamespace,
        $"{type.Name} is already in namespace {type.Namespace}",
        new JsonObject { ["symbolName"] = type.Name, ["targetNamespace"] = type.Namespace },
        "Choose another target namespace");

    public static HostErrorException Collision(string symbolName, string targetNamespace, string message, string? existingFile, params string[] suggestions) =>
        HostErrorException.Create(
            ErrorCode.NameCollision,
            message,
            new JsonObject
            {
                ["symbolName"] = symbolName,
                ["targetNamespace"] = targetNamespace,
                ["existingTypeLocation"] = existingFile,
            },
            [.. suggestions, "Rename one of the types, or choose another target"]);

    public static HostErrorException InvalidTarget(string path, string message, params string[] suggestions) => HostErrorException.Create(
        ErrorCode.InvalidTargetPath,
        message,
        new JsonObject { ["targetFile"] = path },
        suggestions);

    public static HostErrorException FileLocalUsed(MovedType type, IEnumerable<(string File, int Line)> uses) => HostErrorException.Create(
        ErrorCode.BreaksAccessibility,
        $"{type.Name} is file-local and used elsewhere in {type.Path}; in another file those uses could not see it",
        new JsonObject
        {
            ["symbolName"] = type.Name,
            ["errors"] = new JsonArray([.. uses.Select(u => new JsonObject
            {
                ["id"] = "FILE_LOCAL",
                ["file"] = u.File,
                ["line"] = u.Line,
                ["message"] = $"'{type.Name}' is file-local to {type.Path}",
            })]),
        },
        $"Move {type.Name} together with the types that use it, or remove its `file` modifier first");

    public static HostErrorException Circular(MovedType type, Project source, Project target) => HostErrorException.Create(
        ErrorCode.CircularReference,
        $"{source.Name} still uses {type.Name}, and {target.Name} already depends on {source.Name}: " +
        $"{source.Name} would need a reference to {target.Name}, a cycle",
        new JsonObject { ["symbolName"] = type.Name, ["sourceProject"] = source.Name, ["targetProject"] = target.Name },
        $"Keep {type.Name} in {source.Name}, or move its users too");

    public static HostErrorException BreaksAccessibility(string symbolName, IReadOnlyList<Diagnostic> errors) => HostErrorException.Create(
        ErrorCode.BreaksAccessibility,
        $"Moving {symbolName} would make it inaccessible where it is used: {PlanErrors.Describe(errors[0])}",
        new JsonObject
        {
            ["symbolName"] = symbolName,
            ["errors"] = new JsonArray([.. errors.Take(20).Select(e => PlanErrors.Json(e, withColumn: false))]),
        },
        "Make the type (or its users) accessible from the target first, or keep it in its project");

    public static HostErrorException CompilationError(IReadOnlyList<Diagnostic> errors) => PlanErrors.CompilationError(
        "move",
        errors,
        "Check that the target project references what the type uses, and that its users can still see it");
}
