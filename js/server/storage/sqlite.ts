// mcp-tasks-wasm/storage/sqlite: the TaskStorage contract (types.ts) in one SQLite file, for one
// durable machine (several processes may share the file). The driver is `node:sqlite` where Node
// has it (22.13+ without a flag), else `better-sqlite3` (an optional peer dependency:
// `npm i better-sqlite3`); `driver` picks one.
//
// Schema (its version is `PRAGMA user_version`, migrated in one IMMEDIATE transaction):
//   <table>          id PRIMARY KEY, version, seq, session (NULL: unbound), live, expires_at,
//                    record (the JSON text); indexes (seq), (session, seq),
//                    (expires_at, seq) WHERE expires_at IS NOT NULL, (session) WHERE live,
//                    (seq) WHERE live (schema 2: the lease check reads live records only)
//   <table>_meta     name → value: `seq`, the sequence
//   <table>_changes  the change feed: n (increasing), kind, id, version; the last 10 000 kept
// Every write is one IMMEDIATE transaction (the database's write lock; WAL journal), so
// compare-and-set holds across processes. The drivers are synchronous: SQLite's own busy timeout
// would block the whole event loop while another process holds the lock, so it is 0 and a
// statement refused with SQLITE_BUSY is tried again after an asynchronous pause (1 ms doubling
// to 50 ms) until `busyTimeoutMs` has passed, then rejects with an `engine` error. SQLite has no notifications: subscribers
// hear of this process's writes at once after their commit (as logged, when no other
// connection's row came between; else the rows are read back), and read new rows of
// <table>_changes every `pollMs` (default 50) when `PRAGMA data_version` says another connection
// wrote. Writes are grouped: see `write`. Every commit waits for the disk (synchronous FULL);
// a file's writes run in a writer thread (Node's worker_threads, its own connection, SQLite's busy
// timeout there), so that wait never stops the event loop; reads stay on this connection (WAL:
// they see every commit the writer answered).
import { StorageError, engineError, ChangeHub, recordKeys, checkNew, checkId, checkIds, checkEntries, checkExpected, checkScope, checkCount, checkSession, checkListener, parseRecord, Group, INTERNALS } from "./types.js";

/**
 * The part of a driver's statement this adapter uses (node:sqlite and better-sqlite3 agree).
 */
export type Statement = { get: (...p: unknown[]) => any; all: (...p: unknown[]) => any[]; run: (...p: unknown[]) => { changes: number | bigint; }; };

export type Database = { prepare: (sql: string) => Statement; exec: (sql: string) => void; close: () => void; };

export type SqliteStorageOptions = {
  /** The database file (created if missing). */
  path: string;
  /** The table name (default `mcp_tasks`; `[a-z_][a-z0-9_]*`, at most 40). */
  table?: string;
  /** Default: node:sqlite if this Node has it, else better-sqlite3. */
  driver?: "node:sqlite" | "better-sqlite3";
  /**
   * How long a statement waits for another process's write lock (default 5000), in asynchronous
   * retries: the event loop keeps running meanwhile.
   */
  busyTimeoutMs?: number;
  /** How often subscribers look for other processes' writes (default 50). */
  pollMs?: number;
};

export type StoredTask = import("./types.js").StoredTask;

export type Scope = import("./types.js").Scope;

export type ChangeListener = import("./types.js").ChangeListener;

export type TaskStorage = import("./types.js").TaskStorage;

export type ReplaceEntry = import("./types.js").ReplaceEntry;

/** The schema version this adapter writes (`PRAGMA user_version`). */
const SCHEMA_VERSION = 2;
/** How many change rows are kept for subscribers in other processes. */
const KEEP_CHANGES = 10_000;


/** Opens the file with the chosen (or the first available) driver. */
async function openDatabase(path: string, driver: "node:sqlite" | "better-sqlite3" | undefined): Promise<{ db: Database; driver: string; }> {
  let nodeError: unknown;
  if (driver === undefined || driver === "node:sqlite") {
    const name = "node:sqlite";
    try {
      const mod = await import(name);
      return { db: new mod.DatabaseSync(path), driver: "node:sqlite" };
    } catch (e) {
      if (driver === "node:sqlite") return engineError("sqlite", e, `open ${path} with node:sqlite`);
      nodeError = e;
    }
  }
  const name = "better-sqlite3";
  let mod: any;
  try {
    mod = await import(name);
  } catch (e) {
    throw new StorageError("missing_client", `mcp-tasks-wasm/storage/sqlite needs node:sqlite (Node 22.13+) or the \`better-sqlite3\` package: npm i better-sqlite3${nodeError ? ` (node:sqlite: ${nodeError instanceof Error ? nodeError.message : String(nodeError)})` : ""}`, e);
  }
  try {
    const Database = mod.default ?? mod;
    return { db: new Database(path), driver: "better-sqlite3" };
  } catch (e) {
    return engineError("sqlite", e, `open ${path} with better-sqlite3`);
  }
}

