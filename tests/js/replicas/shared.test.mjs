// SharedTaskServer in one process: several "replicas" (a SharedTaskServer and a TaskHost
// each) over ONE storage, through the installed package (scripts/pack.sh). MemoryStorage here
// (its change feed is in process); SQLite as well, one file opened by each replica separately
// (its feed polls the file). What is proven: every operation answers as the in-memory TaskServer
// does (the same core runs it), a cancel made on one replica aborts the work on another, a
// `tasks/list` cursor issued by one replica pages on another, the session cap counts the storage,
// compare-and-set conflicts are retried, a lost lease fails the task, bad options are refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadStorage, waitFor } from "../storage/lib.mjs";
// The classes' internal tables and bounds, read through their deliberate test hook
// (`@internal`, absent from the typings: js/core/internals.ts).
const internals = (o) => o[Symbol.for("mcp-tasks-wasm.internals")]();

const { SharedTaskServer, TaskServer, TaskHost, TaskStoreError } = await import("../.tmp/install/server.mjs");
const { MemoryStorage } = await loadStorage("");

const KEY = "00112233445566778899aabbccddeeff";
const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const meta = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: { [EXT]: {} } } };
let nextId = 1;
/** One storage shared by "replicas" that each close their own handle: closing one closes nothing. */
const shared = (s) => ({
  name: s.name,
  get: (id) => s.get(id),
  putIfVersion: (r, v) => s.putIfVersion(r, v),
  delete: (id) => s.delete(id),
  rangeAfter: (scope, after, limit) => s.rangeAfter(scope, after, limit),
  rangeLive: (after, limit) => s.rangeLive(after, limit),
  getMany: (ids) => s.getMany(ids),
  putEachIfVersion: (entries) => s.putEachIfVersion(entries),
  expired: (now, limit) => s.expired(now, limit),
  countLive: (session) => s.countLive(session),
  nextSequence: () => s.nextSequence(),
  lastSequence: () => s.lastSequence(),
  subscribe: (l) => s.subscribe(l),
  close: async () => {},
});
const req = (method, params = {}) => ({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta } });
const v25 = (method, params = {}) => ({ jsonrpc: "2.0", id: nextId++, method, params });

/** A replica: a SharedTaskServer over `storage` and a TaskHost with two tools. */
async function replica(storage, options = {}) {
  const server = await SharedTaskServer.open(storage, { cursorKey: KEY, ...options });
  const host = new TaskHost({ server });
  const aborted = [];
  host.tool("wait", { taskSupport: "optional" }, async (_args, { signal, taskId }) => {
    await new Promise((resolve, reject) => signal.addEventListener("abort", () => {
      aborted.push(taskId);
      reject(signal.reason);
    }, { once: true }));
    return { content: [] };
  });
  host.tool("echo", { taskSupport: "optional" }, async (args) => ({ content: [{ type: "text", text: String(args.text) }] }));
  return { server, host, aborted };
}

test("every operation answers as the in-memory TaskServer: the same core runs it", async () => {
  const storage = new MemoryStorage();
  const { server } = await replica(storage);
  const mem = new TaskServer();
  const ctx = { protocolVersion: V26, now: 1_000 };
  const call = req("tools/call", { name: "x", arguments: {} });
  const a = await server.beginToolCall(call, ctx, "optional");
  const b = mem.beginToolCall(call, ctx, "optional");
  assert.equal(a.kind, "task");
  // Same answer but the random task id.
  const strip = (o) => JSON.parse(JSON.stringify(o).replaceAll(a.taskId ?? "", "ID").replaceAll(b.taskId ?? "", "ID"));
  assert.deepEqual(strip(a), strip(b));
  for (const method of ["tasks/get", "tasks/cancel", "tasks/get", "tasks/nope"]) {
    const x = await server.handle(req(method, { taskId: a.taskId }), { ...ctx, now: 2_000 });
    const y = mem.handle(req(method, { taskId: b.taskId }), { ...ctx, now: 2_000 });
    x.message.id = y.message.id = 0;
    assert.deepEqual(strip(x), strip(y), method);
  }
  // Unknown ids, garbage, not-tasks messages: the core's answers.
  for (const message of [req("tasks/get", { taskId: "nope" }), req("tasks/get", {}), { jsonrpc: "2.0", id: 5, method: "tasks/get" }, { jsonrpc: "2.0", method: "tasks/get" }, '{"jsonrpc":"2.0","id":"x","method":"tasks/list"}']) {
    assert.deepEqual(await server.handle(message, ctx), mem.handle(message, ctx), JSON.stringify(message));
  }
  // Text that is not JSON: the same TypeError.
  const thrown = (() => {
    try {
      mem.handle("{not json", ctx);
    } catch (e) {
      return e;
    }
  })();
  await assert.rejects(server.handle("{not json", ctx), { name: thrown.name, message: thrown.message });
  assert.equal((await server.handle({ jsonrpc: "2.0", id: 1, method: "tools/list" }, ctx)).kind, "not-handled");
  // The stored record is the core's (plus the lease of the replica that runs the work).
  const stored = await storage.get(a.taskId);
  assert.equal(stored.status, "cancelled");
  assert.equal(stored.lease, undefined, "a terminal task carries no lease");
  await server.close();
  mem.free();
});

