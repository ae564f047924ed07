// A client conformance kit (docs/decisions/polling-scheduler.md): TaskClient (js/client/client.ts,
// from the packed
// package) against scripted servers, in virtual time. A scripted server is a plain
// `request(method, params)` that plays a server's part exactly as the test scripts it and records
// every request with its virtual time, so each test asserts the EXACT requests the client sends
// and when: the timeline as `method@ms` from the start. Every scenario also checks the politeness
// invariant (TASKS-SPEC §D 49, 102; PEERS §3 15–17): two `tasks/get` of one task (or the task's
// creation and its first poll) are never closer than the 250 ms floor, nor than the latest poll
// interval the server gave before the second one.
//
// The scheduler's rules (src/schedule/mod.rs), with jitter 0 unless a test says otherwise:
// delay = max(250, latest interval or 1000, backoff 1 s·2^(n−1) ≤ 60 s); a retry hint holds
// longer; the TTL backstop ends a task unchanged at createdAt + ttl (+1 ms).
import { test } from "node:test";
import assert from "node:assert/strict";
import { virtualClock } from "./virtual-clock.mjs";

const { TaskClient, TaskCancelledError, TaskExpiredError, TaskFailedError, ProtocolError } = await import("./.tmp/install/esm.mjs");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const FLOOR = 250;
const RELATED = "io.modelcontextprotocol/related-task";
const iso = (ms) => new Date(T0 + ms).toISOString();

/** A promise the test settles. */
function deferred() {
  let resolve, reject;
  const promise = new Promise((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** A transport failure (no JSON-RPC code), optionally with a retry hint. */
function transportError(message = "connection reset", extra = {}) {
  return Object.assign(new Error(message), extra);
}

/** A JSON-RPC error answer, as a transport would reject with it. */
function rpcError(code, message, extra = {}) {
  return Object.assign(new Error(message), { code, message, ...extra });
}

const elicit = (message) => ({ method: "elicitation/create", params: { message, requestedSchema: { type: "object", properties: { v: { type: "string" } } } } });
const sample = (text) => ({ method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text } }], maxTokens: 10 } });
const toolResult = (text) => ({ content: [{ type: "text", text }] });

/**
 * A scripted server for one task: `respond(method, params, at, server)` plays the server's part
 * (returns the result, a promise of it, or throws); the server records every request, the
 * latest poll interval it gave, and the politeness of every `tasks/get`.
 */
class Scripted {
  constructor({ clock, version = V26, taskId = "task-1", ttl = 600_000, respond }) {
    this.clock = clock;
    this.version = version;
    this.taskId = taskId;
    this.ttl = ttl;
    this.respond = respond;
    /** Every request: `{ method, at, params }`. */
    this.sent = [];
    /** The latest interval the server gave (ms), `undefined` before any. */
    this.interval = undefined;
    /** The time of the task's creation or its latest poll, for the politeness check. */
    this.lastPoint = undefined;
    /** Every breach of the politeness invariant. */
    this.rude = [];
    this.request = this.request.bind(this);
  }

  at() {
    return this.clock.now() - T0;
  }

  async request(method, params) {
    const at = this.at();
    this.sent.push({ method, at, params });
    if (method === "tasks/get") {
      const need = Math.max(FLOOR, this.interval ?? 0);
      if (this.lastPoint !== undefined && at - this.lastPoint < need) {
        this.rude.push(`tasks/get@${at}: ${at - this.lastPoint} ms after the previous one, at least ${need} needed`);
      }
      this.lastPoint = at;
    }
    const result = await this.respond(method, params, at, this);
    this.#note(result);
    if (method === "tools/call" && (result?.resultType === "task" || result?.task)) this.lastPoint = this.at();
    return result;
  }

  /** Remembers the poll interval a snapshot gave. */
  #note(result) {
    const task = result?.task ?? result;
    const ms = this.version === V26 ? task?.pollIntervalMs : task?.pollInterval;
    if (typeof ms === "number") this.interval = ms;
  }

  /** The task as the server shows it. `updated` (default: now) is its lastUpdatedAt. */
  task(status, { updated = this.at(), interval, ttl = this.ttl, ...extra } = {}) {
    const t = { taskId: this.taskId, status, createdAt: iso(0), lastUpdatedAt: iso(updated) };
    if (this.version === V26) {
      t.ttlMs = ttl;
      if (interval !== undefined) t.pollIntervalMs = interval;
      return { ...t, ...extra };
    }
    t.ttl = ttl;
    if (interval !== undefined) t.pollInterval = interval;
    return t;
  }

  /** The answer creating the task (V26 CreateTaskResult, V25 `{ task }`). */
  created(opts = {}) {
    const t = this.task("working", { updated: 0, ...opts });
    return this.version === V26 ? { resultType: "task", ...t } : { task: t };
  }

  /** A `tasks/get` answer. */
  got(status, opts) {
    const t = this.task(status, opts);
    return this.version === V26 ? { resultType: "complete", ...t } : t;
  }

  /** A V25 `tasks/result` answer. */
  final(text) {
    return { ...toolResult(text), _meta: { [RELATED]: { taskId: this.taskId } } };
  }

  /** Sends a status notification of `task` to `client`, noting its interval. */
  notify(client, task) {
    this.#note(task);
    client.notify({ jsonrpc: "2.0", method: this.version === V26 ? "notifications/tasks" : "notifications/tasks/status", params: task });
  }

  /** The requests as `method@ms`. */
  timeline() {
    return this.sent.map((s) => `${s.method}@${s.at}`);
  }

  /** The times of the `tasks/get` requests. */
  polls() {
    return this.sent.filter((s) => s.method === "tasks/get").map((s) => s.at);
  }

  count(method) {
    return this.sent.filter((s) => s.method === method).length;
  }

  assertPolite() {
    assert.deepEqual(this.rude, [], "politeness: never closer than the floor nor the server's latest interval");
    for (const s of this.sent) if (s.method.startsWith("tasks/")) assert.equal(s.params.taskId, this.taskId);
  }
}

/**
 * The usual answers: `tools/call` creates the task (`create` options), the n-th `tasks/get`
 * answers `gets[n]` (the last repeats; a function is called with the server and time; an Error
 * is thrown), V26 `tasks/update` / `tasks/cancel` acknowledge, V25 `tasks/cancel` cancels, V25
 * `tasks/result` waits for `server.done` (resolved by the test or a `gets` function).
 */
function script({ create = {}, gets = [], update, cancel, result, call, list } = {}) {
  let n = 0;
  return async (method, params, at, s) => {
    switch (method) {
      case "tools/call":
        if (call) return call(params, at, s);
        return s.created(create);
      case "tools/list":
        if (list) return list(params, at, s);
        throw rpcError(-32601, "unexpected tools/list");
      case "tasks/get": {
        const step = gets[Math.min(n++, gets.length - 1)];
        const answer = typeof step === "function" ? await step(s, at) : step;
        if (answer instanceof Error) throw answer;
        return answer;
      }
      case "tasks/update":
        if (update) return update(params, at, s);
        return { resultType: "complete" };
      case "tasks/cancel":
        if (cancel) return cancel(params, at, s);
        return s.version === V26 ? { resultType: "complete" } : s.task("cancelled");
      case "tasks/result":
        if (result) return result(params, at, s);
        return (s.done ??= deferred()).promise;
      default:
        throw rpcError(-32601, `unexpected ${method}`);
    }
  };
}

