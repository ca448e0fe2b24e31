using System.Collections.Immutable;
using System.Globalization;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMcp.Host.Semantics.Diagnostics;

/// <summary>
/// A compilation's diagnostics worked out from an earlier compilation of the same project, when only method
/// bodies changed in between: binding a body depends only on declarations, so every other document's
/// diagnostics are what they were, and the changed documents (with the other parts of their partial types) are
/// asked again. What only a whole compilation reports (a field or event nobody uses) depends on every body, so
/// an edit touching a field is carried only when that field is surely still used (<see cref="UnusedFieldWarnings"/>);
/// otherwise null: compile it all.
/// </summary>
internal static class CarriedDiagnostics
{
    public static ImmutableArray<Diagnostic>? From(
        Compilation before,
        ImmutableArray<Diagnostic> diagnostics,
        Compilation after,
        CancellationToken cancellationToken)
    {
        if (EditedTrees(before, after, [], cancellationToken) is not { } edited
            || MayIntercept(after, cancellationToken)
            || !UnusedFieldWarnings.StayAsTheyWere(before, after, diagnostics, edited.Select(e => (e.Key, e.Value.After, e.Value.Edits)), cancellationToken))
        {
            return null;
        }

        // The trees to ask again: the edited ones and every tree holding a part of a type they changed a member of.
        var asked = new HashSet<SyntaxTree>();
        foreach (var (@is, edits) in edited.Values)
        {
            asked.Add(@is);
            var model = after.GetSemanticModel(@is);
            foreach (var type in edits.Members.SelectMany(m => m.After.Ancestors().OfType<BaseTypeDeclarationSyntax>()))
            {
                foreach (var part in model.GetDeclaredSymbol(type, cancellationToken)?.DeclaringSyntaxReferences ?? [])
                {
                    asked.Add(part.SyntaxTree);
                }
            }
        }

        var carried = ImmutableArray.CreateBuilder<Diagnostic>();
        foreach (var diagnostic in diagnostics)
        {
            var tree = diagnostic.Location.SourceTree;
            if (tree is not null && edited.TryGetValue(tree, out var edit))
            {
                if (!UnusedFieldWarnings.Ids.Contains(diagnostic.Id))
                {
                    continue;
                }
                if (Moved(diagnostic, edit.After, cancellationToken) is not { } moved)
                {
                    return null;
                }
                carried.Add(moved);
            }
            else if (tree is null || !asked.Contains(tree) || UnusedFieldWarnings.Ids.Contains(diagnostic.Id))
            {
                carried.Add(diagnostic);
            }
        }
        foreach (var tree in asked)
        {
            cancellationToken.ThrowIfCancellationRequested();
            carried.AddRange(after.GetSemanticModel(tree).GetDiagnostics(cancellationToken: cancellationToken)
                .Where(d => !UnusedFieldWarnings.Ids.Contains(d.Id)));
        }
        return carried.ToImmutable();
    }

    /// <summary>Whether each tree names <c>InterceptsLocation</c>, worked out once per tree.</summary>
    private static readonly ConditionalWeakTable<SyntaxTree, StrongBox<bool>> NamesInterceptsLocation = new();

    /// <summary>
    /// An interceptor names a call's place in another file by that file's content, so any edit there can
    /// break it: with interceptors enabled, a compilation where any file names the attribute is compiled whole.
    /// </summary>
    private static bool MayIntercept(Compilation compilation, CancellationToken cancellationToken) =>
        compilation.SyntaxTrees.FirstOrDefault()?.Options.Features.Keys.Any(key => key.StartsWith("Interceptors", StringComparison.Ordinal)) == true
        && compilation.SyntaxTrees.Any(tree => NamesInterceptsLocation.GetValue(tree, t =>
            new StrongBox<bool>(t.GetText(cancellationToken).ToString().Contains("InterceptsLocation", StringComparison.Ordinal))).Value);

    private static bool SameSetting(Compilation before, Compilation after) =>
        before.Language == after.Language
        && before.AssemblyName == after.AssemblyName
        && before.Options.Equals(after.Options)
        && before.SyntaxTrees.Count() == after.SyntaxTrees.Count();

