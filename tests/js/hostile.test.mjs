// Hostile input at the boundary of the built package (docs/decisions/hostile-input.md): bounds
// that hold before any
// copy into wasm memory, lone surrogates, tampered snapshots. Imports the installed package
// (scripts/pack.sh) the way a user does; the wasm memory is read from the glue's `initSync()`,
// which answers the exports of the instance the entry already initialised.
import { test } from "node:test";
import assert from "node:assert/strict";

const main = await import("./.tmp/install/esm.mjs");
const server = await import("./.tmp/install/server.mjs");
const MAIN_DIR = "./.tmp/install/node_modules/mcp-tasks-wasm";
const mainWasm = (await import(`${MAIN_DIR}/mcp_tasks_wasm.js`)).initSync();
const serverWasm = (await import(`${MAIN_DIR}/server/mcp_tasks_wasm.js`)).initSync();

const { validateMessage, Conversation } = main;

// Each entry loads its own module (docs/decisions/byte-boundary.md): the main entry the client
// module (no task store), the server entry the server module. The tests below measure the memory
// of the module whose code they call.
test("two modules: the main entry's has no task store core, the server entry's has; each its own memory", async () => {
  assert.ok(mainWasm.memory instanceof WebAssembly.Memory);
  assert.ok(serverWasm.memory instanceof WebAssembly.Memory);
  assert.notEqual(mainWasm.memory, serverWasm.memory);
  const mainGlue = await import(`${MAIN_DIR}/mcp_tasks_wasm.js`);
  const serverGlue = await import(`${MAIN_DIR}/server/mcp_tasks_wasm.js`);
  assert.equal(mainGlue.TaskServerCore, undefined);
  assert.equal(typeof serverGlue.TaskServerCore, "function");
  assert.equal(main.TaskServerCore, undefined);
  assert.equal(server.TaskServerCore, undefined, "internal: reachable from the glue only");
});

// `maxBytes` is checked before the text is copied into wasm memory.
test("maxBytes refuses a 500 MB string without growing wasm memory", () => {
  const memory = mainWasm.memory;
  // Warm up the allocator with a refused medium string and a small valid message.
  validateMessage("x".repeat(4096), { maxBytes: 1024 });
  validateMessage('{"jsonrpc":"2.0","id":1,"method":"ping"}');
  const before = memory.buffer.byteLength;
  const huge = "x".repeat(5e8);
  const report = validateMessage(huge, { maxBytes: 1024 });
  assert.equal(report.valid, false);
  assert.deepEqual(
    report.issues.map((i) => i.code),
    ["too-large"],
  );
  // The default limit (16 MiB) refuses it too, still without a copy.
  assert.equal(validateMessage(huge).issues[0].code, "too-large");
  const conversation = new Conversation({ maxBytes: 1024 });
  assert.equal(conversation.observe(huge).issues[0].code, "too-large");
  assert.equal(new Conversation().observe(huge).issues[0].code, "too-large");
  assert.equal(memory.buffer.byteLength, before, "wasm memory grew");
});

test("maxBytes counts UTF-8 bytes: a string of few units but many bytes is refused", () => {
  const memory = mainWasm.memory;
  const before = memory.buffer.byteLength;
  // 1000 units, 3000 bytes of UTF-8 (inside a JSON string).
  const text = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { s: "€".repeat(1000) } });
  assert.equal(validateMessage(text, { maxBytes: 2000 }).issues[0].code, "too-large");
  assert.equal(validateMessage(text, { maxBytes: 4000 }).valid, true);
  // An astral character: 2 units, 4 bytes.
  const astral = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { s: "😀".repeat(300) } });
  const bytes = new TextEncoder().encode(astral).length;
  assert.equal(validateMessage(astral, { maxBytes: bytes - 1 }).issues[0].code, "too-large");
  assert.equal(validateMessage(astral, { maxBytes: bytes }).valid, true);
  // An object is measured by its JSON text.
  const obj = { jsonrpc: "2.0", id: 1, method: "ping", params: { s: "x".repeat(5000) } };
  assert.equal(validateMessage(obj, { maxBytes: 1024 }).issues[0].code, "too-large");
  assert.equal(memory.buffer.byteLength, before, "wasm memory grew");
});