/** A scripted server and a TaskClient speaking `version` to it, seeded, jitter 0 by default. */
function setup({ version = V26, scheduler = {}, handlers, ttl, start = T0, serverCapabilities, ...scripted } = {}) {
  const clock = virtualClock(start, T0);
  const server = new Scripted({ clock, version, ttl, respond: script(scripted) });
  const client = new TaskClient({ request: server.request, protocolVersion: version, clock, handlers, serverCapabilities, scheduler: { seed: 42, jitter: 0, ...scheduler } });
  const events = [];
  (async () => {
    for await (const e of client.events()) events.push(e);
  })();
  return { clock, server, client, events };
}

/** Follows a promise: `state` (pending, resolved, rejected), its value or error and when. */
function watch(promise, clock) {
  const o = { state: "pending", value: undefined, error: undefined, at: undefined };
  promise.then(
    (v) => Object.assign(o, { state: "resolved", value: v, at: clock.now() - T0 }),
    (e) => Object.assign(o, { state: "rejected", error: e, at: clock.now() - T0 }),
  );
  return o;
}

/** The call of tool `t`; V25 augments it (`params.task`). */
function call(client, version, options = {}) {
  return client.callTool("t", {}, version === V25 ? { task: { ttl: 600_000 }, ...options } : options);
}

/** Nothing more is sent for a long while once the client is done. */
async function assertQuiet(clock, server) {
  const n = server.sent.length;
  await clock.advance(300_000);
  assert.deepEqual(server.timeline().slice(n), [], "no request after the end");
}

/** An event's name, with the outcome of an `error` event: `error:cancelled`, `error:cancelFailed`, `error:expired`, `error:failed`. */
const label = (e) =>
  e.type !== "error" ? e.type
  : e.error instanceof TaskCancelledError ? (e.error.delivered ? "error:cancelled" : "error:cancelFailed")
  : e.error instanceof TaskExpiredError ? "error:expired"
  : "error:failed";
const types = (events, ...keep) => events.map(label).filter((l) => keep.length === 0 || keep.includes(l));

// ---- poll intervals -----------------------------------------------------------------------------

for (const version of [V26, V25]) {
  test(`${version}: no server interval → polls every 1000 ms (the default) until completed`, async () => {
    const completed = (s) => (version === V26 ? s.got("completed", { result: toolResult("done") }) : ((s.done ??= deferred()).resolve(s.final("done")), s.got("completed")));
    const { clock, server, client } = setup({ version, gets: [(s) => s.got("working"), (s) => s.got("working"), completed] });
    const out = watch(call(client, version), clock);
    await clock.to(10_000);
    const tail = version === V26 ? [] : ["tasks/result@3000"];
    assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/get@2000", "tasks/get@3000", ...tail]);
    assert.equal(out.state, "resolved");
    assert.equal(out.at, 3000);
    assert.equal(out.value.content[0].text, "done");
    server.assertPolite();
    await assertQuiet(clock, server);
    client.close();
  });

  test(`${version}: server interval 0 → the 250 ms floor, never faster`, async () => {
    const { clock, server, client } = setup({
      version,
      create: { interval: 0 },
      gets: [(s) => s.got("working", { interval: 0 }), (s) => s.got("working", { interval: 0 }), (s) => s.got("working", { interval: 0 }), (s) => s.got("cancelled", { interval: 0 })],
    });
    const out = watch(call(client, version), clock);
    await clock.to(5_000);
    assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@250", "tasks/get@500", "tasks/get@750", "tasks/get@1000"]);
    assert.equal(out.state, "rejected");
    assert.ok(out.error instanceof TaskCancelledError, "cancelled by the server");
    assert.equal(out.at, 1000);
    server.assertPolite();
    await assertQuiet(clock, server);
    client.close();
  });

  test(`${version}: the interval changes between polls: the latest one wins (a snapshot without one keeps it)`, async () => {
    const intervals = [500, 3000, 100, undefined, 2000];
    const gets = intervals.map((interval) => (s) => s.got("working", { interval }));
    gets.push((s) => (version === V26 ? s.got("completed", { result: toolResult("ok") }) : ((s.done ??= deferred()).resolve(s.final("ok")), s.got("completed"))));
    const { clock, server, client } = setup({ version, create: { interval: 2000 }, gets });
    const out = watch(call(client, version), clock);
    await clock.to(20_000);
    // created (2000) → 2000; +500 → 2500; +3000 → 5500; +max(250, 100) → 5750; (kept 100) → 6000; +2000 → 8000
    const polls = ["tasks/get@2000", "tasks/get@2500", "tasks/get@5500", "tasks/get@5750", "tasks/get@6000", "tasks/get@8000"];
    assert.deepEqual(server.timeline(), ["tools/call@0", ...polls, ...(version === V25 ? ["tasks/result@8000"] : [])]);
    assert.equal(out.state, "resolved");
    assert.equal(out.at, 8000);
    server.assertPolite();
    await assertQuiet(clock, server);
    client.close();
  });
}

test("V26: seeded jitter: each delay is the rule's plus 0–10 %, the same seed replays the same times", async () => {
  async function run(seed) {
    const { clock, server, client } = setup({ scheduler: { seed, jitter: 0.1 }, create: { interval: 1000 }, gets: [(s) => s.got("working", { interval: 1000 })] });
    watch(call(client, V26), clock);
    await clock.to(20_000);
    server.assertPolite();
    client.close();
    return [0, ...server.polls()];
  }
  const a = await run(7);
  assert.deepEqual(await run(7), a, "the same seed, the same times");
  assert.notDeepEqual(await run(8), a, "another seed, other times");
  assert.ok(a.length >= 18 && a.length <= 21, `${a.length - 1} polls in 20 s`);
  for (let i = 1; i < a.length; i++) {
    const gap = a[i] - a[i - 1];
    assert.ok(gap >= 1000 && gap <= 1100, `gap ${gap} outside 1000..=1100 (polls at ${a})`);
  }
});

// ---- failures: backoff and retry hints ----------------------------------------------------------

