using System.Diagnostics;

// Request payloads of `crates/protocol/src/host/messages.rs`, in the same field and variant order.
namespace RoslynMcp.Host.Protocol;

public abstract record RequestBody : IBincode<RequestBody>
{
    private RequestBody()
    {
    }

    /// <summary>Open a .sln, .slnx or .csproj, restoring first when it has no assets.</summary>
    public sealed record Load(LoadRequest Value) : RequestBody;

    /// <summary>Files changed on disk: update the current solution incrementally.</summary>
    public sealed record ApplyFileChanges(FileChanges Value) : RequestBody;

    public sealed record TypeAtPosition(Position Value) : RequestBody;

    public sealed record SymbolDefinition(Position Value) : RequestBody;

    public sealed record References(ReferencesRequest Value) : RequestBody;

    public sealed record CompilationDiagnostics(DiagnosticsRequest Value) : RequestBody;

    public sealed record Ping(PingRequest Value) : RequestBody;

    /// <summary>Compute (never apply) the edits that move a type.</summary>
    public sealed record PlanMove(MoveRequest Value) : RequestBody;

    /// <summary>Members accessible at a position on the type of the expression, variable or type name there.</summary>
    public sealed record Members(MembersRequest Value) : RequestBody;

    /// <summary>Types implementing or deriving from a type, or members implementing or overriding a member.</summary>
    public sealed record Implementations(ImplementationsRequest Value) : RequestBody;

    /// <summary>Every overload of the method at a position.</summary>
    public sealed record Overloads(Position Value) : RequestBody;

    /// <summary>Base types, derived types and interfaces of a type.</summary>
    public sealed record TypeHierarchy(SymbolTarget Value) : RequestBody;

    /// <summary>Calls into and out of the member at a position.</summary>
    public sealed record CallHierarchy(CallHierarchyRequest Value) : RequestBody;

    /// <summary>Every declaration in one document, flattened.</summary>
    public sealed record DocumentSymbols(DocumentRequest Value) : RequestBody;

    /// <summary>Source declarations of the whole solution whose name matches a query.</summary>
    public sealed record SearchSymbols(SymbolSearchRequest Value) : RequestBody;

    /// <summary>Compile a snippet inserted at a position, without changing the solution.</summary>
    public sealed record AnalyzeCode(CodeBlock Value) : RequestBody;

    public void Encode(BincodeWriter writer)
    {
        switch (this)
        {
            case Load m:
                writer.WriteVariant(0);
                m.Value.Encode(writer);
                break;
            case ApplyFileChanges m:
                writer.WriteVariant(1);
                m.Value.Encode(writer);
                break;
            case TypeAtPosition m:
                writer.WriteVariant(2);
                m.Value.Encode(writer);
                break;
            case SymbolDefinition m:
                writer.WriteVariant(3);
                m.Value.Encode(writer);
                break;
            case References m:
                writer.WriteVariant(4);
                m.Value.Encode(writer);
                break;
            case CompilationDiagnostics m:
                writer.WriteVariant(5);
                m.Value.Encode(writer);
                break;
            case Ping m:
                writer.WriteVariant(6);
                m.Value.Encode(writer);
                break;
            case PlanMove m:
                writer.WriteVariant(7);
                m.Value.Encode(writer);
                break;
            case Members m:
                writer.WriteVariant(8);
                m.Value.Encode(writer);
                break;
            case Implementations m:
                writer.WriteVariant(9);
                m.Value.Encode(writer);
                break;
            case Overloads m:
                writer.WriteVariant(10);
                m.Value.Encode(writer);
                break;
            case TypeHierarchy m:
                writer.WriteVariant(11);
                m.Value.Encode(writer);
                break;
            case CallHierarchy m:
                writer.WriteVariant(12);
                m.Value.Encode(writer);
                break;
            case DocumentSymbols m:
                writer.WriteVariant(13);
                m.Value.Encode(writer);
                break;
            case SearchSymbols m:
                writer.WriteVariant(14);
                m.Value.Encode(writer);
                break;
            case AnalyzeCode m:
                writer.WriteVariant(15);
                m.Value.Encode(writer);
                break;
            default:
                throw new UnreachableException();
        }
    }

    public static RequestBody Decode(BincodeReader reader) => reader.ReadVariant() switch
    {
        0 => new Load(LoadRequest.Decode(reader)),
        1 => new ApplyFileChanges(FileChanges.Decode(reader)),
        2 => new TypeAtPosition(Position.Decode(reader)),
        3 => new SymbolDefinition(Position.Decode(reader)),
        4 => new References(ReferencesRequest.Decode(reader)),
        5 => new CompilationDiagnostics(DiagnosticsRequest.Decode(reader)),
        6 => new Ping(PingRequest.Decode(reader)),
        7 => new PlanMove(MoveRequest.Decode(reader)),
        8 => new Members(MembersRequest.Decode(reader)),
        9 => new Implementations(ImplementationsRequest.Decode(reader)),
        10 => new Overloads(Position.Decode(reader)),
        11 => new TypeHierarchy(SymbolTarget.Decode(reader)),
        12 => new CallHierarchy(CallHierarchyRequest.Decode(reader)),
        13 => new DocumentSymbols(DocumentRequest.Decode(reader)),
        14 => new SearchSymbols(SymbolSearchRequest.Decode(reader)),
        15 => new AnalyzeCode(CodeBlock.Decode(reader)),
        var index => throw BincodeReader.UnknownVariant(nameof(RequestBody), index),
    };
}

