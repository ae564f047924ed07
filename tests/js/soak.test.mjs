// Bounded soak of the built package (docs/decisions/hostile-input.md): (a) a seeded, time-boxed
// fuzz of every export of
// the wasm module of both entries (the classes and functions of mcp_tasks_wasm.d.ts) with
// random JSON-ish values, hostile strings, wrong types, NaN, BigInt and cycles: every call
// returns or throws a TypeError or a TaskStoreError, never a wasm trap, and the instance keeps
// working; (b) 1M hostile messages or operations each to Conversation, TaskServer.handle and
// TaskScheduler, with the documented bounds asserted.
//
//   SOAK_SEED   the fuzz seed (default: random; printed in every failure message)
//   SOAK_MS     the fuzz time box in ms, shared by every entry point (default 20000)
//   SOAK_N      messages or operations per component in (b) (default 1000000)
//
// Imports the installed package (scripts/pack.sh) the way a user does; the wasm memory is read
// from the glue's `initSync()`, which answers the exports of the instance the entry initialised.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const main = await import("./.tmp/install/esm.mjs");
const server = await import("./.tmp/install/server.mjs");
const MAIN_DIR = new URL("./.tmp/install/node_modules/mcp-tasks-wasm/", import.meta.url);
// The glue of each entry's module: its internal exports (the byte boundary's __validate*,
// TaskServerCore, listPosition, ToolArgumentsSchema) are not exported by the entries, but they
// are exports of the module all the same, fuzzed here through the glue.
const mainGlue = await import(new URL("mcp_tasks_wasm.js", MAIN_DIR).href);
const serverGlue = await import(new URL("server/mcp_tasks_wasm.js", MAIN_DIR).href);
const mainWasm = mainGlue.initSync();
const serverWasm = serverGlue.initSync();

const SEED = process.env.SOAK_SEED ? Number(process.env.SOAK_SEED) : Math.floor(Math.random() * 2 ** 32);
const SOAK_MS = Number(process.env.SOAK_MS ?? 20_000);
const SOAK_N = Number(process.env.SOAK_N ?? 1_000_000);
const T0 = Date.UTC(2026, 0, 1);
const MiB = 2 ** 20;

// ---- seeded randomness and hostile values ------------------------------------------------------

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

// Made once: a string over the default 16 MiB limits, and deep JSON text.
const OVER_16_MIB = "x".repeat(16 * MiB + 1);
const DEEP_TEXT = "[".repeat(5000) + "]".repeat(5000);
const deepObject = (n) => {
  let v = {};
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
};
const DEEP_OBJECT = deepObject(300);
class HostileError extends Error {}

function values(rand) {
  const int = (n) => Math.floor(rand() * n);
  const pick = (a) => a[int(a.length)];
  const strings = [
    "",
    "x",
    "\ud83d",
    "\ude00",
    "cut \ud83d",
    "\ud83d\ude00",
    "\\",
    "\\ud83d",
    "\u0000",
    "\ufdd0",
    "\ufdd0d83d",
    "€".repeat(100),
    "0".repeat(32),
    "f".repeat(32),
    "A".repeat(32),
    "2025-11-25",
    "2026-07-28",
    "working",
    "input_required",
    "completed",
    "failed",
    "cancelled",
    "tasks/get",
    "tasks/result",
    "tasks/list",
    "tasks/cancel",
    "tasks/update",
    "tools/call",
    "forbidden",
    "optional",
    "required",
    "null",
    "{",
    '{"jsonrpc":"2.0"',
    DEEP_TEXT,
  ];
  const str = () => {
    switch (int(8)) {
      case 0:
        return "x".repeat(int(4096));
      case 1:
        return String.fromCharCode(...Array.from({ length: int(40) }, () => int(0x10000)));
      case 2:
        return rand() < 0.05 ? OVER_16_MIB : "y".repeat(int(70_000));
      default:
        return pick(strings);
    }
  };
  const num = () =>
    pick([0, -0, 1, -1, 1.5, NaN, Infinity, -Infinity, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 53 - 1, 2 ** 64, -(2 ** 53), 1e308, Number.EPSILON, T0, T0 + int(1e7), int(1000)]);
  const any = (depth) => {
    switch (int(depth > 3 ? 9 : 14)) {
      case 0:
        return undefined;
      case 1:
        return null;
      case 2:
        return rand() < 0.5;
      case 3:
      case 4:
        return num();
      case 5:
      case 6:
        return str();
      case 7:
        return pick([10n, 2n ** 70n, Symbol("s"), () => 1, new Date(NaN), new Map([[1, 2]]), /re/]);
      case 8: {
        const cyc = { a: 1 };
        cyc.self = cyc;
        return pick([cyc, DEEP_OBJECT, [undefined], [NaN], { toJSON: () => undefined }, { toJSON() { throw new HostileError("toJSON"); } }, { get x() { throw new HostileError("getter"); } }]);
      }
      case 9:
      case 10:
        return Array.from({ length: int(5) }, () => any(depth + 1));
      default: {
        const o = {};
        const keys = ["jsonrpc", "id", "method", "params", "result", "error", "taskId", "status", "task", "ttl", "ttlMs", "_meta", "code", "message", "data", "createdAt", "lastUpdatedAt", "pollInterval", "content", "isError", "inputRequests", "inputResponses", "cursor", "session", "now", "protocolVersion", "kind", "requestId", str()];
        for (let i = int(6); i > 0; i--) o[pick(keys)] = any(depth + 1);
        return o;
      }
    }
  };
  return { int, pick, str, num, any: () => any(0) };
}

