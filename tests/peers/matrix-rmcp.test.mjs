// The real-peer matrix, Rust SDK pairings. Through the recording proxy of peers.mjs; the recorded
// traffic is fed to `Conversation` (the built package), which must raise no error-level issue.
// Transcripts go to target/peers/matrix-<pairing>.jsonl.
//
//  10. TaskClient.connect(url) → rmcp 3.11 server (tools/rmcp-peer: tasks on rmcp's own
//      TaskManager), no version given (2026-07-28: a task polled to its result, a running task
//      cancelled) and pinned 2025-11-25 (rmcp's tasks are 2026-07-28 only: the tool answers
//      synchronously)
//  11. rmcp 3.11 client (tools/rmcp-peer: call_tool_once → CreateTaskResult, get_task,
//      cancel_task) → our server module (examples/conformance-server.mjs) (2026-07-28)
//
//   node --test tests/peers/matrix-rmcp.test.mjs   (needs scripts/setup.sh and scripts/build.sh)
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { Conversation, TaskCancelledError, TaskClient } from "../../pkg/node.mjs";
import { V26, checkTraffic, eachClientVersion, runRmcpClient, sent, startExample, startRecorder, startRmcpServer, stopAll, textOf } from "./peers.mjs";

after(stopAll);

test("10. TaskClient.connect(url) → rmcp 3.11 server with tasks: no version (2026-07-28) and pinned 2025-11-25", async (t) => {
  const server = await startRmcpServer();
  t.after(() => server.stop());
  await eachClientVersion(t, server.url, TaskClient, async (client, version) => {
    const sum = await client.callTool("add", { a: 2, b: 3 });
    const slow = await client.callTool("slow_sum", { a: 4, b: 5, ms: 300 });
    let cancelled;
    if (version === V26) {
      // A running task, cancelled once it exists: the cancel is delivered, the server says so.
      const abort = new AbortController();
      const created = (async () => {
        for await (const e of client.events()) if (e.type === "taskCreated") return e.taskId;
      })();
      const call = client.callTool("slow_sum", { a: 1, b: 1, ms: 30_000 }, { signal: abort.signal });
      const taskId = await created;
      abort.abort(new Error("the user gave up"));
      cancelled = await call.then(
        () => assert.fail("the call resolved"),
        (e) => e,
      );
      assert.ok(cancelled instanceof TaskCancelledError, String(cancelled));
      assert.equal(cancelled.taskId, taskId);
      assert.equal(cancelled.delivered, true, "tasks/cancel reached the server");
    }
    return { sum, slow, cancelled };
  }, (t, { label, version, recorder }, { sum, slow, cancelled }) => {
    assert.equal(textOf(sum), "5");
    assert.equal(textOf(slow), "sum: 9");

    const { messages } = checkTraffic(t, `matrix-taskclient-${label}-rmcp`, recorder, Conversation);
    const created = messages.filter((r) => r.direction === "s2c" && r.message?.result?.resultType === "task");
    if (version === V26) {
      assert.equal(created.length, 2, "both slow_sum calls ran as tasks");
      assert.ok(sent(messages, "tasks/get").length >= 1, "polled with tasks/get");
      const cancels = sent(messages, "tasks/cancel");
      assert.equal(cancels.length, 1);
      assert.equal(cancels[0].message.params.taskId, cancelled.taskId);
      const last = messages.filter((r) => r.direction === "s2c" && r.message?.result?.taskId === cancelled.taskId && r.message.result.status).at(-1);
      t.diagnostic(`last status of the cancelled task seen: ${last?.message.result.status}`);
    } else {
      assert.equal(created.length, 0, "2025-11-25: no rmcp tasks");
    }
  });
});

test("11. rmcp 3.11 client (call_tool_once, get_task, cancel_task) → our server module (2026-07-28)", async (t) => {
  const example = await startExample();
  t.after(() => example.stop());
  const recorder = await startRecorder(example.url);
  t.after(() => recorder.stop());
  const run = await runRmcpClient(recorder.url, "slow_compute", { seconds: 0.2, label: "rmcp" });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const out = run.json;
  assert.equal(out.protocolVersion, V26);
  assert.equal(out.status, "completed");
  assert.equal(out.text, "rmcp: done after 0.2 s");
  assert.equal(out.cancelled.status, "cancelled");

  const { messages } = checkTraffic(t, "matrix-rmcp-client-ours", recorder, Conversation);
  assert.equal(messages[0].message.method, "server/discover");
  const calls = sent(messages, "tools/call");
  assert.equal(calls.length, 2);
  for (const c of calls) assert.deepEqual(c.message.params._meta["io.modelcontextprotocol/clientCapabilities"].extensions["io.modelcontextprotocol/tasks"], {});
  const cancels = sent(messages, "tasks/cancel");
  assert.equal(cancels.length, 1);
  assert.equal(cancels[0].message.params.taskId, out.cancelled.taskId);
});
