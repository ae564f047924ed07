// Blocked 2025-11-25 `tasks/result` requests, through the installed package:
// - their JSON-RPC ids stay the JSON values they were: a string id is answered as that string
//   (`"req-1"`, `"42"`, `"null"`, lone surrogates), a number as that number; before, a string id
//   was read back as JSON text (`"req-1"` threw on every settle and ended the process);
// - a request whose client went away leaves every table at once (TaskHost.waiting, the server's
//   replies, the session's requests in flight), so the session idles out; a new one is checked
//   alone (the others waiting on its task are not read again); each session has a bound;
// - no request can end the process: what nobody awaits is caught and reported through `onError`
//   (an `onError` that throws too is logged), and the request is answered.
// The process tests run examples/conformance-server.mjs or waiter-server.mjs (beside this file)
// on 127.0.0.1 and stop them by their PID.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startExample } from "../example-server.mjs";
import { messageOf, open as rawOpen } from "./raw-http.mjs";
import { loadStorage, waitFor } from "../storage/lib.mjs";
// The classes' internal tables and bounds, read through their deliberate test hook
// (`@internal`, absent from the typings: js/core/internals.ts).
const internals = (o) => o[Symbol.for("mcp-tasks-wasm.internals")]();

const { McpHttpServer, SharedTaskServer, TaskHost, TaskServer, validateMessage } = await import("../.tmp/install/server.mjs");
const { MemoryStorage } = await loadStorage("");

const V25 = "2025-11-25";
const WAITER_SERVER = fileURLToPath(new URL("./waiter-server.mjs", import.meta.url));

/** Ids a client may give a request, every one answered as itself. */
const IDS = ["req-1", "42", "null", "", "\ud800", "a\udfffb", "\ufdd0x", "{}", 7, 0, -3, 2 ** 53 - 1];

let nextId = 1;

/** Runs `tests/js/server/waiter-server.mjs` with `args`: `{ url, child }` once it listens. */
async function startWaiterServer(args = []) {
  const child = spawn(process.execPath, [WAITER_SERVER, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
      if (m) resolve(m[0]);
    });
    child.once("exit", (code) => reject(new Error(`the server exited (${code}) before listening`)));
  });
  return { url, child };
}

function stop(child) {
  if (child.exitCode === null && child.signalCode === null) process.kill(child.pid);
}

/** POSTs `message` over node:http (through `agent`): `{ request, answer }` (raw-http.mjs). */
const open = (url, message, headers = {}, agent = undefined) => rawOpen(url, message, headers, { agent });

const post = (url, message, headers, agent) => open(url, message, headers, agent).answer;

