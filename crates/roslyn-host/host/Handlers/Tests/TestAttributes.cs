using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Handlers.Tests;

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
    /// set-up and tear-down.
    /// </summary>
    public static IEnumerable<ISymbol> AroundTestsOf(INamedTypeSymbol testClass)
    {
        for (var type = testClass; type is { SpecialType: not SpecialType.System_Object }; type = type.BaseType)
        {
            foreach (var member in type.GetMembers())
            {
                if (member is IMethodSymbol { MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor }
                    || (member is IMethodSymbol { Parameters.Length: 0 } method && AroundByName.Contains(method.Name))
                    || (member is IMethodSymbol && member.GetAttributes().Any(IsAround)))
                {
                    yield return member;
                }
            }
        }
    }

    private static bool IsAround(AttributeData attribute)
    {
        for (var type = attribute.AttributeClass; type is not null; type = type.BaseType)
        {
            if (Around.Contains(NameOf(type)))
            {
                return true;
            }
        }
        return false;
    }

    private static string NameOf(INamedTypeSymbol type) => type.OriginalDefinition.ToDisplayString(SymbolFormat.FullName);
}
