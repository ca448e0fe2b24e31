namespace RoslynMcp.Host.Tests;

/// <summary>
/// The Textual fixture, with what the repository cannot hold added to the copy: a text file under build output,
/// a symlinked folder, a symlinked file, a FIFO (reading one would block) and a file over 1 MiB, all naming
/// <c>GetOrderAsync</c> (the FIFO has no content to name it) and all to be skipped. The copy has
/// no FIXTURE.md, which names the methods too and is no part of the solution.
/// </summary>
public sealed class TextualSolution : LoadedSolution
{
    public TextualSolution()
        : base("Textual", "Textual.sln")
    {
        File.Delete(PathOf("FIXTURE.md"));
        Directory.CreateDirectory(PathOf("Textual/obj"));
        File.WriteAllText(PathOf("Textual/obj/stale.txt"), "GetOrderAsync\n");
        Directory.CreateSymbolicLink(PathOf("linked"), PathOf("Textual"));
        File.WriteAllText(PathOf("big.log"), "GetOrderAsync\n" + new string('-', 1024 * 1024));
        File.CreateSymbolicLink(PathOf("link.md"), PathOf("README.md"));
        using var mkfifo = System.Diagnostics.Process.Start("mkfifo", PathOf("pipe.txt"));
        mkfifo.WaitForExit();
    }
}

[CollectionDefinition(Name)]
public sealed class TextualCollection : ICollectionFixture<TextualSolution>
{
    public const string Name = "Textual";
}
