// TaskClient (js/client/client.ts) from the packed package, against TaskHost (the server entry)
// in the same process, in virtual time: every request the client sends is recorded with its
// virtual time, so the tests assert what was sent and when, not only the final result.
import { test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import http from "node:http";
import { flush, virtualClock } from "./virtual-clock.mjs";

const { TaskClient, TaskFailedError, TaskCancelledError, TaskExpiredError, ProtocolError, validateMessage, HttpConnection, TransportError } =
  await import("./.tmp/install/esm.mjs");
const { TaskHost } = await import("./.tmp/install/server.mjs");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

/**
 * A client talking to `host` in-process: `request` wraps each call in a JSON-RPC request, hands
 * it to the host (validated both ways) and records `{ method, at }`.
 */
function connect(host, { protocolVersion = V26, session, clientOptions = {}, start = T0 } = {}) {
  const clock = virtualClock(start);
  const sent = [];
  let id = 1;
  const request = async (method, params) => {
    sent.push({ method, at: clock.now() - T0, params });
    const message = { jsonrpc: "2.0", id: id++, method, params };
    const response = await host.handle(message, { protocolVersion, session });
    assert.ok(response, `${method}: the host did not answer`);
    const report = validateMessage(response, { inReplyTo: method, version: protocolVersion });
    assert.deepEqual(report.issues.filter((i) => i.severity === "error"), [], `${method}: ${JSON.stringify(response)}`);
    if (response.error) throw Object.assign(new Error(response.error.message), response.error);
    return response.result;
  };
  const client = new TaskClient({ request, protocolVersion, clock, ...clientOptions });
  return { client, clock, sent, request, count: (m) => sent.filter((s) => s.method === m).length };
}

/** A promise the test opens. */
function gate() {
  let open;
  const promise = new Promise((r) => (open = r));
  return { promise, open };
}

const text = (t) => ({ content: [{ type: "text", text: t }] });

test("a tool answered synchronously: one tools/call, no polling", async () => {
  const host = new TaskHost();
  host.tool("now", { taskSupport: "forbidden" }, () => text("at once"));
  const { client, count } = connect(host);
  const result = await client.callTool("now", {});
  assert.equal(result.content[0].text, "at once");
  assert.equal(count("tools/call"), 1);
  assert.equal(count("tasks/get"), 0);
});

test("V26: a task polled at the server's interval until completed; the result comes inlined", async () => {
  const host = new TaskHost({ store: { pollIntervalMs: 1000 } });
  const release = gate();
  host.tool("slow", {}, async () => {
    await release.promise;
    return text("done");
  });
  const { client, clock, sent, count } = connect(host);
  const events = [];
  (async () => {
    for await (const e of client.events()) events.push(e.type);
  })();
  const call = client.callTool("slow", {});
  await clock.advance(5_500);
  const polls = sent.filter((s) => s.method === "tasks/get").map((s) => s.at);
  assert.ok(polls.length >= 4 && polls.length <= 6, `polls at ${polls}`);
  for (let i = 1; i < polls.length; i++) assert.ok(polls[i] - polls[i - 1] >= 1000, `polls at ${polls}: closer than the server's 1000 ms`);
  release.open();
  await clock.advance(1_200);
  const result = await call;
  assert.equal(result.content[0].text, "done");
  assert.equal(count("tasks/result"), 0, "V26 inlines the result");
  assert.deepEqual(events.filter((e) => e !== "taskStatus"), ["taskCreated", "result"]);
  client.close();
});

test("V26: input requests go to the handler once, tasks/update answers them, polling resumes", async () => {
  const host = new TaskHost();
  host.tool("ask", {}, async (_args, { requestInput }) => {
    const answers = await requestInput({ name: { method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } } });
    return text(`hello ${answers.name.content.name}`);
  });
  let asked = 0;
  const { client, clock, count } = connect(host, {
    clientOptions: { handlers: { elicitation: async () => (asked++, { action: "accept", content: { name: "Ada" } }) } },
  });
  const call = client.callTool("ask", {});
  for (let i = 0; i < 10; i++) await clock.advance(1_000);
  const result = await call;
  assert.equal(result.content[0].text, "hello Ada");
  assert.equal(asked, 1, "the key is answered once (§D 107)");
  assert.equal(count("tasks/update"), 1);
  client.close();
});

test("V26: a failed task throws TaskFailedError with the JSON-RPC error; a tool error result is returned", async () => {
  const host = new TaskHost();
  host.tool("rpc", {}, () => {
    throw { code: -32000, message: "backend down", data: { retry: false } };
  });
  host.tool("tool-error", {}, () => ({ ...text("bad input"), isError: true }));
  const { client, clock } = connect(host);
  const failing = client.callTool("rpc", {});
  const failed = assert.rejects(failing, (e) => e instanceof TaskFailedError && e.code === -32000 && e.data.retry === false);
  const toolError = client.callTool("tool-error", {});
  await clock.advance(3_000);
  await failed;
  assert.equal((await toolError).isError, true);
  client.close();
});

