// The real-peer matrix, an SDK v2 server with our tasks: examples/sdk2-server.mjs (an SDK 2.4.0
// McpServer with a resource, a prompt, a plain tool, and examples/tools.mjs's task tools through
// McpServerTasks), served by the SDK's own entries: createMcpHandler (Streamable HTTP; 2025-11-25
// stateless) and serveStdio. Called by:
//   8. the SDK 2.4.0 Client, plainly (its tools, resources, prompts, completion, logging still
//      work; the task tools listed after its own) and through TaskClient.over (a task to its
//      result, progress over stdio, input while a task waits, a cancel delivered), HTTP and stdio,
//      2025-11-25 and 2026-07-28;
//  8b. the SDK 2.4.0 Client, 2025-11-25 on the SDK's sessionful transport (--sessions): tasks bound
//      to the session and listed, an elicitation while a task waits, status notifications;
//   9. @modelcontextprotocol/ext-tasks 0.2.2 over an SDK 2.4.0 Client, HTTP, both eras;
//  10. the Python mcp 2.3 client (tools/py/mcp2), HTTP, 2026-07-28 (auto: server/discover; a task, polled) and
//      2025-11-25 (it has no 2025 task support: the optional task tool runs synchronously).
// HTTP traffic goes through the recording proxy of peers.mjs and is checked by `Conversation`
// (no error-level issue); transcripts in target/peers/matrix-sdk2-server-*.jsonl.
//
//   node --test tests/peers/matrix-sdk2-server.test.mjs   (needs scripts/setup.sh and scripts/build.sh)
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Conversation, TaskClient, TaskCancelledError } from "../../pkg/node.mjs";
import {
  V25, V26, textOf, ROOT, SDK2_EXAMPLE, checkTraffic, methods, rawDispatchTo, runPyClient, sent, startRecorder, startSdk2Example, stopAll,
} from "./peers.mjs";
import { killedAtEnd } from "../js/lib/pids.mjs";

after(stopAll);

const EXT = "io.modelcontextprotocol/tasks";
const sdk2 = (p) => import(pathToFileURL(join(ROOT, "tools/sdk2/node_modules/@modelcontextprotocol", p)).href);
const v2 = await sdk2("client/dist/index.mjs");
const v2stdio = await sdk2("client/dist/stdio.mjs");
const ext = await sdk2("ext-tasks/dist/client/index.js");
const extCore = await sdk2("ext-tasks/dist/core/index.js");

const TASK_TOOLS = ["greet", "slow_compute", "progress_job", "failing_job", "protocol_error_job", "confirm_delete", "multi_input", "test_tool_with_task"];

const server = await startSdk2Example();

/** The stdio servers the SDK's StdioClientTransport started (killed by PID, also on failure). */
const pids = killedAtEnd();

/** An SDK 2.4.0 Client connected to the example over `transport` ("http" via `url`, or "stdio"). */
async function connect(era, transport, url, capabilities = {}) {
  const client = new v2.Client(
    { name: "matrix-sdk2-server", version: "1.0.0" },
    { capabilities, versionNegotiation: era === V25 ? { mode: "legacy" } : { mode: { pin: V26 } } },
  );
  const t = transport === "stdio"
    ? new v2stdio.StdioClientTransport({ command: process.execPath, args: [SDK2_EXAMPLE, "--stdio"], stderr: "pipe" })
    : new v2.StreamableHTTPClientTransport(new URL(url));
  await client.connect(t);
  if (transport === "stdio") {
    assert.ok(Number.isInteger(t.pid), "the SDK started the stdio server");
    pids.add(t.pid);
  }
  return { client, close: async () => {
    await client.close();
    if (transport === "stdio") {
      try {
        process.kill(t.pid, "SIGKILL");
      } catch {}
      pids.delete(t.pid);
    }
  } };
}

