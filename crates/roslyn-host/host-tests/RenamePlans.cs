using System.Text.Json.Nodes;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>Asking for rename plans on a loaded fixture.</summary>
internal static class RenamePlans
{
    public static RequestBody Rename(
        LoadedSolution fixture,
        string file,
        uint line,
        uint column,
        string newName,
        bool overloads = false,
        bool comments = false,
        bool strings = false,
        bool renameFile = false) =>
        new RequestBody.PlanRename(new RenameRequest(fixture.At(file, line, column), newName, overloads, comments, strings, renameFile));

    public static async Task<RenamePlan> RenamePlanAsync(this LoadedSolution fixture, RequestBody request) =>
        (await fixture.OkAsync<ResponseBody.RenamePlan>(request)).Value;

    public static FileEdit Edit(this RenamePlan plan, LoadedSolution fixture, string relative) =>
        Assert.Single(plan.Edits, e => e.Path == fixture.PathOf(relative));

    /// <summary>The conflicts of a NAME_COLLISION refusal as <c>file:line:column</c> relative to the fixture.</summary>
    public static List<string> Conflicts(this LoadedSolution fixture, HostError error)
    {
        Assert.Equal(ErrorCode.NameCollision, error.Code);
        var conflicts = JsonNode.Parse(error.DetailsJson)!["conflicts"]!.AsArray();
        return [.. conflicts.Select(c => $"{Path.GetRelativePath(fixture.Root, (string)c!["file"]!).Replace('\\', '/')}:{(int)c["line"]!}:{(int)c["column"]!}")];
    }

    public static string Dump(RenamePlan plan) => string.Join(
        "\n",
        plan.Edits.Select(e => $"--- {e.Kind} {e.Path}: {e.Description}\n{e.NewText}").Append(string.Join("\n", plan.Warnings)));
}
