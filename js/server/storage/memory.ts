// MemoryStorage: the zero-setup TaskStorage (the contract in types.ts), in this process's memory.
// A map by id plus sorted indexes (keyset per scope, expiry), like src/store/storage.rs
// `MemoryStorage`. Records are copied in and out (structuredClone), so a caller never changes a
// stored record by mutating an object. The change feed is in process. The indexes are sorted
// arrays: seeks are binary searches and inserts append (seqs grow); a delete shifts the array
// (a memmove, fast up to hundreds of thousands of tasks).
//
// TypeScript, compiled by scripts/build-ts.mjs (tsc; an ES module only); no `node:` module.
import { StorageError, ChangeHub, recordKeys, checkId, checkIds, checkEntries, checkExpected, checkScope, checkCount, checkSession, checkListener } from "./types.js";

export type StoredTask = import("./types.js").StoredTask;

export type TaskStorage = import("./types.js").TaskStorage;

export type Scope = import("./types.js").Scope;

export type RecordKeys = import("./types.js").RecordKeys;

export type ChangeListener = import("./types.js").ChangeListener;

export type ReplaceEntry = import("./types.js").ReplaceEntry;

export type Entry = { record: StoredTask; keys: RecordKeys; };

export type SessionIndex = { seqs: number[]; live: number; };