// A report lists at most `maxIssues` issues (default 100), then one
// `issues-truncated` warning that counts the rest.
test("a 10 MB invalid message gives a bounded report; maxIssues sets the cap", () => {
  const bad = { taskId: 1, status: "nope", createdAt: "x", lastUpdatedAt: "y" };
  const tasks = Array.from({ length: 100_000 }, () => bad);
  const text = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tasks } });
  assert.ok(text.length > 6e6);
  const options = { version: "2025-11-25", inReplyTo: "tasks/list" };
  const report = validateMessage(text, options);
  assert.equal(report.valid, false);
  assert.equal(report.issues.length, 101);
  const last = report.issues[100];
  assert.equal(last.code, "issues-truncated");
  assert.equal(last.severity, "warning");
  assert.match(last.message, /^\d+ more issue\(s\) \(\d+ error\(s\)\)/);
  assert.ok(JSON.stringify(report).length < 64 * 1024);
  assert.equal(validateMessage(text, { ...options, maxIssues: 3 }).issues.length, 4);
  const conversation = new Conversation({ version: "2025-11-25", maxIssues: 7 });
  conversation.observe({ jsonrpc: "2.0", id: 1, method: "tasks/list", params: {} });
  const observed = conversation.observe(text);
  assert.equal(observed.issues.length, 8);
  assert.equal(observed.issues[7].code, "issues-truncated");
  assert.throws(() => validateMessage(text, { maxIssues: -1 }), TypeError);
  assert.throws(() => new Conversation({ maxIssues: "many" }), TypeError);
});

// Everything a Conversation remembers is bounded; reaching a bound forgets the
// oldest first and says so (history-bound), never a trap.
test("Conversation: 1,429 notifications with a 1 MB taskId each neither trap nor grow memory", () => {
  const memory = mainWasm.memory;
  const conversation = new Conversation({ version: "2025-11-25" });
  const mega = "x".repeat(1 << 20);
  const before = memory.buffer.byteLength;
  for (let i = 0; i < 1429; i++) {
    const report = conversation.observe({
      jsonrpc: "2.0",
      method: "notifications/tasks/status",
      params: {
        taskId: mega + i,
        status: "working",
        createdAt: "2025-11-25T10:00:00Z",
        lastUpdatedAt: "2025-11-25T10:00:00Z",
        ttl: 60000,
      },
    });
    assert.equal(report.index, i);
    assert.ok(report.issues.some((issue) => issue.code === "history-bound"));
  }
  assert.deepEqual(conversation.tasks(), []);
  assert.ok(memory.buffer.byteLength - before < 64 * 2 ** 20, `grew ${memory.buffer.byteLength - before}`);
  // Still usable (not poisoned).
  const r = conversation.observe({ jsonrpc: "2.0", id: 1, method: "ping" });
  assert.equal(r.index, 1429);
});

test("Conversation: 1M unanswered requests and 1M polls stay within the default bounds", () => {
  const memory = mainWasm.memory;
  const conversation = new Conversation({ version: "2025-11-25" });
  const before = memory.buffer.byteLength;
  let forgotten = 0;
  for (let i = 0; i < 1_000_000; i++) {
    const report = conversation.observe(`{"jsonrpc":"2.0","id":${i},"method":"ping"}`);
    if (report.issues.length) forgotten++;
  }
  // maxPending (10 000): each request after the 10 000th forgets one.
  assert.equal(forgotten, 1_000_000 - 10_000);
  const poll = (i) =>
    `{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"t","status":"working","statusMessage":"poll ${i}","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":60000}}`;
  for (let i = 0; i < 1_000_000; i++) conversation.observe(poll(i));
  const [task] = conversation.tasks();
  assert.equal(task.events.length, 1000);
  assert.equal(task.omittedEvents, 999_000);
  assert.equal(task.events.at(-1).statusMessage, "poll 999999");
  assert.ok(memory.buffer.byteLength - before < 64 * 2 ** 20, `grew ${memory.buffer.byteLength - before}`);
});

test("Conversation: bounds are options; malformed ones throw a TypeError", () => {
  const conversation = new Conversation({ maxTasks: 2, maxPending: 1, maxEventsPerTask: 2, maxIdBytes: 8 });
  const note = (r) => r.issues.filter((i) => i.code === "history-bound").map((i) => i.message);
  const status = (taskId) => ({
    jsonrpc: "2.0",
    method: "notifications/tasks",
    params: { taskId, status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttlMs: null },
  });
  assert.deepEqual(note(conversation.observe(status("a"))), []);
  conversation.observe(status("b"));
  assert.match(note(conversation.observe(status("c")))[0], /^task a \(first seen in message 0\) was forgotten \(maxTasks 2\)/);
  assert.deepEqual(conversation.tasks().map((t) => t.taskId), ["b", "c"]);
  assert.match(note(conversation.observe(status("123456789")))[0], /longer than maxIdBytes \(8\)/);
  for (const bad of [{ maxTasks: -1 }, { maxPending: 1.5 }, { maxEventsPerTask: "1" }, { maxIdBytes: null }, { maxKeptBytes: 2 ** 32 }]) {
    assert.throws(() => new Conversation(bad), TypeError, JSON.stringify(bad));
  }
});

