#!/usr/bin/env bash
# The TypeScript SDK's own v1 task tests (tests/sdk-upstream, copied from
# modelcontextprotocol/typescript-sdk with import lines as the only change; see its README) run
# with vitest (tools/sdk-tests) twice:
#   control  the SDK's InMemoryTaskStore (@modelcontextprotocol/sdk 1.32.2): must pass fully;
#   ours     SdkTaskStore from the packed package (scripts/pack.sh) in its place (an import alias).
# Every test failing on ours must be listed in tests/sdk-upstream/expected-differences.json with
# its reason; the script fails on an unlisted failure, on a listed test that now passes or no
# longer exists (stale entry: remove it), and on any control failure.
# Results: target/sdk-upstream/{control,ours}.json (vitest's JSON reporter) and .log.
# test/server/index.test.ts drives express apps with supertest, which listens on every
# interface (app.listen(0)): each run happens in a network namespace of its own (`unshare -rn`)
# whose only interface is loopback, so whatever the tests start is reachable on 127.0.0.1 only.
# Those servers live inside vitest's own workers (supertest closes each after its request) and
# end with the run; the tests start no other process.
set -uo pipefail
cd "$(dirname "$0")/../.."

OUT=target/sdk-upstream
TOOLS=tools/sdk-tests
VITEST=$TOOLS/node_modules/vitest/vitest.mjs
EXPECTED=tests/sdk-upstream/expected-differences.json

say() { printf 'sdk-upstream: %s\n' "$*"; }
die() { say "$*" >&2; exit 1; }

[ -f "$VITEST" ] || die "no vitest at $VITEST: run scripts/setup.sh (npm ci in $TOOLS)"
[ -f tests/js/.tmp/install/node_modules/mcp-tasks-wasm/server/node.mjs ] ||
  die "the package is not packed and installed: run scripts/build.sh and scripts/pack.sh"
[ -f "$EXPECTED" ] || die "no $EXPECTED"
command -v unshare >/dev/null || die "unshare (util-linux) is needed to keep the tests' servers on loopback"

rm -rf "$OUT"
mkdir -p "$OUT"
for store in control ours; do
  say "running the SDK's task tests on $store"
  SDK_STORE=$store unshare -rn bash -c 'ip link set lo up && exec "$@"' - \
    node "$VITEST" run --config "$TOOLS/vitest.config.mjs" \
    --reporter=default --reporter=json --outputFile.json="$PWD/$OUT/$store.json" >"$OUT/$store.log" 2>&1
  [ -f "$OUT/$store.json" ] || { cat "$OUT/$store.log" >&2; die "vitest wrote no results for $store"; }
done

node - "$OUT" "$EXPECTED" <<'JS'
const { readFileSync } = require("node:fs");
const [out, expectedFile] = process.argv.slice(2);
const read = (store) => {
  const r = JSON.parse(readFileSync(`${out}/${store}.json`, "utf8"));
  const tests = new Map();
  for (const f of r.testResults) {
    const file = f.name.replace(/^.*\/tests\/sdk-upstream\//, "");
    // Upstream repeats some full names within a file (test/server/mcp.test.ts has two describe
    // blocks of the same name): the n-th repeat is keyed "<name> [n]", so that every test counts.
    for (const t of f.assertionResults) {
      let key = `${file} > ${t.fullName}`;
      for (let n = 2; tests.has(key); n++) key = `${file} > ${t.fullName} [${n}]`;
      tests.set(key, t);
    }
    // A file that failed to load has no assertion results: count it as a failure of its own.
    if (f.status === "failed" && f.assertionResults.length === 0) tests.set(`${file} > (file)`, { status: "failed", failureMessages: [f.message] });
  }
  return tests;
};
const first = (t) => String(t.failureMessages?.[0] ?? "").split("\n")[0].slice(0, 300);
const control = read("control"), ours = read("ours");
const expected = JSON.parse(readFileSync(expectedFile, "utf8")).differences;
let bad = 0;
const count = (m) => [...m.values()].filter((t) => t.status === "passed").length;
console.log(`control (InMemoryTaskStore): ${count(control)}/${control.size} passed`);
console.log(`ours (SdkTaskStore):         ${count(ours)}/${ours.size} passed`);
if (control.size === 0) { console.log("no tests ran"); bad++; }
for (const [name, t] of control) {
  if (t.status !== "passed" && t.status !== "skipped" && t.status !== "pending") { bad++; console.log(`CONTROL FAILS  ${name}\n    ${first(t)}`); }
}
for (const [name, t] of ours) {
  if (t.status === "passed" || t.status === "skipped" || t.status === "pending") continue;
  if (name in expected) console.log(`expected       ${name}\n    because: ${expected[name]}`);
  else { bad++; console.log(`UNLISTED FAIL  ${name}\n    ${first(t)}`); }
}
for (const name of Object.keys(expected)) {
  const t = ours.get(name);
  if (!t) { bad++; console.log(`STALE (no such test)  ${name}`); }
  else if (t.status === "passed") { bad++; console.log(`STALE (now passes)    ${name}`); }
}
console.log(bad ? `sdk-upstream: ${bad} unexpected result(s)` : `sdk-upstream: ok (every difference is listed in ${expectedFile})`);
process.exit(bad ? 1 : 0);
JS
