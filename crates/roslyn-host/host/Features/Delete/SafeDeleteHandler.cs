using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;
using Position = RoslynMcp.Host.Protocol.Position;

namespace RoslynMcp.Host.Features.Delete;

/// <summary>
/// Plans deleting what nothing references, in any target framework: a type (every part; a file left declaring
/// nothing is deleted), a member, a local (an initializer with side effects stays as <c>_ = ...;</c>), a
/// parameter (as change_signature removes it: with its argument at every call, when that has no side effect),
/// or every type of a file with the file (a project file that lists it loses that line). Refused with the
/// references, or with why it may be used without one unless asked; checked to compile. Nothing is applied here.
/// </summary>
public static class SafeDeleteHandler
{
    /// <summary>change_signature's planner, which deletes a parameter: the dispatcher hands it in, as no feature calls another.</summary>
    public delegate Task<ChangeSignaturePlan> SignatureChange(Solution solution, ChangeSignatureRequest request, CancellationToken cancellationToken);

    public static async Task<SafeDeletePlan> HandleAsync(
        Solution solution,
        SafeDeleteRequest request,
        SignatureChange changeSignature,
        CancellationToken cancellationToken) =>
        request.Target switch
        {
            DeleteTarget.Symbol { Value: var position } => await SymbolAsync(solution, position, request.IncludePublic, changeSignature, cancellationToken),
            DeleteTarget.File { Value: var path } => await FileAsync(solution, path, request.IncludePublic, cancellationToken),
            _ => throw new InvalidOperationException("unknown delete target"),
        };

    private static async Task<SafeDeletePlan> SymbolAsync(
        Solution solution,
        Position position,
        bool includePublic,
        SignatureChange changeSignature,
        CancellationToken cancellationToken)
    {
        var symbol = await SymbolAtAsync(solution, position, cancellationToken);
        symbol = (symbol is IMethodSymbol { ReducedFrom: { } extension } ? extension : symbol).OriginalDefinition;
        if (SymbolFormat.IsMetadata(symbol))
        {
            throw SourceSymbols.NotInSource(symbol);
        }
        var declaration = SourceSymbols.FirstDeclaration(symbol);
        var project = solution.GetDocument(declaration.SourceTree)!.Project;
        if (symbol is IParameterSymbol parameter)
        {
            return await ParameterAsync(solution, parameter, project, includePublic, changeSignature, cancellationToken);
        }
        CheckKind(symbol);
        if (!includePublic && await new KeptSymbols(project).WhyAsync(symbol, cancellationToken) is { } why)
        {
            throw Kept(symbol.ToDisplayString(SymbolFormat.Display), why);
        }
        var nodes = await DeletedDeclarations.OfAsync(symbol, cancellationToken);
        var views = await ViewsAsync(solution, symbol, declaration, cancellationToken);
        await Remaining.CheckAsync(solution, views, (path, span) => nodes.Any(n => n.SyntaxTree.FilePath == path && n.Span.Contains(span)),
            symbol.ToDisplayString(SymbolFormat.Display), cancellationToken);
        return await PlanAsync(solution, nodes, [symbol], [], cancellationToken);
    }

