// mcp-tasks-wasm/storage/postgres: the TaskStorage contract (types.ts) on PostgreSQL, through
// `pg` (an optional peer dependency: `npm i pg`). Many processes may share one database: every
// write is one statement, so compare-and-set is atomic in the database.
// Group commit: the `get`s, `putIfVersion`s and `nextSequenceWithLive`s made while the previous
// statement of their kind is in flight go together in one statement (`Group`, types.js): one
// round trip, one wake-up of the server and one commit for many calls under load; each row
// stays its own compare-and-set (a group holds at most one write per id), each caller gets its
// own answer.
//
// Schema (created and migrated by `openPostgresStorage`, under an advisory lock so replicas
// starting together do not race; its version is the row `schema` of `<table>_meta`):
//   <table>        id text PRIMARY KEY, version, seq, session (NULL: unbound), live (not
//                  terminal), expires_at (createdAtMs + ttlMs, NULL: never), record (the JSON text)
//                  indexes: (seq) for the keyset of every record, (session, seq) per session,
//                  (expires_at, seq) WHERE expires_at IS NOT NULL, (session) WHERE live,
//                  (seq) WHERE live (schema 2: the lease check reads live records only)
//   <table>_meta   name → value: `schema` (1) and `seq`, the sequence. A counter row rather than
//                  a Postgres SEQUENCE: clause 7 also needs "greater than every stored seq", and a
//                  sequence cannot be raised to a stored value without a race against nextval.
// Writes: INSERT … ON CONFLICT (id) DO NOTHING; UPDATE … WHERE id = $1 AND version = $n. The
// change feed is NOTIFY on the channel `<table>_changes`, sent by the writing statement itself
// (so only on success, delivered at commit), heard by LISTEN on one extra connection.
// Postgres text cannot hold U+0000, which the other engines store like any character: the `id`
// and `session` columns hold the strings with U+0000 written as U+FDD0 "0" and U+FDD0 as U+FDD0
// U+FDD0 (`column`; a one-to-one map that leaves every other string as it is: the store never
// writes U+FDD0 in a session nor in an id), so such an id or session is found, listed and
// counted as on the other engines instead of failing the statement. The record's JSON text
// escapes U+0000 itself.
import { StorageError, engineError, ChangeHub, recordKeys, checkNew, checkId, checkIds, checkEntries, checkExpected, checkScope, checkCount, checkSession, checkListener, parseChange, parseRecord, Group, INTERNALS } from "./types.js";

/**
 * The few parts of `pg` this adapter uses.
 */
export type PgResult = { rows: Array<Record<string, any>>; rowCount: number | null; };

export type PgPoolClient = { query: (text: string, values?: unknown[]) => Promise<PgResult>; release: (err?: unknown) => void; };

/** A query as `pg` takes it with a statement name: prepared once per connection, then only bound. */
export type PgQuery = { name: string; text: string; values: unknown[]; };

export type PgPool = { query: (text: string | PgQuery, values?: unknown[]) => Promise<PgResult>; connect: () => Promise<PgPoolClient>; end: () => Promise<void>; };

export type PgClient = { connect: () => Promise<void>; query: (text: string) => Promise<PgResult>; on: (event: string, fn: (msg: any) => void) => void; end: () => Promise<void>; };

export type PgModule = { Pool: new (config: object) => PgPool; Client: new (config: object) => PgClient; };

export type PostgresStorageOptions = {
  /** `postgres://user@host:port/db` (or pass `config`). */
  connectionString?: string;
  /** A `pg` Pool configuration (host, port, user, …), instead of a URL. */
  config?: object;
  /**
   * The table name (default `mcp_tasks`; `[a-z_][a-z0-9_]*`, at most 40 characters): several stores
   * may share a database under different names.
   */
  table?: string;
  /** The pool size (default 10). */
  maxConnections?: number;
  /** The `pg` module, when it should not be imported by name. */
  pg?: PgModule;
  /**
   * Whether statements are named, so each connection prepares each once (default true). Set false
   * behind a pooler that cannot keep prepared statements across transactions (PgBouncer in
   * transaction mode before 1.21, or without `max_prepared_statements`): each statement is then
   * sent unnamed, parsed and planned at every call.
   */
  preparedStatements?: boolean;
};

