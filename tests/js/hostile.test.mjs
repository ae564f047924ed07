// Hostile input at the boundary of the built package (issue 10): bounds that hold before any
// copy into wasm memory, lone surrogates, tampered snapshots. Imports the installed package
// (scripts/pack.sh) the way a user does; the wasm memory is read from the glue's `initSync()`,
// which answers the exports of the instance the entry already initialised.
import { test } from "node:test";
import assert from "node:assert/strict";

const main = await import("./.tmp/install/esm.mjs");
const server = await import("./.tmp/install/server.mjs");
const MAIN_DIR = "./.tmp/install/node_modules/mcp-tasks-wasm";
const mainWasm = (await import(`${MAIN_DIR}/mcp_tasks_wasm.js`)).initSync();
const serverWasm = (await import(`${MAIN_DIR}/server/mcp_tasks_wasm.js`)).initSync();

const { validateMessage, Conversation } = main;

test("the installed entries are the instances whose memory is measured", () => {
  assert.ok(mainWasm.memory instanceof WebAssembly.Memory);
  assert.ok(serverWasm.memory instanceof WebAssembly.Memory);
  assert.notEqual(mainWasm.memory, serverWasm.memory);
});

// Issue 10 item 5: `maxBytes` is checked before the text is copied into wasm memory.
test("maxBytes refuses a 500 MB string without growing wasm memory", () => {
  const memory = mainWasm.memory;
  // Warm up the allocator with a refused medium string and a small valid message.
  validateMessage("x".repeat(4096), { maxBytes: 1024 });
  validateMessage('{"jsonrpc":"2.0","id":1,"method":"ping"}');
  const before = memory.buffer.byteLength;
  const huge = "x".repeat(5e8);
  const report = validateMessage(huge, { maxBytes: 1024 });
  assert.equal(report.valid, false);
  assert.deepEqual(
    report.issues.map((i) => i.code),
    ["too-large"],
  );
  // The default limit (16 MiB) refuses it too, still without a copy.
  assert.equal(validateMessage(huge).issues[0].code, "too-large");
  const conversation = new Conversation({ maxBytes: 1024 });
  assert.equal(conversation.observe(huge).issues[0].code, "too-large");
  assert.equal(new Conversation().observe(huge).issues[0].code, "too-large");
  assert.equal(memory.buffer.byteLength, before, "wasm memory grew");
});

test("maxBytes counts UTF-8 bytes: a string of few units but many bytes is refused", () => {
  const memory = mainWasm.memory;
  const before = memory.buffer.byteLength;
  // 1000 units, 3000 bytes of UTF-8 (inside a JSON string).
  const text = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { s: "€".repeat(1000) } });
  assert.equal(validateMessage(text, { maxBytes: 2000 }).issues[0].code, "too-large");
  assert.equal(validateMessage(text, { maxBytes: 4000 }).valid, true);
  // An astral character: 2 units, 4 bytes.
  const astral = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { s: "😀".repeat(300) } });
  const bytes = new TextEncoder().encode(astral).length;
  assert.equal(validateMessage(astral, { maxBytes: bytes - 1 }).issues[0].code, "too-large");
  assert.equal(validateMessage(astral, { maxBytes: bytes }).valid, true);
  // An object is measured by its JSON text.
  const obj = { jsonrpc: "2.0", id: 1, method: "ping", params: { s: "x".repeat(5000) } };
  assert.equal(validateMessage(obj, { maxBytes: 1024 }).issues[0].code, "too-large");
  assert.equal(memory.buffer.byteLength, before, "wasm memory grew");
});

// Issue 10 item 4: a report lists at most `maxIssues` issues (default 100), then one
// `issues-truncated` warning that counts the rest.
test("a 10 MB invalid message gives a bounded report; maxIssues sets the cap", () => {
  const bad = { taskId: 1, status: "nope", createdAt: "x", lastUpdatedAt: "y" };
  const tasks = Array.from({ length: 100_000 }, () => bad);
  const text = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tasks } });
  assert.ok(text.length > 6e6);
  const options = { version: "2025-11-25", inReplyTo: "tasks/list" };
  const report = validateMessage(text, options);
  assert.equal(report.valid, false);
  assert.equal(report.issues.length, 101);
  const last = report.issues[100];
  assert.equal(last.code, "issues-truncated");
  assert.equal(last.severity, "warning");
  assert.match(last.message, /^\d+ more issue\(s\) \(\d+ error\(s\)\)/);
  assert.ok(JSON.stringify(report).length < 64 * 1024);
  assert.equal(validateMessage(text, { ...options, maxIssues: 3 }).issues.length, 4);
  const conversation = new Conversation({ version: "2025-11-25", maxIssues: 7 });
  conversation.observe({ jsonrpc: "2.0", id: 1, method: "tasks/list", params: {} });
  const observed = conversation.observe(text);
  assert.equal(observed.issues.length, 8);
  assert.equal(observed.issues[7].code, "issues-truncated");
  assert.throws(() => validateMessage(text, { maxIssues: -1 }), TypeError);
  assert.throws(() => new Conversation({ maxIssues: "many" }), TypeError);
});