async function openSession(url) {
  const init = await post(url, {
    jsonrpc: "2.0",
    id: nextId++,
    method: "initialize",
    params: { protocolVersion: V25, capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  assert.equal(init.status, 200, JSON.stringify(init.body));
  const headers = { "Mcp-Session-Id": init.headers["mcp-session-id"], "MCP-Protocol-Version": V25 };
  assert.equal((await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status, 202);
  return headers;
}

async function startTask(url, headers, name, args) {
  const created = await post(url, { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args, task: { ttl: 600_000 } } }, headers);
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.result.task.taskId;
}

/** The waiter server's table sizes, asked statelessly (2026-07-28: no session to keep alive). */
async function tables(url) {
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  const headers = { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "tables" };
  const r = await post(url, { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "tables", arguments: {}, _meta: meta } }, headers);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return JSON.parse(r.body.result.content[0].text);
}

/** Polls `read` until `done(value)` (at most `rounds` times, 50 ms apart): the last value. */
async function until(read, done, rounds = 400) {
  let value;
  for (let i = 0; i < rounds; i++) {
    value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return value;
}

/** How many requests wait in one entry of `TaskHost.waiting` (an Array before it was a Set). */
const count = (w) => w?.size ?? w?.length;

const ticks = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

test("TaskServer.settle answers a pending tasks/result with its id as it was: a string stays that string, a number that number", () => {
  const server = new TaskServer();
  const T0 = Date.UTC(2026, 0, 1);
  const ctx = { protocolVersion: V25, session: "s1", now: T0 };
  const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: {}, task: { ttl: 60_000 } } };
  const start = server.beginToolCall(call, ctx, "optional");
  assert.equal(start.kind, "task");
  const pendings = IDS.map((id) => {
    const request = { jsonrpc: "2.0", id, method: "tasks/result", params: { taskId: start.taskId } };
    const pending = server.handle(request, ctx);
    assert.equal(pending.kind, "pending", JSON.stringify(pending));
    assert.equal(pending.requestId, id);
    assert.equal(server.settle(pending, T0 + 1), null, `id ${JSON.stringify(id)}: still working`);
    return { request, pending };
  });
  assert.equal(server.finishToolCall(start.taskId, { result: { content: [{ type: "text", text: "done" }] } }, T0 + 2).kind, "stored");
  for (const { request, pending } of pendings) {
    const message = server.settle(pending, T0 + 3);
    assert.equal(typeof message.id, typeof request.id);
    assert.equal(message.id, request.id, `answered ${JSON.stringify(message.id)} for ${JSON.stringify(request.id)}`);
    assert.deepEqual(message.result.content, [{ type: "text", text: "done" }]);
    const report = validateMessage(message, { inReplyTo: "tasks/result", version: V25 });
    assert.equal(report.valid, true, JSON.stringify(report.issues));
  }
});

test("process: string ids on tasks/result (\"req-1\", \"42\", \"null\", lone surrogates) and numbers, from two clients on one task, each answered with its own id; the server lives on", async () => {
  const { url, process: child } = await startExample();
  const agents = [new http.Agent(), new http.Agent()];
  try {
    const headers = await openSession(url);
    const taskId = await startTask(url, headers, "slow_compute", { seconds: 1 });
    // Two clients (their own connections), each with its own ids: the second's strings end in a
    // space (`"42 "` is JSON text for 42 too), its numbers are 1,000 more.
    const idsOf = [IDS, IDS.map((id) => (typeof id === "string" ? `${id} ` : id + 1_000))];
    const answers = agents.flatMap((agent, i) =>
      idsOf[i].map((id) => post(url, { jsonrpc: "2.0", id, method: "tasks/result", params: { taskId } }, headers, agent).then((r) => ({ id, r }))),
    );
    for (const { id, r } of await Promise.all(answers)) {
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(typeof r.body.id, typeof id);
      assert.equal(r.body.id, id, `answered ${JSON.stringify(r.body.id)} for ${JSON.stringify(id)}`);
      assert.equal(r.body.error, undefined, JSON.stringify(r.body));
      assert.match(r.body.result.content[0].text, /done/);
    }
    // Alive: it answers, and another task's result still works.
    const ping = await post(url, { jsonrpc: "2.0", id: "ping-1", method: "ping" }, headers);
    assert.equal(ping.status, 200);
    assert.equal(ping.body.id, "ping-1");
    const again = await startTask(url, headers, "slow_compute", { seconds: 0 });
    const last = await post(url, { jsonrpc: "2.0", id: "req-2", method: "tasks/result", params: { taskId: again } }, headers);
    assert.equal(last.body.id, "req-2");
    assert.equal(child.exitCode, null, "the server is still running");
  } finally {
    for (const agent of agents) agent.destroy();
    stop(child);
  }
});

test("TaskHost: a new blocked tasks/result reads its task once, the others waiting on it are not read again", async () => {
  const host = new TaskHost();
  host.tool("wait", { taskSupport: "optional" }, (_args, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve({ content: [] }), { once: true })));
  const ctx = { protocolVersion: V25, session: "s1" };
  const created = await host.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "wait", arguments: {}, task: { ttl: 60_000 } } }, ctx);
  const taskId = created.result.task.taskId;
  // A spy (the real method runs): how many times a pending result is read.
  const settle = host.server.settle.bind(host.server);
  let reads = 0;
  host.server.settle = (pending, now) => {
    reads += 1;
    return settle(pending, now);
  };
  const n = 300;
  const waiting = [];
  for (let i = 0; i < n; i++) {
    waiting.push(host.handle({ jsonrpc: "2.0", id: i, method: "tasks/result", params: { taskId } }, ctx));
    await ticks(2);
  }
  await ticks();
  assert.equal(reads, n, "one read per new request");
  assert.equal(count(internals(host).waiting.get(taskId)), n);
  const cancelled = await host.handle({ jsonrpc: "2.0", id: "c", method: "tasks/cancel", params: { taskId } }, ctx);
  assert.equal(cancelled.result.status, "cancelled");
  const answers = await Promise.all(waiting);
  answers.forEach((a, i) => assert.equal(a.id, i));
  assert.equal(internals(host).waiting.has(taskId), false);
  await host.close();
});

