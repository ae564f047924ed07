// TaskStore, the task store core exported as a class, from the server entry
// (mcp-tasks-wasm/server). Wire shapes are checked with the package's own validateMessage; time is
// virtual (ctx.now).
import { test } from "node:test";
import assert from "node:assert/strict";

// The installed package (scripts/pack.sh), imported the way a user does: "mcp-tasks-wasm/server".
const { TaskStore, TaskServer, TaskStoreError, validateMessage } = await import("../.tmp/install/server.mjs");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0); // virtual time origin (Unix ms)
const HOUR = 3_600_000;

const result = Object.freeze({ content: [{ type: "text", text: "done" }], isError: false });

/** Asserts that `fn` throws the TaskStoreError of JSON-RPC `code` (and `kind`). */
function throwsStore(fn, code, kind) {
  let thrown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown, "expected a TaskStoreError, nothing was thrown");
  assert.ok(thrown instanceof Error, `expected an Error, got ${thrown}`);
  assert.equal(thrown.name, "TaskStoreError", thrown.message);
  assert.equal(thrown.code, code, thrown.message);
  if (kind) assert.equal(thrown.kind, kind);
  assert.equal(typeof thrown.message, "string");
  return thrown;
}

/** Asserts that `fn` throws a TypeError (a malformed argument), not a store error. */
function throwsType(fn, pattern) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof TypeError, `expected a TypeError, got ${e && e.name}: ${e && e.message}`);
    assert.equal(e.code, undefined);
    if (pattern) assert.match(e.message, pattern);
    return true;
  });
}

/** Asserts that a JSON-RPC response whose result is `resultBody` validates. */
function assertValidResult(resultBody, version, inReplyTo) {
  const message = { jsonrpc: "2.0", id: 1, result: resultBody };
  const r = validateMessage(message, { version, inReplyTo });
  assert.equal(r.valid, true, `${inReplyTo} (${version}): ${JSON.stringify(r.issues)}\n${JSON.stringify(resultBody)}`);
}

/** The member names of a StoreTask and of its V25 and V26 tasks, in order (a restored store's payloads have theirs sorted). */
function memberOrder(task) {
  return [Object.keys(task), Object.keys(task.v25), Object.keys(task.v26)];
}

function assertValidGet(task) {
  assertValidResult(task.v25, V25, "tasks/get");
  assertValidResult({ ...task.v26, resultType: "complete" }, V26, "tasks/get");
}

test("create -> get -> complete, both versions, wire shapes valid", () => {
  for (const protocolVersion of [V25, V26]) {
    const store = new TaskStore();
    const ctx = { session: "s1", now: T0 };
    const created = store.create({ protocolVersion, ttl: 60_000 }, ctx);
    assert.equal(created.status, "working");
    assert.equal(created.protocolVersion, protocolVersion);
    assert.equal(created.session, "s1");
    assert.equal(created.v25.taskId, created.taskId);
    assert.equal(created.v26.taskId, created.taskId);
    assert.equal(created.v25.createdAt, new Date(T0).toISOString());
    assert.equal(created.v25.ttl, 60_000);
    assert.equal(created.v26.ttlMs, 60_000);
    assert.equal(created.v25.pollInterval, 1000);
    assert.equal(created.expiresAtMs, T0 + 60_000);
    assertValidGet(created);

    const got = store.get(created.taskId, { session: "s1", now: T0 + 10 });
    assert.deepEqual(got, created);

    const done = store.complete(created.taskId, result, "all done", { session: "s1", now: T0 + 20 });
    assert.equal(done.status, "completed");
    assert.equal(done.v25.statusMessage, "all done");
    assert.equal(done.v26.lastUpdatedAt, new Date(T0 + 20).toISOString());
    assert.deepEqual(done.v26.result, result);
    assert.equal("result" in done.v25, false, "V25 tasks carry no payload");
    assertValidGet(store.get(created.taskId, { session: "s1", now: T0 + 30 }));
  }
});

test("failed and cancelled tasks validate in both versions", () => {
  const store = new TaskStore();
  const ctx = { now: T0 };
  const a = store.create({ protocolVersion: V26 }, ctx);
  const failed = store.fail(a.taskId, { code: -32603, message: "boom", data: { why: 1 } }, undefined, ctx);
  assert.equal(failed.status, "failed");
  assert.deepEqual(failed.v26.error, { code: -32603, message: "boom", data: { why: 1 } });
  assertValidGet(failed);

  const b = store.create({ protocolVersion: V25 }, ctx);
  const { task, changed } = store.cancel(b.taskId, V25, "Cancelled by the client", ctx);
  assert.equal(changed, true);
  assert.equal(task.status, "cancelled");
  assertValidResult(task.v25, V25, "tasks/cancel");
  assertValidGet(task);
});

test("ids are 32 lowercase hex characters, distinct over 1,000 creates", () => {
  const store = new TaskStore();
  const ids = new Set();
  for (let i = 0; i < 1000; i++) {
    const { taskId } = store.create({ protocolVersion: i % 2 ? V25 : V26 }, { now: T0 });
    assert.match(taskId, /^[0-9a-f]{32}$/);
    ids.add(taskId);
  }
  assert.equal(ids.size, 1000);
});

test("time defaults to Date.now()", () => {
  const store = new TaskStore();
  const before = Date.now();
  const t = store.create({ protocolVersion: V26 });
  const created = Date.parse(t.v26.createdAt);
  assert.ok(created >= before && created <= Date.now(), `${t.v26.createdAt}`);
  assert.equal(store.get(t.taskId).taskId, t.taskId);
});

test("session isolation: other sessions get -32602, the host sees everything", () => {
  const store = new TaskStore();
  const t = store.create({ protocolVersion: V26 }, { session: "alice", now: T0 });
  const e = throwsStore(() => store.get(t.taskId, { session: "bob", now: T0 }), -32602, "not_found");
  // Indistinguishable from an unknown id.
  const unknown = throwsStore(() => store.get("0".repeat(32), { session: "bob", now: T0 }), -32602, "not_found");
  assert.equal(e.message, unknown.message);
  throwsStore(() => store.get(t.taskId, { now: T0 }), -32602, "not_found");
  throwsStore(() => store.complete(t.taskId, result, null, { session: "bob", now: T0 }), -32602);
  throwsStore(() => store.cancel(t.taskId, V26, null, { session: "bob", now: T0 }), -32602);
  assert.equal(store.list(null, { session: "bob", now: T0 }).tasks.length, 0);
  assert.equal(store.get(t.taskId, { host: true, now: T0 }).session, "alice");
  assert.equal(store.get(t.taskId, { session: "alice", now: T0 }).status, "working");

  const shared = new TaskStore({ shareAcrossSessions: true });
  const s = shared.create({ protocolVersion: V26 }, { session: "alice", now: T0 });
  assert.equal(shared.get(s.taskId, { session: "bob", now: T0 }).taskId, s.taskId);
});

