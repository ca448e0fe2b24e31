using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Features.Signature;

/// <summary>
/// The parameter list asked for, checked against the member's: each entry an existing parameter (by its current
/// name, once) or an added one; those left out are removed. Refused (INVALID_PARAMETER, NAME_COLLISION) before
/// anything is computed when it names no parameter, repeats one, changes nothing, moves an extension method's
/// <c>this</c> or a <c>params</c> array from its place, puts a required parameter after an optional one, or
/// gives two parameters one name.
/// </summary>
internal sealed record NewSignature(
    IReadOnlyList<EngineParameter> Order,
    IReadOnlyDictionary<int, string> Renamed,
    IReadOnlyDictionary<int, string> Retyped,
    IReadOnlyList<int> Removed,
    IReadOnlyList<string> AddedNames)
{
    /// <summary>Whether the parameters' types or places change (not only their names): a delegate no longer matches.</summary>
    public bool ChangesShape =>
        Retyped.Count > 0 || Removed.Count > 0 || Order.Where((p, i) => p is not EngineParameter.Existing { Ordinal: var o } || o != i).Any();

    /// <summary>The position in the new list of the parameter that had <paramref name="ordinal"/>; null when removed.</summary>
    public int? NewIndexOf(int ordinal)
    {
        for (var i = 0; i < Order.Count; i++)
        {
            if (Order[i] is EngineParameter.Existing e && e.Ordinal == ordinal)
            {
                return i;
            }
        }
        return null;
    }

    public static NewSignature Check(
        IReadOnlyList<IParameterSymbol> parameters,
        IReadOnlyList<SignatureParameter> asked,
        Func<string, ITypeSymbol> bindType)
    {
        var order = new List<EngineParameter>();
        var renamed = new Dictionary<int, string>();
        var retyped = new Dictionary<int, string>();
        var added = new List<string>();
        var seen = new HashSet<int>();
        for (var i = 0; i < asked.Count; i++)
        {
            var entry = asked[i];
            var field = $"parameters[{i}]";
            if (entry.Added is { } add)
            {
                if (entry.NewName.Length > 0 || entry.NewType.Length > 0)
                {
                    throw Invalid($"{field}: an added parameter takes its name and type from name and add.type", field,
                        "Give newName and newType only for parameters the member has");
                }
                ValidName(entry.Name, $"{field}.name");
                var type = bindType(add.TypeName);
                if (type.TypeKind == TypeKind.Error)
                {
                    throw Invalid($"The type '{add.TypeName}' of the added parameter {entry.Name} does not bind where the member is declared",
                        $"{field}.add.type", "Write the type as the member's file can name it (fully qualified when no using brings it in)");
                }
                if (add.DefaultValue.Length == 0 && add.Argument.Length == 0)
                {
                    throw Invalid($"The added parameter {entry.Name} is required, so every call needs an argument", $"{field}.add",
                        "Give add.argument (what every call passes), or add.defaultValue to make it optional");
                }
                order.Add(new EngineParameter.Added(type, add.TypeName, entry.Name, add.DefaultValue, add.Argument, add.Named));
                added.Add(entry.Name);
                continue;
            }
            var ordinal = Ordinal(parameters, entry.Name);
            if (ordinal < 0)
            {
                throw HostErrorException.Create(
                    ErrorCode.InvalidParameter,
                    $"The member has no parameter named {entry.Name}",
                    new JsonObject
                    {
                        ["field"] = $"{field}.name",
                        ["parameters"] = new JsonArray([.. parameters.Select(p => JsonValue.Create(p.Name))]),
                    },
                    "Name the member's parameters by their current names; describe a new one with add");
            }
            if (!seen.Add(ordinal))
            {
                throw Invalid($"The parameter {entry.Name} is listed twice", $"{field}.name", "List each parameter once, in its new place");
            }
            if (entry.NewName.Length > 0 && entry.NewName.TrimStart('@') != parameters[ordinal].Name)
            {
                ValidName(entry.NewName, $"{field}.newName");
                renamed[ordinal] = entry.NewName;
            }
            if (entry.NewType.Length > 0)
            {
                retyped[ordinal] = entry.NewType;
            }
            order.Add(new EngineParameter.Existing(ordinal));
        }
        var removed = Enumerable.Range(0, parameters.Count).Where(o => !seen.Contains(o)).ToList();
        var signature = new NewSignature(order, renamed, retyped, removed, added);
        signature.CheckPlaces(parameters);
        signature.CheckNames(parameters);
        return signature;
    }

    private void CheckPlaces(IReadOnlyList<IParameterSymbol> parameters)
    {
        var unchanged = Order.Count == parameters.Count
            && Order.Select((p, i) => p is EngineParameter.Existing e && e.Ordinal == i).All(same => same)
            && Renamed.Count == 0 && Retyped.Count == 0;
        if (unchanged)
        {
            throw Invalid("The parameter list asked for is the member's own: nothing to change", "parameters",
                "Reorder, remove (leave out), add, rename (newName) or retype (newType) a parameter");
        }
        if (parameters.Count > 0 && parameters[0].ContainingSymbol is IMethodSymbol { IsExtensionMethod: true } && NewIndexOf(0) is not (0 or null))
        {
            throw Invalid($"The extension method's this parameter {parameters[0].Name} must stay first", "parameters",
                "Keep it first, or leave it out to remove it");
        }
        if (parameters.Count > 0 && parameters[^1].IsParams && NewIndexOf(parameters.Count - 1) is { } last && last != Order.Count - 1)
        {
            throw Invalid($"The params parameter {parameters[^1].Name} must stay last", "parameters", "Keep it last");
        }
        var optionalSeen = false;
        for (var i = 0; i < Order.Count; i++)
        {
            var optional = Order[i] switch
            {
                EngineParameter.Existing e => parameters[e.Ordinal].HasExplicitDefaultValue || parameters[e.Ordinal].IsParams,
                EngineParameter.Added a => a.DefaultValue.Length > 0,
                _ => false,
            };
            if (!optional && optionalSeen)
            {
                throw Invalid($"parameters[{i}] is required but follows an optional parameter", $"parameters[{i}]",
                    "Place required parameters before optional ones, or give the added one a defaultValue");
            }
            optionalSeen |= optional;
        }
    }

    private void CheckNames(IReadOnlyList<IParameterSymbol> parameters)
    {
        var names = Order.Select(p => p switch
        {
            EngineParameter.Existing e => Renamed.TryGetValue(e.Ordinal, out var n) ? n.TrimStart('@') : parameters[e.Ordinal].Name,
            EngineParameter.Added a => a.Name.TrimStart('@'),
            _ => "",
        }).ToList();
        var twice = names.GroupBy(n => n, StringComparer.Ordinal).FirstOrDefault(g => g.Count() > 1);
        if (twice is not null)
        {
            throw HostErrorException.Create(
                ErrorCode.NameCollision,
                $"Two parameters would be named {twice.Key}",
                new JsonObject { ["name"] = twice.Key, ["parameters"] = new JsonArray([.. names.Select(n => JsonValue.Create(n))]) },
                "Give each parameter its own name");
        }
    }

    private static int Ordinal(IReadOnlyList<IParameterSymbol> parameters, string name)
    {
        var bare = name.TrimStart('@');
        for (var i = 0; i < parameters.Count; i++)
        {
            if (parameters[i].Name == bare)
            {
                return i;
            }
        }
        return -1;
    }

    private static void ValidName(string name, string field)
    {
        var bare = name.StartsWith('@') ? name[1..] : name;
        if (!SyntaxFacts.IsValidIdentifier(bare) || SyntaxFacts.GetKeywordKind(name) != SyntaxKind.None)
        {
            throw HostErrorException.Create(
                ErrorCode.InvalidSymbolName,
                $"'{name}' is not a C# parameter name",
                new JsonObject { ["field"] = field, ["name"] = name },
                "Pass a C# identifier (prefix a keyword with @)");
        }
    }

    private static HostErrorException Invalid(string message, string field, string suggestion) =>
        HostErrorException.Create(ErrorCode.InvalidParameter, message, new JsonObject { ["field"] = field }, suggestion);
}
