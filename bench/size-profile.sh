#!/usr/bin/env bash
# Where the bytes of the module go: builds the package's module (cargo feature store-js, the
# release profile) with its function names kept, optimises it as scripts/build.sh does
# (wasm-opt -Oz) but keeping the name section, and lists what twiggy finds:
#
#   bash bench/size-profile.sh [OUT.json]      (default bench/results/size-profile.json)
#
# Needs twiggy 0.8.0: `cargo install twiggy --version 0.8.0 --locked` (crates.io). The names-kept
# build goes to target/size-profile/ (the package's own build is left alone). The code bytes are
# the shipped module's (names do not change code); gzip figures are of each item alone.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${1:-$ROOT/bench/results/size-profile.json}
command -v twiggy >/dev/null || { echo "size-profile: twiggy is missing: cargo install twiggy --version 0.8.0 --locked" >&2; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/size-profile.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
DIR=$ROOT/target/size-profile
CARGO_PROFILE_RELEASE_STRIP=none CARGO_TARGET_DIR=$DIR \
  cargo build --release --target wasm32-unknown-unknown --lib --features store-js >&2
wasm-bindgen --target web --keep-debug --out-dir "$WORK" --out-name m \
  "$DIR/wasm32-unknown-unknown/release/mcp_tasks_wasm.wasm"
"$ROOT/node_modules/.bin/wasm-opt" -Oz --one-caller-inline-max-function-size=200 --debuginfo --strip-dwarf "$WORK/m_bg.wasm" -o "$WORK/named.wasm"
twiggy top -n 100000 --format csv "$WORK/named.wasm" >"$WORK/top.csv"
mkdir -p "$(dirname "$OUT")"
node "$ROOT/bench/size-profile.mjs" "$WORK/top.csv" "$WORK/named.wasm" "$OUT"
