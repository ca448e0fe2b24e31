// The service as the official TypeScript SDK client sees it: lists the tools, initializes a copy of the Shop
// fixture, asks diagnose (with its spare host), makes a call that answers, one that is refused, and the writing tools' round (a preview, apply_plan,
// list_operations, undo, a rename preview, code actions, format and find/replace); the SDK validates each
// structuredContent against its output schema.
// Prints one JSON line with the listing's size, each write's outcome and every line the SDK logged.
// Usage: npm install && node check.mjs <path of roslyn-mcp> <copy of tests/fixtures/Shop>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const [bin, root] = process.argv.slice(2);
const warnings = [];
for (const level of ["warn", "error", "log"]) {
  console[level] = (...args) => { warnings.push(`${level}: ${args.join(" ")}`); };
}
const transport = new StdioClientTransport({ command: bin, args: ["stdio", "--embedded"], cwd: root, stderr: "ignore" });
const client = new Client({ name: "ts-check", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
// Before the load, diagnose shows the spare host the load will take.
const diagnosed = await client.callTool({ name: "diagnose", arguments: { verbose: true } });
const init = await client.callTool({ name: "initialize_workspace", arguments: { workingDirectory: root } });
const refs = await client.callTool({ name: "find_references", arguments: { filePath: `${root}/src/Shop.Core/Models/Customer.cs`, line: 6, column: 14 } });
const bad = await client.callTool({ name: "find_references", arguments: { filePath: "nowhere.cs", line: 0, column: 1 } });
// The writing tools' answers: a previewed plan, applied by id, listed, undone; a rename preview.
const customer = `${root}/src/Shop.Core/Models/Customer.cs`;
const plan = await client.callTool({ name: "move_type_to_namespace", arguments: { sourceFile: customer, symbolName: "Customer", targetNamespace: "Shop.Core.People", preview: true } });
const applied = await client.callTool({ name: "apply_plan", arguments: { planId: plan.structuredContent?.planId ?? "none" } });
const listed = await client.callTool({ name: "list_operations", arguments: {} });
const undone = await client.callTool({ name: "undo", arguments: { operationId: applied.structuredContent?.operationId ?? "none" } });
const renamed = await client.callTool({ name: "rename_symbol", arguments: { filePath: customer, line: 6, column: 14, newName: "Client", preview: true } });
// Roslyn's code actions at the class name, one applied as a preview; format and find/replace previews.
const actions = await client.callTool({ name: "get_code_actions", arguments: { filePath: customer, line: 6, column: 14 } });
const firstAction = actions.structuredContent?.actions?.[0]?.id ?? "none";
const action = await client.callTool({ name: "apply_code_action", arguments: { id: firstAction, preview: true } });
const formatted = await client.callTool({ name: "format_document", arguments: { filePath: customer, preview: true } });
const replaced = await client.callTool({ name: "find_replace", arguments: { pattern: "customer", replacement: "client", wholeWord: true, preview: true } });
const writes = [plan, applied, listed, undone, renamed, actions, action, formatted, replaced].map((r) => (r.isError ? r.structuredContent?.error?.code : "ok"));
await client.close();
process.stdout.write(JSON.stringify({
  tools: tools.length,
  listingBytes: Buffer.byteLength(JSON.stringify({ tools })),
  initialized: !init.isError, diagnosed: !diagnosed.isError, spareHost: diagnosed.structuredContent?.spareHost?.state ?? null, references: refs.structuredContent?.totalCount, refusal: bad.structuredContent?.error?.code,
  writes,
  sdkLines: warnings.length, firstLines: warnings.slice(0, 3),
}) + "\n");
