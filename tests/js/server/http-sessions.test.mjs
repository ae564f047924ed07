// McpHttpServer's sessions and callers under load, through the packed and installed package (and
// examples/conformance-server.mjs run as a process on 127.0.0.1, stopped by its PID):
// - sessions are bounded: `maxSessions` (HTTP 503) and `maxSessionsPerRequestor` (HTTP 429), each
//   refusal naming its cap in `data`; a small heap survives a flood of `initialize`;
// - a change of a task costs the same whatever the number of idle sessions (no scan of them);
// - a session holds only its live tasks, and DELETE cancels only those;
// - 2026-07-28 callers are capped per requestor besides the shared bucket (-32010, data.cap);
// - SSE events carry ids, and a GET with Last-Event-ID replays what followed on that stream.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { startExample } from "../example-server.mjs";
import { loadStorage } from "../storage/lib.mjs";
import { post } from "./raw-http.mjs";
// The classes' internal tables and bounds, read through their deliberate test hook
// (`@internal`, absent from the typings: js/core/internals.ts).
const internals = (o) => o[Symbol.for("mcp-tasks-wasm.internals")]();

const { McpHttpServer, TaskHost, SharedTaskServer, validateMessage } = await import("../.tmp/install/server.mjs");
const { MemoryStorage } = await loadStorage("");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const META = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };
const BASE = "http://127.0.0.1/mcp";

let nextId = 1;
const text = (t) => ({ content: [{ type: "text", text: t }] });
const initialize = (capabilities = {}) => ({ jsonrpc: "2.0", id: nextId++, method: "initialize", params: { protocolVersion: V25, capabilities, clientInfo: { name: "t", version: "1" } } });

/** POSTs one message through `fetchFn`; `{ status, body, headers }` (SSE: its last message). */
const send = (fetchFn, message, headers = {}, info = undefined) => post(BASE, message, headers, fetchFn, info);

async function openSession(fetchFn, info) {
  const r = await send(fetchFn, initialize(), {}, info);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return { "Mcp-Session-Id": r.headers.get("mcp-session-id"), "MCP-Protocol-Version": V25 };
}

function modernHeaders(method, name) {
  const h = { "MCP-Protocol-Version": V26, "Mcp-Method": method };
  if (name !== undefined) h["Mcp-Name"] = name;
  return h;
}

/** A tool whose work waits until it is cancelled. */
const waitTool = (_args, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));

/** Resolves once `predicate()` holds, checking after each macrotask (at most `rounds` times). */
async function until(predicate, rounds = 2000) {
  for (let i = 0; i < rounds && !predicate(); i++) await new Promise((r) => setTimeout(r, 1));
  assert.ok(predicate(), "condition not reached");
}

/** One HTTP POST from a given loopback source address (node:http: `localAddress`). */
function postFrom(url, localAddress, message, headers = {}) {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(message);
    const req = http.request(
      url,
      { method: "POST", localAddress, headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers } },
      (res) => {
        let raw = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (raw += d));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: raw ? JSON.parse(raw) : null }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function deleteSession(url, sessionId) {
  return fetch(url, { method: "DELETE", headers: { "Mcp-Session-Id": sessionId } });
}

