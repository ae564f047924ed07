// A call's `arguments` checked against the tool's inputSchema before anything runs, in both eras,
// synchronous and task calls, over HTTP (examples/conformance-server.mjs) and stdio
// (examples/stdio-server.mjs): slow_compute declares `seconds: number`, so `{ seconds: "seven" }`
// is answered with a tool execution error (isError, SEP-1303) naming `/seconds`, and no task exists.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startExample } from "../example-server.mjs";

const { validateMessage } = await import("../.tmp/install/server.mjs");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const STDIO = fileURLToPath(new URL("../../../examples/stdio-server.mjs", import.meta.url));
const BAD = { seconds: "seven" };

/** @type {import("node:child_process").ChildProcess} */
let server;
let url = "";
let nextId = 1;

before(async () => {
  ({ url, process: server } = await startExample());
});
after(() => server?.kill());

function assertBadArguments(result) {
  assert.equal(result.isError, true, JSON.stringify(result));
  assert.equal(result.task, undefined);
  assert.equal(result.taskId, undefined);
  const text = result.content.map((c) => c.text).join("\n");
  assert.match(text, /Invalid arguments for tool slow_compute/);
  assert.match(text, /\/seconds: expected number, found string/);
  assert.doesNotMatch(text, /done after/);
}

async function post(body, headers) {
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify(body) });
  const raw = await res.text();
  const data = res.headers.get("content-type")?.startsWith("text/event-stream")
    ? raw.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6))).at(-1)
    : raw ? JSON.parse(raw) : null;
  return { res, message: data };
}

async function v26(method, params, ext) {
  const caps = ext ? { extensions: { [EXT]: {} } } : {};
  const body = { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": caps } } };
  const headers = { "MCP-Protocol-Version": V26, "Mcp-Method": method };
  if (method === "tools/call") headers["Mcp-Name"] = params.name;
  const { message } = await post(body, headers);
  const report = validateMessage(message, { version: V26, inReplyTo: method });
  assert.ok(report.valid, JSON.stringify(report.issues));
  return message;
}

test("2026-07-28 over HTTP: bad arguments are a tool error, synchronous or task, and no task is created", async () => {
  for (const ext of [false, true]) {
    const m = await v26("tools/call", { name: "slow_compute", arguments: BAD }, ext);
    assert.equal(m.result.resultType, "complete");
    assertBadArguments(m.result);
  }
  // Good arguments still run (and, declared, become a task).
  const ok = await v26("tools/call", { name: "slow_compute", arguments: { seconds: 0, label: "x" } }, false);
  assert.equal(ok.result.isError, undefined);
  assert.match(ok.result.content[0].text, /x: done after 0 s/);
  const task = await v26("tools/call", { name: "slow_compute", arguments: { seconds: 0 } }, true);
  assert.equal(task.result.resultType, "task");
});

test("2025-11-25 over HTTP: bad arguments are a tool error, synchronous or task-augmented, and no task is created", async () => {
  const init = await post({ jsonrpc: "2.0", id: nextId++, method: "initialize", params: { protocolVersion: V25, capabilities: {}, clientInfo: { name: "t", version: "1" } } }, {});
  const session = init.res.headers.get("mcp-session-id");
  assert.ok(session);
  const h = { "Mcp-Session-Id": session, "MCP-Protocol-Version": V25 };
  await post({ jsonrpc: "2.0", method: "notifications/initialized" }, h);
  for (const task of [undefined, { ttl: 60000 }]) {
    const params = { name: "slow_compute", arguments: BAD };
    if (task) params.task = task;
    const { message } = await post({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params }, h);
    assert.ok(validateMessage(message, { version: V25, inReplyTo: "tools/call" }).valid);
    assertBadArguments(message.result);
  }
  const list = await post({ jsonrpc: "2.0", id: nextId++, method: "tasks/list", params: {} }, h);
  assert.deepEqual(list.message.result.tasks, []);
  // A wrong type at the root: the whole `arguments` is named.
  const { message } = await post({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "slow_compute", arguments: { seconds: -1 } } }, h);
  assert.equal(message.result.isError, true);
  assert.match(message.result.content[0].text, /\/seconds: expected a number >= 0, found -1/);
});

test("stdio: the same answer in both eras, synchronous and task calls", async () => {
  const child = spawn(process.execPath, [STDIO], { stdio: ["pipe", "pipe", "inherit"] });
  try {
    const pending = new Map();
    let buffered = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (t) => {
      buffered += t;
      let nl;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        const m = JSON.parse(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        pending.get(m.id)?.(m);
      }
    });
    let id = 1;
    const request = (method, params) => new Promise((resolve) => {
      const mid = id++;
      pending.set(mid, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: mid, method, params })}\n`);
    });
    const meta = (ext) => ({ "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": ext ? { extensions: { [EXT]: {} } } : {} });
    for (const ext of [false, true]) {
      const m = await request("tools/call", { name: "slow_compute", arguments: BAD, _meta: meta(ext) });
      assertBadArguments(m.result);
    }
    await request("initialize", { protocolVersion: V25, capabilities: {}, clientInfo: { name: "t", version: "1" } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    for (const task of [undefined, { ttl: 60000 }]) {
      const params = { name: "slow_compute", arguments: BAD };
      if (task) params.task = task;
      assertBadArguments((await request("tools/call", params)).result);
    }
    assert.deepEqual((await request("tasks/list", {})).result.tasks, []);
  } finally {
    child.kill();
  }
});