test("TaskHost: a blocked tasks/result whose channel.signal aborts leaves every table at once and is answered", async () => {
  const host = new TaskHost();
  host.tool("wait", { taskSupport: "optional" }, (_args, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve({ content: [] }), { once: true })));
  const ctx = { protocolVersion: V25, session: "s1" };
  const created = await host.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "wait", arguments: {}, task: { ttl: 60_000 } } }, ctx);
  const taskId = created.result.task.taskId;
  const n = 1_000;
  const aborts = [];
  const answers = [];
  for (let i = 0; i < n; i++) {
    const abort = new AbortController();
    aborts.push(abort);
    answers.push(host.handle({ jsonrpc: "2.0", id: i, method: "tasks/result", params: { taskId } }, ctx, { signal: abort.signal }));
  }
  await ticks();
  assert.equal(count(internals(host).waiting.get(taskId)), n);
  for (const abort of aborts) abort.abort();
  await ticks();
  assert.equal(internals(host).waiting.has(taskId), false, "no waiter left");
  const answered = await Promise.all(answers);
  answered.forEach((a, i) => {
    assert.equal(a.id, i);
    assert.equal(a.error.code, -32603);
  });
  await host.close();
});

test("SharedTaskServer, two replicas on one storage: string and integer ids blocked on B are answered as they were when A's work ends; B reads the storage once per new request", async () => {
  const storage = new MemoryStorage();
  let reads = 0;
  /** One storage, each replica with its own handle (closing one closes nothing); `get`s counted on B's. */
  const handle = (counted) => ({
    name: storage.name,
    get: (id) => {
      if (counted) reads += 1;
      return storage.get(id);
    },
    putIfVersion: (r, v) => storage.putIfVersion(r, v),
    delete: (id) => storage.delete(id),
    rangeAfter: (scope, after, limit) => storage.rangeAfter(scope, after, limit),
    expired: (now, limit) => storage.expired(now, limit),
    countLive: (session) => storage.countLive(session),
    nextSequence: () => storage.nextSequence(),
    lastSequence: () => storage.lastSequence(),
    subscribe: (l) => storage.subscribe(l),
    close: async () => {},
  });
  const KEY = "00112233445566778899aabbccddeeff";
  const A = new TaskHost({ server: await SharedTaskServer.open(handle(false), { cursorKey: KEY }) });
  const B = new TaskHost({ server: await SharedTaskServer.open(handle(true), { cursorKey: KEY }) });
  let finish;
  A.tool("gated", { taskSupport: "optional" }, () => new Promise((resolve) => (finish = resolve)));
  const ctx = { protocolVersion: V25, session: "s" };
  const created = await A.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "gated", arguments: {}, task: {} } }, ctx);
  const taskId = created.result.task.taskId;
  const ids = [...IDS, ...Array.from({ length: 200 }, (_, i) => `w${i}`)];
  reads = 0;
  const answers = ids.map((id) => B.handle({ jsonrpc: "2.0", id, method: "tasks/result", params: { taskId } }, ctx));
  await waitFor(() => count(internals(B).waiting.get(taskId)) === ids.length, "every request waiting on B");
  // Each request: its own read by `handle`, and its own check; none reads the others again.
  assert.ok(reads <= 2 * ids.length, `${reads} reads for ${ids.length} requests`);
  finish({ content: [{ type: "text", text: "late" }] });
  const answered = await Promise.all(answers);
  answered.forEach((a, i) => {
    assert.equal(a.id, ids[i], `answered ${JSON.stringify(a.id)} for ${JSON.stringify(ids[i])}`);
    assert.equal(a.result?.content[0].text, "late", JSON.stringify(a));
  });
  assert.equal(internals(B).waiting.has(taskId), false);
  for (const host of [A, B]) {
    await host.close();
    await host.server.close();
  }
});

/** A Request to `app.fetch`. */
function request(message, headers = {}, signal = undefined) {
  return new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(message),
    signal,
  });
}

/** The JSON-RPC message of a Response (JSON, or the last message of an SSE body). */
async function bodyOf(response) {
  return messageOf({ "content-type": response.headers.get("content-type") }, await response.text());
}

