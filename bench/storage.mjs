// The storage adapters' latency and throughput next to each engine's own floor, measured in the
// same run (issue 13): mcp-tasks-wasm/storage[/sqlite|postgres|redis] from the installed package
// (tests/js/.tmp/install, scripts/pack.sh), real Postgres and Redis started on 127.0.0.1 at free
// ports with throwaway data (tests/js/storage/lib.mjs) and stopped by PID at the end.
//
//   node bench/storage.mjs [--json FILE]
//
// Per adapter, on a table of STORAGE_TASKS tasks (default 2000), one caller at a time:
//   get            get(id) of a random stored task
//   putIfVersion   an update (version + 1) of a random task, expected = its stored version
//   rangeAfter     rangeAfter({ kind: "all" }, random seq, 50): one page of a listing
// and the floor of the same engine, through the same client library and connection settings:
//   redis          a bare GET and a bare SET of one key (ioredis)
//   postgres       a bare `SELECT value FROM t WHERE id = $1` and `UPDATE t SET value = value + 1
//                  WHERE id = $1` on a two-column table (pg pool)
//   sqlite         the same SELECT and UPDATE, prepared, on the same file settings (WAL)
// Throughput: STORAGE_CONCURRENCY callers (default 16) doing get / putIfVersion on distinct tasks
// for STORAGE_MS ms (default 1000) each. Each timing: STORAGE_OPS operations (default 2000) after
// 200 of warm-up; median, p90 and p99 of single-operation times.
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { loadStorage, peer, startPostgres, startRedis } from "../tests/js/storage/lib.mjs";

const args = process.argv.slice(2);
const jsonOut = args.includes("--json") ? args[args.indexOf("--json") + 1] : null;
const TASKS = Number(process.env.STORAGE_TASKS ?? 2000);
const OPS = Number(process.env.STORAGE_OPS ?? 2000);
const CONC = Number(process.env.STORAGE_CONCURRENCY ?? 16);
const MS = Number(process.env.STORAGE_MS ?? 1000);
const WARM = 200;

const rand = (n) => Math.floor(Math.random() * n);

/** Times `op` one call at a time; returns microsecond statistics. */
async function latency(op) {
  for (let i = 0; i < WARM; i++) await op(i);
  const t = [];
  for (let i = 0; i < OPS; i++) {
    const t0 = performance.now();
    await op(i);
    t.push((performance.now() - t0) * 1000);
  }
  t.sort((a, b) => a - b);
  const q = (p) => t[Math.min(t.length - 1, Math.floor(p * t.length))];
  return { medianUs: q(0.5), p90Us: q(0.9), p99Us: q(0.99), ops: OPS };
}

/** `CONC` callers running `op(worker, i)` for MS ms; operations per second. */
async function throughput(op) {
  let done = 0;
  const end = performance.now() + MS;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONC }, async (_, w) => {
    for (let i = 0; performance.now() < end; i++) {
      await op(w, i);
      done++;
    }
  }));
  return { opsPerSec: done / ((performance.now() - t0) / 1000), concurrency: CONC, ms: MS };
}

function task(i, seq) {
  const now = Date.now();
  return {
    id: `task-${i}`, version: 1, seq, protocol: "2026-07-28", session: `session-${i % 10}`, status: "working",
    statusMessage: "working on it", createdAtMs: now, lastUpdatedAtMs: now, ttlMs: 3_600_000, pollIntervalMs: 1000,
  };
}

/** The records as stored (with their seq), kept by measureAdapter's callers. */
let recs = new Map();

async function fill(s) {
  recs = new Map();
  for (let i = 0; i < TASKS; i++) {
    const rec = task(i, await s.nextSequence());
    await s.putIfVersion(rec, null);
    recs.set(rec.id, { ...rec });
  }
}

const results = { date: new Date().toISOString(), node: process.version, nproc: cpus().length, cpu: cpus()[0]?.model ?? "", loadStart: loadavg(), tasks: TASKS, ops: OPS, adapters: {} };

const { MemoryStorage } = await loadStorage("");
const { openSqliteStorage } = await loadStorage("sqlite");
const { openPostgresStorage } = await loadStorage("postgres");
const { openRedisStorage } = await loadStorage("redis");

