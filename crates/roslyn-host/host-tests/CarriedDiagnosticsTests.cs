using System.Globalization;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics.Diagnostics;

namespace RoslynMcp.Host.Tests;

/// <summary>
/// Diagnostics carried from a project's last compilation over an edit equal what compiling it all gives, and an
/// edit that could change what only a whole compilation knows is not carried.
/// </summary>
public sealed class CarriedDiagnosticsTests
{
    private const string Accounts = """
        namespace Core;

        /// <summary>An account.</summary>
        public sealed class Account
        {
            /// <summary>Above the fields, so lines added here move them.</summary>
            public int Before() { return 1; }

            private int _unused;
            private int _written;
            private readonly string _name = "n";
            internal int NeverAssigned;

            /// <summary>Name.</summary>
            public string Name() { _written = 2; return _name + NeverAssigned; }

            /// <summary>Total.</summary>
            public int Total(int a, int b) { return a + b; }
        }
        """;

    private const string LedgerSeed = """
        namespace Core;

        /// <summary>Its parameters are read in two files.</summary>
        public partial class Ledger(int seed, int limit)
        {
            /// <summary>Seed.</summary>
            public int Seed() => seed;
        }
        """;

    private const string LedgerLimit = """
        namespace Core;

        public partial class Ledger
        {
            /// <summary>Limit.</summary>
            public int Limit() { return limit; }
        }
        """;

    private const string Point = """
        namespace Core;

        /// <summary>Assigning this assigns every field.</summary>
        public struct Point
        {
            private int _x;

            /// <summary>Reset.</summary>
            public void Reset() { this = default; }

            /// <summary>X.</summary>
            public int X => _x;
        }
        """;

    private const string Named = """
        namespace Core;

        /// <summary>A property that could get a backing field.</summary>
        public class Named
        {
            /// <summary>Value.</summary>
            public string Value { get => "v"; set { } }
        }
        """;

    private const string Uses = """
        namespace App;

        /// <summary>Uses Core.</summary>
        public static class Uses
        {
            /// <summary>Run.</summary>
            public static int Run() => new Core.Account().Total(1, 2) + new Core.Ledger(1, 2).Seed();
        }
        """;

    public static TheoryData<string, string, string, bool> Edits => new()
    {
        // A body gains an error and an unused local.
        { "Accounts.cs", "{ return a + b; }", "{ string s = a; int unused = 0; return a + b; }", true },
        // Lines added above the unused fields move their warnings.
        { "Accounts.cs", "{ return 1; }", "{\n        int x = 1;\n\n\n        return 1; }", true },
        { "Accounts.cs", "{ return a + b; }", "{ /* a note */ return a + b; }", true },
        // A body reading a string field that has an initializer: the field stays read and assigned.
        { "Accounts.cs", "{ return a + b; }", "{ int unused = 0; return a + b + _name.Length; }", true },
        // The only read of _written's value goes: it is not carried, CS0414 is the whole compilation's to find.
        { "Accounts.cs", "_written = 2; ", "", false },
        // A lambda's body is part of its method's.
        { "Accounts.cs", "{ return 1; }", "{ System.Func<int> f = () => { int inner = 0; return 1; }; return f(); }", true },
        // _unused has its CS0169: an edit naming it is not carried, whatever nameof counts as.
        { "Accounts.cs", "{ return a + b; }", "{ int unused = 0; return a + b + nameof(_unused).Length; }", false },
        // NeverAssigned gets assigned: its CS0649 goes.
        { "Accounts.cs", "{ _written = 2; return", "{ _written = 2; NeverAssigned = 1; return", false },
        // Ledger's other part stops reading limit: the warning (CS9113) is in the file that was not edited.
        { "Ledger.Limit.cs", "{ return limit; }", "{ return 0; }", true },
        { "Ledger.Seed.cs", "(int seed, int limit)", "(int seed, int limit, int extra)", false },
        { "Point.cs", "this = default;", "this = default; int unused = 0;", false },
        { "Named.cs", "set { }", "set { field = value; }", false },
        { "Accounts.cs", "_name = \"n\";", "_name = 1;", false },
        { "Accounts.cs", "namespace Core;", "#nullable disable\nnamespace Core;", false },
        { "Uses.cs", "Total(1, 2)", "Total(1, \"2\")", true },
    };

