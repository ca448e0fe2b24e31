//! The C# text of the document kinds: `__TOKEN__`s are filled by `kinds::render`.

pub(super) const ENTITY: &str = r#"__USINGS__
namespace __NS__;

public class __TYPE__ : __PARTNER__
{
    private readonly List<int> quantities = new List<int>();

    public __TYPE__(int id, string name)
        : base(id, name)
    {
        for (int i = 0; i < 3 + id % 4; i++)
        {
            quantities.Add(id * 10 + i);
        }
    }

    public int Quantity => quantities.Sum();

    public override decimal Price => base.Price + Quantity * 0.25m;

    public override string Describe()
    {
        var parts = quantities.Where(q => q % 2 == 0).Select(q => q.ToString()).ToList();
        return $"__TYPE__ {Name} [{string.Join(", ", parts)}]";
    }

    public override int Weight()
    {
        return base.Weight() + quantities.Count;
    }

    public bool Matches(__E__ other)
    {
        if (other == null)
        {
            return false;
        }
        return other.Id % 3 == Id % 3 && other.Weight() > 0;
    }

    public int CrossScore()
    {
        int total = this.__SCORE__() + (Matches(this) ? 1 : 0);
        foreach (var item in __HUB__.Seed(3))
        {
            total += item.__SCORE__() + item.Name.Length;
        }
        return total;
    }
}
"#;

pub(super) const SERVICE: &str = r#"__USINGS__
namespace __NS__;

public sealed class __TYPE__
{
    private readonly Repository<__PARTNER__> repository = new Repository<__PARTNER__>();

    public __TYPE__(int seed)
    {
        for (int i = 0; i < 5; i++)
        {
            repository.Add(new __PARTNER__(seed + i, $"__PARTNER__-{i}"));
        }
    }

    public int Count => repository.Count;

    public List<string> Summaries(int minimumId)
    {
        var results = repository.All()
            .Where(item => item.Id >= minimumId)
            .OrderBy(item => item.Id)
            .Select(item => $"{item.Name}: {item.Describe()}")
            .ToList();
        return results;
    }

    public int Score()
    {
        int total = 0;
        foreach (__E__ entity in repository.All())
        {
            total += entity.__SCORE__() + entity.Weight();
        }
        total += __HUB__.Total(__HUB__.Seed(2));
        return total;
    }

    public __E__ Pick(int id)
    {
        var found = repository.Find(id);
        return found ?? repository.All().FirstOrDefault();
    }
}
"#;

pub(super) const POLICY: &str = r#"__USINGS__
namespace __NS__;

public interface I__TYPE__
{
    bool Accepts(__E__ entity);

    decimal Adjust(decimal amount, int factor);
}

public class __TYPE__ : I__TYPE__
{
    private readonly int threshold;

    public __TYPE__(int threshold)
    {
        this.threshold = threshold;
    }

    public bool Accepts(__E__ entity)
    {
        return entity != null && entity.Id > threshold && entity.Weight() >= 0;
    }

    public decimal Adjust(decimal amount, int factor)
    {
        decimal result = amount;
        for (int i = 0; i < factor; i++)
        {
            result += result / 10m;
        }
        return Math.Round(result, 2);
    }

    public List<T> Filter<T>(IEnumerable<T> items)
        where T : __E__
    {
        return items.Where(item => Accepts(item)).OrderBy(item => item.Id).ToList();
    }

    public int CountAccepted(int count)
    {
        var accepted = Filter(__HUB__.Seed(count));
        return accepted.Count + (int)Adjust(accepted.Count, 2);
    }
}
"#;

pub(super) const METRIC: &str = r#"__USINGS__
namespace __NS__;

public enum __STATUS__
{
    None = 0,
    Active = 1,
    Suspended = 2,
    Closed = 3,
}

public readonly struct __TYPE__
{
    public __TYPE__(int entityId, __STATUS__ status, double value)
    {
        EntityId = entityId;
        Status = status;
        Value = value;
    }

    public int EntityId { get; }

    public __STATUS__ Status { get; }

    public double Value { get; }

    public bool IsOpen => Status == __STATUS__.Active || Status == __STATUS__.Suspended;

    public static __TYPE__ From(__E__ entity)
    {
        var status = (__STATUS__)(entity.Id % 4);
        return new __TYPE__(entity.Id, status, entity.Weight() * 1.5);
    }

    public static double Sum(int count) => __HUB__.Seed(count).Select(item => From(item).Value).Sum();

    public __TYPE__ WithStatus(__STATUS__ status) => new __TYPE__(EntityId, status, Value);

    public string Label() => Status switch
    {
        __STATUS__.Active => $"active {EntityId}",
        __STATUS__.Suspended => $"suspended {EntityId}",
        __STATUS__.Closed => "closed",
        _ => "none",
    };
__HASH__
    public override string ToString() => $"{EntityId}:{Status}:{Value:F1}";
}
"#;

pub(super) const CACHE: &str = r#"__USINGS__
namespace __NS__;

