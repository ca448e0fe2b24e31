//! The hand-shaped documents every corpus starts with: the query type `Entity`, the generic repository,
//! and per project an `Entity`-derived item and a static hub of extension methods. Templates as in
//! `kinds.rs`.

/// The query type. Its declaration line is the one `ENTITY_DECLARATION` finds.
pub(super) const ENTITY: &str = r#"using System;
using System.Collections.Generic;

namespace __NS__;

/// <summary>The base type of every domain object in the corpus: the benches find its references.</summary>
public class Entity : IComparable<Entity>
{
    private readonly List<string> tags = new List<string>();

    public Entity(int id)
    {
        Id = id;
        CreatedTicks = 638000000000000000L + id;
    }

    public int Id { get; }

    public long CreatedTicks { get; }

    public IReadOnlyList<string> Tags => tags;

    public void Tag(string tag)
    {
        if (!string.IsNullOrEmpty(tag) && !tags.Contains(tag))
        {
            tags.Add(tag);
        }
    }

    public virtual string Describe()
    {
        return $"{GetType().Name}#{Id}";
    }

    public virtual int Weight()
    {
        return Id % 7 + tags.Count;
    }

    public int CompareTo(Entity other)
    {
        return other == null ? 1 : Id.CompareTo(other.Id);
    }

    public override string ToString() => Describe();
}
"#;

/// What finds the query type's declaration line in `ENTITY`.
pub(super) const ENTITY_DECLARATION: &str = "public class Entity ";

pub(super) const REPOSITORY: &str = r#"using System;
using System.Collections.Generic;
using System.Linq;

namespace __NS__;

public interface IRepository<T>
    where T : Entity
{
    int Count { get; }

    void Add(T item);

    bool Remove(int id);

    T Find(int id);

    IReadOnlyList<T> All();
}

public class Repository<T> : IRepository<T>
    where T : Entity
{
    private readonly List<T> items = new List<T>();
    private readonly Dictionary<int, T> byId = new Dictionary<int, T>();

    public int Count => items.Count;

    public void Add(T item)
    {
        if (item == null)
        {
            throw new ArgumentNullException(nameof(item));
        }
        Remove(item.Id);
        items.Add(item);
        byId[item.Id] = item;
    }

    public bool Remove(int id)
    {
        if (!byId.TryGetValue(id, out var item))
        {
            return false;
        }
        byId.Remove(id);
        return items.Remove(item);
    }

    public T Find(int id)
    {
        return byId.TryGetValue(id, out var item) ? item : null;
    }

    public IReadOnlyList<T> All() => items;

    public IEnumerable<T> Matching(Func<T, bool> predicate)
    {
        return items.Where(predicate).OrderBy(item => item.Id);
    }

    public Dictionary<int, List<T>> GroupByWeight()
    {
        return items.GroupBy(item => item.Weight()).ToDictionary(group => group.Key, group => group.ToList());
    }
}
"#;

/// A project's `Entity`-derived item (`__ITEM__`), the base of many generated classes.
pub(super) const ITEM: &str = r#"__USINGS__
namespace __NS__;

public class __ITEM__ : Entity
{
    public __ITEM__(int id)
        : this(id, $"item-{id}")
    {
    }

    public __ITEM__(int id, string name)
        : base(id)
    {
        Name = name;
    }

    public string Name { get; }

    public virtual decimal Price => Id % 100 + 0.5m;

    public override string Describe()
    {
        return $"{Name} ({Id}) from __ITEM__";
    }

    public override int Weight()
    {
        return base.Weight() + Name.Length % 3;
    }

    public static __ITEM__ Parse(string text)
    {
        var parts = text.Split(':');
        int id = int.Parse(parts[0]);
        return new __ITEM__(id, parts.Length > 1 ? parts[1] : $"item-{id}");
    }
}
"#;

/// A project's static hub (`__HUB__`): `Seed`, the extension methods `__SCORE__` and `__LABEL__`, and a
/// call into each referenced project (`__UPSTREAM__`). `__RUNTIME__` is the per-framework part.
pub(super) const HUB: &str = r#"__USINGS__
namespace __NS__;

public static class __HUB__
{
__RUNTIME__
    public static List<__ITEM__> Seed(int count)
    {
        var items = new List<__ITEM__>();
        for (int i = 1; i <= count; i++)
        {
            items.Add(new __ITEM__(__BASE_ID__ + i, $"__ITEM__-{i}"));
        }
        return items;
    }