test("sessions are capped in all and per requestor (503 maxSessions, 429 maxSessionsPerRequestor); a 64 MB heap survives a flood and serves again once one ends", async () => {
  const { url, process: child } = await startExample(["--max-sessions", "30", "--max-sessions-per-requestor", "20"], ["--max-old-space-size=64"]);
  try {
    const opened = { "127.0.0.1": [], "127.0.0.2": [] };
    const refused = [];
    // Client .1 opens 25: 20 pass, 5 are refused by its own cap.
    for (let i = 0; i < 25; i++) {
      const r = await postFrom(url, "127.0.0.1", initialize());
      if (r.status === 200) opened["127.0.0.1"].push(r.headers["mcp-session-id"]);
      else refused.push(r);
    }
    assert.equal(opened["127.0.0.1"].length, 20);
    assert.equal(refused.length, 5);
    for (const r of refused) {
      assert.equal(r.status, 429);
      assert.equal(r.body.error.code, -32000);
      assert.deepEqual(r.body.error.data, { limit: 20, cap: "maxSessionsPerRequestor" });
      assert.equal(validateMessage(r.body).valid, true);
    }
    // Client .2 opens 15: 10 pass (30 in all), then the server-wide cap.
    refused.length = 0;
    for (let i = 0; i < 15; i++) {
      const r = await postFrom(url, "127.0.0.2", initialize());
      if (r.status === 200) opened["127.0.0.2"].push(r.headers["mcp-session-id"]);
      else refused.push(r);
    }
    assert.equal(opened["127.0.0.2"].length, 10);
    assert.equal(refused.length, 5);
    for (const r of refused) {
      assert.equal(r.status, 503);
      assert.deepEqual(r.body.error.data, { limit: 30, cap: "maxSessions" });
    }
    // A flood far past the caps: every one refused, the process stays up within its small heap.
    for (let i = 0; i < 3000; i++) {
      const r = await postFrom(url, "127.0.0.1", initialize());
      assert.equal(r.status, 503);
    }
    assert.equal(child.exitCode, null, "the server is alive");
    const ping = await postFrom(url, "127.0.0.1", { jsonrpc: "2.0", id: nextId++, method: "ping" }, { "Mcp-Session-Id": opened["127.0.0.1"][0], "MCP-Protocol-Version": V25 });
    assert.equal(ping.status, 200);
    // One session of .1 ends: .2 (under its own cap) gets a fresh one.
    assert.equal((await deleteSession(url, opened["127.0.0.1"].pop())).status, 200);
    const fresh = await postFrom(url, "127.0.0.2", initialize());
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    assert.ok(fresh.headers["mcp-session-id"]);
  } finally {
    if (child.exitCode === null) process.kill(child.pid);
  }
});

test("the session caps: defaults, options checked, and the requestor is the principal before the address", async () => {
  const app = new McpHttpServer({ name: "caps", version: "1" });
  assert.equal(internals(app).maxSessions, 10_000);
  assert.equal(internals(app).maxSessionsPerRequestor, 1_000);
  assert.equal(internals(app.host).maxLiveTasksPerRequestor, 1_000);
  await app.close();
  assert.throws(() => new McpHttpServer({ name: "x", version: "1", maxSessions: -1 }), TypeError);

  const capped = new McpHttpServer({ name: "caps", version: "1", maxSessionsPerRequestor: 1 });
  const fetchFn = (request, info) => capped.fetch(request, info);
  // The same client id from two addresses is one requestor; another id is another.
  assert.equal((await send(fetchFn, initialize(), {}, { remoteAddress: "127.0.0.1", auth: { clientId: "alice" } })).status, 200);
  const again = await send(fetchFn, initialize(), {}, { remoteAddress: "127.0.0.9", auth: { clientId: "alice" } });
  assert.equal(again.status, 429);
  assert.equal(again.body.error.data.cap, "maxSessionsPerRequestor");
  assert.equal((await send(fetchFn, initialize(), {}, { remoteAddress: "127.0.0.1", auth: { clientId: "bob" } })).status, 200);
  // Without auth: the address.
  assert.equal((await send(fetchFn, initialize(), {}, { remoteAddress: "127.0.0.1" })).status, 200);
  assert.equal((await send(fetchFn, initialize(), {}, { remoteAddress: "127.0.0.1" })).status, 429);
  await capped.close();
});

