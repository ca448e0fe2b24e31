// What the node benches share: a daemon (`roslyn-mcp serve`) on a free loopback port with its own state
// folder, TypeScript SDK clients of it over Streamable HTTP and through `roslyn-mcp stdio` bridges, and
// percentiles.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/// A client over Streamable HTTP to the daemon at `url` (a session of its own).
export async function httpClient(url, token, name = "node-bench") {
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

/// CPU milliseconds (user + system) a process has used, from /proc; null once it is gone.
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/// Starts `bin serve` in `root` with `env` added; resolves once it has written its address.
export async function startDaemon(bin, root, env = {}) {
  const state = mkdtempSync(join(tmpdir(), "roslyn-mcp-bench-"));
  const full = { ...process.env, ...env, ROSLYN_MCP_STATE_DIR: state, ROSLYN_MCP_HTTP: "127.0.0.1:0" };
  const child = spawn(bin, ["serve"], { cwd: root, env: full, stdio: "ignore" });
  const info = join(state, "run", "daemon.json");
  for (let i = 0; i < 300 && !existsSync(info); i++) await sleep(100);
  const { http } = JSON.parse(readFileSync(info, "utf8"));
  const token = readFileSync(join(state, "http-token"), "utf8").trim();
  return {
    bin, root, state, token, pid: child.pid,
    url: `http://${http}`,
    headers: { Authorization: `Bearer ${token}` },
    /// A client over Streamable HTTP (a session of its own).
    http() {
      return httpClient(this.url, token);
    },
    /// A client through a `roslyn-mcp stdio` bridge process to this daemon.
    async bridge() {
      const client = new Client({ name: "node-bench", version: "1.0.0" });
      const env = { ...process.env, ROSLYN_MCP_STATE_DIR: state };
      await client.connect(new StdioClientTransport({ command: bin, args: ["stdio"], cwd: root, env, stderr: "ignore" }));
      return client;
    },
    stop() { child.kill("SIGTERM"); },
  };
}

/// Times `call` in milliseconds.
export async function timed(call) {
  const began = process.hrtime.bigint();
  await call();
  return Number(process.hrtime.bigint() - began) / 1e6;
}

/// `{ p50, p99, n }` of samples in milliseconds.
export function percentiles(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
  return { n: sorted.length, p50: q(0.5), p99: q(0.99) };
}

/// Calls a tool and fails on an error answer.
export async function call(client, name, args) {
  const answer = await client.callTool({ name, arguments: args });
  if (answer.isError) throw new Error(`${name}: ${JSON.stringify(answer.structuredContent ?? answer.content)}`);
  return answer;
}

/// The find_references question of a bench: ROSLYN_MCP_BENCH_QUESTION=<file>:<line>:<column> (the file
/// relative to `root`) for another code base, else Shop's `Customer` (9 references).
export function question(root) {
  const asked = process.env.ROSLYN_MCP_BENCH_QUESTION?.split(":");
  if (!asked) return { filePath: `${root}/src/Shop.Core/Models/Customer.cs`, line: 6, column: 14 };
  return { filePath: `${root}/${asked[0]}`, line: Number(asked[1]), column: Number(asked[2]) };
}

/// What the question is about, for a report's first line.
export const asked = () => process.env.ROSLYN_MCP_BENCH_QUESTION ?? "Shop fixture";
