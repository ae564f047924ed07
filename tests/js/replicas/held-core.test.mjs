// The core a SharedTaskServer holds between operations (`TaskServerCore.load`: the records it ran
// on, reused while the storage still has them at that revision) never answers a revision older
// than one this replica stored. The race it must survive: an operation writes a task (its run
// done, the write in flight), meanwhile the held core starts over and another operation loads
// the task's previous revision from the storage into it; once the write is stored, the held
// core must not be taken for the new revision. Before the fix a completed task answered
// `working` from this replica for ever, and a blocked tasks/result never woke (seen under load
// on Postgres: bench/server.mjs hung).
// The writes of one task are held back by a gate in front of the real memory adapter: the order
// is forced, not timed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadStorage } from "../storage/lib.mjs";

const { SharedTaskServer } = await import("../.tmp/install/server.mjs");
const { MemoryStorage } = await loadStorage("");

const KEY = "00112233445566778899aabbccddeeff";
const V25 = "2025-11-25";

/** `storage` whose `putIfVersion` of `gate.id` waits for `gate.open()`, every other call passed on. */
function gated(storage) {
  const gate = { id: null, held: null, open: () => {} };
  const w = Object.create(null);
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(storage))) {
    if (name === "constructor" || typeof storage[name] !== "function") continue;
    w[name] = (...args) => storage[name](...args);
  }
  w.name = storage.name;
  w.putIfVersion = (record, expected) => {
    if (record.id !== gate.id) return storage.putIfVersion(record, expected);
    let release;
    const waited = new Promise((resolve) => (release = resolve));
    gate.held = true;
    gate.open = release;
    return waited.then(() => storage.putIfVersion(record, expected));
  };
  return { storage: w, gate };
}

/**
 * Completes `taskId` on `server` with its write held at `gate`: resolves, once the write reached
 * the storage, with the pending `complete` (the run done on the held core, nothing stored yet).
 */
async function completeAtGate(server, gate, taskId, ctx) {
  gate.id = taskId;
  const completing = server.complete(taskId, { content: [{ type: "text", text: "done" }] }, null, ctx);
  completing.catch(() => {}); // awaited by the caller (a lost compare-and-set rejects it)
  for (let i = 0; i < 100 && gate.held !== true; i++) await new Promise((r) => setImmediate(r));
  assert.equal(gate.held, true, `the write of ${taskId} reached the storage`);
  return { completing };
}

for (const maxKnownBytes of [1, 8 * 1024 * 1024]) {
  test(`a write stored after the held core reloaded the task's older revision is not answered stale (maxKnownBytes ${maxKnownBytes})`, async () => {
    const memory = new MemoryStorage();
    const { storage, gate } = gated(memory);
    const server = await SharedTaskServer.open(storage, { cursorKey: KEY, maxKnownBytes });
    const ctx = { session: "s1" };
    try {
      const x = await server.create({ protocolVersion: V25, ttl: 60_000 }, ctx);
      const y = await server.create({ protocolVersion: V25, ttl: 60_000 }, ctx);
      await server.get(x.taskId, ctx); // x in the held core

      // 1. Complete x: its run is done on the held core, its write waits at the gate.
      const { completing } = await completeAtGate(server, gate, x.taskId, ctx);

      // 2. The held core starts over (a task it holds is gone: the next operation reloads it) ...
      await memory.delete(y.taskId);
      await assert.rejects(server.get(y.taskId, ctx));
      // ... and a read of x waits for this replica's write of x under way (it loads nothing
      // meanwhile: no revision older than the write reaches the held core).
      let read = null;
      const reading = server.get(x.taskId, ctx).then((t) => (read = t));
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      assert.equal(read, null, "a read of x answered before the write of x under way was stored");

      // 3. The write is stored; the read answers it.
      gate.open();
      assert.equal((await completing).status, "completed");
      await reading;
      assert.equal(read.status, "completed");
      assert.equal((await memory.get(x.taskId)).status, "completed");

      // Every later answer of this replica is the stored revision.
      assert.equal((await server.get(x.taskId, ctx)).status, "completed");
      assert.equal((await server.getTask(x.taskId)).status, "completed");
      const got = await server.handle({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { taskId: x.taskId } }, { ...ctx, protocolVersion: V25 });
      assert.equal(got.message?.result?.status, "completed", JSON.stringify(got));
    } finally {
      gate.open();
      await server.close();
      await memory.close();
    }
  });
}

