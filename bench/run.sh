#!/usr/bin/env bash
# Runs every benchmark against the built package in pkg/ and rewrites BENCHMARKS.md.
#
#   bash bench/run.sh
#
# env: BENCH_WAIT   seconds to wait for the 1-minute load average to fall below BENCH_LOAD
#                   (default 300; 0 = do not wait). The load is written into BENCHMARKS.md.
#      BENCH_LOAD   default 1.5
#      BENCH_RUNS   timed runs per contender (default 7, at least 5); BENCH_MS ms per run (150)
#      COLD_RUNS    fresh processes per cold-start contender (default 15, at least 10)
# Raw results go to bench/results/ (git-ignored). pkg/ must be built (bash scripts/build.sh);
# a warning is printed (and written into BENCHMARKS.md) if src/ is newer than pkg/.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=bench/results
mkdir -p "$OUT"

[ -f pkg/mcp_tasks_wasm_bg.wasm ] && [ -f pkg/node.mjs ] || {
  echo "bench: pkg/ is not built: run bash scripts/build.sh" >&2
  exit 1
}
[ -f ../shared/spec/schemas/2025-11-25/schema.json ] || {
  echo "bench: official schemas not found at ../shared/spec/schemas (relative to the repository)" >&2
  exit 1
}

load1() { cut -d' ' -f1 /proc/loadavg; }
wait_max=${BENCH_WAIT:-300}
limit=${BENCH_LOAD:-1.5}
waited=0
while awk -v l="$(load1)" -v m="$limit" 'BEGIN { exit !(l >= m) }' && [ "$waited" -lt "$wait_max" ]; do
  [ "$waited" -eq 0 ] && echo "bench: load $(load1) >= $limit, waiting up to ${wait_max}s"
  sleep 10
  waited=$((waited + 10))
done

node -e '
const fs = require("fs"), os = require("os"), cp = require("child_process"), crypto = require("crypto");
const sh = (c) => { try { return cp.execSync(c, { encoding: "utf8" }).trim(); } catch { return ""; } };
const wasm = fs.readFileSync("pkg/mcp_tasks_wasm_bg.wasm");
const newest = (d) => fs.readdirSync(d, { withFileTypes: true, recursive: true })
  .filter((e) => e.isFile()).reduce((m, e) => Math.max(m, fs.statSync(require("path").join(e.parentPath ?? e.path, e.name)).mtimeMs), 0);
const pkgTime = fs.statSync("pkg/mcp_tasks_wasm_bg.wasm").mtimeMs;
fs.writeFileSync(process.argv[1], JSON.stringify({
  date: new Date().toISOString(),
  nproc: os.cpus().length,
  cpu: os.cpus()[0]?.model ?? "",
  node: process.version,
  loadStart: os.loadavg(),
  waitedSeconds: Number(process.argv[2]),
  gitHead: sh("git rev-parse --short HEAD"),
  srcDirty: sh("git status --porcelain -- src Cargo.toml Cargo.lock") !== "",
  wasmSha256: crypto.createHash("sha256").update(wasm).digest("hex").slice(0, 16),
  pkgBuilt: new Date(pkgTime).toISOString(),
  srcNewerThanPkg: newest("src") > pkgTime + 1000,
  sdk: JSON.parse(fs.readFileSync("node_modules/@modelcontextprotocol/sdk/package.json", "utf8")).version,
  zod: JSON.parse(fs.readFileSync("node_modules/zod/package.json", "utf8")).version,
  ajv: JSON.parse(fs.readFileSync("node_modules/ajv/package.json", "utf8")).version,
}, null, 2));
' "$OUT/meta.json" "$waited"
if grep -q '"srcNewerThanPkg": true' "$OUT/meta.json"; then
  echo "bench: WARNING: src/ is newer than pkg/: measuring the package as built (rebuild: bash scripts/build.sh)" >&2
fi

node bench/size.mjs --json "$OUT/size.json"
echo
node bench/cold-start.mjs --json "$OUT/cold-start.json"
echo
node bench/validate.mjs --json "$OUT/validate.json"
echo
node bench/profile.mjs --json "$OUT/profile.json"
echo
rm -f "$OUT/cpu-profile.json"
node bench/cpu-profile.mjs --json "$OUT/cpu-profile.json" || echo "bench: cpu-profile failed (optional)" >&2
node -e 'const fs=require("fs"),os=require("os");const m=JSON.parse(fs.readFileSync(process.argv[1]));m.loadEnd=os.loadavg();fs.writeFileSync(process.argv[1],JSON.stringify(m,null,2))' "$OUT/meta.json"

node bench/report.mjs "$OUT" BENCHMARKS.md
echo "bench: wrote BENCHMARKS.md"