test("V26: aborting the signal sends tasks/cancel and throws TaskCancelledError; the work sees the abort", async () => {
  const host = new TaskHost();
  let aborted = false;
  host.tool("forever", {}, (_a, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => ((aborted = true), reject(signal.reason)))));
  const { client, clock, count } = connect(host);
  const ac = new AbortController();
  const call = client.callTool("forever", {}, { signal: ac.signal });
  await clock.advance(2_000);
  ac.abort();
  await assert.rejects(call, TaskCancelledError);
  assert.equal(count("tasks/cancel"), 1);
  await flush();
  assert.equal(aborted, true);
  client.close();
});

test("an aborted call rejects with a TaskCancelledError whose cause is signal.reason: callTool and follow, the default reason and a custom one; the error event carries the same error", async () => {
  const host = new TaskHost();
  host.tool("forever", {}, (_a, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))));
  const { client, clock, request, count } = connect(host);
  const events = [];
  (async () => {
    for await (const e of client.events()) events.push(e);
  })();

  // callTool, aborted with a reason of the caller's own.
  const ac = new AbortController();
  const call = client.callTool("forever", {}, { signal: ac.signal });
  await clock.advance(1_000);
  const reason = new Error("the user closed the dialog");
  ac.abort(reason);
  const error = await call.then(() => assert.fail("resolved"), (e) => e);
  assert.ok(error instanceof TaskCancelledError, String(error));
  assert.equal(error.cause, reason, "cause is signal.reason itself");
  assert.equal(error.delivered, true);
  assert.match(error.taskId, /\S/);
  assert.equal(count("tasks/cancel"), 1);
  await flush();
  const [ended] = events.filter((e) => e.taskId === error.taskId && (e.type === "error" || e.type === "result"));
  assert.equal(ended.type, "error");
  assert.equal(ended.error, error, "the event's error is the one the call rejects with");

  // follow, aborted with the default reason (a DOMException named AbortError).
  const _meta = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } };
  const created = await request("tools/call", { name: "forever", arguments: {}, _meta });
  assert.equal(created.resultType, "task");
  const ac2 = new AbortController();
  const followed = client.follow(created.taskId, { signal: ac2.signal });
  await clock.advance(1_000);
  ac2.abort();
  const error2 = await followed.then(() => assert.fail("resolved"), (e) => e);
  assert.ok(error2 instanceof TaskCancelledError);
  assert.equal(error2.cause, ac2.signal.reason);
  assert.equal(error2.cause.name, "AbortError");
  assert.equal(count("tasks/cancel"), 2);
  client.close();
  await host.close();
});

test("a call aborted before a task exists: an aborted signal sends nothing; an abort while tools/call is answered drops the answer and cancels a task it created", async () => {
  const host = new TaskHost();
  const release = gate();
  host.tool("slow", {}, async () => (await release.promise, text("done")));
  const { client, clock, count } = connect(host);

  const reason = { why: "not an Error: any value" };
  const early = await client.callTool("slow", {}, { signal: AbortSignal.abort(reason) }).then(() => assert.fail("resolved"), (e) => e);
  assert.ok(early instanceof TaskCancelledError);
  assert.equal(early.cause, reason);
  assert.equal(early.taskId, "", "no task was created");
  assert.match(early.message, /aborted before any task was created/);
  assert.equal(count("tools/call"), 0, "nothing sent");

  // Aborted between the call and its answer (a task): the task is cancelled at once.
  const ac = new AbortController();
  const call = client.callTool("slow", {}, { signal: ac.signal });
  ac.abort("stop");
  const late = await call.then(() => assert.fail("resolved"), (e) => e);
  assert.ok(late instanceof TaskCancelledError);
  assert.equal(late.cause, "stop");
  assert.notEqual(late.taskId, "");
  assert.equal(count("tools/call"), 1);
  assert.equal(count("tasks/cancel"), 1);
  release.open();
  await clock.advance(1_000);
  client.close();
  await host.close();
});