test("a write under way here is never answered before it is stored: another replica's write wins the race", async () => {
  const memory = new MemoryStorage();
  const { storage, gate } = gated(memory);
  const here = await SharedTaskServer.open(storage, { cursorKey: KEY });
  const there = await SharedTaskServer.open(memory, { cursorKey: KEY });
  const ctx = { session: "s1" };
  try {
    const x = await here.create({ protocolVersion: V25, ttl: 60_000 }, ctx);
    await here.get(x.taskId, ctx); // x in the held core

    // This replica completes x: its run is done on the held core, its write waits at the gate.
    const { completing } = await completeAtGate(here, gate, x.taskId, ctx);
    // Reads of x here meanwhile: none may answer `completed`, which is not stored (and will not be).
    const reads = [
      here.get(x.taskId, ctx),
      here.getTask(x.taskId),
      here.handle({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { taskId: x.taskId } }, { ...ctx, protocolVersion: V25 }),
    ];
    // Another replica cancels x first.
    assert.equal((await there.cancel(x.taskId, V25, null, ctx)).task.status, "cancelled");
    gate.id = null;
    gate.open();
    // This replica's compare-and-set loses; the task stays cancelled.
    await assert.rejects(completing, (e) => e.kind === "already_terminal");
    const [a, b, c] = await Promise.all(reads);
    assert.equal(a.status, "cancelled");
    assert.equal(b.status, "cancelled");
    assert.equal(c.message?.result?.status, "cancelled", JSON.stringify(c));
    assert.equal((await memory.get(x.taskId)).status, "cancelled");
  } finally {
    gate.open();
    await here.close();
    await there.close();
    await memory.close();
  }
});

/**
 * `storage` with clause 14's `insertNew` (the storage numbers the task), as SQLite and Postgres
 * have it: a new task is then created on the held core, which numbers it itself.
 */
function numbering(storage) {
  const w = Object.create(null);
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(storage))) {
    if (name === "constructor" || typeof storage[name] !== "function") continue;
    w[name] = (...args) => storage[name](...args);
  }
  w.name = storage.name;
  w.insertNew = async (record, cap) => {
    const seq = await storage.nextSequence();
    return (await storage.putIfVersion({ ...record, seq }, null)) ? { seq } : { seq: null, live: null };
  };
  return w;
}

test("a task the held core created stays there when a stored task with the core's own number is loaded", async () => {
  // The core drops a held record whose `seq` a loaded one has (its storage moved on). The held
  // core's numbers for the tasks it creates must never be stored numbers.
  const memory = new MemoryStorage();
  const other = await SharedTaskServer.open(memory, { cursorKey: KEY });
  const server = await SharedTaskServer.open(numbering(memory), { cursorKey: KEY });
  const ctx = { session: "s1" };
  try {
    const z = await other.create({ protocolVersion: V25, ttl: 60_000 }, ctx); // stored as 1
    for (let i = 0; i < 3; i++) await memory.nextSequence(); // the storage's numbers move on
    const y = await server.create({ protocolVersion: V25, ttl: 60_000 }, ctx); // stored as 5
    assert.equal((await memory.get(y.taskId)).seq, 5);
    assert.equal((await memory.get(z.taskId)).seq, 1);
    // z loaded into the held core, beside y ...
    assert.equal((await server.get(z.taskId, ctx)).status, "working");
    // ... which is still there, and its writes keep the stored number.
    assert.equal((await server.get(y.taskId, ctx)).status, "working");
    assert.equal((await server.complete(y.taskId, { content: [] }, null, ctx)).status, "completed");
    assert.equal((await memory.get(y.taskId)).seq, 5);
    const page = await server.list(null, ctx);
    assert.deepEqual(page.tasks.map((t) => t.taskId), [z.taskId, y.taskId]);
  } finally {
    await server.close();
    await other.close();
    await memory.close();
  }
});