// Restore refuses every tampered field with an error naming it.
test("TaskStore.restore and TaskServer.restore refuse tampered snapshots, naming the field", () => {
  const { TaskStore, TaskServer } = server;
  const T0 = Date.UTC(2026, 0, 1);
  const store = new TaskStore();
  const ids = [];
  for (let i = 0; i < 4; i++) ids.push(store.create({ protocolVersion: "2026-07-28" }, { now: T0 }).taskId);
  store.raiseInput(ids[1], { k: { method: "roots/list" } }, null, { host: true, now: T0 + 1 });
  const snap = store.snapshot();
  const text = JSON.stringify(snap);
  const tamper = (edit) => {
    const s = structuredClone(snap);
    edit(s);
    return s;
  };
  const refused = (snapshot, ...names) => {
    for (const Class of [TaskStore, TaskServer]) {
      let thrown;
      try {
        Class.restore(snapshot);
      } catch (e) {
        thrown = e;
      }
      assert.ok(thrown, "a tampered snapshot was restored");
      assert.equal(thrown.name, "TaskStoreError");
      assert.equal(thrown.kind, "invalid_snapshot");
      assert.equal(thrown.code, -32603);
      for (const n of names) assert.ok(thrown.message.includes(n), `${thrown.message} does not name ${n}`);
    }
  };
  // The sequence of the report (as text: a JS number cannot even hold it).
  refused(text.replace(/"sequence":\d+/, '"sequence":18446744073709551615'), "sequence");
  refused(tamper((s) => (s.sequence = 2 ** 53)), "sequence");
  refused(tamper((s) => (s.sequence = 1)), "`seq`", "`sequence` 1");
  // Tampered records.
  refused(tamper((s) => (s.tasks[0].createdAtMs = 8e15)), "tasks[0]", "`createdAtMs`");
  refused(tamper((s) => (s.tasks[0].ttlMs = null)), "`ttlMs` is null", "maxTtlMs");
  refused(tamper((s) => (s.tasks[1].inputs.k.request = 5)), "tasks[1]", '"k"', "not an object");
  for (const id of ["", "x", "x".repeat(1 << 20), ids[0].toUpperCase()]) {
    refused(tamper((s) => (s.tasks[0].id = id)), "tasks[0]", "`id`");
  }
  refused(tamper((s) => (s.cursorKey = "0".repeat(32))), "cursorKey");
  // The running store is untouched, and its own snapshot restores to the same store.
  assert.deepEqual(store.snapshot(), snap);
  assert.deepEqual(TaskStore.restore(snap).snapshot(), snap);
  assert.deepEqual(TaskStore.restore(text).snapshot(), snap);
  // A clock past year 9999 is stamped at its last instant: the snapshot still restores.
  const late = new TaskStore();
  const t = late.create({ protocolVersion: "2025-11-25" }, { now: 8e15 });
  assert.equal(t.v25.createdAt, "9999-12-31T23:59:59.999Z");
  assert.equal(validateMessage({ jsonrpc: "2.0", id: 1, result: t.v25 }, { inReplyTo: "tasks/get", version: "2025-11-25" }).valid, true);
  TaskStore.restore(late.snapshot());
});

// Cursors reveal nothing beyond a position in the caller's own scope, in one
// canonical (lowercase) form.
test("TaskStore.list cursors hold no clear store-wide count and have one form", () => {
  const { TaskStore } = server;
  const store = new TaskStore({ pageSize: 1, maxLiveTasksPerSession: null });
  const now = Date.UTC(2026, 0, 1);
  for (let i = 0; i < 300; i++) store.create({ protocolVersion: "2025-11-25" }, { session: "other", now });
  store.create({ protocolVersion: "2025-11-25" }, { session: "me", now });
  store.create({ protocolVersion: "2025-11-25" }, { session: "me", now });
  const page = store.list(null, { session: "me", now });
  const cursor = page.nextCursor;
  assert.match(cursor, /^[0-9a-f]{32}$/);
  // The first task of "me" is the 301st of the store: 0x12d must not be readable.
  assert.ok(!cursor.includes((301).toString(16).padStart(16, "0")), cursor);
  assert.notEqual(BigInt(`0x${cursor.slice(0, 16)}`), 301n);
  assert.equal(store.list({ cursor }, { session: "me", now }).tasks.length, 1);
  for (const variant of [cursor.toUpperCase(), cursor.slice(0, 31) + cursor[31].toUpperCase()]) {
    if (variant === cursor) continue;
    assert.throws(() => store.list({ cursor: variant }, { session: "me", now }), (e) => e.kind === "invalid_cursor" && e.code === -32602);
  }
  assert.throws(() => store.list({ cursor }, { session: "other", now }), (e) => e.kind === "invalid_cursor");
});

