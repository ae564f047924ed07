#!/usr/bin/env node
// The floor of a shared-storage task server, for bench/server.mjs --floor: what no design that
// stores each task's creation and outcome before answering them can beat on an engine, on this
// machine. It is the in-memory server of examples/conformance-server.mjs (McpHttpServer, the same
// tools), and each task's two writes (the create, then the outcome) are stored before they are
// answered; a tasks/* request about a task waits for its write under way. Nothing else of the
// storage contract (js/server/storage/types.ts) is done: one table with its primary key only (no
// index for listings, expiry, live counts or leases), no change feed, no session cap, no read of
// another replica's write, no compare-and-set retry; the record is a JSON text of the task's
// members, its request and its outcome (about the size of the stored record of SharedTaskServer).
// Writes are grouped by the adapters' own `Group` (storage/types.js), with the cheapest driver call:
//   sqlite:PATH     better-sqlite3 on the event loop (WAL, synchronous FULL): the writes made while
//                   the previous transaction ran (or in one turn of the event loop) in one IMMEDIATE
//                   transaction;
//   postgres://…    pg (a pool of 10, named statements): the inserts, and the updates, made while
//                   the previous statement of their kind is in flight, in one multi-row statement.
// --adapter stores the same two writes through this package's storage adapter instead
// (`insertNew`, then `putIfVersion`: its schema, indexes, change feed and session count; the
// SQLite writer thread): the engine's share of the contract, still without SharedTaskServer.
// A benchmark tool, not an example: it stores no task anyone could read back.
//
//   node bench/floor-server.mjs [--port 0] [--storage memory|sqlite:PATH|postgres://…] [--adapter]
import http from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";

import { McpHttpServer, TaskHost, TaskServer } from "../pkg/server/node.mjs";
// The adapters' group commit: the calls made while the previous group is in flight, run together.
import { Group } from "../pkg/storage/types.js";
import { TOOLS } from "../examples/tools.mjs";

const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : fallback);
const port = Number(option("port", "0"));
const spec = option("storage", "memory");
/** The storage client libraries, from the working directory (bench/server.mjs runs it in tools/storage). */
const peer = (name) => createRequire(join(process.cwd(), "noop.js"))(name);

/** `{ insert(record) → seq, update(record, expected) → stored, close() }` on the engine of `spec`. */
async function openWrites(spec) {
  if (spec.startsWith("sqlite:")) {
    const Database = peer("better-sqlite3");
    const db = new Database(spec.slice("sqlite:".length));
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.exec("CREATE TABLE IF NOT EXISTS floor (id TEXT PRIMARY KEY, version INTEGER NOT NULL, seq INTEGER NOT NULL, record TEXT NOT NULL)");
    const insert = db.prepare("INSERT INTO floor (id, version, seq, record) VALUES (?, ?, ?, ?)");
    let seq = 0;
    const update = db.prepare("UPDATE floor SET version = ?, record = ? WHERE id = ? AND version = ?");
    const begin = db.prepare("BEGIN IMMEDIATE");
    const commit = db.prepare("COMMIT");
    const group = new Group(async (jobs) => {
      begin.run();
      const out = jobs.map((job) => job());
      commit.run();
      return out;
    });
    return {
      insert: (r) => group.add(() => (insert.run(r.id, r.version, ++seq, JSON.stringify(r)).changes === 1 ? seq : null)),
      update: (r, expected) => group.add(() => update.run(r.version, JSON.stringify(r), r.id, expected).changes === 1),
      close: async () => db.close(),
    };
  }
  if (spec.startsWith("postgres://") || spec.startsWith("postgresql://")) {
    const pg = peer("pg");
    const pool = new pg.Pool({ connectionString: spec, max: 10 });
    const table = `floor_${process.pid}`;
    await pool.query(`CREATE TABLE ${table} (id text PRIMARY KEY, version bigint NOT NULL, seq bigserial, record text NOT NULL)`);
    const inserts = new Group(async (records) => {
      const r = await pool.query({
        name: "floor-insert",
        text: `INSERT INTO ${table} (id, version, record) SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[]) RETURNING id, seq`,
        values: [records.map((x) => x.id), records.map((x) => x.version), records.map((x) => JSON.stringify(x))],
      });
      const seq = new Map(r.rows.map((row) => [row.id, Number(row.seq)]));
      return records.map((x) => seq.get(x.id) ?? null);
    });
    const updates = new Group(async (items) => {
      const r = await pool.query({
        name: "floor-update",
        text: `UPDATE ${table} AS t SET version = v.version, record = v.record FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[]) AS v(id, version, record, expected)
               WHERE t.id = v.id AND t.version = v.expected RETURNING t.id`,
        values: [items.map((x) => x.r.id), items.map((x) => x.r.version), items.map((x) => JSON.stringify(x.r)), items.map((x) => x.expected)],
      });
      const stored = new Set(r.rows.map((row) => row.id));
      return items.map((x) => stored.has(x.r.id));
    });
    return {
      insert: (r) => inserts.add(r),
      update: (r, expected) => updates.add({ r, expected }),
      close: async () => {
        await pool.query(`DROP TABLE IF EXISTS ${table}`).catch(() => {});
        await pool.end();
      },
    };
  }
  throw new Error(`--storage: must be memory, sqlite:PATH or postgres://… (got ${JSON.stringify(spec)})`);
}

