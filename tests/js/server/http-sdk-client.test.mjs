// The official SDK Client (@modelcontextprotocol/sdk 1.32.2, 2025-11-25 only) against
// examples/conformance-server.mjs (McpHttpServer) over real HTTP on 127.0.0.1: initialize
// (always served: docs/decisions/real-peers.md), tools/list with execution.taskSupport, tasks
// through client.experimental.tasks.callToolStream to their final result, a failing tool, a
// JSON-RPC error, a cancel, elicitation answered by the SDK's handler while a task waits (§A.g)
// and on a synchronous call, input before a task (prepare), plain callTool, DELETE.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ElicitRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { startExample } from "../example-server.mjs";

const RELATED = "io.modelcontextprotocol/related-task";

/** @type {import("node:child_process").ChildProcess} */
let server;
let url = "";
/** @type {Client} */
let client;
/** @type {StreamableHTTPClientTransport} */
let transport;
/** Elicitation requests the SDK client received, and what the test answers to the next ones. */
const elicitations = [];
let answer = (_request) => ({ action: "accept", content: { confirm: true, name: "Ada" } });

before(async () => {
  ({ url, process: server } = await startExample());
  client = new Client({ name: "sdk-e2e", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicitations.push(request);
    return answer(request);
  });
  transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
});

after(async () => {
  await client?.close().catch(() => {});
  server?.kill();
});

/** Runs callToolStream to its end: the messages it yielded. */
async function stream(name, args = {}) {
  const messages = [];
  for await (const m of client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema)) messages.push(m);
  return messages;
}

const taskIdOf = (messages) => messages.find((m) => m.type === "taskCreated")?.task.taskId;
const final = (messages) => messages.at(-1);

test("initialize negotiates 2025-11-25 with a session; capabilities.tasks; tools/list shows execution.taskSupport", async () => {
  assert.equal(transport.protocolVersion, "2025-11-25");
  assert.match(transport.sessionId ?? "", /^[0-9a-f-]{36}$/);
  assert.deepEqual(client.getServerCapabilities().tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
  assert.equal(client.getServerVersion().name, "mcp-tasks-wasm-conformance-server");
  const { tools } = await client.listTools();
  assert.deepEqual(Object.fromEntries(tools.map((t) => [t.name, t.execution.taskSupport])), {
    greet: "forbidden",
    slow_compute: "optional",
    progress_job: "optional",
    failing_job: "required",
    protocol_error_job: "optional",
    confirm_delete: "optional",
    multi_input: "optional",
    test_tool_with_task: "required",
  });
  await client.ping();
});

test("callToolStream: a task tool to its final result; plain callTool of a synchronous tool", async () => {
  const messages = await stream("slow_compute", { seconds: 0.2, label: "sdk" });
  assert.equal(messages[0].type, "taskCreated");
  assert.equal(messages[0].task.status, "working");
  assert.ok(messages.some((m) => m.type === "taskStatus"));
  assert.equal(final(messages).type, "result");
  assert.equal(final(messages).result.content[0].text, "sdk: done after 0.2 s");
  assert.deepEqual(final(messages).result._meta[RELATED], { taskId: taskIdOf(messages) });

  const greeting = await client.callTool({ name: "greet", arguments: { name: "SDK" } });
  assert.deepEqual(greeting.content, [{ type: "text", text: "Hello, SDK!" }]);
});

test("a failing tool fails its task (§D 44) and tasks/result gives its isError result; a JSON-RPC error comes back as the error; a plain call of a required tool is -32601 (§D 41)", async () => {
  const failing = await stream("failing_job");
  assert.equal(final(failing).type, "error");
  assert.match(final(failing).error.message, /failed/);
  const failingResult = await client.experimental.tasks.getTaskResult(taskIdOf(failing), CallToolResultSchema);
  assert.equal(failingResult.isError, true);
  assert.match(failingResult.content[0].text, /the job failed/);
  const failedTask = await client.experimental.tasks.getTask(taskIdOf(failing));
  assert.equal(failedTask.status, "failed");

  const broken = await stream("protocol_error_job");
  assert.equal(final(broken).type, "error");
  await assert.rejects(client.experimental.tasks.getTaskResult(taskIdOf(broken), CallToolResultSchema), (e) => e instanceof McpError && e.code === -32603);

  await assert.rejects(
    client.request({ method: "tools/call", params: { name: "failing_job", arguments: {} } }, CallToolResultSchema),
    (e) => e instanceof McpError && e.code === -32601,
  );
});

test("cancel: tasks/cancel answers the cancelled task, the stream ends with the cancel, the task is listed", async () => {
  const messages = [];
  for await (const m of client.experimental.tasks.callToolStream({ name: "slow_compute", arguments: { seconds: 30 } }, CallToolResultSchema)) {
    messages.push(m);
    if (m.type === "taskCreated") {
      const cancelled = await client.experimental.tasks.cancelTask(m.task.taskId);
      assert.equal(cancelled.status, "cancelled");
    }
  }
  assert.equal(final(messages).type, "error");
  assert.match(final(messages).error.message, /cancelled/);
  const { tasks } = await client.experimental.tasks.listTasks();
  assert.ok(tasks.some((t) => t.taskId === taskIdOf(messages) && t.status === "cancelled"));
});

test("elicitation while a 2025-11-25 task waits: the SDK's handler answers, related-task _meta names the task, the task completes", async () => {
  elicitations.length = 0;
  const messages = await stream("confirm_delete", { filename: "a.txt" });
  const taskId = taskIdOf(messages);
  assert.ok(taskId);
  assert.equal(final(messages).type, "result");
  assert.equal(final(messages).result.content[0].text, "Deleted a.txt");
  assert.equal(elicitations.length, 1);
  assert.equal(elicitations[0].params.message, "Delete a.txt?");
  assert.deepEqual(elicitations[0].params._meta[RELATED], { taskId }, "§D 33");

  // Two requests outstanding at once; a declined answer reaches the tool as it is.
  elicitations.length = 0;
  const two = await stream("multi_input");
  assert.equal(final(two).result.content[0].text, "multi_input: got confirm and name");
  assert.equal(elicitations.length, 2);
  answer = () => ({ action: "decline" });
  const kept = await stream("confirm_delete", { filename: "b.txt" });
  assert.equal(final(kept).result.content[0].text, "Kept b.txt");
  answer = () => ({ action: "accept", content: { confirm: true, name: "Ada" } });
});

test("input on the call itself: a synchronous call asks on its own stream; prepare asks before the task exists", async () => {
  elicitations.length = 0;
  const sync = await client.callTool({ name: "confirm_delete", arguments: { filename: "c.txt" } });
  assert.equal(sync.content[0].text, "Deleted c.txt");
  assert.equal(elicitations.length, 1);
  assert.equal(elicitations[0].params._meta?.[RELATED], undefined, "no task: no related-task _meta");

  elicitations.length = 0;
  const prepared = await stream("test_tool_with_task");
  assert.equal(elicitations.length, 1);
  assert.equal(elicitations[0].params.message, "What is your name?");
  assert.equal(final(prepared).result.content[0].text, "Hello, Ada! (from a task)");
});

test("DELETE ends the session: its id is unknown afterwards (404)", async () => {
  const sessionId = transport.sessionId;
  await transport.terminateSession();
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
  assert.equal(res.status, 404);
  assert.equal((await res.json()).error.code, -32001);
});
