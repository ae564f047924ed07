// MemoryStorage: the zero-setup TaskStorage, in this process's memory. The records and their
// indexes are src/store/storage.rs `MemoryStorage` (the contract of record), in the server
// module (`MemoryStorageCore`, src/wasm/storage.rs); this class checks the arguments as every
// adapter does (types.ts), converts, delegates, and keeps the change feed (clauses 8, 9).
// Records cross as their JSON text (what the database adapters store), so a caller never
// changes a stored record by mutating an object.
//
// The server module is loaded at the first call, through the server entry
// (`mcp-tasks-wasm/server`, which loads and initialises it for the platform) and its glue next
// to this folder in the package: both by dynamic import, so importing the storage entry loads
// no wasm.
//
// TypeScript, compiled by scripts/build-ts.mjs (tsc; an ES module only); no `node:` module.
import { StorageError, ChangeHub, recordKeys, checkId, checkIds, checkEntries, checkExpected, checkScope, checkCount, checkSession, checkListener } from "./types.js";

export type StoredTask = import("./types.js").StoredTask;

export type TaskStorage = import("./types.js").TaskStorage;

export type Scope = import("./types.js").Scope;

export type RecordKeys = import("./types.js").RecordKeys;

export type ChangeListener = import("./types.js").ChangeListener;

export type ReplaceEntry = import("./types.js").ReplaceEntry;

/** What this class calls of the server module's `MemoryStorageCore` (src/wasm/storage.rs). */
type Core = {
  get(id: string): string | undefined;
  getMany(ids: string[]): string;
  putIfVersion(text: string, id: string, version: number, seq: number, session: string | undefined, live: boolean, expiresAtMs: number | undefined, expected: number | undefined): boolean;
  delete(id: string): string | undefined;
  rangeAfter(all: boolean, session: string | undefined, after: number, limit: number): string;
  rangeLive(after: number, limit: number): string;
  expired(nowMs: number, limit: number): string[];
  countLive(session: string | undefined): number;
  nextSequence(): number;
  lastSequence(): number;
  nextSequenceWithLive(session: string | undefined): Float64Array | number[];
  free(): void;
};

let loading: Promise<new () => Core> | null = null;

/** The server module's `MemoryStorageCore` class, loaded once. */
function coreClass(): Promise<new () => Core> {
  loading ??= (async () => {
    try {
      // @ts-ignore: the package's own server entry (a self-reference; not resolvable from js/)
      await import("mcp-tasks-wasm/server");
      // @ts-ignore: the server module's glue, pkg/server/ next to pkg/storage/ in the package
      const glue = (await import("../server/mcp_tasks_wasm.js")) as { MemoryStorageCore: new () => Core; };
      return glue.MemoryStorageCore;
    } catch (e) {
      loading = null;
      throw new StorageError("engine", `memory: cannot load the server module (mcp-tasks-wasm/server): ${e instanceof Error ? e.message : String(e)}`, e);
    }
  })();
  return loading;
}

/** A record's JSON text, or an `invalid` error naming it. */
function recordText(record: StoredTask, id: string): string {
  try {
    return JSON.stringify(record);
  } catch (e) {
    throw new StorageError("invalid", `record ${id}: cannot be stored as JSON (not plain data)`, e);
  }
}

const some = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

/** @implements {TaskStorage} */
class MemoryStorage {
  name: string;
  #core: Core | null;
  #closed: boolean;
  #hub: ChangeHub;
  constructor() {
    this.name = "memory";
    this.#core = null;
    this.#closed = false;
    this.#hub = new ChangeHub();
  }

  #open() {
    if (this.#closed) throw new StorageError("closed", "the storage is closed");
  }

  /** The core, loaded at the first call (then the storage may have closed meanwhile). */
  #use(): Core | Promise<Core> {
    return this.#core ?? this.#load();
  }

  async #load(): Promise<Core> {
    const Core = await coreClass();
    this.#open();
    this.#core ??= new Core();
    return this.#core;
  }

  /** Clause 2 with the checked keys and the record's text; a stored write reaches the feed. */
  #put(core: Core, text: string, keys: RecordKeys, expected: number | null): boolean {
    const stored = core.putIfVersion(text, keys.id, keys.version, keys.seq, some(keys.session), keys.live, some(keys.expiresAtMs), some(expected));
    if (stored) this.#hub.emit({ kind: "put", id: keys.id, version: keys.version });
    return stored;
  }

  async get(id: string) {
    this.#open();
    const key = checkId(id);
    const text = (await this.#use()).get(key);
    return text === undefined ? null : (JSON.parse(text) as StoredTask);
  }

  async getMany(ids: string[]) {
    this.#open();
    const keys = checkIds(ids);
    return JSON.parse((await this.#use()).getMany(keys)) as Array<StoredTask | null>;
  }

  async putEachIfVersion(entries: ReplaceEntry[]) {
    this.#open();
    const checked = checkEntries(entries).map((e) => ({ ...e, text: recordText(e.record, e.keys.id) }));
    const core = await this.#use();
    return checked.map((e) => this.#put(core, e.text, e.keys, e.expected));
  }

  async putIfVersion(record: StoredTask, expected: number | null) {
    this.#open();
    const keys = recordKeys(record);
    const want = checkExpected(expected);
    const text = recordText(record, keys.id);
    return this.#put(await this.#use(), text, keys, want);
  }

  async delete(id: string) {
    this.#open();
    const key = checkId(id);
    const text = (await this.#use()).delete(key);
    if (text === undefined) return null;
    const record = (JSON.parse(text) as StoredTask);
    this.#hub.emit({ kind: "delete", id: key, version: record.version });
    return record;
  }

  async rangeAfter(scope: Scope, after: number, limit: number) {
    this.#open();
    const s = checkScope(scope);
    checkCount(after, "after");
    checkCount(limit, "limit");
    const text = (await this.#use()).rangeAfter(s.kind === "all", s.kind === "session" ? some(s.session) : undefined, after, limit);
    return JSON.parse(text) as StoredTask[];
  }

  async rangeLive(after: number, limit: number) {
    this.#open();
    checkCount(after, "after");
    checkCount(limit, "limit");
    return JSON.parse((await this.#use()).rangeLive(after, limit)) as StoredTask[];
  }

  async expired(nowMs: number, limit: number) {
    this.#open();
    checkCount(nowMs, "nowMs");
    checkCount(limit, "limit");
    return (await this.#use()).expired(nowMs, limit);
  }

  async countLive(session: string | null) {
    this.#open();
    const s = checkSession(session);
    return (await this.#use()).countLive(some(s));
  }

  async nextSequence() {
    this.#open();
    return (await this.#use()).nextSequence();
  }

  /** Clause 13. */
  async nextSequenceWithLive(session: string | null) {
    this.#open();
    const s = checkSession(session);
    const [sequence, live] = (await this.#use()).nextSequenceWithLive(some(s));
    return { sequence: (sequence as number), live: (live as number) };
  }

  async lastSequence() {
    this.#open();
    return (await this.#use()).lastSequence();
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
    if (this.#closed) return;
    this.#closed = true;
    this.#hub.listeners.clear();
    this.#core?.free();
    this.#core = null;
  }
}

export { MemoryStorage };
