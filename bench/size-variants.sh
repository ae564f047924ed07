#!/usr/bin/env bash
# What each part of the module weighs: builds the module as scripts/build.sh does (release
# profile, wasm-bindgen, wasm-opt -Oz --one-caller-inline-max-function-size=200 --strip-producers --strip-target-features) from a copy of
# the crate with parts left out, and writes
# the sizes (raw and gzip -9 of the .wasm, of its code and data sections, and of the web glue, its
# doc comments stripped as the package's):
#
#   bash bench/size-variants.sh [OUT.json]      (default bench/results/size-variants.json)
#
# Variants (each a copy of src/ with one edit; the package's own build is left alone):
#   package      the package's module (feature store-js)
#   no-server    without store-js: no TaskServerCore (the model, validator, Conversation,
#                TaskScheduler)
#   validator    without store-js, Conversation and TaskScheduler: validateMessage, rules and
#                the converters only
#   validator-no-fast   the same without the typed fast path (src/validate/fast.rs never taken)
#   validator-no-fast-z the same built with opt-level "z" (the smallest the validator gets,
#                speed given up)
#   no-server-z  no-server with opt-level "z"
#   package-z    the package's module with opt-level "z"
#   floor        no rule at all: bench/size-floor/lib.rs (a JSON text read into a serde_json
#                tree, walked, issues formatted, the report written back as JSON text) with the
#                package's src/base/, crates, features and profile: what any module doing the
#                package's work with these crates weighs before its first rule
#   floor-z      the same with opt-level "z"
# Builds go to target/size-variants/ (about a minute each once its dependencies are built).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${1:-$ROOT/bench/results/size-variants.json}
WASM_OPT=$ROOT/node_modules/.bin/wasm-opt
WORK=$(mktemp -d "${TMPDIR:-/tmp}/size-variants.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
rows=()

# variant NAME FEATURES EDIT...: EDIT is "file|sed expression" applied to the copy.
variant() {
  local name=$1 features=$2; shift 2
  local crate=$WORK/crate
  rm -rf "$crate" && mkdir -p "$crate"
  cp -r Cargo.toml Cargo.lock rust-toolchain.toml src "$crate/"
  if [ "$name" = floor ] || [ "$name" = floor-z ]; then
    rm -rf "$crate/src" && mkdir -p "$crate/src"
    cp -r src/base "$crate/src/" && cp bench/size-floor/lib.rs "$crate/src/lib.rs"
  fi
  local edit file expr
  for edit in "$@"; do
    file=${edit%%|*}; expr=${edit#*|}
    local before; before=$(cksum <"$crate/$file")
    sed -i "$expr" "$crate/$file"
    [ "$(cksum <"$crate/$file")" != "$before" ] || { echo "size-variants: $name: '$expr' changed nothing in $file" >&2; exit 1; }
  done
  echo "size-variants: $name" >&2
  (cd "$crate" && CARGO_TARGET_DIR=$ROOT/target/size-variants \
    cargo build --release --target wasm32-unknown-unknown --lib ${features:+--features "$features"} >&2)
  wasm-bindgen --target web --out-dir "$WORK/out" --out-name m \
    "$ROOT/target/size-variants/wasm32-unknown-unknown/release/mcp_tasks_wasm.wasm"
  "$WASM_OPT" -Oz --one-caller-inline-max-function-size=200 --strip-producers --strip-target-features "$WORK/out/m_bg.wasm" -o "$WORK/out/o.wasm"
  node scripts/strip-js-docs.mjs "$WORK/out/m.js"   # as scripts/build.sh ships the glue
  rows+=("$(printf '{"name":"%s","wasm":{"raw":%d,"gzip":%d},"glue":{"raw":%d,"gzip":%d},"sections":%s}' "$name" \
    "$(wc -c <"$WORK/out/o.wasm")" "$(gzip -9c "$WORK/out/o.wasm" | wc -c)" \
    "$(wc -c <"$WORK/out/m.js")" "$(gzip -9c "$WORK/out/m.js" | wc -c)" \
    "$(node bench/wasm-sections.mjs "$WORK/out/o.wasm")")")
  echo "size-variants: ${rows[-1]}" >&2
}

NO_VIEWS=('src/wasm/mod.rs|s/^mod conversation;/\/\/ mod conversation;/' 'src/wasm/mod.rs|s/^mod schedule;/\/\/ mod schedule;/')
NO_FAST='src/validate/fast.rs|s/if ctx.headers.is_some()/if true || ctx.headers.is_some()/'
OPT_Z='Cargo.toml|s/^opt-level = "s"/opt-level = "z"/'

variant package store-js
variant no-server ""
variant validator "" "${NO_VIEWS[@]}"
variant validator-no-fast "" "${NO_VIEWS[@]}" "$NO_FAST"
variant validator-no-fast-z "" "${NO_VIEWS[@]}" "$NO_FAST" "$OPT_Z"
variant no-server-z "" "$OPT_Z"
variant package-z store-js "$OPT_Z"
variant floor ""
variant floor-z "" "$OPT_Z"

mkdir -p "$(dirname "$OUT")"
{
  printf '{"command":"bash bench/size-variants.sh","variants":['
  (IFS=,; printf '%s' "${rows[*]}")
  printf ']}\n'
} >"$OUT"
echo "size-variants: wrote $OUT" >&2
