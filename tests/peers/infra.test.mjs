// Proves the real-peer infrastructure (tests/peers/peers.mjs) with peers that exist today:
//
//   SDK 1.32.2 Client (callToolStream) → recorder → server-everything 2026.8.31  (2025-11-25)
//   Python mcp 1.30 client             → recorder → Python mcp 1.30 server       (2025-11-25)
//   Inspector 2.12 CLI, default era    → recorder → server-everything            (2025-11-25)
//   Python mcp 2.3 client              → recorder → Python mcp 2.3 server        (2026-07-28)
//   Python mcp 1.30 client             → recorder → SDK 1.32.2 McpServer + tasks (2025-11-25),
//                                                   on InMemoryTaskStore and on our SdkTaskStore
//
// Each asserts the peers' final results and that the recorder captured requests and answers in
// both directions, then feeds the recording to `Conversation` (the built package) and PRINTS its
// issues as test diagnostics (what the checker says is another suite's business). Transcripts are
// written to target/peers/<name>.jsonl (one JSON-RPC message per line: `mcp-tasks check` reads them).
//
//   node --test tests/peers/infra.test.mjs      (needs scripts/setup.sh and scripts/build.sh)
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Conversation } from "../../pkg/node.mjs";
import {
  ROOT,
  describeMessages,
  methods,
  observeAll,
  runInspectorCli,
  runPyClient,
  startEverything,
  startPyServer,
  startSdkServer,
  startRecorder,
  stopAll,
} from "./peers.mjs";

after(stopAll);

const OUT = join(ROOT, "target/peers");
mkdirSync(OUT, { recursive: true });

/** Prints the recording and the checker's issues; writes the transcript. */
function report(t, name, recorder) {
  const messages = recorder.messages();
  writeFileSync(join(OUT, `${name}.jsonl`), recorder.transcript());
  const seen = observeAll(Conversation, messages);
  t.diagnostic(`${name}: ${messages.length} messages recorded; target/peers/${name}.jsonl`);
  for (const line of describeMessages(messages).split("\n")) t.diagnostic(`  ${line}`);
  t.diagnostic(`${name}: Conversation says ${seen.errors} error(s), ${seen.warnings} warning(s)`);
  for (const i of seen.issues) t.diagnostic(`  #${i.seq} ${i.direction} ${i.severity} ${i.code} ${i.path || "(root)"}: ${i.message}`);
  return { messages, seen };
}

/** Requests and answers in both directions: the recorder saw the whole exchange. */
function assertBothWays(messages, { serverRequests = false } = {}) {
  const c2sRequests = messages.filter((r) => r.direction === "c2s" && r.message?.method !== undefined && r.message.id !== undefined);
  const s2cAnswers = messages.filter((r) => r.direction === "s2c" && r.message && ("result" in r.message || "error" in r.message));
  assert.ok(c2sRequests.length > 0, "client requests recorded");
  assert.ok(s2cAnswers.length > 0, "server answers recorded");
  // Every client request got its answer, recorded after it.
  for (const req of c2sRequests) {
    const answer = s2cAnswers.find((a) => a.message.id === req.message.id && a.seq > req.seq);
    assert.ok(answer, `an answer to ${req.message.method} #${req.message.id}`);
  }
  if (serverRequests) {
    const s2cRequests = messages.filter((r) => r.direction === "s2c" && r.message?.method !== undefined && r.message.id !== undefined);
    const c2sAnswers = messages.filter((r) => r.direction === "c2s" && r.message && ("result" in r.message || "error" in r.message));
    assert.ok(s2cRequests.length > 0, "server-to-client requests recorded");
    for (const req of s2cRequests) {
      assert.ok(
        c2sAnswers.some((a) => a.message.id === req.message.id && a.seq > req.seq),
        `the client's answer to ${req.message.method} #${req.message.id}`,
      );
    }
  }
}


