using System.Globalization;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using ErrorCode = RoslynMcp.Host.Protocol.ErrorCode;
using HostErrorException = RoslynMcp.Host.Protocol.HostErrorException;

namespace RoslynMcp.Host.Semantics.Plans;

/// <summary>The refusals every plan (move, rename, organize usings) shares, and how compiler errors are shown in them.</summary>
internal static class PlanErrors
{
    /// <summary><paramref name="operation"/> completes "The ... would add 2 compiler errors".</summary>
    public static HostErrorException CompilationError(string operation, IReadOnlyList<Diagnostic> errors, string suggestion) => HostErrorException.Create(
        ErrorCode.CompilationError,
        $"The {operation} would add {errors.Count} compiler error{(errors.Count == 1 ? "" : "s")}; the first: {Describe(errors[0])}",
        new JsonObject { ["errors"] = new JsonArray([.. errors.Take(20).Select(e => Json(e, withColumn: true))]) },
        suggestion);

    public static string Describe(Diagnostic error)
    {
        var at = error.Location.GetLineSpan();
        return $"{error.Id} at {at.Path}:{at.StartLinePosition.Line + 1}: {error.GetMessage(CultureInfo.InvariantCulture)}";
    }

    public static JsonObject Json(Diagnostic error, bool withColumn)
    {
        var at = error.Location.GetLineSpan();
        var json = new JsonObject
        {
            ["id"] = error.Id,
            ["file"] = at.Path,
            ["line"] = at.StartLinePosition.Line + 1,
        };
        if (withColumn)
        {
            json["column"] = at.StartLinePosition.Character + 1;
        }
        json["message"] = error.GetMessage(CultureInfo.InvariantCulture);
        return json;
    }
}
