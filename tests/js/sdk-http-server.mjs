// An official SDK 1.32.2 McpServer hosting tasks (experimental, InMemoryTaskStore,
// registerToolTask), served over REAL Streamable HTTP with the SDK's
// StreamableHTTPServerTransport on node:http, bound to 127.0.0.1 in the test process, routed the
// way @modelcontextprotocol/server-everything routes it (a POST without a session gets a new
// transport and server, which answers it: `initialize` opens a session, anything else is
// refused by the SDK). Every HTTP request is recorded (method, lower-case headers, parsed body)
// so tests assert what the client sent. Not a test file itself (no `.test.` in the name).
import http from "node:http";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";

import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { InMemoryTaskStore, InMemoryTaskMessageQueue } from "@modelcontextprotocol/sdk/experimental/tasks";
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";

export const SERVER_CAPABILITIES = { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };

const text = (t) => ({ content: [{ type: "text", text: t }] });

/** Task tool handlers over the request's task store; `work(taskId, args, extra)` runs in the background. */
export function taskTool(work, ttl = 60_000) {
  return {
    async createTask(args, extra) {
      const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl ?? ttl, pollInterval: 200 });
      work(task.taskId, args, extra).catch((error) =>
        // As server-everything does: a failure of the background work marks the task failed.
        extra.taskStore.updateTaskStatus(task.taskId, "failed", String(error?.message ?? error)).catch(() => {}),
      );
      return { task };
    },
    getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
  };
}

/**
 * The test server's McpServer, with these tools:
 * - `square` (taskSupport "required"): n², 300 ms later;
 * - `echo` (taskSupport "optional"): `text`, 300 ms later (called plainly, the SDK runs the task
 *   itself and answers the final result);
 * - `plain` (registerTool: taskSupport "forbidden"): answers at once;
 * - `fails` (required): the task ends `failed` with an `isError` result;
 * - `throws` (required): the background work throws: the task is marked `failed` with no result
 *   stored (as server-everything does), so `tasks/result` answers a JSON-RPC error;
 * - `ask` (required): asks the client by `elicitation/create` with related-task `_meta` (queued,
 *   delivered on the `tasks/result` stream), then answers with what the user said;
 * - `at_once` (required) and `asks_at_once` (required): as `square` and `ask`, but the result is
 *   stored (the status set to `input_required`) inside createTask, so the CreateTaskResult
 *   already says `completed` (`input_required`): InMemoryTaskStore hands out the object it stores
 *   (SDK 1.32.2 bug, §D 7).
 */
export function buildServer() {
  const taskStore = new InMemoryTaskStore();
  const server = new McpServer(
    { name: "sdk-http-test", version: "1.0.0" },
    { capabilities: SERVER_CAPABILITIES, taskStore, taskMessageQueue: new InMemoryTaskMessageQueue() },
  );
  const tasks = server.experimental.tasks;
  tasks.registerToolTask(
    "square",
    { inputSchema: { n: z.number() }, execution: { taskSupport: "required" } },
    taskTool(async (taskId, { n }, extra) => {
      await sleep(300);
      await extra.taskStore.storeTaskResult(taskId, "completed", text(String(n * n)));
    }),
  );
  tasks.registerToolTask(
    "echo",
    { inputSchema: { text: z.string() }, execution: { taskSupport: "optional" } },
    taskTool(async (taskId, args, extra) => {
      await sleep(300);
      await extra.taskStore.storeTaskResult(taskId, "completed", text(args.text));
    }),
  );
  server.registerTool("plain", { inputSchema: { text: z.string() } }, async ({ text: t }) => text(`plain ${t}`));
  tasks.registerToolTask(
    "fails",
    { inputSchema: {}, execution: { taskSupport: "required" } },
    taskTool(async (taskId, _args, extra) => {
      await sleep(200);
      await extra.taskStore.storeTaskResult(taskId, "failed", { content: [{ type: "text", text: "disk full" }], isError: true });
    }),
  );
  tasks.registerToolTask(
    "throws",
    { inputSchema: {}, execution: { taskSupport: "required" } },
    taskTool(async () => {
      await sleep(200);
      throw new Error("the backend is down");
    }),
  );
  tasks.registerToolTask(
    "ask",
    { inputSchema: { question: z.string() }, execution: { taskSupport: "required" } },
    taskTool(async (taskId, { question }, extra) => {
      await sleep(100);
      await extra.taskStore.updateTaskStatus(taskId, "input_required", "waiting for the user");
      const answer = await extra.sendRequest(
        { method: "elicitation/create", params: { message: question, requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } } },
        ElicitResultSchema,
        { relatedTask: { taskId } },
      );
      await extra.taskStore.updateTaskStatus(taskId, "working", "answered");
      const said = answer.action === "accept" ? answer.content.name : `(${answer.action})`;
      await extra.taskStore.storeTaskResult(taskId, "completed", text(`hello ${said}`));
    }),
  );
  tasks.registerToolTask("at_once", { inputSchema: { n: z.number() }, execution: { taskSupport: "required" } }, {
    async createTask({ n }, extra) {
      const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 200 });
      await extra.taskStore.storeTaskResult(task.taskId, "completed", text(String(n * n)));
      return { task };
    },
    getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
  });
  tasks.registerToolTask("asks_at_once", { inputSchema: { question: z.string() }, execution: { taskSupport: "required" } }, {
    async createTask({ question }, extra) {
      const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 200 });
      await extra.taskStore.updateTaskStatus(task.taskId, "input_required", "waiting for the user");
      (async () => {
        const answer = await extra.sendRequest(
          { method: "elicitation/create", params: { message: question, requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } } },
          ElicitResultSchema,
          { relatedTask: { taskId: task.taskId } },
        );
        await extra.taskStore.updateTaskStatus(task.taskId, "working");
        await extra.taskStore.storeTaskResult(task.taskId, "completed", text(`hello ${answer.content?.name}`));
      })().catch((error) => extra.taskStore.updateTaskStatus(task.taskId, "failed", String(error?.message ?? error)).catch(() => {}));
      return { task };
    },
    getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
  });
  return { server, taskStore };
}

