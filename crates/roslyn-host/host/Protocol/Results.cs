using System.Diagnostics;

// Answer payloads of `crates/protocol/src/host/messages.rs`, in the same field and variant order.
namespace RoslynMcp.Host.Protocol;

public abstract record ResponseBody : IBincode<ResponseBody>
{
    private ResponseBody()
    {
    }

    public sealed record Loaded(WorkspaceSummary Value) : ResponseBody;

    public sealed record FileChangesApplied(WorkspaceSummary Value) : ResponseBody;

    public sealed record TypeAtPosition(TypeInfo Value) : ResponseBody;

    public sealed record SymbolDefinition(DefinitionInfo Value) : ResponseBody;

    public sealed record References(ReferenceList Value) : ResponseBody;

    public sealed record CompilationDiagnostics(DiagnosticList Value) : ResponseBody;

    public sealed record Pong : ResponseBody;

    public sealed record MovePlan(Protocol.MovePlan Value) : ResponseBody;

    public sealed record Members(MemberList Value) : ResponseBody;

    public sealed record Implementations(ImplementationList Value) : ResponseBody;

    public sealed record Overloads(OverloadList Value) : ResponseBody;

    public sealed record TypeHierarchy(Protocol.TypeHierarchy Value) : ResponseBody;

    public sealed record CallHierarchy(Protocol.CallHierarchy Value) : ResponseBody;

    public sealed record DocumentSymbols(DocumentSymbolList Value) : ResponseBody;

    public sealed record SearchSymbols(SymbolMatches Value) : ResponseBody;

    public sealed record CodeAnalysis(Protocol.CodeAnalysis Value) : ResponseBody;

    public void Encode(BincodeWriter writer)
    {
        switch (this)
        {
            case Loaded m:
                writer.WriteVariant(0);
                m.Value.Encode(writer);
                break;
            case FileChangesApplied m:
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
            case Pong:
                writer.WriteVariant(6);
                break;
            case MovePlan m:
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
            case CodeAnalysis m:
                writer.WriteVariant(15);
                m.Value.Encode(writer);
                break;
            default:
                throw new UnreachableException();
        }
    }

    public static ResponseBody Decode(BincodeReader reader) => reader.ReadVariant() switch
    {
        0 => new Loaded(WorkspaceSummary.Decode(reader)),
        1 => new FileChangesApplied(WorkspaceSummary.Decode(reader)),
        2 => new TypeAtPosition(TypeInfo.Decode(reader)),
        3 => new SymbolDefinition(DefinitionInfo.Decode(reader)),
        4 => new References(ReferenceList.Decode(reader)),
        5 => new CompilationDiagnostics(DiagnosticList.Decode(reader)),
        6 => new Pong(),
        7 => new MovePlan(Protocol.MovePlan.Decode(reader)),
        8 => new Members(MemberList.Decode(reader)),
        9 => new Implementations(ImplementationList.Decode(reader)),
        10 => new Overloads(OverloadList.Decode(reader)),
        11 => new TypeHierarchy(Protocol.TypeHierarchy.Decode(reader)),
        12 => new CallHierarchy(Protocol.CallHierarchy.Decode(reader)),
        13 => new DocumentSymbols(DocumentSymbolList.Decode(reader)),
        14 => new SearchSymbols(SymbolMatches.Decode(reader)),
        15 => new CodeAnalysis(Protocol.CodeAnalysis.Decode(reader)),
        var index => throw BincodeReader.UnknownVariant(nameof(ResponseBody), index),
    };
}

public sealed record WorkspaceSummary(
    string SolutionPath,
    ValueList<ProjectSummary> Projects,
    ValueList<WorkspaceDiagnostic> WorkspaceDiagnostics) : IBincode<WorkspaceSummary>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteString(SolutionPath);
        writer.WriteSeq(Projects);
        writer.WriteSeq(WorkspaceDiagnostics);
    }

    public static WorkspaceSummary Decode(BincodeReader reader) =>
        new(reader.ReadString(), reader.ReadSeq<ProjectSummary>(), reader.ReadSeq<WorkspaceDiagnostic>());
}

public sealed record ProjectSummary(
    string Name,
    string FilePath,
    string AssemblyName,
    ValueList<string> TargetFrameworks,
    uint DocumentCount,
    ValueList<string> ProjectReferences) : IBincode<ProjectSummary>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteString(Name);
        writer.WriteString(FilePath);
        writer.WriteString(AssemblyName);
        writer.WriteStrings(TargetFrameworks);
        writer.WriteU32(DocumentCount);
        writer.WriteStrings(ProjectReferences);
    }

    public static ProjectSummary Decode(BincodeReader reader) => new(
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadStrings(),
        reader.ReadU32(),
        reader.ReadStrings());
}

