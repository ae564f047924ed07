// The real-peer matrix, Python rows (why: docs/decisions/real-peers.md):
//
//   Python mcp 1.30 client (tasks)  → recorder → our server module (example)   2025-11-25
//   TaskClient.connect(url)          → recorder → Python mcp 1.30 server        2025-11-25
//   Python mcp 2.3 client            → recorder → our server module (example)   2026-07-28
//   TaskClient.connect(url)          → recorder → Python mcp 2.3 server         2026-07-28
//
// Every pairing goes through the recording proxy (tests/peers/peers.mjs). Each test asserts the
// final result (or the typed error), then feeds the recorded traffic, each message with its
// sender, to `Conversation` (the built package): no error-level issue, except the peers' own
// bugs, each asserted as found by its code. `TaskClient.connect(url)` is never told a version.
// Transcripts go to target/peers/<pairing>.jsonl (one JSON-RPC message per line, the format
// `mcp-tasks check` reads).
//
// Peer bugs met here (PEERS.md §7), all of the Python mcp 1.30 server:
//   task-ttl-missing            a task without `ttl` when the call asked for none (`params.task:
//                               {}`): the SDK drops its `ttl: null` (pydantic exclude_none);
//                               §D 2, 25, 63 (required, null when unlimited)
//   history-empty-task-result   tasks/result of a failed task answers only `_meta` (§D 30)
//   (warning) history-unmatched-response   the refusal of `server/discover` (no session) carries
//                               the made-up id "server-error", not the request's
// The Python fixtures are in tests/peers/fixtures/py_*.py (mcp 2.3 has no task runtime: its
// fixtures carry a small one of their own, see their docstrings).
//
//   node --test tests/peers/matrix-py.test.mjs     (needs scripts/setup.sh and scripts/build.sh)
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { Conversation, TaskClient, TaskFailedError } from "../../pkg/server/node.mjs"; // the receiver needs the server module's task store core
import { checkTraffic, methods, runPyClient, sent, startExample, startPyServer, startRecorder, stopAll } from "./peers.mjs";

after(stopAll);

const V25 = "2025-11-25";
const V26 = "2026-07-28";

/** The answer to a recorded request (the other side's message with its id, after it). */
const answerTo = (messages, request) =>
  messages.find(
    (m) => m.direction !== request.direction && m.seq > request.seq && m.message?.id === request.message.id && m.message.method === undefined,
  );
const text = (result) => result?.content?.[0]?.text;

/** `TaskClient.connect(url, options)` (no version), one call, the client closed; the outcome. */
async function connectAndCall(url, tool, args, options = {}) {
  const client = await TaskClient.connect(url, options);
  try {
    const version = client.protocolVersion;
    return await client.callTool(tool, args).then(
      (result) => ({ version, result }),
      (error) => ({ version, error }),
    );
  } finally {
    await client.close();
  }
}

// ---- 1. Python mcp 1.30 client → our server module (2025-11-25) --------------------------------

