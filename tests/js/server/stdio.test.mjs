// McpStdioServer (js/server/stdio.ts) through the example stdio server (examples/stdio-server.mjs,
// the tools of examples/conformance-server.mjs) started as a child process and driven:
// - with raw newline-delimited JSON-RPC in both eras: initialize (2025-11-25: the process's one
//   session) or per-request `_meta` (2026-07-28, server/discover), tools/list, task-augmented
//   tools/call, tasks/get|result|cancel, an elicitation round in a 2025 task, status
//   notifications, the bound on a line;
// - by the SDK 1.32.2 Client over its StdioClientTransport calling a task tool
//   (experimental.tasks.callToolStream) and answering an elicitation;
// - by the SDK 2.4.0 Client (tools/sdk2) through TaskClient.over in legacy, auto and modern
//   negotiation: a task tool to its result and a cancel delivered.
// Every child is stopped by its PID, also on failure.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { killedAtEnd } from "../lib/pids.mjs";

const { TaskClient, TaskCancelledError } = await import("../.tmp/install/esm.mjs");
const { Client: ClientV1 } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport: StdioV1 } = await import("@modelcontextprotocol/sdk/client/stdio.js");
const { CallToolResultSchema, ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
const sdk2 = (p) => new URL(`../../../tools/sdk2/node_modules/@modelcontextprotocol/${p}`, import.meta.url).href;
const v2 = await import(sdk2("client/dist/index.mjs"));
const v2stdio = await import(sdk2("client/dist/stdio.mjs"));

/** Each test's time limit: a message that never comes fails the test instead of hanging it. */
const TIMEOUT = 120_000;
const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const RELATED = "io.modelcontextprotocol/related-task";
const SERVER = fileURLToPath(new URL("../../../examples/stdio-server.mjs", import.meta.url));

/** Processes to stop at the end (by PID), whatever happened. */
const children = killedAtEnd();

/**
 * The example stdio server as a child: `request` sends a request and resolves its response,
 * `next(pred)` the next message from the server that matches (requests and notifications too).
 */
function startRaw() {
  const child = spawn(process.execPath, [SERVER], { stdio: ["pipe", "pipe", "inherit"] });
  children.add(child.pid);
  const seen = [];
  const waiters = [];
  let buffered = "";
  const lines = [];
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (text) => {
    buffered += text;
    let nl;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      lines.push(line);
      const message = JSON.parse(line); // anything but JSON-RPC on stdout fails here
      seen.push(message);
      for (const w of [...waiters]) {
        if (w.pred(message)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(message);
        }
      }
    }
  });
  let nextId = 1;
  const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const next = (pred, from = 0) => {
    const found = seen.slice(from).find(pred);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => waiters.push({ pred, resolve }));
  };
  const request = (method, params) => {
    const id = nextId++;
    send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    return next((m) => m.id === id && m.method === undefined);
  };
  const stop = () => {
    try {
      process.kill(child.pid, "SIGKILL");
    } catch {}
    children.delete(child.pid);
  };
  return { child, send, request, next, seen, lines, stop };
}

const meta26 = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };

test("raw 2025-11-25 over stdio: initialize, tools/list, a task to its result with status notifications, an elicitation round, a cancel", { timeout: TIMEOUT }, async () => {
  const s = startRaw();
  try {
    const early = await s.request("tools/list");
    assert.equal(early.error.code, -32600, "a 2025 request before initialize is refused");
    const init = await s.request("initialize", { protocolVersion: V25, capabilities: { elicitation: {} }, clientInfo: { name: "raw", version: "1" } });
    assert.equal(init.result.protocolVersion, V25);
    assert.deepEqual(init.result.capabilities.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
    s.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    assert.deepEqual((await s.request("ping")).result, {});
    const list = await s.request("tools/list");
    const slow = list.result.tools.find((t) => t.name === "slow_compute");
    assert.deepEqual(slow.execution, { taskSupport: "optional" });

    const created = await s.request("tools/call", { name: "slow_compute", arguments: { seconds: 0.1, label: "raw" }, task: {} });
    const taskId = created.result.task.taskId;
    assert.equal(created.result.task.status, "working");
    const result = await s.request("tasks/result", { taskId });
    assert.equal(result.result.content[0].text, "raw: done after 0.1 s");
    assert.deepEqual(result.result._meta[RELATED], { taskId });
    const status = await s.next((m) => m.method === "notifications/tasks/status" && m.params.taskId === taskId && m.params.status === "completed");
    assert.equal(status.params._meta, undefined, "§D 43: the flat Task");
    assert.equal((await s.request("tasks/get", { taskId })).result.status, "completed");

    // An elicitation while the task waits: a request to the client on stdout, answered on stdin.
    // (On stdio the request goes out as soon as the task asks, maybe before tasks/result.)
    const from = s.seen.length;
    const confirm = await s.request("tools/call", { name: "confirm_delete", arguments: { filename: "a.txt" }, task: {} });
    const confirmId = confirm.result.task.taskId;
    const blocked = s.request("tasks/result", { taskId: confirmId });
    const ask = await s.next((m) => m.method === "elicitation/create", from);
    assert.equal(ask.params.message, "Delete a.txt?");
    assert.deepEqual(ask.params._meta[RELATED], { taskId: confirmId }, "§D 33");
    await s.next((m) => m.method === "notifications/tasks/status" && m.params.taskId === confirmId && m.params.status === "input_required");
    s.send({ jsonrpc: "2.0", id: ask.id, result: { action: "accept", content: { confirm: true } } });
    assert.equal((await blocked).result.content[0].text, "Deleted a.txt");

    const long = await s.request("tools/call", { name: "slow_compute", arguments: { seconds: 30 }, task: {} });
    const longId = long.result.task.taskId;
    const cancelled = await s.request("tasks/cancel", { taskId: longId });
    assert.equal(cancelled.result.status, "cancelled");
    assert.equal((await s.request("tasks/get", { taskId: longId })).result.status, "cancelled");
    const listed = await s.request("tasks/list");
    assert.deepEqual(new Set(listed.result.tasks.map((t) => t.taskId)), new Set([taskId, confirmId, longId]), "the session's tasks");
    const again = await s.request("initialize", { protocolVersion: V25, capabilities: {}, clientInfo: { name: "raw", version: "1" } });
    assert.equal(again.error.code, -32600, "one session per process");
    for (const line of s.lines) assert.ok(JSON.parse(line).jsonrpc === "2.0", `only JSON-RPC on stdout: ${line}`);
  } finally {
    s.stop();
  }
});

test("raw 2026-07-28 over stdio: server/discover, tools/list, a task to its result, tasks/cancel; a bad line is answered and the server goes on", { timeout: TIMEOUT }, async () => {
  const s = startRaw();
  try {
    const discover = await s.request("server/discover", { _meta: meta26 });
    assert.deepEqual(discover.result.supportedVersions, [V26, V25]);
    assert.deepEqual(discover.result.capabilities, { tools: {}, extensions: { [EXT]: {} } });
    assert.equal(discover.result._meta["io.modelcontextprotocol/serverInfo"].name, "mcp-tasks-wasm-stdio-server");
    const list = await s.request("tools/list", { _meta: meta26 });
    assert.ok(list.result.tools.some((t) => t.name === "slow_compute" && t.execution === undefined));
    const created = await s.request("tools/call", { name: "slow_compute", arguments: { seconds: 0.1, label: "modern" }, _meta: meta26 });
    assert.equal(created.result.resultType, "task");
    const taskId = created.result.taskId;
    let got = await s.request("tasks/get", { taskId, _meta: meta26 });
    for (let i = 0; i < 200 && got.result.status === "working"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      got = await s.request("tasks/get", { taskId, _meta: meta26 });
    }
    assert.equal(got.result.status, "completed");
    assert.equal(got.result.result.content[0].text, "modern: done after 0.1 s");
    const long = await s.request("tools/call", { name: "slow_compute", arguments: { seconds: 30 }, _meta: meta26 });
    await s.request("tasks/cancel", { taskId: long.result.taskId, _meta: meta26 });
    assert.equal((await s.request("tasks/get", { taskId: long.result.taskId, _meta: meta26 })).result.status, "cancelled");
    const old = await s.request("tools/list", { _meta: { ...meta26, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } });
    assert.equal(old.error.code, -32022);
    s.child.stdin.write("this is not json\n");
    const parse = await s.next((m) => m.error?.code === -32700);
    assert.equal(parse.id, null);
    assert.equal((await s.request("ping", { _meta: meta26 })).result.resultType, "complete", "still serving");
  } finally {
    s.stop();
  }
});

test("a line longer than maxMessageBytes is skipped and answered -32600 naming the limit; the next line is served", { timeout: TIMEOUT }, async () => {
  const { McpStdioServer } = await import("../.tmp/install/server.mjs");
  const app = new McpStdioServer({ name: "small", version: "1.0.0", maxMessageBytes: 64 });
  const out = [];
  const input = new ReadableStream({
    start(controller) {
      const enc = new TextEncoder();
      controller.enqueue(enc.encode(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${"x".repeat(40)}`));
      controller.enqueue(enc.encode(`${"y".repeat(40)}"}}\n{"jsonrpc":"2.0","id":2,`));
      controller.enqueue(enc.encode(`"method":"ping"}\n`));
      controller.close();
    },
  });
  await app.serve({ readable: input, write: (bytes) => out.push(JSON.parse(new TextDecoder().decode(bytes))) });
  assert.equal(out.length, 2, JSON.stringify(out));
  assert.deepEqual(out[0].error.data, { limit: 64, cap: "maxMessageBytes" });
  assert.equal(out[0].error.code, -32600);
  assert.equal(out[1].id, 2, "the next line was read");
  assert.equal(out[1].error.code, -32600, "(a 2025-11-25 ping before initialize)");
});

test("SDK 1.32.2 Client over StdioClientTransport: callToolStream gets a task's result, the SDK's handler answers an elicitation", { timeout: TIMEOUT }, async () => {
  const transport = new StdioV1({ command: process.execPath, args: [SERVER], stderr: "inherit" });
  const client = new ClientV1({ name: "sdk1-stdio", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const asked = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    return { action: "accept", content: { confirm: true } };
  });
  await client.connect(transport);
  const pid = transport.pid;
  children.add(pid);
  try {
    // The SDK augments a call when the tool's listed execution.taskSupport allows it.
    const { tools } = await client.listTools();
    assert.equal(tools.find((t) => t.name === "slow_compute").execution.taskSupport, "optional");
    const messages = [];
    for await (const m of client.experimental.tasks.callToolStream({ name: "slow_compute", arguments: { seconds: 0.1, label: "sdk1" } }, CallToolResultSchema)) messages.push(m);
    assert.ok(messages.some((m) => m.type === "taskCreated"), "a task was created");
    assert.equal(messages.at(-1).type, "result");
    assert.equal(messages.at(-1).result.content[0].text, "sdk1: done after 0.1 s");
    const confirm = [];
    for await (const m of client.experimental.tasks.callToolStream({ name: "confirm_delete", arguments: { filename: "s.txt" } }, CallToolResultSchema)) confirm.push(m);
    assert.equal(confirm.at(-1).result.content[0].text, "Deleted s.txt");
    assert.equal(asked.length, 1);
    const taskId = confirm.find((m) => m.type === "taskCreated").task.taskId;
    assert.deepEqual(asked[0]._meta[RELATED], { taskId });
  } finally {
    await client.close();
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
    children.delete(pid);
  }
});

for (const mode of ["legacy", "auto", "modern"]) {
  test(`SDK 2.4.0 Client, ${mode} negotiation, stdio: TaskClient.over gets a task's result and delivers a cancel`, { timeout: TIMEOUT }, async () => {
    const negotiation = { legacy: { mode: "legacy" }, auto: { mode: "auto" }, modern: { mode: { pin: V26 } } }[mode];
    const sdkClient = new v2.Client({ name: "sdk2-stdio", version: "1.0.0" }, { capabilities: { elicitation: {} }, versionNegotiation: negotiation });
    const transport = new v2stdio.StdioClientTransport({ command: process.execPath, args: [SERVER], stderr: "inherit" });
    await sdkClient.connect(transport);
    const pid = transport.pid;
    assert.ok(Number.isInteger(pid), "the SDK started the server");
    children.add(pid);
    const client = TaskClient.over(sdkClient, { handlers: { elicitation: async () => ({ action: "accept", content: { confirm: true } }) } });
    try {
      const version = mode === "legacy" ? V25 : V26;
      const done = await client.callTool("slow_compute", { seconds: 0.1, label: mode }, { task: {} });
      assert.equal(client.protocolVersion, version);
      assert.equal(done.content[0].text, `${mode}: done after 0.1 s`);
      assert.match((await client.callTool("confirm_delete", { filename: "v2.txt" }, { task: {} })).content[0].text, /Deleted v2\.txt/);

      const abort = new AbortController();
      const created = (async () => {
        for await (const e of client.events()) if (e.type === "taskCreated") return e.taskId;
      })();
      const call = client.callTool("slow_compute", { seconds: 30 }, { task: {}, signal: abort.signal });
      const taskId = await created;
      abort.abort(new Error("the user gave up"));
      const error = await call.then(() => assert.fail("the call resolved"), (e) => e);
      assert.ok(error instanceof TaskCancelledError, String(error));
      assert.equal(error.taskId, taskId);
      assert.equal(error.delivered, true, "tasks/cancel reached the server");
      const params = version === V26 ? { taskId, _meta: meta26 } : { taskId };
      assert.equal((await client.request("tasks/get", params)).status, "cancelled");
    } finally {
      await client.close();
      await sdkClient.close();
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
      children.delete(pid);
    }
  });
}
