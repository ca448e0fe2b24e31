// The control plane while agents saturate the machine: 50 Streamable HTTP sessions of one daemon, driven by
// the official MCP TypeScript SDK client, each alternating diagnose and find_references as fast as answers
// come, the daemon, its Roslyn host and the clients on the same cores. Meanwhile a prober of its own
// (another process, as a dashboard or a liveness check is) asks /healthz, /metrics and diagnose every 20 ms.
// Each setting gets its own daemon, in one run: the hosts at the daemon's CPU priority
// (ROSLYN_MCP_HOST_NICE=0) and at the default. For each: tool calls per second, CPU per call of the daemon,
// its hosts and the clients, p50/p99 of diagnose and find_references in the sessions (the client's own time
// included), the clients' event-loop delay, and p50/p99 of the prober's three questions.
// The sessions run in one client process (as one program driving 50 sessions), or spread over [processes]
// (as 50 agents each with its own client are).
// Usage: npm install && node load.mjs <path of roslyn-mcp> <copy of tests/fixtures/Shop> [sessions] [rounds] [repeats] [processes]
// Another code base: its folder as the second argument and ROSLYN_MCP_BENCH_QUESTION=<file>:<line>:<column>
// (the file relative to that folder) for find_references, e.g. Markdig's `src/Markdig` and
// `Helpers/LineReader.cs:14:15`.
import { spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { createInterface } from "node:readline";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { startDaemon, sleep, timed, percentiles, call, question, asked, httpClient, cpuMs } from "./daemon.mjs";

const self = fileURLToPath(import.meta.url);
const [mode, ...rest] = process.argv.slice(2);
if (mode === "--probe") await probe(...rest);
else if (mode === "--sessions") await sessions(...rest);
else await main(mode, ...rest);

async function main(bin, root, sessionsArg, roundsArg, repeatsArg, processesArg) {
  const count = Number(sessionsArg ?? 50), rounds = Number(roundsArg ?? 40), repeats = Number(repeatsArg ?? 1);
  const processes = Number(processesArg ?? 1);
  const settings = [
    { label: "hosts at the daemon's priority", env: { ROSLYN_MCP_HOST_NICE: "0" } },
    { label: "hosts at the default priority", env: {} },
  ];
  // With repeats, the settings alternate (A B B A ...) so neither always runs on a warmer machine.
  const order = Array.from({ length: repeats }, (_, i) => (i % 2 ? [...settings].reverse() : settings)).flat();
  console.log(`TypeScript SDK client, ${count} HTTP sessions in ${processes} client process(es) x ${rounds} rounds of diagnose + find_references, ${asked()}`);
  for (const setting of order) {
    const measured = await measure(bin, root, setting.env, count, rounds, processes);
    console.log(JSON.stringify({ setting: setting.label, ...measured }));
  }
}

/// A child process of this script, its standard output read line by line.
function child(args) {
  const process_ = spawn(process.execPath, [self, ...args], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: process_.stdout })[Symbol.asyncIterator]();
  const ended = new Promise((resolve) => process_.on("exit", resolve));
  return { process: process_, next: async () => (await lines.next()).value, ended };
}

async function measure(bin, root, env, count, rounds, processes) {
  const daemon = await startDaemon(bin, root, env);
  try {
    // The solution loads before the sessions start asking.
    const first = await daemon.http();
    await call(first, "initialize_workspace", { workingDirectory: root });
    await call(first, "find_references", question(root));
    await first.close();
    const workers = Array.from({ length: processes }, (_, i) => {
      const share = Math.floor(count / processes) + (i < count % processes ? 1 : 0);
      return child(["--sessions", daemon.url, daemon.token, root, String(share), String(rounds)]);
    });
    await Promise.all(workers.map((w) => w.next())); // each says it has warmed up
    const prober = child(["--probe", daemon.url, daemon.token]);
    await prober.next();
    const timed0 = await daemonTimes(daemon);
    const began = process.hrtime.bigint(), cpu0 = cpu(daemon.pid);
    for (const w of workers) w.process.stdin.write("go\n");
    const reports = await Promise.all(workers.map(async (w) => JSON.parse(await w.next())));
    const seconds = Number(process.hrtime.bigint() - began) / 1e9, cpu1 = cpu(daemon.pid);
    const timed1 = await daemonTimes(daemon);
    prober.process.stdin.end();
    const probed = JSON.parse(await prober.next());
    await Promise.all([prober, ...workers].map((w) => w.ended));
    const samples = (tool) => reports.flatMap((r) => r[tool]);
    const calls = samples("diagnose").length + samples("find_references").length;
    const perCall = (ms) => Number((ms / calls).toFixed(3));
    const clientMs = reports.reduce((sum, r) => sum + r.cpuMs, 0);
    return {
      toolCallsPerSec: Math.round(calls / seconds),
      cpuMsPerCall: { daemon: perCall(cpu1.daemon - cpu0.daemon), hosts: perCall(cpu1.hosts - cpu0.hosts), clients: perCall(clientMs) },
      diagnose: percentiles(samples("diagnose")),
      find_references: percentiles(samples("find_references")),
      daemonTimed: Object.fromEntries(["diagnose", "find_references"].map((tool) => [tool, bucketOf99(timed0[tool], timed1[tool])])),
      clientEventLoopDelayP99: Math.max(...reports.map((r) => r.eventLoopDelayP99)),
      prober: probed,
    };
  } finally {
    daemon.stop();
  }
}

