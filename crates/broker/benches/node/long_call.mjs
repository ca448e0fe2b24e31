// What a job adds to a long call, as the official TypeScript SDK client sees it: the same run_tests on two
// daemons of the same code base, one that answers only when the work is done (the baseline, its client
// waiting as long as it takes) and one that answers with its job after --answer-within and is followed with
// get_job (each call under the SDK's default 60-second timeout; get_job waits for the end itself, so there is
// no poll interval to count). Rounds alternate which daemon goes first. A run's own time varies by seconds
// from one run to the next, so each run is also measured against itself: its wall time in the client minus
// the work's time the answer's `_meta` gives (from the call's arrival to the work's end), which is what the
// path adds. Prints one JSON line: each path's p50 wall time and p50 added time, the job path's extra time
// (wall and added) and the ratio, and how many get_job calls a run took.
// Usage: npm install && node long_call.mjs <path of roslyn-mcp> <copy of a code base> <test project> [rounds]
// [filter] (Markdig: the copy of ../shared/corpora/markdig/src, Markdig.Tests).
import { startDaemon, timed, percentiles, call } from "./daemon.mjs";

const [bin, root, project, roundsArg, filter] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 3);
const args = filter ? { project, filter } : { project };
const env = { DOTNET_ROLL_FORWARD: "Major" };
const baseline = await startDaemon(bin, root, { ...env, ROSLYN_MCP_ANSWER_WITHIN_SECS: "3600" });
const jobbed = await startDaemon(bin, root, { ...env, ROSLYN_MCP_ANSWER_WITHIN_SECS: "10" });
try {
  const clients = { baseline: await baseline.http(), job: await jobbed.http() };
  const polls = [];
  const run = {
    // The baseline's client is told to wait as long as the run takes.
    baseline: () => clients.baseline.callTool({ name: "run_tests", arguments: args }, undefined, { timeout: 3_600_000 }),
    async job() {
      let answer = await clients.job.callTool({ name: "run_tests", arguments: args });
      const id = answer.structuredContent?.jobId;
      let asked = 0;
      while (!answer.isError && answer.structuredContent?.status === "running") {
        asked += 1;
        answer = await clients.job.callTool({ name: "get_job", arguments: { jobId: id } });
      }
      polls.push(asked);
      return answer;
    },
  };
  for (const client of Object.values(clients)) await call(client, "initialize_workspace", { workingDirectory: root });
  // The first run of each builds from nothing: not counted.
  for (const path of Object.keys(run)) await run[path]();
  polls.length = 0;
  const samples = { baseline: [], job: [] };
  const added = { baseline: [], job: [] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? ["job", "baseline"] : ["baseline", "job"];
    for (const path of order) {
      let answer;
      const wall = await timed(async () => { answer = await run[path](); });
      if (answer.isError) throw new Error(`${path}: ${JSON.stringify(answer.structuredContent)}`);
      samples[path].push(wall);
      added[path].push(wall - answer._meta["roslyn-mcp/timing"].totalMs);
    }
  }
  const [base, job] = [percentiles(samples.baseline), percentiles(samples.job)];
  const [baseAdded, jobAdded] = [percentiles(added.baseline), percentiles(added.job)];
  process.stdout.write(JSON.stringify({
    rounds, args,
    baselineMs: base.p50, jobMs: job.p50,
    extraMs: job.p50 - base.p50, ratio: job.p50 / base.p50,
    baselineAddedMs: baseAdded.p50, jobAddedMs: jobAdded.p50, extraAddedMs: jobAdded.p50 - baseAdded.p50,
    getJobCalls: polls, samples, added,
  }) + "\n");
} finally {
  baseline.stop();
  jobbed.stop();
}
