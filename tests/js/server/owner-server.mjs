// A small McpHttpServer on node:http for owners.test.mjs and replicas/owners.test.mjs (not a test
// file itself): the installed package behind a stand-in for an authentication middleware, which
// sets `req.auth` (the SDK's AuthInfo) from `Authorization: Bearer <subject>` as
// `{ token, clientId: "test-app", scopes: [], extra: { subject } }` (no header: no auth). Tools:
//   wait   a task that runs until cancelled
//   ask    a task that asks the client (elicitation) and completes with the answer
//   tuned  a task that runs until cancelled, with its own poll interval (250 ms) and TTL bounds
//          (default 5 s, max 30 s)
// Prints its URL on the first line. With `--storage sqlite:PATH` (and `--cursor-key`) the tasks
// live in that SQLite file through SharedTaskServer, as a replica; `--share-across-sessions` sets
// the store's shareAcrossSessions (a 2025-11-25 session sees the tasks of every session: of its
// owner's only, with owners).
//
//   node tests/js/server/owner-server.mjs [--storage sqlite:PATH --cursor-key HEX --replica-id NAME] [--share-across-sessions]
import http from "node:http";
import { loadStorage } from "../storage/lib.mjs";

const { McpHttpServer, SharedTaskServer, TaskHost } = await import("../.tmp/install/server.mjs");

function option(name) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const spec = option("storage");
let host;
if (spec !== undefined) {
  if (!spec.startsWith("sqlite:")) throw new Error("--storage: only sqlite:PATH here");
  const { openSqliteStorage } = await loadStorage("sqlite");
  const storage = await openSqliteStorage({ path: spec.slice("sqlite:".length), pollMs: 20 });
  const store = { shareAcrossSessions: process.argv.includes("--share-across-sessions") };
  const server = await SharedTaskServer.open(storage, { cursorKey: option("cursor-key"), replicaId: option("replica-id"), store });
  host = new TaskHost({ server });
}
const app = new McpHttpServer({ name: "owner-server", version: "1", path: "/mcp", ...(host ? { host } : {}) });
const untilCancelled = async (_args, { signal }) => {
  await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
  return { content: [{ type: "text", text: "stopped" }] };
};
app.tool("wait", { taskSupport: "optional" }, untilCancelled);
app.tool("tuned", { taskSupport: "optional", pollIntervalMs: 250, ttlMs: { default: 5_000, max: 30_000 } }, untilCancelled);
app.tool("ask", { taskSupport: "optional" }, async (_args, ctx) => {
  const answers = await ctx.requestInput({
    q: { method: "elicitation/create", params: { mode: "form", message: "Go on?", requestedSchema: { type: "object", properties: { go: { type: "boolean" } } } } },
  });
  return { content: [{ type: "text", text: JSON.stringify(answers.q) }] };
});

const server = http.createServer((req, res) => {
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "");
  if (bearer) req.auth = { token: bearer[1], clientId: "test-app", scopes: [], extra: { subject: bearer[1] } };
  app.node(req, res);
});
server.listen(0, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/mcp`);
});
