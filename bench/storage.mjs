// The storage adapters' latency and throughput next to each engine's own floor, measured in the
// same run: mcp-tasks-wasm/storage[/sqlite|postgres|redis] from the installed package
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
// for STORAGE_MS ms (default 1000) each. Latency: STORAGE_OPS operations (default 2000) of each
// after 200 of warm-up, the adapter's operations and the floor's interleaved in 5 rounds; median,
// p90 and p99 of single-operation times.
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

/**
 * Times every op of `ops` in ROUNDS rounds, the ops interleaved round by round (the adapter and
 * its floor see the same machine load); statistics over all the samples of each op.
 */
async function interleaved(ops) {
  const ROUNDS = 5;
  const per = Math.ceil(OPS / ROUNDS);
  const samples = {};
  for (const [name, fn] of Object.entries(ops)) {
    samples[name] = [];
    for (let i = 0; i < WARM; i++) await fn(i);
  }
  let i = WARM;
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of Object.entries(ops)) {
      for (let k = 0; k < per; k++, i++) {
        const t0 = performance.now();
        await fn(i);
        samples[name].push((performance.now() - t0) * 1000);
      }
    }
  }
  const out = {};
  for (const [name, t] of Object.entries(samples)) {
    t.sort((x, y) => x - y);
    const q = (p) => t[Math.min(t.length - 1, Math.floor(p * t.length))];
    out[name] = { medianUs: q(0.5), p90Us: q(0.9), p99Us: q(0.99), ops: t.length };
  }
  return out;
}

/**
 * @param {string} name
 * @param {() => Promise<any>} open
 * @param {null | (() => Promise<{ read: () => Promise<unknown>, write: () => Promise<unknown>, readName: string, writeName: string, close: () => Promise<void> }>)} floor
 */
async function run(name, open, floor) {
  const s = await open();
  const f = floor ? await floor() : null;
  try {
    await fill(s);
    const versions = new Map([...recs.keys()].map((id) => [id, 1]));
    /** @type {Record<string, (i: number) => Promise<unknown>>} */
    const ops = {
      get: () => s.get(`task-${rand(TASKS)}`),
      putIfVersion: async (i) => {
        const id = `task-${i % TASKS}`;
        const v = versions.get(id);
        const rec = recs.get(id);
        rec.version = v + 1;
        if (!(await s.putIfVersion(rec, v))) throw new Error(`unexpected conflict on ${id}`);
        versions.set(id, v + 1);
      },
      rangeAfter: () => s.rangeAfter({ kind: "all" }, rand(TASKS), 50),
    };
    if (f) {
      ops[`floor:${f.readName}`] = f.read;
      ops[`floor:${f.writeName}`] = f.write;
    }
    const lat = await interleaved(ops);
    const r = { get: lat.get, putIfVersion: lat.putIfVersion, rangeAfter: lat.rangeAfter };
    if (f) r.floor = { [f.readName]: lat[`floor:${f.readName}`], [f.writeName]: lat[`floor:${f.writeName}`] };
    r.getThroughput = await throughput(() => s.get(`task-${rand(TASKS)}`));
    const n = Math.floor(TASKS / CONC);
    r.putThroughput = await throughput(async (w, i) => {
      const id = `task-${w + CONC * (i % n)}`;
      const v = versions.get(id);
      const rec = { ...recs.get(id), version: v + 1 };
      if (!(await s.putIfVersion(rec, v))) throw new Error(`unexpected conflict on ${id}`);
      versions.set(id, v + 1);
    });
    results.adapters[name] = r;
    console.log(`${name}: get ${r.get.medianUs.toFixed(0)} µs, putIfVersion ${r.putIfVersion.medianUs.toFixed(0)} µs, rangeAfter(50) ${r.rangeAfter.medianUs.toFixed(0)} µs; ` +
      `${CONC} callers: get ${r.getThroughput.opsPerSec.toFixed(0)}/s, put ${r.putThroughput.opsPerSec.toFixed(0)}/s` +
      (r.floor ? `; floor: ${Object.entries(r.floor).map(([k, v]) => `${k} ${v.medianUs.toFixed(0)} µs`).join(", ")}` : ""));
  } finally {
    await s.close();
    await f?.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), "mcp-tasks-bench-storage-"));
const pgServer = await startPostgres();
const redisServer = await startRedis();
try {
  await run("memory", async () => new MemoryStorage(), null);

  await run("sqlite", () => openSqliteStorage({ path: join(dir, "bench.db") }), async () => {
    const Database = peer("better-sqlite3");
    const db = new Database(join(dir, "floor.db"));
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE f (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)");
    const ins = db.prepare("INSERT INTO f (id, value) VALUES (?, 0)");
    for (let i = 0; i < TASKS; i++) ins.run(i);
    const sel = db.prepare("SELECT value FROM f WHERE id = ?");
    const upd = db.prepare("UPDATE f SET value = value + 1 WHERE id = ?");
    return { readName: "select", writeName: "update", read: async () => sel.get(rand(TASKS)), write: async () => upd.run(rand(TASKS)), close: async () => db.close() };
  });

  await run("postgres", () => openPostgresStorage({ connectionString: pgServer.url, table: "bench" }), async () => {
    const pg = peer("pg");
    const pool = new pg.Pool({ connectionString: pgServer.url, max: 10 });
    await pool.query("CREATE TABLE f (id integer PRIMARY KEY, value bigint NOT NULL)");
    await pool.query("INSERT INTO f SELECT g, 0 FROM generate_series(0, $1) g", [TASKS]);
    return {
      readName: "select",
      writeName: "update",
      read: () => pool.query("SELECT value FROM f WHERE id = $1", [rand(TASKS)]),
      write: () => pool.query("UPDATE f SET value = value + 1 WHERE id = $1", [rand(TASKS)]),
      close: () => pool.end(),
    };
  });

  await run("redis", () => openRedisStorage({ url: redisServer.url, prefix: "bench" }), async () => {
    const { Redis } = peer("ioredis");
    const r = new Redis(redisServer.url);
    await r.set("floor", "x".repeat(300));
    return { readName: "get", writeName: "set", read: () => r.get("floor"), write: () => r.set("floor", "y".repeat(300)), close: async () => r.disconnect() };
  });
} finally {
  await pgServer.stop();
  await redisServer.stop();
  rmSync(dir, { recursive: true, force: true });
}
results.loadEnd = loadavg();
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(results, null, 2));
