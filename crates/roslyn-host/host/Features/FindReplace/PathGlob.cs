using System.Text;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Features.FindReplace;

/// <summary>
/// A glob on paths relative to the solution's folder, with <c>/</c> between names: <c>**</c> stands for any
/// folders (none included) and must be a whole name, <c>*</c> for any characters within a name, <c>?</c> for
/// one. Matching is ordinal, as the paths are.
/// </summary>
internal sealed class PathGlob(Regex regex)
{
    public bool Matches(string relativePath) => regex.IsMatch(relativePath);

    /// <summary>The glob, or null when there is none (every path matches).</summary>
    public static PathGlob? Of(string? glob)
    {
        if (glob is null)
        {
            return null;
        }
        var names = glob.Split('/');
        if (glob.Length == 0 || glob.StartsWith('/') || Path.IsPathRooted(glob))
        {
            throw Invalid(glob, "it must be a relative path");
        }
        var pattern = new StringBuilder("^");
        for (var i = 0; i < names.Length; i++)
        {
            var name = names[i];
            var last = i == names.Length - 1;
            if (name == "**")
            {
                pattern.Append(last ? ".*" : "(?:[^/]+/)*");
                continue;
            }
            if (name.Length == 0 || name is "." or "..")
            {
                throw Invalid(glob, $"'{name}' is not a folder or file name");
            }
            foreach (var c in name)
            {
                pattern.Append(c switch
                {
                    '*' when name.Contains("**", StringComparison.Ordinal) => throw Invalid(glob, "** must be a whole name between slashes"),
                    '*' => "[^/]*",
                    '?' => "[^/]",
                    '[' or ']' or '{' or '}' or '\\' => throw Invalid(glob, $"'{c}' is not supported (only **, * and ?)"),
                    _ => Regex.Escape(c.ToString()),
                });
            }
            if (!last)
            {
                pattern.Append('/');
            }
        }
        return new PathGlob(new Regex(pattern.Append('$').ToString(), RegexOptions.CultureInvariant));
    }

    private static HostErrorException Invalid(string glob, string reason) => HostErrorException.Create(
        ErrorCode.InvalidParameter,
        $"The include glob '{glob}' is invalid: {reason}",
        new JsonObject { ["include"] = glob },
        "Use a path relative to the solution's folder with / between names, e.g. **/*.cs or src/*/Model/*.cs");
}
