// TaskStore and TaskServer: the task store and the request handler of the server entry, thin JS
// classes over ONE wasm class (TaskServerCore, src/wasm/server.rs + src/wasm/store.rs), where
// every rule lives. TaskServer is TaskStore plus the request handling (`handle`,
// `beginToolCall`, …) and the host's shorthands (`getTask`, and `setStatus` / `raiseInput` with a
// time instead of a context): one class and its subclass, no method written twice.
//
// What this layer does, for speed only:
// - reads the context `{ session?, host?, now? }` once, in JS, and passes its members as plain
//   arguments (a context it cannot read goes to the core, whose TypeError names what is wrong);
// - parses each answer once: the core sends a task as the JSON text of its V26 `DetailedTask`
//   plus what the store adds; the V25 task is the same fields under their V25 names
//   (`ttlMs` → `ttl`, `pollIntervalMs` → `pollInterval`), built here without a second parse;
// - `complete`, `fail` and `failWithToolResult` make a deeply frozen copy of a plain result
//   (error) and send the JSON text `JSON.stringify` writes of it (the core reads it, as all JSON
//   text, with src/base/json.rs), and get numbers back (`#written`): the answer is the kept answer of the task with the new status, time and
//   message, and that copy (else the payload parsed from its text), so the payload does not
//   cross back;
// - keeps the last answer of each task read (`get`, `list`, `create`, and the writes that answer
//   the task as text) with the task's revision (the record's version, which every write to that
//   task bumps; a terminal write replaces a kept answer but does not start keeping one): `get` of an unexpired task the caller may see answers that same
//   object again while the store made no write at all since (the core counts its writes), or, after
//   writes, while the task is still at that revision (one small call: `revision(id)`), so a write
//   to one task leaves the other tasks' answers kept. Every StoreTask is therefore frozen
//   (deeply): copy what you want to change.
//
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).
import { TaskServerCore } from "./mcp_tasks_wasm.js";
import { storeError } from "./errors.js";

export type StoreTask = import("./mcp_tasks_wasm.js").StoreTask;

export type TaskPage = import("./mcp_tasks_wasm.js").TaskPage;

export type TakeInputOutcome = import("./mcp_tasks_wasm.js").TakeInputOutcome;

export type CancelOutcome = import("./mcp_tasks_wasm.js").CancelOutcome;

export type StoreChange = import("./mcp_tasks_wasm.js").StoreChange;

export type ResultOf = import("./mcp_tasks_wasm.js").ResultOf;

export type TaskStoreOptions = import("./mcp_tasks_wasm.js").TaskStoreOptions;

export type RestoreOptions = import("./mcp_tasks_wasm.js").RestoreOptions;

export type TaskContext = import("./mcp_tasks_wasm.js").TaskContext;

export type CreateTaskParams = import("./mcp_tasks_wasm.js").CreateTaskParams;

export type ListParams = import("./mcp_tasks_wasm.js").ListParams;

export type TaskStatus = import("./mcp_tasks_wasm.js").TaskStatus;

export type ProtocolVersion = import("./mcp_tasks_wasm.js").ProtocolVersion;

export type JsonRpcError = import("./mcp_tasks_wasm.js").JsonRpcError;

export type V26InputRequests = import("./mcp_tasks_wasm.js").V26InputRequests;

export type V26InputResponses = import("./mcp_tasks_wasm.js").V26InputResponses;

export type V26DetailedTask = import("./mcp_tasks_wasm.js").V26DetailedTask;

export type HandleOutcome = import("./mcp_tasks_wasm.js").HandleOutcome;

export type ServerContext = import("./mcp_tasks_wasm.js").ServerContext;

export type ToolCallStart = import("./mcp_tasks_wasm.js").ToolCallStart;

export type ToolCallPlanned = import("./mcp_tasks_wasm.js").ToolCallPlanned;

export type FinishOutcome = import("./mcp_tasks_wasm.js").FinishOutcome;

export type TaskSupport = import("./mcp_tasks_wasm.js").V25TaskSupport;

export type PendingResult = Extract<HandleOutcome, { kind: "pending"; }>;

export type ToolOutcome = { result: Record<string, unknown>; } | { error: JsonRpcError; };

export type WireTask = {
  revision: number; protocolVersion: ProtocolVersion; session?: string; owner?: string; expiresAtMs: number | null;
  inputResponses?: Record<string, unknown>; v26: V26DetailedTask;
};

export type Kept = { task: StoreTask; revision: number; writes: number; };

/** What a terminal write leaves as it was: the kept answer of the revision before, or the core's `writtenBase`. */
type Base = {
  taskId: string; protocolVersion: ProtocolVersion; session?: string; owner?: string; expiresAtMs: number | null;
  inputResponses?: Record<string, unknown>; v26: { createdAt: string; ttlMs: number | null; pollIntervalMs?: number; };
};

/** At most this many answers are kept (beyond it, the kept answers are dropped and keeping starts again). */
const KEPT_ANSWERS = 16_384;

/** Freezes `value` and everything in it (answers are fresh trees from JSON.parse). */
function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
  } else {
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) deepFreeze((value as Record<string, unknown>)[keys[i]]);
  }
  return value;
}

