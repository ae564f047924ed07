// The asynchronous storage contract for JS hosts: `TaskStorage`, kept by every adapter
// (memory.ts, sqlite.ts, postgres.ts, redis.ts); tests/js/storage/contract.mjs checks it on each.
//
// The clauses (1-14, what each method does) are written once, in src/store/storage.rs (the
// module docs, "The adapter contract"): 1-7 are the Rust `Storage` trait's, 8 (`subscribe`, the
// change feed) and 9 (`close`) the JS hosts', 10-14 (`rangeLive`, `getMany`,
// `putEachIfVersion`, `nextSequenceWithLive`, the optional `insertNew`) the batch reads and
// writes of SharedTaskServer.
// What this file adds is how the asynchronous calls answer: each method resolves with what its
// clause answers (`null` for none; `putIfVersion` `true` when it stored the record, `false` on a
// conflict; `nextSequenceWithLive` `{ sequence, live }`), and rejects as "Errors" below says.
//
// What one operation of SharedTaskServer costs (round trips; each write a compare-and-set):
// create 1 write (14; without it 1 read (13) + 1 write); tasks/get, tasks/result of a live task 1 read; tasks/cancel,
// tasks/update 1 write on the record the replica keeps (a read first when it keeps none or the
// write lost); the outcome or status the replica's own work writes 1 write (likewise); requests
// about a task it knows ended, the change feed's news of its own writes and a blocked
// tasks/result nothing (the kept record, at the announced revision).
//
// Under concurrency an adapter may group calls (`Group` below): Postgres sends the `get`s, the
// `putIfVersion`s, the `insertNew`s and the `nextSequenceWithLive`s made while the previous
// statement of their kind is in flight as one statement each; SQLite runs the writes made meanwhile in one write
// transaction. Every clause holds for each call as if it ran alone: a group's calls are
// concurrent calls answered in one round trip.
//
// Errors: bad arguments reject with a StorageError of kind `invalid` naming the argument (never
// a silently stored bad record); a failing engine rejects with kind `engine` (the cause kept);
// a missing client library with `missing_client`; a schema newer than the adapter with `schema`.
// A conflict is not an error: `putIfVersion` resolves `false`.
//
// Numbers (`version`, `seq`, milliseconds) are JS numbers: non-negative safe integers.
//
// TypeScript, compiled by scripts/build-ts.mjs (an ES module only); no `node:` module (browsers and Deno
// may load it).

/**
 * The stored JSON of a task (src/store/record.rs `TaskRecord::to_json`). The storage reads only
 * the members named here; the rest is kept as it is.
 */
/**
 * @internal The key of the adapters' test hook (`storage[INTERNALS]()`): the same registered
 * symbol as js/core/internals.ts declares, declared here because the storage entry imports nothing
 * outside its own folder (tests/js/storage/entries.test.mjs).
 */
export const INTERNALS: unique symbol = Symbol.for("mcp-tasks-wasm.internals");

export type StoredTask = {
  id: string;
  /** The revision compare-and-set writes check (1 at creation, +1 per write). */
  version: number;
  /** The creation sequence number: the keyset order of listings. */
  seq: number;
  /** The session the task is bound to (absent or `null`: none). */
  session?: string | null;
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  /** Unix milliseconds. */
  createdAtMs: number;
  /** The effective TTL; `null`: the task never expires. */
  ttlMs: number | null;
};

/** One compare-and-set replacement of `putEachIfVersion`. */
export type ReplaceEntry = { record: StoredTask; expected: number; };

/** At most this many ids or entries per `getMany` / `putEachIfVersion` call. */
const MAX_BATCH = 1000;

/**
 * Which records a listing covers.
 */
export type Scope = { kind: "all"; } | { kind: "session"; session: string | null; };

/**
 * One write, as the change feed publishes it.
 */
export type Change = {
  kind: "put" | "delete";
  /** The record's key. */
  id: string;
  /** The new revision (for a delete: the deleted record's version). */
  version: number;
};

export type ChangeListener = (change: Change) => void;

/**
 * The asynchronous storage contract: the clauses (numbered below) are src/store/storage.rs's.
 */
