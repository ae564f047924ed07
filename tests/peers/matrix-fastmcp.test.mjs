// The real-peer matrix, FastMCP (Python) pairings. Every pairing runs through the recording proxy
// of peers.mjs; the recorded traffic is fed to `Conversation` (the built package), which must
// raise no error-level issue except the peers' own bugs, each asserted as found by its code.
// Transcripts go to target/peers/matrix-<pairing>.jsonl.
//
//   8. TaskClient.connect(url) → FastMCP 4.1.4 server with its tasks extension
//      (tests/peers/fixtures/py_fastmcp_server.py): no version given (2026-07-28: `task=True`
//      tools run as tasks) and pinned 2025-11-25 (FastMCP tasks are 2026-07-28 only: the same
//      tools answer synchronously)
//   9. FastMCP 4.1.4 client (`call_tool_task` → ToolTask: result(), cancel(), wait())
//      → our server module (examples/conformance-server.mjs --routing-headers allow-missing)
//      (2026-07-28). FastMCP sends tasks/get and tasks/cancel without Mcp-Name: the strict
//      default answers -32020 (§D 97), which the row shows too.
//
// The venv tools/py/fastmcp (fastmcp[tasks]==4.1.4, every package ==) is made by scripts/setup.sh.
//   node --test tests/peers/matrix-fastmcp.test.mjs   (needs scripts/setup.sh and scripts/build.sh)
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { Conversation, TaskClient } from "../../pkg/node.mjs";
import { V26, checkTraffic, eachClientVersion, runPyClient, sent, startExample, startPyServer, startRecorder, stopAll, textOf } from "./peers.mjs";

after(stopAll);

// ---- 8. TaskClient → FastMCP server --------------------------------------------------------------

test("8. TaskClient.connect(url) → FastMCP 4.1.4 server with tasks: no version (2026-07-28) and pinned 2025-11-25", async (t) => {
  const server = await startPyServer("fastmcp");
  t.after(() => server.stop());
  await eachClientVersion(t, server.url, TaskClient, async (client) => ({
    sum: await client.callTool("add", { a: 2, b: 3 }),
    slow: await client.callTool("slow_sum", { a: 4, b: 5, seconds: 0.3 }),
    boom: await client.callTool("boom", { reason: "on purpose" }),
  }), (t, { label, version, recorder }, { sum, slow, boom }) => {
    assert.equal(textOf(sum), "5");
    assert.equal(textOf(slow), "sum: 9");
    assert.equal(slow.isError, false);
    // A tool error: an isError result (2026-07-28: the task completes with it, §C).
    assert.equal(boom.isError, true);
    assert.equal(textOf(boom), "boom: on purpose");

    const { messages } = checkTraffic(t, `matrix-taskclient-${label}-fastmcp`, recorder, Conversation);
    const created = messages.filter((r) => r.direction === "s2c" && r.message?.result?.resultType === "task");
    if (version === V26) {
      assert.equal(created.length, 2, "slow_sum and boom ran as tasks");
      assert.ok(sent(messages, "tasks/get").length >= 2, "polled with tasks/get");
    } else {
      assert.equal(created.length, 0, "2025-11-25: no FastMCP tasks");
      for (const c of sent(messages, "tools/call")) assert.equal(c.message.params.task, undefined);
    }
  });
});

// ---- 9. FastMCP client → our server --------------------------------------------------------------

test("9. FastMCP 4.1.4 client (call_tool_task → ToolTask) → our server module: result(), cancel() (2026-07-28)", async (t) => {
  await t.test("strict routing headers (the default): FastMCP's tasks/get without Mcp-Name is refused (-32020)", async (t) => {
    const example = await startExample();
    t.after(() => example.stop());
    const run = await runPyClient("fastmcp", example.url, ["slow_compute", JSON.stringify({ seconds: 0.2, label: "fastmcp" })]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.json?.error ?? "", /Mcp-Name .*missing/);
  });

  await t.test("--routing-headers allow-missing: the result, and a cancel delivered", async (t) => {
    const example = await startExample(["--routing-headers", "allow-missing"]);
    t.after(() => example.stop());
    const recorder = await startRecorder(example.url);
    t.after(() => recorder.stop());
    const run = await runPyClient("fastmcp", recorder.url, ["slow_compute", JSON.stringify({ seconds: 0.2, label: "fastmcp" })]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const out = run.json;
    assert.equal(out.protocolVersion, V26);
    assert.deepEqual(out.result, { text: "fastmcp: done after 0.2 s", isError: false });
    assert.equal(out.cancelled.status, "cancelled");

    const { messages } = checkTraffic(t, "matrix-fastmcp-client-ours", recorder, Conversation);
    const calls = sent(messages, "tools/call");
    assert.equal(calls.length, 2);
    for (const c of calls) assert.deepEqual(c.message.params._meta["io.modelcontextprotocol/clientCapabilities"].extensions["io.modelcontextprotocol/tasks"], {});
    const cancels = sent(messages, "tasks/cancel");
    assert.equal(cancels.length, 1);
    assert.equal(cancels[0].message.params.taskId, out.cancelled.taskId);
    assert.ok(sent(messages, "tasks/get").length >= 2);
  });
});