    [Theory]
    [MemberData(nameof(Edits))]
    public async Task AnEditedSolutionsCarriedDiagnosticsAreWhatCompilingItAllGives(string file, string find, string replace, bool carried)
    {
        var before = Solution();
        var document = before.Projects.SelectMany(p => p.Documents).Single(d => d.Name == file);
        var text = (await document.GetTextAsync()).ToString();
        Assert.Contains(find, text);
        var after = document.WithText(SourceText.From(text.Replace(find, replace, StringComparison.Ordinal))).Project.Solution;

        var changed = false;
        foreach (var project in before.Projects)
        {
            var old = (await project.GetCompilationAsync())!;
            var oldDiagnostics = old.GetDiagnostics();
            var now = (await after.GetProject(project.Id)!.GetCompilationAsync())!;
            var whole = Keys(now.GetDiagnostics());
            changed |= !whole.SequenceEqual(Keys(oldDiagnostics));

            var found = CarriedDiagnostics.From(old, oldDiagnostics, now, CancellationToken.None);
            if (project.Id == document.Project.Id && !carried)
            {
                Assert.Null(found);
            }
            // A project referencing one whose declarations changed may compile again; what it carries is exact.
            else if (found is { } kept)
            {
                Assert.Equal(whole, Keys(kept));
            }
            else
            {
                Assert.False(carried, $"{project.Name} was compiled again after a body edit");
            }
        }
        // Every edit but the comment changes what the compiler says.
        Assert.Equal(replace != "{ /* a note */ return a + b; }", changed);
    }

    /// <summary>An interceptor names the place of the call it replaces by the content of that call's file.</summary>
    private const string Interceptor = """
        namespace System.Runtime.CompilerServices
        {
            [AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
            file sealed class InterceptsLocationAttribute(int version, string data) : Attribute;
        }
        """;

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task AProjectThatMayInterceptCallsIsCompiledWhole(bool namesTheAttribute)
    {
        var before = Solution();
        var core = before.Projects.Single(p => p.Name == "Core");
        var intercepting = ((CSharpParseOptions)core.ParseOptions!).WithFeatures([new("InterceptorsNamespaces", "Core")]);
        before = before.WithProjectParseOptions(core.Id, intercepting);
        if (namesTheAttribute)
        {
            before = before.AddDocument(DocumentId.CreateNewId(core.Id), "Interceptor.cs", SourceText.From(Interceptor), filePath: Path.Combine(AdhocSolutions.Root, "Core", "Interceptor.cs"));
        }
        var document = before.GetProject(core.Id)!.Documents.Single(d => d.Name == "Accounts.cs");
        var text = (await document.GetTextAsync()).ToString();
        var after = document.WithText(SourceText.From(text.Replace("{ return a + b; }", "{ int unused = 0; return a + b; }", StringComparison.Ordinal))).Project;

        var old = (await before.GetProject(core.Id)!.GetCompilationAsync())!;
        var now = (await after.GetCompilationAsync())!;
        Assert.Equal(namesTheAttribute, CarriedDiagnostics.From(old, old.GetDiagnostics(), now, CancellationToken.None) is null);
    }

    [Fact]
    public async Task AnEditorsBodyEditOfALoadedSolutionIsCarriedAndMatchesAWholeCompile()
    {
        var shop = new ShopSolution();
        await shop.InitializeAsync();
        try
        {
            var core = shop.Solution.Projects.Single(p => p.Name == "Shop.Core");
            var old = (await core.GetCompilationAsync())!;
            var oldDiagnostics = old.GetDiagnostics();
            var path = shop.PathOf("src/Shop.Core/Services/PriceCalculator.cs");
            var text = await File.ReadAllTextAsync(path);
            await File.WriteAllTextAsync(path, text.Replace("=> Round(price);", "=> Round(price) + \"\";", StringComparison.Ordinal));
            await shop.OkAsync<ResponseBody.FileChangesApplied>(new RequestBody.ApplyFileChanges(new FileChanges([path], [])));

            var now = (await shop.Solution.GetProject(core.Id)!.GetCompilationAsync())!;
            var found = CarriedDiagnostics.From(old, oldDiagnostics, now, CancellationToken.None);
            Assert.NotNull(found);
            Assert.Contains(found.Value, d => d.Id == "CS0029");
            Assert.Equal(Keys(now.GetDiagnostics()), Keys(found.Value));
        }
        finally
        {
            await shop.DisposeAsync();
        }
    }

    private static List<string> Keys(IEnumerable<Microsoft.CodeAnalysis.Diagnostic> diagnostics) => diagnostics
        .Select(d => $"{d.Location.GetLineSpan()} {d.Id} {d.Severity} {d.IsSuppressed} {d.GetMessage(CultureInfo.InvariantCulture)}")
        .Order(StringComparer.Ordinal)
        .ToList();

    private static Solution Solution()
    {
        var parse = new CSharpParseOptions(LanguageVersion.Preview, DocumentationMode.Diagnose);
        var solution = new AdhocWorkspace().CurrentSolution;
        var core = AdhocSolutions.AddProject(ref solution, "Core", parse, [("Accounts.cs", Accounts), ("Ledger.Seed.cs", LedgerSeed), ("Ledger.Limit.cs", LedgerLimit), ("Point.cs", Point), ("Named.cs", Named)], file => Path.Combine(AdhocSolutions.Root, "Core", file));
        var app = AdhocSolutions.AddProject(ref solution, "App", parse, [("Uses.cs", Uses)], file => Path.Combine(AdhocSolutions.Root, "App", file));
        return solution.AddProjectReference(app, new ProjectReference(core));
    }
}
