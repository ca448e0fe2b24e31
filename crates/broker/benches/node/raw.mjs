// Clients that do nothing but send the JSON-RPC message and parse the answer: one over HTTP (a kept-alive
// connection), one through a `roslyn-mcp stdio` bridge. Timed beside the SDK's clients, they tell the
// service's share of a transport's cost from the client library's.
import http from "node:http";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const hello = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } };

/// The answer of a response body: one JSON message, or the answer event of an event stream.
function answerOf(body, type) {
  if (!type.startsWith("text/event-stream")) return JSON.parse(body);
  const messages = body.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).filter(Boolean).map((d) => JSON.parse(d));
  return messages.find((m) => "result" in m || "error" in m);
}

export async function rawHttp(url, token) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { Authorization: `Bearer ${token}`, Accept: "application/json, text/event-stream", "Content-Type": "application/json", "MCP-Protocol-Version": "2025-11-25" };
  const post = (message) => new Promise((resolve, reject) => {
    const request = http.request(`${url}/mcp`, { method: "POST", agent, headers }, (response) => {
      let body = "";
      response.setEncoding("utf8").on("data", (chunk) => (body += chunk)).on("end", () => resolve({ response, body }));
    });
    request.on("error", reject).end(JSON.stringify(message));
  });
  const { response } = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: hello });
  headers["Mcp-Session-Id"] = response.headers["mcp-session-id"];
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  let id = 0;
  return {
    async callTool({ name, arguments: args }) {
      const { response, body } = await post({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name, arguments: args } });
      return answerOf(body, response.headers["content-type"] ?? "").result;
    },
    close: async () => agent.destroy(),
  };
}

export async function rawBridge(bin, root, state) {
  const child = spawn(bin, ["stdio"], { cwd: root, env: { ...process.env, ROSLYN_MCP_STATE_DIR: state }, stdio: ["pipe", "pipe", "ignore"] });
  const waiting = new Map();
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line);
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  let id = 0;
  const send = (method, params) => new Promise((resolve) => {
    const mine = ++id;
    waiting.set(mine, resolve);
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: mine, method, params }) + "\n");
  });
  await send("initialize", hello);
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
  return {
    callTool: async ({ name, arguments: args }) => (await send("tools/call", { name, arguments: args })).result,
    close: async () => child.kill(),
  };
}
