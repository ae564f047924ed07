// The real-peer matrix, SDK v2 pairings. Every pairing runs through the recording proxy of
// peers.mjs; the recorded traffic is fed to `Conversation` (the built package), which must raise
// no error-level issue except the peers' own bugs, each asserted as found by its code.
// Transcripts go to target/peers/matrix-<pairing>.jsonl.
//
//   5. @modelcontextprotocol/ext-tasks 0.2.2 (createTaskSessionFromClient over an SDK 2.4.0
//      Client) → our server module (examples/conformance-server.mjs), 2025-11-25 and 2026-07-28:
//      callTool → settle() → the result; a running task cancelled (the server says `cancelled`)
//   6. SDK 2.4.0 Client (TaskClient.over) → server-everything 2026.8.31 (2025-11-25):
//      simulate-research-query, legacy and auto negotiation
//   7. SDK 2.4.0 Client (TaskClient.over) → an SDK 2.4.0 McpServer (tests/peers/fixtures/
//      sdk2-server.mjs: a plain tool; v2 has no task runtime), legacy, auto and pinned 2026-07-28
//
// The SDK v2 packages and ext-tasks are pinned in tools/sdk2 (scripts/setup.sh).
//   node --test tests/peers/matrix-sdk2.test.mjs     (needs scripts/setup.sh and scripts/build.sh)
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Conversation, TaskClient } from "../../pkg/node.mjs";
import { V25, V26, textOf, ROOT, checkTraffic, rawDispatchTo as rawDispatchFromPeers, sent, startEverything, startExample, startRecorder, startSdk2Server, stopAll } from "./peers.mjs";

after(stopAll);

const sdk2 = (p) => import(pathToFileURL(join(ROOT, "tools/sdk2/node_modules/@modelcontextprotocol", p)).href);
const v2 = await sdk2("client/dist/index.mjs");
const ext = await sdk2("ext-tasks/dist/client/index.js");
const extCore = await sdk2("ext-tasks/dist/core/index.js");

const MODES = { legacy: { mode: "legacy" }, auto: { mode: "auto" }, modern: { mode: { pin: V26 } } };

