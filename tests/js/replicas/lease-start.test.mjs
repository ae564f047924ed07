// A task created by work on this replica is leased from its first write, and renewed for as long
// as the work runs, even when a renewal pass runs while that first write is still in flight
// (a create grouped with others on Postgres, a slow insert). Before the fix, such a pass read the
// task (not stored yet), found nothing, and dropped it from the renewals for good: another
// replica's sweep then failed a live task whose work was still running (seen once in the
// 2,000-task Postgres test of leases.test.mjs under load). The insert is held back by a gate in
// front of the real memory adapter: the order is forced, not timed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadStorage } from "../storage/lib.mjs";

const { SharedTaskServer } = await import("../.tmp/install/server.mjs");
const { MemoryStorage } = await loadStorage("");

const KEY = "00112233445566778899aabbccddeeff";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const meta = { "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };
const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", arguments: {}, _meta: meta } };
const tick = () => new Promise((r) => setTimeout(r, 5));

/** `storage` whose first insert (a put with no expected version) waits for `gate.open()`. */
function gated(storage) {
  const gate = { id: null, open: () => {}, reads: new Map() };
  const w = Object.create(null);
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(storage))) {
    if (name === "constructor" || typeof storage[name] !== "function") continue;
    w[name] = (...args) => storage[name](...args);
  }
  w.name = storage.name;
  w.getMany = (ids) => {
    for (const id of ids) gate.reads.set(id, (gate.reads.get(id) ?? 0) + 1);
    return storage.getMany(ids);
  };
  w.putIfVersion = (record, expected) => {
    if (expected !== null || gate.id !== null) return storage.putIfVersion(record, expected);
    gate.id = record.id;
    let release;
    const waited = new Promise((resolve) => (release = resolve));
    gate.open = release;
    return waited.then(() => storage.putIfVersion(record, expected));
  };
  return { storage: w, gate };
}

test("a renewal pass during a task's first write does not drop the task's lease", async () => {
  const memory = new MemoryStorage();
  const { storage, gate } = gated(memory);
  const server = await SharedTaskServer.open(storage, { cursorKey: KEY, replicaId: "A", leaseMs: 60, renewMs: 10, onError: () => {} });
  try {
    const creating = server.beginToolCall(call, { protocolVersion: V26 }, "optional");
    for (let i = 0; i < 200 && gate.id === null; i++) await tick();
    assert.notEqual(gate.id, null, "the insert reached the storage");
    // Renewal passes run while the insert waits (each reads what it does not keep).
    for (let i = 0; i < 200 && (gate.reads.get(gate.id) ?? 0) < 2; i++) await tick();
    gate.open();
    const { taskId } = await creating;
    assert.equal(taskId, gate.id);
    // The lease is renewed from now on: its beat moves on.
    let beat = 0;
    for (let i = 0; i < 400 && beat < 3; i++) {
      await tick();
      beat = (await memory.get(taskId))?.lease?.beat ?? 0;
    }
    assert.ok(beat >= 3, `the lease was renewed (beat ${beat})`);
  } finally {
    gate.open();
    await server.close();
    await memory.close();
  }
});