export type TaskStorage = {
  /** The adapter: "memory", "sqlite", "postgres" or "redis". */
  name: string;
  /** 1: the last record stored under `id`, or `null`. */
  get: (id: string) => Promise<StoredTask | null>;
  /** 2: compare-and-set on `record.id` (`expected` `null`: insert only); `false` on a conflict. */
  putIfVersion: (record: StoredTask, expected: number | null) => Promise<boolean>;
  /** 3: removes the record, resolving with it (`null` if absent). */
  delete: (id: string) => Promise<StoredTask | null>;
  /** 4: at most `limit` records of `scope` with `seq` greater than `after`, in `seq` order. */
  rangeAfter: (scope: Scope, after: number, limit: number) => Promise<StoredTask[]>;
  /** 10: at most `limit` live records with `seq` greater than `after`, in `seq` order. */
  rangeLive: (after: number, limit: number) => Promise<StoredTask[]>;
  /** 11: `get` of each id (distinct, at most 1000), in order. */
  getMany: (ids: string[]) => Promise<Array<StoredTask | null>>;
  /** 12: `putIfVersion` of each replacement (distinct ids, at most 1000), each atomic alone. */
  putEachIfVersion: (entries: ReplaceEntry[]) => Promise<boolean[]>;
  /** 5: at most `limit` ids of records expired before `nowMs`, earliest first. */
  expired: (nowMs: number, limit: number) => Promise<string[]>;
  /** 6: the records bound to exactly `session` that are not terminal. */
  countLive: (session: string | null) => Promise<number>;
  /** 7: a number greater than every number returned before and every stored `seq`. */
  nextSequence: () => Promise<number>;
  /** 13: `nextSequence()` and `countLive(session)` in one round trip. */
  nextSequenceWithLive: (session: string | null) => Promise<{ sequence: number; live: number; }>;
  /** 14 (optional): `nextSequence()`, the session's cap and the insert in one atomic step. */
  insertNew?: (record: StoredTask, cap: number | null) => Promise<{ seq: number; } | { seq: null; live: number | null; }>;
  /** 7: the greatest sequence number returned or stored so far (0 if none). */
  lastSequence: () => Promise<number>;
  /** 8: the change feed; resolves, once live, with the function that unsubscribes. */
  subscribe: (listener: ChangeListener) => Promise<() => Promise<void>>;
  /** 9: releases connections; later calls reject with a StorageError `closed`. */
  close: () => Promise<void>;
};

/**
 * The index fields of a checked record.
 */
export type RecordKeys = {
  id: string;
  version: number;
  seq: number;
  session: string | null;
  /** Not terminal. */
  live: boolean;
  /** `createdAtMs + ttlMs`, or `null`. */
  expiresAtMs: number | null;
};

export type StorageErrorKind = "invalid" | "engine" | "missing_client" | "schema" | "closed";

/** A storage operation failed (not a conflict: `putIfVersion` resolves `false` for those). */
class StorageError extends Error {
  name: string;
  kind: StorageErrorKind;
  constructor(kind: StorageErrorKind, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "StorageError";
    this.kind = kind;
  }
}

const STATUSES = ["working", "input_required", "completed", "failed", "cancelled"];
const TERMINAL = ["completed", "failed", "cancelled"];

function isCount(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
}

function need(ok: boolean, what: string): asserts ok {
  if (!ok) throw new StorageError("invalid", what);
}

/** Checks the members of a record the storage relies on and returns its index fields. */
function recordKeys(record: unknown): RecordKeys {
  need(typeof record === "object" && record !== null && !Array.isArray(record), "record: must be an object (a stored task)");
  const r = (record as Record<string, unknown>);
  need(typeof r.id === "string" && r.id.length > 0, "record.id: must be a non-empty string");
  const id = (r.id as string);
  need(isCount(r.version) && r.version >= 1, `record ${id}: version must be a positive safe integer`);
  need(isCount(r.seq) && r.seq >= 1, `record ${id}: seq must be a positive safe integer`);
  need(r.session === undefined || r.session === null || typeof r.session === "string", `record ${id}: session must be a string or null`);
  need(typeof r.status === "string" && STATUSES.includes(r.status), `record ${id}: status must be one of ${STATUSES.join(", ")}`);
  need(isCount(r.createdAtMs), `record ${id}: createdAtMs must be a non-negative safe integer`);
  need(r.ttlMs === undefined || r.ttlMs === null || isCount(r.ttlMs), `record ${id}: ttlMs must be a non-negative safe integer or null`);
  const ttl = (r.ttlMs as number | null | undefined);
  const created = (r.createdAtMs as number);
  const expires = ttl === undefined || ttl === null ? null : created + ttl;
  need(expires === null || Number.isSafeInteger(expires), `record ${id}: createdAtMs + ttlMs exceeds a safe integer`);
  return {
    id,
    version: (r.version as number),
    seq: (r.seq as number),
    session: typeof r.session === "string" ? r.session : null,
    live: !TERMINAL.includes((r.status as string)),
    expiresAtMs: expires,
  };
}

