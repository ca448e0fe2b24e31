// N Streamable HTTP sessions of one daemon (`roslyn-mcp serve`), driven by the official MCP TypeScript SDK client,
// each calling diagnose back to back, or one call every [pace] ms (the sessions spread evenly over that
// period): calls per second, p50/p99, and the CPU per call of the daemon and of this client (both share the
// machine's cores). One JSON line.
// Usage: npm install && node sessions.mjs <path of roslyn-mcp> <copy of tests/fixtures/Shop> [sessions] [calls] [pace]
import { startDaemon, sleep, timed, percentiles, cpuMs as cpu } from "./daemon.mjs";

const [bin, root, sessionsArg, callsArg, paceArg] = process.argv.slice(2);
const sessions = Number(sessionsArg ?? 50), calls = Number(callsArg ?? 200), pace = Number(paceArg ?? 0);
const daemon = await startDaemon(bin, root);
try {
  const clients = await Promise.all(Array.from({ length: sessions }, () => daemon.http()));
  const loop = async (n, samples) => Promise.all(clients.map(async (c, index) => {
    const start = performance.now() + (pace * index) / sessions;
    for (let i = 0; i < n; i++) {
      if (pace) await sleep(Math.max(0, start + i * pace - performance.now()));
      const ms = await timed(() => c.callTool({ name: "diagnose", arguments: {} }));
      samples?.push(ms);
    }
  }));
  await loop(20);
  const samples = []; const c0 = cpu(daemon.pid), n0 = process.cpuUsage(); const t0 = process.hrtime.bigint();
  await loop(calls, samples);
  const secs = Number(process.hrtime.bigint() - t0) / 1e9; const c1 = cpu(daemon.pid), n1 = process.cpuUsage(n0);
  const { p50, p99 } = percentiles(samples);
  console.log(JSON.stringify({ sessions, pace, calls: samples.length, perSec: samples.length / secs, p50, p99, daemonCpuMsPerCall: (c1 - c0) / samples.length, clientCpuMsPerCall: (n1.user + n1.system) / 1000 / samples.length }));
  await Promise.all(clients.map((c) => c.close()));
} finally { daemon.stop(); }