// The last instant formatted by `isoTime` (writes often share a millisecond).
let isoMs = -1;
let isoText = "";

/**
 * Unix ms as the core writes timestamps (src/base/time.rs): RFC 3339 UTC with milliseconds,
 * which is what `toISOString` writes for the times a `Date` holds; the last one is kept.
 */
function isoTime(ms: number): string {
  if (ms !== isoMs) {
    isoText = new Date(ms).toISOString();
    isoMs = ms;
  }
  return isoText;
}

/**
 * A task as it crossed (see the top of this file) as the frozen StoreTask. The objects built
 * here hold only strings and numbers besides `v25` and `v26`: they are frozen flat; only the
 * crossed `v26` (payloads) and `inputResponses` are walked.
 */
function storeTask(w: WireTask): StoreTask {
  const v26 = (deepFreeze(w.v26) as V26DetailedTask & { statusMessage?: string, pollIntervalMs?: number });
  const v25: Record<string, unknown> = { taskId: v26.taskId, status: v26.status };
  if (v26.statusMessage !== undefined) v25.statusMessage = v26.statusMessage;
  v25.createdAt = v26.createdAt;
  v25.lastUpdatedAt = v26.lastUpdatedAt;
  v25.ttl = v26.ttlMs;
  if (v26.pollIntervalMs !== undefined) v25.pollInterval = v26.pollIntervalMs;
  const task: Record<string, unknown> = { taskId: v26.taskId, status: v26.status, protocolVersion: w.protocolVersion };
  if (w.session !== undefined) task.session = w.session;
  if (w.owner !== undefined) task.owner = w.owner;
  task.expiresAtMs = w.expiresAtMs;
  if (w.inputResponses !== undefined) task.inputResponses = deepFreeze(w.inputResponses);
  task.v25 = Object.freeze(v25);
  task.v26 = v26;
  return ((Object.freeze(task) as unknown) as StoreTask);
}

/**
 * `value` as the JSON text `JSON.stringify` writes, when the text shows that nothing was lost

/**
 * `value` as the JSON text `JSON.stringify` writes, when the text shows that nothing was lost
 * (no `null`, which NaN, Infinity and `undefined` array items also become) and it is within
 * `max` UTF-16 units; else `undefined`, and the core reads the value itself (and names what is
 * wrong with it). The core checks the text as it checks a value (bytes, depth, an object).
 */
function jsonText(value: unknown, max: number): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  let text;
  try {
    text = JSON.stringify(value);
  } catch {
    return undefined;
  }
  if (typeof text !== "string" || text.length > max || text.includes("null")) return undefined;
  return text;
}

/** `frozenCopy`'s answer for a value it does not copy. */
const NOT_PLAIN = Symbol("not plain");

/**
 * A deeply frozen copy of `value` as `JSON.parse(JSON.stringify(value))` would make it, when
 * `value` is plain JSON data: objects whose prototype is `Object.prototype` (or `null`), arrays
 * (without holes or `undefined` items), strings, finite numbers (`-0` becomes `0`), booleans,
 * `null`; object members that `JSON.stringify` leaves out (`undefined`, functions, symbols) are
 * left out; at most 128 levels deep. Anything else (a `toJSON` method, a Date, a class instance,
 * NaN, a bigint, a member named `__proto__`, …): `NOT_PLAIN`. `JSON.stringify` of the copy is
 * the text the core keeps, and `JSON.parse` of it equals the copy, so the answer needs no
 * second parse.
 */
function frozenCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) return NOT_PLAIN;
      return value === 0 ? 0 : value; // as JSON.stringify writes it (-0 as 0)
    case "object":
      break;
    default:
      return NOT_PLAIN;
  }
  if (value === null) return null;
  const v = (value as Record<string, unknown>);
  if (depth > 128 || v.toJSON !== undefined) return NOT_PLAIN;
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return NOT_PLAIN;
    const copy: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      const c = frozenCopy(v[i], depth + 1);
      if (c === NOT_PLAIN || c === undefined) return NOT_PLAIN;
      copy.push(c);
    }
    return Object.freeze(copy);
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  const keys = Object.keys(v);
  const copy: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const x = v[k];
    if (x === undefined || typeof x === "function" || typeof x === "symbol") continue;
    if (k === "__proto__") return NOT_PLAIN;
    const c = frozenCopy(x, depth + 1);
    if (c === NOT_PLAIN) return NOT_PLAIN;
    copy[k] = c;
  }
  return Object.freeze(copy);
}

/** The core's number of each terminal write (`terminal`). */
const TERMINAL_KIND = { complete: 0, fail: 1, failWithToolResult: 2 } as const;

// The V26 and V25 tasks of a terminal write's answer, frozen: one object literal per shape (V8
// builds a literal's properties in the object itself; adding them one by one measured twice as
// slow), members in the order of the tasks `storeTask` builds from the core's text.

