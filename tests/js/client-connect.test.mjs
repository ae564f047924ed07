// TaskClient meets real servers without being told a version (docs/decisions/real-peers.md: one
// TaskClient for every server), in real time, over real HTTP on 127.0.0.1:
// - TaskClient.connect(url) to examples/conformance-server.mjs (2026-07-28: server/discover);
// - TaskClient.connect(url) to an official SDK 1.32.2 McpServer with tasks behind the SDK's
//   StreamableHTTPServerTransport (2025-11-25: the fallback to initialize, SSE and JSON answers);
// - new TaskClient({ request: requestVia(sdkClient, ResultSchema) }) over an official SDK Client
//   (its HTTP transport, and an in-memory one), no version given.
// Each test asserts the final result (or the typed error) and what went over the wire.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema, ResultSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { startExample } from "./example-server.mjs";
import { buildServer, startSdkHttpServer, taskTool } from "./sdk-http-server.mjs";

const { TaskClient, TaskFailedError, RpcError, HttpConnection, requestVia } = await import("./.tmp/install/esm.mjs");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const RELATED = "io.modelcontextprotocol/related-task";
const PKG_VERSION = JSON.parse(readFileSync(new URL("./.tmp/install/node_modules/mcp-tasks-wasm/package.json", import.meta.url), "utf8")).version;

/** A fetch that records each HTTP request (method, headers, parsed body) before sending it. */
function recordingFetch() {
  const sent = [];
  const f = (url, init) => {
    sent.push({ method: init.method, headers: init.headers, body: init.body ? JSON.parse(init.body) : undefined });
    return fetch(url, init);
  };
  return { fetch: f, sent, methods: () => sent.map((s) => s.body?.method ?? (s.body ? "(answer)" : s.method)) };
}

const accept = (content) => async () => ({ action: "accept", content });

// ---- 2026-07-28: the example server ------------------------------------------------------------

let example;
before(async () => {
  example = await startExample();
});
after(() => example?.process.kill());

test("connect() to the 2026-07-28 example server: discovered, no session; a task's final result", async () => {
  const rec = recordingFetch();
  const client = await TaskClient.connect(example.url, { fetch: rec.fetch });
  try {
    assert.equal(client.protocolVersion, V26);
    assert.equal(client.connection.protocolVersion, V26);
    assert.equal(client.connection.sessionId, null);
    assert.deepEqual(client.connection.serverCapabilities.extensions, { "io.modelcontextprotocol/tasks": {} });
    const result = await client.callTool("slow_compute", { seconds: 1, label: "connect" });
    assert.equal(result.content[0].text, "connect: done after 1 s");
    assert.deepEqual(rec.methods().slice(0, 2), ["server/discover", "tools/call"]);
    // The server offers push (docs/decisions/push.md): the client subscribes instead of polling
    // every second.
    assert.ok(rec.methods().includes("subscriptions/listen"));
    for (const s of rec.sent) {
      assert.equal(s.headers["MCP-Protocol-Version"], V26);
      assert.equal(s.headers["Mcp-Method"], s.body.method, "§D 111");
      assert.equal(s.body.params._meta["io.modelcontextprotocol/protocolVersion"], V26);
      if (s.body.method === "tasks/get") assert.equal(s.headers["Mcp-Name"], s.body.params.taskId, "§D 111");
      if (s.body.method === "tools/call") assert.equal(s.headers["Mcp-Name"], "slow_compute");
    }
  } finally {
    await client.close();
  }
  assert.ok(!rec.sent.some((s) => s.method === "DELETE"), "no session, nothing to delete");
});

test("connect() to the example server: input (confirm_delete) and MRTR before a task (test_tool_with_task) go to the handlers", async () => {
  const asked = [];
  const client = await TaskClient.connect(example.url, {
    handlers: { elicitation: async (p) => (asked.push(p.message), { action: "accept", content: { confirm: true, name: "Alice" } }) },
  });
  try {
    const deleted = await client.callTool("confirm_delete", { filename: "a.txt" });
    assert.equal(deleted.content[0].text, "Deleted a.txt");
    const mrtr = await client.callTool("test_tool_with_task", {});
    assert.match(mrtr.content[0].text, /Alice/);
    assert.equal(asked.length, 2);
  } finally {
    await client.close();
  }
});

