// TaskClient over an official SDK Client, on its own transports:
// - SDK 2.4.0 (@modelcontextprotocol/client, pinned in tools/sdk2) in each negotiation mode
//   (legacy, auto, pinned 2026-07-28) over Streamable HTTP against the example server
//   (examples/conformance-server.mjs, both eras), and legacy/auto over stdio against an SDK 1.32.2
//   McpServer on our SdkTaskStore (tests/peers/fixtures/sdk-task-server.mjs --stdio);
// - SDK 1.32.2 (the root install) over stdio against the same server;
// each calls a task tool to its final result, answers an elicitation through `handlers`, and
// cancels a running task (the server then says `cancelled`). Plus requestVia over a 2.x Client in
// the README's form. Every process is stopped by its PID, also on failure.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

import { startExample } from "./example-server.mjs";
import { killedAtEnd } from "./lib/pids.mjs";

const { TaskClient, TaskCancelledError, requestVia } = await import("./.tmp/install/esm.mjs");

const sdk2 = (p) => new URL(`../../tools/sdk2/node_modules/@modelcontextprotocol/${p}`, import.meta.url).href;
const v2 = await import(sdk2("client/dist/index.mjs"));
const v2stdio = await import(sdk2("client/dist/stdio.mjs"));
const v2core = await import(sdk2("core/dist/index.mjs"));
const { Client: ClientV1 } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport: StdioV1 } = await import("@modelcontextprotocol/sdk/client/stdio.js");
const { InMemoryTransport: InMemoryV1 } = await import("@modelcontextprotocol/sdk/inMemory.js");
const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
const { SdkTaskStore } = await import("./.tmp/install/server.mjs");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const STDIO_SERVER = fileURLToPath(new URL("../peers/fixtures/sdk-task-server.mjs", import.meta.url));

/** Processes to stop at the end (by PID), whatever happened. */
const children = killedAtEnd();

const example = await startExample();
children.add(example.process.pid);
after(() => example.process.kill("SIGKILL"));

const MODES = { legacy: { mode: "legacy" }, auto: { mode: "auto" }, modern: { mode: { pin: V26 } } };

function v2Client(mode) {
  return new v2.Client({ name: "sdk2-test", version: "1.0.0" }, { capabilities: { elicitation: {} }, versionNegotiation: MODES[mode] });
}

/** A `tasks/get` through the TaskClient's own request (with the 2026-07-28 `_meta` when needed). */
async function statusOf(client, taskId) {
  const meta = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };
  const task = await client.request("tasks/get", client.protocolVersion === V26 ? { taskId, _meta: meta } : { taskId });
  return task.status;
}

/** Calls `name` with an AbortController aborted once the task exists; resolves the TaskCancelledError. */
async function cancelRunning(client, name, args, options = {}) {
  const abort = new AbortController();
  const created = (async () => {
    for await (const e of client.events()) if (e.type === "taskCreated") return e.taskId;
  })();
  const call = client.callTool(name, args, { ...options, signal: abort.signal });
  const taskId = await created;
  abort.abort(new Error("the user gave up"));
  const error = await call.then(
    () => assert.fail("the call resolved"),
    (e) => e,
  );
  assert.ok(error instanceof TaskCancelledError, String(error));
  assert.equal(error.taskId, taskId);
  assert.equal(error.delivered, true, "tasks/cancel reached the server");
  return taskId;
}

for (const mode of Object.keys(MODES)) {
  test(`SDK 2.4.0 Client, ${mode} negotiation, Streamable HTTP, example server: TaskClient.over gets the result, answers input, cancels`, async () => {
    const sdkClient = v2Client(mode);
    await sdkClient.connect(new v2.StreamableHTTPClientTransport(new URL(example.url)));
    const asked = [];
    const client = TaskClient.over(sdkClient, {
      handlers: { elicitation: async (p) => (asked.push(p.message), { action: "accept", content: { confirm: true } }) },
    });
    try {
      const version = mode === "legacy" ? V25 : V26;
      assert.equal(sdkClient.getNegotiatedProtocolVersion(), version);
      const done = await client.callTool("slow_compute", { seconds: 0.2, label: mode }, { task: {} });
      assert.equal(client.protocolVersion, version);
      assert.equal(done.content[0].text, `${mode}: done after 0.2 s`);
      const confirmed = await client.callTool("confirm_delete", { filename: "a.txt" }, { task: {} });
      assert.match(confirmed.content[0].text, /a\.txt/);
      assert.equal(asked.length, 1, "the elicitation reached handlers.elicitation");
      const taskId = await cancelRunning(client, "slow_compute", { seconds: 30 }, { task: {} });
      assert.equal(await statusOf(client, taskId), "cancelled");
      // The SDK client still works for everything else.
      const tools = await sdkClient.listTools();
      assert.ok(tools.tools.some((t) => t.name === "slow_compute"));
    } finally {
      await client.close();
      await sdkClient.close();
    }
  });
}

test("SDK 2.4.0 Client pinned 2026-07-28 that declared no elicitation: over() still answers input requests itself", async () => {
  const sdkClient = new v2.Client({ name: "plain", version: "1.0.0" }, { versionNegotiation: MODES.modern });
  await sdkClient.connect(new v2.StreamableHTTPClientTransport(new URL(example.url)));
  const client = TaskClient.over(sdkClient, { handlers: { elicitation: async () => ({ action: "accept", content: { confirm: true } }) } });
  try {
    assert.match((await client.callTool("confirm_delete", { filename: "c.txt" }, { task: {} })).content[0].text, /c\.txt/);
  } finally {
    await client.close();
    await sdkClient.close();
  }
});

