namespace RoslynMcp.Host.Workspace;

/// <summary>
/// How a solution's projects are shared among loaders that run at once, each with its own BuildHost. A loader
/// also loads every project its share references, so a share costs its projects' closure; the shares are
/// chosen so that the largest closure is small: modules that reference the same hubs go to different loaders,
/// a chain stays with one. One share means a single loader: a solution too small for a second BuildHost's
/// start to pay, or a graph so deep that no share would be much smaller than the whole.
/// </summary>
public static class LoadPartitions
{
    /// <summary>Below this many projects a second BuildHost costs more than it saves.</summary>
    public const int MinProjects = 16;

    /// <summary>
    /// Shares are worth it only when they are expected to take at most this part of one loader's time: the
    /// longest share, or all their work spread over the cores, whichever is more (a project both load is built twice).
    /// </summary>
    private const double MaxPartOfOne = 0.75;

    /// <summary>
    /// One loader per two cores, at most four (each BuildHost holds a few hundred MiB while the load runs): one
    /// loader already keeps two cores busy, its BuildHost building while this process reads what it built (250
    /// projects: 110 s on one core, 55 s on two), so on two cores a second loader only adds the projects both
    /// shares build (two shares of 126 and 124 projects: 59.5 s).
    /// </summary>
    public static int Loaders => Math.Clamp(Environment.ProcessorCount / 2, 1, 4);

    /// <summary>
    /// The shares of <paramref name="projects"/> (absolute paths, in the solution's order; each share keeps that
    /// order), given what each project references as far as its project file says (<see cref="ProjectReferenceItems"/>:
    /// a reference only a property or an import names is missed, and its share loads that project as well, which
    /// costs time but changes no answer).
    /// </summary>
    public static IReadOnlyList<IReadOnlyList<string>> Plan(
        IReadOnlyList<string> projects, Func<string, IReadOnlyList<string>> references, int loaders, int minProjects = MinProjects)
    {
        if (loaders < 2 || projects.Count < Math.Max(minProjects, 2))
        {
            return [projects];
        }
        var closures = new Closures(references);
        var position = projects.Select((path, index) => (path, index)).ToDictionary(p => p.path, p => p.index, StringComparer.Ordinal);
        var loads = Enumerable.Range(0, loaders).Select(_ => new HashSet<string>(StringComparer.Ordinal)).ToArray();
        var shares = Enumerable.Range(0, loaders).Select(_ => new List<string>()).ToArray();
        // The widest closures first, each to the loader whose load it grows the least in the end.
        foreach (var project in projects.OrderByDescending(p => closures.Of(p).Count).ThenBy(p => position[p]))
        {
            var closure = closures.Of(project);
            var best = Enumerable.Range(0, loaders)
                .Select(loader => (loader, added: closure.Count(p => !loads[loader].Contains(p))))
                .OrderBy(c => loads[c.loader].Count + c.added)
                .ThenBy(c => c.added)
                .First().loader;
            loads[best].UnionWith(closure);
            shares[best].Add(project);
        }
        var all = loads.SelectMany(l => l).Distinct(StringComparer.Ordinal).Count();
        var expected = Math.Max(loads.Max(l => l.Count), (double)loads.Sum(l => l.Count) / loaders);
        if (expected > all * MaxPartOfOne)
        {
            return [projects];
        }
        return [.. shares.Where(s => s.Count > 0).Select(s => (IReadOnlyList<string>)[.. s.OrderBy(p => position[p])])];
    }

    /// <summary>Each project with every project it references, directly or not (a cycle ends where it began).</summary>
    private sealed class Closures(Func<string, IReadOnlyList<string>> references)
    {
        private readonly Dictionary<string, HashSet<string>> known = new(StringComparer.Ordinal);

        public HashSet<string> Of(string project)
        {
            if (known.TryGetValue(project, out var closure))
            {
                return closure;
            }
            closure = new HashSet<string>(StringComparer.Ordinal) { project };
            // Published before the references are walked, so that a cycle back to it stops here.
            known[project] = closure;
            foreach (var reference in references(project))
            {
                closure.UnionWith(Of(reference));
            }
            return closure;
        }
    }
}