async function run(name, open, floor) {
  const s = await open();
  try {
    await fill(s);
    const versions = new Map([...recs.keys()].map((id) => [id, 1]));
    const r = {};
    r.get = await latency(() => s.get(`task-${rand(TASKS)}`));
    r.putIfVersion = await latency(async (i) => {
      const id = `task-${i % TASKS}`;
      const v = versions.get(id);
      const rec = recs.get(id);
      rec.version = v + 1;
      if (!(await s.putIfVersion(rec, v))) throw new Error(`unexpected conflict on ${id}`);
      versions.set(id, v + 1);
    });
    r.rangeAfter = await latency(() => s.rangeAfter({ kind: "all" }, rand(TASKS), 50));
    r.getThroughput = await throughput(() => s.get(`task-${rand(TASKS)}`));
    const n = Math.floor(TASKS / CONC);
    r.putThroughput = await throughput(async (w, i) => {
      const id = `task-${w + CONC * (i % n)}`;
      const v = versions.get(id);
      const rec = { ...recs.get(id), version: v + 1 };
      if (!(await s.putIfVersion(rec, v))) throw new Error(`unexpected conflict on ${id}`);
      versions.set(id, v + 1);
    });
    if (floor) r.floor = await floor();
    results.adapters[name] = r;
    console.log(`${name}: get ${r.get.medianUs.toFixed(0)} µs, putIfVersion ${r.putIfVersion.medianUs.toFixed(0)} µs, rangeAfter(50) ${r.rangeAfter.medianUs.toFixed(0)} µs; ` +
      `${CONC} callers: get ${r.getThroughput.opsPerSec.toFixed(0)}/s, put ${r.putThroughput.opsPerSec.toFixed(0)}/s` +
      (r.floor ? `; floor: ${Object.entries(r.floor).map(([k, v]) => `${k} ${v.medianUs.toFixed(0)} µs`).join(", ")}` : ""));
  } finally {
    await s.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), "mcp-tasks-bench-storage-"));
const pgServer = await startPostgres();
const redisServer = await startRedis();
try {
  await run("memory", async () => new MemoryStorage(), null);

  const sqlitePath = join(dir, "bench.db");
  await run("sqlite", () => openSqliteStorage({ path: sqlitePath }), async () => {
    const Database = peer("better-sqlite3");
    const db = new Database(join(dir, "floor.db"));
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE f (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)");
    const ins = db.prepare("INSERT INTO f (id, value) VALUES (?, 0)");
    for (let i = 0; i < TASKS; i++) ins.run(i);
    const sel = db.prepare("SELECT value FROM f WHERE id = ?");
    const upd = db.prepare("UPDATE f SET value = value + 1 WHERE id = ?");
    const out = { select: await latency(async () => sel.get(rand(TASKS))), update: await latency(async () => upd.run(rand(TASKS))) };
    db.close();
    return out;
  });

  await run("postgres", () => openPostgresStorage({ connectionString: pgServer.url, table: "bench" }), async () => {
    const pg = peer("pg");
    const pool = new pg.Pool({ connectionString: pgServer.url, max: 10 });
    await pool.query("CREATE TABLE f (id integer PRIMARY KEY, value bigint NOT NULL)");
    await pool.query("INSERT INTO f SELECT g, 0 FROM generate_series(0, $1) g", [TASKS]);
    const out = {
      select: await latency(() => pool.query("SELECT value FROM f WHERE id = $1", [rand(TASKS)])),
      update: await latency(() => pool.query("UPDATE f SET value = value + 1 WHERE id = $1", [rand(TASKS)])),
    };
    await pool.end();
    return out;
  });

  await run("redis", () => openRedisStorage({ url: redisServer.url, prefix: "bench" }), async () => {
    const { Redis } = peer("ioredis");
    const r = new Redis(redisServer.url);
    await r.set("floor", "x".repeat(300));
    const out = { get: await latency(() => r.get("floor")), set: await latency(() => r.set("floor", "y".repeat(300))) };
    r.disconnect();
    return out;
  });
} finally {
  await pgServer.stop();
  await redisServer.stop();
  rmSync(dir, { recursive: true, force: true });
}
results.loadEnd = loadavg();
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(results, null, 2));