test("requestVia(v2Client, ResultSchema, { inputRequests: { elicitation: ElicitRequestSchema } }) (the README's form) works, in auto mode too", async () => {
  for (const mode of ["legacy", "auto"]) {
    const sdkClient = v2Client(mode);
    await sdkClient.connect(new v2.StreamableHTTPClientTransport(new URL(example.url)));
    const client = new TaskClient({
      request: requestVia(sdkClient, v2core.ResultSchema, { inputRequests: { elicitation: v2core.ElicitRequestSchema } }),
      handlers: { elicitation: async () => ({ action: "accept", content: { confirm: true } }) },
    });
    try {
      assert.equal((await client.callTool("slow_compute", { seconds: 0.1, label: "via" }, { task: {} })).content[0].text, "via: done after 0.1 s");
      assert.match((await client.callTool("confirm_delete", { filename: "b.txt" }, { task: {} })).content[0].text, /b\.txt/);
    } finally {
      await client.close();
      await sdkClient.close();
    }
  }
});

test("requestVia over a 2.x Client negotiated 2026-07-28 (auto): the task is taken (not an SdkError), its id known, its cancel delivered", async () => {
  const sdkClient = v2Client("auto");
  await sdkClient.connect(new v2.StreamableHTTPClientTransport(new URL(example.url)));
  assert.equal(sdkClient.getProtocolEra(), "modern");
  const client = new TaskClient({ request: requestVia(sdkClient, v2core.ResultSchema) });
  try {
    assert.equal((await client.callTool("slow_compute", { seconds: 0.1, label: "auto" })).content[0].text, "auto: done after 0.1 s");
    const taskId = await cancelRunning(client, "slow_compute", { seconds: 30 });
    assert.equal(await statusOf(client, taskId), "cancelled");
  } finally {
    await client.close();
    await sdkClient.close();
  }
});

/** The stdio server's transport parameters (its stderr shown). */
const stdioParams = { command: process.execPath, args: [STDIO_SERVER, "--stdio", "--store", "ours"], stderr: "inherit" };

/** Runs `body(client)` over a stdio server started by `transport`; stops the child by its PID. */
async function overStdio(sdkClient, transport, body) {
  await sdkClient.connect(transport);
  const pid = transport.pid;
  assert.ok(Number.isInteger(pid), "the SDK started the server");
  children.add(pid);
  const asked = [];
  const client = TaskClient.over(sdkClient, {
    handlers: { elicitation: async (p) => (asked.push(p.message), { action: "accept", content: { name: "Ada" } }) },
  });
  try {
    assert.equal((await client.callTool("greet", { name: "stdio", delayMs: 50 })).content[0].text, "hello, stdio");
    assert.equal(client.protocolVersion, V25);
    assert.equal((await client.callTool("ask", { question: "Who?" })).content[0].text, "hello, Ada");
    assert.deepEqual(asked, ["Who?"]);
    const taskId = await cancelRunning(client, "greet", { name: "late", delayMs: 60_000 });
    assert.equal(await statusOf(client, taskId), "cancelled");
    await body?.(client);
  } finally {
    await client.close();
    await sdkClient.close();
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
    children.delete(pid);
  }
}

for (const mode of ["legacy", "auto"]) {
  test(`SDK 2.4.0 Client, ${mode} negotiation, stdio server (SDK 1.32.2 McpServer on SdkTaskStore): result, input, cancel`, async () => {
    await overStdio(v2Client(mode), new v2stdio.StdioClientTransport(stdioParams));
  });
}

test("SDK 1.32.2 Client, stdio server: TaskClient.over gets the result, answers input, cancels", async () => {
  const sdkClient = new ClientV1({ name: "sdk1-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  await overStdio(sdkClient, new StdioV1(stdioParams));
});

/** An SDK 1.32.2 McpServer with one required task tool `build` (300 ms) on SdkTaskStore. */
function taskServer() {
  const server = new McpServer({ name: "in-memory", version: "1.0.0" }, { capabilities: { tasks: { requests: { tools: { call: {} } } } }, taskStore: new SdkTaskStore() });
  server.experimental.tasks.registerToolTask("build", { execution: { taskSupport: "required" } }, {
    async createTask(extra) {
      const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 200 });
      setTimeout(() => extra.taskStore.storeTaskResult(task.taskId, "completed", { content: [{ type: "text", text: "built" }] }).catch(() => {}), 300);
      return { task };
    },
    getTask: async (extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (extra) => extra.taskStore.getTaskResult(extra.taskId),
  });
  return server;
}

test("in memory: SDK 1.32.2 and SDK 2.4.0 Clients on their InMemoryTransport, an SDK 1.32.2 McpServer on the other end", async () => {
  for (const [name, Client, Transport] of [["1.32.2", ClientV1, InMemoryV1], ["2.4.0", v2.Client, v2.InMemoryTransport]]) {
    const [clientSide, serverSide] = Transport.createLinkedPair();
    const server = taskServer();
    await server.connect(serverSide);
    const sdkClient = new Client({ name: `in-memory-${name}`, version: "1.0.0" });
    await sdkClient.connect(clientSide);
    const client = TaskClient.over(sdkClient);
    try {
      assert.deepEqual((await client.callTool("build", {})).content, [{ type: "text", text: "built" }], name);
      assert.equal(client.protocolVersion, V25);
    } finally {
      await client.close();
      await sdkClient.close();
      await server.close();
    }
  }
});

test("TaskClient.over an SDK client not connected yet: the first call says so (a TransportError), nothing sent", async () => {
  const client = TaskClient.over(v2Client("legacy"));
  await assert.rejects(client.callTool("greet", {}), (e) => e.name === "TransportError" && /not connected/.test(e.message));
  await client.close();
});
