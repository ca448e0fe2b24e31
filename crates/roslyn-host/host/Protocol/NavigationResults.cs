// Navigation answers of `crates/protocol/src/host/messages.rs`, in the same field order.
namespace RoslynMcp.Host.Protocol;

/// <summary>A symbol with its first source declaration (by path and position); none for metadata symbols.</summary>
public sealed record SymbolRef(SymbolSummary Symbol, SourceLocation? Location) : IBincode<SymbolRef>
{
    public void Encode(BincodeWriter writer)
    {
        Symbol.Encode(writer);
        writer.WriteOption(Location);
    }

    public static SymbolRef Decode(BincodeReader reader) =>
        new(SymbolSummary.Decode(reader), reader.ReadOption<SourceLocation>());
}

/// <summary>The members of <see cref="Receiver"/> accessible at a position, unsorted.</summary>
public sealed record MemberList(SymbolSummary Receiver, ValueList<Member> Members) : IBincode<MemberList>
{
    public void Encode(BincodeWriter writer)
    {
        Receiver.Encode(writer);
        writer.WriteSeq(Members);
    }

    public static MemberList Decode(BincodeReader reader) => new(SymbolSummary.Decode(reader), reader.ReadSeq<Member>());
}

/// <summary>A method, property, field, event or nested type, with its signature.</summary>
public sealed record Member(
    SymbolRef Symbol,
    string Signature,
    string DeclaringType,
    string Accessibility,
    string? Documentation,
    ValueList<Parameter> Parameters,
    string? ReturnType,
    bool IsExtension,
    bool IsStatic,
    bool IsAsync) : IBincode<Member>
{
    public void Encode(BincodeWriter writer)
    {
        Symbol.Encode(writer);
        writer.WriteString(Signature);
        writer.WriteString(DeclaringType);
        writer.WriteString(Accessibility);
        writer.WriteOption(Documentation, static (w, s) => w.WriteString(s));
        writer.WriteSeq(Parameters);
        writer.WriteOption(ReturnType, static (w, s) => w.WriteString(s));
        writer.WriteBool(IsExtension);
        writer.WriteBool(IsStatic);
        writer.WriteBool(IsAsync);
    }

    public static Member Decode(BincodeReader reader) => new(
        SymbolRef.Decode(reader),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadOption(static r => r.ReadString()),
        reader.ReadSeq<Parameter>(),
        reader.ReadOption(static r => r.ReadString()),
        reader.ReadBool(),
        reader.ReadBool(),
        reader.ReadBool());
}

public sealed record Parameter(string Name, string TypeName, string? Documentation) : IBincode<Parameter>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteString(Name);
        writer.WriteString(TypeName);
        writer.WriteOption(Documentation, static (w, s) => w.WriteString(s));
    }

    public static Parameter Decode(BincodeReader reader) =>
        new(reader.ReadString(), reader.ReadString(), reader.ReadOption(static r => r.ReadString()));
}

public sealed record ImplementationList(SymbolSummary Symbol, ValueList<Related> Implementations)
    : IBincode<ImplementationList>
{
    public void Encode(BincodeWriter writer)
    {
        Symbol.Encode(writer);
        writer.WriteSeq(Implementations);
    }

    public static ImplementationList Decode(BincodeReader reader) =>
        new(SymbolSummary.Decode(reader), reader.ReadSeq<Related>());
}

/// <summary>
/// A symbol related to the one asked about: <see cref="Relation"/> is <c>Implements</c>, <c>Derives</c> or
/// <c>Overrides</c> (implementations), <c>BaseType</c>, <c>DerivedType</c> or <c>Interface</c> (hierarchy).
/// </summary>
public sealed record Related(SymbolRef Symbol, string Relation, bool IsDirect) : IBincode<Related>
{
    public void Encode(BincodeWriter writer)
    {
        Symbol.Encode(writer);
        writer.WriteString(Relation);
        writer.WriteBool(IsDirect);
    }

    public static Related Decode(BincodeReader reader) => new(SymbolRef.Decode(reader), reader.ReadString(), reader.ReadBool());
}

public sealed record OverloadList(SymbolSummary Method, ValueList<Member> Overloads) : IBincode<OverloadList>
{
    public void Encode(BincodeWriter writer)
    {
        Method.Encode(writer);
        writer.WriteSeq(Overloads);
    }

