// Leases of SharedTaskServer replicas under faults (through the installed package, scripts/pack.sh):
// clock skew between replicas, a storage outage shorter than the grace, a result too large to
// store, renewal passes that never overlap, many running tasks on a real Postgres, and a session
// at its cap whose refused calls read no more than a few records. Storage faults are made by a
// wrapper around a real storage (an outage: every call rejects with the engine StorageError a
// database that went away gives; latency: every call waits), never by stubbing our own code.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { loadStorage, startPostgres, waitFor } from "../storage/lib.mjs";

const { SharedTaskServer, TaskHost, TaskStoreError } = await import("../.tmp/install/server.mjs");
const { MemoryStorage, StorageError } = await loadStorage("");

const KEY = "00112233445566778899aabbccddeeff";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const meta = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: { [EXT]: {} } } };
let nextId = 1;
const req = (method, params = {}) => ({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta } });
const METHODS = ["get", "getMany", "putIfVersion", "putEachIfVersion", "delete", "rangeAfter", "rangeLive", "expired", "countLive", "nextSequence", "lastSequence", "subscribe"];

/**
 * A view of `s` for one replica (closing it closes nothing): `down` makes every call reject as an
 * unreachable database does; `delayMs` makes every call wait; `calls` counts calls and records read.
 */
function handle(s) {
  const h = {
    down: false,
    refused: 0,
    delayMs: 0,
    calls: Object.fromEntries(METHODS.map((m) => [m, 0])),
    recordsRead: 0,
    allScans: 0,
    inFlight: new Map(), // writes under way, by task id
    maxInFlight: 0,
    name: s.name,
    close: async () => {},
  };
  for (const m of METHODS) {
    h[m] = async (...args) => {
      h.calls[m] += 1;
      if (h.down && m !== "subscribe") {
        h.refused += 1;
        throw new StorageError("engine", `${s.name}: ${m}: connect ECONNREFUSED 127.0.0.1 (test outage)`);
      }
      if (m === "rangeAfter" && args[0].kind === "all") h.allScans += 1;
      const keys = m === "putIfVersion" ? [args[0].id] : m === "putEachIfVersion" ? args[0].map((e) => e.record.id) : [];
      for (const key of keys) {
        const n = (h.inFlight.get(key) ?? 0) + 1;
        h.inFlight.set(key, n);
        h.maxInFlight = Math.max(h.maxInFlight, n);
      }
      try {
        if (h.delayMs > 0) await new Promise((r) => setTimeout(r, h.delayMs));
        const out = await s[m](...args);
        if (Array.isArray(out) && (m === "rangeAfter" || m === "rangeLive")) h.recordsRead += out.length;
        if (m === "get" && out !== null) h.recordsRead += 1;
        if (m === "getMany") h.recordsRead += out.filter((r) => r !== null).length;
        return out;
      } finally {
        for (const key of keys) h.inFlight.set(key, h.inFlight.get(key) - 1);
      }
    };
  }
  return h;
}

/** A replica whose tool `gated` returns what the test passes to `open(value)`. */
async function replica(storage, options = {}) {
  const server = await SharedTaskServer.open(storage, { cursorKey: KEY, onError: () => {}, ...options });
  const errors = [];
  const host = new TaskHost({ server, onError: (e) => errors.push(e) });
  const gates = [];
  host.tool("gated", { taskSupport: "optional" }, () => new Promise((resolve) => gates.push(resolve)));
  host.tool("big", { taskSupport: "optional" }, async (args) => ({ content: [{ type: "text", text: "x".repeat(args.n) }] }));
  const start = async (name, args = {}) => (await host.handle(req("tools/call", { name, arguments: args }), { protocolVersion: V26 })).result.taskId;
  return { server, host, gates, errors, start };
}

