// TaskClient.connect / HttpConnection against hostile or dead servers: the client is bounded by its
// own limits end to end, whatever the server does. Each server here is a node:http server on
// 127.0.0.1 written for the attack (stopped at the end, also on failure), except the resumption
// test, which runs the official SDK 1.32.2 server with its InMemoryEventStore:
// - the SSE decoder is linear in the bytes received (its counters, read from the internal module
//   http.js, not the package entry);
// - an SSE line or event, or a JSON answer, over `maxMessageBytes` fails typed (TransportError
//   `too_large`) and the client stops reading: the server sees the socket closed before it sent
//   everything;
// - `timeoutMs` bounds every exchange of a call (an endless keepalive stream on tools/call, on
//   tasks/result), `idleTimeoutMs` every exchange of the connection;
// - a 2025-11-25 server that dies mid-task (`unreachable`) or loses the session (HTTP 404
//   "Session not found": `session_lost`) ends the call, long before the task's TTL; a new call
//   opens a new session;
// - a redirect to another origin is not followed (neither the body nor X-Api-Key reach it); a
//   same-origin 307 is;
// - a dropped answer stream is resumed with GET and Last-Event-ID (the SDK server replays it), at
//   most `maxResumes` times; then a completed task's tasks/result is sent again.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { randomUUID } from "node:crypto";

import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { InMemoryEventStore } from "@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js";
import { buildServer } from "./sdk-http-server.mjs";

const { TaskClient, HttpConnection, TransportError, TaskExpiredError } = await import("./.tmp/install/esm.mjs");
// The SSE decoder's counters: internal (not exported by the package entry).
const internal = await import("./.tmp/install/node_modules/mcp-tasks-wasm/http.js");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const MiB = 1024 * 1024;
const HOUR = 3_600_000;

/**
 * Serves `respond(req, res, body, log)` on 127.0.0.1 (the body read and parsed first when it is
 * JSON; `log` gets `{ method, url, headers, body }` of each request), runs `fn(base, log)` with
 * `base` = "http://127.0.0.1:PORT", and stops the server (also on failure).
 */
