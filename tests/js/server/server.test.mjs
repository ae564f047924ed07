// TaskServer, the request handler core exported as a class, from the server entry
// (mcp-tasks-wasm/server). Every response is checked with the package's own validateMessage; time
// is virtual (ctx.now).
import { test } from "node:test";
import assert from "node:assert/strict";
import { request25, request26 } from "../lib/messages.mjs";

// The installed package (scripts/pack.sh), imported the way a user does: "mcp-tasks-wasm/server".
const { TaskServer, validateMessage } = await import("../.tmp/install/server.mjs");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0); // virtual time origin (Unix ms)
const EXT = "io.modelcontextprotocol/tasks";
const RELATED = "io.modelcontextprotocol/related-task";

const okResult = Object.freeze({ content: [{ type: "text", text: "done" }], isError: false });
const errorResult = Object.freeze({ content: [{ type: "text", text: "boom" }], isError: true });

let nextId = 1;

/** A V26 request: `_meta` names the version and the client capabilities (`ext`: the extension). */
const v26Request = (method, params, { ext = true } = {}) => request26(nextId++, method, params, { ext });
const v25Request = (method, params) => request25(nextId++, method, params);

/** Asserts `message` is a valid response to `request` under `version`, with the request's id. */
function assertValid(message, request, version) {
  assert.equal(message.jsonrpc, "2.0");
  assert.deepEqual(message.id, request.id);
  const r = validateMessage(message, { inReplyTo: request.method, version });
  assert.equal(r.valid, true, `${request.method} (${version}): ${JSON.stringify(r.issues)}\n${JSON.stringify(message)}`);
  assert.deepEqual(r.issues, []);
}

/** `handle` that must answer a response now; answers its message (validated). */
function respond(server, request, ctx) {
  const out = server.handle(request, ctx);
  assert.equal(out.kind, "response", JSON.stringify(out));
  assertValid(out.message, request, ctx.protocolVersion);
  return out;
}

function errorCode(message) {
  assert.ok(message.error, `expected an error response, got ${JSON.stringify(message)}`);
  return message.error.code;
}

/** Starts a task-augmented tools/call; answers the task id (the CreateTaskResult validated). */
function startTask(server, version, ctx, params = {}) {
  const request =
    version === V26
      ? v26Request("tools/call", { name: "slow", arguments: {} })
      : v25Request("tools/call", { name: "slow", arguments: {}, task: { ttl: 60_000 }, ...params });
  const start = server.beginToolCall(request, ctx, "optional");
  assert.equal(start.kind, "task", JSON.stringify(start));
  assertValid(start.response, request, version);
  return { taskId: start.taskId, request, response: start.response };
}

test("V26: tools/call -> task -> tasks/get working -> finishToolCall -> tasks/get completed", () => {
  const server = new TaskServer();
  const ctx = { protocolVersion: V26, session: "s1", now: T0 };
  const { taskId, response } = startTask(server, V26, ctx);
  assert.equal(response.result.resultType, "task");
  assert.equal(response.result.taskId, taskId);
  assert.equal(response.result.status, "working");

  const get = v26Request("tasks/get", { taskId });
  const working = respond(server, get, { ...ctx, now: T0 + 10 });
  assert.equal(working.message.result.resultType, "complete");
  assert.equal(working.message.result.status, "working");
  assert.equal(working.event, undefined);

  const finished = server.finishToolCall(taskId, { result: okResult }, T0 + 20);
  assert.equal(finished.kind, "stored");
  assert.equal(finished.task.status, "completed");
  assert.equal(finished.task.taskId, taskId);

  const get2 = v26Request("tasks/get", { taskId });
  const done = respond(server, get2, { ...ctx, now: T0 + 30 });
  assert.equal(done.message.result.status, "completed");
  assert.deepEqual(done.message.result.result.content, okResult.content);

  // Another session does not see it.
  const other = respond(server, v26Request("tasks/get", { taskId }), { ...ctx, session: "s2" });
  assert.equal(errorCode(other.message), -32602);

  // A second outcome changes nothing.
  const again = server.finishToolCall(taskId, { error: { code: -32603, message: "late" } }, T0 + 40);
  assert.deepEqual(again, { kind: "already-terminal", status: "completed" });
  assert.deepEqual(server.finishToolCall("0".repeat(32), { result: okResult }, T0), { kind: "gone" });
});