test("SharedTaskServer.open refuses lease options it cannot use, naming them", async () => {
  const storage = new MemoryStorage();
  for (const [options, re] of [
    [{ leaseGraceMs: -1 }, /leaseGraceMs/],
    [{ renewMs: 0 }, /renewMs/],
    [{ leaseMs: 100, renewMs: 100 }, /renewMs.*shorter than .leaseMs/],
    [{ terminalRetryMs: 1.5 }, /terminalRetryMs/],
    [{ maxLeaseChecks: 0 }, /maxLeaseChecks/],
    [{ clock: 5 }, /clock/],
  ]) {
    await assert.rejects(SharedTaskServer.open(storage, { cursorKey: KEY, ...options }), (e) => e instanceof TypeError && re.test(e.message), JSON.stringify(options));
  }
});

test("clock skew between replicas fails no live task: B's sweep 40 s ahead leaves A's running task alone", async () => {
  const storage = new MemoryStorage();
  const A = await replica(handle(storage), { replicaId: "A" });
  const B = await replica(handle(storage), { replicaId: "B" });
  const taskId = await A.start("gated");
  // B's wall clock is 40 s ahead of A's (leases are 30 s): its sweeps must not fail the task.
  for (let i = 0; i < 3; i++) await B.server.sweep(Date.now() + 40_000);
  assert.equal((await B.server.getTask(taskId)).status, "working");
  // And 40 s behind: the same.
  for (let i = 0; i < 3; i++) await B.server.sweep(Date.now() - 40_000);
  assert.equal((await B.server.getTask(taskId)).status, "working");
  A.gates.shift()({ content: [{ type: "text", text: "done" }] });
  await A.host.idle();
  assert.equal((await B.server.getTask(taskId)).status, "completed");
  await A.server.close();
  await B.server.close();
});

test("a lease is lost only after the sweeping replica itself saw it unrenewed for leaseMs + leaseGraceMs on its own clock", async () => {
  const storage = new MemoryStorage();
  let t = 1_000_000;
  const A = await replica(handle(storage), { replicaId: "A", leaseMs: 1000, leaseGraceMs: 500 });
  const B = await replica(handle(storage), { replicaId: "B", leaseMs: 1000, leaseGraceMs: 500, clock: () => t });
  const taskId = await A.start("gated");
  await A.server.close(); // A stops renewing, as a killed process does
  await B.server.sweep(); // B sees the lease for the first time
  t += 1500; // exactly lease + grace: not yet
  await B.server.sweep();
  assert.equal((await B.server.getTask(taskId)).status, "working");
  t += 1;
  await B.server.sweep();
  const failed = await B.server.getTask(taskId);
  assert.equal(failed.status, "failed");
  assert.match(failed.v26.error.message, /replica running this task stopped/);
  await B.server.close();
});

test("a storage outage longer than the lease but shorter than the grace: no task fails, a result finished meanwhile is stored once the storage is back", async () => {
  const storage = new MemoryStorage();
  const a = handle(storage);
  const b = handle(storage);
  const A = await replica(a, { replicaId: "A", leaseMs: 30, leaseGraceMs: 60_000 });
  const B = await replica(b, { replicaId: "B", leaseMs: 30, leaseGraceMs: 60_000 });
  const finished = await A.start("gated");
  const running = await A.start("gated");
  await B.server.sweep();
  a.down = b.down = true;
  // The work finishes during the outage; its result cannot be written yet.
  A.gates.shift()({ content: [{ type: "text", text: "finished during the outage" }] });
  // The outage lasts many leases (30 ms each): A keeps trying (renewals and the result).
  await waitFor(() => a.refused >= 30, "A's writes refused during the outage");
  await assert.rejects(B.server.sweep(), StorageError);
  a.down = b.down = false;
  for (let i = 0; i < 5; i++) await B.server.sweep();
  await waitFor(async () => (await B.server.getTask(finished)).status !== "working", "the result stored after the outage");
  const done = await B.server.getTask(finished);
  assert.equal(done.status, "completed", JSON.stringify(done.v26?.error));
  const result = await B.host.handle(req("tasks/get", { taskId: finished }), { protocolVersion: V26 });
  assert.equal(result.result.result.content[0].text, "finished during the outage");
  assert.equal((await B.server.getTask(running)).status, "working", "the task still running was not failed");
  A.gates.shift()({ content: [] });
  await A.host.idle();
  assert.equal((await B.server.getTask(running)).status, "completed");
  await A.server.close();
  await B.server.close();
});

