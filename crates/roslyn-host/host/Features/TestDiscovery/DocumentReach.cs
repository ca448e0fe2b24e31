using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.TestDiscovery;

/// <summary>
/// A test as one document declares it: its node, and the documentation id of the method it runs (its own, or
/// the one its class inherits).
/// </summary>
public sealed record TestMethodFact(string Key, TestFramework Framework, string FullyQualifiedName, string Method);

/// <summary>
/// What one document of one project contributes to the reach graph: for each member (or type) it declares,
/// the solution's members and types its code uses, and the test methods it declares. Nodes are
/// <c>assembly|documentation id</c>, the same in every target framework.
/// </summary>
public sealed class DocumentReach
{
    public List<(string From, string To)> Edges { get; } = [];
    public List<TestMethodFact> Tests { get; } = [];
    /// <summary>How each node met is displayed.</summary>
    public Dictionary<string, string> Displays { get; } = new(StringComparer.Ordinal);

    private sealed record Kept(VersionStamp Version, DocumentReach Reach);

    // A document's uses change with its own tree, or when a declaration it can see changes (the project's
    // dependent semantic version): a body edited elsewhere binds nothing here differently.
    private static readonly ConditionalWeakTable<SyntaxTree, Kept> Cache = new();

    public static async Task<DocumentReach> OfAsync(Document document, VersionStamp version, Func<Task<IReadOnlySet<string>>> names, CancellationToken cancellationToken)
    {
        var tree = await document.GetSyntaxTreeAsync(cancellationToken) ?? throw new InvalidOperationException($"{document.FilePath} has no syntax tree");
        if (Cache.TryGetValue(tree, out var kept) && kept.Version == version)
        {
            return kept.Reach;
        }
        var model = await document.GetSemanticModelAsync(cancellationToken) ?? throw new InvalidOperationException($"{document.FilePath} has no semantic model");
        var reach = new DocumentReach();
        new Walk(reach, model, await names(), cancellationToken).Run(await tree.GetRootAsync(cancellationToken));
        Cache.AddOrUpdate(tree, new Kept(version, reach));
        return reach;
    }

    public static string KeyOf(ISymbol symbol) => $"{symbol.ContainingAssembly?.Name}|{SymbolFormat.KeyOf(symbol)}";

    /// <summary>The node a used symbol stands for: its definition, a member for its accessor; none for what the solution does not declare.</summary>
    public static ISymbol? Node(ISymbol? symbol)
    {
        var node = symbol switch
        {
            IAliasSymbol alias => alias.Target,
            IMethodSymbol { AssociatedSymbol: IPropertySymbol or IEventSymbol } accessor => accessor.AssociatedSymbol,
            IMethodSymbol { MethodKind: MethodKind.LocalFunction or MethodKind.AnonymousFunction } => null,
            IMethodSymbol method => method.ReducedFrom ?? method,
            IPropertySymbol or IFieldSymbol or IEventSymbol => symbol,
            INamedTypeSymbol { IsAnonymousType: false, IsTupleType: false } => symbol,
            _ => null,
        };
        node = node?.OriginalDefinition;
        return node is not null && (node is INamedTypeSymbol || node.ContainingType is not null) && node.Locations.Any(l => l.IsInSource) ? node : null;
    }

    private sealed class Walk(DocumentReach reach, SemanticModel model, IReadOnlySet<string> names, CancellationToken cancellationToken)
    {
        private static readonly SymbolDisplayFormat InheritedMember = SymbolFormat.Display.RemoveMemberOptions(SymbolDisplayMemberOptions.IncludeContainingType);
        private readonly Lazy<bool> canDeclareTests = new(() => TestAttributes.CanDeclareTests(model.Compilation));
        private readonly bool operators = names.Any(n => n.StartsWith("op_", StringComparison.Ordinal));
        private readonly bool indexers = names.Contains(WellKnownMemberNames.Indexer);
        private readonly bool enumerators = names.Contains(WellKnownMemberNames.GetEnumeratorMethodName);
        private readonly bool adders = names.Contains(WellKnownMemberNames.CollectionInitializerAddMethodName);

        public void Run(SyntaxNode root)
        {
            // Iterative: a deeply nested file must not exhaust the stack.
            var pending = new Stack<(SyntaxNode Node, string? Member)>();
            pending.Push((root, null));
            while (pending.Count > 0)
            {
                var (node, member) = pending.Pop();
                cancellationToken.ThrowIfCancellationRequested();
                if (Declared(node) is { } declared)
                {
                    member = Declare(node, declared);
                }
                else if (member is not null)
                {
                    Uses(node, member);
                }
                foreach (var child in node.ChildNodes())
                {
                    pending.Push((child, member));
                }
            }
        }