test("V26: a request not declaring the extension gets -32021 with data; tasks/result is -32601", () => {
  const server = new TaskServer();
  const ctx = { protocolVersion: V26, now: T0 };
  const { taskId } = startTask(server, V26, ctx);

  const undeclared = v26Request("tasks/get", { taskId }, { ext: false });
  const out = respond(server, undeclared, ctx);
  assert.equal(errorCode(out.message), -32021);
  assert.deepEqual(out.message.error.data, { requiredCapabilities: { extensions: { [EXT]: {} } } });

  for (const method of ["tasks/result", "tasks/list"]) {
    const request = v26Request(method, method === "tasks/result" ? { taskId } : {});
    assert.equal(errorCode(respond(server, request, ctx).message), -32601, method);
  }

  // A required tool without the extension is refused; a forbidden one runs synchronously.
  const call = v26Request("tools/call", { name: "t", arguments: {} }, { ext: false });
  const refused = server.beginToolCall(call, ctx, "required");
  assert.equal(refused.kind, "reject");
  assertValid(refused.response, call, V26);
  assert.equal(errorCode(refused.response), -32021);
  assert.deepEqual(server.beginToolCall(v26Request("tools/call", { name: "t" }), ctx, "forbidden"), { kind: "sync" });
});

test("V25: tools/call with params.task -> CreateTaskResult -> tasks/result pending -> finishToolCall -> settle", () => {
  const server = new TaskServer();
  const ctx = { protocolVersion: V25, session: "s1", now: T0 };
  const { taskId, response } = startTask(server, V25, ctx);
  assert.equal(response.result.task.taskId, taskId);
  assert.equal(response.result.task.status, "working");
  assert.equal(response.result.task.ttl, 60_000);

  const resultRequest = v25Request("tasks/result", { taskId });
  const pending = server.handle(resultRequest, { ...ctx, now: T0 + 5 });
  assert.deepEqual(pending, { kind: "pending", requestId: resultRequest.id, taskId, session: "s1" });
  assert.equal(server.settle(pending, T0 + 6), null, "still working: nothing to send");

  assert.equal(server.finishToolCall(taskId, { result: okResult }, T0 + 10).kind, "stored");
  const message = server.settle(pending, T0 + 11);
  assertValid(message, resultRequest, V25);
  assert.deepEqual(message.result.content, okResult.content);
  assert.deepEqual(message.result._meta[RELATED], { taskId });

  // tasks/get and tasks/list answer the V25 shapes.
  assert.equal(respond(server, v25Request("tasks/get", { taskId }), ctx).message.result.status, "completed");
  const list = respond(server, v25Request("tasks/list", {}), ctx).message.result;
  assert.deepEqual(list.tasks.map((t) => t.taskId), [taskId]);
});

