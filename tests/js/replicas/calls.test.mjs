// What each operation of a SharedTaskServer (under a TaskHost, as McpHttpServer runs it) costs
// its storage, counted by a wrapper around the real adapter on every engine (memory, SQLite,
// Postgres, Redis): at most ONE read and ONE compare-and-set write per operation, and nothing
// more for the change feed's news of this replica's own writes nor for a blocked tasks/result.
// A read is any call that reads (get, getMany, rangeAfter, rangeLive, countLive, nextSequence,
// nextSequenceWithLive, expired, lastSequence); a write is putIfVersion, putEachIfVersion,
// delete, insertNew. On the engines with insertNew (clause 14: SQLite, Postgres) a create is
// one write and no read. No timing: calls are counted once the feed has delivered the
// operation's changes.
// Under concurrency, the engines that group (Postgres: one statement per group of each kind;
// SQLite: one write transaction per group) answer the operations of N requests made at once in
// a few round trips, not one per operation: counted on the engine's side (pool queries, write
// transactions).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadStorage, startPostgres, startRedis, waitFor } from "../storage/lib.mjs";
// The classes' internal tables and bounds, read through their deliberate test hook
// (`@internal`, absent from the typings: js/core/internals.ts).
const internals = (o) => o[Symbol.for("mcp-tasks-wasm.internals")]();

const { SharedTaskServer, TaskHost } = await import("../.tmp/install/server.mjs");

const KEY = "00112233445566778899aabbccddeeff";
const V25 = "2025-11-25";
const READS = ["get", "getMany", "rangeAfter", "rangeLive", "countLive", "nextSequence", "nextSequenceWithLive", "expired", "lastSequence"];
const WRITES = ["putIfVersion", "putEachIfVersion", "delete", "insertNew"];
/** The engines whose create is one write (clause 14), no read. */
const ONE_WRITE_CREATE = ["sqlite", "postgres"];

/**
 * `s` with every call counted, and the changes its feed delivered (listened to after the
 * server's own listener, so the server has heard a change once it is here).
 */
function counted(s) {
  const calls = { reads: 0, writes: 0, names: [], hold: null, held: 0 };
  const seen = [];
  const w = { name: s.name };
  for (const m of [...READS, ...WRITES]) {
    if (typeof s[m] !== "function") continue; // an engine without a clause: the server does without it
    w[m] = (...args) => {
      calls[READS.includes(m) ? "reads" : "writes"] += 1;
      calls.names.push(m);
      // `calls.hold` (a promise) holds the compare-and-set writes made meanwhile until it settles.
      if (m === "putIfVersion" && calls.hold !== null) {
        calls.held += 1;
        return calls.hold.then(() => s[m](...args));
      }
      return s[m](...args);
    };
  }
  let first = true;
  w.subscribe = async (listener) => {
    const off = await s.subscribe(listener);
    if (first) {
      first = false;
      await s.subscribe((c) => seen.push(c));
    }
    return off;
  };
  w.close = async () => {}; // closed by the test, after every server over it
  return { storage: w, calls, seen };
}

const ENGINES = {
  async memory() {
    const { MemoryStorage } = await loadStorage("");
    return { storage: new MemoryStorage(), stop: async () => {} };
  },
  async sqlite() {
    const dir = mkdtempSync(join(tmpdir(), "mcp-tasks-calls-"));
    const { openSqliteStorage } = await loadStorage("sqlite");
    return { storage: await openSqliteStorage({ path: join(dir, "tasks.db") }), stop: async () => rmSync(dir, { recursive: true, force: true }) };
  },
  async postgres() {
    const pg = await startPostgres();
    const { openPostgresStorage } = await loadStorage("postgres");
    return { storage: await openPostgresStorage({ connectionString: pg.url }), stop: () => pg.stop() };
  },
  async redis() {
    const redis = await startRedis();
    const { openRedisStorage } = await loadStorage("redis");
    return { storage: await openRedisStorage({ url: redis.url }), stop: () => redis.stop() };
  },
};