async function withServer(respond, fn) {
  const log = [];
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const raw = Buffer.concat(chunks).toString("utf8");
    let body;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    log.push({ method: req.method, url: req.url, headers: req.headers, body });
    try {
      await respond(req, res, body, log);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(e));
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    return await fn(base, log, server);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const json = (res, status, body, headers = {}) => {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

/** Writes `total` bytes of `x` in 1 MiB chunks (waiting for drain); resolves with what was written before the client hung up. */
async function flood(res, total) {
  const chunk = Buffer.alloc(MiB, "x");
  let sent = 0;
  let closed = false;
  res.on("close", () => (closed = true));
  while (sent < total && !closed) {
    const ok = res.write(chunk);
    sent += chunk.length;
    if (!ok) await new Promise((resolve) => {
      const done = () => {
        res.off("drain", done);
        res.off("close", done);
        resolve();
      };
      res.on("drain", done);
      res.on("close", done);
    });
  }
  if (!closed) res.end();
  return { sent, closed };
}

/** An SSE answer that sends only keepalive comments until the client leaves. */
function keepalives(res) {
  res.writeHead(200, { "Content-Type": "text/event-stream" });
  res.write(": keepalive\n\n");
  const t = setInterval(() => res.write(": keepalive\n\n"), 20);
  res.on("close", () => clearInterval(t));
}

const isTransport = (kind) => (e) => {
  assert.ok(e instanceof TransportError, `${e?.name}: ${e?.message}`);
  assert.equal(e.kind, kind, e.message);
  return true;
};

// ---- a scripted 2025-11-25 server ----------------------------------------------------------------

const at = new Date().toISOString();
const task = (taskId, status) => ({ taskId, status, createdAt: at, lastUpdatedAt: at, ttl: HOUR, pollInterval: 100 });

/**
 * The 2025-11-25 part every test below shares: server/discover refused (-32601, so the client
 * falls back), `initialize` (a new session each time, `sessions` records them), notifications
 * (202), DELETE (405), `tools/list` (tool `t`, taskSupport required); the rest goes to
 * `rest(req, res, body, session)`.
 */
function v25(rest, sessions = []) {
  return async (req, res, body) => {
    if (req.method === "DELETE") return void res.writeHead(405).end();
    if (req.method === "GET") return void res.writeHead(405).end();
    const id = body?.id;
    if (body?.method === "server/discover") return json(res, 200, { jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });
    if (body?.method === "initialize") {
      const session = `s${sessions.length + 1}`;
      sessions.push(session);
      return json(res, 200, { jsonrpc: "2.0", id, result: { protocolVersion: V25, capabilities: { tasks: { requests: { tools: { call: {} } } } }, serverInfo: { name: "scripted", version: "1" } } }, { "Mcp-Session-Id": session });
    }
    if (body && !("id" in body)) return void res.writeHead(202).end();
    if (body?.method === "tools/list") return json(res, 200, { jsonrpc: "2.0", id, result: { tools: [{ name: "t", inputSchema: { type: "object" }, execution: { taskSupport: "required" } }] } });
    return rest(req, res, body, req.headers["mcp-session-id"]);
  };
}

// ---- the SSE decoder is linear -------------------------------------------------------------------

test("the SSE decoder is linear: a 4 MiB data line in 1 KiB chunks is scanned and copied once (its counters), and reads the same", async () => {
  const { sseData, sseStats } = internal;
  assert.equal(typeof sseStats, "object", "the decoder's counters (sseStats) are exported by http.js");
  const size = 4 * MiB;
  const payload = "y".repeat(size);
  const bytes = new TextEncoder().encode(`: hello\r\ndata: ${payload}\r\n\r\n`);
  const step = 1024;
  const body = new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += step) controller.enqueue(bytes.subarray(i, i + step));
      controller.close();
    },
  });
  const before = { ...sseStats };
  const events = [];
  for await (const text of sseData(body)) events.push(text);
  assert.equal(events.length, 1);
  assert.equal(events[0].length, size);
  const scanned = sseStats.scanned - before.scanned;
  const copied = sseStats.copied - before.copied;
  // Each byte is examined at most once per line-end kind (LF, CR) and copied at most once.
  assert.ok(scanned <= 2 * bytes.length, `scanned ${scanned} bytes for ${bytes.length}`);
  assert.ok(copied <= bytes.length, `copied ${copied} bytes for ${bytes.length}`);
});

// ---- sizes ---------------------------------------------------------------------------------------

test("an SSE data line of 16 MiB (maxMessageBytes 1 MiB) and an SSE event of 300 MB (default 16 MiB) fail typed (too_large); the client stops reading", async () => {
  const outcomes = [];
  await withServer(async (req, res, body) => {
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    res.write(`id: 1\ndata: {"jsonrpc":"2.0","id":${body.id},"result":{"x":"`);
    const total = body.params.size;
    outcomes.push(flood(res, total).then((o) => ({ ...o, total })));
  }, async (base) => {
    const small = new HttpConnection(`${base}/mcp`, { maxMessageBytes: MiB, maxResumes: 0 });
    await assert.rejects(small.request("tools/call", { size: 16 * MiB }), (e) => isTransport("too_large")(e) && e.limit === MiB);
    const dflt = new HttpConnection(`${base}/mcp`, { maxResumes: 0 });
    await assert.rejects(dflt.request("tools/call", { size: 300 * 1000 * 1000 }), (e) => isTransport("too_large")(e) && e.limit === 16 * MiB && /maxMessageBytes/.test(e.message));
    for (const o of await Promise.all(outcomes)) {
      assert.ok(o.closed, "the client closed the stream");
      assert.ok(o.sent < o.total, `the server sent ${o.sent} of ${o.total} bytes before the client hung up`);
    }
  });
});

