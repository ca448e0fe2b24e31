// The service as the official TypeScript SDK client sees it: lists the tools, initializes a copy of the Shop
// fixture and makes a call that answers and one that is refused (the SDK validates structuredContent against
// each output schema), then prints one JSON line with the listing's size and every line the SDK logged.
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
const init = await client.callTool({ name: "initialize_workspace", arguments: { workingDirectory: root } });
const refs = await client.callTool({ name: "find_references", arguments: { filePath: `${root}/src/Shop.Core/Models/Customer.cs`, line: 6, column: 14 } });
const bad = await client.callTool({ name: "find_references", arguments: { filePath: "nowhere.cs", line: 0, column: 1 } });
await client.close();
process.stdout.write(JSON.stringify({
  tools: tools.length,
  listingBytes: Buffer.byteLength(JSON.stringify({ tools })),
  initialized: !init.isError, references: refs.structuredContent?.totalCount, refusal: bad.structuredContent?.error?.code,
  sdkLines: warnings.length, firstLines: warnings.slice(0, 3),
}) + "\n");