// A lone UTF-16 surrogate (text cut inside an emoji) is JSON that JSON.parse and
// the official schema accept: never "not-json", never a TypeError, stored and answered unchanged.
const LONE = "cut \ud83d"; // a high surrogate without its low half
const LOW = "\ude00 tail"; // a low surrogate alone

test("validateMessage and Conversation accept lone surrogates (escaped, raw, or in an object)", () => {
  const message = {
    jsonrpc: "2.0",
    id: 1,
    result: { content: [{ type: "text", text: LONE }, { type: "text", text: LOW }], isError: false },
  };
  const escaped = JSON.stringify(message); // "\ud83d" escapes
  assert.ok(escaped.includes("\\ud83d"));
  const raw = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${LONE}"}]}}`; // raw lone unit
  assert.equal(raw.isWellFormed(), false);
  for (const m of [escaped, raw, message]) {
    JSON.parse(typeof m === "string" ? m : JSON.stringify(m)); // JSON.parse accepts it
    const r = validateMessage(m, { version: "2025-11-25", inReplyTo: "tools/call" });
    assert.equal(r.valid, true, JSON.stringify(r.issues));
    assert.deepEqual(r.issues, []);
  }
  // Long text takes the encodeInto path.
  const long = JSON.stringify({ ...message, result: { content: [{ type: "text", text: "x".repeat(2000) + LONE }] } });
  assert.equal(validateMessage(long, { version: "2025-11-25", inReplyTo: "tools/call" }).valid, true);
  // A lone surrogate after a backslash is an invalid escape for JSON.parse: still not JSON.
  const broken = `["\\${"\ud83d"}"]`;
  assert.throws(() => JSON.parse(broken), SyntaxError);
  assert.equal(validateMessage(broken).issues[0].code, "not-json");
  // A method holding one is echoed unchanged in the report.
  assert.equal(validateMessage({ jsonrpc: "2.0", id: 2, method: LONE }).method, LONE);
  const conversation = new Conversation({ version: "2025-11-25" });
  conversation.observe({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: { q: LONE } } });
  const observed = conversation.observe(escaped);
  assert.equal(observed.valid, true, JSON.stringify(observed.issues));
});

test("TaskStore stores and answers a result holding lone surrogates unchanged, across snapshots", () => {
  const { TaskStore } = server;
  const store = new TaskStore();
  const now = Date.UTC(2026, 0, 1);
  const v25 = store.create({ protocolVersion: "2025-11-25" }, { now });
  const v26 = store.create({ protocolVersion: "2026-07-28" }, { now });
  const result = { content: [{ type: "text", text: LONE }, { type: "text", text: LOW }, { type: "text", text: "\ufdd0 kept" }], isError: false };
  const done = store.complete(v25.taskId, result, `status ${LONE}`, { host: true, now: now + 1 });
  assert.deepEqual(done.v26.result, result);
  assert.equal(done.v26.statusMessage, `status ${LONE}`);
  assert.deepEqual(store.resultOf(v25.taskId, { now: now + 2 }), { kind: "result", result });
  assert.deepEqual(store.get(v26.taskId, { now }).v26.status, "working");
  store.fail(v26.taskId, { code: -32000, message: LOW, data: { q: LONE } }, null, { host: true, now: now + 1 });
  assert.deepEqual(store.get(v26.taskId, { now: now + 2 }).v26.error, { code: -32000, message: LOW, data: { q: LONE } });
  // Through a snapshot as an object and as JSON text.
  const snap = store.snapshot();
  for (const s of [snap, JSON.stringify(snap)]) {
    const restored = TaskStore.restore(s);
    assert.deepEqual(restored.resultOf(v25.taskId, { now: now + 3 }), { kind: "result", result });
    assert.deepEqual(restored.snapshot(), snap);
  }
});

test("TaskServer.handle answers requests holding lone surrogates; tasks/result answers the result unchanged", () => {
  const { TaskServer } = server;
  const srv = new TaskServer();
  const now = Date.UTC(2026, 0, 1);
  const ctx = { protocolVersion: "2025-11-25", now };
  const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: { q: LONE }, task: { ttl: 60000 } } };
  const start = srv.beginToolCall(call, ctx, "optional");
  assert.equal(start.kind, "task");
  const result = { content: [{ type: "text", text: LONE }], isError: false };
  assert.equal(srv.finishToolCall(start.taskId, { result }, now + 1).kind, "stored");
  const answer = srv.handle({ jsonrpc: "2.0", id: 2, method: "tasks/result", params: { taskId: start.taskId } }, ctx);
  assert.equal(answer.kind, "response");
  assert.equal(answer.message.result.content[0].text, LONE);
  // A request whose own members hold one is answered, not thrown.
  const odd = srv.handle({ jsonrpc: "2.0", id: LONE, method: "tasks/get", params: { taskId: LOW } }, ctx);
  assert.equal(odd.kind, "response");
  assert.equal(odd.message.id, LONE);
  assert.equal(odd.message.error.code, -32602);
});