test("a JSON answer of 300 MB fails typed (too_large): a declared Content-Length at once, a chunked one once past the limit; the client stops reading", async () => {
  const outcomes = [];
  await withServer(async (req, res, body) => {
    const total = 300 * 1000 * 1000;
    const head = `{"jsonrpc":"2.0","id":${body.id},"result":{"x":"`;
    res.writeHead(200, { "Content-Type": "application/json", ...(body.params.declared ? { "Content-Length": String(total + head.length + 3) } : {}) });
    res.write(head);
    outcomes.push(flood(res, total).then((o) => ({ ...o, total })));
  }, async (base) => {
    const connection = new HttpConnection(`${base}/mcp`);
    await assert.rejects(connection.request("tools/list", { declared: true }), isTransport("too_large"));
    await assert.rejects(connection.request("tools/list", { declared: false }), (e) => isTransport("too_large")(e) && e.limit === 16 * MiB);
    for (const o of await Promise.all(outcomes)) {
      assert.ok(o.closed, "the client closed the answer");
      assert.ok(o.sent < o.total, `the server sent ${o.sent} of ${o.total} bytes`);
    }
  });
});

// ---- time ----------------------------------------------------------------------------------------

test("an endless keepalive stream on tools/call: the call's timeoutMs ends it (TaskExpiredError, no task), the connection's idleTimeoutMs ends a bare request (timeout)", { timeout: 30_000 }, async () => {
  await withServer(async (req, res) => keepalives(res), async (base) => {
    const connection = new HttpConnection(`${base}/mcp`);
    const client = new TaskClient({ request: connection.request, protocolVersion: V26 });
    try {
      await assert.rejects(client.callTool("t", {}, { timeoutMs: 300 }), (e) => {
        assert.ok(e instanceof TaskExpiredError, `${e?.name}: ${e?.message}`);
        assert.equal(e.taskId, "");
        assert.match(e.message, /deadline/);
        return true;
      });
    } finally {
      await client.close();
    }
    const idle = new HttpConnection(`${base}/mcp`, { idleTimeoutMs: 300 });
    await assert.rejects(idle.request("tools/call", { name: "t", arguments: {} }), (e) => isTransport("timeout")(e) && e.limit === 300);
  });
  // The idle wait pauses while the client answers the server's request on the stream (a user
  // taking longer than idleTimeoutMs to answer an elicitation is no dead server).
  let answered;
  const answer = new Promise((resolve) => (answered = resolve));
  await withServer(async (req, res, body) => {
    if (body?.method === "tools/call") {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id: "q1", method: "elicitation/create", params: { message: "sure?", requestedSchema: { type: "object", properties: {} } } })}\n\n`);
      const reply = await answer;
      res.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { content: [{ type: "text", text: reply.result.action }] } })}\n\n`);
      return;
    }
    if (body?.id === "q1") answered(body);
    res.writeHead(202).end();
  }, async (base) => {
    const slowUser = new HttpConnection(`${base}/mcp`, { idleTimeoutMs: 200, onrequest: () => new Promise((resolve) => setTimeout(() => resolve({ action: "accept", content: {} }), 600)) });
    const result = await slowUser.request("tools/call", { name: "t", arguments: {} });
    assert.equal(result.content[0].text, "accept");
  });
});

test("an endless keepalive stream on tasks/result (2025-11-25, the task completed): timeoutMs ends the call with TaskExpiredError", { timeout: 30_000 }, async () => {
  await withServer(v25(async (req, res, body) => {
    const id = body.id;
    if (body.method === "tools/call") return json(res, 200, { jsonrpc: "2.0", id, result: { task: task("t1", "working") } });
    if (body.method === "tasks/get") return json(res, 200, { jsonrpc: "2.0", id, result: task("t1", "completed") });
    if (body.method === "tasks/result") return keepalives(res);
    json(res, 200, { jsonrpc: "2.0", id, error: { code: -32601, message: "no" } });
  }), async (base, log) => {
    const client = await TaskClient.connect(`${base}/mcp`, { push: false });
    try {
      assert.equal(client.protocolVersion, V25);
      await assert.rejects(client.callTool("t", {}, { timeoutMs: 1_500 }), (e) => {
        assert.ok(e instanceof TaskExpiredError, `${e?.name}: ${e?.message}`);
        assert.equal(e.taskId, "t1");
        return true;
      });
      assert.ok(log.some((r) => r.body?.method === "tasks/result"), "tasks/result was open");
    } finally {
      await client.close();
    }
  });
});

// ---- a dead server, a lost session ---------------------------------------------------------------

