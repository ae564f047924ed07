// The packed package, installed with npm into tests/js/.tmp/install (scripts/pack.sh), loaded
// through `import "mcp-tasks-wasm"`: Node picks exports → node → default → node.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";

import cases from "./cases.cjs";

const shim = new URL("./.tmp/install/esm.mjs", import.meta.url);
if (!existsSync(shim)) {
  throw new Error("tests/js/.tmp/install is missing: run `bash scripts/build.sh && bash scripts/pack.sh`");
}
const pkg = await import(shim.href);

test("import resolves to node.mjs of the installed package", () => {
  assert.match(pkg.resolved, /\/\.tmp\/install\/node_modules\/mcp-tasks-wasm\/node\.mjs$/);
});

test("the installed package.json routes every runtime", () => {
  const require = createRequire(shim);
  const json = require("mcp-tasks-wasm/package.json");
  const root = json.exports["."];
  assert.equal(json.type, "module");
  assert.equal(json.types, "./main.d.cts");
  assert.equal(root.deno.default, "./deno.js");
  assert.equal(root.node.require.default, "./main.cjs"); // the nodejs glue (node.cjs) + the JS helpers
  assert.equal(root.node.default.default, "./node.mjs");
  assert.equal(root.browser.default, "./browser.js");
  // No "./": npm publish rewrites "./cli.mjs" to "cli.mjs" with a warning (tests/js/pkg-lint.test.sh).
  assert.equal(json.bin["mcp-tasks"], "cli.mjs");
  assert.equal(json.bin["mcp-tasks-wasm"], "cli.mjs"); // npx mcp-tasks-wasm: the package's own name
});

test("the ESM entry exports functions only (no default, no init)", () => {
  assert.equal(pkg.default, undefined);
  assert.equal(pkg.init, undefined);
});

cases.define(test, assert, () => pkg);
