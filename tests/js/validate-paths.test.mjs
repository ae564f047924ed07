// validateMessage's fast paths (js/core/validate.ts) against the core's own path, on thousands
// of variants of a 2025-11-25 `tasks/get` task and `tasks/list` list:
//
//   node --test tests/js/validate-paths.test.mjs
//
// * text in as bytes (encodeInto, one call, the report back as JSON text) and objects as their
//   JSON.stringify text on the same path must give exactly the reports (verdict, version, kind,
//   every issue's code, path and message) of the wasm-bindgen export itself, which takes the text
//   or the object through JSON.stringify and the full validator;
// * Conversation.observe of a string (the same byte boundary) must give the generated method's
//   reports, message by message, and the same timelines;
// * the byte path's typed fast path must actually be taken, for text and objects alike, for the
//   valid variants (route 1) and for the wrong task members of the invalid ones (route 2: no
//   serde_json::Value), so this test cannot pass by always falling back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { initSync, validateMessage as coreValidate, Conversation as GeneratedConversation, __validateRoute, __validateBuffer } from "../../pkg/mcp_tasks_wasm.js";

// The glue first, alone: its methods as wasm-bindgen generated them, before the package's
// entry (which loads js/core/observe.ts) replaces `observe`.
initSync({ module: readFileSync(new URL("../../pkg/mcp_tasks_wasm_bg.wasm", import.meta.url)) });
const rawObserve = GeneratedConversation.prototype.observe;
const { validateMessage } = await import("../../pkg/node.mjs");

function task(i = 0) {
  return {
    taskId: `task-${i}`,
    status: ["working", "input_required", "completed", "failed", "cancelled"][i % 5],
    statusMessage: "Building target release",
    createdAt: "2025-11-25T10:30:00Z",
    lastUpdatedAt: "2025-11-25T10:30:05Z",
    ttl: 600000,
    pollInterval: 2000,
  };
}

// Values put in place of every member (JSON and what JSON cannot carry).
const EDGES = [
  null, undefined, true, 0, -0, 1, -1, 2.5, 5.0, 1e21, 1e300, NaN, Infinity, -Infinity, 9007199254740993, "", "2.0", "x", "working", "running",
  "cancelled", "input_required", "tasks/get", [], {}, [1], { a: 1 }, [{}], new Date(0), Object.create(null),
  // Timestamps: the strict subset, the edges of chrono's parser and of the calendar.
  "2025-11-25T10:30:00Z", "2025-11-25T10:30:05Z", "2025-11-25T10:29:59.999999999Z", "2025-11-25T10:30:05.000000001Z",
  "2025-11-25T12:30:00+02:00", "2025-11-25T12:30:06+02:00", "2025-11-25T08:30:06-02:00", "2025-11-25T10:30:00z",
  "2025-11-25t10:30:00Z", "2025-11-25 10:30:00Z", "2025-11-25T10:30:00", "2025-11-25T10:30:60Z", "2025-02-29T10:30:00Z",
  "2024-02-29T10:30:00Z", "2000-02-29T23:59:59Z", "1900-02-29T00:00:00Z", "0001-01-01T00:00:00Z", "0000-01-01T00:00:00Z",
  "9999-12-31T23:59:59Z", "2025-13-01T00:00:00Z", "2025-04-31T00:00:00Z", "2025-11-25T24:00:00Z", "2025-11-25T10:30:00+24:00",
  "2025-11-25T10:30:00+23:59", "2025-11-25T10:30:00-00:00", "2025-11-25T10:30:00.Z", "2025-11-25T10:30:00.1234567891Z",
  "2025-11-25T10:30:00+0200", "2025-11-25T10:30:00.123456789+01:00", "2025-11-25T11:30:05.5+01:00", "2025-11-25T10:30:00+01:0",
  "2025-11-25T10:30:00+01:000", "2025-11-25T10:30:00ZZ", "2025-1-25T10:30:00Z", "2025-11-25T10:30:0aZ", "-025-11-25T10:30:00Z",
  "2025-11-25T10:30:00.0000000000Z", "２０２５-11-25T10:30:00Z", "\ud83d", "a\u{FDD0}b",
];

const OPTIONS = [
  undefined, null, {}, { inReplyTo: "tasks/get" }, { inReplyTo: "tasks/list" }, { inReplyTo: "tasks/cancel" },
  { version: "2025-11-25" }, { version: "2026-07-28" }, { inReplyTo: "tasks/get", version: "2025-11-25" },
  { inReplyTo: "tasks/list", version: "2025-11-25", maxIssues: 1 }, { inReplyTo: "tasks/get", maxBytes: 100 },
  { inReplyTo: "tasks/get", headers: {} },
];

const clone = (v) => (v === undefined ? undefined : structuredClone(v));