test("Python mcp 1.30 client (tasks) → recorder → our server module: 2025-11-25", async (t) => {
  const server = await startExample();
  t.after(() => server.stop());
  const run = async (t, name, args) => {
    const recorder = await startRecorder(server.url);
    t.after(() => recorder.stop());
    const r = await runPyClient("mcp1", recorder.url, args);
    t.diagnostic(JSON.stringify(r.json));
    assert.ok(r.json, `the client printed its JSON line; stderr:\n${r.stderr}`);
    assert.equal(r.json.protocolVersion, V25);
    const { messages } = checkTraffic(t, name, recorder, Conversation);
    return { r, messages, recorder };
  };

  await t.test("slow_compute (seconds 1) as a task: polled to completed, tasks/result gives its result", async (t) => {
    const { r, messages } = await run(t, "py1-ours-slow-compute", ["slow_compute", JSON.stringify({ seconds: 1, label: "py1" })]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.status, "completed");
    assert.equal(r.json.callToolResult, true);
    assert.deepEqual(r.json.result.content, [{ type: "text", text: "py1: done after 1 s" }]);
    assert.deepEqual(sent(messages, "tools/call")[0].message.params.task, { ttl: 60000 });
    assert.ok(sent(messages, "tasks/get").length > 0);
  });

  await t.test("failing_job: its isError result ends the task failed (§D 44); tasks/result gives that result", async (t) => {
    const { r } = await run(t, "py1-ours-failing-job", ["failing_job", "{}"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.status, "failed");
    assert.equal(r.json.callToolResult, true);
    assert.equal(r.json.result.isError, true);
    assert.equal(text(r.json.result), "failing_job: the job failed (as it always does)");
    assert.match(r.json.statusMessage, /failing_job: the job failed/);
  });

  await t.test("protocol_error_job: failed, tasks/result answers its JSON-RPC error (§D 30), the client raises it", async (t) => {
    const { r, messages } = await run(t, "py1-ours-protocol-error", ["protocol_error_job", "{}"]);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(r.json.statuses.at(-1), "failed");
    assert.deepEqual(
      { type: r.json.error.type, code: r.json.error.code, message: r.json.error.message },
      { type: "McpError", code: -32603, message: "protocol_error_job: internal error (on purpose)" },
    );
    const answer = answerTo(messages, sent(messages, "tasks/result")[0]);
    assert.equal(answer.message.error.code, -32603);
  });

  await t.test("confirm_delete: the elicitation reaches the client while the task waits, its answer completes the task", async (t) => {
    const { r, messages } = await run(t, "py1-ours-confirm-delete", [
      "confirm_delete",
      JSON.stringify({ filename: "a.txt" }),
      "--elicit",
      JSON.stringify({ confirm: true }),
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.status, "completed");
    assert.deepEqual(r.json.result.content, [{ type: "text", text: "Deleted a.txt" }]);
    assert.equal(r.json.elicitations.length, 1);
    assert.equal(r.json.elicitations[0].message, "Delete a.txt?");
    // A real elicitation/create about the task (related-task _meta), on an SSE stream (the
    // client's GET stream or its tasks/result stream: §A.i, any stream), and its answer.
    const ask = messages.find((m) => m.direction === "s2c" && m.message?.method === "elicitation/create");
    assert.equal(ask.http.via, "sse");
    assert.equal(ask.message.params._meta["io.modelcontextprotocol/related-task"].taskId, r.json.taskId);
    assert.deepEqual(answerTo(messages, ask).message.result, { action: "accept", content: { confirm: true } });
  });

  await t.test("a plain call of failing_job (taskSupport required): -32601 (§D 41)", async (t) => {
    const { r, messages } = await run(t, "py1-ours-plain-required", ["failing_job", "{}", "--plain"]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.error.code, -32601);
    assert.ok(methods(messages, "c2s").includes("tools/list"), "the tools/list answer is in the traffic (§D 41 is judged)");
  });
});

// ---- 2. TaskClient.connect(url) → Python mcp 1.30 server (2025-11-25) ---------------------------

test("TaskClient.connect(url) → recorder → Python mcp 1.30 server with tasks: 2025-11-25", async (t) => {
  const server = await startPyServer("mcp1");
  t.after(() => server.stop());
  // Every task of this server lacks its `ttl` (TaskClient asks for none): a peer bug.
  const run = async (t, name, tool, args, { handlers, receiver, peerBugs = [] } = {}) => {
    const recorder = await startRecorder(server.url);
    t.after(() => recorder.stop());
    const outcome = await connectAndCall(recorder.url, tool, args, { ...(handlers ? { handlers } : {}), ...(receiver ? { receiver } : {}) });
    t.diagnostic(outcome.error ? `${outcome.error.name}: ${outcome.error.message}` : JSON.stringify(outcome.result));
    assert.equal(outcome.version, V25, "learnt from the server");
    const { messages, seen } = checkTraffic(t, name, recorder, Conversation, peerBugs);
    // It probed 2026-07-28 first, was refused, and fell back to initialize.
    assert.deepEqual(methods(messages, "c2s").slice(0, 3), ["server/discover", "initialize", "notifications/initialized"]);
    assert.ok(
      seen.issues.some((i) => i.seq === 1 && i.code === "history-unmatched-response" && i.severity === "warning"),
      'the refusal of server/discover answers the id "server-error" (warning)',
    );
    return { ...outcome, messages };
  };

  await t.test("greet (taskSupport required): augmented without being asked, followed to its result", async (t) => {
    const { result, error, messages } = await run(t, "ours-py1-greet", "greet", { name: "Ada", delayMs: 200 }, { peerBugs: ["task-ttl-missing"] });
    assert.ifError(error);
    assert.deepEqual(result.content, [{ type: "text", text: "hello, Ada" }]);
    assert.ok(sent(messages, "tools/list").length === 1, "taskSupport read from tools/list");
    assert.deepEqual(sent(messages, "tools/call")[0].message.params.task, {});
    // Followed: by push (the session's GET stream carries Python's notifications/tasks/status,
    // so TaskClient.connect polls only as a backstop) or by polling.
    const pushed = methods(messages, "s2c").filter((m) => m === "notifications/tasks/status").length;
    assert.ok(pushed > 0 || sent(messages, "tasks/get").length > 0, "followed by push or by polling");
    assert.equal(sent(messages, "tasks/result").length, 1);
  });

  await t.test("fail: seen failed, tasks/result answers only _meta (peer bug, §D 30): TaskFailedError", async (t) => {
    const { result, error, messages } = await run(t, "ours-py1-fail", "fail", { reason: "on purpose" }, {
      peerBugs: ["task-ttl-missing", "history-empty-task-result"],
    });
    assert.equal(result, undefined, "never a success");
    assert.ok(error instanceof TaskFailedError, String(error));
    assert.equal(error.status, "failed");
    assert.equal(error.statusMessage, "boom: on purpose");
    assert.match(error.message, /failed: boom: on purpose/);
    assert.equal(error.code, undefined, "no JSON-RPC error was given");
    assert.deepEqual(Object.keys(error.result), ["_meta"], "whatever tasks/result gave");
    const answer = answerTo(messages, sent(messages, "tasks/result")[0]);
    assert.deepEqual(answer.message.result, error.result);
  });

  await t.test("ask: the server's elicitation on the tasks/result stream, answered by handlers.elicitation", async (t) => {
    const asked = [];
    const handlers = {
      elicitation: (params) => {
        asked.push(params);
        return { action: "accept", content: { name: "Bo" } };
      },
    };
    const { result, error, messages } = await run(t, "ours-py1-ask", "ask", {}, { handlers, peerBugs: ["task-ttl-missing"] });
    assert.ifError(error);
    assert.deepEqual(result.content, [{ type: "text", text: "hello, Bo" }]);
    assert.equal(asked.length, 1);
    assert.equal(asked[0].message, "Your name?");
    const ask = messages.find((m) => m.direction === "s2c" && m.message?.method === "elicitation/create");
    assert.equal(ask.exchange, sent(messages, "tasks/result")[0].exchange, "on the tasks/result stream");
    assert.equal(ask.http.via, "sse");
    assert.deepEqual(answerTo(messages, ask).message.result, { action: "accept", content: { name: "Bo" } });
    const init = sent(messages, "initialize")[0];
    assert.deepEqual(init.message.params.capabilities, { tasks: {}, elicitation: {} });
  });

  await t.test("ask_client: the server as requestor; its task-augmented elicitation and sampling hosted by the client (receiver)", async (t) => {
    const handlers = {
      elicitation: () => ({ action: "accept", content: { name: "Cy" } }),
      sampling: () => ({ role: "assistant", content: { type: "text", text: "hi" }, model: "test" }),
    };
    const { result, error, messages } = await run(t, "ours-py1-ask-client", "ask_client", {}, { handlers, receiver: { tasks: true } });
    assert.ifError(error);
    assert.deepEqual(result.content, [{ type: "text", text: "accept Cy / hi" }]);
    const init = sent(messages, "initialize")[0];
    assert.deepEqual(init.message.params.capabilities.tasks, { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } });
    for (const method of ["elicitation/create", "sampling/createMessage"]) {
      const ask = messages.find((m) => m.direction === "s2c" && m.message?.method === method);
      assert.ok(ask?.message.params.task, `${method}: task-augmented`);
      assert.equal(answerTo(messages, ask).message.result.task.status, "working", `${method}: a CreateTaskResult`);
    }
    const polled = messages.filter((m) => m.direction === "s2c" && m.message?.method === "tasks/result");
    assert.equal(polled.length, 2, "each task's result read by the server");
    for (const p of polled) assert.deepEqual(answerTo(messages, p).message.result._meta["io.modelcontextprotocol/related-task"], { taskId: p.message.params.taskId });
  });

  await t.test("add (no execution: forbidden) and echo_maybe (optional, not asked): plain calls, answered at once", async (t) => {
    for (const [tool, args, want] of [
      ["add", { a: 1, b: 2 }, "3"],
      ["echo_maybe", { text: "hi" }, "echo: hi"],
    ]) {
      const recorder = await startRecorder(server.url);
      t.after(() => recorder.stop());
      const { result, error, version } = await connectAndCall(recorder.url, tool, args);
      assert.ifError(error);
      assert.equal(version, V25);
      assert.equal(text(result), want);
      const { messages } = checkTraffic(t, `ours-py1-${tool}`, recorder, Conversation);
      assert.equal(sent(messages, "tools/call")[0].message.params.task, undefined, `${tool}: not augmented (§D 47)`);
      assert.equal(sent(messages, "tasks/get").length, 0);
    }
  });
});

// ---- 3. Python mcp 2.3 client → our server module (2026-07-28) ---------------------------------

test("Python mcp 2.3 client → recorder → our server module: 2026-07-28", async (t) => {
  const server = await startExample();
  t.after(() => server.stop());
  const run = async (t, name, args) => {
    const recorder = await startRecorder(server.url);
    t.after(() => recorder.stop());
    const r = await runPyClient("mcp2", recorder.url, args);
    t.diagnostic(JSON.stringify(r.json));
    assert.ok(r.json, `the client printed its JSON line; stderr:\n${r.stderr}`);
    assert.equal(r.json.protocolVersion, V26);
    assert.deepEqual(r.json.serverExtensions, ["io.modelcontextprotocol/tasks"]);
    const { messages } = checkTraffic(t, name, recorder, Conversation);
    // Stateless: no session, no initialize; every request carries its Mcp-Method header.
    assert.equal(methods(messages, "c2s")[0], "server/discover");
    assert.ok(!methods(messages, "c2s").includes("initialize"));
    for (const e of recorder.exchanges()) {
      assert.equal(e.requestHeaders["mcp-session-id"], undefined);
      assert.equal(e.responseHeaders?.["mcp-session-id"], undefined);
    }
    return { r, messages, recorder };
  };

  await t.test("greet: synchronous (resultType complete)", async (t) => {
    const { r, messages } = await run(t, "py2-ours-greet", ["greet", JSON.stringify({ name: "Ada" })]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.task, null);
    assert.equal(text(r.json.result), "Hello, Ada!");
    assert.equal(answerTo(messages, sent(messages, "tools/call")[0]).message.result.resultType, "complete");
  });

  await t.test("slow_compute (seconds 1): a task, polled with tasks/get (Mcp-Name) to its result", async (t) => {
    const { r, messages, recorder } = await run(t, "py2-ours-slow-compute", ["slow_compute", JSON.stringify({ seconds: 1, label: "py2" })]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(text(r.json.result), "py2: done after 1 s");
    assert.equal(r.json.task.statuses.at(-1), "completed");
    const created = answerTo(messages, sent(messages, "tools/call")[0]).message.result;
    assert.equal(created.resultType, "task");
    const get = recorder.exchanges().find((e) => e.requestHeaders["mcp-method"] === "tasks/get");
    assert.equal(get.requestHeaders["mcp-name"], created.taskId);
  });

  await t.test("confirm_delete: the task's inputRequests answered with tasks/update", async (t) => {
    const { r, messages } = await run(t, "py2-ours-confirm-delete", [
      "confirm_delete",
      JSON.stringify({ filename: "b.txt" }),
      "--elicit",
      JSON.stringify({ confirm: true }),
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(text(r.json.result), "Deleted b.txt");
    assert.deepEqual(r.json.task.inputKeys, ["confirm"]);
    assert.ok(r.json.task.statuses.includes("input_required"));
    const update = sent(messages, "tasks/update")[0];
    assert.deepEqual(update.message.params.inputResponses.confirm, { action: "accept", content: { confirm: true } });
  });

  await t.test("test_tool_with_task: MRTR before the task (input_required, retried with inputResponses and requestState), then the task", async (t) => {
    const { r, messages } = await run(t, "py2-ours-mrtr", ["test_tool_with_task", "{}", "--elicit", JSON.stringify({ name: "Ada" })]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(text(r.json.result), "Hello, Ada! (from a task)");
    assert.equal(r.json.elicitations.length, 1);
    const [first, retry] = sent(messages, "tools/call");
    const asked = answerTo(messages, first).message.result;
    assert.equal(asked.resultType, "input_required");
    assert.deepEqual(Object.keys(asked.inputRequests), ["user_name"]);
    assert.equal(retry.message.params.requestState, asked.requestState);
    assert.deepEqual(retry.message.params.inputResponses.user_name, { action: "accept", content: { name: "Ada" } });
    assert.equal(answerTo(messages, retry).message.result.resultType, "task");
  });

  await t.test("protocol_error_job: the task ends failed with its error; the client raises it", async (t) => {
    const { r } = await run(t, "py2-ours-protocol-error", ["protocol_error_job", "{}"]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.task.statuses.at(-1), "failed");
    assert.deepEqual(
      { code: r.json.error.code, message: r.json.error.message },
      { code: -32603, message: "protocol_error_job: internal error (on purpose)" },
    );
  });

  await t.test("failing_job: the task completes with its isError result (2026-07-28: failed is for JSON-RPC errors only)", async (t) => {
    const { r } = await run(t, "py2-ours-failing-job", ["failing_job", "{}"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.task.statuses.at(-1), "completed");
    assert.equal(r.json.result.isError, true);
    assert.equal(text(r.json.result), "failing_job: the job failed (as it always does)");
  });
});

// ---- 4. TaskClient.connect(url) → Python mcp 2.3 server (2026-07-28) ----------------------------

test("TaskClient.connect(url) → recorder → Python mcp 2.3 server: 2026-07-28", async (t) => {
  const server = await startPyServer("mcp2");
  t.after(() => server.stop());
  const run = async (t, name, tool, args, handlers) => {
    const recorder = await startRecorder(server.url);
    t.after(() => recorder.stop());
    const outcome = await connectAndCall(recorder.url, tool, args, handlers ? { handlers } : {});
    t.diagnostic(outcome.error ? `${outcome.error.name}: ${outcome.error.message}` : JSON.stringify(outcome.result));
    assert.equal(outcome.version, V26, "discovered");
    const { messages } = checkTraffic(t, name, recorder, Conversation);
    assert.equal(methods(messages, "c2s")[0], "server/discover");
    assert.ok(!methods(messages, "c2s").includes("initialize"));
    for (const m of messages.filter((x) => x.direction === "c2s")) {
      assert.equal(m.message.params._meta["io.modelcontextprotocol/protocolVersion"], V26);
      assert.deepEqual(m.message.params._meta["io.modelcontextprotocol/clientCapabilities"].extensions, { "io.modelcontextprotocol/tasks": {} });
    }
    return { ...outcome, messages, recorder };
  };
  const handlers = { elicitation: () => ({ action: "accept", content: { name: "Bo" } }) };

  await t.test("add: synchronous", async (t) => {
    const { result, error, messages } = await run(t, "ours-py2-add", "add", { a: 1, b: 2 });
    assert.ifError(error);
    assert.equal(text(result), "3");
    assert.equal(sent(messages, "tasks/get").length, 0);
  });

  await t.test("greet: a task, polled to completed", async (t) => {
    const { result, error, messages, recorder } = await run(t, "ours-py2-greet", "greet", { name: "Ada", delayMs: 200 });
    assert.ifError(error);
    assert.deepEqual(result.content, [{ type: "text", text: "hello, Ada" }]);
    const created = answerTo(messages, sent(messages, "tools/call")[0]).message.result;
    assert.equal(created.resultType, "task");
    const get = recorder.exchanges().find((e) => e.requestHeaders["mcp-method"] === "tasks/get");
    assert.equal(get.requestHeaders["mcp-name"], created.taskId);
  });

  await t.test("ask: the task's inputRequests answered by handlers.elicitation through tasks/update", async (t) => {
    const { result, error, messages } = await run(t, "ours-py2-ask", "ask", {}, handlers);
    assert.ifError(error);
    assert.deepEqual(result.content, [{ type: "text", text: "hello, Bo" }]);
    const update = sent(messages, "tasks/update");
    assert.equal(update.length, 1);
    assert.deepEqual(update[0].message.params.inputResponses, { name: { action: "accept", content: { name: "Bo" } } });
  });

  await t.test("ask_sync: MRTR (input_required, retried with inputResponses)", async (t) => {
    const { result, error, messages } = await run(t, "ours-py2-ask-sync", "ask_sync", {}, handlers);
    assert.ifError(error);
    assert.equal(text(result), "hello, Bo");
    const calls = sent(messages, "tools/call");
    assert.equal(calls.length, 2);
    assert.equal(answerTo(messages, calls[0]).message.result.resultType, "input_required");
    assert.deepEqual(calls[1].message.params.inputResponses, { name: { action: "accept", content: { name: "Bo" } } });
  });

  await t.test("fail: the task ends failed with its error: TaskFailedError", async (t) => {
    const { result, error } = await run(t, "ours-py2-fail", "fail", {});
    assert.equal(result, undefined, "never a success");
    assert.ok(error instanceof TaskFailedError, String(error));
    assert.equal(error.code, -32603);
    assert.deepEqual(error.error, { code: -32603, message: "boom: on purpose" });
    assert.equal(error.statusMessage, "boom: on purpose");
  });
});
