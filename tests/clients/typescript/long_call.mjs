// A call longer than the TypeScript SDK client's default 60-second request timeout, made as a new user would:
// the SDK at its defaults, run_tests of one test that lasts as long as the fixture's knob says. The call
// answers in time with its job, and get_job (each call under the same default timeout) returns the run.
// Prints one JSON line: the first answer, how many get_job calls it took, the run's outcome and timing, and
// every line the SDK logged.
// Usage: npm install && node long_call.mjs <path of roslyn-mcp> <copy of tests/fixtures/Tested> <test id>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const [bin, root, test] = process.argv.slice(2);
const warnings = [];
for (const level of ["warn", "error", "log"]) {
  console[level] = (...args) => { warnings.push(`${level}: ${args.join(" ")}`); };
}
const transport = new StdioClientTransport({ command: bin, args: ["stdio", "--embedded"], cwd: root, env: process.env, stderr: "ignore" });
const client = new Client({ name: "ts-long-call", version: "1.0.0" });
await client.connect(transport);
// The solution loaded first, as an agent starts: on a busy machine a load that outlasts the read limit would
// answer the run's call LOADING instead of the run's own job. A load past the answer bound is a job: followed.
let loaded = await client.callTool({ name: "initialize_workspace", arguments: { workingDirectory: root } });
while (!loaded.isError && loaded.structuredContent?.status === "running") {
  loaded = await client.callTool({ name: "get_job", arguments: { jobId: loaded.structuredContent.jobId } });
}
const began = Date.now();
const first = await client.callTool({ name: "run_tests", arguments: { tests: [test] } });
const firstMs = Date.now() - began;
let answer = first;
let polls = 0;
while (!answer.isError && answer.structuredContent?.status === "running") {
  polls += 1;
  answer = await client.callTool({ name: "get_job", arguments: { jobId: first.structuredContent.jobId } });
}
const wallMs = Date.now() - began;
await client.close();
process.stdout.write(JSON.stringify({
  loaded: !loaded.isError,
  first: { status: first.structuredContent?.status ?? null, jobId: first.structuredContent?.jobId ?? null, message: first.structuredContent?.message ?? null, ms: firstMs },
  polls,
  isError: answer.isError ?? false,
  results: answer.structuredContent?.results ?? null,
  totalMs: answer._meta?.["roslyn-mcp/timing"]?.totalMs ?? null,
  wallMs,
  sdkLines: warnings,
}) + "\n");