/// The daemon's own timing of each tool's calls so far: its histogram's cumulative counts by bucket (seconds).
async function daemonTimes(daemon) {
  const text = await (await fetch(`${daemon.url}/metrics`, { headers: daemon.headers })).text();
  const times = {};
  for (const [, le, tool, count] of text.matchAll(/^roslyn_mcp_tool_call_duration_seconds_bucket\{le="([^"]+)",tool="(\w+)",outcome="ok"\} (\d+)/gm)) {
    (times[tool] ??= {})[le] = Number(count);
  }
  return times;
}

/// The smallest bucket bound (ms) holding 99% of the calls between two readings: the daemon's p99 is at most that.
function bucketOf99(before = {}, after = {}) {
  const bounds = Object.keys(after).sort((a, b) => Number(a) - Number(b));
  const total = (after["+Inf"] ?? 0) - (before["+Inf"] ?? 0);
  const bound = bounds.find((le) => after[le] - (before[le] ?? 0) >= 0.99 * total);
  return { calls: total, p99AtMostMs: bound === "+Inf" ? null : Number(bound) * 1000 };
}

/// CPU milliseconds of the daemon and of its children (the Roslyn hosts).
function cpu(pid) {
  const parentOf = (entry) => { try { return Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ")[1]); } catch { return null; } };
  const hosts = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry) && parentOf(entry) === pid);
  return { daemon: cpuMs(pid), hosts: hosts.reduce((sum, host) => sum + (cpuMs(host) ?? 0), 0) };
}

/// A client process: `count` sessions, warmed up, then (on "go") `rounds` rounds each; prints their samples.
async function sessions(url, token, root, count, rounds) {
  const clients = await Promise.all(Array.from({ length: Number(count) }, () => httpClient(url, token)));
  const about = question(root);
  const samples = { diagnose: [], find_references: [] };
  const loop = (n, keep) => Promise.all(clients.map(async (client) => {
    for (let i = 0; i < n; i++) {
      const d = await timed(() => call(client, "diagnose", {}));
      const f = await timed(() => call(client, "find_references", about));
      if (keep) { samples.diagnose.push(d); samples.find_references.push(f); }
    }
  }));
  await loop(10, false);
  const input = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  console.log("ready");
  await input.next();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const used = process.cpuUsage();
  await loop(Number(rounds), true);
  const { user, system } = process.cpuUsage(used);
  delay.disable();
  console.log(JSON.stringify({ ...samples, cpuMs: (user + system) / 1000, eventLoopDelayP99: delay.percentile(99) / 1e6 }));
  await Promise.all(clients.map((c) => c.close()));
  process.exit(0);
}

/// Asks /healthz, /metrics and diagnose every 20 ms until its input ends, then prints their percentiles.
async function probe(url, token) {
  const client = await httpClient(url, token, "node-bench-prober");
  const samples = { healthz: [], metrics: [], diagnose: [] };
  const get = async (path) => {
    const response = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    await response.text();
  };
  let stopped = false;
  process.stdin.on("end", () => (stopped = true)).resume();
  console.log("ready");
  while (!stopped) {
    samples.healthz.push(await timed(() => get("/healthz")));
    samples.metrics.push(await timed(() => get("/metrics")));
    samples.diagnose.push(await timed(() => call(client, "diagnose", {})));
    await sleep(20);
  }
  console.log(JSON.stringify(Object.fromEntries(Object.entries(samples).map(([k, s]) => [k, percentiles(s)]))));
  await client.close();
  process.exit(0);
}