function v26Answer(taskId: string, statusMessage: string | undefined, createdAt: string, lastUpdatedAt: string, ttlMs: number | null,
  pollIntervalMs: number | undefined, status: string, result: unknown, error: unknown): object {
  if (result !== undefined) {
    if (statusMessage === undefined) {
      return Object.freeze(pollIntervalMs === undefined
        ? { taskId, createdAt, lastUpdatedAt, ttlMs, status, result }
        : { taskId, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs, status, result });
    }
    return Object.freeze(pollIntervalMs === undefined
      ? { taskId, statusMessage, createdAt, lastUpdatedAt, ttlMs, status, result }
      : { taskId, statusMessage, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs, status, result });
  }
  if (statusMessage === undefined) {
    return Object.freeze(pollIntervalMs === undefined
      ? { taskId, createdAt, lastUpdatedAt, ttlMs, status, error }
      : { taskId, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs, status, error });
  }
  return Object.freeze(pollIntervalMs === undefined
    ? { taskId, statusMessage, createdAt, lastUpdatedAt, ttlMs, status, error }
    : { taskId, statusMessage, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs, status, error });
}

function v25Answer(taskId: string, status: string, statusMessage: string | undefined, createdAt: string, lastUpdatedAt: string,
  ttl: number | null, pollInterval: number | undefined): object {
  if (statusMessage === undefined) {
    return Object.freeze(pollInterval === undefined
      ? { taskId, status, createdAt, lastUpdatedAt, ttl }
      : { taskId, status, createdAt, lastUpdatedAt, ttl, pollInterval });
  }
  return Object.freeze(pollInterval === undefined
    ? { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttl }
    : { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttl, pollInterval });
}

/** A JSON-RPC error object as the core keeps it: `code`, `message`, and `data` when present. */
function rpcError(value: Record<string, unknown>): Record<string, unknown> {
  const error: Record<string, unknown> = { code: value.code, message: value.message };
  if ("data" in value) error.data = value.data;
  return Object.freeze(error);
}

/** The protocol versions as the core numbers them (`writtenAt`), asked once. */
let versions: ProtocolVersion[] | undefined;

/** The wasm module's memory, asked once. */
let memory: WebAssembly.Memory | undefined;

/** The V26 error of a task failed by a tool result (`{ code, message }` from the core, once). */
let toolFailure: { code: number; message: string; } | undefined;

function toolFailureError(result: unknown): Record<string, unknown> {
  toolFailure ??= (TaskServerCore.toolFailure() as { code: number; message: string; });
  return Object.freeze({ code: toolFailure.code, message: toolFailure.message, data: Object.freeze({ toolResult: result }) });
}

// The context the last `readContext` read (plain variables: no object per call).
let session: string | undefined;
let host = false;
let now = 0;

/** `String.prototype.isWellFormed` (ES2024; older runtimes lack it). */
const isWellFormed = ((String.prototype as unknown) as { isWellFormed?: (this: string) => boolean }).isWellFormed;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The last session `plain` passed (a host passes the same one call after call). */
let plainSession = "";

/**
 * Whether a session crosses into the core as the same string: well-formed (a lone surrogate
 * would become U+FFFD, making `"a\ud800"` and `"a\udfff"` one session) and without U+FDD0 (the
 * core's marker of carried surrogates). Any other goes to the core, which refuses it. (A task id
 * needs no such check: the store's ids are 32 lowercase hex digits, so one that would not cross
 * exactly names no task either way.)
 */
function plain(s: string): boolean {
  if (s === plainSession) return true;
  if (s.includes("\ufdd0") || !(isWellFormed === undefined ? !LONE_SURROGATE.test(s) : isWellFormed.call(s))) return false;
  plainSession = s;
  return true;
}

/**
 * Reads `ctx` into `session`, `host`, `now`. Anything it does not accept as is goes to the
 * core, which throws the TypeError (or the `too_large` TaskStoreError) naming the problem.
 */
function readContext(core: TaskServerCore, max: number, ctx: unknown) {
  if (ctx === undefined || ctx === null) {
    session = undefined;
    host = false;
    now = Date.now();
    return;
  }
  if (typeof ctx === "object" && !Array.isArray(ctx)) {
    const c = (ctx as Record<string, unknown>);
    const s = c.session;
    const h = c.host;
    const n = c.now;
    if (
      (s === undefined || s === null || (typeof s === "string" && s.length <= max && plain(s))) &&
      (h === undefined || h === null || typeof h === "boolean") &&
      (n === undefined || n === null || (typeof n === "number" && Number.isSafeInteger(n) && n >= 0)) &&
      !(h === true && typeof s === "string")
    ) {
      session = s ?? undefined;
      host = h === true;
      now = n ?? Date.now();
      return;
    }
  }
  core.checkArgument("context", ctx);
  throw new TypeError("invalid context"); // not reached: the core throws the precise error
}

/**
 * Checks a task id in JS (a string of at most `max` UTF-16 units), so that it crosses as a
 * plain string; anything else goes to the core, which throws the TypeError (or the `too_large`
 * TaskStoreError) naming it.
 */
function readId(core: TaskServerCore, max: number, id: unknown): string {
  if (typeof id === "string" && id.length <= max) return id;
  core.checkArgument("id", id);
  throw new TypeError("invalid task id"); // not reached: the core throws the precise error
}

/** `now` of the host methods (Unix ms, default `Date.now()`). */
function readNow(at: unknown): number {
  if (at === undefined || at === null) return Date.now();
  if (typeof at === "number" && Number.isSafeInteger(at) && at >= 0) return at;
  throw new TypeError("`now` must be a non-negative integer (Unix milliseconds)");
}