for (const version of [V26, V25]) {
  test(`${version}: transport errors back off 1 s, 2 s, 4 s … capped at 60 s; a success resets`, async () => {
    const failures = [transportError(), rpcError(-32603, "internal error"), transportError(), transportError(), transportError(), transportError(), transportError(), transportError()];
    const done = (s) => (version === V26 ? s.got("completed", { result: toolResult("ok") }) : ((s.done ??= deferred()).resolve(s.final("ok")), s.got("completed")));
    const { clock, server, client, events } = setup({
      version,
      create: { interval: 500 },
      gets: [(s) => s.got("working", { interval: 500 }), ...failures, (s) => s.got("working", { interval: 500 }), done],
    });
    const out = watch(call(client, version), clock);
    await clock.to(400_000);
    // 500 ok (interval 500); 8 failures from 1000: +1 s, +2 s, +4 s, +8 s, +16 s, +32 s, +60 s (64 s capped),
    // +60 s (128 s capped); ok at 184000 (backoff reset) → +500
    assert.deepEqual(server.polls(), [500, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 124000, 184000, 184500]);
    assert.equal(server.count("tools/call"), 1);
    assert.equal(server.count("tasks/result"), version === V25 ? 1 : 0);
    assert.equal(types(events, "pollError").length, 8);
    assert.equal(out.state, "resolved");
    assert.equal(out.at, 184500);
    server.assertPolite();
    await assertQuiet(clock, server);
    client.close();
  });
}

test("V26: a retry hint on the rejection (retryAfterMs) holds the next poll, a notification too", async () => {
  const { clock, server, client, events } = setup({
    create: { interval: 500 },
    gets: [transportError("429 Too Many Requests", { retryAfterMs: 5000 }), (s) => s.got("working", { interval: 500 }), rpcError(-32603, "busy", { retryAfterMs: 1500.2 }), (s) => s.got("completed", { result: toolResult("ok") })],
  });
  const out = watch(call(client, V26), clock);
  await clock.to(2000);
  // a notification at 2000 would reschedule to 2500; the hint holds the poll at 5500
  server.notify(client, server.task("working", { interval: 500 }));
  await clock.to(20_000);
  // 500 fails (hint 5 s > backoff 1 s) → 5500 ok → 6000 fails (hint 1500.2 → 1501 > backoff 1000) → 7501
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@500", "tasks/get@5500", "tasks/get@6000", "tasks/get@7501"]);
  assert.equal(types(events, "pollError").length, 2);
  assert.equal(out.state, "resolved");
  server.assertPolite();
  await assertQuiet(clock, server);
  client.close();
});

test("V26: a tasks/get that never answers counts as failed after 30 s; polling goes on", async () => {
  const hung = deferred();
  const { clock, server, client, events } = setup({
    create: { interval: 1000 },
    gets: [() => hung.promise, (s) => s.got("completed", { result: toolResult("ok") })],
  });
  const out = watch(call(client, V26), clock);
  await clock.to(60_000);
  // poll at 1000 hangs; timed out at 31000 (first failure: max(1000, backoff 1000)) → 32000
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/get@32000"]);
  assert.equal(out.state, "resolved");
  assert.equal(out.at, 32000);
  assert.equal(types(events, "pollError").length, 1);
  hung.resolve(server.got("working")); // the late answer changes nothing
  await clock.advance(1000);
  server.assertPolite();
  await assertQuiet(clock, server);
  client.close();
});

// ---- input required -----------------------------------------------------------------------------

/** Handlers that count their calls and answer from the key's message. */
function countingHandlers() {
  const asked = [];
  return {
    asked,
    handlers: {
      elicitation: (params) => (asked.push(params.message), { action: "accept", content: { v: `answer to ${params.message}` } }),
      sampling: (params) => (asked.push(params.messages[0].content.text), { role: "assistant", content: { type: "text", text: "sampled" }, model: "m" }),
    },
  };
}

const updates = (server) => server.sent.filter((s) => s.method === "tasks/update").map((s) => Object.keys(s.params.inputResponses));

test("V26: input required once: answered at once with tasks/update, polling resumes at its pace", async () => {
  const { asked, handlers } = countingHandlers();
  const { clock, server, client, events } = setup({
    handlers,
    gets: [(s) => s.got("input_required", { inputRequests: { a: elicit("A?") } }), (s) => s.got("working"), (s) => s.got("completed", { result: toolResult("ok") })],
  });
  const out = watch(call(client, V26), clock);
  await clock.to(10_000);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/update@1000", "tasks/get@2000", "tasks/get@3000"]);
  assert.deepEqual(server.sent[2].params.inputResponses, { a: { action: "accept", content: { v: "answer to A?" } } });
  assert.ok(server.sent[2].params._meta["io.modelcontextprotocol/clientCapabilities"].elicitation, "elicitation declared (§D 98, 100)");
  assert.deepEqual(asked, ["A?"]);
  assert.equal(out.state, "resolved");
  assert.deepEqual(types(events, "inputRequired"), ["inputRequired"]);
  server.assertPolite();
  await assertQuiet(clock, server);
  client.close();
});

test("V26: input required twice: a second round with a new key gets only the new key", async () => {
  const { asked, handlers } = countingHandlers();
  const { clock, server, client } = setup({
    handlers,
    gets: [
      (s) => s.got("input_required", { inputRequests: { a: elicit("A?") } }),
      (s) => s.got("working"),
      (s) => s.got("input_required", { inputRequests: { b: elicit("B?") } }),
      (s) => s.got("completed", { result: toolResult("ok") }),
    ],
  });
  const out = watch(call(client, V26), clock);
  await clock.to(10_000);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/update@1000", "tasks/get@2000", "tasks/get@3000", "tasks/update@3000", "tasks/get@4000"]);
  assert.deepEqual(updates(server), [["a"], ["b"]]);
  assert.deepEqual(asked, ["A?", "B?"]);
  assert.equal(out.state, "resolved");
  server.assertPolite();
  await assertQuiet(clock, server);
  client.close();
});

test("V26: two keys at once (elicitation and sampling) are answered in one tasks/update", async () => {
  const { asked, handlers } = countingHandlers();
  const { clock, server, client } = setup({
    handlers,
    gets: [(s) => s.got("input_required", { inputRequests: { a: elicit("A?"), s: sample("S?") } }), (s) => s.got("completed", { result: toolResult("ok") })],
  });
  const out = watch(call(client, V26), clock);
  await clock.to(10_000);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/update@1000", "tasks/get@2000"]);
  assert.deepEqual(updates(server), [["a", "s"]]);
  assert.equal(server.sent[2].params.inputResponses.s.model, "m");
  assert.deepEqual(asked, ["A?", "S?"]);
  assert.equal(out.state, "resolved");
  server.assertPolite();
  client.close();
});

test("V26: a key repeated across polls is answered once (§D 107); a new key beside it alone", async () => {
  const { asked, handlers } = countingHandlers();
  const { clock, server, client } = setup({
    handlers,
    gets: [
      (s) => s.got("input_required", { inputRequests: { a: elicit("A?") } }),
      (s) => s.got("input_required", { inputRequests: { a: elicit("A?") } }), // the ack came before the state moved (§D 89)
      (s) => s.got("input_required", { inputRequests: { a: elicit("A?"), b: elicit("B?") } }),
      (s) => s.got("completed", { result: toolResult("ok") }),
    ],
  });
  const out = watch(call(client, V26), clock);
  await clock.to(10_000);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/update@1000", "tasks/get@2000", "tasks/get@3000", "tasks/update@3000", "tasks/get@4000"]);
  assert.deepEqual(updates(server), [["a"], ["b"]]);
  assert.deepEqual(asked, ["A?", "B?"]);
  assert.equal(out.state, "resolved");
  server.assertPolite();
  client.close();
});