for (const kind of ["memory", "sqlite"]) {
  test(`${kind}: a cancel on B aborts the work running on A; input answered on C reaches it`, async () => {
    let dir = null;
    /** @type {() => Promise<any>} */
    let open;
    if (kind === "memory") {
      const storage = new MemoryStorage();
      // One storage object shared: closing one replica must not close it for the others.
      open = async () => shared(storage);
    } else {
      dir = mkdtempSync(join(tmpdir(), "mcp-tasks-shared-"));
      const { openSqliteStorage } = await loadStorage("sqlite");
      open = () => openSqliteStorage({ path: join(dir, "tasks.db"), pollMs: 10 });
    }
    const [A, B, C] = [await replica(await open()), await replica(await open()), await replica(await open())];
    try {
      const created = await A.host.handle(req("tools/call", { name: "wait", arguments: {} }), { protocolVersion: V26 });
      const taskId = created.result.taskId;
      assert.equal(internals(A.host).running.size, 1);
      const cancelled = await B.host.handle(req("tasks/cancel", { taskId }), { protocolVersion: V26 });
      assert.equal(cancelled.result.resultType, "complete");
      await waitFor(() => A.aborted.includes(taskId), "the work on A aborted");
      await A.host.idle();
      const task = await C.host.handle(req("tasks/get", { taskId }), { protocolVersion: V26 });
      assert.equal(task.result.status, "cancelled");
      // Input: the work on A asks, C answers, A resumes and completes.
      A.host.tool("ask", { taskSupport: "optional" }, async (_a, ctx) => {
        const { q } = await ctx.requestInput({ q: { method: "elicitation/create", params: { mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } } } });
        return { content: [{ type: "text", text: q.action }] };
      });
      const asked = (await A.host.handle(req("tools/call", { name: "ask", arguments: {} }), { protocolVersion: V26 })).result.taskId;
      await waitFor(async () => (await B.host.handle(req("tasks/get", { taskId: asked }), { protocolVersion: V26 })).result.status === "input_required", "input_required");
      await C.host.handle(req("tasks/update", { taskId: asked, inputResponses: { q: { action: "accept", content: {} } } }), { protocolVersion: V26 });
      await waitFor(async () => (await B.host.handle(req("tasks/get", { taskId: asked }), { protocolVersion: V26 })).result.status === "completed", "completed");
      const done = await B.host.handle(req("tasks/get", { taskId: asked }), { protocolVersion: V26 });
      assert.equal(done.result.result.content[0].text, "accept");
    } finally {
      for (const r of [A, B, C]) {
        await r.host.close();
        await r.server.close();
      }
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("tasks/list: a cursor issued by one replica pages on another; a forged one is refused", async () => {
  const storage = new MemoryStorage();
  const A = await replica(shared(storage), { store: { pageSize: 2 } });
  const B = await replica(shared(storage), { store: { pageSize: 2 } });
  const ctx = { protocolVersion: V25, session: "s1" };
  const ids = [];
  for (let i = 0; i < 5; i++) {
    const r = await (i % 2 ? A : B).server.beginToolCall(v25("tools/call", { name: "echo", arguments: {}, task: {} }), ctx, "optional");
    ids.push(r.taskId);
  }
  // Another session's task is not listed (§D 38).
  await A.server.beginToolCall(v25("tools/call", { name: "echo", arguments: {}, task: {} }), { protocolVersion: V25, session: "s2" }, "optional");
  const seen = [];
  let cursor;
  let turn = 0;
  do {
    const page = await [A, B][turn++ % 2].server.handle(v25("tasks/list", cursor ? { cursor } : {}), ctx);
    assert.equal(page.kind, "response");
    seen.push(...page.message.result.tasks.map((t) => t.taskId));
    cursor = page.message.result.nextCursor;
  } while (cursor);
  assert.deepEqual(seen, ids);
  const forged = await B.server.handle(v25("tasks/list", { cursor: "00".repeat(16) }), ctx);
  assert.equal(forged.message.error.code, -32602);
  // A cursor of session s1 is not one of session s2.
  const first = await A.server.handle(v25("tasks/list", {}), ctx);
  const other = await B.server.handle(v25("tasks/list", { cursor: first.message.result.nextCursor }), { protocolVersion: V25, session: "s2" });
  assert.equal(other.message.error.code, -32602);
  for (const r of [A, B]) await r.server.close();
});

test("the session cap counts the session's live tasks in the storage, whichever replica made them", async () => {
  const storage = new MemoryStorage();
  const A = await replica(shared(storage), { store: { maxLiveTasksPerSession: 2 } });
  const B = await replica(shared(storage), { store: { maxLiveTasksPerSession: 2 } });
  const ctx = { protocolVersion: V25, session: "s" };
  const call = () => v25("tools/call", { name: "wait", arguments: {}, task: {} });
  assert.equal((await A.server.beginToolCall(call(), ctx, "optional")).kind, "task");
  assert.equal((await B.server.beginToolCall(call(), ctx, "optional")).kind, "task");
  const refused = await A.server.beginToolCall(call(), ctx, "optional");
  assert.equal(refused.kind, "reject");
  assert.equal(refused.response.error.code, -32010);
  assert.deepEqual(refused.response.error.data, { limit: 2 });
  // Another session is not capped by this one.
  assert.equal((await B.server.beginToolCall(call(), { protocolVersion: V25, session: "t" }, "optional")).kind, "task");
  for (const r of [A, B]) await r.server.close();
});

test("compare-and-set: concurrent writers to one task all land, in some order (retried on conflict)", async () => {
  const storage = new MemoryStorage();
  const { server } = await replica(storage);
  const start = await server.beginToolCall(req("tools/call", { name: "x", arguments: {} }), { protocolVersion: V26 }, "optional");
  const id = start.taskId;
  // Eight status messages at once: each read-rule-write loses to the others and runs again.
  const results = await Promise.all(Array.from({ length: 8 }, (_, i) => server.setStatus(id, "working", `m${i}`)));
  assert.equal(results.length, 8);
  const stored = await storage.get(id);
  assert.ok(stored.version >= 9, `version ${stored.version}`);
  // A terminal outcome wins once: the second is refused by the rule, not lost.
  await server.finishToolCall(id, { result: { content: [] } });
  const again = await server.finishToolCall(id, { error: { code: -1, message: "late" } });
  assert.equal(again.kind, "already-terminal");
  await server.close();
});

test("a lease that runs out (its replica stopped renewing) fails the task on any replica's sweep", async () => {
  const storage = new MemoryStorage();
  const A = await replica(shared(storage), { leaseMs: 30, leaseGraceMs: 0, replicaId: "A" });
  const B = await replica(shared(storage), { leaseMs: 30, leaseGraceMs: 0, replicaId: "B" });
  const start = await A.server.beginToolCall(req("tools/call", { name: "x", arguments: {} }), { protocolVersion: V26 }, "optional");
  const leased = await storage.get(start.taskId);
  assert.equal(leased.lease.owner, "A");
  // While A renews, B's sweeps leave the task alone.
  await waitFor(async () => (await storage.get(start.taskId)).lease.beat > leased.lease.beat, "a renewal");
  await B.server.sweep();
  assert.equal((await B.server.getTask(start.taskId)).status, "working");
  // A stops renewing (as a killed process does): B's sweep fails the task once the lease is out.
  await A.server.close();
  await waitFor(async () => {
    await B.server.sweep();
    return (await B.server.getTask(start.taskId)).status === "failed";
  }, "failed on a lost lease");
  const failed = await B.server.getTask(start.taskId);
  assert.match(failed.v26.error.message, /replica running this task stopped/);
  assert.equal(failed.v26.error.code, -32603);
  await B.server.close();
});

test("SharedTaskServer.open refuses what it cannot use, with a TypeError naming it", async () => {
  const storage = new MemoryStorage();
  await assert.rejects(SharedTaskServer.open(storage, {}), /cursorKey/);
  await assert.rejects(SharedTaskServer.open(storage, { cursorKey: "0".repeat(32) }), /cursorKey/);
  await assert.rejects(SharedTaskServer.open(storage, { cursorKey: "ABC" }), /cursorKey/);
  await assert.rejects(SharedTaskServer.open({}, { cursorKey: KEY }), /TaskStorage/);
  await assert.rejects(SharedTaskServer.open(storage, { cursorKey: KEY, leaseMs: 0 }), /leaseMs/);
  await assert.rejects(SharedTaskServer.open(storage, { cursorKey: KEY, store: { pageSize: "x" } }), TypeError);
  const s = await SharedTaskServer.open(storage, { cursorKey: KEY });
  await s.close();
  await assert.rejects(s.getTask("x"), TaskStoreError);
});

test("TaskStore's verbs: the same answers and the same errors as the in-memory TaskServer", async () => {
  const server = await SharedTaskServer.open(new MemoryStorage(), { cursorKey: KEY, store: { pageSize: 2 } });
  // The same settings and cursor key (cursors are sealed with it).
  const config = new TaskServer({ pageSize: 2 }).snapshot().config;
  const mem = TaskServer.restore({ format: "mcp-tasks-wasm/store/1", config, cursorKey: KEY, sequence: 0, tasks: [] });
  /** Runs `f` on both; compares answers (task ids mapped) or errors (name, code, kind, message). */
  const ids = [[], []];
  const norm = (v, i) => {
    let text = JSON.stringify(v);
    ids[i].forEach((id, n) => (text = text.replaceAll(id, `ID${n}`)));
    return text === undefined ? undefined : JSON.parse(text);
  };
  async function both(what, f) {
    const out = [];
    for (const [i, s] of [server, mem].entries()) {
      try {
        out.push({ ok: norm(await f(s, ids[i]), i) });
      } catch (e) {
        out.push({ error: { name: e.name, code: e.code, kind: e.kind, message: norm(e.message, i) } });
      }
    }
    assert.deepEqual(out[0], out[1], what);
    return out[0];
  }
  const s = { session: "s", now: 10_000 };
  for (let n = 0; n < 3; n++) {
    await both(`create ${n}`, async (x, known) => {
      const t = await x.create({ protocolVersion: n === 2 ? V26 : V25, ttl: 60_000 }, s);
      known.push(t.taskId);
      return t;
    });
  }
  await both("get", (x, k) => x.get(k[0], s));
  await both("get, other session", (x, k) => x.get(k[0], { session: "t", now: 10_000 }));
  await both("get, host", (x, k) => x.get(k[0], { host: true, now: 10_000 }));
  await both("list page 1", (x) => x.list(null, s));
  await both("list page 2", async (x) => x.list({ cursor: (await x.list(null, s)).nextCursor }, s));
  await both("list limit 1", (x) => x.list({ limit: 1 }, s));
  await both("setStatus", (x, k) => x.setStatus(k[0], "input_required", "wait", { ...s, now: 11_000 }));
  await both("setStatus terminal", (x, k) => x.setStatus(k[0], "completed", null, s));
  await both("raiseInput", (x, k) => x.raiseInput(k[2], { q: { method: "roots/list" } }, "asking", { ...s, now: 12_000 }));
  await both("raiseInput reused", (x, k) => x.raiseInput(k[2], { q: { method: "elicitation/create", params: {} } }, null, s));
  await both("takeInput", (x, k) => x.takeInput(k[2], { q: { roots: [] }, nope: {} }, { ...s, now: 13_000 }));
  await both("complete", (x, k) => x.complete(k[2], { content: [] }, "done", { ...s, now: 14_000 }));
  await both("complete again", (x, k) => x.complete(k[2], { content: [] }, null, s));
  await both("fail", (x, k) => x.fail(k[1], { code: -32000, message: "boom" }, null, s));
  await both("failWithToolResult", (x, k) => x.failWithToolResult(k[0], { content: [{ type: "text", text: "bad" }], isError: true }, null, s));
  await both("resultOf", (x, k) => x.resultOf(k[0], s));
  await both("resultOf failed", (x, k) => x.resultOf(k[1], s));
  await both("cancel terminal V26", (x, k) => x.cancel(k[2], V26, null, s));
  await both("cancel terminal V25", (x, k) => x.cancel(k[2], V25, null, s));
  await both("remove", (x, k) => x.remove(k[1], s));
  await both("get removed", (x, k) => x.get(k[1], s));
  await both("get expired", (x, k) => x.get(k[0], { ...s, now: 10_000 + 60_001 }));
  await both("bad context", (x, k) => x.get(k[2], { session: 5 }));
  await both("bad id", (x) => x.get("", s));
  await both("bad params", (x) => x.create({ protocolVersion: "1999" }, s));
  await server.close();
  mem.free();
});

test("a V25 tasks/result blocked on B answers when the work on A ends", async () => {
  const storage = new MemoryStorage();
  const A = await replica(shared(storage));
  const B = await replica(shared(storage));
  let finish;
  A.host.tool("gated", { taskSupport: "optional" }, () => new Promise((resolve) => (finish = resolve)));
  const ctx = { protocolVersion: V25, session: "s" };
  const created = await A.host.handle(v25("tools/call", { name: "gated", arguments: {}, task: {} }), ctx);
  const taskId = created.result.task.taskId;
  let answered = null;
  const pending = B.host.handle(v25("tasks/result", { taskId }), ctx).then((r) => (answered = r));
  await waitFor(() => internals(B.host).waiting.has(taskId), "the result request waiting on B");
  assert.equal(answered, null);
  finish({ content: [{ type: "text", text: "late" }] });
  await pending;
  assert.equal(answered.result.content[0].text, "late");
  assert.equal(answered.result._meta["io.modelcontextprotocol/related-task"].taskId, taskId);
  for (const r of [A, B]) {
    await r.host.close();
    await r.server.close();
  }
});

test("types: a TaskHost over a SharedTaskServer answers promises where one over a TaskServer answers numbers (tsc --strict over the installed declarations)", async () => {
  const { execFileSync } = await import("node:child_process");
  const { mkdirSync, writeFileSync } = await import("node:fs");
  const install = join(import.meta.dirname, "..", ".tmp", "install");
  const dir = join(install, `shared-types-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(
      join(dir, "a.mts"),
      `import { SharedTaskServer, TaskHost, TaskServer, McpHttpServer } from "mcp-tasks-wasm/server";
import { MemoryStorage } from "mcp-tasks-wasm/storage";
const server = await SharedTaskServer.open(new MemoryStorage(), { cursorKey: "0123456789abcdef0123456789abcdef" });
const host = new TaskHost({ server });
const purged: Promise<number> = host.sweep();
const plain = new TaskHost();
const n: number = plain.sweep();
const s: TaskServer = plain.server;
const sh: SharedTaskServer = host.server;
const app = new McpHttpServer({ name: "x", version: "1", host });
const t = await server.create({ protocolVersion: "2026-07-28" }, { session: "s" });
const status: string = (await server.get(t.taskId, { session: "s" })).status;
// @ts-expect-error a shared host's sweep is not a number
const wrong: number = host.sweep();
console.log(purged, n, s, sh, app, status, wrong);
`,
    );
    const tsc = join(import.meta.dirname, "..", "..", "..", "node_modules", ".bin", "tsc");
    execFileSync(tsc, ["--strict", "--noEmit", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", join(dir, "a.mts")], { cwd: install, encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a replica that closes (shuts down) fails the tasks whose work it ran: they outlive it", async () => {
  const storage = new MemoryStorage();
  const A = await replica(shared(storage));
  const B = await replica(shared(storage));
  const created = await A.host.handle(req("tools/call", { name: "wait", arguments: {} }), { protocolVersion: V26 });
  const taskId = created.result.taskId;
  await A.host.close();
  assert.deepEqual(A.aborted, [taskId]);
  const task = await B.host.handle(req("tasks/get", { taskId }), { protocolVersion: V26 });
  assert.equal(task.result.status, "failed");
  assert.deepEqual(task.result.error, { code: -32603, message: "Internal error: the replica running this task shut down before it finished" });
  for (const r of [A, B]) await r.server.close();
});

// Sessions cross exactly or not at all on shared storage too: a session that wasm would read
// as another (a lone surrogate becomes U+FFFD) is refused before anything is stored or answered.
test("a session that would not cross exactly is refused, as by TaskServer, and nothing is stored", async () => {
  const storage = new MemoryStorage();
  const { server } = await replica(storage);
  const mem = new TaskServer();
  const owner = { protocolVersion: V26, session: "a\ufffd", now: 1_000 };
  const call = req("tools/call", { name: "x", arguments: {} });
  const made = await server.beginToolCall(call, owner, "optional");
  assert.equal(made.kind, "task");
  for (const session of ["a\ud800", "a\udbff", "\ufdd0d800"]) {
    const ctx = { ...owner, session };
    const thrown = (() => {
      try {
        mem.handle(req("tasks/get", { taskId: made.taskId }), ctx);
      } catch (e) {
        return e;
      }
    })();
    assert.equal(thrown?.name, "TypeError", JSON.stringify(session));
    await assert.rejects(server.handle(req("tasks/get", { taskId: made.taskId }), ctx), { name: "TypeError", message: thrown.message });
    await assert.rejects(server.beginToolCall(call, ctx, "optional"), { name: "TypeError" });
    await assert.rejects(server.get(made.taskId, { session, now: 1_000 }), { name: "TypeError" });
  }
  assert.equal((await server.handle(req("tasks/get", { taskId: made.taskId }), owner)).message.result?.status, "working");
  assert.equal((await server.list({}, { session: "a\ufffd", now: 1_000 })).tasks.length, 1);
  mem.free();
});
