using System.Collections;
using System.Runtime.CompilerServices;

namespace RoslynMcp.Host.Protocol;

/// <summary>
/// An immutable list with element-wise equality, so that message records compare structurally like the
/// Rust types they mirror (a <see cref="List{T}"/> field would compare by reference).
/// </summary>
[CollectionBuilder(typeof(ValueList), nameof(ValueList.Create))]
public sealed class ValueList<T> : IReadOnlyList<T>, IEquatable<ValueList<T>>
{
    public static readonly ValueList<T> Empty = new([]);

    private readonly T[] items;

    // Takes ownership of the array: callers pass a fresh copy.
    internal ValueList(T[] items) => this.items = items;

    public int Count => items.Length;

    public T this[int index] => items[index];

    public static ValueList<T> From(IEnumerable<T> items) => new(items.ToArray());

    public static implicit operator ValueList<T>(List<T> items) => new(items.ToArray());

    public bool Equals(ValueList<T>? other) =>
        other is not null && items.AsSpan().SequenceEqual(other.items, EqualityComparer<T>.Default);

    public override bool Equals(object? obj) => Equals(obj as ValueList<T>);

    public override int GetHashCode()
    {
        var hash = new HashCode();
        foreach (var item in items)
        {
            hash.Add(item);
        }
        return hash.ToHashCode();
    }

    public override string ToString() => "[" + string.Join(", ", items) + "]";

    public IEnumerator<T> GetEnumerator() => ((IEnumerable<T>)items).GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => items.GetEnumerator();
}

public static class ValueList
{
    public static ValueList<T> Create<T>(ReadOnlySpan<T> items) => new(items.ToArray());

    public static ValueList<T> ToValueList<T>(this IEnumerable<T> items) => ValueList<T>.From(items);
}
