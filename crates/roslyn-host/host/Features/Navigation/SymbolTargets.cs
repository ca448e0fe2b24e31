using System.Text;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using Position = RoslynMcp.Host.Protocol.Position;

namespace RoslynMcp.Host.Features.Navigation;

/// <summary>The symbol a type query is about: the declared symbol at a position, or a type by its full name.</summary>
public static class SymbolTargets
{
    public static async Task<ISymbol> ResolveAsync(Solution solution, SymbolTarget target, CancellationToken cancellationToken) =>
        target switch
        {
            SymbolTarget.At { Value: var position } => await AtAsync(solution, position, cancellationToken),
            SymbolTarget.Named { Value: var name } => await NamedTypeAsync(solution, name.Trim(), cancellationToken),
            _ => throw new ArgumentOutOfRangeException(nameof(target), target, null),
        };

    private static async Task<ISymbol> AtAsync(Solution solution, Position position, CancellationToken cancellationToken)
    {
        var at = await PositionResolver.ResolveAsync(solution, position, cancellationToken);
        return Definitions.Of(await PositionResolver.RequireSymbolAsync(at, cancellationToken));
    }

    /// <summary>
    /// The type with this fully qualified name in any project's compilation, declared in source if one is.
    /// </summary>
    private static async Task<INamedTypeSymbol> NamedTypeAsync(Solution solution, string name, CancellationToken cancellationToken)
    {
        if (name.Length == 0)
        {
            throw HostErrorException.Create(
                ErrorCode.InvalidParameter,
                "The type name is empty",
                new JsonObject { ["name"] = name },
                "Pass a fully qualified type name such as Namespace.Type");
        }
        var metadataNames = MetadataNames(name);
        var found = new List<INamedTypeSymbol>();
        foreach (var project in solution.Projects)
        {
            if (await project.GetCompilationAsync(cancellationToken) is { } compilation)
            {
                found.AddRange(metadataNames.SelectMany(n => compilation.GetTypesByMetadataName(n)));
            }
        }
        var inSource = found.Where(t => !SymbolFormat.IsMetadata(t)).ToList();
        // Every compilation referencing an assembly sees its own symbol for the same type.
        var types = (inSource.Count > 0 ? inSource : found)
            .GroupBy(t => (SymbolFormat.KeyOf(t), t.ContainingAssembly.Identity.ToString()))
            .Select(g => g.First())
            .ToList();
        return types.Count switch
        {
            1 => types[0],
            0 => throw await NotFoundAsync(solution, name, cancellationToken),
            _ => throw HostErrorException.Create(
                ErrorCode.SymbolAmbiguous,
                $"'{name}' names {types.Count} types in different assemblies",
                new JsonObject
                {
                    ["name"] = name,
                    ["assemblies"] = new JsonArray([.. types.Select(t => JsonValue.Create(t.ContainingAssembly.Identity.ToString()))]),
                },
                "Ask about the type at a position where it is used instead"),
        };
    }

    /// <summary>
    /// The metadata names a C# name can stand for: <c>A.B.C&lt;T&gt;</c> is <c>A.B.C`1</c>, or a type <c>C`1</c>
    /// nested in <c>A.B</c> (<c>A.B+C`1</c>), and so on up to the first dot.
    /// </summary>
    private static List<string> MetadataNames(string name)
    {
        var parts = SplitTopLevel(name.StartsWith("global::", StringComparison.Ordinal) ? name["global::".Length..] : name)
            .Select(WithArity)
            .ToList();
        return Enumerable.Range(1, parts.Count)
            .Reverse()
            .Select(outer => string.Join('.', parts.Take(outer)) + string.Concat(parts.Skip(outer).Select(p => "+" + p)))
            .ToList();
    }

    /// <summary>The dot-separated parts of a name, dots inside type argument lists left alone.</summary>
    private static IEnumerable<string> SplitTopLevel(string name)
    {
        var depth = 0;
        var part = new StringBuilder();
        foreach (var c in name)
        {
            depth += c switch { '<' => 1, '>' => -1, _ => 0 };
            if (c == '.' && depth == 0)
            {
                yield return part.ToString().Trim();
                part.Clear();
            }
            else
            {
                part.Append(c);
            }
        }
        yield return part.ToString().Trim();
    }

    /// <summary><c>IRepository&lt;T&gt;</c> as <c>IRepository`1</c>, <c>Dictionary&lt;K, V&gt;</c> as <c>Dictionary`2</c>.</summary>
    private static string WithArity(string part)
    {
        var open = part.IndexOf('<');
        if (open < 0 || !part.EndsWith('>'))
        {
            return part;
        }
        var arguments = part[(open + 1)..^1];
        var depth = 0;
        var arity = 1;
        foreach (var c in arguments)
        {
            depth += c switch { '<' => 1, '>' => -1, _ => 0 };
            arity += c == ',' && depth == 0 ? 1 : 0;
        }
        return $"{part[..open].Trim()}`{arity}";
    }

    private static async Task<HostErrorException> NotFoundAsync(Solution solution, string name, CancellationToken cancellationToken)
    {
        var simpleName = SimpleName(name);
        var similar = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var project in solution.Projects)
        {
            if (await project.GetCompilationAsync(cancellationToken) is { } compilation)
            {
                var types = compilation.GetSymbolsWithName(
                    n => string.Equals(n, simpleName, StringComparison.OrdinalIgnoreCase), SymbolFilter.Type, cancellationToken);
                similar.UnionWith(types.Select(t => t.ToDisplayString(SymbolFormat.Display)));
            }
        }
        return HostErrorException.Create(
            ErrorCode.SymbolNotFound,
            $"No type named '{name}' in the solution or its references",
            new JsonObject { ["name"] = name },
            similar.Count > 0
                ? $"Did you mean {string.Join(", ", similar)}?"
                : "Pass the fully qualified name, e.g. Namespace.Type, Namespace.Outer.Inner or Namespace.Type<T>");
    }

    /// <summary>The innermost type's name without its type arguments or arity.</summary>
    private static string SimpleName(string name)
    {
        var last = SplitTopLevel(name).Last().Split('+').Last();
        var end = last.IndexOfAny(['<', '`']);
        return end < 0 ? last : last[..end];
    }
}