        private ISymbol? Declared(SyntaxNode node) => DeclaredBy(node, model, cancellationToken);

        /// <summary>Records a declaration and what the runtime or a framework calls through it; its key is the member its code belongs to.</summary>
        private string Declare(SyntaxNode node, ISymbol symbol)
        {
            var key = Name(symbol);
            switch (symbol)
            {
                case INamedTypeSymbol type:
                    Dispatches(type, key);
                    // The first use of a type runs its static constructor.
                    foreach (var constructor in type.StaticConstructors)
                    {
                        Edge(key, constructor);
                    }
                    InheritedTests(type);
                    break;
                case IMethodSymbol method when node is MethodDeclarationSyntax { AttributeLists.Count: > 0 } && TestAttributes.FrameworkOf(method) is { } framework:
                    Test(key, method, method.ContainingType, framework);
                    break;
                case IFieldSymbol or IPropertySymbol when Initialized(node):
                    // An initializer runs in the constructors (instance) or the type's initializer (static).
                    if (symbol.IsStatic)
                    {
                        reach.Edges.Add((Name(symbol.ContainingType), key));
                    }
                    else
                    {
                        foreach (var constructor in symbol.ContainingType.InstanceConstructors)
                        {
                            reach.Edges.Add((Name(constructor), key));
                        }
                    }
                    break;
            }
            return key;
        }

        /// <summary>
        /// A test method run as a test of <paramref name="testClass"/> (none of an abstract class): after the class's
        /// static initializers (one that throws fails each of its tests), constructors and set-up, on the data
        /// sources its attributes name there.
        /// </summary>
        private void Test(string key, IMethodSymbol method, INamedTypeSymbol testClass, TestFramework framework)
        {
            if (!testClass.IsAbstract)
            {
                reach.Tests.Add(new TestMethodFact(key, framework, FullyQualifiedName(testClass, method.Name), SymbolFormat.KeyOf(method.OriginalDefinition)));
            }
            Edge(key, testClass);
            foreach (var around in TestAttributes.AroundTestsOf(testClass).Concat(TestAttributes.DataSourcesOf(method, testClass)))
            {
                Edge(key, around);
            }
        }

        /// <summary>
        /// The tests a class inherits run as its own (<c>Derived.Method</c>), each a node of the graph that runs the
        /// inherited method with the class's initializers and data sources.
        /// </summary>
        private void InheritedTests(INamedTypeSymbol type)
        {
            if (type is not { TypeKind: TypeKind.Class, IsAbstract: false, IsGenericType: false } || !canDeclareTests.Value)
            {
                return;
            }
            foreach (var (method, framework) in TestAttributes.InheritedTestsOf(type))
            {
                var key = $"{Name(type)}|{Name(method.OriginalDefinition)}";
                reach.Displays.TryAdd(key, $"{type.ToDisplayString(SymbolFormat.Display)}.{method.ToDisplayString(InheritedMember)}");
                Edge(key, method);
                Test(key, method, type, framework);
            }
        }

        private static bool Initialized(SyntaxNode node) => node is VariableDeclaratorSyntax { Initializer: not null } or PropertyDeclarationSyntax { Initializer: not null };

        /// <summary>
        /// Virtual and interface calls reach the members that implement or override them; a member implementing
        /// or overriding one the solution does not declare (ToString, Dispose, GetEnumerator...) is called by the
        /// runtime on any instance, so it counts as used wherever its type is; constructors run their base type's.
        /// </summary>
        private void Dispatches(INamedTypeSymbol type, string typeKey)
        {
            foreach (var contract in type.AllInterfaces)
            {
                foreach (var member in contract.GetMembers())
                {
                    if (Node(type.FindImplementationForInterfaceMember(member)) is { } implementation)
                    {
                        Dispatch(Node(member), implementation, typeKey);
                    }
                }
            }
            foreach (var member in type.GetMembers())
            {
                var overridden = member switch
                {
                    IMethodSymbol { IsOverride: true } method => method.OverriddenMethod,
                    IPropertySymbol { IsOverride: true } property => property.OverriddenProperty,
                    IEventSymbol { IsOverride: true } @event => @event.OverriddenEvent,
                    _ => (ISymbol?)null,
                };
                if (overridden is not null && Node(member) is { } overriding)
                {
                    Dispatch(Node(overridden), overriding, typeKey);
                }
            }
            if (type.BaseType is { } baseType && Node(baseType) is not null)
            {
                foreach (var constructor in type.InstanceConstructors)
                {
                    foreach (var baseConstructor in baseType.InstanceConstructors)
                    {
                        Edge(Name(constructor), baseConstructor);
                    }
                }
            }
        }

