// SdkTaskStore as a drop-in for the SDK's InMemoryTaskStore (docs/decisions/sdk-dropin.md): the
// habits that code
// written against InMemoryTaskStore relies on, each checked on the installed package. The SDK's
// own tests run on it too: tests/js/sdk-upstream.test.sh.
import { test, mock } from "node:test";
import assert from "node:assert/strict";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js";

// The installed package (scripts/pack.sh), imported the way a user does: "mcp-tasks-wasm/server".
const { SdkTaskStore, TaskStore } = await import("../.tmp/install/server.mjs");

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const REQ = { method: "tools/call", params: { name: "x" } };
const text = (t) => ({ content: [{ type: "text", text: t }] });

/** The rejection of `promise` (asserts that it rejects). */
async function rejection(promise) {
  let error;
  await assert.rejects(promise, (e) => {
    error = e;
    return true;
  });
  return error;
}

test("the clock is read at every call: mock timers that replace Date.now after construction reach it (TTL expiry)", async () => {
  const store = new SdkTaskStore({ maxTtlMs: 60_000 }); // constructed before the clock is mocked
  mock.timers.enable({ apis: ["Date"], now: T0 });
  try {
    const t = await store.createTask({ ttl: 1000 }, 1, REQ);
    assert.equal(Date.parse(t.createdAt), T0);
    mock.timers.tick(999);
    assert.equal((await store.getTask(t.taskId))?.status, "working");
    mock.timers.tick(2);
    assert.equal(await store.getTask(t.taskId), null, "expired in mocked time");
  } finally {
    mock.timers.reset();
  }
});

test("page size: 10 by default, as the SDK's store; pageSize still sets it; a given TaskStore keeps its own", async () => {
  const fill = async (s, n) => {
    for (let i = 0; i < n; i++) await s.createTask({}, i, REQ);
  };
  const sdk = new InMemoryTaskStore();
  const ours = new SdkTaskStore();
  await fill(sdk, 15);
  await fill(ours, 15);
  const [a, b] = [await sdk.listTasks(), await ours.listTasks()];
  assert.equal(b.tasks.length, a.tasks.length);
  assert.equal(b.tasks.length, 10);
  assert.equal((await ours.listTasks(b.nextCursor)).tasks.length, 5);
  sdk.cleanup();

  const three = new SdkTaskStore({ pageSize: 3 });
  await fill(three, 4);
  assert.equal((await three.listTasks()).tasks.length, 3);
  const given = new SdkTaskStore({ store: new TaskStore() });
  await fill(given, 15);
  assert.equal((await given.listTasks()).tasks.length, 15, "a TaskStore's own default is 50");
});