/** A record's keys and text in the order of `writeStatements`'s rows. */
function keyRow(k: ReturnType<typeof recordKeys>, text: string) {
  return [k.id, k.version, k.seq, k.session, k.live, k.expiresAtMs, text];
}

/** Whether `e` (or its cause) is SQLite's SQLITE_BUSY / SQLITE_LOCKED: another connection holds the lock. */
function isBusy(e: unknown): boolean {
  for (let x: any = e, depth = 0; x !== null && typeof x === "object" && depth < 3; x = x.cause, depth++) {
    const code = typeof x.errcode === "number" ? x.errcode & 0xff : null;
    if (code === 5 || code === 6) return true;
    if (typeof x.code === "string" && /^SQLITE_(BUSY|LOCKED)/.test(x.code)) return true;
    if (typeof x.message === "string" && /database (table )?is locked/.test(x.message)) return true;
  }
  return false;
}

/**
 * The text of `hex(column)` (its UTF-8 bytes): node:sqlite cuts a text column read directly at
 * its first U+0000, which ids may hold.
 */
function fromHex(hex: string): string {
  const bytes = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return new TextDecoder().decode(bytes);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The outcome of one write of a group: its value, or the error it failed with (as data). */
type WriteOutcome = { ok: unknown; } | { error: { kind: string; message: string; }; };

/** One write of a group, as data (it may cross to the writer thread). */
type WriteJob = { what: string; op: "insert" | "insertNew" | "update" | "updateEach" | "delete" | "nextSequence" | "nextSequenceWithLive"; args: unknown[]; };

/**
 * The write statements of one connection and the group transaction. Self-contained (it names
 * nothing outside itself; `busy` is `isBusy`, passed in), because its source also runs in the
 * writer thread.
 *
 * `group(jobs, listening)` runs the jobs in order in one IMMEDIATE transaction and answers each
 * one's outcome and the change rows committed (when `listening`). When one fails (not a lock),
 * the transaction is rolled back and each runs again in a transaction of its own, so that it fails
 * alone. A lock held by another connection (SQLITE_BUSY at BEGIN) is thrown: the caller waits.
 */
function writeStatements(db: Database, t: string, keepChanges: number, busy: (e: unknown) => boolean) {
  const p = (sql: string) => db.prepare(sql);
  const s = {
    begin: p("BEGIN IMMEDIATE"),
    commit: p("COMMIT"),
    rollback: p("ROLLBACK"),
    insert: p(`INSERT INTO ${t} (id, version, seq, session, live, expires_at, record) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`),
    raiseSeq: p(`UPDATE ${t}_meta SET value = ? WHERE name = 'seq' AND value < ?`),
    update: p(`UPDATE ${t} SET version = ?, live = ?, expires_at = ?, record = ?, seq = ?, session = ? WHERE id = ? AND version = ?`),
    delete: p(`DELETE FROM ${t} WHERE id = ? RETURNING version, record`),
    next: p(`UPDATE ${t}_meta SET value = value + 1 WHERE name = 'seq' RETURNING value`),
    liveNull: p(`SELECT count(*) AS n FROM ${t} WHERE live = 1 AND session IS NULL`),
    live: p(`SELECT count(*) AS n FROM ${t} WHERE live = 1 AND session = ?`),
    log: p(`INSERT INTO ${t}_changes (kind, id, version) VALUES (?, ?, ?) RETURNING n`),
    trim: p(`DELETE FROM ${t}_changes WHERE n <= ?`),
  };
  let logged: Array<{ n: number; kind: "put" | "delete"; id: string; version: number; }> = [];
  const logChange = (kind: "put" | "delete", id: string, version: number) => {
    const n = Number(s.log.get(kind, id, version).n);
    logged.push({ n, kind, id, version });
    if (n % 100 === 0) s.trim.run(n - keepChanges);
  };
  // k: [id, version, seq, session, live, expiresAtMs, text]
  const update = (k: any[], expected: number) => {
    const r = s.update.run(k[1], k[4] ? 1 : 0, k[5], k[6], k[2], k[3], k[0], expected);
    if (Number(r.changes) !== 1) return false;
    logChange("put", k[0], k[1]);
    return true;
  };
  const ops: Record<WriteJob["op"], (args: any[]) => unknown> = {
    insert: ([k]) => {
      const r = s.insert.run(k[0], k[1], k[2], k[3], k[4] ? 1 : 0, k[5], k[6]);
      if (Number(r.changes) !== 1) return false;
      s.raiseSeq.run(k[2], k[2]);
      logChange("put", k[0], k[1]);
      return true;
    },
    // Clause 14: the session's live count (this transaction's earlier inserts counted), the
    // next number and the insert, in the group's transaction.
    insertNew: ([k, rest, cap]) => {
      if (cap !== null) {
        const n = Number((k[3] === null ? s.liveNull.get() : s.live.get(k[3])).n);
        if (n >= cap) return { seq: null, live: n };
      }
      const seq = Number(s.next.get().value);
      const r = s.insert.run(k[0], k[1], seq, k[3], k[4] ? 1 : 0, k[5], `{"seq":${seq},${rest}`);
      if (Number(r.changes) !== 1) return { seq: null, live: null };
      logChange("put", k[0], k[1]);
      return { seq };
    },
    update: ([k, expected]) => update(k, expected),
    updateEach: ([entries]) => entries.map(([k, expected]: [any[], number]) => update(k, expected)),
    delete: ([id]) => {
      const r = s.delete.get(id);
      if (!r) return null;
      logChange("delete", id, Number(r.version));
      return String(r.record);
    },
    nextSequence: () => Number(s.next.get().value),
    nextSequenceWithLive: ([session]) => {
      const row = s.next.get();
      const n = session === null ? s.liveNull.get() : s.live.get(session);
      return { sequence: Number(row.value), live: Number(n.n) };
    },
  };
  const failed = (what: string, e: any): WriteOutcome => ({
    error: typeof e?.kind === "string" && e?.name === "StorageError"
      ? { kind: e.kind, message: String(e.message) }
      : { kind: "engine", message: `sqlite: ${what}: ${e instanceof Error ? e.message : String(e)}` },
  });
  /** One transaction; throws when BEGIN finds the lock held, or (with `alone`) what a job threw. */
  const transaction = (jobs: WriteJob[], alone: boolean): WriteOutcome[] => {
    s.begin.run();
    const mark = logged.length;
    const out: WriteOutcome[] = [];
    try {
      for (const j of jobs) out.push({ ok: ops[j.op](j.args) });
      s.commit.run();
      return out;
    } catch (e) {
      logged.length = mark; // rolled back: never written
      try {
        s.rollback.run();
      } catch {
        // no transaction left to roll back
      }
      if (alone) return [failed((jobs[0] as WriteJob).what, e)];
      throw e;
    }
  };
  return {
    group(jobs: WriteJob[], listening: boolean) {
      logged = [];
      let out: WriteOutcome[];
      try {
        out = transaction(jobs, jobs.length === 1);
      } catch (e) {
        if (busy(e)) throw e;
        out = [];
        for (const j of jobs) out.push(...transaction([j], true));
      }
      const changes = listening ? logged : [];
      logged = [];
      return { out, changes };
    },
  };
}

/**
 * The writer thread's body (its source runs in a worker thread with `writeStatements` beside
 * it): opens its own connection to the file and runs each group it is sent in one transaction.
 * A commit waits for the disk (synchronous FULL) here, not on the event loop of the process,
 * which meanwhile answers reads and gathers the next group. Another process's write lock is
 * waited for by SQLite's busy timeout (blocking this thread only).
 */
function writerBody(port: any, data: { path: string; table: string; busyTimeoutMs: number; keepChanges: number; }, db: Database, statements: typeof writeStatements, busy: typeof isBusy) {
  db.exec(`PRAGMA busy_timeout = ${data.busyTimeoutMs}`);
  db.exec("PRAGMA synchronous = FULL");
  const w = statements(db, data.table, data.keepChanges, busy);
  port.on("message", (m: { id: number; jobs: WriteJob[]; listening: boolean; } | null) => {
    if (m === null) {
      db.close();
      port.close();
      return;
    }
    try {
      port.postMessage({ id: m.id, ...w.group(m.jobs, m.listening) });
    } catch (e: any) {
      const message = busy(e)
        ? `sqlite: ${m.jobs.length === 1 ? (m.jobs[0] as WriteJob).what : "a group of writes"}: the database stayed locked by another connection for ${data.busyTimeoutMs} ms (busyTimeoutMs)`
        : `sqlite: a group of writes: ${e instanceof Error ? e.message : String(e)}`;
      port.postMessage({ id: m.id, fail: { kind: "engine", message } });
    }
  });
  port.postMessage({ ready: true });
}

/** The main thread's side of the writer thread: one request per group, answered in order. */
class WriterThread {
  worker: any;
  pending = new Map<number, { resolve: (r: { out: WriteOutcome[]; changes: Array<{ n: number; kind: "put" | "delete"; id: string; version: number; }>; }) => void; reject: (e: unknown) => void; }>();
  next = 1;
  failure: unknown = null;
  constructor(worker: any) {
    this.worker = worker;
    worker.unref();
    worker.on("message", (m: any) => {
      const p = this.pending.get(m.id);
      if (p === undefined) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) this.worker.unref();
      if (m.fail) p.reject(new StorageError(m.fail.kind, m.fail.message));
      else p.resolve(m);
    });
    const lost = (e: unknown) => {
      this.failure = e ?? new Error("the writer thread stopped");
      for (const p of this.pending.values()) p.reject(new StorageError("engine", `sqlite: the writer thread stopped: ${e instanceof Error ? e.message : String(e)}`, e));
      this.pending.clear();
    };
    worker.on("error", lost);
    worker.on("exit", () => lost(new Error("exited")));
  }

  send(jobs: WriteJob[], listening: boolean) {
    if (this.failure !== null) return Promise.reject(new StorageError("engine", "sqlite: the writer thread stopped", this.failure));
    const id = this.next++;
    return new Promise<{ out: WriteOutcome[]; changes: Array<{ n: number; kind: "put" | "delete"; id: string; version: number; }>; }>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ id, jobs, listening });
    });
  }

  /** Waits for the groups in flight, then stops the thread. */
  async close() {
    await Promise.allSettled([...this.pending.keys()].map((id) => new Promise<void>((resolve) => {
      const check = () => (this.pending.has(id) ? setTimeout(check, 1) : resolve());
      check();
    })));
    if (this.failure === null) {
      this.failure = new Error("closed");
      this.worker.postMessage(null);
    }
  }
}