        private void Dispatch(ISymbol? declared, ISymbol target, string typeKey)
        {
            if (declared is not null)
            {
                Edge(Name(declared), target);
            }
            else
            {
                Edge(typeKey, target);
            }
        }

        private void Uses(SyntaxNode node, string member)
        {
            switch (node)
            {
                case SimpleNameSyntax name when names.Contains(name.Identifier.ValueText):
                case BaseObjectCreationExpressionSyntax or ConstructorInitializerSyntax or PrimaryConstructorBaseTypeSyntax or AttributeSyntax:
                case BinaryExpressionSyntax or PrefixUnaryExpressionSyntax or PostfixUnaryExpressionSyntax or CastExpressionSyntax when operators:
                case AssignmentExpressionSyntax assignment when operators && !assignment.IsKind(SyntaxKind.SimpleAssignmentExpression):
                case ElementAccessExpressionSyntax when indexers:
                    var info = model.GetSymbolInfo(node, cancellationToken);
                    Use(member, info.Symbol);
                    foreach (var candidate in info.CandidateSymbols)
                    {
                        Use(member, candidate);
                    }
                    break;
                case CommonForEachStatementSyntax loop when enumerators:
                    var each = model.GetForEachStatementInfo(loop);
                    Use(member, each.GetEnumeratorMethod);
                    Use(member, each.MoveNextMethod);
                    Use(member, each.CurrentProperty);
                    break;
                case InitializerExpressionSyntax initializer when adders && initializer.IsKind(SyntaxKind.CollectionInitializerExpression):
                    foreach (var element in initializer.Expressions)
                    {
                        Use(member, model.GetCollectionInitializerSymbolInfo(element, cancellationToken).Symbol);
                    }
                    break;
            }
        }

        /// <summary>A use of a symbol is a use of its type too, and of the solution's types it is instantiated with.</summary>
        private void Use(string member, ISymbol? used)
        {
            if (Node(used) is not { } node)
            {
                return;
            }
            Edge(member, node);
            if (node is not INamedTypeSymbol && node.ContainingType is { } type)
            {
                Edge(member, type);
            }
            var arguments = used switch
            {
                INamedTypeSymbol named => named.TypeArguments,
                IMethodSymbol method => method.TypeArguments.AddRange(method.ContainingType.TypeArguments),
                _ => used!.ContainingType?.TypeArguments ?? [],
            };
            foreach (var argument in arguments)
            {
                if (Node(argument) is { } instantiated)
                {
                    Edge(member, instantiated);
                }
            }
        }

        private void Edge(string from, ISymbol to)
        {
            if (Node(to) is { } node)
            {
                reach.Edges.Add((from, Name(node)));
            }
        }

        private string Name(ISymbol symbol)
        {
            var key = KeyOf(symbol);
            reach.Displays.TryAdd(key, symbol.ToDisplayString(SymbolFormat.Display));
            return key;
        }
    }

    /// <summary>The member or type a node declares, if it declares one of the nodes of the graph.</summary>
    public static ISymbol? DeclaredBy(SyntaxNode node, SemanticModel model, CancellationToken cancellationToken) => node switch
    {
        BaseMethodDeclarationSyntax or BasePropertyDeclarationSyntax or BaseTypeDeclarationSyntax or DelegateDeclarationSyntax
            or EnumMemberDeclarationSyntax => model.GetDeclaredSymbol(node, cancellationToken),
        VariableDeclaratorSyntax { Parent.Parent: BaseFieldDeclarationSyntax } => model.GetDeclaredSymbol(node, cancellationToken),
        _ => null,
    };

    /// <summary>As VSTest and the testing platform name a test of a class: <c>Namespace.Outer+Inner.Method</c>.</summary>
    public static string FullyQualifiedName(INamedTypeSymbol testClass, string method)
    {
        var types = new List<string>();
        for (var type = testClass; type is not null; type = type.ContainingType)
        {
            types.Add(type.MetadataName);
        }
        types.Reverse();
        var ns = SymbolFormat.NamespaceOf(testClass);
        return $"{(ns is null ? "" : ns + ".")}{string.Join('+', types)}.{method}";
    }
}