async function sdkClient(url, { elicit } = {}) {
  const client = new Client({ name: "infra-test", version: "1.0.0" }, { capabilities: elicit ? { elicitation: {} } : {} });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async (request) => elicit(request));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function finalOf(stream) {
  const seen = [];
  for await (const message of stream) seen.push(message);
  return { last: seen.at(-1), seen };
}

test("SDK 1.32.2 Client → recorder → server-everything: simulate-research-query through callToolStream", async (t) => {
  const everything = await startEverything();
  t.after(() => everything.stop());

  await t.test("plain", async (t) => {
    const recorder = await startRecorder(everything.url);
    t.after(() => recorder.stop());
    const client = await sdkClient(recorder.url);
    const { tools } = await client.listTools(); // callToolStream learns taskSupport from it
    assert.equal(tools.find((x) => x.name === "simulate-research-query")?.execution?.taskSupport, "required");
    const { last, seen } = await finalOf(
      client.experimental.tasks.callToolStream({ name: "simulate-research-query", arguments: { topic: "tides" } }),
    );
    await client.close();
    assert.equal(seen[0].type, "taskCreated");
    assert.equal(last.type, "result", JSON.stringify(last));
    assert.match(last.result.content[0].text, /# Research Report: tides\n/);

    const { messages } = report(t, "sdk-everything-plain", recorder);
    assertBothWays(messages);
    const call = messages.find((r) => r.message?.method === "tools/call");
    assert.deepEqual(Object.keys(call.message.params.task ?? {}), [], "a task-augmented call (params.task)");
    assert.ok(methods(messages, "c2s").includes("tasks/get"));
    assert.ok(methods(messages, "c2s").includes("tasks/result"));
  });

  await t.test("ambiguous: true, answered by an elicitation handler on the tasks/result stream", async (t) => {
    const recorder = await startRecorder(everything.url);
    t.after(() => recorder.stop());
    const asked = [];
    const client = await sdkClient(recorder.url, {
      elicit: (request) => {
        asked.push(request.params);
        return { action: "accept", content: { interpretation: "historical" } };
      },
    });
    await client.listTools();
    const { last } = await finalOf(
      client.experimental.tasks.callToolStream({ name: "simulate-research-query", arguments: { topic: "tides", ambiguous: true } }),
    );
    await client.close();
    assert.equal(last.type, "result", JSON.stringify(last));
    assert.match(last.result.content[0].text, /# Research Report: tides \(historical\)/);
    assert.equal(asked.length, 1);

    const { messages } = report(t, "sdk-everything-elicit", recorder);
    // The elicitation travels on the tasks/result SSE stream, which stays open until the task
    // ends, and the task only ends once it is answered: so the proxy passed the event on before
    // the stream closed (it does not buffer SSE).
    assertBothWays(messages, { serverRequests: true });
    const elicitation = messages.find((r) => r.direction === "s2c" && r.message?.method === "elicitation/create");
    assert.equal(elicitation.http.via, "sse");
    const stream = messages.filter((r) => r.exchange === elicitation.exchange).map((r) => r.message?.method ?? "answer");
    assert.ok(stream.includes("tasks/result"), "the elicitation came on the tasks/result exchange");
  });
});

test("Python mcp 1.30 client → recorder → Python mcp 1.30 server (tasks, 2025-11-25)", async (t) => {
  const server = await startPyServer("mcp1");
  t.after(() => server.stop());

  await t.test("a task that completes", async (t) => {
    const recorder = await startRecorder(server.url);
    t.after(() => recorder.stop());
    const r = await runPyClient("mcp1", recorder.url, ["greet", JSON.stringify({ name: "Ada", delayMs: 200 })]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.ok, true);
    assert.equal(r.json.protocolVersion, "2025-11-25");
    assert.equal(r.json.status, "completed");
    assert.deepEqual(r.json.result.content, [{ type: "text", text: "hello, Ada" }]);
    const { messages } = report(t, "py1-py1-greet", recorder);
    assertBothWays(messages);
    assert.ok(methods(messages, "c2s").includes("tasks/get"));
  });

  await t.test("a task whose work raises: failed, and tasks/result answers only _meta (peer bug, §D 30)", async (t) => {
    const recorder = await startRecorder(server.url);
    t.after(() => recorder.stop());
    const r = await runPyClient("mcp1", recorder.url, ["fail", JSON.stringify({ reason: "on purpose" })]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.status, "failed");
    assert.equal(r.json.statusMessage, "boom: on purpose");
    assert.equal(r.json.callToolResult, false);
    const { messages } = report(t, "py1-py1-fail", recorder);
    assertBothWays(messages);
    // On the wire: the tasks/result answer is a result with nothing but _meta.
    const ask = messages.find((m) => m.direction === "c2s" && m.message?.method === "tasks/result");
    const answer = messages.find((m) => m.direction === "s2c" && m.message?.id === ask.message.id && m.seq > ask.seq);
    assert.ok(answer.message.result, "a result, not a JSON-RPC error");
    assert.deepEqual(Object.keys(answer.message.result), ["_meta"]);
  });

  await t.test("a task that elicits (task.elicit, on the tasks/result stream)", async (t) => {
    const recorder = await startRecorder(server.url);
    t.after(() => recorder.stop());
    const r = await runPyClient("mcp1", recorder.url, ["ask", "{}", "--elicit", JSON.stringify({ name: "Bo" })]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.status, "completed");
    assert.deepEqual(r.json.result.content, [{ type: "text", text: "hello, Bo" }]);
    assert.equal(r.json.elicitations.length, 1);
    assert.ok(r.json.statuses.includes("input_required"));
    const { messages } = report(t, "py1-py1-ask", recorder);
    assertBothWays(messages, { serverRequests: true });
  });

  await t.test("a plain call of a taskSupport:required tool: isError, not -32601 (peer bug, §D 41)", async (t) => {
    const recorder = await startRecorder(server.url);
    t.after(() => recorder.stop());
    const r = await runPyClient("mcp1", recorder.url, ["greet", JSON.stringify({ name: "x" }), "--plain"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.result.isError, true);
    const { messages } = report(t, "py1-py1-plain-required", recorder);
    assertBothWays(messages);
  });
});

test("Inspector 2.12 CLI → recorder → server-everything", async (t) => {
  const everything = await startEverything();
  t.after(() => everything.stop());

  await t.test("default (legacy) era: echo", async (t) => {
    const recorder = await startRecorder(everything.url);
    t.after(() => recorder.stop());
    const r = await runInspectorCli(recorder.url, { tool: "echo", args: { message: "hi" } });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json, { result: { content: [{ type: "text", text: "Echo: hi" }] } });
    const { messages } = report(t, "inspector-everything-echo", recorder);
    assertBothWays(messages);
    const init = messages.find((m) => m.message?.method === "initialize");
    assert.equal(init.message.params.protocolVersion, "2025-11-25");
  });

  await t.test("modern era: server-everything offers no 2026-07-28, so the pinned CLI gives up", async (t) => {
    const recorder = await startRecorder(everything.url);
    t.after(() => recorder.stop());
    const r = await runInspectorCli(recorder.url, { era: "modern", tool: "echo", args: { message: "hi" } });
    assert.notEqual(r.code, 0);
    assert.match(r.json?.error?.message ?? "", /did not offer pinned protocol version 2026-07-28/);
    const { messages } = report(t, "inspector-everything-modern", recorder);
    assert.equal(messages[0].message.method, "server/discover");
    assert.equal(messages[0].direction, "c2s");
    assert.ok(messages.some((m) => m.direction === "s2c"), "the server's refusal was recorded");
  });
});

test("Python mcp 2.3 client → recorder → Python mcp 2.3 server (stateless 2026-07-28)", async (t) => {
  const server = await startPyServer("mcp2");
  t.after(() => server.stop());

  await t.test("a synchronous tool", async (t) => {
    const recorder = await startRecorder(server.url);
    t.after(() => recorder.stop());
    const r = await runPyClient("mcp2", recorder.url, ["add", JSON.stringify({ a: 1, b: 2 })]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.protocolVersion, "2026-07-28");
    assert.deepEqual(r.json.result.content, [{ type: "text", text: "3" }]);
    assert.equal(r.json.task, null);
    const { messages } = report(t, "py2-py2-add", recorder);
    assertBothWays(messages);
    assert.equal(messages[0].message.method, "server/discover");
    assert.equal(recorder.exchanges()[0].requestHeaders["mcp-method"], "server/discover");
    assert.equal(recorder.exchanges()[0].requestHeaders["mcp-session-id"], undefined, "stateless");
  });

  await t.test("a task (resultType task, tasks/get to the end)", async (t) => {
    const recorder = await startRecorder(server.url);
    t.after(() => recorder.stop());
    const r = await runPyClient("mcp2", recorder.url, ["greet", JSON.stringify({ name: "Ada", delayMs: 200 })]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json.result.content, [{ type: "text", text: "hello, Ada" }]);
    assert.equal(r.json.task.statuses.at(-1), "completed");
    const { messages } = report(t, "py2-py2-greet", recorder);
    assertBothWays(messages);
    const created = messages.find((m) => m.direction === "s2c" && m.message?.result?.resultType === "task");
    assert.ok(created, "a CreateTaskResult on the wire");
    const get = recorder.exchanges().find((e) => e.requestHeaders["mcp-method"] === "tasks/get");
    assert.equal(get.requestHeaders["mcp-name"], created.message.result.taskId, "Mcp-Name carries the taskId");
  });

  await t.test("a task that needs input (inputRequests, tasks/update)", async (t) => {
    const recorder = await startRecorder(server.url);
    t.after(() => recorder.stop());
    const r = await runPyClient("mcp2", recorder.url, ["ask", "{}", "--elicit", JSON.stringify({ name: "Bo" })]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json.result.content, [{ type: "text", text: "hello, Bo" }]);
    assert.deepEqual(r.json.task.inputKeys, ["name"]);
    const { messages } = report(t, "py2-py2-ask", recorder);
    assertBothWays(messages);
    assert.ok(methods(messages, "c2s").includes("tasks/update"));
  });

  await t.test("a failed task: the client raises its error", async (t) => {
    const recorder = await startRecorder(server.url);
    t.after(() => recorder.stop());
    const r = await runPyClient("mcp2", recorder.url, ["fail", "{}"]);
    assert.equal(r.code, 1);
    assert.deepEqual({ code: r.json.error.code, message: r.json.error.message }, { code: -32603, message: "boom: on purpose" });
    const { messages } = report(t, "py2-py2-fail", recorder);
    assertBothWays(messages);
  });
});

test("Python mcp 1.30 client → recorder → SDK 1.32.2 McpServer with tasks, on InMemoryTaskStore and on SdkTaskStore", async (t) => {
  for (const store of ["memory", "ours"]) {
    await t.test(store, async (t) => {
      const server = await startSdkServer({ store });
      t.after(() => server.stop());
      const recorder = await startRecorder(server.url);
      t.after(() => recorder.stop());
      const done = await runPyClient("mcp1", recorder.url, ["greet", JSON.stringify({ name: "Ada", delayMs: 100 })]);
      assert.equal(done.code, 0, done.stderr);
      assert.equal(done.json.status, "completed");
      assert.deepEqual(done.json.result.content, [{ type: "text", text: "hello, Ada" }]);
      const failed = await runPyClient("mcp1", recorder.url, ["fail", "{}"]);
      assert.equal(failed.code, 0, failed.stderr);
      assert.equal(failed.json.status, "failed");
      assert.deepEqual(failed.json.result.content, [{ type: "text", text: "boom: on purpose" }]);
      assert.equal(failed.json.result.isError, true);
      const { messages } = report(t, `py1-sdk-${store}`, recorder);
      assertBothWays(messages);
    });
  }
});
