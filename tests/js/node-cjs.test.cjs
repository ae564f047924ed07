// The packed package, installed with npm into tests/js/.tmp/install (scripts/pack.sh), loaded
// through `require("mcp-tasks-wasm")`: Node picks exports → node → require → main.cjs (the nodejs glue node.cjs and the JS helpers).
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const { existsSync } = require("node:fs");
const { createRequire } = require("node:module");
const path = require("node:path");

const cases = require("./cases.cjs");

const installDir = path.join(__dirname, ".tmp", "install");
if (!existsSync(path.join(installDir, "node_modules", "mcp-tasks-wasm"))) {
  throw new Error("tests/js/.tmp/install is missing: run `bash scripts/build.sh && bash scripts/pack.sh`");
}
const requireInstalled = createRequire(path.join(installDir, "package.json"));
const pkg = requireInstalled("mcp-tasks-wasm");

test("require resolves to main.cjs of the installed package", () => {
  const resolved = requireInstalled.resolve("mcp-tasks-wasm");
  assert.equal(resolved, path.join(installDir, "node_modules", "mcp-tasks-wasm", "main.cjs"));
});

test("require and import are separate instances that both work", async () => {
  const esm = await import(require("node:url").pathToFileURL(path.join(installDir, "esm.mjs")).href);
  const a = pkg.validateMessage("{");
  const b = esm.validateMessage("{");
  assert.deepEqual(a, b);
});

cases.define(test, assert, () => pkg);

test("require gives the JS helpers too (TaskClient, its errors, requestVia, the HTTP connection)", () => {
  for (const name of ["TaskClient", "TaskFailedError", "TaskCancelledError", "TaskExpiredError", "ProtocolError", "requestVia", "TaskScheduler", "HttpConnection", "HttpError", "RpcError", "TransportError", "VersionError"]) {
    assert.equal(typeof pkg[name], "function", name);
  }
  assert.equal(typeof pkg.TaskClient.connect, "function");
  assert.throws(() => new pkg.TaskClient({}), TypeError);
});