/**
 * A node:http request listener serving `build()`'s McpServer sessions, routed the way
 * @modelcontextprotocol/server-everything routes them: a POST without a session gets a new
 * transport and server (`initialize` opens a session), a known `Mcp-Session-Id` goes to its
 * transport, anything else is answered 400. `onRequest(req, body)` sees every request (`body`
 * parsed when it is JSON, else the text). Also serves bench/sdk-server.mjs.
 */
export function sdkRouter(build, { enableJsonResponse = false, onRequest = () => {} } = {}) {
  /** @type {Map<string, StreamableHTTPServerTransport>} */
  const sessions = new Map();
  /** @type {{ server: McpServer, taskStore: InMemoryTaskStore }[]} */
  const built = [];
  const listener = async (req, res) => {
    try {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const raw = Buffer.concat(chunks).toString("utf8");
      let body;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      onRequest(req, body);
      const sessionId = req.headers["mcp-session-id"];
      if (typeof sessionId === "string" && sessions.has(sessionId)) {
        await sessions.get(sessionId).handleRequest(req, res, body);
        return;
      }
      if (req.method === "POST" && sessionId === undefined) {
        const b = build();
        built.push(b);
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse,
          onsessioninitialized: (id) => sessions.set(id, transport),
          onsessionclosed: (id) => sessions.delete(id),
        });
        await b.server.connect(transport);
        await transport.handleRequest(req, res, body);
        return;
      }
      res.writeHead(400, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad Request: No valid session ID provided" } }));
    } catch (e) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(e));
    }
  };
  return { listener, sessions, built };
}

/**
 * Serves `buildServer()` sessions on http://127.0.0.1:PORT/mcp. `enableJsonResponse` answers
 * POSTs with JSON instead of SSE. Resolves `{ url, log, close }`: `log` holds every HTTP
 * request `{ method, headers, body }` (`body` parsed for POST), `close()` stops everything.
 */
export async function startSdkHttpServer({ enableJsonResponse = false } = {}) {
  const log = [];
  const { listener, sessions, built } = sdkRouter(buildServer, { enableJsonResponse, onRequest: (req, body) => log.push({ method: req.method, headers: { ...req.headers }, body }) });
  const httpServer = http.createServer(listener);
  await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const { port } = httpServer.address();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    log,
    /** The requests of one JSON-RPC method, in order. */
    calls: (m) => log.filter((r) => r.method === "POST" && r.body?.method === m),
    async close() {
      for (const t of sessions.values()) await t.close().catch(() => {});
      for (const b of built) {
        await b.server.close().catch(() => {});
        b.taskStore.cleanup();
      }
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    },
  };
}
