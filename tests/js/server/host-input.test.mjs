// TaskHost input in every situation (js/server/host.ts), through the packed and installed package:
// 2026-07-28 synchronous calls (MRTR InputRequiredResult with a signed requestState, SEP-2322),
// `prepare` (input before a task exists, §D 83; -32021 first, §D 78), 2025-11-25 tasks and
// synchronous calls through the transport's channel (§A.g, §D 33), and `watch`. Every response
// is checked with the package's validateMessage.
import { test } from "node:test";
import assert from "node:assert/strict";

const { TaskHost, validateMessage } = await import("../.tmp/install/server.mjs");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const RELATED = "io.modelcontextprotocol/related-task";

let nextId = 1;
const v25 = (method, params) => ({ jsonrpc: "2.0", id: nextId++, method, params });
function v26(method, params = {}, { ext = true, caps = { elicitation: {} } } = {}) {
  const clientCapabilities = ext ? { ...caps, extensions: { [EXT]: {} } } : caps;
  return {
    jsonrpc: "2.0",
    id: nextId++,
    method,
    params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": clientCapabilities } },
  };
}

async function call(host, request, ctx, channel) {
  const response = await host.handle(request, ctx, channel);
  assert.ok(response, `${request.method}: no response`);
  assert.deepEqual(response.id, request.id);
  const r = validateMessage(response, { inReplyTo: request.method, version: ctx.protocolVersion });
  assert.equal(r.valid, true, `${request.method}: ${JSON.stringify(r.issues)}\n${JSON.stringify(response)}`);
  return response;
}

const text = (t) => ({ content: [{ type: "text", text: t }] });
const elicit = (message, prop) => ({
  method: "elicitation/create",
  params: { mode: "form", message, requestedSchema: { type: "object", properties: { [prop]: { type: "string" } }, required: [prop] } },
});
const accept = (content) => ({ action: "accept", content });

/** A channel that records what it is asked and lets the test answer. */
function recordingChannel(extra = {}) {
  const sent = [];
  const channel = {
    ...extra,
    sendRequest: (request, info) =>
      new Promise((resolve, reject) => {
        sent.push({ request, info, resolve, reject });
        info.signal.addEventListener("abort", () => sent.splice(sent.findIndex((s) => s.request === request), 1));
      }),
  };
  return { channel, sent };
}

/** Resolves once `predicate()` holds, checking after each macrotask. */
async function until(predicate) {
  while (!predicate()) await new Promise((r) => setTimeout(r, 0));
}