// ---- 2025-11-25: an SDK McpServer over Streamable HTTP -----------------------------------------

let sdk;
before(async () => {
  sdk = await startSdkHttpServer();
});
after(() => sdk?.close());

/** The SDK server's log from `from` on: each POSTed JSON-RPC request. */
const posted = (from, m) => sdk.log.slice(from).filter((r) => r.method === "POST" && (m === undefined || r.body?.method === m));

test("connect() to an SDK 2025-11-25 server: discover refused, initialize, the session on every request, DELETE on close", async () => {
  const from = sdk.log.length;
  const client = await TaskClient.connect(sdk.url);
  const session = client.connection.sessionId;
  assert.equal(client.protocolVersion, V25, "the fallback");
  assert.equal(client.connection.protocolVersion, V25);
  assert.match(session, /^[0-9a-f-]{36}$/);
  assert.deepEqual(client.connection.serverCapabilities.tasks.requests, { tools: { call: {} } });
  const result = await client.callTool("square", { n: 12 });
  assert.equal(result.content[0].text, "144");
  await client.close();

  const log = sdk.log.slice(from);
  assert.deepEqual(log.slice(0, 3).map((r) => r.body?.method), ["server/discover", "initialize", "notifications/initialized"]);
  assert.equal(log[0].headers["mcp-protocol-version"], V26, "2026-07-28 tried first");
  const init = log[1].body.params;
  assert.equal(init.protocolVersion, V25);
  assert.deepEqual(init.capabilities, { tasks: {} }, "§D 46; no extensions, no input kinds without handlers");
  assert.deepEqual(init.clientInfo, { name: "mcp-tasks-wasm", version: PKG_VERSION });
  for (const r of log.slice(2)) {
    assert.equal(r.headers["mcp-session-id"], session, `${r.method} ${r.body?.method}`);
    assert.equal(r.headers["mcp-protocol-version"], V25);
  }
  assert.equal(log.at(-1).method, "DELETE", "the session is deleted on close");
});

test("2025-11-25 taskSupport: required augmented unasked, optional sync by default and a task when asked, forbidden never (§D 48)", async () => {
  const from = sdk.log.length;
  const client = await TaskClient.connect(sdk.url);
  try {
    assert.equal((await client.callTool("square", { n: 3 })).content[0].text, "9");
    assert.equal((await client.callTool("square", { n: 4 }, { task: { ttl: 30_000 } })).content[0].text, "16");
    assert.equal((await client.callTool("echo", { text: "sync" })).content[0].text, "sync");
    assert.equal((await client.callTool("echo", { text: "task" }, { task: {} })).content[0].text, "task");
    assert.equal((await client.callTool("plain", { text: "x" }, { task: { ttl: 1000 } })).content[0].text, "plain x");
  } finally {
    await client.close();
  }
  const calls = posted(from, "tools/call").map((r) => [r.body.params.name, r.body.params.task]);
  assert.deepEqual(calls, [
    ["square", {}],
    ["square", { ttl: 30_000 }],
    ["echo", undefined],
    ["echo", {}],
    ["plain", undefined],
  ]);
  assert.equal(posted(from, "tools/list").length, 1, "tools/list read once, cached");
});

test("2025-11-25 failures: an isError task seen failed and a task failed with no result reject with TaskFailedError", async () => {
  const client = await TaskClient.connect(sdk.url);
  try {
    await assert.rejects(client.callTool("fails", {}), (e) => {
      assert.ok(e instanceof TaskFailedError, String(e));
      assert.equal(e.status, "failed");
      assert.equal(e.result.isError, true);
      assert.equal(e.result.content[0].text, "disk full");
      assert.match(e.message, /disk full/);
      return true;
    });
    await assert.rejects(client.callTool("throws", {}), (e) => {
      assert.ok(e instanceof TaskFailedError, String(e));
      assert.equal(e.code, -32603, "tasks/result answered the error (§D 30)");
      assert.equal(e.statusMessage, "the backend is down");
      assert.equal(e.result, undefined);
      return true;
    });
  } finally {
    await client.close();
  }
});