test("a thrown store error forwards as a JSON-RPC error response", () => {
  const store = new TaskStore({ maxLiveTasksPerSession: 2 });
  const ctx = { session: "s", now: T0 };
  store.create({ protocolVersion: V26 }, ctx);
  store.create({ protocolVersion: V26 }, ctx);
  const e = throwsStore(() => store.create({ protocolVersion: V26 }, ctx), -32010, "session_cap_reached");
  assert.deepEqual(e.data, { limit: 2 });
  const response = { jsonrpc: "2.0", id: 3, error: { code: e.code, message: e.message, data: e.data } };
  const r = validateMessage(response, { version: V26 });
  assert.equal(r.valid, true, JSON.stringify(r.issues));
  // Another session still has room.
  store.create({ protocolVersion: V26 }, { session: "other", now: T0 });
});

test("TTL: requested, capped, default; purged strictly after createdAt + ttl; sweep", () => {
  const store = new TaskStore({ maxTtlMs: 10 * HOUR, defaultTtlMs: HOUR });
  const short = store.create({ protocolVersion: V25, ttl: 1000 }, { now: T0 });
  const capped = store.create({ protocolVersion: V25, ttl: 100 * HOUR }, { now: T0 });
  const dflt = store.create({ protocolVersion: V26 }, { now: T0 });
  assert.equal(short.v25.ttl, 1000);
  assert.equal(capped.v25.ttl, 10 * HOUR);
  assert.equal(dflt.v26.ttlMs, HOUR);

  assert.equal(store.get(short.taskId, { now: T0 + 1000 }).status, "working"); // not before
  throwsStore(() => store.get(short.taskId, { now: T0 + 1001 }), -32602, "not_found");
  // Gone for good, whatever the clock says afterwards.
  throwsStore(() => store.get(short.taskId, { now: T0 }), -32602, "not_found");

  assert.equal(store.sweep(T0 + HOUR), 0);
  assert.equal(store.sweep(T0 + HOUR + 1), 1); // dflt
  assert.equal(store.sweep(T0 + 20 * HOUR, 0), 0); // limit 0
  assert.equal(store.sweep(T0 + 20 * HOUR), 1); // capped
  assert.equal(store.list(null, { host: true, now: T0 }).tasks.length, 0);

  const unlimited = new TaskStore({ maxTtlMs: null, defaultTtlMs: null });
  const forever = unlimited.create({ protocolVersion: V26 }, { now: T0 });
  assert.equal(forever.v26.ttlMs, null);
  assert.equal(forever.v25.ttl, null);
  assert.equal(forever.expiresAtMs, null);
  assertValidGet(forever);
  assert.equal(unlimited.get(forever.taskId, { now: T0 + 1e12 }).taskId, forever.taskId);
});

test("list pages with cursors across creates: every task listed once; foreign cursors -32602", () => {
  const store = new TaskStore({ pageSize: 3, maxLiveTasksPerSession: null });
  const ctx = { session: "a", now: T0 };
  const created = [];
  for (let i = 0; i < 7; i++) created.push(store.create({ protocolVersion: V25 }, ctx).taskId);
  store.create({ protocolVersion: V25 }, { session: "b", now: T0 }); // not a's

  const seen = [];
  let cursor;
  let pages = 0;
  do {
    const page = store.list(cursor ? { cursor } : undefined, ctx);
    assert.ok(page.tasks.length <= 3);
    assertValidResult(
      { tasks: page.tasks.map((t) => t.v25), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) },
      V25,
      "tasks/list",
    );
    seen.push(...page.tasks.map((t) => t.taskId));
    cursor = page.nextCursor;
    // Creates between pages are listed too (after the ones already seen).
    if (pages < 2) created.push(store.create({ protocolVersion: V25 }, ctx).taskId);
    pages++;
  } while (cursor !== undefined);
  assert.equal(new Set(seen).size, seen.length, "no task twice");
  assert.deepEqual(seen, created, "every task once, in creation order");

  const first = store.list({ limit: 2 }, ctx);
  assert.equal(first.tasks.length, 2);
  assert.equal(typeof first.nextCursor, "string");
  throwsStore(() => store.list({ cursor: first.nextCursor }, { session: "b", now: T0 }), -32602, "invalid_cursor");
  throwsStore(() => store.list({ cursor: first.nextCursor }, { now: T0 }), -32602, "invalid_cursor");
  throwsStore(() => store.list({ cursor: "forged" }, ctx), -32602, "invalid_cursor");
  throwsStore(() => store.list({ cursor: "" }, ctx), -32602, "invalid_cursor");
  assert.equal(store.list({ cursor: first.nextCursor }, ctx).tasks[0].taskId, created[2]);
});

test("cancel/complete race: the first terminal outcome wins", () => {
  const store = new TaskStore();
  const ctx = { now: T0 };
  // Cancel first: the late complete throws already_terminal and changes nothing.
  const a = store.create({ protocolVersion: V26 }, ctx);
  store.cancel(a.taskId, V26, null, ctx);
  throwsStore(() => store.complete(a.taskId, result, null, { now: T0 + 1 }), -32602, "already_terminal");
  throwsStore(() => store.fail(a.taskId, { code: -1, message: "x" }, null, { now: T0 + 1 }), -32602, "already_terminal");
  const after = store.get(a.taskId, { now: T0 + 2 });
  assert.equal(after.status, "cancelled");
  assert.equal(after.v26.lastUpdatedAt, new Date(T0).toISOString());

  // Complete first: the late cancel does not change it.
  const b = store.create({ protocolVersion: V26 }, ctx);
  store.complete(b.taskId, result, null, ctx);
  const ack = store.cancel(b.taskId, V26, null, { now: T0 + 1 });
  assert.equal(ack.changed, false);
  assert.equal(ack.task.status, "completed");
  assert.deepEqual(ack.task.v26.result, result);
  throwsStore(() => store.complete(b.taskId, { content: [] }, null, ctx), -32602, "already_terminal");
  assert.deepEqual(store.get(b.taskId, ctx).v26.result, result);
});

test("cancel of a terminal task: V25 throws -32602, V26 acks unchanged", () => {
  const store = new TaskStore();
  const ctx = { now: T0 };
  const t = store.create({ protocolVersion: V25 }, ctx);
  store.fail(t.taskId, { code: -32603, message: "boom" }, null, ctx);
  const e = throwsStore(() => store.cancel(t.taskId, V25, null, ctx), -32602, "already_terminal");
  assert.match(e.message, /failed/);
  const ack = store.cancel(t.taskId, V26, null, ctx);
  assert.equal(ack.changed, false);
  assert.equal(ack.task.status, "failed");
  assertValidResult({ ...ack.task.v26, resultType: "complete" }, V26, "tasks/get");
});

