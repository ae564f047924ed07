#!/usr/bin/env bash
# Builds the npm package into pkg/. ONE optimised .wasm (cargo feature store-js) shared by every
# runtime and by both entry points, the wasm-bindgen glue of two targets, and small entry files
# routed by package.json "exports":
#
#   mcp-tasks-wasm          pkg/          the module and its glue: model, validator, conversation
#                                         checker, scheduler, TaskStore, TaskServer; the client
#                                         helpers of js/client/
#   mcp-tasks-wasm/server   pkg/server/   the SAME module and glue (pkg/server/mcp_tasks_wasm.js and
#                                         node.cjs only re-export ../), plus the JS helpers of
#                                         js/server/ (TaskHost, SdkTaskStore): an app importing both
#                                         entries loads and instantiates the module once
#
# In pkg/ (pkg/server/ has the same files minus the .wasm, its glue files re-exporting pkg/'s):
#   mcp_tasks_wasm_bg.wasm   the module (wasm-opt -Oz, binaryen from npm), byte-identical for all
#   mcp_tasks_wasm.js/.d.ts  --target web glue (ESM), types generated from the Rust source
#   node.cjs, node.d.cts     --target nodejs glue (CommonJS), reads the .wasm next to it
#   node.mjs                 Node ESM: initSync + readFileSync
#   browser.js               browsers: top-level await init() with new URL(..., import.meta.url)
#   deno.js                  Deno: `import source` of the .wasm (no permissions needed)
#   workerd.js               Cloudflare Workers: `import wasmModule from "./….wasm"` (wrangler's rule)
#   bytes.js                 no top-level await, nothing loaded at import: `await init()` (the .wasm
#                            next to the module), init({ module_or_path }) or initSync({ module })
#                            first (Vite 5, esbuild --format=iife, bundlers that mangle URLs)
# pkg/ and pkg/server/ also have the helpers, compiled from TypeScript by scripts/build-ts.mjs
# (*.js and *.d.ts by tsc; the CommonJS twins *.cjs by esbuild, *.d.cts from the declarations),
# and main.cjs, the CommonJS entry (glue + helpers). pkg/cli.mjs is compiled from js/cli.mts (and
# pkg/inspect.mjs, its inspect/record commands, from js/inspect.mts); pkg/www/ is the inspector
# page (www/ without smoke.*); pkg/samples/ is copied from samples/*.jsonl, LICENSE-* from the
# root; pkg/README.md is README.md for the registry page (scripts/registry-readme.mjs).
#
# pkg/package.json is committed; the build rewrites its "files", "exports", "sideEffects" and
# "typesVersions" from what it produced (scripts/pkg-manifest.mjs: commit the result; a SERVER=0
# build drops ./server from them). Everything else in pkg/ is rebuilt.
# SERVER=0 skips pkg/server/ (quicker while working on the validator).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
NAME=mcp_tasks_wasm
PKG_NAME=mcp-tasks-wasm             # the npm name (pkg/package.json "name")
PKG=${PKG_OUT:-$ROOT/pkg}            # PKG_OUT: build elsewhere
SERVER=${SERVER:-1}
WASM_OPT=$ROOT/node_modules/.bin/wasm-opt   # binaryen@132 from npm; never Debian's binaryen
TSC=$ROOT/node_modules/.bin/tsc

say() { printf 'build: %s\n' "$*"; }
fail() { printf 'build: ERROR: %s\n' "$*" >&2; exit 1; }

[ -x "$WASM_OPT" ] || fail "$WASM_OPT is missing: run scripts/setup.sh"
[ -x "$TSC" ] || fail "$TSC is missing: run scripts/setup.sh"
command -v wasm-bindgen >/dev/null || fail "wasm-bindgen is missing: run scripts/setup.sh"
[ -f "$ROOT/pkg/package.json" ] || fail "pkg/package.json (the committed template) is missing"
if [ "$PKG" != "$ROOT/pkg" ]; then
  mkdir -p "$PKG"
  cp "$ROOT/pkg/package.json" "$PKG/package.json"
fi

# The package version must be the crate's.
crate_version=$(awk -F'"' '/^version = / { print $2; exit }' Cargo.toml)
pkg_version=$(node -p 'require(process.argv[1]).version' "$PKG/package.json")
[ "$crate_version" = "$pkg_version" ] ||
  fail "pkg/package.json has version $pkg_version but Cargo.toml has $crate_version: update pkg/package.json"

