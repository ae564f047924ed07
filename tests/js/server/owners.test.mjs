// Who owns a task, over HTTP, through the packed and installed package: owner-server.mjs (beside
// this file) run as a process on 127.0.0.1, stopped by its PID, its requests authenticated by a
// stand-in middleware (`Authorization: Bearer <subject>` → `req.auth`). Two principals, alice
// and bob, in both eras:
// - 2026-07-28: bob (and a caller without auth) gets for alice's task exactly what an unknown id
//   gets (-32602) from tasks/get, tasks/update and tasks/cancel, and subscriptions/listen leaves
//   it out of the acknowledgement; alice reads and cancels it (§D 38, §B.h security);
// - 2025-11-25: alice's session is hers: bob's requests with its id (tasks/get, tasks/result,
//   tasks/cancel, tasks/list, the answer to the task's input request, the GET stream) find no
//   such session (404); in his own session bob sees none of her tasks;
// - one session holds 1,000 live tasks (the per-session cap is 10,000 by default);
// - a tool's own poll interval and TTL bounds show in its tasks, in both eras.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { post as postTo } from "./raw-http.mjs";

const SERVER = fileURLToPath(new URL("./owner-server.mjs", import.meta.url));
const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const UNKNOWN = "0123456789abcdef0123456789abcdef";

let child;
let url;
before(async () => {
  child = spawn(process.execPath, [SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
      if (m) resolve(m[0]);
    });
    child.once("exit", (code) => reject(new Error(`owner-server exited (${code}) before listening`)));
  });
});
after(() => {
  if (child && child.exitCode === null && child.signalCode === null) process.kill(child.pid);
});

let nextId = 1;
const auth = (who) => (who === null ? {} : { Authorization: `Bearer ${who}` });

/** POSTs `message`; `{ status, body }` (an SSE answer: its last message). */
const post = (message, headers = {}) => postTo(url, message, headers);

// ---- 2026-07-28 ----------------------------------------------------------------------------------

const meta = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: { [EXT]: {} } } };

/** One 2026-07-28 request as `who` (`null`: no auth): its JSON-RPC answer. */
async function modern(who, method, params = {}) {
  const headers = { "MCP-Protocol-Version": V26, "Mcp-Method": method, ...auth(who) };
  if (typeof params.taskId === "string") headers["Mcp-Name"] = params.taskId;
  else if (method === "tools/call") headers["Mcp-Name"] = params.name;
  const r = await post({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta } }, headers);
  return r.body;
}

async function createModern(who, tool = "wait") {
  const r = await modern(who, "tools/call", { name: tool, arguments: {} });
  assert.equal(r.result?.resultType, "task", JSON.stringify(r));
  return r.result;
}

const modernParams = (method, taskId) =>
  method === "tasks/update" ? { taskId, inputResponses: { q: { action: "accept", content: { go: true } } } } : { taskId };

test("2026-07-28: another principal's task answers exactly as an unknown id, and stays the owner's", async () => {
  const task = await createModern("alice");
  for (const who of ["bob", null]) {
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const foreign = await modern(who, method, modernParams(method, task.taskId));
      const unknown = await modern(who, method, modernParams(method, UNKNOWN));
      assert.equal(foreign.error?.code, -32602, `${who} ${method}: ${JSON.stringify(foreign)}`);
      assert.deepEqual(foreign.error, unknown.error, `${who} ${method}`);
    }
  }
  const got = await modern("alice", "tasks/get", { taskId: task.taskId });
  assert.equal(got.result?.status, "working", JSON.stringify(got));
  const cancelled = await modern("alice", "tasks/cancel", { taskId: task.taskId });
  assert.ok(cancelled.result, JSON.stringify(cancelled));
  assert.equal((await modern("alice", "tasks/get", { taskId: task.taskId })).result?.status, "cancelled");
});

test("2026-07-28: subscriptions/listen leaves another principal's task out", async () => {
  const task = await createModern("alice");
  const listen = async (who) => {
    const controller = new AbortController();
    const res = await fetch(url, {
      method: "POST",
      signal: controller.signal,
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": V26, "Mcp-Method": "subscriptions/listen", ...auth(who) },
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "subscriptions/listen", params: { notifications: { taskIds: [task.taskId] }, _meta: meta } }),
    });
    assert.equal(res.status, 200);
    // The acknowledgement is the first event on the stream.
    const reader = res.body.getReader();
    let raw = "";
    for (let i = 0; i < 100 && !/\n\n/.test(raw.slice(raw.indexOf("data: "))); i++) {
      const { done, value } = await reader.read();
      if (done) break;
      raw += new TextDecoder().decode(value);
    }
    controller.abort();
    const line = raw.split("\n").find((l) => l.startsWith("data: "));
    return JSON.parse(line.slice(6));
  };
  const bob = await listen("bob");
  assert.equal(bob.method, "notifications/subscriptions/acknowledged");
  assert.deepEqual(bob.params.notifications.taskIds, []);
  const alice = await listen("alice");
  assert.deepEqual(alice.params.notifications.taskIds, [task.taskId]);
  await modern("alice", "tasks/cancel", { taskId: task.taskId });
});

test("a tool's poll interval and TTL bounds apply to its tasks, in both eras", async () => {
  const task = await createModern("alice", "tuned");
  assert.equal(task.pollIntervalMs, 250);
  assert.equal(task.ttlMs, 5_000);
  await modern("alice", "tasks/cancel", { taskId: task.taskId });
  const session = await openSession("alice");
  const r = await legacy(session, "alice", "tools/call", { name: "tuned", arguments: {}, task: { ttl: 60_000 } });
  assert.equal(r.body.result?.task?.pollInterval, 250, JSON.stringify(r.body));
  assert.equal(r.body.result.task.ttl, 30_000);
  await legacy(session, "alice", "tasks/cancel", { taskId: r.body.result.task.taskId });
});