// Every variant: each member replaced by each edge value, each member removed, unknown members
// added, at every level (the first two tasks of a list).
function variants(base) {
  const out = [base];
  const walk = (path) => {
    let node = base;
    for (const k of path) node = node[k];
    if (Array.isArray(node)) {
      node.slice(0, 2).forEach((_, i) => walk([...path, i]));
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const at = (root, p) => p.reduce((n, k) => n[k], root);
    for (const key of Object.keys(node)) {
      for (const e of EDGES) {
        const copy = structuredClone(base);
        at(copy, path)[key] = e instanceof Date || (typeof e === "object" && e !== null && Object.getPrototypeOf(e) === null) ? e : clone(e);
        out.push(copy);
      }
      const removed = structuredClone(base);
      delete at(removed, path)[key];
      out.push(removed);
      walk([...path, key]);
    }
    for (const extra of ["_meta", "ttlMs", "resultType", "task", "tasks", "taskId", "method", "error", "params", "toJSON"]) {
      if (extra in node) continue;
      const copy = structuredClone(base);
      at(copy, path)[extra] = extra === "toJSON" ? () => ({ jsonrpc: "2.0" }) : {};
      out.push(copy);
    }
  };
  walk([]);
  return out;
}

function check(base) {
  let fastObject = 0;
  let fastText = 0;
  let typedIssues = 0;
  let objectAsText = 0;
  let n = 0;
  for (const message of variants(base)) {
    let text;
    try {
      text = JSON.stringify(message);
    } catch {
      text = undefined;
    }
    for (const options of OPTIONS) {
      n++;
      const opts = () => clone(options);
      const expected = coreValidate(message, opts());
      const got = validateMessage(message, opts());
      // An object crosses as its JSON text: 1 when the typed path found it valid, 2 when it
      // reported its issues (the export, called just before, set 0).
      const objectRoute = __validateRoute();
      assert.deepEqual(got, expected, `object ${text} ${JSON.stringify(options)}`);
      if (objectRoute === 1) fastObject++;
      if (objectRoute === 2) objectAsText++;
      if (typeof text === "string") {
        const expectedText = coreValidate(text, opts());
        const gotText = validateMessage(text, opts());
        // 1: the typed fast path found it valid, 2: it reported the issues (the export, which
        // answered expectedText and any fallback, sets 0).
        const route = __validateRoute();
        assert.deepEqual(gotText, expectedText, `text ${text} ${JSON.stringify(options)}`);
        if (route === 1) fastText++;
        if (route === 2) {
          assert.ok(gotText.issues.length > 0);
          typedIssues++;
        }
      }
    }
  }
  return { n, fastObject, fastText, typedIssues, objectAsText };
}

test("tasks/get: the fast paths give the core's reports", () => {
  const r = check({ jsonrpc: "2.0", id: 3, result: task(0) });
  assert.ok(r.fastObject > 100 && r.fastText > 100 && r.typedIssues > 500 && r.objectAsText > 300, JSON.stringify(r));
});

test("tasks/list: the fast paths give the core's reports", () => {
  const r = check({ jsonrpc: "2.0", id: "a", result: { tasks: [task(1), task(2)], nextCursor: "page-2" } });
  assert.ok(r.fastObject > 100 && r.fastText > 100 && r.typedIssues > 500, JSON.stringify(r));
  const empty = check({ jsonrpc: "2.0", id: 1, result: { tasks: [] } });
  assert.ok(empty.fastObject > 5 && empty.fastText > 5, JSON.stringify(empty));
});

// Objects whose JSON text is not all they are: a null JSON would write for what is not null
// (NaN, Infinity, undefined, functions and symbols in arrays), what JSON.stringify refuses, and
// what it turns into something else (toJSON, Dates, boxed values, class instances, getters).
test("objects: what JSON cannot carry gives the export's report on every path", () => {
  class Point {
    constructor() {
      this.x = NaN;
    }
  }
  const cyclic = { jsonrpc: "2.0", id: 1, result: {} };
  cyclic.result.self = cyclic;
  let deep = { v: null };
  for (let i = 0; i < 100; i++) deep = { d: deep };
  const base = () => ({ jsonrpc: "2.0", id: 1, result: { tasks: [task(0)] } });
  const odd = [
    ...[undefined, NaN, Infinity, -Infinity, () => 1, Symbol("s"), null, 0, new Number(NaN), new Point(), new Date(NaN), { toJSON: () => NaN }].map((e) => {
      const m = base();
      m.result.tasks.push(e);
      return m;
    }),
    ...[NaN, Infinity, undefined, new Number(NaN), new String("x"), new Boolean(false), 10n].map((e) => ({ jsonrpc: "2.0", id: 1, result: { ...task(0), ttl: e } })),
    { jsonrpc: "2.0", id: 1, result: { tasks: [, task(1)] } }, // a hole
    { jsonrpc: "2.0", id: 1, result: { tasks: new Array(3) } },
    { jsonrpc: "2.0", id: 1, result: { ...task(0), ttl: null, statusMessage: "null" } },
    { jsonrpc: "2.0", id: 1, result: { ...task(0), ttl: null, extra: deep } },
    { jsonrpc: "2.0", id: 1, result: { ...task(0), get ttl() { return NaN; } } },
    { jsonrpc: "2.0", id: 1, result: { ...task(0), status: "running", ttl: null } },
    cyclic, 10n, undefined, () => 1, Symbol("m"), NaN, null, 5, true, [null], [NaN], new Date(0), new Point(),
  ];
  let asText = 0;
  for (const message of odd) {
    for (const options of [undefined, { inReplyTo: "tasks/list" }, { inReplyTo: "tasks/get" }, { version: "2025-11-25", maxBytes: 64 }]) {
      const expected = coreValidate(message, clone(options));
      const got = validateMessage(message, clone(options));
      if (__validateRoute() !== 0) asText++;
      let label;
      try {
        label = JSON.stringify(message);
      } catch {
        label = String(typeof message);
      }
      assert.deepEqual(got, expected, `${label} ${JSON.stringify(options)}`);
    }
  }
  assert.ok(asText > 5, `some odd objects still cross as text (${asText})`);
});

test("text: odd strings, sizes and options take the core's path with the same reports", () => {
  const valid = JSON.stringify({ jsonrpc: "2.0", id: 3, result: task(0) });
  const texts = [
    valid, "x", "", " ", "[]", "null", valid.replace("task-0", "t\\ud83d"), valid.replace("task-0", "t\ud83d"),
    valid.replace("task-0", "t\\u0041\\n"), valid.replace("task-0", "\u{FDD0}"), valid.replace("task-0", "é✓😀"),
    `${valid} x`, valid.replace("Building", "x".repeat(70000)), "x".repeat(70000),
  ];
  const options = [...OPTIONS, { maxBytes: 0 }, { maxBytes: 252 }, { maxBytes: 20 }, { inReplyTo: "x".repeat(400) }];
  for (const t of texts) {
    for (const o of options) {
      assert.deepEqual(validateMessage(t, clone(o)), coreValidate(t, clone(o)), `${t.slice(0, 80)} ${JSON.stringify(o)}`);
    }
  }
  // The same report for the same valid answer, a fresh object each time (a caller may keep or
  // change it); another for a different answer.
  const a = validateMessage(valid, { inReplyTo: "tasks/get" });
  const b = validateMessage(valid, { inReplyTo: "tasks/get" });
  assert.deepEqual(b, a);
  assert.notEqual(b, a);
  assert.notDeepEqual(validateMessage(valid), a);
});

test("the buffer moved by a direct call of the public export, or memory grown, between calls: the same reports", () => {
  const valid = JSON.stringify({ jsonrpc: "2.0", id: 3, result: task(0) });
  const bad = valid.replace('"working"', '"running"');
  const opts = { inReplyTo: "tasks/get" };
  const expected = [valid, bad].map((t) => coreValidate(t, opts));
  let moved = 0;
  for (let i = 0; i < 4; i++) {
    // The wrapper learns where the buffer is without a call (the core notes its address).
    const before = __validateBuffer(0);
    const after = __validateBuffer((1 << 20) * (i + 2));
    if (after !== before) moved++;
    assert.deepEqual(validateMessage(bad, opts), expected[1]);
    assert.equal(__validateRoute(), 2);
    assert.deepEqual(validateMessage(valid, opts), expected[0]);
    // A long message grows the buffer (and memory) from inside the wrapper.
    const long = valid.replace("Building", "x".repeat((1 << 20) * (i + 3)));
    assert.deepEqual(validateMessage(long, opts), coreValidate(long, opts));
  }
  assert.ok(moved > 0);
});

test("inReplyTo right across every kind of answer, in every order", () => {
  // The core writes every answer at the start of the buffer, where `inReplyTo` is, and keeps
  // the last valid answer's text. Every kind of answer, in every order, with the same `inReplyTo`
  // and with others of the same length, must give the export's report.
  const valid = JSON.stringify({ jsonrpc: "2.0", id: 3, result: task(0) });
  const texts = [
    valid, // the fast path's "valid, no issues"
    valid.replace('"working"', '"running"'), // the fast path's issues
    valid.replace('"working"', '"runnïng"'), // the same, not ASCII
    "x", // the full validator's report
    valid.replace("task-0", "t\ud83d"), // a lone surrogate (the export)
    JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tasks: [task(1), { ...task(2), ttl: "1" }] } }), // the fast path's issues, a list
  ];
  const replies = ["tasks/get", "tasks/get", "tasks/lst", "tasks/list", "tasks/get"];
  let n = 0;
  for (let i = 0; i < texts.length; i++) {
    for (let j = 0; j < texts.length; j++) {
      for (const reply of replies) {
        for (const t of [texts[i], texts[j], texts[i]]) {
          assert.deepEqual(validateMessage(t, { inReplyTo: reply }), coreValidate(t, { inReplyTo: reply }), `${t.slice(0, 60)} ${reply}`);
          n++;
        }
      }
    }
  }
  assert.ok(n > 500);
});