/**
 * Starts the writer thread on `path` with the driver of the main connection. Node only (a worker
 * thread), so it is imported here, in the Node adapter, by a name bundlers leave alone.
 */
async function startWriter(path: string, driver: string, table: string, busyTimeoutMs: number): Promise<WriterThread> {
  const name = "node:worker_threads";
  const { Worker } = await import(name);
  let open: string;
  if (driver === "node:sqlite") {
    open = `new (require("node:sqlite").DatabaseSync)(workerData.path)`;
  } else {
    const where = (import.meta as any).resolve("better-sqlite3");
    open = `new (require(require("node:url").fileURLToPath(${JSON.stringify(where)})))(workerData.path)`;
  }
  const source = `"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const writeStatements = ${writeStatements.toString()};
const isBusy = ${isBusy.toString()};
(${writerBody.toString()})(parentPort, workerData, ${open}, writeStatements, isBusy);`;
  const worker = new Worker(source, { eval: true, workerData: { path, table, busyTimeoutMs, keepChanges: KEEP_CHANGES } });
  await new Promise<void>((resolve, reject) => {
    const onMessage = (m: any) => {
      if (m?.ready) {
        worker.off("error", reject);
        resolve();
      }
    };
    worker.once("message", onMessage);
    worker.once("error", reject);
  });
  return new WriterThread(worker);
}


