#!/usr/bin/env bash
# Builds the npm package into pkg/: one optimised .wasm shared by every runtime, the
# wasm-bindgen glue of two targets, and small entry files routed by package.json "exports".
#
#   pkg/mcp_tasks_wasm_bg.wasm   the module (wasm-opt -Oz, binaryen from npm), byte-identical for all
#   pkg/mcp_tasks_wasm.js/.d.ts  --target web glue (ESM), types generated from the Rust source
#   pkg/node.cjs, node.d.cts     --target nodejs glue (CommonJS), reads the .wasm next to it
#   pkg/node.mjs                 Node ESM: initSync + readFileSync
#   pkg/browser.js               browsers: top-level await init() with new URL(..., import.meta.url)
#   pkg/deno.js                  Deno: `import source` of the .wasm (no permissions needed)
#   pkg/bytes.js                 bundlers that mangle URLs: the caller passes the module bytes
#   pkg/cli.mjs, pkg/samples/    copied from js/cli.mjs and samples/*.jsonl when present
#
# pkg/package.json and pkg/README.md are committed; everything else in pkg/ is rebuilt.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
NAME=mcp_tasks_wasm
PKG=${PKG_OUT:-$ROOT/pkg}            # PKG_OUT: build elsewhere (e.g. a variant with CARGO_FEATURES)
FEATURES=${CARGO_FEATURES:-}           # cargo features of the build (none for the published package)
WASM_OPT=$ROOT/node_modules/.bin/wasm-opt   # binaryen@132 from npm; never Debian's binaryen

say() { printf 'build: %s\n' "$*"; }
fail() { printf 'build: ERROR: %s\n' "$*" >&2; exit 1; }

[ -x "$WASM_OPT" ] || fail "$WASM_OPT is missing: run scripts/setup.sh"
command -v wasm-bindgen >/dev/null || fail "wasm-bindgen is missing: run scripts/setup.sh"
[ -f "$ROOT/pkg/package.json" ] || fail "pkg/package.json (the committed template) is missing"
if [ "$PKG" != "$ROOT/pkg" ]; then
  mkdir -p "$PKG"
  cp "$ROOT/pkg/package.json" "$PKG/package.json"
  [ -f "$ROOT/pkg/README.md" ] && cp "$ROOT/pkg/README.md" "$PKG/README.md"
fi

# The package version must be the crate's.
crate_version=$(awk -F'"' '/^version = / { print $2; exit }' Cargo.toml)
pkg_version=$(node -p 'require(process.argv[1]).version' "$PKG/package.json")
[ "$crate_version" = "$pkg_version" ] ||
  fail "pkg/package.json has version $pkg_version but Cargo.toml has $crate_version: update pkg/package.json"

