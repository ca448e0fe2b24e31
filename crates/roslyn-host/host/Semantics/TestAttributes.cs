using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Semantics;

/// <summary>
/// What the test frameworks run, and what they call around a test, recognized by the attributes' symbols: an
/// attribute deriving from a framework's own (xunit's <c>[Theory]</c> from <c>[Fact]</c>, a project's custom
/// one) counts, however it is spelled.
/// </summary>
public static class TestAttributes
{
    private static readonly Dictionary<string, TestFramework> Tests = new(StringComparer.Ordinal)
    {
        // [Fact], [Theory]; xunit v2 and v3 alike.
        ["Xunit.FactAttribute"] = TestFramework.XUnit,
        // [Test], [TestCase], [TestCaseSource], [Theory], [Combinatorial] build tests through these interfaces.
        ["NUnit.Framework.Interfaces.ISimpleTestBuilder"] = TestFramework.NUnit,
        ["NUnit.Framework.Interfaces.ITestBuilder"] = TestFramework.NUnit,
        // [TestMethod], [DataTestMethod].
        ["Microsoft.VisualStudio.TestTools.UnitTesting.TestMethodAttribute"] = TestFramework.MSTest,
        ["TUnit.Core.TestAttribute"] = TestFramework.TUnit,
        ["TUnit.Core.BaseTestAttribute"] = TestFramework.TUnit,
    };

    /// <summary>Set-up and tear-down: the framework calls them for the tests of their class.</summary>
    private static readonly HashSet<string> Around = new(StringComparer.Ordinal)
    {
        "NUnit.Framework.SetUpAttribute",
        "NUnit.Framework.TearDownAttribute",
        "NUnit.Framework.OneTimeSetUpAttribute",
        "NUnit.Framework.OneTimeTearDownAttribute",
        "Microsoft.VisualStudio.TestTools.UnitTesting.TestInitializeAttribute",
        "Microsoft.VisualStudio.TestTools.UnitTesting.TestCleanupAttribute",
        "Microsoft.VisualStudio.TestTools.UnitTesting.ClassInitializeAttribute",
        "Microsoft.VisualStudio.TestTools.UnitTesting.ClassCleanupAttribute",
        "TUnit.Core.BeforeAttribute",
        "TUnit.Core.AfterAttribute",
    };

    /// <summary>xunit's set-up and tear-down are the constructor and these (IAsyncLifetime, IDisposable).</summary>
    private static readonly HashSet<string> AroundByName = new(StringComparer.Ordinal) { "InitializeAsync", "DisposeAsync", "Dispose" };

    /// <summary>Whether a compilation sees a test framework's attributes, so that its methods can be tests.</summary>
    public static bool CanDeclareTests(Compilation compilation) =>
        Tests.Keys.Any(name => compilation.GetTypeByMetadataName(name) is not null);

    /// <summary>The framework running the method as a test, if one does.</summary>
    public static TestFramework? FrameworkOf(IMethodSymbol method)
    {
        foreach (var attribute in method.GetAttributes())
        {
            for (var type = attribute.AttributeClass; type is not null; type = type.BaseType)
            {
                if (Tests.TryGetValue(NameOf(type), out var framework))
                {
                    return framework;
                }
            }
            foreach (var implemented in attribute.AttributeClass?.AllInterfaces ?? [])
            {
                if (Tests.TryGetValue(NameOf(implemented), out var framework))
                {
                    return framework;
                }
            }
        }
        return null;
    }

    /// <summary>
    /// The members of a test class (and its base classes) a framework calls for each of its tests: constructors,
    /// set-up and tear-down. (Static constructors run on the class's first use: a test uses its class.)
    /// </summary>
    public static IEnumerable<ISymbol> AroundTestsOf(INamedTypeSymbol testClass)
    {
        for (var type = testClass; type is { SpecialType: not SpecialType.System_Object }; type = type.BaseType)
        {
            foreach (var member in type.GetMembers())
            {
                if (member is IMethodSymbol { MethodKind: MethodKind.Constructor }
                    || (member is IMethodSymbol { Parameters.Length: 0 } method && AroundByName.Contains(method.Name))
                    || (member is IMethodSymbol && member.GetAttributes().Any(IsAround)))
                {
                    yield return member;
                }
            }
        }
    }

