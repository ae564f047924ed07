#!/usr/bin/env bash
# Packs pkg/ with `npm pack` and installs the tarball with npm into tests/js/.tmp/install/, the
# way a user gets it. The package tests import it from there, never from pkg/ or the sources.
#
#   tests/js/.tmp/mcp-tasks-wasm-<version>.tgz
#   tests/js/.tmp/install/node_modules/mcp-tasks-wasm/
#   tests/js/.tmp/install/esm.mjs   `export * from "mcp-tasks-wasm"` (a bare import resolved by
#                                   Node from the installed package's "exports"; tests import it)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TMP=$ROOT/tests/js/.tmp
INSTALL=$TMP/install

say() { printf 'pack: %s\n' "$*"; }

[ -f pkg/mcp_tasks_wasm_bg.wasm ] || { echo "pack: pkg/ is not built: run scripts/build.sh" >&2; exit 1; }

mkdir -p "$TMP"
rm -f "$TMP"/*.tgz
tgz=$(cd "$TMP" && npm pack "$ROOT/pkg" --silent --pack-destination "$TMP")
tgz=$TMP/$(basename "$tgz")
say "packed $(basename "$tgz") ($(wc -c <"$tgz") bytes):"
tar -tzf "$tgz" | sed 's/^/pack:   /'

rm -rf "$INSTALL"
mkdir -p "$INSTALL"
cat >"$INSTALL/package.json" <<'EOF'
{ "name": "mcp-tasks-wasm-install-test", "private": true, "type": "module" }
EOF
say "npm install $(basename "$tgz") into tests/js/.tmp/install"
(cd "$INSTALL" && npm install --no-audit --no-fund --no-package-lock --silent "$tgz")

cat >"$INSTALL/esm.mjs" <<'EOF'
// Written by scripts/pack.sh: a bare import of the installed package, resolved by Node.
export * from "mcp-tasks-wasm";
export const resolved = import.meta.resolve("mcp-tasks-wasm");
EOF
say "installed: $(node -p 'require(process.argv[1]).version' "$INSTALL/node_modules/mcp-tasks-wasm/package.json")"
cat >"$INSTALL/server.mjs" <<'EOS'
// Written by scripts/pack.sh: a bare import of the installed package's server entry.
export * from "mcp-tasks-wasm/server";
export const resolved = import.meta.resolve("mcp-tasks-wasm/server");
EOS