test("V26: an unacknowledged tasks/update is resent with the same answers; the handler is not called again", async () => {
  const { asked, handlers } = countingHandlers();
  let n = 0;
  const { clock, server, client, events } = setup({
    handlers,
    gets: [
      (s) => s.got("input_required", { inputRequests: { a: elicit("A?") } }),
      (s) => s.got("input_required", { inputRequests: { a: elicit("A?") } }),
      (s) => s.got("working"),
      (s) => s.got("completed", { result: toolResult("ok") }),
    ],
    update: () => {
      if (n++ === 0) throw transportError("update lost");
      return { resultType: "complete" };
    },
  });
  const out = watch(call(client, V26), clock);
  await clock.to(10_000);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/update@1000", "tasks/get@2000", "tasks/update@2000", "tasks/get@3000", "tasks/get@4000"]);
  const [first, second] = server.sent.filter((s) => s.method === "tasks/update");
  assert.deepEqual(second.params.inputResponses, first.params.inputResponses, "the same answers");
  assert.deepEqual(asked, ["A?"], "the handler is called once");
  assert.equal(types(events, "pollError").length, 1);
  assert.equal(out.state, "resolved");
  server.assertPolite();
  client.close();
});

test("V26: a handler waiting for its user holds back no poll", async () => {
  const answer = deferred();
  const { clock, server, client } = setup({
    handlers: { elicitation: () => answer.promise },
    gets: [(s) => s.got("input_required", { inputRequests: { a: elicit("A?") } })],
  });
  const out = watch(call(client, V26), clock);
  await clock.to(3500);
  // the user thinks: polling goes on (§D 105), the key is not asked again
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/get@2000", "tasks/get@3000"]);
  answer.resolve({ action: "accept", content: { v: "late" } });
  await clock.to(3600);
  assert.deepEqual(server.timeline().slice(4), ["tasks/update@3500"]);
  assert.equal(out.state, "pending");
  server.assertPolite();
  client.close();
});

test("V25: input_required opens tasks/result at once, only once across two rounds; it delivers the result", async () => {
  const { clock, server, client } = setup({
    version: V25,
    gets: [
      (s) => s.got("input_required"),
      (s) => s.got("working"),
      (s) => s.got("input_required"),
      (s) => ((s.done ??= deferred()).resolve(s.final("answered")), s.got("completed")),
    ],
  });
  const out = watch(call(client, V25), clock);
  await clock.to(10_000);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/result@1000", "tasks/get@2000", "tasks/get@3000", "tasks/get@4000"]);
  assert.deepEqual(server.sent[0].params.task, { ttl: 600_000 }, "augmented (§D 48)");
  assert.equal(server.sent[2].params._meta, undefined, "no related-task _meta on tasks/result (§D 52)");
  assert.equal(out.state, "resolved");
  assert.equal(out.at, 4000);
  assert.equal(out.value.content[0].text, "answered");
  server.assertPolite();
  await assertQuiet(clock, server);
  client.close();
});

// ---- cancel racing completion -------------------------------------------------------------------

test("V26: abort while the completing poll is in flight, the completion answers first → resolved, one tasks/cancel", async () => {
  const completing = deferred();
  const ack = deferred();
  const { clock, server, client, events } = setup({
    gets: [(s) => s.got("working"), () => completing.promise],
    cancel: () => ack.promise,
  });
  const ac = new AbortController();
  const out = watch(call(client, V26, { signal: ac.signal }), clock);
  await clock.to(2000);
  ac.abort();
  await clock.advance(0);
  completing.resolve(server.got("completed", { result: toolResult("won") }));
  await clock.advance(0);
  ack.resolve({ resultType: "complete" });
  ac.abort(); // twice: nothing more
  await clock.advance(0);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/get@2000", "tasks/cancel@2000"]);
  assert.equal(out.state, "resolved");
  assert.equal(out.value.content[0].text, "won");
  assert.deepEqual(types(events, "result", "error:cancelled", "error:failed"), ["result"]);
  server.assertPolite();
  await assertQuiet(clock, server);
  client.close();
});

test("V26: abort while the completing poll is in flight, the cancel ack answers first → cancelled, the late completion ignored", async () => {
  const completing = deferred();
  const { clock, server, client, events } = setup({ gets: [(s) => s.got("working"), () => completing.promise] });
  const ac = new AbortController();
  const out = watch(call(client, V26, { signal: ac.signal }), clock);
  await clock.to(2000);
  ac.abort();
  await clock.advance(0);
  assert.equal(out.state, "rejected");
  assert.ok(out.error instanceof TaskCancelledError);
  completing.resolve(server.got("completed", { result: toolResult("too late") }));
  await clock.advance(0);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/get@2000", "tasks/cancel@2000"]);
  assert.deepEqual(types(events, "result", "error:cancelled", "error:failed"), ["error:cancelled"]);
  server.assertPolite();
  await assertQuiet(clock, server);
  client.close();
});

test("V26: abort right after the completion was seen sends no tasks/cancel", async () => {
  const { clock, server, client, events } = setup({ gets: [(s) => s.got("completed", { result: toolResult("done") })] });
  const ac = new AbortController();
  const out = watch(call(client, V26, { signal: ac.signal }), clock);
  await clock.to(1000);
  ac.abort();
  await clock.advance(0);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000"]);
  assert.equal(out.state, "resolved");
  assert.deepEqual(types(events, "result", "error:cancelled"), ["result"]);
  await assertQuiet(clock, server);
  client.close();
});

test("V25: abort as the server completes: tasks/cancel answered -32602 (terminal) → cancelled, one tasks/cancel", async () => {
  const { clock, server, client, events } = setup({
    version: V25,
    gets: [(s) => s.got("working")],
    cancel: () => {
      throw rpcError(-32602, "task is terminal");
    },
  });
  const ac = new AbortController();
  const out = watch(call(client, V25, { signal: ac.signal }), clock);
  await clock.to(1500);
  ac.abort();
  ac.abort();
  await clock.advance(0);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/cancel@1500"]);
  assert.equal(out.state, "rejected");
  assert.ok(out.error instanceof TaskCancelledError);
  assert.deepEqual(types(events, "result", "error:cancelled"), ["error:cancelled"]);
  await assertQuiet(clock, server);
  client.close();
});

// ---- TTL expiry ---------------------------------------------------------------------------------