test("V26 synchronous call: requestInput answers InputRequiredResult; the retry with inputResponses and the echoed requestState resolves it; rounds accumulate", async () => {
  const host = new TaskHost();
  let runs = 0;
  host.tool("two-questions", { taskSupport: "forbidden" }, async (_args, { requestInput }) => {
    runs += 1;
    const { a } = await requestInput({ a: elicit("First?", "a") });
    const { b } = await requestInput({ b: elicit("Second?", "b") });
    return text(`${a.content.a} and ${b.content.b}`);
  });
  const ctx = { protocolVersion: V26 };
  const args = { topic: "x", nested: { k: 1, j: [1, 2] } };

  const r1 = await call(host, v26("tools/call", { name: "two-questions", arguments: args }, { ext: false }), ctx);
  assert.equal(r1.result.resultType, "input_required");
  assert.deepEqual(Object.keys(r1.result.inputRequests), ["a"]);
  assert.equal(typeof r1.result.requestState, "string");

  // Round 2 answers `a` (arguments re-serialized in another key order: still the same call).
  const sameArgs = { nested: { j: [1, 2], k: 1 }, topic: "x" };
  const r2 = await call(
    host,
    v26("tools/call", { name: "two-questions", arguments: sameArgs, inputResponses: { a: accept({ a: "one" }) }, requestState: r1.result.requestState }, { ext: false }),
    ctx,
  );
  assert.equal(r2.result.resultType, "input_required");
  assert.deepEqual(Object.keys(r2.result.inputRequests), ["b"], "a is answered: only b is asked");

  // Round 3 carries only b; a rides in the state (§D 113).
  const r3 = await call(
    host,
    v26("tools/call", { name: "two-questions", arguments: args, inputResponses: { b: accept({ b: "two" }) }, requestState: r2.result.requestState }, { ext: false }),
    ctx,
  );
  assert.equal(r3.result.resultType, "complete");
  assert.equal(r3.result.content[0].text, "one and two");
  assert.equal(runs, 3);

  // A forged or altered state, or one for other arguments: -32602, the handler does not run.
  const forged = await call(
    host,
    v26("tools/call", { name: "two-questions", arguments: args, inputResponses: { b: accept({ b: "two" }) }, requestState: `${r2.result.requestState.slice(0, -2)}xx` }),
    ctx,
  );
  assert.equal(forged.error.code, -32602);
  const other = await call(
    host,
    v26("tools/call", { name: "two-questions", arguments: { topic: "y" }, inputResponses: { b: accept({ b: "two" }) }, requestState: r2.result.requestState }),
    ctx,
  );
  assert.equal(other.error.code, -32602);
  assert.match(other.error.message, /another call/);
  assert.equal(runs, 3);

  // Answers without a requestState are not trusted: the question comes again.
  const unsigned = await call(host, v26("tools/call", { name: "two-questions", arguments: args, inputResponses: { a: accept({ a: "one" }) } }), ctx);
  assert.deepEqual(Object.keys(unsigned.result.inputRequests), ["a"]);

  // §D 98: a client that did not declare elicitation is not asked: a tool execution error.
  const undeclared = await call(host, v26("tools/call", { name: "two-questions", arguments: args }, { caps: {} }), ctx);
  assert.equal(undeclared.result.isError, true);
  assert.match(undeclared.result.content[0].text, /requestInput.*elicitation/);
});

test("V26 prepare: -32021 before any input is asked (§D 78); InputRequiredResult first, the task on the retry (§D 83); the handler gets what prepare returned", async () => {
  const host = new TaskHost();
  let prepares = 0;
  host.tool(
    "named-task",
    {
      taskSupport: "required",
      prepare: async (_args, { requestInput }) => {
        prepares += 1;
        const { user } = await requestInput({ user: elicit("Your name?", "name") });
        return user.content.name;
      },
    },
    async (_args, { prepared, taskId }) => text(`Hello, ${prepared}! (task ${taskId !== null})`),
  );
  const ctx = { protocolVersion: V26 };

  const refused = await call(host, v26("tools/call", { name: "named-task", arguments: {} }, { ext: false }), ctx);
  assert.equal(refused.error.code, -32021);
  assert.equal(prepares, 0, "refused before prepare ran");

  const round1 = await call(host, v26("tools/call", { name: "named-task", arguments: {} }), ctx);
  assert.equal(round1.result.resultType, "input_required");
  assert.equal(round1.result.taskId, undefined);
  const round2 = await call(
    host,
    v26("tools/call", { name: "named-task", arguments: {}, inputResponses: { user: accept({ name: "Ada" }) }, requestState: round1.result.requestState }),
    ctx,
  );
  assert.equal(round2.result.resultType, "task");
  assert.equal(round2.result.requestState, undefined);
  assert.equal(round2.result.inputRequests, undefined);
  await host.idle();
  const done = await call(host, v26("tasks/get", { taskId: round2.result.taskId }), ctx);
  assert.equal(done.result.status, "completed");
  assert.equal(done.result.result.content[0].text, "Hello, Ada! (task true)");
  assert.equal(done.result.inputRequests, undefined, "MRTR keys never leak into the task (§D 83)");
});