// ---- 2025-11-25 ----------------------------------------------------------------------------------

async function openSession(who) {
  const r = await post(
    { jsonrpc: "2.0", id: nextId++, method: "initialize", params: { protocolVersion: V25, capabilities: { elicitation: {} }, clientInfo: { name: "t", version: "1" } } },
    auth(who),
  );
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.headers.get("mcp-session-id");
}

/** One 2025-11-25 request in `session` as `who`: `{ status, body }`. */
function legacy(session, who, method, params = {}) {
  return post({ jsonrpc: "2.0", id: nextId++, method, params }, { "Mcp-Session-Id": session, "MCP-Protocol-Version": V25, ...auth(who) });
}

test("2025-11-25: a session is its principal's: another one's requests with its id find no session", async () => {
  const mine = await openSession("alice");
  const created = await legacy(mine, "alice", "tools/call", { name: "wait", arguments: {}, task: { ttl: 60_000 } });
  const taskId = created.body.result.task.taskId;
  for (const who of ["bob", null]) {
    for (const [method, params] of [["tasks/get", { taskId }], ["tasks/result", { taskId }], ["tasks/cancel", { taskId }], ["tasks/list", {}], ["tools/call", { name: "wait", arguments: {}, task: {} }]]) {
      const r = await legacy(mine, who, method, params);
      assert.equal(r.status, 404, `${who} ${method} in alice's session: ${JSON.stringify(r.body)}`);
    }
    const stream = await fetch(url, { headers: { Accept: "text/event-stream", "Mcp-Session-Id": mine, ...auth(who) } });
    assert.equal(stream.status, 404, `${who}: GET stream of alice's session`);
    await stream.body?.cancel();
    const end = await fetch(url, { method: "DELETE", headers: { "Mcp-Session-Id": mine, ...auth(who) } });
    assert.equal(end.status, 404, `${who}: DELETE of alice's session`);
  }
  // In his own session bob sees none of alice's tasks, as for an unknown id.
  const his = await openSession("bob");
  for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
    const foreign = await legacy(his, "bob", method, { taskId });
    const unknown = await legacy(his, "bob", method, { taskId: UNKNOWN });
    assert.equal(foreign.body.error?.code, -32602, `${method}: ${JSON.stringify(foreign.body)}`);
    assert.deepEqual(foreign.body.error, unknown.body.error, method);
  }
  assert.deepEqual((await legacy(his, "bob", "tasks/list")).body.result.tasks, []);
  // Alice's session and task are untouched.
  assert.equal((await legacy(mine, "alice", "tasks/get", { taskId })).body.result?.status, "working");
  assert.deepEqual((await legacy(mine, "alice", "tasks/list")).body.result.tasks.map((t) => t.taskId), [taskId]);
  await legacy(mine, "alice", "tasks/cancel", { taskId });
});

test("2025-11-25: another principal cannot answer a task's input request", async () => {
  const mine = await openSession("alice");
  const created = await legacy(mine, "alice", "tools/call", { name: "ask", arguments: {}, task: { ttl: 60_000 } });
  const taskId = created.body.result.task.taskId;
  for (let i = 0; i < 2000; i++) {
    if ((await legacy(mine, "alice", "tasks/get", { taskId })).body.result.status === "input_required") break;
    await new Promise((r) => setTimeout(r, 5));
  }
  // The server's first request to the client in a session has id 1.
  const answer = { jsonrpc: "2.0", id: 1, result: { action: "accept", content: { go: false } } };
  const r = await post(answer, { "Mcp-Session-Id": mine, "MCP-Protocol-Version": V25, ...auth("bob") });
  assert.equal(r.status, 404, JSON.stringify(r.body));
  await new Promise((r) => setTimeout(r, 50));
  assert.equal((await legacy(mine, "alice", "tasks/get", { taskId })).body.result.status, "input_required");
  // Alice answers it herself.
  const own = await post({ ...answer, result: { action: "accept", content: { go: true } } }, { "Mcp-Session-Id": mine, "MCP-Protocol-Version": V25, ...auth("alice") });
  assert.equal(own.status, 202);
  const result = await legacy(mine, "alice", "tasks/result", { taskId });
  assert.deepEqual(JSON.parse(result.body.result.content[0].text), { action: "accept", content: { go: true } });
});

test("one 2025-11-25 session holds 1,000 live tasks", async () => {
  const session = await openSession(null);
  const ids = [];
  for (let i = 0; i < 1000; i++) {
    const r = await legacy(session, null, "tools/call", { name: "wait", arguments: {}, task: { ttl: 60_000 } });
    assert.equal(r.body.result?.task?.status, "working", `task ${i + 1}: ${JSON.stringify(r.body)}`);
    ids.push(r.body.result.task.taskId);
  }
  const listed = [];
  let cursor;
  for (let page = 0; page < 100; page++) {
    const r = await legacy(session, null, "tasks/list", cursor === undefined ? {} : { cursor });
    listed.push(...r.body.result.tasks.filter((t) => t.status === "working").map((t) => t.taskId));
    cursor = r.body.result.nextCursor;
    if (cursor === undefined) break;
  }
  assert.deepEqual(listed, ids);
  // The server is alive and answers; ending the session cancels them.
  const end = await fetch(url, { method: "DELETE", headers: { "Mcp-Session-Id": session } });
  assert.equal(end.status, 200);
});