test("2025-11-25 input: the server's elicitation on the tasks/result stream goes to handlers.elicitation; its answer is POSTed back", async () => {
  const from = sdk.log.length;
  const asked = [];
  const client = await TaskClient.connect(sdk.url, {
    handlers: { elicitation: async (params) => (asked.push(params), { action: "accept", content: { name: "Ada" } }) },
  });
  let taskId;
  try {
    const result = await client.callTool("ask", { question: "Your name?" });
    assert.equal(result.content[0].text, "hello Ada");
    taskId = result._meta[RELATED].taskId;
  } finally {
    await client.close();
  }
  assert.equal(asked.length, 1);
  assert.equal(asked[0].message, "Your name?");
  assert.equal(asked[0]._meta[RELATED].taskId, taskId, "the request names its task (§D 33)");
  const log = sdk.log.slice(from);
  assert.deepEqual(log[1].body.params.capabilities, { tasks: {}, elicitation: {} }, "elicitation declared with its handler");
  const answer = log.find((r) => r.method === "POST" && r.body?.result?.action === "accept");
  assert.ok(answer, "the answer was POSTed");
  assert.deepEqual(answer.body.result, { action: "accept", content: { name: "Ada" } });
  assert.equal(answer.headers["mcp-session-id"], log[2].headers["mcp-session-id"]);
  assert.ok(posted(from, "tasks/result").length >= 1);
});

test("2025-11-25 CreateTaskResult already completed / input_required (SDK 1.32.2, §D 7): survived as the task's first snapshot", async () => {
  const from = sdk.log.length;
  const asked = [];
  const client = await TaskClient.connect(sdk.url, {
    handlers: { elicitation: async (p) => (asked.push(p.message), { action: "accept", content: { name: "Lin" } }) },
  });
  const events = [];
  const seen = (async () => {
    for await (const e of client.events()) events.push([e.type, e.status]);
  })();
  try {
    assert.equal((await client.callTool("at_once", { n: 9 })).content[0].text, "81");
    assert.equal((await client.callTool("asks_at_once", { question: "Name?" })).content[0].text, "hello Lin");
  } finally {
    await client.close();
  }
  await seen;
  assert.deepEqual(asked, ["Name?"]);
  assert.equal(posted(from, "tools/call").length, 2);
  // The "taskCreated" events carry the CreateTaskResults' statuses: the peer bug happened.
  assert.deepEqual(events[0], ["taskCreated", "completed"], "created first, with the status the server gave");
  assert.ok(events.some(([type]) => type === "result"));
  assert.ok(events.some(([type, status]) => type === "taskCreated" && status === "input_required"));
  // The final payloads came from tasks/result (§D 30), not from a poll that never ends.
  assert.equal(posted(from, "tasks/result").length, 2);
});

test("connect() with a pinned version: 2025-11-25 skips discover; 2026-07-28 to a 2025 server fails typed, no fallback", async () => {
  let from = sdk.log.length;
  const pinned = await TaskClient.connect(sdk.url, { protocolVersion: V25 });
  assert.equal(posted(from)[0].body.method, "initialize");
  assert.equal((await pinned.callTool("square", { n: 5 })).content[0].text, "25");
  await pinned.close();

  from = sdk.log.length;
  await assert.rejects(TaskClient.connect(sdk.url, { protocolVersion: V26 }), (e) => e instanceof RpcError && e.status === 400);
  assert.deepEqual(posted(from).map((r) => r.body.method), ["server/discover"]);
});

test("connect() to an SDK server answering JSON (enableJsonResponse): the same fallback and result", async () => {
  const json = await startSdkHttpServer({ enableJsonResponse: true });
  try {
    const client = await TaskClient.connect(json.url);
    assert.equal(client.protocolVersion, V25);
    assert.equal((await client.callTool("square", { n: 7 })).content[0].text, "49");
    await client.close();
    assert.equal(json.log.at(-1).method, "DELETE");
  } finally {
    await json.close();
  }
});

test("HttpConnection alone: request() and notify() to the SDK server", async () => {
  const connection = await HttpConnection.open(sdk.url);
  try {
    assert.equal(connection.protocolVersion, V25);
    const { tools } = await connection.request("tools/list", {});
    assert.deepEqual(
      tools.map((t) => [t.name, t.execution?.taskSupport]).sort(),
      [
        ["ask", "required"],
        ["asks_at_once", "required"],
        ["at_once", "required"],
        ["echo", "optional"],
        ["fails", "required"],
        ["plain", "forbidden"],
        ["square", "required"],
        ["throws", "required"],
      ],
    );
    await assert.rejects(connection.request("tasks/get", { taskId: "nope" }), (e) => e instanceof RpcError && e.code === -32602);
  } finally {
    await connection.close();
  }
});

