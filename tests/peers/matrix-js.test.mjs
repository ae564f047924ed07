// The real-peer matrix, JavaScript pairings (why: docs/decisions/real-peers.md; docs/guides/works-with.md).
// Every pairing runs through the recording proxy of peers.mjs; the recorded traffic is
// fed to `Conversation` (the built package), which must raise no error-level issue except the
// peers' own bugs, each asserted as found by its code. Transcripts go to
// target/peers/matrix-<pairing>.jsonl (one JSON-RPC message per line: `mcp-tasks check` reads them).
//
//   1. TaskClient.connect(url), no version, and TaskClient over requestVia(sdkClient), no version
//      → server-everything 2026.8.31: simulate-research-query plain and with elicitation  (2025-11-25)
//   2. TaskClient.connect(url) → SDK 1.32.2 McpServer with tasks, on InMemoryTaskStore and on
//      our SdkTaskStore: a completing task tool, a failing one                           (2025-11-25)
//   3. SDK 1.32.2 Client (experimental.tasks.callToolStream) → our server module (the example)
//      a task tool, a failing/isError tool, an elicitation answered by the SDK's handler (2025-11-25)
//   4. Inspector 2.12 CLI (--cli), default (legacy) era and --protocol-era modern → our server
//      module: greet (sync), slow_compute and failing_job (tasks)                        (both)
//
//   node --test tests/peers/matrix-js.test.mjs     (needs scripts/setup.sh and scripts/build.sh)
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ElicitRequestSchema, ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { Conversation, TaskClient, TaskFailedError, requestVia } from "../../pkg/node.mjs";
import {
  V25, V26, textOf, checkTraffic,
  runInspectorCli,
  startEverything,
  startExample,
  startRecorder,
  startSdkServer,
  sent,
  stopAll,
} from "./peers.mjs";

after(stopAll);

const RELATED = "io.modelcontextprotocol/related-task";

/**
 * Requests and answers in both directions: every request got its answer, recorded after it (an
 * HTTP-level refusal answers with `id: null` in the same exchange: the SDK's transport does so
 * for a `server/discover` before `initialize`).
 */
function assertAnswered(messages) {
  const isRequest = (r) => r.message?.method !== undefined && r.message.id !== undefined;
  const isAnswer = (r) => r.message && ("result" in r.message || "error" in r.message);
  const answers = (a, req) =>
    a.message.id === req.message.id || (a.message.id === null && "error" in a.message && a.exchange === req.exchange);
  for (const [dir, back] of [["c2s", "s2c"], ["s2c", "c2s"]]) {
    for (const req of messages.filter((r) => r.direction === dir && isRequest(r))) {
      assert.ok(
        messages.some((a) => a.direction === back && isAnswer(a) && answers(a, req) && a.seq > req.seq),
        `${dir} ${req.message.method} #${req.message.id} was answered`,
      );
    }
  }
}


// ---- 1. TaskClient → server-everything 2026.8.31 (2025-11-25) -----------------------------------