/** The first index of `xs` (sorted ascending by `key`) whose key is greater than `k`. */
function upperBound<T>(xs: T[], key: (x: T) => number, k: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key((xs[mid] as T)) <= k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const self = (x: number) => x;

/** Inserts `seq` into the sorted array `xs` (appending is the common case: seqs grow). */
function insertSorted(xs: number[], seq: number) {
  const last = xs[xs.length - 1];
  if (last === undefined || last < seq) xs.push(seq);
  else xs.splice(upperBound(xs, self, seq), 0, seq);
}

function removeSorted(xs: number[], seq: number) {
  const i = upperBound(xs, self, seq) - 1;
  if (i >= 0 && xs[i] === seq) xs.splice(i, 1);
}

/** The first index of the sorted pairs `xs` greater than `(t, seq)`. */
function pairUpperBound(xs: Array<[number, number]>, t: number, seq: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const [x, s] = (xs[mid] as [number, number]);
    if (x < t || (x === t && s <= seq)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const sessionKey = (session: string | null) => (session === null ? "\u0000none" : `s:${session}`);

/** @implements {TaskStorage} */
class MemoryStorage {
  name: string;
  #records: Map<string, Entry>;
  #ids: Map<number, string>;
  #all: number[];
  #live: number[];
  #sessions: Map<string, SessionIndex>;
  #byExpiry: Array<[number, number]>;
  #sequence: number;
  #closed: boolean;
  #hub: ChangeHub;
  constructor() {
    this.name = "memory";
    this.#records = new Map();
    /** seq → id */
    this.#ids = new Map();
    /** every seq, ascending */
    this.#all = [];
    /** the seqs of live records, ascending */
    this.#live = [];
    this.#sessions = new Map();
    /** (expiresAtMs, seq), ascending */
    this.#byExpiry = [];
    this.#sequence = 0;
    this.#closed = false;
    this.#hub = new ChangeHub();
  }

  #open() {
    if (this.#closed) throw new StorageError("closed", "the storage is closed");
  }

  #unindex(e: Entry) {
    const k = e.keys;
    this.#ids.delete(k.seq);
    removeSorted(this.#all, k.seq);
    if (k.live) removeSorted(this.#live, k.seq);
    if (k.expiresAtMs !== null) {
      const i = pairUpperBound(this.#byExpiry, k.expiresAtMs, k.seq) - 1;
      const at = this.#byExpiry[i];
      if (at && at[0] === k.expiresAtMs && at[1] === k.seq) this.#byExpiry.splice(i, 1);
    }
    const sk = sessionKey(k.session);
    const s = this.#sessions.get(sk);
    if (s) {
      removeSorted(s.seqs, k.seq);
      if (k.live) s.live -= 1;
      if (s.seqs.length === 0) this.#sessions.delete(sk);
    }
  }

  #index(e: Entry) {
    const k = e.keys;
    this.#ids.set(k.seq, k.id);
    insertSorted(this.#all, k.seq);
    if (k.live) insertSorted(this.#live, k.seq);
    if (k.expiresAtMs !== null) {
      this.#byExpiry.splice(pairUpperBound(this.#byExpiry, k.expiresAtMs, k.seq), 0, [k.expiresAtMs, k.seq]);
    }
    const sk = sessionKey(k.session);
    let s = this.#sessions.get(sk);
    if (!s) {
      s = { seqs: [], live: 0 };
      this.#sessions.set(sk, s);
    }
    insertSorted(s.seqs, k.seq);
    if (k.live) s.live += 1;
    this.#sequence = Math.max(this.#sequence, k.seq);
  }

  async get(id: string) {
    this.#open();
    const e = this.#records.get(checkId(id));
    return e ? structuredClone(e.record) : null;
  }

  async getMany(ids: string[]) {
    this.#open();
    return checkIds(ids).map((id) => {
      const e = this.#records.get(id);
      return e ? structuredClone(e.record) : null;
    });
  }

  async putEachIfVersion(entries: ReplaceEntry[]) {
    this.#open();
    const checked = checkEntries(entries);
    const out: boolean[] = [];
    for (const e of checked) out.push(await this.putIfVersion(e.record, e.expected));
    return out;
  }

  async putIfVersion(record: StoredTask, expected: number | null) {
    this.#open();
    const keys = recordKeys(record);
    const want = checkExpected(expected);
    const old = this.#records.get(keys.id);
    if ((old ? old.keys.version : null) !== want) return false;
    let copy: StoredTask;
    try {
      copy = structuredClone(record);
    } catch (e) {
      throw new StorageError("invalid", `record ${keys.id}: cannot be copied (not plain data)`, e);
    }
    if (old) this.#unindex(old);
    const entry = { record: copy, keys };
    this.#index(entry);
    this.#records.set(keys.id, entry);
    this.#hub.emit({ kind: "put", id: keys.id, version: keys.version });
    return true;
  }

  async delete(id: string) {
    this.#open();
    const e = this.#records.get(checkId(id));
    if (!e) return null;
    this.#records.delete(e.keys.id);
    this.#unindex(e);
    this.#hub.emit({ kind: "delete", id: e.keys.id, version: e.keys.version });
    return e.record;
  }

  async rangeAfter(scope: Scope, after: number, limit: number) {
    this.#open();
    const s = checkScope(scope);
    checkCount(after, "after");
    checkCount(limit, "limit");
    const seqs: number[] | undefined = s.kind === "all" ? this.#all : this.#sessions.get(sessionKey(s.session))?.seqs;
    const out: StoredTask[] = [];
    if (!seqs) return out;
    for (let i = upperBound(seqs, self, after); i < seqs.length && out.length < limit; i++) {
      const id = this.#ids.get((seqs[i] as number));
      const e = id === undefined ? undefined : this.#records.get(id);
      if (e) out.push(structuredClone(e.record));
    }
    return out;
  }

  async rangeLive(after: number, limit: number) {
    this.#open();
    checkCount(after, "after");
    checkCount(limit, "limit");
    const out: StoredTask[] = [];
    for (let i = upperBound(this.#live, self, after); i < this.#live.length && out.length < limit; i++) {
      const id = this.#ids.get((this.#live[i] as number));
      const e = id === undefined ? undefined : this.#records.get(id);
      if (e) out.push(structuredClone(e.record));
    }
    return out;
  }

  async expired(nowMs: number, limit: number) {
    this.#open();
    checkCount(nowMs, "nowMs");
    checkCount(limit, "limit");
    const out: string[] = [];
    for (const [t, seq] of this.#byExpiry) {
      if (t >= nowMs || out.length >= limit) break;
      const id = this.#ids.get(seq);
      if (id !== undefined) out.push(id);
    }
    return out;
  }

  async countLive(session: string | null) {
    this.#open();
    return this.#sessions.get(sessionKey(checkSession(session)))?.live ?? 0;
  }

  async nextSequence() {
    this.#open();
    this.#sequence += 1;
    return this.#sequence;
  }

  /** Clause 13. */
  async nextSequenceWithLive(session: string | null) {
    this.#open();
    const live = this.#sessions.get(sessionKey(checkSession(session)))?.live ?? 0;
    this.#sequence += 1;
    return { sequence: this.#sequence, live };
  }

  async lastSequence() {
    this.#open();
    return this.#sequence;
  }

  async subscribe(listener: ChangeListener) {
    this.#open();
    const l = checkListener(listener);
    this.#hub.add(l);
    return async () => {
      this.#hub.remove(l);
    };
  }

  async close() {
    this.#closed = true;
    this.#hub.listeners.clear();
  }
}

export { MemoryStorage };