test("input: raise, partial take keeps input_required, full take returns to working", () => {
  const store = new TaskStore();
  const ctx = { session: "s", now: T0 };
  const t = store.create({ protocolVersion: V26 }, ctx);
  const requests = {
    name: {
      method: "elicitation/create",
      params: {
        mode: "form",
        message: "Your name?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      },
    },
    roots: { method: "roots/list", params: {} },
  };
  const raised = store.raiseInput(t.taskId, requests, "need input", ctx);
  assert.equal(raised.status, "input_required");
  assert.deepEqual(raised.v26.inputRequests, requests);
  assert.equal(raised.v25.status, "input_required");
  assertValidGet(raised);

  const partial = store.takeInput(t.taskId, { name: { action: "accept", content: { name: "Luca" } }, nope: {} }, ctx);
  assert.deepEqual(partial.accepted, ["name"]);
  assert.deepEqual(partial.ignored, ["nope"]);
  assert.equal(partial.task.status, "input_required");
  assert.deepEqual(Object.keys(partial.task.v26.inputRequests), ["roots"]);
  assertValidGet(partial.task);

  const again = store.takeInput(t.taskId, { name: { action: "decline" } }, ctx);
  assert.deepEqual(again.accepted, []);
  assert.deepEqual(again.ignored, ["name"], "an answered key is ignored");

  const full = store.takeInput(t.taskId, { roots: { roots: [] } }, ctx);
  assert.equal(full.task.status, "working");
  assert.deepEqual(full.task.inputResponses, {
    name: { action: "accept", content: { name: "Luca" } },
    roots: { roots: [] },
  });
  assertValidGet(full.task);

  // Keys are unique over the task's life.
  throwsStore(
    () => store.raiseInput(t.taskId, { name: { method: "roots/list", params: {} } }, null, ctx),
    -32603,
    "input_key_reused",
  );
  throwsStore(
    () => store.raiseInput(t.taskId, { x: { method: "tools/call", params: {} } }, null, ctx),
    -32603,
    "invalid_input_request",
  );
  // setStatus moves between the live statuses only.
  assert.equal(store.setStatus(t.taskId, "working", "still going", ctx).v26.statusMessage, "still going");
  throwsStore(() => store.setStatus(t.taskId, "completed", null, ctx), -32603, "invalid_transition");
});

test("snapshot -> restore: tasks, sessions, cursors and settings survive", () => {
  const store = new TaskStore({ pageSize: 2, recordChanges: true });
  const ctx = { session: "a", now: T0 };
  const ids = [0, 1, 2].map(() => store.create({ protocolVersion: V25, ttl: 5000 }, ctx).taskId);
  store.complete(ids[0], result, null, ctx);
  const page = store.list(null, ctx);
  const snap = store.snapshot();
  assert.equal(typeof snap, "object");
  assert.equal(snap.format, "mcp-tasks-wasm/store/1");

  for (const restored of [TaskStore.restore(snap), TaskStore.restore(JSON.stringify(snap))]) {
    const got = restored.get(ids[0], { session: "a", now: T0 + 1 });
    assert.equal(got.status, "completed");
    assert.deepEqual(got.v26.result, result);
    throwsStore(() => restored.get(ids[0], { session: "b", now: T0 + 1 }), -32602, "not_found");
    // The cursor issued before the snapshot still works.
    const next = restored.list({ cursor: page.nextCursor }, ctx);
    assert.deepEqual(next.tasks.map((t) => t.taskId), [ids[2]]);
    // New creates keep working with fresh ids.
    const fresh = restored.create({ protocolVersion: V26 }, ctx);
    assert.ok(!ids.includes(fresh.taskId));
    // Settings (recordChanges) came along; the change log did not.
    const changes = restored.takeChanges();
    assert.deepEqual(changes.map((c) => c.kind), ["created"]);
    throwsStore(() => restored.get(ids[1], { session: "a", now: T0 + 5001 }), -32602, "not_found");
  }

  throwsStore(() => TaskStore.restore({ format: "other" }), -32603, "invalid_snapshot");
  throwsStore(() => TaskStore.restore({ ...snap, cursorKey: "xyz" }), -32603, "invalid_snapshot");
  throwsStore(() => TaskStore.restore("{"), -32603, "invalid_snapshot"); // text that is not JSON
  throwsStore(() => TaskStore.restore([]), -32603, "invalid_snapshot");
});

test("takeChanges records every write with recordChanges, nothing without", () => {
  const store = new TaskStore({ recordChanges: true });
  const ctx = { now: T0 };
  const a = store.create({ protocolVersion: V26, ttl: 10 }, ctx);
  const b = store.create({ protocolVersion: V26 }, ctx);
  store.complete(b.taskId, result, null, ctx);
  store.remove(b.taskId, ctx);
  store.sweep(T0 + HOUR);
  const changes = store.takeChanges();
  assert.deepEqual(
    changes.map((c) => [c.kind, c.task?.taskId ?? c.taskId, c.task?.status ?? c.reason]),
    [
      ["created", a.taskId, "working"],
      ["created", b.taskId, "working"],
      ["updated", b.taskId, "completed"],
      ["deleted", b.taskId, "removed"],
      ["deleted", a.taskId, "expired"],
    ],
  );
  assert.equal(changes[2].record.id, b.taskId);
  // An updated change carries a ready notifications/tasks payload.
  const note = { jsonrpc: "2.0", method: "notifications/tasks", params: changes[2].task.v26 };
  const r = validateMessage(note, { version: V26 });
  assert.equal(r.valid, true, JSON.stringify(r.issues));
  assert.deepEqual(store.takeChanges(), []);

  const quiet = new TaskStore();
  quiet.create({ protocolVersion: V26 }, ctx);
  assert.deepEqual(quiet.takeChanges(), []);
});

test("malformed arguments throw TypeErrors, and the instance keeps working", () => {
  throwsType(() => new TaskStore("fast"), /options/);
  throwsType(() => new TaskStore({ maxTtlMs: -1 }), /maxTtlMs/);
  throwsType(() => new TaskStore({ pageSize: "10" }), /pageSize/);
  throwsType(() => new TaskStore({ recordChanges: 1 }), /recordChanges/);
  throwsType(() => TaskStore.restore(42), /snapshot/);

  const store = new TaskStore();
  const ctx = { now: T0 };
  const t = store.create({ protocolVersion: V26 }, ctx);
  const cases = [
    () => store.create(),
    () => store.create(null),
    () => store.create({}),
    () => store.create({ protocolVersion: "1999-01-01" }),
    () => store.create({ protocolVersion: V25, ttl: -5 }),
    () => store.create({ protocolVersion: V25, ttl: 1.5 }),
    () => store.create({ protocolVersion: V25 }, { host: true }),
    () => store.create({ protocolVersion: V25 }, "session"),
    () => store.get(42),
    () => store.get(undefined),
    () => store.get(t.taskId, { now: -1 }),
    () => store.get(t.taskId, { now: "soon" }),
    () => store.get(t.taskId, { now: 2 ** 60 }),
    () => store.get(t.taskId, { session: 5 }),
    () => store.get(t.taskId, { host: "yes" }),
    () => store.get(t.taskId, { host: true, session: "a" }),
    () => store.get(t.taskId, [1]),
    () => store.list("cursor"),
    () => store.list({ limit: "x" }),
    () => store.list({ cursor: 12 }),
    () => store.setStatus(t.taskId, "done"),
    () => store.setStatus(t.taskId, 1),
    () => store.setStatus(t.taskId, "working", 42),
    () => store.complete(t.taskId, "ok"),
    () => store.complete(t.taskId, [1, 2]),
    () => store.complete(t.taskId, null),
    () => store.complete(t.taskId, { score: NaN }),
    () => store.complete(t.taskId, { f: () => 1, n: undefined, x: [undefined] }),
    () => store.fail(t.taskId, { message: "no code" }),
    () => store.fail(t.taskId, "boom"),
    () => store.cancel(t.taskId, "2024-01-01"),
    () => store.cancel(t.taskId),
    () => store.raiseInput(t.taskId, "x"),
    () => store.takeInput(t.taskId, undefined),
    () => store.sweep("soon"),
    () => store.sweep(T0, -1),
  ];
  for (const [i, bad] of cases.entries()) {
    assert.throws(bad, (e) => {
      assert.ok(e instanceof TypeError, `case ${i} (${bad}): ${e && e.name}: ${e && e.message}`);
      return true;
    });
  }
  // A cyclic object cannot become JSON.
  const cyclic = { a: 1 };
  cyclic.self = cyclic;
  throwsType(() => store.complete(t.taskId, cyclic), /result/);
  // Deep nesting beyond the JSON parser's limit.
  let deep = {};
  for (let i = 0; i < 200; i++) deep = { d: deep };
  throwsType(() => store.complete(t.taskId, deep), /result/);

  // Nothing above changed the task, and the instance still works.
  const got = store.get(t.taskId, ctx);
  assert.equal(got.status, "working");
  assert.equal(got.v26.lastUpdatedAt, new Date(T0).toISOString());
  assert.equal(store.complete(t.taskId, result, null, ctx).status, "completed");
  assert.equal(store.list(undefined, ctx).tasks.length, 1);
});

test("a runtime without crypto.getRandomValues: the constructor throws, no weak fallback", (t) => {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, "crypto");
  if (!descriptor || !descriptor.configurable) {
    t.skip("globalThis.crypto is not configurable here");
    return;
  }
  const snap = new TaskStore().snapshot();
  try {
    Object.defineProperty(globalThis, "crypto", { value: undefined, configurable: true, writable: true });
    assert.throws(() => new TaskStore(), /crypto\.getRandomValues/);
    assert.throws(() => TaskStore.restore(snap), /crypto\.getRandomValues/);
    Object.defineProperty(globalThis, "crypto", {
      value: { getRandomValues: () => { throw new Error("no entropy"); } },
      configurable: true,
      writable: true,
    });
    assert.throws(() => new TaskStore(), /no entropy/);
  } finally {
    Object.defineProperty(globalThis, "crypto", descriptor);
  }
  assert.match(new TaskStore().create({ protocolVersion: V26 }).taskId, /^[0-9a-f]{32}$/);
});