test("HttpConnection.openStream aborted by its signal: the TransportError's cause is signal.reason (the fetch's own rejection)", async () => {
  // A server on 127.0.0.1 that takes the request and never answers.
  const held = [];
  const server = http.createServer((req, res) => held.push(res)).listen(0, "127.0.0.1");
  try {
    await once(server, "listening");
    const connection = new HttpConnection(`http://127.0.0.1:${server.address().port}/mcp`, { protocolVersion: V26 });
    const ac = new AbortController();
    const opening = connection.openStream("subscriptions/listen", { notifications: { taskIds: ["t"] } }, ac.signal);
    while (held.length === 0) await new Promise((r) => setTimeout(r, 5));
    const reason = new Error("the page was closed");
    ac.abort(reason);
    const error = await opening.then(() => assert.fail("resolved"), (e) => e);
    assert.ok(error instanceof TransportError, String(error));
    assert.equal(error.cause, reason);
    await connection.close();
  } finally {
    for (const res of held) res.destroy();
    server.close();
  }
});

test("V26: a task the server forgets (-32602) is reported expired and no longer polled", async () => {
  let now = T0;
  const host = new TaskHost({ now: () => now, store: { maxTtlMs: 5_000 } });
  host.tool("forever", {}, (_a, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))));
  const { client, clock, count } = connect(host);
  const call = client.callTool("forever", {});
  const expired = assert.rejects(call, TaskExpiredError);
  await clock.advance(1_000);
  now += 10_000;
  host.sweep();
  await clock.advance(5_000);
  await expired;
  const polls = count("tasks/get");
  await clock.advance(10_000);
  assert.equal(count("tasks/get"), polls, "no poll after expiry");
  await host.close();
  client.close();
});

test("V25: params.task augments the call; tasks/result gives the final result", async () => {
  const host = new TaskHost();
  const release = gate();
  host.tool("report", { taskSupport: "required" }, async () => {
    await release.promise;
    return text("42 rows");
  });
  const { client, clock, count } = connect(host, { protocolVersion: V25, session: "s" });
  const call = client.callTool("report", {}, { task: { ttl: 60_000 } });
  await clock.advance(3_000);
  release.open();
  await clock.advance(3_000);
  const result = await call;
  assert.equal(result.content[0].text, "42 rows");
  assert.ok(count("tasks/result") >= 1);
  client.close();
});

test("serialize → restore in the middle of a task: the new client follows it to the end without re-answering input", async () => {
  const host = new TaskHost();
  const release = gate();
  host.tool("ask-then-wait", {}, async (_args, { requestInput }) => {
    await requestInput({ ok: { method: "elicitation/create", params: { message: "OK?", requestedSchema: { type: "object", properties: {} } } } });
    await release.promise;
    return text("finished");
  });
  let asked = 0;
  const handlers = { elicitation: async () => (asked++, { action: "accept", content: {} }) };
  const first = connect(host, { clientOptions: { handlers } });
  const call = first.client.callTool("ask-then-wait", {});
  call.catch(() => {});
  for (let i = 0; i < 5; i++) await first.clock.advance(1_000);
  assert.equal(asked, 1);
  const state = JSON.stringify(first.client.serialize());
  first.client.close();

  // "Reload": a new client from the saved state, same server, time going on.
  const second = connect(host, { clientOptions: { handlers }, start: first.clock.now() });
  second.client.close();
  const restored = TaskClient.restore(state, { request: second.request, clock: second.clock, handlers });
  const [taskId] = restored.pending();
  const followed = restored.follow(taskId);
  release.open();
  for (let i = 0; i < 5; i++) await second.clock.advance(1_000);
  assert.equal((await followed).content[0].text, "finished");
  assert.equal(asked, 1, "input is not answered again after the reload");
  restored.close();
});

test("MRTR before a task: input_required answers are sent back with the echoed requestState and a new id", async () => {
  const calls = [];
  const request = async (method, params) => {
    calls.push({ method, params });
    if (calls.length === 1) {
      return { resultType: "input_required", inputRequests: { user_name: { method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } } }, requestState: "opaque-state-1" };
    }
    return { resultType: "complete", content: [{ type: "text", text: `hi ${params.inputResponses.user_name.content.name}` }] };
  };
  const client = new TaskClient({ request, handlers: { elicitation: () => ({ action: "accept", content: { name: "Bo" } }) } });
  const result = await client.callTool("greet", {});
  assert.equal(result.content[0].text, "hi Bo");
  assert.equal(calls.length, 2);
  assert.equal(calls[1].params.requestState, "opaque-state-1", "echoed byte for byte (§D 113)");
  assert.equal(calls[0].params.requestState, undefined);
  client.close();
});

test("bad answers are ProtocolErrors; bad construction is a TypeError", async () => {
  assert.throws(() => new TaskClient({}), TypeError);
  const client = new TaskClient({ request: async () => ({ resultType: "bogus" }) });
  await assert.rejects(client.callTool("x", {}), ProtocolError);
  const client2 = new TaskClient({ request: async () => ({ resultType: "task", taskId: 5 }) });
  await assert.rejects(client2.callTool("x", {}), ProtocolError);
  client.close();
  client2.close();
});
