using System.Diagnostics;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;
using Position = RoslynMcp.Host.Protocol.Position;

namespace RoslynMcp.Host.Features.Signature;

/// <summary>
/// Plans a change of signature on the immutable snapshot: Roslyn's own engine reorders, removes and adds
/// parameters at the declarations (overrides, implementations and interface members with them), every call
/// (named and positional arguments, <c>params</c>, extension calls, <c>this(...)</c>/<c>base(...)</c>, object
/// creations) and the <c>&lt;param&gt;</c> tags, once per target framework compiling the declaration; renamed
/// and retyped parameters are done on its result. Checked before (removed parameters in use, name clashes,
/// arguments with side effects) and after (no call binds elsewhere, no new compiler error). Nothing is applied
/// here; the broker writes the files.
/// </summary>
public static class ChangeSignatureHandler
{
    public static async Task<ChangeSignaturePlan> HandleAsync(Solution solution, ChangeSignatureRequest request, CancellationToken cancellationToken)
    {
        var began = Stopwatch.StartNew();
        var at = await PositionResolver.ResolveAsync(solution, request.Position, cancellationToken);
        var engine = await EngineAtAsync(PositionResolver.DocumentsAt(solution, at.Document.FilePath!), at.Offset, cancellationToken);
        var member = engine.Symbol;
        var display = member.ToDisplayString(SymbolFormat.Display);
        var declaration = member.Locations.First(l => l.IsInSource);
        var model = await solution.GetDocument(declaration.SourceTree)!.GetSemanticModelAsync(cancellationToken);
        var signature = NewSignature.Check(engine.Parameters, request.Parameters, type => BindType(model!, declaration.SourceSpan.Start, type));

        var members = await SignatureMembers.OfAsync(solution, member, cancellationToken);
        var symbols = members.Select(m => m.Symbol).ToList();
        await BodyChecks.CheckAsync(solution, symbols, signature, cancellationToken);
        var calls = await CallSites.OfAsync(solution, symbols, cancellationToken);
        ArgumentOrder.Check(calls, signature, display);
        DelegateConversions.Check(calls, signature, display);
        var bindings = await CallBindings.BeforeAsync(solution, calls, member, cancellationToken);
        var checkedBefore = began.ElapsedMilliseconds;

        // The engine from the member, and again from each declaration that several projects compile (each
        // target framework of a multi-targeted project): code under #if that only one framework compiles is
        // changed by that framework's run. Identical changes merge; different ones are refused.
        var changes = new MergedChanges(solution);
        var warnings = new List<string>();
        var runs = members.Where((m, i) => i == 0 || solution.GetDocumentIdsWithFilePath(m.Path).Length > 1)
            .DistinctBy(m => m.Document.ProjectId).ToList();
        var engineTime = Stopwatch.StartNew();
        foreach (var run in runs)
        {
            var (framework, _) = await RoslynChangeSignature.AtAsync(solution.GetDocument(run.Document)!, run.Position, cancellationToken);
            if (framework is null)
            {
                continue;
            }
            var (changed, confirmation) = await framework.ChangeAsync(signature.Order, cancellationToken);
            await changes.AddAsync(changed, cancellationToken);
            if (confirmation is { Length: > 0 })
            {
                warnings.Add(confirmation);
            }
        }
        engineTime.Stop();
        changes.CheckOverlaps();
        var reordered = await changes.ApplyAsync(cancellationToken);
        var membersThen = await MovedAsync(reordered, members, changes, cancellationToken);
        var parameterEdits = await ParameterEdits.ApplyAsync(reordered, membersThen.Select(m => m.Symbol), signature, cancellationToken);
        var after = await parameterEdits.ApplyAsync(cancellationToken);
        var changedAt = began.ElapsedMilliseconds;

        var edits = await EditsAsync(changes, parameterEdits, $"Change the signature of {member.Name}", cancellationToken);
        var added = await AddedErrors.WhereSpelledAsync(solution, after, ScopeNames(members), cancellationToken);
        if (added.Count > 0)
        {
            throw PlanErrors.CompilationError(
                $"change of {display}'s signature",
                added,
                "Change the calls or the member the error points at first, or choose a signature every call can take");
        }
        var compiledAt = began.ElapsedMilliseconds;
        var membersAfter = await MovedAsync(after, membersThen, parameterEdits, cancellationToken);
        var memberAfter = membersAfter[0].Symbol;
        await bindings.CheckAsync(after, [.. membersAfter.Select(m => m.Symbol)], memberAfter, display, cancellationToken);

        Log.Info($"change signature of {display}: Roslyn's engine {engineTime.ElapsedMilliseconds} ms ({runs.Count} run(s)) of {began.ElapsedMilliseconds} ms"
            + $" (checks before {checkedBefore} ms, parameters renamed and retyped {changedAt - checkedBefore - engineTime.ElapsedMilliseconds} ms,"
            + $" compile check {compiledAt - changedAt} ms, bindings after {began.ElapsedMilliseconds - compiledAt} ms)");
        warnings.AddRange(signature.Renamed.Select(r => $"Renamed parameter {engine.Parameters[r.Key].Name} to {r.Value}"));
        var place = declaration.GetLineSpan();
        return new ChangeSignaturePlan(
            display,
            memberAfter.ToDisplayString(SymbolFormat.Display),
            SymbolFormat.KindOf(member),
            new Position(place.Path, (uint)place.StartLinePosition.Line + 1, (uint)place.StartLinePosition.Character + 1),
            edits.ToValueList(),
            (uint)members.Select(m => (m.Path, m.Position)).Distinct().Count(),
            (uint)calls.Count,
            (uint)(changes.Count + parameterEdits.Count),
            warnings.Distinct().ToValueList());
    }