for (const [engine, open] of Object.entries(ENGINES)) {
  test(`${engine}: one read and one compare-and-set write per operation`, async () => {
    const opened = await open();
    const { storage, calls, seen } = counted(opened.storage);
    let server = null;
    let host = null;
    try {
      server = await SharedTaskServer.open(storage, { cursorKey: KEY });
      host = new TaskHost({ server });
      await operations(engine, server, host, calls, seen);
      await host.close();
      await server.close();
      await renewals(engine, storage, calls);
    } finally {
      await host?.close();
      await server?.close();
      await opened.storage.close();
      await opened.stop();
    }
  });
}

/** The operations, each with its count. */
async function operations(engine, server, host, calls, seen) {
  host.watch(() => {}); // as McpHttpServer does for its notifications
  const gates = new Map();
  host.tool("job", { taskSupport: "optional" }, async (args, { taskId, setStatusMessage }) => {
    if (args.status) setStatusMessage("half way");
    if (args.gate) await new Promise((resolve) => gates.set(taskId, resolve));
    return { content: [{ type: "text", text: "done" }] };
  });
  host.tool("ask", { taskSupport: "optional" }, async (_args, { requestInput }) => {
    const { q } = await requestInput({ q: { method: "elicitation/create", params: { mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } } } });
    return { content: [{ type: "text", text: q.action }] };
  });
  const ctx = { protocolVersion: V25, session: "s1" };
  let id = 1;
  const call = (method, params) => host.handle({ jsonrpc: "2.0", id: id++, method, params }, ctx);
  /** The reads of a create: none where the storage numbers and inserts the task in one write. */
  const createReads = ONE_WRITE_CREATE.includes(engine) ? 0 : 1;
  /** Waits until the feed delivered `version` of `taskId` and the host has acted on it. */
  const heard = async (taskId, version) => {
    await waitFor(() => seen.some((c) => c.id === taskId && c.version >= version), `the change ${taskId}@${version}`);
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  /** The calls since the last look. */
  const take = () => {
    const out = { reads: calls.reads, writes: calls.writes, names: calls.names.join(" ") };
    calls.reads = calls.writes = 0;
    calls.names = [];
    return out;
  };
  const atMost = (got, reads, writes, what) => {
    assert.ok(got.reads <= reads && got.writes <= writes, `${engine}: ${what}: ${got.reads} reads and ${got.writes} writes (at most ${reads} and ${writes}): ${got.names}`);
  };

  // create → (work ends) → tasks/get → tasks/result: the closed loop of the load.
  for (let round = 0; round < 3; round++) {
    const created = await call("tools/call", { name: "job", arguments: {}, task: { ttl: 60_000 } });
    const taskId = created.result.task.taskId;
    atMost(take(), createReads, 1, "create (tools/call as a task)");
    await heard(taskId, 2); // created (1), then its outcome (2)
    atMost(take(), 0, 1, "the work's outcome and the feed's news of both writes");
    assert.equal((await call("tasks/get", { taskId })).result.status, "completed");
    atMost(take(), 1, 0, "tasks/get");
    assert.equal((await call("tasks/result", { taskId })).result.content[0].text, "done");
    atMost(take(), 1, 0, "tasks/result of an ended task");
  }

  // tasks/get and tasks/result while the work's outcome is being written here: both wait for
  // that write and answer from the record it stored (terminal: it never changes again), no read.
  // (Read instead, the storage still says `working`: tasks/get would answer that.)
  const racing = (await call("tools/call", { name: "job", arguments: { gate: true }, task: {} })).result.task.taskId;
  await heard(racing, 1);
  take();
  let release = () => {};
  calls.hold = new Promise((resolve) => (release = resolve));
  calls.held = 0;
  gates.get(racing)();
  await waitFor(() => calls.held === 1, "the outcome's write under way");
  const racingGet = call("tasks/get", { taskId: racing });
  const racingResult = call("tasks/result", { taskId: racing });
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  calls.hold = null;
  release();
  assert.equal((await racingGet).result.status, "completed");
  assert.equal((await racingResult).result.content[0].text, "done");
  await heard(racing, 2);
  atMost(take(), 0, 1, "tasks/get and tasks/result during the outcome's write here");

  // tasks/result blocked until the work ends.
  const gated = (await call("tools/call", { name: "job", arguments: { gate: true }, task: {} })).result.task.taskId;
  await heard(gated, 1);
  take();
  const answer = call("tasks/result", { taskId: gated });
  await waitFor(() => internals(host).waiting.has(gated), "the blocked tasks/result");
  atMost(take(), 1, 0, "a blocked tasks/result");
  gates.get(gated)();
  assert.equal((await answer).result.content[0].text, "done");
  await heard(gated, 2);
  atMost(take(), 0, 1, "the outcome that answers the blocked tasks/result");

  // A status message from the work, then its outcome.
  const status = (await call("tools/call", { name: "job", arguments: { status: true, gate: true }, task: {} })).result.task.taskId;
  await heard(status, 2);
  atMost(take(), createReads + 1, 2, "create and a status message");
  gates.get(status)();
  await heard(status, 3);
  atMost(take(), 0, 1, "the outcome after a status message");

  // tasks/cancel of a running task (its work stops here).
  await host.idle();
  const running = (await call("tools/call", { name: "job", arguments: { gate: true }, task: {} })).result.task.taskId;
  await heard(running, 1);
  take();
  assert.equal((await call("tasks/cancel", { taskId: running })).result.status, "cancelled");
  await heard(running, 2);
  atMost(take(), 1, 1, "tasks/cancel and the feed's news of it");
  gates.get(running)();
  await host.idle();
  atMost(take(), 0, 0, "the end of the cancelled work");

  // 2026-07-28 input: the work asks, tasks/update answers, the work resumes and ends.
  const meta = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } } };
  const v26 = (method, params) => host.handle({ jsonrpc: "2.0", id: id++, method, params: { ...params, _meta: meta } }, { protocolVersion: "2026-07-28" });
  const asked = (await v26("tools/call", { name: "ask", arguments: {} })).result.taskId;
  await heard(asked, 2); // created, then input_required
  atMost(take(), createReads, 2, "a 2026-07-28 create and its input request");
  await v26("tasks/update", { taskId: asked, inputResponses: { q: { action: "accept", content: {} } } });
  await heard(asked, 4); // answered, then completed
  await host.idle();
  atMost(take(), 1, 2, "tasks/update, the work woken by it and its outcome");
  assert.equal((await v26("tasks/get", { taskId: asked })).result.result.content[0].text, "accept");
  take();

  // One tasks/list page.
  assert.ok((await call("tasks/list", {})).result.tasks.length >= 5);
  atMost(take(), 1, 0, "a tasks/list page");
}