// An object's member NAMED with a lone surrogate or U+FDD0 (carried inside the core as U+FDD0 +
// hex, or a doubled U+FDD0) may hold null: the check for what JSON.stringify turned into null
// (NaN, Infinity, undefined) looks the member up in the JS object by its JS name. It once looked
// it up by the carried name, missed it, and refused a real null as "JSON would send null here".
test("a member named with a lone surrogate or U+FDD0 may hold null; a NaN there is still named", () => {
  const { TaskScheduler, convertTask } = main;
  const { TaskStore } = server;
  const names = [LONE, LOW, "\ufdd0", `a${LONE}b`];
  const task = (extra) => ({ taskId: "t1", status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttl: null, ...extra });
  for (const name of names) {
    const ok = convertTask(task({ [name]: null }), "2026-07-28");
    assert.deepEqual(ok.issues, [], JSON.stringify(name));
    assert.equal(ok.ok, true);
    const lossy = convertTask(task({ [name]: NaN }), "2026-07-28");
    assert.equal(lossy.ok, false);
    assert.deepEqual(lossy.issues.map((i) => [i.code, i.path]), [["not-json-value", `/${name}`]]);
  }
  const sched = new TaskScheduler({ seed: 1 });
  sched.track("a", {}, 0);
  const nulls = Object.fromEntries(names.map((n) => [n, null]));
  assert.deepEqual(sched.observe("a", task(nulls), 10), [{ type: "taskStatus", key: "a", from: null, status: "working" }]);
  assert.throws(() => sched.observe("a", task({ [LONE]: NaN }), 10), TypeError);
  // The store: a result holding such members, completed, read back and restored from a snapshot
  // object (which crosses as an object, not as text).
  const store = new TaskStore();
  const now = Date.UTC(2026, 0, 1);
  const t = store.create({ protocolVersion: "2025-11-25" }, { now });
  const result = { content: [], structuredContent: { ...nulls, nested: [nulls] }, isError: false };
  store.complete(t.taskId, result, null, { host: true, now: now + 1 });
  assert.deepEqual(store.resultOf(t.taskId, { now: now + 2 }), { kind: "result", result });
  const restored = TaskStore.restore(store.snapshot());
  assert.deepEqual(restored.resultOf(t.taskId, { now: now + 3 }), { kind: "result", result });
});

// A status message the core derives (failWithToolResult without one: "Tool reported an error:
// <the result's first text>") crosses back once, its carried surrogates written back once: a
// genuine U+FDD0 followed by the hex digits of a surrogate stays what it was (written back
// twice, it became a lone surrogate in the write's answer, not in `get`'s).
test("a derived status message holding U+FDD0 + hex and lone surrogates is answered as it was", () => {
  const { TaskStore } = server;
  const store = new TaskStore();
  const now = Date.UTC(2026, 0, 1);
  const text = `\ufdd0d800 and ${LONE} and ${LOW}`;
  const expected = `Tool reported an error: ${text}`;
  const t = store.create({ protocolVersion: "2025-11-25" }, { now });
  const failed = store.failWithToolResult(t.taskId, { content: [{ type: "text", text }], isError: true }, null, { host: true, now: now + 1 });
  assert.equal(failed.v25.statusMessage, expected);
  assert.equal(failed.v26.statusMessage, expected);
  assert.equal(store.get(t.taskId, { host: true, now: now + 2 }).v25.statusMessage, expected);
});

// Seeded JSON-like values for the object/text differentials below: `value(depth)` is a leaf, an
// array of under `items` values or an object of under `members` members named from `names`
// (each defined as an own property, so "__proto__" is a member like any other); `put` defines
// one more member on an object the same way.
function jsonish(seed, { names, leaves, items, members }) {
  const rand = (n) => { seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0; return seed % n; };
  const put = (o, name, v) => Object.defineProperty(o, name, { value: v, enumerable: true, configurable: true, writable: true });
  const name = () => names[rand(names.length)];
  const value = (depth) => {
    const k = depth > 3 ? 0 : rand(4);
    if (k === 1) return Array.from({ length: rand(items) }, () => value(depth + 1));
    if (k === 2) {
      const o = {};
      for (let i = rand(members); i > 0; i--) put(o, name(), value(depth + 1));
      return o;
    }
    return leaves[rand(leaves.length)];
  };
  return { rand, put, name, value };
}