/** the core `restore` hands to the constructor */
let restored: TaskServerCore | null = null;

/** the core of a store, for TaskServer */
let coreOf: (store: TaskStore) => TaskServerCore;

/**
 * Replaces what `store` holds by what `snapshot` (JSON text) describes, checked as `restore`
 * checks it, keeping the store: the shared server runs operation after operation on one core
 * over the records it read (no new core per operation). Not part of the package's API.
 */
export function reloadStore(store: TaskStore, snapshot: string, options?: RestoreOptions | null) {
  try {
    coreOf(store).reload(snapshot, options);
  } catch (e) {
    throw storeError(e);
  }
}

/**
 * Puts the records of `tasks` (the JSON text of an array of stored records) into `store`, each in
 * place of the record of its id, keeping the others, its settings and cursor key: the shared
 * server loads only the record its core does not hold at the revision it read. Not part of the
 * package's API.
 */
export function loadStore(store: TaskStore, tasks: string) {
  try {
    coreOf(store).load(tasks, { maxSnapshotBytes: null });
  } catch (e) {
    throw storeError(e);
  }
}

/**
 * An in-memory MCP task store for both protocol versions (2025-11-25 and 2026-07-28): task
 * records, the status state machine, TTLs, session isolation, `tasks/list` cursors, input
 * requests, snapshots. No timers and no clock of its own: time is `ctx.now` or `Date.now()`,
 * and expired tasks are purged when met or by `sweep()`.
 *
 * Every task operation takes an optional last argument `ctx: { session?, host?, now? }`
 * (`TaskContext`): `session` is the request's session (absent: no session), `host: true` acts
 * as the host and sees every task, `now` is Unix ms. A store error throws a `TaskStoreError`
 * (`{ code, message, data?, kind }`: the JSON-RPC error to answer with); a malformed argument
 * throws a `TypeError`. Every `StoreTask` answered is frozen.
 *
 * `TaskServer` is this class plus the request handling: use it when the store serves MCP
 * requests (`handle`, `beginToolCall`, …).
 */
class TaskStore {
  #core: TaskServerCore;
  /** The largest argument accepted, in UTF-16 units checked here (`Infinity`: no limit). */
  #max;
  /**
   * The last answer of each task, the task's revision it shows, and the store's write count when
   * it was last known current.
   */
  #kept: Map<string, Kept> = new Map();
  /** The numbers of the core's last terminal write (`writtenAt`), a view of wasm memory. */
  #fields = new Float64Array(0);

  /**
   * A new, empty store. Throws when `options` is malformed or the runtime has no
   * `crypto.getRandomValues`.
   */
  constructor(options?: TaskStoreOptions | null) {
    try {
      this.#core = restored ?? new TaskServerCore(options);
    } catch (e) {
      throw storeError(e);
    } finally {
      restored = null;
    }
    this.#max = this.#core.maxRequestBytes();
  }

  /**
   * The store a `snapshot()` describes (the object, or its JSON text). Throws a
   * `TaskStoreError` (code -32603, kind `invalid_snapshot`) when it cannot be restored
   * (malformed, or text that is not JSON), a `TypeError` for anything but an object or a
   * string. `options.maxSnapshotBytes` (default 256 MiB; `null`: no limit) bounds the
   * snapshot's JSON text, measured before it is copied into wasm memory: over it, a
   * `TaskStoreError` (kind `too_large`). The restored store keeps the snapshot's settings
   * (`maxRequestBytes` included).
   */
  static restore<C extends typeof TaskStore>(this: C, snapshot: Record<string, unknown> | string, options?: RestoreOptions | null): InstanceType<C> {
    try {
      restored = TaskServerCore.restore(snapshot, options);
    } catch (e) {
      throw storeError(e);
    }
    return (new this() as InstanceType<C>);
  }

  /** Releases the wasm memory of the store (it cannot be used afterwards). */
  free() {
    this.#kept.clear();
    this.#core.free();
  }