test("1. TaskClient, no version given → server-everything 2026.8.31: simulate-research-query (2025-11-25)", async (t) => {
  const everything = await startEverything();
  t.after(() => everything.stop());
  const asked = [];
  const handlers = {
    elicitation: async (params) => (asked.push(params), { action: "accept", content: { interpretation: "historical" } }),
  };

  /** The two ways to make a TaskClient without naming a version: each opens one on `url` (a recorder). */
  const clients = {
    connect: async (url) => {
      const client = await TaskClient.connect(url, { handlers });
      return { client, close: () => client.close() };
    },
    requestVia: async (url) => {
      const sdkClient = new Client({ name: "matrix-via", version: "1.0.0" }, { capabilities: { elicitation: {} } });
      await sdkClient.connect(new StreamableHTTPClientTransport(new URL(url)));
      const client = new TaskClient({
        request: requestVia(sdkClient, ResultSchema, { inputRequests: { elicitation: ElicitRequestSchema } }),
        handlers,
      });
      return {
        client,
        close: async () => {
          await client.close();
          await sdkClient.close();
        },
      };
    },
  };

  for (const [how, open] of Object.entries(clients)) {
    await t.test(`${how}: plain, then ambiguous: true answered by handlers.elicitation`, async (t) => {
      const recorder = await startRecorder(everything.url);
      t.after(() => recorder.stop());
      asked.length = 0;
      const { client, close } = await open(recorder.url);
      let plain, ambiguous;
      try {
        assert.equal(client.protocolVersion, V25, "learnt from the session");
        plain = await client.callTool("simulate-research-query", { topic: "tides" });
        ambiguous = await client.callTool("simulate-research-query", { topic: "tides", ambiguous: true });
      } finally {
        await close();
      }
      assert.match(textOf(plain), /# Research Report: tides\n/);
      assert.match(textOf(ambiguous), /# Research Report: tides \(historical\)/);
      assert.equal(asked.length, 1, "one elicitation, answered by the handler");

      const { messages } = checkTraffic(t, `matrix-taskclient-${how}-everything`, recorder, Conversation);
      assertAnswered(messages);
      const calls = sent(messages, "tools/call");
      assert.equal(calls.length, 2);
      for (const c of calls) {
        assert.deepEqual(c.message.params.task, {}, "taskSupport required: augmented unasked (§D 48)");
        assert.equal(c.message.params._meta, undefined, "no 2026-07-28 _meta");
      }
      assert.ok(sent(messages, "tasks/result").length >= 2);
      // The elicitation came on the tasks/result stream of the second task.
      const second = messages.find((r) => r.direction === "s2c" && r.message?.id === calls[1].message.id).message.result.task.taskId;
      const elicitation = messages.find((r) => r.direction === "s2c" && r.message?.method === "elicitation/create");
      assert.equal(elicitation.http.via, "sse");
      const opened = messages.find((r) => r.exchange === elicitation.exchange && r.direction === "c2s");
      assert.equal(opened.message.method, "tasks/result");
      assert.equal(opened.message.params.taskId, second);
      if (how === "connect") assert.equal(messages[0].message.method, "server/discover", "2026-07-28 tried first");
      // server-everything sends notifications/tasks/status on the GET stream (which the SDK client
      // opens; TaskClient.connect does not, and polls): some arrive before the CreateTaskResult
      // of their task on the tools/call stream, a legal reordering (no error above).
      const created = new Map(calls.map((c) => [c.message.id, messages.find((r) => r.direction === "s2c" && r.message?.id === c.message.id)]));
      const overtaking = messages.filter(
        (r) =>
          r.message?.method === "notifications/tasks/status" &&
          [...created.values()].some((c) => c.message.result?.task?.taskId === r.message.params.taskId && c.seq > r.seq),
      );
      t.diagnostic(`${messages.filter((r) => r.message?.method === "notifications/tasks/status").length} status notification(s), ${overtaking.length} before their CreateTaskResult`);
    });
  }
});

// ---- 2. TaskClient → SDK 1.32.2 McpServer with tasks (2025-11-25) -------------------------------

test("2. TaskClient.connect(url) → SDK 1.32.2 McpServer with tasks, on InMemoryTaskStore and on our SdkTaskStore (2025-11-25)", async (t) => {
  for (const store of ["memory", "ours"]) {
    await t.test(store, async (t) => {
      const server = await startSdkServer({ store });
      t.after(() => server.stop());
      const recorder = await startRecorder(server.url);
      t.after(() => recorder.stop());
      const asked = [];
      const client = await TaskClient.connect(recorder.url, {
        handlers: { elicitation: async (p) => (asked.push(p.message), { action: "accept", content: { name: "Bo" } }) },
      });
      let plainRequired;
      try {
        assert.equal(client.protocolVersion, V25);
        assert.equal(textOf(await client.callTool("greet", { name: "Ada", delayMs: 100 })), "hello, Ada");
        await assert.rejects(client.callTool("fail", { reason: "on purpose" }), (e) => {
          assert.ok(e instanceof TaskFailedError, String(e));
          assert.equal(e.status, "failed");
          assert.equal(e.result?.isError, true);
          assert.equal(textOf(e.result), "boom: on purpose");
          return true;
        });
        assert.equal(textOf(await client.callTool("ask", { question: "Your name?" })), "hello, Bo");
        assert.deepEqual(asked, ["Your name?"]);
        // On InMemoryTaskStore the CreateTaskResult already says `completed` (SDK bug, §D 7): the
        // client takes it as the first snapshot and gets the result all the same.
        assert.equal(textOf(await client.callTool("instant", { text: "x" })), "instant: x");
        assert.equal(textOf(await client.callTool("add", { a: 2, b: 3 })), "5", "forbidden: a plain call");
        // Not something TaskClient does (it augments required tools): a plain call of `greet`,
        // on the same session, shows the SDK's answer to it.
        plainRequired = await client.connection.request("tools/call", { name: "greet", arguments: { name: "x" } });
      } finally {
        await client.close();
      }
      assert.equal(plainRequired.isError, true, "SDK 1.32.2: an isError result, not -32601 (§D 41)");

      const peerBugs = ["history-required-tool-answered"];
      if (store === "memory") peerBugs.push("create-task-status");
      const { messages } = checkTraffic(t, `matrix-taskclient-sdk-${store}`, recorder, Conversation, peerBugs);
      assertAnswered(messages);
      const calls = sent(messages, "tools/call").map((r) => [r.message.params.name, r.message.params.task]);
      assert.deepEqual(calls, [
        ["greet", {}],
        ["fail", {}],
        ["ask", {}],
        ["instant", {}],
        ["add", undefined],
        ["greet", undefined],
      ]);
      const created = messages.find(
        (r) => r.direction === "s2c" && r.message?.result?.task && sent(messages, "tools/call").find((c) => c.message.params.name === "instant" && c.message.id === r.message.id),
      );
      assert.equal(created.message.result.task.status, store === "memory" ? "completed" : "working");
    });
  }
});

// ---- 3. SDK 1.32.2 Client → our server module (2025-11-25) -------------------------------------

test("3. SDK 1.32.2 Client (callToolStream) → our server module (examples/conformance-server.mjs) (2025-11-25)", async (t) => {
  const example = await startExample();
  t.after(() => example.stop());
  const recorder = await startRecorder(example.url);
  t.after(() => recorder.stop());
  const asked = [];
  const client = new Client({ name: "matrix-sdk", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    return { action: "accept", content: { confirm: true } };
  });
  const transport = new StreamableHTTPClientTransport(new URL(recorder.url));
  const stream = async (name, args) => {
    const seen = [];
    for await (const m of client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema)) seen.push(m);
    return { seen, last: seen.at(-1), taskId: seen.find((m) => m.type === "taskCreated")?.task.taskId };
  };
  let computed, failing, failingResult, deleted, greeting, plainRequired;
  try {
    await client.connect(transport);
    assert.equal(transport.protocolVersion, V25);
    const { tools } = await client.listTools(); // callToolStream learns taskSupport from it
    assert.equal(tools.find((x) => x.name === "failing_job").execution.taskSupport, "required");
    computed = await stream("slow_compute", { seconds: 1, label: "sdk" });
    failing = await stream("failing_job", {});
    failingResult = await client.experimental.tasks.getTaskResult(failing.taskId, CallToolResultSchema);
    deleted = await stream("confirm_delete", { filename: "a.txt" });
    greeting = await client.callTool({ name: "greet", arguments: { name: "SDK" } });
    plainRequired = await client
      .request({ method: "tools/call", params: { name: "failing_job", arguments: {} } }, CallToolResultSchema)
      .then(() => undefined, (e) => e);
  } finally {
    await client.close();
  }
  assert.equal(computed.seen[0].type, "taskCreated");
  assert.equal(computed.last.type, "result", JSON.stringify(computed.last));
  assert.equal(textOf(computed.last.result), "sdk: done after 1 s");
  // A tool execution error fails the task (§D 44): the stream ends with an error, tasks/result
  // gives the isError result.
  assert.equal(failing.last.type, "error");
  assert.equal(failingResult.isError, true);
  assert.match(textOf(failingResult), /the job failed/);
  assert.equal(deleted.last.type, "result", JSON.stringify(deleted.last));
  assert.equal(textOf(deleted.last.result), "Deleted a.txt");
  assert.equal(asked.length, 1);
  assert.deepEqual(asked[0]._meta?.[RELATED], { taskId: deleted.taskId }, "the elicitation names its task (§D 33)");
  assert.equal(textOf(greeting), "Hello, SDK!");
  assert.equal(plainRequired?.code, -32601, "a plain call of a required tool: -32601 (§D 41)");

  const { messages } = checkTraffic(t, "matrix-sdk-client-ours", recorder, Conversation);
  assertAnswered(messages);
  const elicitation = messages.find((r) => r.direction === "s2c" && r.message?.method === "elicitation/create");
  assert.equal(elicitation.http.via, "sse");
  assert.ok(sent(messages, "tasks/result").length >= 3);
});

// ---- 4. Inspector 2.12 CLI → our server module (both eras) -------------------------------------

test("4. Inspector 2.12 CLI → our server module, default (legacy) era and --protocol-era modern", async (t) => {
  const example = await startExample();
  t.after(() => example.stop());
  /** One CLI run (its own conversation: a recorder each), checked; the run and its messages. */
  const inspect = async (t, era, tool, args) => {
    const recorder = await startRecorder(example.url);
    try {
      const run = await runInspectorCli(recorder.url, { era, tool, args });
      t.diagnostic(`${tool}: exit ${run.code}; ${JSON.stringify(run.json)}`);
      const { messages } = checkTraffic(t, `matrix-inspector-${era}-ours-${tool}`, recorder, Conversation);
      assertAnswered(messages);
      const call = sent(messages, "tools/call")[0]?.message;
      assert.ok(call, "the CLI called the tool");
      return { run, messages, call };
    } finally {
      await recorder.stop();
    }
  };

  await t.test("legacy: 2025-11-25 initialize; greet and slow_compute (optional) synchronous, failing_job (required) as a task", async (t) => {
    const greet = await inspect(t, "legacy", "greet", { name: "Inspector" });
    assert.equal(greet.run.code, 0, greet.run.stderr);
    assert.deepEqual(greet.run.json, { result: { content: [{ type: "text", text: "Hello, Inspector!" }] } });
    assert.equal(sent(greet.messages, "initialize")[0].message.params.protocolVersion, V25);

    const compute = await inspect(t, "legacy", "slow_compute", { seconds: 1, label: "legacy" });
    assert.equal(compute.run.code, 0, compute.run.stderr);
    assert.deepEqual(compute.run.json, { result: { content: [{ type: "text", text: "legacy: done after 1 s" }] } });
    assert.equal(compute.call.params.task, undefined, "not augmented: the tool runs synchronously (§D 48)");

    // The tool result is isError: the task ends failed (§D 44); the CLI reports its statusMessage.
    const failing = await inspect(t, "legacy", "failing_job", {});
    assert.notEqual(failing.run.code, 0);
    assert.match(failing.run.json.error.message, /^Tool reported an error: failing_job: the job failed/);
    assert.deepEqual(failing.call.params.task, {}, "required: augmented");
    const snapshots = failing.messages.filter((r) => r.direction === "s2c" && r.message?.result?.status !== undefined);
    assert.equal(snapshots.at(-1).message.result.status, "failed");
  });

  await t.test("modern: 2026-07-28 server/discover; greet synchronous, slow_compute and failing_job as tasks polled to their result", async (t) => {
    const greet = await inspect(t, "modern", "greet", { name: "Inspector" });
    assert.equal(greet.run.code, 0, greet.run.stderr);
    assert.deepEqual(greet.run.json.result.content, [{ type: "text", text: "Hello, Inspector!" }]);
    assert.equal(greet.run.json.result.resultType, "complete");
    assert.equal(greet.messages[0].message.method, "server/discover");
    assert.equal(greet.call._meta, undefined);
    assert.equal(greet.call.params._meta["io.modelcontextprotocol/protocolVersion"], V26);

    const compute = await inspect(t, "modern", "slow_compute", { seconds: 1, label: "modern" });
    assert.equal(compute.run.code, 0, compute.run.stderr);
    assert.deepEqual(compute.run.json, { result: { content: [{ type: "text", text: "modern: done after 1 s" }] } });
    const created = compute.messages.find((r) => r.direction === "s2c" && r.message?.result?.resultType === "task");
    assert.ok(created, "a task (the client declared the extension)");
    assert.ok(sent(compute.messages, "tasks/get").length >= 1);

    // 2026-07-28: a tool's isError result completes the task (§C); the CLI prints it and exits non-zero.
    const failing = await inspect(t, "modern", "failing_job", {});
    assert.notEqual(failing.run.code, 0);
    assert.equal(failing.run.json.result.isError, true);
    assert.match(textOf(failing.run.json.result), /^failing_job: the job failed/);
    const last = failing.messages.filter((r) => r.direction === "s2c" && r.message?.result?.status !== undefined).at(-1);
    assert.equal(last.message.result.status, "completed");
    assert.equal(last.message.result.result.isError, true);
  });
});
