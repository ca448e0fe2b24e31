using System.Text.Json.Nodes;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Handlers;

/// <summary>A failure the client should see with its catalog code, rather than as ROSLYN_ERROR.</summary>
public sealed class HostErrorException(HostError error) : Exception(error.Message)
{
    public HostError Error { get; } = error;

    public static HostErrorException Create(string code, string message, JsonObject? details = null, params string[] suggestions) =>
        new(new HostError(code, message, details?.ToJsonString() ?? "", [.. suggestions]));
}

/// <summary>The catalog codes the host uses (names must match `crates/protocol/src/error.rs`).</summary>
public static class ErrorCodes
{
    public const string InvalidLineNumber = "INVALID_LINE_NUMBER";
    public const string InvalidPosition = "INVALID_POSITION";
    public const string InvalidParameter = "INVALID_PARAMETER";
    public const string SourceNotInWorkspace = "SOURCE_NOT_IN_WORKSPACE";
    public const string SymbolNotFound = "SYMBOL_NOT_FOUND";
    public const string WorkspaceNotLoaded = "WORKSPACE_NOT_LOADED";
    public const string RoslynError = "ROSLYN_ERROR";
    public const string SolutionLoadFailed = "SOLUTION_LOAD_FAILED";
    public const string SymbolAmbiguous = "SYMBOL_AMBIGUOUS";
    public const string SymbolNotMoveable = "SYMBOL_NOT_MOVEABLE";
    public const string SymbolIsNested = "SYMBOL_IS_NESTED";
    public const string SameLocation = "SAME_LOCATION";
    public const string SameNamespace = "SAME_NAMESPACE";
    public const string NameCollision = "NAME_COLLISION";
    public const string InvalidTargetPath = "INVALID_TARGET_PATH";
    public const string BreaksAccessibility = "BREAKS_ACCESSIBILITY";
    public const string CircularReference = "CIRCULAR_REFERENCE";
    public const string CompilationError = "COMPILATION_ERROR";
    public const string ProjectNotFound = "PROJECT_NOT_FOUND";
}
