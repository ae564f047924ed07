// McpServerTasks (js/server/sdk2.ts) inside an SDK 2.4.0 McpServer (tools/sdk2), in process, on the
// SDK's own createMcpHandler (its `fetch`, with the `authInfo` a bearer middleware would give):
// the transport's authInfo reaches the TaskHost (its clientId is the requestor whose live tasks
// are capped), an SDK server without tools of its own lists the task tools, and the SDK's own
// answers (a resource, its server/discover) stay its own. The real-peer matrix
// (tests/peers/matrix-sdk2-server.test.mjs) drives the example server over HTTP and stdio.
import { test, after } from "node:test";
import assert from "node:assert/strict";

const { McpServerTasks, TaskHost } = await import("../.tmp/install/server.mjs");
const sdk2 = (p) => new URL(`../../../tools/sdk2/node_modules/@modelcontextprotocol/${p}`, import.meta.url).href;
const { McpServer, createMcpHandler } = await import(sdk2("server/dist/index.mjs"));

const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const META = {
  "io.modelcontextprotocol/protocolVersion": V26,
  "io.modelcontextprotocol/clientInfo": { name: "sdk2-test", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } },
};

/** One 2026-07-28 request through the handler's fetch (with `authInfo`, as a middleware passes it). */
async function call(handler, method, params, authInfo) {
  const name = method === "tools/call" ? params.name : params.taskId ?? params.uri;
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": V26, "mcp-method": method };
  if (name !== undefined) headers["mcp-name"] = name;
  const request = new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } }),
  });
  const response = await handler.fetch(request, authInfo === undefined ? {} : { authInfo });
  const text = await response.text();
  const json = text.startsWith("{") ? JSON.parse(text) : JSON.parse(text.split("\n").find((l) => l.startsWith("data: ")).slice(6));
  return json;
}

const host = new TaskHost({ maxLiveTasksPerRequestor: 1 });
after(() => host.close());
const tasks = new McpServerTasks({ name: "sdk2-test", version: "1.0.0", host });
tasks.tool("wait", { taskSupport: "optional" }, async (_args, { signal }) => {
  await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
  return { content: [] };
});

test("the transport's authInfo reaches the TaskHost: one caller's live tasks are capped, another's are not, and each owns its tasks", async () => {
  const handler = createMcpHandler(() => tasks.attach(new McpServer({ name: "sdk2-test", version: "1.0.0" })));
  const alice = { token: "a", clientId: "alice", scopes: [], expiresAt: 4_000_000_000 };
  const bob = { token: "b", clientId: "bob", scopes: [], expiresAt: 4_000_000_000 };
  const first = await call(handler, "tools/call", { name: "wait", arguments: {} }, alice);
  assert.equal(first.result?.resultType, "task", JSON.stringify(first));
  const second = await call(handler, "tools/call", { name: "wait", arguments: {} }, alice);
  assert.equal(second.error?.code, -32010, JSON.stringify(second));
  assert.equal(second.error.data.cap, "maxLiveTasksPerRequestor");
  const other = await call(handler, "tools/call", { name: "wait", arguments: {} }, bob);
  assert.equal(other.result?.resultType, "task", "another principal is not capped by alice's task");
  // The tasks are bound to their owners (client id): another principal, or none, sees no such task.
  const foreign = await call(handler, "tasks/cancel", { taskId: first.result.taskId }, bob);
  assert.equal(foreign.error?.code, -32602, JSON.stringify(foreign));
  const anonymous = await call(handler, "tasks/get", { taskId: other.result.taskId });
  assert.equal(anonymous.error?.code, -32602, JSON.stringify(anonymous));
  for (const [t, who] of [[first, alice], [other, bob]]) {
    const cancelled = await call(handler, "tasks/cancel", { taskId: t.result.taskId }, who);
    assert.equal(cancelled.result?.resultType, "complete");
  }
});

test("an SDK server without tools of its own lists the task tools; its resource and discover answers stay its own", async () => {
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "sdk2-test", version: "1.0.0" });
    server.registerResource("readme", "note://readme", {}, async (uri) => ({ contents: [{ uri: uri.href, text: "hi" }] }));
    return tasks.attach(server);
  });
  const list = await call(handler, "tools/list", {});
  assert.deepEqual(list.result.tools.map((t) => t.name), ["wait"]);
  const read = await call(handler, "resources/read", { uri: "note://readme" });
  assert.equal(read.result.contents[0].text, "hi");
  const discover = await call(handler, "server/discover", {});
  assert.deepEqual(discover.result.capabilities.extensions, { [EXT]: {} });
  assert.ok(discover.result.capabilities.resources, "the SDK's own capabilities");
  assert.ok(discover.result.capabilities.tools, "tools, for the task tools");
  assert.equal(discover.result.capabilities.tasks, undefined, "never the legacy block in 2026-07-28 (§D 75)");
});

test("2025-11-25 on the stateless leg: a task's progress goes out on the stream of its blocked tasks/result (§A.g)", async () => {
  const legacyTasks = new McpServerTasks({ name: "sdk2-test", version: "1.0.0" });
  after(() => legacyTasks.host.close());
  // Reports progress every 20 ms, 50 times: the reports made before tasks/result arrives have no
  // stream (stateless: the call's POST was answered) and are dropped; the later ones have one.
  legacyTasks.tool("ticker", { taskSupport: "optional" }, async (_args, ctx) => {
    for (let i = 1; i <= 50; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      ctx.progress(i, 50);
    }
    return { content: [{ type: "text", text: "ticked" }] };
  });
  const handler = createMcpHandler(() => legacyTasks.attach(new McpServer({ name: "sdk2-test", version: "1.0.0" })));
  const post = async (message) => {
    const response = await handler.fetch(new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", ...message }),
    }));
    return (await response.text()).split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)));
  };
  const [created] = await post({ id: 1, method: "tools/call", params: { name: "ticker", arguments: {}, task: {}, _meta: { progressToken: "p" } } });
  const taskId = created.result.task.taskId;
  const stream = await post({ id: 2, method: "tasks/result", params: { taskId } });
  const result = stream.at(-1);
  assert.deepEqual(result.result.content, [{ type: "text", text: "ticked" }]);
  const progress = stream.filter((m) => m.method === "notifications/progress");
  assert.ok(progress.length >= 1, `progress on the tasks/result stream: ${JSON.stringify(stream)}`);
  for (const p of progress) {
    assert.equal(p.params.progressToken, "p");
    assert.equal(p.params._meta["io.modelcontextprotocol/related-task"].taskId, taskId);
  }
});
