// The storage contract kit: the same tests for every TaskStorage adapter (the contract is in
// js/server/storage/types.ts; the clauses are those of src/store/storage.rs and its contract test
// src/store/contract.rs, numbered alike, plus 8 the change feed and 9 close).
//
//   storageContract("postgres", { open, spec })
//     open(): a fresh, empty storage (each test gets its own)
//     spec(): for shared adapters, a description a child process (worker.mjs) opens the SAME
//             storage from; adds the multi-process tests (a cancel racing a complete from two
//             processes; listing while other processes insert and expire)
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnWorker } from "./lib.mjs";

/**
 * A stored task as src/store/record.rs writes it.
 * @param {string} id
 * @param {number} seq
 * @param {{ session?: string | null, ttl?: number | null, status?: string, version?: number, createdAt?: number }} [o]
 */
export function record(id, seq, o = {}) {
  /** @type {Record<string, unknown>} */
  const r = {
    id,
    version: o.version ?? 1,
    seq,
    protocol: "2025-11-25",
    status: o.status ?? "working",
    createdAtMs: o.createdAt ?? 1000,
    lastUpdatedAtMs: o.createdAt ?? 1000,
    ttlMs: o.ttl ?? null,
  };
  if (o.session != null) r.session = o.session;
  if (r.status === "completed") r.result = { content: [{ type: "text", text: `done ${id}` }] };
  if (r.status === "failed") r.error = { code: -1, message: "x" };
  return r;
}

/** @param {Array<{ id: string }>} rs */
const ids = (rs) => rs.map((r) => r.id);

