// The hostile round replayed, time-boxed, against examples/conformance-server.mjs run as a process
// (a small heap, so that an exhaustion kills it) on memory storage and on one shared engine (Postgres,
// started here on 127.0.0.1 with throwaway data). Every attack of that round that ended the process,
// exhausted it or lost a result is sent again, in a loop bounded in count and by ATTACK_MS
// (default 4,000 ms per attack), and after each one the server must still be alive and answer
// correctly:
//   - tasks/result with string ids ("req-1", "42", "null", a lone surrogate) from two clients
//     waiting on one task: each gets the result under its own id, as sent;
//   - a flood of `initialize` from one address: refused past its per-requestor cap (HTTP 429,
//     data.cap), while another address still opens a session;
//   - blocked tasks/result requests whose clients hang up: the task still ends, answered to a
//     client that stayed;
//   - one anonymous 2026-07-28 caller filling its live-task cap: another caller still gets tasks;
//   - ids and sessions holding U+0000 get a JSON-RPC answer, never an HTTP 500;
//   - (shared engine) a storage outage twice as long as the lease (within its grace): the task
//     that finished during it keeps its result, and no live task is failed.
// Each process started is stopped by its PID, also on failure. No timing thresholds.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { startPostgres, ROOT } from "../storage/lib.mjs";
import { open as rawOpen } from "./raw-http.mjs";

const EXAMPLE = join(ROOT, "examples/conformance-server.mjs");
/** Where the example finds the storage client libraries (pg) installed by setup. */
const PEERS_DIR = join(ROOT, "tools/storage");
const ATTACK_MS = Number(process.env.ATTACK_MS ?? 4_000);
const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const META = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };
const SESSIONS_PER_REQUESTOR = 50;
const TASKS_PER_REQUESTOR = 20;

const children = new Set();
process.on("exit", () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) process.kill(c.pid, "SIGKILL");
});

/** Starts the example (heap 96 MB) with `args`; `{ url, child, alive() }` once it listens. */
async function startServer(args) {
  const child = spawn(
    process.execPath,
    ["--max-old-space-size=96", EXAMPLE, "--port", "0", "--max-sessions-per-requestor", String(SESSIONS_PER_REQUESTOR), "--max-live-tasks-per-requestor", String(TASKS_PER_REQUESTOR), ...args],
    { cwd: PEERS_DIR, stdio: ["ignore", "pipe", "pipe"] },
  );
  children.add(child);
  let err = "";
  child.stderr.setEncoding("utf8").on("data", (d) => (err = (err + d).slice(-20_000)));
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
      if (m) resolve(m[0]);
    });
    child.once("exit", (code, signal) => reject(new Error(`the example exited (${code ?? signal}) before listening: ${err}`)));
  });
  return {
    url,
    child,
    stderr: () => err,
    alive: () => child.exitCode === null && child.signalCode === null,
  };
}

async function stopServer(s) {
  if (!s?.alive()) return;
  const gone = new Promise((resolve) => s.child.once("exit", resolve));
  process.kill(s.child.pid, "SIGTERM");
  await gone;
  children.delete(s.child);
}

let nextId = 1;

/**
 * POSTs a message from `localAddress` (default 127.0.0.1), each request on its own connection:
 * `{ request, answer }` (raw-http.mjs).
 */
const open = (url, message, headers = {}, localAddress = "127.0.0.1") => rawOpen(url, message, headers, { agent: false, localAddress });

const post = (url, message, headers, localAddress) => open(url, message, headers, localAddress).answer;

async function openSession(url, localAddress) {
  const init = await post(url, { jsonrpc: "2.0", id: nextId++, method: "initialize", params: { protocolVersion: V25, capabilities: {}, clientInfo: { name: "soak", version: "1" } } }, {}, localAddress);
  if (init.status !== 200) return { refused: init };
  const headers = { "Mcp-Session-Id": init.headers["mcp-session-id"], "MCP-Protocol-Version": V25 };
  assert.equal((await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers, localAddress)).status, 202);
  return { headers };
}

async function endSession(url, headers) {
  await new Promise((resolve, reject) => {
    http.request(url, { method: "DELETE", agent: false, headers }, (res) => res.resume().on("end", resolve)).on("error", reject).end();
  });
}

async function startTask(url, headers, seconds) {
  const r = await post(url, { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "slow_compute", arguments: { seconds }, task: { ttl: 600_000 } } }, headers);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.result.task.taskId;
}

/** A `greet` round trip in a fresh session: the server is alive and answers. */
async function answers(server) {
  assert.ok(server.alive(), `the server exited: ${server.stderr()}`);
  const meta = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": {} };
  const r = await post(server.url, { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "greet", arguments: { name: "soak" }, _meta: meta } }, { "MCP-Protocol-Version": V26, "Mcp-Method": "tools/call", "Mcp-Name": "greet" }, "127.0.0.9");
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.result.content[0].text, "Hello, soak!");
}