async function fetchSession(app) {
  const init = await app.fetch(request({ jsonrpc: "2.0", id: nextId++, method: "initialize", params: { protocolVersion: V25, capabilities: {}, clientInfo: { name: "t", version: "1" } } }));
  assert.equal(init.status, 200);
  return { "Mcp-Session-Id": init.headers.get("mcp-session-id"), "MCP-Protocol-Version": V25 };
}

test("maxWaitingResultsPerSession: one more blocked tasks/result in a session is answered -32010 with data.limit; other sessions are not affected; one that left frees its place", async () => {
  const app = new McpHttpServer({ name: "t", version: "1", hostOptions: { maxWaitingResultsPerSession: 2 } });
  app.tool("wait", { taskSupport: "optional" }, (_args, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve({ content: [] }), { once: true })));
  const a = await fetchSession(app);
  const b = await fetchSession(app);
  const call = async (headers) => {
    const r = await bodyOf(await app.fetch(request({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "wait", arguments: {}, task: { ttl: 60_000 } } }, headers)));
    return r.result.task.taskId;
  };
  const taskA = await call(a);
  const taskB = await call(b);
  const result = (taskId, headers, id, signal) => app.fetch(request({ jsonrpc: "2.0", id, method: "tasks/result", params: { taskId } }, headers, signal));
  // Integer ids: this test is about the bound, not about string ids.
  const leaving = new AbortController();
  const first = result(taskA, a, 1, leaving.signal);
  const second = result(taskA, a, 2);
  const inB = result(taskB, b, 11);
  await ticks();
  const third = result(taskA, a, 3);
  await ticks();
  // Cancelling the task answers whatever still waits: the third must have been refused before.
  leaving.abort();
  await ticks();
  const fourth = result(taskA, a, 4); // the place the first left
  await ticks();
  for (const [taskId, headers] of [[taskA, a], [taskB, b]]) {
    await app.fetch(request({ jsonrpc: "2.0", id: nextId++, method: "tasks/cancel", params: { taskId } }, headers));
  }
  const refused = await bodyOf(await third);
  assert.equal(refused.id, 3);
  assert.equal(refused.error?.code, -32010, JSON.stringify(refused));
  assert.deepEqual(refused.error.data, { limit: 2 });
  assert.match(refused.error.message, /limit 2/);
  assert.equal(validateMessage(refused, { inReplyTo: "tasks/result", version: V25 }).valid, true);
  for (const [answer, id] of [[second, 2], [inB, 11], [fourth, 4]]) {
    const body = await bodyOf(await answer);
    assert.equal(body.id, id);
    assert.notEqual(body.error?.code, -32010, JSON.stringify(body));
  }
  await first;
  await app.close();
});

test("maxWaitingResultsPerSession is checked: a non-negative integer or Infinity; the default is 1,000", () => {
  assert.equal(internals(new TaskHost()).maxWaitingResultsPerSession, 1_000);
  assert.equal(internals(new TaskHost({ maxWaitingResultsPerSession: Infinity })).maxWaitingResultsPerSession, Infinity);
  for (const bad of [-1, 1.5, NaN, "3"]) assert.throws(() => new TaskHost({ maxWaitingResultsPerSession: bad }), TypeError);
});

test("process: 2,000 blocked tasks/result whose sockets are destroyed leave every table, and their session idles out", async () => {
  const ttl = 1_500;
  const { url, child } = await startWaiterServer(["--session-ttl-ms", String(ttl), "--max-waiting", "5000"]);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const open_ = [];
  try {
    const headers = await openSession(url);
    const taskId = await startTask(url, headers, "wait", {});
    const n = 2_000;
    for (let i = 0; i < n; i++) {
      const o = open(url, { jsonrpc: "2.0", id: i, method: "tasks/result", params: { taskId } }, headers, agent);
      o.answer.catch(() => {}); // destroyed below
      open_.push(o);
    }
    const full = await until(() => tables(url), (t) => t.waiting === n);
    assert.equal(full.waiting, n, "every request blocked");
    assert.equal(full.replies, n);
    for (const o of open_) o.request.destroy();
    const empty = await until(() => tables(url), (t) => t.waiting === 0 && t.replies === 0, 200);
    assert.deepEqual({ waiting: empty.waiting, replies: empty.replies }, { waiting: 0, replies: 0 }, "no table keeps a request whose client left");
    // The session has nothing in flight: it idles out (404 after sessionTtlMs).
    await new Promise((resolve) => setTimeout(resolve, ttl + 200));
    const late = await post(url, { jsonrpc: "2.0", id: nextId++, method: "ping" }, headers);
    assert.equal(late.status, 404, "the idle session ended");
    assert.equal(child.exitCode, null);
  } finally {
    agent.destroy();
    stop(child);
  }
});