/** The schema version this adapter writes. */
const SCHEMA_VERSION = 2;
/** How many times a statement Postgres aborted as a deadlock victim is sent (in all). */
const DEADLOCK_ATTEMPTS = 4;

/** The column text of an id or session (see the top of this file). */
function column(s: string): string {
  return /[\u0000\ufdd0]/.test(s) ? s.replace(/[\u0000\ufdd0]/g, (c) => (c === "\u0000" ? "\ufdd00" : "\ufdd0\ufdd0")) : s;
}

/** The string a column text stands for (`column` undone). */
function uncolumn(s: string): string {
  return s.includes("\ufdd0") ? s.replace(/\ufdd0([0\ufdd0])/g, (_, c) => (c === "0" ? "\u0000" : "\ufdd0")) : s;
}

export type StoredTask = import("./types.js").StoredTask;

export type Scope = import("./types.js").Scope;

export type ChangeListener = import("./types.js").ChangeListener;

export type TaskStorage = import("./types.js").TaskStorage;

export type ReplaceEntry = import("./types.js").ReplaceEntry;


/** Imports `pg` (an optional peer dependency). */
async function importPg(): Promise<PgModule> {
  const name = "pg";
  try {
    const mod = await import(name);
    return ((mod.default ?? mod) as PgModule);
  } catch (e) {
    throw new StorageError("missing_client", "mcp-tasks-wasm/storage/postgres needs the `pg` package: npm i pg", e);
  }
}

/** Sets up or migrates the schema, for `open…Storage` (a `#private` method, not on the instances). */
let migrate: (s: PostgresStorage) => Promise<void>;

/** @implements {TaskStorage} */
class PostgresStorage {
  static {
    migrate = (s) => s.#migrate();
  }

  name: string;
  #pg: PgModule;
  #pool: PgPool;
  #config: object;
  #table: string;
  #meta: string;
  #channel: string;
  #hub: ChangeHub;
  #listener: Promise<PgClient> | null;
  #closed: boolean;
  /** The name of each statement text this storage sends (a fixed set: the texts hold no values). */
  #statements: Map<string, string>;
  /** Whether `q` names its statements (the `preparedStatements` option). */
  #prepared: boolean;
  /** The SQL text of each call site of `sql`. */
  #texts: Map<TemplateStringsArray, string> = new Map();
  /** Group commit of `get`, `putIfVersion` and `nextSequenceWithLive` (see `Group`). */
  #gets: Group<string, StoredTask | null>;
  #puts: Group<{ keys: import("./types.js").RecordKeys; expected: number | null; text: string; }, boolean>;
  #sequences: Group<string, { sequence: number; live: number; }>;
  #creates: Group<{ keys: import("./types.js").RecordKeys; rest: string; cap: number | null; }, { seq: number; } | { seq: null; live: number | null; }>;
  constructor(pg: PgModule, pool: PgPool, config: object, table: string, prepared = true) {
    this.name = "postgres";
    this.#pg = pg;
    this.#pool = pool;
    this.#config = config;
    this.#table = table;
    this.#meta = `${table}_meta`;
    this.#channel = `${table}_changes`;
    this.#hub = new ChangeHub();
    this.#listener = null;
    this.#closed = false;
    this.#statements = new Map();
    this.#prepared = prepared;
    this.#gets = new Group((ids) => this.#getGroup(ids));
    // One write of a task per statement: a second one waits for the next (its compare-and-set
    // and its notification come after the first's).
    this.#puts = new Group((items) => this.#putGroup(items), (item) => item.keys.id);
    this.#sequences = new Group((sessions) => this.#sequenceGroup(sessions));
    this.#creates = new Group((items) => this.#createGroup(items), (item) => item.keys.id);
  }

