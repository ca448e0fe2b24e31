namespace RoslynMcp.Host.Protocol;

// The generated record struct (Generated/Messages.g.cs) with the plain number in logs.
public readonly partial record struct RequestId
{
    public override string ToString() => Value.ToString(System.Globalization.CultureInfo.InvariantCulture);
}