test("V25: cancel answers the cancelled task with an event, a terminal task -32602; settle after cancel", () => {
  const server = new TaskServer();
  const ctx = { protocolVersion: V25, now: T0 };
  const { taskId } = startTask(server, V25, ctx);
  const resultRequest = v25Request("tasks/result", { taskId });
  const pending = server.handle(resultRequest, ctx);
  assert.equal(pending.kind, "pending");

  const cancel = v25Request("tasks/cancel", { taskId });
  const cancelled = respond(server, cancel, ctx);
  assert.equal(cancelled.message.result.status, "cancelled");
  assert.deepEqual(cancelled.event, { kind: "cancelled", taskId });

  const settled = server.settle(pending, T0 + 1);
  assertValid(settled, resultRequest, V25);
  assert.ok(settled.error, JSON.stringify(settled));

  const again = respond(server, v25Request("tasks/cancel", { taskId }), ctx);
  assert.equal(errorCode(again.message), -32602);
  assert.equal(again.event, undefined);

  // The work finishing after the cancel loses.
  assert.deepEqual(server.finishToolCall(taskId, { result: okResult }, T0 + 2), {
    kind: "already-terminal",
    status: "cancelled",
  });

  // V26 cancel of a terminal task is an idempotent ack.
  const v26 = { protocolVersion: V26, now: T0 };
  const t26 = startTask(server, V26, v26).taskId;
  server.finishToolCall(t26, { result: okResult }, T0);
  const ack = respond(server, v26Request("tasks/cancel", { taskId: t26 }), v26);
  assert.deepEqual(ack.message.result, { resultType: "complete" });
});

test("isError: V25 task failed (tasks/result gives the result), V26 task completed", () => {
  const server = new TaskServer();
  const c25 = { protocolVersion: V25, now: T0 };
  const t25 = startTask(server, V25, c25).taskId;
  const f25 = server.finishToolCall(t25, { result: errorResult }, T0 + 1);
  assert.equal(f25.kind, "stored");
  assert.equal(f25.task.status, "failed");
  const get25 = respond(server, v25Request("tasks/get", { taskId: t25 }), c25);
  assert.equal(get25.message.result.status, "failed");
  const res = v25Request("tasks/result", { taskId: t25 });
  const out = respond(server, res, c25);
  assert.equal(out.message.result.isError, true);
  assert.deepEqual(out.message.result._meta[RELATED], { taskId: t25 });

  const c26 = { protocolVersion: V26, now: T0 };
  const t26 = startTask(server, V26, c26).taskId;
  const f26 = server.finishToolCall(t26, { result: errorResult }, T0 + 1);
  assert.equal(f26.task.status, "completed");
  const get26 = respond(server, v26Request("tasks/get", { taskId: t26 }), c26);
  assert.equal(get26.message.result.status, "completed");
  assert.equal(get26.message.result.result.isError, true);

  // A thrown JSON-RPC error fails the task in both versions, and tasks/result answers it.
  const t = startTask(server, V25, c25).taskId;
  const failed = server.finishToolCall(t, { error: { code: -32000, message: "tool crashed", data: { x: 1 } } }, T0);
  assert.equal(failed.task.status, "failed");
  const r = v25Request("tasks/result", { taskId: t });
  const answer = respond(server, r, c25).message;
  assert.deepEqual(answer.error, { code: -32000, message: "tool crashed", data: { x: 1 } });
});

test("V25 tool-call rules: declarations, forbidden, required; sync responses per version", () => {
  const server = new TaskServer();
  const ctx = { protocolVersion: V25, now: T0 };
  const augmented = () => v25Request("tools/call", { name: "t", arguments: {}, task: {} });

  const forbidden = augmented();
  const f = server.beginToolCall(forbidden, ctx, "forbidden");
  assert.equal(f.kind, "reject");
  assertValid(f.response, forbidden, V25);
  assert.equal(errorCode(f.response), -32601);

  const plain = v25Request("tools/call", { name: "t", arguments: {} });
  const r = server.beginToolCall(plain, ctx, "required");
  assert.equal(errorCode(r.response), -32601);
  assert.deepEqual(server.beginToolCall(plain, ctx, "optional"), { kind: "sync" });

  // Not declared tasks.requests.tools.call: params.task is ignored.
  const undeclared = { ...ctx, declared: { list: true, cancel: true } };
  assert.deepEqual(server.beginToolCall(augmented(), undeclared, "optional"), { kind: "sync" });
  // Not declared tasks.list / tasks.cancel: -32601.
  const list = v25Request("tasks/list", {});
  assert.equal(errorCode(respond(server, list, { ...ctx, declared: {} }).message), -32601);

  const sync25 = server.syncToolResponse(plain, ctx, { result: okResult });
  assertValid(sync25, plain, V25);
  assert.equal(sync25.result.resultType, undefined);
  const call26 = v26Request("tools/call", { name: "t", arguments: {} });
  const sync26 = server.syncToolResponse(call26, { protocolVersion: V26 }, { result: errorResult });
  assertValid(sync26, call26, V26);
  assert.equal(sync26.result.resultType, "complete");
  assert.equal(sync26.result.isError, true);
  const thrown = server.syncToolResponse(plain, ctx, { error: { code: -32602, message: "bad args" } });
  assertValid(thrown, plain, V25);
  assert.equal(errorCode(thrown), -32602);
});