test("a 2025-11-25 server that dies mid-task ends the call (TransportError unreachable) long before the task's TTL", { timeout: 30_000 }, async () => {
  let kill;
  const died = new Promise((resolve) => (kill = resolve));
  await withServer(v25(async (req, res, body) => {
    const id = body.id;
    if (body.method === "tools/call") return json(res, 200, { jsonrpc: "2.0", id, result: { task: task("t1", "working") } });
    if (body.method === "tasks/get") {
      json(res, 200, { jsonrpc: "2.0", id, result: task("t1", "working") });
      kill(); // the server goes away after this answer
      return;
    }
    json(res, 200, { jsonrpc: "2.0", id, error: { code: -32601, message: "no" } });
  }), async (base, log, server) => {
    const client = await TaskClient.connect(`${base}/mcp`, { push: false, unreachableMs: 500 });
    const call = client.callTool("t", {});
    call.catch(() => {});
    await died;
    server.closeAllConnections();
    server.close();
    try {
      await assert.rejects(call, (e) => isTransport("unreachable")(e) && /t1/.test(e.message) && e.cause instanceof TransportError);
    } finally {
      await client.close();
    }
  });
});

test("a 2025-11-25 server that answers 404 Session not found ends the call (TransportError session_lost); the next call opens a new session", { timeout: 30_000 }, async () => {
  const sessions = [];
  await withServer(v25(async (req, res, body, session) => {
    const id = body.id;
    if (session === "s1" && body.method === "tasks/get") {
      // The server restarted: it knows no session s1 any more.
      return json(res, 404, { jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } });
    }
    if (body.method === "tools/call") return json(res, 200, { jsonrpc: "2.0", id, result: { task: task(`task-of-${session}`, "working") } });
    if (body.method === "tasks/get") return json(res, 200, { jsonrpc: "2.0", id, result: task(body.params.taskId, "completed") });
    if (body.method === "tasks/result") return json(res, 200, { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: `done in ${session}` }], _meta: { "io.modelcontextprotocol/related-task": { taskId: body.params.taskId } } } });
    json(res, 200, { jsonrpc: "2.0", id, error: { code: -32601, message: "no" } });
  }, sessions), async (base, log) => {
    const client = await TaskClient.connect(`${base}/mcp`, { push: false });
    try {
      await assert.rejects(client.callTool("t", {}, { task: { ttl: HOUR } }), (e) => isTransport("session_lost")(e) && /task-of-s1/.test(e.message));
      const result = await client.callTool("t", {});
      assert.equal(result.content[0].text, "done in s2");
      assert.deepEqual(sessions, ["s1", "s2"]);
      assert.equal(log.filter((r) => r.body?.method === "tasks/get" && r.headers["mcp-session-id"] === "s1").length, 1, "the lost session was not polled again");
    } finally {
      await client.close();
    }
  });
});

// ---- redirects -----------------------------------------------------------------------------------

test("redirects: a 307 to another origin is not followed (TransportError redirect naming it; neither the body nor X-Api-Key reach it); a same-origin 307 is", async () => {
  await withServer(async (req, res, body) => json(res, 200, { jsonrpc: "2.0", id: body?.id ?? null, result: { stolen: true } }), async (other, otherLog) => {
    await withServer(async (req, res, body) => {
      if (req.url === "/away") return void res.writeHead(307, { Location: `${other}/mcp` }).end();
      if (req.url === "/here") return void res.writeHead(307, { Location: "/mcp2" }).end();
      json(res, 200, { jsonrpc: "2.0", id: body.id, result: { at: req.url } });
    }, async (base, log) => {
      const away = new HttpConnection(`${base}/away`, { headers: { "X-Api-Key": "secret" } });
      await assert.rejects(away.request("tools/list", { secret: "body" }), (e) => isTransport("redirect")(e) && e.location === `${other}/mcp`);
      assert.equal(otherLog.length, 0, "the other origin received nothing");
      const here = new HttpConnection(`${base}/here`, { headers: { "X-Api-Key": "secret" } });
      assert.deepEqual(await here.request("tools/list", { cursor: "c" }), { at: "/mcp2" });
      const followed = log.find((r) => r.url === "/mcp2");
      assert.equal(followed.method, "POST");
      assert.deepEqual(followed.body.params, { cursor: "c" });
      assert.equal(followed.headers["x-api-key"], "secret");
    });
  });
});

