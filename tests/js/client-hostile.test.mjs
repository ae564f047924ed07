// TaskClient against hostile or failing servers (docs/decisions/hostile-input.md), from the packed
// package, the server
// side being the package's own TaskHost in the same process (its answers tampered where a case
// needs a lying server):
// - a `tasks/get` answer about another task (other taskId, same createdAt) is a
//   ProtocolError, never that task's result (§D 34);
// - a `pollIntervalMs` or `retryAfterMs` of 2^31 ms or more never reaches setTimeout
//   (node's mock timers fire such a delay after 1 ms, as real ones do): no wake-up storm;
// - `restore` of a state that does not add up is refused with a TypeError naming the
//   field, before any request;
// - a cancel that never reached the server is reported as not delivered (after retries),
//   never as `cancelled`.
import { test, mock } from "node:test";
import assert from "node:assert/strict";
import { flush, virtualClock } from "./virtual-clock.mjs";
// The classes' internal tables and bounds, read through their deliberate test hook
// (`@internal`, absent from the typings: js/core/internals.ts).
const internals = (o) => o[Symbol.for("mcp-tasks-wasm.internals")]();

const { TaskClient, TaskCancelledError, ProtocolError } = await import("./.tmp/install/esm.mjs");
const { TaskHost } = await import("./.tmp/install/server.mjs");

const V26 = "2026-07-28";
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const MAX_TIMER_MS = 2 ** 31 - 1;

const text = (t) => ({ content: [{ type: "text", text: t }] });

/**
 * A request function to `host` (V26, no session) that records `{ method, params }` and lets the
 * test rewrite an exchange: `tamper(method, params, send)` answers instead (send = the real one).
 */
function wire(host, { tamper } = {}) {
  const sent = [];
  let id = 1;
  const send = async (method, params) => {
    const response = await host.handle({ jsonrpc: "2.0", id: id++, method, params }, { protocolVersion: V26 });
    assert.ok(response, `${method}: the host did not answer`);
    if (response.error) throw Object.assign(new Error(response.error.message), response.error);
    return response.result;
  };
  const request = async (method, params) => {
    sent.push({ method, params });
    return tamper ? tamper(method, params, send) : send(method, params);
  };
  return { request, sent, count: (m) => sent.filter((s) => s.method === m).length };
}

function gate() {
  let open;
  const promise = new Promise((r) => (open = r));
  return { promise, open };
}

// ---- an answer about another task ---------------------------------------------------------------

test("a tasks/get answer about another task (same createdAt) is a ProtocolError, not that task's result (§D 34)", async () => {
  const now = T0;
  const host = new TaskHost({ now: () => now });
  const hold = gate();
  host.tool("mine", {}, async () => {
    await hold.promise;
    return text("my result");
  });
  host.tool("theirs", {}, () => text("THEIR result"));
  const direct = wire(host);
  const theirs = await direct.request("tools/call", { name: "theirs", arguments: {}, _meta: { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } } });
  await host.idle();
  // The lying server answers every tasks/get with the other task (created at the same instant).
  const lying = wire(host, { tamper: (method, params, send) => (method === "tasks/get" ? send(method, { ...params, taskId: theirs.taskId }) : send(method, params)) });
  const clock = virtualClock(T0);
  const client = new TaskClient({ request: lying.request, protocolVersion: V26, clock });
  const events = [];
  (async () => {
    for await (const e of client.events()) events.push(e);
  })();
  const call = client.callTool("mine", {});
  call.catch(() => {});
  await clock.advance(5_000);
  await assert.rejects(call, (e) => {
    assert.ok(e instanceof ProtocolError, String(e));
    assert.match(e.message, /another task/);
    assert.notEqual(e.taskId, theirs.taskId);
    assert.equal(e.result.taskId, theirs.taskId);
    return true;
  });
  assert.ok(lying.count("tasks/get") >= 1);
  assert.equal(events.some((e) => e.type === "result"), false, "never completed with the other task's result");
  hold.open();
  client.close();
  await host.close();
});

// ---- delays past what timers hold ---------------------------------------------------------------