test("a result too large to store fails its task at once, saying so (memory TaskHost)", async () => {
  const host = new TaskHost({ store: { maxRequestBytes: 4096 }, onError: () => {} });
  host.tool("big", { taskSupport: "optional" }, async (args) => ({ content: [{ type: "text", text: "x".repeat(args.n) }] }));
  const created = await host.handle(req("tools/call", { name: "big", arguments: { n: 10_000 } }), { protocolVersion: V26 });
  await host.idle();
  const got = await host.handle(req("tasks/get", { taskId: created.result.taskId }), { protocolVersion: V26 });
  assert.equal(got.result.status, "failed");
  assert.equal(got.result.error.code, -32603);
  assert.match(got.result.error.message, /too large to store .*10\d{3} bytes.*4096/);
  assert.equal(got.result.error.data.maxRequestBytes, 4096);
  assert.ok(got.result.error.data.resultBytes > 10_000);
});

test("a result too large to store fails its task at once, saying so (SharedTaskServer)", async () => {
  const storage = new MemoryStorage();
  const A = await replica(handle(storage), { store: { maxRequestBytes: 4096 } });
  const taskId = await A.start("big", { n: 10_000 });
  await A.host.idle();
  const task = await A.server.getTask(taskId);
  assert.equal(task.status, "failed");
  assert.match(task.v26.error.message, /too large to store .*4096/);
  assert.equal(task.v26.error.data.maxRequestBytes, 4096);
  await A.server.close();
});

test("renewal passes never overlap, however slow the storage", async () => {
  const storage = new MemoryStorage();
  const a = handle(storage);
  const A = await replica(a, { replicaId: "A", leaseMs: 30 }); // a renewal tick every 10 ms
  const taskId = await A.start("gated");
  a.delayMs = 60; // each storage call outlasts several ticks
  const before = (await storage.get(taskId)).version;
  await waitFor(async () => (await storage.get(taskId)).version >= before + 3, "three renewals");
  assert.equal(a.maxInFlight, 1, "a lease is renewed by one pass at a time (writes of one task at once)");
  a.delayMs = 0;
  A.gates.shift()({ content: [] });
  await A.host.idle();
  await A.server.close();
});

test("a session at its cap: a refused call reads a few records, not the storage's whole record set", async () => {
  const storage = new MemoryStorage();
  const h = handle(storage);
  const server = await SharedTaskServer.open(h, { cursorKey: KEY, store: { maxLiveTasksPerSession: 2 } });
  // Many records of other callers: running work (live, leased) and finished tasks of other sessions.
  for (let i = 0; i < 150; i++) {
    await server.beginToolCall(req("tools/call", { name: "x", arguments: {} }), { protocolVersion: V26 }, "optional");
    const t = await server.create({ protocolVersion: "2025-11-25" }, { session: `other-${i}` });
    await server.complete(t.taskId, { content: [] }, null, { session: `other-${i}` });
  }
  for (let i = 0; i < 2; i++) await server.create({ protocolVersion: "2025-11-25" }, { session: "s" });
  h.recordsRead = 0;
  h.allScans = 0;
  for (let i = 0; i < 3; i++) {
    await assert.rejects(server.create({ protocolVersion: "2025-11-25" }, { session: "s" }), (e) => e instanceof TaskStoreError && e.kind === "session_cap_reached");
    const refused = await server.beginToolCall(req("tools/call", { name: "x", arguments: {}, task: {} }), { protocolVersion: "2025-11-25", session: "s" }, "optional");
    assert.equal(refused.kind, "reject");
    assert.equal(refused.response.error.code, -32010);
  }
  assert.equal(h.allScans, 0, "no listing of every record");
  assert.ok(h.recordsRead <= 6 * 2, `records read by 6 refused calls: ${h.recordsRead}`);
  // The lease check of a sweep reads the live records only: 150 running, 152 live in all.
  h.recordsRead = 0;
  await server.sweep();
  assert.ok(h.recordsRead <= 152, `records read by a sweep: ${h.recordsRead}`);
  await server.close();
});

