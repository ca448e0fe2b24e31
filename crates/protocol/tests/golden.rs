//! Golden byte vectors of the host protocol, shared with the C# host's tests. The values are declared here
//! only: `vectors.txt` records each one's `Debug` text, from which `cargo xtask codegen` writes the C# side's.
//! `UPDATE_GOLDEN=1 cargo test -p protocol --test golden` rewrites them after a deliberate protocol change.

use protocol::ErrorCode;
use protocol::host::*;
use std::path::PathBuf;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden/host-protocol")
}

fn span(file: &str, line: u32, column: u32, end_column: u32) -> Span {
    Span { file: file.into(), start_line: line, start_column: column, end_line: line, end_column }
}

fn symbol() -> SymbolSummary {
    SymbolSummary {
        name: "Calculate".into(),
        kind: "Method".into(),
        display: "Shop.Core.Services.PriceCalculator.Calculate(decimal)".into(),
        containing_type: Some("Shop.Core.Services.PriceCalculator".into()),
        containing_namespace: Some("Shop.Core.Services".into()),
        assembly: "Shop.Core".into(),
        is_metadata: false,
        key: "M:Shop.Core.Services.PriceCalculator.Calculate(System.Decimal)".into(),
    }
}

fn symbol_ref() -> SymbolRef {
    SymbolRef {
        symbol: symbol(),
        location: Some(SourceLocation {
            span: span("/work/Shop/src/Shop.Core/Services/PriceCalculator.cs", 12, 24, 33),
            line_text: "public decimal Calculate(decimal price)".into(),
        }),
    }
}

fn metadata_ref() -> SymbolRef {
    SymbolRef {
        symbol: SymbolSummary {
            name: "Object".into(),
            kind: "Class".into(),
            display: "object".into(),
            containing_type: None,
            containing_namespace: Some("System".into()),
            assembly: "System.Runtime".into(),
            is_metadata: true,
            key: "T:System.Object".into(),
        },
        location: None,
    }
}

fn member() -> Member {
    Member {
        symbol: symbol_ref(),
        signature: "decimal Calculate(decimal price)".into(),
        declaring_type: "Shop.Core.Services.PriceCalculator".into(),
        accessibility: Accessibility::ProtectedInternal,
        documentation: Some("Price with tax.".into()),
        parameters: vec![Parameter { name: "price".into(), type_name: "decimal".into(), documentation: None }],
        return_type: Some("decimal".into()),
        is_extension: false,
        is_static: false,
        is_async: true,
    }
}

fn request(id: u64, body: RequestBody) -> BrokerMessage {
    BrokerMessage::Request(HostRequest { id: RequestId(id), body })
}

fn response(id: u64, outcome: Outcome) -> HostMessage {
    HostMessage::Response(HostResponse { id: RequestId(id), host_micros: 1234, workspace_version: 3, outcome })
}