/**
 * Runs `body` with node's mock timers (setTimeout and Date; a delay of 2^31 ms or more fires
 * after 1 ms there, as in real timers) and every setTimeout delay recorded.
 */
async function withMockTimers(body) {
  mock.timers.enable({ apis: ["setTimeout", "Date"], now: T0 });
  const mocked = globalThis.setTimeout;
  const delays = [];
  globalThis.setTimeout = (fn, ms, ...rest) => {
    delays.push(ms);
    return mocked(fn, ms, ...rest);
  };
  try {
    await body(delays);
  } finally {
    globalThis.setTimeout = mocked;
    mock.timers.reset();
  }
}

/** Moves the mocked time `steps` × 1 ms, letting promise callbacks run after each. */
async function tickMs(steps) {
  for (let i = 0; i < steps; i++) {
    mock.timers.tick(1);
    await new Promise((r) => setImmediate(r));
  }
}

test("a pollIntervalMs of 2^40 ms gives no wake-up storm: every delay handed to setTimeout is at most 2^31-1 ms, re-armed until due", async () => {
  await withMockTimers(async (delays) => {
    const host = new TaskHost({ now: () => Date.now(), store: { pollIntervalMs: null, defaultTtlMs: null, maxTtlMs: null } });
    const hold = gate();
    host.tool("long", {}, async () => {
      await hold.promise;
      return text("x");
    });
    const huge = 2 ** 40;
    const w = wire(host, {
      tamper: async (method, params, send) => {
        const result = await send(method, params);
        if (result && typeof result === "object" && typeof result.taskId === "string") result.pollIntervalMs = huge;
        return result;
      },
    });
    const client = new TaskClient({ request: w.request, protocolVersion: V26 });
    const call = client.callTool("long", {});
    call.catch(() => {});
    await flush();
    assert.equal(w.count("tools/call"), 1);
    const before = delays.length;
    await tickMs(2_000); // two seconds of 1 ms steps
    const wakeUps = delays.length - before;
    assert.ok(wakeUps <= 2, `${wakeUps} timers armed in 2 s (a storm is one per ms)`);
    assert.ok(delays.every((d) => d <= MAX_TIMER_MS), `delays: ${delays.filter((d) => d > MAX_TIMER_MS)}`);
    assert.equal(w.count("tasks/get"), 0, "not polled before its interval");
    // A clamped timer that fires early is re-armed, not taken as the wake-up.
    const armed = delays.length;
    mock.timers.tick(MAX_TIMER_MS);
    await flush();
    assert.ok(delays.length > armed, "re-armed after 2^31-1 ms");
    assert.equal(w.count("tasks/get"), 0, "still not due");
    assert.ok(delays.every((d) => d <= MAX_TIMER_MS));
    await client.close();
    hold.open();
    await host.close();
  });
});

test("a retryAfterMs of 2^31 ms or more on a failed tasks/get gives no wake-up storm either", async () => {
  await withMockTimers(async (delays) => {
    const host = new TaskHost({ now: () => Date.now(), store: { pollIntervalMs: 1000, defaultTtlMs: null, maxTtlMs: null } });
    const hold = gate();
    host.tool("long", {}, async () => {
      await hold.promise;
      return text("x");
    });
    const w = wire(host, {
      tamper: (method, params, send) => {
        if (method === "tasks/get") return Promise.reject(Object.assign(new Error("busy"), { retryAfterMs: 2 ** 31 + 5 }));
        return send(method, params);
      },
    });
    const client = new TaskClient({ request: w.request, protocolVersion: V26 });
    const call = client.callTool("long", {});
    call.catch(() => {});
    await flush();
    await tickMs(1_100); // the first poll is due after 1 s; it fails with the huge hint
    assert.equal(w.count("tasks/get"), 1);
    const before = delays.length;
    await tickMs(2_000);
    assert.ok(delays.length - before <= 2, `${delays.length - before} timers armed in 2 s`);
    assert.equal(w.count("tasks/get"), 1, "not polled again before the hint");
    assert.ok(delays.every((d) => d <= MAX_TIMER_MS));
    await client.close();
    hold.open();
    await host.close();
  });
});

