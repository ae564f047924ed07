#!/usr/bin/env bash
# The wasm-bindgen declarations that tsconfig.json needs to type-check js/ in place:
#
#   bash scripts/glue-types.sh && npx tsc --noEmit -p .
#
# js/ imports two modules that exist only in a built package: ./mcp_tasks_wasm.js (the glue
# wasm-bindgen generates from the Rust exports) and, from js/cli.mts, ./node.mjs (the Node entry).
# This writes their declarations into target/glue-types/ (gitignored), which tsconfig.json lists
# in "rootDirs" with js/, js/core, js/client and js/server: a relative import resolves as it does
# in pkg/, where those folders are one directory. Nothing is written by hand: the glue's .d.ts is
# wasm-bindgen's, node.d.mts re-exports as build.sh's does.
#
# The module is a debug build (cargo build without --release, no wasm-opt: about a minute the
# first time, seconds after a Rust change); RELEASE=1 takes the release module scripts/build.sh
# left instead (scripts/test.sh, after the build: no second compile). The declarations are the
# same either way (they come from the Rust source, not from the optimiser).
set -euo pipefail
cd "$(dirname "$0")/.."
NAME=mcp_tasks_wasm
OUT=target/glue-types
# The target dir and features of build.sh's module (its cargo_wasm store-js), so the two never
# rebuild each other's artifacts.
export CARGO_TARGET_DIR=$PWD/target/variant-store_js

if [ "${RELEASE:-0}" = 1 ]; then
  raw=$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/$NAME.wasm
  [ -f "$raw" ] || { echo "glue-types: $raw is missing: run scripts/build.sh first" >&2; exit 1; }
else
  echo "glue-types: cargo build --target wasm32-unknown-unknown --lib --features store-js (debug)"
  cargo build --target wasm32-unknown-unknown --lib --features store-js --quiet
  raw=$CARGO_TARGET_DIR/wasm32-unknown-unknown/debug/$NAME.wasm
fi

rm -rf "$OUT"
mkdir -p "$OUT"
wasm-bindgen --target web --out-dir "$OUT" --out-name "$NAME" "$raw"
printf 'export * from "./%s.js";\nexport * from "./index.js";\nexport { validateMessage } from "./validate.js";\n' \
  "$NAME" >"$OUT/node.d.mts"
echo "glue-types: $OUT/$NAME.d.ts and node.d.mts written (from ${raw#"$PWD"/})"
