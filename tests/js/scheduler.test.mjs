// TaskScheduler from the packed, installed package (import "mcp-tasks-wasm", as a user does),
// driven in virtual time: every `now` is passed, so every expected time is exact (jitter 0, or
// a fixed seed). Bad input throws a TypeError (or a TaskSchedulerError), never crashes the
// module.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";

const shim = new URL("./.tmp/install/esm.mjs", import.meta.url);
if (!existsSync(shim)) {
  throw new Error("tests/js/.tmp/install is missing: run `bash scripts/build.sh && bash scripts/pack.sh`");
}
const { TaskScheduler, validateMessage } = await import(shim.href);

const T0 = Date.parse("2025-11-25T10:30:00Z");
const iso = (ms) => new Date(ms).toISOString();
const v25 = (status, at, extra = {}) => ({
  taskId: "t", status, createdAt: iso(T0), lastUpdatedAt: iso(at), ttl: null, ...extra,
});
const v26 = (status, at, extra = {}) => ({
  taskId: "t", status, createdAt: iso(T0), lastUpdatedAt: iso(at), ttlMs: null, ...extra,
});
const exact = (options = {}) => new TaskScheduler({ jitter: 0, seed: 1, ...options });
const polls = (events) => events.filter((e) => e.type === "poll").map((e) => e.key);

test("the main entry exports TaskScheduler", () => {
  assert.equal(typeof TaskScheduler, "function");
  const s = new TaskScheduler();
  assert.equal(s.size, 0);
  assert.equal(s.nextWakeAt(), null);
  assert.deepEqual(s.nextDue(), []);
});

test("V25: CreateTaskResult → polls at pollInterval → input_required → completed (§D 49, 50)", () => {
  const s = exact();
  const created = { task: v25("working", T0, { ttl: 60_000, pollInterval: 2000 }) };
  assert.equal(validateMessage({ jsonrpc: "2.0", id: 1, result: created }, { inReplyTo: "tools/call" }).valid, true);
  assert.deepEqual(s.track("srv/t", { task: created, server: "srv" }, T0), [
    { type: "taskStatus", key: "srv/t", from: null, status: "working" },
  ]);
  // The first poll honours the CreateTaskResult's interval (PEERS §3 17).
  assert.equal(s.nextWakeAt(), T0 + 2000);
  assert.deepEqual(s.nextDue(T0 + 1999), []);
  assert.deepEqual(s.nextDue(T0 + 2000), [{ type: "poll", key: "srv/t" }]);
  assert.deepEqual(s.info("srv/t"), { status: "working", dueAt: T0 + 32_000, inFlight: true, errors: 0, finished: false });
  assert.deepEqual(s.observe("srv/t", v25("input_required", T0 + 2000, { ttl: 60_000, pollInterval: 2000 }), T0 + 2050), [
    { type: "inputRequired", key: "srv/t", from: "working", status: "input_required" },
  ]);
  // input_required: polling goes on (the host calls tasks/result meanwhile).
  assert.equal(s.nextWakeAt(), T0 + 4050);
  assert.deepEqual(polls(s.nextDue(T0 + 4050)), ["srv/t"]);
  assert.deepEqual(s.observe("srv/t", v25("completed", T0 + 4000, { ttl: 60_000 }), T0 + 4060), [
    { type: "terminal", key: "srv/t", from: "input_required", status: "completed" },
  ]);
  assert.equal(s.nextWakeAt(), null);
  // Terminal is final (§D 20): a late snapshot is ignored.
  assert.deepEqual(s.observe("srv/t", v25("working", T0 + 5000), T0 + 5000), []);
  assert.equal(s.info("srv/t").finished, true);
  assert.equal(s.forget("srv/t"), true);
  assert.equal(s.info("srv/t"), null);
  assert.equal(s.size, 0);
});

test("V26: the latest pollIntervalMs counts; 0 gives the 250 ms floor; a notification reschedules", () => {
  const s = exact();
  s.track("a", { task: v26("working", T0, { pollIntervalMs: 5000 }) }, T0);
  assert.equal(s.info("a").dueAt, T0 + 5000);
  // notifications/tasks between polls (§D 112): updates and reschedules.
  s.observe("a", v26("working", T0 + 1000, { pollIntervalMs: 0 }), T0 + 1000);
  assert.equal(s.info("a").dueAt, T0 + 1250);
  s.observe("a", v26("working", T0 + 1100, { pollIntervalMs: 800 }), T0 + 1100);
  assert.equal(s.info("a").dueAt, T0 + 1900);
  // Without one, the last interval stands.
  s.observe("a", v26("working", T0 + 1200), T0 + 1200);
  assert.equal(s.info("a").dueAt, T0 + 2000);
  // No interval ever: the default (1000 ms), under a raised floor: the floor.
  const slow = exact({ floorMs: 3000 });
  slow.track("b", { task: v26("working", T0) }, T0);
  assert.equal(slow.info("b").dueAt, T0 + 3000);
});