/** A `tasks/get` through the TaskClient's own request path: the task's status. */
async function statusOf(tasks, taskId) {
  const meta = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };
  const task = await tasks.request("tasks/get", tasks.protocolVersion === V26 ? { taskId, _meta: meta } : { taskId });
  return task.status;
}

// ---- 8. SDK 2.4.0 Client → the SDK v2 server with our tasks ------------------------------------

for (const transport of ["http", "stdio"]) {
  for (const era of [V25, V26]) {
    test(`8. SDK 2.4.0 Client → SDK v2 McpServer + McpServerTasks (${transport}, ${era}): its own tools, resources, prompts still work; TaskClient.over runs a task and cancels one`, async (t) => {
      const recorder = transport === "http" ? await startRecorder(server.url) : null;
      if (recorder) t.after(() => recorder.stop());
      const { client, close } = await connect(era, transport, recorder?.url, { elicitation: {} });
      const tasks = TaskClient.over(client, { handlers: { elicitation: async () => ({ action: "accept", content: { confirm: true } }) } });
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), era);
        // The SDK server's own surface, untouched.
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((x) => x.name), ["add", ...TASK_TOOLS], "the SDK's tools, then the task tools");
        const slow = tools.find((x) => x.name === "slow_compute");
        if (era === V25) assert.deepEqual(slow.execution, { taskSupport: "optional" });
        else assert.equal(slow.execution, undefined, "2026-07-28 lists no execution.taskSupport");
        assert.equal(textOf(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } })), "5");
        const invalid = await client.callTool({ name: "add", arguments: { a: "two", b: 3 } });
        assert.equal(invalid.isError, true, "the SDK still checks its own tools' arguments");
        const { resources } = await client.listResources();
        assert.deepEqual(resources.map((r) => r.uri), ["note://readme"]);
        const read = await client.readResource({ uri: "note://beta" });
        assert.equal(read.contents[0].text, "note beta");
        const prompt = await client.getPrompt({ name: "summarize", arguments: { topic: "tides" } });
        assert.equal(prompt.messages[0].content.text, "Summarize tides.");
        const done = await client.complete({ ref: { type: "ref/resource", uri: "note://{name}" }, argument: { name: "name", value: "al" } });
        assert.deepEqual(done.completion.values, ["alpha"]);
        if (era === V25) await client.setLoggingLevel("info");
        const caps = client.getServerCapabilities();
        for (const c of ["tools", "resources", "prompts", "completions"]) assert.ok(caps[c], `capability ${c}`);
        if (era === V25) assert.ok(caps.tasks?.requests?.tools?.call, "2025-11-25 capabilities.tasks");

        // Our tasks, through TaskClient.over.
        assert.equal(textOf(await tasks.callTool("greet", { name: "Ada" })), "Hello, Ada!");
        const seen = [];
        const job = await tasks.startTool("progress_job", { steps: 3, stepMs: 150 }, { task: {}, onProgress: (e) => seen.push(e) });
        assert.equal(tasks.protocolVersion, era);
        assert.equal(typeof job.taskId, "string", "a task");
        assert.equal(textOf(await job.result()), "progress_job: 3 steps done");
        if (era === V25 && transport === "stdio") {
          // notifications/progress for the call's token, through the SDK's transport (§A.i).
          // (Over stateless HTTP they go out on a blocked tasks/result's stream, and TaskClient
          // polls tasks/get: tests/js/server/sdk2.test.mjs shows that stream.)
          const progress = seen.filter((e) => e.type === "progress");
          assert.ok(progress.length >= 1, `progress seen: ${JSON.stringify(seen)}`);
          assert.ok(progress.every((e) => e.total === 3 && e.taskId === job.taskId));
        }
        if (!(era === V25 && transport === "http")) {
          // Input while the task waits: 2025-11-25, an elicitation/create sent through the SDK's
          // transport and answered by the client's handler; 2026-07-28, the task's inputRequests
          // answered with tasks/update. (The stateless 2025-11-25 HTTP leg does not know what
          // the client declared at initialize: see 8b, on the SDK's sessionful transport.)
          const asked = await tasks.callTool("confirm_delete", { filename: "v2.txt" }, { task: {} });
          assert.equal(textOf(asked), "Deleted v2.txt");
        }
        const long = await tasks.startTool("slow_compute", { seconds: 60, label: "never" }, { task: {} });
        await long.cancel("the user gave up");
        await assert.rejects(long.result(), (e) => e instanceof TaskCancelledError && e.taskId === long.taskId);
        assert.equal(await statusOf(tasks, long.taskId), "cancelled", "the cancel reached the server");
      } finally {
        await tasks.close();
        await close();
      }
      if (recorder) {
        const { messages } = checkTraffic(t, `matrix-sdk2-server-sdk2-client-${era}`, recorder, Conversation);
        const calls = sent(messages, "tools/call").filter((c) => !["add", "greet", "confirm_delete"].includes(c.message.params.name));
        assert.equal(calls.length, 2);
        if (era === V26) assert.equal(sent(messages, "tasks/update").length, 1, "the input answered with tasks/update");
        if (era === V25) for (const c of calls) assert.deepEqual(c.message.params.task, {}, "2025-11-25 task augmentation");
        else assert.ok(messages.some((r) => r.direction === "s2c" && r.message?.result?.resultType === "task"), "2026-07-28 tasks");
      }
    });
  }
}

