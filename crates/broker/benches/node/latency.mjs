// Warm call latency as the official MCP TypeScript SDK client (what most MCP clients are built on) sees it,
// over Streamable HTTP and through a `roslyn-mcp stdio` bridge to the same daemon (`roslyn-mcp serve`), so the
// difference is the transport: find_references and diagnose, p50/p99 of each and HTTP minus the bridge at
// p50. Beside them, the same two paths with bare clients (raw.mjs), which give the service's share of that
// difference. Every path is asked in turn, call by call, each going first in turn.
// Usage: npm install && node latency.mjs <path of roslyn-mcp> <copy of tests/fixtures/Shop> [calls]
// (another code base: as in load.mjs, with ROSLYN_MCP_BENCH_QUESTION).
import { startDaemon, timed, percentiles, call, question, asked } from "./daemon.mjs";
import { rawHttp, rawBridge } from "./raw.mjs";

const [bin, root, callsArg] = process.argv.slice(2);
const calls = Number(callsArg ?? 300);
const daemon = await startDaemon(bin, root);
try {
  const paths = {
    HTTP: await daemon.http(),
    bridge: await daemon.bridge(),
    "raw HTTP": await rawHttp(daemon.url, daemon.token),
    "raw bridge": await rawBridge(bin, root, daemon.state),
  };
  const questions = [["find_references", question(root)], ["diagnose", {}]];
  for (const client of Object.values(paths)) {
    await call(client, "initialize_workspace", { workingDirectory: root });
    for (let i = 0; i < 30; i++) for (const [tool, args] of questions) await call(client, tool, args);
  }
  const names = Object.keys(paths);
  const samples = Object.fromEntries(names.map((path) => [path, {}]));
  for (const [tool, args] of questions) {
    for (const path of Object.keys(paths)) samples[path][tool] = [];
    for (let i = 0; i < calls; i++) {
      const order = names.map((_, k) => names[(i + k) % names.length]);
      for (const path of order) samples[path][tool].push(await timed(() => call(paths[path], tool, args)));
    }
  }
  console.log(`TypeScript SDK client, one daemon, ${calls} warm calls of each tool on each path, interleaved, ${asked()}`);
  const stats = {};
  for (const path of Object.keys(paths)) {
    stats[path] = Object.fromEntries(Object.entries(samples[path]).map(([tool, s]) => [tool, percentiles(s)]));
    const row = Object.entries(stats[path]).map(([tool, p]) => `${tool} p50 ${p.p50.toFixed(2)} ms p99 ${p.p99.toFixed(2)} ms`);
    console.log(`${path.padEnd(11)}${row.join("   ")}`);
  }
  const gap = (http, bridge, tool) => (stats[http][tool].p50 - stats[bridge][tool].p50).toFixed(2);
  for (const [label, http, bridge] of [["SDK", "HTTP", "bridge"], ["bare", "raw HTTP", "raw bridge"]]) {
    console.log(`HTTP - bridge at p50, ${label} clients: find_references ${gap(http, bridge, "find_references")} ms, diagnose ${gap(http, bridge, "diagnose")} ms`);
  }
  await Promise.all(Object.values(paths).map((c) => c.close()));
} finally {
  daemon.stop();
}