test("a change of a task touches no idle session: 2,000 idle sessions on replica A, tasks changing on replica B", async () => {
  const storage = new MemoryStorage();
  const cursorKey = "0123456789abcdef0123456789abcdef";
  const sharedA = await SharedTaskServer.open(storage, { cursorKey });
  const sharedB = await SharedTaskServer.open(storage, { cursorKey });
  const a = new McpHttpServer({ name: "a", version: "1", host: new TaskHost({ server: sharedA }) });
  const b = new McpHttpServer({ name: "b", version: "1", host: new TaskHost({ server: sharedB }) });
  b.tool("quick", { taskSupport: "optional" }, async () => text("done"));
  try {
    const fetchA = (request) => a.fetch(request);
    for (let i = 0; i < 2000; i++) await openSession(fetchA);
    // Every use of A's session table from here on is counted.
    let touched = 0;
    const hook = internals(a);
    const table = hook.sessions;
    hook.sessions = new Proxy(table, {
      get(target, prop) {
        touched += 1;
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    // A hears B's changes (a watcher of its own counts the change feed's deliveries).
    let heard = 0;
    a.host.watch(() => {}, () => {
      heard += 1;
      return false;
    });
    const fetchB = (request) => b.fetch(request);
    for (let i = 0; i < 10; i++) {
      const r = await send(fetchB, { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "quick", arguments: {}, _meta: META } }, modernHeaders("tools/call", "quick"));
      assert.equal(r.body.result.resultType, "task", JSON.stringify(r.body));
    }
    await b.host.idle();
    await until(() => heard >= 10); // at least once per task
    assert.equal(touched, 0, "no change of a task read the session table");
    hook.sessions = table;
  } finally {
    await a.close();
    await b.close();
    await sharedA.close();
    await sharedB.close();
  }
});

test("a session keeps only its live tasks: ended and expired ones leave it, DELETE cancels only the live ones", async () => {
  let clock = Date.parse("2026-01-01T00:00:00Z");
  const host = new TaskHost({ now: () => clock });
  const app = new McpHttpServer({ name: "s", version: "1", host });
  app.tool("quick", { taskSupport: "optional" }, async () => text("done"));
  app.tool("wait", { taskSupport: "optional" }, waitTool);
  const fetchFn = (request) => app.fetch(request);
  const headers = await openSession(fetchFn);
  const sessionId = headers["Mcp-Session-Id"];
  const session = internals(app).sessions.get(sessionId);
  for (let i = 0; i < 30; i++) {
    const r = await send(fetchFn, { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "quick", arguments: {}, task: { ttl: 600_000 } } }, headers);
    assert.ok(r.body.result.task, JSON.stringify(r.body));
  }
  await host.idle();
  assert.equal(session.tasks.size, 0, "finished tasks are not kept");
  const live = await send(fetchFn, { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "wait", arguments: {}, task: { ttl: 600_000 } } }, headers);
  const liveId = live.body.result.task.taskId;
  const short = await send(fetchFn, { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "wait", arguments: {}, task: { ttl: 1_000 } } }, headers);
  assert.equal(session.tasks.size, 2);
  // The short one expires: gone from the session at the next housekeeping.
  clock += 5_000;
  app.sweep();
  assert.deepEqual([...session.tasks.keys()], [liveId]);
  assert.notEqual(short.body.result.task.taskId, liveId);

  // DELETE sends one cancel: the live task's.
  const cancels = [];
  const handle = host.handle.bind(host);
  host.handle = (message, ctx, channel) => {
    if (message.method === "tasks/cancel") cancels.push(message.params.taskId);
    return handle(message, ctx, channel);
  };
  const res = await fetchFn(new Request(BASE, { method: "DELETE", headers: { "Mcp-Session-Id": sessionId } }));
  assert.equal(res.status, 200);
  assert.deepEqual(cancels, [liveId]);
  await host.idle();
  assert.equal(host.server.getTask(liveId, clock).status, "cancelled");
  await app.close();
});

test("2026-07-28 live tasks are capped per requestor besides the shared bucket (-32010, data.cap)", async () => {
  const app = new McpHttpServer({ name: "cap", version: "1", hostOptions: { maxLiveTasksPerRequestor: 2, maxLiveTasksWithoutSession: 5 } });
  app.tool("wait", { taskSupport: "optional" }, waitTool);
  const fetchFn = (request, info) => app.fetch(request, info);
  const callWait = (info) =>
    send(fetchFn, { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "wait", arguments: {}, _meta: META } }, modernHeaders("tools/call", "wait"), info);
  const one = { remoteAddress: "127.0.0.1" };
  const two = { remoteAddress: "127.0.0.2" };
  const first = await callWait(one);
  assert.equal(first.body.result.resultType, "task");
  assert.equal((await callWait(one)).body.result.resultType, "task");
  const refused = await callWait(one);
  assert.equal(refused.body.error.code, -32010);
  assert.deepEqual(refused.body.error.data, { limit: 2, cap: "maxLiveTasksPerRequestor" });
  assert.equal(validateMessage(refused.body, { version: V26, inReplyTo: "tools/call" }).valid, true);
  // Another requestor still creates tasks, up to the shared bucket.
  assert.equal((await callWait(two)).body.result.resultType, "task");
  assert.equal((await callWait(two)).body.result.resultType, "task");
  assert.equal((await callWait({ remoteAddress: "127.0.0.3" })).body.result.resultType, "task");
  const shared = await callWait({ remoteAddress: "127.0.0.4" });
  assert.deepEqual(shared.body.error.data, { limit: 5, cap: "maxLiveTasksWithoutSession" });
  // Cancelling one of the first requestor's tasks makes room for it again.
  const taskId = first.body.result.taskId;
  const cancel = await send(fetchFn, { jsonrpc: "2.0", id: nextId++, method: "tasks/cancel", params: { taskId, _meta: META } }, modernHeaders("tasks/cancel", taskId), one);
  assert.equal(cancel.status, 200);
  assert.equal((await callWait(one)).body.result.resultType, "task");
  await app.close();
});

