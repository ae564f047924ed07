#!/usr/bin/env bash
# Builds the npm package into pkg/. THREE optimised .wasm modules, the wasm-bindgen glue of two
# targets for each (the browser module: web only), and small entry files routed by package.json
# "exports":
#
#   mcp-tasks-wasm          pkg/          the client module (cargo feature conversation-js): model,
#                                         validator, conversation checker, scheduler; the client
#                                         helpers of js/client/. No task store: a browser app pays
#                                         only for the client (docs/decisions/byte-boundary.md).
#                                         In browsers (browser.js) the browser module instead,
#                                         pkg/browser/ (no cargo feature: no Conversation), and
#                                         the client module only for Conversation (conversation.js;
#                                         docs/decisions/browser-module.md)
#   mcp-tasks-wasm/server   pkg/server/   the server module (cargo feature store-js): the same
#                                         bindings plus TaskStore/TaskServer's core, under its own
#                                         file name (server/mcp_tasks_server_bg.wasm, so a bundler
#                                         copying both never mixes them up), and the JS helpers of
#                                         js/server/ (TaskHost, SdkTaskStore, ...). The client
#                                         helpers exist once, in pkg/: each entry gives them its
#                                         own glue (js/client/wasm.ts), so an app importing both
#                                         entries loads both modules and works; the receiver of a
#                                         TaskClient keeps its tasks in the server module's core
#
# Every entry exports an explicit list (PUBLIC below), never `export *` of the glue: the glue's
# internal exports (the byte boundary's __validate*, TaskServerCore, listPosition,
# ToolArgumentsSchema) are imported from the glue file by the helpers that need them only.
#
# In pkg/ (pkg/server/ has the same files, its module being mcp_tasks_server_bg.wasm):
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
# root, pkg/docs/guides/ from docs/guides/*.md; pkg/README.md is README.md for the registry page
# (scripts/registry-readme.mjs).
#
# pkg/package.json is committed; the build rewrites its "files", "exports", "sideEffects" and
# "typesVersions" from what it produced (scripts/pkg-manifest.mjs: commit the result; a SERVER=0
# build drops ./server from them). Everything else in pkg/ is rebuilt.
# SERVER=0 skips pkg/server/ and its module (quicker while working on the validator).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
NAME=mcp_tasks_wasm
PKG_NAME=mcp-tasks-wasm             # the npm name (pkg/package.json "name")
PKG=${PKG_OUT:-$ROOT/pkg}            # PKG_OUT: build elsewhere
SERVER=${SERVER:-1}
WASM_OPT=$ROOT/node_modules/.bin/wasm-opt   # binaryen@132 from npm; never Debian's binaryen
TSC=$ROOT/node_modules/.bin/tsc
SERVER_WASM=mcp_tasks_server_bg.wasm   # the server module's file name (pkg/server/)
# What each entry exports of its glue (values; every declared type is exported too, InitOutput,
# the raw exports, aside). Every other value the glue exports must be listed in INTERNAL: the
# build fails on an export in neither list, so a new one is a decision.
PUBLIC="Conversation TaskScheduler convertCreateTaskResult convertTask rules"
INTERNAL="validateMessage initSync __validateBuffer __validateBufferAt __validateBytes __validateMemory"
INTERNAL+=" __validateNewKnown __validateRoute __validateTemplate TaskServerCore listPosition ToolArgumentsSchema"
INTERNAL+=" MemoryStorageCore"   # under the storage entry's MemoryStorage (js/server/storage/memory.ts)

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
        throw new Error(\`$PKG_NAME: ${spec##*/} is neither next to \${__filename} nor resolvable as "\${spec}" from there: \` +
            "run the bundle where the package is installed, copy the .wasm next to it, or import " +
            "\"$PKG_NAME/bytes\" and call initSync({ module: bytes })");
    }
})());
EOF
}

# guard_strings GLUE...: a `String` / `&str` parameter of an export is copied in by the glue's
# passStringToWasm0, which trusts `arg` to be a string: given another value (`true`, a number), it
# asks the module for a zero-byte block and then reallocates that dangling block, corrupting the
# allocator (the next calls trap with "memory access out of bounds"). The JS classes pass checked
# strings, but every export must survive a direct call with any value (tests/js/soak.test.mjs):
# every glue refuses a non-string there with a TypeError, before the module is called.
guard_strings() {
  local f guard_line='function passStringToWasm0(arg, malloc, realloc) {'
  for f in "$@"; do
    grep -qxF "$guard_line" "$f" || fail "$f: the glue's line '$guard_line' changed: update build.sh"
    node -e '
      const fs = require("node:fs");
      const [file, line] = process.argv.slice(1);
      const guard = "    if (typeof arg !== \"string\") throw new TypeError(`expected a string argument, found ${typeof arg}`);";
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(line + "\n", line + "\n" + guard + "\n"));
    ' "$f" "$guard_line"
  done
}

# fix_dts WEB.d.ts NODE.d.cts: the declarations of the two glues, made to compile where users
# compile them.
fix_dts() {
  local f
  # wasm-bindgen declares `[Symbol.dispose](): void` on classes. Without lib esnext.disposable
  # (TypeScript >= 5.2) a strict consumer gets TS2550 inside our .d.ts: reference the lib there,
  # as @types/node does. The declarations themselves stay exactly as generated.
  for f in "$@"; do
    if grep -q 'Symbol\.dispose' "$f"; then
      { echo '/// <reference lib="esnext.disposable" />'; cat "$f"; } >"$f.tmp" && mv "$f.tmp" "$f"
    fi
  done
  # The web glue's init functions name DOM types (RequestInfo, BufferSource, WebAssembly.*): a
  # project without the DOM lib (lib es2022 + @types/node, no skipLibCheck) could not compile
  # them. Structural stand-ins, local to the file (`export {}` keeps them unexported), to which
  # the DOM's and Node's values are assignable; the generated declarations stay as they are.
  f=$1
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
}

# assemble RAW OUT WORK "DIR..." SHARED WASM: bindgen + wasm-opt RAW into OUT/WASM and write the
# entry files into OUT. SHARED (the server entry: "..") is the directory, relative to OUT, of the
# main entry: its client helpers (js/client) are not copied but shared, one copy in the package
# (OUT gets re-exporting stubs for the helpers' own imports), and every entry file re-exports them
# and gives them its glue's functions (js/client/wasm.ts).
assemble() {
  local raw=$1 out=$2 work=$3 helpers=$4 shared=${5:-.} wasm=${6:-${NAME}_bg.wasm} dir
  local wasm_rel="./$wasm"
  local spec=$PKG_NAME/${out#"$PKG"/}/$wasm
  [ "$out" = "$PKG" ] && spec=$PKG_NAME/$wasm
  mkdir -p "$work" "$out"
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
    "$work/web/${NAME}_bg.wasm" -o "$out/$wasm"
  # The web glue's default URL (init() without arguments) names this module's file.
  sed "s/${NAME}_bg\.wasm/$wasm/g" "$work/web/$NAME.js" >"$out/$NAME.js"
  cp "$work/web/$NAME.d.ts" "$out/$NAME.d.ts"

  # The nodejs glue becomes node.cjs; it must read the one .wasm next to it, or, bundled (the file
  # then lies elsewhere), the package's own export of it (locate_wasm_cjs below).
  sed "s/[A-Za-z0-9_]*_bg\.wasm/$wasm/g" "$work/node/$NAME.js" >"$out/node.cjs"
  grep -q "$wasm" "$out/node.cjs" || fail "node.cjs does not name $wasm"
  local load_line="const wasmBytes = require('fs').readFileSync(wasmPath);"
  grep -qxF "$load_line" "$out/node.cjs" || fail "node.cjs: the glue's line '$load_line' changed: update build.sh"
  node -e '
    const fs = require("node:fs");
    const [file, line, block] = process.argv.slice(1);
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(line + "\n", block + "\n"));
  ' "$out/node.cjs" "$load_line" "$(locate_wasm_cjs "$spec")"
  cp "$work/node/$NAME.d.ts" "$out/node.d.cts"

  guard_strings "$out/$NAME.js" "$out/node.cjs"
  fix_dts "$out/$NAME.d.ts" "$out/node.d.cts"

  # What the entry exports of its glue: the PUBLIC values it has, by name, and every declared
  # type but the raw exports' (InitOutput) and init's (InitInput, SyncInitInput: /bytes only). A
  # value in neither PUBLIC nor INTERNAL stops the build: a new export is public or internal by
  # decision, never by default (the helpers import internal ones from the glue file itself).
  local values=() types=() public=() v
  mapfile -t values < <(sed -nE 's/^export (declare )?(function|class|const) ([A-Za-z_$][A-Za-z0-9_$]*).*/\3/p' "$out/$NAME.d.ts" | sort -u)
  for v in "${values[@]}"; do
    case " $PUBLIC " in *" $v "*) public+=("$v"); continue ;; esac
    case " $INTERNAL " in *" $v "*) continue ;; esac
    fail "${out#"$ROOT"/}/$NAME.d.ts exports $v, which is in neither PUBLIC nor INTERNAL (scripts/build.sh)"
  done
  for v in $PUBLIC; do
    case " ${values[*]} " in *" $v "*) ;; *) fail "${out#"$ROOT"/}/$NAME.d.ts has no $v (PUBLIC)" ;; esac
  done
  mapfile -t types < <(sed -nE 's/^export (declare )?(interface|type) ([A-Za-z_$][A-Za-z0-9_$]*).*/\3/p' "$out/$NAME.d.ts" |
    grep -vxE 'InitOutput|InitInput|SyncInitInput' | sort -u)
  local pub_list type_list
  pub_list=$(printf '%s, ' "${public[@]}"); pub_list=${pub_list%, }
  type_list=$(printf '%s, ' "${types[@]}"); type_list=${type_list%, }
  local glue_exports="export { $pub_list } from \"./$NAME.js\";"
  local glue_types="$glue_exports"$'\n'"export type { $type_list } from \"./$NAME.js\";"

  # The helpers (ES modules, CommonJS twins, declarations; the server entry's stubs of the shared
  # ones) are compiled by scripts/build-ts.mjs once every entry is assembled. Every entry gives the
  # shared client helpers its glue's functions (the server module's task store core too: a
  # TaskClient's receiver keeps its tasks there), and re-exports them (the server entry: the main
  # entry's helpers, then its own).
  local core="" core_import="" cjs_core=""
  case " ${values[*]} " in *" TaskServerCore "*)
    core=", TaskServerCore: _TaskServerCore"; core_import=", TaskServerCore as _TaskServerCore"
    cjs_core=", TaskServerCore: glue.TaskServerCore" ;;
  esac
  local provide="provideWasm({ TaskScheduler: _TaskScheduler, validateMessage: _validateMessage$core });"
  local extra extra_types="" extra_exports="" bytes_register
  extra=$'\n'"import { TaskScheduler as _TaskScheduler$core_import } from \"./$NAME.js\";"
  extra+=$'\n'"import { validateMessage as _validateMessage } from \"./validate.js\";"
  extra+=$'\n'"import { provideWasm } from \"$shared/wasm.js\";"
  extra+=$'\n\n'"$provide"$'\n'
  # bytes.js gives its glue only once initialised: its init() and initSync() wrap the glue's.
  bytes_register=$'\n'"import { default as _init, initSync as _initSync, TaskScheduler as _TaskScheduler$core_import } from \"./$NAME.js\";"
  bytes_register+=$'\n'"import { validateMessage as _validateMessage } from \"./validate.js\";"
  bytes_register+=$'\n'"import { provideWasm } from \"$shared/wasm.js\";"
  bytes_register+='

/** The glue'"'"'s init(), then the shared helpers get this entry'"'"'s glue. @type {typeof _init} */
export async function init(...args) {
  const exports = await _init(...args);
  '"$provide"'
  return exports;
}

/** The glue'"'"'s initSync(), then the shared helpers get this entry'"'"'s glue. @type {typeof _initSync} */
export function initSync(...args) {
  const exports = _initSync(...args);
  '"$provide"'
  return exports;
}
'
  local cjs_shared="" cjs_public="" 
  for v in "${public[@]}"; do cjs_public+=" $v: glue.$v,"; done
  if [ "$shared" != . ]; then
    extra_exports+=$'\n'"export * from \"$shared/index.js\";"
    extra_types+=$'\n'"export * from \"$shared/index.js\";"
    cjs_shared=" ...require(\"$shared/index.cjs\"),"
  fi
  # The helpers' index.js is itself an explicit list; validate.js (js/core) wraps the glue's
  # validateMessage over the byte boundary of this entry's module.
  extra_exports+=$'\nexport * from "./index.js";\nexport { validateMessage } from "./validate.js";'
  # observe.js (js/core) puts the glue's Conversation.observe on the same byte boundary.
  extra_exports+=$'\nimport "./observe.js";'
  extra+=$extra_exports
  extra_types+=$'\nexport * from "./index.js";\nexport { validateMessage } from "./validate.js";'
  cat >"$out/main.cjs" <<EOF
// Node.js, CommonJS: the nodejs glue (loads the .wasm next to it) and the helpers; the glue's
// public values only (scripts/build.sh: PUBLIC).
"use strict";
const glue = require("./node.cjs");
const validate = require("./validate.cjs");
require("./observe.cjs");
require("$shared/wasm.cjs").provideWasm({ TaskScheduler: glue.TaskScheduler, validateMessage: validate.validateMessage$cjs_core });
module.exports = {$cjs_public$cjs_shared ...require("./index.cjs"), validateMessage: validate.validateMessage };
EOF
  {
    printf 'export { %s } from "./node.cjs";\n' "$pub_list"
    printf 'export type { %s } from "./node.cjs";\n' "$type_list"
    [ "$shared" != . ] && printf 'export * from "%s/index.cjs";\n' "$shared"
    printf 'export * from "./index.cjs";\nexport { validateMessage } from "./validate.cjs";\n'
  } >"$out/main.d.cts"

  # Entry files. They hold no API of their own: the glue's PUBLIC values and the helpers.
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

$glue_exports$extra
EOF

  cat >"$out/browser.js" <<EOF
// Browsers and bundlers: fetches the .wasm next to this file (top-level await).
import init from "./$NAME.js";

await init({ module_or_path: new URL("$wasm_rel", import.meta.url) });

$glue_exports$extra
EOF

  # Deno reads the types of a module imported by its path from the JS itself (deno.d.ts is its
  # types through the package's "deno" export): the glue's types as JSDoc typedefs, which a JS
  # module exports as types.
  local jsdoc_types
  jsdoc_types=$(for v in "${types[@]}"; do printf ' * @typedef {import("./%s.js").%s} %s\n' "$NAME" "$v" "$v"; done)
  cat >"$out/deno.js" <<EOF
/* @ts-self-types="./deno.d.ts" */
// Deno: a source-phase import of the .wasm needs no --allow-read and no --allow-net.
import source wasmModule from "$wasm_rel";
import { initSync } from "./$NAME.js";

initSync({ module: wasmModule });

$glue_exports$extra
/**
$jsdoc_types
 */
EOF

  cat >"$out/workerd.js" <<EOF
// Cloudflare Workers (workerd, the "workerd" export condition): wrangler imports a .wasm as a
// compiled WebAssembly.Module (its default rule for *.wasm); no fetch, no file system.
import wasmModule from "$wasm_rel";
import { initSync } from "./$NAME.js";

initSync({ module: wasmModule });

$glue_exports$extra
EOF

  cat >"$out/bytes.js" <<EOF
// The entry without top-level await (targets without it: Vite 5, esbuild --format=iife; bundlers
// that cannot follow new URL(..., import.meta.url)): nothing is loaded at import. First call
// await init() (fetches the .wasm next to this module), await init({ module_or_path: urlOrBytes })
// or initSync({ module: bytesOrModule }).
$glue_exports$bytes_register$extra_exports
EOF

  # Type entries: the same explicit lists.
  for f in node.d.mts browser.d.ts deno.d.ts workerd.d.ts; do
    printf '%s%s\n' "$glue_types" "$extra_types" >"$out/$f"
  done
  printf 'export { default as init, initSync } from "./%s.js";\nexport type { InitInput, SyncInitInput } from "./%s.js";\n%s%s\n' \
    "$NAME" "$NAME" "$glue_types" "$extra_types" >"$out/bytes.d.ts"
}

# ---- the default entry: pkg/ --------------------------------------------------------------------
# The client module: cargo feature conversation-js (no task store; see the top).
RAW=$(cargo_wasm conversation-js)
find "$PKG" -mindepth 1 -maxdepth 1 ! -name package.json -exec rm -rf {} +
assemble "$RAW" "$PKG" "$TMP/main" "$ROOT/js/core $ROOT/js/client"

# ---- the browser entry's module: pkg/browser/ -----------------------------------------------------
# Browsers (the "browser" and "default" conditions, browser.js) load the client module without
# the conversation checker (no cargo feature): pkg/browser/ holds its web glue, its .wasm
# (mcp_tasks_browser_bg.wasm) and load.js, which fetches it next to itself (top-level await) and
# gives the client helpers its functions (validate.js over it: scripts/build-ts.mjs).
# pkg/browser.js re-exports load.js and takes Conversation from conversation.js, which fetches the
# main module (the client module with the checker) for an app that imports Conversation;
# package.json "sideEffects" does not list conversation.js, so a bundler leaves it, and that
# module, out of an app that does not (docs/decisions/browser-module.md). Node, Deno, workerd and
# /bytes read a local file: they load the one main module, as before.
BROWSER_WASM=mcp_tasks_browser_bg.wasm
RAW_BROWSER=$(cargo_wasm "")
mkdir -p "$TMP/browser" "$PKG/browser"
say "wasm-bindgen --target web → pkg/browser/ (no Conversation)"
wasm-bindgen --target web --out-dir "$TMP/browser" --out-name "$NAME" "$RAW_BROWSER"
"$WASM_OPT" -Oz --one-caller-inline-max-function-size=200 --strip-producers --strip-target-features \
  "$TMP/browser/${NAME}_bg.wasm" -o "$PKG/browser/$BROWSER_WASM"
sed "s/${NAME}_bg\.wasm/$BROWSER_WASM/g" "$TMP/browser/$NAME.js" >"$PKG/browser/$NAME.js"
cp "$TMP/browser/$NAME.d.ts" "$PKG/browser/$NAME.d.ts"
guard_strings "$PKG/browser/$NAME.js"
fix_dts "$PKG/browser/$NAME.d.ts"
# Its exports: the main module's but Conversation.
browser_public=()
for v in $(sed -nE 's/^export (declare )?(function|class|const) ([A-Za-z_$][A-Za-z0-9_$]*).*/\3/p' "$PKG/browser/$NAME.d.ts" | sort -u); do
  case " $PUBLIC " in *" $v "*) browser_public+=("$v"); continue ;; esac
  case " $INTERNAL " in *" $v "*) continue ;; esac
  fail "pkg/browser/$NAME.d.ts exports $v, which is in neither PUBLIC nor INTERNAL (scripts/build.sh)"
done
for v in $PUBLIC; do
  case " ${browser_public[*]} Conversation " in *" $v "*) ;; *) fail "pkg/browser/$NAME.d.ts has no $v (PUBLIC)" ;; esac
done
case " ${browser_public[*]} " in *" Conversation "*) fail "pkg/browser/$NAME.d.ts has Conversation: built with conversation-js?" ;; esac
browser_list=$(printf '%s, ' "${browser_public[@]}"); browser_list=${browser_list%, }
cat >"$PKG/browser/load.js" <<EOF
// The browser entry's module (the client module without the conversation checker), fetched next
// to this file (top-level await); the client helpers get its functions.
import init, { TaskScheduler as _TaskScheduler } from "./$NAME.js";
import { validateMessage as _validateMessage } from "./validate.js";
import { provideWasm } from "../wasm.js";

await init({ module_or_path: new URL("./$BROWSER_WASM", import.meta.url) });
provideWasm({ TaskScheduler: _TaskScheduler, validateMessage: _validateMessage });

export { $browser_list } from "./$NAME.js";
export { validateMessage } from "./validate.js";
EOF
cat >"$PKG/conversation.js" <<EOF
// Browsers: Conversation for the browser entry (browser.js). Fetches the main module (the client
// module with the conversation checker) next to this file (top-level await). package.json
// "sideEffects" does not list this file: a bundler leaves it, and that module, out of an app that
// does not import Conversation.
import init from "./$NAME.js";
import "./observe.js";

await init({ module_or_path: new URL("./${NAME}_bg.wasm", import.meta.url) });

export { Conversation } from "./$NAME.js";
EOF
cat >"$PKG/browser.js" <<EOF
// Browsers and bundlers: the browser module (browser/load.js fetches it, top-level await): the
// client module without the conversation checker. Conversation comes from conversation.js, which
// fetches the main module only when an app imports it (scripts/build.sh, "the browser entry's
// module").
export { $browser_list, validateMessage } from "./browser/load.js";
export { Conversation } from "./conversation.js";
export * from "./index.js";
EOF

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

# The guides (docs/guides/*.md), which the README links to: the registry page has no repository
# to resolve a link against, so the README's links point at this version's copies on unpkg
# (scripts/registry-readme.mjs). Their pictures stay in the repository.
mkdir -p "$PKG/docs/guides"
cp docs/guides/*.md "$PKG/docs/guides/"

# ---- the server entry: pkg/server/ --------------------------------------------------------------
if [ "$SERVER" = 1 ]; then
  # The server module: the task store and request handler core (store-js), its own file name.
  RAW_SERVER=$(cargo_wasm store-js)
  assemble "$RAW_SERVER" "$PKG/server" "$TMP/server" "$ROOT/js/core $ROOT/js/server" .. "$SERVER_WASM"
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
strip=("$PKG/$NAME.js" "$PKG/node.cjs" "$PKG/validate.js" "$PKG/validate.cjs" "$PKG/browser/$NAME.js" "$PKG/browser/validate.js")
[ "$SERVER" = 1 ] && strip+=("$PKG/server/$NAME.js" "$PKG/server/node.cjs" "$PKG/server/validate.js" "$PKG/server/validate.cjs")
node scripts/strip-js-docs.mjs "${strip[@]}" ||
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
size_line "${NAME}_bg.wasm (client module)" "$PKG/${NAME}_bg.wasm"
[ "$SERVER" = 1 ] && size_line "server/$SERVER_WASM" "$PKG/server/$SERVER_WASM"
size_line "$NAME.js (web glue)" "$PKG/$NAME.js"
size_line "node.cjs (nodejs glue)" "$PKG/node.cjs"
size_line "browser/$BROWSER_WASM (browser module)" "$PKG/browser/$BROWSER_WASM"
size_line "browser load: wasm + glue + helpers" "$PKG/browser/$BROWSER_WASM" "$PKG/browser/$NAME.js" "$PKG/browser/load.js" "$PKG/browser/validate.js" "$PKG/browser.js" "$PKG/index.js" "$PKG/client.js" "$PKG/http.js" "$PKG/push.js"
if [ "$SERVER" = 1 ]; then
  helper_files=()
  for f in js/client/*.ts; do [ "$(basename "$f")" = index.ts ] || helper_files+=("$PKG/$(basename "$f" .ts).js"); done
  for f in js/server/*.ts; do helper_files+=("$PKG/server/$(basename "$f" .ts).js"); done
  mapfile -t helper_files < <(printf '%s\n' "${helper_files[@]}" | sort -u)
  size_line "server: wasm + web glue + helpers" "$PKG/server/$SERVER_WASM" "$PKG/server/$NAME.js" \
    "$PKG/server/validate.js" "${helper_files[@]}"
fi
say "pkg/ built in $(($(date +%s) - t0)) s"