for (const version of [V26, V25]) {
  test(`${version}: a task that never changes ends at createdAt + ttl (TaskExpiredError); no poll after`, async () => {
    const { clock, server, client, events } = setup({ version, ttl: 5000, create: { interval: 2000 }, gets: [(s) => s.got("working", { updated: 0, interval: 2000 })] });
    const out = watch(call(client, version), clock);
    await clock.to(60_000);
    // 2000, 4000; the next (6000) would pass createdAt + ttl: the backstop fires at 5001 instead
    assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@2000", "tasks/get@4000"]);
    assert.equal(out.state, "rejected");
    assert.ok(out.error instanceof TaskExpiredError, String(out.error));
    assert.equal(out.at, 5001);
    assert.deepEqual(types(events, "error:expired"), ["error:expired"]);
    server.assertPolite();
    await assertQuiet(clock, server);
    client.close();
  });
}

test("V26: -32602 on tasks/get (expired, purged) ends the task at once: TaskExpiredError, no retry", async () => {
  const { clock, server, client } = setup({ gets: [(s) => s.got("working"), rpcError(-32602, "unknown task")] });
  const out = watch(call(client, V26), clock);
  await clock.to(10_000);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/get@2000"]);
  assert.ok(out.error instanceof TaskExpiredError);
  assert.equal(out.at, 2000);
  await assertQuiet(clock, server);
  client.close();
});

// ---- notifications ------------------------------------------------------------------------------

for (const version of [V26, V25]) {
  test(`${version}: a notification between polls updates the task and reschedules from it (a shorter interval too)`, async () => {
    const { clock, server, client } = setup({
      version,
      create: { interval: 5000 },
      gets: [(s) => s.got("working", { interval: 5000 }), (s) => s.got("working", { interval: 1000 }), (s) => (version === V26 ? s.got("completed", { result: toolResult("ok") }) : ((s.done ??= deferred()).resolve(s.final("ok")), s.got("completed")))],
    });
    const out = watch(call(client, version), clock);
    await clock.to(6000);
    server.notify(client, server.task("working", { interval: 1000 })); // next poll: 6000 + 1000, not 10000
    await clock.to(20_000);
    assert.deepEqual(server.polls(), [5000, 7000, 8000]);
    assert.equal(out.state, "resolved");
    assert.equal(out.at, 8000);
    server.assertPolite();
    await assertQuiet(clock, server);
    client.close();
  });
}

test("V26: a notification that says input_required is answered at once; one that says completed ends the call", async () => {
  const { asked, handlers } = countingHandlers();
  const { clock, server, client } = setup({ handlers, create: { interval: 2000 }, gets: [(s) => s.got("working", { interval: 2000 })] });
  const out = watch(call(client, V26), clock);
  await clock.to(2500);
  server.notify(client, server.task("input_required", { interval: 2000, inputRequests: { a: elicit("A?") } }));
  await clock.to(3000);
  server.notify(client, server.task("completed", { interval: 2000, result: toolResult("pushed") }));
  await clock.to(3001);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@2000", "tasks/update@2500"]);
  assert.deepEqual(asked, ["A?"]);
  assert.equal(out.state, "resolved");
  assert.equal(out.at, 3000);
  assert.equal(out.value.content[0].text, "pushed");
  await assertQuiet(clock, server);
  client.close();
});

// ---- answers of the wrong version, unknown resultType --------------------------------------------

test("V26: a V25-shaped tasks/get answer is a ProtocolError (poll-error, backoff); polling goes on", async () => {
  const v25 = (s) => ({ taskId: s.taskId, status: "completed", createdAt: iso(0), lastUpdatedAt: iso(s.at()), ttl: 600_000, pollInterval: 1000 });
  const { clock, server, client, events } = setup({ gets: [v25, (s) => s.got("completed", { result: toolResult("ok") })] });
  const out = watch(call(client, V26), clock);
  await clock.to(10_000);
  // 1000: invalid → a failure (backoff 1000) → 2000
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/get@2000"]);
  const [err] = events.filter((e) => e.type === "pollError");
  assert.ok(err.error instanceof ProtocolError, String(err.error));
  assert.match(err.error.message, /tasks\/get/);
  assert.equal(out.state, "resolved", "the V25 answer's status was not taken");
  server.assertPolite();
  client.close();
});

test("V25: a V26-shaped tasks/get answer is a ProtocolError; a V26 answer to tools/call too", async () => {
  const v26 = (s) => ({ resultType: "complete", taskId: s.taskId, status: "working", createdAt: iso(0), lastUpdatedAt: iso(s.at()), ttlMs: 600_000 });
  const { clock, server, client, events } = setup({ version: V25, gets: [v26, (s) => ((s.done ??= deferred()).resolve(s.final("ok")), s.got("completed"))] });
  const out = watch(call(client, V25), clock);
  await clock.to(10_000);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/get@2000", "tasks/result@2000"]);
  assert.ok(events.find((e) => e.type === "pollError").error instanceof ProtocolError);
  assert.equal(out.state, "resolved");
  client.close();

  const clock2 = virtualClock(T0);
  const s2 = new Scripted({ clock: clock2, version: V25, respond: async (_m, _p, _at, s) => ({ resultType: "task", taskId: s.taskId, status: "working", createdAt: iso(0), lastUpdatedAt: iso(0), ttlMs: 1000 }) });
  const c2 = new TaskClient({ request: s2.request, protocolVersion: V25, clock: clock2, scheduler: { seed: 1, jitter: 0 } });
  await assert.rejects(call(c2, V25), ProtocolError);
  await clock2.advance(10_000);
  assert.deepEqual(s2.timeline(), ["tools/call@0"]);
  c2.close();
});

test("V26: a V25 answer to tools/call switches the client to 2025-11-25 (params.task-less task, tasks/result)", async () => {
  const clock = virtualClock(T0);
  const server = new Scripted({ clock, version: V25, respond: script({ gets: [(s) => ((s.done ??= deferred()).resolve(s.final("old")), s.got("completed"))] }) });
  const client = new TaskClient({ request: server.request, clock, scheduler: { seed: 1, jitter: 0 } });
  const out = watch(client.callTool("t", {}), clock);
  await clock.to(5000);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/result@1000"]);
  assert.ok(server.sent[0].params._meta, "the first request speaks 2026-07-28");
  assert.equal(server.sent[1].params._meta, undefined, "then 2025-11-25");
  assert.equal(out.value.content[0].text, "old");
  client.close();
});

