// The storage contract kit (contract.mjs) on mcp-tasks-wasm/storage/postgres (the installed
// package, `pg` from tools/storage), against a real Postgres 15 started here (lib.mjs: initdb into
// a temporary directory, 127.0.0.1, a free port, stopped by PID after). Each test gets its own
// table; the multi-process tests open the same table from worker processes.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { storageContract, record } from "./contract.mjs";
import { loadStorage, peer, startPostgres, waitFor } from "./lib.mjs";
// The classes' internal tables and bounds, read through their deliberate test hook
// (`@internal`, absent from the typings: js/core/internals.ts).
const internals = (o) => o[Symbol.for("mcp-tasks-wasm.internals")]();

const { openPostgresStorage, SCHEMA_VERSION } = await loadStorage("postgres");
const server = await startPostgres();
after(() => server.stop());

let n = 0;
let table = "";
const options = () => ({ connectionString: server.url, table });

storageContract("postgres", {
  open: async () => {
    table = `t${process.pid}_${n++}`;
    return openPostgresStorage(options());
  },
  spec: async () => ({ adapter: "postgres", options: options() }),
});

test("postgres: the schema is created once, versioned, and survives a reopen (a replica restart)", async () => {
  table = `t${process.pid}_${n++}`;
  // Replicas starting together: the advisory lock serialises the migration.
  const opened = await Promise.all([1, 2, 3, 4].map(() => openPostgresStorage(options())));
  await opened[0].putIfVersion(record("a", await opened[1].nextSequence(), { session: "s" }), null);
  for (const s of opened) await s.close();
  const again = await openPostgresStorage(options());
  try {
    assert.equal((await again.get("a")).session, "s", "the record outlived the processes' connections");
    assert.equal(await again.lastSequence(), 1);
    const pg = peer("pg");
    const c = new pg.Client({ connectionString: server.url });
    await c.connect();
    try {
      const v = await c.query(`SELECT value FROM ${table}_meta WHERE name = 'schema'`);
      assert.equal(Number(v.rows[0].value), SCHEMA_VERSION);
      const idx = await c.query("SELECT indexname FROM pg_indexes WHERE tablename = $1 ORDER BY indexname", [table]);
      assert.deepEqual(idx.rows.map((r) => r.indexname), [`${table}_expiry`, `${table}_live`, `${table}_liveseq`, `${table}_pkey`, `${table}_scope`, `${table}_seq`]);
      // The keyset listing is an index seek, not a scan.
      await c.query("SET enable_seqscan = off");
      const plan = await c.query(`EXPLAIN SELECT record FROM ${table} WHERE session = 's' AND seq > 0 ORDER BY seq LIMIT 10`);
      assert.match(plan.rows.map((r) => r["QUERY PLAN"]).join("\n"), new RegExp(`Index Scan using ${table}_scope`));
      // A schema from a newer adapter is refused, not used.
      await c.query(`UPDATE ${table}_meta SET value = $1 WHERE name = 'schema'`, [SCHEMA_VERSION + 1]);
    } finally {
      await c.end();
    }
    await assert.rejects(openPostgresStorage(options()), (e) => e.name === "StorageError" && e.kind === "schema" && /newer/.test(e.message));
  } finally {
    await again.close();
  }
});

test("postgres: a table of schema 1 gets the live-record index on open (schema 2)", async () => {
  table = `t${process.pid}_${n++}`;
  const s = await openPostgresStorage(options());
  await s.putIfVersion(record("a", 1), null);
  await s.close();
  const pg = peer("pg");
  const c = new pg.Client({ connectionString: server.url });
  await c.connect();
  try {
    await c.query(`DROP INDEX ${table}_liveseq`);
    await c.query(`UPDATE ${table}_meta SET value = 1 WHERE name = 'schema'`);
    const again = await openPostgresStorage(options());
    try {
      assert.equal(Number((await c.query(`SELECT value FROM ${table}_meta WHERE name = 'schema'`)).rows[0].value), SCHEMA_VERSION);
      assert.equal((await c.query("SELECT 1 FROM pg_indexes WHERE indexname = $1", [`${table}_liveseq`])).rows.length, 1);
      assert.deepEqual((await again.rangeLive(0, 10)).map((r) => r.id), ["a"]);
    } finally {
      await again.close();
    }
  } finally {
    await c.end();
  }
});

test("postgres: the change feed reconnects when its LISTEN connection is killed", async () => {
  table = `t${process.pid}_${n++}`;
  const s = await openPostgresStorage(options());
  const pg = peer("pg");
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    const seen = [];
    await s.subscribe((c) => seen.push(c));
    await s.putIfVersion(record("a", 1), null);
    await waitFor(() => seen.length === 1, "the first change");
    const killed = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()");
    assert.equal(killed.rows.length, 1, "one LISTEN connection was killed");
    // Writes go on; once the feed is back, they reach the subscriber again.
    let version = 1;
    await waitFor(async () => {
      await s.putIfVersion(record("a", 1, { version: version + 1 }), version);
      version++;
      // Every version above 1 was written after the kill: one of them arriving is the proof.
      return seen.some((c) => c.version > 1);
    }, "a change after the reconnection");
  } finally {
    await admin.end();
    await s.close();
  }
});

test("postgres: preparedStatements: false sends every statement unnamed (PgBouncer in transaction mode)", async () => {
  // One connection, so pg_prepared_statements (per session) shows what this storage prepared.
  const prepared = async (s) => (await internals(s).pool.query("SELECT count(*)::int AS n FROM pg_prepared_statements")).rows[0].n;
  const use = async (s) => {
    await s.putIfVersion(record("a", await s.nextSequence(), { session: "s" }), null);
    const got = await s.get("a");
    assert.equal(got.session, "s");
    assert.equal(await s.lastSequence(), 1);
  };
  table = `t${process.pid}_${n++}`;
  const named = await openPostgresStorage({ ...options(), maxConnections: 1 });
  try {
    await use(named);
    assert.ok((await prepared(named)) > 0, "by default each statement is prepared on the connection");
  } finally {
    await named.close();
  }
  table = `t${process.pid}_${n++}`;
  const unnamed = await openPostgresStorage({ ...options(), maxConnections: 1, preparedStatements: false });
  try {
    await use(unnamed);
    assert.equal(await prepared(unnamed), 0, "no statement was prepared");
  } finally {
    await unnamed.close();
  }
  await assert.rejects(openPostgresStorage({ ...options(), preparedStatements: "no" }), (e) => e.kind === "invalid" && /preparedStatements/.test(e.message));
});

test("postgres: bad options and an unreachable server are typed errors", async () => {
  await assert.rejects(openPostgresStorage({}), (e) => e.kind === "invalid" && /connectionString/.test(e.message));
  await assert.rejects(openPostgresStorage({ connectionString: server.url, table: "x; DROP TABLE y" }), (e) => e.kind === "invalid" && /table/.test(e.message));
  const port = Number(new URL(server.url).port);
  await server.stop();
  await assert.rejects(openPostgresStorage({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` }), (e) => e.kind === "engine");
});