test("error messages keep the SDK store's phrases (code and kind are ours), with and without createError", async () => {
  for (const createError of [undefined, (code, message, data) => new McpError(code, message, data)]) {
    const store = new SdkTaskStore({ createError });
    const sdk = new InMemoryTaskStore();
    const missing = "f".repeat(32);
    for (const [call, sdkCall] of [
      [() => store.getTaskResult(missing), () => sdk.getTaskResult(missing)],
      [() => store.storeTaskResult(missing, "completed", text("x")), () => sdk.storeTaskResult(missing, "completed", text("x"))],
      [() => store.updateTaskStatus(missing, "working"), () => sdk.updateTaskStatus(missing, "working")],
    ]) {
      const [e, se] = [await rejection(call()), await rejection(sdkCall())];
      assert.ok(e.message.includes(se.message), `${e.message} / ${se.message}`);
      assert.deepEqual([e.code, e.kind], [-32602, "not_found"]);
      assert.equal(e instanceof McpError, createError !== undefined);
    }

    const t = await store.createTask({}, 1, REQ);
    const e0 = await rejection(store.getTaskResult(t.taskId));
    assert.match(e0.message, new RegExp(`(^|: )Task ${t.taskId} has no result stored`));
    assert.deepEqual([e0.code, e0.kind], [-32603, "not_terminal"]);

    // A cancelled task has no result either, in the SDK store's words (its tests match them:
    // test/server/mcp.test.ts "should handle task cancellation during automatic polling").
    const [c, sc] = [await store.createTask({}, 2, REQ), await sdk.createTask({}, 2, REQ)];
    await store.updateTaskStatus(c.taskId, "cancelled", "Task was cancelled");
    await sdk.updateTaskStatus(sc.taskId, "cancelled", "Task was cancelled");
    const se5 = await rejection(sdk.getTaskResult(sc.taskId));
    assert.equal(se5.message, `Task ${sc.taskId} has no result stored`);
    for (const e5 of [await rejection(store.getTaskResult(c.taskId)), await rejection(store.getTaskResult(c.taskId, undefined))]) {
      assert.match(e5.message, new RegExp(`(^|: )Task ${c.taskId} has no result stored \\(it was cancelled\\)$`));
      assert.deepEqual([e5.code, e5.kind], [-32602, "cancelled"]);
      assert.equal(e5 instanceof McpError, createError !== undefined);
    }
    assert.equal((await store.getTask(c.taskId)).status, "cancelled", "reading it changes nothing");
    // A task failed by a JSON-RPC error answers that error, not the phrase above.
    const f = await store.createTask({}, 3, REQ);
    await store.updateTaskStatus(f.taskId, "failed", "it broke");
    const e6 = await rejection(store.getTaskResult(f.taskId));
    assert.deepEqual([e6.name, e6.code, e6.message], ["TaskFailedError", -32603, "it broke"]);
    sdk.cleanup();

    await store.storeTaskResult(t.taskId, "completed", text("done"));
    const e1 = await rejection(store.storeTaskResult(t.taskId, "completed", text("again")));
    assert.match(e1.message, new RegExp(`(^|: )Cannot store result for task ${t.taskId} in terminal status 'completed'`));
    assert.deepEqual([e1.code, e1.kind], [-32602, "already_terminal"]);
    const e2 = await rejection(store.updateTaskStatus(t.taskId, "cancelled"));
    assert.match(e2.message, new RegExp(`(^|: )Cannot update task ${t.taskId} from terminal status 'completed' to 'cancelled'`));
    assert.deepEqual([e2.code, e2.kind], [-32602, "already_terminal"]);
    assert.deepEqual(await store.getTaskResult(t.taskId), text("done"), "refusals change nothing");

    // (McpError prefixes its message with "MCP error <code>: ".)
    const e3 = await rejection(store.listTasks("not-a-cursor"));
    assert.match(e3.message, /(^|: )Invalid cursor: not-a-cursor$/);
    assert.deepEqual([e3.code, e3.kind], [-32602, "invalid_cursor"]);
    const long = "c".repeat(5000);
    const e4 = await rejection(store.listTasks(long));
    assert.ok(e4.message.endsWith(`Invalid cursor: ${"c".repeat(200)}…`), "a long cursor is not echoed in full");
    if (createError === undefined) assert.equal(e4.name, "TaskStoreError");
    else assert.equal(e4.cause.name, "TaskStoreError");
  }
});

test("updateTaskStatus(id, 'completed') completes the task through the state machine: result {}, terminal for good", async () => {
  const store = new SdkTaskStore();
  const t = await store.createTask({}, 1, REQ, "s");
  await store.updateTaskStatus(t.taskId, "input_required", "asking", "s");
  await store.updateTaskStatus(t.taskId, "completed", "done by status", "s");
  const done = await store.getTask(t.taskId, "s");
  assert.deepEqual([done.status, done.statusMessage], ["completed", "done by status"]);
  assert.deepEqual(await store.getTaskResult(t.taskId, "s"), {});
  const e = await rejection(store.storeTaskResult(t.taskId, "completed", text("late"), "s"));
  assert.deepEqual([e.code, e.kind], [-32602, "already_terminal"]);
  assert.deepEqual(await store.getTaskResult(t.taskId, "s"), {}, "the first terminal outcome wins (§D 21)");
  const other = await rejection(store.updateTaskStatus(t.taskId, "completed", undefined, "other-session"));
  assert.equal(other.kind, "not_found", "sessions still fail closed");
});

test("getAllTasks and cleanup: every session's tasks, as the SDK store's helpers; expired ones left out", async () => {
  const clock = { t: T0 };
  const store = new SdkTaskStore({ now: () => clock.t });
  const a = await store.createTask({}, 1, REQ, "alice");
  const b = await store.createTask({}, 2, REQ, "bob");
  const c = await store.createTask({ ttl: 10 }, 3, REQ);
  await store.storeTaskResult(b.taskId, "completed", text("b"), "bob");
  assert.deepEqual(store.getAllTasks().map((t) => [t.taskId, t.status]), [[a.taskId, "working"], [b.taskId, "completed"], [c.taskId, "working"]]);
  clock.t += 11;
  assert.deepEqual(store.getAllTasks().map((t) => t.taskId), [a.taskId, b.taskId]);
  store.cleanup();
  assert.deepEqual(store.getAllTasks(), []);
  assert.equal(await store.getTask(a.taskId, "alice"), null);
  assert.deepEqual((await store.listTasks(undefined, "bob")).tasks, []);
  const d = await store.createTask({}, 4, REQ, "alice");
  assert.deepEqual(store.getAllTasks().map((t) => t.taskId), [d.taskId], "usable after cleanup");
});