test("V26: an unknown resultType is a ProtocolError (§D 115): on tools/call at once, on tasks/get a poll-error", async () => {
  const clock = virtualClock(T0);
  const server = new Scripted({ clock, respond: async () => ({ resultType: "deferred", content: [] }) });
  const client = new TaskClient({ request: server.request, clock, scheduler: { seed: 1, jitter: 0 } });
  await assert.rejects(client.callTool("t", {}), (e) => e instanceof ProtocolError && /resultType/.test(e.message));
  await clock.advance(10_000);
  assert.deepEqual(server.timeline(), ["tools/call@0"]);
  client.close();

  const bogus = (s) => ({ ...s.got("working"), resultType: "bogus" });
  const task = (s) => ({ ...s.got("working"), resultType: "task" }); // a CreateTaskResult where none belongs (§D 101)
  const k = setup({ gets: [bogus, task, (s) => s.got("completed", { result: toolResult("ok") })] });
  const out = watch(call(k.client, V26), k.clock);
  await k.clock.to(20_000);
  // 1000 bogus → +1000 → 2000 task → +2000 → 4000 ok
  assert.deepEqual(k.server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/get@2000", "tasks/get@4000"]);
  const errors = k.events.filter((e) => e.type === "pollError").map((e) => e.error);
  assert.equal(errors.length, 2);
  assert.ok(errors.every((e) => e instanceof ProtocolError));
  assert.equal(out.state, "resolved");
  k.server.assertPolite();
  k.client.close();
});

test("V26: a failed task's error comes through as TaskFailedError; the call ends at that poll", async () => {
  const { clock, server, client } = setup({ gets: [(s) => s.got("failed", { error: { code: -32000, message: "backend down" } })] });
  const out = watch(call(client, V26), clock);
  await clock.to(5000);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000"]);
  assert.ok(out.error instanceof TaskFailedError && out.error.code === -32000);
  client.close();
});

// ---- reload (serialize → restore) ---------------------------------------------------------------

/** Closes `first`, restores a client from its saved state on the same server and clock. */
function reload(first, server, clock, handlers) {
  const state = JSON.stringify(first.serialize());
  first.close();
  const client = TaskClient.restore(state, { request: server.request, clock, handlers });
  const events = [];
  (async () => {
    for await (const e of client.events()) events.push(e);
  })();
  const [taskId] = client.pending();
  assert.equal(taskId, server.taskId);
  return { client, events, out: watch(client.follow(taskId), clock) };
}

for (const version of [V26, V25]) {
  test(`${version}: reload while polling (a poll in flight): the restored client keeps the pace`, async () => {
    const slow = deferred();
    const done = (s) => (version === V26 ? s.got("completed", { result: toolResult("ok") }) : ((s.done ??= deferred()).resolve(s.final("ok")), s.got("completed")));
    const { clock, server, client } = setup({ version, gets: [(s) => s.got("working"), () => slow.promise, (s) => s.got("working"), done] });
    watch(call(client, version), clock).state;
    await clock.to(2000); // the poll of 2000 is in flight
    const r = reload(client, server, clock, undefined);
    slow.resolve(server.got("working")); // answers the old client: ignored
    await clock.to(10_000);
    // restored in flight: next poll one interval after the last hand-out (2000 + 1000)
    assert.deepEqual(server.polls(), [1000, 2000, 3000, 4000]);
    assert.equal(r.out.state, "resolved");
    assert.equal(r.out.at, 4000);
    server.assertPolite();
    await assertQuiet(clock, server);
    r.client.close();
  });
}

test("V26: reload between polls: the first poll of the restored client is when it was due", async () => {
  const { clock, server, client } = setup({ create: { interval: 3000 }, gets: [(s) => s.got("working", { interval: 3000 }), (s) => s.got("completed", { result: toolResult("ok") })] });
  watch(call(client, V26), clock);
  await clock.to(4000);
  const r = reload(client, server, clock, undefined);
  await clock.to(10_000);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@3000", "tasks/get@6000"]);
  assert.equal(r.out.state, "resolved");
  server.assertPolite();
  r.client.close();
});

test("V26: reload after input was answered: the answered key is not answered again, a new one is", async () => {
  const { asked, handlers } = countingHandlers();
  const { clock, server, client } = setup({
    handlers,
    gets: [
      (s) => s.got("input_required", { inputRequests: { a: elicit("A?") } }),
      (s) => s.got("input_required", { inputRequests: { a: elicit("A?") } }),
      (s) => s.got("input_required", { inputRequests: { a: elicit("A?"), b: elicit("B?") } }),
      (s) => s.got("completed", { result: toolResult("ok") }),
    ],
  });
  watch(call(client, V26), clock);
  await clock.to(1500);
  assert.deepEqual(asked, ["A?"]);
  const r = reload(client, server, clock, handlers);
  await clock.to(10_000);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/update@1000", "tasks/get@2000", "tasks/get@3000", "tasks/update@3000", "tasks/get@4000"]);
  assert.deepEqual(updates(server), [["a"], ["b"]]);
  assert.deepEqual(asked, ["A?", "B?"]);
  assert.equal(r.out.state, "resolved");
  server.assertPolite();
  r.client.close();
});

test("V25: reload while input is required: the restored client reopens tasks/result once", async () => {
  const { clock, server, client } = setup({
    version: V25,
    gets: [(s) => s.got("input_required"), (s) => s.got("input_required"), (s) => s.got("input_required"), (s) => (s.done.resolve(s.final("ok")), s.got("completed"))],
  });
  watch(call(client, V25), clock);
  await clock.to(1500);
  const r = reload(client, server, clock, undefined);
  await clock.to(10_000);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/result@1000", "tasks/get@2000", "tasks/result@2000", "tasks/get@3000", "tasks/get@4000"]);
  assert.equal(r.out.state, "resolved");
  assert.equal(r.out.value.content[0].text, "ok");
  server.assertPolite();
  r.client.close();
});

for (const version of [V26, V25]) {
  test(`${version}: reload during backoff: the restored client keeps the backoff and its count`, async () => {
    const done = (s) => (version === V26 ? s.got("completed", { result: toolResult("ok") }) : ((s.done ??= deferred()).resolve(s.final("ok")), s.got("completed")));
    const { clock, server, client } = setup({
      version,
      create: { interval: 500 },
      gets: [transportError(), transportError(), transportError(), done],
    });
    watch(call(client, version), clock);
    await clock.to(2000); // failed at 500 (→ 1500) and 1500 (→ 3500)
    const r = reload(client, server, clock, undefined);
    await clock.to(20_000);
    // 3500 fails: the third failure → +4000 → 7500
    assert.deepEqual(server.polls(), [500, 1500, 3500, 7500]);
    assert.equal(r.out.state, "resolved");
    assert.equal(r.out.at, 7500);
    assert.deepEqual(types(r.events, "pollError").length, 1);
    server.assertPolite();
    await assertQuiet(clock, server);
    r.client.close();
  });
}

test("V26: reload, then the id names another task (another createdAt): reported expired, never taken for the old one", async () => {
  const { clock, server, client } = setup({
    gets: [(s) => s.got("working"), (s) => s.got("completed", { createdAt: iso(1500), result: toolResult("someone else's") })],
  });
  watch(call(client, V26), clock);
  await clock.to(1500);
  const r = reload(client, server, clock, undefined);
  await clock.to(10_000);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/get@2000"]);
  assert.equal(r.out.state, "rejected");
  assert.ok(r.out.error instanceof TaskExpiredError, String(r.out.error));
  assert.match(r.out.error.message, /another task/);
  assert.deepEqual(types(r.events, "error:expired", "result"), ["error:expired"]);
  server.assertPolite();
  await assertQuiet(clock, server);
  r.client.close();
});

test("V26: an input request the client cannot answer (handler throws / no handler): one tasks/cancel, the call fails with why, no more polls", async () => {
  const refused = new Error("the user closed the dialog");
  for (const [handlers, check] of [
    [{ elicitation: () => { throw refused; } }, (e) => e === refused],
    [{}, (e) => e instanceof ProtocolError && /no handler/.test(e.message)],
  ]) {
    const { clock, server, client, events } = setup({ handlers, gets: [(s) => s.got("input_required", { inputRequests: { a: elicit("A?") } })] });
    const out = watch(call(client, V26), clock);
    await clock.to(5_000);
    assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/cancel@1000"]);
    assert.equal(out.state, "rejected");
    assert.ok(check(out.error), String(out.error));
    assert.deepEqual(events.filter((e) => e.type === "error").map((e) => e.error), [out.error], "one error event, with the call's error");
    server.assertPolite();
    await assertQuiet(clock, server);
    client.close();
  }
});

// ---- 2025-11-25: how a task ends, augmentation by taskSupport, the server's requests ------------

const related = (s) => ({ _meta: { [RELATED]: { taskId: s.taskId } } });
const failedWith = (s, statusMessage) => ({ ...s.got("failed"), statusMessage });

test("V25: a task seen failed whose tasks/result answers neither content nor an error (Python mcp 1.30): TaskFailedError with the status message and that answer", async () => {
  const { clock, server, client, events } = setup({ version: V25, gets: [(s) => ((s.done ??= deferred()).resolve(related(s)), failedWith(s, "boom"))] });
  const out = watch(call(client, V25), clock);
  await clock.to(5000);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/result@1000"]);
  assert.equal(out.state, "rejected", "never a success");
  assert.ok(out.error instanceof TaskFailedError, String(out.error));
  assert.equal(out.error.taskId, server.taskId);
  assert.equal(out.error.status, "failed");
  assert.equal(out.error.statusMessage, "boom");
  assert.match(out.error.message, /boom/);
  assert.deepEqual(out.error.result, related(server), "whatever tasks/result gave");
  assert.equal(out.error.code, undefined, "no JSON-RPC error");
  assert.deepEqual(types(events, "result", "error:failed"), ["error:failed"]);
  await assertQuiet(clock, server);
  client.close();
});

test("V25: tasks/result answers neither content nor an error before the end was seen: one tasks/get decides (failed: TaskFailedError; completed: ProtocolError)", async () => {
  for (const [status, check] of [
    ["failed", (e) => e instanceof TaskFailedError && e.statusMessage === "boom" && e.result !== undefined],
    ["completed", (e) => e instanceof ProtocolError && e.status === "completed" && /neither a CallToolResult/.test(e.message) && e.result !== undefined],
  ]) {
    // input_required opens tasks/result early; the task then ends and the answer is bare.
    const { clock, server, client, events } = setup({
      version: V25,
      gets: [(s) => s.got("input_required"), (s) => (status === "failed" ? failedWith(s, "boom") : s.got(status))],
      result: (_p, _at, s) => (s.done ??= deferred()).promise,
    });
    const out = watch(call(client, V25), clock);
    await clock.to(1000);
    assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/result@1000"]);
    server.done.resolve(related(server));
    await clock.to(5000);
    assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/result@1000", "tasks/get@1000"]);
    assert.equal(out.state, "rejected", `${status}: never a success`);
    assert.ok(check(out.error), `${status}: ${out.error}`);
    assert.deepEqual(types(events, "result", "error:failed"), ["error:failed"]);
    client.close();
  }
});

test("V25: a task without its required `ttl` (Python mcp 1.30 when the call asked for none) is followed to its result", async () => {
  const noTtl = (t) => {
    const { ttl: _gone, ...rest } = t;
    return rest;
  };
  const { clock, server, client } = setup({
    version: V25,
    call: (_p, _at, s) => ({ task: noTtl(s.created().task) }),
    gets: [(s) => noTtl(s.got("working")), (s) => ((s.done ??= deferred()).resolve(s.final("done")), noTtl(s.got("completed")))],
  });
  const out = watch(client.callTool("t", {}, { task: {} }), clock);
  await clock.to(5000);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/get@2000", "tasks/result@2000"]);
  assert.deepEqual(server.sent[0].params.task, {}, "no ttl asked");
  assert.equal(out.state, "resolved", String(out.error));
  assert.equal(out.value.content[0].text, "done");
  server.assertPolite();
  await assertQuiet(clock, server);
  client.close();
});

test("V25: a task seen failed whose tasks/result gives a tool result (isError or not): TaskFailedError with .result and the status message", async () => {
  for (const isError of [true, false]) {
    const { clock, server, client, events } = setup({
      version: V25,
      gets: [(s) => ((s.done ??= deferred()).resolve({ ...s.final("disk full"), ...(isError ? { isError } : {}) }), failedWith(s, "the job failed"))],
    });
    const out = watch(call(client, V25), clock);
    await clock.to(5000);
    assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/result@1000"]);
    assert.ok(out.error instanceof TaskFailedError, String(out.error));
    assert.equal(out.error.result.content[0].text, "disk full");
    assert.equal(out.error.statusMessage, "the job failed");
    assert.equal(out.error.code, undefined, "no JSON-RPC error");
    assert.match(out.error.message, /the job failed/);
    assert.deepEqual(types(events, "result", "error:failed"), ["error:failed"]);
    client.close();
  }
});

test("V25: a task seen completed with an isError result resolves with it (the server ended it completed)", async () => {
  const { clock, server, client, events } = setup({ version: V25, gets: [(s) => ((s.done ??= deferred()).resolve({ ...s.final("bad input"), isError: true }), s.got("completed"))] });
  const out = watch(call(client, V25), clock);
  await clock.to(5000);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/result@1000"]);
  assert.equal(out.state, "resolved");
  assert.equal(out.value.isError, true);
  assert.deepEqual(types(events, "result", "error:failed"), ["result"]);
  client.close();
});

test("V25: tasks/result answers an isError result before the end was seen: one tasks/get decides (failed → TaskFailedError)", async () => {
  const { clock, server, client } = setup({ version: V25, gets: [(s) => s.got("input_required"), (s) => failedWith(s, "refused")] });
  const out = watch(call(client, V25), clock);
  await clock.to(1500);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/result@1000"]);
  server.done.resolve({ ...server.final("no"), isError: true });
  await clock.advance(0);
  assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/result@1000", "tasks/get@1500"]);
  assert.ok(out.error instanceof TaskFailedError, String(out.error));
  assert.equal(out.error.statusMessage, "refused");
  server.assertPolite();
  await assertQuiet(clock, server);
  client.close();
});

const TOOLS = [
  { name: "req", inputSchema: { type: "object" }, execution: { taskSupport: "required" } },
  { name: "opt", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } },
  { name: "forb", inputSchema: { type: "object" }, execution: { taskSupport: "forbidden" } },
  { name: "none", inputSchema: { type: "object" } },
];
const TASKS_CALL = { tasks: { requests: { tools: { call: {} } } } };
/** Every call answered at once (a server may serve an augmented call plainly); the `params.task` of each call. */
const syncCalls = { call: () => toolResult("sync") };
const augmented = (server) => server.sent.filter((r) => r.method === "tools/call").map((r) => [r.params.name, r.params.task]);