/** Waits until `check()` is true, polling; fails after `ms` (a deadline for a hang, not a timing threshold). */
async function until(check, what, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * @param {string} label
 * @param {{ open: () => Promise<any>, spec?: () => Promise<object> }} adapter
 */
export function storageContract(label, { open, spec }) {
  /** Runs `fn` on a fresh storage and closes it after, also on failure. */
  const withStorage = (fn) => async () => {
    const s = await open();
    try {
      await fn(s);
    } finally {
      await s.close();
    }
  };

  test(`${label}: 1-3 get, insert, delete`, withStorage(async (s) => {
    assert.equal(await s.get("a"), null, "1: get of a missing id is null");
    const a = record("a", 1, { session: "s" });
    assert.equal(await s.putIfVersion(a, null), true, "2: insert with expected null");
    assert.deepEqual(await s.get("a"), a, "1: get returns the record stored");
    assert.deepEqual(await s.delete("a"), a, "3: delete returns the record");
    assert.equal(await s.get("a"), null, "3: deleted records are gone");
    assert.equal(await s.delete("a"), null, "3: delete of a missing id is null");
    assert.equal(await s.putIfVersion(a, null), true, "2: an id can be inserted again after delete");
    // Members the storage does not read are kept as they are (the store's own JSON).
    const rich = { ...record("rich", 2), statusMessage: "é ✓ \u0000 \"q\"", inputs: { k: { request: { method: "m" }, state: "outstanding" } }, pollIntervalMs: 5 };
    assert.equal(await s.putIfVersion(rich, null), true);
    assert.deepEqual(await s.get("rich"), rich, "1: every member round-trips");
    // The storage copies: mutating the caller's object later changes nothing stored.
    rich.statusMessage = "changed";
    assert.notEqual((await s.get("rich")).statusMessage, "changed");
  }));

  test(`${label}: 2 compare-and-set`, withStorage(async (s) => {
    const a = record("a", 1, { session: "s" });
    assert.equal(await s.putIfVersion(a, null), true, "2: insert");
    assert.equal(await s.putIfVersion(a, null), false, "2: insert over an existing id conflicts");
    const b = record("a", 1, { session: "s", version: 2, status: "failed" });
    assert.equal(await s.putIfVersion(b, 2), false, "2: wrong expected version conflicts");
    assert.deepEqual(await s.get("a"), a, "2: a conflicting write stores nothing");
    assert.equal(await s.putIfVersion(b, 1), true, "2: matching version replaces");
    assert.deepEqual(await s.get("a"), b, "2: replaced record is returned");
    assert.equal(await s.putIfVersion(b, 1), false, "2: a stale version conflicts");
    assert.equal(await s.putIfVersion(record("zz", 9), 1), false, "2: replacing a missing id conflicts");
    assert.equal(await s.get("zz"), null);
  }));

  test(`${label}: 2 concurrent writers in one process: exactly one wins each version`, withStorage(async (s) => {
    await s.putIfVersion(record("t", 1), null);
    const outcomes = await Promise.all(["completed", "cancelled", "failed", "completed"].map((status) =>
      s.putIfVersion(record("t", 1, { version: 2, status }), 1)));
    assert.equal(outcomes.filter(Boolean).length, 1, `one of the racing writes wins: ${outcomes}`);
    const inserts = await Promise.all([1, 2, 3].map((n) => s.putIfVersion(record("u", 10 + n), null)));
    assert.equal(inserts.filter(Boolean).length, 1, "one of the racing inserts wins");
  }));

  test(`${label}: 4 keyset ranges`, withStorage(async (s) => {
    const layout = [["a", 1, "x"], ["b", 2, null], ["c", 3, "x"], ["d", 5, "y"], ["e", 7, "x"]];
    for (const [id, seq, session] of layout) assert.equal(await s.putIfVersion(record(id, seq, { session }), null), true);
    const all = { kind: "all" };
    const x = { kind: "session", session: "x" };
    assert.deepEqual(ids(await s.rangeAfter(all, 0, 10)), ["a", "b", "c", "d", "e"], "4: all, seq order");
    assert.deepEqual(ids(await s.rangeAfter(all, 2, 2)), ["c", "d"], "4: after and limit");
    assert.deepEqual(ids(await s.rangeAfter(all, 7, 10)), [], "4: nothing after the last");
    assert.deepEqual(await s.rangeAfter(all, 0, 0), [], "4: limit 0");
    assert.deepEqual(ids(await s.rangeAfter(x, 0, 10)), ["a", "c", "e"], "4: session scope");
    assert.deepEqual(ids(await s.rangeAfter(x, 1, 1)), ["c"], "4: session after/limit");
    assert.deepEqual(ids(await s.rangeAfter({ kind: "session", session: null }, 0, 10)), ["b"], "4: unbound scope");
    assert.deepEqual(await s.rangeAfter({ kind: "session", session: "q" }, 0, 10), [], "4: unknown session");
    assert.deepEqual(await s.rangeAfter(all, Number.MAX_SAFE_INTEGER, 10), [], "4: after the largest seq");
    assert.deepEqual((await s.rangeAfter(all, 0, 10))[0], record("a", 1, { session: "x" }), "4: whole records");
    assert.notEqual(await s.delete("c"), null, "3: delete");
    assert.equal(await s.putIfVersion(record("f", 8, { session: "x" }), null), true);
    assert.deepEqual(ids(await s.rangeAfter(x, 1, 10)), ["e", "f"], "4: stable under changes");
    const a2 = { ...record("a", 1, { session: "x", version: 2 }), statusMessage: "m" };
    assert.equal(await s.putIfVersion(a2, 1), true, "2: update");
    assert.deepEqual(ids(await s.rangeAfter(all, 0, 2)), ["a", "b"], "4: update keeps the position");
    // Session names are data, never syntax (patterns, separators, quotes).
    for (const [i, session] of ["%", "*", "x:y", "a'b", "", "\u{1F600}"].entries()) {
      await s.putIfVersion(record(`odd${i}`, 100 + i, { session }), null);
      assert.deepEqual(ids(await s.rangeAfter({ kind: "session", session }, 0, 10)), [`odd${i}`], `4: session ${JSON.stringify(session)}`);
    }
  }));

  test(`${label}: 5 expiry index`, withStorage(async (s) => {
    for (const [id, seq, ttl] of [["a", 1, 500], ["b", 2, null], ["c", 3, 100], ["d", 4, 2000], ["e", 5, 100]]) {
      assert.equal(await s.putIfVersion(record(id, seq, { ttl }), null), true);
    }
    assert.deepEqual(await s.expired(1100, 10), [], "5: not expired at exactly createdAt + ttl");
    assert.deepEqual(await s.expired(1101, 10), ["c", "e"], "5: expired strictly after; ties in seq order");
    assert.deepEqual(await s.expired(10_000, 10), ["c", "e", "a", "d"], "5: earliest deadline first, unlimited never");
    assert.deepEqual(await s.expired(10_000, 2), ["c", "e"], "5: limit");
    assert.notEqual(await s.delete("c"), null);
    assert.deepEqual(await s.expired(10_000, 10), ["e", "a", "d"], "5: deleted records leave the index");
    assert.equal(await s.putIfVersion(record("d", 4, { version: 2 }), 1), true);
    assert.deepEqual(await s.expired(10_000, 10), ["e", "a"], "5: the index follows updates");
    assert.equal(await s.putIfVersion(record("b", 2, { version: 2, ttl: 1 }), 1), true);
    assert.deepEqual(await s.expired(10_000, 10), ["b", "e", "a"], "5: an update can add an expiry");
  }));

  test(`${label}: 6 live counts`, withStorage(async (s) => {
    for (const [id, seq, session] of [["a", 1, "x"], ["b", 2, "x"], ["c", 3, null], ["d", 4, "y"]]) {
      assert.equal(await s.putIfVersion(record(id, seq, { session }), null), true);
    }
    await s.putIfVersion(record("e", 5, { session: "x", status: "input_required" }), null);
    await s.putIfVersion(record("f", 6, { session: "x", status: "completed" }), null);
    assert.equal(await s.countLive("x"), 3, "6: live count per session (working, input_required)");
    assert.equal(await s.countLive(null), 1, "6: live count of unbound tasks");
    assert.equal(await s.countLive("q"), 0, "6: unknown session");
    assert.equal(await s.putIfVersion(record("a", 1, { session: "x", version: 2, status: "cancelled" }), 1), true);
    assert.equal(await s.countLive("x"), 2, "6: terminal tasks are not live");
    assert.notEqual(await s.delete("b"), null);
    assert.equal(await s.countLive("x"), 1, "6: deleted tasks are not live");
  }));

  test(`${label}: 10 live records by seq (the lease check's index)`, withStorage(async (s) => {
    for (const [id, seq, status] of [["a", 1, "working"], ["b", 2, "completed"], ["c", 3, "input_required"], ["d", 4, "failed"], ["e", 5, "working"], ["f", 6, "cancelled"]]) {
      assert.equal(await s.putIfVersion(record(id, seq, { session: seq % 2 ? "x" : null, status }), null), true);
    }
    assert.deepEqual(ids(await s.rangeLive(0, 10)), ["a", "c", "e"], "10: live records only, in seq order");
    assert.deepEqual(ids(await s.rangeLive(1, 1)), ["c"], "10: after a seq, at most limit");
    assert.deepEqual(await s.rangeLive(0, 0), []);
    assert.deepEqual(await s.rangeLive(5, 10), []);
    assert.deepEqual((await s.rangeLive(0, 1))[0], record("a", 1, { session: "x" }), "10: the records as stored");
    // A record that ends leaves the index; one deleted too.
    assert.equal(await s.putIfVersion(record("a", 1, { session: "x", version: 2, status: "completed" }), 1), true);
    assert.notEqual(await s.delete("c"), null);
    assert.deepEqual(ids(await s.rangeLive(0, 10)), ["e"]);
    await assert.rejects(s.rangeLive(-1, 1), (e) => e.name === "StorageError" && e.kind === "invalid" && /after/.test(e.message));
  }));

  test(`${label}: 11-12 batches: getMany, putEachIfVersion`, withStorage(async (s) => {
    const seen = [];
    const unsubscribe = await s.subscribe((c) => seen.push(c));
    for (const [id, seq] of [["a", 1], ["b", 2], ["c\u0000", 3]]) assert.equal(await s.putIfVersion(record(id, seq, { session: "x" }), null), true);
    assert.deepEqual(await s.getMany([]), []);
    assert.deepEqual((await s.getMany(["c\u0000", "nope", "a"])).map((r) => r?.id ?? null), ["c\u0000", null, "a"], "11: in the order asked, null when absent");
    const put = await s.putEachIfVersion([
      { record: record("a", 1, { session: "x", version: 2, status: "completed" }), expected: 1 },
      { record: record("b", 2, { session: "x", version: 3 }), expected: 2 }, // stale: b is at 1
      { record: record("c\u0000", 3, { session: "x", version: 2 }), expected: 1 },
      { record: record("d", 4, { version: 2 }), expected: 1 }, // absent: not inserted
    ]);
    assert.deepEqual(put, [true, false, true, false], "12: each entry a compare-and-set of its own");
    assert.deepEqual((await s.getMany(["a", "b", "c\u0000", "d"])).map((r) => r?.version ?? null), [2, 1, 2, null]);
    assert.equal(await s.countLive("x"), 2, "12: the indexes follow (a is terminal)");
    assert.deepEqual(ids(await s.rangeLive(0, 10)), ["b", "c\u0000"]);
    assert.deepEqual(await s.putEachIfVersion([]), []);
    await until(() => seen.some((c) => c.id === "c\u0000" && c.version === 2) && seen.some((c) => c.id === "a" && c.version === 2), "the batch's changes");
    await unsubscribe();
    await assert.rejects(s.getMany(["a", "a"]), (e) => e.name === "StorageError" && e.kind === "invalid" && /distinct/.test(e.message));
    await assert.rejects(s.getMany(Array.from({ length: 1001 }, (_, i) => `i${i}`)), (e) => e.kind === "invalid" && /1000/.test(e.message));
    await assert.rejects(s.putEachIfVersion([{ record: record("b", 2, { version: 2 }), expected: null }]), (e) => e.kind === "invalid" && /expected/.test(e.message));
    await assert.rejects(s.putEachIfVersion([{ record: record("b", 2, { version: 2 }), expected: 1 }, { record: record("b", 2, { version: 2 }), expected: 1 }]), (e) => e.kind === "invalid" && /distinct/.test(e.message));
    assert.equal((await s.get("b")).version, 1, "nothing written by a refused batch");
  }));

  test(`${label}: U+0000 in an id or a session is kept like any other character`, withStorage(async (s) => {
    const seen = [];
    const unsubscribe = await s.subscribe((c) => seen.push(c));
    const weird = ["a\u0000b", "\u0000", "a\ufdd00", "a\ufdd0\u0000"];
    for (const [i, id] of weird.entries()) {
      assert.equal(await s.putIfVersion(record(id, i + 1, { session: `s\u0000${id}`, ttl: 10 }), null), true, JSON.stringify(id));
    }
    // Neighbours that must stay apart from them.
    assert.equal(await s.putIfVersion(record("ab", 10, { session: "s" }), null), true);
    assert.equal(await s.putIfVersion(record("a", 11, { session: "s\u0000" }), null), true);
    for (const [i, id] of weird.entries()) {
      assert.equal((await s.get(id))?.id, id, JSON.stringify(id));
      assert.deepEqual(ids(await s.rangeAfter({ kind: "session", session: `s\u0000${id}` }, 0, 10)), [id]);
      assert.equal(await s.countLive(`s\u0000${id}`), 1);
      assert.equal(await s.putIfVersion(record(id, i + 1, { session: `s\u0000${id}`, ttl: 10, version: 2 }), 1), true);
    }
    assert.equal(await s.get("a\u0000"), null);
    assert.equal(await s.countLive("s\u0000a"), 0);
    assert.deepEqual((await s.expired(100_000, 10)).sort(), [...weird].sort(), "5: expired answers the ids as they are");
    await until(() => weird.every((id) => seen.some((c) => c.id === id && c.version === 2)), "the changes of those ids");
    for (const id of weird) assert.equal((await s.delete(id))?.id, id);
    await unsubscribe();
    assert.deepEqual(ids(await s.rangeAfter({ kind: "all" }, 0, 10)), ["ab", "a"]);
  }));

  test(`${label}: 7 sequences`, withStorage(async (s) => {
    assert.equal(await s.lastSequence(), 0, "7: a fresh storage has returned no sequence");
    const a = await s.nextSequence();
    const b = await s.nextSequence();
    assert.ok(a > 0 && b > a, "7: sequences increase");
    assert.equal(await s.lastSequence(), b, "7: lastSequence is the greatest returned");
    assert.equal(await s.putIfVersion(record("a", b + 10), null), true);
    assert.ok((await s.nextSequence()) > b + 10, "7: sequences exceed every stored seq");
    const many = await Promise.all(Array.from({ length: 20 }, () => s.nextSequence()));
    assert.equal(new Set(many).size, 20, "7: concurrent calls get distinct numbers");
  }));

  test(`${label}: 13 the next sequence with a session's live count`, withStorage(async (s) => {
    for (const [id, seq, session, status] of [["a", 1, "x", "working"], ["b", 2, "x", "input_required"], ["c", 3, "x", "completed"], ["d", 4, null, "working"], ["e", 5, "x\u0000", "working"]]) {
      assert.equal(await s.putIfVersion(record(id, seq, { session, status }), null), true);
    }
    const a = await s.nextSequenceWithLive("x");
    assert.ok(a.sequence > 5, "13: the sequence exceeds every stored seq (clause 7)");
    assert.equal(a.live, 2, "13: the session's live count (clause 6)");
    assert.deepEqual(await s.nextSequenceWithLive(null), { sequence: a.sequence + 1, live: 1 }, "13: unbound tasks; the next number");
    assert.deepEqual(await s.nextSequenceWithLive("q"), { sequence: a.sequence + 2, live: 0 });
    assert.equal((await s.nextSequenceWithLive("x\u0000")).live, 1);
    assert.equal(await s.nextSequence(), a.sequence + 4, "13: one counter with nextSequence");
    assert.equal(await s.lastSequence(), a.sequence + 4);
    const many = await Promise.all(Array.from({ length: 20 }, () => s.nextSequenceWithLive("x")));
    assert.equal(new Set(many.map((m) => m.sequence)).size, 20, "13: concurrent calls get distinct numbers");
    await assert.rejects(s.nextSequenceWithLive(7), (e) => e.name === "StorageError" && e.kind === "invalid" && /session/.test(e.message));
  }));

  test(`${label}: 14 insert with the next sequence, under a session's cap`, withStorage(async (s) => {
    if (typeof s.insertNew !== "function") return; // optional: 13 and 2 serve instead
    for (const [id, seq, session, status] of [["a", 1, "x", "working"], ["b", 2, "x", "completed"], ["c", 3, null, "working"]]) {
      assert.equal(await s.putIfVersion(record(id, seq, { session, status }), null), true);
    }
    const seen = [];
    const off = await s.subscribe((c) => seen.push(c));
    const n = await s.insertNew(record("n1", 999_999, { session: "x" }), 2);
    assert.ok(typeof n.seq === "number" && n.seq > 3, "14: the number taken exceeds every stored seq (clause 7)");
    const stored = await s.get("n1");
    assert.equal(stored.seq, n.seq, "14: stored with the number taken, not the record's own");
    assert.deepEqual({ ...stored, seq: 0 }, { ...record("n1", 0, { session: "x" }) }, "14: the rest of the record as given");
    assert.deepEqual((await s.rangeAfter({ kind: "session", session: "x" }, 0, 10)).map((r) => [r.id, r.seq]), [["a", 1], ["b", 2], ["n1", n.seq]], "14: indexed by the number taken");
    assert.ok((await s.nextSequence()) > n.seq, "14: one counter with nextSequence");
    assert.deepEqual(await s.insertNew(record("n2", 1, { session: "x" }), 2), { seq: null, live: 2 }, "14: the session at its cap: refused");
    assert.equal(await s.get("n2"), null, "14: nothing stored when refused");
    assert.deepEqual(await s.insertNew(record("a", 1, { session: "q" }), null), { seq: null, live: null }, "14: an id taken: refused");
    assert.equal((await s.get("a")).session, "x");
    const u = await s.insertNew(record("n3", 1, {}), null);
    assert.ok(u.seq > n.seq, "14: unbound, no cap");
    assert.deepEqual(await s.insertNew(record("n4", 1, {}), 2), { seq: null, live: 2 }, "14: the cap counts unbound tasks as clause 6 does");
    // Concurrent creates of one session count each other: exactly `cap` stored.
    const many = await Promise.all(Array.from({ length: 12 }, (_, i) => s.insertNew(record(`m${i}`, 1, { session: "y" }), 5)));
    assert.equal(many.filter((m) => m.seq !== null).length, 5, "14: concurrent creates stop at the cap");
    assert.equal(await s.countLive("y"), 5);
    const numbers = many.filter((m) => m.seq !== null).map((m) => m.seq);
    assert.equal(new Set(numbers).size, 5, "14: distinct numbers");
    await until(() => seen.some((c) => c.id === "n1") && numbers.length === 5 && seen.filter((c) => c.id.startsWith("m")).length === 5, "the inserts on the feed");
    assert.deepEqual(seen.find((c) => c.id === "n1"), { kind: "put", id: "n1", version: 1 }, "14: an insert is a put on the feed (clause 8)");
    assert.ok(!seen.some((c) => c.id === "n2"), "14: a refused insert is not on the feed");
    await off();
    await assert.rejects(s.insertNew(record("z", 1), -1), (e) => e.name === "StorageError" && e.kind === "invalid" && /cap/.test(e.message));
    await assert.rejects(s.insertNew({ id: "z", version: 1 }, null), (e) => e.name === "StorageError" && e.kind === "invalid");
  }));

  test(`${label}: 8 change feed`, withStorage(async (s) => {
    const seen = [];
    const unsubscribe = await s.subscribe((c) => seen.push(c));
    await s.putIfVersion(record("a", 1), null);
    await s.putIfVersion(record("a", 1, { version: 2, status: "completed" }), 1);
    assert.equal(await s.putIfVersion(record("a", 1, { version: 3 }), 1), false);
    await s.delete("a");
    await s.delete("a");
    await until(() => seen.length >= 3, "three changes");
    assert.deepEqual(seen, [
      { kind: "put", id: "a", version: 1 },
      { kind: "put", id: "a", version: 2 },
      { kind: "delete", id: "a", version: 2 },
    ], "8: every successful write, in order; conflicts and missing deletes publish nothing");
    await unsubscribe();
    await s.putIfVersion(record("b", 2), null);
    await s.putIfVersion(record("c", 3), null);
    const after = [];
    const un2 = await s.subscribe((c) => after.push(c));
    await s.putIfVersion(record("d", 4), null);
    await until(() => after.some((c) => c.id === "d"), "the change made after subscribing again");
    await un2();
    assert.deepEqual(seen.length, 3, "8: nothing reaches an unsubscribed listener");
    // Writes made before subscribing may still arrive (at most once, asynchronous); d must.
    assert.deepEqual(after.filter((c) => c.id === "d"), [{ kind: "put", id: "d", version: 1 }]);
    assert.deepEqual(after.filter((c) => !["b", "c", "d"].includes(c.id)), []);
  }));

  test(`${label}: bad input is refused with a StorageError naming it, nothing stored`, withStorage(async (s) => {
    const bad = async (p, re) => {
      await assert.rejects(p, (e) => e.name === "StorageError" && e.kind === "invalid" && re.test(e.message), String(re));
    };
    await bad(s.putIfVersion(null, null), /record/);
    await bad(s.putIfVersion({ ...record("a", 1), id: "" }, null), /id/);
    await bad(s.putIfVersion({ ...record("a", 1), version: 0 }, null), /version/);
    await bad(s.putIfVersion({ ...record("a", 1), seq: 1.5 }, null), /seq/);
    await bad(s.putIfVersion({ ...record("a", 1), seq: 2 ** 53 }, null), /seq/);
    await bad(s.putIfVersion({ ...record("a", 1), status: "done" }, null), /status/);
    await bad(s.putIfVersion({ ...record("a", 1), session: 7 }, null), /session/);
    await bad(s.putIfVersion({ ...record("a", 1), ttlMs: -1 }, null), /ttlMs/);
    await bad(s.putIfVersion(record("a", 1), "1"), /expected/);
    await bad(s.get(3), /id/);
    await bad(s.rangeAfter({ kind: "some" }, 0, 1), /scope/);
    await bad(s.rangeAfter({ kind: "all" }, -1, 1), /after/);
    await bad(s.expired(1, 1.5), /limit/);
    await bad(s.countLive(undefined), /session/);
    await bad(s.subscribe("no"), /listener/);
    assert.equal(await s.get("a"), null, "nothing was stored");
  }));

  test(`${label}: 9 close`, async () => {
    const s = await open();
    await s.close();
    await assert.rejects(s.get("a"), (e) => e.name === "StorageError" && e.kind === "closed");
    await s.close(); // closing twice is harmless
  });

  if (!spec) return;

  test(`${label}: a cancel racing a complete from two processes: exactly one terminal outcome`, async (t) => {
    const s = await open();
    try {
      const n = 40;
      const ids = Array.from({ length: n }, (_, i) => `race-${i}`);
      for (const [i, id] of ids.entries()) await s.putIfVersion(record(id, i + 1, { session: "s" }), null);
      const changes = [];
      const unsubscribe = await s.subscribe((c) => changes.push(c));
      const where = await spec();
      const [cancel, complete] = await Promise.all([
        spawnWorker(where, { job: "finish", ids, status: "cancelled" }),
        spawnWorker(where, { job: "finish", ids, status: "completed" }),
      ]);
      // Both are ready (storage open) before either starts: then they race.
      cancel.go();
      complete.go();
      const [a, b] = await Promise.all([cancel.result, complete.result]);
      t.diagnostic(`cancel won ${a.won.length}, complete won ${b.won.length} of ${n}`);
      for (const [i, id] of ids.entries()) {
        const won = [a.won.includes(id) && "cancelled", b.won.includes(id) && "completed"].filter(Boolean);
        assert.equal(won.length, 1, `${id}: exactly one process ended the task (${won})`);
        const stored = await s.get(id);
        assert.equal(stored.status, won[0], `${id}: the stored outcome is the winner's`);
        assert.equal(stored.version, 2, `${id}: one terminal write, no second`);
        assert.equal(stored.seq, i + 1);
      }
      assert.equal(await s.countLive("s"), 0, "6: no task is live");
      // 8: this process heard every terminal write made by the other two.
      await until(() => changes.length >= n, `${n} changes from the other processes`);
      assert.deepEqual(changes.map((c) => `${c.id}@${c.version}`).sort(), ids.map((id) => `${id}@2`).sort());
      await unsubscribe();
    } finally {
      await s.close();
    }
  });

  test(`${label}: listing while other processes insert and expire: every task seen once`, async () => {
    const s = await open();
    try {
      // 150 stable tasks, 150 that expire at once (interleaved), then writers insert 150 more
      // and an expirer deletes the expired while this process pages through 7 at a time.
      let seq = 0;
      const stable = [];
      for (let i = 0; i < 300; i++) {
        seq = await s.nextSequence();
        const doomed = i % 2 === 1;
        const id = `${doomed ? "doomed" : "stable"}-${i}`;
        await s.putIfVersion(record(id, seq, { ttl: doomed ? 0 : null, createdAt: doomed ? 1 : Date.now() }), null);
        if (!doomed) stable.push(id);
      }
      const where = await spec();
      const writer = await spawnWorker(where, { job: "insert", count: 150, prefix: "new" });
      const expirer = await spawnWorker(where, { job: "expire", until: 150 });
      writer.go();
      expirer.go();
      const seen = new Map();
      let after = 0;
      let pages = 0;
      let finished = false;
      const done = Promise.all([writer.result, expirer.result]).then((r) => {
        finished = true;
        return r;
      });
      // Pages until the workers have finished and a page comes back empty.
      for (;;) {
        const page = await s.rangeAfter({ kind: "all" }, after, 7);
        pages++;
        for (const r of page) {
          assert.ok(r.seq > after, "4: a page continues after the cursor");
          assert.ok(!seen.has(r.id), `${r.id} seen twice`);
          seen.set(r.id, r.seq);
          after = r.seq;
        }
        if (page.length === 0 && finished) break;
        if (page.length === 0) await new Promise((r) => setTimeout(r, 5));
      }
      const [w, e] = await done;
      for (const id of stable) assert.ok(seen.has(id), `stable task ${id} was seen`);
      for (const id of w.inserted) assert.ok(seen.has(id), `inserted task ${id} was seen (its seq is after every earlier one)`);
      assert.equal(e.deleted.length, 150, "the expirer deleted every expired task");
      assert.deepEqual(await s.expired(Date.now(), 10), []);
      assert.ok(pages > 1);
      const rest = ids(await s.rangeAfter({ kind: "all" }, 0, 1000));
      assert.equal(rest.length, 300, "150 stable + 150 inserted remain");
    } finally {
      await s.close();
    }
  });
}
