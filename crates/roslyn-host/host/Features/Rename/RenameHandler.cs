using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Rename;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;
using Position = RoslynMcp.Host.Protocol.Position;

namespace RoslynMcp.Host.Features.Rename;

/// <summary>
/// Plans a rename on the immutable snapshot with Roslyn's renamer, run for the symbol as every target framework
/// sees it and merged per file; refused on any name collision, new compiler error or change of what code binds
/// to. Nothing is applied here; the broker writes the files.
/// </summary>
public static class RenameHandler
{
    public static async Task<RenamePlan> HandleAsync(Solution solution, RenameRequest request, CancellationToken cancellationToken)
    {
        var phases = new PlanPhases();
        var symbol = await RenameTarget.FindAsync(solution, request.Position, cancellationToken);
        RenameTarget.ValidateName(symbol, request.NewName);
        var newName = request.NewName.TrimStart('@');
        var targets = await RenameTarget.PerProjectAsync(solution, symbol, cancellationToken);
        var overloads = request.RenameOverloads ? targets.SelectMany(Overloads).ToList() : [];
        List<ISymbol> renamed = [.. targets, .. overloads];

        phases.End("symbol");
        var places = await RenamedPlaces.OfAsync(solution, renamed, symbol.Name, cancellationToken);
        phases.End("places");
        var conflicts = await DeclaredConflicts.FindAsync(solution, symbol, renamed, places.Select(p => p.Location), newName, cancellationToken);
        phases.End("declared conflicts");
        if (conflicts.Count > 0)
        {
            throw RenameErrors.Collision(
                symbol,
                request.NewName,
                $"{newName} is already declared where {symbol.Name} is declared or used: {conflicts[0]}",
                conflicts);
        }

        var options = new SymbolRenameOptions(request.RenameOverloads, request.RenameInStrings, request.RenameInComments, RenameFile: false);
        var changes = await RenameAsync(solution, targets, options, request.NewName, places, cancellationToken);
        changes.CheckOverlaps();
        var after = await changes.ApplyAsync(cancellationToken);
        phases.End("renamer");
        await CompileConflicts.CheckAsync(solution, after, symbol, renamed, request.NewName, cancellationToken);
        phases.End("compile check");

        var renamedAfter = await RenamedPlaces.AfterAsync(after, changes, renamed, solution, cancellationToken);
        var placesAfter = await RenamedPlaces.OfAsync(after, renamedAfter, newName, cancellationToken);
        BindingCheck.Run(symbol, request.NewName, places, placesAfter, changes);
        phases.End("binding check");

        var warnings = new List<string>();
        if (overloads.Count > 0)
        {
            var count = overloads.Select(SymbolFormat.KeyOf).Distinct().Count();
            warnings.Add($"Also renamed {count} overload{(count == 1 ? "" : "s")}");
        }
        var elsewhere = await OtherChangesAsync(solution, changes, places, cancellationToken);
        if (elsewhere > 0)
        {
            warnings.Add($"Renamed in {elsewhere} comment{(elsewhere == 1 ? "" : "s")}/string{(elsewhere == 1 ? "" : "s")}");
        }
        var files = request.RenameFile ? FileRenames.Plan(solution, symbol, newName, warnings) : [];
        var edits = await EditsAsync(changes, files, symbol.Name, newName, cancellationToken);
        edits.AddRange(await ProjectFileEntries.EditedAsync(solution, files.ToDictionary(f => f.Key, f => (string?)f.Value), cancellationToken));

        phases.End("edits");
        phases.Log($"rename of {symbol.Name} planned ({places.Count} places, {edits.Count} file edits)");
        var declaration = SourceSymbols.FirstDeclaration(symbol).GetLineSpan();
        var newSymbol = renamedAfter.FirstOrDefault();
        return new RenamePlan(
            new RenamedSymbol(
                symbol.Name,
                request.NewName,
                SymbolFormat.KindOf(symbol),
                symbol.ToDisplayString(SymbolFormat.Display),
                newSymbol?.ToDisplayString(SymbolFormat.Display) ?? "",
                new Position(declaration.Path, (uint)declaration.StartLinePosition.Line + 1, (uint)declaration.StartLinePosition.Character + 1)),
            edits.OrderBy(e => e.Path, StringComparer.Ordinal).ToValueList(),
            (uint)changes.Count,
            (uint)places.Count,
            warnings.ToValueList());
    }

