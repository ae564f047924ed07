// McpHttpServer under hostile callers (docs/decisions/hostile-input.md), against
// examples/conformance-server.mjs run as a
// process on 127.0.0.1 (stopped by its PID at the end) and, for the cap, through the installed
// package's fetch handler:
// - a request whose `id` is null, an object, an array, a boolean or a fraction gets
//   -32600 Invalid Request with `id: null` (HTTP 400), in both eras, never a normal result;
// - under 2025-11-25 a caller without a session cannot list tasks, and two
//   sessions do not see each other's tasks (§D 38, 39);
// - 2026-07-28 stateless callers (no session) are capped all together (-32010).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startExample } from "../example-server.mjs";
import { post } from "./raw-http.mjs";
// The classes' internal tables and bounds, read through their deliberate test hook
// (`@internal`, absent from the typings: js/core/internals.ts).
const internals = (o) => o[Symbol.for("mcp-tasks-wasm.internals")]();

const { McpHttpServer, validateMessage } = await import("../.tmp/install/server.mjs");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const META = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };

let url = "";
let example;

before(async () => {
  ({ url, process: example } = await startExample());
});

after(() => {
  if (example && example.exitCode === null) process.kill(example.pid);
});

let nextId = 1;

/** POSTs one message; answers `{ status, body, headers }` (an SSE answer: its last message). */
const send = (message, headers = {}, target = url, fetchFn = fetch) => post(target, message, headers, fetchFn);

function modernHeaders(method, name) {
  const h = { "MCP-Protocol-Version": V26, "Mcp-Method": method };
  if (name !== undefined) h["Mcp-Name"] = name;
  return h;
}