/** An SDK 2.4.0 Client connected over Streamable HTTP to `url`, negotiating in `mode`. */
async function v2Client(url, mode, capabilities = {}) {
  const client = new v2.Client({ name: "matrix-sdk2", version: "1.0.0" }, { capabilities, versionNegotiation: MODES[mode] });
  await client.connect(new v2.StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const rawDispatchTo = (url, version) => rawDispatchFromPeers(url, version, ext.DispatchError);

// ---- 5. ext-tasks 0.2.2 → our server module (both eras) -----------------------------------------

for (const [mode, version] of [
  ["legacy", V25],
  ["modern", V26],
]) {
  test(`5. ext-tasks 0.2.2 over an SDK 2.4.0 Client (${mode}) → our server module: settle() gets the result, a cancel is delivered (${version})`, async (t) => {
    const example = await startExample();
    t.after(() => example.stop());
    const recorder = await startRecorder(example.url);
    t.after(() => recorder.stop());
    const capabilities = { elicitation: {} };
    const client = await v2Client(recorder.url, mode, capabilities);
    assert.equal(client.getNegotiatedProtocolVersion(), version);
    const options = { endpointId: "matrix-example" };
    if (version === V26) {
      options.rawDispatch = rawDispatchTo(recorder.url, version);
      options.v2RequestFraming = { protocolVersion: version, clientInfo: { name: "matrix-sdk2", version: "1.0.0" }, clientCapabilities: capabilities };
    }
    const session = ext.createTaskSessionFromClient(client, options);
    // ext-tasks 0.2.2 decodes a 2026-07-28 completed task's inlined `result` as a strict core
    // CallToolResult, `resultType` required; the spec's examples inline it without (TASKS-SPEC
    // §E 3: accept with or without), as our server does. A JSON codec takes the result as sent.
    const call = (name, args, task) => session.callTool(name, args, { resultCodec: extCore.JsonValueCodec, task: { preference: task } });
    let computed, cancelled, cancelledId;
    try {
      const execution = await call("slow_compute", { seconds: 0.2, label: "ext" }, "require");
      assert.equal(execution.kind, "task");
      const { outcome } = await execution.settle();
      computed = ext.resultFromTaskOutcome(outcome);

      const running = await call("slow_compute", { seconds: 30, label: "never" }, "require");
      assert.equal(running.kind, "task");
      cancelledId = running.handle.taskId;
      await running.cancel();
      cancelled = await running.settle().then(
        (s) => s.outcome,
        (e) => e,
      );
    } finally {
      await session.close();
      await client.close();
    }
    assert.equal(textOf(computed), "ext: done after 0.2 s");
    assert.equal(cancelled?.status ?? String(cancelled), "cancelled");

    const { messages } = checkTraffic(t, `matrix-ext-tasks-${mode}-ours`, recorder, Conversation);
    const cancels = sent(messages, "tasks/cancel");
    assert.equal(cancels.length, 1, "one tasks/cancel");
    assert.equal(cancels[0].message.params.taskId, cancelledId);
    const answer = messages.find((r) => r.direction === "s2c" && r.message?.id === cancels[0].message.id);
    assert.ok(answer && !("error" in answer.message), "the cancel was accepted");
    const calls = sent(messages, "tools/call");
    assert.equal(calls.length, 2);
    if (version === V26) {
      for (const c of calls) assert.equal(c.message.params._meta["io.modelcontextprotocol/protocolVersion"], V26);
      assert.ok(messages.some((r) => r.direction === "s2c" && r.message?.result?.resultType === "task"), "2026-07-28 tasks");
    } else {
      for (const c of calls) assert.deepEqual(c.message.params.task, {}, "2025-11-25 task augmentation");
    }
  });
}

// ---- 6. SDK 2.4.0 Client → server-everything (2025-11-25) ---------------------------------------

test("6. SDK 2.4.0 Client (TaskClient.over) → server-everything 2026.8.31: simulate-research-query (2025-11-25)", async (t) => {
  const everything = await startEverything();
  t.after(() => everything.stop());
  for (const mode of ["legacy", "auto"]) {
    await t.test(mode, async (t) => {
      const recorder = await startRecorder(everything.url);
      t.after(() => recorder.stop());
      const client = await v2Client(recorder.url, mode);
      const tasks = TaskClient.over(client);
      let report;
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), V25, "server-everything speaks 2025-11-25");
        report = await tasks.callTool("simulate-research-query", { topic: "tides" });
        assert.equal(tasks.protocolVersion, V25);
      } finally {
        await tasks.close();
        await client.close();
      }
      assert.match(textOf(report), /# Research Report: tides\n/);
      const { messages } = checkTraffic(t, `matrix-sdk2-client-${mode}-everything`, recorder, Conversation);
      const calls = sent(messages, "tools/call");
      assert.equal(calls.length, 1);
      assert.deepEqual(calls[0].message.params.task, {}, "taskSupport required: augmented (§D 48)");
      assert.ok(sent(messages, "tasks/result").length >= 1);
    });
  }
});

// ---- 7. SDK 2.4.0 Client → SDK 2.4.0 McpServer (both eras) ---------------------------------------

test("7. SDK 2.4.0 Client (TaskClient.over) → SDK 2.4.0 McpServer, a plain tool: legacy, auto and pinned 2026-07-28", async (t) => {
  const server = await startSdk2Server();
  t.after(() => server.stop());
  for (const [mode, version] of [
    ["legacy", V25],
    ["auto", V26],
    ["modern", V26],
  ]) {
    await t.test(mode, async (t) => {
      const recorder = await startRecorder(server.url);
      t.after(() => recorder.stop());
      const client = await v2Client(recorder.url, mode);
      const tasks = TaskClient.over(client);
      let sum;
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), version);
        sum = await tasks.callTool("add", { a: 2, b: 3 });
      } finally {
        await tasks.close();
        await client.close();
      }
      assert.equal(textOf(sum), "5");
      assert.equal(sum.isError, undefined);
      const { messages } = checkTraffic(t, `matrix-sdk2-client-${mode}-sdk2-server`, recorder, Conversation);
      const calls = sent(messages, "tools/call");
      assert.equal(calls.length, 1);
      assert.equal(calls[0].message.params.task, undefined, "no task support declared: a plain call");
    });
  }
});
