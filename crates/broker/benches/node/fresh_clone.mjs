// A fresh clone whose projects take a source generator from a project of the repository (Refit's
// InterfaceStubGenerator): restored, never built, as `git clone` and `dotnet restore` leave it. Each round copies
// the repository afresh, restores it (not measured), starts a daemon and asks, as the official TypeScript SDK
// client over Streamable HTTP: initialize_workspace (answers once loaded, the generator build included), then
// find_references of the question. Two settings, in one run, alternating which goes first:
// `--generator-build copy` (the default: the service builds the generator in its own copy) against
// `--generator-build off` (the solution goes without what the generator writes): the baseline of the ratio.
// Reported per round: load, first answer, references (and how many are in generated code), the notices.
// Usage: npm install && node fresh_clone.mjs <roslyn-mcp> <repository> <solution (relative)> <file:line:column> [rounds]
// e.g. Refit: node fresh_clone.mjs target/release/roslyn-mcp ../shared/corpora/refit src/Refit.corpus.slnx
//   src/Refit/RestService.cs:238:21
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDaemon, timed } from "./daemon.mjs";

const [bin, repository, solutionArg, questionArg, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 2);
const [file, line, column] = questionArg.split(":");
const settings = ["copy", "off"];
console.log(`TypeScript SDK client, fresh clone of ${repository} (${solutionArg}), find_references at ${questionArg}`);
for (let round = 0; round < rounds; round++) {
  for (const setting of round % 2 ? [...settings].reverse() : settings) {
    console.log(JSON.stringify({ round, setting, ...(await measure(setting)) }));
  }
}

async function measure(setting) {
  const root = mkdtempSync(join(tmpdir(), "roslyn-mcp-fresh-"));
  cpSync(repository, root, { recursive: true });
  execFileSync("chmod", ["-R", "u+w", root]);
  const solution = join(root, solutionArg);
  execFileSync("dotnet", ["restore", solution, "-nologo", "-v:q"], { stdio: "ignore" });
  const daemon = await startDaemon(bin, root, { ROSLYN_MCP_GENERATOR_BUILD: setting });
  try {
    const client = await daemon.http();
    const load = await timed(() => patiently(client, "initialize_workspace", { workingDirectory: root, preferredSolution: solution }));
    let answer;
    const first = await timed(async () => {
      answer = await patiently(client, "find_references", { filePath: join(root, file), line: Number(line), column: Number(column) });
    });
    const references = answer.structuredContent.references ?? [];
    const generated = references.filter((r) => r.filePath.startsWith("roslyn-mcp://generated/")).length;
    const notices = answer._meta?.["roslyn-mcp/notices"] ?? [];
    await client.close();
    return { loadMs: Math.round(load), firstAnswerMs: Math.round(first), totalMs: Math.round(load + first), references: references.length, generated, notices };
  } finally {
    daemon.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

/// A call as a patient agent makes it: one answered with its job (LOADING while the solution loads, or
/// `running`) is followed with get_job until its own answer comes.
async function patiently(client, name, args) {
  let answer = await client.callTool({ name, arguments: args });
  for (;;) {
    const content = answer.structuredContent ?? {};
    const job = content.status === "running" ? content.jobId : content.error?.code === "LOADING" ? content.error.details?.jobId : null;
    if (!job) break;
    answer = await client.callTool({ name: "get_job", arguments: { jobId: job, waitSeconds: 30 } });
  }
  if (answer.isError) throw new Error(`${name}: ${JSON.stringify(answer.structuredContent ?? answer.content)}`);
  return answer;
}