// ---- 8b. SDK 2.4.0 Client → the same, 2025-11-25 on the SDK's sessionful HTTP transport -------

test("8b. SDK 2.4.0 Client (legacy) → SDK v2 McpServer + McpServerTasks on the SDK's sessionful WebStandardStreamableHTTPServerTransport: tasks bound to the session and listed, input on the session's streams, status notifications", async (t) => {
  const sessionful = await startSdk2Example(["--sessions"]);
  t.after(() => sessionful.stop());
  const recorder = await startRecorder(sessionful.url);
  t.after(() => recorder.stop());
  const { client, close } = await connect(V25, "http", recorder.url, { elicitation: {} });
  const tasks = TaskClient.over(client, { handlers: { elicitation: async () => ({ action: "accept", content: { confirm: true } }) } });
  let listed;
  try {
    assert.ok(client.getServerCapabilities().tasks?.list, "tasks/list declared: a session identifies the requestor (§D 39)");
    assert.equal(textOf(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } })), "5");
    const asked = await tasks.callTool("confirm_delete", { filename: "s.txt" }, { task: {} });
    assert.equal(textOf(asked), "Deleted s.txt");
    listed = await tasks.request("tasks/list", {});
  } finally {
    await tasks.close();
    await close();
  }
  assert.equal(listed.tasks.length, 1, "the session's one task");
  const { messages } = checkTraffic(t, "matrix-sdk2-server-sdk2-client-sessions", recorder, Conversation);
  const ask = messages.find((r) => r.direction === "s2c" && r.message?.method === "elicitation/create");
  assert.ok(ask, "an elicitation/create went to the client");
  assert.equal(ask.message.params._meta["io.modelcontextprotocol/related-task"].taskId, listed.tasks[0].taskId, "with related-task _meta (§D 33)");
  assert.ok(["GET", "POST"].includes(ask.http?.method), "on a stream of the session (its GET stream, or the blocked tasks/result's)");
  assert.ok(messages.some((r) => r.direction === "s2c" && r.message?.method === "notifications/tasks/status"), "status notifications (§D 43)");
  for (const e of recorder.exchanges().slice(1)) assert.ok(e.requestHeaders["mcp-session-id"], "one session");
});

// ---- 9. ext-tasks 0.2.2 → the SDK v2 server with our tasks (HTTP, both eras) ---------------------

