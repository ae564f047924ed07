// TaskStore and TaskServer: the task store and the request handler of the server entry, thin JS
// classes over ONE wasm class (TaskServerCore, src/wasm/server.rs + src/wasm/store.rs), where
// every rule lives. TaskServer is TaskStore plus the request handling (`handle`,
// `beginToolCall`, …) and the host's shorthands (`getTask`, and `setStatus` / `raiseInput` with a
// time instead of a context): one class and its subclass, no method written twice.
//
// What this layer does, for speed only:
// - reads the context `{ session?, host?, now? }` once, in JS, and passes its members as plain
//   arguments (a context it cannot read goes to the core, whose TypeError names what is wrong);
// - parses each answer once: the core answers a task as the JSON text of its `StoreTask`, V25
//   and V26 tasks both written by the core (src/store/answer.rs), as `{ revision, answer }`
//   where it is kept; the class freezes it (deeply) and builds nothing;
// - `complete`, `fail` and `failWithToolResult` make a deeply frozen copy of a plain result
//   (error) and send the JSON text `JSON.stringify` writes of it (the core reads it, as all JSON
//   text, with src/base/json.rs); the core answers the task without a payload it keeps as given
//   and names where it goes (`payloadAt`): the class puts the copy there (`attach`), so the
//   payload does not cross back;
// - keeps the last answer of each task read (`get`, `create`, the writes that answer the task
//   with its revision: the record's version, which every write to that task bumps; a terminal
//   write replaces a kept answer but does not start keeping one): `get` of an unexpired task the
//   caller may see answers that same object again while the store made no write at all since
//   (the core counts its writes), or, after writes, while the task is still at that revision
//   (one small call: `revision(id)`), so a write to one task leaves the other tasks' answers
//   kept. Every StoreTask is therefore frozen (deeply): copy what you want to change.
//
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).
import { TaskServerCore } from "./mcp_tasks_wasm.js";
import { storeError } from "./errors.js";
import type { ReceiverCore } from "./wasm.js";

/**
 * A TaskClient's receiver declares what it calls of this core (`ReceiverCore`, js/client/wasm.ts:
 * the client module's declarations do not name the core); checked here, where the core's are
 * known, so a change of a signature fails the type check instead of the receiver's calls.
 */
type Checked<T extends ReceiverCore> = T;
type ReceiverCoreChecked = Checked<TaskServerCore>;

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

export type Kept = { task: StoreTask; revision: number; writes: number; };

/**
 * An answer the core sends with the revision of its task (src/store/answer.rs `Revised`);
 * `payloadAt`: where in `answer` the payload left out goes.
 */
type Revised<T> = { revision: number; payloadAt?: string[]; answer: T; };

/** At most this many answers are kept (beyond it, the kept answers are dropped and keeping starts again). */
const KEPT_ANSWERS = 16_384;

/**
 * Freezes `value` and everything in it (answers are fresh trees from JSON.parse); a frozen
 * object is left as it is (an attached payload is frozen already).
 */
function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
  } else {
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) deepFreeze((value as Record<string, unknown>)[keys[i]]);
  }
  return value;
}

/**
 * Puts `payload` into `answer` at `path` (member names; the core wrote `null` there): the
 * payload of a terminal write, which the caller holds as a frozen copy.
 */