/** Lease renewals of the work running here: one write per pass, no read (the records kept). */
async function renewals(engine, storage, calls) {
  const server = await SharedTaskServer.open(storage, { cursorKey: KEY, leaseMs: 3_000, renewMs: 20 });
  const host = new TaskHost({ server });
  const holds = [];
  host.tool("hold", { taskSupport: "optional" }, () => new Promise((resolve) => holds.push(() => resolve({ content: [] }))));
  try {
    for (let i = 0; i < 3; i++) await host.handle({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "hold", arguments: {}, task: {} } }, { protocolVersion: V25 });
    const from = internals(server).renewStats.passes;
    await waitFor(() => internals(server).renewStats.passes >= from + 1, "a renewal pass");
    const pass = internals(server).renewStats.passes;
    calls.reads = calls.writes = 0;
    calls.names = [];
    await waitFor(() => internals(server).renewStats.passes >= pass + 3 && internals(server).renewing === null, "three more renewal passes");
    const passes = internals(server).renewStats.passes - pass;
    assert.ok(calls.reads === 0 && calls.writes <= passes, `${engine}: ${passes} renewal passes of 3 leases: ${calls.reads} reads, ${calls.writes} writes (${calls.names.join(" ")})`);
  } finally {
    for (const release of holds) release();
    await host.close();
    await server.close();
  }
}