test("V25 with the server's capabilities: taskSupport decides (§D 48): required always, optional when asked, forbidden / unlisted never; tools/list read once", async () => {
  const { server, client } = setup({ version: V25, serverCapabilities: TASKS_CALL, ...syncCalls, list: () => ({ tools: TOOLS }) });
  await client.callTool("req", {});
  await client.callTool("req", {}, { task: { ttl: 5000 } });
  await client.callTool("opt", {});
  await client.callTool("opt", {}, { task: { ttl: 7000 } });
  await client.callTool("forb", {}, { task: {} });
  await client.callTool("none", {}, { task: {} });
  await client.callTool("ghost", {}, { task: {} });
  assert.deepEqual(augmented(server), [["req", {}], ["req", { ttl: 5000 }], ["opt", undefined], ["opt", { ttl: 7000 }], ["forb", undefined], ["none", undefined], ["ghost", undefined]]);
  assert.equal(server.count("tools/list"), 1);
  client.close();
});

test("V25 with the server's capabilities: tools/list pages are followed with their opaque cursor", async () => {
  const pages = { "": { tools: TOOLS.slice(0, 1), nextCursor: "c/2" }, "c/2": { tools: TOOLS.slice(1), nextCursor: "c/3" }, "c/3": { tools: [] } };
  const { server, client } = setup({ version: V25, serverCapabilities: TASKS_CALL, ...syncCalls, list: (p) => pages[p.cursor ?? ""] });
  await client.callTool("opt", {}, { task: {} });
  assert.deepEqual(server.sent.filter((r) => r.method === "tools/list").map((r) => r.params.cursor), [undefined, "c/2", "c/3"]);
  assert.deepEqual(augmented(server), [["opt", {}]]);
  client.close();
});