test("failWithToolResult (V25 only) and resultOf: what tasks/result answers, without the envelope (§D 30, 31, 44)", () => {
  const store = new TaskStore();
  const ctx = { session: "s", now: T0 };
  const failing = { content: [{ type: "text", text: "bad input" }], isError: true };

  const a = store.create({ protocolVersion: V25 }, ctx);
  assert.deepEqual(store.resultOf(a.taskId, ctx), { kind: "pending" });
  const failed = store.failWithToolResult(a.taskId, failing, null, ctx);
  assert.equal(failed.status, "failed");
  assert.deepEqual(store.resultOf(a.taskId, ctx), { kind: "result", result: failing });

  const b = store.create({ protocolVersion: V25 }, ctx);
  store.complete(b.taskId, result, null, ctx);
  assert.deepEqual(store.resultOf(b.taskId, ctx), { kind: "result", result });

  const c = store.create({ protocolVersion: V25 }, ctx);
  store.fail(c.taskId, { code: -32000, message: "backend down", data: { retry: true } }, null, ctx);
  assert.deepEqual(store.resultOf(c.taskId, ctx), { kind: "error", error: { code: -32000, message: "backend down", data: { retry: true } } });

  const d = store.create({ protocolVersion: V25 }, ctx);
  store.cancel(d.taskId, V25, null, ctx);
  const cancelled = store.resultOf(d.taskId, ctx);
  assert.equal(cancelled.kind, "error");
  assert.equal(cancelled.error.code, -32602);

  // Not an isError result, or a 2026-07-28 task: refused, nothing changes.
  const e = store.create({ protocolVersion: V25 }, ctx);
  throwsStore(() => store.failWithToolResult(e.taskId, result, null, ctx), -32603, "invalid_tool_failure");
  const f = store.create({ protocolVersion: V26 }, ctx);
  throwsStore(() => store.failWithToolResult(f.taskId, failing, null, ctx), -32603, "invalid_tool_failure");
  assert.equal(store.get(f.taskId, ctx).status, "working");
  // A terminal task keeps its outcome; another session sees nothing.
  throwsStore(() => store.failWithToolResult(b.taskId, failing, null, ctx), -32602, "already_terminal");
  throwsStore(() => store.resultOf(a.taskId, { session: "other", now: T0 }), -32602, "not_found");
  assert.throws(() => store.resultOf(42, ctx), TypeError);
});

test("store errors are TaskStoreError instances (exported class, stable code and kind)", () => {
  const store = new TaskStore();
  const e = throwsStore(() => store.get("0".repeat(32), { now: T0 }), -32602, "not_found");
  assert.ok(e instanceof TaskStoreError);
  assert.equal(e.data, undefined);
  assert.ok(!("data" in e), "no data member when the error has none");
  const capped = new TaskStore({ maxLiveTasksPerSession: 1 });
  capped.create({ protocolVersion: V25 }, { session: "s", now: T0 });
  const cap = throwsStore(() => capped.create({ protocolVersion: V25 }, { session: "s", now: T0 }), -32010, "session_cap_reached");
  assert.ok(cap instanceof TaskStoreError);
  assert.deepEqual(cap.data, { limit: 1 });
  // A malformed argument stays a TypeError.
  throwsType(() => store.get(42, { now: T0 }), /task id must be a string/);
  throwsType(() => store.get("x", { session: 1 }), /`session` must be a string/);
  throwsType(() => store.get("x", { session: "s", host: true }), /not both/);
  throwsType(() => store.create({ protocolVersion: "2024-01-01" }, { now: T0 }), /protocolVersion/);
  throwsType(() => store.create({ protocolVersion: V25, ttl: -1 }, { now: T0 }), /ttl/);
  const big = new TaskStore({ maxRequestBytes: 8 });
  throwsStore(() => big.get("x", { session: "a-session-longer-than-8", now: T0 }), -32602, "too_large");
  store.free();
  capped.free();
  big.free();
});