// Plausible shapes with hostile parts, so calls get past the first check.
function shapes(v) {
  const { int, pick, any, str, num } = v;
  const version = () => pick(["2025-11-25", "2026-07-28", "2025-11-25", "2026-07-28", any()]);
  const maybe = (f) => (int(3) === 0 ? any() : f());
  const meta = () => ({ "io.modelcontextprotocol/protocolVersion": version() });
  const task = () => ({
    taskId: maybe(() => pick(["t1", "0".repeat(32), str()])),
    status: maybe(() => pick(["working", "input_required", "completed", "failed", "cancelled"])),
    createdAt: maybe(() => pick(["2026-01-01T00:00:00Z", "2025-11-25T10:00:00.000Z", str()])),
    lastUpdatedAt: maybe(() => pick(["2026-01-01T00:00:01Z", str()])),
    ttl: maybe(() => pick([60000, null, num()])),
    ttlMs: maybe(() => pick([60000, null, num()])),
    pollInterval: maybe(num),
    pollIntervalMs: maybe(num),
    statusMessage: maybe(str),
    result: maybe(() => ({ content: [{ type: "text", text: str() }] })),
    error: maybe(() => ({ code: num(), message: str() })),
    inputRequests: maybe(() => ({ [str()]: { method: pick(["elicitation/create", "sampling/createMessage", "roots/list", str()]), params: any() } })),
  });
  const message = () => {
    const method = pick(["tasks/get", "tasks/result", "tasks/list", "tasks/cancel", "tasks/update", "tools/call", "notifications/tasks/status", "notifications/tasks", "initialize", "ping", str()]);
    const params = maybe(() => ({
      taskId: maybe(() => pick(["0".repeat(32), str()])),
      cursor: maybe(str),
      name: maybe(() => "tool"),
      arguments: maybe(() => ({ q: str() })),
      task: maybe(() => ({ ttl: num() })),
      inputResponses: maybe(() => ({ [str()]: any() })),
      _meta: maybe(meta),
      ...(int(3) === 0 ? task() : {}),
    }));
    switch (int(5)) {
      case 0:
        return { jsonrpc: "2.0", method, params };
      case 1:
        return { jsonrpc: "2.0", id: maybe(() => int(100)), result: int(2) ? task() : { task: task(), tasks: [task()], ...task() } };
      case 2:
        return { jsonrpc: "2.0", id: maybe(() => int(100)), error: { code: maybe(() => -32602), message: maybe(str) } };
      case 3:
        return JSON.stringify({ jsonrpc: "2.0", id: int(100), method, params }).slice(0, int(200) + 1);
      default:
        return { jsonrpc: maybe(() => "2.0"), id: maybe(() => pick([int(100), str(), null, 1.5])), method, params };
    }
  };
  const ctx = () => maybe(() => ({ session: maybe(() => pick([null, "s1", "s2"])), host: maybe(() => rand01(int)), now: maybe(() => T0 + int(1e6)) }));
  const serverCtx = () => maybe(() => ({ protocolVersion: version(), session: maybe(() => pick([null, "s1"])), declared: maybe(() => ({ list: true, cancel: int(2) === 0, toolCalls: true })), now: maybe(() => T0 + int(1e6)) }));
  const optNow = () => maybe(() => pick([undefined, null, T0 + int(1e6)]));
  const msg = () => maybe(() => pick([undefined, null, str()]));
  const outcome = () => maybe(() => (int(2) ? { result: maybe(() => ({ content: [{ type: "text", text: str() }], isError: maybe(() => int(2) === 0) })) } : { error: maybe(() => ({ code: num(), message: str(), data: any() })) }));
  return { version, task, message, ctx, serverCtx, optNow, msg, outcome, maybe };
}
const rand01 = (int) => int(2) === 0;

// ---- the fuzz ----------------------------------------------------------------------------------

/**
 * The classes and functions of an entry's wasm module, from its generated .d.ts, and of the JS
 * classes over it (`extra` declarations, e.g. the server entry's store.d.ts: TaskStore and its
 * subclass TaskServer, with the methods they inherit).
 */
