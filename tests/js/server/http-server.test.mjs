// McpHttpServer (js/server/http-server.ts) through the installed package: the fetch handler
// called with Request objects (no socket) for both eras, and the node:http adapter on 127.0.0.1.
// Era dispatch (initialize is always served), -32022 with data.supported,
// -32021 before any input is asked (§D 78), 2026-07-28 MRTR on a synchronous call, 2025-11-25
// requests to the client on the tasks/result stream (§A.g, §D 33) and on the GET stream,
// notifications/tasks/status (§D 43), sessions, CORS, limits, close. Every JSON-RPC message the
// server sends is checked with the package's validateMessage.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { request26 } from "../lib/messages.mjs";
// The classes' internal tables and bounds, read through their deliberate test hook
// (`@internal`, absent from the typings: js/core/internals.ts).
const internals = (o) => o[Symbol.for("mcp-tasks-wasm.internals")]();

const { McpHttpServer, validateMessage } = await import("../.tmp/install/server.mjs");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const RELATED = "io.modelcontextprotocol/related-task";
const BASE = "http://127.0.0.1/mcp";

const elicit = (message) => ({
  method: "elicitation/create",
  params: { mode: "form", message, requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } },
});
const text = (t) => ({ content: [{ type: "text", text: t }] });

/** A server with a few tools; `calls` counts handler and prepare runs. */
function makeApp(options = {}) {
  const calls = { prepare: 0, ask: 0 };
  const app = new McpHttpServer({ name: "test-server", version: "1.2.3", ...options });
  app.tool("echo", { taskSupport: "forbidden", description: "echoes" }, ({ say }) => text(String(say)));
  app.tool("ask", { taskSupport: "optional" }, async (_args, { requestInput }) => {
    calls.ask += 1;
    const { q } = await requestInput({ q: elicit("Proceed?") }, "waiting for the user");
    return text(`answer: ${q.action}${q.content ? ` ${q.content.ok}` : ""}`);
  });
  app.tool(
    "prepared",
    {
      taskSupport: "required",
      prepare: async (_args, { requestInput }) => {
        calls.prepare += 1;
        return (await requestInput({ who: elicit("Who?") })).who.action;
      },
    },
    async (_args, { prepared }) => text(`prepared: ${prepared}`),
  );
  app.tool("wait", { taskSupport: "optional" }, (_args, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))));
  return { app, calls };
}

let nextId = 1;

/** Asserts `message` passes the validator for `version` (answering `method` when given). */
function check(message, version, method) {
  const r = validateMessage(message, method ? { version, inReplyTo: method } : { version });
  assert.equal(r.valid, true, `${JSON.stringify(r.issues)} in ${JSON.stringify(message)}`);
  return message;
}

/** POSTs through app.fetch; `body` is the JSON-RPC message. */
async function post(app, body, headers = {}) {
  return app.fetch(
    new Request(BASE, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

/** A 2026-07-28 request with `_meta` and the §B.f headers; its response parsed. */
async function modern(app, method, params = {}, { ext = true, caps = { elicitation: {} }, headers = {} } = {}) {
  const message = request26(nextId++, method, params, { ext, caps });
  /** @type {Record<string, string>} */
  const h = { "MCP-Protocol-Version": V26, "Mcp-Method": method };
  if (typeof params.taskId === "string") h["Mcp-Name"] = params.taskId;
  else if (method === "tools/call") h["Mcp-Name"] = params.name;
  const res = await post(app, message, { ...h, ...headers });
  const body = await res.json();
  assert.equal(res.headers.get("content-type"), "application/json");
  check(body, V26, method);
  return { status: res.status, body };
}

/** Opens a 2025-11-25 session: `{ session, legacy }`, `legacy(method, params)` posting in it. */
async function openSession(app, capabilities = { elicitation: {} }) {
  const res = await post(app, { jsonrpc: "2.0", id: nextId++, method: "initialize", params: { protocolVersion: V25, capabilities, clientInfo: { name: "t", version: "1" } } });
  assert.equal(res.status, 200);
  const session = res.headers.get("mcp-session-id");
  assert.ok(session);
  const init = await res.json();
  assert.equal(init.result.protocolVersion, V25);
  await post(app, { jsonrpc: "2.0", method: "notifications/initialized" }, { "Mcp-Session-Id": session, "MCP-Protocol-Version": V25 });
  const sessionHeaders = { "Mcp-Session-Id": session, "MCP-Protocol-Version": V25 };
  return {
    session,
    headers: sessionHeaders,
    /** POSTs `method` in the session: the raw Response. */
    send: (method, params, extra = {}) => post(app, { jsonrpc: "2.0", id: nextId++, method, ...(params === undefined ? {} : { params }) }, { ...sessionHeaders, ...extra }),
    /** POSTs the client's answer to the server's request `id`. */
    answer: (id, result) => post(app, { jsonrpc: "2.0", id, result }, sessionHeaders),
  };
}

/** Reads an SSE response body message by message. */
function sse(res) {
  assert.equal(res.headers.get("content-type"), "text/event-stream");
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    /** The next JSON-RPC message, or `null` at the end of the stream. */
    async next() {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event
            .split("\n")
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).trim())
            .join("\n");
          if (data) return JSON.parse(data);
          continue;
        }
        const { done, value } = await reader.read();
        if (done) return null;
        buffer += value;
      }
    },
    cancel: () => reader.cancel(),
  };
}

