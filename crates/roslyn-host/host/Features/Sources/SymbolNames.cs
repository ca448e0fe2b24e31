using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Sources;

/// <summary>
/// Symbols by name: a documentation comment id (<c>M:Shop.Cart.Add(System.Int32)</c>), a type's metadata name
/// (<c>Shop.Cart</c>, <c>Shop.Outer+Inner</c>, <c>System.Collections.Generic.List`1</c>), or a type's name and a
/// member's (<c>Shop.Cart.Add</c>: every overload; <c>Shop.Cart.Cart</c> or <c>Shop.Cart..ctor</c>: its
/// constructors). Generic arity may be left out (<c>System.Collections.Generic.List</c>). A name as answers write it
/// (<c>System.Collections.Generic.List&lt;T&gt;.Add(T)</c>, <c>Shop.Cart.Add(int)</c>, <c>string.Length</c>) is the
/// symbol it displays.
/// </summary>
public static class SymbolNames
{
    public static List<ISymbol> Resolve(IEnumerable<Compilation> compilations, string name)
    {
        name = name.Trim();
        var found = new List<ISymbol>();
        foreach (var compilation in compilations)
        {
            found.AddRange(InCompilation(compilation, name));
        }
        // Each project's compilation has its own symbols: one per declaration key and assembly.
        return found
            .Select(s => s.OriginalDefinition)
            .DistinctBy(s => (SymbolFormat.KeyOf(s), s.ContainingAssembly?.Identity.ToString()))
            .ToList();
    }

    /// <summary>The C# keywords answers write for special types, with the metadata names they stand for.</summary>
    private static readonly Dictionary<string, string> Keywords = new(StringComparer.Ordinal)
    {
        ["object"] = "System.Object", ["string"] = "System.String", ["bool"] = "System.Boolean",
        ["char"] = "System.Char", ["byte"] = "System.Byte", ["sbyte"] = "System.SByte",
        ["short"] = "System.Int16", ["ushort"] = "System.UInt16", ["int"] = "System.Int32",
        ["uint"] = "System.UInt32", ["long"] = "System.Int64", ["ulong"] = "System.UInt64",
        ["float"] = "System.Single", ["double"] = "System.Double", ["decimal"] = "System.Decimal",
        ["nint"] = "System.IntPtr", ["nuint"] = "System.UIntPtr",
    };

    private static IEnumerable<ISymbol> InCompilation(Compilation compilation, string name)
    {

        if (name.Length > 2 && name[1] == ':')
        {
            var declared = DocumentationCommentId.GetSymbolsForDeclarationId(name, compilation);
            return declared.IsEmpty ? MemberWithId(compilation, name) : declared;
        }
        if (name.IndexOfAny(['(', '<']) >= 0 || Keywords.ContainsKey(FirstSegment(name)))
        {
            return Displayed(compilation, name);
        }
        var type = TypeNamed(compilation, name);
        if (type is not null)
        {
            return [type];
        }
        var ctor = name.EndsWith("..ctor", StringComparison.Ordinal) || name.EndsWith(".#ctor", StringComparison.Ordinal);
        var dot = ctor ? name.Length - 6 : name.LastIndexOf('.');
        if (dot <= 0)
        {
            return [];
        }
        var container = TypeNamed(compilation, name[..dot]);
        var member = name[(dot + 1)..];
        if (container is null)
        {
            return [];
        }
        return ctor || member == container.Name
            ? container.InstanceConstructors.Concat(container.StaticConstructors).Where(c => !c.IsImplicitlyDeclared)
            : container.GetMembers(member);
    }

    /// <summary>
    /// A member by its id, found among its type's members: Roslyn's parser of ids reads no explicit
    /// implementation of a generic interface (<c>M:System.Collections.Generic.List`1.System#Collections#Generic#IEnumerable{T}#GetEnumerator</c>).
    /// </summary>
    private static IEnumerable<ISymbol> MemberWithId(Compilation compilation, string id)
    {
        var parameters = id.IndexOf('(');
        var dot = id.LastIndexOf('.', parameters < 0 ? id.Length - 1 : parameters);
        if (dot <= 2)
        {
            return [];
        }
        return DocumentationCommentId.GetSymbolsForDeclarationId("T:" + id[2..dot], compilation)
            .OfType<INamedTypeSymbol>()
            .SelectMany(type => type.GetMembers())
            .Where(member => member.GetDocumentationCommentId() == id);
    }

    /// <summary>
    /// The symbols whose display (<see cref="SymbolFormat.Display"/>) is <paramref name="name"/>: looked up by the
    /// name with its type arguments as arity and its parameters left out, then each candidate's display compared.
    /// </summary>
    private static IEnumerable<ISymbol> Displayed(Compilation compilation, string name)
    {
        var path = MetadataPath(name);
        var first = FirstSegment(path);
        path = Keywords.TryGetValue(first, out var special) ? special + path[first.Length..] : path;
        IEnumerable<ISymbol> candidates = InCompilation(compilation, path).ToList();
        // A generic method (`Unsafe.As<T>(object)`), an operator or an indexer is not found by its written name:
        // every member of its type is a candidate.
        var dot = path.LastIndexOf('.');
        if (!candidates.Any() && dot > 0 && TypeNamed(compilation, path[..dot]) is { } container)
        {
            candidates = container.GetMembers();
        }
        return candidates.Where(symbol => symbol.ToDisplayString(SymbolFormat.Display) == name);
    }

    private static string FirstSegment(string name) => name.IndexOfAny(['.', '(', '<']) is var end and > 0 ? name[..end] : name;

    /// <summary><c>System.Collections.Generic.Dictionary&lt;TKey, TValue&gt;.Add(TKey, TValue)</c> as <c>System.Collections.Generic.Dictionary`2.Add</c>.</summary>
    private static string MetadataPath(string name)
    {
        var path = new System.Text.StringBuilder();
        var (depth, arguments) = (0, 0);
        foreach (var c in name)
        {
            switch (c)
            {
                case '(' when depth == 0:
                    return path.ToString();
                case '<' or '(' or '[':
                    depth++;
                    arguments = depth == 1 ? 1 : arguments;
                    break;
                case '>' or ')' or ']':
                    depth--;
                    if (depth == 0)
                    {
                        path.Append('`').Append(arguments);
                    }
                    break;
                case ',' when depth == 1:
                    arguments++;
                    break;
                default:
                    if (depth == 0)
                    {
                        path.Append(c);
                    }
                    break;
            }
        }
        return path.ToString();
    }

    private static INamedTypeSymbol? TypeNamed(Compilation compilation, string name)
    {
        if (compilation.GetTypeByMetadataName(name) is { } exact)
        {
            return exact;
        }
        // Without its arity: the first of List`1, List`2... that exists.
        for (var arity = 1; arity <= 8 && !name.Contains('`'); arity++)
        {
            if (compilation.GetTypeByMetadataName($"{name}`{arity}") is { } generic)
            {
                return generic;
            }
        }
        // Nested types written with dots (Shop.Outer.Inner).
        var dot = name.LastIndexOf('.');
        return dot > 0 && TypeNamed(compilation, name[..dot]) is { } outer
            ? outer.GetTypeMembers(name[(dot + 1)..]).FirstOrDefault()
            : null;
    }
}
