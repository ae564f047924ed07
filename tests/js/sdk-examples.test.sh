#!/usr/bin/env bash
# The TypeScript SDK's two task examples (tests/sdk-upstream/examples, from typescript-sdk v1.x
# 2d889f2b: simpleTaskInteractive.ts, simpleStreamableHttp.ts) run on SdkTaskStore, the store's
# import line being the only change (see tests/sdk-upstream/README.md), each driven by the SDK's
# Client (examples/client.mjs) through every task tool; fails unless every task ends completed
# with its result. Both servers call app.listen(PORT) on every interface, so the run happens in
# a network namespace of its own (`unshare -rn`) whose only interface is loopback: the servers
# are reachable on 127.0.0.1 only. Each server is stopped by its PID (also on failure).
# Needs a packed package (scripts/build.sh && scripts/pack.sh) and esbuild (tools/sdk-tests).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
OUT=target/sdk-examples
ESBUILD=tools/sdk-tests/node_modules/.bin/esbuild
say() { printf 'sdk-examples: %s\n' "$*"; }
die() { say "$*" >&2; exit 1; }

if [ "${1:-}" != "--inside" ]; then
  [ -x "$ESBUILD" ] || die "no esbuild at $ESBUILD: run scripts/setup.sh (npm ci in tools/sdk-tests)"
  [ -d tests/js/.tmp/install/node_modules/mcp-tasks-wasm ] || die "the package is not packed: run scripts/build.sh and scripts/pack.sh"
  command -v unshare >/dev/null || die "unshare (util-linux) is needed to keep the servers on loopback"
  rm -rf "$OUT" && mkdir -p "$OUT/server" "$OUT/shared" "$OUT/node_modules"
  echo '{"type":"module"}' > "$OUT/package.json"
  # 'mcp-tasks-wasm/server' (the swapped import line) resolves to the packed install; everything
  # else (the SDK, express, zod) to the root node_modules above.
  ln -s "$ROOT/tests/js/.tmp/install/node_modules/mcp-tasks-wasm" "$OUT/node_modules/mcp-tasks-wasm"
  for f in server/simpleTaskInteractive server/simpleStreamableHttp server/demoInMemoryOAuthProvider shared/inMemoryEventStore; do
    "$ESBUILD" "tests/sdk-upstream/examples/$f.ts" --format=esm --platform=node --target=node20 --outfile="$OUT/$f.js" --log-level=warning ||
      die "esbuild could not transform $f.ts"
  done
  cp tests/sdk-upstream/examples/client.mjs "$OUT/client.mjs"
  exec unshare -rn bash "$0" --inside
fi

ip link set lo up || die "cannot bring loopback up in the namespace"
cd "$OUT"
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null' EXIT
rc=0
# run <name> <port env> <port> <tool calls...>
run() {
  local name=$1 envvar=$2 port=$3; shift 3
  env "$envvar=$port" node "server/$name.js" > "$name.log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do
    node -e "fetch('http://127.0.0.1:$port/mcp').then(()=>process.exit(0),()=>process.exit(1))" && break
    kill -0 "$pid" 2>/dev/null || { cat "$name.log" >&2; say "$name exited"; rc=1; return; }
    sleep 0.2
  done
  say "$name on SdkTaskStore"
  # A task left stuck (never finished) would be polled forever: bound the whole drive generously.
  timeout 120 node client.mjs "http://127.0.0.1:$port/mcp" "$@" || { rc=1; cat "$name.log" >&2; }
  kill "$pid"; wait "$pid" 2>/dev/null; pid=""
}
run simpleTaskInteractive PORT 8765 'confirm_delete:{"filename":"a.txt"}' 'write_haiku:{"topic":"ponds"}'
run simpleStreamableHttp MCP_PORT 8766 'delay:{"duration":200}' 'collect-user-info-task:{"infoType":"contact"}' 'collect-user-info-task:{"infoType":"preferences"}'
[ "$rc" = 0 ] && say "ok (every task of both examples completed on SdkTaskStore)" || say "FAILED"
exit "$rc"
