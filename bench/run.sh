#!/usr/bin/env bash
# Runs the benchmarks against the built package in pkg/ (and pkg/server/) and rewrites BENCHMARKS.md
# through bench/report.mjs (end-to-end sections first, then the components; see its header).
#
#   bash bench/run.sh             everything (about 25 minutes on 2 idle cores)
#   bash bench/run.sh MODE        only MODE's sections; the other sections of BENCHMARKS.md are kept:
#     server      HTTP server against the SDK's, then ours on shared storage (about 5 minutes,
#                 bench/server.mjs; needs scripts/build.sh and scripts/pack.sh)
#     push        requests for 1,000 tasks, push against polling (about 1 minute, bench/push.mjs;
#                 needs scripts/pack.sh)
#     client      the task client's politeness against the SDK (bench/politeness.mjs) and the
#                 TaskScheduler with 100,000 tasks (bench/scheduler.mjs), about 30 s
#     browser     the browser app's bytes (bench/browser-app.mjs, a few seconds)
#     validator   cold start, validateMessage against zod and ajv, and the size of each entry
#                 (bench/cold-start.mjs, validate.mjs, profile.mjs, cpu-profile.mjs, size.mjs)
#     store       TaskStore against the SDK's InMemoryTaskStore (about 8 minutes, most of it the
#                 SDK paging through 100,000 tasks; bench/store*.mjs)
#     storage     the storage adapters next to their engines' round trips (about 1 minute,
#                 bench/storage.mjs; starts Postgres and Redis on 127.0.0.1; needs scripts/pack.sh)
#     hostile     wasm memory after 1M hostile messages, refusing a 500 MB string (about 1 minute)
#     cli         mcp-tasks check on a generated 50 MB transcript (about 1 minute)
#     inspector   the inspector in headless Chromium on 5 MB and 50 MB transcripts (about 2 minutes)
#
# env: BENCH_WAIT   seconds to wait for the 1-minute load average to fall below BENCH_LOAD
#                   (default 300; 0 = do not wait). The load is written into BENCHMARKS.md.
#      BENCH_LOAD   default 1.5
#      BENCH_RUNS   timed runs per contender (default 7, at least 5); BENCH_MS ms per run (150)
#      COLD_RUNS    fresh processes per cold-start contender (default 15, at least 10)
#      STORE_LIST_SIZES    stored tasks paged through (default 10000,100000)
#      STORE_SDK_BIG_RUNS  timed SDK paging runs at 100,000 tasks (default 3; ~100 s each)
#      STORE_MEMORY_SIZES  task counts of the memory measurement (default 1000,10000,100000)
#      SCHED_TASKS, SCHED_RUNS, SCHED_MEMORY_SIZES    scheduler: tasks (100000), timed runs (5),
#                          memory sizes (1000,10000,100000)
#      HOSTILE_N, HOSTILE_RUNS   hostile: messages per component (1000000), timed refusals of
#                          the 500 MB string per case (7)
#      POLITENESS_SECONDS, POLITENESS_LATENCY_MS, POLITENESS_SEEDS   simulated seconds per run
#                          (60), round trip of every request (10 ms), our jitter seeds (1,2,3,4,5)
#      STORAGE_TASKS, STORAGE_OPS, STORAGE_CONCURRENCY, STORAGE_MS   storage: stored tasks (2000),
#                          operations per latency (2000), callers (16) and ms (1000) per throughput
#      INSPECTOR_SIZES, INSPECTOR_RUNS, INSPECTOR_SEED   inspector: transcript bytes
#                          (5000000,50000000), fresh pages per size (3), generator seed (1)
#      SERVER_ROUNDS, SERVER_SECONDS, SERVER_BEFORE, SERVER_STORAGE   server: rounds (5), counted
#                          seconds per measurement (3), an older build to compare (none), the
#                          storage axis (shared-memory,sqlite,sqlite-disk,postgres,redis; "" skips it;
#                          with bench/floor-server.mjs beside it: --floor --floor-adapter)
#      SERVER_STORAGE_BEFORE   an older build (install dir or checkout) measured on the storage
#                          axis too, in the same rounds (none)
#      CLI_BYTES, CLI_TASKS, CLI_RUNS, CLI_BEFORE   CLI: transcript bytes (50000000), tasks (100),
#                          runs per command (3), a git revision whose CLI runs next to this one (none)
# Raw results go to bench/results/ (git-ignored). pkg/ must be built (bash scripts/build.sh);
# a warning is printed (and written into BENCHMARKS.md) if src/ is newer than pkg/.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=bench/results
mkdir -p "$OUT"
MODE=${1:-all}
case $MODE in
  all | store | validator | client | hostile | cli | storage | inspector | push | server | browser) ;;
  *) echo "usage: bash bench/run.sh [all|server|push|client|browser|validator|store|storage|hostile|cli|inspector]" >&2; exit 2 ;;