    /// <summary>
    /// The members a test's attributes (its own and its parameters') name by string, as data sources are named
    /// (<c>[TestCaseSource("Cases")]</c>, <c>[MemberData("Rows", MemberType = typeof(Data))]</c>,
    /// <c>[DynamicData("Rows")]</c>, <c>[ValueSource("Values")]</c>): in the types the attribute gives with
    /// <c>typeof</c>, else in the test's class and its base classes. A <c>nameof</c> binds as any other use.
    /// </summary>
    public static IEnumerable<ISymbol> DataSourcesOf(IMethodSymbol test, INamedTypeSymbol testClass)
    {
        foreach (var attribute in test.GetAttributes().Concat(test.Parameters.SelectMany(p => p.GetAttributes())))
        {
            var arguments = attribute.ConstructorArguments.Concat(attribute.NamedArguments.Select(a => a.Value))
                .SelectMany(a => a.Kind == TypedConstantKind.Array ? a.Values : [a])
                .ToList();
            var named = arguments.Where(a => a is { Kind: TypedConstantKind.Type, Value: INamedTypeSymbol }).Select(a => (INamedTypeSymbol)a.Value!).ToList();
            var names = arguments.Where(a => a is { Kind: TypedConstantKind.Primitive, Value: string }).Select(a => (string)a.Value!).ToList();
            foreach (var name in names)
            {
                foreach (var holder in named.Count > 0 ? named : [testClass])
                {
                    for (var type = holder; type is { SpecialType: not SpecialType.System_Object }; type = type.BaseType)
                    {
                        foreach (var member in type.GetMembers(name))
                        {
                            yield return member;
                        }
                    }
                }
            }
        }
    }

    /// <summary>
    /// The test methods a class inherits from its base classes in source and runs as its own: xunit's and NUnit's
    /// always, MSTest's in a <c>[TestClass]</c>, TUnit's with <c>[InheritsTests]</c>. A method of the class (or
    /// of a nearer base) with the same name hides or overrides the inherited one.
    /// </summary>
    public static IEnumerable<(IMethodSymbol Method, TestFramework Framework)> InheritedTestsOf(INamedTypeSymbol type)
    {
        var names = new HashSet<string>(type.MemberNames, StringComparer.Ordinal);
        for (var baseType = type.BaseType; baseType is { SpecialType: not SpecialType.System_Object }; baseType = baseType.BaseType)
        {
            foreach (var method in baseType.GetMembers().OfType<IMethodSymbol>())
            {
                if (method.MethodKind == MethodKind.Ordinary && method.Locations.Any(l => l.IsInSource)
                    && FrameworkOf(method) is { } framework && RunsInherited(type, framework) && !names.Contains(method.Name))
                {
                    yield return (method, framework);
                }
            }
            names.UnionWith(baseType.MemberNames);
        }
    }

    private static bool RunsInherited(INamedTypeSymbol type, TestFramework framework) => framework switch
    {
        TestFramework.MSTest => type.GetAttributes().Any(a => Is(a, name => name == "Microsoft.VisualStudio.TestTools.UnitTesting.TestClassAttribute")),
        TestFramework.TUnit => type.GetAttributes().Any(a => Is(a, name => name == "TUnit.Core.InheritsTestsAttribute")),
        _ => true,
    };

    private static bool IsAround(AttributeData attribute) => Is(attribute, Around.Contains);

    /// <summary>Whether the attribute's class, or a class it derives from, has a name the predicate accepts.</summary>
    private static bool Is(AttributeData attribute, Predicate<string> name)
    {
        for (var type = attribute.AttributeClass; type is not null; type = type.BaseType)
        {
            if (name(NameOf(type)))
            {
                return true;
            }
        }
        return false;
    }

    private static string NameOf(INamedTypeSymbol type) => type.OriginalDefinition.ToDisplayString(SymbolFormat.FullName);
}