// The same value given as an object or as its JSON text gets the same answer from every entry
// point that takes both: only the object path looks back into the JS value (for what
// JSON.stringify turned into null), so a mismatch is a bug of that path. Seeded values with
// hostile member names (lone surrogates, U+FDD0, "__proto__", "toJSON"-free) and nulls anywhere.
test("an object and its JSON text get the same answer (validateMessage, convertTask, Conversation)", () => {
  const { convertTask, convertCreateTaskResult } = main;
  const { rand, put, name, value } = jsonish(0x9e3779b9, {
    names: ["a", "taskId", "status", "ttl", "\ud800", "\udfff", "x\ud83dy", "\ufdd0", "\ufdd0d800", "__proto__", "", "~1/", "\u0000"],
    leaves: [null, 0, -1.5, 1e21, "s", "\ud83d", "\ufdd0", true, "working"],
    items: 4,
    members: 5,
  });
  const task = () => {
    const t = { taskId: "t1", status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttl: null };
    for (let i = rand(4); i > 0; i--) put(t, name(), value(1));
    return t;
  };
  for (let round = 0; round < 400; round++) {
    const t = task();
    const text = JSON.stringify(t);
    const version = round % 2 ? "2026-07-28" : "2025-11-25";
    assert.deepEqual(convertTask(t, version), convertTask(text, version), text);
    const created = { task: t, _meta: value(1) };
    assert.deepEqual(convertCreateTaskResult(created, version), convertCreateTaskResult(JSON.stringify(created), version), JSON.stringify(created));
    const message = round % 3 === 0
      ? { jsonrpc: "2.0", id: round, result: t }
      : { jsonrpc: "2.0", id: round, method: "tools/call", params: { name: "t", arguments: value(0) } };
    const mtext = JSON.stringify(message);
    assert.deepEqual(validateMessage(message), validateMessage(mtext), mtext);
    const a = new Conversation(), b = new Conversation();
    assert.deepEqual(a.observe(message), b.observe(mtext), mtext);
  }
});

// The same differential for the server side: TaskServer.handle of read-only requests (one server,
// so task ids match) and the restores of TaskServer and TaskScheduler, each given an object and
// its JSON text.
test("TaskServer.handle and the restores answer an object as they answer its JSON text", () => {
  const { TaskServer } = server;
  const { TaskScheduler } = main;
  const { rand, name, value } = jsonish(0x2545f491, {
    names: ["a", "taskId", "cursor", "_meta", "\ud800", "x\ud83dy", "\ufdd0", "\ufdd0d800", "__proto__", ""],
    leaves: [null, 0, 7, "s", "\udc00", "\ufdd0", true],
    items: 3,
    members: 4,
  });
  const now = Date.UTC(2026, 0, 1);
  const srv = new TaskServer();
  const sched = new TaskScheduler({ seed: 7 });
  const ids = [];
  for (let i = 0; i < 2; i++) {
    const call = { jsonrpc: "2.0", id: 100 + i, method: "tools/call", params: { name: "t", arguments: value(0), task: { ttl: 60_000 } } };
    const start = srv.beginToolCall(call, { protocolVersion: "2025-11-25", now, session: "s" }, "optional");
    assert.equal(start.kind, "task");
    ids.push(start.taskId);
    if (i === 0) srv.finishToolCall(start.taskId, { result: { content: [], structuredContent: value(0), isError: false } }, now + 1);
    sched.track(`k${i}\ud800`, { task: { taskId: start.taskId, status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttl: null, extra: value(1) } }, now);
  }
  const methods = ["tasks/get", "tasks/list", "tasks/result", "ping", "tasks/unknown"];
  for (let round = 0; round < 300; round++) {
    const params = rand(3) === 0 ? value(1) : { ...(rand(2) ? { taskId: ids[rand(2)] } : {}), _meta: value(1), ...(rand(4) === 0 ? { [name()]: value(1) } : {}) };
    const request = { jsonrpc: "2.0", id: rand(2) ? round : `r${round}\ud800`, method: methods[rand(methods.length)], params };
    const text = JSON.stringify(request);
    const ctx = { protocolVersion: "2025-11-25", session: "s", now: now + 2 };
    assert.deepEqual(srv.handle(request, ctx), srv.handle(text, ctx), text);
  }
  const snap = srv.snapshot();
  assert.deepEqual(TaskServer.restore(snap).snapshot(), TaskServer.restore(JSON.stringify(snap)).snapshot());
  assert.deepEqual(TaskServer.restore(snap).snapshot(), snap);
  const state = sched.serialize();
  assert.deepEqual(TaskScheduler.restore(state).serialize(), TaskScheduler.restore(JSON.stringify(state)).serialize());
  assert.deepEqual(TaskScheduler.restore(state).serialize(), state);
});

