// The in-memory storage's core (`MemoryStorageCore`, the server module's export under the storage
// entry's MemoryStorage) refuses what the JS class never passes, with a TypeError, and keeps
// working: it is reachable from the server module's glue, so any value may reach it. Before the
// fix, `getMany` of a 16 MiB string (array-like: a length, an index) had the bindings copy
// 16 million values into their table first, which aborted the instance ("unreachable") and
// broke every later call of the server module (found by tests/js/soak.test.mjs's fuzz,
// SOAK_SEED=4201413105).
import { test } from "node:test";
import assert from "node:assert/strict";

await import("../.tmp/install/server.mjs"); // loads and initialises the server module
const MAIN_DIR = new URL("../.tmp/install/node_modules/mcp-tasks-wasm/", import.meta.url);
const { MemoryStorageCore } = await import(new URL("server/mcp_tasks_wasm.js", MAIN_DIR).href);

test("MemoryStorageCore.getMany refuses a non-array and more than 1000 ids, and keeps working", () => {
  const mem = new MemoryStorageCore();
  try {
    const text = JSON.stringify({ id: "a", version: 1, seq: 1, status: "working", createdAtMs: 0, ttlMs: null });
    assert.equal(mem.putIfVersion(text, "a", 1, 1, undefined, true, undefined, undefined), true);
    for (const bad of ["x".repeat(2 ** 24 + 1), { length: 2 ** 24 }, 7, null, undefined, Array(1001).fill("a"), [1]]) {
      assert.throws(() => mem.getMany(bad), TypeError, String(bad?.length ?? bad));
    }
    assert.deepEqual(JSON.parse(mem.getMany(["a", "b"])), [JSON.parse(text), null]);
    assert.equal(JSON.parse(mem.getMany(Array(1000).fill("a"))).length, 1000);
  } finally {
    mem.free();
  }
});

test("MemoryStorageCore.nextSequence throws a RangeError once a record holds seq 2^53 - 1, and keeps working", () => {
  // Found by tests/js/soak.test.mjs's fuzz (SOAK_SEED=2012619354): it answered 2^53, which no JS
  // number carries exactly, and the next write with it was refused.
  const mem = new MemoryStorageCore();
  try {
    assert.equal(mem.nextSequence(), 1);
    const top = Number.MAX_SAFE_INTEGER;
    const text = JSON.stringify({ id: "top", version: 1, seq: top, status: "working", createdAtMs: 0, ttlMs: null });
    assert.equal(mem.putIfVersion(text, "top", 1, top, "s", true, undefined, undefined), true);
    assert.equal(mem.lastSequence(), top);
    assert.throws(() => mem.nextSequence(), RangeError);
    assert.throws(() => mem.nextSequenceWithLive("s"), RangeError);
    assert.equal(mem.lastSequence(), top);
    assert.equal(mem.countLive("s"), 1);
    assert.equal(mem.delete("top"), text);
  } finally {
    mem.free();
  }
});