for (const [mode, version] of [["legacy", V25], ["modern", V26]]) {
  test(`9. ext-tasks 0.2.2 over an SDK 2.4.0 Client (${mode}) → SDK v2 McpServer + McpServerTasks: settle() gets the result, a cancel is delivered (${version})`, async (t) => {
    const recorder = await startRecorder(server.url);
    t.after(() => recorder.stop());
    const capabilities = { elicitation: {} };
    const client = new v2.Client({ name: "matrix-sdk2-server", version: "1.0.0" }, { capabilities, versionNegotiation: { mode: mode === "legacy" ? "legacy" : { pin: V26 } } });
    await client.connect(new v2.StreamableHTTPClientTransport(new URL(recorder.url)));
    assert.equal(client.getNegotiatedProtocolVersion(), version);
    const options = { endpointId: "matrix-sdk2-server" };
    if (version === V26) {
      options.rawDispatch = rawDispatchTo(recorder.url, version, ext.DispatchError);
      options.v2RequestFraming = { protocolVersion: version, clientInfo: { name: "matrix-sdk2-server", version: "1.0.0" }, clientCapabilities: capabilities };
    }
    const session = ext.createTaskSessionFromClient(client, options);
    // A JSON codec takes the inlined result as sent (see matrix-sdk2.test.mjs, pairing 5).
    const call = (name, args) => session.callTool(name, args, { resultCodec: extCore.JsonValueCodec, task: { preference: "require" } });
    let computed, cancelled;
    try {
      const execution = await call("slow_compute", { seconds: 0.2, label: "ext" });
      assert.equal(execution.kind, "task");
      computed = ext.resultFromTaskOutcome((await execution.settle()).outcome);
      const running = await call("slow_compute", { seconds: 30, label: "never" });
      assert.equal(running.kind, "task");
      await running.cancel();
      cancelled = await running.settle().then((s) => s.outcome, (e) => e);
    } finally {
      await session.close();
      await client.close();
    }
    assert.equal(textOf(computed), "ext: done after 0.2 s");
    assert.equal(cancelled?.status ?? String(cancelled), "cancelled");
    const { messages } = checkTraffic(t, `matrix-sdk2-server-ext-tasks-${mode}`, recorder, Conversation);
    assert.equal(sent(messages, "tasks/cancel").length, 1, "one tasks/cancel");
  });
}

// ---- 10. Python mcp 2.3 client → the SDK v2 server with our tasks (HTTP) ------------------------

for (const [mode, version] of [["auto", V26], ["legacy", V25]]) {
  test(`10. Python mcp 2.3 client (mode ${mode}) → SDK v2 McpServer + McpServerTasks: the SDK's tool and ours (${version})`, async (t) => {
    for (const [tool, args, want] of [
      ["add", { a: 1, b: 2 }, "3"],
      ["slow_compute", { seconds: 0.5, label: "py2" }, "py2: done after 0.5 s"],
    ]) {
      await t.test(tool, async (t) => {
        const recorder = await startRecorder(server.url);
        t.after(() => recorder.stop());
        const r = await runPyClient("mcp2", recorder.url, [tool, JSON.stringify(args), "--mode", mode]);
        t.diagnostic(JSON.stringify(r.json));
        assert.ok(r.json, `the client printed its JSON line; stderr:\n${r.stderr}`);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.json.protocolVersion, version);
        assert.deepEqual(r.json.tools, ["add", ...TASK_TOOLS]);
        assert.equal(textOf(r.json.result), want);
        const { messages } = checkTraffic(t, `matrix-sdk2-server-py2-${mode}-${tool}`, recorder, Conversation);
        if (version === V26) {
          assert.deepEqual(r.json.serverExtensions, [EXT]);
          assert.equal(methods(messages, "c2s")[0], "server/discover");
          if (tool === "slow_compute") {
            assert.equal(r.json.task.statuses.at(-1), "completed", "a task, polled with tasks/get");
            assert.ok(sent(messages, "tasks/get").length >= 1);
          } else assert.equal(r.json.task, null);
        } else {
          assert.equal(methods(messages, "c2s")[0], "initialize");
          assert.equal(sent(messages, "tools/call")[0].message.params.task, undefined, "not augmented: runs synchronously");
        }
      });
    }
  });
}
