using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using WorkspaceDiagnostic = RoslynMcp.Host.Protocol.WorkspaceDiagnostic;

namespace RoslynMcp.Host.Workspace;

/// <summary>
/// An immutable loaded solution and its version. Requests capture one at their start, so a concurrent reload
/// or file change never shows them a half-updated state.
/// </summary>
public sealed record SolutionSnapshot(
    Solution Solution,
    ulong Version,
    string SolutionPath,
    ValueList<WorkspaceDiagnostic> LoadDiagnostics,
    Generators Generators);