/// <summary>What MSBuildWorkspace reported while loading; <see cref="Kind"/> is <c>Failure</c> or <c>Warning</c>.</summary>
public sealed record WorkspaceDiagnostic(string Kind, string Message) : IBincode<WorkspaceDiagnostic>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteString(Kind);
        writer.WriteString(Message);
    }

    public static WorkspaceDiagnostic Decode(BincodeReader reader) => new(reader.ReadString(), reader.ReadString());
}

/// <summary>A range in a source file, 1-based; the end is exclusive.</summary>
public sealed record Span(string File, uint StartLine, uint StartColumn, uint EndLine, uint EndColumn) : IBincode<Span>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteString(File);
        writer.WriteU32(StartLine);
        writer.WriteU32(StartColumn);
        writer.WriteU32(EndLine);
        writer.WriteU32(EndColumn);
    }

    public static Span Decode(BincodeReader reader) =>
        new(reader.ReadString(), reader.ReadU32(), reader.ReadU32(), reader.ReadU32(), reader.ReadU32());
}

public sealed record SymbolSummary(
    string Name,
    string Kind,
    string Display,
    string? ContainingType,
    string? ContainingNamespace,
    string Assembly,
    bool IsMetadata,
    string Key) : IBincode<SymbolSummary>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteString(Name);
        writer.WriteString(Kind);
        writer.WriteString(Display);
        writer.WriteOption(ContainingType, static (w, s) => w.WriteString(s));
        writer.WriteOption(ContainingNamespace, static (w, s) => w.WriteString(s));
        writer.WriteString(Assembly);
        writer.WriteBool(IsMetadata);
        writer.WriteString(Key);
    }

    public static SymbolSummary Decode(BincodeReader reader) => new(
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadOption(static r => r.ReadString()),
        reader.ReadOption(static r => r.ReadString()),
        reader.ReadString(),
        reader.ReadBool(),
        reader.ReadString());
}

public sealed record TypeInfo(
    SymbolSummary Symbol,
    string TypeName,
    string FullTypeName,
    string Kind,
    string Assembly,
    string Namespace,
    string? Documentation,
    bool IsGeneric,
    ValueList<string> TypeArguments,
    string? BaseType,
    ValueList<string> Interfaces,
    ValueList<SourceLocation> Declarations) : IBincode<TypeInfo>
{
    public void Encode(BincodeWriter writer)
    {
        Symbol.Encode(writer);
        writer.WriteString(TypeName);
        writer.WriteString(FullTypeName);
        writer.WriteString(Kind);
        writer.WriteString(Assembly);
        writer.WriteString(Namespace);
        writer.WriteOption(Documentation, static (w, s) => w.WriteString(s));
        writer.WriteBool(IsGeneric);
        writer.WriteStrings(TypeArguments);
        writer.WriteOption(BaseType, static (w, s) => w.WriteString(s));
        writer.WriteStrings(Interfaces);
        writer.WriteSeq(Declarations);
    }

    public static TypeInfo Decode(BincodeReader reader) => new(
        SymbolSummary.Decode(reader),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadOption(static r => r.ReadString()),
        reader.ReadBool(),
        reader.ReadStrings(),
        reader.ReadOption(static r => r.ReadString()),
        reader.ReadStrings(),
        reader.ReadSeq<SourceLocation>());
}

public sealed record DefinitionInfo(SymbolSummary Symbol, ValueList<SourceLocation> Locations) : IBincode<DefinitionInfo>
{
    public void Encode(BincodeWriter writer)
    {
        Symbol.Encode(writer);
        writer.WriteSeq(Locations);
    }

    public static DefinitionInfo Decode(BincodeReader reader) =>
        new(SymbolSummary.Decode(reader), reader.ReadSeq<SourceLocation>());
}

public sealed record SourceLocation(Span Span, string LineText) : IBincode<SourceLocation>
{
    public void Encode(BincodeWriter writer)
    {
        Span.Encode(writer);
        writer.WriteString(LineText);
    }

    public static SourceLocation Decode(BincodeReader reader) => new(Span.Decode(reader), reader.ReadString());
}

