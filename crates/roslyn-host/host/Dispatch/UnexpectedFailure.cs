using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Dispatch;

/// <summary>
/// An exception no handler turned into a catalog error, as the service reports it: the operation, the project
/// it was working on when the request names a file, and the exception's type. A failure met before in the wild
/// gets its own catalog code and what to do about it.
/// </summary>
public static class UnexpectedFailure
{
    public static HostError Describe(RequestBody body, SolutionSnapshot? snapshot, Exception exception)
    {
        var operation = body.GetType().Name;
        var project = snapshot is not null && FileOf(body) is { } file ? ProjectOf(snapshot.Solution, file) : null;
        var details = new JsonObject { ["operation"] = operation, ["exception"] = exception.GetType().FullName };
        if (project is not null)
        {
            details["project"] = project;
        }
        var where = project is null ? "" : $" in project {project}";
        if (exception.Message.Contains(nameof(Microsoft.CodeAnalysis.Diagnostics.UnresolvedAnalyzerReference), StringComparison.Ordinal))
        {
            var unbuilt = snapshot?.Generators.Describe(snapshot.Solution).Where(g => g.State == GeneratorState.Missing).ToList() ?? [];
            details["generators"] = new JsonArray([.. unbuilt.Select(g => (JsonNode)g.Name)]);
            return HostErrorException.Create(
                ErrorCode.GeneratorNotBuilt,
                $"{operation}{where} met an analyzer or source generator whose assembly is not built",
                details,
                "Build the projects the solution references as analyzers (`dotnet build` of each generator project)",
                "Or let the service build them: the generator_build setting is `copy` unless turned off").Error;
        }
        return new HostError(
            ErrorCode.RoslynError,
            $"{operation}{where} failed: {exception.GetType().Name}: {exception.Message}",
            details.ToJsonString(),
            []);
    }

    /// <summary>The file a request names, directly or by a position: its <c>File</c> or <c>Position.File</c>.</summary>
    private static string? FileOf(RequestBody body)
    {
        var value = body.GetType().GetProperty("Value")?.GetValue(body);
        for (var depth = 0; value is not null && depth < 2; depth++)
        {
            var type = value.GetType();
            if (type.GetProperty("File")?.GetValue(value) is string file && file.Length > 0)
            {
                return file;
            }
            value = type.GetProperty("Position")?.GetValue(value);
        }
        return null;
    }

    private static string? ProjectOf(Solution solution, string file) =>
        solution.GetDocumentIdsWithFilePath(file).Select(id => solution.GetProject(id.ProjectId)?.Name).FirstOrDefault(n => n is not null);
}