/** @implements {TaskStorage} */
/** Sets up or migrates the schema, for `open…Storage` (a `#private` method, not on the instances). */
let migrate: (s: SqliteStorage) => Promise<void>;
/** Gives an opened storage its writer thread, for `openSqliteStorage`. */
let setWriter: (s: SqliteStorage, writer: WriterThread) => void;

class SqliteStorage {
  static {
    migrate = (s) => s.#migrate();
    setWriter = (s, writer) => {
      s.#writer = writer;
    };
  }

  name: string;
  /** The driver in use (`driver` option, or the default: node:sqlite if this Node has it). */
  readonly driver: string;
  /** Write transactions begun, here or in the writer thread (the test hook counts round trips with it). */
  #transactions = 0;
  #db: Database;
  #t: string;
  #pollMs: number;
  #hub: ChangeHub;
  #closed: boolean;
  #changeCursor: number;
  #dataVersion: number | null;
  #timer: unknown;
  #statements: Map<string, Statement>;
  /** The statement of each call site of `st`. */
  #sites: Map<TemplateStringsArray, Statement> = new Map();
  #busyTimeoutMs: number;
  /** Whether a write logged a change since the feed was last told (`wrote`). */
  #changed = false;
  /** The changes this process committed since the feed was last told (while anyone listens). */
  #logged: Array<{ n: number; kind: "put" | "delete"; id: string; version: number; }> = [];
  /** Group commit of the writes (see `write`). */
  #writes: Group<WriteJob, unknown>;
  /** The writer thread (a file on disk), else null: the writes run on this connection. */
  #writer: WriterThread | null = null;
  /** This connection's write statements, when there is no writer thread (made at first use). */
  #own: ReturnType<typeof writeStatements> | null = null;
  constructor(db: Database, driver: string, table: string, pollMs: number, busyTimeoutMs: number = 5000) {
    this.name = "sqlite";
    this.driver = driver;
    this.#db = db;
    this.#t = table;
    this.#pollMs = pollMs;
    this.#hub = new ChangeHub();
    this.#closed = false;
    /** The last change row delivered to subscribers. */
    this.#changeCursor = 0;
    this.#dataVersion = null;
    this.#timer = null;
    this.#statements = new Map();
    /** How long a statement is retried while another connection holds the lock. */
    this.#busyTimeoutMs = busyTimeoutMs;
    this.#writes = new Group((jobs) => this.#writeGroup(jobs));
  }