    public static Entity Probe(int id) => new Entity(id);

    public static int __SCORE__(this Entity entity)
    {
        return entity.Id * __FACTOR__ + entity.Weight();
    }

    public static string __LABEL__(this Entity entity) => $"__ITEM__:{entity.Describe()}";

    public static int Total(IEnumerable<Entity> items)
    {
        int total = 0;
        foreach (var item in items)
        {
            total += item.__SCORE__();
        }
        return total;
    }

    public static int Upstream()
    {
        int total = Seed(1).Count;
__UPSTREAM__        return total;
    }
}
"#;

/// `__RUNTIME__` of a project with one framework.
pub(super) const RUNTIME_NET10: &str = r#"    public static string Runtime() => "net10.0";
"#;

/// `__RUNTIME__` of a `net10.0;net9.0` project: the two compilations differ.
pub(super) const RUNTIME_NET9_OR_NET10: &str = r#"    public static string Runtime()
    {
#if NET9_0
        return $"net9.0 on {Environment.Version.Major}";
#else
        return "net10.0".ToUpperInvariant();
#endif
    }
"#;

/// `__RUNTIME__` of the multi-target library.
pub(super) const RUNTIME_MULTI: &str = r#"    public static string Runtime()
    {
#if NETSTANDARD2_0
        return "netstandard2.0";
#elif NET8_0_OR_GREATER
        return $"net{Environment.Version.Major}";
#else
        return "netstandard2.1";
#endif
    }
"#;

/// The multi-target library's argument checks: the modern throw helpers where they exist.
pub(super) const GUARD: &str = r#"using System;

namespace __NS__;

public static class Guard
{
    public static T NotNull<T>(T value, string name)
        where T : class
    {
#if NET8_0_OR_GREATER
        ArgumentNullException.ThrowIfNull(value, name);
#else
        if (value == null)
        {
            throw new ArgumentNullException(name);
        }
#endif
        return value;
    }

    public static int Positive(int value, string name)
    {
#if NET8_0_OR_GREATER
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(value, name);
#else
        if (value <= 0)
        {
            throw new ArgumentOutOfRangeException(name, value, "must be positive");
        }
#endif
        return value;
    }

    public static Entity Known(Entity entity) => NotNull(entity, nameof(entity));
}
"#;

/// The multi-target library's text helpers: netstandard2.0 lacks the char overloads and `HashCode`.
pub(super) const TEXT: &str = r#"using System;
using System.Collections.Generic;
using System.Linq;

namespace __NS__;

public static class Text
{
    public static bool HasSeparator(string value)
    {
#if NETSTANDARD2_0
        return value.IndexOf(':') >= 0;
#else
        return value.Contains(':');
#endif
    }

    public static string Join(IEnumerable<string> parts)
    {
#if NETSTANDARD2_0
        return string.Join(",", parts.ToArray());
#else
        return string.Join(',', parts);
#endif
    }

    public static int Hash(int first, string second)
    {
#if NETSTANDARD2_0
        return first * 397 ^ (second ?? string.Empty).GetHashCode();
#else
        return HashCode.Combine(first, second);
#endif
    }

    public static string Lines(IEnumerable<string> lines)
    {
        var kept = lines.Where(line => !string.IsNullOrWhiteSpace(line)).Select(line => line.Trim());
        return string.Join(Environment.NewLine, kept);
    }
}
"#;

/// A test project's xUnit tests (`__HUB__Tests`): they reach `Hub00.Total` through its seed, their own hub
/// and its upstream calls, and name a word pattern the regular-expression source generator implements.
pub(super) const TESTS: &str = r#"__USINGS__using System.Text.RegularExpressions;
using Xunit;

namespace __NS__;

public partial class __HUB__Tests
{
    [Fact]
    public void CoreTotalCountsEverySeededItem()
    {
        Assert.True(Hub00.Total(Hub00.Seed(3)) > 0);
    }

    [Fact]
    public void OwnHubReachesItsUpstream()
    {
        Assert.True(__HUB__.Upstream() >= 1);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    public void SeedGivesWhatIsAsked(int count)
    {
        Assert.Equal(count, __HUB__.Seed(count).Count);
    }

    [Fact]
    public void LabelsNameTheirItem()
    {
        var label = __HUB__.Seed(1)[0].__LABEL__();
        Assert.Matches(Word(), label.Split(':')[0]);
    }

    [GeneratedRegex("^[A-Za-z0-9]+$")]
    private static partial Regex Word();
}
"#;