test("answers are frozen; an unchanged task answers the same object until a write to it or its expiry", () => {
  const store = new TaskStore();
  const ctx = { session: "s", now: T0 };
  const created = store.create({ protocolVersion: V25, ttl: 1000 }, ctx);
  assert.ok(Object.isFrozen(created) && Object.isFrozen(created.v25) && Object.isFrozen(created.v26));
  assert.throws(() => {
    "use strict";
    created.v25.status = "failed";
  }, TypeError);
  const a = store.get(created.taskId, ctx);
  assert.equal(store.get(created.taskId, ctx), a, "no write since: the kept answer");
  assert.equal(store.get(created.taskId, { host: true, now: T0 }), a, "the host sees it too");
  throwsStore(() => store.get(created.taskId, { session: "other", now: T0 }), -32602, "not_found");
  throwsStore(() => store.get(created.taskId, { now: T0 }), -32602, "not_found");
  // Another task's writes change nothing here: the task is at the same revision, its answer kept.
  const other = store.create({ protocolVersion: V25 }, ctx);
  store.setStatus(other.taskId, "working", "busy", ctx);
  assert.equal(store.get(created.taskId, ctx), a, "another task's write: the kept answer");
  assert.equal(store.get(created.taskId, ctx), a);
  // A write to the task itself (a status message): a new answer, then kept in turn.
  const c = store.setStatus(created.taskId, "working", "step 2", ctx);
  assert.notEqual(c, a);
  assert.equal(c.v25.statusMessage, "step 2");
  assert.equal(store.get(created.taskId, ctx), c);
  // Deleted: the kept answer is not used.
  const gone = store.create({ protocolVersion: V25 }, ctx);
  assert.equal(store.get(gone.taskId, ctx), gone);
  store.remove(gone.taskId, ctx);
  throwsStore(() => store.get(gone.taskId, ctx), -32602, "not_found");
  // A write to the task: the new revision.
  const done = store.complete(created.taskId, result, null, { ...ctx, now: T0 + 10 });
  assert.equal(done.status, "completed");
  assert.deepEqual(done.v26.result, result);
  assert.ok(Object.isFrozen(done.v26.result.content[0]));
  // The task's answer was kept: the terminal write's answer replaces it.
  assert.equal(store.get(created.taskId, ctx), done, "a kept answer is replaced by the write's");
  // A task whose answer is not kept (restored: nothing kept) is not kept by a terminal write;
  // its next read answers an equal task, kept from then on.
  const fresh = TaskStore.restore(store.snapshot());
  const b = fresh.complete(other.taskId, result, null, { ...ctx, now: T0 + 20 });
  const read = fresh.get(other.taskId, ctx);
  assert.notEqual(read, b, "a terminal write does not start keeping an answer");
  assert.deepEqual(read, b);
  assert.equal(fresh.get(other.taskId, ctx), read, "kept from its first read");
  fresh.free();
  // Expiry (createdAt + ttl) is checked before a kept answer is used: purged strictly after.
  assert.equal(store.get(created.taskId, { ...ctx, now: T0 + 1000 }).status, "completed");
  throwsStore(() => store.get(created.taskId, { ...ctx, now: T0 + 1001 }), -32602, "not_found");
  store.free();
});

test("the V25 task of an answer is the V26 task's fields under their V25 names", () => {
  const store = new TaskStore({ maxTtlMs: null, defaultTtlMs: null, pollIntervalMs: null });
  for (const params of [{ protocolVersion: V25, ttl: 5000, pollIntervalMs: 250, statusMessage: "m" }, { protocolVersion: V26 }]) {
    const t = store.create(params, { now: T0 });
    const { v25, v26 } = t;
    assert.deepEqual(v25, {
      taskId: v26.taskId,
      status: v26.status,
      ...(v26.statusMessage === undefined ? {} : { statusMessage: v26.statusMessage }),
      createdAt: v26.createdAt,
      lastUpdatedAt: v26.lastUpdatedAt,
      ttl: v26.ttlMs,
      ...(v26.pollIntervalMs === undefined ? {} : { pollInterval: v26.pollIntervalMs }),
    });
    assert.equal(t.taskId, v26.taskId);
    assert.equal(t.status, v26.status);
    const check = validateMessage({ jsonrpc: "2.0", id: 1, result: v25 }, { protocolVersion: V25 });
    assert.equal(check.valid, true, JSON.stringify(check.issues));
  }
  store.free();
});

test("TaskServer is a TaskStore with the request methods; its host shorthands take a time", () => {
  const server = new TaskServer();
  assert.ok(server instanceof TaskStore);
  const t = server.create({ protocolVersion: V26 }, { session: "s", now: T0 });
  assert.equal(server.getTask(t.taskId, T0).taskId, t.taskId);
  assert.equal(server.setStatus(t.taskId, "working", "hello", T0 + 1).v26.statusMessage, "hello");
  assert.equal(server.setStatus(t.taskId, "working", "again", { session: "s", now: T0 + 2 }).v26.statusMessage, "again");
  throwsStore(() => server.setStatus(t.taskId, "working", null, { session: "other", now: T0 + 2 }), -32602, "not_found");
  assert.throws(() => server.getTask(t.taskId, -1), TypeError);
  const out = server.handle({ jsonrpc: "2.0", id: 7, method: "tasks/get", params: { taskId: t.taskId, _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } } } }, { protocolVersion: V26, session: "s", now: T0 + 3 });
  assert.equal(out.kind, "response");
  const restored = TaskServer.restore(server.snapshot());
  assert.ok(restored instanceof TaskServer);
  assert.equal(restored.getTask(t.taskId, T0 + 4).v26.statusMessage, "again");
  assert.ok(TaskStore.restore(server.snapshot()) instanceof TaskStore);
  server.free();
  restored.free();
});

