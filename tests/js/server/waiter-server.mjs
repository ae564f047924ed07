// A small McpHttpServer on node:http for requests.test.mjs (not a test file itself): the installed
// package, one task tool that runs until cancelled, and a `tables` tool answering the sizes of the
// server's public tables (the blocked `tasks/result` requests of its TaskHost, the replies in
// flight, the sessions). Prints its URL on the first line.
//
//   node tests/js/server/waiter-server.mjs [--session-ttl-ms N] [--max-waiting N]
import http from "node:http";
// The classes' internal tables and bounds, read through their deliberate test hook
// (`@internal`, absent from the typings: js/core/internals.ts).
const internals = (o) => o[Symbol.for("mcp-tasks-wasm.internals")]();

const { McpHttpServer } = await import("../.tmp/install/server.mjs");

function option(name) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : undefined;
}

const sessionTtlMs = option("session-ttl-ms");
const maxWaiting = option("max-waiting");
const app = new McpHttpServer({
  name: "waiter-server",
  version: "1",
  path: "/mcp",
  housekeepingMs: 1,
  ...(sessionTtlMs !== undefined ? { sessionTtlMs } : {}),
  ...(maxWaiting !== undefined ? { hostOptions: { maxWaitingResultsPerSession: maxWaiting } } : {}),
});
app.tool("wait", { taskSupport: "optional" }, async (_args, { signal }) => {
  await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
  return { content: [{ type: "text", text: "stopped" }] };
});
app.tool("tables", { taskSupport: "forbidden" }, () => {
  const tables = {
    waiting: [...internals(app.host).waiting.values()].reduce((n, w) => n + (w.size ?? w.length), 0),
    replies: internals(app).replies.size, // a stateless call (this one) is not among them
    sessions: internals(app).sessions.size,
  };
  return { content: [{ type: "text", text: JSON.stringify(tables) }] };
});

const server = http.createServer(app.node);
server.listen(0, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/mcp`);
});