    private static async Task<SafeDeletePlan> FileAsync(Solution solution, string path, bool includePublic, CancellationToken cancellationToken)
    {
        var document = PositionResolver.FindDocument(solution, path);
        var root = await document.GetSyntaxRootAsync(cancellationToken);
        var model = await document.GetSemanticModelAsync(cancellationToken);
        var types = root!.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax)
            .OfType<MemberDeclarationSyntax>()
            .Select(n => model!.GetDeclaredSymbol(n, cancellationToken))
            .OfType<INamedTypeSymbol>()
            .ToList();
        var kept = new KeptSymbols(document.Project);
        foreach (var type in includePublic ? [] : types)
        {
            if (await kept.WhyAsync(type, cancellationToken) is { } why)
            {
                throw Kept(type.ToDisplayString(SymbolFormat.Display), why);
            }
        }
        var views = new List<ISymbol>();
        foreach (var type in types)
        {
            views.AddRange(await ViewsAsync(solution, type, type.Locations.First(l => l.SourceTree == root.SyntaxTree), cancellationToken));
        }
        await Remaining.CheckAsync(solution, views, (file, _) => file == document.FilePath, Path.GetFileName(document.FilePath)!, cancellationToken);
        // Parts of the file's partial types declared in other files go too.
        var elsewhere = new List<SyntaxNode>();
        foreach (var type in types)
        {
            elsewhere.AddRange((await DeletedDeclarations.OfAsync(type, cancellationToken)).Where(n => n.SyntaxTree.FilePath != document.FilePath));
        }
        return await PlanAsync(solution, elsewhere, types, [document.FilePath!], cancellationToken);
    }

    private static async Task<SafeDeletePlan> ParameterAsync(
        Solution solution,
        IParameterSymbol parameter,
        Project project,
        bool includePublic,
        SignatureChange changeSignature,
        CancellationToken cancellationToken)
    {
        var member = parameter.ContainingSymbol is IMethodSymbol { MethodKind: MethodKind.DelegateInvoke } invoke ? invoke.ContainingType : parameter.ContainingSymbol;
        if (!includePublic && KeptSymbols.PublicApi(member, project) is { } why)
        {
            throw Kept(parameter.Name, why);
        }
        var place = SourceSymbols.FirstDeclaration(member).GetLineSpan();
        var others = ParameterLists.Of(member).Where(p => p.Ordinal != parameter.Ordinal)
            .Select(p => new SignatureParameter(p.Name, "", "", null)).ToValueList();
        var request = new ChangeSignatureRequest(
            new Position(place.Path, (uint)place.StartLinePosition.Line + 1, (uint)place.StartLinePosition.Character + 1), others);
        var plan = await changeSignature(solution, request, cancellationToken);
        return new SafeDeletePlan([Deleted(parameter)], plan.Edits, plan.Changes, plan.Warnings);
    }

    /// <summary>The deletion's edits, emptied files deleted, checked to compile.</summary>
    private static async Task<SafeDeletePlan> PlanAsync(
        Solution solution,
        IReadOnlyList<SyntaxNode> nodes,
        IReadOnlyList<ISymbol> symbols,
        IReadOnlyList<string> deletedFiles,
        CancellationToken cancellationToken)
    {
        var description = $"Delete {string.Join(", ", symbols.Select(s => s.Name))}";
        var changed = solution;
        foreach (var group in nodes.GroupBy(n => n.SyntaxTree))
        {
            var document = solution.GetDocument(group.Key)!;
            var text = await document.GetTextAsync(cancellationToken);
            var removals = group.Select(node => KeptEffect(node) is { } effect
                ? new TextChange(node.Span, effect.ToFullString().Trim())
                : new TextChange(DeletedDeclarations.Span(node), ""));
            changed = changed.WithDocumentText(document.Id, text.WithChanges(removals));
        }
        var edits = await SolutionEdits.BetweenAsync(solution, changed, description, cancellationToken);
        var after = edits.After;
        var files = new List<FileEdit>();
        var gone = new List<string>(deletedFiles);
        foreach (var edit in edits.Edits)
        {
            // Empty as every project compiling it parses it: code under another framework's #if stays.
            var emptied = solution.GetDocumentIdsWithFilePath(edit.Path)
                .Select(id => solution.GetProject(id.ProjectId)!.ParseOptions as CSharpParseOptions)
                .Distinct()
                .All(options => DeletedDeclarations.Emptied(CSharpSyntaxTree.ParseText(edit.NewText, options, cancellationToken: cancellationToken).GetRoot(cancellationToken)));
            if (emptied)
            {
                gone.Add(edit.Path);
            }
            else
            {
                files.Add(edit);
            }
        }
        var changes = edits.Changes;
        foreach (var path in gone.Distinct())
        {
            var text = await PositionResolver.DocumentAt(solution, path)!.GetTextAsync(cancellationToken);
            files.Add(new FileEdit(path, EditKind.Delete, TextHash.Sha256(text), "", $"{description}: the file declares nothing else"));
            after = after.RemoveDocuments([.. after.GetDocumentIdsWithFilePath(path)]);
            changes++;
        }
        var projectFiles = await ProjectFileEntries.WithoutAsync(solution, gone, cancellationToken);
        files.AddRange(projectFiles);
        // A deletion adds errors only where code spells what it deletes (the compiler binds pattern names unwritten).
        var names = symbols.Select(s => s is IMethodSymbol { MethodKind: MethodKind.Constructor } ? s.ContainingType.Name : s.Name).ToHashSet(StringComparer.Ordinal);
        var added = await AddedErrors.WhereSpelledAsync(solution, after, names, cancellationToken);
        if (added.Count > 0)
        {
            throw PlanErrors.CompilationError("deletion", added, "Remove or change what the error points at first");
        }
        var deleted = symbols.Select(Deleted);
        var warnings = edits.Warnings;
        warnings.AddRange(gone.Distinct().Select(p => $"Deleted {Path.GetFileName(p)}"));
        warnings.AddRange(projectFiles.Select(p => $"Removed the deleted file's entry from {Path.GetFileName(p.Path)}"));
        return new SafeDeletePlan(
            deleted.ToValueList(),
            files.OrderBy(e => e.Path, StringComparer.Ordinal).ToValueList(),
            (uint)(changes + projectFiles.Count),
            warnings.ToValueList());
    }

    /// <summary>
    /// A local's initializer that does something stays, as a discard (<c>_ = Compute();</c>). Null: remove the
    /// node. Refused (EVALUATION_ORDER_CHANGED) for one variable of several whose initializer does something: it
    /// would no longer run, and a discard cannot keep its place among the others.
    /// </summary>
    private static SyntaxNode? KeptEffect(SyntaxNode node)
    {
        if (node is VariableDeclaratorSyntax { Initializer.Value: var shared, Parent.Parent: LocalDeclarationStatementSyntax } variable
            && !PureExpressions.Is(shared))
        {
            throw HostErrorException.Create(
                ErrorCode.EvaluationOrderChanged,
                $"Deleting {variable.Identifier.ValueText} would no longer run its initializer {shared}",
                new JsonObject { ["initializer"] = shared.ToString() },
                "Declare it in a statement of its own first, then delete it (its initializer stays as a discard)");
        }
        if (node is not LocalDeclarationStatementSyntax { Declaration.Variables: [{ Initializer.Value: var value }] } || PureExpressions.Is(value))
        {
            return null;
        }
        return SyntaxFactory.ParseStatement($"_ = {value.WithoutTrivia()};");
    }

    /// <summary>The symbol at the position, in the first project that compiles the code there (code under
    /// <c>#if</c> may exist for one target framework only).</summary>
    private static async Task<ISymbol> SymbolAtAsync(Solution solution, Position position, CancellationToken cancellationToken)
    {
        var at = await PositionResolver.ResolveAsync(solution, position, cancellationToken);
        foreach (var document in PositionResolver.DocumentsAt(solution, at.Document.FilePath!))
        {
            var model = (await document.GetSemanticModelAsync(cancellationToken))!;
            if (await PositionResolver.FindSymbolAsync(at with { Document = document, Model = model }, cancellationToken) is { } symbol)
            {
                return symbol;
            }
        }
        return await PositionResolver.RequireSymbolAsync(at, cancellationToken);
    }

    /// <summary>Types, members and locals; not namespaces, type parameters, labels, accessors or what the compiler declares.</summary>
    private static void CheckKind(ISymbol symbol)
    {
        var why = symbol switch
        {
            { IsImplicitlyDeclared: true } => "the compiler declares it",
            IMethodSymbol { AssociatedSymbol: { } owner } => $"it belongs to {owner.Name}: delete that",
            ILocalSymbol { IsUsing: true } => "a using declaration disposes what it holds",
            ILocalSymbol local when local.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax() is not VariableDeclaratorSyntax { Parent.Parent: LocalDeclarationStatementSyntax } =>
                "it is declared in a pattern, an out argument, a loop or a using statement",
            INamedTypeSymbol or IMethodSymbol or IPropertySymbol or IFieldSymbol or IEventSymbol or ILocalSymbol => null,
            _ => $"safe_delete deletes types, members, parameters and locals, not a {SymbolFormat.KindOf(symbol)}",
        };
        if (why is not null)
        {
            throw HostErrorException.Create(
                ErrorCode.InvalidParameter,
                $"{symbol.Name} cannot be deleted alone: {why}",
                new JsonObject { ["kind"] = SymbolFormat.KindOf(symbol) },
                "Place the position on a type, member, parameter or local declared in a statement of its own");
        }
    }

    /// <summary>The symbol as each project compiling its declaration sees it, and a type's members with it.</summary>
    private static async Task<List<ISymbol>> ViewsAsync(Solution solution, ISymbol symbol, Location declaration, CancellationToken cancellationToken)
    {
        var views = new HashSet<ISymbol>(SymbolEqualityComparer.Default) { symbol };
        foreach (var document in PositionResolver.DocumentsAt(solution, declaration.SourceTree!.FilePath))
        {
            var model = await document.GetSemanticModelAsync(cancellationToken);
            var root = await document.GetSyntaxRootAsync(cancellationToken);
            for (var node = root!.FindToken(declaration.SourceSpan.Start).Parent; node is not null; node = node.Parent)
            {
                if (model!.GetDeclaredSymbol(node, cancellationToken) is { } seen)
                {
                    if (seen.Name == symbol.Name && seen.Kind == symbol.Kind)
                    {
                        views.Add(seen);
                    }
                    break;
                }
            }
        }
        if (symbol is INamedTypeSymbol type)
        {
            views.UnionWith(type.GetMembers().Where(m => !m.IsImplicitlyDeclared));
        }
        return [.. views];
    }

    private static DeletedSymbol Deleted(ISymbol symbol)
    {
        var place = SourceSymbols.FirstDeclaration(symbol).GetLineSpan();
        return new DeletedSymbol(
            symbol.Name,
            SymbolFormat.KindOf(symbol),
            symbol.ToDisplayString(SymbolFormat.Display),
            new Position(place.Path, (uint)place.StartLinePosition.Line + 1, (uint)place.StartLinePosition.Character + 1));
    }

    private static HostErrorException Kept(string what, string why) => HostErrorException.Create(
        ErrorCode.MayBeUsedElsewhere,
        $"{what} is kept: {why}",
        new JsonObject { ["symbol"] = what, ["reason"] = why },
        "Pass includePublic: true to delete it anyway (the compile check still applies)");
}