// ---- resumption ----------------------------------------------------------------------------------

test("a dropped answer stream is resumed: the SDK 1.32.2 server (InMemoryEventStore) replays the answer after GET with Last-Event-ID", { timeout: 30_000 }, async () => {
  const sessions = new Map();
  const built = [];
  let dropped = 0;
  await withServer(async (req, res, body) => {
    const session = req.headers["mcp-session-id"];
    // The first plain call of `echo` (the SDK runs it 300 ms): its stream is cut after the first
    // event (the priming event, which carries an id).
    if (req.method === "POST" && body?.method === "tools/call" && dropped === 0) {
      dropped++;
      const write = res.write.bind(res);
      let first = true;
      res.write = (...args) => {
        if (first) {
          first = false;
          setTimeout(() => res.socket?.destroy(), 50);
        }
        return write(...args);
      };
    }
    if (typeof session === "string" && sessions.has(session)) return sessions.get(session).handleRequest(req, res, body);
    if (req.method === "POST" && session === undefined && body?.method === "initialize") {
      const b = buildServer();
      built.push(b);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new InMemoryEventStore(),
        retryInterval: 50,
        onsessioninitialized: (id) => sessions.set(id, transport),
      });
      await b.server.connect(transport);
      return transport.handleRequest(req, res, body);
    }
    json(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad Request" } });
  }, async (base, log) => {
    const client = await TaskClient.connect(`${base}/mcp`, { push: false });
    try {
      assert.equal(client.protocolVersion, V25);
      const result = await client.callTool("echo", { text: "resumed" });
      assert.equal(result.content[0].text, "resumed");
      assert.equal(dropped, 1);
      const resumes = log.filter((r) => r.method === "GET" && r.headers["last-event-id"]);
      assert.equal(resumes.length, 1, "one GET with Last-Event-ID");
    } finally {
      await client.close();
      for (const t of sessions.values()) await t.close().catch(() => {});
      for (const b of built) {
        await b.server.close().catch(() => {});
        b.taskStore.cleanup();
      }
    }
  });
});

test("a dropped tasks/result stream is resumed at most maxResumes times, then tasks/result is sent again (the task completed: nothing else gives its result)", { timeout: 30_000 }, async () => {
  let results = 0;
  const related = (taskId) => ({ "io.modelcontextprotocol/related-task": { taskId } });
  /** An SSE stream that gives an event id, then drops (the socket is destroyed). */
  const dropAfterId = (res, id) => {
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    res.write(`id: ${id}\nretry: 10\ndata: \n\n`);
    setTimeout(() => res.socket?.destroy(), 20);
  };
  const inner = v25(async (req, res, body) => {
    const id = body.id;
    if (body.method === "tools/call") return json(res, 200, { jsonrpc: "2.0", id, result: { task: task("t1", "working") } });
    if (body.method === "tasks/get") return json(res, 200, { jsonrpc: "2.0", id, result: task("t1", "completed") });
    if (body.method === "tasks/result" && ++results === 1) return dropAfterId(res, "e0");
    if (body.method === "tasks/result") return json(res, 200, { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "the result" }], _meta: related("t1") } });
    json(res, 200, { jsonrpc: "2.0", id, error: { code: -32601, message: "no" } });
  });
  let resumed = 0;
  await withServer(async (req, res, body, log) => {
    if (req.method === "GET" && req.headers["last-event-id"]) return dropAfterId(res, `e${++resumed}`);
    return inner(req, res, body, log);
  }, async (base, log) => {
    const client = await TaskClient.connect(`${base}/mcp`, { push: false, maxResumes: 2 });
    try {
      const result = await client.callTool("t", {});
      assert.equal(result.content[0].text, "the result");
      const gets = log.filter((r) => r.method === "GET").map((r) => r.headers["last-event-id"]);
      assert.deepEqual(gets, ["e0", "e1"], "resumed from the last id each time, maxResumes times");
      assert.equal(results, 2, "then tasks/result was sent again");
    } finally {
      await client.close();
    }
  });
});