test("ttl: a task created without one gets the default TTL (bounded retention); with defaultTtlMs and maxTtlMs null it keeps ttl: null, as the SDK's", async () => {
  const bounded = new SdkTaskStore();
  assert.equal((await bounded.createTask({}, 1, REQ)).ttl, 3_600_000);
  const unlimited = new SdkTaskStore({ defaultTtlMs: null, maxTtlMs: null });
  const sdk = new InMemoryTaskStore();
  const [ours, theirs] = [await unlimited.createTask({}, 1, REQ), await sdk.createTask({}, 1, REQ)];
  assert.equal(ours.ttl, null);
  assert.equal(ours.ttl, theirs.ttl);
  assert.equal((await unlimited.getTask(ours.taskId)).ttl, null);
  assert.equal((await unlimited.createTask({ ttl: 5000 }, 2, REQ)).ttl, 5000);
});

// ---- who the caller is (unscopedWork) -----------------------------------------------------------
// The SDK passes the sessionId argument on every call it makes for a client (its tasks/* handlers
// and the request-scoped extra.taskStore), undefined without a session; code holding the store
// itself (the work) leaves it out. Real McpServer and Client (SDK 1.32.2) over InMemoryTransport;
// a server transport with a sessionId is what Streamable HTTP sets, one without is what stateless
// HTTP and stdio give (extra.sessionId undefined).

const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
const { CallToolResultSchema, CreateTaskResultSchema } = await import("@modelcontextprotocol/sdk/types.js");
const { z } = await import("zod");

/**
 * A server on `store` whose `work` tool creates its task through extra.taskStore (bound to the
 * session, as the SDK's simpleTaskInteractive does) and leaves the work to the test; a client.
 */