public sealed record LoadRequest(string SolutionPath) : IBincode<LoadRequest>
{
    public void Encode(BincodeWriter writer) => writer.WriteString(SolutionPath);

    public static LoadRequest Decode(BincodeReader reader) => new(reader.ReadString());
}

public sealed record FileChanges(ValueList<string> Changed, ValueList<string> Removed) : IBincode<FileChanges>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteStrings(Changed);
        writer.WriteStrings(Removed);
    }

    public static FileChanges Decode(BincodeReader reader) => new(reader.ReadStrings(), reader.ReadStrings());
}

/// <summary>A 1-based line and column (UTF-16 code units) in an absolute file path.</summary>
public sealed record Position(string File, uint Line, uint Column) : IBincode<Position>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteString(File);
        writer.WriteU32(Line);
        writer.WriteU32(Column);
    }

    public static Position Decode(BincodeReader reader) => new(reader.ReadString(), reader.ReadU32(), reader.ReadU32());
}

public sealed record ReferencesRequest(Position Position, bool IncludeDeclaration) : IBincode<ReferencesRequest>
{
    public void Encode(BincodeWriter writer)
    {
        Position.Encode(writer);
        writer.WriteBool(IncludeDeclaration);
    }

    public static ReferencesRequest Decode(BincodeReader reader) => new(Position.Decode(reader), reader.ReadBool());
}

/// <summary>Ordered: a minimum severity keeps everything at or above it.</summary>
public enum Severity : uint
{
    Hidden = 0,
    Info = 1,
    Warning = 2,
    Error = 3,
}

public static class SeverityCodec
{
    public static void Encode(BincodeWriter writer, Severity severity) => writer.WriteVariant((uint)severity);

    public static Severity Decode(BincodeReader reader)
    {
        var index = reader.ReadVariant();
        return index <= (uint)Severity.Error ? (Severity)index : throw BincodeReader.UnknownVariant(nameof(Severity), index);
    }
}

/// <summary>
/// One document (<see cref="File"/>), else one project (<see cref="Project"/>: a name or an absolute project file
/// path), else the whole solution.
/// </summary>
public sealed record DiagnosticsRequest(string? File, string? Project, Severity MinSeverity) : IBincode<DiagnosticsRequest>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteOption(File, static (w, file) => w.WriteString(file));
        writer.WriteOption(Project, static (w, project) => w.WriteString(project));
        SeverityCodec.Encode(writer, MinSeverity);
    }

    public static DiagnosticsRequest Decode(BincodeReader reader) => new(
        reader.ReadOption(static r => r.ReadString()),
        reader.ReadOption(static r => r.ReadString()),
        SeverityCodec.Decode(reader));
}

public sealed record PingRequest(uint DelayMs) : IBincode<PingRequest>
{
    public void Encode(BincodeWriter writer) => writer.WriteU32(DelayMs);

    public static PingRequest Decode(BincodeReader reader) => new(reader.ReadU32());
}

/// <summary>Move a type, named simply or fully qualified, declared in <see cref="SourceFile"/>.</summary>
public sealed record MoveRequest(string SourceFile, string SymbolName, uint? Line, MoveDestination Destination)
    : IBincode<MoveRequest>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteString(SourceFile);
        writer.WriteString(SymbolName);
        writer.WriteOptionU32(Line);
        Destination.Encode(writer);
    }

    public static MoveRequest Decode(BincodeReader reader) => new(
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadOptionU32(),
        MoveDestination.Decode(reader));
}

public abstract record MoveDestination : IBincode<MoveDestination>
{
    private MoveDestination()
    {
    }

    public sealed record File(FileDestination Value) : MoveDestination;

    public sealed record Namespace(NamespaceDestination Value) : MoveDestination;

    public void Encode(BincodeWriter writer)
    {
        switch (this)
        {
            case File m:
                writer.WriteVariant(0);
                m.Value.Encode(writer);
                break;
            case Namespace m:
                writer.WriteVariant(1);
                m.Value.Encode(writer);
                break;
            default:
                throw new UnreachableException();
        }
    }

    public static MoveDestination Decode(BincodeReader reader) => reader.ReadVariant() switch
    {
        0 => new File(FileDestination.Decode(reader)),
        1 => new Namespace(NamespaceDestination.Decode(reader)),
        var index => throw BincodeReader.UnknownVariant(nameof(MoveDestination), index),
    };
}

public sealed record FileDestination(string TargetFile, bool CreateTargetFile) : IBincode<FileDestination>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteString(TargetFile);
        writer.WriteBool(CreateTargetFile);
    }

    public static FileDestination Decode(BincodeReader reader) => new(reader.ReadString(), reader.ReadBool());
}

public sealed record NamespaceDestination(string TargetNamespace, bool UpdateFileLocation) : IBincode<NamespaceDestination>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteString(TargetNamespace);
        writer.WriteBool(UpdateFileLocation);
    }

    public static NamespaceDestination Decode(BincodeReader reader) => new(reader.ReadString(), reader.ReadBool());
}