test("the records kept to spare reads stay within maxKnownBytes; none kept at 0, the answers the same", async () => {
  const { MemoryStorage } = await loadStorage("");
  for (const maxKnownBytes of [4096, 0]) {
    const { storage, calls } = counted(new MemoryStorage());
    const server = await SharedTaskServer.open(storage, { cursorKey: KEY, maxKnownBytes });
    const host = new TaskHost({ server });
    host.tool("big", { taskSupport: "optional" }, async (args) => ({ content: [{ type: "text", text: "x".repeat(args.n) }] }));
    try {
      const ctx = { protocolVersion: V25, session: "s1" };
      for (let i = 0; i < 40; i++) {
        const n = i % 4 === 0 ? 1000 : 10; // some over an eighth of 4096: never kept
        const taskId = (await host.handle({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "big", arguments: { n }, task: {} } }, ctx)).result.task.taskId;
        await host.idle();
        const result = await host.handle({ jsonrpc: "2.0", id: i, method: "tasks/result", params: { taskId } }, ctx);
        assert.equal(result.result.content[0].text.length, n);
        assert.ok(internals(server).knownBytes <= maxKnownBytes, `${internals(server).knownBytes} bytes kept (at most ${maxKnownBytes})`);
      }
      if (maxKnownBytes === 0) assert.equal(internals(server).known.size, 0);
      else assert.ok(internals(server).known.size > 0);
      assert.ok(calls.reads > 0);
    } finally {
      await host.close();
      await server.close();
      await storage.close();
    }
  }
});


/**
 * The engine's own round trips of `storage` (statements sent by the Postgres pool, write
 * transactions of SQLite), counted by a wrapper that calls the real method.
 */
function roundTrips(engine, storage) {
  if (engine === "postgres") {
    const n = { count: 0 };
    const { pool } = internals(storage);
    const query = pool.query.bind(pool);
    pool.query = (...args) => {
      n.count += 1;
      return query(...args);
    };
    return n;
  }
  // SQLite: write transactions begun, from the adapter's test hook.
  const { transactions } = internals(storage);
  let from = transactions();
  return {
    get count() {
      return transactions() - from;
    },
    set count(v) {
      from = transactions() - v;
    },
  };
}

for (const engine of ["sqlite", "postgres"]) {
  test(`${engine}: the operations of concurrent requests share their round trips (group commit)`, async () => {
    const opened = await ENGINES[engine]();
    let server = null;
    let host = null;
    const gates = [];
    try {
      server = await SharedTaskServer.open(opened.storage, { cursorKey: KEY });
      host = new TaskHost({ server });
      host.tool("job", { taskSupport: "optional" }, () => new Promise((resolve) => gates.push(() => resolve({ content: [{ type: "text", text: "done" }] }))));
      const N = 16;
      const trips = roundTrips(engine, opened.storage);
      // N sessions creating at once (the load of bench/server.mjs): each create is one insert
      // taking its sequence number and checking its session's cap (clause 14), N in one group.
      const created = await Promise.all(Array.from({ length: N }, (_, i) =>
        host.handle({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "job", arguments: {}, task: { ttl: 60_000 } } }, { protocolVersion: V25, session: `s${i}` })));
      const ids = created.map((r) => r.result.task.taskId);
      assert.equal(new Set(ids).size, N);
      assert.ok(trips.count <= 2, `${engine}: ${N} concurrent creates took ${trips.count} round trips (at most 2; one per create without grouping: ${N})`);
      assert.ok(trips.count >= 1, `${engine}: the creates were counted (${trips.count} round trips)`);
      await waitFor(() => gates.length === N, "every work started");
      // Their outcomes at once: N compare-and-sets in one group.
      trips.count = 0;
      for (const release of gates) release();
      await host.idle();
      assert.ok(trips.count <= 2, `${engine}: ${N} outcomes took ${trips.count} round trips (at most 2)`);
      // Then N reads at once, each answered on its own.
      internals(server).clearKnown();
      trips.count = 0;
      const got = await Promise.all(ids.map((taskId, i) => host.handle({ jsonrpc: "2.0", id: 100 + i, method: "tasks/get", params: { taskId } }, { protocolVersion: V25, session: `s${i}` })));
      for (const [i, r] of got.entries()) {
        assert.equal(r.result.taskId, ids[i]);
        assert.equal(r.result.status, "completed");
      }
      if (engine === "postgres") assert.ok(trips.count <= 2, `${engine}: ${N} concurrent reads took ${trips.count} round trips (at most 2)`);
    } finally {
      for (const release of gates) release();
      await host?.close();
      await server?.close();
      await opened.storage.close();
      await opened.stop();
    }
  });
}
