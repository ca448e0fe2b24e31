// N Streamable HTTP sessions of one daemon (`roslyn-mcp serve`), driven by the official MCP TypeScript SDK client,
// each calling diagnose back to back, or one call every [pace] ms (the sessions spread evenly over that
// period): calls per second, p50/p99, and the CPU per call of the daemon and of this client (both share the
// machine's cores). One JSON line.
// Usage: npm install && node sessions.mjs <path of roslyn-mcp> <copy of tests/fixtures/Shop> [sessions] [calls] [pace]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const [bin, root, sessionsArg, callsArg, paceArg] = process.argv.slice(2);
const sessions = Number(sessionsArg ?? 50), calls = Number(callsArg ?? 200), pace = Number(paceArg ?? 0);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const cpu = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" "); return (Number(f[11]) + Number(f[12])) * 10; };
const state = mkdtempSync(join(tmpdir(), "roslyn-mcp-bench-"));
const env = { ...process.env, ROSLYN_MCP_STATE_DIR: state, ROSLYN_MCP_HTTP: "127.0.0.1:0" };
const daemon = spawn(bin, ["serve"], { cwd: root, env, stdio: "ignore" });
try {
  const info = join(state, "run", "daemon.json");
  for (let i = 0; i < 300 && !existsSync(info); i++) await sleep(100);
  const { http } = JSON.parse(readFileSync(info, "utf8"));
  const token = readFileSync(join(state, "http-token"), "utf8").trim();
  const clients = await Promise.all(Array.from({ length: sessions }, async () => {
    const c = new Client({ name: "node-bench", version: "1.0.0" });
    await c.connect(new StreamableHTTPClientTransport(new URL(`http://${http}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    return c;
  }));
  const loop = async (n, samples) => Promise.all(clients.map(async (c, index) => {
    const start = performance.now() + (pace * index) / sessions;
    for (let i = 0; i < n; i++) {
      if (pace) await sleep(Math.max(0, start + i * pace - performance.now()));
      const t = process.hrtime.bigint();
      await c.callTool({ name: "diagnose", arguments: {} });
      samples?.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  }));
  await loop(20);
  const samples = []; const c0 = cpu(daemon.pid), n0 = process.cpuUsage(); const t0 = process.hrtime.bigint();
  await loop(calls, samples);
  const secs = Number(process.hrtime.bigint() - t0) / 1e9; const c1 = cpu(daemon.pid), n1 = process.cpuUsage(n0);
  samples.sort((a, b) => a - b);
  const q = (p) => samples[Math.min(samples.length - 1, Math.floor(samples.length * p))];
  console.log(JSON.stringify({ sessions, pace, calls: samples.length, perSec: samples.length / secs, p50: q(0.5), p99: q(0.99), daemonCpuMsPerCall: (c1 - c0) / samples.length, clientCpuMsPerCall: (n1.user + n1.system) / 1000 / samples.length }));
  await Promise.all(clients.map((c) => c.close()));
} finally { daemon.kill("SIGTERM"); }