test("V25 task: requestInput sends real requests with related-task _meta through the channel; input_required meanwhile; watch sees every change", async () => {
  const host = new TaskHost();
  const seen = [];
  const stop = host.watch((task) => seen.push([task.taskId, task.status, task.v25.status]));
  host.tool("confirm", { taskSupport: "optional" }, async (_args, { requestInput }) => {
    const { ok } = await requestInput({ ok: elicit("Sure?", "ok") }, "waiting for the user");
    return text(`answer: ${ok.content.ok}`);
  });
  const { channel, sent } = recordingChannel({ clientCapabilities: { elicitation: {} } });
  const session = "s-1";
  const ctx = { protocolVersion: V25, session };
  const created = await call(host, v25("tools/call", { name: "confirm", arguments: {}, task: {} }), ctx, channel);
  const taskId = created.result.task.taskId;
  await until(() => sent.length === 1);
  assert.equal(sent[0].request.method, "elicitation/create");
  assert.deepEqual(sent[0].request.params._meta[RELATED], { taskId }, "§D 33");
  assert.equal(sent[0].info.taskId, taskId);
  const waiting = await call(host, v25("tasks/get", { taskId }), ctx);
  assert.equal(waiting.result.status, "input_required");
  assert.equal(waiting.result.statusMessage, "waiting for the user");

  const result = host.handle(v25("tasks/result", { taskId }), ctx);
  sent[0].resolve(accept({ ok: "yes" }));
  const final = await result;
  assert.equal(final.result.content[0].text, "answer: yes");
  assert.deepEqual(final.result._meta[RELATED], { taskId });
  assert.deepEqual(
    seen.map(([id, status, wire]) => [id === taskId, status, wire]),
    [
      [true, "input_required", "input_required"],
      [true, "working", "working"],
      [true, "completed", "completed"],
    ],
  );
  stop();
});

test("V25: the client's JSON-RPC error fails the task with it; cancel aborts the request; no channel or an undeclared capability rejects", async () => {
  const host = new TaskHost();
  let rejection = null;
  host.tool("ask", {}, async (_args, { requestInput }) => {
    try {
      return text(JSON.stringify(await requestInput({ q: elicit("?", "q") })));
    } catch (e) {
      rejection = e;
      throw e;
    }
  });
  const { channel, sent } = recordingChannel({ clientCapabilities: { elicitation: {} } });
  const ctx = { protocolVersion: V25, session: "s-2" };

  const a = (await call(host, v25("tools/call", { name: "ask", task: {} }), ctx, channel)).result.task.taskId;
  await until(() => sent.length === 1);
  sent[0].reject({ code: -32600, message: "user declined to be asked" });
  const failed = await call(host, v25("tasks/result", { taskId: a }), ctx);
  assert.deepEqual(failed.error, { code: -32600, message: "user declined to be asked" });

  const b = (await call(host, v25("tools/call", { name: "ask", task: {} }), ctx, channel)).result.task.taskId;
  await until(() => sent.length === 2);
  await call(host, v25("tasks/cancel", { taskId: b }), ctx);
  await host.idle();
  assert.equal(rejection.name, "AbortError");
  assert.equal(sent.length, 1, "the aborted request was dropped by the channel");

  // Synchronous call with the channel: sent without related-task _meta, on the call itself.
  const sync = host.handle(v25("tools/call", { name: "ask" }), ctx, channel);
  await until(() => sent.length === 2);
  assert.equal(sent[1].info.taskId, null);
  assert.equal(sent[1].request.params._meta, undefined);
  sent[1].resolve(accept({ q: "fine" }));
  assert.match((await sync).result.content[0].text, /fine/);

  // Without a channel, or for a capability the client did not declare: a tool error at once.
  const bare = await call(host, v25("tools/call", { name: "ask" }), ctx);
  assert.equal(bare.result.isError, true);
  assert.match(bare.result.content[0].text, /requestInput.*channel\.sendRequest/);
  const noCaps = await call(host, v25("tools/call", { name: "ask" }), ctx, recordingChannel({ clientCapabilities: {} }).channel);
  assert.match(noCaps.result.content[0].text, /requestInput.*elicitation/);
});