esac
export BENCH_MODE=$MODE
run_validator() { [ "$MODE" = all ] || [ "$MODE" = validator ]; }
run_store() { [ "$MODE" = all ] || [ "$MODE" = store ]; }
run_client() { [ "$MODE" = all ] || [ "$MODE" = client ]; }
run_hostile() { [ "$MODE" = all ] || [ "$MODE" = hostile ]; }
run_cli() { [ "$MODE" = all ] || [ "$MODE" = cli ]; }
run_storage() { [ "$MODE" = all ] || [ "$MODE" = storage ]; }
run_inspector() { [ "$MODE" = all ] || [ "$MODE" = inspector ]; }
run_push() { [ "$MODE" = all ] || [ "$MODE" = push ]; }
run_server() { [ "$MODE" = all ] || [ "$MODE" = server ]; }
run_browser() { [ "$MODE" = all ] || [ "$MODE" = browser ]; }

[ -f pkg/mcp_tasks_wasm_bg.wasm ] && [ -f pkg/node.mjs ] || {
  echo "bench: pkg/ is not built: run bash scripts/build.sh" >&2
  exit 1
}
if run_store || run_hostile; then
  [ -f pkg/mcp_tasks_wasm_bg.wasm ] && [ -f pkg/server/node.mjs ] || {
    echo "bench: pkg/server/ is not built: run bash scripts/build.sh" >&2
    exit 1
  }
fi
if run_validator; then
  [ -f docs/spec/schemas/2025-11-25/schema.json ] || {
    echo "bench: official schemas not found at docs/spec/schemas (relative to the repository)" >&2
    exit 1
  }
fi

load1() { cut -d' ' -f1 /proc/loadavg; }
wait_max=${BENCH_WAIT:-300}
limit=${BENCH_LOAD:-1.5}
waited=0
while awk -v l="$(load1)" -v m="$limit" 'BEGIN { exit !(l >= m) }' && [ "$waited" -lt "$wait_max" ]; do
  [ "$waited" -eq 0 ] && echo "bench: load $(load1) >= $limit, waiting up to ${wait_max}s"
  sleep 10
  waited=$((waited + 10))
done

# write_meta FILE WASM SRC_DIR...: what was measured and when (git, wasm hash, build time, load).
write_meta() {
  node -e '
  const fs = require("fs"), os = require("os"), cp = require("child_process"), crypto = require("crypto");
  const sh = (c) => { try { return cp.execSync(c, { encoding: "utf8" }).trim(); } catch { return ""; } };
  const wasmPath = process.argv[3];
  const wasm = fs.readFileSync(wasmPath);
  const newest = (d) => fs.readdirSync(d, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile()).reduce((m, e) => Math.max(m, fs.statSync(require("path").join(e.parentPath ?? e.path, e.name)).mtimeMs), 0);
  const pkgTime = fs.statSync(wasmPath).mtimeMs;
  fs.writeFileSync(process.argv[1], JSON.stringify({
    date: new Date().toISOString(),
    mode: process.env.BENCH_MODE,
    nproc: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? "",
    node: process.version,
    loadStart: os.loadavg(),
    waitedSeconds: Number(process.argv[2]),
    gitHead: sh("git rev-parse --short HEAD"),
    srcDirty: sh(`git status --porcelain -- ${process.argv.slice(4).join(" ")} Cargo.toml Cargo.lock`) !== "",
    wasmSha256: crypto.createHash("sha256").update(wasm).digest("hex").slice(0, 16),
    pkgBuilt: new Date(pkgTime).toISOString(),
    srcNewerThanPkg: Math.max(...process.argv.slice(4).map(newest)) > pkgTime + 1000,
    sdk: JSON.parse(fs.readFileSync("node_modules/@modelcontextprotocol/sdk/package.json", "utf8")).version,
    zod: JSON.parse(fs.readFileSync("node_modules/zod/package.json", "utf8")).version,
    ajv: JSON.parse(fs.readFileSync("node_modules/ajv/package.json", "utf8")).version,
  }, null, 2));
  ' "$1" "$waited" "${@:2}"
}
end_meta() {
  node -e 'const fs=require("fs"),os=require("os");const m=JSON.parse(fs.readFileSync(process.argv[1]));m.loadEnd=os.loadavg();fs.writeFileSync(process.argv[1],JSON.stringify(m,null,2))' "$1"
}

if run_validator; then
  write_meta "$OUT/meta.json" pkg/mcp_tasks_wasm_bg.wasm src
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
  end_meta "$OUT/meta.json"