/**
 * Checks the record and cap of `insertNew` (clause 14; the record's `seq` is ignored) and answers
 * its index fields and its JSON text without `seq`, as the members after an opening `{"seq":N,`:
 * the stored text is `{"seq":` + the number taken + `,` + `rest`.
 */
function checkNew(record: unknown, cap: unknown): { keys: RecordKeys; rest: string; cap: number | null; } {
  need(typeof record === "object" && record !== null && !Array.isArray(record), "record: must be an object (a stored task)");
  const { seq: _, ...members } = (record as Record<string, unknown>);
  const keys = recordKeys({ ...members, seq: 1 });
  need(cap === null || isCount(cap), "cap: must be null (none) or a non-negative safe integer");
  // Never empty: `id` and the other checked members are there.
  return { keys, rest: JSON.stringify(members).slice(1), cap: (cap as number | null) };
}

function checkId(id: unknown): string {
  need(typeof id === "string" && id.length > 0, "id: must be a non-empty string");
  return (id as string);
}

function checkExpected(expected: unknown): number | null {
  need(expected === null || (isCount(expected) && expected >= 1), "expected: must be null (insert) or a positive safe integer (the stored version)");
  return (expected as number | null);
}

/** Checks the ids of `getMany`: an array of distinct non-empty strings, at most MAX_BATCH. */
function checkIds(ids: unknown): string[] {
  need(Array.isArray(ids) && ids.length <= MAX_BATCH, `ids: must be an array of at most ${MAX_BATCH} ids`);
  const out = (ids as unknown[]).map((id) => checkId(id));
  need(new Set(out).size === out.length, "ids: must be distinct");
  return out;
}

/**
 * Checks the entries of `putEachIfVersion` (each record as `recordKeys` does, `expected` a
 * version, distinct ids, at most MAX_BATCH) and answers each with its index fields.
 */
function checkEntries(entries: unknown): Array<{ record: StoredTask; keys: RecordKeys; expected: number; }> {
  need(Array.isArray(entries) && entries.length <= MAX_BATCH, `entries: must be an array of at most ${MAX_BATCH} { record, expected }`);
  const out = (entries as unknown[]).map((e, i) => {
    need(typeof e === "object" && e !== null, `entries[${i}]: must be { record, expected }`);
    const x = (e as { record?: unknown; expected?: unknown });
    const keys = recordKeys(x.record);
    need(isCount(x.expected) && (x.expected as number) >= 1, `entries[${i}].expected: must be a positive safe integer (the stored version)`);
    return { record: (x.record as StoredTask), keys, expected: (x.expected as number) };
  });
  need(new Set(out.map((e) => e.keys.id)).size === out.length, "entries: the record ids must be distinct");
  return out;
}

function checkScope(scope: unknown): Scope {
  need(typeof scope === "object" && scope !== null, 'scope: must be { kind: "all" } or { kind: "session", session }');
  const s = (scope as Record<string, unknown>);
  if (s.kind === "all") return { kind: "all" };
  need(s.kind === "session", 'scope.kind: must be "all" or "session"');
  need(s.session === null || typeof s.session === "string", "scope.session: must be a string or null");
  return { kind: "session", session: (s.session as string | null) };
}

function checkCount(v: unknown, name: string): number {
  need(isCount(v), `${name}: must be a non-negative safe integer`);
  return (v as number);
}

function checkSession(session: unknown): string | null {
  need(session === null || typeof session === "string", "session: must be a string or null");
  return (session as string | null);
}

function checkListener(listener: unknown): ChangeListener {
  need(typeof listener === "function", "listener: must be a function");
  return (listener as ChangeListener);
}

/** Parses a change published by another process; `null` when it is not one. */
function parseChange(text: string): Change | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== "object" || v === null) return null;
  const c = (v as Record<string, unknown>);
  if ((c.kind !== "put" && c.kind !== "delete") || typeof c.id !== "string" || !isCount(c.version)) return null;
  return { kind: c.kind, id: c.id, version: c.version };
}