test("malformed registrations are refused with a TypeError naming the problem", () => {
  const host = new TaskHost();
  assert.throws(() => host.tool("t", { taskSupport: "always" }, () => text("")), { name: "TypeError", message: /taskSupport must be/ });
  assert.throws(() => host.tool("t", { prepare: "yes" }, () => text("")), { name: "TypeError", message: /prepare must be a function/ });
  assert.throws(() => new TaskHost({ requestState: { key: new Uint8Array(8) } }), { name: "TypeError", message: /32 bytes/ });
});

test("an MRTR requestState answers one retry: replaying it is refused (-32602)", async () => {
  const host = new TaskHost();
  let runs = 0;
  host.tool("ask", { taskSupport: "forbidden" }, async (_args, { requestInput }) => {
    runs += 1;
    const { a } = await requestInput({ a: { method: "elicitation/create", params: { mode: "form", message: "A?", requestedSchema: { type: "object", properties: {} } } } });
    return text(`got ${a.action}`);
  });
  const meta = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
  const ctx = { protocolVersion: V26 };
  const first = await host.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ask", arguments: {}, _meta: meta } }, ctx);
  const requestState = first.result.requestState;
  assert.equal(typeof requestState, "string");
  const retry = { name: "ask", arguments: {}, inputResponses: { a: { action: "accept", content: {} } }, requestState, _meta: meta };
  const done = await host.handle({ jsonrpc: "2.0", id: 2, method: "tools/call", params: retry }, ctx);
  assert.equal(done.result.content[0].text, "got accept");
  const replayed = await host.handle({ jsonrpc: "2.0", id: 3, method: "tools/call", params: retry }, ctx);
  assert.equal(replayed.error.code, -32602);
  assert.match(replayed.error.message, /already used/);
  assert.equal(runs, 2, "the replay did not run the tool");
  // Bounded: with room for one spent state, a second retry is refused with the cap named.
  const small = new TaskHost({ requestState: { maxSpent: 1 } });
  small.tool("ask", { taskSupport: "forbidden" }, async (_args, { requestInput }) => {
    await requestInput({ a: { method: "elicitation/create", params: { mode: "form", message: "A?", requestedSchema: { type: "object", properties: {} } } } });
    return text("ok");
  });
  const s1 = (await small.handle({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "ask", arguments: {}, _meta: meta } }, ctx)).result.requestState;
  const s2 = (await small.handle({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "ask", arguments: {}, _meta: meta } }, ctx)).result.requestState;
  const ok = await small.handle({ jsonrpc: "2.0", id: 6, method: "tools/call", params: { ...retry, requestState: s1 } }, ctx);
  assert.equal(ok.result.content[0].text, "ok");
  const full = await small.handle({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { ...retry, requestState: s2 } }, ctx);
  assert.equal(full.error.code, -32602);
  assert.deepEqual(full.error.data, { limit: 1, cap: "maxSpent" });
});

test("two MRTR requestStates of the same call issued in the same millisecond are distinct: each answers its own retry", async () => {
  const host = new TaskHost({ now: () => 1_767_225_600_000 }); // a clock that never moves
  host.tool("ask", { taskSupport: "forbidden" }, async (_args, { requestInput }) => {
    const { a } = await requestInput({ a: { method: "elicitation/create", params: { mode: "form", message: "A?", requestedSchema: { type: "object", properties: {} } } } });
    return text(`got ${a.action}`);
  });
  const meta = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
  const ctx = { protocolVersion: V26 };
  const call = { name: "ask", arguments: { same: true }, _meta: meta };
  const s1 = (await host.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: call }, ctx)).result.requestState;
  const s2 = (await host.handle({ jsonrpc: "2.0", id: 2, method: "tools/call", params: call }, ctx)).result.requestState;
  assert.notEqual(s1, s2);
  for (const [id, requestState] of [[3, s1], [4, s2]]) {
    const done = await host.handle({ jsonrpc: "2.0", id, method: "tools/call", params: { ...call, inputResponses: { a: { action: "accept", content: {} } }, requestState } }, ctx);
    assert.equal(done.result?.content?.[0]?.text, "got accept", JSON.stringify(done));
  }
});
