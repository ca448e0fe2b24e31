using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Features.FindReplace;

/// <summary>
/// What a find/replace request looks for, as one .NET regular expression (a literal pattern escaped), and what
/// each match becomes. <c>^</c> and <c>$</c> match at every line; a match that runs longer than
/// <see cref="Timeout"/> stops the search rather than the host.
/// </summary>
internal sealed class SearchPattern
{
    public static readonly TimeSpan Timeout = TimeSpan.FromSeconds(2);

    private readonly FindReplaceRequest request;
    private readonly Regex regex;

    private SearchPattern(FindReplaceRequest request, Regex regex)
    {
        this.request = request;
        this.regex = regex;
    }

    public static SearchPattern Of(FindReplaceRequest request)
    {
        if (request.Pattern.Length == 0)
        {
            throw Invalid(request, "The pattern is empty", "Pass the text or regular expression to look for");
        }
        var options = RegexOptions.Multiline | RegexOptions.CultureInvariant | (request.CaseSensitive ? RegexOptions.None : RegexOptions.IgnoreCase);
        var body = request.Regex ? request.Pattern : Regex.Escape(request.Pattern);
        // Parsed alone before the word boundaries go around it, so that a parse error points into the pattern as given.
        Regex regex;
        try
        {
            regex = new Regex(body, options, Timeout);
        }
        catch (ArgumentException e)
        {
            throw Invalid(request, $"'{request.Pattern}' is not a valid .NET regular expression: {e.Message}", "Escape the characters meant literally, or search without regex");
        }
        return new SearchPattern(request, request.WholeWord ? new Regex($@"\b(?:{body})\b", options, Timeout) : regex);
    }

    /// <summary>The matches in a file's text, in order; empty matches are left out (they would replace nothing).</summary>
    public IEnumerable<Match> In(string path, string text)
    {
        for (var match = Run(path, () => regex.Match(text)); match.Success; match = Run(path, match.NextMatch))
        {
            if (match.Length > 0)
            {
                yield return match;
            }
        }
    }

    /// <summary>The replacement as given for a literal search; with a regex, its <c>$1</c>, <c>${name}</c> and <c>$$</c> substituted.</summary>
    public string ReplacementOf(Match match) => request.Regex ? match.Result(request.Replacement) : request.Replacement;

    private Match Run(string path, Func<Match> next)
    {
        try
        {
            return next();
        }
        catch (RegexMatchTimeoutException)
        {
            throw HostErrorException.Create(
                ErrorCode.InvalidParameter,
                $"The pattern '{request.Pattern}' took over {Timeout.TotalSeconds:0} s to match in {path}: it backtracks too much",
                new JsonObject { ["pattern"] = request.Pattern, ["file"] = path, ["timeoutSeconds"] = Timeout.TotalSeconds },
                "Avoid nested quantifiers such as (a+)+ and alternatives that match the same text",
                "Narrow the files with include or project");
        }
    }

    private static HostErrorException Invalid(FindReplaceRequest request, string message, string suggestion) =>
        HostErrorException.Create(ErrorCode.InvalidParameter, message, new JsonObject { ["pattern"] = request.Pattern, ["regex"] = request.Regex }, suggestion);
}