public class __TYPE__<T>
    where T : __E__
{
    private readonly Dictionary<int, T> items = new Dictionary<int, T>();

    public int Count => items.Count;

    public void Put(T item)
    {
__GUARD__        items[item.Id] = item;
    }

    public bool TryGet(int id, out T item)
    {
        return items.TryGetValue(id, out item);
    }

    public TResult Aggregate<TResult>(TResult seed, Func<TResult, T, TResult> step)
    {
        TResult accumulator = seed;
        foreach (var pair in items.OrderBy(pair => pair.Key))
        {
            accumulator = step(accumulator, pair.Value);
        }
        return accumulator;
    }

    public static __TYPE__<T> From(IEnumerable<T> source)
    {
        var cache = new __TYPE__<T>();
        foreach (var item in source)
        {
            cache.Put(item);
        }
        return cache;
    }
}

public static class __TYPE__Demo
{
    public static int Run(int count)
    {
        var cache = __TYPE__<__E__>.From(__HUB__.Seed(count));
        return cache.Aggregate(0, (total, item) => total + item.__SCORE__() + item.Describe().Length);
    }
}
"#;

pub(super) const SNAPSHOT: &str = r#"__USINGS__
namespace __NS__;

public record __TYPE__(int Id, string Name, decimal Amount)
{
    public static __TYPE__ Of(__E__ entity, decimal amount)
    {
        return new __TYPE__(entity.Id, entity.Describe(), amount);
    }

    public __TYPE__ Scaled(decimal factor) => this with { Amount = Amount * factor };

    public string Render() => $"{Name} = {Amount:F2}";

    public static List<__TYPE__> Capture(int count)
    {
        var snapshots = new List<__TYPE__>();
        foreach (var item in __HUB__.Seed(count))
        {
            snapshots.Add(Of(item, item.Price));
        }
        return snapshots.OrderByDescending(snapshot => snapshot.Amount).ToList();
    }

    public static string Report(int count)
    {
        var lines = Capture(count).Select((snapshot, index) => $"{index + 1}. {snapshot.Scaled(2m).Render()}");
        return string.Join(Environment.NewLine, lines);
    }
}
"#;

pub(super) const EXTENSIONS: &str = r#"__USINGS__
namespace __NS__;

public static class __TYPE__
{
    public static int Weigh__N__(this __E__ entity, int factor)
    {
        int weight = entity.Weight();
        for (int i = 1; i <= factor; i++)
        {
            weight += entity.Id % (i + 1);
        }
        return weight;
    }

    public static List<T> Heaviest__N__<T>(this IEnumerable<T> items, int count)
        where T : __E__
    {
        return items.OrderByDescending(item => item.Weight()).ThenBy(item => item.Id).Take(count).ToList();
    }

    public static string Joined__N__(this IEnumerable<__E__> items)
    {
        return string.Join("; ", items.Select(item => item.__LABEL__()));
    }

    public static string Sample__N__(int count)
    {
        var items = __HUB__.Seed(count);
        var heaviest = items.Heaviest__N__(2);
        return $"{heaviest.Joined__N__()} / {items.Sum(item => item.Weigh__N__(2))}";
    }
}
"#;

pub(super) const WIDGET: &str = r#"__USINGS__
namespace __NS__;

public partial class __TYPE__ : __E__
{
    private readonly List<string> history = new List<string>();
    private int level;

    public __TYPE__(int id)
        : base(id)
    {
        level = id % 5;
        Record("created");
    }

    public int Level
    {
        get => level;
        set
        {
            if (value != level)
            {
                level = value;
                OnLevelChanged(value);
            }
        }
    }

    public IReadOnlyList<string> History => history;

    partial void OnLevelChanged(int value);

    public override string Describe()
    {
        return $"__TYPE__ level {level} after {history.Count} changes";
    }
}
"#;

pub(super) const WIDGET_PART2: &str = r#"__USINGS__
namespace __NS__;

public partial class __TYPE__
{
    public static __TYPE__ Create(int id, int steps)
    {
        var widget = new __TYPE__(id);
        for (int step = 1; step <= steps; step++)
        {
            widget.Level = step;
        }
        return widget;
    }

    partial void OnLevelChanged(int value)
    {
        Record($"level {value}");
    }

    private void Record(string change)
    {
        history.Add($"{Id}:{change}");
    }

    public int Compare(__ITEM__ other)
    {
        int difference = Weight() - other.Weight();
        return difference != 0 ? difference : Id.CompareTo(other.Id);
    }

    public string Summary()
    {
        var last = history.LastOrDefault() ?? "none";
        return $"{this.__LABEL__()} {last} {Compare(__HUB__.Seed(1)[0])}";
    }
}
"#;

pub(super) const HASH_REGION: &str = r#"
    public override int GetHashCode()
    {
#if NETSTANDARD2_0
        return EntityId * 397 ^ (int)Status;
#else
        return HashCode.Combine(EntityId, Status, Value);
#endif
    }
"#;

pub(super) const GUARD_REGION: &str = r#"#if NET8_0_OR_GREATER
        ArgumentNullException.ThrowIfNull(item);
#else
        if (item == null)
        {
            throw new ArgumentNullException(nameof(item));
        }
#endif
"#;
