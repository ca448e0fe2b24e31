using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>Computations take a slot: with none free a read waits (and its cancellation ends the wait); the host's
/// own requests never wait for one.</summary>
[Collection(ShopCollection.Name)]
public sealed class ComputeSlotsTests(ShopSolution shop)
{
    private RequestBody References => new RequestBody.References(new ReferencesRequest(shop.At("src/Shop.Core/Models/Customer.cs", 6, 14), false));

    [Fact]
    public async Task AReadWithNoFreeSlotWaitsUntilCancelledWhilePingAnswers()
    {
        var full = shop.DispatcherWithSlots(0);
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));
        var read = full.HandleAsync(References, cancel.Token);
        var (pong, _) = await full.HandleAsync(new RequestBody.Ping(new PingRequest(0)), CancellationToken.None);
        Assert.IsType<ResponseBody.Pong>(Assert.IsType<Outcome.Ok>(pong).Value);
        Assert.False(read.IsCompleted, "the read waits for a slot");
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => read);
    }

    [Fact]
    public async Task ReadsSharingOneSlotAreEachAnswered()
    {
        var one = shop.DispatcherWithSlots(1);
        var answers = await Task.WhenAll(Enumerable.Range(0, 4).Select(_ => one.HandleAsync(References, CancellationToken.None)));
        var lists = answers.Select(a => Assert.IsType<ResponseBody.References>(Assert.IsType<Outcome.Ok>(a.Outcome).Value).Value).ToList();
        Assert.All(lists, list => Assert.Equal(lists[0], list));
        Assert.NotEmpty(lists[0].References);
    }
}
