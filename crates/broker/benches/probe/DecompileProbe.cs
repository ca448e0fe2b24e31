// ICSharpCode.Decompiler alone on one type of an assembly: the first decompilation (the file opened, the
// resolver and the decompiler's type system built, as a first request needs) and warm ones with the same
// decompiler. Prints one JSON line: {firstMs, warmP50Ms, characters}.

using System.Diagnostics;
using System.Reflection.PortableExecutable;
using System.Text.Json;
using ICSharpCode.Decompiler;
using ICSharpCode.Decompiler.CSharp;
using ICSharpCode.Decompiler.Metadata;
using ICSharpCode.Decompiler.TypeSystem;

internal static class DecompileProbe
{
    public static void Run(string assembly, string typeName, int warmCalls)
    {
        var clock = Stopwatch.StartNew();
        var file = new PEFile(assembly, PEStreamOptions.PrefetchEntireImage);
        var resolver = new UniversalAssemblyResolver(assembly, false, file.DetectTargetFrameworkId());
        var settings = new DecompilerSettings(LanguageVersion.Latest) { ThrowOnAssemblyResolveErrors = false, ShowXmlDocumentation = true };
        var decompiler = new CSharpDecompiler(file, resolver, settings);
        var text = decompiler.DecompileTypeAsString(new FullTypeName(typeName));
        var firstMs = clock.Elapsed.TotalMilliseconds;
        var warm = new List<double>();
        for (var i = 0; i < warmCalls; i++)
        {
            clock.Restart();
            decompiler.DecompileTypeAsString(new FullTypeName(typeName));
            warm.Add(clock.Elapsed.TotalMilliseconds);
        }
        warm.Sort();
        Console.WriteLine(JsonSerializer.Serialize(new
        {
            firstMs,
            warmP50Ms = warm.Count == 0 ? 0 : warm[warm.Count / 2],
            characters = text.Length,
        }));
    }
}