/** A header value in the Base64 sentinel of §B.b (a NUL cannot go in a header as is). */
const sentinel = (value) => `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;

/** Runs `round(i)` until ATTACK_MS passed or `max` rounds ran; the number of rounds. */
async function timeBoxed(max, round) {
  const end = Date.now() + ATTACK_MS;
  let i = 0;
  while (i < max && (i === 0 || Date.now() < end)) await round(i++);
  return i;
}

/** The attacks, against `server()` (the same for each storage). */
function attacks(server, name, storageArgs) {
  test(`${name}: tasks/result with string ids never ends the process; each answer carries its id`, async () => {
    const ids = ["req-1", "42", "null", "\ud800x", "", 7];
    const rounds = await timeBoxed(20, async () => {
      const s = server();
      const { headers } = await openSession(s.url);
      const { headers: other } = await openSession(s.url);
      const taskId = await startTask(s.url, headers, 0.2);
      const waits = ids.map((id) => post(s.url, { jsonrpc: "2.0", id, method: "tasks/result", params: { taskId } }, headers).then((r) => ({ id, r })));
      // The other session must not see the task (§D 38), and must not be able to take it down.
      const foreign = await post(s.url, { jsonrpc: "2.0", id: "x-1", method: "tasks/result", params: { taskId } }, other);
      assert.ok(foreign.body.error, JSON.stringify(foreign.body));
      for (const { id, r } of await Promise.all(waits)) {
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.deepEqual(r.body.id, id);
        assert.equal(r.body.result.content[0].text, "compute: done after 0.2 s");
      }
      await endSession(s.url, headers);
      await endSession(s.url, other);
    });
    assert.ok(rounds >= 1);
    await answers(server());
  });

  test(`${name}: a flood of initialize from one address is capped per requestor; others still get in`, async () => {
    const s = server();
    const mine = [];
    let refused = 0;
    await timeBoxed(SESSIONS_PER_REQUESTOR * 6, async () => {
      const r = await openSession(s.url, "127.0.0.2");
      if (r.headers) mine.push(r.headers);
      else {
        refused++;
        assert.equal(r.refused.status, 429, JSON.stringify(r.refused.body));
        assert.equal(r.refused.body.error.data.cap, "maxSessionsPerRequestor");
        assert.equal(r.refused.body.error.data.limit, SESSIONS_PER_REQUESTOR);
      }
    });
    assert.equal(mine.length, SESSIONS_PER_REQUESTOR);
    assert.ok(refused > 0);
    const other = await openSession(s.url, "127.0.0.3");
    assert.ok(other.headers, "another address still opens a session");
    // Ending one makes room again.
    await endSession(s.url, mine.pop());
    const again = await openSession(s.url, "127.0.0.2");
    assert.ok(again.headers);
    for (const h of [...mine, again.headers, other.headers]) await endSession(s.url, h);
    await answers(s);
  });

  test(`${name}: blocked tasks/result requests whose clients left are dropped; the task still ends`, async () => {
    const s = server();
    const { headers } = await openSession(s.url);
    const taskId = await startTask(s.url, headers, 1.5);
    let left = 0;
    await timeBoxed(400, async () => {
      const { request, answer } = open(s.url, { jsonrpc: "2.0", id: nextId++, method: "tasks/result", params: { taskId } }, headers);
      answer.catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 2));
      request.destroy();
      left++;
    });
    assert.ok(left > 0);
    const r = await post(s.url, { jsonrpc: "2.0", id: "stayed", method: "tasks/result", params: { taskId } }, headers);
    assert.equal(r.body.id, "stayed");
    assert.equal(r.body.result.content[0].text, "compute: done after 1.5 s");
    await endSession(s.url, headers);
    await answers(s);
  });

  test(`${name}: a session whose blocked tasks/result clients all left idles out (nothing holds it)`, async () => {
    // A server of its own, whose sessions idle out after 1 s.
    const s = await startServer([...storageArgs(), "--session-ttl-ms", "1000"]);
    try {
      const { headers } = await openSession(s.url);
      const taskId = await startTask(s.url, headers, 600);
      const { request, answer } = open(s.url, { jsonrpc: "2.0", id: "gone", method: "tasks/result", params: { taskId } }, headers);
      answer.catch(() => {});
      await timeBoxed(300, async () => {
        const o = open(s.url, { jsonrpc: "2.0", id: nextId++, method: "tasks/result", params: { taskId } }, headers);
        o.answer.catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, 2));
        o.request.destroy();
      });
      request.destroy();
      // Housekeeping runs on requests (every 100 ms here): poll with requests of other callers
      // until the abandoned session is gone, or give up after 8 rounds.
      let status = 200;
      for (let i = 0; i < 8 && status !== 404; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await answers(s);
        status = (await post(s.url, { jsonrpc: "2.0", id: nextId++, method: "ping" }, headers)).status;
        if (status !== 404) await new Promise((resolve) => setTimeout(resolve, 1_100)); // a ping counts as use
      }
      assert.equal(status, 404, "the session idled out once its clients left");
    } finally {
      await stopServer(s);
    }
  });

  test(`${name}: one anonymous 2026-07-28 caller filling its cap leaves room for others`, async () => {
    const s = server();
    const h = { "MCP-Protocol-Version": V26, "Mcp-Method": "tools/call", "Mcp-Name": "slow_compute" };
    const call = (from) => post(s.url, { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 600 }, _meta: META } }, h, from);
    const created = [];
    let refused = 0;
    await timeBoxed(TASKS_PER_REQUESTOR * 5, async () => {
      const r = await call("127.0.0.4");
      if (r.body.result?.resultType === "task") created.push(r.body.result.taskId);
      else {
        refused++;
        assert.equal(r.body.error.code, -32010, JSON.stringify(r.body));
        assert.equal(r.body.error.data.cap, "maxLiveTasksPerRequestor");
      }
    });
    assert.equal(created.length, TASKS_PER_REQUESTOR);
    assert.ok(refused > 0);
    const other = await call("127.0.0.5");
    assert.equal(other.body.result.resultType, "task", JSON.stringify(other.body));
    for (const [taskId, from] of [...created.map((t) => [t, "127.0.0.4"]), [other.body.result.taskId, "127.0.0.5"]]) {
      const c = await post(s.url, { jsonrpc: "2.0", id: nextId++, method: "tasks/cancel", params: { taskId, _meta: META } }, { "MCP-Protocol-Version": V26, "Mcp-Method": "tasks/cancel", "Mcp-Name": taskId }, from);
      assert.equal(c.status, 200, JSON.stringify(c.body));
    }
    await answers(s);
  });

  test(`${name}: ids and sessions holding U+0000 get a JSON-RPC answer, never an HTTP 500`, async () => {
    const s = server();
    const { headers } = await openSession(s.url);
    await timeBoxed(50, async (i) => {
      const taskId = `t\u0000${i}`;
      const r = await post(s.url, { jsonrpc: "2.0", id: nextId++, method: "tasks/get", params: { taskId } }, headers);
      assert.notEqual(r.status, 500);
      assert.ok(r.body.error, JSON.stringify(r.body));
      assert.ok(!/\n\s+at /.test(JSON.stringify(r.body)), "no stack trace in an answer");
      const m = await post(s.url, { jsonrpc: "2.0", id: nextId++, method: "tasks/get", params: { taskId, _meta: META } }, { "MCP-Protocol-Version": V26, "Mcp-Method": "tasks/get", "Mcp-Name": sentinel(taskId) });
      assert.notEqual(m.status, 500);
    });
    await endSession(s.url, headers);
    await answers(s);
  });
}

describe("memory storage", () => {
  let s;
  before(async () => {
    s = await startServer(["--housekeeping-ms", "100"]);
  });
  after(() => stopServer(s));
  attacks(() => s, "memory", () => ["--housekeeping-ms", "100"]);
});

describe("Postgres storage", () => {
  let pg;
  let s;
  /** The postmaster and its backends: stopping them all is an outage (a failover, a cut). */
  const tree = () => [pg.pid, ...execFileSync("pgrep", ["-P", String(pg.pid)], { encoding: "utf8" }).split("\n").filter(Boolean).map(Number)];
  before(async () => {
    pg = await startPostgres();
    s = await startServer(storageArgs());
  });
  after(async () => {
    await stopServer(s);
    if (pg) for (const pid of tree()) process.kill(pid, "SIGCONT");
    await pg?.stop();
  });
  const storageArgs = () => ["--storage", pg.url, "--cursor-key", "5ca1ab1e5ca1ab1e5ca1ab1e5ca1ab1e", "--lease-ms", "2000", "--lease-grace-ms", "8000", "--housekeeping-ms", "100"];
  attacks(() => s, "postgres", storageArgs);

  test("postgres: an outage longer than the lease but within its grace loses no result and fails no live task", async () => {
    const { headers } = await openSession(s.url);
    const done = await startTask(s.url, headers, 0.5); // finishes during the outage
    const live = await startTask(s.url, headers, 600); // runs through it
    const stopped = tree();
    for (const pid of stopped) process.kill(pid, "SIGSTOP");
    try {
      await new Promise((resolve) => setTimeout(resolve, 4_000)); // twice the lease
    } finally {
      for (const pid of stopped) process.kill(pid, "SIGCONT");
    }
    const r = await post(s.url, { jsonrpc: "2.0", id: "after-outage", method: "tasks/result", params: { taskId: done } }, headers);
    assert.equal(r.body.id, "after-outage");
    assert.equal(r.body.result?.content?.[0]?.text, "compute: done after 0.5 s", JSON.stringify(r.body));
    // Sweeps run every 100 ms on requests: the live task's lease, not renewed during the outage,
    // is renewed again now, and no sweep fails it.
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      await post(s.url, { jsonrpc: "2.0", id: nextId++, method: "ping" }, headers);
    }
    const g = await post(s.url, { jsonrpc: "2.0", id: nextId++, method: "tasks/get", params: { taskId: live } }, headers);
    assert.equal(g.body.result.status, "working", JSON.stringify(g.body));
    await endSession(s.url, headers);
    await answers(s);
  });
});