test("a sweep's lease check reads at most maxLeaseChecks live records, and goes on from there at the next", async () => {
  const storage = new MemoryStorage();
  const h = handle(storage);
  let t = 0;
  const A = await SharedTaskServer.open(handle(storage), { cursorKey: KEY, replicaId: "A", leaseMs: 10, leaseGraceMs: 0 });
  const ids = [];
  for (let i = 0; i < 10; i++) ids.push((await A.beginToolCall(req("tools/call", { name: "x", arguments: {} }), { protocolVersion: V26 }, "optional")).taskId);
  await A.close();
  const B = await SharedTaskServer.open(h, { cursorKey: KEY, replicaId: "B", maxLeaseChecks: 4, clock: () => t, onError: () => {} });
  for (let i = 0; i < 3; i++) {
    h.recordsRead = 0;
    await B.sweep();
    assert.ok(h.recordsRead <= 4, `records read: ${h.recordsRead}`);
  }
  t += 100_000;
  for (let i = 0; i < 8; i++) await B.sweep();
  for (const id of ids) assert.equal((await storage.get(id)).status, "failed");
  await B.close();
});

// ---- a real Postgres ---------------------------------------------------------------------------

const { openPostgresStorage } = await loadStorage("postgres");
const pg = await startPostgres();
after(() => pg.stop());

test("postgres: 2,000 running tasks on one replica, another replica sweeping: no live task is failed", async () => {
  const storage = await openPostgresStorage({ connectionString: pg.url, table: `leases_${process.pid}` });
  const other = await openPostgresStorage({ connectionString: pg.url, table: `leases_${process.pid}` });
  // A 1 s lease, renewed every 333 ms; B fails a lease it has seen unrenewed for 1 s + 2 s.
  const A = await SharedTaskServer.open(storage, { cursorKey: KEY, replicaId: "A", leaseMs: 1000, leaseGraceMs: 2000, onError: () => {} });
  const B = await SharedTaskServer.open(other, { cursorKey: KEY, replicaId: "B", leaseMs: 1000, leaseGraceMs: 2000 });
  try {
    const ids = [];
    for (let i = 0; i < 2000; i++) ids.push((await A.beginToolCall(req("tools/call", { name: "x", arguments: {} }), { protocolVersion: V26 }, "optional")).taskId);
    // Every task renewed several times while B sweeps (60 sweeps, 100 ms apart).
    for (let i = 0; i < 60; i++) {
      await B.sweep();
      await new Promise((r) => setTimeout(r, 100));
    }
    let failed = 0;
    let least = Infinity;
    for (let after = 0; ;) {
      const page = await other.rangeAfter({ kind: "all" }, after, 500);
      if (page.length === 0) break;
      after = page[page.length - 1].seq;
      failed += page.filter((r) => r.status !== "working").length;
      for (const r of page) least = Math.min(least, r.version);
    }
    assert.equal(failed, 0, "tasks failed by the other replica's sweep");
    assert.ok(least >= 4, `every lease was renewed (the least version is ${least})`);
  } finally {
    await A.close();
    await B.close();
  }
});

test("postgres: U+0000 in a task id or a session is answered as on the other engines (-32602 not found; the session kept)", async () => {
  const server = await SharedTaskServer.open(await openPostgresStorage({ connectionString: pg.url, table: `nul_${process.pid}` }), { cursorKey: KEY });
  try {
    for (const taskId of ["a\u0000b", "\u0000"]) {
      const got = await server.handle(req("tasks/get", { taskId }), { protocolVersion: V26 });
      assert.equal(got.kind, "response");
      assert.equal(got.message.error.code, -32602, JSON.stringify(got.message));
    }
    const v25 = { protocolVersion: "2025-11-25" };
    const task = await server.create(v25, { session: "s\u0000t" });
    assert.equal((await server.get(task.taskId, { session: "s\u0000t" })).session, "s\u0000t");
    await assert.rejects(server.get(task.taskId, { session: "s" }), (e) => e instanceof TaskStoreError && e.kind === "not_found");
    const page = await server.list(null, { session: "s\u0000t" });
    assert.deepEqual(page.tasks.map((t) => t.taskId), [task.taskId]);
  } finally {
    await server.close();
  }
});
