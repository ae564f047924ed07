// McpHttpServer's node:http path (`app.node`) reads IncomingMessage and writes ServerResponse
// directly: no WHATWG Request or Response is built for a request (they cost about a fifth of the
// server's busy time under load), JSON answers go out whole with their Content-Length, SSE
// answers event by event. A custom `requestor` still gets the request as a WHATWG Request.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";

import { open } from "./raw-http.mjs";

const { McpHttpServer, validateMessage } = await import("../.tmp/install/server.mjs");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const META26 = {
  "io.modelcontextprotocol/protocolVersion": V26,
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
};
const text = (t) => ({ content: [{ type: "text", text: t }] });

/** Serves `app` on 127.0.0.1 (a free port). */
async function serve(app) {
  const server = http.createServer(app.node);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    async stop() {
      await app.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Counts the WHATWG Requests and Responses constructed while `fn` runs. */
async function countingWebObjects(fn) {
  const { Request: R, Response: S } = globalThis;
  const made = { Request: 0, Response: 0 };
  globalThis.Request = class extends R {
    constructor(...args) {
      super(...args);
      made.Request += 1;
    }
  };
  globalThis.Response = class extends S {
    constructor(...args) {
      super(...args);
      made.Response += 1;
    }
  };
  try {
    await fn();
  } finally {
    globalThis.Request = R;
    globalThis.Response = S;
  }
  return made;
}

test("node(req, res): a task's round trip in both eras builds no WHATWG Request or Response; JSON answers carry Content-Length, SSE ones stream", async () => {
  const app = new McpHttpServer({ name: "native", version: "1.0.0", path: "/mcp" });
  app.tool("square", { taskSupport: "optional", inputSchema: { type: "object", properties: { n: { type: "number" } } } }, ({ n }) => text(String(n * n)));
  app.tool("ask", { taskSupport: "forbidden" }, async (_args, { requestInput }) => {
    const { q } = await requestInput({ q: { method: "elicitation/create", params: { mode: "form", message: "ok?", requestedSchema: { type: "object", properties: {} } } } });
    return text(`answer: ${q.action}`);
  });
  const { url, stop } = await serve(app);
  try {
    const made = await countingWebObjects(async () => {
      const init = await open(url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: V25, capabilities: { elicitation: {} }, clientInfo: { name: "t", version: "1" } } }).answer;
      assert.equal(init.status, 200);
      assert.equal(init.headers["content-length"], String(Buffer.byteLength(JSON.stringify(init.body))));
      const session = init.headers["mcp-session-id"];
      const h = { "Mcp-Session-Id": session, "MCP-Protocol-Version": V25 };
      const created = await open(url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "square", arguments: { n: 7 }, task: {} } }, h).answer;
      assert.equal(validateMessage(created.body, { version: V25, inReplyTo: "tools/call" }).valid, true, JSON.stringify(created.body));
      const taskId = created.body.result.task.taskId;
      const got = await open(url, { jsonrpc: "2.0", id: 3, method: "tasks/get", params: { taskId } }, h).answer;
      assert.equal(got.body.result.taskId, taskId);
      const result = await open(url, { jsonrpc: "2.0", id: 4, method: "tasks/result", params: { taskId } }, h).answer;
      assert.equal(result.body.result.content[0].text, "49");

      // A synchronous call that asks the client: its answer turns into an SSE stream, the
      // request first (with an event id), then the result once the client has answered.
      const asking = open(url, { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "ask", arguments: {} } }, h);
      const streamed = new Promise((resolve, reject) => {
        asking.request.once("response", (res) => {
          let raw = "";
          res.setEncoding("utf8");
          res.on("data", (d) => {
            raw += d;
            const m = /id: (\S+)\nevent: message\ndata: (.*)\n\n/.exec(raw);
            if (m && !resolve.done) {
              resolve.done = true;
              resolve({ headers: res.headers, eventId: m[1], message: JSON.parse(m[2]) });
            }
          });
          res.on("error", reject);
        });
      });
      const first = await streamed;
      assert.equal(first.headers["content-type"], "text/event-stream");
      assert.match(first.eventId, /^[0-9a-f-]{36}\.[0-9]+$/);
      assert.equal(first.message.method, "elicitation/create");
      const ack = await open(url, { jsonrpc: "2.0", id: first.message.id, result: { action: "decline" } }, h).answer;
      assert.equal(ack.status, 202);
      const answered = await asking.answer;
      assert.equal(answered.body.result.content[0].text, "answer: decline");

      const h26 = { "MCP-Protocol-Version": V26, "Mcp-Method": "tools/call", "Mcp-Name": "square" };
      const modern = await open(url, { jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "square", arguments: { n: 3 }, _meta: META26 } }, h26).answer;
      assert.equal(modern.status, 200);
      assert.equal(modern.body.result.resultType, "task", JSON.stringify(modern.body));
    });
    assert.deepEqual(made, { Request: 0, Response: 0 });
  } finally {
    await stop();
  }
});