test("handle: not-handled, notifications, JSON text requests", () => {
  const server = new TaskServer();
  const ctx = { protocolVersion: V25, now: T0 };
  assert.deepEqual(server.handle(v25Request("tools/list", {}), ctx), { kind: "not-handled" });
  assert.deepEqual(server.handle({ jsonrpc: "2.0", id: 1, result: {} }, ctx), { kind: "not-handled" });
  assert.deepEqual(
    server.handle({ jsonrpc: "2.0", method: "tasks/get", params: { taskId: "x" } }, ctx),
    { kind: "none" },
  );
  const request = v25Request("tasks/get", { taskId: "nope" });
  const out = server.handle(JSON.stringify(request), ctx);
  assert.equal(out.kind, "response");
  assertValid(out.message, request, V25);
  assert.equal(errorCode(out.message), -32602);
});

test("host methods: setStatus, raiseInput, tasks/update event, sweep", () => {
  const server = new TaskServer({ defaultTtlMs: 1000 });
  const ctx = { protocolVersion: V26, session: "s1", now: T0 };
  const { taskId } = startTask(server, V26, ctx);
  assert.equal(server.setStatus(taskId, "working", "halfway", T0 + 1).v26.statusMessage, "halfway");
  const raised = server.raiseInput(
    taskId,
    { ask: { method: "elicitation/create", params: { message: "name?", requestedSchema: { type: "object", properties: {} } } } },
    null,
    T0 + 2,
  );
  assert.equal(raised.status, "input_required");
  const update = v26Request("tasks/update", { taskId, inputResponses: { ask: { action: "accept", content: {} } } });
  const out = respond(server, update, { ...ctx, now: T0 + 3 });
  assert.deepEqual(out.event, { kind: "input-taken", taskId, accepted: ["ask"] });
  assert.equal(server.getTask(taskId, T0 + 4).status, "working");
  assert.equal(server.sweep(T0 + 10_000), 1);
  assert.throws(() => server.getTask(taskId, T0 + 10_001), (e) => e.name === "TaskStoreError" && e.code === -32602);
});

test("malformed arguments throw TypeError", () => {
  const server = new TaskServer();
  const request = v25Request("tasks/get", { taskId: "x" });
  const isType = (e) => e instanceof TypeError;
  assert.throws(() => server.handle(request), isType);
  assert.throws(() => server.handle(request, {}), isType);
  assert.throws(() => server.handle(request, { protocolVersion: "2024-11-05" }), isType);
  assert.throws(() => server.handle(request, { protocolVersion: V25, now: -1 }), isType);
  assert.throws(() => server.handle(request, { protocolVersion: V25, declared: { list: "yes" } }), isType);
  assert.throws(() => server.handle(undefined, { protocolVersion: V25 }), isType);
  assert.throws(() => server.beginToolCall(request, { protocolVersion: V25 }, "sometimes"), isType);
  assert.throws(() => server.finishToolCall("x", {}), isType);
  assert.throws(() => server.finishToolCall("x", { result: {}, error: { code: 1, message: "m" } }), isType);
  assert.throws(() => server.finishToolCall("x", { error: { message: "no code" } }), isType);
  assert.throws(() => server.settle({ taskId: "x" }), isType);
  assert.throws(() => new TaskServer({ pageSize: "big" }), isType);
});