/** The same writes through this package's adapter (`--adapter`). */
async function openAdapter(spec) {
  let storage;
  if (spec.startsWith("sqlite:")) {
    const { openSqliteStorage } = await import("../pkg/storage/sqlite.js");
    storage = await openSqliteStorage({ path: spec.slice("sqlite:".length) });
  } else if (spec.startsWith("postgres://") || spec.startsWith("postgresql://")) {
    const { openPostgresStorage } = await import("../pkg/storage/postgres.js");
    storage = await openPostgresStorage({ connectionString: spec, table: `floor_${process.pid}`, pg: peer("pg") });
  } else {
    throw new Error(`--storage: must be memory, sqlite:PATH or postgres://… (got ${JSON.stringify(spec)})`);
  }
  // Its change feed is heard, as a replica hears it.
  await storage.subscribe(() => {});
  return {
    insert: async (r) => (await storage.insertNew({ ...r, seq: 1 }, null)).seq,
    update: (r, expected) => storage.putIfVersion(r, expected),
    close: () => storage.close(),
  };
}

let writes = null;
/** Memory: McpHttpServer's own host, as in the example. */
let host = null;
if (spec !== "memory") {
  writes = argv.includes("--adapter") ? await openAdapter(spec) : await openWrites(spec);
  const core = new TaskServer();
  /** The write under way of each task, and the record of each live task (its last write). */
  const underway = new Map();
  const records = new Map();
  const track = (id, p) => {
    underway.set(id, p);
    return p.finally(() => {
      if (underway.get(id) === p) underway.delete(id);
    });
  };
  // The in-memory TaskServer, its create and outcome stored before they are answered.
  const server = new Proxy(core, {
    get(target, prop) {
      if (prop === "beginToolCall") {
        return async (request, ctx, support) => {
          const started = target.beginToolCall(request, ctx, support);
          if (started.kind !== "task") return started;
          const now = ctx?.now ?? Date.now();
          const at = new Date(now).toISOString();
          const record = {
            id: started.taskId, version: 1, session: ctx?.session ?? null, status: "working", createdAtMs: now, ttlMs: 60_000,
            createdAt: at, lastUpdatedAt: at, pollInterval: 1000, request: typeof request === "string" ? JSON.parse(request) : request,
          };
          records.set(started.taskId, record);
          const seq = await track(started.taskId, writes.insert(record));
          if (seq === null) throw new Error("floor: the insert was refused");
          record.seq = seq;
          return started;
        };
      }
      if (prop === "finishToolCall") {
        return async (taskId, outcome, now) => {
          const finished = target.finishToolCall(taskId, outcome, now);
          const old = records.get(taskId);
          if (finished.kind === "stored" && old !== undefined) {
            records.delete(taskId);
            const record = { ...old, version: 2, status: finished.task.status, lastUpdatedAt: new Date().toISOString(), outcome };
            if (!(await track(taskId, writes.update(record, 1)))) throw new Error("floor: the outcome's write was refused");
          }
          return finished;
        };
      }
      if (prop === "handle") {
        return async (message, ctx) => {
          const id = typeof message === "object" && message !== null ? message.params?.taskId : undefined;
          const pending = typeof id === "string" ? underway.get(id) : undefined;
          if (pending !== undefined) await pending;
          return target.handle(message, ctx);
        };
      }
      const value = target[prop];
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  host = new TaskHost({ server });
}
const app = new McpHttpServer({ name: "mcp-tasks-wasm-floor-server", version: "0.1.0", path: "/mcp", ...(host === null ? { hostOptions: {} } : { host }) });
for (const { name, handler, ...options } of TOOLS) app.tool(name, options, handler);
const server = http.createServer(app.node);
server.listen(port, "127.0.0.1", () => console.log(`floor server listening on http://127.0.0.1:${server.address().port}/mcp`));
process.once("SIGTERM", async () => {
  server.close();
  server.closeAllConnections?.();
  await writes?.close().catch(() => {});
  process.exit(0);
});
