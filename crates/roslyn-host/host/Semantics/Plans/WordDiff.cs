using Microsoft.CodeAnalysis.Text;

namespace RoslynMcp.Host.Semantics.Plans;

/// <summary>
/// The smallest changes that turn one text into another, word by word. A syntax tree's diff is coarse: a rename
/// that touches a documentation comment's <c>cref</c> and the constructor below it comes as one change spanning
/// both; split here, each renamed name is a change of its own, so that places between and after them map
/// through the changes exactly and identical edits from different frameworks compare equal.
/// </summary>
internal static class WordDiff
{
    // Past this many word pairs the change stays whole: the comparison is quadratic.
    private const long MaxPairs = 4_000_000;

    /// <summary>The changes, each trimmed of the characters it leaves as they were at either end.</summary>
    public static IEnumerable<TextChange> Split(int start, string oldText, string newText)
    {
        var (oldWords, newWords) = (Words(oldText), Words(newText));
        if ((long)oldWords.Count * newWords.Count > MaxPairs)
        {
            return Trimmed(start, oldText, newText) is { } whole ? [whole] : [];
        }
        var changes = new List<TextChange>();
        var (o, n) = (0, 0);
        foreach (var (oldIndex, newIndex) in CommonWords(oldWords, newWords).Append((oldWords.Count, newWords.Count)))
        {
            if (oldIndex > o || newIndex > n)
            {
                var from = Offset(oldWords, o);
                var replaced = oldText[from..Offset(oldWords, oldIndex)];
                var with = newText[Offset(newWords, n)..Offset(newWords, newIndex)];
                if (Trimmed(start + from, replaced, with) is { } change)
                {
                    changes.Add(change);
                }
            }
            (o, n) = (oldIndex + 1, newIndex + 1);
        }
        return changes;
    }

    /// <summary>The change without what it leaves as it was at either end; null when it changes nothing.</summary>
    public static TextChange? Trimmed(int start, string oldText, string newText)
    {
        var prefix = 0;
        while (prefix < oldText.Length && prefix < newText.Length && oldText[prefix] == newText[prefix])
        {
            prefix++;
        }
        var suffix = 0;
        while (suffix < oldText.Length - prefix && suffix < newText.Length - prefix
            && oldText[^(suffix + 1)] == newText[^(suffix + 1)])
        {
            suffix++;
        }
        if (prefix == oldText.Length && prefix == newText.Length)
        {
            return null;
        }
        return new TextChange(new TextSpan(start + prefix, oldText.Length - prefix - suffix), newText[prefix..^suffix]);
    }

    private readonly record struct Word(int Start, string Text);

    /// <summary>Runs of letters, digits and underscores, runs of white space, and each other character alone.</summary>
    private static List<Word> Words(string text)
    {
        var words = new List<Word>();
        for (var i = 0; i < text.Length;)
        {
            var kind = KindOf(text[i]);
            var end = i + 1;
            while (kind != 0 && end < text.Length && KindOf(text[end]) == kind)
            {
                end++;
            }
            words.Add(new Word(i, text[i..end]));
            i = end;
        }
        return words;
    }

    private static int KindOf(char c) => char.IsLetterOrDigit(c) || c == '_' ? 1 : char.IsWhiteSpace(c) ? 2 : 0;

    private static int Offset(List<Word> words, int index) =>
        index < words.Count ? words[index].Start : words.Count == 0 ? 0 : words[^1].Start + words[^1].Text.Length;

    /// <summary>The pairs of equal words of a longest common subsequence, in order.</summary>
    private static List<(int Old, int New)> CommonWords(List<Word> oldWords, List<Word> newWords)
    {
        var (m, n) = (oldWords.Count, newWords.Count);
        var lengths = new int[m + 1, n + 1];
        for (var i = m - 1; i >= 0; i--)
        {
            for (var j = n - 1; j >= 0; j--)
            {
                lengths[i, j] = oldWords[i].Text == newWords[j].Text
                    ? lengths[i + 1, j + 1] + 1
                    : Math.Max(lengths[i + 1, j], lengths[i, j + 1]);
            }
        }
        var pairs = new List<(int, int)>();
        for (var (i, j) = (0, 0); i < m && j < n;)
        {
            if (oldWords[i].Text == newWords[j].Text)
            {
                pairs.Add((i++, j++));
            }
            else if (lengths[i + 1, j] >= lengths[i, j + 1])
            {
                i++;
            }
            else
            {
                j++;
            }
        }
        return pairs;
    }
}