/** Parses a stored record's JSON text. */
function parseRecord(text: string, where: string): StoredTask {
  try {
    return (JSON.parse(text) as StoredTask);
  } catch (e) {
    throw new StorageError("engine", `${where}: the stored record is not JSON`, e);
  }
}

/** Delivers changes to in-process listeners, each asynchronously and isolated from the others. */
class ChangeHub {
  listeners: Set<ChangeListener>;
  constructor() {
    this.listeners = new Set();
  }

  add(listener: ChangeListener) {
    this.listeners.add(listener);
  }

  remove(listener: ChangeListener) {
    this.listeners.delete(listener);
  }

  get size() {
    return this.listeners.size;
  }

  emit(change: Change) {
    for (const listener of this.listeners) {
      queueMicrotask(() => {
        try {
          listener({ ...change });
        } catch (e) {
          // A throwing listener must not stop the others nor the writer: report it.
          console.error("storage change listener threw:", e);
        }
      });
    }
  }
}

/**
 * Throws `e` as the storage error it is, or as an `engine` error of `engine` (the adapter's name)
 * naming what failed, the engine's error kept as `cause`.
 */
function engineError(engine: string, e: unknown, what: string): never {
  if (e instanceof StorageError) throw e;
  throw new StorageError("engine", `${engine}: ${what}: ${e instanceof Error ? e.message : String(e)}`, e);
}

/** At most this many calls of one kind go into one group (one statement or transaction). */
const GROUP_MAX = 256;

/**
 * Group commit: the calls of one kind made while the previous group of that kind is in flight
 * (or in the same turn of the event loop) are run together by `run`, in one statement, pipeline
 * or transaction, and each caller gets its own answer. Under load a group grows with the
 * concurrency (one round trip per group instead of one per call); alone, a call waits only for
 * the end of the event loop's turn. `key` (optional) names what a call touches: calls with the
 * same key never share a group (a later one waits for the next group), so each keeps its own
 * atomic step and the order its callers made them in. Groups of one kind run one at a time, in
 * order. `run` answers one result per item, in order, or an `Error` for a call that failed on
 * its own; a thrown error fails the whole group.
 */
class Group<I, R> {
  run: (items: I[]) => Promise<Array<R | Error>>;
  key: ((item: I) => string) | null;
  queue: Array<{ item: I; resolve: (r: R) => void; reject: (e: unknown) => void; }>;
  busy: boolean;
  scheduled: boolean;
  constructor(run: (items: I[]) => Promise<Array<R | Error>>, key: ((item: I) => string) | null = null) {
    this.run = run;
    this.key = key;
    this.queue = [];
    this.busy = false;
    this.scheduled = false;
  }

  add(item: I): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  schedule() {
    if (this.busy || this.scheduled || this.queue.length === 0) return;
    this.scheduled = true;
    later(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  async flush() {
    if (this.busy || this.queue.length === 0) return;
    this.busy = true;
    const taken: typeof this.queue = [];
    const rest: typeof this.queue = [];
    const keys = new Set<string>();
    for (const q of this.queue) {
      const k = this.key === null ? null : this.key(q.item);
      if (taken.length >= GROUP_MAX || (k !== null && keys.has(k))) {
        rest.push(q);
        continue;
      }
      if (k !== null) keys.add(k);
      taken.push(q);
    }
    this.queue = rest;
    try {
      const out = await this.run(taken.map((q) => q.item));
      taken.forEach((q, i) => {
        const r = out[i];
        if (r instanceof Error) q.reject(r);
        else q.resolve((r as R));
      });
    } catch (e) {
      for (const q of taken) q.reject(e);
    } finally {
      this.busy = false;
      this.schedule();
    }
  }
}

/** Runs `fn` once the current turn of the event loop is over (`setImmediate` where there is one). */
function later(fn: () => void) {
  const g = (globalThis as { setImmediate?: (f: () => void) => unknown });
  if (typeof g.setImmediate === "function") g.setImmediate(fn);
  else setTimeout(fn, 0);
}

export { StorageError, engineError, ChangeHub, recordKeys, checkNew, checkId, checkIds, checkEntries, checkExpected, checkScope, checkCount, checkSession, checkListener, parseChange, parseRecord, Group };
