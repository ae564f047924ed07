// The package in Deno, with no permission flags: deno.js compiles the .wasm through a
// source-phase import, so neither --allow-read nor --allow-net is needed. Imports the packed
// package as npm installed it (scripts/pack.sh), by its `deno` export.
import { assert, assertEquals, assertThrows } from "./assert.ts";
import pkgJson from "../js/.tmp/install/node_modules/mcp-tasks-wasm/package.json" with { type: "json" };
import { rules, validateMessage } from "../js/.tmp/install/node_modules/mcp-tasks-wasm/deno.js";
import type { ValidationReport } from "../js/.tmp/install/node_modules/mcp-tasks-wasm/deno.js";

const v25GetResult = {
  jsonrpc: "2.0",
  id: 7,
  result: {
    taskId: "786512e2-9e0d-44bd-8f29-789f320fe840",
    status: "working",
    createdAt: "2025-11-25T10:30:00Z",
    lastUpdatedAt: "2025-11-25T10:40:00Z",
    ttl: 60000,
    pollInterval: 5000,
  },
};

function codes(r: ValidationReport): string[] {
  return r.issues.map((i) => i.code);
}

Deno.test("the deno export condition names deno.js", () => {
  assertEquals(pkgJson.exports["."].deno.default, "./deno.js");
});

Deno.test("a valid V25 tasks/get result is valid 2025-11-25", () => {
  const r = validateMessage(v25GetResult, { inReplyTo: "tasks/get" });
  assertEquals(r.valid, true, JSON.stringify(r.issues));
  assertEquals(r.version, "2025-11-25");
});

Deno.test("ttl: -5 gives an error issue", () => {
  const bad = { ...v25GetResult, result: { ...v25GetResult.result, ttl: -5 } };
  const r = validateMessage(bad, { inReplyTo: "tasks/get" });
  assertEquals(r.valid, false);
  assert(r.issues.some((i) => i.severity === "error" && i.path.endsWith("/ttl")), JSON.stringify(r.issues));
});

Deno.test("not JSON, 10 MB and deep nesting give reports, never throw", () => {
  assert(codes(validateMessage("{")).includes("not-json"));
  assert(codes(validateMessage("x".repeat(10 * 1024 * 1024))).includes("not-json"));
  assert(codes(validateMessage("[".repeat(10000))).includes("too-deep"));
});

Deno.test("a non-object gives not-object", () => {
  const r = validateMessage(42);
  assert(codes(r).includes("not-object"), JSON.stringify(r.issues));
});

Deno.test("the instance still works after bad input", () => {
  validateMessage("[".repeat(10000));
  validateMessage("{");
  const r = validateMessage(v25GetResult, { inReplyTo: "tasks/get" });
  assertEquals(r.valid, true, JSON.stringify(r.issues));
  assertEquals(r.version, "2025-11-25");
});

Deno.test("malformed options throw", () => {
  assertThrows(() => validateMessage(v25GetResult, { version: "1999-01-01" as "2025-11-25" }));
});

Deno.test("rules() is a non-empty table", () => {
  const table = rules();
  assert(table.length > 0);
  for (const r of table) {
    assertEquals(Object.keys(r).sort(), ["code", "severity", "spec", "summary"]);
  }
});
