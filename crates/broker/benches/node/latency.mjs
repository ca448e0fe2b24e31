// Warm call latency as the official MCP TypeScript SDK client (what most MCP clients are built on) sees it,
// over stdio (`roslyn-mcp stdio --embedded`) and over Streamable HTTP (`roslyn-mcp serve`), in one run:
// find_references and diagnose, p50/p95 of each, and HTTP minus stdio at p50.
// Usage: npm install && node latency.mjs <path of roslyn-mcp> <copy of tests/fixtures/Shop> [calls]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [bin, root, callsArg] = process.argv.slice(2);
const calls = Number(callsArg ?? 300);
const question = { filePath: `${root}/src/Shop.Core/Models/Customer.cs`, line: 6, column: 14 };

async function measure(client) {
  await client.callTool({ name: "initialize_workspace", arguments: { workingDirectory: root } });
  for (let i = 0; i < 30; i++) await client.callTool({ name: "find_references", arguments: question });
  const result = {};
  for (const [tool, args] of [["find_references", question], ["diagnose", {}]]) {
    const samples = [];
    for (let i = 0; i < calls; i++) {
      const began = process.hrtime.bigint();
      const answer = await client.callTool({ name: tool, arguments: args });
      samples.push(Number(process.hrtime.bigint() - began) / 1e6);
      if (answer.isError) throw new Error(`${tool}: ${JSON.stringify(answer.structuredContent)}`);
    }
    samples.sort((a, b) => a - b);
    result[tool] = { p50: samples[Math.floor(calls * 0.5)], p95: samples[Math.floor(calls * 0.95)] };
  }
  return result;
}

async function overStdio() {
  const client = new Client({ name: "node-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: bin, args: ["stdio", "--embedded"], cwd: root, stderr: "ignore" }));
  try { return await measure(client); } finally { await client.close(); }
}

async function overHttp() {
  const state = mkdtempSync(join(tmpdir(), "roslyn-mcp-bench-"));
  const env = { ...process.env, ROSLYN_MCP_STATE_DIR: state, ROSLYN_MCP_HTTP: "127.0.0.1:0" };
  const daemon = spawn(bin, ["serve"], { cwd: root, env, stdio: "ignore" });
  try {
    const info = join(state, "run", "daemon.json");
    for (let i = 0; i < 300 && !existsSync(info); i++) await new Promise((r) => setTimeout(r, 100));
    const { http } = JSON.parse(readFileSync(info, "utf8"));
    const token = readFileSync(join(state, "http-token"), "utf8").trim();
    const transport = new StreamableHTTPClientTransport(new URL(`http://${http}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: "node-bench", version: "1.0.0" });
    await client.connect(transport);
    try { return await measure(client); } finally { await client.close(); }
  } finally {
    daemon.kill("SIGTERM");
  }
}

const stdio = await overStdio();
const http = await overHttp();
const row = (label, r) =>
  `${label.padEnd(6)} find_references p50 ${r.find_references.p50.toFixed(2)} ms p95 ${r.find_references.p95.toFixed(2)} ms` +
  `   diagnose p50 ${r.diagnose.p50.toFixed(2)} ms p95 ${r.diagnose.p95.toFixed(2)} ms`;
console.log(`TypeScript SDK client, ${calls} warm calls of each tool, Shop fixture`);
console.log(row("stdio", stdio));
console.log(row("HTTP", http));
console.log(`HTTP - stdio at p50: find_references ${(http.find_references.p50 - stdio.find_references.p50).toFixed(2)} ms, ` +
  `diagnose ${(http.diagnose.p50 - stdio.diagnose.p50).toFixed(2)} ms`);