/// Each vector exercises a different encoding rule: varint widths (1, 3, 5 and 9 bytes), options, nested
/// enums, empty and non-ASCII strings, empty and non-empty sequences.
fn broker_vectors() -> Vec<(&'static str, BrokerMessage)> {
    let position = Position { file: "/w/Ünïcode.cs".into(), line: 70_000, column: 12 };
    vec![
        ("broker_hello", BrokerMessage::Hello(BrokerHello { protocol_version: PROTOCOL_VERSION })),
        ("broker_load", request(1, RequestBody::Load(LoadRequest { solution_path: "/work/Shop/Shop.sln".into() }))),
        (
            "broker_file_changes",
            request(
                2,
                RequestBody::ApplyFileChanges(FileChanges {
                    changed: vec!["/w/a.cs".into(), "/w/b.csproj".into()],
                    removed: vec![],
                }),
            ),
        ),
        ("broker_type_at_position", request(250, RequestBody::TypeAtPosition(position.clone()))),
        ("broker_symbol_definition", request(251, RequestBody::SymbolDefinition(position.clone()))),
        (
            "broker_references",
            request(
                65_536,
                RequestBody::References(ReferencesRequest { position: position.clone(), include_declaration: true }),
            ),
        ),
        (
            "broker_diagnostics_file",
            request(
                5_000_000_000,
                RequestBody::CompilationDiagnostics(DiagnosticsRequest {
                    file: Some("/w/a.cs".into()),
                    project: None,
                    min_severity: Severity::Warning,
                    include_analyzers: false,
                }),
            ),
        ),
        (
            "broker_diagnostics_solution",
            request(
                u64::MAX,
                RequestBody::CompilationDiagnostics(DiagnosticsRequest {
                    file: None,
                    project: Some("Shop.Core".into()),
                    min_severity: Severity::Hidden,
                    include_analyzers: true,
                }),
            ),
        ),
        ("broker_ping", request(3, RequestBody::Ping(PingRequest { delay_ms: 0 }))),
        (
            "broker_plan_move_file",
            request(
                8,
                RequestBody::PlanMove(MoveRequest {
                    source_file: "/w/Models/Order.cs".into(),
                    symbol_name: "Shop.Core.Models.Order".into(),
                    line: Some(12),
                    destination: MoveDestination::File(FileDestination {
                        target_file: "/w/Models/Ordering/Order.cs".into(),
                        create_target_file: true,
                    }),
                }),
            ),
        ),
        (
            "broker_plan_move_namespace",
            request(
                9,
                RequestBody::PlanMove(MoveRequest {
                    source_file: "/w/Money.cs".into(),
                    symbol_name: "Money".into(),
                    line: None,
                    destination: MoveDestination::Namespace(NamespaceDestination {
                        target_namespace: "Shop.Core.Pricing".into(),
                        update_file_location: false,
                    }),
                }),
            ),
        ),
        (
            "broker_members",
            request(
                10,
                RequestBody::Members(MembersRequest {
                    position: position.clone(),
                    include_extension_methods: true,
                    include_static: false,
                }),
            ),
        ),
        (
            "broker_implementations",
            request(
                11,
                RequestBody::Implementations(ImplementationsRequest {
                    target: SymbolTarget::Named("Shop.Core.Services.IRepository<T>".into()),
                    derived_types: false,
                    interface_implementations: true,
                }),
            ),
        ),
        ("broker_overloads", request(12, RequestBody::Overloads(position.clone()))),
        ("broker_type_hierarchy", request(13, RequestBody::TypeHierarchy(SymbolTarget::At(position.clone())))),
        (
            "broker_call_hierarchy",
            request(
                14,
                RequestBody::CallHierarchy(CallHierarchyRequest {
                    position: position.clone(),
                    incoming: true,
                    outgoing: false,
                }),
            ),
        ),
        (
            "broker_document_symbols",
            request(15, RequestBody::DocumentSymbols(DocumentRequest { file: "/w/a.cs".into() })),
        ),
        (
            "broker_search_symbols",
            request(16, RequestBody::SearchSymbols(SymbolSearchRequest { query: "Cust".into() })),
        ),
        (
            "broker_analyze_code",
            request(
                17,
                RequestBody::AnalyzeCode(CodeBlock {
                    position: position.clone(),
                    code: "var total = calculator.Calculate(10m);\n".into(),
                }),
            ),
        ),
        (
            "broker_plan_rename",
            request(
                18,
                RequestBody::PlanRename(RenameRequest {
                    position: position.clone(),
                    new_name: "Purchase".into(),
                    rename_overloads: true,
                    rename_in_comments: false,
                    rename_in_strings: true,
                    rename_file: true,
                }),
            ),
        ),
        (
            "broker_plan_organize_usings",
            request(
                19,
                RequestBody::PlanOrganizeUsings(OrganizeUsingsRequest {
                    file: None,
                    project: Some("Shop.Core".into()),
                    remove_unused: true,
                    sort: false,
                }),
            ),
        ),
        (
            "broker_code_actions",
            request(20, RequestBody::CodeActions(CodeActionsRequest { span: span("/w/a.cs", 4, 9, 30) })),
        ),
        (
            "broker_plan_code_action",
            request(
                21,
                RequestBody::PlanCodeAction(Box::new(CodeActionRequest {
                    span: span("/w/a.cs", 4, 9, 9),
                    workspace_version: 300,
                    kind: CodeActionKind::Fix,
                    provider: "CSharpAddImportCodeFixProvider".into(),
                    path: vec!["using System.Text;".into()],
                    diagnostic_id: "CS0246".into(),
                    fix_all: Some(FixAllScope::Project),
                    options: ActionOptions::None,
                })),
            ),
        ),
        (
            "broker_plan_extract_interface",
            request(
                22,
                RequestBody::PlanCodeAction(Box::new(CodeActionRequest {
                    span: span("/w/Order.cs", 3, 14, 14),
                    workspace_version: 0,
                    kind: CodeActionKind::Refactoring,
                    provider: "ExtractInterfaceCodeRefactoringProvider".into(),
                    path: vec!["Extract interface...".into()],
                    diagnostic_id: String::new(),
                    fix_all: None,
                    options: ActionOptions::ExtractInterface(ExtractInterfaceOptions {
                        interface_name: "IOrder".into(),
                        file_name: "IOrder.cs".into(),
                        same_file: false,
                        members: vec!["Total".into(), "Add".into()],
                    }),
                })),
            ),
        ),
        (
            "broker_plan_format",
            request(
                23,
                RequestBody::PlanFormat(FormatRequest {
                    file: Some("/w/a.cs".into()),
                    project: None,
                    lines: Some(LineRange { start_line: 3, end_line: 40 }),
                }),
            ),
        ),
        (
            "broker_plan_find_replace",
            request(
                24,
                RequestBody::PlanFindReplace(FindReplaceRequest {
                    pattern: r"Get(\w+)Async".into(),
                    replacement: "Fetch$1Async".into(),
                    regex: true,
                    case_sensitive: true,
                    whole_word: false,
                    include: Some("**/*.cs".into()),
                    project: None,
                    include_other_files: true,
                }),
            ),
        ),
        (
            "broker_plan_remove_unused",
            request(
                25,
                RequestBody::PlanRemoveUnused(RemoveUnusedRequest {
                    file: None,
                    project: Some("Shop.Core".into()),
                    kinds: vec![UnusedKind::Members, UnusedKind::Usings],
                    include_public: false,
                }),
            ),
        ),
        ("broker_warm_up", request(26, RequestBody::WarmUp(WarmUpRequest { project: "Shop.Core".into() }))),
        (
            "broker_find_tests_symbol",
            request(
                27,
                RequestBody::FindTests(FindTestsRequest {
                    origin: ChangeOrigin::Symbol(Position { file: "/w/Pricer.cs".into(), line: 12, column: 20 }),
                    project: Some("Pricing.XunitTests".into()),
                }),
            ),
        ),
        (
            "broker_find_tests_lines",
            request(
                28,
                RequestBody::FindTests(FindTestsRequest {
                    origin: ChangeOrigin::Lines(vec![ChangedLines {
                        file: "/w/Pricer.cs".into(),
                        ranges: vec![
                            LineRange { start_line: 3, end_line: 5 },
                            LineRange { start_line: 9, end_line: 8 },
                        ],
                    }]),
                    project: None,
                }),
            ),
        ),
        (
            "broker_plan_change_signature",
            request(
                30,
                RequestBody::PlanChangeSignature(ChangeSignatureRequest {
                    position: Position { file: "/w/Pricing.cs".into(), line: 10, column: 28 },
                    parameters: vec![
                        SignatureParameter {
                            name: "unitPrice".into(),
                            new_name: "price".into(),
                            new_type: "double".into(),
                            added: None,
                        },
                        SignatureParameter {
                            name: "currency".into(),
                            new_name: String::new(),
                            new_type: String::new(),
                            added: Some(AddedParameter {
                                type_name: "string".into(),
                                default_value: "\"EUR\"".into(),
                                argument: "\"USD\"".into(),
                                named: true,
                            }),
                        },
                    ],
                }),
            ),
        ),
        (
            "broker_plan_safe_delete_symbol",
            request(
                31,
                RequestBody::PlanSafeDelete(SafeDeleteRequest {
                    target: DeleteTarget::Symbol(Position { file: "/w/Pricing.cs".into(), line: 21, column: 20 }),
                    include_public: false,
                }),
            ),
        ),
        (
            "broker_plan_safe_delete_file",
            request(
                32,
                RequestBody::PlanSafeDelete(SafeDeleteRequest {
                    target: DeleteTarget::File("/w/Old.cs".into()),
                    include_public: true,
                }),
            ),
        ),
        (
            "broker_plan_rename_file",
            request(
                33,
                RequestBody::PlanRenameFile(RenameFileRequest {
                    file: "/w/Order.cs".into(),
                    new_name: "Purchase.cs".into(),
                }),
            ),
        ),
        (
            "broker_plan_sync_namespaces",
            request(
                34,
                RequestBody::PlanSyncNamespaces(SyncNamespacesRequest {
                    project: Some("Lib".into()),
                    folder: Some("/w/Lib/Models".into()),
                }),
            ),
        ),
        (
            "broker_plan_move_files",
            request(
                35,
                RequestBody::PlanMoveFiles(MoveFilesRequest {
                    files: vec![],
                    folder: Some("/w/Lib/Parsing".into()),
                    destination: "/w/Tools/Parsing".into(),
                    keep_namespaces: false,
                }),
            ),
        ),
        (
            "broker_project_graph",
            request(36, RequestBody::ProjectGraph(ProjectGraphRequest { project: Some("Core".into()), unused: true })),
        ),
        (
            "broker_public_api",
            request(
                37,
                RequestBody::PublicApi(PublicApiRequest {
                    project: "Core".into(),
                    files: Some(vec![SourceFile { path: "/w/Core/A.cs".into(), text: "public class A {}".into() }]),
                }),
            ),
        ),
        (
            "broker_read_source",
            request(
                38,
                RequestBody::ReadSource(ReadSourceRequest {
                    path: "roslyn-mcp://generated/App/Gen.Regex/R.g.cs".into(),
                }),
            ),
        ),
        (
            "broker_generated_documents",
            request(39, RequestBody::GeneratedDocuments(ProjectRequest { project: "App".into() })),
        ),
        (
            "broker_symbol_sources",
            request(
                40,
                RequestBody::SymbolSources(SymbolSourcesRequest {
                    names: vec!["Shop.Cart".into(), "Shop.Nope".into()],
                    signatures_only: true,
                }),
            ),
        ),
        (
            "broker_find_tests_named",
            request(
                29,
                RequestBody::FindTests(FindTestsRequest {
                    origin: ChangeOrigin::Tests(vec!["Pricing.XunitTests.CartTests.TotalAsksThePricer".into()]),
                    project: None,
                }),
            ),
        ),
        (
            "broker_use_generators",
            request(
                42,
                RequestBody::UseGenerators(UseGeneratorsRequest {
                    builds: vec![GeneratorBuild {
                        assembly: "/w/Stubs/bin/Debug/netstandard2.0/Stubs.dll".into(),
                        built: "/state/generators/1f/Stubs.dll".into(),
                        sources_read_ms: 1_765_000_000_000,
                    }],
                }),
            ),
        ),
        (
            "broker_check_edits",
            request(
                41,
                RequestBody::CheckEdits(CheckEditsRequest {
                    edits: vec![FileEdit {
                        path: "/w/Cart.cs".into(),
                        kind: EditKind::Modify,
                        base_sha256: "9f".repeat(32),
                        new_text: "class Cart { }".into(),
                        description: "Rename Basket to Cart".into(),
                    }],
                    names: vec!["Basket".into(), "Cart".into()],
                }),
            ),
        ),
        ("broker_cancel", BrokerMessage::Cancel(RequestId(7))),
        ("broker_shutdown", BrokerMessage::Shutdown),
    ]
}