// ---- era dispatch --------------------------------------------------------------------------------

test("initialize is always served (also with modern headers), whatever version it asks; other requests need a session or modern _meta", async () => {
  const { app } = makeApp();
  for (const [asked, headers] of [
    [V25, {}],
    ["2025-06-18", {}],
    [V26, { "Mcp-Method": "initialize", "MCP-Protocol-Version": V26 }],
  ]) {
    const res = await post(app, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: "c", version: "1" } } }, headers);
    assert.equal(res.status, 200, `initialize ${asked}`);
    const { result } = await res.json();
    assert.equal(result.protocolVersion, V25);
    // §D 39: `list` is offered because a session identifies the requestor.
    assert.deepEqual(result.capabilities, { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } }, tools: { listChanged: true } });
    assert.deepEqual(result.serverInfo, { name: "test-server", version: "1.2.3" });
    assert.ok(res.headers.get("mcp-session-id"));
  }
  const bad = await (await post(app, { jsonrpc: "2.0", id: 2, method: "initialize", params: {} })).json();
  assert.equal(bad.error.code, -32602);

  const noSession = await post(app, { jsonrpc: "2.0", id: 3, method: "tools/list" });
  assert.equal(noSession.status, 400);
  assert.equal((await noSession.json()).error.code, -32600);
  const unknown = await post(app, { jsonrpc: "2.0", id: 4, method: "tools/list" }, { "Mcp-Session-Id": "nope" });
  assert.equal(unknown.status, 404);
  assert.equal((await unknown.json()).error.code, -32001);
  const batch = await post(app, [{ jsonrpc: "2.0", id: 5, method: "ping" }]);
  assert.equal(batch.status, 400);
  const garbage = await post(app, "{not json");
  assert.equal((await garbage.json()).error.code, -32700);
});

