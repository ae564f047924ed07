// HttpConnection (js/client/http.ts, from the packed package): the Streamable HTTP wire, against
// scripted HTTP servers on 127.0.0.1 (each test plays the server's part exactly, records every
// HTTP request, and is stopped at the end), plus one parsing test whose `fetch` serves a canned
// event stream with chosen chunk boundaries. Real-server proofs are in client-connect.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";

const { HttpConnection, HttpError, RpcError, TransportError, VersionError, TaskClient, validateMessage } = await import("./.tmp/install/esm.mjs");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const SESSION = "session-1";

/**
 * A scripted server: `respond(req, res, body, server)` answers each HTTP request (after the body
 * is read); `log` has `{ method, headers, body }` of each. `run(fn)` starts it, runs
 * `fn(url, server)` and stops it (also on failure).
 */
async function withServer(respond, fn) {
  const server = { log: [], waiters: [] };
  /** Resolves with the next logged request that `match` accepts (already logged ones count). */
  server.next = (match) =>
    new Promise((resolve) => {
      const found = server.log.find(match);
      if (found) resolve(found);
      else server.waiters.push({ match, resolve });
    });
  const httpServer = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const raw = Buffer.concat(chunks).toString("utf8");
    const entry = { method: req.method, headers: req.headers, body: raw ? JSON.parse(raw) : undefined };
    server.log.push(entry);
    for (const w of [...server.waiters]) {
      if (w.match(entry)) {
        server.waiters.splice(server.waiters.indexOf(w), 1);
        w.resolve(entry);
      }
    }
    try {
      await respond(req, res, entry.body, server);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end(String(e));
    }
  });
  await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${httpServer.address().port}/mcp`;
  try {
    return await fn(url, server);
  } finally {
    httpServer.closeAllConnections();
    await new Promise((resolve) => httpServer.close(resolve));
  }
}

const json = (res, status, body, headers = {}) => {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};
const result = (id, r) => ({ jsonrpc: "2.0", id, result: r });
const rpcError = (id, code, message, data) => ({ jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } });
const sse = (res, headers = {}) => res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", ...headers });
const event = (message, id) => `${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(message)}\n\n`;
const posts = (server) => server.log.filter((r) => r.method === "POST");

/** A 2025-11-25 server's `initialize` / `notifications/initialized` answers; other requests go to `then`. */
function session(then, { version = V25, capabilities = {} } = {}) {
  return async (req, res, body, server) => {
    if (body?.method === "initialize") return json(res, 200, result(body.id, { protocolVersion: version, capabilities, serverInfo: { name: "scripted", version: "1" } }), { "Mcp-Session-Id": SESSION });
    if (body?.method === "notifications/initialized") return res.writeHead(202).end();
    if (req.method === "DELETE") return res.writeHead(200).end();
    return then(req, res, body, server);
  };
}

test("an SSE answer: comments, the priming event, CRLF, multi-line data, other event types; notifications go to onnotification", async () => {
  await withServer(
    session(async (req, res, body) => {
      sse(res);
      res.write(": a comment\r\n\r\nid: e0\r\ndata: \r\n\r\n"); // the SDK's priming event: no data
      res.write(`event: other\r\ndata: ${JSON.stringify(result(body.id, { wrong: true }))}\r\n\r\n`);
      res.write(`data: {"jsonrpc":"2.0","method":"notifications/message",\r\ndata: "params":{"level":"info","data":"working"}}\r\n\r\n`);
      res.end(event(result(body.id, { content: [{ type: "text", text: "done" }] }), "e1"));
    }),
    async (url) => {
      const notes = [];
      const connection = await HttpConnection.open(url, { protocolVersion: V25, onnotification: (m) => notes.push(m) });
      const answer = await connection.request("tools/call", { name: "t", arguments: {} });
      assert.deepEqual(answer, { content: [{ type: "text", text: "done" }] });
      assert.deepEqual(notes, [{ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } }]);
      await connection.close();
    },
  );
});

test("an SSE stream split at every byte (inside CRLF and inside a UTF-8 character) reads the same", async () => {
  const answer = { content: [{ type: "text", text: "café ☕ done" }] };
  const fetch = async (_url, init) => {
    const { id, method } = JSON.parse(init.body);
    if (method === "server/discover") return Response.json(result(id, { resultType: "complete", supportedVersions: [V26], capabilities: {} }));
    const text = `: hi\r\n\r\nid: 1\r\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\r\n\r\nid: 2\r\ndata: ${JSON.stringify(result(id, answer))}\r\n\r\n`;
    const bytes = new TextEncoder().encode(text);
    let i = 0;
    const body = new ReadableStream({ pull: (c) => (i < bytes.length ? c.enqueue(bytes.slice(i, ++i)) : c.close()) });
    return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
  };
  const notes = [];
  const connection = await HttpConnection.open("http://127.0.0.1:9/mcp", { fetch, protocolVersion: V26, onnotification: (m) => notes.push(m.method) });
  assert.deepEqual(await connection.request("tools/call", { name: "t" }), answer);
  assert.deepEqual(notes, ["notifications/progress"]);
  await connection.close();
});

test("the server's requests on the stream: answered by onrequest and POSTed back with the session; ping gets {}; without a handler -32601", async () => {
  await withServer(
    session(async (req, res, body, server) => {
      if (body?.method !== "tools/call") return res.writeHead(202).end();
      sse(res);
      res.write(event({ jsonrpc: "2.0", id: "s1", method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: {} } } }));
      res.write(event({ jsonrpc: "2.0", id: "s2", method: "ping" }));
      res.write(event({ jsonrpc: "2.0", id: "s3", method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } }));
      const [named, pinged, sampled] = await Promise.all(["s1", "s2", "s3"].map((id) => server.next((r) => r.body?.id === id && !r.body.method)));
      res.end(event(result(body.id, { content: [{ type: "text", text: `hello ${named.body.result.content.name}` }], pinged: pinged.body.result, sampled: sampled.body.error })));
    }),
    async (url, server) => {
      const client = await TaskClient.connect(url, { protocolVersion: V25, handlers: { elicitation: async (p) => ({ action: "accept", content: { name: p.message === "Name?" ? "Ada" : "?" } }) } });
      const answer = await client.callTool("t", {});
      assert.equal(answer.content[0].text, "hello Ada");
      assert.deepEqual(answer.pinged, {});
      assert.equal(answer.sampled.code, -32601);
      for (const r of posts(server).filter((p) => p.body?.id?.startsWith?.("s"))) {
        assert.equal(r.headers["mcp-session-id"], SESSION);
        assert.equal(r.headers["mcp-protocol-version"], V25);
      }
      await client.close();
      assert.equal(server.log.at(-1).method, "DELETE");
      assert.equal(server.log.at(-1).headers["mcp-session-id"], SESSION);
    },
  );
});

test("a stream that ends before the answer is resumed with GET and Last-Event-ID (after the server's retry)", async () => {
  await withServer(
    session(async (req, res, body, server) => {
      if (req.method === "GET") {
        assert.equal(req.headers["last-event-id"], "e7");
        const asked = server.log.find((r) => r.body?.method === "tasks/result");
        sse(res);
        return res.end(event(result(asked.body.id, { content: [] }), "e8"));
      }
      sse(res);
      res.end("retry: 10\nid: e7\ndata: \n\n");
    }),
    async (url, server) => {
      const connection = await HttpConnection.open(url, { protocolVersion: V25 });
      assert.deepEqual(await connection.request("tasks/result", { taskId: "t" }), { content: [] });
      const get = server.log.find((r) => r.method === "GET");
      assert.equal(get.headers["mcp-session-id"], SESSION);
      assert.equal(get.headers.accept, "text/event-stream");
      await connection.close();
    },
  );
});

test("discover answered -32022 naming 2025-06-18: initialize with it; the client speaks it the 2025 way", async () => {
  await withServer(
    session(async (req, res, body) => {
      if (body?.method === "server/discover") return json(res, 400, rpcError(body.id, -32022, "Unsupported protocol version", { supported: ["2025-06-18"], requested: V26 }));
      return json(res, 200, result(body.id, { content: [{ type: "text", text: "ok" }] }));
    }, { version: "2025-06-18" }),
    async (url, server) => {
      const client = await TaskClient.connect(url);
      assert.equal(client.connection.protocolVersion, "2025-06-18");
      assert.equal(client.protocolVersion, V25);
      assert.equal((await client.callTool("t", {}, { task: {} })).content[0].text, "ok");
      assert.equal(posts(server)[1].body.params.protocolVersion, "2025-06-18");
      const call = posts(server).find((r) => r.body?.method === "tools/call");
      assert.equal(call.headers["mcp-protocol-version"], "2025-06-18");
      assert.equal(call.body.params.task, undefined, "no capabilities.tasks: never augmented (§D 47)");
      await client.close();
    },
  );
});

test("typed failures: 401 (no fallback), a network failure (cause kept), HTTP errors with Retry-After, non-JSON, a JSON-RPC error at HTTP 400", async () => {
  await withServer(
    async (req, res) => json(res, 401, { error: "who are you" }, { "WWW-Authenticate": "Bearer" }),
    async (url, server) => {
      await assert.rejects(TaskClient.connect(url, { headers: { Authorization: "Bearer nope" } }), (e) => e instanceof HttpError && e.status === 401);
      assert.equal(server.log.length, 1, "no initialize after a 401");
      assert.equal(server.log[0].headers.authorization, "Bearer nope");
    },
  );

  const closed = http.createServer();
  await new Promise((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const deadUrl = `http://127.0.0.1:${closed.address().port}/mcp`;
  await new Promise((resolve) => closed.close(resolve));
  await assert.rejects(TaskClient.connect(deadUrl), (e) => e instanceof TransportError && e.cause instanceof Error);

  let n = 0;
  await withServer(
    session(async (req, res, body) => {
      n++;
      if (n === 1) return json(res, 429, { error: "slow down" }, { "Retry-After": "3" });
      if (n === 2) return res.writeHead(500, { "Content-Type": "text/plain" }).end("it broke");
      if (n === 3) return res.writeHead(200, { "Content-Type": "application/json" }).end("{not json");
      return json(res, 400, rpcError(body.id, -32602, "bad params", { field: "x" }));
    }),
    async (url) => {
      const connection = await HttpConnection.open(url, { protocolVersion: V25 });
      await assert.rejects(connection.request("tasks/get", { taskId: "a" }), (e) => e instanceof HttpError && e.status === 429 && e.retryAfterMs === 3000);
      await assert.rejects(connection.request("tasks/get", { taskId: "a" }), (e) => e instanceof HttpError && e.status === 500 && e.body === "it broke");
      await assert.rejects(connection.request("tasks/get", { taskId: "a" }), (e) => e instanceof TransportError && /not JSON/.test(e.message));
      await assert.rejects(connection.request("tasks/get", { taskId: "a" }), (e) => e instanceof RpcError && e.code === -32602 && e.status === 400 && e.data.field === "x");
      await connection.close();
    },
  );
});

