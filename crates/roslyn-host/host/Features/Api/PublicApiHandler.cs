using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Workspace;
using Accessibility = Microsoft.CodeAnalysis.Accessibility;

namespace RoslynMcp.Host.Features.Api;

/// <summary>
/// The public and protected surface of a project, as its first target framework compiles it: every type callers
/// outside the assembly can name and every member of it they can reach, one line each in the style of the
/// PublicApiAnalyzers' <c>PublicAPI.Shipped.txt</c>, keyed by documentation comment id. Given the files of
/// another revision, the same project (its references, options and generators) compiles those instead, in
/// memory: nothing is written.
/// </summary>
public static class PublicApiHandler
{
    private static readonly SymbolDisplayFormat Format = new(
        globalNamespaceStyle: SymbolDisplayGlobalNamespaceStyle.Omitted,
        typeQualificationStyle: SymbolDisplayTypeQualificationStyle.NameAndContainingTypesAndNamespaces,
        genericsOptions: SymbolDisplayGenericsOptions.IncludeTypeParameters | SymbolDisplayGenericsOptions.IncludeTypeConstraints | SymbolDisplayGenericsOptions.IncludeVariance,
        memberOptions: SymbolDisplayMemberOptions.IncludeContainingType | SymbolDisplayMemberOptions.IncludeParameters | SymbolDisplayMemberOptions.IncludeExplicitInterface | SymbolDisplayMemberOptions.IncludeRef | SymbolDisplayMemberOptions.IncludeConstantValue,
        propertyStyle: SymbolDisplayPropertyStyle.ShowReadWriteDescriptor,
        parameterOptions: SymbolDisplayParameterOptions.IncludeType | SymbolDisplayParameterOptions.IncludeName | SymbolDisplayParameterOptions.IncludeParamsRefOut | SymbolDisplayParameterOptions.IncludeDefaultValue | SymbolDisplayParameterOptions.IncludeExtensionThis,
        miscellaneousOptions: SymbolDisplayMiscellaneousOptions.UseSpecialTypes | SymbolDisplayMiscellaneousOptions.IncludeNullableReferenceTypeModifier | SymbolDisplayMiscellaneousOptions.EscapeKeywordIdentifiers);

    public static async Task<PublicApi> HandleAsync(Solution solution, PublicApiRequest request, CancellationToken cancellationToken)
    {
        var began = System.Diagnostics.Stopwatch.StartNew();
        var project = ProjectLookup.Find(solution, request.Project).OrderBy(p => p.Name, StringComparer.Ordinal).First();
        if (request.Files is { } files)
        {
            var replaced = solution.RemoveDocuments([.. project.DocumentIds]);
            foreach (var file in files)
            {
                replaced = replaced.AddDocument(DocumentId.CreateNewId(project.Id), Path.GetFileName(file.Path), SourceText.From(file.Text), filePath: file.Path);
            }
            project = replaced.GetProject(project.Id)!;
        }
        var compiling = System.Diagnostics.Stopwatch.StartNew();
        var compilation = (await project.GetCompilationAsync(cancellationToken))!;
        compiling.Stop();
        var members = new List<ApiMember>();
        Visit(compilation.Assembly.GlobalNamespace, members);
        Log.Info($"public API of {project.Name}{(request.Files is { } given ? $" from {given.Count} given files" : "")}: {members.Count} members,"
            + $" Roslyn's compilation {compiling.ElapsedMilliseconds} ms of {began.ElapsedMilliseconds} ms");
        return new PublicApi(
            project.FilePath!,
            TargetFrameworks.Compiled(solution, project),
            members.OrderBy(m => m.Line, StringComparer.Ordinal).ThenBy(m => m.Id, StringComparer.Ordinal).ToValueList());
    }

    private static void Visit(INamespaceSymbol ns, List<ApiMember> into)
    {
        foreach (var type in ns.GetTypeMembers())
        {
            VisitType(type, into);
        }
        foreach (var inner in ns.GetNamespaceMembers())
        {
            Visit(inner, into);
        }
    }