public sealed record ReferenceList(SymbolSummary Symbol, ValueList<Reference> References) : IBincode<ReferenceList>
{
    public void Encode(BincodeWriter writer)
    {
        Symbol.Encode(writer);
        writer.WriteSeq(References);
    }

    public static ReferenceList Decode(BincodeReader reader) =>
        new(SymbolSummary.Decode(reader), reader.ReadSeq<Reference>());
}

public sealed record Reference(Span Span, string LineText, string Kind, string Project) : IBincode<Reference>
{
    public void Encode(BincodeWriter writer)
    {
        Span.Encode(writer);
        writer.WriteString(LineText);
        writer.WriteString(Kind);
        writer.WriteString(Project);
    }

    public static Reference Decode(BincodeReader reader) =>
        new(Span.Decode(reader), reader.ReadString(), reader.ReadString(), reader.ReadString());
}

public sealed record DiagnosticList(ValueList<Diagnostic> Diagnostics) : IBincode<DiagnosticList>
{
    public void Encode(BincodeWriter writer) => writer.WriteSeq(Diagnostics);

    public static DiagnosticList Decode(BincodeReader reader) => new(reader.ReadSeq<Diagnostic>());
}

/// <summary>A compiler diagnostic; <see cref="ProjectPath"/> is the project file.</summary>
public sealed record Diagnostic(
    string Id,
    Severity Severity,
    string Message,
    string Project,
    string ProjectPath,
    Span? Location) : IBincode<Diagnostic>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteString(Id);
        SeverityCodec.Encode(writer, Severity);
        writer.WriteString(Message);
        writer.WriteString(Project);
        writer.WriteString(ProjectPath);
        writer.WriteOption(Location);
    }

    public static Diagnostic Decode(BincodeReader reader) => new(
        reader.ReadString(),
        SeverityCodec.Decode(reader),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadOption<Span>());
}

/// <summary>The whole effect of a move as file edits, checked to compile without new errors.</summary>
public sealed record MovePlan(
    MovedSymbol Symbol,
    ValueList<FileEdit> Edits,
    uint ReferencesUpdated,
    uint UsingsAdded,
    uint UsingsRemoved) : IBincode<MovePlan>
{
    public void Encode(BincodeWriter writer)
    {
        Symbol.Encode(writer);
        writer.WriteSeq(Edits);
        writer.WriteU32(ReferencesUpdated);
        writer.WriteU32(UsingsAdded);
        writer.WriteU32(UsingsRemoved);
    }

    public static MovePlan Decode(BincodeReader reader) => new(
        MovedSymbol.Decode(reader),
        reader.ReadSeq<FileEdit>(),
        reader.ReadU32(),
        reader.ReadU32(),
        reader.ReadU32());
}

public sealed record MovedSymbol(
    string Name,
    string Kind,
    string PreviousFullyQualifiedName,
    string FullyQualifiedName,
    string PreviousNamespace,
    string NewNamespace,
    Position PreviousLocation,
    Position NewLocation) : IBincode<MovedSymbol>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteString(Name);
        writer.WriteString(Kind);
        writer.WriteString(PreviousFullyQualifiedName);
        writer.WriteString(FullyQualifiedName);
        writer.WriteString(PreviousNamespace);
        writer.WriteString(NewNamespace);
        PreviousLocation.Encode(writer);
        NewLocation.Encode(writer);
    }

    public static MovedSymbol Decode(BincodeReader reader) => new(
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadString(),
        Position.Decode(reader),
        Position.Decode(reader));
}

public enum EditKind : uint
{
    Modify = 0,
    Create = 1,
    Delete = 2,
}

public static class EditKindCodec
{
    public static void Encode(BincodeWriter writer, EditKind kind) => writer.WriteVariant((uint)kind);

    public static EditKind Decode(BincodeReader reader)
    {
        var index = reader.ReadVariant();
        return index <= (uint)EditKind.Delete ? (EditKind)index : throw BincodeReader.UnknownVariant(nameof(EditKind), index);
    }
}

/// <summary>One file's edit: <see cref="BaseSha256"/> is empty for Create, <see cref="NewText"/> for Delete.</summary>
public sealed record FileEdit(string Path, EditKind Kind, string BaseSha256, string NewText, string Description)
    : IBincode<FileEdit>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteString(Path);
        EditKindCodec.Encode(writer, Kind);
        writer.WriteString(BaseSha256);
        writer.WriteString(NewText);
        writer.WriteString(Description);
    }

    public static FileEdit Decode(BincodeReader reader) => new(
        reader.ReadString(),
        EditKindCodec.Decode(reader),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadString());
}