// ---- requestVia(sdkClient): the SDK session's version ------------------------------------------

test("requestVia(sdkClient) over the SDK's HTTP transport, no version given: 2025-11-25, required tools augmented, input routed", async () => {
  const from = sdk.log.length;
  const sdkClient = new Client({ name: "via", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  await sdkClient.connect(new StreamableHTTPClientTransport(new URL(sdk.url)));
  const asked = [];
  const client = new TaskClient({
    request: requestVia(sdkClient, ResultSchema, { inputRequests: { elicitation: ElicitRequestSchema } }),
    handlers: { elicitation: async (p) => (asked.push(p.message), { action: "accept", content: { name: "Grace" } }) },
  });
  try {
    assert.equal(client.protocolVersion, V25);
    assert.equal((await client.callTool("square", { n: 11 })).content[0].text, "121");
    assert.equal((await client.callTool("ask", { question: "Who?" })).content[0].text, "hello Grace");
    assert.deepEqual(asked, ["Who?"]);
    await assert.rejects(client.callTool("fails", {}), (e) => e instanceof TaskFailedError && e.result?.isError === true);
  } finally {
    await client.close();
    await sdkClient.close();
  }
  const calls = posted(from, "tools/call").map((r) => [r.body.params.name, r.body.params.task]);
  assert.deepEqual(calls, [["square", {}], ["ask", {}], ["fails", {}]]);
  for (const r of posted(from, "tools/call")) assert.equal(r.body.params._meta, undefined, "no 2026-07-28 _meta");
});

test("requestVia(sdkClient) in memory: 2025-11-25 from the SDK's capabilities; tools/list_changed refreshes the taskSupport cache", async () => {
  const { server, taskStore } = buildServer();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sdkClient = new Client({ name: "via-memory", version: "1.0.0" });
  await server.connect(serverSide);
  await sdkClient.connect(clientSide);
  const via = requestVia(sdkClient, ResultSchema, { notifications: [ToolListChangedNotificationSchema] });
  const sent = [];
  const request = Object.assign((m, p) => (sent.push([m, p]), via(m, p)), { session: via.session });
  const client = new TaskClient({ request });
  let changed;
  const seen = new Promise((resolve) => (changed = resolve));
  const notify = client.notify.bind(client);
  client.notify = (m) => (notify(m), m.method === "notifications/tools/list_changed" && changed());
  try {
    assert.equal(client.protocolVersion, V25);
    assert.equal((await client.callTool("plain", { text: "a" })).content[0].text, "plain a");
    server.experimental.tasks.registerToolTask(
      "late",
      { inputSchema: {}, execution: { taskSupport: "required" } },
      // (After a turn: work that ends before createTask returns makes SDK 1.32.2 answer a
      // CreateTaskResult already `completed`, which §D 7 forbids.)
      taskTool(async (taskId, _args, extra) => {
        await sleep(50);
        await extra.taskStore.storeTaskResult(taskId, "completed", { content: [{ type: "text", text: "late" }] });
      }),
    );
    await seen;
    assert.equal((await client.callTool("late", {})).content[0].text, "late");
  } finally {
    await client.close();
    await sdkClient.close();
    await server.close();
    taskStore.cleanup();
  }
  const lists = sent.filter(([m]) => m === "tools/list").length;
  assert.equal(lists, 2, "listed again after list_changed");
  assert.deepEqual(sent.filter(([m]) => m === "tools/call").map(([, p]) => [p.name, p.task]), [["plain", undefined], ["late", {}]]);
});

test("requestVia(sdkClient) with an explicit protocolVersion: it wins", async () => {
  const { server, taskStore } = buildServer();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sdkClient = new Client({ name: "explicit", version: "1.0.0" });
  await server.connect(serverSide);
  await sdkClient.connect(clientSide);
  const client = new TaskClient({ request: requestVia(sdkClient, ResultSchema), protocolVersion: V26 });
  assert.equal(client.protocolVersion, V26);
  await client.close();
  await sdkClient.close();
  await server.close();
  taskStore.cleanup();
});
