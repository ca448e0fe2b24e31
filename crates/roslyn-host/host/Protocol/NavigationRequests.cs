using System.Diagnostics;

// Navigation request payloads of `crates/protocol/src/host/messages.rs`, in the same field and variant order.
namespace RoslynMcp.Host.Protocol;

public sealed record MembersRequest(Position Position, bool IncludeExtensionMethods, bool IncludeStatic)
    : IBincode<MembersRequest>
{
    public void Encode(BincodeWriter writer)
    {
        Position.Encode(writer);
        writer.WriteBool(IncludeExtensionMethods);
        writer.WriteBool(IncludeStatic);
    }

    public static MembersRequest Decode(BincodeReader reader) =>
        new(Position.Decode(reader), reader.ReadBool(), reader.ReadBool());
}

/// <summary>
/// What a type query is about: the symbol at a position, or a type by its fully qualified name
/// (<c>Shop.Core.Services.IRepository&lt;T&gt;</c>, or the metadata name <c>Shop.Core.Services.IRepository`1</c>).
/// </summary>
public abstract record SymbolTarget : IBincode<SymbolTarget>
{
    private SymbolTarget()
    {
    }

    public sealed record At(Position Value) : SymbolTarget;

    public sealed record Named(string Value) : SymbolTarget;

    public void Encode(BincodeWriter writer)
    {
        switch (this)
        {
            case At m:
                writer.WriteVariant(0);
                m.Value.Encode(writer);
                break;
            case Named m:
                writer.WriteVariant(1);
                writer.WriteString(m.Value);
                break;
            default:
                throw new UnreachableException();
        }
    }

    public static SymbolTarget Decode(BincodeReader reader) => reader.ReadVariant() switch
    {
        0 => new At(Position.Decode(reader)),
        1 => new Named(reader.ReadString()),
        var index => throw BincodeReader.UnknownVariant(nameof(SymbolTarget), index),
    };
}

/// <summary>
/// <see cref="DerivedTypes"/>: derived classes, extending interfaces, overrides; <see cref="InterfaceImplementations"/>:
/// implementing types and members.
/// </summary>
public sealed record ImplementationsRequest(SymbolTarget Target, bool DerivedTypes, bool InterfaceImplementations)
    : IBincode<ImplementationsRequest>
{
    public void Encode(BincodeWriter writer)
    {
        Target.Encode(writer);
        writer.WriteBool(DerivedTypes);
        writer.WriteBool(InterfaceImplementations);
    }

    public static ImplementationsRequest Decode(BincodeReader reader) =>
        new(SymbolTarget.Decode(reader), reader.ReadBool(), reader.ReadBool());
}

public sealed record CallHierarchyRequest(Position Position, bool Incoming, bool Outgoing) : IBincode<CallHierarchyRequest>
{
    public void Encode(BincodeWriter writer)
    {
        Position.Encode(writer);
        writer.WriteBool(Incoming);
        writer.WriteBool(Outgoing);
    }

    public static CallHierarchyRequest Decode(BincodeReader reader) =>
        new(Position.Decode(reader), reader.ReadBool(), reader.ReadBool());
}

public sealed record DocumentRequest(string File) : IBincode<DocumentRequest>
{
    public void Encode(BincodeWriter writer) => writer.WriteString(File);

    public static DocumentRequest Decode(BincodeReader reader) => new(reader.ReadString());
}

/// <summary>A trimmed, non-empty query matched as navigate-to does (prefix, substring, camel-case humps).</summary>
public sealed record SymbolSearchRequest(string Query) : IBincode<SymbolSearchRequest>
{
    public void Encode(BincodeWriter writer) => writer.WriteString(Query);

    public static SymbolSearchRequest Decode(BincodeReader reader) => new(reader.ReadString());
}

/// <summary>A snippet inserted at <see cref="Position"/>: the file gives the project, the position the scope.</summary>
public sealed record CodeBlock(Position Position, string Code) : IBincode<CodeBlock>
{
    public void Encode(BincodeWriter writer)
    {
        Position.Encode(writer);
        writer.WriteString(Code);
    }

    public static CodeBlock Decode(BincodeReader reader) => new(Position.Decode(reader), reader.ReadString());
}
