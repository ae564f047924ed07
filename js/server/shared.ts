// SharedTaskServer: the TaskServer of replicas. Its tasks live in a TaskStorage (the
// asynchronous storage contract of ./storage/types.ts: memory, SQLite, Postgres, Redis) that
// several processes share, so a task created on one replica is read, answered, cancelled and
// pushed on any other, and survives the replica that created it.
//
// Every operation is the store's own, run by the core (TaskServerCore, in Rust) over the records
// it needs, read from the storage just before:
//   read      the task the request names (`get`), a `tasks/list` page (`rangeAfter` from the
//             position the cursor encodes: `listPosition`, src/wasm/rules.rs), nothing for a new
//             task (the storage numbers it and checks the session's cap as it inserts it:
//             `insertNew`, clause 14; a storage without it: `nextSequence` and `countLive`);
//   rule      a core of the replica's holding those records runs the operation exactly as the
//             in-memory TaskServer does (the same Rust: responses, errors, state machine, TTLs,
//             cursors) and records the writes it made: the held core for an operation on one task
//             and a create the storage numbers (it keeps what it ran on: `holding`), else the
//             scratch core, its records replaced by those read (no new core each time);
//   write     each write goes to the storage as a compare-and-set (`putIfVersion` on the
//             version read); when another replica wrote first, the whole operation is read and
//             run again (at most CAS_ATTEMPTS times, then a TaskStoreError of kind `conflict`).
// No rule is written here: this file moves records between the storage and the core.
// Reads spared: the last revision of each task this replica wrote or read is kept (`known`,
// at most `maxKnownBytes` of JSON) until the change feed announces a later one. A write of the work
// running here (outcome, status, input request) runs on it and compare-and-sets against its
// version (read again only when that loses or writes nothing); the feed's news of a revision it
// holds, a blocked `tasks/result` and any request about a task it knows ended (an ended task
// never changes; its delete is announced) are answered from it; `tasks/cancel` and
// `tasks/update` compare-and-set on it. So an operation makes at most one read and one
// compare-and-set write; a new task one write (`insertNew`; without it one read,
// `nextSequenceWithLive` of clause 13, and one write).
// A write under way: from the moment an operation ran on the held core until its write is stored
// or refused, the held core's record of the task is ahead of the storage's (`ahead`). No
// operation runs on it meanwhile (the scratch core does), and a read of the task waits for the
// write first, so no answer ever shows a write that was not stored; a tasks/get or tasks/result
// racing the outcome of the work running here is then answered from the terminal record stored,
// without a read.
//
// Replicas share: the storage, the settings (`TaskStoreOptions`, the same on every replica) and
// the cursor key (`cursorKey`, so a `tasks/list` cursor from one replica works on the others).
//
// The change feed (`storage.subscribe`) tells TaskHost of writes made by any replica
// (`watchChanges`): a cancel made on B aborts the work running on A, input answered on C wakes
// it, a push subscriber on B hears of A's progress.
//
// Leases: a task whose work this replica runs (created by `beginToolCall`) carries a lease in its
// stored record (`lease: { owner, beat, ms }`, next to the core's members; the core ignores it
// and this file carries it over on every write while the task is live). The replica renews the
// lease every `renewMs` (default `leaseMs / 3`) while the work runs (`release` when it ends):
// a renewal raises `beat`, a counter, not a time, so no replica ever compares its clock with
// another's. A replica's `sweep` declares a lease lost only once it has itself seen the same
// lease (same owner and beat) for longer than `ms + leaseGraceMs` on its OWN monotonic clock
// (`clock`): clock skew between replicas changes nothing, and a storage outage shorter than the
// grace fails no task (the owner keeps running its work and renews when the storage is back).
// It then fails the task with the JSON-RPC error LEASE_LOST (-32603, "the replica running this
// task stopped"), so a client polling it sees `failed` instead of `working` until its TTL. The
// task stays readable until its TTL, as always. The lease check reads the live records only
// (`rangeLive`, an index), at most `maxLeaseChecks` per sweep (the next sweep goes on from there).
// Renewal passes never overlap (a tick that finds one running is skipped); a pass reads and
// writes the leases RENEW_BATCH at a time (`getMany`, `putEachIfVersion`: one statement or
// pipeline each), or, over a storage without them, RENEW_PARALLEL tasks at once.
//
// A finished task's outcome that the storage refuses for a while (an `engine` StorageError: the
// database is unreachable) is written again with backoff (100 ms doubling to 5 s) until it is
// stored, the task's TTL passes or `terminalRetryMs` has passed; the lease is renewed meanwhile.
//
// TypeScript compiled by scripts/build-ts.mjs (tsc; CommonJS twin by esbuild); no `node:` module.
import { TaskServer, reloadStore, loadStore, storeWrites, takeStoredChanges } from "./store.js";
import { TaskStoreError, storeError, resultTooLarge } from "./errors.js";
import { listPosition } from "./mcp_tasks_wasm.js";
import { INTERNALS } from "./internals.js";
import { V25 } from "./protocol.js";

export type StoreTask = import("./store.js").StoreTask;

export type HandleOutcome = import("./store.js").HandleOutcome;

export type PendingResult = import("./store.js").PendingResult;

export type ServerContext = import("./store.js").ServerContext;

export type TaskSupport = import("./store.js").TaskSupport;

export type ToolCallStart = import("./store.js").ToolCallStart;

export type ToolCallPlanned = import("./store.js").ToolCallPlanned;

export type FinishOutcome = import("./store.js").FinishOutcome;

export type ToolOutcome = import("./store.js").ToolOutcome;

export type TaskStatus = import("./store.js").TaskStatus;

export type V26InputRequests = import("./store.js").V26InputRequests;

export type TaskStoreOptions = import("./store.js").TaskStoreOptions;

export type TaskContext = import("./store.js").TaskContext;

export type CreateTaskParams = import("./store.js").CreateTaskParams;

export type ListParams = import("./store.js").ListParams;

export type TaskPage = import("./store.js").TaskPage;

export type TakeInputOutcome = import("./store.js").TakeInputOutcome;

export type CancelOutcome = import("./store.js").CancelOutcome;

export type ResultOf = import("./store.js").ResultOf;

export type ProtocolVersion = import("./store.js").ProtocolVersion;

export type JsonRpcError = import("./store.js").JsonRpcError;

export type V26InputResponses = import("./store.js").V26InputResponses;

export type Scope = { kind: "all"; } | { kind: "session"; session: string | null; };

/** The members of a stored record read here. */
export type StoredTask = {
  id: string; version: number; seq: number; session?: string | null; owner?: string | null; status: TaskStatus;
  createdAtMs: number; ttlMs: number | null;
};

/** The storage contract (mcp-tasks-wasm/storage, storage/types.ts), as far as this file uses it. */
export type TaskStorage = {
  get: (id: string) => Promise<StoredTask | null>;
  putIfVersion: (record: StoredTask, expected: number | null) => Promise<boolean>;
  delete: (id: string) => Promise<StoredTask | null>;
  rangeAfter: (scope: Scope, after: number, limit: number) => Promise<StoredTask[]>;
  /** Clause 10 (absent in a storage written before it: the lease check reads every record). */
  rangeLive?: (after: number, limit: number) => Promise<StoredTask[]>;
  /** Clauses 11 and 12 (absent: renewals read and write one task at a time). */
  getMany?: (ids: string[]) => Promise<Array<StoredTask | null>>;
  putEachIfVersion?: (entries: Array<{ record: StoredTask; expected: number; }>) => Promise<boolean[]>;
  expired: (nowMs: number, limit: number) => Promise<string[]>;
  countLive: (session: string | null) => Promise<number>;
  nextSequence: () => Promise<number>;
  /** Clause 14 (absent: a new task takes `nextSequenceWithLive`, then `putIfVersion`). */
  insertNew?: (record: StoredTask, cap: number | null) => Promise<{ seq: number; } | { seq: null; live: number | null; }>;
  /** Clause 13 (absent: `nextSequence` and `countLive`, two round trips). */
  nextSequenceWithLive?: (session: string | null) => Promise<{ sequence: number; live: number; }>;
  subscribe: (listener: (change: { kind: "put" | "delete"; id: string; version: number; }) => void) => Promise<() => Promise<void>>;
  close: () => Promise<void>;
};

/**
 * A lease: its owner, its renewal counter and its length in ms (`untilMs`: the wall-clock lease
 * of earlier versions, read as a counter too).
 */
export type Lease = { owner: string; beat?: number; ms?: number; untilMs?: number; };

export type LeasedTask = StoredTask & { lease?: Lease; rerun?: RerunMemo; };