/** Reads SSE events from `res` until `count` events came (or the stream ended): `[{ id, data }]`. */
async function readEvents(res, count) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const events = [];
  let buffer = "";
  while (events.length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let at;
    while ((at = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, at);
      buffer = buffer.slice(at + 2);
      let id = null;
      let data = null;
      for (const line of block.split("\n")) {
        if (line.startsWith("id: ")) id = line.slice(4);
        if (line.startsWith("data: ")) data = JSON.parse(line.slice(6));
      }
      if (data !== null) events.push({ id, data });
    }
  }
  return { events, reader };
}

test("SSE events carry ids; a GET with Last-Event-ID replays the rest of that stream, never another session's (raw fetch on node:http)", async () => {
  const app = new McpHttpServer({ name: "sse", version: "1", maxReplayBytes: 4096 });
  app.tool("ask", { taskSupport: "forbidden" }, async (_args, { requestInput }) => {
    const { name } = await requestInput({ name: { method: "elicitation/create", params: { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: {} } } } });
    return text(`hello ${name.action}`);
  });
  const server = http.createServer(app.node);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/mcp`;
  const post = (message, headers) =>
    fetch(url, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify(message) });
  const get = (headers) => fetch(url, { headers: { Accept: "text/event-stream", ...headers } });
  try {
    const init = await post(initialize({ elicitation: {} }), {});
    const session = { "Mcp-Session-Id": init.headers.get("mcp-session-id"), "MCP-Protocol-Version": V25 };
    await init.text();

    // The GET stream: three notifications, the client reads one and drops.
    const listen = await get(session);
    assert.equal(listen.status, 200);
    for (const name of ["t1", "t2", "t3"]) app.tool(name, {}, async () => text(name));
    const { events: firstRead, reader } = await readEvents(listen, 1);
    await reader.cancel();
    const first = firstRead[0];
    assert.match(first.id, /^[0-9a-f-]{36}\.\d+$/, `an event id: ${first.id}`);
    assert.equal(first.data.method, "notifications/tools/list_changed");

    // Resume: the two that followed, with their ids, then the stream goes on live.
    const resumed = await get({ ...session, "Last-Event-ID": first.id });
    assert.equal(resumed.status, 200);
    const replay = await readEvents(resumed, 2);
    assert.equal(replay.events.length, 2);
    const stream = first.id.split(".")[0];
    const seq = (id) => Number(id.split(".")[1]);
    for (const e of replay.events) assert.equal(e.id.split(".")[0], stream, "same stream");
    assert.ok(seq(replay.events[0].id) > seq(first.id) && seq(replay.events[1].id) > seq(replay.events[0].id));
    app.tool("t4", {}, async () => text("t4"));
    const live = await readEvents({ body: { getReader: () => replay.reader } }, 1);
    assert.equal(live.events[0].id.split(".")[0], stream);
    assert.ok(seq(live.events[0].id) > seq(replay.events[1].id));
    await replay.reader.cancel();

    // A POST's stream: the elicitation and the answer carry ids; resuming after the first
    // replays the answer only.
    const call = await post({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "ask", arguments: {} } }, session);
    assert.match(call.headers.get("content-type"), /text\/event-stream/);
    const asked = await readEvents(call, 1);
    const question = asked.events[0];
    assert.equal(question.data.method, "elicitation/create");
    assert.ok(question.id);
    await (await post({ jsonrpc: "2.0", id: question.data.id, result: { action: "decline" } }, session)).text();
    const answered = await readEvents({ body: { getReader: () => asked.reader } }, 1);
    assert.equal(answered.events[0].data.result.content[0].text, "hello decline");
    const again = await get({ ...session, "Last-Event-ID": question.id });
    assert.equal(again.status, 200);
    const replayed = await readEvents(again, 5);
    assert.deepEqual(replayed.events.map((e) => e.id), [answered.events[0].id]);

    // Another session cannot name this session's events.
    const other = await post(initialize(), {});
    const otherSession = { "Mcp-Session-Id": other.headers.get("mcp-session-id"), "MCP-Protocol-Version": V25 };
    await other.text();
    const stolen = await get({ ...otherSession, "Last-Event-ID": first.id });
    assert.equal(stolen.status, 400);
    assert.equal((await stolen.json()).error.code, -32600);

    // The log is bounded (maxReplayBytes 4096): after 100 more events, the first is gone (410).
    const keep = await get(session);
    for (let i = 0; i < 100; i++) app.tool(`more${i}`, {}, async () => text("more"));
    await readEvents(keep, 100).then(({ reader: r }) => r.cancel());
    const gone = await get({ ...session, "Last-Event-ID": first.id });
    assert.equal(gone.status, 410);
    assert.deepEqual((await gone.json()).error.data, { limit: 4096, cap: "maxReplayBytes" });
  } finally {
    await app.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("the SSE events kept for resumption are bounded across sessions too (maxReplayBytesTotal); an ended session frees its share", async () => {
  const app = new McpHttpServer({ name: "sse", version: "1", maxReplayBytes: 4096, maxReplayBytesTotal: 6000 });
  const fetchFn = (request) => app.fetch(request);
  const streams = [];
  const sessions = [];
  for (let i = 0; i < 3; i++) {
    const headers = await openSession(fetchFn);
    sessions.push(headers);
    const res = await app.fetch(new Request(BASE, { headers: { Accept: "text/event-stream", ...headers } }));
    assert.equal(res.status, 200);
    streams.push(res);
  }
  for (let i = 0; i < 60; i++) app.tool(`t${i}`, {}, async () => text("t"));
  assert.ok(internals(app).replayBytes.bytes > 0 && internals(app).replayBytes.bytes <= 6000, `kept ${internals(app).replayBytes.bytes}`);
  for (const s of sessions) assert.ok(internals(app).sessions.get(s["Mcp-Session-Id"]).events.bytes <= 4096);
  // The latest events of each stream are still resumable.
  const { events } = await readEvents(streams[2], 60);
  const resumed = await app.fetch(new Request(BASE, { headers: { Accept: "text/event-stream", ...sessions[2], "Last-Event-ID": events.at(-2).id } }));
  assert.equal(resumed.status, 200);
  for (const r of streams) await r.body.cancel().catch(() => {});
  await resumed.body.cancel();
  for (const s of sessions) {
    assert.equal((await app.fetch(new Request(BASE, { method: "DELETE", headers: s }))).status, 200);
  }
  assert.equal(internals(app).replayBytes.bytes, 0, "every session's share is freed");
  await app.close();
});

test("maxSubscriptionStreams bounds the open subscriptions/listen streams (HTTP 503, Server busy); a closed one makes room", async () => {
  assert.throws(() => new McpHttpServer({ name: "s", version: "1", maxSubscriptionStreams: -1 }), /maxSubscriptionStreams/);
  const app = new McpHttpServer({ name: "subs", version: "1", maxSubscriptionStreams: 1 });
  const listen = () =>
    app.fetch(
      new Request(BASE, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...modernHeaders("subscriptions/listen") },
        body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "subscriptions/listen", params: { notifications: { taskIds: [] }, _meta: META } }),
      }),
      { remoteAddress: "127.0.0.1" },
    );
  const first = await listen();
  assert.equal(first.status, 200);
  assert.match(first.headers.get("content-type"), /^text\/event-stream/);
  const second = await listen();
  assert.equal(second.status, 503);
  assert.equal(second.headers.get("retry-after"), "5");
  const body = await second.json();
  assert.equal(body.error.code, -32000);
  assert.match(body.error.message, /Server busy: 1 subscriptions/);
  await first.body.cancel();
  let third;
  for (let i = 0; i < 50; i++) {
    third = await listen();
    if (third.status === 200) break;
    await third.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.equal(third.status, 200);
  await third.body.cancel();
  await app.close();
});
