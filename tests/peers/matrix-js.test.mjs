// The real-peer matrix, JavaScript pairings (issue 9, "Proof: a real-peer matrix in the test
// suite"). Every pairing runs through the recording proxy of peers.mjs; the recorded traffic is
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
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { Conversation, TaskClient, TaskFailedError, requestVia } from "../../pkg/node.mjs";
import {
  ROOT,
  describeMessages,
  observeAll,
  runInspectorCli,
  startEverything,
  startExample,
  startRecorder,
  startSdkServer,
  stopAll,
} from "./peers.mjs";

after(stopAll);

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const RELATED = "io.modelcontextprotocol/related-task";
const OUT = join(ROOT, "target/peers");
mkdirSync(OUT, { recursive: true });

/**
 * Writes the transcript, feeds the recording to Conversation and asserts what it says: every
 * error-level issue is one of `peerBugs` (codes of the peers' own bugs), and each of `peerBugs`
 * was found. Issues are printed as diagnostics. Returns the messages and the checker's findings.
 * @param {string[]} peerBugs
 */
function checkTraffic(t, name, recorder, peerBugs = []) {
  const messages = recorder.messages();
  writeFileSync(join(OUT, `matrix-${name}.jsonl`), recorder.transcript());
  const seen = observeAll(Conversation, messages);
  t.diagnostic(`${name}: ${messages.length} messages; target/peers/matrix-${name}.jsonl; ${seen.errors} error(s), ${seen.warnings} warning(s)`);
  for (const i of seen.issues) t.diagnostic(`  #${i.seq} ${i.direction} ${i.severity} ${i.code} ${i.path || "(root)"}: ${i.message}`);
  const errors = seen.issues.filter((i) => i.severity === "error");
  const unexpected = errors.filter((i) => !peerBugs.includes(i.code));
  assert.deepEqual(
    unexpected.map((i) => `#${i.seq} ${i.code}: ${i.message}`),
    [],
    `no error-level issue but the peers' bugs; the recording:\n${describeMessages(messages)}`,
  );
  for (const code of peerBugs) assert.ok(errors.some((i) => i.code === code), `the peer bug ${code} is found`);
  return { messages, seen };
}

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

const sent = (messages, method) => messages.filter((r) => r.direction === "c2s" && r.message?.method === method);
const textOf = (result) => result?.content?.find((c) => c.type === "text")?.text;

// ---- 1. TaskClient → server-everything 2026.8.31 (2025-11-25) -----------------------------------

test("1. TaskClient, no version given → server-everything 2026.8.31: simulate-research-query (2025-11-25)", async (t) => {
  const everything = await startEverything();
  t.after(() => everything.stop());
  const asked = [];
  const handlers = {
    elicitation: async (params) => (asked.push(params), { action: "accept", content: { interpretation: "historical" } }),
  };

  /** Both clients, through a recorder each: `run(client)` gets a TaskClient speaking to server-everything. */
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
      assert.equal(asked[0]._meta?.[RELATED]?.taskId, ambiguous._meta?.[RELATED]?.taskId ?? asked[0]._meta?.[RELATED]?.taskId);

      const { messages } = checkTraffic(t, `taskclient-${how}-everything`, recorder);
      assertAnswered(messages);
      const calls = sent(messages, "tools/call");
      assert.equal(calls.length, 2);
      for (const c of calls) {
        assert.deepEqual(c.message.params.task, {}, "taskSupport required: augmented unasked (§D 48)");
        assert.equal(c.message.params._meta, undefined, "no 2026-07-28 _meta");
      }
      assert.ok(sent(messages, "tasks/result").length >= 2);
      const elicitation = messages.find((r) => r.direction === "s2c" && r.message?.method === "elicitation/create");
      assert.equal(elicitation.http.via, "sse", "asked on a stream (tasks/result)");
      if (how === "connect") assert.equal(messages[0].message.method, "server/discover", "2026-07-28 tried first");
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
      const { messages } = checkTraffic(t, `taskclient-sdk-${store}`, recorder, peerBugs);
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