test("-32022 with data.supported for a version it does not speak (HTTP 400): in _meta, in the header alone, in a session", async () => {
  const { app } = makeApp();
  const inMeta = await post(
    app,
    { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01", "io.modelcontextprotocol/clientCapabilities": {} } } },
    { "MCP-Protocol-Version": "2099-01-01", "Mcp-Method": "tools/list" },
  );
  assert.equal(inMeta.status, 400);
  assert.deepEqual((await inMeta.json()).error, {
    code: -32022,
    message: "Unsupported protocol version: 2099-01-01",
    data: { supported: [V26, V25], requested: "2099-01-01" },
  });
  const headerOnly = await post(app, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { "MCP-Protocol-Version": "1999-01-01" });
  assert.equal(headerOnly.status, 400);
  assert.deepEqual((await headerOnly.json()).error.data, { supported: [V26, V25], requested: "1999-01-01" });
  const { send } = await openSession(app);
  const inSession = await send("tools/list", undefined, { "MCP-Protocol-Version": "2099-01-01" });
  assert.equal(inSession.status, 400);
  assert.equal((await inSession.json()).error.code, -32022);
});

// ---- 2026-07-28 ----------------------------------------------------------------------------------

test("2026-07-28 through fetch: server/discover, tools/list without execution, a sync call, -32020, a task to its end", async () => {
  const { app } = makeApp({ instructions: "be nice" });
  const discover = await modern(app, "server/discover");
  assert.deepEqual(discover.body.result.supportedVersions, [V26, V25]);
  assert.deepEqual(discover.body.result.capabilities, { tools: {}, extensions: { [EXT]: {} } });
  assert.equal(discover.body.result.instructions, "be nice");
  assert.deepEqual(discover.body.result._meta["io.modelcontextprotocol/serverInfo"], { name: "test-server", version: "1.2.3" });
  const list = await modern(app, "tools/list");
  assert.deepEqual(list.body.result.tools.map((t) => [t.name, t.execution]), [["echo", undefined], ["ask", undefined], ["prepared", undefined], ["wait", undefined]]);
  assert.deepEqual(list.body.result.tools[0], { name: "echo", description: "echoes", inputSchema: { type: "object" } });
  const echo = await modern(app, "tools/call", { name: "echo", arguments: { say: "hi" } });
  assert.equal(echo.body.result.resultType, "complete");
  assert.equal(echo.body.result.content[0].text, "hi");
  const mismatch = await modern(app, "tools/call", { name: "echo", arguments: {} }, { headers: { "Mcp-Name": "ask" } });
  assert.equal(mismatch.status, 400);
  assert.equal(mismatch.body.error.code, -32020);
  const unknownTool = await modern(app, "tools/call", { name: "nope", arguments: {} });
  assert.equal(unknownTool.body.error.code, -32602);

  const created = await modern(app, "tools/call", { name: "ask", arguments: {} });
  assert.equal(created.body.result.resultType, "task");
  const taskId = created.body.result.taskId;
  let got = await modern(app, "tasks/get", { taskId });
  while (got.body.result.status === "working") got = await modern(app, "tasks/get", { taskId });
  assert.equal(got.body.result.status, "input_required");
  assert.deepEqual(got.body.result.inputRequests, { q: elicit("Proceed?") });
  await modern(app, "tasks/update", { taskId, inputResponses: { q: { action: "accept", content: { ok: true } } } });
  await app.host.idle();
  const done = await modern(app, "tasks/get", { taskId });
  assert.equal(done.body.result.status, "completed");
  assert.equal(done.body.result.result.content[0].text, "answer: accept true");
});

test("§D 78: a call that can only be a task, from a client without the extension, is refused before prepare asks anything", async () => {
  const { app, calls } = makeApp();
  const refused = await modern(app, "tools/call", { name: "prepared", arguments: {} }, { ext: false });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error.code, -32021);
  assert.deepEqual(refused.body.error.data, { requiredCapabilities: { extensions: { [EXT]: {} } } });
  assert.equal(calls.prepare, 0);
  // Declared: the MRTR round first (no task), then the task on the retry (§D 83).
  const round1 = await modern(app, "tools/call", { name: "prepared", arguments: {} });
  assert.equal(calls.prepare, 1);
  assert.equal(round1.body.result.resultType, "input_required");
  const round2 = await modern(app, "tools/call", {
    name: "prepared",
    arguments: {},
    inputResponses: { who: { action: "accept", content: { ok: true } } },
    requestState: round1.body.result.requestState,
  });
  assert.equal(round2.body.result.resultType, "task");
  await app.host.idle();
  const done = await modern(app, "tasks/get", { taskId: round2.body.result.taskId });
  assert.equal(done.body.result.result.content[0].text, "prepared: accept");
});

test("2026-07-28 synchronous call that needs input: InputRequiredResult with a signed requestState; the retry completes; a forged state is -32602", async () => {
  const { app, calls } = makeApp();
  const round1 = await modern(app, "tools/call", { name: "ask", arguments: { x: 1 } }, { ext: false });
  assert.equal(round1.status, 200);
  assert.equal(round1.body.result.resultType, "input_required");
  assert.deepEqual(round1.body.result.inputRequests, { q: elicit("Proceed?") });
  const state = round1.body.result.requestState;
  const forged = await modern(app, "tools/call", { name: "ask", arguments: { x: 1 }, inputResponses: { q: { action: "accept", content: { ok: true } } }, requestState: `x${state}` }, { ext: false });
  assert.equal(forged.body.error.code, -32602);
  const round2 = await modern(app, "tools/call", { name: "ask", arguments: { x: 1 }, inputResponses: { q: { action: "accept", content: { ok: true } } }, requestState: state }, { ext: false });
  assert.equal(round2.body.result.resultType, "complete");
  assert.equal(round2.body.result.content[0].text, "answer: accept true");
  assert.equal(calls.ask, 2, "the handler ran once per round");
});

// ---- 2025-11-25 ----------------------------------------------------------------------------------

