// SdkTaskStore as a drop-in for the SDK's InMemoryTaskStore (issue 15): the habits that code
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