fn host_vectors() -> Vec<(&'static str, HostMessage)> {
    let summary = WorkspaceSummary {
        solution_path: "/work/Shop/Shop.sln".into(),
        projects: vec![ProjectSummary {
            name: "Shop.Core".into(),
            file_path: "/work/Shop/src/Shop.Core/Shop.Core.csproj".into(),
            assembly_name: "Shop.Core".into(),
            target_frameworks: vec!["net10.0".into()],
            document_count: 11,
            project_references: vec![],
        }],
        workspace_diagnostics: vec![WorkspaceDiagnostic {
            kind: WorkspaceDiagnosticKind::Warning,
            message: "Found project reference without a matching metadata reference".into(),
        }],
        generators: vec![GeneratorProject {
            name: "Shop.Stubs".into(),
            project: "/work/Shop/src/Shop.Stubs/Shop.Stubs.csproj".into(),
            assembly: "/work/Shop/src/Shop.Stubs/bin/Debug/netstandard2.0/Shop.Stubs.dll".into(),
            consumers: vec!["Shop.Core".into()],
            state: GeneratorState::Missing,
            built: String::new(),
            sources_changed_ms: 1_765_000_000_000,
        }],
    };
    vec![
        (
            "host_hello",
            HostMessage::Hello(HostHello {
                protocol_version: PROTOCOL_VERSION,
                host_version: "0.1.0".into(),
                roslyn_version: "5.12.0".into(),
                msbuild_version: "18.9.11".into(),
                msbuild_path: "/usr/share/dotnet/sdk/10.0.401/".into(),
                dotnet_sdk_version: "10.0.401".into(),
                runtime_version: "10.0.12".into(),
                process_id: 4242,
            }),
        ),
        ("host_loaded", response(1, Outcome::Ok(ResponseBody::Loaded(summary.clone())))),
        ("host_progress", HostMessage::Progress(WorkProgress { id: RequestId(77), done: 120, total: 679 })),
        ("host_file_changes_applied", response(2, Outcome::Ok(ResponseBody::FileChangesApplied(summary.clone())))),
        (
            "host_type_info",
            response(
                250,
                Outcome::Ok(ResponseBody::TypeAtPosition(Box::new(TypeInfo {
                    symbol: SymbolSummary {
                        name: "names".into(),
                        kind: "Local".into(),
                        display: "names".into(),
                        containing_type: None,
                        containing_namespace: None,
                        assembly: "Shop.App".into(),
                        is_metadata: false,
                        key: "Local|names|/w/Program.cs:12:22".into(),
                    },
                    type_name: "List<string>".into(),
                    full_type_name: "System.Collections.Generic.List<System.String>".into(),
                    kind: "Class".into(),
                    assembly: "System.Collections".into(),
                    namespace: "System.Collections.Generic".into(),
                    documentation: Some("Represents a strongly typed list of objects.".into()),
                    is_generic: true,
                    type_arguments: vec!["System.String".into()],
                    base_type: Some("System.Object".into()),
                    interfaces: vec!["System.Collections.Generic.IList<System.String>".into()],
                    declarations: vec![SourceLocation {
                        span: span("/w/List.cs", 3, 14, 18),
                        line_text: "public class List<T>".into(),
                    }],
                    metadata: None,
                }))),
            ),
        ),
        (
            "host_definition",
            response(
                251,
                Outcome::Ok(ResponseBody::SymbolDefinition(DefinitionInfo {
                    symbol: symbol(),
                    locations: vec![SourceLocation {
                        span: span("/work/Shop/src/Shop.Core/Services/PriceCalculator.cs", 12, 24, 33),
                        line_text: "public decimal Calculate(decimal price)".into(),
                    }],
                    metadata: Some(MetadataSource {
                        span: span(
                            "roslyn-mcp://metadata/System.Text.Json/10.0.0.0/System.Text.Json.JsonSerializer.cs",
                            40,
                            23,
                            32,
                        ),
                        line_text: "public static string Serialize<TValue>(TValue value)".into(),
                        origin: SourceOrigin::Decompiled,
                    }),
                })),
            ),
        ),
        (
            "host_references",
            response(
                65_536,
                Outcome::Ok(ResponseBody::References(ReferenceList {
                    symbol: symbol(),
                    references: vec![Reference {
                        span: span("/work/Shop/src/Shop.App/Program.cs", 20, 40, 49),
                        line_text: "var total = new PriceCalculator().Calculate(10m);".into(),
                        kind: ReferenceKind::Invocation,
                        project: "Shop.App".into(),
                        frameworks: vec!["net10.0".into(), "net9.0".into()],
                    }],
                })),
            ),
        ),
        (
            "host_diagnostics",
            response(
                5_000_000_000,
                Outcome::Ok(ResponseBody::CompilationDiagnostics(DiagnosticList {
                    diagnostics: vec![
                        Diagnostic {
                            id: "CS8021".into(),
                            severity: Severity::Info,
                            message: "No value for RuntimeMetadataVersion found.".into(),
                            project: "Broken".into(),
                            project_path: "/w/Broken.csproj".into(),
                            location: None,
                            source: "compiler".into(),
                        },
                        Diagnostic {
                            id: "CS0029".into(),
                            severity: Severity::Error,
                            message: "Cannot implicitly convert type 'string' to 'int'".into(),
                            project: "Broken".into(),
                            project_path: "/w/Broken.csproj".into(),
                            location: Some(span("/w/Broken.cs", 7, 21, 28)),
                            source: "Microsoft.CodeAnalysis.NetAnalyzers".into(),
                        },
                    ],
                })),
            ),
        ),
        (
            "host_error",
            response(
                9,
                Outcome::Err(HostError {
                    code: protocol::ErrorCode::SYMBOL_NOT_FOUND,
                    message: "No symbol at /w/a.cs:3:1".into(),
                    details_json: r#"{"line":3}"#.into(),
                    suggestions: vec!["Check the line and column".into()],
                }),
            ),
        ),
        ("host_cancelled", response(10, Outcome::Cancelled)),
        ("host_pong", response(3, Outcome::Ok(ResponseBody::Pong(HostState { projects_loaded: 2 })))),
        (
            "host_members",
            response(
                10,
                Outcome::Ok(ResponseBody::Members(MemberList {
                    receiver: metadata_ref().symbol,
                    members: vec![member(), Member { documentation: None, parameters: vec![], ..member() }],
                })),
            ),
        ),
        (
            "host_implementations",
            response(
                11,
                Outcome::Ok(ResponseBody::Implementations(ImplementationList {
                    symbol: symbol(),
                    implementations: vec![Related {
                        symbol: symbol_ref(),
                        relation: Relation::Implements,
                        is_direct: true,
                    }],
                })),
            ),
        ),
        (
            "host_overloads",
            response(
                12,
                Outcome::Ok(ResponseBody::Overloads(OverloadList { method: symbol(), overloads: vec![member()] })),
            ),
        ),
        (
            "host_type_hierarchy",
            response(
                13,
                Outcome::Ok(ResponseBody::TypeHierarchy(Box::new(TypeHierarchy {
                    symbol: symbol_ref(),
                    base_types: vec![Related { symbol: metadata_ref(), relation: Relation::BaseType, is_direct: true }],
                    derived_types: vec![],
                    interfaces: vec![Related { symbol: symbol_ref(), relation: Relation::Interface, is_direct: false }],
                }))),
            ),
        ),
        (
            "host_call_hierarchy",
            response(
                14,
                Outcome::Ok(ResponseBody::CallHierarchy(Box::new(CallHierarchy {
                    symbol: symbol_ref(),
                    incoming: vec![CallGroup {
                        symbol: symbol_ref(),
                        sites: vec![SourceLocation {
                            span: span("/w/a.cs", 4, 5, 14),
                            line_text: "Calculate(1m);".into(),
                        }],
                    }],
                    outgoing: vec![CallGroup { symbol: metadata_ref(), sites: vec![] }],
                }))),
            ),
        ),
        (
            "host_document_symbols",
            response(
                15,
                Outcome::Ok(ResponseBody::DocumentSymbols(DocumentSymbolList {
                    symbols: vec![DocumentSymbol {
                        name: "Calculate".into(),
                        kind: "Method".into(),
                        range: Span {
                            file: "/w/a.cs".into(),
                            start_line: 11,
                            start_column: 9,
                            end_line: 14,
                            end_column: 10,
                        },
                        selection: span("/w/a.cs", 11, 24, 33),
                        container: Some("PriceCalculator".into()),
                        detail: "Shop.Core.Services.PriceCalculator.Calculate(decimal)".into(),
                    }],
                })),
            ),
        ),
        (
            "host_search_symbols",
            response(16, Outcome::Ok(ResponseBody::SearchSymbols(SymbolMatches { symbols: vec![symbol_ref()] }))),
        ),
        (
            "host_code_analysis",
            response(
                17,
                Outcome::Ok(ResponseBody::CodeAnalysis(CodeAnalysis {
                    diagnostics: vec![Diagnostic {
                        id: "CS0103".into(),
                        severity: Severity::Error,
                        message: "The name 'calculatr' does not exist in the current context".into(),
                        project: "Shop.App".into(),
                        project_path: "/w/Shop.App.csproj".into(),
                        location: Some(span("/w/Program.cs", 1, 13, 22)),
                        source: "compiler".into(),
                    }],
                    declared: vec![symbol()],
                    used: vec![symbol_ref(), metadata_ref()],
                })),
            ),
        ),
        (
            "host_move_plan",
            response(
                8,
                Outcome::Ok(ResponseBody::MovePlan(Box::new(MovePlan {
                    symbol: MovedSymbol {
                        name: "Money".into(),
                        kind: "RecordStruct".into(),
                        previous_fully_qualified_name: "Shop.Core.Models.Money".into(),
                        fully_qualified_name: "Shop.Core.Pricing.Money".into(),
                        previous_namespace: "Shop.Core.Models".into(),
                        new_namespace: "Shop.Core.Pricing".into(),
                        previous_location: Position { file: "/w/Money.cs".into(), line: 5, column: 22 },
                        new_location: Position { file: "/w/Pricing/Money.cs".into(), line: 300, column: 22 },
                    },
                    edits: vec![
                        FileEdit {
                            path: "/w/Money.cs".into(),
                            kind: EditKind::Delete,
                            base_sha256: "ab".repeat(32),
                            new_text: String::new(),
                            description: "Delete the file, left without types".into(),
                        },
                        FileEdit {
                            path: "/w/Pricing/Money.cs".into(),
                            kind: EditKind::Create,
                            base_sha256: String::new(),
                            new_text:
                                "namespace Shop.Core.Pricing;\r\n\r\npublic record struct Money(decimal Amount);\n"
                                    .into(),
                            description: "Add declaration of Money".into(),
                        },
                        FileEdit {
                            path: "/w/Ünïcode.cs".into(),
                            kind: EditKind::Modify,
                            base_sha256: "0f".repeat(32),
                            new_text: "using Shop.Core.Pricing;\n".into(),
                            description: "Update 2 references".into(),
                        },
                    ],
                    references_updated: 70_000,
                    usings_added: 1,
                    usings_removed: 0,
                }))),
            ),
        ),
        (
            "host_rename_plan",
            response(
                18,
                Outcome::Ok(ResponseBody::RenamePlan(Box::new(RenamePlan {
                    symbol: RenamedSymbol {
                        name: "Order".into(),
                        new_name: "Purchase".into(),
                        kind: "Class".into(),
                        display: "Shop.Core.Models.Order".into(),
                        new_display: "Shop.Core.Models.Purchase".into(),
                        location: Position { file: "/w/Order.cs".into(), line: 3, column: 14 },
                    },
                    edits: vec![
                        FileEdit {
                            path: "/w/Order.cs".into(),
                            kind: EditKind::Delete,
                            base_sha256: "cd".repeat(32),
                            new_text: String::new(),
                            description: "Renamed to Purchase.cs".into(),
                        },
                        FileEdit {
                            path: "/w/Purchase.cs".into(),
                            kind: EditKind::Create,
                            base_sha256: String::new(),
                            new_text: "public class Purchase { }\n".into(),
                            description: "Renamed from Order.cs; 1 edit".into(),
                        },
                    ],
                    total_edits: 300,
                    references: 299,
                    warnings: vec!["Renamed Order.cs to Purchase.cs".into()],
                }))),
            ),
        ),
        (
            "host_organize_usings_plan",
            response(
                19,
                Outcome::Ok(ResponseBody::OrganizeUsingsPlan(OrganizeUsingsPlan {
                    edits: vec![FileEdit {
                        path: "/w/a.cs".into(),
                        kind: EditKind::Modify,
                        base_sha256: "0f".repeat(32),
                        new_text: "using System;\n".into(),
                        description: "Remove 2 usings; sort".into(),
                    }],
                    documents: 12,
                    usings_removed: 2,
                    warnings: vec![],
                })),
            ),
        ),
        (
            "host_code_actions",
            response(
                20,
                Outcome::Ok(ResponseBody::CodeActions(CodeActionList {
                    actions: vec![
                        CodeAction {
                            kind: CodeActionKind::Fix,
                            provider: "CSharpAddImportCodeFixProvider".into(),
                            path: vec!["using System.Text;".into()],
                            equivalence_key: "using System.Text;".into(),
                            diagnostic: Some(FixedDiagnostic {
                                id: "CS0246".into(),
                                message: "The type or namespace name 'StringBuilder' could not be found".into(),
                                severity: Severity::Error,
                                location: span("/w/a.cs", 4, 9, 22),
                            }),
                            fix_all_scopes: vec![FixAllScope::Document, FixAllScope::Project, FixAllScope::Solution],
                            options: ActionOptions::None,
                        },
                        CodeAction {
                            kind: CodeActionKind::Refactoring,
                            provider: "ExtractInterfaceCodeRefactoringProvider".into(),
                            path: vec!["Extract interface...".into()],
                            equivalence_key: String::new(),
                            diagnostic: None,
                            fix_all_scopes: vec![],
                            options: ActionOptions::ExtractInterface(ExtractInterfaceOptions {
                                interface_name: "IOrder".into(),
                                file_name: "IOrder.cs".into(),
                                same_file: false,
                                members: vec![],
                            }),
                        },
                    ],
                })),
            ),
        ),
        (
            "host_code_action_plan",
            response(
                21,
                Outcome::Ok(ResponseBody::CodeActionPlan(EditPlan {
                    title: "Extract method".into(),
                    edits: vec![FileEdit {
                        path: "/w/a.cs".into(),
                        kind: EditKind::Modify,
                        base_sha256: "1e".repeat(32),
                        new_text: "class A { void M() { N(); } void N() { } }\n".into(),
                        description: "Extract method".into(),
                    }],
                    documents: 1,
                    changes: 2,
                    warnings: vec!["Reformatted".into()],
                })),
            ),
        ),
        (
            "host_format_plan",
            response(
                23,
                Outcome::Ok(ResponseBody::FormatPlan(EditPlan {
                    title: "Format 0 files".into(),
                    edits: vec![],
                    documents: 7,
                    changes: 0,
                    warnings: vec![],
                })),
            ),
        ),
        (
            "host_find_replace_plan",
            response(
                24,
                Outcome::Ok(ResponseBody::FindReplacePlan(FindReplacePlan {
                    plan: EditPlan {
                        title: "Replace 1 match in 1 file".into(),
                        edits: vec![FileEdit {
                            path: "/w/README.md".into(),
                            kind: EditKind::Modify,
                            base_sha256: "aa".repeat(32),
                            new_text: "Call FetchOrderAsync.\n".into(),
                            description: "1 replacement".into(),
                        }],
                        documents: 40,
                        changes: 1,
                        warnings: vec![],
                    },
                    matches: vec![TextMatch {
                        span: span("/w/README.md", 1, 6, 19),
                        text: "GetOrderAsync".into(),
                        replacement: "FetchOrderAsync".into(),
                        line_before: "Call GetOrderAsync.".into(),
                        line_after: "Call FetchOrderAsync.".into(),
                    }],
                })),
            ),
        ),
        (
            "host_remove_unused_plan",
            response(
                25,
                Outcome::Ok(ResponseBody::RemoveUnusedPlan(RemoveUnusedPlan {
                    plan: EditPlan {
                        title: "Remove 2 unused".into(),
                        edits: vec![],
                        documents: 3,
                        changes: 2,
                        warnings: vec!["Kept Helper: it has an attribute".into()],
                    },
                    removed: vec![
                        RemovedItem {
                            kind: UnusedKind::Members,
                            name: "cache".into(),
                            rule: "IDE0052".into(),
                            location: Position { file: "/w/a.cs".into(), line: 5, column: 20 },
                        },
                        RemovedItem {
                            kind: UnusedKind::Parameters,
                            name: "unused".into(),
                            rule: "IDE0060".into(),
                            location: Position { file: "/w/a.cs".into(), line: 9, column: 30 },
                        },
                    ],
                })),
            ),
        ),
        ("host_warmed_up", response(26, Outcome::Ok(ResponseBody::WarmedUp(WarmedUp { documents: 11 })))),
        (
            "host_change_signature_plan",
            response(
                30,
                Outcome::Ok(ResponseBody::ChangeSignaturePlan(Box::new(ChangeSignaturePlan {
                    display: "Shop.Pricing.Price(int, decimal)".into(),
                    new_display: "Shop.Pricing.Price(double, string)".into(),
                    kind: "Method".into(),
                    location: Position { file: "/w/Pricing.cs".into(), line: 10, column: 28 },
                    edits: vec![],
                    declarations: 2,
                    call_sites: 5,
                    changes: 9,
                    warnings: vec!["Renamed parameter unitPrice to price".into()],
                }))),
            ),
        ),
        (
            "host_safe_delete_plan",
            response(
                31,
                Outcome::Ok(ResponseBody::SafeDeletePlan(SafeDeletePlan {
                    deleted: vec![DeletedSymbol {
                        name: "Sum".into(),
                        kind: "Method".into(),
                        display: "Shop.Pricing.Sum(string, params int[])".into(),
                        location: Position { file: "/w/Pricing.cs".into(), line: 21, column: 20 },
                    }],
                    edits: vec![],
                    changes: 1,
                    warnings: vec!["Deleted Old.cs".into()],
                })),
            ),
        ),
        (
            "host_rename_file_plan",
            response(
                33,
                Outcome::Ok(ResponseBody::RenameFilePlan(Box::new(RenameFilePlan {
                    renamed: None,
                    edits: vec![],
                    total_edits: 1,
                    warnings: vec!["Renamed Order.cs to Purchase.cs".into()],
                }))),
            ),
        ),
        (
            "host_sync_namespaces_plan",
            response(
                34,
                Outcome::Ok(ResponseBody::SyncNamespacesPlan(SyncNamespacesPlan {
                    plan: EditPlan {
                        title: "Sync the namespaces of 1 file".into(),
                        edits: vec![],
                        documents: 4,
                        changes: 3,
                        warnings: vec![],
                    },
                    changed: vec![NamespaceChange {
                        file: "/w/Lib/Models/Item.cs".into(),
                        namespace: "Shop.Lib".into(),
                        new_namespace: "Shop.Lib.Models".into(),
                    }],
                })),
            ),
        ),
        (
            "host_project_graph",
            response(
                36,
                Outcome::Ok(ResponseBody::ProjectGraph(ProjectGraph {
                    projects: vec![GraphProject {
                        name: "Core".into(),
                        path: "/w/Core/Core.csproj".into(),
                        assembly_name: "Core".into(),
                        target_frameworks: vec!["net10.0".into()],
                        output_kind: "library".into(),
                        is_test_project: false,
                        project_references: vec!["/w/Extra/Extra.csproj".into()],
                        packages: vec![PackageVersion { name: "Humanizer".into(), version: "2.14.1".into() }],
                        analyzers: vec!["Microsoft.CodeAnalysis.NetAnalyzers".into()],
                        generators: vec!["System.Text.RegularExpressions.Generator: RegexGenerator".into()],
                        dependencies: vec!["/w/Extra/Extra.csproj".into()],
                        dependents: vec!["/w/Tools/Tools.csproj".into()],
                    }],
                    unused: vec![UnusedReference {
                        project: "/w/Core/Core.csproj".into(),
                        kind: "package".into(),
                        reference: "Humanizer".into(),
                        evidence: "no code names a type of Humanizer".into(),
                    }],
                    warnings: vec![],
                })),
            ),
        ),
        (
            "host_public_api",
            response(
                37,
                Outcome::Ok(ResponseBody::PublicApi(PublicApi {
                    project: "/w/Core/Core.csproj".into(),
                    framework: "net10.0".into(),
                    members: vec![ApiMember {
                        id: "M:Core.A.Run(System.Int32)".into(),
                        line: "abstract Core.A.Run(int times) -> void".into(),
                        kind: "method".into(),
                        container: "Core.A".into(),
                        name: "Run".into(),
                        breaks_when_added: true,
                    }],
                })),
            ),
        ),
        (
            "host_source",
            response(
                38,
                Outcome::Ok(ResponseBody::Source(SourceDocument {
                    path: "roslyn-mcp://generated/App/Gen.Regex/R.g.cs".into(),
                    origin: SourceOrigin::Generated,
                    generator: Some("Gen.Regex".into()),
                    assembly: None,
                    text: "// <auto-generated/>\nclass R {}\n".into(),
                })),
            ),
        ),
        (
            "host_generated_documents",
            response(
                39,
                Outcome::Ok(ResponseBody::GeneratedDocuments(GeneratedDocumentList {
                    documents: vec![GeneratedDocument {
                        project: "/w/App/App.csproj".into(),
                        framework: Some("net10.0".into()),
                        generator: "Gen.Regex".into(),
                        generator_assembly: "Gen".into(),
                        hint_name: "R.g.cs".into(),
                        path: "roslyn-mcp://generated/App/Gen.Regex/R.g.cs".into(),
                        length: 31,
                        lines: 3,
                    }],
                })),
            ),
        ),
        ("host_edits_checked", response(41, Outcome::Ok(ResponseBody::EditsChecked(2)))),
        ("host_generators_used", response(42, Outcome::Ok(ResponseBody::GeneratorsUsed(summary.clone())))),
        (
            "host_symbol_sources",
            response(
                40,
                Outcome::Ok(ResponseBody::SymbolSources(SymbolSourceList {
                    entries: vec![
                        SymbolSourceEntry {
                            name: "Shop.Cart".into(),
                            declarations: vec![SymbolDeclaration {
                                symbol: symbol(),
                                span: span("/w/Cart.cs", 3, 1, 9),
                                origin: SourceOrigin::File,
                                text: "public class Cart\n{\n    public void Add(int item);\n}".into(),
                            }],
                            error: None,
                        },
                        SymbolSourceEntry {
                            name: "Shop.Nope".into(),
                            declarations: vec![],
                            error: Some(HostError {
                                code: ErrorCode::SYMBOL_NOT_FOUND,
                                message: "No type or member is named 'Shop.Nope'".into(),
                                details_json: r#"{"name":"Shop.Nope"}"#.into(),
                                suggestions: vec![],
                            }),
                        },
                    ],
                })),
            ),
        ),
        (
            "host_move_files_plan",
            response(
                35,
                Outcome::Ok(ResponseBody::MoveFilesPlan(Box::new(MoveFilesPlan {
                    plan: EditPlan {
                        title: "Move 1 file to /w/Tools/Parsing".into(),
                        edits: vec![],
                        documents: 1,
                        changes: 2,
                        warnings: vec![],
                    },
                    moved: vec![MovedFile {
                        file: "/w/Lib/Parsing/Lexer.cs".into(),
                        new_file: "/w/Tools/Parsing/Lexer.cs".into(),
                    }],
                    namespaces: vec![NamespaceChange {
                        file: "/w/Lib/Parsing/Lexer.cs".into(),
                        namespace: "Shop.Lib.Parsing".into(),
                        new_namespace: "Shop.Tools.Parsing".into(),
                    }],
                    references: vec![AddedReference {
                        project: "/w/Lib/Lib.csproj".into(),
                        references: "/w/Tools/Tools.csproj".into(),
                    }],
                }))),
            ),
        ),
        (
            "host_found_tests",
            response(
                27,
                Outcome::Ok(ResponseBody::FoundTests(FoundTests {
                    changed: vec![symbol_ref()],
                    tests: vec![FoundTest {
                        method: symbol_ref(),
                        fully_qualified_name: "Pricing.XunitTests.CartTests.TotalAsksThePricer".into(),
                        project: "Pricing.XunitTests".into(),
                        project_path: "/w/Pricing.XunitTests/Pricing.XunitTests.csproj".into(),
                        framework: TestFramework::XUnit,
                        target_frameworks: vec![],
                        reason: vec!["Pricing.Pricer.Price(int)".into(), "Pricing.IPricer.Price(int)".into()],
                    }],
                    projects: vec![
                        TestProject {
                            name: "Pricing.NunitTests".into(),
                            file_path: "/w/Pricing.NunitTests/Pricing.NunitTests.csproj".into(),
                            frameworks: vec![TestFramework::NUnit],
                            target_frameworks: vec!["net10.0".into(), "net9.0".into()],
                            test_count: 4,
                        },
                        TestProject {
                            name: "Pricing.Mixed".into(),
                            file_path: "/w/Pricing.Mixed/Pricing.Mixed.csproj".into(),
                            frameworks: vec![TestFramework::MSTest, TestFramework::TUnit],
                            target_frameworks: vec![],
                            test_count: 2,
                        },
                    ],
                })),
            ),
        ),
    ]
}

