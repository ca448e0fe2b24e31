using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Features.Unused;

/// <summary>The diagnostics that find each kind, in the order a location reported by two of them is kept.</summary>
internal static class UnusedRules
{
    public const string UnusedMember = "IDE0051";
    public const string UnreadMember = "IDE0052";
    public const string UnusedValue = "IDE0059";
    public const string UnusedParameter = "IDE0060";
    public const string UnusedVariable = "CS0168";
    public const string UnreadVariable = "CS0219";
    public const string UnnecessaryUsing = "CS8019";
    public const string DuplicateUsing = "CS0105";

    public static readonly IReadOnlySet<string> Analyzed = new HashSet<string>([UnusedMember, UnreadMember, UnusedValue, UnusedParameter], StringComparer.Ordinal);

    public static readonly IReadOnlySet<string> Compiled = new HashSet<string>([UnusedVariable, UnreadVariable], StringComparer.Ordinal);

    /// <summary>
    /// The kind each analyzer or compiler rule finds; CS0219 before IDE0059, which reports the same never-read
    /// constant local again.
    /// </summary>
    public static readonly IReadOnlyList<(string Rule, UnusedKind Kind)> Order =
    [
        (UnusedMember, UnusedKind.Members),
        (UnreadMember, UnusedKind.Members),
        (UnusedItem.Unreferenced, UnusedKind.Members),
        (UnusedParameter, UnusedKind.Parameters),
        (UnusedVariable, UnusedKind.Locals),
        (UnreadVariable, UnusedKind.Locals),
        (UnusedValue, UnusedKind.Locals),
    ];

    public static UnusedKind KindOf(string rule) => Order.First(o => o.Rule == rule).Kind;

    public static int RankOf(string rule) => Order.Select((o, i) => (o.Rule, i)).First(o => o.Rule == rule).i;
}
