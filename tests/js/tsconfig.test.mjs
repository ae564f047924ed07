// tsconfig.json type-checks the TypeScript sources of js/ in place (`npx tsc --noEmit -p .`), with
// the wasm-bindgen declarations of scripts/glue-types.sh in target/glue-types/ (after
// scripts/build.sh, from its release module: RELEASE=1, no second compile) and nothing from pkg/.
// And FROM_SOURCE=1 runs the storage contract on the adapters' TypeScript sources (tsc alone: no
// release build, no pack), as HACKING says.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const TSC = join(ROOT, "node_modules", ".bin", "tsc");

/** Every TypeScript source under js/, relative to the root. */
function sources(dir = join(ROOT, "js"), out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (/\.m?ts$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(relative(ROOT, p));
  }
  return out.sort();
}

test("tsc --noEmit -p . checks every source of js/ in place, against target/glue-types", () => {
  execFileSync("bash", ["scripts/glue-types.sh"], { cwd: ROOT, env: { ...process.env, RELEASE: "1" }, stdio: "pipe" });
  let out = "";
  try {
    out = execFileSync(TSC, ["--noEmit", "-p", ".", "--listFiles"], { cwd: ROOT, encoding: "utf8", stdio: "pipe" });
  } catch (e) {
    assert.fail(`tsc --noEmit -p . failed:\n${e.stdout}${e.stderr}`);
  }
  const files = out.trim().split("\n").map((f) => relative(ROOT, f));
  for (const f of sources()) assert.ok(files.includes(f), `${f} is checked`);
  assert.ok(files.includes("target/glue-types/mcp_tasks_wasm.d.ts"), "the glue's declarations come from target/glue-types");
  assert.ok(files.includes("target/glue-types/node.d.mts"), "js/cli.mts's ./node.mjs resolves to target/glue-types");
  assert.deepEqual(files.filter((f) => f.startsWith("pkg/")), [], "nothing is read from pkg/");
});

test("FROM_SOURCE=1: the storage contract runs on js/server/storage compiled by tsc alone", () => {
  // A child of its own, not a subtest of this run (node:test tells its children by this variable).
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  let out = "";
  try {
    out = execFileSync(process.execPath, ["--test", "--test-reporter=tap", "tests/js/storage/memory.test.mjs"], {
      cwd: ROOT, env: { ...env, FROM_SOURCE: "1" }, encoding: "utf8", stdio: "pipe",
    });
  } catch (e) {
    assert.fail(`FROM_SOURCE=1 node --test tests/js/storage/memory.test.mjs failed:\n${e.stdout}${e.stderr}`);
  }
  const passed = Number(/^# pass (\d+)/m.exec(out)?.[1] ?? 0);
  assert.ok(passed > 0, `the contract ran (${passed} passed)`);
  assert.match(out, /^# fail 0$/m);
});