function declared(dts, extra = []) {
  const functions = [];
  const classes = {};
  const parents = {};
  for (const file of [dts, ...extra]) {
    const text = readFileSync(file, "utf8");
    if (file === dts) functions.push(...[...text.matchAll(/^export function (\w+)\(/gm)].map((m) => m[1]).filter((f) => f !== "initSync"));
    for (const m of text.matchAll(/^(?:export (?:declare )?|declare )class (\w+)(?: extends (\w+))? \{([\s\S]*?)^\}/gm)) {
      classes[m[1]] = [...m[3].matchAll(/^ {4}(static )?(\w+)[<(]/gm)].map((x) => (x[1] ? `static ${x[2]}` : x[2])).filter((n) => n !== "constructor" && n !== "free");
      if (m[2]) parents[m[1]] = m[2];
    }
  }
  // Inherited methods may have a fuzzer of the subclass's own (the same code on another instance).
  const inherited = Object.fromEntries(Object.entries(parents).map(([c, p]) => [c, classes[p] ?? []]));
  return { functions, classes, inherited };
}

/** A failure message carrying the seed. */
const where = (what, detail) => `${what} (SOAK_SEED=${SEED}): ${detail}`;

/** Distinct failures of the run ("entry point: error"), reported together at the end. */
const failures = new Map();
function failed(what, detail) {
  const key = `${what.replace(/ \(call \d+\)/, "")}: ${detail.slice(0, 160)}`;
  if (!failures.has(key)) failures.set(key, what);
}

/**
 * Calls `f`; a result, a TypeError, a TaskStoreError or TaskSchedulerError (with its `kind`) or
 * the value's own HostileError (a throwing getter or toJSON) is fine; anything else, a wasm trap
 * above all, is a failure.
 */
function survive(what, f) {
  try {
    f();
    return "ok";
  } catch (e) {
    const typed =
      e instanceof TypeError ||
      e instanceof HostileError ||
      (e instanceof Error && e.name === "TaskStoreError" && Number.isInteger(e.code) && typeof e.kind === "string") ||
      (e instanceof Error && e.name === "TaskSchedulerError" && typeof e.kind === "string") ||
      // MemoryStorageCore's sequence once a record holds seq 2^53 - 1 (no stack overflow, also a RangeError).
      (e instanceof RangeError && /^the sequence is exhausted/.test(e.message));
    const trap = e instanceof Error && /unreachable|recursive use|null pointer|out of bounds|RuntimeError/i.test(`${e.name} ${e.message}`);
    if (!typed || trap) {
      failed(what, e instanceof Error ? `${e.constructor.name} ${e.name}: ${e.message.slice(0, 200)}` : `non-Error thrown: ${String(e).slice(0, 200)}`);
    }
    return "threw";
  }
}

/**
 * Every entry point of one entry, each with an argument maker and a sanity check that must keep
 * working on the same instance after hostile calls.
 */
function entryPoints(entry, rand) {
  const v = values(rand);
  const s = shapes(v);
  const { any, int, pick, str } = v;
  const { validateMessage, convertTask, convertCreateTaskResult, rules, Conversation, TaskScheduler, TaskStore, TaskServer } = entry;
  const conv = new Conversation({ version: "2025-11-25" });
  const sched = new TaskScheduler({ seed: 1 });
  const keys = ["k0", "k1", "k2"];
  for (const k of keys) sched.track(k, { version: "2025-11-25" }, T0);
  // A tool's inputSchema compiled by the core (TaskHost compiles one per tool): recursive, with
  // every kind of keyword, so hostile arguments reach each of them.
  const { ToolArgumentsSchema } = entry;
  const rich = { type: "object", $defs: { n: { anyOf: [{ type: "object", properties: { c: { $ref: "#/$defs/n" } }, allOf: [false] }, { type: "object", properties: { c: { $ref: "#/$defs/n" } } }] } }, properties: { c: { $ref: "#/$defs/n" }, s: { type: "string", maxLength: 3 }, l: { type: "array", uniqueItems: true, prefixItems: [{ const: 1 }], items: { multipleOf: 0.5 } }, o: { minProperties: 1, not: { required: ["x"] } } }, additionalProperties: { oneOf: [{ type: "integer" }, { enum: [null, "a"] }] } };
  const toolSchema = () => pick([
    rich,
    { type: "object", properties: { a: { $ref: pick(["#", "#/properties", "#/$defs/x", "http://x", str()]) } } },
    { type: pick(["object", "strng", any()]), required: pick([["a"], "a", any()]), minLength: pick([1, -1, 0.5, any()]) },
  ]);
  // (The server module's only: the client module has no inputSchema checker.)
  const toolArgs = ToolArgumentsSchema && new ToolArgumentsSchema("t", rich, 10000, 100000);
  const points = {
    "ToolArgumentsSchema constructor": [() => new ToolArgumentsSchema(pick(["t", str(), any()]), pick([toolSchema(), any()]), s.maybe(() => pick([int(50), 0, 2 ** 32 - 1, any()])), s.maybe(() => pick([int(1e4), 0, 2 ** 32 - 1, any()]))).free()],
    "ToolArgumentsSchema acceptsAnyObject": [
      () => {
        const schema = new ToolArgumentsSchema("t", pick([{ type: "object" }, { type: "object", properties: { a: {} } }, rich]), 10000, 100000);
        try {
          return schema.acceptsAnyObject();
        } finally {
          schema.free();
        }
      },
    ],
    "ToolArgumentsSchema check": [() => toolArgs.check(pick([any(), s.maybe(any), { c: { c: { c: any() } }, s: str(), l: [1, any(), any()], o: any() }]))],
    "function validateMessage": [() => validateMessage(s.maybe(s.message), s.maybe(() => ({ version: s.version(), inReplyTo: s.maybe(() => "tasks/get"), maxBytes: s.maybe(() => int(1000)), maxIssues: s.maybe(() => int(5)) })))],
    "function convertTask": [() => convertTask(s.maybe(s.task), s.version())],
    "function convertCreateTaskResult": [() => convertCreateTaskResult(s.maybe(() => ({ task: s.task(), _meta: any() })), s.version())],
    "function rules": [() => rules(any())],
    // SharedTaskServer's cursor reader (src/wasm/rules.rs): the key, the cursor, the caller.
    "function listPosition": [
      () =>
        entry.listPosition(
          pick(["00112233445566778899aabbccddeeff", str(), any()]),
          s.maybe(() => pick([str(), "00".repeat(16), any()])),
          s.maybe(() => pick(["s1", str(), any()])),
          pick([true, false, any()]),
          pick([true, false, any()]),
        ),
    ],
    "Conversation constructor": [() => new Conversation(s.maybe(() => ({ version: s.version(), maxTasks: s.maybe(() => int(10)), maxPending: s.maybe(() => int(10)), maxEventsPerTask: s.maybe(() => int(10)), maxIdBytes: s.maybe(() => int(64)), maxKeptBytes: s.maybe(() => int(1e6)), maxBytes: s.maybe(() => int(1e4)), maxIssues: s.maybe(() => int(10)) }))).free()],
    "Conversation observe": [() => conv.observe(s.maybe(s.message), s.maybe(() => ({ from: pick(["client", "server", any()]) })))],
    "Conversation tasks": [() => conv.tasks(any())],
    // A task created before the conversation (a resumed client): any value, an id it will see.
    "Conversation knownTask": [() => conv.knownTask(pick(["t1", str(), any()]))],
    // The byte boundary's internal exports (js/core/validate.ts calls them; public all the same).
    "function __validateBuffer": [() => entry.__validateBuffer(pick([0, int(1e5), 2 ** 31, 2 ** 32 - 1, any()]))],
    "function __validateBytes": [() => entry.__validateBytes(pick([0, 1024, int(2e5), any()]), pick([0, int(2e5), 2 ** 32 - 1]), pick([0, int(2000), 2 ** 32 - 1]), int(4), pick([-1, int(1e5), any()]), pick([-1, int(10)]))],
    "function __validateMemory": [() => entry.__validateMemory()],
    "function __validateBufferAt": [() => entry.__validateBufferAt()],
    "function __validateRoute": [() => entry.__validateRoute()],
    "Conversation __observeBytes": [() => conv.__observeBytes(pick([0, 1024, int(2e5), any()]), pick([0, int(2e5), 2 ** 32 - 1]), int(4))],
    "TaskScheduler constructor": [() => new TaskScheduler(s.maybe(() => ({ floorMs: s.maybe(() => 250 + int(1000)), jitter: s.maybe(() => rand()), seed: s.maybe(() => int(100)), budgetPerSecond: s.maybe(() => pick([null, 1 + int(10)])), stuckAfterPolls: s.maybe(() => pick([null, int(5)])) }))).free()],
    "TaskScheduler track": [() => sched.track(s.maybe(() => pick(keys)), s.maybe(() => ({ version: s.version(), task: s.maybe(s.task), deadlineMs: s.maybe(() => T0 + int(1e6)), server: s.maybe(str) })), s.optNow())],
    "TaskScheduler observe": [() => sched.observe(s.maybe(() => pick(keys)), s.maybe(s.task), s.optNow())],
    "TaskScheduler observeError": [() => sched.observeError(s.maybe(() => pick(keys)), s.maybe(() => ({ code: s.maybe(() => -32603), message: s.maybe(str), retryAfterMs: s.maybe(() => pick([2 ** 31, 2 ** 53, int(1e4)])) })), s.optNow())],
    "TaskScheduler nextDue": [() => sched.nextDue(s.optNow(), s.maybe(() => int(10)))],
    "TaskScheduler nextWakeAt": [() => sched.nextWakeAt(any())],
    "TaskScheduler info": [() => sched.info(s.maybe(() => pick(keys)))],
    "TaskScheduler forget": [() => int(50) === 0 && sched.forget(s.maybe(() => pick(keys)))],
    "TaskScheduler serialize": [() => sched.serialize()],
    "TaskScheduler static restore": [() => TaskScheduler.restore(int(3) === 0 ? sched.serialize() : s.maybe(() => tamper(sched.serialize(), v))).free()],
  };
  const task = (status) => `{"jsonrpc":"2.0","id":1,"result":{"taskId":"t1","status":"${status}","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:05Z","ttl":60000}}`;
  const checks = [
    () => {
      if (!toolArgs) return;
      assert.equal(toolArgs.check({ c: { c: {} }, s: "abc" }).valid, true);
      assert.deepEqual(toolArgs.check({ s: "abcd" }).issues, [{ pointer: "/s", message: "expected at most 3 characters, found 4" }]);
    },
    () => assert.equal(validateMessage({ jsonrpc: "2.0", id: 1, method: "ping" }).valid, true),
    // The byte path (text, inReplyTo) still right after direct calls of its internal exports.
    () => assert.equal(validateMessage(task("working"), { inReplyTo: "tasks/get" }).kind, "GetTaskResult"),
    () => assert.equal(validateMessage(task("working"), { inReplyTo: "tasks/get" }).valid, true),
    () => assert.equal(validateMessage(task("running"), { inReplyTo: "tasks/get" }).valid, false),
    () => assert.equal(typeof conv.observe({ jsonrpc: "2.0", id: 1, method: "ping" }).index, "number"),
    () => Array.isArray(conv.tasks()),
    () => assert.equal(conv.knownTask("t1"), true),
    () => {
      for (const k of keys) if (!sched.info(k)) sched.track(k, { version: "2025-11-25" }, T0);
      assert.ok(Array.isArray(sched.nextDue(T0 + 1e7)));
      TaskScheduler.restore(sched.serialize()).free();
    },
  ];
  if (TaskStore) {
    const store = new TaskStore({ maxLiveTasksPerSession: 20 });
    const srv = new TaskServer({ maxLiveTasksPerSession: 20 });
    const ids = [];
    const srvIds = [];
    const freshId = () => {
      try {
        const t = store.create({ protocolVersion: pick(["2025-11-25", "2026-07-28"]) }, { now: T0 });
        ids.push(t.taskId);
        if (ids.length > 50) ids.shift();
      } catch (e) {
        if (e.name !== "TaskStoreError") throw e;
      }
    };
    for (let i = 0; i < 5; i++) freshId();
    const id = () => (int(4) === 0 ? any() : pick(ids));
    const sid = () => (int(4) === 0 ? any() : srvIds.length ? pick(srvIds) : "0".repeat(32));
    Object.assign(points, {
      "TaskStore constructor": [() => new TaskStore(s.maybe(() => ({ maxTtlMs: s.maybe(() => pick([null, int(1e6)])), pageSize: s.maybe(() => int(2000)), maxLiveTasksPerSession: s.maybe(() => pick([null, int(5)])), maxRequestBytes: s.maybe(() => pick([null, int(1e5)])), recordChanges: s.maybe(() => true) }))).free()],
      "TaskStore create": [() => (int(5) === 0 ? freshId() : store.create(s.maybe(() => ({ protocolVersion: s.version(), ttl: s.maybe(v.num), pollIntervalMs: s.maybe(v.num), statusMessage: s.maybe(str) })), s.ctx()))],
      "TaskStore get": [() => store.get(id(), s.ctx())],
      "TaskStore list": [() => store.list(s.maybe(() => ({ cursor: s.maybe(str), limit: s.maybe(() => int(5)) })), s.ctx())],
      "TaskStore setStatus": [() => store.setStatus(id(), s.maybe(() => pick(["working", "input_required", "completed"])), s.msg(), s.ctx())],
      "TaskStore raiseInput": [() => store.raiseInput(id(), s.maybe(() => ({ [str()]: { method: pick(["elicitation/create", "roots/list", "sampling/createMessage", str()]), params: s.maybe(() => ({ message: str() })) } })), s.msg(), s.ctx())],
      "TaskStore takeInput": [() => store.takeInput(id(), s.maybe(() => ({ [str()]: any() })), s.ctx())],
      "TaskStore complete": [() => store.complete(id(), s.maybe(() => ({ content: [{ type: "text", text: str() }], extra: any() })), s.msg(), s.ctx())],
      "TaskStore fail": [() => store.fail(id(), s.maybe(() => ({ code: v.num(), message: str(), data: any() })), s.msg(), s.ctx())],
      "TaskStore failWithToolResult": [() => store.failWithToolResult(id(), s.maybe(() => ({ content: [], isError: s.maybe(() => true) })), s.msg(), s.ctx())],
      "TaskStore resultOf": [() => store.resultOf(id(), s.ctx())],
      "TaskStore cancel": [() => store.cancel(id(), s.version(), s.msg(), s.ctx())],
      "TaskStore remove": [() => int(10) === 0 && store.remove(id(), s.ctx())],
      "TaskStore sweep": [() => store.sweep(s.maybe(() => T0 + int(1e8)), s.maybe(() => int(3)))],
      "TaskStore snapshot": [() => store.snapshot()],
      "TaskStore takeChanges": [() => store.takeChanges()],
      "TaskStore static restore": [() => TaskStore.restore(int(3) === 0 ? store.snapshot() : s.maybe(() => tamper(store.snapshot(), v)), s.maybe(() => ({ maxSnapshotBytes: s.maybe(() => pick([null, int(1e5)])) }))).free()],
      "TaskServer constructor": [() => new TaskServer(s.maybe(() => ({ maxRequestBytes: s.maybe(() => pick([null, int(1e5)])), shareAcrossSessions: s.maybe(() => true) }))).free()],
      "TaskServer handle": [() => srv.handle(s.maybe(s.message), s.serverCtx())],
      "TaskServer beginToolCall": [
        () => {
          const out = srv.beginToolCall(s.maybe(s.message), s.serverCtx(), pick(["forbidden", "optional", "required", any()]));
          if (out.kind === "task") {
            srvIds.push(out.taskId);
            if (srvIds.length > 50) srvIds.shift();
          }
        },
      ],
      "TaskServer planToolCall": [() => srv.planToolCall(s.maybe(s.message), s.serverCtx(), pick(["forbidden", "optional", "required", any()]))],
      "TaskServer finishToolCall": [() => srv.finishToolCall(sid(), s.outcome(), s.optNow())],
      "TaskServer syncToolResponse": [() => srv.syncToolResponse(s.maybe(s.message), s.serverCtx(), s.outcome())],
      "TaskServer settle": [() => srv.settle(s.maybe(() => ({ kind: "pending", requestId: s.maybe(() => int(10)), taskId: sid(), session: s.maybe(() => "s1") })), s.optNow())],
      "TaskServer getTask": [() => srv.getTask(sid(), s.optNow())],
      "TaskServer setStatus": [() => srv.setStatus(sid(), s.maybe(() => pick(["working", "input_required"])), s.msg(), s.optNow())],
      "TaskServer static checkInputRequests": [() => TaskServer.checkInputRequests(s.maybe(s.message), s.maybe(() => ({ [str()]: { method: pick(["elicitation/create", "roots/list", str()]) } })))],
      "TaskServer raiseInput": [() => srv.raiseInput(sid(), s.maybe(() => ({ [str()]: { method: pick(["elicitation/create", "roots/list", str()]) } })), s.msg(), s.optNow())],
      "TaskServer sweep": [() => srv.sweep(s.maybe(() => T0 + int(1e8)), s.maybe(() => int(3)))],
      "TaskServer snapshot": [() => srv.snapshot()],
      "TaskServer takeChanges": [() => srv.takeChanges()],
      "TaskServer static restore": [() => TaskServer.restore(int(3) === 0 ? srv.snapshot() : s.maybe(() => tamper(srv.snapshot(), v))).free()],
    });
    checks.push(
      () => {
        const t = store.create({ protocolVersion: "2026-07-28" }, { session: "check", now: T0 });
        assert.equal(store.complete(t.taskId, { content: [] }, null, { host: true, now: T0 }).status, "completed");
        store.remove(t.taskId, { host: true, now: T0 });
        TaskStore.restore(store.snapshot()).free();
      },
      () => {
        const ctx = { protocolVersion: "2025-11-25", now: T0 };
        assert.equal(srv.handle({ jsonrpc: "2.0", id: 1, method: "tasks/list", params: {} }, ctx).kind, "response");
        TaskServer.restore(srv.snapshot()).free();
      },
    );
  }
  // What the server module has and the client module has not: the inputSchema checker, the cursor
  // reader (and TaskServerCore below).
  if (!ToolArgumentsSchema) for (const k of Object.keys(points)) if (k.startsWith("ToolArgumentsSchema ")) delete points[k];
  if (!entry.listPosition) delete points["function listPosition"];
  // The one wasm class under TaskStore / TaskServer (the server module's): they call it with
  // checked arguments; here, called directly, with any value.
  const { TaskServerCore } = entry;
  if (TaskServerCore) {
    const core = new TaskServerCore({ maxLiveTasksPerSession: 20 });
    const coreIds = [];
    const coreId = () => (int(4) === 0 ? any() : coreIds.length ? pick(coreIds) : "0".repeat(32));
    const session = () => s.maybe(() => pick([null, "s1", any()]));
    const flag = () => pick([true, false, any()]);
    const at = () => pick([T0 + int(1e6), any()]);
    const num = () => s.maybe(() => pick([int(1e6), v.num(), any()]));
    /** Checks a terminal write's answer: `{ revision, payloadAt?, answer }`, a `null` where `payloadAt` says. */
    const terminalAnswer = (text) => {
      const r = JSON.parse(text);
      assert.ok(Number.isSafeInteger(r.revision) && r.revision > 1);
      assert.equal(typeof r.answer.v25, "object");
      if (r.payloadAt !== undefined) assert.equal(r.payloadAt.reduce((o, k) => o[k], r.answer), null);
      return r;
    };
    const payloadText = (value) => {
      const choice = int(4);
      if (choice === 0) return undefined;
      if (choice === 1) return pick([str(), any()]);
      try {
        return JSON.stringify(value);
      } catch {
        return undefined;
      }
    };
    Object.assign(points, {
      "TaskServerCore constructor": [() => new TaskServerCore(s.maybe(() => ({ maxRequestBytes: s.maybe(() => pick([null, int(1e5)])), pageSize: s.maybe(() => int(2000)) }))).free()],
      "TaskServerCore static restore": [() => TaskServerCore.restore(int(3) === 0 ? core.snapshot() : s.maybe(() => tamper(core.snapshot(), v)), s.maybe(any)).free()],
      // A scratch core reloaded with a snapshot (SharedTaskServer's per-operation load), tampered or not.
      "TaskServerCore reload": [
        () => {
          const scratch = new TaskServerCore();
          try {
            scratch.reload(int(3) === 0 ? core.snapshot() : s.maybe(() => tamper(core.snapshot(), v)), s.maybe(any));
            return scratch.writes();
          } finally {
            scratch.free();
          }
        },
      ],
      // The records of a snapshot loaded into a core that keeps its others (SharedTaskServer's
      // core of one-task operations), tampered or not.
      "TaskServerCore load": [
        () => {
          const held = new TaskServerCore();
          try {
            const tasks = core.snapshot().tasks;
            held.load(int(3) === 0 ? JSON.stringify(tasks) : s.maybe(() => pick([tamper(tasks, v), any()])), s.maybe(any));
            return held.writes();
          } finally {
            held.free();
          }
        },
      ],
      "TaskServerCore maxRequestBytes": [() => core.maxRequestBytes()],
      "TaskServerCore writes": [() => core.writes()],
      "TaskServerCore revision": [() => core.revision(pick([coreId(), str(), any()]))],
      "TaskServerCore checkArgument": [() => core.checkArgument(pick(["context", "params", "list", str()]), any())],
      "TaskServerCore create": [
        () => {
          const text = core.create(pick(["2025-11-25", "2026-07-28", any()]), num(), num(), s.maybe(() => pick([str(), any()])), session(), flag(), at());
          const id = JSON.parse(text).answer.taskId;
          coreIds.push(id);
          if (coreIds.length > 50) coreIds.shift();
        },
      ],
      "TaskServerCore get": [() => core.get(coreId(), session(), flag(), at())],
      "TaskServerCore list": [() => core.list(s.maybe(() => ({ cursor: s.maybe(str), limit: s.maybe(() => int(5)) })), session(), flag(), at())],
      "TaskServerCore setStatus": [() => core.setStatus(coreId(), s.maybe(() => pick(["working", "input_required", any()])), s.msg(), session(), flag(), at())],
      "TaskServerCore raiseInput": [() => core.raiseInput(coreId(), s.maybe(() => ({ [str()]: { method: pick(["elicitation/create", "roots/list", str()]) } })), s.msg(), session(), flag(), at())],
      "TaskServerCore takeInput": [() => core.takeInput(coreId(), s.maybe(() => ({ [str()]: any() })), session(), flag(), at())],
      // Terminal writes take the payload as the object and, when the JS class could write it,
      // its JSON text: here the text is the object's, any string, or absent; `bare` (the class
      // holds the payload: leave it out of the answer) any value. An answer is JSON text whose
      // `payloadAt`, when present, names a `null` in the answer.
      "TaskServerCore terminal": [
        () => { const r = s.maybe(() => ({ content: [], extra: any() })); return terminalAnswer(core.terminal(0, coreId(), r, payloadText(r), flag(), s.msg(), session(), flag(), at())); },
        () => { const e = s.maybe(() => ({ code: v.num(), message: str(), data: any() })); return terminalAnswer(core.terminal(1, coreId(), e, payloadText(e), flag(), s.msg(), session(), flag(), at())); },
        () => { const r = s.maybe(() => ({ content: [], isError: s.maybe(() => true) })); return terminalAnswer(core.terminal(pick([2, 2, 2, int(9)]), coreId(), r, payloadText(r), flag(), s.msg(), session(), flag(), at())); },
      ],
      "TaskServerCore resultOf": [() => core.resultOf(coreId(), session(), flag(), at())],
      "TaskServerCore cancel": [() => core.cancel(coreId(), s.maybe(s.version), s.msg(), session(), flag(), at())],
      "TaskServerCore remove": [() => int(10) === 0 && core.remove(coreId(), session(), flag(), at())],
      "TaskServerCore sweep": [() => core.sweep(s.maybe(() => T0 + int(1e8)), s.maybe(() => int(3)))],
      "TaskServerCore snapshot": [() => core.snapshot()],
      "TaskServerCore takeChanges": [() => core.takeChanges()],
      "TaskServerCore takeStoredChanges": [() => JSON.parse(core.takeStoredChanges())],
      "TaskServerCore handle": [() => core.handle(s.maybe(s.message), s.serverCtx())],
      "TaskServerCore settle": [() => core.settle(s.maybe(() => ({ kind: "pending", requestId: s.maybe(() => int(10)), taskId: coreId(), session: s.maybe(() => "s1") })), s.optNow())],
      "TaskServerCore beginToolCall": [() => core.beginToolCall(s.maybe(s.message), s.serverCtx(), pick(["forbidden", "optional", "required", any()]))],
      "TaskServerCore planToolCall": [() => core.planToolCall(s.maybe(s.message), s.serverCtx(), pick(["forbidden", "optional", "required", any()]))],
      "TaskServerCore finishToolCall": [() => core.finishToolCall(coreId(), s.outcome(), s.optNow())],
      "TaskServerCore syncToolResponse": [() => core.syncToolResponse(s.maybe(s.message), s.serverCtx(), s.outcome())],
      "TaskServerCore static checkInputRequests": [() => TaskServerCore.checkInputRequests(s.maybe(s.message), s.maybe(() => ({ [str()]: { method: pick(["elicitation/create", "roots/list", str()]) } })))],
    });
    checks.push(
      () => {
        const t = JSON.parse(core.create("2026-07-28", undefined, undefined, undefined, "check", false, T0));
        // A terminal write answers the task as get does; bare, without the result, and where it goes.
        const id = t.answer.taskId;
        const done = JSON.parse(core.terminal(0, id, { content: [] }, undefined, true, null, undefined, true, T0));
        assert.ok(done.revision > t.revision);
        assert.deepEqual(done.payloadAt, ["v26", "result"]);
        assert.equal(done.answer.v26.result, null);
        const got = JSON.parse(core.get(id, undefined, true, T0));
        assert.deepEqual({ ...got.answer, v26: { ...got.answer.v26, result: null } }, done.answer);
        assert.deepEqual(got.answer.v26.result, { content: [] });
        TaskServerCore.restore(core.snapshot()).free();
      },
    );
  }
  // The in-memory storage under the storage entry's MemoryStorage (the server module's): the JS
  // class checks the arguments (types.ts); here, called directly, with any value.
  const { MemoryStorageCore } = entry;
  if (MemoryStorageCore) {
    const mem = new MemoryStorageCore();
    const memIds = ["m0", "m1", "m2", "m3"];
    const memId = () => (int(5) === 0 ? any() : pick(memIds));
    const memNum = () => pick([int(20), int(20), 0, 2 ** 53 - 1, 2 ** 53, -1, 1.5, NaN, v.num(), any()]);
    const memSession = () => pick([undefined, null, "s1", "s2", str(), any()]);
    const memText = (id) => pick([JSON.stringify({ id, version: 1, seq: 1, status: "working", createdAtMs: 0, ttlMs: null }), str(), any()]);
    Object.assign(points, {
      "MemoryStorageCore constructor": [() => new MemoryStorageCore().free()],
      "MemoryStorageCore get": [() => mem.get(memId())],
      "MemoryStorageCore getMany": [() => mem.getMany(pick([[memId(), memId()], [], any(), [any()]]))],
      "MemoryStorageCore putIfVersion": [() => { const id = memId(); return mem.putIfVersion(memText(id), id, memNum(), memNum(), memSession(), pick([true, false, any()]), s.maybe(memNum), s.maybe(memNum)); }],
      "MemoryStorageCore delete": [() => int(4) === 0 && mem.delete(memId())],
      "MemoryStorageCore rangeAfter": [() => mem.rangeAfter(pick([true, false, any()]), memSession(), memNum(), memNum())],
      "MemoryStorageCore rangeLive": [() => mem.rangeLive(memNum(), memNum())],
      "MemoryStorageCore expired": [() => mem.expired(memNum(), memNum())],
      "MemoryStorageCore countLive": [() => mem.countLive(memSession())],
      "MemoryStorageCore nextSequence": [() => mem.nextSequence()],
      "MemoryStorageCore lastSequence": [() => mem.lastSequence()],
      "MemoryStorageCore nextSequenceWithLive": [() => mem.nextSequenceWithLive(memSession())],
    });
    checks.push(() => {
      // A record the fuzz stored at seq 2^53 - 1 leaves no safe number: nextSequence says so.
      let seq;
      if (mem.lastSequence() >= Number.MAX_SAFE_INTEGER) {
        assert.throws(() => mem.nextSequence(), RangeError);
        seq = mem.lastSequence();
      } else seq = mem.nextSequence();
      const text = JSON.stringify({ id: `c${seq}`, version: 1, seq, status: "working", createdAtMs: 0, ttlMs: null });
      assert.equal(mem.putIfVersion(text, `c${seq}`, 1, seq, "check", true, undefined, undefined), true);
      assert.deepEqual(JSON.parse(mem.getMany([`c${seq}`])), [JSON.parse(text)]);
      assert.equal(mem.countLive("check") >= 1, true);
      assert.equal(mem.delete(`c${seq}`), text);
    });
  }
  return { points, checks };
}

/** A snapshot or state with one member replaced by a hostile value. */
function tamper(state, v) {
  const paths = [];
  const walk = (o, path, depth) => {
    if (depth > 4 || o === null || typeof o !== "object") return;
    for (const k of Object.keys(o)) {
      paths.push([...path, k]);
      walk(o[k], [...path, k], depth + 1);
    }
  };
  walk(state, [], 0);
  if (!paths.length) return v.any();
  const path = v.pick(paths);
  let o = state;
  for (const k of path.slice(0, -1)) o = o[k];
  o[path.at(-1)] = v.any();
  return v.int(4) === 0 ? JSON.stringify(state, (_, x) => (typeof x === "bigint" ? String(x) : x)) : state;
}

function fuzzEntry(name, entry, dts, budgetMs, extra = []) {
  const rand = mulberry32(SEED ^ (name === "server" ? 0x5eed : 0));
  const { points, checks } = entryPoints(entry, rand);
  // Every export of the wasm module (and of the JS classes over it) has a fuzzer: a new one fails
  // here until it gets one.
  const { functions, classes, inherited } = declared(dts, extra);
  const expected = [
    ...functions.map((f) => `function ${f}`),
    ...Object.entries(classes).flatMap(([c, methods]) => [`${c} constructor`, ...methods.map((m) => `${c} ${m}`)]),
  ];
  const allowed = [...expected, ...Object.entries(inherited).flatMap(([c, methods]) => methods.map((m) => `${c} ${m}`))];
  for (const e of expected) assert.ok(e in points, where(name, `no fuzzer for ${e} (declared in ${[dts, ...extra].join(", ")})`));
  for (const p of Object.keys(points)) assert.ok(allowed.includes(p), where(name, `${p} is not declared`));
  const names = Object.keys(points);
  const deadline = performance.now() + budgetMs;
  const counts = Object.fromEntries(names.map((n) => [n, { calls: 0, ok: 0 }]));
  let i = 0;
  while (performance.now() < deadline || i < names.length * 3) {
    const n = names[i % names.length];
    const [call] = points[n];
    if (survive(`${name}: ${n} (call ${i})`, call) === "ok") counts[n].ok++;
    counts[n].calls++;
    // The same instances keep working (never poisoned by an earlier call).
    if (i % 97 === 0) for (const [j, check] of checks.entries()) survive(`${name}: check ${j} after ${n} (call ${i})`, check);
    i++;
  }
  for (const [j, check] of checks.entries()) {
    try {
      check();
    } catch (e) {
      failed(`${name}: check ${j} at the end`, `${e.name}: ${e.message}`);
    }
  }
  return { calls: i, counts };
}

// ---- (b) 1M hostile messages per component, within the documented bounds ----------------------

/** Wasm memory of an instance, in MiB. */
const mib = (wasm) => wasm.memory.buffer.byteLength / MiB;
const { driveConversation, driveServer, driveScheduler } = await import("./hostile-drivers.mjs");

// Runs before the fuzz, so the wasm memory measured is this traffic's alone.
test(`memory: ${SOAK_N} hostile messages each to Conversation, TaskServer and TaskScheduler stay within the bounds`, () => {
  const start = { main: mib(mainWasm), server: mib(serverWasm) };
  const t0 = performance.now();
  const conv = driveConversation(main, SOAK_N);
  const tConv = performance.now() - t0;
  // maxTasks 10 000 (task ids), maxEventsPerTask 1000 (history of one task), maxIdBytes 1024.
  assert.ok(conv.tasks <= 10_000, `${conv.tasks} tasks`);
  // (The polled task itself is forgotten, oldest first, every 10 000 new tasks.)
  assert.ok(conv.hotEvents <= 1000, `${conv.hotEvents} events of one task`);
  assert.ok(conv.bounded > 0);
  const t1 = performance.now();
  const srv = driveServer(server, SOAK_N);
  const tSrv = performance.now() - t1;
  // maxLiveTasksPerSession 100 (the driver's): the store never holds more than 100 live tasks per
  // session.
  assert.ok(srv.tasks <= srv.sessions * 100, `${srv.tasks} tasks`);
  assert.equal(srv.created, srv.sessions * 100);
  const t2 = performance.now();
  const sched = driveScheduler(main, SOAK_N);
  const tSched = performance.now() - t2;
  // The scheduler holds the tracked keys only, whatever the server answers.
  assert.ok(sched.size <= sched.keys, `${sched.size} tracked`);
  const figures = {
    conversation: { ms: Math.round(tConv), wasmMiB: mib(mainWasm), ...conv },
    server: { ms: Math.round(tSrv), wasmMiB: mib(serverWasm), ...srv },
    scheduler: { ms: Math.round(tSched), wasmMiB: mib(mainWasm), ...sched },
  };
  console.log(`soak memory: ${JSON.stringify({ start, ...figures })}`);
  // Wasm memory never shrinks: these are the high-water marks of each instance after all of it.
  // Ceilings: 128 MiB for the main instance (Conversation, then TaskScheduler: the
  // Conversation's maxKeptBytes is 64 MiB) and for the server instance.
  assert.ok(mib(mainWasm) <= 128, `main instance: ${mib(mainWasm)} MiB`);
  assert.ok(mib(serverWasm) <= 128, `server instance: ${mib(serverWasm)} MiB`);
});

const PKG = new URL("./.tmp/install/node_modules/mcp-tasks-wasm/", import.meta.url).pathname;

test(`fuzz: every wasm export of both entries returns or throws a typed error (SOAK_SEED=${SEED}, SOAK_MS=${SOAK_MS})`, () => {
  // Each entry's module: its glue's exports (internal ones too), the entry's own over them
  // (validateMessage: the byte boundary's wrapper, which the glue's declarations describe).
  const mainRun = fuzzEntry("main", { ...mainGlue, ...main }, `${PKG}mcp_tasks_wasm.d.ts`, SOAK_MS * 0.3);
  const serverRun = fuzzEntry("server", { ...serverGlue, ...server }, `${PKG}server/mcp_tasks_wasm.d.ts`, SOAK_MS * 0.7, [`${PKG}server/store.d.ts`]);
  // Every entry point was reached, and most of them answered at least once.
  for (const [entry, run] of [["main", mainRun], ["server", serverRun]]) {
    for (const [n, c] of Object.entries(run.counts)) assert.ok(c.calls > 0, where(entry, `${n} never called`));
  }
  const total = mainRun.calls + serverRun.calls;
  console.log(`soak fuzz: seed ${SEED}, ${total} calls (main ${mainRun.calls}, server ${serverRun.calls})`);
  assert.equal(failures.size, 0, where(`${failures.size} distinct failure(s)`, `\n  ${[...failures.keys()].join("\n  ")}\n(first call of each: ${[...failures.values()].join("; ")})`));
});

