// The "Storage adapters" section of BENCHMARKS.md, from bench/results/storage.json
// (bench/storage.mjs). Used by bench/report.mjs.

import { commandAndMachine, runCommand } from "./report-lib.mjs";

const us = (x) => (x >= 100 ? `${x.toFixed(0)} µs` : `${x.toFixed(1)} µs`);
const per = (x) => `${Math.round(x).toLocaleString("en-US")}/s`;
const FLOORS = {
  sqlite: ["select", "update", "a prepared `SELECT value FROM f WHERE id = ?` / `UPDATE f SET value = value + 1 WHERE id = ?` (better-sqlite3, WAL)"],
  postgres: ["select", "update", "`SELECT value FROM f WHERE id = $1` / `UPDATE f SET value = value + 1 WHERE id = $1` (pg pool)"],
  redis: ["get", "set", "a bare `GET` / `SET` of one 300-byte value (ioredis)"],
};

export function storageSection({ st }) {
  const L = ["## Storage adapters: each next to its engine's own round trip", ""];
  L.push(
    `Each adapter over ${st.tasks.toLocaleString("en-US")} stored tasks (about 300 bytes of JSON each): latencies of ${st.ops.toLocaleString("en-US")} operations one at a time, interleaved with the engine's bare read and write through the same client library (the floor no adapter can beat), and throughput with ${st.concurrency ?? 16} callers. ` +
      "Postgres 15 (`fsync=off`) and redis-server (no persistence) are started by the benchmark on 127.0.0.1; SQLite is a WAL file.",
  );
  L.push("");
  L.push(...commandAndMachine({ command: runCommand("storage", { STORAGE_OPS: st.ops !== 2000 ? st.ops : undefined, STORAGE_TASKS: st.tasks !== 2000 ? st.tasks : undefined }), runs: "`node bench/storage.mjs` on the installed package", date: st.date, loads: [st.loadStart, st.loadEnd], node: st.node, nproc: st.nproc, cpu: st.cpu }));
  L.push("");
  L.push("| adapter | get (median / p99) | putIfVersion (median / p99) | rangeAfter, 50 records | floor: read | floor: write | get ÷ floor | put ÷ floor | get, many callers | putIfVersion, many callers |");
  L.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const [name, r] of Object.entries(st.adapters)) {
    const f = FLOORS[name];
    const fr = f && r.floor ? r.floor[f[0]].medianUs : null;
    const fw = f && r.floor ? r.floor[f[1]].medianUs : null;
    L.push(`| ${name} | ${us(r.get.medianUs)} / ${us(r.get.p99Us)} | ${us(r.putIfVersion.medianUs)} / ${us(r.putIfVersion.p99Us)} | ${us(r.rangeAfter.medianUs)} | ${fr ? us(fr) : "—"} | ${fw ? us(fw) : "—"} | ${fr ? `${(r.get.medianUs / fr).toFixed(1)}×` : "—"} | ${fw ? `${(r.putIfVersion.medianUs / fw).toFixed(1)}×` : "—"} | ${per(r.getThroughput.opsPerSec)} | ${per(r.putThroughput.opsPerSec)} |`);
  }
  L.push("");
  L.push(`- Floors: ${Object.entries(FLOORS).map(([k, f]) => `${k} ${f[2]}`).join("; ")}.`);
  L.push("- `MemoryStorage` copies records in and out (`structuredClone`), most of its cost; it has no engine floor.");
  L.push("");
  return L;
}
