namespace RoslynMcp.Host.Tests;

internal static class TestPaths
{
    /// <summary>The repository root: the first ancestor of the test assembly holding the golden vectors.</summary>
    public static string RepositoryRoot { get; } = FindRoot();

    public static string GoldenDirectory => Path.Combine(RepositoryRoot, "tests", "golden", "host-protocol");

    public static string Fixture(string name) => Path.Combine(RepositoryRoot, "tests", "fixtures", name);

    /// <summary>A private copy of a fixture without build output: tests never build or restore in the repository.</summary>
    /// <summary>A private copy of a fixture (without bin and obj), then whatever it needs built before a load.</summary>
    public static string CopyFixture(string name, Action<string>? prepare = null)
    {
        var target = Path.Combine(Path.GetTempPath(), "roslyn-mcp-tests", $"{name}-{Guid.NewGuid():N}");
        Copy(Fixture(name), target);
        prepare?.Invoke(target);
        return target;
    }

    private static void Copy(string source, string target)
    {
        Directory.CreateDirectory(target);
        foreach (var file in Directory.GetFiles(source))
        {
            File.Copy(file, Path.Combine(target, Path.GetFileName(file)));
        }
        foreach (var folder in Directory.GetDirectories(source))
        {
            var name = Path.GetFileName(folder);
            if (name is not ("bin" or "obj"))
            {
                Copy(folder, Path.Combine(target, name));
            }
        }
    }

    private static string FindRoot()
    {
        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (Directory.Exists(Path.Combine(folder.FullName, "tests", "golden", "host-protocol")))
            {
                return folder.FullName;
            }
        }
        throw new InvalidOperationException($"no ancestor of {AppContext.BaseDirectory} holds tests/golden/host-protocol");
    }
}

/// <summary>What a fixture builds before it is loaded: a library referenced as a DLL, as a package's would be.</summary>
public static class FixtureBuild
{
    /// <summary>Builds the project in <paramref name="folder"/> into its <c>bin</c> folder.</summary>
    public static void Library(string folder)
    {
        var start = new System.Diagnostics.ProcessStartInfo("dotnet", ["build", folder, "-c", "Release", "-o", Path.Combine(folder, "bin"), "-nologo", "-v", "q"])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        using var build = System.Diagnostics.Process.Start(start)!;
        var output = build.StandardOutput.ReadToEndAsync();
        var errors = build.StandardError.ReadToEnd();
        build.WaitForExit();
        if (build.ExitCode != 0)
        {
            throw new InvalidOperationException($"dotnet build {folder} failed: {output.Result}{errors}");
        }
    }
}