  /**
   * The SQL text of a tagged template (`this.#sql\`SELECT …\``), built once per call site: the
   * same string every call, so finding its statement name (and `pg`'s check of a named
   * statement's text) compares one string with itself instead of hashing a fresh one. The
   * values are this storage's table, channel and fixed fragments only (never a caller's value).
   */
  #sql(strings: TemplateStringsArray, ...parts: string[]): string {
    let text = this.#texts.get(strings);
    if (text === undefined) {
      text = strings.reduce((a, part, i) => a + (parts[i - 1] ?? "") + part);
      this.#texts.set(strings, text);
    }
    return text;
  }

  async #q(text: string, values: unknown[], what: string) {
    if (this.#closed) throw new StorageError("closed", "the storage is closed");
    if (!this.#prepared) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.#pool.query(text, values);
        } catch (e) {
          if ((e as { code?: unknown })?.code === "40P01" && attempt < DEADLOCK_ATTEMPTS && !this.#closed) continue;
          return engineError("postgres", e, what);
        }
      }
    }
    // Named: each connection of the pool parses and plans a statement once, then only binds it
    // (an unnamed one is parsed and planned by the server at every call).
    let name = this.#statements.get(text);
    if (name === undefined) {
      name = `${this.#table}_${this.#statements.size}`;
      this.#statements.set(text, name);
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#pool.query({ name, text, values });
      } catch (e) {
        // A group's statement locks several rows: two replicas' statements may deadlock, and
        // Postgres then aborts one of them whole (nothing written): it is sent again.
        if ((e as { code?: unknown })?.code === "40P01" && attempt < DEADLOCK_ATTEMPTS && !this.#closed) continue;
        return engineError("postgres", e, what);
      }
    }
  }

  /** Creates or migrates the schema (one transaction under an advisory lock). */
  async #migrate() {
    const t = this.#table;
    let c: PgPoolClient;
    try {
      c = await this.#pool.connect();
    } catch (e) {
      return engineError("postgres", e, "connect");
    }
    try {
      await c.query("BEGIN");
      await c.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`mcp-tasks-wasm:${t}`]);
      await c.query(`CREATE TABLE IF NOT EXISTS ${this.#meta} (name text PRIMARY KEY, value bigint NOT NULL)`);
      const got = await c.query(`SELECT value FROM ${this.#meta} WHERE name = 'schema'`);
      const have = got.rows.length ? Number(got.rows[0]?.value) : 0;
      if (have > SCHEMA_VERSION) {
        throw new StorageError("schema", `postgres: table ${t} has schema version ${have}, newer than this adapter's ${SCHEMA_VERSION}: update mcp-tasks-wasm`);
      }
      if (have < 1) {
        await c.query(`CREATE TABLE ${t} (
          id text PRIMARY KEY,
          version bigint NOT NULL,
          seq bigint NOT NULL,
          session text,
          live boolean NOT NULL,
          expires_at bigint,
          record text NOT NULL)`);
        await c.query(`CREATE INDEX ${t}_seq ON ${t} (seq)`);
        await c.query(`CREATE INDEX ${t}_scope ON ${t} (session, seq)`);
        await c.query(`CREATE INDEX ${t}_expiry ON ${t} (expires_at, seq) WHERE expires_at IS NOT NULL`);
        await c.query(`CREATE INDEX ${t}_live ON ${t} (session) WHERE live`);
        await c.query(`INSERT INTO ${this.#meta} (name, value) VALUES ('seq', 0) ON CONFLICT (name) DO NOTHING`);
      }
      if (have < 2) await c.query(`CREATE INDEX IF NOT EXISTS ${t}_liveseq ON ${t} (seq) WHERE live`);
      // Later versions: `if (have < 3) { … }`, each step in this transaction.
      await c.query(`INSERT INTO ${this.#meta} (name, value) VALUES ('schema', $1) ON CONFLICT (name) DO UPDATE SET value = $1`, [SCHEMA_VERSION]);
      await c.query("COMMIT");
      c.release();
    } catch (e) {
      await c.query("ROLLBACK").catch(() => {});
      c.release(e);
      return engineError("postgres", e, `create or migrate the schema of ${t}`);
    }
  }

  async get(id: string) {
    const key = checkId(id);
    if (this.#closed) throw new StorageError("closed", "the storage is closed");
    return this.#gets.add(key);
  }

  /** The `get`s of one group: one statement. */
  async #getGroup(ids: string[]): Promise<Array<StoredTask | null>> {
    if (ids.length === 1) {
      const id = (ids[0] as string);
      const r = await this.#q(this.#sql`SELECT record FROM ${this.#table} WHERE id = $1`, [column(id)], "get");
      const row = r.rows[0];
      return [row ? parseRecord(row.record, `postgres: ${id}`) : null];
    }
    const distinct = [...new Set(ids)];
    const r = await this.#q(this.#sql`SELECT id, record FROM ${this.#table} WHERE id = ANY($1::text[])`, [distinct.map(column)], "get");
    const found = new Map(r.rows.map((row) => [uncolumn(row.id as string), row.record as string]));
    return ids.map((id) => {
      const text = found.get(id);
      return text === undefined ? null : parseRecord(text, `postgres: ${id}`);
    });
  }

  async getMany(ids: string[]) {
    const keys = checkIds(ids);
    if (keys.length === 0) {
      if (this.#closed) throw new StorageError("closed", "the storage is closed");
      return [];
    }
    const r = await this.#q(this.#sql`SELECT id, record FROM ${this.#table} WHERE id = ANY($1::text[])`, [keys.map(column)], "getMany");
    const found = new Map(r.rows.map((row) => [uncolumn(row.id as string), row.record as string]));
    return keys.map((id) => {
      const text = found.get(id);
      return text === undefined ? null : parseRecord(text, `postgres: ${id}`);
    });
  }

  /** Every replacement in one statement (each row a compare-and-set of its own). */
  async putEachIfVersion(entries: ReplaceEntry[]) {
    const checked = checkEntries(entries);
    if (checked.length === 0) {
      if (this.#closed) throw new StorageError("closed", "the storage is closed");
      return [];
    }
    const col = <T>(f: (e: (typeof checked)[number]) => T) => checked.map(f);
    const r = await this.#q(
      this.#sql`WITH v AS (
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::boolean[], $4::bigint[], $5::text[], $6::bigint[], $7::bigint[], $8::text[])
           AS v(id, version, live, expires_at, record, expected, seq, session)),
       w AS (
         UPDATE ${this.#table} AS t SET version = v.version, live = v.live, expires_at = v.expires_at, record = v.record, seq = v.seq, session = v.session
         FROM v WHERE t.id = v.id AND t.version = v.expected RETURNING t.id, t.version)
       SELECT w.id, pg_notify($9, json_build_object('kind', 'put', 'id', w.id, 'version', w.version)::text) FROM w`,
      [
        col((e) => column(e.keys.id)),
        col((e) => e.keys.version),
        col((e) => e.keys.live),
        col((e) => e.keys.expiresAtMs),
        col((e) => JSON.stringify(e.record)),
        col((e) => e.expected),
        col((e) => e.keys.seq),
        col((e) => (e.keys.session === null ? null : column(e.keys.session))),
        this.#channel,
      ],
      "putEachIfVersion",
    );
    const stored = new Set(r.rows.map((row) => uncolumn(row.id as string)));
    return checked.map((e) => stored.has(e.keys.id));
  }

  async putIfVersion(record: StoredTask, expected: number | null) {
    const keys = recordKeys(record);
    const want = checkExpected(expected);
    if (this.#closed) throw new StorageError("closed", "the storage is closed");
    return this.#puts.add({ keys, expected: want, text: JSON.stringify(record) });
  }

  /**
   * The `putIfVersion`s of one group (distinct ids): one statement, each row an insert or a
   * compare-and-set of its own, each stored one notified by the statement itself.
   */
  async #putGroup(items: Array<{ keys: import("./types.js").RecordKeys; expected: number | null; text: string; }>): Promise<boolean[]> {
    const note = `json_build_object('kind', 'put', 'id', w.id, 'version', w.version)::text`;
    if (items.length === 1) {
      const { keys: k, expected: want, text } = (items[0] as (typeof items)[number]);
      if (want === null) {
        const r = await this.#q(
          this.#sql`WITH w AS (
             INSERT INTO ${this.#table} (id, version, seq, session, live, expires_at, record)
             VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING RETURNING id, version),
           bump AS (
             UPDATE ${this.#meta} SET value = $3 WHERE name = 'seq' AND value < $3 AND EXISTS (SELECT 1 FROM w))
           SELECT pg_notify($8, ${note}) FROM w`,
          [column(k.id), k.version, k.seq, k.session === null ? null : column(k.session), k.live, k.expiresAtMs, text, this.#channel],
          "putIfVersion (insert)",
        );
        return [r.rows.length === 1];
      }
      const r = await this.#q(
        this.#sql`WITH w AS (
           UPDATE ${this.#table} SET version = $2, live = $3, expires_at = $4, record = $5, seq = $8, session = $9
           WHERE id = $1 AND version = $6 RETURNING id, version)
         SELECT pg_notify($7, ${note}) FROM w`,
        [column(k.id), k.version, k.live, k.expiresAtMs, text, want, this.#channel, k.seq, k.session === null ? null : column(k.session)],
        "putIfVersion (update)",
      );
      return [r.rows.length === 1];
    }
    // In id order, so that two replicas' groups lock the rows they share in the same order.
    const order = items.map((_, i) => i).sort((a, b) => {
      const x = (items[a] as (typeof items)[number]).keys.id;
      const y = (items[b] as (typeof items)[number]).keys.id;
      return x < y ? -1 : x > y ? 1 : 0;
    });
    const sorted = order.map((i) => (items[i] as (typeof items)[number]));
    const col = <T>(f: (e: (typeof items)[number]) => T) => sorted.map(f);
    const r = await this.#q(
      this.#sql`WITH v AS (
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::boolean[], $6::bigint[], $7::text[], $8::bigint[])
           AS v(id, version, seq, session, live, expires_at, record, expected)),
       ins AS (
         INSERT INTO ${this.#table} (id, version, seq, session, live, expires_at, record)
         SELECT id, version, seq, session, live, expires_at, record FROM v WHERE expected IS NULL
         ON CONFLICT (id) DO NOTHING RETURNING id, version, seq),
       upd AS (
         UPDATE ${this.#table} AS t SET version = v.version, live = v.live, expires_at = v.expires_at, record = v.record, seq = v.seq, session = v.session
         FROM v WHERE v.expected IS NOT NULL AND t.id = v.id AND t.version = v.expected RETURNING t.id, t.version),
       bump AS (
         UPDATE ${this.#meta} SET value = (SELECT max(seq) FROM ins) WHERE name = 'seq' AND value < (SELECT max(seq) FROM ins)),
       w AS (SELECT id, version FROM ins UNION ALL SELECT id, version FROM upd)
       SELECT w.id, pg_notify($9, ${note}) FROM w`,
      [
        col((e) => column(e.keys.id)),
        col((e) => e.keys.version),
        col((e) => e.keys.seq),
        col((e) => (e.keys.session === null ? null : column(e.keys.session))),
        col((e) => e.keys.live),
        col((e) => e.keys.expiresAtMs),
        col((e) => e.text),
        col((e) => e.expected),
        this.#channel,
      ],
      "putIfVersion",
    );
    const stored = new Set(r.rows.map((row) => uncolumn(row.id as string)));
    return items.map((e) => stored.has(e.keys.id));
  }

  /** Clause 14: one statement (for every call of a group). */
  async insertNew(record: StoredTask, cap: number | null) {
    const c = checkNew(record, cap);
    if (this.#closed) throw new StorageError("closed", "the storage is closed");
    return this.#creates.add(c);
  }

  /**
   * The `insertNew`s of one group (distinct ids): one statement. Each call's session is counted
   * once, its earlier calls in the group added (`before`); those under their cap take the
   * numbers of one raise of the counter, in call order, and are inserted, each notified by the
   * statement itself.
   */
  async #createGroup(items: Array<{ keys: import("./types.js").RecordKeys; rest: string; cap: number | null; }>): Promise<Array<{ seq: number; } | { seq: null; live: number | null; }>> {
    const col = <T>(f: (e: (typeof items)[number]) => T) => items.map(f);
    const r = await this.#q(
      this.#sql`WITH v AS (
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::boolean[], $5::bigint[], $6::text[], $7::bigint[]) WITH ORDINALITY
           AS v(id, version, session, live, expires_at, rest, cap, ord)),
       c AS (
         SELECT v.*, (row_number() OVER (PARTITION BY v.session ORDER BY v.ord) - 1)
           + CASE WHEN v.cap IS NULL THEN 0
               WHEN v.session IS NULL THEN (SELECT count(*) FROM ${this.#table} t WHERE t.live AND t.session IS NULL)
               ELSE (SELECT count(*) FROM ${this.#table} t WHERE t.live AND t.session = v.session) END AS seen
         FROM v),
       ok AS (SELECT c.*, row_number() OVER (ORDER BY c.ord) AS k FROM c WHERE c.cap IS NULL OR c.seen < c.cap),
       n AS (UPDATE ${this.#meta} SET value = value + (SELECT count(*) FROM ok) WHERE name = 'seq' RETURNING value),
       ins AS (
         INSERT INTO ${this.#table} (id, version, seq, session, live, expires_at, record)
         SELECT ok.id, ok.version, n.value - (SELECT count(*) FROM ok) + ok.k, ok.session, ok.live, ok.expires_at,
           '{"seq":' || (n.value - (SELECT count(*) FROM ok) + ok.k) || ',' || ok.rest
         FROM ok, n ON CONFLICT (id) DO NOTHING RETURNING id, version, seq)
       SELECT c.ord, c.seen, c.cap IS NOT NULL AND c.seen >= c.cap AS full, ins.seq,
         CASE WHEN ins.id IS NOT NULL THEN pg_notify($8, json_build_object('kind', 'put', 'id', ins.id, 'version', ins.version)::text) END
       FROM c LEFT JOIN ins ON ins.id = c.id ORDER BY c.ord`,
      [
        col((e) => column(e.keys.id)),
        col((e) => e.keys.version),
        col((e) => (e.keys.session === null ? null : column(e.keys.session))),
        col((e) => e.keys.live),
        col((e) => e.keys.expiresAtMs),
        col((e) => e.rest),
        col((e) => e.cap),
        this.#channel,
      ],
      "insertNew",
    );
    return r.rows.map((row) =>
      row.seq !== null && row.seq !== undefined ? { seq: Number(row.seq) } : { seq: null, live: row.full ? Number(row.seen) : null });
  }

  async delete(id: string) {
    const r = await this.#q(
      this.#sql`WITH w AS (DELETE FROM ${this.#table} WHERE id = $1 RETURNING id, version, record)
       SELECT w.record, pg_notify($2, json_build_object('kind', 'delete', 'id', w.id, 'version', w.version)::text) FROM w`,
      [column(checkId(id)), this.#channel],
      "delete",
    );
    const row = r.rows[0];
    return row ? parseRecord(row.record, `postgres: ${id}`) : null;
  }

  async rangeAfter(scope: Scope, after: number, limit: number) {
    const s = checkScope(scope);
    checkCount(after, "after");
    checkCount(limit, "limit");
    if (limit === 0) {
      if (this.#closed) throw new StorageError("closed", "the storage is closed");
      return [];
    }
    const r =
      s.kind === "all"
        ? await this.#q(this.#sql`SELECT record FROM ${this.#table} WHERE seq > $1 ORDER BY seq LIMIT $2`, [after, limit], "rangeAfter")
        : s.session === null
          ? await this.#q(this.#sql`SELECT record FROM ${this.#table} WHERE session IS NULL AND seq > $1 ORDER BY seq LIMIT $2`, [after, limit], "rangeAfter")
          : await this.#q(this.#sql`SELECT record FROM ${this.#table} WHERE session = $3 AND seq > $1 ORDER BY seq LIMIT $2`, [after, limit, column(s.session)], "rangeAfter");
    return r.rows.map((row) => parseRecord(row.record, "postgres: rangeAfter"));
  }

  async rangeLive(after: number, limit: number) {
    checkCount(after, "after");
    checkCount(limit, "limit");
    if (limit === 0) {
      if (this.#closed) throw new StorageError("closed", "the storage is closed");
      return [];
    }
    const r = await this.#q(this.#sql`SELECT record FROM ${this.#table} WHERE live AND seq > $1 ORDER BY seq LIMIT $2`, [after, limit], "rangeLive");
    return r.rows.map((row) => parseRecord(row.record, "postgres: rangeLive"));
  }

  async expired(nowMs: number, limit: number) {
    checkCount(nowMs, "nowMs");
    checkCount(limit, "limit");
    const r = await this.#q(
      this.#sql`SELECT id FROM ${this.#table} WHERE expires_at IS NOT NULL AND expires_at < $1 ORDER BY expires_at, seq LIMIT $2`,
      [nowMs, limit],
      "expired",
    );
    return r.rows.map((row) => uncolumn(row.id as string));
  }

  async countLive(session: string | null) {
    const s = checkSession(session);
    const r =
      s === null
        ? await this.#q(this.#sql`SELECT count(*) AS n FROM ${this.#table} WHERE live AND session IS NULL`, [], "countLive")
        : await this.#q(this.#sql`SELECT count(*) AS n FROM ${this.#table} WHERE live AND session = $1`, [column(s)], "countLive");
    return Number(r.rows[0]?.n ?? 0);
  }

  async nextSequence() {
    const r = await this.#q(this.#sql`UPDATE ${this.#meta} SET value = value + 1 WHERE name = 'seq' RETURNING value`, [], "nextSequence");
    return Number(r.rows[0]?.value);
  }

  /** Clause 13: one statement (for every call of a group). */
  async nextSequenceWithLive(session: string | null) {
    const s = checkSession(session);
    if (this.#closed) throw new StorageError("closed", "the storage is closed");
    if (s === null) {
      const r = await this.#q(
        this.#sql`WITH n AS (UPDATE ${this.#meta} SET value = value + 1 WHERE name = 'seq' RETURNING value)
         SELECT n.value, (SELECT count(*) FROM ${this.#table} WHERE live AND session IS NULL) AS live FROM n`,
        [],
        "nextSequenceWithLive",
      );
      return { sequence: Number(r.rows[0]?.value), live: Number(r.rows[0]?.live ?? 0) };
    }
    return this.#sequences.add(s);
  }

  /**
   * The `nextSequenceWithLive`s of one group (sessions, not null): the counter raised by their
   * number once, each call one number of the range, each session counted once.
   */
  async #sequenceGroup(sessions: string[]): Promise<Array<{ sequence: number; live: number; }>> {
    if (sessions.length === 1) {
      const r = await this.#q(
        this.#sql`WITH n AS (UPDATE ${this.#meta} SET value = value + 1 WHERE name = 'seq' RETURNING value)
         SELECT n.value, (SELECT count(*) FROM ${this.#table} WHERE live AND session = $1) AS live FROM n`,
        [column((sessions[0] as string))],
        "nextSequenceWithLive",
      );
      return [{ sequence: Number(r.rows[0]?.value), live: Number(r.rows[0]?.live ?? 0) }];
    }
    const distinct = [...new Set(sessions)];
    const r = await this.#q(
      this.#sql`WITH n AS (UPDATE ${this.#meta} SET value = value + $1 WHERE name = 'seq' RETURNING value)
       SELECT n.value, s.session, (SELECT count(*) FROM ${this.#table} WHERE live AND session = s.session) AS live
       FROM n, unnest($2::text[]) AS s(session)`,
      [sessions.length, distinct.map(column)],
      "nextSequenceWithLive",
    );
    const last = Number(r.rows[0]?.value);
    const live = new Map(r.rows.map((row) => [uncolumn(row.session as string), Number(row.live ?? 0)]));
    return sessions.map((s, i) => ({ sequence: last - sessions.length + 1 + i, live: live.get(s) ?? 0 }));
  }

  async lastSequence() {
    const r = await this.#q(this.#sql`SELECT value FROM ${this.#meta} WHERE name = 'seq'`, [], "lastSequence");
    return Number(r.rows[0]?.value ?? 0);
  }

  /** The LISTEN connection, opened at the first subscription. */
  #listen() {
    if (!this.#listener) {
      const current: Promise<PgClient> = (async () => {
        const c = new this.#pg.Client(this.#config);
        c.on("notification", (msg: { channel: string; payload?: string; }) => {
          const change = msg.channel === this.#channel && msg.payload ? parseChange(msg.payload) : null;
          if (change) this.#hub.emit({ ...change, id: uncolumn(change.id) });
        });
        let lost = false;
        const reconnect = (e: unknown) => {
          if (lost) return;
          lost = true;
          if (this.#listener === current) this.#listener = null;
          if (this.#closed) return;
          // The feed is at most once: changes made while it is down are not replayed (a
          // subscriber re-reads what it follows). Reconnect while anyone listens.
          console.error("postgres storage: the LISTEN connection was lost; reconnecting:", e instanceof Error ? e.message : e);
          c.end().catch(() => {});
          this.#relisten(1);
        };
        c.on("error", reconnect);
        c.on("end", () => reconnect(new Error("connection ended")));
        await c.connect();
        await c.query(`LISTEN ${this.#channel}`);
        return c;
      })();
      this.#listener = current;
      current.catch(() => {
        if (this.#listener === current) this.#listener = null;
      });
    }
    return this.#listener;
  }

  /**
   * Opens the LISTEN connection again after a loss, while there are subscribers (backing off up
   * to 5 s between attempts).
   */
  #relisten(attempt: number) {
    const timer = setTimeout(() => {
      if (this.#closed || this.#hub.size === 0 || this.#listener) return;
      this.#listen().catch(() => this.#relisten(attempt + 1));
    }, Math.min(100 * 2 ** attempt, 5000));
    (timer as any).unref?.();
  }

  async subscribe(listener: ChangeListener) {
    const l = checkListener(listener);
    if (this.#closed) throw new StorageError("closed", "the storage is closed");
    try {
      await this.#listen();
    } catch (e) {
      return engineError("postgres", e, "LISTEN");
    }
    this.#hub.add(l);
    return async () => {
      this.#hub.remove(l);
    };
  }

  /** @internal The test hook (see INTERNALS): the pool (one session: its prepared statements). */
  [INTERNALS]() {
    return { pool: this.#pool };
  }

  async close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#hub.listeners.clear();
    const listener = this.#listener;
    this.#listener = null;
    if (listener) await listener.then((c) => c.end()).catch(() => {});
    await this.#pool.end().catch(() => {});
  }
}

/** Opens (and creates or migrates) a Postgres storage. */
async function openPostgresStorage(options: PostgresStorageOptions): Promise<PostgresStorage> {
  if (typeof options !== "object" || options === null) {
    throw new StorageError("invalid", "options: must be an object with connectionString or config");
  }
  const { connectionString, config, table = "mcp_tasks", maxConnections = 10, preparedStatements = true } = options;
  if (connectionString === undefined && config === undefined) {
    throw new StorageError("invalid", "options: connectionString or config is required");
  }
  if (connectionString !== undefined && typeof connectionString !== "string") {
    throw new StorageError("invalid", "options.connectionString: must be a string");
  }
  if (typeof table !== "string" || !/^[a-z_][a-z0-9_]{0,39}$/.test(table)) {
    throw new StorageError("invalid", "options.table: must match [a-z_][a-z0-9_]* (at most 40 characters)");
  }
  if (!Number.isSafeInteger(maxConnections) || maxConnections < 1) {
    throw new StorageError("invalid", "options.maxConnections: must be a positive integer");
  }
  if (typeof preparedStatements !== "boolean") {
    throw new StorageError("invalid", "options.preparedStatements: must be a boolean");
  }
  const pg = options.pg ?? (await importPg());
  const base = connectionString !== undefined ? { connectionString } : { ...config };
  const pool = new pg.Pool({ ...base, max: maxConnections });
  // An idle client's error (the server went away) must not crash the process.
  (pool as any).on?.("error", (e: unknown) => console.error("postgres storage: idle connection failed:", e));
  const s = new PostgresStorage(pg, pool, base, table, preparedStatements);
  try {
    await migrate(s);
  } catch (e) {
    await pool.end().catch(() => {});
    throw e;
  }
  return s;
}

export { openPostgresStorage, PostgresStorage, SCHEMA_VERSION, StorageError };
