using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Moves;

/// <summary>
/// Keeps the users of a type binding to it after its namespace changed: qualified names get the new
/// qualifier; simple names and extension calls get <c>using NewNs;</c>, or, when that using makes another
/// name ambiguous, the new qualifier written out (<c>global::</c> if needed).
/// </summary>
internal static class ConsumerUpdates
{
    private enum Style
    {
        Import,
        Qualify,
        QualifyGlobal,
    }

    /// <summary>Adds the edits; returns the number of references in the documents that needed one.</summary>
    public static async Task<int> ApplyAsync(EditSet edits, MovedType type, string target, IReadOnlyList<TypeReference> references, CancellationToken cancellationToken)
    {
        var original = edits.Original;
        var built = await edits.BuildAsync(cancellationToken);
        var updated = 0;
        foreach (var group in references.GroupBy(r => r.DocumentId))
        {
            var id = group.Key;
            if (edits.IsDeleted(id))
            {
                continue;
            }
            var document = original.GetDocument(id)!;
            var text = await document.GetTextAsync(cancellationToken);
            var root = (CompilationUnitSyntax)(await document.GetSyntaxRootAsync(cancellationToken))!;
            var model = (await document.GetSemanticModelAsync(cancellationToken))!;
            var sites = group.Select(r => Site.Of(r, root, model, type.Name, target, cancellationToken)).OfType<Site>().ToList();
            if (!sites.Any(s => s.NeedsEdit))
            {
                continue;
            }

            var before = await ErrorDiff.OfDocumentAsync(original, id, cancellationToken);
            var lineBreak = SourceLines.LineBreakOf(text);
            (List<TextChange> Changes, bool AddsUsing)? chosen = null;
            foreach (var style in Enum.GetValues<Style>())
            {
                var attempt = Changes(sites, style, text, root, target, lineBreak);
                var trial = await edits.TrialAsync(built, id, attempt.Changes, cancellationToken);
                if (!ErrorDiff.Grew(before, await ErrorDiff.OfDocumentAsync(trial, id, cancellationToken)))
                {
                    chosen = attempt;
                    break;
                }
            }
            // Nothing compiles cleanly: keep the plain using; the compile check reports what breaks.
            var (changes, addsUsing) = chosen ?? Changes(sites, Style.Import, text, root, target, lineBreak);
            var count = group.Count();
            var note = $"Update {count} reference{(count == 1 ? "" : "s")} to {type.Name}" + (addsUsing ? $"; add using {target}" : "");
            edits.Change(id, changes, note);
            edits.UsingsAdded += addsUsing ? 1 : 0;
            updated += count;
        }
        return updated;
    }

    private static (List<TextChange> Changes, bool AddsUsing) Changes(
        List<Site> sites,
        Style style,
        SourceText text,
        CompilationUnitSyntax root,
        string target,
        string lineBreak)
    {
        var changes = new List<TextChange>();
        var import = false;
        foreach (var site in sites.Where(s => s.NeedsEdit))
        {
            if (site.Qualifier is { } qualifier)
            {
                var global = style == Style.QualifyGlobal || site.IsGlobal ? "global::" : "";
                changes.Add(new TextChange(qualifier, global + target));
            }
            else if (site.AfterGlobal)
            {
                changes.Add(new TextChange(new TextSpan(site.Name.Start, 0), target + "."));
            }
            else if (site.IsExtensionCall || style == Style.Import)
            {
                import = true;
            }
            else
            {
                var global = style == Style.QualifyGlobal ? "global::" : "";
                changes.Add(new TextChange(new TextSpan(site.Name.Start, 0), global + target + "."));
            }
        }
        if (import)
        {
            changes.AddRange(UsingDirectives.Insertions(text, root, [UsingLine.For(target)], lineBreak));
        }
        return (changes, import);
    }

    /// <summary>
    /// One use: its name, and for a qualified one the qualifier to rewrite (<c>Old.Ns</c> in <c>Old.Ns.Type</c>,
    /// in code, in a using alias or static, or in a cref). A simple name needs an edit unless the new namespace is
    /// already in scope there (imported, or enclosing the use).
    /// </summary>
    private sealed record Site(TextSpan Name, TextSpan? Qualifier, bool IsGlobal, bool IsExtensionCall, bool NeedsEdit, bool AfterGlobal = false)
    {
        public static Site? Of(TypeReference reference, CompilationUnitSyntax root, SemanticModel model, string typeName, string target, CancellationToken cancellationToken)
        {
            // Inside trivia too: a documentation comment's cref.
            var node = root.FindNode(reference.Span, findInsideTrivia: true, getInnermostNodeForTie: true);
            var inScope = Names.IsWithin(Names.EnclosingNamespace(node), target) || UsingDirectives.Imports(node, target);
            if (reference.IsExtensionCall)
            {
                return new Site(reference.Span, null, false, true, !inScope);
            }
            // Alias uses (`ShapeAlias`) bind through their directive, which is rewritten instead.
            if (node is not SimpleNameSyntax name || !(name.Identifier.ValueText == typeName || name.Identifier.ValueText + "Attribute" == typeName))
            {
                return null;
            }
            var qualifier = name.Parent switch
            {
                QualifiedNameSyntax q when q.Right == name => q.Left,
                MemberAccessExpressionSyntax m when m.Name == name => m.Expression,
                NameMemberCrefSyntax { Parent: QualifiedCrefSyntax cref } member when cref.Member == member => cref.Container,
                _ => null,
            };
            if (qualifier is not null && model.GetSymbolInfo(qualifier, cancellationToken).Symbol is INamespaceSymbol)
            {
                var isGlobal = qualifier.ToString().StartsWith("global::", StringComparison.Ordinal);
                return new Site(name.Span, qualifier.Span, isGlobal, false, true);
            }
            // `global::Type` of the global namespace: the new qualifier goes after `global::`.
            if (name.Parent is AliasQualifiedNameSyntax alias && alias.Name == name)
            {
                return new Site(name.Span, null, false, false, true, AfterGlobal: true);
            }
            return new Site(name.Span, null, false, false, !inScope);
        }
    }
}