test("versions: initialize answering an unknown version is a VersionError (session deleted); pinned 2026-07-28 refused with -32022 too", async () => {
  await withServer(
    session(async () => {}, { version: "1999-01-01" }),
    async (url, server) => {
      await assert.rejects(TaskClient.connect(url, { protocolVersion: V25 }), (e) => e instanceof VersionError && e.supported[0] === "1999-01-01");
      assert.deepEqual(server.log.map((r) => r.method), ["POST", "DELETE"]);
      assert.equal(server.log[1].headers["mcp-session-id"], SESSION);
    },
  );
  await withServer(
    async (req, res, body) => json(res, 400, rpcError(body.id, -32022, "Unsupported protocol version", { supported: [V25], requested: V26 })),
    async (url, server) => {
      await assert.rejects(TaskClient.connect(url, { protocolVersion: V26 }), (e) => e instanceof VersionError && e.supported.includes(V25));
      assert.deepEqual(posts(server).map((r) => r.body.method), ["server/discover"], "pinned: no fallback");
    },
  );
  await assert.rejects(TaskClient.connect("http://127.0.0.1:9/mcp", { protocolVersion: "2099-01-01" }), TypeError);
});

test("2026-07-28 headers: Mcp-Name of a name that is not header-safe goes as the Base64 sentinel, which the validator reads back", async () => {
  const name = "café ☕";
  await withServer(
    async (req, res, body) => {
      if (body.method === "server/discover") return json(res, 200, result(body.id, { resultType: "complete", supportedVersions: [V26], capabilities: {} }));
      const report = validateMessage(body, { version: V26, headers: req.headers });
      assert.deepEqual(report.issues.filter((i) => i.severity === "error"), []);
      json(res, 200, result(body.id, { resultType: "complete", content: [{ type: "text", text: "ok" }] }));
    },
    async (url, server) => {
      const client = await TaskClient.connect(url);
      assert.equal((await client.callTool(name, {})).content[0].text, "ok");
      const call = posts(server)[1];
      assert.match(call.headers["mcp-name"], /^=\?base64\?[A-Za-z0-9+/=]+\?=$/);
      assert.equal(Buffer.from(call.headers["mcp-name"].slice(9, -2), "base64").toString("utf8"), name);
      assert.equal(call.headers["mcp-method"], "tools/call");
      await client.close();
    },
  );
});

test("close(): a request in flight rejects with TransportError; a DELETE refused with 405 is fine", async () => {
  await withServer(
    session(async (req, res) => {
      if (req.method === "DELETE") return res.writeHead(405).end();
      sse(res); // never answers
      res.flushHeaders();
    }),
    async (url, server) => {
      const connection = await HttpConnection.open(url, { protocolVersion: V25 });
      const pending = assert.rejects(connection.request("tasks/result", { taskId: "t" }), (e) => e instanceof TransportError && /closed/.test(e.message));
      await server.next((r) => r.body?.method === "tasks/result");
      await connection.close();
      await pending;
      assert.equal(server.log.at(-1).method, "DELETE");
      assert.equal(server.log.at(-1).headers["mcp-session-id"], SESSION);
      await assert.rejects(connection.request("tasks/get", { taskId: "t" }), TransportError);
    },
  );
});
