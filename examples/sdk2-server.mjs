#!/usr/bin/env node
// An existing server of the official TypeScript SDK v2 (`McpServer` of @modelcontextprotocol/server
// 2.x: a resource, a prompt, a plain tool) that gains the task-capable tools of examples/tools.mjs
// through the package's McpServerTasks, served by the SDK's own entries, both protocol eras:
//
//   bash scripts/build.sh                            # builds pkg/ (the package)
//   node examples/sdk2-server.mjs --port 3000        # the SDK's createMcpHandler (Streamable HTTP)
//   node examples/sdk2-server.mjs --stdio            # the SDK's serveStdio
//   node examples/sdk2-server.mjs --sessions         # 2025-11-25 on the SDK's sessionful transport
//   node examples/sdk2-server.mjs --storage sqlite:tasks.db   # tasks in SQLite (SharedTaskServer)
//
// HTTP: 2026-07-28 per-request exchanges and 2025-11-25 served statelessly (the SDK's default
// `legacy: "stateless"`: no session, so 2025-11-25 tasks are not listed and `tasks/result`
// blocks on its own POST). With --sessions, 2025-11-25 goes to the SDK's sessionful
// WebStandardStreamableHTTPServerTransport (routed by its `isLegacyRequest`, as the SDK
// documents): tasks bound to the session, listed, asking for input on the session's streams.
// stdio: one connection, one era, its 2025-11-25 tasks bound to it.
// The first line (stderr under --stdio) names the URL or says it is ready.

import http from "node:http";

// Users write:
//   import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
//   import { serveStdio } from "@modelcontextprotocol/server/stdio";
//   import { McpServerTasks } from "mcp-tasks-wasm/server";
// Here the SDK comes from tools/sdk2 (pinned), the package from pkg/.
const sdk2 = (p) => new URL(`../tools/sdk2/node_modules/${p}`, import.meta.url).href;
const { McpServer, ResourceTemplate, WebStandardStreamableHTTPServerTransport, createMcpHandler, isLegacyRequest } = await import(sdk2("@modelcontextprotocol/server/dist/index.mjs"));
const { serveStdio } = await import(sdk2("@modelcontextprotocol/server/dist/stdio.mjs"));
const { z } = await import(sdk2("zod/index.js"));
import { McpServerTasks, SharedTaskServer, TaskHost } from "../pkg/server/node.mjs";
import { TOOLS } from "./tools.mjs";
import { nodeToFetch } from "./node-fetch.mjs";

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const stdio = argv.includes("--stdio");
const sessions = argv.includes("--sessions");
const port = Number(option("port", "3000"));
const storage = option("storage", "memory");
if (!Number.isInteger(port) || port < 0 || port > 65535 || !(storage === "memory" || storage.startsWith("sqlite:"))) {
  console.error("usage: node examples/sdk2-server.mjs [--port PORT [--sessions] | --stdio] [--storage memory|sqlite:PATH]");
  process.exit(2);
}
const info = { name: "mcp-tasks-wasm-sdk2-server", version: "0.1.0" };

/** The SDK server as its author wrote it: nothing here knows about tasks. */
function buildServer() {
  const server = new McpServer(info, { capabilities: { logging: {} } });
  server.registerTool(
    "add",
    { description: "Adds two numbers (a plain SDK tool).", inputSchema: z.object({ a: z.number(), b: z.number() }) },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  server.registerResource(
    "readme",
    "note://readme",
    { title: "Read me", mimeType: "text/plain" },
    async (uri) => ({ contents: [{ uri: uri.href, text: "An SDK v2 server with tasks." }] }),
  );
  server.registerResource(
    "note",
    new ResourceTemplate("note://{name}", { list: undefined, complete: { name: (v) => ["alpha", "beta"].filter((n) => n.startsWith(v)) } }),
    { title: "A note" },
    async (uri, { name }) => ({ contents: [{ uri: uri.href, text: `note ${name}` }] }),
  );
  server.registerPrompt(
    "summarize",
    { description: "Asks for a summary.", argsSchema: z.object({ topic: z.string() }) },
    ({ topic }) => ({ messages: [{ role: "user", content: { type: "text", text: `Summarize ${topic}.` } }] }),
  );
  return server;
}

// The task tools: one McpServerTasks (one TaskHost) for every SDK instance the entries create.
let host;
let shared = null;
if (storage.startsWith("sqlite:")) {
  const { openSqliteStorage } = await import("../pkg/storage/sqlite.js");
  const cursorKey = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  shared = await SharedTaskServer.open(await openSqliteStorage({ path: storage.slice("sqlite:".length) }), { cursorKey });
  host = new TaskHost({ server: shared });
}
const tasks = new McpServerTasks({ ...info, ...(host ? { host } : {}) });
for (const { name, handler, ...options } of TOOLS) tasks.tool(name, options, handler);
const factory = () => tasks.attach(buildServer());

async function shutdown(code) {
  await tasks.host.close();
  await shared?.close();
  process.exit(code);
}

if (stdio) {
  serveStdio(factory, { onerror: (e) => console.error("sdk2-server:", e) });
  process.stdin.once("end", () => shutdown(0));
  console.error("sdk2-server: serving stdio");
} else {
  const handler = createMcpHandler(factory, { onerror: (e) => console.error("sdk2-server:", e.message), ...(sessions ? { legacy: "reject" } : {}) });
  /** --sessions: the 2025-11-25 sessions, each an SDK instance on its own transport, by id. */
  const live = new Map();
  async function legacy(request, parsedBody) {
    const id = request.headers.get("mcp-session-id");
    let transport = id === null ? undefined : live.get(id);
    if (transport === undefined) {
      if (id !== null) return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } }, { status: 404 });
      transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (sid) => live.set(sid, transport),
      });
      transport.onclose = () => live.delete(transport.sessionId);
      await factory().connect(transport);
    }
    return transport.handleRequest(request, { parsedBody });
  }
  const server = http.createServer(nodeToFetch(async (request, parsedBody) =>
    sessions && (await isLegacyRequest(request, parsedBody)) ? legacy(request, parsedBody) : handler.fetch(request)));
  server.listen(port, "127.0.0.1", () => {
    console.log(`SDK v2 server with tasks listening on http://127.0.0.1:${server.address().port}/mcp`);
  });
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, async () => {
      server.close();
      await handler.close?.();
      server.closeAllConnections();
      await shutdown(0);
    });
  }
}
