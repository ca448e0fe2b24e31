using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>
/// The byte vectors `crates/protocol/tests/golden.rs` writes: the same values (<see cref="GoldenVectors"/>,
/// generated from the Rust ones) must encode to the same bytes here, and the bytes decode to the same values.
/// </summary>
public sealed class GoldenVectorTests
{
    [Theory]
    [MemberData(nameof(GoldenVectors.BrokerMessages), MemberType = typeof(GoldenVectors))]
    public void BrokerMessageMatchesGoldenVector(string name, BrokerMessage message) => Check(name, message);

    [Theory]
    [MemberData(nameof(GoldenVectors.HostMessages), MemberType = typeof(GoldenVectors))]
    public void HostMessageMatchesGoldenVector(string name, HostMessage message) => Check(name, message);

    [Fact]
    public void EveryGoldenFileIsChecked()
    {
        var files = Directory.GetFiles(TestPaths.GoldenDirectory, "*.bin").Select(Path.GetFileNameWithoutExtension).Order();
        var names = GoldenVectors.BrokerMessages().Select(row => (string)row[0]).Concat(GoldenVectors.HostMessages().Select(row => (string)row[0])).Order();
        Assert.Equal(files, names);
    }

    /// <summary>A variant added to any union of the protocol comes with a vector that uses it.</summary>
    [Fact]
    public void EveryVariantHasAGoldenVector()
    {
        var used = GoldenVectors.BrokerMessages().Concat(GoldenVectors.HostMessages()).SelectMany(row => Walk(row[1])).Select(v => v.GetType()).ToHashSet();
        var unions = typeof(RequestBody).Assembly.GetTypes()
            .Where(t => t.IsAbstract && t.Namespace == typeof(RequestBody).Namespace && t.GetNestedTypes().Any(n => n.IsSubclassOf(t)));
        var variants = unions.SelectMany(u => u.GetNestedTypes().Where(n => n.IsSubclassOf(u))).ToList();
        Assert.Contains(typeof(ResponseBody.Pong), variants);
        Assert.Empty(variants.Where(v => !used.Contains(v)).Select(v => v.FullName));
    }

    /// <summary>A value and every protocol value inside it.</summary>
    private static IEnumerable<object> Walk(object? value)
    {
        if (value is null or string || value.GetType().IsPrimitive || value.GetType().IsEnum)
        {
            return [];
        }
        if (value is System.Collections.IEnumerable items)
        {
            return items.Cast<object>().SelectMany(Walk);
        }
        var properties = value.GetType().GetProperties().Where(p => p.GetIndexParameters().Length == 0);
        return properties.SelectMany(p => Walk(p.GetValue(value))).Prepend(value);
    }

    private static void Check<T>(string name, T message)
        where T : IBincode<T>
    {
        var golden = File.ReadAllBytes(Path.Combine(TestPaths.GoldenDirectory, name + ".bin"));
        Assert.Equal(golden, Frames.Encode(message));
        Assert.Equal(golden.Length - Frames.HeaderBytes, Frames.PayloadLength(golden.AsSpan(0, Frames.HeaderBytes)));
        var decoded = Frames.DecodePayload<T>(golden.AsMemory(Frames.HeaderBytes));
        Assert.Equal(message, decoded);
    }
}