  /**
   * Group commit: a write (`op` with `args`, see `writeStatements`) joins the writes made while
   * the previous transaction of this process was committing (or in the same turn of the event
   * loop), and they all run in order in one IMMEDIATE transaction: one commit (one sync of the
   * WAL) for many calls under load. Each stays atomic (a transaction holds it whole) and is
   * answered on its own once the transaction is committed, so the durability of each is the
   * commit's. The transaction runs in the writer thread when there is one, so that waiting for
   * the disk does not stop the event loop.
   */
  #write<T>(what: string, op: WriteJob["op"], args: unknown[]): Promise<T> {
    if (this.#closed) return Promise.reject(new StorageError("closed", "the storage is closed"));
    return (this.#writes.add({ what, op, args }) as Promise<T>);
  }

  /** Runs the writes of one group in one transaction (see `writeStatements`). */
  async #writeGroup(jobs: WriteJob[]): Promise<unknown[]> {
    if (this.#closed) throw new StorageError("closed", "the storage is closed");
    const listening = this.#hub.size > 0;
    this.#transactions += 1;
    const what = jobs.length === 1 ? (jobs[0] as WriteJob).what : "a group of writes";
    const done = this.#writer !== null
      ? await this.#writer.send(jobs, listening)
      : await this.#retry(what, false, () => (this.#own ??= writeStatements(this.#db, this.#t, KEEP_CHANGES, isBusy)).group(jobs, listening));
    if (done.changes.length > 0 && this.#hub.size > 0) {
      this.#logged.push(...done.changes);
      this.#changed = true;
      this.#wrote();
    }
    return done.out.map((o) => ("error" in o ? new StorageError(o.error.kind as any, o.error.message) : o.ok));
  }

  /**
   * The statement of a tagged template (`this.#st\`SELECT …\``): prepared once per call site (its
   * strings, which the engine keeps as one object per site), so a call neither builds nor hashes
   * the SQL text. The values are the table's name only (never a caller's value).
   */
  #st(strings: TemplateStringsArray, ...names: string[]) {
    let s = this.#sites.get(strings);
    if (s === undefined) {
      const sql = strings.reduce((a, part, i) => a + (names[i - 1] ?? "") + part);
      s = this.#statements.get(sql);
      if (!s) {
        s = this.#db.prepare(sql);
        this.#statements.set(sql, s);
      }
      this.#sites.set(strings, s);
    }
    return s;
  }

  /** Runs `fn` (synchronous statements), in an IMMEDIATE transaction when `write`. */
  #run<T>(what: string, write: boolean, fn: () => T): T {
    if (this.#closed) throw new StorageError("closed", "the storage is closed");
    try {
      if (!write) return fn();
      // Prepared once, like every statement here (exec would parse them at each write).
      this.#st`BEGIN IMMEDIATE`.run();
      this.#transactions += 1;
      const logged = this.#logged.length;
      try {
        const out = fn();
        this.#st`COMMIT`.run();
        return out;
      } catch (e) {
        this.#logged.length = logged; // rolled back: never written
        this.#db.exec("ROLLBACK");
        throw e;
      }
    } catch (e) {
      return engineError("sqlite", e, what);
    }
  }

