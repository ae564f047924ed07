// SdkTaskStore (mcp-tasks-wasm/server) under the real official TypeScript SDK,
// @modelcontextprotocol/sdk 1.32.2 from the workspace's node_modules: an McpServer and a Client
// over InMemoryTransport pairs, with `taskStore: new SdkTaskStore(...)`. Nothing of the SDK is
// stubbed. Every task response and task notification the server sends is captured as the JSON a
// real transport would carry and checked with the package's own validateMessage (2025-11-25).
// The adapter-level tests run in virtual time (the `now` option).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";

import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema, CreateTaskResultSchema, McpError } from "@modelcontextprotocol/sdk/types.js";

// The installed package (scripts/pack.sh), imported the way a user does: "mcp-tasks-wasm/server".
const { SdkTaskStore, TaskStore, validateMessage, resolved } = await import("../.tmp/install/server.mjs");

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..", "..");
const require = createRequire(import.meta.url);

const V25 = "2025-11-25";
const RELATED = "io.modelcontextprotocol/related-task";
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0); // virtual time origin (Unix ms)
const SERVER_CAPABILITIES = { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };

const text = (t) => ({ content: [{ type: "text", text: t }] });
const toolError = (t) => ({ content: [{ type: "text", text: t }], isError: true });

// ---- harness ---------------------------------------------------------------------------------------

/**
 * An McpServer with two task tools:
 * - `work` (taskSupport "required"): creates the task and leaves its work to the test, which
 *   finishes it through the request-bound store the SDK handed to the tool (`jobs`);
 * - `echo` (taskSupport "optional"): answers `text` after `delayMs` in the background.
 */
function makeServer(taskStore, jobs, background) {
  const server = new McpServer({ name: "sdk-adapter-test", version: "1.0.0" }, { capabilities: SERVER_CAPABILITIES, taskStore });
  server.experimental.tasks.registerToolTask(
    "work",
    { description: "work finished by the test", inputSchema: { label: z.string() }, execution: { taskSupport: "required" } },
    {
      async createTask({ label }, extra) {
        const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl });
        jobs.push({ label, taskId: task.taskId, taskStore: extra.taskStore, sessionId: extra.sessionId });
        return { task };
      },
      getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
    },
  );
  server.experimental.tasks.registerToolTask(
    "echo",
    { description: "echoes later", inputSchema: { text: z.string(), delayMs: z.number() }, execution: { taskSupport: "optional" } },
    {
      async createTask({ text: t, delayMs }, extra) {
        const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl });
        background.push(
          sleep(delayMs).then(() => extra.taskStore.storeTaskResult(task.taskId, "completed", text(t))),
        );
        return { task };
      },
      getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
    },
  );
  return server;
}

/**
 * Records what the server sends: each response to a client's `tasks/*` or `tools/call` request
 * and each `notifications/tasks/*`, as JSON text, with validateMessage's report on it.
 */
function recordWire(clientTransport, serverTransport) {
  const methods = new Map(); // client request id -> method
  const seen = [];
  const clientSend = clientTransport.send.bind(clientTransport);
  clientTransport.send = (message, options) => {
    if (typeof message.method === "string" && message.id !== undefined) methods.set(message.id, message.method);
    return clientSend(message, options);
  };
  const serverSend = serverTransport.send.bind(serverTransport);
  serverTransport.send = (message, options) => {
    const json = JSON.stringify(message);
    const method = "method" in message ? message.method : methods.get(message.id);
    if ("method" in message) {
      if (method.startsWith("notifications/tasks")) {
        seen.push({ method, message: JSON.parse(json), report: validateMessage(json, { version: V25 }) });
      }
    } else if (method !== undefined && (method.startsWith("tasks/") || method === "tools/call")) {
      seen.push({ method, message: JSON.parse(json), report: validateMessage(json, { inReplyTo: method, version: V25 }) });
    }
    return serverSend(message, options);
  };
  return {
    seen,
    /** Asserts every recorded message is valid and that each of `methods` was seen. */
    assertValid(...expected) {
      for (const { method, message, report } of seen) {
        assert.equal(report.valid, true, `${method}: ${JSON.stringify(report.issues)}\n${JSON.stringify(message)}`);
        assert.deepEqual(report.issues, [], `${method}: ${JSON.stringify(message)}`);
      }
      const methodsSeen = new Set(seen.map((s) => s.method));
      for (const m of expected) assert.ok(methodsSeen.has(m), `no ${m} on the wire (saw ${[...methodsSeen].join(", ")})`);
    },
    /** The recorded answers to `method`. */
    answers(method) {
      return seen.filter((s) => s.method === method).map((s) => s.message);
    },
  };
}