/**
 * What a replica needs to run a task's work again (`rerun`, next to the lease in the stored
 * record; the core ignores it): the tool, the call as it came, and the runs so far.
 */
export type RerunMemo = {
  tool: string;
  /** The arguments the handler was given. */
  arguments: Record<string, unknown>;
  /** The `tools/call` that created the task (`ToolContext.request`). */
  request: Record<string, unknown>;
  /** Its context without `now` (`ToolContext.context`). */
  context: Record<string, unknown>;
  /** What the tool's `prepare` returned, as JSON (absent: nothing). */
  prepared?: unknown;
  /** The run under way: 1 for the first, one more for each re-run. */
  attempt: number;
  /** At most this many runs in all. */
  maxAttempts: number;
};

/**
 * Set by a TaskHost over this server: whether this replica has tool `tool` (re-runnable), how to
 * run a task's work again once this replica holds its lease, and how to stop the work of a task
 * whose lease another replica took.
 */
export type Rerunner = {
  has: (tool: string) => boolean;
  start: (taskId: string, memo: RerunMemo) => void;
  lost: (taskId: string) => void;
};

export type CoreChange = { kind: "created" | "updated"; record: StoredTask; } | { kind: "deleted"; taskId: string; };

export type SharedTaskServerOptions = {
  /**
   * The key of `tasks/list` cursors: 32 lowercase hex digits, secret, the same on every replica
   * (e.g. `openssl rand -hex 16`).
   */
  cursorKey: string;
  /** The store's settings (the same on every replica; default TaskStore's). */
  store?: TaskStoreOptions;
  /** This replica's name in the leases it holds (default random). */
  replicaId?: string;
  /** How long a lease lasts unrenewed, in ms (default 30 000). */
  leaseMs?: number;
  /**
   * How much longer than `leaseMs` another replica waits before it fails a task whose lease it
   * has seen unrenewed, in ms (default 30 000): the longest storage outage (a failover) that
   * fails no running task.
   */
  leaseGraceMs?: number;
  /** How often the leases of the work running here are renewed, in ms (default `leaseMs / 3`). */
  renewMs?: number;
  /**
   * How long a finished task's outcome is written again while the storage refuses it (unreachable),
   * in ms (default 900 000; never past the task's TTL).
   */
  terminalRetryMs?: number;
  /** At most this many live records are read by the lease check of one `sweep` (default 4096). */
  maxLeaseChecks?: number;
  /**
   * At most this many bytes of records (their JSON; the last this replica wrote or read of each
   * task, until the change feed announces a later revision) are kept to spare reads (default
   * 8 MiB; 0: none); a record over an eighth of it is not kept.
   */
  maxKnownBytes?: number;
  /** This replica's monotonic clock, in ms (default `performance.now`): what leases are timed by. */
  clock?: () => number;
  /** Called when a lease renewal or the change feed fails (default `console.error`). */
  onError?: (error: unknown) => void;
};

/** How many leases one renewal pass renews at once, one at a time each (a storage without batches). */
const RENEW_PARALLEL = 16;
/** How many leases one batch of a renewal pass reads and writes. */
const RENEW_BATCH = 256;
/** The first and the longest pause between writes of a finished task's outcome the storage refused. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5000;

/** The default monotonic clock: `performance.now()` where there is one (browsers, Deno, Node). */
function monotonic(): () => number {
  const perf = (globalThis as { performance?: { now?: () => number } }).performance;
  if (perf !== undefined && typeof perf.now === "function") return () => perf.now!();
  return Date.now;
}

/** What identifies one renewal of a lease (a new beat or owner: a new key). */
function leaseKey(lease: Lease): string {
  return JSON.stringify([lease.owner, lease.beat ?? null, lease.untilMs ?? null]);
}