    /// <summary>
    /// Roslyn's renamer for the symbol as the first target framework sees it, then for the others only when some
    /// place of the symbol is left: code under <c>#if</c> that the first does not compile. Comments and strings
    /// are renamed by each (inactive code's comments are text to the others). The places of every framework are
    /// known beforehand, so a framework whose renamer would add nothing is not asked.
    /// </summary>
    private static async Task<MergedChanges> RenameAsync(
        Solution solution,
        List<ISymbol> targets,
        SymbolRenameOptions options,
        string newName,
        List<Place> places,
        CancellationToken cancellationToken)
    {
        var changes = new MergedChanges(solution);
        var everyFramework = options.RenameInComments || options.RenameInStrings;
        var asked = 0;
        foreach (var target in targets)
        {
            if (asked > 0 && !everyFramework && places.All(p => changes.Covers(p.Path, p.Span)))
            {
                break;
            }
            await changes.AddAsync(await Renamer.RenameSymbolAsync(solution, target, options, newName, cancellationToken), cancellationToken);
            asked++;
        }
        Log.Info($"rename of {targets[0].Name}: Roslyn's renamer run for {asked} of {targets.Count} target framework(s)");
        return changes;
    }

    /// <summary>The other methods of the name in the method's type, which <c>RenameOverloads</c> renames too.</summary>
    private static IEnumerable<ISymbol> Overloads(ISymbol symbol) => symbol is IMethodSymbol { ContainingType: { } type }
        ? type.GetMembers(symbol.Name).OfType<IMethodSymbol>().Where(m => !SymbolEqualityComparer.Default.Equals(m, symbol))
        : [];

    /// <summary>Changes outside the symbol's places: in comments and strings.</summary>
    private static async Task<int> OtherChangesAsync(Solution solution, MergedChanges changes, List<Place> places, CancellationToken cancellationToken)
    {
        var count = 0;
        foreach (var path in changes.Paths)
        {
            var root = await changes.OriginalText(path).GetSyntaxRootAsync(cancellationToken);
            foreach (var change in changes.Of(path))
            {
                if (places.Any(p => p.Path == path && p.Span.Start <= change.Span.Start && change.Span.End <= p.Span.End))
                {
                    continue;
                }
                var token = root!.FindToken(change.Span.Start, findInsideTrivia: true);
                if (token.IsKind(SyntaxKind.StringLiteralToken) || token.IsKind(SyntaxKind.InterpolatedStringTextToken)
                    || root.FindTrivia(change.Span.Start, findInsideTrivia: true) is { RawKind: not 0 } trivia && IsComment(trivia)
                    || token.Parent?.AncestorsAndSelf().Any(a => a.IsKind(SyntaxKind.XmlText) || a is Microsoft.CodeAnalysis.CSharp.Syntax.DocumentationCommentTriviaSyntax) == true)
                {
                    count++;
                }
            }
        }
        return count;
    }

    private static bool IsComment(SyntaxTrivia trivia) =>
        trivia.IsKind(SyntaxKind.SingleLineCommentTrivia) || trivia.IsKind(SyntaxKind.MultiLineCommentTrivia)
        || trivia.IsKind(SyntaxKind.SingleLineDocumentationCommentTrivia) || trivia.IsKind(SyntaxKind.MultiLineDocumentationCommentTrivia);

    private static async Task<List<FileEdit>> EditsAsync(
        MergedChanges changes,
        Dictionary<string, string> files,
        string name,
        string newName,
        CancellationToken cancellationToken)
    {
        var edits = new List<FileEdit>();
        foreach (var path in changes.Paths)
        {
            var before = await changes.OriginalText(path).GetTextAsync(cancellationToken);
            var after = (await changes.NewTextAsync(path, cancellationToken)).ToString();
            var count = changes.Of(path).Count;
            var counted = $"{count} edit{(count == 1 ? "" : "s")}";
            if (files.TryGetValue(path, out var target))
            {
                edits.Add(new FileEdit(path, EditKind.Delete, TextHash.Sha256(before), "", $"Renamed to {Path.GetFileName(target)}"));
                edits.Add(new FileEdit(target, EditKind.Create, "", after, $"Renamed from {Path.GetFileName(path)}; {counted}"));
            }
            else
            {
                edits.Add(new FileEdit(path, EditKind.Modify, TextHash.Sha256(before), after, $"Rename {name} to {newName}: {counted}"));
            }
        }
        return edits;
    }
}
