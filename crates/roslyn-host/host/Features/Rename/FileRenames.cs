using Microsoft.CodeAnalysis;

namespace RoslynMcp.Host.Features.Rename;

/// <summary>
/// A type's files named after it (<c>Order.cs</c>, or <c>Order.Lines.cs</c> for a part): renamed along with a
/// top-level type when asked, unless the new path is taken.
/// </summary>
internal static class FileRenames
{
    public static Dictionary<string, string> Plan(Solution solution, ISymbol symbol, string newName, List<string> warnings)
    {
        var renames = new Dictionary<string, string>(StringComparer.Ordinal);
        if (symbol is not INamedTypeSymbol { ContainingType: null } type)
        {
            return renames;
        }
        var paths = type.Locations.Where(l => l.IsInSource).Select(l => l.SourceTree!.FilePath).Distinct().Order(StringComparer.Ordinal);
        foreach (var path in paths)
        {
            var file = Path.GetFileName(path);
            if (!file.StartsWith(type.Name + ".", StringComparison.Ordinal) || !file.EndsWith(".cs", StringComparison.Ordinal))
            {
                continue;
            }
            var target = Path.Combine(Path.GetDirectoryName(path)!, newName + file[type.Name.Length..]);
            if (solution.GetDocumentIdsWithFilePath(target).Any() || File.Exists(target))
            {
                warnings.Add($"Did not rename {file}: {Path.GetFileName(target)} already exists");
                continue;
            }
            renames[path] = target;
            warnings.Add($"Renamed {file} to {Path.GetFileName(target)}");
        }
        return renames;
    }
}
