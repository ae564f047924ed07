// TaskClient end to end, in real time, against real servers:
// - 2026-07-28: examples/conformance-server.mjs over Streamable HTTP (fetch), every fixture tool;
// - 2025-11-25: an official SDK McpServer (@modelcontextprotocol/sdk 1.32.2) hosting tasks, the
//   client driving an official SDK Client through requestVia().
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";

import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { startExample } from "./example-server.mjs";

const { TaskClient, TaskFailedError, TaskCancelledError, requestVia } = await import("./.tmp/install/esm.mjs");

const V26 = "2026-07-28";

/** @type {import("node:child_process").ChildProcess} */
let server;
let url = "";

before(async () => {
  ({ url, process: server } = await startExample());
});

after(() => server?.kill());

/** Streamable HTTP, JSON responses, with the standard headers (§D 111). Records each method. */
function httpRequest(sent) {
  let id = 1;
  return async (method, params) => {
    sent.push(method);
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": V26, "Mcp-Method": method };
    if (typeof params.taskId === "string") headers["Mcp-Name"] = params.taskId;
    else if (method === "tools/call") headers["Mcp-Name"] = params.name;
    const res = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params }) });
    const message = await res.json();
    if (message.error) throw Object.assign(new Error(message.error.message), message.error);
    return message.result;
  };
}

function v26Client(handlers = {}) {
  const sent = [];
  const client = new TaskClient({ request: httpRequest(sent), handlers });
  return { client, sent, count: (m) => sent.filter((s) => s === m).length };
}

test("2026-07-28 over HTTP: sync, task, tool error, protocol error", async () => {
  const { client, count } = v26Client();
  const hello = await client.callTool("greet", { name: "e2e" });
  assert.equal(hello.content[0].text, "Hello, e2e!");
  const slow = await client.callTool("slow_compute", { seconds: 1, label: "e2e" });
  assert.ok(Array.isArray(slow.content) && slow.content.length > 0);
  assert.ok(count("tasks/get") >= 1 && count("tasks/get") <= 6, `${count("tasks/get")} polls for a 1 s task`);
  const toolError = await client.callTool("failing_job", {});
  assert.equal(toolError.isError, true, "a tool error is a completed task's result (§D 91)");
  await assert.rejects(client.callTool("protocol_error_job", {}), (e) => e instanceof TaskFailedError && Number.isInteger(e.code));
  client.close();
});

test("2026-07-28 over HTTP: input requests (one, then two at once) answered through tasks/update", async () => {
  const asked = [];
  const { client, count } = v26Client({
    elicitation: async (params) => {
      asked.push(params.message);
      return { action: "accept", content: { confirm: true, name: "e2e" } };
    },
  });
  const deleted = await client.callTool("confirm_delete", { filename: "a.txt" });
  assert.ok(Array.isArray(deleted.content));
  assert.equal(asked.length, 1);
  const multi = await client.callTool("multi_input", {});
  assert.ok(Array.isArray(multi.content));
  assert.equal(asked.length, 3, "each key answered once");
  assert.ok(count("tasks/update") >= 2);
  client.close();
});

test("2026-07-28 over HTTP: MRTR rounds before the task, then the task", async () => {
  const { client } = v26Client({ elicitation: async () => ({ action: "accept", content: { name: "Alice" } }) });
  const result = await client.callTool("test_tool_with_task", {});
  assert.match(JSON.stringify(result.content), /Alice/);
  client.close();
});

test("2026-07-28 over HTTP: aborting sends tasks/cancel; the server's task ends cancelled", async () => {
  const { client, count } = v26Client();
  const ac = new AbortController();
  const call = client.callTool("slow_compute", { seconds: 60, label: "cancel-me" }, { signal: ac.signal });
  await sleep(600);
  ac.abort();
  await assert.rejects(call, TaskCancelledError);
  assert.equal(count("tasks/cancel"), 1);
  client.close();
});

test("2025-11-25 through an official SDK Client, against an SDK McpServer hosting tasks", async () => {
  const taskStore = new InMemoryTaskStore();
  const sdkServer = new McpServer({ name: "e2e", version: "1.0.0" }, { capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore });
  sdkServer.experimental.tasks.registerToolTask(
    "square",
    { inputSchema: { n: z.number() }, execution: { taskSupport: "required" } },
    {
      async createTask({ n }, extra) {
        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 300 });
        setTimeout(() => extra.taskStore.storeTaskResult(task.taskId, "completed", { content: [{ type: "text", text: String(n * n) }] }), 700);
        return { task };
      },
      getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
    },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sdkClient = new Client({ name: "e2e-client", version: "1.0.0" });
  await sdkServer.connect(serverSide);
  await sdkClient.connect(clientSide);
  const sent = [];
  const sdkRequest = requestVia(sdkClient, ResultSchema);
  const client = new TaskClient({ protocolVersion: "2025-11-25", request: (m, p) => (sent.push(m), sdkRequest(m, p)) });
  const result = await client.callTool("square", { n: 12 }, { task: { ttl: 60_000 } });
  assert.equal(result.content[0].text, "144");
  assert.ok(sent.includes("tasks/get") || sent.includes("tasks/result"), sent.join(","));
  client.close();
  await sdkClient.close();
  await sdkServer.close();
  taskStore.cleanup();
});