// complete, fail and failWithToolResult answer the task's text without a payload the class holds
// (its frozen copy goes where the core says), replacing a kept answer or not. Every path must
// answer what get answers from the core's own text: a store restored from a snapshot has no kept
// answer, so its get reads the record.
test("terminal writes answer the task as the core holds it, with a kept answer or without", () => {
  const errorWithExtras = { code: -32001, message: "backend down", data: null, extra: "dropped" };
  const toolError = { content: [{ type: "text", text: "boom" }], isError: true };
  const withNull = { content: [{ type: "text", text: "x" }], structuredContent: { value: null } };
  const writes = [
    ["complete", (s, id, ctx) => s.complete(id, result, null, ctx)],
    ["complete with a message and a null in the result", (s, id, ctx) => s.complete(id, withNull, "done at last", ctx)],
    ["fail", (s, id, ctx) => s.fail(id, errorWithExtras, null, ctx)],
    ["fail with a message", (s, id, ctx) => s.fail(id, { code: -32603, message: "m" }, "failed here", ctx)],
    ["failWithToolResult", (s, id, ctx) => s.failWithToolResult(id, toolError, null, ctx)],
  ];
  const fresh = (store, id, ctx) => TaskStore.restore(store.snapshot()).get(id, ctx);
  for (const [name, write] of writes) {
    for (const path of ["kept", "numbers", "host (text)", "answered input (text)", "no session"]) {
      if (name === "failWithToolResult" && path === "answered input (text)") continue; // V25 only
      const version = path === "answered input (text)" ? V26 : V25;
      let store = new TaskStore();
      const session = path === "no session" ? undefined : "s";
      const ctx = { session, now: T0 };
      const t = store.create({ protocolVersion: version, ttl: HOUR, statusMessage: "started" }, ctx);
      if (path === "answered input (text)") {
        store.raiseInput(t.taskId, { r: { method: "roots/list", params: {} } }, "need roots", ctx);
        store.takeInput(t.taskId, { r: { roots: [] } }, { session, now: T0 + 5 });
      }
      if (path !== "kept") store = TaskStore.restore(store.snapshot()); // nothing kept
      const writeCtx = path === "host (text)" ? { host: true, now: T0 + 10 } : { session, now: T0 + 10 };
      const answered = write(store, t.taskId, writeCtx);
      const label = `${name}, ${path}`;
      assert.deepStrictEqual(answered, fresh(store, t.taskId, ctx), label);
      assert.deepStrictEqual(memberOrder(answered), memberOrder(fresh(store, t.taskId, ctx)), `${label}: members in the same order`);
      assert.deepStrictEqual(answered, store.get(t.taskId, ctx), label);
      assert.equal(answered.v26.lastUpdatedAt, new Date(T0 + 10).toISOString(), label);
      assert.ok(Object.isFrozen(answered) && Object.isFrozen(answered.v25) && Object.isFrozen(answered.v26), label);
      const payload = answered.v26.result ?? answered.v26.error;
      assert.ok(Object.isFrozen(payload), label);
      assertValidGet(answered);
      // The caller's object is neither kept nor frozen.
      assert.equal(Object.isFrozen(errorWithExtras) || Object.isFrozen(toolError) || Object.isFrozen(withNull), false);
    }
  }
  // What the core derives shows in the answer: fail's message defaults to the error's,
  // failWithToolResult's to a diagnostic, its V26 error is derived; extra error members go.
  const store = new TaskStore();
  const ctx = { session: "s", now: T0 };
  const a = store.create({ protocolVersion: V25 }, ctx);
  const failed = store.fail(a.taskId, errorWithExtras, null, ctx);
  assert.equal(failed.v26.statusMessage, "backend down");
  assert.deepStrictEqual(failed.v26.error, { code: -32001, message: "backend down", data: null });
  const b = store.create({ protocolVersion: V25 }, ctx);
  const toolFailed = store.failWithToolResult(b.taskId, toolError, null, ctx);
  assert.equal(toolFailed.v26.statusMessage, "Tool reported an error: boom");
  assert.deepStrictEqual(toolFailed.v26.error.data, { toolResult: toolError });
  assert.equal(toolFailed.v26.error.code, -32603);
  // A result JSON would lose a value of is refused as before (the class sends such results as
  // objects), and the task stays working.
  const c = store.create({ protocolVersion: V25 }, ctx);
  throwsType(() => store.complete(c.taskId, { content: [], n: NaN }, null, ctx), /NaN, Infinity or undefined/);
  throwsType(() => store.complete(c.taskId, '{"content":[]}', null, ctx), /must be an object/);
  throwsType(() => store.complete(42, result, null, ctx), /task id must be a string/);
  assert.equal(store.get(c.taskId, ctx).status, "working");
});