test("node(req, res): a custom requestor gets the request as a WHATWG Request, and bounds sessions by it", async () => {
  const seen = [];
  const app = new McpHttpServer({
    name: "native",
    version: "1.0.0",
    maxSessionsPerRequestor: 1,
    requestor: (request, info) => {
      seen.push({ isRequest: request instanceof Request, method: request.method, path: new URL(request.url).pathname, address: info.remoteAddress });
      return request.headers.get("x-client");
    },
  });
  const { url, stop } = await serve(app);
  try {
    const init = (client) =>
      open(url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: V25, capabilities: {}, clientInfo: { name: client, version: "1" } } }, { "X-Client": client }).answer;
    assert.equal((await init("alice")).status, 200);
    const again = await init("alice");
    assert.equal(again.status, 429);
    assert.equal(again.body.error.data.cap, "maxSessionsPerRequestor");
    assert.equal((await init("bob")).status, 200);
    assert.deepEqual(seen[0], { isRequest: true, method: "POST", path: "/mcp", address: "127.0.0.1" });
    assert.equal(seen.length, 3);
  } finally {
    await stop();
  }
});

test("node(req, res): a body over maxBodyBytes, declared or chunked, is answered 413 with a JSON-RPC error (the connection closes); the server goes on", async () => {
  const app = new McpHttpServer({ name: "native", version: "1.0.0", maxBodyBytes: 1024 });
  const { url, stop } = await serve(app);
  /** POSTs `chunks` (chunked unless `length` is given): the answer, or the connection's error. */
  const send = (chunks, length) =>
    new Promise((resolve) => {
      const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
      if (length !== undefined) headers["Content-Length"] = String(length);
      const req = http.request(url, { method: "POST", headers, agent: false }, (res) => {
        let raw = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (raw += d));
        res.on("end", () => resolve({ status: res.statusCode, connection: res.headers.connection, body: JSON.parse(raw) }));
      });
      req.on("error", (e) => resolve({ error: e.code ?? e.message }));
      req.setTimeout(10_000, () => req.destroy(new Error("no answer in 10 s"))); // a hang fails, not waits
      let i = 0;
      const more = () => {
        if (i < chunks.length) req.write(chunks[i++], more);
        else req.end();
      };
      more();
    });
  try {
    const declared = await send(["{}"], 10 * 1024 * 1024);
    const chunked = await send(Array.from({ length: 64 }, () => "x".repeat(512)));
    for (const answer of [declared, chunked]) {
      assert.equal(answer.status, 413, JSON.stringify(answer));
      assert.equal(answer.connection, "close");
      assert.equal(answer.body.error.code, -32600);
      assert.match(answer.body.error.message, /too large/);
    }
    const init = await open(url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: V25, capabilities: {}, clientInfo: { name: "t", version: "1" } } }).answer;
    assert.equal(init.status, 200);
  } finally {
    await stop();
  }
});