// ---- a restore that does not add up -------------------------------------------------------------

/** A real state: a client following one running task (its call's `options`), serialized. */
async function realState(options = {}) {
  const host = new TaskHost();
  const hold = gate();
  host.tool("long", {}, async () => {
    await hold.promise;
    return text("x");
  });
  const w = wire(host);
  const clock = virtualClock(T0);
  const client = new TaskClient({ request: w.request, protocolVersion: V26, clock });
  const call = client.callTool("long", {}, options);
  call.catch(() => {});
  await clock.advance(1_500);
  const state = client.serialize();
  client.close();
  hold.open();
  await host.close();
  return state;
}

test("restore refuses a state that does not add up with a TypeError naming the field, before any request", async () => {
  const good = await realState();
  assert.equal(good.tasks.length, 1);
  const id = good.tasks[0].taskId;
  const rowIndex = good.scheduler.tasks.findIndex((r) => r[0] === id);
  assert.ok(rowIndex >= 0);
  const tampered = (f) => {
    const s = structuredClone(good);
    f(s);
    return s;
  };
  const cases = [
    ["unknown format", tampered((s) => (s.format = "mcp-tasks-wasm/client/9")), /format/],
    ["version", tampered((s) => (s.protocolVersion = "1999-01-01")), /protocolVersion/],
    ["tasks not an array", tampered((s) => (s.tasks = {})), /tasks/],
    ["task id a number", tampered((s) => (s.tasks[0].taskId = 42)), /tasks\[0\]\.taskId/],
    ["task id empty", tampered((s) => (s.tasks[0].taskId = "")), /tasks\[0\]\.taskId/],
    ["duplicate ids", tampered((s) => s.tasks.push({ ...s.tasks[0] })), /tasks\[1\]\.taskId.*twice/],
    ["answered not strings", tampered((s) => (s.tasks[0].answered = [1])), /tasks\[0\]\.answered/],
    ["createdAt not a time", tampered((s) => (s.tasks[0].createdAt = "yesterday")), /tasks\[0\]\.createdAt/],
    ["row finished while listed", tampered((s) => (s.scheduler.tasks[rowIndex][4] = 2)), /finished in scheduler\.tasks/],
    ["a due of 2^53", tampered((s) => (s.scheduler.tasks[rowIndex][5] = 2 ** 53)), /dueAt/],
    ["a due past the last Date", tampered((s) => (s.scheduler.tasks[rowIndex][5] = 8.64e15 + 1)), /dueAt/],
    ["a deadline of 2^60", tampered((s) => (s.scheduler.tasks[rowIndex][10] = 2 ** 60)), /deadline/],
    ["a lastUpdatedAt past the last Date", tampered((s) => (s.scheduler.tasks[rowIndex][8] = 8.64e15 + 1)), /tasks\[0\]: lastUpdatedAt is 8640000000000001, past the latest time/],
    ["an expiresAt past the last Date", tampered((s) => (s.scheduler.tasks[rowIndex][9] = 8.64e15 + 1)), /tasks\[0\]: expiresAt is 8640000000000001, past the latest time/],
    ["a phase out of range", tampered((s) => (s.scheduler.tasks[rowIndex][4] = 3)), /phase is out of range/],
    ["no scheduler row", tampered((s) => s.scheduler.tasks.splice(rowIndex, 1)), /no row in scheduler\.tasks/],
    ["scheduler row listed twice", tampered((s) => s.scheduler.tasks.push([...s.scheduler.tasks[rowIndex]])), /twice/],
    ["scheduler clock", tampered((s) => (s.scheduler.clock = -1)), /scheduler: .*clock is -1, not a time in ms/],
    ["scheduler clock past the last Date", tampered((s) => (s.scheduler.clock = 8.64e15 + 1)), /scheduler: .*clock is 8640000000000001/],
    ["scheduler format", tampered((s) => (s.scheduler.format = "x")), /scheduler: .*format/],
  ];
  for (const [what, state, pattern] of cases) {
    let requests = 0;
    const request = async () => {
      requests++;
      return {};
    };
    for (const form of [state, JSON.stringify(state)]) {
      assert.throws(() => TaskClient.restore(form, { request }), (e) => {
        assert.ok(e instanceof TypeError, `${what}: ${e}`);
        assert.match(e.message, pattern, what);
        return true;
      });
    }
    assert.equal(requests, 0, `${what}: nothing was sent`);
  }
  assert.throws(() => TaskClient.restore("{not json", { request: async () => ({}) }), /not JSON/);
  // The untampered state restores and lists its task.
  const restored = TaskClient.restore(JSON.stringify(good), { request: async () => ({}) });
  assert.deepEqual(restored.pending(), [id]);
  restored.close();
});