// The class writes a plain result's JSON text from a frozen copy of it, and the strings of a
// terminal write into the core's input buffer (longer ones, and messages with surrogates, as
// strings): whichever way, the answer equals what get answers from the core afterwards, and the
// caller's object stays the caller's.
test("terminal writes of any payload answer what get answers; the caller's object is not frozen", () => {
  class Point {
    constructor() {
      this.x = 1;
    }
  }
  const when = new Date(T0);
  const big = "é".repeat(5000);
  const payloads = [
    ["plain", () => ({ content: [{ type: "text", text: "done" }], isError: false })],
    ["negative zero, numbers, nested arrays", () => ({ content: [], n: -0, f: 1.5e300, small: 5e-324, a: [[1, [2]], {}], t: true })],
    ["members JSON leaves out", () => ({ content: [], u: undefined, fn: () => 1, s: Symbol("s") })],
    ["a null member", () => ({ content: [], structuredContent: { v: null } })],
    ["a Date and a toJSON", () => ({ content: [], when, own: { toJSON: () => "custom" } })],
    ["a class instance", () => ({ content: [], p: new Point() })],
    ["a null-prototype object", () => Object.assign(Object.create(null), { content: [], k: Object.assign(Object.create(null), { a: 1 }) })],
    ["an own __proto__ member", () => JSON.parse('{"content":[],"__proto__":{"a":1}}')],
    ["integer-like keys", () => ({ content: [], m: { b: 1, 2: "two", a: 3, 1: "one" } })],
    ["non-ASCII and escapes", () => ({ content: [{ type: "text", text: "naïve ✓ 🎉 \"q\" \\ \n\t\u0001" }] })],
    ["lone surrogates", () => ({ content: [{ type: "text", text: "a\ud800b\udc00" }], k: { "\udfff": 1 } })],
    ["every control character, boundaries of UTF-8", () => ({ content: [{ type: "text", text: String.fromCharCode(...Array.from({ length: 32 }, (_, i) => i)) + "\u007f\u0080\u07ff\u0800\uffff\u2028\ud83d\ude00\udbff\udfff" }], [String.fromCharCode(0, 10, 0x22, 0x5c)]: "k" })],
    ["about the size of the input buffer", () => ({ content: [{ type: "text", text: "y".repeat(12_000) }] })],
    ["just over the size of the input buffer", () => ({ content: [{ type: "text", text: "y".repeat(12_250) }] })],
    ["escapes at the end of the input buffer", () => ({ content: [{ type: "text", text: "y".repeat(12_180) + "\u0001\ud800" }] })],
    ["longer than the input buffer", () => ({ content: [{ type: "text", text: big }] })],
    ["an isError spelled with an escape", () => JSON.parse('{"content":[],"is\\u0045rror":true}')],
  ];
  const messages = [null, "fini ✓", "lone \ud83d here", "x".repeat(5000)];
  for (const [name, make] of payloads) {
    for (const message of messages) {
      for (const session of ["s", "séssion ✓", undefined]) {
        const store = new TaskStore();
        const ctx = { session, now: T0 };
        const t = store.create({ protocolVersion: V25, ttl: HOUR }, ctx);
        const given = make();
        const before = JSON.stringify(given);
        const label = `${name}, message ${JSON.stringify(message)?.slice(0, 20)}, session ${session}`;
        const answered = store.complete(t.taskId, given, message, { session, now: T0 + 10 });
        assert.deepStrictEqual(answered, TaskStore.restore(store.snapshot()).get(t.taskId, ctx), label);
        assert.deepStrictEqual(memberOrder(answered), memberOrder(TaskStore.restore(store.snapshot()).get(t.taskId, ctx)), label);
        assert.deepStrictEqual(answered, store.get(t.taskId, ctx), label);
        assert.deepStrictEqual(answered.v26.result, JSON.parse(before), label);
        assert.equal(answered.v26.statusMessage, message ?? undefined, label);
        assert.equal(answered.status, "completed", label);
        const frozen = (v) => typeof v !== "object" || v === null || (Object.isFrozen(v) && Object.values(v).every(frozen));
        assert.ok(frozen(answered), label);
        assert.equal(Object.isFrozen(given), false, label);
        assert.equal(JSON.stringify(given), before, label);
        // fail and failWithToolResult take the same way.
        const f = store.create({ protocolVersion: V25 }, ctx);
        const failed = store.fail(f.taskId, { code: -32000, message: "m", data: make() }, message, { session, now: T0 + 20 });
        assert.deepStrictEqual(failed, store.get(f.taskId, ctx), label);
        assert.deepStrictEqual(failed, TaskStore.restore(store.snapshot()).get(f.taskId, ctx), label);
        const w = store.create({ protocolVersion: V25 }, ctx);
        const tool = { ...make(), isError: true };
        const toolFailed = store.failWithToolResult(w.taskId, tool, message, { session, now: T0 + 30 });
        assert.deepStrictEqual(toolFailed, store.get(w.taskId, ctx), label);
        assert.deepStrictEqual(toolFailed, TaskStore.restore(store.snapshot()).get(w.taskId, ctx), label);
        store.free();
      }
    }
  }
  // A task id the store never issued, in the input buffer as in a string: not found.
  const store = new TaskStore();
  throwsStore(() => store.complete("nöt-an-id ✓", { content: [] }, null, { session: "s", now: T0 }), -32602, "not_found");
  throwsStore(() => store.complete("x".repeat(5000), { content: [] }, null, { session: "s", now: T0 }), -32602, "not_found");
  store.free();
});

// A getter of the payload may call the store (another terminal write, a read) while the class
// copies the payload: each write still stores and answers its own payload.
test("a payload getter that writes to the store meanwhile: both writes answer what get answers", () => {
  for (const same of [true, false]) {
    const store = new TaskStore();
    const other = same ? store : new TaskStore();
    const ctx = { session: "s", now: T0 };
    const outer = store.create({ protocolVersion: V25 }, ctx);
    const inner = other.create({ protocolVersion: V25 }, ctx);
    let innerAnswer;
    const payload = {
      content: [{ type: "text", text: "outer ✓" }],
      get structuredContent() {
        innerAnswer ??= other.complete(inner.taskId, { content: [{ type: "text", text: "inner" }] }, "inner done", { session: "s", now: T0 + 5 });
        other.get(inner.taskId, ctx);
        return { n: 1 };
      },
    };
    const answered = store.complete(outer.taskId, payload, null, { session: "s", now: T0 + 10 });
    assert.deepStrictEqual(answered, store.get(outer.taskId, ctx));
    assert.deepStrictEqual(answered, TaskStore.restore(store.snapshot()).get(outer.taskId, ctx));
    assert.deepStrictEqual(answered.v26.result, { content: [{ type: "text", text: "outer ✓" }], structuredContent: { n: 1 } });
    assert.deepStrictEqual(innerAnswer, other.get(inner.taskId, ctx));
    assert.deepStrictEqual(innerAnswer.v26.result, { content: [{ type: "text", text: "inner" }] });
    assert.equal(innerAnswer.v26.statusMessage, "inner done");
    store.free();
    if (!same) other.free();
  }
});

// The class formats the times of a terminal write's answer itself (the time of day computed, the
// date from toISOString): the answer holds what the core writes, at any instant it stores.
test("terminal writes: timestamps as toISOString writes them, across days, leap days and the last one", () => {
  const instants = [0, 1, 999, 86_399_999, 86_400_000, 951_782_400_000, 951_868_799_999, 1_767_225_599_999, 253_402_300_799_999];
  for (const created of instants) {
    for (const done of [created, created + 1, created + 3_661_001]) {
      if (done < created || done > 253_402_300_799_999) continue;
      for (const kept of [true, false]) {
        let store = new TaskStore();
        const t = store.create({ protocolVersion: V26, ttl: 2 * HOUR }, { session: "s", now: created });
        if (!kept) store = TaskStore.restore(store.snapshot());
        const answered = store.complete(t.taskId, { content: [] }, null, { session: "s", now: done });
        const label = `created ${created}, completed ${done}, kept ${kept}`;
        assert.equal(answered.v26.createdAt, new Date(created).toISOString(), label);
        assert.equal(answered.v26.lastUpdatedAt, new Date(done).toISOString(), label);
        assert.deepStrictEqual(answered, TaskStore.restore(store.snapshot()).get(t.taskId, { session: "s", now: done }), label);
        store.free();
      }
    }
  }
});

