using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>rename_file plans on the Signature fixture.</summary>
[Collection(SignatureCollection.Name)]
public sealed class RenameFileTests(SignatureSolution fixture)
{
    private RequestBody Rename(string file, string newName) =>
        new RequestBody.PlanRenameFile(new RenameFileRequest(fixture.PathOf(file), newName));

    private FileEdit Edit(RenameFilePlan plan, string relative) => Assert.Single(plan.Edits, e => e.Path == fixture.PathOf(relative));

    [Fact]
    public async Task AFileNamedAfterItsTypeRenamesTheType()
    {
        var plan = (await fixture.OkAsync<ResponseBody.RenameFilePlan>(Rename("Lib/Orphan.cs", "Lonely.cs"))).Value;

        Assert.Equal("Lonely", plan.Renamed!.NewName);
        Assert.Equal(EditKind.Delete, Edit(plan, "Lib/Orphan.cs").Kind);
        Assert.Contains("internal sealed class Lonely", Edit(plan, "Lib/Lonely.cs").NewText);
        await fixture.Solution.AssertCompilesAsync(plan.Edits);
    }

    [Fact]
    public async Task AnyOtherFileMovesAloneAndItsProjectEntryFollows()
    {
        var plan = (await fixture.OkAsync<ResponseBody.RenameFilePlan>(Rename("Legacy/Old.cs", "Older.cs"))).Value;

        Assert.Null(plan.Renamed);
        Assert.Equal(EditKind.Delete, Edit(plan, "Legacy/Old.cs").Kind);
        Assert.Contains("internal static class OldHelper", Edit(plan, "Legacy/Older.cs").NewText);
        var project = Edit(plan, "Legacy/Legacy.csproj").NewText;
        Assert.Contains("<Compile Include=\"Older.cs\" />", project);
        Assert.DoesNotContain("\"Old.cs\"", project);
    }

    [Fact]
    public async Task ATakenNameOrAFolderIsRefused()
    {
        Assert.Equal(ErrorCode.InvalidTargetPath, (await fixture.ErrAsync(Rename("Lib/Orphan.cs", "Orders.cs"))).Code);
        Assert.Equal(ErrorCode.InvalidTargetPath, (await fixture.ErrAsync(Rename("Lib/Orphan.cs", "../Orphan.cs"))).Code);
        Assert.Equal(ErrorCode.InvalidTargetPath, (await fixture.ErrAsync(Rename("Lib/Orphan.cs", "Orphan.txt"))).Code);
    }
}