test("malformed options: the same TypeError on every path", () => {
  const valid = JSON.stringify({ jsonrpc: "2.0", id: 3, result: task(0) });
  for (const o of [{ version: "1" }, { maxBytes: -1 }, { maxBytes: 1.5 }, { maxIssues: "3" }, { inReplyTo: 5 }, { version: null }, 5, "x", [], () => {}]) {
    for (const m of [valid, JSON.parse(valid)]) {
      let expected;
      try {
        coreValidate(m, o);
      } catch (e) {
        expected = e;
      }
      assert.ok(expected instanceof TypeError, `${JSON.stringify(o)}`);
      assert.throws(() => validateMessage(m, o), (e) => e instanceof TypeError && e.message === expected.message);
    }
  }
});

/** The sample conversations (samples/*.jsonl): each file's name and its non-empty lines. */
async function sampleFiles() {
  const fs = await import("node:fs");
  const samples = new URL("../../samples/", import.meta.url);
  return fs
    .readdirSync(samples)
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => ({ f, lines: fs.readFileSync(new URL(f, samples), "utf8").split("\n").filter((l) => l.trim() !== "") }));
}

/**
 * Observes `messages` in order with the package's `Conversation.observe` and, in a twin, with the
 * generated method, without `from` and with each sender: every report and the timelines must be
 * the same. Answers how many messages were compared.
 */