// A status message keeps its lone surrogates whichever verb writes it: create read it through
// the string conversion of wasm-bindgen, which turned each into U+FFFD (fixed 2026-12-01).
test("create, setStatus and cancel keep a status message's lone surrogates", () => {
  for (const protocolVersion of [V25, V26]) {
    const store = new TaskStore();
    const ctx = { session: "s", now: T0 };
    const created = store.create({ protocolVersion, statusMessage: "a\ud800b" }, ctx);
    assert.equal(created.v26.statusMessage, "a\ud800b", protocolVersion);
    assert.equal(created.v25.statusMessage, "a\ud800b", protocolVersion);
    assert.equal(store.get(created.taskId, ctx).v26.statusMessage, "a\ud800b");
    assert.equal(TaskStore.restore(store.snapshot()).get(created.taskId, ctx).v26.statusMessage, "a\ud800b");
    // Two messages that differ only in their lone surrogates stay different.
    const other = store.create({ protocolVersion, statusMessage: "a\udfffb" }, ctx);
    assert.equal(other.v26.statusMessage, "a\udfffb");
    assert.equal(store.setStatus(created.taskId, "working", "\udc00", ctx).v26.statusMessage, "\udc00");
    assert.equal(store.cancel(other.taskId, protocolVersion, "x\ud83d", ctx).task.v26.statusMessage, "x\ud83d");
    store.free();
  }
});

// Sessions cross exactly or not at all: wasm-bindgen's string conversion turned a
// lone surrogate into U+FFFD, so the sessions "a\ud800", "a\udbff" and "a\ufffd" were one and
// saw each other's tasks (fixed 2026-12-01: such a session is refused, as is one holding U+FDD0,
// the core's marker of carried surrogates). Status messages keep any text.
test("a session that would not cross exactly is refused, not merged with another", () => {
  const store = new TaskStore();
  const t = store.create({ protocolVersion: V26 }, { session: "a\ufffd", now: T0 });
  for (const session of ["a\ud800", "a\udbff", "\udc00", "\ufdd0d800", "x\ufdd0"]) {
    const ctx = { session, now: T0 };
    throwsType(() => store.get(t.taskId, ctx), /session/);
    throwsType(() => store.create({ protocolVersion: V25 }, ctx), /session/);
    throwsType(() => store.list({}, ctx), /session/);
    throwsType(() => store.complete(t.taskId, { content: [] }, null, ctx), /session/);
  }
  // A task id needs no such check: the store's are hex, so one that would not cross names none.
  for (const id of [t.taskId + "\ud800", t.taskId.slice(0, -1) + "\ud800", "\ufdd0"]) {
    assert.throws(() => store.get(id, { session: "a\ufffd", now: T0 }), (e) => e instanceof TaskStoreError && e.kind === "not_found", JSON.stringify(id));
  }
  // A surrogate pair is text like any other.
  const emoji = store.create({ protocolVersion: V25 }, { session: "s\ud83d\ude00", now: T0 });
  assert.equal(store.get(emoji.taskId, { session: "s\ud83d\ude00", now: T0 }).session, "s\ud83d\ude00");
  assert.equal(store.get(t.taskId, { session: "a\ufffd", now: T0 }).status, "working");
  const server = new TaskServer();
  const get = { jsonrpc: "2.0", id: 1, method: "tasks/get", params: { taskId: "x" } };
  throwsType(() => server.handle(get, { protocolVersion: V25, session: "a\ud800" }), /session/);
  store.free();
  server.free();
});

test("status messages holding U+FDD0 come back unchanged from every verb", () => {
  for (const message of ["\ufdd0d800", "\ufdd0\ufdd0", "x\ufdd0", "\ufdd0\ud800"]) {
    const store = new TaskStore();
    const ctx = { session: "s", now: T0 };
    const label = JSON.stringify(message);
    const t = store.create({ protocolVersion: V26, statusMessage: message }, ctx);
    assert.equal(t.v26.statusMessage, message, label);
    assert.equal(store.setStatus(t.taskId, "working", message, ctx).v26.statusMessage, message, label);
    assert.equal(store.get(t.taskId, ctx).v26.statusMessage, message, label);
    const done = store.complete(t.taskId, { content: [{ type: "text", text: message }] }, message, ctx);
    assert.equal(done.v26.statusMessage, message, label);
    assert.equal(done.v26.result.content[0].text, message, label);
    assert.deepStrictEqual(store.get(t.taskId, ctx), done, label);
    assert.deepStrictEqual(TaskStore.restore(store.snapshot()).get(t.taskId, ctx), done, label);
    const c = store.create({ protocolVersion: V25 }, ctx);
    assert.equal(store.cancel(c.taskId, V25, message, ctx).task.v25.statusMessage, message, label);
    store.free();
  }
});

test("a member named like serde_json's raw-value token stays a member: answers, resultOf, snapshots", () => {
  // serde_json (with its raw_value feature, used until 2026-12-01) read an object whose first member
  // is named "$serde_json::private::RawValue" as the JSON text that member holds: the result below
  // came back from resultOf and from a restored snapshot with `structuredContent: 5`.
  const TOKEN = "$serde_json::private::RawValue";
  const odd = Object.freeze({
    content: [{ type: "text", text: "x", _meta: { [TOKEN]: "[1,2]" } }],
    structuredContent: { [TOKEN]: "5" },
  });
  for (const protocolVersion of [V25, V26]) {
    const store = new TaskStore();
    const ctx = { session: "s", now: T0 };
    const { taskId } = store.create({ protocolVersion }, ctx);
    const done = store.complete(taskId, odd, undefined, ctx);
    assert.deepEqual(done.v26.result, odd);
    assert.deepEqual(store.get(taskId, ctx).v26.result, odd);
    assert.deepEqual(store.resultOf(taskId, ctx), { kind: "result", result: odd });
    const restored = TaskStore.restore(JSON.stringify(store.snapshot()));
    assert.deepEqual(restored.resultOf(taskId, ctx), { kind: "result", result: odd });
    assert.deepEqual(restored.get(taskId, ctx).v26.result, odd);
  }
});

test("numbers in results come back as given: resultOf, snapshots, restore (floats read exactly)", () => {
  // Until 2026-12-01 serde_json read floats with its fast, inexact parser: about one in ten
  // doubles like Math.random() * 1000 came back one unit in the last place off wherever a result
  // was read back into a tree (resultOf, V25 tasks/result, snapshots).
  let x = 0x2545f491;
  const nums = [522966.75866770605, 0.30000000000000004, 123.45678901234567, 3.3333333333333335e-7, -1.7976931348623157e308, 5e-324];
  for (let i = 0; i < 200; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    nums.push((x / 2 ** 32) * 1000, x / 7);
  }
  const floats = Object.freeze({ content: [{ type: "text", text: "x" }], structuredContent: { nums } });
  for (const protocolVersion of [V25, V26]) {
    const store = new TaskStore();
    const ctx = { session: "s", now: T0 };
    const { taskId } = store.create({ protocolVersion }, ctx);
    store.complete(taskId, floats, undefined, ctx);
    assert.deepEqual(store.resultOf(taskId, ctx), { kind: "result", result: floats });
    const restored = TaskStore.restore(JSON.stringify(store.snapshot()));
    assert.deepEqual(restored.resultOf(taskId, ctx), { kind: "result", result: floats });
    assert.deepEqual(restored.get(taskId, ctx).v26.result, floats);
  }
});