/** Whether `e` says the storage could not be reached (worth writing again), not a refusal. */
function unavailable(e: unknown): boolean {
  return e instanceof Error && e.name === "StorageError" && (e as Error & { kind?: unknown }).kind === "engine";
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** At most this many records are held by the core of the operations on one task (`heldCore`). */
const HELD_MAX = 1024;
/** Where the held core's own numbering starts (see `startHeld`); stored numbers stay far below. */
const HELD_SEQUENCE = 2 ** 52;
/** How many times an operation is read and run again after losing a compare-and-set. */
const CAS_ATTEMPTS = 8;
/** At most this many records are read per `rangeAfter` / `expired` call. */
const BATCH = 256;
/** The format of the scratch core's snapshot (src/store/ops.rs SNAPSHOT_FORMAT). */
const SNAPSHOT_FORMAT = "mcp-tasks-wasm/store/1";
/** The error a task fails with when the replica running its work stopped (its lease ran out). */
const LEASE_LOST = Object.freeze({
  code: -32603,
  message: "Internal error: the replica running this task stopped before it finished (its work lease ran out)",
});
const TERMINAL = ["completed", "failed", "cancelled"];

/** The error a re-runnable task fails with once its last run's replica stopped too. */
function rerunsExhausted(memo: RerunMemo) {
  return {
    code: -32603,
    message: `Internal error: the replica running this task stopped before it finished (its work lease ran out), and its runs are exhausted (attempt ${memo.attempt} of ${memo.maxAttempts})`,
    data: { attempts: memo.attempt, maxAttempts: memo.maxAttempts },
  };
}

/** The status message of a task whose work another replica runs again. */
export function rerunMessage(attempt: number, maxAttempts: number): string {
  return `re-running on another replica (attempt ${attempt} of ${maxAttempts})`;
}
const TASK_METHODS = ["tasks/get", "tasks/result", "tasks/cancel", "tasks/update"];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** @returns the expiry of clause 5 of the storage contract */
function expiresAt(r: StoredTask): number | null {
  return r.ttlMs === null || r.ttlMs === undefined ? null : r.createdAtMs + r.ttlMs;
}

function readNow(at: number | null | undefined): number {
  if (at === undefined || at === null) return Date.now();
  if (typeof at === "number" && Number.isSafeInteger(at) && at >= 0) return at;
  throw new TypeError("`now` must be a non-negative integer (Unix milliseconds)");
}

/**
 * A `TaskContext` with its time filled in (`Date.now()` when absent); anything else is left for
 * the core to refuse with the TypeError naming it.
 */
function readContext(ctx: TaskContext | null | undefined): TaskContext & { now: number; } {
  if (ctx === undefined || ctx === null) return { now: Date.now() };
  if (!isObject(ctx)) return (ctx as TaskContext & { now: number });
  const now = (ctx.now as number | null | undefined); // not a number: the core refuses it
  return { ...ctx, now: now === undefined || now === null ? Date.now() : now };
}

/** The context of a host shorthand: a context object stays; a time (or nothing) means the host. */
function hostContext(ctxOrNow: TaskContext | number | null | undefined): TaskContext & { now: number; } {
  if (typeof ctxOrNow === "object" && ctxOrNow !== null) return readContext(ctxOrNow);
  return { host: true, now: readNow(ctxOrNow) };
}

/** @returns 16 random bytes as hex */
function randomHex(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The conflict error of an operation that kept losing its compare-and-set. */
function conflict() {
  return new TaskStoreError(`Internal error: the task kept changing under this operation (${CAS_ATTEMPTS} attempts)`, {
    code: -32603,
    kind: "conflict",
  });
}

/** Thrown inside an attempt when a compare-and-set lost: the operation runs again. */
class Lost extends Error {}

/**
 * What one attempt read: the records the scratch core starts from, the sequence it continues
 * after, and whether a task it creates carries this replica's lease.
 */
export type Reads = {
  records: LeasedTask[]; sequence?: number; lease?: boolean; rerun?: RerunMemo; take?: string; kept?: boolean; one?: string;
  /** A created task is stored by `insertNew` (clause 14) under this cap of its session's live tasks (`null`: none). */
  create?: number | null;
  /** Set by the write: `insertNew` refused the task, the session holding this many live tasks. */
  full?: number;
};

class SharedTaskServer {
  #storage: TaskStorage;
  #config: Record<string, unknown>;
  #cursorKey: string;
  #replicaId: string;
  #leaseMs: number;
  #leaseGraceMs: number;
  #renewMs: number;
  #terminalRetryMs: number;
  #maxLeaseChecks: number;
  #clock: () => number;
  #onError: (error: unknown) => void;
  #planner: TaskServer;
  #leased: Map<string, number | null>;
  #observed: Map<string, { key: string; since: number; limit: number; cycle: number; }>;
  #leaseCursor: number;
  #leaseCycle: number;
  #renewing: Promise<void> | null;
  #renewStats: { passes: number; skipped: number; };
  #changeListeners: Set<(taskId: string, version?: number) => void>;
  #known: Map<string, LeasedTask>;
  #knownSizes: Map<string, number>;
  #knownBytes: number;
  #writing: Map<string, Promise<void>>;
  #maxKnownBytes: number;
  #unsubscribe: (() => Promise<void>) | null;
  #renewer: ReturnType<typeof setInterval> | null;
  #closed: boolean;
  /** The TaskHost's re-run hooks (`null`: no host, a lost lease fails its task). */
  #rerunner: Rerunner | null = null;
  /** The core every operation runs on, its records replaced each time (`#scratch`). */
  #scratchCore: TaskServer | null = null;
  /** The core's settings as JSON text, changes recorded. */
  #scratchConfig: string;
  /**
   * The core of the operations on one task (`Reads.one`): it keeps the records it ran on, so an
   * operation on a task it holds at the revision read loads nothing (`held`: their revisions and
   * the number of the load that brought each in, `heldLoads` counting the loads; their JSON bytes
   * in `heldBytes`, at most `maxKnownBytes`).
   */
  #heldCore: TaskServer | null = null;
  #held: Map<string, { version: number; load: number; }> = new Map();
  #heldLoads = 0;
  #heldBytes = 0;
  /** How many times the held core started over (or was dropped): what it created before is gone. */
  #heldStarts = 0;
  /** The held core's settings: the scratch core's without the session cap (see `startHeld`). */
  #heldConfig: string;
  /**
   * The tasks whose record in the held core is ahead of the storage's: an operation ran on it and
   * its write is under way. Each settles once that write is stored or refused (and the held
   * core dropped). No operation runs on such a record (`holding`), and a read of the task waits
   * for the write first (`settled`), so no answer ever shows a write that was not stored.
   */
  #ahead: Map<string, Promise<void>> = new Map();
  /** Use `SharedTaskServer.open`. */
  constructor(storage: TaskStorage, config: Record<string, unknown>, options: SharedTaskServerOptions) {
    /** The storage the tasks live in. */
    this.#storage = storage;
    /** The core's settings (the `config` of its snapshots). */
    this.#config = config;
    this.#scratchConfig = JSON.stringify({ ...config, recordChanges: true });
    this.#heldConfig = JSON.stringify({ ...config, recordChanges: true, maxLiveTasksPerSession: null });
    this.#cursorKey = options.cursorKey;
    this.#replicaId = options.replicaId ?? randomHex();
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#leaseGraceMs = options.leaseGraceMs ?? 30_000;
    this.#renewMs = options.renewMs ?? Math.max(1, Math.floor(this.#leaseMs / 3));
    this.#terminalRetryMs = options.terminalRetryMs ?? 900_000;
    this.#maxLeaseChecks = options.maxLeaseChecks ?? 4096;
    this.#clock = options.clock ?? monotonic();
    this.#onError = options.onError ?? ((e) => console.error("SharedTaskServer:", e));
    /** For the methods that read no task (planToolCall, syncToolResponse). */
    this.#planner = new TaskServer(((options.store ?? null) as TaskStoreOptions));
    /** Tasks whose work runs here (their leases are renewed), and when each expires (Unix ms). */
    this.#leased = new Map();
    /**
     * Leases of live tasks this replica's sweeps have seen: since when (on `clock`) each key is
     * unchanged, how long it may stay so, and in which cycle of the lease check it was last seen.
     */
    this.#observed = new Map();
    /** Where the next lease check goes on (a seq), and how many full cycles it has made. */
    this.#leaseCursor = 0;
    this.#leaseCycle = 0;
    /** The renewal pass under way, if any (never two at once). */
    this.#renewing = null;
    /** Renewal passes run, and ticks skipped because one was still running. */
    this.#renewStats = { passes: 0, skipped: 0 };
    this.#changeListeners = new Set();
    /**
     * The last revision of each task this replica wrote or read, while the change feed has
     * announced no later one (at most `maxKnownBytes`, the oldest dropped first): what spares the
     * reads of a write on the task this replica's own work runs, of a blocked `tasks/result`
     * and of the feed's own changes. Forgotten at every `sweep` (a change the feed lost, at most
     * once, is then read again).
     */
    this.#known = new Map();
    /** The JSON length of each record kept, and their sum. */
    this.#knownSizes = new Map();
    this.#knownBytes = 0;
    this.#maxKnownBytes = options.maxKnownBytes ?? 8 * 1024 * 1024;
    /** The write of each task under way here (settled when it is stored or refused). */
    this.#writing = new Map();
    this.#unsubscribe = null;
    this.#renewer = null;
    this.#closed = false;
  }

  /** A server over `storage`, once its change feed is live. */
  static async open(storage: TaskStorage, options: SharedTaskServerOptions): Promise<SharedTaskServer> {
    if (!isObject(storage) || typeof storage.putIfVersion !== "function" || typeof storage.subscribe !== "function") {
      throw new TypeError("SharedTaskServer.open: `storage` must be a TaskStorage (mcp-tasks-wasm/storage)");
    }
    if (!isObject(options) || typeof options.cursorKey !== "string" || !/^[0-9a-f]{32}$/.test(options.cursorKey) || /^0+$/.test(options.cursorKey)) {
      throw new TypeError("SharedTaskServer.open: `cursorKey` must be 32 lowercase hex digits, not all zeros, the same on every replica");
    }
    const lease = options.leaseMs;
    if (lease !== undefined && !(Number.isSafeInteger(lease) && lease >= 3)) {
      throw new TypeError("SharedTaskServer.open: `leaseMs` must be an integer of at least 3 (ms)");
    }
    for (const name of ["leaseGraceMs", "renewMs", "terminalRetryMs", "maxLeaseChecks", "maxKnownBytes"] as const) {
      const v = options[name];
      const least = name === "leaseGraceMs" || name === "terminalRetryMs" || name === "maxKnownBytes" ? 0 : 1;
      if (v !== undefined && !(Number.isSafeInteger(v) && v >= least)) {
        throw new TypeError(`SharedTaskServer.open: \`${name}\` must be an integer of at least ${least}`);
      }
    }
    if (options.renewMs !== undefined && options.renewMs >= (lease ?? 30_000)) {
      throw new TypeError("SharedTaskServer.open: `renewMs` must be shorter than `leaseMs` (a lease would run out between renewals)");
    }
    if (options.clock !== undefined && typeof options.clock !== "function") {
      throw new TypeError("SharedTaskServer.open: `clock` must be a function answering milliseconds");
    }
    if (options.replicaId !== undefined && (typeof options.replicaId !== "string" || options.replicaId === "")) {
      throw new TypeError("SharedTaskServer.open: `replicaId` must be a non-empty string");
    }
    // The settings as the core reads them (it checks the options).
    const probe = new TaskServer(((options.store ?? null) as TaskStoreOptions));
    const config = (probe.snapshot().config as Record<string, unknown>);
    probe.free();
    const server = new SharedTaskServer(storage, config, options);
    const dispatch = (change: { kind: "put" | "delete"; id: string; version: number; }) => {
      // A later revision than the one kept (or a delete): the kept one is stale.
      const kept = server.#known.get(change.id);
      if (kept !== undefined && (change.kind === "delete" || change.version > kept.version)) server.#forget(change.id);
      for (const listener of [...server.#changeListeners]) {
        try {
          listener(change.id, change.version);
        } catch (e) {
          server.#onError(e);
        }
      }
    };
    server.#unsubscribe = await storage.subscribe((change) => {
      // Heard before this replica's own write of the task resolved: told once it is kept.
      const writing = server.#writing.get(change.id);
      if (writing === undefined) dispatch(change);
      else writing.then(() => dispatch(change));
    });
    return server;
  }

  /**
   * Calls `listener` with the id of every task written by any replica sharing the storage and
   * its new revision (the storage's change feed: asynchronous, at most once; read the task again
   * to see it: `getTask(taskId, now, version)`). Returns the function that stops it.
   */
  watchChanges(listener: (taskId: string, version?: number) => void): () => void {
    this.#changeListeners.add(listener);
    return () => {
      this.#changeListeners.delete(listener);
    };
  }

  // ---- the core's operations over the storage ------------------------------------------------------

  /**
   * Runs `op` on a scratch core holding what `read` read, writes what it wrote, and answers what
   * it answered; reads and runs again when another writer came first.
   */
  async #run<T>(read: () => Promise<Reads>, op: (core: TaskServer) => T): Promise<T> {
    if (this.#closed) throw new TaskStoreError("Internal error: the store is closed", { code: -32603, kind: "conflict" });
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      const reads = await read();
      // Loaded, run and emptied of its changes with no await between: one core serves all.
      const held = this.#holding(reads);
      const loads = this.#heldLoads;
      const starts = this.#heldStarts;
      const core = held ?? this.#scratch(reads);
      let answer: T;
      let changes: CoreChange[];
      try {
        const writes = storeWrites(core);
        answer = op(core);
        // Most operations (reads, a pending result) write nothing: no changes to take.
        changes = storeWrites(core) === writes ? [] : (takeStoredChanges(core) as CoreChange[]);
      } catch (e) {
        try {
          takeStoredChanges(core); // a failed operation writes nothing: none of its changes is ever written
        } catch {
          // the core is dropped below (held) or reloaded by the next attempt (scratch)
        }
        if (held !== null) this.#dropHeld();
        // A kept record may be stale: only the storage's own says that the operation fails.
        if (reads.kept === true) continue;
        throw e;
      }
      // Run on a kept record and nothing written: no compare-and-set confirmed it, read it.
      if (reads.kept === true && changes.length === 0) continue;
      const stored = held === null || changes.length === 0 ? null : this.#markAhead(changes);
      try {
        // The held core's record of each task is its stored one from the moment it is stored
        // (a read in between may already find that revision kept).
        await this.#write(reads, changes, held === null ? null : (c) => this.#heldWrote(c, loads, starts));
      } catch (e) {
        // What the core holds may now differ from the storage's record of the same revision.
        if (held !== null) this.#dropHeld();
        stored?.();
        if (e instanceof Lost) continue;
        throw e;
      }
      stored?.();
      return answer;
    }
    throw conflict();
  }

  /**
   * The core of an operation on one task (`reads.one`), holding the record read: loaded only
   * when it holds another revision (or none), the other records it holds kept. `null`: the
   * operation runs on the scratch core (it reads or creates several records, or holding is off).
   */
  #holding(reads: Reads): TaskServer | null {
    if (reads.sequence !== undefined || this.#maxKnownBytes === 0) return null;
    const held = this.#held;
    const core = this.#heldCore;
    if (reads.create !== undefined && reads.records.length === 0) {
      // A new task (clause 14: the storage numbers it and checks the cap): created beside the
      // records held, kept there once stored (`heldWrote`).
      if (core !== null && this.#heldBytes <= this.#maxKnownBytes && held.size < HELD_MAX) return core;
      try {
        this.#startHeld([]);
      } catch (e) {
        this.#dropHeld();
        throw storeError(e);
      }
      return this.#heldCore;
    }
    const id = reads.one;
    if (id === undefined) return null;
    // Its record there is ahead of the storage's (a write under way): the scratch core runs it.
    if (this.#ahead.has(id)) return null;
    if (core !== null && reads.records.every((r) => held.get(r.id)?.version === r.version) && (reads.records.length > 0 || !held.has(id))) return core;
    const stale = reads.records.filter((r) => held.get(r.id)?.version !== r.version);
    const text = JSON.stringify(stale);
    try {
      if (core === null || this.#heldBytes + text.length > this.#maxKnownBytes || held.size >= HELD_MAX || (reads.records.length === 0 && held.has(id))) {
        // Over its bound (or a task it holds is gone): it starts over from the records read.
        this.#startHeld(reads.records);
      } else {
        loadStore(core, text);
        this.#heldBytes += text.length;
      }
    } catch (e) {
      this.#dropHeld();
      throw storeError(e);
    }
    const load = ++this.#heldLoads;
    for (const r of reads.records) held.set(r.id, { version: r.version, load });
    return this.#heldCore;
  }

  /**
   * The held core starts over from `records` (the others it held are gone). Its settings have no
   * session cap: it creates only tasks that `insertNew` stores, which checks the cap itself.
   */
  #startHeld(records: LeasedTask[]) {
    const all = JSON.stringify(records);
    // The tasks it creates are numbered from 2^52 on, where no stored task's number reaches: a
    // record loaded later never meets one of them at its `seq` (the core would drop that one).
    const snapshot = `{"format":"${SNAPSHOT_FORMAT}","config":${this.#heldConfig},"cursorKey":"${this.#cursorKey}","sequence":${records.reduce((m, r) => Math.max(m, r.seq), HELD_SEQUENCE)},"tasks":${all}}`;
    this.#held.clear();
    this.#heldStarts += 1;
    this.#heldBytes = all.length;
    if (this.#heldCore === null) this.#heldCore = TaskServer.restore(snapshot, { maxSnapshotBytes: null });
    else reloadStore(this.#heldCore, snapshot, { maxSnapshotBytes: null });
  }

  /**
   * The held core's record after its change `c` (by an operation that ran when `loads` loads
   * and `starts` starts were done) is stored. A record loaded again since the run holds what
   * that load read, as `held` says, and one the core no longer holds (it started over, or was
   * dropped) is not there: either way the write does not describe it.
   */
  #heldWrote(c: CoreChange, loads: number, starts: number) {
    const id = c.kind === "deleted" ? c.taskId : c.record.id;
    if (c.kind === "created") {
      // Created by this core and stored: held, unless the core started over meanwhile.
      if (starts === this.#heldStarts) {
        this.#held.set(id, { version: c.record.version, load: loads });
        this.#heldBytes += this.#knownSizes.get(id) ?? 1024;
      }
      return;
    }
    const entry = this.#held.get(id);
    if (entry === undefined || entry.load > loads) return;
    if (c.kind === "deleted") this.#held.delete(id);
    else {
      this.#held.set(id, { version: c.record.version, load: entry.load });
      this.#heldBytes += this.#knownSizes.get(id) ?? 1024;
    }
  }

  /**
   * Marks the tasks of `changes` ahead in the held core (see `ahead`) until the function it
   * answers is called.
   */
  #markAhead(changes: CoreChange[]): () => void {
    let done = () => {};
    const settled = new Promise<void>((resolve) => (done = resolve));
    const ids = changes.map((c) => (c.kind === "deleted" ? c.taskId : c.record.id));
    for (const id of ids) this.#ahead.set(id, settled);
    return () => {
      for (const id of ids) if (this.#ahead.get(id) === settled) this.#ahead.delete(id);
      done();
    };
  }

  /**
   * Settles once no write of `id` by this replica is under way (a bounded number of them: the
   * operations on one task are few); at once when none is.
   */
  async #settled(id: string) {
    for (let i = 0; i < CAS_ATTEMPTS; i++) {
      const ahead = this.#ahead.get(id);
      if (ahead === undefined) return;
      await ahead;
    }
  }

  /** Forgets what the held core holds: the next operation on it loads from scratch. */
  #dropHeld() {
    this.#held.clear();
    this.#heldStarts += 1;
    this.#heldBytes = Number.MAX_SAFE_INTEGER;
  }

  #scratch(reads: Reads): TaskServer {
    let sequence = reads.sequence ?? 0;
    for (const r of reads.records) sequence = Math.max(sequence, r.seq);
    try {
      // As JSON text: the core parses text about twice as fast as it walks a JS object.
      const text = `{"format":"${SNAPSHOT_FORMAT}","config":${this.#scratchConfig},"cursorKey":"${this.#cursorKey}","sequence":${sequence},"tasks":${JSON.stringify(reads.records)}}`;
      // One core per replica, its records replaced at every operation: a new core per
      // operation (its wasm allocation, random source, settings) cost more than its run.
      if (this.#scratchCore === null) {
        this.#scratchCore = TaskServer.restore(text, { maxSnapshotBytes: null });
      } else {
        reloadStore(this.#scratchCore, text, { maxSnapshotBytes: null });
      }
      return this.#scratchCore;
    } catch (e) {
      throw storeError(e);
    }
  }

  /**
   * Writes the scratch core's changes: inserts, compare-and-sets on the version read (a lease
   * carried over while the task is live), deletes. A lost compare-and-set throws `Lost`.
   */
  async #write(reads: Reads, changes: CoreChange[], stored: ((c: CoreChange) => void) | null = null) {
    const before: Map<string, LeasedTask> = new Map(reads.records.map((r) => [r.id, r]));
    /** the last change of each task */
    const last: Map<string, CoreChange> = new Map();
    for (const c of changes) last.set(c.kind === "deleted" ? c.taskId : c.record.id, c);
    for (const [id, c] of last) {
      const old = before.get(id);
      if (c.kind === "deleted") {
        this.#forget(id);
        if (old !== undefined) await this.#storage.delete(id);
        stored?.(c);
        continue;
      }
      const record: LeasedTask = { ...c.record };
      // The stored number (clause 2: it never changes), not the core's: the held core numbers the
      // tasks it creates itself, and the storage's number is the one `insertNew` took.
      if (old !== undefined) record.seq = old.seq;
      const live = !TERMINAL.includes(record.status);
      // A created task of the work running here is leased; it joins the renewals once its first
      // write is stored (a renewal pass meanwhile would read no task and drop it for good).
      const leased = c.kind === "created" && reads.lease === true && live;
      if (leased) {
        record.lease = { owner: this.#replicaId, beat: 0, ms: this.#leaseMs };
        if (reads.rerun !== undefined) record.rerun = reads.rerun;
      } else if (old?.lease !== undefined && live) {
        record.lease = old.lease;
      }
      // What a re-run needs stays while the task is live (dropped with the lease at its end).
      if (old?.rerun !== undefined && live) record.rerun = old.rerun;
      const taken = reads.take === id && live && old?.rerun !== undefined;
      if (taken && old?.rerun !== undefined) {
        // This replica takes the lease (a new owner and beat: every observer starts over) and
        // the next run; the compare-and-set below lets exactly one replica do so.
        const beat = Number.isSafeInteger(old.lease?.beat) ? (old.lease?.beat as number) + 1 : 1;
        record.lease = { owner: this.#replicaId, beat, ms: this.#leaseMs };
        record.rerun = { ...old.rerun, attempt: old.rerun.attempt + 1 };
      }
      const create = reads.create;
      if (c.kind === "created" && create !== undefined && this.#storage.insertNew !== undefined) {
        const put = this.#storage.insertNew(record, create).then((r) => {
          if (r.seq === null) return r;
          record.seq = r.seq;
          this.#keep(record);
          stored?.(c);
          return r;
        });
        const inserted = await this.#writes([id], put);
        if (inserted.seq === null) {
          if (inserted.live !== null) reads.full = inserted.live;
          throw new Lost();
        }
        if (leased) this.#renewFrom(id, record);
        continue;
      }
      const ok = await this.#writes([id], this.#storage.putIfVersion(record, old === undefined ? null : old.version).then((ok) => {
        if (ok) {
          this.#keep(record);
          stored?.(c);
        } else this.#forget(id);
        return ok;
      }));
      if (!ok) throw new Lost();
      if (leased || taken) this.#renewFrom(id, record);
    }
  }

  /**
   * Awaits `put`, a write of the tasks `ids` that keeps what it stored: the feed's news of them
   * heard meanwhile waits for it (`open`), so that it finds the record kept.
   */
  async #writes<T>(ids: string[], put: Promise<T>): Promise<T> {
    const settled = put.then(() => {}, () => {});
    for (const id of ids) this.#writing.set(id, settled);
    try {
      return await put;
    } finally {
      for (const id of ids) if (this.#writing.get(id) === settled) this.#writing.delete(id);
    }
  }

  /** Keeps `record` as the last revision of its task this replica knows (see `known`). */
  #keep(record: LeasedTask) {
    const kept = this.#known.get(record.id);
    if (kept !== undefined && kept.version > record.version) return;
    this.#forget(record.id);
    if (this.#maxKnownBytes === 0) return;
    const size = JSON.stringify(record).length;
    if (size > this.#maxKnownBytes / 8) return;
    while (this.#knownBytes + size > this.#maxKnownBytes) {
      const oldest = this.#known.keys().next().value;
      if (oldest === undefined) break;
      this.#forget(oldest);
    }
    this.#known.set(record.id, record);
    this.#knownSizes.set(record.id, size);
    this.#knownBytes += size;
  }

  /** Drops the record kept of `id`, if any. */
  #forget(id: string) {
    if (!this.#known.delete(id)) return;
    this.#knownBytes -= this.#knownSizes.get(id) ?? 0;
    this.#knownSizes.delete(id);
  }

  /**
   * A read of `id` answered by the record this replica knows (at `version`, when given) without
   * a round trip; the storage's when it knows none or after a lost compare-and-set.
   */
  #readKnown(id: string, version?: number): () => Promise<Reads> {
    const fresh = this.#readOne(id);
    let first = true;
    return async () => {
      // After a write of this replica's under way (see `readKept`).
      if (first && this.#ahead.has(id)) await this.#settled(id);
      const kept = first && typeof id === "string" ? this.#known.get(id) : undefined;
      first = false;
      // A kept revision later than the announced one is as fresh (the feed drops it once a later one is announced).
      return kept === undefined || (version !== undefined && kept.version < version) ? fresh() : { records: [kept], one: id };
    };
  }

  /**
   * The read of a write on `id`: the record this replica knows (no round trip; the write's
   * compare-and-set checks it is still the stored one), else, or when that attempt lost or wrote
   * nothing, the storage's.
   */
  #readKept(id: string, live: boolean = true): () => Promise<Reads> {
    const fresh = this.#readOne(id);
    let first = true;
    return async () => {
      // A write of this replica's under way (the outcome of the work running here, say) is
      // waited for: once stored, a terminal record answers as of a moment after this request
      // came (it never changes again); else the storage is read, as for any live task.
      if (first && this.#ahead.has(id)) await this.#settled(id);
      const kept = first && typeof id === "string" ? this.#known.get(id) : undefined;
      first = false;
      if (kept === undefined) return fresh();
      // A terminal record never changes (its delete is announced, its expiry the core sees):
      // what it answers stands. A live one is tried only by a write (`live`).
      if (TERMINAL.includes(kept.status)) return { records: [kept], one: id };
      return live ? { records: [kept], kept: true, one: id } : fresh();
    };
  }

  #readOne(id: string): () => Promise<Reads> {
    // An id the storage cannot hold reads nothing: the core answers it (not found, TypeError).
    if (typeof id !== "string" || id === "") return async () => ({ records: [] });
    return async () => {
      // After a write of this replica's under way: what the storage answers then includes it.
      if (this.#ahead.has(id)) await this.#settled(id);
      const r = await this.#storage.get(id);
      if (r === null) this.#forget(id);
      else this.#keep(r);
      return { records: r === null ? [] : [r], one: id };
    };
  }

  /**
   * The records of a `tasks/list` page: from the cursor's position, enough unexpired ones for a
   * page and the one that says whether another follows (expired ones too: the core purges them).
   */
  async #readPage(cursor: string | undefined, session: string | undefined, now: number, host: boolean = false, limit: number = Infinity, owner: string | null = null): Promise<Reads> {
    let pos: { scope: Scope; after: number; };
    try {
      pos = JSON.parse(listPosition(this.#cursorKey, cursor, session, host, this.#config.shareAcrossSessions === true, owner));
    } catch {
      return { records: [] }; // a cursor the core refuses: it answers the error itself
    }
    const size = Math.min(Math.max(Number(this.#config.pageSize) || 1, 1), 1000, Math.max(1, limit));
    const records: StoredTask[] = [];
    let live = 0;
    let after = pos.after;
    while (live <= size) {
      const batch = await this.#storage.rangeAfter(pos.scope, after, size + 1 - live);
      for (const r of batch) {
        records.push(r);
        after = Math.max(after, r.seq);
        const t = expiresAt(r);
        // Sizes the read only (the core decides what the page shows): another owner's records
        // do not fill the page (§D 38).
        const mine = host || r.owner === undefined || r.owner === null || r.owner === owner;
        if ((t === null || t >= now) && mine) live += 1;
      }
      if (batch.length < size + 1 - live || batch.length === 0) break;
    }
    return { records };
  }

  /**
   * `TaskServer.handle`: reads the task the request names (or the `tasks/list` page), answers
   * as the in-memory TaskServer would.
   */
  async handle(request: Record<string, unknown> | string, ctx: ServerContext): Promise<HandleOutcome> {
    let message: unknown = request;
    if (typeof request === "string") {
      try {
        message = JSON.parse(request);
      } catch {
        message = null;
      }
    }
    const now = readNow(ctx?.now);
    const ctxNow = { ...ctx, now };
    let read: () => Promise<Reads> = async (): Promise<Reads> => ({ records: [] });
    if (isObject(message) && typeof message.method === "string") {
      // Not `tasks/*` (a `tools/call`, say): the core answers `not-handled` from the message alone
      // (src/server/mod.rs), so the planner, which holds no task, answers it.
      if (!message.method.startsWith("tasks/")) return this.#planner.handle(request, ctxNow);
      const params = isObject(message.params) ? message.params : {};
      if (TASK_METHODS.includes(message.method) && typeof params.taskId === "string" && params.taskId !== "") {
        // A task this replica knows ended reads nothing; a live one is read, but by a cancel or
        // an answer, which compare-and-set on the record kept (read when that loses).
        read = this.#readKept(params.taskId, message.method === "tasks/cancel" || message.method === "tasks/update");
      } else if (message.method === "tasks/list") {
        const cursor = typeof params.cursor === "string" ? params.cursor : undefined;
        const session = typeof ctx?.session === "string" ? ctx.session : undefined;
        const owner = typeof ctx?.owner === "string" ? ctx.owner : null;
        read = () => this.#readPage(cursor, session, now, false, Infinity, owner);
      }
    }
    return this.#run(read, (core) => core.handle(request, ctxNow));
  }

  /**
   * `TaskServer.settle`: the response to a pending V25 `tasks/result`, or `null` while its task
   * is live.
   */
  async settle(pending: PendingResult, now?: number | null): Promise<Record<string, unknown> | null> {
    const at = readNow(now);
    // The record this replica knows when the change feed announced no later revision: a task
    // that ends anywhere is announced, and the host settles its blocked requests again then.
    return this.#run(this.#readKnown(pending.taskId), (core) => core.settle(pending, at));
  }

  /** `TaskServer.planToolCall` (reads nothing: synchronous). */
  planToolCall(request: Record<string, unknown> | string, ctx: ServerContext, taskSupport: TaskSupport): ToolCallPlanned {
    return this.#planner.planToolCall(request, ctx, taskSupport);
  }

  /** `TaskServer.syncToolResponse` (uses no state: synchronous). */
  syncToolResponse(request: Record<string, unknown> | string, ctx: ServerContext, outcome: ToolOutcome): Record<string, unknown> {
    return this.#planner.syncToolResponse(request, ctx, outcome);
  }

  /**
   * `TaskServer.beginToolCall`: a new task takes the storage's next sequence number, and the
   * session cap counts the session's live tasks in the storage (replicas creating at the same
   * instant may overshoot it by the tasks in flight). The task carries this replica's lease.
   */
  async beginToolCall(request: Record<string, unknown> | string, ctx: ServerContext, taskSupport: TaskSupport, rerun?: Omit<RerunMemo, "attempt">): Promise<ToolCallStart> {
    const now = readNow(ctx?.now);
    const ctxNow = { ...ctx, now };
    const session = typeof ctx?.session === "string" ? ctx.session : null;
    if (typeof this.#storage.insertNew === "function") {
      // A call that creates no task (sync, reject) reads and writes nothing here either.
      return this.#run(this.#newTask(session, now, true, rerun), (core) => core.beginToolCall(request, ctxNow, taskSupport));
    }
    const plan = this.#planner.planToolCall(request, ctxNow, taskSupport);
    if (plan.kind !== "task") return plan;
    const cap = (this.#config.maxLiveTasksPerSession as number | null);
    return this.#run(async () => {
      let taken: { sequence: number; live: number; } | null = null;
      if (cap !== null && session !== null) {
        taken = await this.#sequenceWithLive(session);
        let live = taken.live;
        if (live >= cap) {
          // Expired tasks count until purged: purge (an index seek), but no lease check (a
          // refused call must not read the live records of every session).
          if ((await this.#purge(now, BATCH)) > 0) live = await this.#storage.countLive(session);
        }
        // At the cap: the core refuses (its -32010 answer) a session it sees holding `cap` live
        // tasks, placeholders standing for the storage's (never written: nothing is created).
        if (live >= cap) return { records: this.#placeholders(session, cap, now), sequence: cap };
      }
      const sequence = taken === null ? (await this.#storage.nextSequence()) - 1 : taken.sequence - 1;
      const reads: Reads = { records: [], sequence, lease: true };
      // What a re-run needs, on every created task of a re-runnable tool (session or not).
      if (rerun !== undefined) reads.rerun = { ...rerun, attempt: 1 };
      return reads;
    }, (core) => core.beginToolCall(request, ctxNow, taskSupport));
  }

  /**
   * The reads of a new task stored by `insertNew` (clause 14): nothing. The storage takes the
   * sequence number and checks the session's cap in the same step as the insert (the core numbers
   * the task anything meanwhile); once it refused at the cap, the next attempt purges and reads
   * again.
   */
  #newTask(session: string | null, now: number, lease: boolean, rerun?: Omit<RerunMemo, "attempt">): () => Promise<Reads> {
    const cap = (this.#config.maxLiveTasksPerSession as number | null);
    let last: Reads | null = null;
    return async () => {
      const full = last?.full;
      if (full !== undefined && cap !== null && session !== null) {
        // Expired tasks count until purged: purge (an index seek), but no lease check (a refused
        // call must not read the live records of every session).
        const live = (await this.#purge(now, BATCH)) > 0 ? await this.#storage.countLive(session) : full;
        // Still at the cap: the core refuses (its -32010 answer) a session it sees holding `cap`
        // live tasks, placeholders standing for the storage's (nothing is written).
        if (live >= cap) return (last = { records: this.#placeholders(session, cap, now), sequence: cap });
      }
      // No sequence: the storage numbers the task; the held core creates it.
      const reads: Reads = { records: [], create: session === null ? null : cap };
      if (lease) reads.lease = true;
      // What a re-run needs, on every created task of a re-runnable tool (session or not).
      if (rerun !== undefined) reads.rerun = { ...rerun, attempt: 1 };
      return (last = reads);
    };
  }

  /**
   * The next sequence number and the live tasks of `session`, in one round trip where the
   * storage has clause 13 (a number taken for a call then refused at the cap is skipped).
   */
  async #sequenceWithLive(session: string): Promise<{ sequence: number; live: number; }> {
    if (typeof this.#storage.nextSequenceWithLive === "function") return this.#storage.nextSequenceWithLive(session);
    const live = await this.#storage.countLive(session);
    return { sequence: await this.#storage.nextSequence(), live };
  }

  /**
   * `n` live records of `session` created at `now` (the scratch core's view of a session at its
   * cap).
   */
  #placeholders(session: string, n: number, now: number): LeasedTask[] {
    const max = (this.#config.maxTtlMs as number | null);
    const ttl = (this.#config.defaultTtlMs as number | null) ?? max;
    return Array.from({ length: n }, (_, i) => ({
      id: (i + 1).toString(16).padStart(32, "0"),
      version: 1,
      seq: i + 1,
      protocol: V25,
      session,
      status: ("working" as TaskStatus),
      createdAtMs: now,
      lastUpdatedAtMs: now,
      ttlMs: ttl === null ? null : Math.max(1, max === null ? ttl : Math.min(ttl, max)),
    }));
  }

  /**
   * `TaskServer.finishToolCall`; the task's lease is released. While the storage cannot be
   * reached, the outcome is written again with backoff (the lease renewed meanwhile) until it is
   * stored, the task's TTL passes or `terminalRetryMs` has passed. A result too large to store
   * fails the task at once with an error saying so (`resultTooLarge`).
   */
  async finishToolCall(taskId: string, outcome: ToolOutcome, now?: number | null): Promise<FinishOutcome> {
    const at = readNow(now);
    const started = this.#clock();
    let delay = RETRY_FIRST_MS;
    let replaced = false;
    try {
      for (;;) {
        try {
          return await this.#run(this.#readKept(taskId), (core) => core.finishToolCall(taskId, outcome, at));
        } catch (e) {
          const big = replaced ? null : resultTooLarge(e, outcome);
          if (big !== null) {
            outcome = big;
            replaced = true;
            continue;
          }
          const expires = this.#leased.get(taskId) ?? null;
          const waited = this.#clock() - started;
          if (!unavailable(e) || this.#closed || waited + delay > this.#terminalRetryMs || (expires !== null && Date.now() + delay >= expires)) throw e;
          this.#onError(e);
        }
        await sleep(delay);
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      }
    } finally {
      this.#release(taskId);
    }
  }

  /**
   * `TaskServer.getTask`: the task as the host sees it. Given `version` (the revision a change of
   * `watchChanges` announced, or 0), answered from the record this replica wrote or read at that
   * revision or a later one when it has it (no read: the feed drops it once it announces a later
   * one), else read.
   */
  async getTask(taskId: string, now?: number | null, version?: number): Promise<StoreTask> {
    const at = readNow(now);
    return this.#run(version === undefined ? this.#readOne(taskId) : this.#readKnown(taskId, version), (core) => core.getTask(taskId, at));
  }

  // ---- TaskStore's verbs (the same names and arguments, answering promises) -----------------------

  /**
   * `TaskStore.create`: a task in `working`, bound to `ctx.session` (no lease: no work of this
   * replica runs it). The session cap counts the storage (see `beginToolCall`).
   */
  async create(params: CreateTaskParams, ctx?: TaskContext | null): Promise<StoreTask> {
    const c = readContext(ctx);
    const session = typeof c.session === "string" ? c.session : null;
    const cap = (this.#config.maxLiveTasksPerSession as number | null);
    if (typeof this.#storage.insertNew === "function") return this.#run(this.#newTask(session, c.now, false), (core) => core.create(params, c));
    return this.#run(async () => {
      let taken: { sequence: number; live: number; } | null = null;
      if (cap !== null && session !== null) {
        taken = await this.#sequenceWithLive(session);
        let live = taken.live;
        if (live >= cap) {
          if ((await this.#purge(c.now, BATCH)) > 0) live = await this.#storage.countLive(session);
        }
        if (live >= cap) return { records: this.#placeholders(session, cap, c.now), sequence: cap };
        return { records: [], sequence: taken.sequence - 1 };
      }
      return { records: [], sequence: (await this.#storage.nextSequence()) - 1 };
    }, (core) => core.create(params, c));
  }

  /** `TaskStore.get`: the task `id` as `ctx` sees it. */
  async get(id: string, ctx?: TaskContext | null): Promise<StoreTask> {
    const c = readContext(ctx);
    return this.#run(this.#readOne(id), (core) => core.get(id, c));
  }

  /** `TaskStore.list`: one page of the tasks `ctx` sees, in creation order. */
  async list(page?: ListParams | null, ctx?: TaskContext | null): Promise<TaskPage> {
    const c = readContext(ctx);
    const cursor = typeof page?.cursor === "string" ? page.cursor : undefined;
    const limit = typeof page?.limit === "number" ? page.limit : Infinity;
    const session = typeof c.session === "string" ? c.session : undefined;
    return this.#run(() => this.#readPage(cursor, session, c.now, c.host === true, limit), (core) => core.list(page, c));
  }

  /** `TaskServer.setStatus`: given a time (or nothing) instead of a context, as the host. */
  async setStatus(taskId: string, status: TaskStatus, message?: string | null, ctxOrNow?: TaskContext | number | null): Promise<StoreTask> {
    const c = hostContext(ctxOrNow);
    return this.#run(this.#readKept(taskId), (core) => core.setStatus(taskId, status, message, c));
  }

  /** `TaskServer.raiseInput`: given a time (or nothing) instead of a context, as the host. */
  async raiseInput(taskId: string, inputRequests: V26InputRequests, message?: string | null, ctxOrNow?: TaskContext | number | null): Promise<StoreTask> {
    const c = hostContext(ctxOrNow);
    return this.#run(this.#readKept(taskId), (core) => core.raiseInput(taskId, inputRequests, message, c));
  }

  /** `TaskStore.takeInput`. */
  async takeInput(id: string, inputResponses: V26InputResponses, ctx?: TaskContext | null): Promise<TakeInputOutcome> {
    const c = readContext(ctx);
    return this.#run(this.#readOne(id), (core) => core.takeInput(id, inputResponses, c));
  }

  /** `TaskStore.complete` (the first terminal outcome wins). */
  async complete(id: string, result: Record<string, unknown>, message?: string | null, ctx?: TaskContext | null): Promise<StoreTask> {
    const c = readContext(ctx);
    return this.#run(this.#readOne(id), (core) => core.complete(id, result, message, c));
  }

  /** `TaskStore.fail`. */
  async fail(id: string, error: JsonRpcError, message?: string | null, ctx?: TaskContext | null): Promise<StoreTask> {
    const c = readContext(ctx);
    return this.#run(this.#readOne(id), (core) => core.fail(id, error, message, c));
  }

  /** `TaskStore.failWithToolResult`. */
  async failWithToolResult(id: string, result: Record<string, unknown>, message?: string | null, ctx?: TaskContext | null): Promise<StoreTask> {
    const c = readContext(ctx);
    return this.#run(this.#readOne(id), (core) => core.failWithToolResult(id, result, message, c));
  }

  /** `TaskStore.resultOf`. */
  async resultOf(id: string, ctx?: TaskContext | null): Promise<ResultOf> {
    const c = readContext(ctx);
    return this.#run(this.#readOne(id), (core) => core.resultOf(id, c));
  }

  /** `TaskStore.cancel`. */
  async cancel(id: string, protocolVersion: ProtocolVersion, message?: string | null, ctx?: TaskContext | null): Promise<CancelOutcome> {
    const c = readContext(ctx);
    return this.#run(this.#readOne(id), (core) => core.cancel(id, protocolVersion, message, c));
  }

  /** `TaskStore.remove`: deletes the task now and answers it as it was. */
  async remove(id: string, ctx?: TaskContext | null): Promise<StoreTask> {
    const c = readContext(ctx);
    return this.#run(this.#readOne(id), (core) => core.remove(id, c));
  }

  /**
   * Purges expired tasks (at most `limit`, default 1000) and fails the live tasks whose lease
   * this replica has seen unrenewed for longer than the lease and its grace (their replica
   * stopped: LEASE_LOST); answers how many tasks were purged. Any replica may run it;
   * `McpHttpServer` does on its housekeeping. The lease check reads at most `maxLeaseChecks` live
   * records (an index), going on from there at the next sweep: run it every few seconds, not per
   * request.
   */
  async sweep(now?: number | null, limit?: number | null): Promise<number> {
    const at = readNow(now);
    // A change the feed lost (at most once) must not leave a kept record stale for ever: the
    // host's sweep settles its blocked requests again, now from the storage.
    this.#known.clear();
    this.#knownSizes.clear();
    this.#knownBytes = 0;
    // Likewise the held core: whatever it holds, it starts over from the storage's records.
    this.#dropHeld();
    const purged = await this.#purge(at, limit ?? 1000);
    await this.#failLostLeases(at);
    return purged;
  }

  /** Purges at most `max` expired tasks (the storage's expiry index); answers how many. */
  async #purge(at: number, max: number): Promise<number> {
    let purged = 0;
    while (purged < max) {
      const ids = await this.#storage.expired(at, Math.min(BATCH, max - purged));
      if (ids.length === 0) break;
      let n = 0;
      for (const id of ids) {
        // On the scratch core (a sweep purges every expired record its core holds).
        const one = this.#readOne(id);
        n += await this.#run(async () => ({ records: (await one()).records }), (core) => core.sweep(at, null));
      }
      purged += n;
      if (n === 0) break;
    }
    return purged;
  }

  /**
   * Reads the next live records (at most `maxLeaseChecks`, from where the last check ended) and
   * fails those whose lease this replica has seen unchanged for longer than its length and the
   * grace, on this replica's own clock.
   */
  async #failLostLeases(now: number) {
    let budget = this.#maxLeaseChecks;
    while (budget > 0) {
      const want = Math.min(BATCH, budget);
      const batch = (await (this.#storage.rangeLive
        ? this.#storage.rangeLive(this.#leaseCursor, want)
        : this.#storage.rangeAfter({ kind: "all" }, this.#leaseCursor, want)) as LeasedTask[]);
      budget -= batch.length;
      const t = this.#clock();
      for (const r of batch) {
        this.#leaseCursor = Math.max(this.#leaseCursor, r.seq);
        if (TERMINAL.includes(r.status) || r.lease === undefined || r.lease === null) {
          this.#observed.delete(r.id);
          continue;
        }
        const key = leaseKey(r.lease);
        const seen = this.#observed.get(r.id);
        if (seen === undefined || seen.key !== key) {
          const ms = Number.isSafeInteger(r.lease.ms) ? (r.lease.ms as number) : this.#leaseMs;
          this.#observed.set(r.id, { key, since: t, limit: ms + this.#leaseGraceMs, cycle: this.#leaseCycle });
          continue;
        }
        seen.cycle = this.#leaseCycle;
        if (t - seen.since <= seen.limit) continue;
        const memo = r.rerun;
        let error: JsonRpcError = LEASE_LOST;
        if (memo !== undefined && memo !== null) {
          if (memo.attempt < memo.maxAttempts) {
            if (this.#rerunner?.has(memo.tool)) {
              await this.#rerun(r.id, key, now);
              continue;
            }
            // Without the tool: left to a replica that has it for one more lease and grace,
            // then failed as any task (no replica re-ran it).
            if (t - seen.since <= 2 * seen.limit) continue;
          } else error = rerunsExhausted(memo);
        }
        try {
          await this.#run(
            async () => {
              const cur = (await this.#storage.get(r.id) as LeasedTask | null);
              // Renewed (or ended) meanwhile: nothing to do (the core is not run on it).
              const lost = cur !== null && !TERMINAL.includes(cur.status) && cur.lease !== undefined && leaseKey(cur.lease) === key;
              return { records: lost && cur !== null ? [cur] : [] };
            },
            (core) => {
              try {
                core.fail(r.id, error, null, { host: true, now });
              } catch (e) {
                if (!(e instanceof TaskStoreError && (e.kind === "not_found" || e.kind === "already_terminal"))) throw e;
              }
            },
          );
          this.#observed.delete(r.id);
        } catch (e) {
          this.#onError(e);
        }
      }
      if (batch.length < want) {
        // The end of the live records: the next check starts over, and leases not seen in this
        // cycle (their tasks ended or are gone) are forgotten.
        this.#leaseCursor = 0;
        for (const [id, o] of this.#observed) if (o.cycle !== this.#leaseCycle) this.#observed.delete(id);
        this.#leaseCycle += 1;
        break;
      }
    }
  }

  /**
   * Takes the lost lease `key` of re-runnable task `taskId` (a compare-and-set on the record
   * read: of replicas sweeping at once, exactly one wins; the others read a new lease and leave
   * it), says so in its status message, and has the host run its work again.
   */
  async #rerun(taskId: string, key: string, now: number) {
    let read: LeasedTask | null = null;
    try {
      const taken = await this.#run(
        async () => {
          const cur = (await this.#storage.get(taskId) as LeasedTask | null);
          const lost = cur !== null && !TERMINAL.includes(cur.status) && cur.lease !== undefined && leaseKey(cur.lease) === key && cur.rerun !== undefined;
          read = lost ? cur : null;
          return read === null ? { records: [] } : { records: [read], take: taskId };
        },
        (core) => {
          const cur = (read as LeasedTask | null);
          if (cur === null || cur.rerun === undefined) return null; // renewed, ended or taken meanwhile
          const memo: RerunMemo = { ...cur.rerun, attempt: cur.rerun.attempt + 1 };
          // A task waiting for input keeps waiting (the re-run asks the same keys, answered or not).
          const status = cur.status === "input_required" ? "input_required" : "working";
          core.setStatus(taskId, status, rerunMessage(memo.attempt, memo.maxAttempts), { host: true, now });
          return memo;
        },
      );
      this.#observed.delete(taskId);
      if (taken !== null) this.#rerunner?.start(taskId, taken);
    } catch (e) {
      this.#onError(e);
    }
  }

  /**
   * @internal Our modules' and tests' accessor (see INTERNALS): for the TaskHost over it, `release`
   * (the work of a task ended here: its lease is no longer renewed) and `rerunner` (how to re-run
   * a task whose lease was lost); for the tests, the renewal passes and the records kept.
   */
  [INTERNALS]() {
    const server = this;
    return {
      release: (taskId: string) => this.#release(taskId),
      set rerunner(rerunner: Rerunner | null) {
        server.#rerunner = rerunner;
      },
      get renewStats() {
        return server.#renewStats;
      },
      get renewing() {
        return server.#renewing;
      },
      get known() {
        return server.#known;
      },
      get knownBytes() {
        return server.#knownBytes;
      },
      /** Forgets every record kept (the next reads go to the storage). */
      clearKnown() {
        server.#known.clear();
        server.#knownSizes.clear();
        server.#knownBytes = 0;
      },
    };
  }

  /** The work of `taskId` ended here: its lease is no longer renewed. */
  #release(taskId: string) {
    this.#leased.delete(taskId);
  }

  /** Renews the lease of `id` (stored as `record`) from now on, while its work runs here. */
  #renewFrom(id: string, record: LeasedTask) {
    this.#leased.set(id, expiresAt(record));
    this.#startRenewing();
  }

  #startRenewing() {
    if (this.#renewer !== null || this.#closed) return;
    this.#renewer = setInterval(() => {
      // Never two passes at once: a tick that finds one under way is skipped.
      if (this.#renewing !== null) {
        this.#renewStats.skipped += 1;
        return;
      }
      this.#renewing = this.#renew()
        .catch((e) => this.#onError(e))
        .finally(() => {
          this.#renewing = null;
        });
    }, this.#renewMs);
    // Node: the timer alone does not keep the process alive.
    const t = ((this.#renewer as unknown) as { unref?: () => void });
    if (typeof t.unref === "function") t.unref();
  }

  /**
   * One renewal pass: raises the beat of the lease of every task whose work runs here, in
   * batches (or RENEW_PARALLEL at a time). A failure (the storage unreachable) is reported once
   * per pass; the next pass tries again.
   */
  async #renew() {
    this.#renewStats.passes += 1;
    const ids = [...this.#leased.keys()];
    const { getMany, putEachIfVersion } = this.#storage;
    if (typeof getMany === "function" && typeof putEachIfVersion === "function") {
      let failure: unknown = null;
      for (let i = 0; i < ids.length && !this.#closed; i += RENEW_BATCH) {
        try {
          await this.#renewBatch(ids.slice(i, i + RENEW_BATCH));
        } catch (e) {
          failure ??= e;
        }
      }
      if (failure !== null) throw failure;
      return;
    }
    let next = 0;
    let failure: unknown = null;
    const worker = async () => {
      while (next < ids.length && !this.#closed) {
        const id = (ids[next++] as string);
        try {
          await this.#renewOne(id);
        } catch (e) {
          failure ??= e;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(RENEW_PARALLEL, ids.length) }, worker));
    if (failure !== null) throw failure;
  }

  /**
   * Renews the leases of `ids`: one write of them all (a read first of those not kept), again
   * for lost ones after reading them.
   */
  async #renewBatch(ids: string[]) {
    let todo = ids;
    for (let attempt = 0; attempt < CAS_ATTEMPTS && todo.length > 0; attempt++) {
      todo = todo.filter((id) => this.#leased.has(id));
      if (todo.length === 0) return;
      // First from the records kept (the compare-and-set checks them); a lost one is read.
      const kept = todo.map((id) => (attempt === 0 ? this.#known.get(id) ?? null : null));
      const missing = todo.filter((_, i) => kept[i] === null);
      const read = missing.length > 0 ? (await this.#storage.getMany!(missing) as Array<LeasedTask | null>) : [];
      let next = 0;
      const current = kept.map((k) => k ?? read[next++] ?? null);
      const entries: Array<{ record: LeasedTask; expected: number; }> = [];
      current.forEach((cur, i) => {
        if (cur === null || TERMINAL.includes(cur.status)) {
          this.#leased.delete((todo[i] as string));
          return;
        }
        if (this.#takenElsewhere(cur)) return;
        entries.push({ record: this.#renewed(cur), expected: cur.version });
      });
      if (entries.length === 0) return;
      const stored = await this.#writes(entries.map((e) => e.record.id), this.#storage.putEachIfVersion!(entries).then((done) => {
        entries.forEach((e, i) => {
          if (done[i] === true) this.#keep(e.record);
        });
        return done;
      }));
      // Lost compare-and-sets (the task was written meanwhile): read and renewed again.
      todo = entries.filter((_, i) => stored[i] !== true).map((e) => e.record.id);
    }
  }

  /**
   * Whether another replica took the lease of `cur` (it declared this one lost and runs the work
   * again): never renewed back; the work here is stopped.
   */
  #takenElsewhere(cur: LeasedTask): boolean {
    const owner = cur.lease?.owner;
    if (owner === undefined || owner === this.#replicaId) return false;
    this.#leased.delete(cur.id);
    try {
      this.#rerunner?.lost(cur.id);
    } catch (e) {
      this.#onError(e);
    }
    return true;
  }

  /** `cur` with its lease renewed by this replica (the next beat). */
  #renewed(cur: LeasedTask): LeasedTask {
    const beat = Number.isSafeInteger(cur.lease?.beat) ? (cur.lease?.beat as number) + 1 : 1;
    return { ...cur, version: cur.version + 1, lease: { owner: this.#replicaId, beat, ms: this.#leaseMs } };
  }

  async #renewOne(id: string) {
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      if (!this.#leased.has(id)) return;
      const cur = (await this.#storage.get(id) as LeasedTask | null);
      if (cur === null || TERMINAL.includes(cur.status)) {
        this.#leased.delete(id);
        return;
      }
      if (this.#takenElsewhere(cur)) return;
      const next = this.#renewed(cur);
      const stored = await this.#writes([id], this.#storage.putIfVersion(next, cur.version).then((done) => {
        if (done) this.#keep(next);
        return done;
      }));
      if (stored) return;
    }
  }

  /** §D 98 (as `TaskServer.checkInputRequests`). */
  static checkInputRequests(request: Record<string, unknown> | string, inputRequests: V26InputRequests) {
    TaskServer.checkInputRequests(request, inputRequests);
  }

  /** Stops the lease renewals and the change feed, and closes the storage. */
  async close() {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#renewer !== null) clearInterval(this.#renewer);
    this.#renewer = null;
    this.#changeListeners.clear();
    this.#planner.free();
    this.#scratchCore?.free();
    this.#scratchCore = null;
    this.#heldCore?.free();
    this.#heldCore = null;
    if (this.#unsubscribe) await this.#unsubscribe();
    await this.#storage.close();
  }
}

export { SharedTaskServer, LEASE_LOST };