function observeBothWays(Conversation, f, messages, describe) {
  let compared = 0;
  for (const opts of [undefined, { from: "server" }, { from: "client" }]) {
    const a = new Conversation();
    const b = new Conversation({ maxBytes: 1 << 24 });
    for (const message of messages) {
      const got = a.observe(message, opts);
      const expected = rawObserve.call(b, message, opts);
      assert.deepEqual(got, expected, `${f}: ${describe(message)} ${JSON.stringify(opts)}`);
      compared++;
    }
    assert.deepEqual(a.tasks(), b.tasks(), f);
  }
  return compared;
}

test("Conversation.observe of strings: the generated method's reports, message by message", async () => {
  const { Conversation } = await import("../../pkg/node.mjs");
  // The package's entry replaced `observe` on the glue's class.
  assert.equal(Conversation, GeneratedConversation);
  assert.notEqual(Conversation.prototype.observe, rawObserve);
  const files = await sampleFiles();
  assert.ok(files.length >= 4);
  let compared = 0;
  for (const { f, lines } of files) {
    // Each line as it is, then odd texts; with and without `from`.
    const extra = ["x", "", "[]", `${lines[0]} x`, lines[0].replace(/"2\.0"/, '"2.0\\ud83d"'), lines[0].replace(/"2\.0"/, '"2.0\ud83d"'), "x".repeat(70000)];
    compared += observeBothWays(Conversation, f, [...lines, ...extra], (line) => line.slice(0, 80));
  }
  // A conversation with a small maxBytes: the text over it is judged by the generated method.
  const small = new Conversation({ maxBytes: 10 });
  const smallRaw = new Conversation({ maxBytes: 10 });
  for (const t of ["{}", '{"jsonrpc":"2.0","id":1,"result":{}}', "é".repeat(6)]) {
    assert.deepEqual(small.observe(t), rawObserve.call(smallRaw, t));
  }
  for (const o of [{ from: "x" }, { from: null }, 5, []]) {
    assert.throws(() => new Conversation().observe("{}", o), TypeError);
  }
  assert.ok(compared > 50);
});

test("Conversation.observe of objects: the generated method's reports, message by message", async () => {
  const { Conversation } = await import("../../pkg/node.mjs");
  let compared = 0;
  for (const { f, lines } of await sampleFiles()) {
    const objects = lines.flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return [];
      }
    });
    const first = objects[0];
    // Each message as a parsed object, then objects whose JSON text is not all they are.
    const odd = [{ ...first, extra: NaN }, { ...first, extra: [1, undefined] }, { ...first, extra: null }, { ...first, extra: 10n }, { ...first, when: new Date(0) }, [first], 5, undefined];
    const describe = (message) => String(JSON.stringify(message, (_, v) => (typeof v === "bigint" ? `${v}n` : v))).slice(0, 80);
    compared += observeBothWays(Conversation, f, [...objects, ...odd], describe);
  }
  assert.ok(compared > 50);
});