    private static void VisitType(INamedTypeSymbol type, List<ApiMember> into)
    {
        if (!Visible(type))
        {
            return;
        }
        into.Add(Member(type));
        foreach (var member in type.GetMembers())
        {
            if (member is INamedTypeSymbol nested)
            {
                VisitType(nested, into);
            }
            else if (Visible(member) && Listed(member))
            {
                into.Add(Member(member));
            }
        }
    }

    /// <summary>Reachable from another assembly: public, protected or protected internal.</summary>
    private static bool Visible(ISymbol symbol) =>
        symbol.DeclaredAccessibility is Accessibility.Public or Accessibility.Protected or Accessibility.ProtectedOrInternal;

    /// <summary>What a caller writes: not accessors (their property or event is listed), not what the compiler adds, but a class's implicit constructor.</summary>
    private static bool Listed(ISymbol member) => member switch
    {
        IMethodSymbol { AssociatedSymbol: not null } => false,
        IMethodSymbol { MethodKind: MethodKind.Constructor, IsImplicitlyDeclared: true, ContainingType.TypeKind: TypeKind.Class } => true,
        _ => !member.IsImplicitlyDeclared
            && (member.CanBeReferencedByName || member is IMethodSymbol { MethodKind: MethodKind.Constructor or MethodKind.UserDefinedOperator or MethodKind.Conversion }),
    };

    private static ApiMember Member(ISymbol symbol)
    {
        var type = symbol switch
        {
            IMethodSymbol { MethodKind: not MethodKind.Constructor } method => method.ReturnType,
            IPropertySymbol property => property.Type,
            IFieldSymbol field => field.Type,
            IEventSymbol @event => @event.Type,
            _ => null,
        };
        var keyword = symbol is INamedTypeSymbol ? Kind(symbol) + " " : "";
        var line = Modifiers(symbol) + keyword + symbol.ToDisplayString(Format) + (type is null ? "" : " -> " + type.ToDisplayString(Format));
        return new ApiMember(
            symbol.GetDocumentationCommentId() ?? symbol.ToDisplayString(),
            line,
            Kind(symbol),
            symbol.ContainingType?.ToDisplayString(Format) ?? symbol.ContainingNamespace?.ToDisplayString() ?? "",
            symbol.Name,
            symbol is not INamedTypeSymbol && symbol.IsAbstract && !symbol.IsStatic);
    }

    private static string Modifiers(ISymbol symbol)
    {
        var words = new List<string>();
        if (symbol.DeclaredAccessibility is Accessibility.Protected or Accessibility.ProtectedOrInternal)
        {
            words.Add("protected");
        }
        var isInterface = symbol.ContainingType?.TypeKind == TypeKind.Interface;
        if (symbol.IsStatic && symbol is not IFieldSymbol { IsConst: true })
        {
            words.Add("static");
        }
        if (symbol.IsAbstract && !isInterface && symbol is not INamedTypeSymbol { TypeKind: TypeKind.Interface })
        {
            words.Add("abstract");
        }
        if (symbol.IsVirtual)
        {
            words.Add("virtual");
        }
        if (symbol.IsOverride)
        {
            words.Add("override");
        }
        if (symbol.IsSealed && symbol is not INamedTypeSymbol { TypeKind: TypeKind.Struct or TypeKind.Enum or TypeKind.Delegate })
        {
            words.Add("sealed");
        }
        if (symbol is IFieldSymbol { IsConst: true })
        {
            words.Add("const");
        }
        else if (symbol is IFieldSymbol { IsReadOnly: true } or INamedTypeSymbol { TypeKind: TypeKind.Struct, IsReadOnly: true })
        {
            words.Add("readonly");
        }
        return words.Count == 0 ? "" : string.Join(' ', words) + " ";
    }

    private static string Kind(ISymbol symbol) => symbol switch
    {
        INamedTypeSymbol { IsRecord: true, TypeKind: TypeKind.Struct } => "record struct",
        INamedTypeSymbol { IsRecord: true } => "record",
        INamedTypeSymbol type => type.TypeKind.ToString().ToLowerInvariant(),
        IMethodSymbol { MethodKind: MethodKind.Constructor } => "constructor",
        IMethodSymbol { MethodKind: MethodKind.UserDefinedOperator or MethodKind.Conversion } => "operator",
        IPropertySymbol { IsIndexer: true } => "indexer",
        _ => symbol.Kind.ToString().ToLowerInvariant(),
    };
}