t0=$(date +%s)
say "cargo build --release --target wasm32-unknown-unknown${FEATURES:+ --features $FEATURES}"
if [ -n "$FEATURES" ]; then
  # A separate target dir, so a variant build never replaces the published package's artifact.
  export CARGO_TARGET_DIR=$ROOT/target/variant-${FEATURES//[^A-Za-z0-9]/_}
  cargo build --release --target wasm32-unknown-unknown --lib --features "$FEATURES"
  RAW=$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/$NAME.wasm
else
  cargo build --release --target wasm32-unknown-unknown --lib
  RAW=$ROOT/target/wasm32-unknown-unknown/release/$NAME.wasm
fi
[ -f "$RAW" ] || fail "$RAW was not produced"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mcp-tasks-build.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

say "wasm-bindgen --target web / --target nodejs"
wasm-bindgen --target web --out-dir "$TMP/web" --out-name "$NAME" "$RAW"
wasm-bindgen --target nodejs --out-dir "$TMP/node" --out-name "$NAME" "$RAW"
cmp -s "$TMP/web/${NAME}_bg.wasm" "$TMP/node/${NAME}_bg.wasm" ||
  fail "the web and nodejs targets produced different .wasm files; one file cannot serve both"

say "wasm-opt -Oz ($("$WASM_OPT" --version))"
"$WASM_OPT" -Oz "$TMP/web/${NAME}_bg.wasm" -o "$TMP/${NAME}_bg.wasm"

# ---- assemble pkg/ -----------------------------------------------------------------------------
say "assembling pkg/"
find "$PKG" -mindepth 1 -maxdepth 1 ! -name package.json ! -name README.md -exec rm -rf {} +

cp "$TMP/${NAME}_bg.wasm" "$PKG/${NAME}_bg.wasm"
cp "$TMP/web/$NAME.js" "$PKG/$NAME.js"
cp "$TMP/web/$NAME.d.ts" "$PKG/$NAME.d.ts"

# The nodejs glue becomes node.cjs; it must read the one .wasm next to it.
sed "s/[A-Za-z0-9_]*_bg\.wasm/${NAME}_bg.wasm/g" "$TMP/node/$NAME.js" >"$PKG/node.cjs"
grep -q "${NAME}_bg.wasm" "$PKG/node.cjs" || fail "node.cjs does not name ${NAME}_bg.wasm"
cp "$TMP/node/$NAME.d.ts" "$PKG/node.d.cts"

# Entry files. They hold no API of their own: `export *` re-exports whatever the glue exports.
cat >"$PKG/node.mjs" <<EOF
// Node.js, ES modules: compiles the .wasm next to this file synchronously at import.
import { readFileSync } from "node:fs";
import { initSync } from "./$NAME.js";

initSync({ module: readFileSync(new URL("./${NAME}_bg.wasm", import.meta.url)) });

export * from "./$NAME.js";
EOF

cat >"$PKG/browser.js" <<EOF
// Browsers and bundlers: fetches the .wasm next to this file (top-level await).
import init from "./$NAME.js";

await init({ module_or_path: new URL("./${NAME}_bg.wasm", import.meta.url) });

export * from "./$NAME.js";
EOF

cat >"$PKG/deno.js" <<EOF
/* @ts-self-types="./deno.d.ts" */
// Deno: a source-phase import of the .wasm needs no --allow-read and no --allow-net.
import source wasmModule from "./${NAME}_bg.wasm";
import { initSync } from "./$NAME.js";

initSync({ module: wasmModule });

export * from "./$NAME.js";
EOF

cat >"$PKG/bytes.js" <<EOF
// For bundlers that cannot follow new URL(..., import.meta.url): nothing is loaded at import.
// Call initSync({ module: bytesOrModule }) or await init({ module_or_path: bytes }) first.
export { default as init, initSync } from "./$NAME.js";
export * from "./$NAME.js";
EOF

# wasm-bindgen declares `[Symbol.dispose](): void` on classes. Without lib esnext.disposable
# (TypeScript >= 5.2) a strict consumer gets TS2550 inside our .d.ts: reference the lib there,
# as @types/node does. The declarations themselves stay exactly as generated.
for f in "$PKG/$NAME.d.ts" "$PKG/node.d.cts"; do
  if grep -q 'Symbol\.dispose' "$f"; then
    { echo '/// <reference lib="esnext.disposable" />'; cat "$f"; } >"$f.tmp" && mv "$f.tmp" "$f"
  fi
done

# Type entries only re-export the generated declarations.
for f in node.d.mts browser.d.ts deno.d.ts; do
  printf 'export * from "./%s.js";\n' "$NAME" >"$PKG/$f"
done
printf 'export { default as init, initSync } from "./%s.js";\nexport * from "./%s.js";\n' \
  "$NAME" "$NAME" >"$PKG/bytes.d.ts"

# The CLI and the sample conversations, when their authors have added them.
if [ -f js/cli.mjs ]; then
  cp js/cli.mjs "$PKG/cli.mjs"
  chmod +x "$PKG/cli.mjs"
else
  say "note: js/cli.mjs does not exist yet: pkg/cli.mjs (bin mcp-tasks) is missing"
fi
shopt -s nullglob
samples=(samples/*.jsonl)
if [ ${#samples[@]} -gt 0 ]; then
  mkdir -p "$PKG/samples"
  cp "${samples[@]}" "$PKG/samples/"
fi
shopt -u nullglob

# ---- sizes -------------------------------------------------------------------------------------
size_line() { # label file...
  local label=$1; shift
  local raw gz
  raw=$(cat "$@" | wc -c)
  gz=$(cat "$@" | gzip -9 | wc -c)
  printf 'build:   %-38s %8d B raw %8d B gzip\n' "$label" "$raw" "$gz"
}
say "sizes"
size_line "wasm-bindgen output (unoptimised)" "$TMP/web/${NAME}_bg.wasm"
size_line "${NAME}_bg.wasm (wasm-opt -Oz)" "$PKG/${NAME}_bg.wasm"
size_line "$NAME.js (web glue)" "$PKG/$NAME.js"
size_line "node.cjs (nodejs glue)" "$PKG/node.cjs"
size_line "browser load: wasm + web glue" "$PKG/${NAME}_bg.wasm" "$PKG/$NAME.js" "$PKG/browser.js"
say "pkg/ built in $(($(date +%s) - t0)) s"
