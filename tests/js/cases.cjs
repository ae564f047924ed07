// Shared assertions of the packed package, run by node-esm.test.mjs (import) and
// node-cjs.test.cjs (require). Not a test file itself (no `.test.` in the name).
"use strict";

const V25 = "2025-11-25";

/** A valid 2025-11-25 answer to tasks/get: a flat task. */
const v25GetResult = Object.freeze({
  jsonrpc: "2.0",
  id: 7,
  result: {
    taskId: "786512e2-9e0d-44bd-8f29-789f320fe840",
    status: "working",
    statusMessage: "The operation is now in progress.",
    createdAt: "2025-11-25T10:30:00Z",
    lastUpdatedAt: "2025-11-25T10:40:00Z",
    ttl: 60000,
    pollInterval: 5000,
  },
});

/** The same answer with a negative ttl (a MUST violation: ttl is null or a non-negative integer). */
const v25GetResultNegativeTtl = Object.freeze({
  ...v25GetResult,
  result: { ...v25GetResult.result, ttl: -5 },
});

function assertReportShape(assert, r) {
  assert.equal(typeof r, "object");
  assert.notEqual(r, null);
  assert.equal(typeof r.valid, "boolean");
  assert.ok(r.version === null || r.version === "2025-11-25" || r.version === "2026-07-28", `version ${r.version}`);
  assert.ok(["option", "meta", "shape", "none"].includes(r.versionSource), `versionSource ${r.versionSource}`);
  assert.equal(typeof r.kind, "string");
  assert.ok(["request", "notification", "result", "error", "invalid"].includes(r.rpc), `rpc ${r.rpc}`);
  assert.ok(r.method === null || typeof r.method === "string");
  assert.ok(Array.isArray(r.issues));
  for (const i of r.issues) {
    assert.ok(i.severity === "error" || i.severity === "warning", `severity ${i.severity}`);
    assert.equal(typeof i.code, "string");
    assert.equal(typeof i.path, "string");
    assert.equal(typeof i.message, "string");
  }
  // valid is exactly "no error issue".
  assert.equal(r.valid, !r.issues.some((i) => i.severity === "error"));
}

/** A report that rejects the input with `code` (an error issue). */
function assertRejected(assert, r, code) {
  assertReportShape(assert, r);
  assert.equal(r.valid, false, JSON.stringify(r).slice(0, 500));
  const codes = r.issues.map((i) => i.code);
  if (code) assert.ok(codes.includes(code), `expected issue ${code}, got ${codes.join(", ")}`);
}

/**
 * Registers the shared tests.
 * @param {typeof import("node:test").test} test
 * @param {typeof import("node:assert/strict")} assert
 * @param {() => any} mod the loaded package (called when the tests run)
 */