test("2025-11-25 task: the elicitation goes out on the tasks/result SSE stream with related-task _meta; the answer resumes it; status notifications follow on that stream", async () => {
  const { app } = makeApp();
  const { send, answer } = await openSession(app);
  const list = await (await send("tools/list")).json();
  assert.deepEqual(list.result.tools.map((t) => [t.name, t.execution.taskSupport]), [["echo", "forbidden"], ["ask", "optional"], ["prepared", "required"], ["wait", "optional"]]);

  const created = await (await send("tools/call", { name: "ask", arguments: {}, task: { ttl: 60_000 } })).json();
  check(created, V25, "tools/call");
  const taskId = created.result.task.taskId;
  const resultReq = await send("tasks/result", { taskId });
  const stream = sse(resultReq);
  const asked = await stream.next();
  check(asked, V25);
  assert.equal(asked.method, "elicitation/create");
  assert.deepEqual(asked.params._meta[RELATED], { taskId }, "§D 33");
  const waiting = await (await send("tasks/get", { taskId })).json();
  assert.equal(waiting.result.status, "input_required");
  assert.equal(waiting.result.statusMessage, "waiting for the user");

  const ack = await answer(asked.id, { action: "accept", content: { ok: true } });
  assert.equal(ack.status, 202);
  const rest = [];
  for (let m = await stream.next(); m !== null; m = await stream.next()) rest.push(m);
  const notes = rest.filter((m) => m.method === "notifications/tasks/status");
  for (const n of notes) {
    check(n, V25);
    assert.equal(n.params.taskId, taskId);
    assert.equal(n.params._meta, undefined, "§D 43: no related-task _meta");
  }
  assert.deepEqual(notes.map((n) => n.params.status), ["working", "completed"]);
  const final = rest.at(-1);
  check(final, V25, "tasks/result");
  assert.equal(final.result.content[0].text, "answer: accept true");
  assert.deepEqual(final.result._meta[RELATED], { taskId });
});

test("2025-11-25 GET stream: requests and status notifications of a task come on it when no tasks/result is open; one per session; DELETE ends it and cancels the session's tasks", async () => {
  const { app } = makeApp();
  const { session, headers, send, answer } = await openSession(app);
  const listen = await app.fetch(new Request(BASE, { method: "GET", headers: { ...headers, Accept: "text/event-stream" } }));
  assert.equal(listen.status, 200);
  const events = sse(listen);
  const second = await app.fetch(new Request(BASE, { method: "GET", headers: { ...headers, Accept: "text/event-stream" } }));
  assert.equal(second.status, 409);

  const taskId = (await (await send("tools/call", { name: "ask", arguments: {}, task: {} })).json()).result.task.taskId;
  const first = await events.next();
  assert.equal(first.method, "notifications/tasks/status");
  assert.equal(first.params.status, "input_required");
  const asked = await events.next();
  assert.equal(asked.method, "elicitation/create");
  assert.deepEqual(asked.params._meta[RELATED], { taskId });
  await answer(asked.id, { action: "decline" });
  assert.deepEqual([(await events.next()).params.status, (await events.next()).params.status], ["working", "completed"]);
  const result = await (await send("tasks/result", { taskId })).json();
  assert.equal(result.result.content[0].text, "answer: decline");

  const waiting = (await (await send("tools/call", { name: "wait", arguments: {}, task: {} })).json()).result.task.taskId;
  const del = await app.fetch(new Request(BASE, { method: "DELETE", headers }));
  assert.equal(del.status, 200);
  assert.equal(await events.next(), null, "the GET stream ended with the session");
  await app.host.idle();
  assert.equal(app.host.server.getTask(waiting).status, "cancelled", "the session's live task was cancelled");
  assert.equal((await send("ping")).status, 404);
  assert.equal((await app.fetch(new Request(BASE, { method: "DELETE", headers: { "Mcp-Session-Id": session } }))).status, 404);
});

test("an idle SSE stream carries keepalive comments (keepAliveMs) until it ends", async () => {
  const { app } = makeApp({ keepAliveMs: 1 });
  const { headers } = await openSession(app);
  const listen = await app.fetch(new Request(BASE, { method: "GET", headers: { ...headers, Accept: "text/event-stream" } }));
  const reader = listen.body.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes(": keepalive\n\n")) seen += (await reader.read()).value;
  await app.fetch(new Request(BASE, { method: "DELETE", headers }));
  for (let r = await reader.read(); !r.done; r = await reader.read()) assert.match(r.value, /^(: keepalive\n\n)+$/);
});