t0=$(date +%s)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mcp-tasks-build.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# cargo_wasm FEATURES: builds the cdylib; prints the path of the raw .wasm.
cargo_wasm() {
  local features=$1
  if [ -n "$features" ]; then
    # A separate target dir, so a variant build never replaces the default artifact.
    local dir=$ROOT/target/variant-${features//[^A-Za-z0-9]/_}
    say "cargo build --release --target wasm32-unknown-unknown --features $features" >&2
    CARGO_TARGET_DIR=$dir cargo build --release --target wasm32-unknown-unknown --lib --features "$features" >&2
    echo "$dir/wasm32-unknown-unknown/release/$NAME.wasm"
  else
    say "cargo build --release --target wasm32-unknown-unknown" >&2
    cargo build --release --target wasm32-unknown-unknown --lib >&2
    echo "$ROOT/target/wasm32-unknown-unknown/release/$NAME.wasm"
  fi
}

# locate_wasm_cjs SPEC: the lines that replace the nodejs glue's read of the .wasm next to it: that
# one when it is there (the package as installed), else SPEC, the package's export of the same file,
# resolved from the bundle's location (a bundle for Node has the glue but not the .wasm).
locate_wasm_cjs() {
  local spec=$1
  cat <<EOF
const wasmBytes = require('fs').readFileSync((() => {
    if (require('fs').existsSync(wasmPath)) return wasmPath;
    const spec = ["$PKG_NAME", "${spec#"$PKG_NAME"/}"].join("/");
    try {
        return require('module').createRequire(__filename).resolve(spec);
    } catch {
        throw new Error(\`$PKG_NAME: ${NAME}_bg.wasm is neither next to \${__filename} nor resolvable as "\${spec}" from there: \` +
            "run the bundle where the package is installed, copy the .wasm next to it, or import " +
            "\"$PKG_NAME/bytes\" and call initSync({ module: bytes })");
    }
})());
EOF
}

# assemble RAW OUT WORK "DIR..." [SHARED]: bindgen + wasm-opt RAW and write the entry files into
# OUT. The ESM helpers of every DIR are copied in order (a later index.js replaces an earlier one:
# it is the helpers' entry, re-exported by every entry file). SHARED (the server entry: "..") is the
# directory, relative to OUT, of the main entry: its client helpers (js/client) are not copied but
# shared, one copy in the package (OUT gets re-exporting stubs for the helpers' own imports), and
# every entry file re-exports them and gives them its glue's functions (js/client/wasm.ts).
# RAW "shared" (pkg/server/): no module of its own; the glue files re-export pkg/'s and the entry
# files load ../mcp_tasks_wasm_bg.wasm: one module, one instance for both entries.
assemble() {
  local raw=$1 out=$2 work=$3 helpers=$4 shared=${5:-.} dir
  local wasm_rel="./${NAME}_bg.wasm"
  local spec=$PKG_NAME/${out#"$PKG"/}/${NAME}_bg.wasm
  [ "$out" = "$PKG" ] && spec=$PKG_NAME/${NAME}_bg.wasm
  mkdir -p "$work" "$out"
  if [ "$raw" = shared ]; then
    wasm_rel="../${NAME}_bg.wasm"
    say "${out#"$ROOT"/}: the glue re-exports pkg/'s (one module, one instance)"
    printf '// The package'"'"'s one module: the same glue (and instance) as the main entry.\nexport * from "../%s.js";\nexport { default } from "../%s.js";\n' \
      "$NAME" "$NAME" >"$out/$NAME.js"
    printf 'export * from "../%s.js";\nexport { default } from "../%s.js";\n' "$NAME" "$NAME" >"$out/$NAME.d.ts"
    printf '// The package'"'"'s one module: the same glue (and instance) as the main entry.\n"use strict";\nmodule.exports = require("../node.cjs");\n' >"$out/node.cjs"
    printf 'export * from "../node.cjs";\n' >"$out/node.d.cts"
  else
  [ -f "$raw" ] || fail "$raw was not produced"
  say "wasm-bindgen --target web / --target nodejs → ${out#"$ROOT"/}"
  wasm-bindgen --target web --out-dir "$work/web" --out-name "$NAME" "$raw"
  wasm-bindgen --target nodejs --out-dir "$work/node" --out-name "$NAME" "$raw"
  cmp -s "$work/web/${NAME}_bg.wasm" "$work/node/${NAME}_bg.wasm" ||
    fail "the web and nodejs targets produced different .wasm files; one file cannot serve both"

  # The producers and target_features custom sections are for toolchains, not engines (0.2 KB gzip).
  # --one-caller-inline-max-function-size=200: wasm-opt inlines a function with one caller whatever
  # its size by default, which folded the whole fast path into one 21 KB function that V8 compiles
  # (lazily) on the first validateMessage: 3.6 ms of a 20.5 ms cold start. Capped at 200 bytes: first
  # call 1.9 ms, module -6.5 KB gzip, the bench messages 0.99-1.06x the time (BENCHMARKS.md "Size").
  say "wasm-opt -Oz --one-caller-inline-max-function-size=200 --strip-producers --strip-target-features ($("$WASM_OPT" --version))"
  "$WASM_OPT" -Oz --one-caller-inline-max-function-size=200 --strip-producers --strip-target-features \
    "$work/web/${NAME}_bg.wasm" -o "$out/${NAME}_bg.wasm"
  cp "$work/web/$NAME.js" "$out/$NAME.js"
  cp "$work/web/$NAME.d.ts" "$out/$NAME.d.ts"

  # The nodejs glue becomes node.cjs; it must read the one .wasm next to it, or, bundled (the file
  # then lies elsewhere), the package's own export of it (locate_wasm_cjs below).
  sed "s/[A-Za-z0-9_]*_bg\.wasm/${NAME}_bg.wasm/g" "$work/node/$NAME.js" >"$out/node.cjs"
  grep -q "${NAME}_bg.wasm" "$out/node.cjs" || fail "node.cjs does not name ${NAME}_bg.wasm"
  local load_line="const wasmBytes = require('fs').readFileSync(wasmPath);"
  grep -qxF "$load_line" "$out/node.cjs" || fail "node.cjs: the glue's line '$load_line' changed: update build.sh"
  node -e '
    const fs = require("node:fs");
    const [file, line, block] = process.argv.slice(1);
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(line + "\n", block + "\n"));
  ' "$out/node.cjs" "$load_line" "$(locate_wasm_cjs "$spec")"
  cp "$work/node/$NAME.d.ts" "$out/node.d.cts"

  # A `String` / `&str` parameter of an export is copied in by the glue's passStringToWasm0, which
  # trusts `arg` to be a string: given another value (`true`, a number), it asks the module for a
  # zero-byte block and then reallocates that dangling block, corrupting the allocator (the next
  # calls trap with "memory access out of bounds"). The JS classes pass checked strings, but every
  # export must survive a direct call with any value (tests/js/soak.test.mjs): both glues refuse a
  # non-string there with a TypeError, before the module is called.
  local f guard_line='function passStringToWasm0(arg, malloc, realloc) {'
  for f in "$out/$NAME.js" "$out/node.cjs"; do
    grep -qxF "$guard_line" "$f" || fail "$f: the glue's line '$guard_line' changed: update build.sh"
    node -e '
      const fs = require("node:fs");
      const [file, line] = process.argv.slice(1);
      const guard = "    if (typeof arg !== \"string\") throw new TypeError(`expected a string argument, found ${typeof arg}`);";
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(line + "\n", line + "\n" + guard + "\n"));
    ' "$f" "$guard_line"
  done

  # wasm-bindgen declares `[Symbol.dispose](): void` on classes. Without lib esnext.disposable
  # (TypeScript >= 5.2) a strict consumer gets TS2550 inside our .d.ts: reference the lib there,
  # as @types/node does. The declarations themselves stay exactly as generated.
  for f in "$out/$NAME.d.ts" "$out/node.d.cts"; do
    if grep -q 'Symbol\.dispose' "$f"; then
      { echo '/// <reference lib="esnext.disposable" />'; cat "$f"; } >"$f.tmp" && mv "$f.tmp" "$f"
    fi
  done
  # The web glue's init functions name DOM types (RequestInfo, BufferSource, WebAssembly.*): a
  # project without the DOM lib (lib es2022 + @types/node, no skipLibCheck) could not compile
  # them. Structural stand-ins, local to the file (`export {}` keeps them unexported), to which
  # the DOM's and Node's values are assignable; the generated declarations stay as they are.
  f=$out/$NAME.d.ts
  if grep -qE 'RequestInfo|BufferSource|WebAssembly\.' "$f"; then
    cat "$f" - >"$f.tmp" <<'EOF'

// Added by scripts/build.sh: what the declarations above need of the DOM, declared structurally
// (a DOM or Node Request, Response, ArrayBuffer, typed array or WebAssembly.Module fits).
type RequestInfo = Request | string;
type BufferSource = ArrayBufferView | ArrayBuffer;
declare namespace WebAssembly {
  interface Module {}
  interface Memory { readonly buffer: ArrayBuffer; grow(delta: number): number }
  interface Table { readonly length: number; get(index: number): any; grow(delta: number, value?: any): number; set(index: number, value?: any): void }
}
export {};
EOF
    mv "$f.tmp" "$f"
  fi
  fi

  # The entry files' part for the helpers, when given (the helpers: scripts/build-ts.mjs).
  local extra="" extra_types="" extra_exports="" bytes_register=""
  if [ -n "$helpers" ]; then
    # The helpers themselves (ES modules, CommonJS twins, declarations; the server entry's stubs
    # of the shared ones) are compiled by scripts/build-ts.mjs once every entry is assembled.
    # Every entry gives the shared client helpers its glue's functions, and re-exports them (the
    # server entry: the main entry's helpers, then its own).
    extra=$'\n'"import { TaskScheduler as _TaskScheduler, TaskServerCore as _TaskServerCore } from \"./$NAME.js\";"
    extra+=$'\n'"import { validateMessage as _validateMessage } from \"./validate.js\";"
    extra+=$'\n'"import { provideWasm } from \"$shared/wasm.js\";"
    extra+=$'\n\nprovideWasm({ TaskScheduler: _TaskScheduler, validateMessage: _validateMessage, TaskServerCore: _TaskServerCore });\n'
    extra_types=""
    # bytes.js gives its glue only once initialised: its init() and initSync() wrap the glue's.
    bytes_register=$'\n'"import { default as _init, initSync as _initSync, TaskScheduler as _TaskScheduler, TaskServerCore as _TaskServerCore } from \"./$NAME.js\";"
    bytes_register+=$'\n'"import { validateMessage as _validateMessage } from \"./validate.js\";"
    bytes_register+=$'\n'"import { provideWasm } from \"$shared/wasm.js\";"
    bytes_register+='

/** The glue'"'"'s init(), then the shared helpers get this entry'"'"'s glue. @type {typeof _init} */
export async function init(...args) {
  const exports = await _init(...args);
  provideWasm({ TaskScheduler: _TaskScheduler, validateMessage: _validateMessage, TaskServerCore: _TaskServerCore });
  return exports;
}

/** The glue'"'"'s initSync(), then the shared helpers get this entry'"'"'s glue. @type {typeof _initSync} */
export function initSync(...args) {
  const exports = _initSync(...args);
  provideWasm({ TaskScheduler: _TaskScheduler, validateMessage: _validateMessage, TaskServerCore: _TaskServerCore });
  return exports;
}
'
    local cjs_shared=""
    if [ "$shared" != . ]; then
      extra_exports+=$'\n'"export * from \"$shared/index.js\";"
      extra_types+=$'\n'"export * from \"$shared/index.js\";"
      cjs_shared=" ...require(\"$shared/index.cjs\"),"
    fi
    # validate.js (js/core) wraps the glue's validateMessage: its explicit export wins over `export *`.
    extra_exports+=$'\nexport * from "./index.js";\nexport { validateMessage } from "./validate.js";'
    extra+=$extra_exports
    extra_types+=$'\nexport * from "./index.js";\nexport { validateMessage } from "./validate.js";'
    cat >"$out/main.cjs" <<EOF
// Node.js, CommonJS: the nodejs glue (loads the .wasm next to it) and the helpers.
"use strict";
const glue = require("./node.cjs");
const validate = require("./validate.cjs");
require("$shared/wasm.cjs").provideWasm({ TaskScheduler: glue.TaskScheduler, validateMessage: validate.validateMessage, TaskServerCore: glue.TaskServerCore });
module.exports = { ...glue,$cjs_shared ...require("./index.cjs"), ...validate };
EOF
    printf 'export * from "./node.cjs";\n' >"$out/main.d.cts"
    [ "$shared" != . ] && printf 'export * from "%s/index.cjs";\n' "$shared" >>"$out/main.d.cts"
    printf 'export * from "./index.cjs";\nexport { validateMessage } from "./validate.cjs";\n' >>"$out/main.d.cts"
  fi

  # Entry files. They hold no API of their own: `export *` re-exports whatever the glue exports.
  # node.mjs finds the .wasm as node.cjs does (next to it, else the package's export, for bundles);
  # no `new URL("literal", import.meta.url)`: bundlers for Node (Next.js) rewrite that into an
  # asset URL that node:fs rejects.
  cat >"$out/node.mjs" <<EOF
// Node.js, ES modules: compiles the .wasm synchronously at import. The .wasm is the one next to
// this file; in a bundle (this file is then elsewhere), the package's export "$spec",
// resolved from the bundle's location.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { initSync } from "./$NAME.js";

const WASM = "$wasm_rel";
const SPEC = ["$PKG_NAME", "${spec#"$PKG_NAME"/}"].join("/");

function wasmPath() {
  const url = import.meta.url;
  const base = typeof url === "string" && url.startsWith("file:") ? fileURLToPath(url)
    : typeof __filename === "string" ? __filename : \`\${process.cwd()}/\`;
  const here = fileURLToPath(new URL(WASM, pathToFileURL(base)));
  if (existsSync(here)) return here;
  try {
    return createRequire(base).resolve(SPEC);
  } catch {
    throw new Error(\`$PKG_NAME: \${WASM} is neither next to \${base} nor resolvable as "\${SPEC}" from there: \` +
      "run the bundle where the package is installed, copy the .wasm next to it, or import " +
      "\"$PKG_NAME/bytes\" and call initSync({ module: bytes })");
  }
}

initSync({ module: readFileSync(wasmPath()) });

export * from "./$NAME.js";$extra
EOF

  cat >"$out/browser.js" <<EOF
// Browsers and bundlers: fetches the .wasm next to this file (top-level await).
import init from "./$NAME.js";

await init({ module_or_path: new URL("$wasm_rel", import.meta.url) });

export * from "./$NAME.js";$extra
EOF

  cat >"$out/deno.js" <<EOF
/* @ts-self-types="./deno.d.ts" */
// Deno: a source-phase import of the .wasm needs no --allow-read and no --allow-net.
import source wasmModule from "$wasm_rel";
import { initSync } from "./$NAME.js";

initSync({ module: wasmModule });

export * from "./$NAME.js";$extra
EOF

  cat >"$out/workerd.js" <<EOF
// Cloudflare Workers (workerd, the "workerd" export condition): wrangler imports a .wasm as a
// compiled WebAssembly.Module (its default rule for *.wasm); no fetch, no file system.
import wasmModule from "$wasm_rel";
import { initSync } from "./$NAME.js";

initSync({ module: wasmModule });

export * from "./$NAME.js";$extra
EOF

  if [ "$raw" = shared ]; then
    # One module, one instance: the main entry's file of the same runtime compiles and
    # instantiates it (in a bundle, both become one file, so the .wasm is found where the main
    # entry's is), and this entry shares it.
    local entry
    for entry in node.mjs browser.js deno.js workerd.js; do
      {
        [ "$entry" = deno.js ] && echo '/* @ts-self-types="./deno.d.ts" */'
        echo "// The main entry's $entry instantiates the package's one module; this entry shares it."
        echo "import \"../$entry\";"
        echo
        printf 'export * from "./%s.js";%s\n' "$NAME" "$extra"
      } >"$out/$entry"
    done
  fi

  cat >"$out/bytes.js" <<EOF
// The entry without top-level await (targets without it: Vite 5, esbuild --format=iife; bundlers
// that cannot follow new URL(..., import.meta.url)): nothing is loaded at import. First call
// await init() (fetches the .wasm next to this module), await init({ module_or_path: urlOrBytes })
// or initSync({ module: bytesOrModule }).
export * from "./$NAME.js";$bytes_register$extra_exports
EOF

  # Type entries only re-export the generated declarations.
  for f in node.d.mts browser.d.ts deno.d.ts workerd.d.ts; do
    printf 'export * from "./%s.js";%s\n' "$NAME" "$extra_types" >"$out/$f"
  done
  printf 'export { default as init, initSync } from "./%s.js";\nexport * from "./%s.js";%s\n' \
    "$NAME" "$NAME" "$extra_types" >"$out/bytes.d.ts"
}

# ---- the default entry: pkg/ --------------------------------------------------------------------
# The one module of both entries (see the top).
RAW=$(cargo_wasm store-js)
find "$PKG" -mindepth 1 -maxdepth 1 ! -name package.json -exec rm -rf {} +
assemble "$RAW" "$PKG" "$TMP/main" "$ROOT/js/core $ROOT/js/client"

# The licences (the README is written last, from the files shipped: see below).
cp LICENSE-MIT LICENSE-APACHE "$PKG/"

# The sample conversations (the CLI, js/cli.mts, is compiled with the helpers below).
mkdir -p "$PKG/samples"
cp samples/*.jsonl "$PKG/samples/"

# The inspector page (mcp-tasks-wasm inspect serves it from here, the package root as /pkg/):
# www/ without the smoke page, which only the repository's tests load.
mkdir -p "$PKG/www"
for f in www/*; do
  case $(basename "$f") in smoke.*) continue ;; esac
  cp "$f" "$PKG/www/"
done

# ---- the server entry: pkg/server/ --------------------------------------------------------------
if [ "$SERVER" = 1 ]; then
  assemble shared "$PKG/server" "$TMP/server" "$ROOT/js/server" ..
else
  say "SERVER=0: pkg/server/ is not built"
fi

# ---- the helpers: TypeScript → ES modules, CommonJS twins, declarations; the CLI -------------------
# js/core, js/client → pkg/; js/server → pkg/server/; js/server/storage → pkg/storage/ (the
# mcp-tasks-wasm/storage entries: ES modules and declarations; the main and server entries never
# load them); js/cli.mts → pkg/cli.mjs. tsc --strict, then esbuild for the *.cjs (see the script).
node scripts/build-ts.mjs "$PKG" "$TMP/ts" "$SERVER" || fail "the helpers did not compile"
chmod +x "$PKG/cli.mjs"

# The doc comments out of the JS every entry loads at start (the glue carries every Rust doc
# comment; validate.js its JSDoc): the .d.ts files keep them for editors. -7 KB gzip per entry.
node scripts/strip-js-docs.mjs "$PKG/$NAME.js" "$PKG/node.cjs" "$PKG/validate.js" "$PKG/validate.cjs" ||
  fail "could not strip the doc comments"

# ---- package.json: the fields naming files, derived from what was built ------------------------------
# files, exports, main/module/types, sideEffects, typesVersions (see the script); the other fields
# are pkg/package.json's as committed.
node scripts/pkg-manifest.mjs "$PKG" || fail "could not derive package.json's files and exports"

# ---- the README of the registry page -------------------------------------------------------------
# README.md with install first and no relative link (links to shipped files point at this
# version on unpkg.com, others become text): scripts/registry-readme.mjs.
node scripts/registry-readme.mjs README.md "$PKG" || fail "could not write $PKG/README.md"
# …and the manifest again, now that README.md is in PKG ("files" names every file the build put there).
node scripts/pkg-manifest.mjs "$PKG" || fail "could not derive package.json's files and exports"

# ---- sizes -------------------------------------------------------------------------------------
size_line() { # label file...
  local label=$1; shift
  local raw gz
  raw=$(cat "$@" | wc -c)
  gz=$(cat "$@" | gzip -9 | wc -c)
  printf 'build:   %-38s %8d B raw %8d B gzip\n' "$label" "$raw" "$gz"
}
say "sizes"
size_line "${NAME}_bg.wasm (wasm-opt -Oz)" "$PKG/${NAME}_bg.wasm"
size_line "$NAME.js (web glue)" "$PKG/$NAME.js"
size_line "node.cjs (nodejs glue)" "$PKG/node.cjs"
size_line "browser load: wasm + glue + helpers" "$PKG/${NAME}_bg.wasm" "$PKG/$NAME.js" "$PKG/browser.js" "$PKG/index.js" "$PKG/client.js" "$PKG/http.js" "$PKG/push.js"
if [ "$SERVER" = 1 ]; then
  helper_files=()
  for f in js/client/*.ts; do [ "$(basename "$f")" = index.ts ] || helper_files+=("$PKG/$(basename "$f" .ts).js"); done
  for f in js/server/*.ts; do helper_files+=("$PKG/server/$(basename "$f" .ts).js"); done
  mapfile -t helper_files < <(printf '%s\n' "${helper_files[@]}" | sort -u)
  size_line "server: wasm + web glue + helpers" "$PKG/${NAME}_bg.wasm" "$PKG/$NAME.js" \
    "$PKG/server/$NAME.js" "${helper_files[@]}"
fi
say "pkg/ built in $(($(date +%s) - t0)) s"