function define(test, assert, mod) {
  test("exports validateMessage and rules", () => {
    assert.equal(typeof mod().validateMessage, "function");
    assert.equal(typeof mod().rules, "function");
  });

  test("a valid V25 tasks/get result (object, inReplyTo) is valid 2025-11-25", () => {
    const r = mod().validateMessage(v25GetResult, { inReplyTo: "tasks/get" });
    assertReportShape(assert, r);
    assert.equal(r.valid, true, JSON.stringify(r.issues));
    assert.equal(r.version, V25);
    assert.equal(r.rpc, "result");
    assert.deepEqual(r.issues.filter((i) => i.severity === "error"), []);
  });

  test("the same result as JSON text is valid 2025-11-25", () => {
    const r = mod().validateMessage(JSON.stringify(v25GetResult), { inReplyTo: "tasks/get" });
    assert.equal(r.valid, true, JSON.stringify(r.issues));
    assert.equal(r.version, V25);
  });

  test("an explicit version option is reported as the version source", () => {
    const r = mod().validateMessage(v25GetResult, { version: V25, inReplyTo: "tasks/get" });
    assert.equal(r.valid, true, JSON.stringify(r.issues));
    assert.equal(r.version, V25);
    assert.equal(r.versionSource, "option");
  });

  test("ttl: -5 gives an error issue at the ttl member", () => {
    const r = mod().validateMessage(v25GetResultNegativeTtl, { inReplyTo: "tasks/get" });
    assertRejected(assert, r);
    const atTtl = r.issues.filter((i) => i.severity === "error" && i.path.endsWith("/ttl"));
    assert.ok(atTtl.length > 0, `expected an error at …/ttl, got ${JSON.stringify(r.issues)}`);
  });

  test("text that is not JSON gives not-json and does not throw", () => {
    const r = mod().validateMessage('{"jsonrpc": "2.0", ');
    assertRejected(assert, r, "not-json");
    assert.equal(r.rpc, "invalid");
  });

  test("a 10 MB string gives a report", () => {
    const r = mod().validateMessage("x".repeat(10 * 1024 * 1024));
    assertRejected(assert, r, "not-json");
  });

  test("a 10 MB JSON message gives a report", () => {
    const big = JSON.stringify({ ...v25GetResult, result: { ...v25GetResult.result, statusMessage: "y".repeat(10 * 1024 * 1024) } });
    const r = mod().validateMessage(big, { inReplyTo: "tasks/get" });
    assertReportShape(assert, r);
  });

  test("a message over maxBytes gives too-large", () => {
    const r = mod().validateMessage(JSON.stringify(v25GetResult), { maxBytes: 64 });
    assertRejected(assert, r, "too-large");
  });

  test("10,000 levels of nesting give too-deep, not a stack overflow", () => {
    assertRejected(assert, mod().validateMessage("[".repeat(10000)), "too-deep");
    assertRejected(assert, mod().validateMessage("[".repeat(10000) + "]".repeat(10000)), "too-deep");
  });

  test("a non-object message gives not-object", () => {
    for (const m of [42, "42", null, "null", true, "[]", [], '"text"']) {
      assertRejected(assert, mod().validateMessage(m), "not-object");
    }
  });

  test("JS values JSON cannot carry give not-json-value", () => {
    const cyclic = { jsonrpc: "2.0" };
    cyclic.self = cyclic;
    for (const m of [undefined, () => 1, Symbol("s"), 10n, cyclic, { jsonrpc: "2.0", id: NaN }]) {
      assertRejected(assert, mod().validateMessage(m), "not-json-value");
    }
  });

  test("malformed options throw an Error, a bad message never does", () => {
    assert.throws(() => mod().validateMessage(v25GetResult, { version: "1999-01-01" }), Error);
  });

  test("after bad inputs the instance still works", () => {
    const { validateMessage } = mod();
    validateMessage("[".repeat(10000));
    validateMessage("x".repeat(1024 * 1024));
    validateMessage(Symbol("s"));
    try {
      validateMessage(v25GetResult, { version: "bad" });
    } catch {
      // expected
    }
    for (let n = 0; n < 200; n++) validateMessage("{");
    const r = validateMessage(v25GetResult, { inReplyTo: "tasks/get" });
    assert.equal(r.valid, true, JSON.stringify(r.issues));
    assert.equal(r.version, V25);
  });

  test("rules() is a non-empty table of {code, severity, spec, summary}", () => {
    const rules = mod().rules();
    assert.ok(Array.isArray(rules));
    assert.ok(rules.length > 0);
    for (const r of rules) {
      assert.deepEqual(Object.keys(r).sort(), ["code", "severity", "spec", "summary"]);
      assert.match(r.code, /^[a-z0-9-]+$/);
      assert.ok(r.severity === "error" || r.severity === "warning");
      assert.equal(typeof r.spec, "string");
      assert.ok(r.summary.length > 0);
    }
    const codes = rules.map((r) => r.code);
    assert.equal(new Set(codes).size, codes.length, "codes are unique");
    for (const c of ["not-json", "too-deep", "too-large", "not-object", "not-json-value"]) {
      assert.ok(codes.includes(c), `rules() lists ${c}`);
    }
  });
}

module.exports = { define, v25GetResult, v25GetResultNegativeTtl, assertReportShape, assertRejected };