// maxRequestBytes (default 16 MiB): every argument of TaskStore and TaskServer is measured
// before it is copied into wasm memory.
test("TaskServer.handle answers a 500 MB request with -32600 without growing wasm memory", () => {
  const { TaskServer, TaskStore } = server;
  const memory = serverWasm.memory;
  const srv = new TaskServer();
  const now = Date.UTC(2026, 0, 1);
  const ctx = { protocolVersion: "2025-11-25", now };
  // Warm up the allocator with a normal request and a refused medium one.
  srv.handle({ jsonrpc: "2.0", id: 1, method: "tasks/list", params: {} }, ctx);
  new TaskServer({ maxRequestBytes: 1024 }).handle("x".repeat(4096), ctx);
  const before = memory.buffer.byteLength;
  const huge = `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"${"x".repeat(5e8)}"}}`;
  const out = srv.handle(huge, ctx);
  assert.equal(out.kind, "response");
  assert.deepEqual(out.message.id, null);
  assert.equal(out.message.error.code, -32600);
  assert.match(out.message.error.message, /^Invalid Request: `request` is larger than maxRequestBytes \(16777216 bytes of UTF-8\)$/);
  assert.deepEqual(out.message.error.data, { maxRequestBytes: 16777216 });
  // beginToolCall and planToolCall reject it with the same response.
  assert.deepEqual(srv.beginToolCall(huge, ctx, "optional"), { kind: "reject", response: out.message });
  assert.deepEqual(srv.planToolCall(huge, ctx, "optional"), { kind: "reject", response: out.message });
  // Store methods throw a TaskStoreError naming the argument.
  const store = new TaskStore();
  const t = store.create({ protocolVersion: "2026-07-28" }, { now });
  const tooLarge = (what) => (e) =>
    e.name === "TaskStoreError" && e.kind === "too_large" && e.code === -32602 && e.message.startsWith(`\`${what}\` is larger than maxRequestBytes`);
  const big = "x".repeat(5e8);
  assert.throws(() => store.get(big, { now }), tooLarge("taskId"));
  assert.throws(() => store.get(t.taskId, { session: big, now }), tooLarge("context.session"));
  assert.throws(() => store.list({ cursor: big }, { now }), tooLarge("page.cursor"));
  assert.throws(() => store.setStatus(t.taskId, "working", big, { host: true, now }), tooLarge("message"));
  assert.throws(() => store.create({ protocolVersion: "2026-07-28", statusMessage: big }, { now }), tooLarge("params.statusMessage"));
  // Objects are measured by their JSON text (JSON.stringify runs in JS, before any copy).
  const mid = "x".repeat(17 << 20);
  assert.throws(() => store.complete(t.taskId, { content: [{ type: "text", text: mid }] }, null, { host: true, now }), tooLarge("result"));
  assert.throws(() => TaskStore.restore(big), (e) => e.kind === "too_large" && /^`snapshot` is larger than maxSnapshotBytes \(268435456 /.test(e.message));
  assert.throws(() => srv.finishToolCall(t.taskId, { result: { content: [{ type: "text", text: mid }] } }, now), tooLarge("outcome.result"));
  assert.throws(() => TaskServer.checkInputRequests(huge, { k: { method: "roots/list" } }), tooLarge("request"));
  assert.equal(memory.buffer.byteLength, before, "wasm memory grew");
  // Nothing was poisoned: the same objects still answer.
  assert.equal(store.get(t.taskId, { now }).status, "working");
  assert.equal(srv.handle({ jsonrpc: "2.0", id: 2, method: "tasks/list", params: {} }, ctx).kind, "response");
});

test("maxRequestBytes is an option (null: no limit), kept in snapshots; maxSnapshotBytes bounds restore", () => {
  const { TaskServer, TaskStore } = server;
  const now = Date.UTC(2026, 0, 1);
  const ctx = { protocolVersion: "2025-11-25", now };
  const srv = new TaskServer({ maxRequestBytes: 200 });
  const small = { jsonrpc: "2.0", id: 7, method: "tasks/get", params: { taskId: "0".repeat(32) } };
  assert.ok(JSON.stringify(small).length < 200);
  assert.equal(srv.handle(small, ctx).message.error.code, -32602); // read: not found
  const large = { ...small, params: { ...small.params, pad: "x".repeat(200) } };
  assert.equal(srv.handle(large, ctx).message.error.code, -32600);
  // UTF-8 bytes, not UTF-16 units: 40 "€" are 40 units but 120 bytes.
  assert.equal(srv.handle({ ...small, params: { ...small.params, pad: "€".repeat(40) } }, ctx).message.error.code, -32600);
  assert.equal(srv.snapshot().config.maxRequestBytes, 200);
  assert.equal(TaskServer.restore(srv.snapshot()).handle(large, ctx).message.error.code, -32600);
  const unlimited = new TaskServer({ maxRequestBytes: null });
  assert.equal(unlimited.snapshot().config.maxRequestBytes, null);
  assert.equal(unlimited.handle({ ...small, params: { ...small.params, pad: "x".repeat(17 << 20) } }, ctx).message.error.code, -32602);
  assert.equal(new TaskStore().snapshot().config.maxRequestBytes, 16 * 1024 * 1024);
  // A snapshot written before the option existed restores with the default.
  const old = new TaskStore().snapshot();
  delete old.config.maxRequestBytes;
  assert.equal(TaskStore.restore(old).snapshot().config.maxRequestBytes, 16 * 1024 * 1024);
  const text = JSON.stringify(new TaskStore().snapshot());
  assert.throws(() => TaskStore.restore(text, { maxSnapshotBytes: 10 }), (e) => e.kind === "too_large" && e.message.includes("`snapshot`") && e.data.maxSnapshotBytes === 10);
  assert.throws(() => TaskServer.restore(text, { maxSnapshotBytes: 10 }), (e) => e.kind === "too_large");
  TaskStore.restore(text, { maxSnapshotBytes: text.length });
  TaskStore.restore(text, { maxSnapshotBytes: null });
  for (const bad of [{ maxRequestBytes: -1 }, { maxRequestBytes: "16" }, { maxRequestBytes: 1.5 }]) {
    assert.throws(() => new TaskStore(bad), TypeError, JSON.stringify(bad));
    assert.throws(() => new TaskServer(bad), TypeError, JSON.stringify(bad));
  }
  assert.throws(() => TaskStore.restore(text, { maxSnapshotBytes: "x" }), TypeError);
});

// The scheduler's state is read with a bound too (256 MiB), before any copy into wasm memory.
test("TaskScheduler.restore refuses a state text over 256 MiB without growing wasm memory", () => {
  const memory = mainWasm.memory;
  const { TaskScheduler } = main;
  const small = new TaskScheduler().serialize();
  TaskScheduler.restore(small).free(); // warm up
  const before = memory.buffer.byteLength;
  const huge = " ".repeat(300 * 2 ** 20) + JSON.stringify(small);
  assert.throws(
    () => TaskScheduler.restore(huge),
    (e) => e.name === "TaskSchedulerError" && e.kind === "invalid_state" && /more than the limit/.test(e.message),
  );
  assert.equal(memory.buffer.byteLength, before, "wasm memory grew");
  // The same state, small, still restores.
  TaskScheduler.restore(JSON.stringify(small)).free();
});

test("an object whose member is named like serde_json's raw-value token is read as the object it is", () => {
  // Until 2026-12-01 serde_json's raw_value feature read an object whose first member is named
  // "$serde_json::private::RawValue" as the JSON text that member holds: this message, which is
  // not JSON-RPC, was reported valid (as the response it wraps).
  const TOKEN = "$serde_json::private::RawValue";
  const inner = { jsonrpc: "2.0", id: 1, result: { content: [] } };
  const wrapped = { [TOKEN]: JSON.stringify(inner) };
  for (const message of [JSON.stringify(wrapped), wrapped]) {
    const report = validateMessage(message);
    assert.equal(report.valid, false);
    assert.equal(report.rpc, "invalid");
    assert.ok(report.issues.some((i) => i.code === "jsonrpc-version" && i.path === ""), JSON.stringify(report.issues));
  }
  assert.equal(validateMessage(JSON.stringify(inner)).valid, true);
  // Deeper in a message, the member is kept as it is: a tool result's structuredContent that is
  // such an object is an object (valid), not the number its member spells.
  const result = { jsonrpc: "2.0", id: 2, result: { content: [], structuredContent: { [TOKEN]: "5" } } };
  const conv = new Conversation({ version: "2025-11-25" });
  assert.equal(conv.observe({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "t" } }).valid, true);
  assert.deepEqual(conv.observe(JSON.stringify(result)).issues, []);
  const bad = { ...result, result: { content: [], structuredContent: { [TOKEN]: "[5]" } } };
  assert.equal(validateMessage(JSON.stringify(bad)).valid, true, "structuredContent is the object, not the array [5]");
});

test("convertTask and convertCreateTaskResult keep every number as given (floats read exactly)", () => {
  const nums = [522966.75866770605, 123.45678901234567, 0.1 + 0.2, 1 / 3, 2 / 3 * 1000, 5e-324];
  const task = {
    taskId: "t", status: "working", createdAt: "2025-11-25T10:30:00Z",
    lastUpdatedAt: "2025-11-25T10:30:00Z", ttl: 1000, _meta: { nums },
  };
  for (const given of [task, JSON.stringify(task)]) {
    const v26 = main.convertTask(given, "2026-07-28");
    assert.equal(v26.ok, true, JSON.stringify(v26.issues));
    assert.deepEqual(v26.value._meta.nums, nums);
    assert.deepEqual(main.convertTask(v26.value, "2025-11-25").value, task);
  }
  const created = main.convertCreateTaskResult({ task }, "2026-07-28");
  assert.deepEqual(created.value._meta.nums, nums);
});
