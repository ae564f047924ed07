#!/usr/bin/env bash
# The packed tarball (scripts/pack.sh: tests/js/.tmp/mcp-tasks-wasm-<version>.tgz) as the registry
# would get it, checked by the tools package authors use. Fails on any problem:
#
# 1. arethetypeswrong (tools/pkg-lint, pinned), profile "strict": for every entry point found in
#    "exports", types and JavaScript resolve under node10, node16 (from CJS and from ESM) and
#    bundler, and agree on the module format. Two kinds of entry are handled on purpose:
#    - "./mcp_tasks_wasm_bg.wasm", "./server/mcp_tasks_server_bg.wasm" and
#      "./browser/mcp_tasks_browser_bg.wasm" (one per module) are not JS modules: they are
#      exported so that bundlers and `import.meta.resolve` can reach the binary (`?url` imports,
#      Deno's `import source`). They get no "types": a .d.ts would claim an ES-module-integration
#      import that Node 20 rejects. attw's own README excludes non-JS exports the same way
#      (`--exclude-entrypoints styles.css`). The test checks that each excluded subpath points at a
#      .wasm file in the tarball, so the exclusion cannot hide a JS entry.
#    - "./bytes", "./server/bytes" are ESM only (the --target web glue, nothing loaded at import).
#      They keep the "default" condition, not "import": Node >= 20.19 can require() them (require of
#      ESM without top-level await), and an "import"-only export would make require() fail with
#      ERR_PACKAGE_PATH_NOT_EXPORTED (attw: NoResolution instead of CJSResolvesToESM). They are
#      checked in a second run with attw's "esm-only" profile (CJS resolutions reported, not
#      required); CommonJS code that wants the package uses the main entry (main.cjs).
# 2. publint (pinned) on the tarball, --strict (warnings are errors); any suggestion fails too.
# 3. `npm publish --dry-run` in the unpacked tarball: no "npm warn" line except the one a dry run
#    without a login always prints ("This command requires you to be logged in ... (dry-run)").
#    npm contacts the registry for the login check only; nothing is published.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
BIN=$ROOT/tools/pkg-lint/node_modules/.bin

say() { printf 'pkg-lint: %s\n' "$*"; }
fail() { printf 'pkg-lint: FAIL: %s\n' "$*" >&2; exit 1; }

[ -x "$BIN/attw" ] && [ -x "$BIN/publint" ] || fail "tools/pkg-lint is not installed: run scripts/setup.sh"
shopt -s nullglob
tgzs=("$ROOT"/tests/js/.tmp/mcp-tasks-wasm-*.tgz)
shopt -u nullglob
[ ${#tgzs[@]} -eq 1 ] || fail "expected one tarball in tests/js/.tmp (found ${#tgzs[@]}): run scripts/pack.sh"
TGZ=${tgzs[0]}
say "tarball: ${TGZ#"$ROOT"/}; $("$BIN/attw" --version | tr '\n' ' '); $("$BIN/publint" --version)"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
tar -xzf "$TGZ" -C "$WORK"
PKG=$WORK/package

# The entries excluded from the strict run, read from the tarball's package.json: every export
# whose target is a .wasm file (checked to exist), and the two ESM-only entries (checked to exist).
read -r -a wasm_entries < <(node -e '
  const fs = require("node:fs"), path = require("node:path");
  const dir = process.argv[1];
  const { exports } = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const out = [];
  for (const [subpath, target] of Object.entries(exports)) {
    if (typeof target === "string" && target.endsWith(".wasm")) {
      const head = fs.readFileSync(path.join(dir, target)).subarray(0, 4);
      if (!head.equals(Buffer.from([0, 0x61, 0x73, 0x6d]))) throw new Error(`${subpath} -> ${target}: not a wasm module`);
      out.push(subpath);
    }
  }
  for (const esm of ["./bytes", "./server/bytes", "./storage", "./storage/sqlite", "./storage/postgres", "./storage/redis"]) if (!(esm in exports)) throw new Error(`exports has no ${esm}`);
  console.log(out.join(" "));
' "$PKG") || fail "reading the exports of the tarball"
[ ${#wasm_entries[@]} -eq 3 ] || fail "expected 3 .wasm exports (client, server and browser modules), found: ${wasm_entries[*]:-none}"
# The storage entries (mcp-tasks-wasm/storage/*) are ESM only too: the adapters import their
# optional peer with
# import() when opened; scripts/build-ts.mjs builds them as ES modules only.
esm_only=(./bytes ./server/bytes ./storage ./storage/sqlite ./storage/postgres ./storage/redis)

rc=0
say "attw --profile strict, every entry except ${wasm_entries[*]} (not JS) and ${esm_only[*]} (ESM only)"
# The tarball comes first: --exclude-entrypoints and --entrypoints take every argument after them.
"$BIN/attw" "$TGZ" --no-color --no-emoji --format table-flipped --profile strict \
  --exclude-entrypoints "${wasm_entries[@]}" "${esm_only[@]}" || { rc=1; say "attw (strict): problems"; }

say "attw --profile esm-only: ${esm_only[*]}"
"$BIN/attw" "$TGZ" --no-color --no-emoji --format table-flipped --profile esm-only \
  --entrypoints "${esm_only[@]}" || { rc=1; say "attw (esm-only): problems"; }

say "publint --strict"
# No colours (CI=true turns them on), and any escape left is stripped before the check.
if out=$(NO_COLOR=1 FORCE_COLOR=0 "$BIN/publint" run --strict "$TGZ" 2>&1); then
  printf '%s\n' "$out"
  # publint exits 0 with suggestions listed: only "All good!" passes.
  sed 's/\x1b\[[0-9;]*m//g' <<<"$out" | grep -q '^All good!$' || { rc=1; say "publint: suggestions (see above)"; }
else
  printf '%s\n' "$out"
  rc=1
  say "publint: errors or warnings"
fi

say "npm publish --dry-run (in the unpacked tarball)"
if out=$(cd "$PKG" && npm publish --dry-run 2>&1); then
  printf '%s\n' "$out" | grep -v -E '^npm notice [0-9.]+ ?[kMG]?B ' # the file list is the tarball's
  warns=$(grep -E '^npm (warn|WARN|error|ERR)' <<<"$out" \
    | grep -v -F 'This command requires you to be logged in to' || true)
  if [ -n "$warns" ]; then
    rc=1
    say "npm publish --dry-run warned:"
    printf '%s\n' "$warns"
  fi
  grep -q -E '^\+ mcp-tasks-wasm@' <<<"$out" || { rc=1; say "npm publish --dry-run: no '+ mcp-tasks-wasm@' line"; }
else
  printf '%s\n' "$out"
  rc=1
  say "npm publish --dry-run failed"
fi

if [ "$rc" -eq 0 ]; then say "PASS: attw, publint and npm publish --dry-run found nothing"; else fail "see above"; fi