test("failures back off 1 s, 2 s, 4 s … up to 60 s; a retry hint is honoured; -32602 ends the task (§D 56, 114)", () => {
  const s = exact();
  s.track("a", {}, T0);                                 // no snapshot: due at once
  let now = T0;
  const next = [];
  for (let i = 0; i < 8; i++) {
    assert.deepEqual(polls(s.nextDue(now)), ["a"]);
    const [e] = s.observeError("a", { code: -32603, message: "busy" }, now);
    assert.equal(e.type, "pollError");
    assert.equal(e.attempt, i + 1);
    assert.equal(e.code, -32603);
    next.push(e.nextPollAt - now);
    now = e.nextPollAt;
  }
  assert.deepEqual(next, [1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
  assert.deepEqual(polls(s.nextDue(now)), ["a"]);
  const [hinted] = s.observeError("a", { retryAfterMs: 90_000 }, now);   // transport failure + Retry-After
  assert.deepEqual(hinted, { type: "pollError", key: "a", attempt: 9, code: null, timedOut: false, nextPollAt: now + 90_000 });
  s.observe("a", v25("working", T0), now + 10);                           // success resets the count…
  assert.equal(s.info("a").errors, 0);
  assert.equal(s.info("a").dueAt, now + 90_000);                          // …but not the retry hint
  assert.deepEqual(polls(s.nextDue(now + 90_000)), ["a"]);
  assert.deepEqual(s.observeError("a", { code: -32602, message: "Task not found" }, now + 90_010), [
    { type: "expired", key: "a", reason: "notFound" },
  ]);
  assert.equal(s.nextWakeAt(), null);
});

test("a poll unanswered for pollTimeoutMs counts as a failure", () => {
  const s = exact({ pollTimeoutMs: 5000 });
  s.track("a", {}, T0);
  s.nextDue(T0);
  assert.equal(s.nextWakeAt(), T0 + 5000);
  assert.deepEqual(s.nextDue(T0 + 5000), [
    { type: "pollError", key: "a", attempt: 1, code: null, timedOut: true, nextPollAt: T0 + 6000 },
  ]);
});

test("budgetPerSecond spreads polls per server across its tasks", () => {
  const s = exact({ budgetPerSecond: 2 });
  for (const key of ["a1", "a2", "a3"]) s.track(key, { server: "A" }, T0);
  s.track("b1", { server: "B" }, T0);
  assert.deepEqual(polls(s.nextDue(T0)), ["a1", "b1"]);
  assert.equal(s.nextWakeAt(), T0 + 500);
  assert.deepEqual(polls(s.nextDue(T0 + 500)), ["a2"]);
  assert.deepEqual(polls(s.nextDue(T0 + 1000)), ["a3"]);
});

test("deadline and TTL backstop end polling at their instant (§D 108)", () => {
  const s = exact();
  s.track("d", { task: v25("working", T0), deadlineMs: 2500 }, T0);
  s.track("ttl", { task: v26("working", T0, { ttlMs: 1500 }) }, T0);
  assert.deepEqual(polls(s.nextDue(T0 + 1000)), ["d", "ttl"]);
  s.observe("d", v25("working", T0), T0 + 1000);
  s.observe("ttl", v26("working", T0, { ttlMs: 1500 }), T0 + 1000);
  assert.equal(s.nextWakeAt(), T0 + 1501);
  assert.deepEqual(s.nextDue(T0 + 1501), [{ type: "expired", key: "ttl", reason: "ttl" }]);
  assert.deepEqual(polls(s.nextDue(T0 + 2000)), ["d"]);
  s.observe("d", v25("working", T0), T0 + 2000);
  assert.deepEqual(s.nextDue(T0 + 2500), [{ type: "deadlineExceeded", key: "d" }]);
  assert.equal(s.nextWakeAt(), null);
});

test("stuckAfterPolls reports a task whose lastUpdatedAt stops advancing", () => {
  const s = exact({ stuckAfterPolls: 2 });
  s.track("a", { task: v25("working", T0) }, T0);
  s.nextDue(T0 + 1000);
  assert.deepEqual(s.observe("a", v25("working", T0), T0 + 1000), []);
  s.nextDue(T0 + 2000);
  assert.deepEqual(s.observe("a", v25("working", T0), T0 + 2000), [{ type: "stuck", key: "a", polls: 2 }]);
});

test("jitter is exact for a seed: +0..+10 % of the interval", () => {
  const s = new TaskScheduler({ seed: 42 });
  const dues = [0, 1, 2, 3, 4, 5].map((i) => {
    s.track(`t${i}`, { task: v25("working", T0, { pollInterval: 2000 }) }, T0);
    return s.info(`t${i}`).dueAt - T0;
  });
  // SplitMix64 from seed 42, the same as the Rust core's test.
  assert.deepEqual(dues, [2055, 2049, 2033, 2066, 2124, 2051]);
});

test("times stay within a Date's range, and the state saved there restores", () => {
  const s = exact();
  s.track("a", { deadlineMs: 2 ** 53 - 1, task: v26("working", T0, { ttlMs: 2 ** 53 - 1 }) }, 8.64e15 - 10);
  s.track("b", {}, 2 ** 53 - 1); // a `now` past the range counts as its end: b is due there
  assert.equal(s.info("a").dueAt, 8.64e15); // a due at the end of the range never comes
  assert.deepEqual(s.nextDue(2 ** 53 - 1), []);
  assert.equal(s.nextWakeAt(), null);
  const state = s.serialize();
  assert.equal(state.clock, 8.64e15);
  for (const row of state.tasks) for (const v of row.slice(1)) assert.ok(v === null || v <= 8.64e15, JSON.stringify(row));
  const r = TaskScheduler.restore(state);
  assert.deepEqual(r.serialize(), state);
  assert.equal(r.info("a").finished, false);
});

test("serialize → restore resumes exactly (JSON text or object)", () => {
  const a = new TaskScheduler({ seed: 7, budgetPerSecond: 20 });
  for (let i = 0; i < 30; i++) {
    a.track(`t${i}`, { server: `s${i % 3}`, task: v26("working", T0, { pollIntervalMs: 700 + i }) }, T0);
  }
  a.nextDue(T0 + 800);
  const state = a.serialize();
  assert.equal(state.format, "mcp-tasks-wasm/scheduler/1");
  const b = TaskScheduler.restore(JSON.stringify(state));
  const c = TaskScheduler.restore(state);
  assert.equal(b.size, 30);
  for (let now = T0 + 900; now < T0 + 10_000; now += 113) {
    const due = b.nextDue(now);
    assert.deepEqual(c.nextDue(now), due);
    for (const e of due) {
      b.observe(e.key, v26("working", T0, { pollIntervalMs: 900 }), now);
      c.observe(e.key, v26("working", T0, { pollIntervalMs: 900 }), now);
    }
  }
  assert.deepEqual(b.serialize(), c.serialize());
});

test("a host loop with one timer: every task polled politely until it ends", () => {
  const s = new TaskScheduler({ seed: 3, budgetPerSecond: 50 });
  const doneAt = new Map();          // the fake server: task i completes at T0 + 1000 · i
  const lastPoll = new Map();
  for (let i = 0; i < 40; i++) {
    doneAt.set(`k${i}`, T0 + 1000 * i);
    s.track(`k${i}`, { server: "one", task: v26("working", T0, { pollIntervalMs: 400 }) }, T0);
  }
  let now = T0;
  let finished = 0;
  let pollsSent = 0;
  while (finished < 40) {
    now = s.nextWakeAt();
    assert.notEqual(now, null);
    for (const e of s.nextDue(now)) {
      if (e.type !== "poll") continue;
      pollsSent++;
      const last = lastPoll.get(e.key);
      if (last !== undefined) assert.ok(now - last >= 400, `${e.key}: ${now - last} ms`);
      lastPoll.set(e.key, now);
      const status = now >= doneAt.get(e.key) ? "completed" : "working";
      const events = s.observe(e.key, v26(status, Math.min(now, doneAt.get(e.key)), { pollIntervalMs: 400 }), now + 5);
      finished += events.filter((x) => x.type === "terminal").length;
    }
  }
  assert.equal(s.nextWakeAt(), null);
  // At most one poll per 400 ms interval (+ jitter slack) of each task's life, plus the last.
  let bound = 0;
  for (let i = 0; i < 40; i++) bound += Math.floor((1000 * i) / 400) + 2;
  assert.ok(pollsSent <= bound, `${pollsSent} polls, bound ${bound}`);
});

test("bad input throws a TypeError (or a TaskSchedulerError), never crashes", () => {
  const typeErrors = [
    () => new TaskScheduler({ floorMs: 100 }),          // under the 250 ms floor
    () => new TaskScheduler({ floorMs: -1 }),
    () => new TaskScheduler({ jitter: 2 }),
    () => new TaskScheduler({ seed: -1 }),
    () => new TaskScheduler({ budgetPerSecond: 0 }),
    () => new TaskScheduler("fast"),
    () => exact().track(42),
    () => exact().track("a", { deadlineMs: "soon" }),
    () => exact().track("a", { version: "2024-01-01" }),
    () => exact().track("a", { task: { status: "done" } }),
    () => exact().track("a", { task: [] }),
    () => exact().track("a", {}, -5),
    () => exact().nextDue(T0, "all"),
    () => exact().nextDue(1.5),
    () => exact().observe("a", "working"),
    () => exact().observe("a", { status: "working", x: NaN }),
    () => exact().observeError("a", { code: "oops" }),
    () => exact().observeError("a", 404),
    () => TaskScheduler.restore(42),
    // The optional `now` and `limit` (typed `number | null`) are checked in wasm: a numeric
    // string is refused, not converted to a number.
    () => exact().nextDue("5"),
    () => exact().nextDue(T0, "5"),
    () => exact().track("a", {}, "5"),
    () => exact().track("a", "fast"),
    () => exact().observe("a", v25("working", T0), "5"),
    () => exact().observeError("a", {}, "5"),
    () => exact().observeError("a", "busy"),
  ];
  for (const f of typeErrors) assert.throws(f, TypeError, String(f));
  const s = exact();
  s.track("a", {}, T0);
  assert.throws(() => s.track("a", {}, T0), (e) => e.name === "TaskSchedulerError" && e.kind === "already_tracked");
  assert.throws(() => TaskScheduler.restore({ format: "x" }), (e) => e.name === "TaskSchedulerError" && e.kind === "invalid_state");
  assert.throws(() => TaskScheduler.restore("{oops"), (e) => e.kind === "invalid_state");
  // Times are Unix ms a JS Date holds (docs/decisions/scheduler-time.md): a later one is refused,
  // naming the field.
  const saved = exact();
  saved.track("a", {}, T0);
  const past = { ...saved.serialize(), tasks: [saved.serialize().tasks[0].with(5, 8.64e15 + 1)] };
  assert.throws(() => TaskScheduler.restore(past), (e) => e.name === "TaskSchedulerError" && e.kind === "invalid_state" &&
    e.message === "invalid scheduler state: tasks[0]: dueAt is 8640000000000001, past the latest time (8640000000000000 ms)");
  assert.throws(() => TaskScheduler.restore({ ...saved.serialize(), clock: 2 ** 53 }), (e) => e.kind === "invalid_state" && /clock is 9007199254740992/.test(e.message));
  // A refused snapshot changed nothing, and the module still works.
  assert.throws(() => s.observe("a", { status: 7 }, T0), TypeError);
  assert.deepEqual(s.nextDue(T0), [{ type: "poll", key: "a" }]);
  assert.deepEqual(s.observe("unknown", v25("working", T0), T0), []);   // untracked keys: ignored
  assert.deepEqual(s.observeError("unknown", {}, T0), []);
});

// Keys cross exactly: wasm-bindgen's string conversion turned a lone surrogate into U+FFFD, so
// two task ids that differed only there were one key ("already tracked"), and events named a
// key the host never gave (fixed 2026-12-01).
test("keys that differ only in lone surrogates or U+FDD0 are distinct and come back as given", () => {
  const keys = ["srv/a\ud800", "srv/a\udbff", "srv/a\ufffd", "srv/\ufdd0d800", "srv/\ufdd0\ufdd0", "srv/\ud83d\ude00"];
  const s = exact();
  for (const key of keys) s.track(key, undefined, T0);
  assert.equal(s.size, keys.length);
  assert.deepEqual(polls(s.nextDue(T0)).sort(), [...keys].sort());
  for (const key of keys) assert.notEqual(s.info(key), null, JSON.stringify(key));
  const again = TaskScheduler.restore(s.serialize());
  assert.equal(again.size, keys.length);
  assert.equal(again.forget("srv/a\ud800"), true);
  assert.equal(again.info("srv/a\ud800"), null);
  assert.notEqual(again.info("srv/a\udbff"), null);
  s.free();
  again.free();
});