  /**
   * `run`, tried again after an asynchronous pause while another connection holds the lock (never
   * blocking the event loop), until `busyTimeoutMs` has passed.
   */
  async #retry<T>(what: string, write: boolean, fn: () => T): Promise<T> {
    let waited = 0;
    let delay = 1;
    for (;;) {
      try {
        return this.#run(what, write, fn);
      } catch (e) {
        if (!isBusy(e) || waited >= this.#busyTimeoutMs) {
          if (isBusy(e)) throw new StorageError("engine", `sqlite: ${what}: the database stayed locked by another connection for ${this.#busyTimeoutMs} ms (busyTimeoutMs)`, e);
          throw e;
        }
      }
      const step = Math.min(delay, this.#busyTimeoutMs - waited);
      await pause(step);
      waited += step;
      delay = Math.min(delay * 2, 50);
    }
  }

  async #migrate() {
    const t = this.#t;
    await this.#retry("set up the connection", false, () => {
      // 0: a locked database is waited for by `retry`, asynchronously.
      this.#db.exec("PRAGMA busy_timeout = 0");
      this.#db.exec("PRAGMA journal_mode = WAL");
      // Every commit waits for the disk, said outright: a driver built with
      // SQLITE_DEFAULT_WAL_SYNCHRONOUS=1 (better-sqlite3) opens a file already in WAL mode with
      // NORMAL, where an answered commit may be lost to a power cut or a crash of the system.
      this.#db.exec("PRAGMA synchronous = FULL");
    });
    await this.#retry("create or migrate the schema", true, () => {
      const have = Number(this.#db.prepare("PRAGMA user_version").get().user_version);
      if (have > SCHEMA_VERSION) {
        throw new StorageError("schema", `sqlite: the file has schema version ${have}, newer than this adapter's ${SCHEMA_VERSION}: update mcp-tasks-wasm`);
      }
      if (have < 1) {
        this.#db.exec(`CREATE TABLE IF NOT EXISTS ${t} (
          id TEXT PRIMARY KEY, version INTEGER NOT NULL, seq INTEGER NOT NULL, session TEXT,
          live INTEGER NOT NULL, expires_at INTEGER, record TEXT NOT NULL)`);
        this.#db.exec(`CREATE INDEX IF NOT EXISTS ${t}_seq ON ${t} (seq)`);
        this.#db.exec(`CREATE INDEX IF NOT EXISTS ${t}_scope ON ${t} (session, seq)`);
        this.#db.exec(`CREATE INDEX IF NOT EXISTS ${t}_expiry ON ${t} (expires_at, seq) WHERE expires_at IS NOT NULL`);
        this.#db.exec(`CREATE INDEX IF NOT EXISTS ${t}_live ON ${t} (session) WHERE live = 1`);
        this.#db.exec(`CREATE TABLE IF NOT EXISTS ${t}_meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL)`);
        this.#db.exec(`INSERT OR IGNORE INTO ${t}_meta (name, value) VALUES ('seq', 0)`);
        this.#db.exec(`CREATE TABLE IF NOT EXISTS ${t}_changes (n INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, id TEXT NOT NULL, version INTEGER NOT NULL)`);
      }
      if (have < 2) this.#db.exec(`CREATE INDEX IF NOT EXISTS ${t}_liveseq ON ${t} (seq) WHERE live = 1`);
      // Later versions: `if (have < 3) { … }`, each step in this transaction.
      this.#db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    });
  }

  /** Delivers the change rows after the cursor (this process's and others'). */
  #deliver(): boolean {
    if (this.#closed || this.#hub.size === 0) return true;
    try {
      const rows = this.#st`SELECT n, kind, hex(id) AS id, version FROM ${this.#t}_changes WHERE n > ? ORDER BY n`.all(this.#changeCursor);
      for (const r of rows) {
        this.#changeCursor = Number(r.n);
        this.#hub.emit({ kind: r.kind === "delete" ? "delete" : "put", id: fromHex(String(r.id)), version: Number(r.version) });
      }
    } catch (e) {
      // Locked by another connection: the next poll reads the rows again.
      if (!isBusy(e)) console.error("sqlite storage: reading the change feed failed:", e);
      return false;
    }
    return true;
  }

  /** After a write of this process: deliver without waiting for the poll. */
  #wrote() {
    if (!this.#changed) return;
    this.#changed = false;
    if (this.#hub.size > 0) queueMicrotask(() => this.#deliverLogged());
    else this.#logged = [];
  }

  /**
   * Delivers this process's committed changes as it logged them, without reading them back,
   * when they are the rows right after the cursor (no other connection's row between); else
   * reads the rows (`deliver`).
   */
  #deliverLogged() {
    const logged = this.#logged;
    this.#logged = [];
    if (this.#closed || this.#hub.size === 0) return;
    const fresh = logged.filter((c) => c.n > this.#changeCursor);
    if (fresh.length === 0) return;
    if (fresh.some((c, i) => c.n !== (i === 0 ? this.#changeCursor : (fresh[i - 1] as (typeof fresh)[number]).n) + 1)) {
      this.#deliver();
      return;
    }
    for (const c of fresh) {
      this.#changeCursor = c.n;
      this.#hub.emit({ kind: c.kind, id: c.id, version: c.version });
    }
  }

  async get(id: string) {
    const key = checkId(id);
    const row = await this.#retry("get", false, () => this.#st`SELECT record FROM ${this.#t} WHERE id = ?`.get(key));
    return row ? parseRecord(row.record, `sqlite: ${id}`) : null;
  }

  async getMany(ids: string[]) {
    const keys = checkIds(ids);
    if (keys.length === 0) return [];
    const rows = await this.#retry("getMany", false, () => this.#st`SELECT hex(id) AS id, record FROM ${this.#t} WHERE id IN (SELECT value FROM json_each(?))`.all(JSON.stringify(keys)));
    const found = new Map(rows.map((r) => [fromHex(String(r.id)), r.record]));
    return keys.map((id) => {
      const text = found.get(id);
      return text === undefined ? null : parseRecord(text, `sqlite: ${id}`);
    });
  }

  /** Every replacement in one IMMEDIATE transaction (each a compare-and-set of its own). */
  async putEachIfVersion(entries: ReplaceEntry[]) {
    const checked = checkEntries(entries).map((e) => [keyRow(e.keys, JSON.stringify(e.record)), e.expected]);
    if (checked.length === 0) return [];
    return this.#write<boolean[]>("putEachIfVersion", "updateEach", [checked]);
  }

  async putIfVersion(record: StoredTask, expected: number | null) {
    const k = keyRow(recordKeys(record), JSON.stringify(record));
    const want = checkExpected(expected);
    // seq and session never change between versions (clause 2); an update writes them anyway,
    // so the indexes always follow the stored record.
    return want === null ? this.#write<boolean>("putIfVersion", "insert", [k]) : this.#write<boolean>("putIfVersion", "update", [k, want]);
  }

  /** Clause 14: the sequence, the cap and the insert in one IMMEDIATE transaction. */
  async insertNew(record: StoredTask, cap: number | null) {
    const c = checkNew(record, cap);
    return this.#write<{ seq: number; } | { seq: null; live: number | null; }>("insertNew", "insertNew", [keyRow(c.keys, ""), c.rest, c.cap]);
  }

  async delete(id: string) {
    const key = checkId(id);
    const text = await this.#write<string | null>("delete", "delete", [key]);
    return text === null ? null : parseRecord(text, `sqlite: ${id}`);
  }

  async rangeAfter(scope: Scope, after: number, limit: number) {
    const s = checkScope(scope);
    checkCount(after, "after");
    checkCount(limit, "limit");
    const rows = await this.#retry("rangeAfter", false, () =>
      s.kind === "all"
        ? this.#st`SELECT record FROM ${this.#t} WHERE seq > ? ORDER BY seq LIMIT ?`.all(after, limit)
        : s.session === null
          ? this.#st`SELECT record FROM ${this.#t} WHERE session IS NULL AND seq > ? ORDER BY seq LIMIT ?`.all(after, limit)
          : this.#st`SELECT record FROM ${this.#t} WHERE session = ? AND seq > ? ORDER BY seq LIMIT ?`.all(s.session, after, limit));
    return rows.map((r) => parseRecord(r.record, "sqlite: rangeAfter"));
  }

  async rangeLive(after: number, limit: number) {
    checkCount(after, "after");
    checkCount(limit, "limit");
    const rows = await this.#retry("rangeLive", false, () => this.#st`SELECT record FROM ${this.#t} WHERE live = 1 AND seq > ? ORDER BY seq LIMIT ?`.all(after, limit));
    return rows.map((r) => parseRecord(r.record, "sqlite: rangeLive"));
  }

  async expired(nowMs: number, limit: number) {
    checkCount(nowMs, "nowMs");
    checkCount(limit, "limit");
    const rows = await this.#retry("expired", false, () =>
      this.#st`SELECT hex(id) AS id FROM ${this.#t} WHERE expires_at IS NOT NULL AND expires_at < ? ORDER BY expires_at, seq LIMIT ?`.all(nowMs, limit));
    return rows.map((r) => fromHex(String(r.id)));
  }

  async countLive(session: string | null) {
    const s = checkSession(session);
    const row = await this.#retry("countLive", false, () =>
      s === null
        ? this.#st`SELECT count(*) AS n FROM ${this.#t} WHERE live = 1 AND session IS NULL`.get()
        : this.#st`SELECT count(*) AS n FROM ${this.#t} WHERE live = 1 AND session = ?`.get(s));
    return Number(row.n);
  }

  async nextSequence() {
    return this.#write<number>("nextSequence", "nextSequence", []);
  }

  /** Clause 13: both in one IMMEDIATE transaction. */
  async nextSequenceWithLive(session: string | null) {
    const s = checkSession(session);
    return this.#write<{ sequence: number; live: number; }>("nextSequenceWithLive", "nextSequenceWithLive", [s]);
  }

  async lastSequence() {
    const row = await this.#retry("lastSequence", false, () => this.#st`SELECT value FROM ${this.#t}_meta WHERE name = 'seq'`.get());
    return Number(row?.value ?? 0);
  }

  /** Looks for other processes' writes (PRAGMA data_version changes when another connection commits). */
  #poll() {
    if (this.#closed) return;
    try {
      const v = Number(this.#db.prepare("PRAGMA data_version").get().data_version);
      // Seen only once delivered: a read refused by a lock is made again at the next poll.
      if (v !== this.#dataVersion && this.#deliver()) this.#dataVersion = v;
    } catch (e) {
      if (!isBusy(e)) console.error("sqlite storage: polling the change feed failed:", e);
    }
  }

  async subscribe(listener: ChangeListener) {
    const l = checkListener(listener);
    if (this.#hub.size === 0) {
      // The feed starts now: earlier rows are not delivered.
      const row = await this.#retry("subscribe", false, () => this.#st`SELECT max(n) AS n FROM ${this.#t}_changes`.get());
      this.#changeCursor = Number(row?.n ?? 0);
      this.#dataVersion = Number(this.#db.prepare("PRAGMA data_version").get().data_version);
    } else if (this.#closed) {
      throw new StorageError("closed", "the storage is closed");
    }
    this.#hub.add(l);
    if (this.#timer === null) {
      const timer = setInterval(() => this.#poll(), this.#pollMs);
      (timer as any).unref?.();
      this.#timer = timer;
    }
    return async () => {
      this.#hub.remove(l);
      if (this.#hub.size === 0 && this.#timer !== null) {
        clearInterval((this.#timer as any));
        this.#timer = null;
      }
    };
  }

  /** @internal The test hook (see INTERNALS): the database connection (schema checks). */
  [INTERNALS]() {
    return { db: this.#db, transactions: () => this.#transactions };
  }

  async close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#hub.listeners.clear();
    if (this.#timer !== null) clearInterval((this.#timer as any));
    this.#timer = null;
    await this.#writer?.close();
    try {
      this.#db.close();
    } catch {
      // already closed
    }
  }
}

/** Opens (and creates or migrates) a SQLite storage. */
async function openSqliteStorage(options: SqliteStorageOptions): Promise<SqliteStorage> {
  if (typeof options !== "object" || options === null || typeof options.path !== "string" || options.path === "") {
    throw new StorageError("invalid", "options.path: must be the database file's path");
  }
  const { path, table = "mcp_tasks", driver, busyTimeoutMs = 5000, pollMs = 50 } = options;
  if (typeof table !== "string" || !/^[a-z_][a-z0-9_]{0,39}$/.test(table)) {
    throw new StorageError("invalid", "options.table: must match [a-z_][a-z0-9_]* (at most 40 characters)");
  }
  if (driver !== undefined && driver !== "node:sqlite" && driver !== "better-sqlite3") {
    throw new StorageError("invalid", 'options.driver: must be "node:sqlite" or "better-sqlite3"');
  }
  for (const [name, v] of ([["busyTimeoutMs", busyTimeoutMs], ["pollMs", pollMs]] as Array<[string, unknown]>)) {
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1) throw new StorageError("invalid", `options.${name}: must be a positive integer`);
  }
  const { db, driver: used } = await openDatabase(path, driver);
  const s = new SqliteStorage(db, used, table, pollMs, busyTimeoutMs);
  try {
    await migrate(s);
    // A private database (":memory:") is one connection's: its writes stay on it.
    if (path !== ":memory:") setWriter(s, await startWriter(path, used, table, busyTimeoutMs).catch((e) => engineError("sqlite", e, `start the writer thread on ${path}`)));
  } catch (e) {
    db.close();
    throw e;
  }
  return s;
}

export { openSqliteStorage, SqliteStorage, SCHEMA_VERSION, StorageError };
