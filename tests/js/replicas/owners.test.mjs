// Owners across replicas: two processes of tests/js/server/owner-server.mjs on ONE real SQLite
// file (SharedTaskServer over mcp-tasks-wasm/storage/sqlite, the same cursor key, tasks shared
// across sessions so that a client may resume its tasks on another replica), requests
// authenticated by its stand-in middleware (`Authorization: Bearer <subject>`). A task alice
// creates on replica A: bob on replica B gets exactly what an unknown id gets (-32602) from
// tasks/get, tasks/update and tasks/cancel (2026-07-28), and from tasks/get, tasks/result,
// tasks/cancel with an empty tasks/list in his 2025-11-25 session; alice reads and cancels it on
// B (in a new session there, too). Every process is stopped by its PID (also on failure).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../storage/lib.mjs";
import { post as postTo } from "../server/raw-http.mjs";

const SERVER = join(ROOT, "tests/js/server/owner-server.mjs");
const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const CURSOR_KEY = "0ddba11c0ddba11c0ddba11c0ddba11c";
const UNKNOWN = "0123456789abcdef0123456789abcdef";

const children = new Set();
process.on("exit", () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) process.kill(c.pid, "SIGKILL");
});

async function startReplica(path, name) {
  const child = spawn(process.execPath, [SERVER, "--storage", `sqlite:${path}`, "--cursor-key", CURSOR_KEY, "--replica-id", name, "--share-across-sessions"], { stdio: ["ignore", "pipe", "inherit"] });
  children.add(child);
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
      if (m) resolve(m[0]);
    });
    child.once("exit", (code) => reject(new Error(`replica ${name} exited (${code}) before listening`)));
  });
  return { url, child };
}

const dir = mkdtempSync(join(tmpdir(), "mcp-tasks-owners-"));
let a;
let b;
before(async () => {
  const path = join(dir, "tasks.db");
  a = await startReplica(path, "A");
  b = await startReplica(path, "B");
});
after(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) process.kill(c.pid);
  rmSync(dir, { recursive: true, force: true });
});

let nextId = 1;
const auth = (who) => ({ Authorization: `Bearer ${who}` });

const post = (replica, message, headers) => postTo(replica.url, message, headers);

const meta = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: { [EXT]: {} } } };

async function modern(replica, who, method, params) {
  const headers = { "MCP-Protocol-Version": V26, "Mcp-Method": method, "Mcp-Name": params.taskId ?? params.name, ...auth(who) };
  return (await post(replica, { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta } }, headers)).body;
}

test("2026-07-28: bob on replica B cannot get, update or cancel alice's task of replica A", async () => {
  const created = await modern(a, "alice", "tools/call", { name: "wait", arguments: {} });
  const taskId = created.result.taskId;
  for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
    const params = (id) => (method === "tasks/update" ? { taskId: id, inputResponses: { q: { action: "accept", content: {} } } } : { taskId: id });
    const foreign = await modern(b, "bob", method, params(taskId));
    const unknown = await modern(b, "bob", method, params(UNKNOWN));
    assert.equal(foreign.error?.code, -32602, `${method}: ${JSON.stringify(foreign)}`);
    assert.deepEqual(foreign.error, unknown.error, method);
  }
  assert.equal((await modern(b, "alice", "tasks/get", { taskId })).result?.status, "working");
  assert.ok((await modern(b, "alice", "tasks/cancel", { taskId })).result);
  assert.equal((await modern(a, "alice", "tasks/get", { taskId })).result?.status, "cancelled");
});

async function openSession(replica, who) {
  const r = await post(
    replica,
    { jsonrpc: "2.0", id: nextId++, method: "initialize", params: { protocolVersion: V25, capabilities: {}, clientInfo: { name: "t", version: "1" } } },
    auth(who),
  );
  assert.equal(r.status, 200);
  return r.headers.get("mcp-session-id");
}

function legacy(replica, session, who, method, params = {}) {
  return post(replica, { jsonrpc: "2.0", id: nextId++, method, params }, { "Mcp-Session-Id": session, "MCP-Protocol-Version": V25, ...auth(who) });
}

test("2025-11-25: bob on replica B cannot get, result, cancel or list alice's task of replica A", async () => {
  const mine = await openSession(a, "alice");
  const created = await legacy(a, mine, "alice", "tools/call", { name: "wait", arguments: {}, task: { ttl: 60_000 } });
  const taskId = created.body.result.task.taskId;
  const his = await openSession(b, "bob");
  for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
    const foreign = await legacy(b, his, "bob", method, { taskId });
    const unknown = await legacy(b, his, "bob", method, { taskId: UNKNOWN });
    assert.equal(foreign.body.error?.code, -32602, `${method}: ${JSON.stringify(foreign.body)}`);
    assert.deepEqual(foreign.body.error, unknown.body.error, method);
  }
  assert.deepEqual((await legacy(b, his, "bob", "tasks/list")).body.result.tasks, []);
  // Alice sees it from her session on A and from a new one on B (sessions shared, owners not).
  // (Her lists hold her tasks of the test before too: every session, every era.)
  assert.ok((await legacy(a, mine, "alice", "tasks/list")).body.result.tasks.some((t) => t.taskId === taskId));
  const hers = await openSession(b, "alice");
  assert.ok((await legacy(b, hers, "alice", "tasks/list")).body.result.tasks.some((t) => t.taskId === taskId));
  assert.equal((await legacy(b, hers, "alice", "tasks/cancel", { taskId })).body.result?.status, "cancelled");
});
