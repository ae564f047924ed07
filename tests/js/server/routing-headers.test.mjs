// McpHttpServer's `routingHeaders` option (docs/decisions/routing-headers.md), through the
// installed package over real HTTP on 127.0.0.1 (node:http adapter, plain fetch, no client
// library): "strict" (the default) answers a 2026-07-28 `tasks/get|update|cancel` without
// `Mcp-Name` (or any request without `Mcp-Method`) with -32020 and HTTP 400 as §D 97 says;
// "allow-missing" serves it as if the header named the body's values; a header that is present
// and disagrees with the body is -32020 in both modes.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";

const { McpHttpServer, validateMessage } = await import("../.tmp/install/server.mjs");

const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const META = {
  "io.modelcontextprotocol/protocolVersion": V26,
  "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } },
};

/** Starts an McpHttpServer with `options` on 127.0.0.1 (a free port); `stop` closes it. */
async function start(options) {
  const app = new McpHttpServer({ name: "routing", version: "1.0.0", ...options });
  app.tool("slow", { taskSupport: "required" }, (_args, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))));
  const server = http.createServer(app.node);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/mcp`;
  let id = 1;
  /** POSTs a 2026-07-28 request with exactly `headers` (besides the content headers). */
  const rpc = async (method, params, headers) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params: { ...params, _meta: META } }),
    });
    const body = await res.json();
    assert.equal(validateMessage(body, { version: V26, inReplyTo: method }).valid, true, JSON.stringify(body));
    return { status: res.status, body };
  };
  const stop = async () => {
    await app.close?.();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { rpc, stop };
}

/** The full headers of a request, minus those named in `omit`, plus `extra`. */
function headersOf(method, name, omit = [], extra = {}) {
  const h = { "MCP-Protocol-Version": V26, "Mcp-Method": method };
  if (name !== undefined) h["Mcp-Name"] = name;
  for (const k of omit) delete h[k];
  return { ...h, ...extra };
}

/** Creates a task (all headers sent) and answers its id. */
async function createTask(rpc) {
  const r = await rpc("tools/call", { name: "slow", arguments: {} }, headersOf("tools/call", "slow"));
  assert.equal(r.body.result?.resultType, "task", JSON.stringify(r.body));
  return r.body.result.taskId;
}

for (const mode of [undefined, "strict", "allow-missing"]) {
  const label = mode ?? "default (strict)";
  const allow = mode === "allow-missing";

  test(`routingHeaders ${label}: tasks/get and tasks/cancel without Mcp-Name`, async () => {
    const { rpc, stop } = await start(mode === undefined ? {} : { routingHeaders: mode });
    try {
      const taskId = await createTask(rpc);
      const get = await rpc("tasks/get", { taskId }, headersOf("tasks/get", taskId, ["Mcp-Name"]));
      if (allow) {
        assert.equal(get.status, 200, JSON.stringify(get.body));
        assert.equal(get.body.result.taskId, taskId);
        assert.equal(get.body.result.status, "working");
      } else {
        assert.equal(get.status, 400);
        assert.equal(get.body.error.code, -32020);
        assert.match(get.body.error.message, /Mcp-Name/);
      }
      // Without Mcp-Method as well (nor Mcp-Name): the body's method routes it.
      const bare = await rpc("tasks/get", { taskId }, headersOf("tasks/get", taskId, ["Mcp-Name", "Mcp-Method"]));
      assert.equal(bare.status, allow ? 200 : 400, JSON.stringify(bare.body));
      if (!allow) assert.equal(bare.body.error.code, -32020);
      // A missing MCP-Protocol-Version is refused in both modes.
      const noVersion = await rpc("tasks/get", { taskId }, headersOf("tasks/get", taskId, ["MCP-Protocol-Version"]));
      assert.equal(noVersion.status, 400);
      assert.equal(noVersion.body.error.code, -32020);
      const cancel = await rpc("tasks/cancel", { taskId }, headersOf("tasks/cancel", taskId, ["Mcp-Name"]));
      assert.equal(cancel.status, allow ? 200 : 400, JSON.stringify(cancel.body));
      if (allow) assert.equal(cancel.body.result.resultType, "complete");
      else assert.equal(cancel.body.error.code, -32020);
      // With every header, the same requests are served in both modes.
      const full = await rpc("tasks/get", { taskId }, headersOf("tasks/get", taskId));
      assert.equal(full.status, 200);
      assert.equal(full.body.result.status, allow ? "cancelled" : "working");
      if (!allow) await rpc("tasks/cancel", { taskId }, headersOf("tasks/cancel", taskId));
    } finally {
      await stop();
    }
  });

  test(`routingHeaders ${label}: a present but mismatched header is -32020`, async () => {
    const { rpc, stop } = await start(mode === undefined ? {} : { routingHeaders: mode });
    try {
      const taskId = await createTask(rpc);
      const otherName = await rpc("tasks/get", { taskId }, headersOf("tasks/get", "someone-elses-task"));
      assert.equal(otherName.status, 400);
      assert.equal(otherName.body.error.code, -32020);
      const otherMethod = await rpc("tasks/get", { taskId }, headersOf("tasks/cancel", taskId));
      assert.equal(otherMethod.status, 400);
      assert.equal(otherMethod.body.error.code, -32020);
      // Mcp-Method left out, Mcp-Name naming another task: still the mismatch.
      const mixed = await rpc("tasks/get", { taskId }, headersOf("tasks/get", "someone-elses-task", ["Mcp-Method"]));
      assert.equal(mixed.status, 400);
      assert.equal(mixed.body.error.code, -32020);
      await rpc("tasks/cancel", { taskId }, headersOf("tasks/cancel", taskId));
    } finally {
      await stop();
    }
  });
}

test("routingHeaders: anything but strict or allow-missing is a TypeError", () => {
  for (const bad of ["lenient", true, 1]) {
    assert.throws(() => new McpHttpServer({ name: "x", version: "1", routingHeaders: bad }), TypeError);
  }
});
