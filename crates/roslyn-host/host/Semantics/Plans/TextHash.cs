using System.Security.Cryptography;
using System.Text;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMcp.Host.Semantics.Plans;

/// <summary>The base hash of a file edit: the broker refuses to write over a file that no longer has it.</summary>
internal static class TextHash
{
    /// <summary>Lowercase hex SHA-256 of the text as UTF-8 without a byte order mark.</summary>
    public static string Sha256(SourceText text) => Sha256(text.ToString());

    public static string Sha256(string text) => Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(text)));
}