test("a call whose timeout ends past the last Date restores from its own state", async () => {
  // The deadline (now + timeoutMs) lies beyond the scheduler's time range: it never comes, and
  // the saved state holds times a Date holds (docs/decisions/scheduler-time.md).
  const state = await realState({ timeoutMs: 9e15 });
  const row = state.scheduler.tasks[0];
  for (const v of row.slice(1)) assert.ok(v === null || v <= 8.64e15, JSON.stringify(row));
  const restored = TaskClient.restore(state, { request: async () => ({}) });
  assert.deepEqual(restored.pending(), [state.tasks[0].taskId]);
  restored.close();
});

// ---- a cancel that was not delivered ------------------------------------------------------------

/** A client whose `tasks/cancel` fails in transport `failures` times (then reaches the server). */
async function cancelScenario(failures) {
  const host = new TaskHost();
  host.tool("wait", {}, (_args, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))));
  let failed = 0;
  const w = wire(host, {
    tamper: (method, params, send) => {
      if (method === "tasks/cancel" && failed < failures) {
        failed++;
        return Promise.reject(new TypeError("fetch failed (connection refused)"));
      }
      return send(method, params);
    },
  });
  const clock = virtualClock(T0);
  const client = new TaskClient({ request: w.request, protocolVersion: V26, clock });
  const events = [];
  (async () => {
    for await (const e of client.events()) events.push(e.type === "error" ? `error:${e.error.delivered === false ? "cancelFailed" : e.error.name}` : e.type);
  })();
  const ac = new AbortController();
  const call = client.callTool("wait", {}, { signal: ac.signal });
  call.catch(() => {});
  await clock.advance(100);
  ac.abort();
  await clock.advance(10_000);
  const outcome = await call.then(
    () => null,
    (e) => e,
  );
  return { outcome, events, count: w.count, host, client };
}

test("a cancel that never reaches the server is retried, then reported as not delivered: TaskCancelledError delivered false (its `error` event too), never cancelled; `cause` is the abort reason", async () => {
  const { outcome, events, count, host, client } = await cancelScenario(Infinity);
  assert.ok(outcome instanceof TaskCancelledError, String(outcome));
  assert.equal(outcome.delivered, false);
  assert.match(outcome.message, /not delivered/);
  assert.doesNotMatch(outcome.message, /was cancelled/);
  assert.match(String(outcome.deliveryError?.message), /connection refused/);
  assert.equal(outcome.cause?.name, "AbortError", "the signal's reason (the default one: a DOMException AbortError)");
  assert.equal(count("tasks/cancel"), 3, "sent 3 times (2 retries)");
  assert.ok(events.includes("error:cancelFailed"), events.join(", "));
  assert.equal(events.includes("error:TaskCancelledError"), false, events.join(", "));
  // The task really is still running on the server.
  assert.equal(internals(host).running.size, 1);
  client.close();
  await host.close();
});

test("a cancel that fails once and then reaches the server is delivered: cancelled", async () => {
  const { outcome, events, count, host, client } = await cancelScenario(1);
  assert.ok(outcome instanceof TaskCancelledError);
  assert.equal(outcome.delivered, true);
  assert.match(outcome.message, /was cancelled/);
  assert.equal(count("tasks/cancel"), 2);
  assert.ok(events.includes("error:TaskCancelledError"));
  assert.equal(events.includes("error:cancelFailed"), false);
  await host.idle();
  assert.equal(internals(host).running.size, 0, "the work was aborted on the server");
  client.close();
  await host.close();
});