test("V25 with a server without tasks.requests.tools.call: never augmented, even when asked (§D 47, 48); tools/list not read", async () => {
  for (const caps of [{ tools: {} }, { tasks: { list: {}, cancel: {} } }]) {
    const { server, client } = setup({ version: V25, serverCapabilities: caps, ...syncCalls, list: () => ({ tools: TOOLS }) });
    await client.callTool("req", {}, { task: { ttl: 1000 } });
    assert.deepEqual(server.timeline(), ["tools/call@0"]);
    assert.deepEqual(augmented(server), [["req", undefined]]);
    client.close();
  }
});

test("V25: without the server's capabilities, or when tools/list fails, the caller decides (asked → augmented)", async () => {
  const unknown = setup({ version: V25, ...syncCalls });
  await unknown.client.callTool("req", {});
  await unknown.client.callTool("req", {}, { task: {} });
  assert.deepEqual(unknown.server.timeline(), ["tools/call@0", "tools/call@0"], "no tools/list without capabilities");
  assert.deepEqual(augmented(unknown.server), [["req", undefined], ["req", {}]]);
  unknown.client.close();

  const failing = setup({ version: V25, serverCapabilities: TASKS_CALL, ...syncCalls });
  await failing.client.callTool("x", {}, { task: { ttl: 1 } });
  await failing.client.callTool("x", {});
  assert.deepEqual(augmented(failing.server), [["x", { ttl: 1 }], ["x", undefined]]);
  assert.equal(failing.server.count("tools/list"), 1, "the refusal is remembered until the list changes");
  failing.client.close();
});

test("V25: notifications/tools/list_changed makes the next call read tools/list again", async () => {
  let tools = [TOOLS[1]];
  const { server, client } = setup({ version: V25, serverCapabilities: TASKS_CALL, ...syncCalls, list: () => ({ tools }) });
  await client.callTool("opt", {});
  tools = [{ ...TOOLS[1], execution: { taskSupport: "required" } }];
  await client.callTool("opt", {});
  client.notify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
  await client.callTool("opt", {});
  assert.deepEqual(server.timeline(), ["tools/list@0", "tools/call@0", "tools/call@0", "tools/list@0", "tools/call@0"]);
  assert.deepEqual(augmented(server), [["opt", undefined], ["opt", undefined], ["opt", {}]]);
  client.close();
});

test("V25: the server's requests (handleRequest): the handler answers a followed task's elicitation; ping gets {}", async () => {
  const { asked, handlers } = countingHandlers();
  const { clock, server, client } = setup({ version: V25, handlers, gets: [(s) => s.got("input_required"), (s) => s.got("working")] });
  const out = watch(call(client, V25), clock);
  await clock.to(1000);
  const answer = await client.handleRequest({ jsonrpc: "2.0", id: 7, method: "elicitation/create", params: { ...elicit("A?").params, _meta: { [RELATED]: { taskId: server.taskId } } } });
  assert.deepEqual(answer, { action: "accept", content: { v: "answer to A?" } });
  assert.deepEqual(await client.handleRequest({ jsonrpc: "2.0", id: 8, method: "ping" }), {});
  assert.deepEqual(asked, ["A?"]);
  server.done.resolve(server.final("thanks"));
  await clock.to(3000);
  assert.equal(out.value.content[0].text, "thanks");
  client.close();
});

test("V25: a request the client cannot answer (no handler: -32601; the handler throws: -32603) cancels the related task, the call fails with why", async () => {
  const refused = new Error("the user closed the dialog");
  for (const [handlers, code, check] of [
    [{}, -32601, (e) => e instanceof ProtocolError && /no handler/.test(e.message)],
    [{ elicitation: () => { throw refused; } }, -32603, (e) => e === refused],
  ]) {
    const { clock, server, client } = setup({ version: V25, handlers, gets: [(s) => s.got("input_required")] });
    const out = watch(call(client, V25), clock);
    await clock.to(1000);
    const request = { jsonrpc: "2.0", id: 9, method: "elicitation/create", params: { ...elicit("A?").params, _meta: { [RELATED]: { taskId: server.taskId } } } };
    await assert.rejects(client.handleRequest(request), (e) => e.code === code);
    await clock.advance(0);
    assert.deepEqual(server.timeline(), ["tools/call@0", "tasks/get@1000", "tasks/result@1000", "tasks/cancel@1000"]);
    assert.equal(out.state, "rejected");
    assert.ok(check(out.error), String(out.error));
    client.close();
  }
  const lone = setup({ version: V25 });
  await assert.rejects(lone.client.handleRequest({ jsonrpc: "2.0", id: 1, method: "sampling/createMessage", params: sample("hi").params }), (e) => e.code === -32601);
  await assert.rejects(lone.client.handleRequest({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }), (e) => e.code === -32601);
  assert.deepEqual(lone.server.timeline(), [], "no task: nothing to cancel");
  lone.client.close();
});