    /// <summary>
    /// The same references, or references to compilations whose declarations are the same: a project whose
    /// reference only had bodies edited binds exactly as before.
    /// </summary>
    private static bool SameReferences(Compilation before, Compilation after, Dictionary<(Compilation, Compilation), bool> same, CancellationToken cancellationToken)
    {
        var was = before.ExternalReferences;
        var @is = after.ExternalReferences;
        return was.Length == @is.Length && was.Zip(@is).All(pair =>
            pair.First.Equals(pair.Second)
            || (pair.First is CompilationReference a && pair.Second is CompilationReference b
                && a.Properties.Equals(b.Properties) && SameDeclarations(a.Compilation, b.Compilation, same, cancellationToken)));
    }

    private static bool SameDeclarations(Compilation before, Compilation after, Dictionary<(Compilation, Compilation), bool> same, CancellationToken cancellationToken)
    {
        if (before == after)
        {
            return true;
        }
        if (!same.TryGetValue((before, after), out var known))
        {
            known = EditedTrees(before, after, same, cancellationToken) is not null;
            same[(before, after)] = known;
        }
        return known;
    }

    /// <summary>
    /// Each tree that differs, by its old version, with its new one and its edits; null unless the settings and
    /// references are the same and every difference is in method bodies. <paramref name="same"/> keeps what is
    /// known of referenced compilations, which a solution's project graph reaches more than once.
    /// </summary>
    private static Dictionary<SyntaxTree, (SyntaxTree After, BodyEdits Edits)>? EditedTrees(
        Compilation before,
        Compilation after,
        Dictionary<(Compilation, Compilation), bool> same,
        CancellationToken cancellationToken)
    {
        if (!SameSetting(before, after) || !SameReferences(before, after, same, cancellationToken))
        {
            return null;
        }
        var edited = new Dictionary<SyntaxTree, (SyntaxTree After, BodyEdits Edits)>();
        foreach (var (was, @is) in before.SyntaxTrees.Zip(after.SyntaxTrees).Where(pair => pair.First != pair.Second))
        {
            if (BodyEdits.Between(was, @is, cancellationToken) is not { } edits)
            {
                return null;
            }
            edited[was] = (@is, edits);
        }
        return edited;
    }

    /// <summary>
    /// A whole-compilation diagnostic of an edited tree, at the same declaration in its new version: the path of
    /// child indexes from the root to a declaration's token is the same in both, since only bodies changed.
    /// </summary>
    private static Diagnostic? Moved(Diagnostic diagnostic, SyntaxTree after, CancellationToken cancellationToken)
    {
        var span = diagnostic.Location.SourceSpan;
        var token = diagnostic.Location.SourceTree!.GetRoot(cancellationToken).FindToken(span.Start);
        if (token.Span != span)
        {
            return null;
        }
        var path = new Stack<int>();
        SyntaxNodeOrToken at = token;
        for (var parent = token.Parent; parent is not null; at = parent, parent = parent.Parent)
        {
            path.Push(IndexIn(parent.ChildNodesAndTokens(), at));
        }
        SyntaxNodeOrToken there = after.GetRoot(cancellationToken);
        foreach (var index in path)
        {
            var children = there.ChildNodesAndTokens();
            if (index < 0 || index >= children.Count)
            {
                return null;
            }
            there = children[index];
        }
        if (!there.IsToken || there.AsToken().ValueText != token.ValueText)
        {
            return null;
        }
        var descriptor = diagnostic.Descriptor;
        return Diagnostic.Create(
            diagnostic.Id,
            descriptor.Category,
            diagnostic.GetMessage(CultureInfo.InvariantCulture),
            diagnostic.Severity,
            diagnostic.DefaultSeverity,
            descriptor.IsEnabledByDefault,
            diagnostic.WarningLevel,
            diagnostic.IsSuppressed,
            descriptor.Title,
            descriptor.Description,
            descriptor.HelpLinkUri,
            Location.Create(after, there.Span),
            customTags: descriptor.CustomTags,
            properties: diagnostic.Properties);
    }

    private static int IndexIn(ChildSyntaxList children, SyntaxNodeOrToken child)
    {
        var index = 0;
        foreach (var each in children)
        {
            if (each == child)
            {
                return index;
            }
            index++;
        }
        return -1;
    }
}
