using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMcp.Host.Semantics;

/// <summary>
/// The text files under a folder that are not documents of the solution: build output (<c>bin/</c>,
/// <c>obj/</c>), hidden and symlinked folders are not entered; symlinked, empty (FIFOs and devices report no
/// size) and binary files, files over 1 MiB or not UTF-8 are left out. The text is read without its byte order
/// mark, as the base hash of an edit is computed and as the write puts a file's mark back.
/// </summary>
internal static class OtherFiles
{
    public const long MaxBytes = 1024 * 1024;

    private static readonly EnumerationOptions Readable = new() { IgnoreInaccessible = true, AttributesToSkip = 0 };

    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    public static IEnumerable<SearchedFile> Under(string folder, Func<string, bool> wanted, List<string> warnings)
    {
        foreach (var path in Directory.EnumerateFiles(folder, "*", Readable).Order(StringComparer.Ordinal))
        {
            if (wanted(path) && Read(path, warnings) is { } text)
            {
                yield return new SearchedFile(path, text, []);
            }
        }
        foreach (var child in Directory.EnumerateDirectories(folder, "*", Readable).Order(StringComparer.Ordinal))
        {
            if (!IsSkippedFolder(child))
            {
                foreach (var file in Under(child, wanted, warnings))
                {
                    yield return file;
                }
            }
        }
    }

    /// <summary>Build output and hidden folders, by name; symlinked folders, which may lead anywhere or loop.</summary>
    private static bool IsSkippedFolder(string folder)
    {
        var name = Path.GetFileName(folder);
        return name is "bin" or "obj" || name.StartsWith('.') || new DirectoryInfo(folder).LinkTarget is not null;
    }

    private static SourceText? Read(string path, List<string> warnings)
    {
        byte[] bytes;
        try
        {
            var info = new FileInfo(path);
            if (info.LinkTarget is not null)
            {
                // It may lead outside the roots; the write would refuse the whole plan for it.
                warnings.Add($"Skipped {path}: a symbolic link");
                return null;
            }
            if (info.Length == 0)
            {
                // Nothing to replace; and a FIFO or device, which reports no size, is never opened (reading one blocks).
                return null;
            }
            if (info.Length > MaxBytes)
            {
                warnings.Add($"Skipped {path}: over 1 MiB");
                return null;
            }
            bytes = File.ReadAllBytes(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            warnings.Add($"Skipped {path}: {e.Message}");
            return null;
        }
        if (Array.IndexOf(bytes, (byte)0) >= 0)
        {
            return null;
        }
        var bom = bytes.AsSpan().StartsWith(Encoding.UTF8.Preamble) ? Encoding.UTF8.Preamble.Length : 0;
        try
        {
            return SourceText.From(StrictUtf8.GetString(bytes, bom, bytes.Length - bom));
        }
        catch (DecoderFallbackException)
        {
            warnings.Add($"Skipped {path}: not UTF-8");
            return null;
        }
    }
}
