//! End-to-end tests: the real `roslyn-mcp` binary, driven over stdio by an MCP client, with the real
//! Roslyn host on copies of the fixture solutions in `tests/fixtures`.

mod support;

mod cancel;
mod catalog;
mod change_signature;
mod cleanup;
mod code_actions;
mod control_plane;
mod daemon;
mod daemon_start;
mod diagnostics;
mod errors;
mod fairness;
mod files;
mod find_tests;
mod fuzz;
mod install;
mod lifecycle;
mod move_files;
mod move_refusals;
mod moves;
mod navigation;
mod observability;
mod organize_usings;
mod paging;
mod plan_faults;
mod plans;
mod project_graph;
mod public_api;
mod rename;
mod routing;
mod run_tests;
mod safe_delete;
mod sessions;
mod sharding;
mod sources;
mod tools_list;
mod verify_tests;
mod walls_host;
mod walls_http;
mod walls_reads;
mod walls_sessions;
mod walls_writes;
mod watch;
mod write_faults;