    /// <summary>
    /// Each file's text after both rounds, from their own changes: diffing the result again per target framework
    /// would cut one edit differently in each (code under <c>#if</c> is tokens to one, trivia to the other).
    /// </summary>
    private static async Task<List<FileEdit>> EditsAsync(MergedChanges engine, MergedChanges parameters, string description, CancellationToken cancellationToken)
    {
        var edits = new List<FileEdit>();
        var renamed = parameters.Paths.ToHashSet(StringComparer.Ordinal);
        foreach (var path in engine.Paths.Union(renamed).Order(StringComparer.Ordinal))
        {
            var before = await engine.OriginalText(path).GetTextAsync(cancellationToken);
            var text = renamed.Contains(path) ? await parameters.NewTextAsync(path, cancellationToken) : await engine.NewTextAsync(path, cancellationToken);
            if (!text.ContentEquals(before))
            {
                edits.Add(new FileEdit(path, EditKind.Modify, TextHash.Sha256(before), text.ToString(), description));
            }
        }
        return edits;
    }

    /// <summary>The engine at the position, in the first project that compiles the code there (a file's code
    /// under <c>#if</c> may exist for one target framework only).</summary>
    private static async Task<RoslynChangeSignature> EngineAtAsync(IReadOnlyList<Document> documents, int position, CancellationToken cancellationToken)
    {
        var failure = "";
        foreach (var document in documents)
        {
            (var engine, failure) = await RoslynChangeSignature.AtAsync(document, position, cancellationToken);
            if (engine is not null)
            {
                return engine;
            }
        }
        throw failure == "DefinedInMetadata"
            ? HostErrorException.Create(
                ErrorCode.SymbolNotInSource,
                "The member at the position is declared in a referenced assembly, not in the solution's source",
                new JsonObject { ["reason"] = failure },
                "Only members declared in the solution can change their signature")
            : HostErrorException.Create(
                ErrorCode.SymbolNotFound,
                "No method, constructor, indexer, delegate or local function with parameters is at the position",
                new JsonObject { ["reason"] = failure },
                "Place the position on the member's name, at its declaration or at a call");
    }

    /// <summary>The members again, in a solution the changes led to.</summary>
    private static async Task<List<DeclaredMember>> MovedAsync(Solution solution, IReadOnlyList<DeclaredMember> members, MergedChanges changes, CancellationToken cancellationToken)
    {
        var moved = new List<DeclaredMember>();
        foreach (var member in members)
        {
            moved.Add(await member.MovedAsync(solution, changes, cancellationToken)
                ?? throw new InvalidOperationException($"{member.Symbol.Name} is not found at {member.Path} after the change"));
        }
        return moved;
    }

    /// <summary>
    /// A signature change can add errors only where code names the member (a call, a method group, a named
    /// argument), a constructor's type (a derived type's constructor), or the type of a member others override or
    /// implement, besides the documents it changed. Null for an indexer, which calls never name: compile it all.
    /// </summary>
    private static HashSet<string>? ScopeNames(IReadOnlyList<DeclaredMember> members)
    {
        var names = new HashSet<string>(StringComparer.Ordinal);
        foreach (var member in members.Select(m => m.Symbol))
        {
            switch (member)
            {
                case IPropertySymbol { IsIndexer: true }:
                    return null;
                case IMethodSymbol { MethodKind: MethodKind.Constructor } or INamedTypeSymbol:
                    names.Add(member is INamedTypeSymbol type ? type.Name : member.ContainingType.Name);
                    break;
                default:
                    names.Add(member.Name);
                    break;
            }
            if (member.ContainingType is { } containing
                && (member.IsVirtual || member.IsAbstract || member.IsOverride || containing.TypeKind == TypeKind.Interface))
            {
                names.Add(containing.Name);
            }
        }
        return names;
    }

    private static ITypeSymbol BindType(SemanticModel model, int position, string type) =>
        model.GetSpeculativeTypeInfo(position, SyntaxFactory.ParseTypeName(type), SpeculativeBindingOption.BindAsTypeOrNamespace).Type
        ?? model.Compilation.CreateErrorTypeSymbol(null, type, 0);
}