function attach(answer: Record<string, unknown>, path: string[], payload: unknown) {
  let at = answer;
  for (let i = 0; i < path.length - 1; i++) at = (at[path[i]] as Record<string, unknown>);
  at[path[path.length - 1]] = payload;
}

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
 * Forgets the answers `store` keeps (`kept`): its records were replaced from outside, and a
 * record loaded may have the revision of a kept answer it does not show (another replica's
 * write of the same version, after a write of this store's that was never stored).
 */
let forgetAnswers: (store: TaskStore) => void;

/**
 * Replaces what `store` holds by what `snapshot` (JSON text) describes, checked as `restore`
 * checks it, keeping the store: the shared server runs operation after operation on one core
 * over the records it read (no new core per operation). Not part of the package's API.
 */
export function reloadStore(store: TaskStore, snapshot: string, options?: RestoreOptions | null) {
  try {
    forgetAnswers(store);
    coreOf(store).reload(snapshot, options);
  } catch (e) {
    throw storeError(e);
  }
}

/**
 * How many writes `store` has made (creates, updates, deletes): unchanged across an operation,
 * the operation recorded no change. Not part of the package's API.
 */
export function storeWrites(store: TaskStore): number {
  return coreOf(store).writes();
}

/**
 * The writes of `store` since the last take, records only (no task views): what the shared
 * server stores. Not part of the package's API.
 */
export function takeStoredChanges(store: TaskStore): unknown[] {
  try {
    return JSON.parse(coreOf(store).takeStoredChanges());
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
    forgetAnswers(store);
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
    forgetAnswers = (store) => store.#kept.clear();
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

  /** A task answer from the core's text (`{ revision, answer }`), frozen and kept. */
  #task(text: string): StoreTask {
    const r = (JSON.parse(text) as Revised<StoreTask>);
    return this.#keep(deepFreeze(r.answer), r.revision);
  }

  /** An outcome with a task (`takeInput`, `cancel`) from the core's text: its task frozen and kept. */
  #outcome<T extends { task: StoreTask; }>(text: string): T {
    const r = (JSON.parse(text) as Revised<T>);
    r.answer.task = this.#keep(deepFreeze(r.answer.task), r.revision);
    return r.answer;
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
      for (const task of listed.tasks) deepFreeze(task);
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
      return this.#outcome(core.takeInput(id, inputResponses, session, host, now));
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
    return this.#terminal("complete", id, result, message, ctx);
  }

  /**
   * Fails the task with the JSON-RPC error the original request ended with. On a terminal
   * task: as `complete`.
   */
  fail(id: string, error: JsonRpcError, message?: string | null, ctx?: TaskContext | null): StoreTask {
    return this.#terminal("fail", id, error, message, ctx);
  }

  /**
   * Fails a 2025-11-25 task with the tool result (`isError: true`) its tool call returned
   * (§D 44): `tasks/result` then answers that result. Throws code -32603 (kind
   * `invalid_tool_failure`) when `result.isError` is not `true` or the task was created under
   * 2026-07-28 (where such a result completes the task, §D 91). On a terminal task: as
   * `complete`.
   */
  failWithToolResult(id: string, result: Record<string, unknown>, message?: string | null, ctx?: TaskContext | null): StoreTask {
    return this.#terminal("failWithToolResult", id, result, message, ctx);
  }

  /**
   * A terminal write (`complete`, `fail`, `failWithToolResult`: the core's method of that name)
   * of `payload`: its JSON text crosses when it can be written (of its frozen copy when it is
   * plain data, `frozenCopy`; else `jsonText`). The core checks the text as it checks a value
   * (src/base/json.rs reads it) and answers the task as `get` does; told that the class holds
   * the frozen copy, without a payload it keeps as given: the copy is put where it says.
   */
  #terminal(write: "complete" | "fail" | "failWithToolResult", id: string, payload: object, message: string | null | undefined,
    ctx: TaskContext | null | undefined): StoreTask {
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
      const bare = copy !== NOT_PLAIN;
      return this.#terminalAnswer(id, core.terminal(TERMINAL_KIND[write], id, payload, text, bare, message, session, host, now), copy);
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * A terminal write's answer from the core's text (`{ revision, payloadAt?, answer }`), with
   * `copy` (the payload's frozen copy) put where `payloadAt` says, frozen. It replaces a kept
   * answer but does not start keeping one: a task nobody has read since its last write is kept
   * from its next read on (`get`), not from here.
   */
  #terminalAnswer(id: string, text: string, copy: unknown): StoreTask {
    const r = (JSON.parse(text) as Revised<StoreTask>);
    if (r.payloadAt !== undefined) attach((r.answer as unknown as Record<string, unknown>), r.payloadAt, copy);
    const task = deepFreeze(r.answer);
    const entry = this.#kept.get(id);
    if (entry !== undefined) {
      entry.task = task;
      entry.revision = r.revision;
      entry.writes = this.#core.writes();
    }
    return task;
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
      return this.#outcome(core.cancel(id, protocolVersion, message, session, host, now));
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
      return deepFreeze((JSON.parse(core.remove(id, session, host, now)) as Revised<StoreTask>).answer);
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
    for (const change of changes) if (change.task !== undefined) deepFreeze(change.task);
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
      if (finished.kind === "stored") deepFreeze(finished.task);
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
