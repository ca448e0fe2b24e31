using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Semantics;
using ErrorCode = RoslynMcp.Host.Protocol.ErrorCode;
using HostErrorException = RoslynMcp.Host.Protocol.HostErrorException;

namespace RoslynMcp.Host.Features.Rename;

/// <summary>A place that stands in the way of a rename, 1-based.</summary>
internal sealed record Conflict(string File, int Line, int Column, string Name, string Kind)
{
    public static Conflict At(Location location, string name, string kind)
    {
        var at = location.GetLineSpan();
        return new Conflict(at.Path, at.StartLinePosition.Line + 1, at.StartLinePosition.Character + 1, name, kind);
    }

    public JsonObject ToJson() => new()
    {
        ["file"] = File,
        ["line"] = Line,
        ["column"] = Column,
        ["name"] = Name,
        ["kind"] = Kind,
    };

    public override string ToString() => $"{Kind} {Name} at {File}:{Line}:{Column}";
}

/// <summary>The refusals of a rename, with the details and suggestions the client shows.</summary>
internal static class RenameErrors
{
    public static HostErrorException InvalidName(string newName, bool keyword) => HostErrorException.Create(
        ErrorCode.InvalidSymbolName,
        keyword
            ? $"'{newName}' is a C# keyword; write it @{newName} to use it as a name"
            : $"'{newName}' is not a valid C# identifier",
        new JsonObject { ["newName"] = newName },
        "Pass a C# identifier: a letter or underscore, then letters, digits or underscores");

    public static HostErrorException SameName(string name) => HostErrorException.Create(
        ErrorCode.InvalidParameter,
        $"The symbol is already named {name}",
        new JsonObject { ["field"] = "newName" },
        "Pass a name different from the current one");

    public static HostErrorException Collision(ISymbol symbol, string newName, string message, IReadOnlyList<Conflict> conflicts) => HostErrorException.Create(
        ErrorCode.NameCollision,
        message,
        new JsonObject
        {
            ["symbol"] = symbol.ToDisplayString(SymbolFormat.Display),
            ["newName"] = newName,
            ["conflicts"] = new JsonArray([.. conflicts.Take(50).Select(c => c.ToJson())]),
        },
        "Choose another name, or rename the conflicting symbol first");
}