test("process: an onError that throws and an allowedOrigins that throws: the request is answered 500 with a JSON-RPC error, no unhandled rejection", async () => {
  const rejections = [];
  const onRejection = (e) => rejections.push(e);
  process.on("unhandledRejection", onRejection);
  const app = new McpHttpServer({
    name: "t",
    version: "1",
    allowedOrigins: () => {
      throw new Error("origin check failed");
    },
    onError: () => {
      throw new Error("onError failed");
    },
  });
  const server = http.createServer(app.node);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/mcp`;
  try {
    const r = await Promise.race([
      post(url, { jsonrpc: "2.0", id: 1, method: "ping" }, { Origin: "http://example.test" }),
      new Promise((_, reject) => setTimeout(() => reject(new Error("no answer in 10 s")), 10_000).unref()),
    ]);
    assert.equal(r.status, 500);
    assert.equal(r.body.error.code, -32603);
    await ticks();
    assert.deepEqual(rejections, []);
  } finally {
    process.off("unhandledRejection", onRejection);
    server.closeAllConnections();
    server.close();
    await app.close();
  }
});

test("TaskHost: a watch listener and an onError that throw (on a cancel, on a finished task) leave no unhandled rejection; the blocked tasks/result is answered", async () => {
  const rejections = [];
  const onRejection = (e) => rejections.push(e);
  process.on("unhandledRejection", onRejection);
  try {
    const host = new TaskHost({
      onError: () => {
        throw new Error("onError failed");
      },
    });
    host.watch(() => {
      throw new Error("listener failed");
    });
    host.tool("quick", { taskSupport: "optional" }, async () => ({ content: [{ type: "text", text: "ok" }] }));
    host.tool("wait", { taskSupport: "optional" }, (_args, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve({ content: [] }), { once: true })));
    const ctx = { protocolVersion: V25, session: "s1" };
    const call = (name) => host.handle({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: {}, task: { ttl: 60_000 } } }, ctx);
    const quick = (await call("quick")).result.task.taskId;
    const done = await host.handle({ jsonrpc: "2.0", id: "q", method: "tasks/result", params: { taskId: quick } }, ctx);
    assert.equal(done.result.content[0].text, "ok");
    const slow = (await call("wait")).result.task.taskId;
    const blocked = host.handle({ jsonrpc: "2.0", id: "w", method: "tasks/result", params: { taskId: slow } }, ctx);
    const cancel = await host.handle({ jsonrpc: "2.0", id: "c", method: "tasks/cancel", params: { taskId: slow } }, ctx);
    assert.equal(cancel.result.status, "cancelled");
    assert.equal((await blocked).id, "w");
    await host.idle();
    await ticks();
    assert.deepEqual(rejections.map(String), []);
    await host.close();
  } finally {
    process.off("unhandledRejection", onRejection);
  }
});

test("process: a blocked tasks/result cancelled with notifications/cancelled gets no answer (its stream closes); the task and the session go on", async () => {
  const { url, process: child } = await startExample();
  try {
    const headers = await openSession(url);
    const taskId = await startTask(url, headers, "slow_compute", { seconds: 600 });
    const blocked = open(url, { jsonrpc: "2.0", id: "w-1", method: "tasks/result", params: { taskId } }, headers);
    // The request is in flight once the server answers a ping sent after it on the session.
    assert.equal((await post(url, { jsonrpc: "2.0", id: nextId++, method: "ping" }, headers)).status, 200);
    const note = await post(url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "w-1", reason: "no longer needed" } }, headers);
    assert.equal(note.status, 202);
    const answer = await blocked.answer;
    assert.equal(answer.body, null, `no response for a cancelled request, got ${JSON.stringify(answer.body)}`);
    // The task itself is not cancelled by that, and the session still answers.
    const got = await post(url, { jsonrpc: "2.0", id: nextId++, method: "tasks/get", params: { taskId } }, headers);
    assert.equal(got.body.result.status, "working");
    const cancel = await post(url, { jsonrpc: "2.0", id: nextId++, method: "tasks/cancel", params: { taskId } }, headers);
    assert.equal(cancel.body.result.status, "cancelled");
  } finally {
    if (child.exitCode === null) process.kill(child.pid);
  }
});