/** A connected McpServer + Client pair on `taskStore`; `sessionId` is the server transport's. */
async function connect(taskStore, { sessionId } = {}) {
  const jobs = [];
  const background = [];
  const server = makeServer(taskStore, jobs, background);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  if (sessionId !== undefined) serverTransport.sessionId = sessionId; // what Streamable HTTP sets
  const wire = recordWire(clientTransport, serverTransport);
  const client = new Client({ name: "sdk-adapter-test-client", version: "1.0.0" });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  const tasks = client.experimental.tasks;
  return {
    server,
    client,
    tasks,
    jobs,
    background,
    wire,
    /** A task-augmented `tools/call` of `work`; answers the CreateTaskResult and the job. */
    async startWork(label, task = {}) {
      const created = await client.request(
        { method: "tools/call", params: { name: "work", arguments: { label } } },
        CreateTaskResultSchema,
        { task },
      );
      const job = jobs.find((j) => j.taskId === created.task.taskId);
      assert.ok(job, "the tool's createTask ran");
      return { created, job };
    },
    /** Polls `tasks/get` (at the task's pollInterval) until `done(task)`; answers the task. */
    async pollUntil(taskId, done) {
      for (let i = 0; i < 500; i++) {
        const task = await tasks.getTask(taskId);
        if (done(task)) return task;
        await sleep(task.pollInterval ?? 10);
      }
      assert.fail(`task ${taskId} never reached the expected state`);
    },
    async close() {
      await Promise.allSettled(background);
      await client.close();
      await server.close();
    },
  };
}

/** Asserts `promise` rejects with JSON-RPC code `code` (and, given, store error kind `kind`). */
async function rejectsWith(promise, code, kind) {
  let error;
  await assert.rejects(promise, (e) => {
    error = e;
    return true;
  });
  assert.equal(error.code, code, `expected code ${code}, got ${error.code}: ${error.message}`);
  if (kind !== undefined) assert.equal(error.kind, kind, error.message);
  return error;
}

// ---- the package and the SDK ---------------------------------------------------------------------

