using System.Diagnostics;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics;
using Position = RoslynMcp.Host.Protocol.Position;

namespace RoslynMcp.Host.Features.Moves;

/// <summary>The type to move: its declaration in the source document (one part, for a partial type) and its symbol.</summary>
internal sealed record MovedType(
    Document Document,
    SourceText Text,
    CompilationUnitSyntax Root,
    MemberDeclarationSyntax Declaration,
    INamedTypeSymbol Symbol)
{
    public Solution Solution => Document.Project.Solution;

    public string Path => Document.FilePath!;

    public string Name => Symbol.Name;

    public string Namespace => Names.NamespaceOf(Symbol);

    public string FullName => Names.Qualify(Namespace, Name);

    public string Kind => SymbolFormat.TypeKindOf(Symbol);

    public SyntaxToken Identifier => IdentifierOf(Declaration);

    public Position Location
    {
        get
        {
            var at = Text.Lines.GetLinePosition(Identifier.SpanStart);
            return new Position(Path, (uint)at.Line + 1, (uint)at.Character + 1);
        }
    }

    /// <summary>The files holding the parts of a partial type (one for any other type).</summary>
    public IReadOnlyList<SyntaxReference> Parts => Symbol.DeclaringSyntaxReferences;

    public bool IsPartial => Parts.Count > 1;

    public static bool IsTypeDeclaration(SyntaxNode node) => node is BaseTypeDeclarationSyntax or DelegateDeclarationSyntax;

    public static SyntaxToken IdentifierOf(SyntaxNode declaration) => declaration switch
    {
        BaseTypeDeclarationSyntax type => type.Identifier,
        DelegateDeclarationSyntax @delegate => @delegate.Identifier,
        _ => throw new UnreachableException(),
    };

    /// <summary>What moves: the located declaration, or every part of a partial type for a namespace move.</summary>
    public IReadOnlyList<SyntaxNode> Moving { get; init; } = [Declaration];

    /// <summary>True for a location inside what moves (its own name, members, self references).</summary>
    public bool Contains(Location location) =>
        location.SourceTree == Root.SyntaxTree && Moving.Any(d => d.FullSpan.Contains(location.SourceSpan));
}