async function connectTo(store, sessionId) {
  const server = new McpServer(
    { name: "dropin", version: "1.0.0" },
    { capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore: store },
  );
  server.experimental.tasks.registerToolTask(
    "work",
    { inputSchema: { label: z.string() }, execution: { taskSupport: "required" } },
    {
      createTask: async (_args, extra) => ({ task: await extra.taskStore.createTask({ ttl: 60_000 }) }),
      getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
    },
  );
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  if (sessionId !== undefined) serverTransport.sessionId = sessionId;
  const client = new Client({ name: "dropin-client", version: "1.0.0" });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    tasks: client.experimental.tasks,
    start: async (label) =>
      (await client.request({ method: "tools/call", params: { name: "work", arguments: { label } } }, CreateTaskResultSchema, { task: {} })).task.taskId,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

test("the work finishes a session's task through the store with no sessionId (the SDK's examples), and the session's client reads it", async () => {
  const store = new SdkTaskStore();
  const a = await connectTo(store, "session-A");
  try {
    const id = await a.start("a");
    // As simpleTaskInteractive / simpleStreamableHttp do from their background work:
    assert.equal((await store.getTask(id))?.status, "working");
    await store.updateTaskStatus(id, "input_required");
    await store.updateTaskStatus(id, "working");
    await store.storeTaskResult(id, "completed", text("done"));
    assert.deepEqual(await store.getTaskResult(id), text("done"));
    assert.equal((await a.tasks.getTask(id)).status, "completed");
    assert.deepEqual((await a.tasks.getTaskResult(id, CallToolResultSchema)).content, text("done").content);
    assert.deepEqual((await store.listTasks()).tasks.map((t) => t.taskId), [id], "the host lists every session's tasks");
  } finally {
    await a.close();
  }
});

test("a failure stored without isError: true is refused to the work (§D 44) and leaves the task working, which the work then fails properly and the session's client reads", async () => {
  // The SDK's test "should cleanup tasks regardless of status" stores such a result (an expected
  // difference): the refusal must not leave a task that its work can no longer finish.
  const store = new SdkTaskStore();
  const a = await connectTo(store, "session-A");
  try {
    const id = await a.start("a");
    const e = await rejection(store.storeTaskResult(id, "failed", text("no isError")));
    assert.deepEqual([e.code, e.kind], [-32603, "invalid_tool_failure"]);
    assert.equal((await store.getTask(id))?.status, "working", "the refusal changes nothing");
    assert.equal((await a.tasks.getTask(id)).status, "working");
    const failure = { ...text("it broke"), isError: true };
    await store.storeTaskResult(id, "failed", failure);
    assert.equal((await a.tasks.getTask(id)).status, "failed");
    const result = await a.tasks.getTaskResult(id, CallToolResultSchema);
    assert.deepEqual([result.isError, result.content], [true, failure.content]);
  } finally {
    await a.close();
  }
});

test("a stateless client (no sessionId) cannot list, read, cancel or fetch the result of another session's task; a session cannot see the stateless ones", async () => {
  const store = new SdkTaskStore();
  const a = await connectTo(store, "session-A");
  const stateless = await connectTo(store, undefined);
  const other = await connectTo(store, undefined); // a second stateless client: same (no) session
  try {
    const ta = await a.start("a");
    const ts = await stateless.start("s");
    for (const c of [stateless, other]) {
      const listed = (await c.tasks.listTasks()).tasks.map((t) => t.taskId);
      assert.deepEqual(listed, [ts], "a client without a session lists only tasks created without one");
      for (const call of [(id) => c.tasks.getTask(id), (id) => c.tasks.cancelTask(id), (id) => c.tasks.getTaskResult(id, CallToolResultSchema)]) {
        const e = await rejection(call(ta));
        assert.equal(e.code, -32602, e.message);
      }
    }
    assert.deepEqual((await a.tasks.listTasks()).tasks.map((t) => t.taskId), [ta]);
    assert.equal((await rejection(a.tasks.getTask(ts))).code, -32602);
    // The SDK passes the argument even when it is undefined: that call is a client's, fail-closed.
    assert.equal(await store.getTask(ta, undefined), null);
    assert.deepEqual((await store.listTasks(undefined, undefined)).tasks.map((t) => t.taskId), [ts]);
    // The work (no argument) reaches both; A's task is still A's and still working.
    assert.deepEqual((await store.listTasks()).tasks.map((t) => t.taskId), [ta, ts]);
    assert.equal((await a.tasks.getTask(ta)).status, "working");
  } finally {
    await Promise.all([a.close(), stateless.close(), other.close()]);
  }
});

test("unscopedWork: false keeps a call without the sessionId argument fail-closed: the work must pass the task's session", async () => {
  const store = new SdkTaskStore({ unscopedWork: false });
  const a = await connectTo(store, "session-A");
  try {
    const id = await a.start("a");
    assert.equal(await store.getTask(id), null);
    assert.equal((await rejection(store.storeTaskResult(id, "completed", text("x")))).code, -32602);
    assert.deepEqual((await store.listTasks()).tasks, []);
    await store.storeTaskResult(id, "completed", text("ok"), "session-A");
    assert.equal((await a.tasks.getTask(id)).status, "completed");
  } finally {
    await a.close();
  }
});

test("a subclass that forwards sessionId (undefined) to super, as the SDK's simpleTaskInteractive does, still finishes the session's task; its reads stay fail-closed", async () => {
  class Notifying extends SdkTaskStore {
    updates = 0;
    async updateTaskStatus(taskId, status, statusMessage, sessionId) {
      await super.updateTaskStatus(taskId, status, statusMessage, sessionId);
      this.updates++;
    }
    async storeTaskResult(taskId, status, result, sessionId) {
      await super.storeTaskResult(taskId, status, result, sessionId);
      this.updates++;
    }
  }
  const store = new Notifying();
  const a = await connectTo(store, "session-A");
  const stateless = await connectTo(store, undefined);
  try {
    const id = await a.start("a");
    await store.updateTaskStatus(id, "input_required"); // reaches super as (id, status, undefined, undefined)
    await store.updateTaskStatus(id, "working");
    await store.storeTaskResult(id, "completed", text("done"));
    assert.equal(store.updates, 3);
    assert.equal((await a.tasks.getTask(id)).status, "completed");
    // A client without a session still cannot read or cancel it: the SDK reads before it writes.
    assert.equal((await rejection(stateless.tasks.getTask(id))).code, -32602);
    assert.equal((await rejection(stateless.tasks.cancelTask(id))).code, -32602);
    assert.deepEqual((await stateless.tasks.listTasks()).tasks, []);
    assert.equal(await store.getTask(id, undefined), null);
  } finally {
    await Promise.all([a.close(), stateless.close()]);
  }
});
