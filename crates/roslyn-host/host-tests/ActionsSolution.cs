namespace RoslynMcp.Host.Tests;

/// <summary>The Actions fixture (its FIXTURE.md lists each action and where it is offered).</summary>
public sealed class ActionsSolution() : LoadedSolution("Actions", "Actions.sln");

[CollectionDefinition(Name)]
public sealed class ActionsCollection : ICollectionFixture<ActionsSolution>
{
    public const string Name = "Actions";
}