fi

if run_store; then
  [ "$MODE" = all ] && echo
  write_meta "$OUT/store-meta.json" pkg/mcp_tasks_wasm_bg.wasm src js/server
  if grep -q '"srcNewerThanPkg": true' "$OUT/store-meta.json"; then
    echo "bench: WARNING: src/ or js/server/ is newer than pkg/server/: measuring the package as built (rebuild: bash scripts/build.sh)" >&2
  fi
  node bench/store.mjs --json "$OUT/store.json"
  echo
  node bench/store-memory.mjs --json "$OUT/store-memory.json"
  echo
  rm -f "$OUT/store-profile.json"
  node bench/store-profile.mjs --json "$OUT/store-profile.json" || echo "bench: store-profile failed (optional)" >&2
  end_meta "$OUT/store-meta.json"
fi

if run_client; then
  [ "$MODE" = all ] && echo
  write_meta "$OUT/client-meta.json" pkg/mcp_tasks_wasm_bg.wasm src js/client
  if grep -q '"srcNewerThanPkg": true' "$OUT/client-meta.json"; then
    echo "bench: WARNING: src/ or js/client/ is newer than pkg/: measuring the package as built (rebuild: bash scripts/build.sh)" >&2
  fi
  node bench/scheduler.mjs --json "$OUT/scheduler.json"
  echo
  node bench/politeness.mjs --json "$OUT/politeness.json"
  end_meta "$OUT/client-meta.json"
fi

if run_hostile; then
  [ "$MODE" = all ] && echo
  write_meta "$OUT/hostile-meta.json" pkg/mcp_tasks_wasm_bg.wasm src
  if grep -q '"srcNewerThanPkg": true' "$OUT/hostile-meta.json"; then
    echo "bench: WARNING: src/ is newer than pkg/: measuring the package as built (rebuild: bash scripts/build.sh)" >&2
  fi
  node bench/hostile.mjs --json "$OUT/hostile.json"
  end_meta "$OUT/hostile-meta.json"
fi

if run_cli; then
  [ "$MODE" = all ] && echo
  if [ "pkg/cli.mjs" -ot js/cli.mts ]; then
    echo "bench: WARNING: js/cli.mts is newer than pkg/cli.mjs: measuring the package as built (rebuild: bash scripts/build.sh)" >&2
  fi
  node bench/cli.mjs --json "$OUT/cli.json"
fi

if run_storage; then
  [ "$MODE" = all ] && echo
  if [ tests/js/.tmp/install/node_modules/mcp-tasks-wasm/storage/index.js -ot js/server/storage/index.ts ]; then
    echo "bench: WARNING: js/server/storage/ is newer than the installed package: run scripts/build.sh and scripts/pack.sh" >&2
  fi
  node bench/storage.mjs --json "$OUT/storage.json"
fi
if run_inspector; then
  [ "$MODE" = all ] && echo
  [ -f pkg/browser.js ] || { echo "bench: pkg/browser.js is not built: run bash scripts/build.sh" >&2; exit 1; }
  node bench/inspector.mjs --json "$OUT/inspector.json"
fi
if run_push; then
  [ "$MODE" = all ] && echo
  node bench/push.mjs --json "$OUT/push.json"
fi
if run_server; then
  [ "$MODE" = all ] && echo
  [ -f pkg/server/node.mjs ] || { echo "bench: pkg/server/ is not built: run bash scripts/build.sh" >&2; exit 1; }
  node bench/server.mjs --json "$OUT/server.json" ${SERVER_BEFORE:+--before "$SERVER_BEFORE"}
  rm -f "$OUT/server-storage.json"
  storage_axis=${SERVER_STORAGE-shared-memory,sqlite,sqlite-disk,postgres,redis}
  if [ -n "$storage_axis" ]; then
    echo
    node bench/server.mjs --storage "$storage_axis" --floor --floor-adapter --json "$OUT/server-storage.json" ${SERVER_STORAGE_BEFORE:+--before "$SERVER_STORAGE_BEFORE"}
  fi
fi

if run_browser; then
  [ "$MODE" = all ] && echo
  [ -f pkg/browser.js ] || { echo "bench: pkg/browser.js is not built: run bash scripts/build.sh" >&2; exit 1; }
  write_meta "$OUT/browser-meta.json" pkg/browser/mcp_tasks_browser_bg.wasm src js/client
  node bench/browser-app.mjs --json "$OUT/browser-app.json"
  end_meta "$OUT/browser-meta.json"
fi

node bench/report.mjs "$OUT" BENCHMARKS.md "$MODE"
echo "bench: wrote BENCHMARKS.md"