async function openSession() {
  const r = await send(
    { jsonrpc: "2.0", id: nextId++, method: "initialize", params: { protocolVersion: V25, capabilities: {}, clientInfo: { name: "t", version: "1" } } },
    {},
  );
  assert.equal(r.status, 200);
  const session = r.headers.get("mcp-session-id");
  assert.ok(session);
  const headers = { "Mcp-Session-Id": session, "MCP-Protocol-Version": V25 };
  assert.equal((await send({ jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status, 202);
  return headers;
}

const BAD_IDS = [null, {}, [], [1], true, 1.5, { a: 1 }];

test("2026-07-28 requests with an id that is not a string or an integer get -32600 with id null", async () => {
  const calls = [
    ["ping", {}, undefined],
    ["server/discover", {}, undefined],
    ["tools/list", {}, undefined],
    ["tools/call", { name: "greet", arguments: {} }, "greet"],
    ["tasks/get", { taskId: "abc" }, "abc"],
  ];
  for (const id of BAD_IDS) {
    for (const [method, params, name] of calls) {
      const r = await send({ jsonrpc: "2.0", id, method, params: { ...params, _meta: META } }, modernHeaders(method, name));
      assert.equal(r.status, 400, `${method} id ${JSON.stringify(id)}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.id, null);
      assert.equal(r.body.error.code, -32600, JSON.stringify(r.body));
      assert.equal(r.body.result, undefined);
      assert.equal(validateMessage(r.body).valid, true, JSON.stringify(validateMessage(r.body).issues));
    }
  }
  // Good ids still work: a string and an integer.
  for (const id of ["x-1", 7]) {
    const r = await send({ jsonrpc: "2.0", id, method: "ping", params: { _meta: META } }, modernHeaders("ping"));
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.id, id);
  }
});

test("2025-11-25 (initialize and session requests) with such an id get -32600 with id null", async () => {
  for (const id of BAD_IDS) {
    const init = await send({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: V25, capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    assert.equal(init.status, 400);
    assert.equal(init.body.id, null);
    assert.equal(init.body.error.code, -32600);
    assert.equal(init.headers.get("mcp-session-id"), null, "no session opened");
  }
  const headers = await openSession();
  for (const id of BAD_IDS) {
    for (const [method, params] of [["ping", {}], ["tools/list", {}], ["tasks/list", {}], ["tools/call", { name: "greet", arguments: {} }]]) {
      const r = await send({ jsonrpc: "2.0", id, method, params }, headers);
      assert.equal(r.status, 400, `${method} id ${JSON.stringify(id)}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.id, null);
      assert.equal(r.body.error.code, -32600);
    }
  }
});

test("2025-11-25 tasks/list without Mcp-Session-Id is refused; two sessions do not see each other's tasks (§D 38, 39)", async () => {
  const a = await openSession();
  const b = await openSession();
  const created = await send({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 30 }, task: { ttl: 60_000 } } }, a);
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const taskId = created.body.result.task.taskId;

  // No session: refused before anything is listed.
  const anonymous = await send({ jsonrpc: "2.0", id: nextId++, method: "tasks/list", params: {} }, { "MCP-Protocol-Version": V25 });
  assert.equal(anonymous.status, 400);
  assert.equal(anonymous.body.error.code, -32600);
  assert.equal(anonymous.body.result, undefined);
  const anonymousGet = await send({ jsonrpc: "2.0", id: nextId++, method: "tasks/get", params: { taskId } }, { "MCP-Protocol-Version": V25 });
  assert.equal(anonymousGet.body.result, undefined);

  const listA = await send({ jsonrpc: "2.0", id: nextId++, method: "tasks/list", params: {} }, a);
  assert.deepEqual(listA.body.result.tasks.map((t) => t.taskId), [taskId]);
  const listB = await send({ jsonrpc: "2.0", id: nextId++, method: "tasks/list", params: {} }, b);
  assert.deepEqual(listB.body.result.tasks, [], "session b sees none of a's tasks");
  const getB = await send({ jsonrpc: "2.0", id: nextId++, method: "tasks/get", params: { taskId } }, b);
  assert.equal(getB.body.error.code, -32602, "another session's task is not found");
  const resultB = await send({ jsonrpc: "2.0", id: nextId++, method: "tasks/result", params: { taskId } }, b);
  assert.equal(resultB.body.error.code, -32602);
  // 2026-07-28 stateless callers (no session) do not see the session's task either.
  const modernGet = await send({ jsonrpc: "2.0", id: nextId++, method: "tasks/get", params: { taskId, _meta: META } }, modernHeaders("tasks/get", taskId));
  assert.equal(modernGet.body.error.code, -32602);
  await send({ jsonrpc: "2.0", id: nextId++, method: "tasks/cancel", params: { taskId } }, a);
});

test("McpHttpServer caps the live tasks of 2026-07-28 stateless callers all together (-32010, data.limit)", async () => {
  const app = new McpHttpServer({ name: "cap", version: "1", hostOptions: { maxLiveTasksWithoutSession: 2 } });
  app.tool("wait", { taskSupport: "optional" }, (_args, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))));
  const fetchFn = (request) => app.fetch(request);
  const callWait = () =>
    send({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "wait", arguments: {}, _meta: META } }, modernHeaders("tools/call", "wait"), "http://127.0.0.1/mcp", fetchFn);
  const first = await callWait();
  const second = await callWait();
  assert.equal(first.body.result.resultType, "task");
  assert.equal(second.body.result.resultType, "task");
  const third = await callWait();
  assert.equal(third.status, 200);
  assert.equal(third.body.error.code, -32010);
  assert.deepEqual(third.body.error.data, { limit: 2, cap: "maxLiveTasksWithoutSession" });
  assert.equal(validateMessage(third.body, { version: V26, inReplyTo: "tools/call" }).valid, true);
  // Cancelling one makes room.
  const taskId = first.body.result.taskId;
  const cancel = await send(
    { jsonrpc: "2.0", id: nextId++, method: "tasks/cancel", params: { taskId, _meta: META } },
    modernHeaders("tasks/cancel", taskId),
    "http://127.0.0.1/mcp",
    fetchFn,
  );
  assert.equal(cancel.status, 200);
  assert.equal((await callWait()).body.result.resultType, "task");
  await app.close();
});

test("the default McpHttpServer cap is 10,000", async () => {
  const app = new McpHttpServer({ name: "cap", version: "1" });
  assert.equal(internals(app.host).maxLiveTasksWithoutSession, 10_000);
  await app.close();
});

test("a keepAliveMs of 2^40 never reaches setInterval above 2^31-1 ms (it would fire every 1 ms)", async () => {
  const app = new McpHttpServer({ name: "ka", version: "1", keepAliveMs: 2 ** 40 });
  const fetchFn = (request) => app.fetch(request);
  const real = globalThis.setInterval;
  const delays = [];
  globalThis.setInterval = (fn, ms, ...rest) => {
    delays.push(ms);
    return real(fn, ms, ...rest);
  };
  try {
    const init = await send(
      { jsonrpc: "2.0", id: nextId++, method: "initialize", params: { protocolVersion: V25, capabilities: {}, clientInfo: { name: "t", version: "1" } } },
      {},
      "http://127.0.0.1/mcp",
      fetchFn,
    );
    const session = init.headers.get("mcp-session-id");
    const stream = await app.fetch(new Request("http://127.0.0.1/mcp", { method: "GET", headers: { Accept: "text/event-stream", "Mcp-Session-Id": session, "MCP-Protocol-Version": V25 } }));
    assert.equal(stream.status, 200);
    assert.equal(delays.length, 1, "the GET stream armed its keepalive");
    assert.ok(delays[0] <= 2 ** 31 - 1, `keepalive delay ${delays[0]}`);
    await stream.body.cancel();
  } finally {
    globalThis.setInterval = real;
    await app.close();
  }
});
