using RoslynMcp.Host.Dispatch;

namespace RoslynMcp.Host.Tests;

public sealed class SearchRehearsalTests
{
    /// <summary>Every declaration of the rehearsal's solution (types of each kind, members, parameters, locals,
    /// across two projects) is searched and its definition found: a kind whose search failed would go
    /// unrehearsed without a word.</summary>
    [Fact]
    public async Task EveryDeclarationIsSearched()
    {
        var (searched, declared) = await SearchRehearsal.RunAsync(CancellationToken.None);

        Assert.True(declared >= 40, $"{declared} declarations");
        Assert.Equal(declared, searched);
    }
}