fn check<T: bincode::Encode + bincode::Decode<()> + PartialEq + std::fmt::Debug>(name: &str, message: &T) {
    let path = golden_dir().join(format!("{name}.bin"));
    let frame = encode_frame(message).expect("encodes");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(golden_dir()).expect("golden dir");
        std::fs::write(&path, &frame).expect("writes golden file");
    }
    let golden = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
    assert_eq!(frame, golden, "{name}: encoding differs from the golden vector");
    let len = payload_len(golden[..HEADER_BYTES].try_into().expect("header")).expect("length");
    assert_eq!(len, golden.len() - HEADER_BYTES, "{name}: length prefix");
    let decoded: T = decode_payload(&golden[HEADER_BYTES..]).expect("decodes");
    assert_eq!(&decoded, message, "{name}: decoding differs");
}

#[test]
fn broker_messages_match_golden_vectors() {
    for (name, message) in broker_vectors() {
        check(name, &message);
    }
}

#[test]
fn host_messages_match_golden_vectors() {
    for (name, message) in host_vectors() {
        check(name, &message);
    }
}

/// `Type<TAB>name<TAB>value` per vector: what the C# tests' values are generated from.
#[test]
fn the_recorded_values_are_the_vectors() {
    let broker = broker_vectors().into_iter().map(|(name, m)| format!("BrokerMessage\t{name}\t{m:?}\n"));
    let host = host_vectors().into_iter().map(|(name, m)| format!("HostMessage\t{name}\t{m:?}\n"));
    let text: String = broker.chain(host).collect();
    let path = golden_dir().join("vectors.txt");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &text).expect("writes vectors.txt");
    }
    let recorded = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        recorded == text,
        "{} differs from the vectors: UPDATE_GOLDEN=1 rewrites it, then run `cargo xtask codegen`",
        path.display()
    );
}
