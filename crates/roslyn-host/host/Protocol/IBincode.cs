namespace RoslynMcp.Host.Protocol;

/// <summary>A protocol type: encodes its fields in declaration order, as bincode's derive does.</summary>
public interface IBincode<TSelf>
    where TSelf : IBincode<TSelf>
{
    void Encode(BincodeWriter writer);

    static abstract TSelf Decode(BincodeReader reader);
}