  /** The core, for TaskServer (module-private). */
  static #coreOf(store: TaskStore) {
    return store.#core;
  }

  static {
    coreOf = TaskStore.#coreOf;
  }

  /** Keeps `task` (at `revision`) as the last answer of its task. */
  #keep(task: StoreTask, revision: number, writes = this.#core.writes()): StoreTask {
    const kept = this.#kept;
    const entry = kept.get(task.taskId);
    if (entry !== undefined) {
      entry.task = task;
      entry.revision = revision;
      entry.writes = writes;
      return task;
    }
    if (kept.size >= KEPT_ANSWERS) kept.clear();
    kept.set(task.taskId, { task, revision, writes });
    return task;
  }

  /** A task answer as it crossed, kept. */
  #wire(w: WireTask) {
    return this.#keep(storeTask(w), w.revision);
  }

  /** A task answer from the core's text, kept. */
  #task(text: string) {
    return this.#wire(JSON.parse(text));
  }

  /**
   * Creates a task in `working`, bound to `ctx.session`. Throws code -32010 when the session
   * holds `maxLiveTasksPerSession` live tasks.
   */
  create(params: CreateTaskParams, ctx?: TaskContext | null): StoreTask {
    const core = this.#core;
    try {
      readContext(core, this.#max, ctx);
      const p = ((params as unknown) as Record<string, unknown>);
      if (typeof p !== "object" || p === null || Array.isArray(p)) {
        core.checkArgument("params", params);
        throw new TypeError("invalid params");
      }
      const version = p.protocolVersion;
      const ttl = p.ttl;
      const poll = p.pollIntervalMs;
      const message = p.statusMessage;
      if (
        typeof version !== "string" ||
        !(ttl === undefined || ttl === null || (typeof ttl === "number" && Number.isSafeInteger(ttl) && ttl >= 0)) ||
        !(poll === undefined || poll === null || (typeof poll === "number" && Number.isSafeInteger(poll) && poll >= 0)) ||
        !(message === undefined || message === null || (typeof message === "string" && message.length <= this.#max))
      ) {
        core.checkArgument("params", params);
        throw new TypeError("invalid params");
      }
      return this.#task(core.create(version, ttl ?? undefined, poll ?? undefined, message ?? undefined, session, host, now));
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * The task `id` as `ctx` sees it. Unknown, expired, purged and other sessions' tasks all
   * throw code -32602 (kind `not_found`).
   */
  get(id: string, ctx?: TaskContext | null): StoreTask {
    const core = this.#core;
    try {
      readContext(core, this.#max, ctx);
      readId(core, this.#max, id);
      const entry = this.#kept.get(id);
      if (entry !== undefined) {
        const kept = entry.task;
        // A task of an owner is seen by the host only here (no owner in a TaskContext).
        if ((host || (kept.session === session && kept.owner === undefined)) && (kept.expiresAtMs === null || now <= kept.expiresAtMs)) {
          const writes = core.writes();
          if (writes === entry.writes) return kept;
          if (core.revision(id) === entry.revision) {
            entry.writes = writes;
            return kept;
          }
        }
      }
      return this.#task(core.get(id, session, host, now));
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * One page of the tasks `ctx` sees, in creation order (V25 `tasks/list`). A cursor this
   * store did not issue to this caller throws code -32602 (kind `invalid_cursor`).
   */
  list(page?: ListParams | null, ctx?: TaskContext | null): TaskPage {
    const core = this.#core;
    try {
      readContext(core, this.#max, ctx);
      const listed = JSON.parse(core.list(page, session, host, now));
      listed.tasks = listed.tasks.map(storeTask);
      return listed;
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * Moves a live task between `working` and `input_required` (or sets a new status message).
   * Terminal statuses go through `complete`, `fail` and `cancel` (else code -32603).
   */
  setStatus(id: string, status: TaskStatus, message?: string | null, ctx?: TaskContext | null): StoreTask {
    const core = this.#core;
    try {
      readContext(core, this.#max, ctx);
      readId(core, this.#max, id);
      return this.#task(core.setStatus(id, status, message, session, host, now));
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * Issues V26 input requests (key → bare `{ method, params }`); the task becomes
   * `input_required`. Keys are unique over the task's life (a reused key: code -32603).
   */
  raiseInput(id: string, inputRequests: V26InputRequests, message?: string | null, ctx?: TaskContext | null): StoreTask {
    const core = this.#core;
    try {
      readContext(core, this.#max, ctx);
      readId(core, this.#max, id);
      return this.#task(core.raiseInput(id, inputRequests, message, session, host, now));
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * Takes V26 `tasks/update` input responses (key → result). Keys not outstanding are ignored
   * and reported; the task returns to `working` when nothing is outstanding.
   */
  takeInput(id: string, inputResponses: V26InputResponses, ctx?: TaskContext | null): TakeInputOutcome {
    const core = this.#core;
    try {
      readContext(core, this.#max, ctx);
      readId(core, this.#max, id);
      const taken = JSON.parse(core.takeInput(id, inputResponses, session, host, now));
      taken.task = this.#wire(taken.task);
      return taken;
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * Completes the task with the original request's result. The first terminal outcome wins:
   * on a terminal task this throws code -32602 (kind `already_terminal`) and changes nothing,
   * which a worker may ignore.
   */
  complete(id: string, result: Record<string, unknown>, message?: string | null, ctx?: TaskContext | null): StoreTask {
    return this.#terminal("complete", id, result, message, ctx, "completed", "result");
  }

  /**
   * Fails the task with the JSON-RPC error the original request ended with. On a terminal
   * task: as `complete`.
   */
  fail(id: string, error: JsonRpcError, message?: string | null, ctx?: TaskContext | null): StoreTask {
    return this.#terminal("fail", id, error, message, ctx, "failed", "error");
  }

  /**
   * Fails a 2025-11-25 task with the tool result (`isError: true`) its tool call returned
   * (§D 44): `tasks/result` then answers that result. Throws code -32603 (kind
   * `invalid_tool_failure`) when `result.isError` is not `true` or the task was created under
   * 2026-07-28 (where such a result completes the task, §D 91). On a terminal task: as
   * `complete`.
   */
  failWithToolResult(id: string, result: Record<string, unknown>, message?: string | null, ctx?: TaskContext | null): StoreTask {
    return this.#terminal("failWithToolResult", id, result, message, ctx, "failed", "toolResult");
  }

  /**
   * A terminal write (`complete`, `fail`, `failWithToolResult`: the core's method of that name)
   * of `payload`: its JSON text crosses when it can be written (of its frozen copy when it is
   * plain data, `frozenCopy`; else `jsonText`), and the answer is built by `#written`. The core
   * checks the text as it checks a value (src/base/json.rs reads it).
   */
  #terminal(write: "complete" | "fail" | "failWithToolResult", id: string, payload: object, message: string | null | undefined,
    ctx: TaskContext | null | undefined, status: "completed" | "failed", kind: "result" | "error" | "toolResult"): StoreTask {
    const core = this.#core;
    try {
      readContext(core, this.#max, ctx);
      readId(core, this.#max, id);
      let copy;
      try {
        copy = frozenCopy(payload, 0);
      } catch {
        copy = NOT_PLAIN; // a getter threw: the core reads the object and says what is wrong
      }
      let text;
      if (copy === NOT_PLAIN || copy === null || typeof copy !== "object" || Array.isArray(copy)) {
        copy = NOT_PLAIN;
        text = jsonText(payload, this.#max);
      } else {
        text = JSON.stringify(copy);
        if (text.length > this.#max) {
          text = undefined; // the core names it (too large)
          copy = NOT_PLAIN;
        }
      }
      const revision = core.terminal(TERMINAL_KIND[write], id, payload, text, message, session, host, now);
      return this.#written(id, revision, status, message, kind, text, payload, copy);
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * The answer of a terminal write (`complete`, `fail`, `failWithToolResult`), built here
   * instead of crossing as JSON text. `answered` is the core's answer: the new revision, negated
   * when the core derived the status message (then read with `lastMessage()`; else it is
   * `message`). What the write left as it was comes from the kept answer of the revision before,
   * else from the core's numbers (`writtenAt`, read from wasm memory) or, when they do not say
   * everything, its `writtenBase` (a short text without payload); `lastUpdatedAt` is among those
   * numbers; the payload is `copy` (the frozen copy whose text crossed) or else parsed from the
   * JSON text that crossed.
   */
  #written(id: string, answered: number, status: "completed" | "failed", message: string | null | undefined,
    payload: "result" | "error" | "toolResult", text: string | undefined, given: unknown, copy: unknown): StoreTask {
    const core = this.#core;
    // Negative: the core derived the status message (read it); else it is `message`.
    const revision = answered < 0 ? -answered : answered;
    const statusMessage = answered < 0 ? core.lastMessage() : message ?? undefined;
    let f = this.#fields;
    if (f.length === 0) {
      // First use, or the memory grew (which detaches the old buffer).
      memory ??= (TaskServerCore.memory() as WebAssembly.Memory);
      f = this.#fields = new Float64Array(memory.buffer, core.writtenAt(), 8);
    }
    // Read before any other call into wasm (one that allocates may grow the memory).
    const stamp = f[0];
    const protocol = f[1], expiresAtMs = f[2], createdAtMs = f[3], ttlMs = f[4], pollIntervalMs = f[5], partial = f[6], writes = f[7];
    const entry = this.#kept.get(id);
    let prev: Base;
    if (entry !== undefined && entry.revision === revision - 1) {
      prev = entry.task;
    } else {
      if (partial === 0) {
        versions ??= (TaskServerCore.protocolVersions() as ProtocolVersion[]);
        prev = {
          taskId: id, protocolVersion: versions[protocol], session, expiresAtMs: expiresAtMs < 0 ? null : expiresAtMs,
          v26: {
            createdAt: isoTime(createdAtMs), ttlMs: ttlMs < 0 ? null : ttlMs,
            pollIntervalMs: pollIntervalMs < 0 ? undefined : pollIntervalMs,
          },
        };
      } else {
        const b = JSON.parse(core.writtenBase(id) ?? "null");
        if (b === null) throw new Error("internal: the task just written is not stored");
        prev = {
          taskId: id, protocolVersion: b.protocolVersion, session: b.session, owner: b.owner, expiresAtMs: b.expiresAtMs,
          inputResponses: b.inputResponses === undefined ? undefined : deepFreeze(b.inputResponses),
          v26: { createdAt: b.createdAt, ttlMs: b.ttlMs, pollIntervalMs: b.pollIntervalMs },
        };
      }
    }
    const p26 = prev.v26;
    const at = isoTime(stamp);
    // The payload: the frozen copy whose text crossed, else parsed from the text that crossed (a
    // getter parsing it when first read measured slower: V8 builds and freezes objects with
    // accessors on a slow path).
    const value = copy !== NOT_PLAIN ? copy : deepFreeze(JSON.parse(text ?? JSON.stringify(given)));
    const v26 = payload === "result"
      ? v26Answer(prev.taskId, statusMessage, p26.createdAt, at, p26.ttlMs, p26.pollIntervalMs, status, value, undefined)
      : v26Answer(prev.taskId, statusMessage, p26.createdAt, at, p26.ttlMs, p26.pollIntervalMs, status, undefined,
        payload === "error" ? rpcError((value as Record<string, unknown>)) : toolFailureError(value));
    const v25 = v25Answer(prev.taskId, status, statusMessage, p26.createdAt, at, p26.ttlMs, p26.pollIntervalMs);
    let task: Record<string, unknown>;
    if (prev.inputResponses !== undefined) {
      task = { taskId: prev.taskId, status, protocolVersion: prev.protocolVersion };
      if (prev.session !== undefined) task.session = prev.session;
      task.expiresAtMs = prev.expiresAtMs;
      task.inputResponses = prev.inputResponses;
      task.v25 = v25;
      task.v26 = v26;
    } else if (prev.session !== undefined) {
      task = { taskId: prev.taskId, status, protocolVersion: prev.protocolVersion, session: prev.session, expiresAtMs: prev.expiresAtMs, v25, v26 };
    } else {
      task = { taskId: prev.taskId, status, protocolVersion: prev.protocolVersion, expiresAtMs: prev.expiresAtMs, v25, v26 };
    }
    if (prev.owner !== undefined) task = { ...task, owner: prev.owner };
    const answer = ((Object.freeze(task) as unknown) as StoreTask);
    // A terminal write replaces a kept answer but does not start keeping one: a task nobody has
    // read since its last write is kept from its next read on (`get`, `list`), not from here.
    if (entry === undefined) return answer;
    entry.task = answer;
    entry.revision = revision;
    entry.writes = writes;
    return answer;
  }

  /**
   * What a 2025-11-25 `tasks/result` answers for the task, without the JSON-RPC envelope
   * (§D 30, 31, 44): `{ kind: "pending" }` while it is live; `{ kind: "result", result }` (the
   * completed result, or the `isError` result that failed it); `{ kind: "error", error }` (the
   * JSON-RPC error it failed with; -32602 for a cancelled task). Unknown, expired and other
   * sessions' tasks throw code -32602 (kind `not_found`).
   */
  resultOf(id: string, ctx?: TaskContext | null): ResultOf {
    const core = this.#core;
    try {
      readContext(core, this.#max, ctx);
      readId(core, this.#max, id);
      return core.resultOf(id, session, host, now);
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * Cancels the task; `protocolVersion` is that of the cancel request. An already terminal
   * task: under 2025-11-25 throws code -32602 (kind `already_terminal`); under 2026-07-28
   * answers it unchanged with `changed: false`.
   */
  cancel(id: string, protocolVersion: ProtocolVersion, message?: string | null, ctx?: TaskContext | null): CancelOutcome {
    const core = this.#core;
    try {
      readContext(core, this.#max, ctx);
      readId(core, this.#max, id);
      const cancelled = JSON.parse(core.cancel(id, protocolVersion, message, session, host, now));
      cancelled.task = this.#wire(cancelled.task);
      return cancelled;
    } catch (e) {
      throw storeError(e);
    }
  }

  /** Deletes the task now and answers it as it was. */
  remove(id: string, ctx?: TaskContext | null): StoreTask {
    const core = this.#core;
    try {
      readContext(core, this.#max, ctx);
      readId(core, this.#max, id);
      return storeTask(JSON.parse(core.remove(id, session, host, now)));
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * Purges expired tasks (at most `limit`, default all), earliest deadline first, at `now`
   * (Unix ms, default `Date.now()`); answers how many. Call it when you like: there is no
   * timer.
   */
  sweep(now?: number | null, limit?: number | null): number {
    try {
      return this.#core.sweep(now, limit);
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * The whole store as a JSON object (settings, cursor key, every record): for `restore`. It
   * holds the cursor key: keep it private.
   */
  snapshot(): Record<string, unknown> {
    return this.#core.snapshot();
  }

  /**
   * The writes since the last call, oldest first (always empty unless `recordChanges`):
   * persist them to keep a durable copy between snapshots. `record` is the stored record
   * exactly as `snapshot().tasks` holds it (opaque), `task` its view.
   */
  takeChanges(): StoreChange[] {
    const changes = JSON.parse(this.#core.takeChanges());
    for (const change of changes) if (change.task !== undefined) change.task = storeTask(change.task);
    return changes;
  }
}

/**
 * An MCP task server for both protocol versions (2025-11-25 and 2026-07-28): a `TaskStore`
 * that also answers `tasks/*` requests with exact JSON-RPC responses and turns `tools/call`
 * into tasks. It does no I/O and runs no tools: the host routes messages, runs the work and
 * reports how it ended.
 *
 * - `handle(request, ctx)`: every incoming request. `{ kind: "response", message, event? }`:
 *   send `message`; `event` says a task was cancelled or took input. `{ kind: "not-handled" }`:
 *   not a `tasks/*` request, route it yourself (a `tools/call` to `beginToolCall`).
 * - `beginToolCall(request, ctx, taskSupport)`: `sync` (run the tool, answer with
 *   `syncToolResponse`), `task` (send `response`, run the tool, then
 *   `finishToolCall(taskId, { result } | { error })`) or `reject` (send `response`).
 * - A V25 `tasks/result` on a live task blocks: `handle` answers `{ kind: "pending", … }`. The
 *   host keeps these pending results and calls `settle(pending)` after every `finishToolCall`
 *   and every `cancelled` event of that task (and after sweeps: a purged task settles with
 *   -32602); `settle` answers the response to send, or `null` while the task is live.
 *
 * `ctx` of the request methods is `{ protocolVersion, session?, declared?, now? }`
 * (`ServerContext`). The host shorthands (`getTask(taskId, now?)`, and `setStatus` /
 * `raiseInput` given a time, or nothing, as their last argument instead of a `TaskContext`)
 * act as the host, which sees every task. Every `TaskStore` method works too.
 */
class TaskServer extends TaskStore {
  /**
   * Answers one incoming message (an object or its JSON text). A message larger than
   * `maxRequestBytes` is refused before it is copied into wasm memory: the response is a
   * JSON-RPC error -32600 with `id: null` and `data: { maxRequestBytes }`.
   */
  handle(request: Record<string, unknown> | string, ctx: ServerContext): HandleOutcome {
    try {
      return coreOf(this).handle(request, ctx);
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * The response to a pending V25 `tasks/result` (the `pending` outcome of `handle`): `null`
   * while its task is live; the original result (with related-task `_meta`) or error once it
   * is terminal; -32602 once it is gone.
   */
  settle(pending: PendingResult, now?: number | null): Record<string, unknown> | null {
    try {
      return coreOf(this).settle(pending, now);
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * Decides how to answer a `tools/call` of a tool with task support `taskSupport` (V25: its
   * `execution.taskSupport`, absent = "forbidden"; V26: the server's policy for the call). A
   * task is stored before its `CreateTaskResult` is returned. A session at its live-task cap
   * gets a `reject` response with code -32010.
   */
  beginToolCall(request: Record<string, unknown> | string, ctx: ServerContext, taskSupport: TaskSupport): ToolCallStart {
    try {
      return coreOf(this).beginToolCall(request, ctx, taskSupport);
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * What `beginToolCall` would decide for this request, creating nothing: `sync`, `task` or
   * `reject` (with the error `response`). For work that must happen before a task exists
   * (MRTR rounds, §D 83): a call that will be refused is refused before any input is asked
   * (-32021, §D 78). `beginToolCall` decides again afterwards (and may still refuse, e.g. a
   * session at its live-task cap).
   */
  planToolCall(request: Record<string, unknown> | string, ctx: ServerContext, taskSupport: TaskSupport): ToolCallPlanned {
    try {
      return coreOf(this).planToolCall(request, ctx, taskSupport);
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * Stores how the tool of task `taskId` ended: `{ result }` (a `CallToolResult`) or
   * `{ error: { code, message, data? } }` (a thrown JSON-RPC error). A V25 result with
   * `isError: true` fails the task; V26 completes it. An already terminal task (cancelled
   * first) keeps its outcome: `already-terminal`. Then `settle` the pending results of it.
   */
  finishToolCall(taskId: string, outcome: ToolOutcome, now?: number | null): FinishOutcome {
    try {
      const finished = JSON.parse(coreOf(this).finishToolCall(taskId, outcome, now));
      if (finished.kind === "stored") finished.task = storeTask(finished.task);
      return finished;
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * The synchronous answer to a `tools/call` that ran to `outcome` (`{ result }` or
   * `{ error }`): the result (V26: with `resultType: "complete"` added when absent) or the
   * error. Uses no server state.
   */
  syncToolResponse(request: Record<string, unknown> | string, ctx: ServerContext, outcome: ToolOutcome): Record<string, unknown> {
    try {
      return coreOf(this).syncToolResponse(request, ctx, outcome);
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * The task `taskId` as the host sees it (any session). Unknown, expired and purged tasks
   * throw code -32602 (kind `not_found`).
   */
  getTask(taskId: string, now?: number | null): StoreTask {
    return this.get(taskId, { host: true, now: readNow(now) });
  }

  /** `TaskStore.setStatus`; given a time (or nothing) instead of a context, as the host. */
  setStatus(taskId: string, status: TaskStatus, message?: string | null, ctxOrNow?: TaskContext | number | null): StoreTask {
    return super.setStatus(taskId, status, message, hostContext(ctxOrNow));
  }

  /** `TaskStore.raiseInput`; given a time (or nothing) instead of a context, as the host. */
  raiseInput(taskId: string, inputRequests: V26InputRequests, message?: string | null, ctxOrNow?: TaskContext | number | null): StoreTask {
    return super.raiseInput(taskId, inputRequests, message, hostContext(ctxOrNow));
  }

  /**
   * §D 98: throws a `TaskStoreError` (code -32603, kind `invalid_input_request`) unless every
   * input request (key → `{ method, params }`) needs only client capabilities that `request`
   * (the V26 `tools/call` that created the task) declared in its own `_meta`: elicitation,
   * sampling, roots. Call it before `raiseInput` (TaskHost does). Either argument larger than
   * the default `maxRequestBytes` (16 MiB) throws a `TaskStoreError` (kind `too_large`).
   */
  static checkInputRequests(request: Record<string, unknown> | string, inputRequests: V26InputRequests) {
    try {
      TaskServerCore.checkInputRequests(request, inputRequests);
    } catch (e) {
      throw storeError(e);
    }
  }
}

/**
 * The context of a TaskServer host shorthand: a context object stays; a time (or nothing)
 * means the host at that time.
 */
function hostContext(ctxOrNow: TaskContext | number | null | undefined): TaskContext {
  if (typeof ctxOrNow === "object" && ctxOrNow !== null) return ctxOrNow;
  return { host: true, now: readNow(ctxOrNow) };
}

export { TaskStore, TaskServer };
