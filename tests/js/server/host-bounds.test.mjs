// TaskHost bounds under hostile load (docs/decisions/hostile-input.md), through the packed and
// installed package:
// - the work of expired / purged tasks is aborted through its AbortSignal (reason says
//   "expired"), `running` empties and `idle()` settles;
// - tasks of callers without a session (2026-07-28 stateless requests, stdio) are capped
//   all together (`maxLiveTasksWithoutSession`, default 10,000), answered like the session cap
//   (-32010, `data.limit`, §D 42); synchronous calls and sessions are not affected; and per
//   requestor (`maxLiveTasksPerRequestor`, default 1,000; `data.cap` names the cap reached).
import { test } from "node:test";
import assert from "node:assert/strict";
// The classes' internal tables and bounds, read through their deliberate test hook
// (`@internal`, absent from the typings: js/core/internals.ts).
const internals = (o) => o[Symbol.for("mcp-tasks-wasm.internals")]();

const { TaskHost, validateMessage } = await import("../.tmp/install/server.mjs");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";

let nextId = 1;
const v25 = (method, params) => ({ jsonrpc: "2.0", id: nextId++, method, params });
function v26(method, params = {}, caps = { elicitation: {}, extensions: { [EXT]: {} } }) {
  return {
    jsonrpc: "2.0",
    id: nextId++,
    method,
    params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": caps } },
  };
}

async function call(host, request, ctx) {
  const response = await host.handle(request, ctx);
  assert.ok(response, `${request.method}: no response`);
  const r = validateMessage(response, { inReplyTo: request.method, version: ctx.protocolVersion });
  assert.equal(r.valid, true, `${request.method}: ${JSON.stringify(r.issues)}\n${JSON.stringify(response)}`);
  return response;
}

const text = (t) => ({ content: [{ type: "text", text: t }] });
const elicit = { method: "elicitation/create", params: { mode: "form", message: "?", requestedSchema: { type: "object", properties: { a: { type: "string" } } } } };

test("1,000 V26 tasks waiting in requestInput, past their TTL and swept: every work aborted (expired), running empties, idle() settles", async () => {
  let now = Date.UTC(2026, 0, 1);
  const errors = [];
  const host = new TaskHost({ now: () => now, store: { defaultTtlMs: 60_000 }, onError: (e) => errors.push(e) });
  const reasons = [];
  host.tool("ask", { taskSupport: "required" }, async (_args, { requestInput, signal }) => {
    try {
      return text(JSON.stringify(await requestInput({ a: elicit })));
    } catch (e) {
      reasons.push(signal.reason);
      throw e;
    }
  });
  const ctx = { protocolVersion: V26 };
  for (let i = 0; i < 1000; i++) {
    const r = await call(host, v26("tools/call", { name: "ask", arguments: {} }), ctx);
    assert.equal(r.result.resultType, "task");
  }
  await new Promise((r) => setImmediate(r)); // every handler reaches requestInput
  assert.equal(internals(host).running.size, 1000);

  now += 30_000;
  assert.equal(host.sweep(), 0, "nothing expired yet");
  assert.equal(internals(host).running.size, 1000, "live tasks keep their work");
  assert.equal(reasons.length, 0);

  now += 60_000;
  assert.equal(host.sweep(), 1000);
  await host.idle(); // settles: the work returned
  assert.equal(internals(host).running.size, 0);
  assert.equal(reasons.length, 1000);
  for (const reason of reasons) {
    assert.equal(reason.name, "AbortError");
    assert.match(reason.message, /expired/);
  }
  assert.deepEqual(errors, [], "the dropped outcomes of purged tasks are not reported as errors");
  assert.equal(internals(host).sessionless.size, 0);
});

test("an expired task not swept yet: stopExpired() aborts its work; a live one keeps running", async () => {
  let now = Date.UTC(2026, 0, 1);
  const host = new TaskHost({ now: () => now, store: { maxTtlMs: 10_000 } });
  const aborted = [];
  host.tool("forever", {}, (args, { signal }) =>
    new Promise((_, reject) =>
      signal.addEventListener("abort", () => {
        aborted.push([args.n, signal.reason.message]);
        reject(signal.reason);
      }),
    ),
  );
  const ctx = { protocolVersion: V25, session: "s1" };
  await call(host, v25("tools/call", { name: "forever", arguments: { n: 1 }, task: { ttl: 5_000 } }), ctx);
  now += 4_000;
  const late = await call(host, v25("tools/call", { name: "forever", arguments: { n: 2 }, task: { ttl: 5_000 } }), ctx);
  now += 1_001; // the first is past createdAt + ttl, the second is not
  assert.equal(host.stopExpired(), 1);
  await new Promise((r) => setImmediate(r));
  assert.equal(aborted.length, 1);
  assert.equal(aborted[0][0], 1);
  assert.match(aborted[0][1], /expired/);
  assert.equal(internals(host).running.size, 1);
  assert.ok(internals(host).running.has(late.result.task.taskId));
  await host.close();
});