test("2025-11-25 synchronous call that needs input: asked on the call's own SSE stream; a client that does not accept SSE gets a tool error", async () => {
  const { app } = makeApp();
  const { send, answer } = await openSession(app);
  const res = await send("tools/call", { name: "ask", arguments: {} });
  const stream = sse(res);
  const asked = await stream.next();
  assert.equal(asked.method, "elicitation/create");
  assert.equal(asked.params._meta, undefined, "no task: no related-task _meta");
  await answer(asked.id, { action: "accept", content: { ok: false } });
  const final = await stream.next();
  check(final, V25, "tools/call");
  assert.equal(final.result.content[0].text, "answer: accept false");
  assert.equal(await stream.next(), null);

  const jsonOnly = await (await send("tools/call", { name: "ask", arguments: {} }, { Accept: "application/json" })).json();
  assert.equal(jsonOnly.result.isError, true);
  assert.match(jsonOnly.result.content[0].text, /SSE/);

  // A client that did not declare elicitation at initialize is not asked (§D 98).
  const { send: sendNoCaps } = await openSession(app, {});
  const refused = await (await sendNoCaps("tools/call", { name: "ask", arguments: {} })).json();
  assert.match(refused.result.content[0].text, /requestInput.*elicitation/);
});

// ---- HTTP ------------------------------------------------------------------------------------------

test("origins, CORS, path, methods, body limit, close", async () => {
  const { app } = makeApp({ path: "/mcp", maxBodyBytes: 200 });
  const pre = await app.fetch(new Request(BASE, { method: "OPTIONS", headers: { Origin: "http://localhost:5173" } }));
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get("access-control-allow-origin"), "http://localhost:5173");
  assert.match(pre.headers.get("access-control-allow-headers"), /Mcp-Session-Id/);
  assert.match(pre.headers.get("access-control-allow-methods"), /DELETE/);
  const init = await post(app, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: V25, capabilities: {} } }, { Origin: "http://127.0.0.1:8080" });
  assert.equal(init.headers.get("access-control-expose-headers"), "Mcp-Session-Id");
  const evil = await post(app, { jsonrpc: "2.0", id: 2, method: "ping" }, { Origin: "http://evil.example" });
  assert.equal(evil.status, 403);
  assert.equal((await app.fetch(new Request("http://127.0.0.1/other", { method: "POST", body: "{}" }))).status, 404);
  assert.equal((await app.fetch(new Request(BASE, { method: "PUT", body: "{}" }))).status, 405);
  assert.equal((await post(app, { jsonrpc: "2.0", id: 3, method: "ping", params: { pad: "x".repeat(300) } })).status, 413);
  assert.equal((await post(app, "<xml/>", { "Content-Type": "text/xml" })).status, 415);

  const { send } = await openSession(app);
  const taskId = (await (await send("tools/call", { name: "wait", arguments: {}, task: {} })).json()).result.task.taskId;
  const blocked = send("tasks/result", { taskId });
  await new Promise((r) => setTimeout(r, 0));
  await app.close();
  const answered = await (await blocked).json();
  assert.equal(answered.error.code, -32603);
  assert.equal((await post(app, { jsonrpc: "2.0", id: 4, method: "ping" })).status, 503);
});

test("node:http adapter: a real socket on 127.0.0.1; a client that goes away aborts its synchronous call", async () => {
  let aborted, started;
  const abortedPromise = new Promise((resolve) => (aborted = resolve));
  const startedPromise = new Promise((resolve) => (started = resolve));
  const app = new McpHttpServer({ name: "n", version: "1" });
  app.tool("hang", { taskSupport: "forbidden" }, (_args, { signal }) => {
    started();
    return new Promise((_, reject) =>
      signal.addEventListener("abort", () => {
        aborted(signal.reason);
        reject(signal.reason);
      }),
    );
  });
  const server = http.createServer(app.node);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/mcp`;
  try {
    const discover = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", "MCP-Protocol-Version": V26, "Mcp-Method": "server/discover" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": {} } } }),
    });
    assert.equal(discover.status, 200);
    assert.deepEqual((await discover.json()).result.serverInfo, { name: "n", version: "1" });

    const gone = new AbortController();
    const call = fetch(url, {
      method: "POST",
      signal: gone.signal,
      headers: { "Content-Type": "application/json", Accept: "application/json", "MCP-Protocol-Version": V26, "Mcp-Method": "tools/call", "Mcp-Name": "hang" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "hang", arguments: {}, _meta: { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": {} } } }),
    });
    await startedPromise;
    gone.abort();
    await assert.rejects(call);
    const reason = await abortedPromise;
    assert.equal(reason.name, "AbortError");
  } finally {
    await app.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("McpHttpServer needs its serverInfo; a bad tool registration throws", () => {
  assert.throws(() => new McpHttpServer({ name: "x" }), { name: "TypeError", message: /name, version/ });
  const app = new McpHttpServer({ name: "x", version: "1" });
  assert.throws(() => app.tool("t", { taskSupport: "sometimes" }, () => text("")), { name: "TypeError", message: /taskSupport/ });
  assert.equal(internals(app).tools.size, 0, "nothing was listed");
});