test("the installed package exports SdkTaskStore; the SDK under test is 1.32.2", () => {
  assert.match(resolved, /\.tmp\/install\/node_modules\/mcp-tasks-wasm\/server\//);
  assert.equal(typeof SdkTaskStore, "function");
  const sdk = JSON.parse(readFileSync(join(root, "node_modules", "@modelcontextprotocol", "sdk", "package.json"), "utf8"));
  assert.equal(sdk.version, "1.32.2");
  assert.ok(import.meta.resolve("@modelcontextprotocol/sdk/server/mcp.js").startsWith(pathToFileURL(join(root, "node_modules")).href));
  const cjs = require(join(here, "..", ".tmp", "install", "node_modules", "mcp-tasks-wasm", "server", "main.cjs"));
  assert.equal(typeof cjs.SdkTaskStore, "function", "the CommonJS entry exports it too");
  assert.ok(new cjs.SdkTaskStore().store instanceof cjs.TaskStore);
});

test("types: an SdkTaskStore is an SDK TaskStore and an McpServer taskStore (tsc --strict over the installed declarations)", () => {
  const dir = join(here, "..", ".tmp", "install", `sdk-types-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(
      join(dir, "a.mts"),
      `import type { TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { SdkTaskStore, TaskStore as CoreStore } from "mcp-tasks-wasm/server";

const store: TaskStore = new SdkTaskStore({
  maxTtlMs: 60_000, pageSize: 10, shareAcrossSessions: false,
  now: () => Date.now(),
  createError: (code, message, data) => new McpError(code, message, data),
  ignoreLateResults: true,
});
const server = new McpServer({ name: "t", version: "1" }, { taskStore: new SdkTaskStore({ store: new CoreStore() }) });
const core: CoreStore = new SdkTaskStore().store;
const purged: number = new SdkTaskStore().sweep();
// @ts-expect-error maxTtlMs is milliseconds
new SdkTaskStore({ maxTtlMs: "1h" });
export { store, server, core, purged };
`,
    );
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true, noEmit: true, target: "es2022", lib: ["es2022", "dom"], types: [], skipLibCheck: true,
          module: "nodenext", moduleResolution: "nodenext",
        },
        files: ["a.mts"],
      }),
    );
    try {
      execFileSync(join(root, "node_modules", ".bin", "tsc"), ["-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
    } catch (e) {
      assert.fail(`tsc reported errors:\n${e.stdout}${e.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---- end to end: McpServer + Client --------------------------------------------------------------

test("SDK end to end: task-augmented tools/call -> CreateTaskResult (TTL capped), tasks/get to completion, blocking tasks/result, tasks/list", async () => {
  const store = new SdkTaskStore({ pollIntervalMs: 10, maxTtlMs: 60_000 });
  const p = await connect(store);
  try {
    const { created, job } = await p.startWork("a", { ttl: 3_600_000 });
    const id = created.task.taskId;
    assert.match(id, /^[0-9a-f]{32}$/);
    assert.equal(created.task.status, "working");
    assert.equal(created.task.ttl, 60_000, "the TTL granted, not the one asked for (§D 25)");
    assert.equal(created.task.pollInterval, 10);
    assert.equal(job.label, "a");
    assert.equal(job.sessionId, undefined);

    const working = await p.tasks.getTask(id);
    assert.equal(working.status, "working");
    assert.equal(working.ttl, 60_000);
    assert.equal(working.createdAt, created.task.createdAt);

    // tasks/result blocks while the task works (§D 31) ...
    let settled = false;
    const result = p.tasks.getTaskResult(id, CallToolResultSchema).finally(() => (settled = true));
    await sleep(50);
    assert.equal(settled, false, "tasks/result answered before the task ended");

    // ... and answers the stored result once the work stores it.
    await job.taskStore.storeTaskResult(id, "completed", text("done a"));
    const answer = await result;
    assert.deepEqual(answer.content, [{ type: "text", text: "done a" }]);
    assert.deepEqual(answer._meta?.[RELATED], { taskId: id }, "§D 14");

    const done = await p.pollUntil(id, (t) => t.status === "completed");
    assert.ok(Date.parse(done.lastUpdatedAt) >= Date.parse(done.createdAt));
    const again = await p.tasks.getTaskResult(id, CallToolResultSchema);
    assert.deepEqual(again.content, answer.content, "the result stays readable");

    const listed = await p.tasks.listTasks();
    assert.deepEqual(listed.tasks.map((t) => [t.taskId, t.status]), [[id, "completed"]]);
    assert.equal(listed.nextCursor, undefined);

    // The SDK announced the terminal status with the task our store answered.
    const notes = p.wire.answers("notifications/tasks/status");
    assert.ok(notes.some((n) => n.params.taskId === id && n.params.status === "completed"), JSON.stringify(notes));
    p.wire.assertValid("tools/call", "tasks/get", "tasks/result", "tasks/list", "notifications/tasks/status");
  } finally {
    await p.close();
  }
});

test("SDK end to end: the SDK's own polling (callToolStream; automatic polling of an optional tool) runs on the adapter", async () => {
  const store = new SdkTaskStore({ pollIntervalMs: 10 });
  const p = await connect(store);
  try {
    const types = [];
    let last;
    for await (const message of p.tasks.callToolStream({ name: "echo", arguments: { text: "hi", delayMs: 30 } }, CallToolResultSchema, { task: { ttl: 10_000 } })) {
      types.push(message.type);
      last = message;
    }
    assert.equal(types[0], "taskCreated");
    assert.ok(types.includes("taskStatus"));
    assert.equal(types.at(-1), "result", JSON.stringify(last));
    assert.deepEqual(last.result.content, [{ type: "text", text: "hi" }]);

    // A plain call of an optional task tool: the SDK server creates a task and polls our store
    // itself (handleAutomaticTaskPolling), then answers the stored result.
    const plain = await p.client.callTool({ name: "echo", arguments: { text: "plain", delayMs: 20 } });
    assert.deepEqual(plain.content, [{ type: "text", text: "plain" }]);
    const all = await p.tasks.listTasks();
    assert.equal(all.tasks.length, 2);
    assert.ok(all.tasks.every((t) => t.status === "completed"));
    for (const outcome of await Promise.allSettled(p.background)) assert.equal(outcome.status, "fulfilled", String(outcome.reason));
    p.wire.assertValid("tools/call", "tasks/get", "tasks/result", "tasks/list");
  } finally {
    await p.close();
  }
});

test("SDK end to end: an isError tool result fails the task with a diagnostic and tasks/result answers that result (§D 30, 44)", async () => {
  const p = await connect(new SdkTaskStore({ pollIntervalMs: 10 }));
  try {
    const { created, job } = await p.startWork("b");
    const id = created.task.taskId;
    await job.taskStore.storeTaskResult(id, "failed", toolError("disk full"));
    const failed = await p.tasks.getTask(id);
    assert.equal(failed.status, "failed");
    assert.equal(typeof failed.statusMessage, "string");
    assert.ok(failed.statusMessage.length > 0);
    const answer = await p.tasks.getTaskResult(id, CallToolResultSchema);
    assert.equal(answer.isError, true);
    assert.deepEqual(answer.content, [{ type: "text", text: "disk full" }]);
    assert.deepEqual(answer._meta?.[RELATED], { taskId: id });
    p.wire.assertValid("tasks/get", "tasks/result");
  } finally {
    await p.close();
  }
});

test("SDK end to end: updateTaskStatus(…, 'failed', message) fails the task with a JSON-RPC error that tasks/result answers exactly", async () => {
  const p = await connect(new SdkTaskStore({ pollIntervalMs: 10 }));
  try {
    const { created, job } = await p.startWork("c");
    const id = created.task.taskId;
    await job.taskStore.updateTaskStatus(id, "failed", "upstream exploded");
    const failed = await p.tasks.getTask(id);
    assert.equal(failed.status, "failed");
    assert.equal(failed.statusMessage, "upstream exploded");
    const e = await rejectsWith(p.tasks.getTaskResult(id, CallToolResultSchema), -32603);
    assert.ok(e instanceof McpError);
    const [wireAnswer] = p.wire.answers("tasks/result");
    assert.deepEqual(wireAnswer.error, { code: -32603, message: "upstream exploded" }, "the stored error, unchanged on the wire");
    p.wire.assertValid("tasks/get", "tasks/result");
  } finally {
    await p.close();
  }
});

test("SDK end to end: tasks/cancel of a running task answers it cancelled, and it stays cancelled when the work finishes later (§D 16, 21-23)", async () => {
  const p = await connect(new SdkTaskStore({ pollIntervalMs: 10 }));
  try {
    const { created, job } = await p.startWork("d");
    const id = created.task.taskId;
    const cancelled = await p.tasks.cancelTask(id);
    assert.equal(cancelled.taskId, id);
    assert.equal(cancelled.status, "cancelled");
    assert.equal(cancelled.statusMessage, "Client cancelled task execution.");

    // The work finishes afterwards: the first terminal outcome won, the late one is refused.
    await rejectsWith(job.taskStore.storeTaskResult(id, "completed", text("too late")), -32602, "already_terminal");
    await rejectsWith(job.taskStore.storeTaskResult(id, "failed", toolError("too late")), -32602, "already_terminal");
    const after = await p.tasks.getTask(id);
    assert.equal(after.status, "cancelled");
    assert.equal(after.lastUpdatedAt, cancelled.lastUpdatedAt);

    // A cancelled task has no result; cancelling it again is -32602 (§D 22).
    await rejectsWith(p.tasks.getTaskResult(id, CallToolResultSchema), -32602);
    await rejectsWith(p.tasks.cancelTask(id), -32602);
    assert.equal((await p.tasks.listTasks()).tasks[0].status, "cancelled");
    p.wire.assertValid("tasks/cancel", "tasks/get", "tasks/result", "tasks/list");
  } finally {
    await p.close();
  }
});

test("SDK end to end: session isolation, two sessions (and a sessionless pair) sharing one SdkTaskStore (§D 37, 38)", async () => {
  const store = new SdkTaskStore({ pollIntervalMs: 10 });
  const a = await connect(store, { sessionId: "session-A" });
  const b = await connect(store, { sessionId: "session-B" });
  const none = await connect(store);
  try {
    const { created: ca, job: ja } = await a.startWork("a1");
    const { created: cb, job: jb } = await b.startWork("b1");
    const ta = ca.task.taskId;
    const tb = cb.task.taskId;
    assert.equal(ja.sessionId, "session-A");
    assert.equal(jb.sessionId, "session-B");
    const unknown = "0".repeat(32);

    for (const other of [b, none]) {
      // Every task method on A's task: -32602, worded like an unknown id, never "forbidden".
      for (const [method, call] of [
        ["tasks/get", (id) => other.tasks.getTask(id)],
        ["tasks/result", (id) => other.tasks.getTaskResult(id, CallToolResultSchema)],
        ["tasks/cancel", (id) => other.tasks.cancelTask(id)],
      ]) {
        const foreign = await rejectsWith(call(ta), -32602);
        const missing = await rejectsWith(call(unknown), -32602);
        assert.doesNotMatch(foreign.message, /forbidden|denied|unauthori[sz]ed|another session/i);
        assert.equal(foreign.message.replace(ta, "<id>"), missing.message.replace(unknown, "<id>"), `${method}: a foreign task looks unknown`);
      }
      const listed = (await other.tasks.listTasks()).tasks.map((t) => t.taskId);
      assert.ok(!listed.includes(ta), "A's task is not listed elsewhere");
    }
    assert.deepEqual((await b.tasks.listTasks()).tasks.map((t) => t.taskId), [tb]);
    assert.deepEqual((await none.tasks.listTasks()).tasks, [], "no session sees no session's tasks (fail closed)");
    assert.deepEqual((await a.tasks.listTasks()).tasks.map((t) => t.taskId), [ta]);

    // B's work, bound to session B by the SDK, cannot write A's task either.
    await rejectsWith(jb.taskStore.storeTaskResult(ta, "completed", text("from B")), -32602);
    await rejectsWith(jb.taskStore.updateTaskStatus(ta, "input_required"), -32602);

    // A's task is untouched by all of that and ends normally for A.
    assert.equal((await a.tasks.getTask(ta)).status, "working");
    await ja.taskStore.storeTaskResult(ta, "completed", text("from A"));
    assert.deepEqual((await a.tasks.getTaskResult(ta, CallToolResultSchema)).content, [{ type: "text", text: "from A" }]);
    assert.equal((await b.tasks.getTask(tb)).status, "working");
    for (const p of [a, b, none]) p.wire.assertValid("tasks/get", "tasks/list");
  } finally {
    await Promise.all([a.close(), b.close(), none.close()]);
  }
});

test("SDK end to end: tasks/list pages through opaque cursors bound to the session (§D 36, 53)", async () => {
  const store = new SdkTaskStore({ pollIntervalMs: 10, pageSize: 2 });
  const a = await connect(store, { sessionId: "session-A" });
  const b = await connect(store, { sessionId: "session-B" });
  try {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await a.startWork(`t${i}`)).created.task.taskId);
    await b.startWork("other");

    const pages = [];
    let cursor;
    do {
      const page = await a.tasks.listTasks(cursor);
      pages.push(page.tasks.map((t) => t.taskId));
      cursor = page.nextCursor;
      if (cursor !== undefined) assert.ok(!ids.includes(cursor), "the cursor is not a task id");
    } while (cursor !== undefined);
    assert.deepEqual(pages.map((p) => p.length), [2, 2, 1]);
    assert.deepEqual(pages.flat(), ids, "creation order, each task once");

    const first = await a.tasks.listTasks();
    await rejectsWith(b.tasks.listTasks(first.nextCursor), -32602); // A's cursor from B
    await rejectsWith(a.tasks.listTasks(`${first.nextCursor}x`), -32602); // altered
    await rejectsWith(a.tasks.listTasks("bm90LWEtY3Vyc29y"), -32602); // forged
    a.wire.assertValid("tasks/list");
    b.wire.assertValid("tasks/list");
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test("SDK end to end: the session's live-task cap (maxLiveTasksPerSession) holds under McpServer; an ended task frees its place", async () => {
  const store = new SdkTaskStore({ pollIntervalMs: 10, maxLiveTasksPerSession: 1 });
  const p = await connect(store, { sessionId: "capped" });
  try {
    const { created, job } = await p.startWork("first");
    // Our store refuses the second live task with -32010; McpServer 1.32.2 turns any createTask
    // failure into an isError tool result, which then fails its CreateTaskResult check, so the
    // client sees a -32602 "Invalid task creation result" instead. Either way: refused.
    const e = await rejectsWith(p.startWork("second"), -32602);
    assert.match(e.message, /task creation result/i);
    assert.deepEqual((await p.tasks.listTasks()).tasks.map((t) => t.taskId), [created.task.taskId]);
    await job.taskStore.storeTaskResult(created.task.taskId, "completed", text("done"));
    const { created: next } = await p.startWork("third");
    assert.equal(next.task.status, "working");
    assert.equal((await p.tasks.listTasks()).tasks.length, 2);
    p.wire.assertValid("tools/call", "tasks/list");
  } finally {
    await p.close();
  }
});

test("SDK end to end: with createError (McpError), a cancel racing the work's completion keeps the store's -32602 and the first outcome", async () => {
  // The SDK's tasks/cancel checks the status, then calls updateTaskStatus: not atomic. Here the
  // work completes in between; our store refuses the cancel atomically. The SDK keeps the code of
  // an McpError only (anything else becomes -32600), which createError provides.
  class Racing extends SdkTaskStore {
    async updateTaskStatus(taskId, status, statusMessage, sessionId) {
      if (status === "cancelled") await this.storeTaskResult(taskId, "completed", text("won the race"), sessionId);
      return super.updateTaskStatus(taskId, status, statusMessage, sessionId);
    }
  }
  for (const [createError, code] of [
    [(c, m, d) => new McpError(c, m, d), -32602],
    [undefined, -32600],
  ]) {
    const p = await connect(new Racing({ pollIntervalMs: 10, createError }));
    try {
      const { created } = await p.startWork("race");
      const id = created.task.taskId;
      await rejectsWith(p.tasks.cancelTask(id), code);
      assert.equal((await p.tasks.getTask(id)).status, "completed");
      assert.deepEqual((await p.tasks.getTaskResult(id, CallToolResultSchema)).content, [{ type: "text", text: "won the race" }]);
      p.wire.assertValid("tasks/cancel", "tasks/get", "tasks/result");
    } finally {
      await p.close();
    }
  }
});

// ---- the adapter alone (virtual time) --------------------------------------------------------------

/** An adapter on a virtual clock: `clock.t` is Unix ms. */
function virtual(options = {}) {
  const clock = { t: T0 };
  const store = new SdkTaskStore({ now: () => clock.t, ...options });
  return { clock, store };
}

function assertValidTask(task, inReplyTo = "tasks/get") {
  const r = validateMessage({ jsonrpc: "2.0", id: 1, result: task }, { inReplyTo, version: V25 });
  assert.deepEqual(r.issues, [], JSON.stringify(task));
  assert.equal(r.valid, true);
}

test("createTask: the TTL is capped by maxTtlMs and reported, the default applies when none is asked; expired tasks are gone (§D 25, 26)", async () => {
  const { clock, store } = virtual({ maxTtlMs: 60_000, defaultTtlMs: 30_000, pollIntervalMs: 500 });
  const req = { method: "tools/call", params: { name: "x" } };
  const capped = await store.createTask({ ttl: 1e9 }, 1, req, "s");
  const byDefault = await store.createTask({}, 2, req, "s");
  const nullTtl = await store.createTask({ ttl: null }, 3, req, "s");
  const short = await store.createTask({ ttl: 1000, pollInterval: 50 }, 4, req, "s");
  assert.deepEqual(
    [capped, byDefault, nullTtl, short].map((t) => [t.status, t.ttl, t.pollInterval]),
    [["working", 60_000, 500], ["working", 30_000, 500], ["working", 30_000, 500], ["working", 1000, 50]],
  );
  assert.equal(Date.parse(capped.createdAt), T0);
  assert.equal(capped.lastUpdatedAt, capped.createdAt);
  for (const t of [capped, short]) {
    assertValidTask(t);
    assertValidTask({ task: t }, "tools/call");
    assert.deepEqual(await store.getTask(t.taskId, "s"), t);
  }

  clock.t = T0 + 1001;
  assert.equal(store.sweep(), 1, "the short task expired");
  assert.equal(await store.getTask(short.taskId, "s"), null);
  await rejectsWith(store.getTaskResult(short.taskId, "s"), -32602, "not_found");
  assert.deepEqual((await store.listTasks(undefined, "s")).tasks.map((t) => t.taskId), [capped, byDefault, nullTtl].map((t) => t.taskId));

  clock.t = T0 + 60_001; // past every TTL: purged when met, without a sweep
  assert.deepEqual((await store.listTasks(undefined, "s")).tasks, []);
  assert.equal(await store.getTask(capped.taskId, "s"), null);

  // A TTL that is no non-negative integer is the requestor's invalid params.
  await rejectsWith(store.createTask({ ttl: -5 }, 5, req, "s"), -32602);
  await rejectsWith(store.createTask({ ttl: 1.5 }, 6, req, "s"), -32602);
});

test("unknown ids: getTask answers null, every other method rejects with -32602 (kind not_found)", async () => {
  const { store } = virtual();
  const id = "f".repeat(32);
  assert.equal(await store.getTask(id), null);
  assert.equal(await store.getTask(id, "s"), null);
  await rejectsWith(store.getTaskResult(id, "s"), -32602, "not_found");
  await rejectsWith(store.storeTaskResult(id, "completed", text("x"), "s"), -32602, "not_found");
  await rejectsWith(store.updateTaskStatus(id, "working", undefined, "s"), -32602, "not_found");
  await rejectsWith(store.updateTaskStatus(id, "cancelled", "stop", "s"), -32602, "not_found");
  const e = await rejectsWith(store.getTaskResult(id), -32602, "not_found");
  assert.ok(e instanceof Error);
  assert.equal(e.name, "TaskStoreError");
});

test("terminal tasks never change: the first terminal outcome wins (§D 20, 21)", async () => {
  const { clock, store } = virtual();
  const t = await store.createTask({ ttl: 60_000 }, 1, { method: "tools/call" }, "s");
  clock.t += 10;
  await store.storeTaskResult(t.taskId, "completed", text("first"), "s");
  const done = await store.getTask(t.taskId, "s");
  assert.equal(done.status, "completed");
  assert.equal(Date.parse(done.lastUpdatedAt), T0 + 10);
  assertValidTask(done);

  clock.t += 10;
  await rejectsWith(store.storeTaskResult(t.taskId, "completed", text("second"), "s"), -32602, "already_terminal");
  await rejectsWith(store.storeTaskResult(t.taskId, "failed", toolError("second"), "s"), -32602, "already_terminal");
  for (const status of ["working", "input_required", "cancelled", "failed", "completed"]) {
    await rejectsWith(store.updateTaskStatus(t.taskId, status, "again", "s"), -32602, "already_terminal");
  }
  assert.deepEqual(await store.getTask(t.taskId, "s"), done, "nothing changed, lastUpdatedAt included");
  assert.deepEqual(await store.getTaskResult(t.taskId, "s"), text("first"));
});

test("updateTaskStatus: working <-> input_required with a message; a live task has no result yet; a malformed failure or status is refused", async () => {
  const { clock, store } = virtual();
  const t = await store.createTask({}, 1, { method: "tools/call" }, "s");
  clock.t += 5;
  await store.updateTaskStatus(t.taskId, "input_required", "waiting for the user", "s");
  let now = await store.getTask(t.taskId, "s");
  assert.deepEqual([now.status, now.statusMessage, Date.parse(now.lastUpdatedAt)], ["input_required", "waiting for the user", T0 + 5]);
  assertValidTask(now);
  await store.updateTaskStatus(t.taskId, "working", undefined, "s");
  now = await store.getTask(t.taskId, "s");
  assert.equal(now.status, "working");

  // (updateTaskStatus(…, "completed") completes the task: tests/js/server/sdk-dropin.test.mjs.)
  await rejectsWith(store.getTaskResult(t.taskId, "s"), -32603);
  await rejectsWith(store.storeTaskResult(t.taskId, "failed", text("no isError"), "s"), -32603, "invalid_tool_failure");
  await assert.rejects(store.storeTaskResult(t.taskId, "cancelled", text("x"), "s"), TypeError);
  assert.equal((await store.getTask(t.taskId, "s")).status, "working", "refusals change nothing");

  await store.updateTaskStatus(t.taskId, "cancelled", "stopped by the host", "s");
  const cancelled = await store.getTask(t.taskId, "s");
  assert.deepEqual([cancelled.status, cancelled.statusMessage], ["cancelled", "stopped by the host"]);
  assertValidTask(cancelled, "tasks/cancel");
  const e = await rejectsWith(store.getTaskResult(t.taskId, "s"), -32602);
  assert.match(e.message, /cancelled/);
});

test("ignoreLateResults: a result for a task that ended or expired resolves and changes nothing; other refusals still reject", async () => {
  const { clock, store } = virtual({ ignoreLateResults: true });
  const req = { method: "tools/call" };
  const a = await store.createTask({}, 1, req, "s");
  await store.updateTaskStatus(a.taskId, "cancelled", "stop", "s");
  await store.storeTaskResult(a.taskId, "completed", text("late"), "s");
  assert.equal((await store.getTask(a.taskId, "s")).status, "cancelled");

  const b = await store.createTask({ ttl: 100 }, 2, req, "s");
  clock.t += 101;
  await store.storeTaskResult(b.taskId, "completed", text("late"), "s");
  assert.equal(await store.getTask(b.taskId, "s"), null);

  const c = await store.createTask({}, 3, req, "s");
  await rejectsWith(store.storeTaskResult(c.taskId, "failed", text("no isError"), "s"), -32603, "invalid_tool_failure");
  // Without the option (the default) the late result rejects.
  const strict = virtual().store;
  const d = await strict.createTask({}, 4, req);
  await strict.updateTaskStatus(d.taskId, "cancelled");
  await rejectsWith(strict.storeTaskResult(d.taskId, "completed", text("late")), -32602, "already_terminal");
});

test("createError makes the thrown errors (kind and cause kept); stored JSON-RPC errors stay exact", async () => {
  const made = [];
  const { store } = virtual({
    createError: (code, message, data) => {
      made.push(code);
      return new McpError(code, message, data);
    },
  });
  const e = await rejectsWith(store.getTaskResult("0".repeat(32), "s"), -32602, "not_found");
  assert.ok(e instanceof McpError);
  assert.equal(e.cause.name, "TaskStoreError");
  const t = await store.createTask({}, 1, { method: "tools/call" }, "s");
  await store.updateTaskStatus(t.taskId, "failed", "quota exceeded", "s");
  const stored = await rejectsWith(store.getTaskResult(t.taskId, "s"), -32603);
  assert.ok(!(stored instanceof McpError));
  assert.equal(stored.message, "quota exceeded");
  await rejectsWith(store.createTask({ ttl: -1 }, 2, { method: "tools/call" }, "s"), -32602);
  assert.deepEqual(made, [-32602, -32602]);
});

test("sessions at the adapter: undefined is no session; a left-out sessionId is the host (unscopedWork); shareAcrossSessions passes through; a given TaskStore is used (snapshot/restore)", async () => {
  const { store } = virtual();
  const req = { method: "tools/call" };
  const mine = await store.createTask({}, 1, req, "alice");
  const free = await store.createTask({}, 2, req);
  assert.equal(await store.getTask(mine.taskId, "bob"), null);
  // The argument given as undefined (what the SDK passes for a client without a session): no session.
  assert.equal(await store.getTask(mine.taskId, undefined), null);
  assert.equal(await store.getTask(free.taskId, "alice"), null, "a session does not see sessionless tasks either");
  assert.deepEqual((await store.listTasks(undefined, "alice")).tasks.map((t) => t.taskId), [mine.taskId]);
  assert.deepEqual((await store.listTasks(undefined, undefined)).tasks.map((t) => t.taskId), [free.taskId]);
  // The argument left out (code holding the store: the work): the host, every task (§D 38).
  assert.equal((await store.getTask(mine.taskId)).taskId, mine.taskId);
  assert.deepEqual((await store.listTasks()).tasks.map((t) => t.taskId), [mine.taskId, free.taskId]);
  // unscopedWork: false: a left-out sessionId is no session, fail-closed like undefined.
  const strict = virtual({ unscopedWork: false }).store;
  const theirs = await strict.createTask({}, 1, req, "alice");
  const none = await strict.createTask({}, 2, req);
  assert.equal(await strict.getTask(theirs.taskId), null);
  await assert.rejects(strict.storeTaskResult(theirs.taskId, "completed", text("x")), { code: -32602, kind: "not_found" });
  assert.deepEqual((await strict.listTasks()).tasks.map((t) => t.taskId), [none.taskId]);

  const shared = virtual({ shareAcrossSessions: true }).store;
  const s = await shared.createTask({}, 1, req, "alice");
  assert.equal((await shared.getTask(s.taskId, "bob")).taskId, s.taskId);

  // An existing store: the adapter shares it (here, one restored from a snapshot).
  const restored = new SdkTaskStore({ store: TaskStore.restore(store.store.snapshot()), now: () => T0 });
  assert.ok(restored.store instanceof TaskStore);
  assert.deepEqual(await restored.getTask(mine.taskId, "alice"), await store.getTask(mine.taskId, "alice"));
  assert.equal(await restored.getTask(mine.taskId, "bob"), null);
  assert.throws(() => new SdkTaskStore({ store: new TaskStore(), maxTtlMs: 5 }), TypeError);
  assert.throws(() => new SdkTaskStore({ pageSize: "ten" }), TypeError);
});