test("tasks of callers without a session are capped all together (-32010, data.limit, like the session cap); sync calls and sessions still run", async () => {
  const host = new TaskHost({ maxLiveTasksWithoutSession: 3, store: { maxLiveTasksPerSession: 2 } });
  const gates = [];
  host.tool("wait", { taskSupport: "optional" }, () => new Promise((resolve) => gates.push(() => resolve(text("done")))));
  host.tool("sync", { taskSupport: "forbidden" }, () => text("sync"));
  const stateless = { protocolVersion: V26 };
  for (let i = 0; i < 3; i++) {
    assert.equal((await call(host, v26("tools/call", { name: "wait", arguments: {} }), stateless)).result.resultType, "task");
  }
  const refused = await call(host, v26("tools/call", { name: "wait", arguments: {} }), stateless);
  assert.equal(refused.error.code, -32010);
  assert.deepEqual(refused.error.data, { limit: 3, cap: "maxLiveTasksWithoutSession" });
  assert.match(refused.error.message, /without a session/);
  // The same shape as the store's session cap.
  const s = { protocolVersion: V25, session: "s1" };
  await call(host, v25("tools/call", { name: "wait", task: {} }), s);
  await call(host, v25("tools/call", { name: "wait", task: {} }), s);
  const sessionCap = await call(host, v25("tools/call", { name: "wait", task: {} }), s);
  assert.equal(sessionCap.error.code, refused.error.code);
  assert.deepEqual(Object.keys(sessionCap.error).sort(), Object.keys(refused.error).sort());
  // A 2025-11-25 caller without a session shares the global cap.
  assert.equal((await call(host, v25("tools/call", { name: "wait", task: {} }), { protocolVersion: V25 })).error.code, -32010);
  // Synchronous calls are not tasks: never capped.
  assert.equal((await call(host, v26("tools/call", { name: "sync", arguments: {} }), stateless)).result.content[0].text, "sync");
  // One ends: room for one more.
  gates.shift()();
  await new Promise((r) => setImmediate(r));
  assert.equal((await call(host, v26("tools/call", { name: "wait", arguments: {} }), stateless)).result.resultType, "task");
  assert.equal((await call(host, v26("tools/call", { name: "wait", arguments: {} }), stateless)).error.code, -32010);
  // A cancelled task is no longer live: room again at once.
  const live = [...internals(host).sessionless][0];
  const cancel = await call(host, v26("tasks/cancel", { taskId: live }), stateless);
  assert.ok(cancel.result, JSON.stringify(cancel));
  assert.equal((await call(host, v26("tasks/get", { taskId: live }), stateless)).result.status, "cancelled");
  assert.equal((await call(host, v26("tools/call", { name: "wait", arguments: {} }), stateless)).result.resultType, "task");
  for (const g of gates) g();
  await host.close();
});

test("the default cap is 10,000 and the option is checked", () => {
  assert.equal(internals(new TaskHost()).maxLiveTasksWithoutSession, 10_000);
  assert.equal(internals(new TaskHost({ maxLiveTasksWithoutSession: Infinity })).maxLiveTasksWithoutSession, Infinity);
  assert.throws(() => new TaskHost({ maxLiveTasksWithoutSession: -1 }), TypeError);
  assert.throws(() => new TaskHost({ maxLiveTasksWithoutSession: 1.5 }), TypeError);
  assert.throws(() => new TaskHost({ maxLiveTasksWithoutSession: "10" }), TypeError);
});

test("per requestor: one requestor without a session fills its own cap, another still creates tasks; an ended task frees its slot (-32010, data.cap)", async () => {
  const host = new TaskHost({ maxLiveTasksPerRequestor: 2 });
  const gates = [];
  host.tool("wait", { taskSupport: "optional" }, () => new Promise((resolve) => gates.push(() => resolve(text("done")))));
  const stateless = { protocolVersion: V26 };
  const as = (requestor) => ({ requestor });
  const create = (requestor) => host.handle(v26("tools/call", { name: "wait", arguments: {} }), stateless, as(requestor));
  assert.equal((await create("client:a")).result.resultType, "task");
  assert.equal((await create("client:a")).result.resultType, "task");
  const refused = await create("client:a");
  assert.equal(refused.error.code, -32010);
  assert.deepEqual(refused.error.data, { limit: 2, cap: "maxLiveTasksPerRequestor" });
  assert.match(refused.error.message, /requestor/);
  assert.equal(validateMessage(refused, { inReplyTo: "tools/call", version: V26 }).valid, true);
  // Another requestor, and callers the transport cannot tell apart (no requestor), still run.
  assert.equal((await create("client:b")).result.resultType, "task");
  assert.equal((await create(null)).result.resultType, "task");
  assert.equal((await create(undefined)).result.resultType, "task");
  // One of a's ends: room for one more of a's.
  gates.shift()();
  await new Promise((r) => setImmediate(r));
  assert.equal((await create("client:a")).result.resultType, "task");
  assert.equal(internals(new TaskHost()).maxLiveTasksPerRequestor, 1_000);
  assert.throws(() => new TaskHost({ maxLiveTasksPerRequestor: -1 }), TypeError);
  for (const g of gates) g();
  await host.close();
  assert.equal(internals(host).requestorTasks.size, 0, "nothing left counted");
});