    public static OverloadList Decode(BincodeReader reader) => new(SymbolSummary.Decode(reader), reader.ReadSeq<Member>());
}

public sealed record TypeHierarchy(
    SymbolRef Symbol,
    ValueList<Related> BaseTypes,
    ValueList<Related> DerivedTypes,
    ValueList<Related> Interfaces) : IBincode<TypeHierarchy>
{
    public void Encode(BincodeWriter writer)
    {
        Symbol.Encode(writer);
        writer.WriteSeq(BaseTypes);
        writer.WriteSeq(DerivedTypes);
        writer.WriteSeq(Interfaces);
    }

    public static TypeHierarchy Decode(BincodeReader reader) => new(
        SymbolRef.Decode(reader),
        reader.ReadSeq<Related>(),
        reader.ReadSeq<Related>(),
        reader.ReadSeq<Related>());
}

public sealed record CallHierarchy(SymbolRef Symbol, ValueList<CallGroup> Incoming, ValueList<CallGroup> Outgoing)
    : IBincode<CallHierarchy>
{
    public void Encode(BincodeWriter writer)
    {
        Symbol.Encode(writer);
        writer.WriteSeq(Incoming);
        writer.WriteSeq(Outgoing);
    }

    public static CallHierarchy Decode(BincodeReader reader) =>
        new(SymbolRef.Decode(reader), reader.ReadSeq<CallGroup>(), reader.ReadSeq<CallGroup>());
}

/// <summary>The caller (incoming) or callee (outgoing) with its call sites, sorted by path and position.</summary>
public sealed record CallGroup(SymbolRef Symbol, ValueList<SourceLocation> Sites) : IBincode<CallGroup>
{
    public void Encode(BincodeWriter writer)
    {
        Symbol.Encode(writer);
        writer.WriteSeq(Sites);
    }

    public static CallGroup Decode(BincodeReader reader) => new(SymbolRef.Decode(reader), reader.ReadSeq<SourceLocation>());
}

public sealed record DocumentSymbolList(ValueList<DocumentSymbol> Symbols) : IBincode<DocumentSymbolList>
{
    public void Encode(BincodeWriter writer) => writer.WriteSeq(Symbols);

    public static DocumentSymbolList Decode(BincodeReader reader) => new(reader.ReadSeq<DocumentSymbol>());
}

/// <summary>
/// A declaration in a document: <see cref="Range"/> is the whole declaration (attributes and doc comment
/// excluded), <see cref="Selection"/> its identifier, <see cref="Container"/> the enclosing declaration's name.
/// </summary>
public sealed record DocumentSymbol(string Name, string Kind, Span Range, Span Selection, string? Container, string Detail)
    : IBincode<DocumentSymbol>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteString(Name);
        writer.WriteString(Kind);
        Range.Encode(writer);
        Selection.Encode(writer);
        writer.WriteOption(Container, static (w, s) => w.WriteString(s));
        writer.WriteString(Detail);
    }

    public static DocumentSymbol Decode(BincodeReader reader) => new(
        reader.ReadString(),
        reader.ReadString(),
        Span.Decode(reader),
        Span.Decode(reader),
        reader.ReadOption(static r => r.ReadString()),
        reader.ReadString());
}

/// <summary>Source declarations only, one entry per declaration (partial types give several).</summary>
public sealed record SymbolMatches(ValueList<SymbolRef> Symbols) : IBincode<SymbolMatches>
{
    public void Encode(BincodeWriter writer) => writer.WriteSeq(Symbols);

    public static SymbolMatches Decode(BincodeReader reader) => new(reader.ReadSeq<SymbolRef>());
}

/// <summary>
/// What compiling a snippet found: diagnostics with positions relative to the snippet, the symbols it declares,
/// and the symbols it uses without declaring them.
/// </summary>
public sealed record CodeAnalysis(ValueList<Diagnostic> Diagnostics, ValueList<SymbolSummary> Declared, ValueList<SymbolRef> Used)
    : IBincode<CodeAnalysis>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteSeq(Diagnostics);
        writer.WriteSeq(Declared);
        writer.WriteSeq(Used);
    }

    public static CodeAnalysis Decode(BincodeReader reader) =>
        new(reader.ReadSeq<Diagnostic>(), reader.ReadSeq<SymbolSummary>(), reader.ReadSeq<SymbolRef>());
}
