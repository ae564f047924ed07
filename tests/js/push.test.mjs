// Push (docs/decisions/push.md), in one process: McpHttpServer serves 2026-07-28
// `subscriptions/listen` with
// `notifications.taskIds` (acknowledgement, then `notifications/tasks` with the DetailedTask on
// every change, §B.h, §D 74, 79, 96) and keeps 2025-11-25 `notifications/tasks/status` on the
// session's GET stream (§D 43); TaskClient.connect subscribes when the server offers it and
// polls only as a backstop. Through the installed package (scripts/pack.sh), over real HTTP on
// 127.0.0.1. The wire is recorded by the client's fetch (every request sent, every message read
// from JSON answers and event streams): `tasks/get` requests are counted there, and every message
// goes through Conversation with no error-level issue. No timing thresholds: counts only.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
// The classes' internal tables and bounds, read through their deliberate test hook
// (`@internal`, absent from the typings: js/core/internals.ts).
const internals = (o) => o[Symbol.for("mcp-tasks-wasm.internals")]();

const { McpHttpServer } = await import("./.tmp/install/server.mjs");
const { TaskClient, TaskCancelledError, Conversation } = await import("./.tmp/install/esm.mjs");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

const elicit = (message) => ({
  method: "elicitation/create",
  params: { mode: "form", message, requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } },
});
const text = (t) => ({ content: [{ type: "text", text: t }] });
const yes = async () => ({ action: "accept", content: { ok: true } });

let app;
let server;
let url;
/** Gates the `gated` tool waits on, by label (the test opens them). */
const gates = new Map();
const gate = (label) => {
  if (!gates.has(label)) {
    let open;
    const p = new Promise((r) => (open = r));
    gates.set(label, { p, open });
  }
  return gates.get(label);
};

before(async () => {
  app = new McpHttpServer({ name: "push-test", version: "1.0.0", keepAliveMs: 0 });
  // working (1.2 s) → input_required → working (1.2 s) → completed: long enough for polls.
  app.tool("steps", { taskSupport: "required" }, async ({ label }, { requestInput, signal }) => {
    await sleep(1200, undefined, { signal });
    const { q } = await requestInput({ q: elicit(`Go on with ${label}?`) }, "asking");
    await sleep(1200, undefined, { signal });
    return text(`${label}: ${q.action}`);
  });
  // Runs until the test opens its gate (or the task is cancelled).
  app.tool("gated", { taskSupport: "required" }, async ({ label }, { signal }) => {
    await Promise.race([gate(label).p, new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }))]);
    return text(`${label}: opened`);
  });
  server = http.createServer(app.node);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${server.address().port}/mcp`;
});
after(async () => {
  await app?.close();
  server?.closeAllConnections?.();
  await new Promise((resolve) => server?.close(resolve));
});

/**
 * A fetch that records the wire: every JSON-RPC message sent, and every one read back (JSON
 * bodies, SSE events). `cut()` errors the open push streams (listen POSTs, GET streams), as a
 * dropped connection would.
 */
function wire() {
  const log = [];
  const streams = new Set();
  const record = (from, m) => {
    for (const x of Array.isArray(m) ? m : [m]) log.push({ from, message: x });
  };
  const f = async (input, init) => {
    const body = init.body ? JSON.parse(init.body) : null;
    if (body) record("client", body);
    const res = await fetch(input, init);
    const type = res.headers.get("content-type") ?? "";
    if (type.startsWith("application/json")) {
      const t = await res.clone().text();
      if (t) record("server", JSON.parse(t));
      return res;
    }
    if (!type.startsWith("text/event-stream") || !res.body) return res;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    let controller;
    const push = body?.method === "subscriptions/listen" || init.method === "GET";
    const entry = {
      cut: () => {
        try {
          controller.error(new Error("cut by the test"));
        } catch {}
        reader.cancel().catch(() => {});
      },
    };
    if (push) streams.add(entry);
    const out = new ReadableStream({
      start(c) {
        controller = c;
      },
      async pull(c) {
        let r;
        try {
          r = await reader.read();
        } catch (e) {
          streams.delete(entry);
          try {
            c.error(e);
          } catch {}
          return;
        }
        if (r.done) {
          streams.delete(entry);
          try {
            c.close();
          } catch {}
          return;
        }
        buffer += decoder.decode(r.value, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart());
          if (data.length > 0) record("server", JSON.parse(data.join("\n")));
        }
        try {
          c.enqueue(r.value);
        } catch {}
      },
      cancel(reason) {
        streams.delete(entry);
        return reader.cancel(reason);
      },
    });
    return new Response(out, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return {
    fetch: f,
    log,
    sent: (method) => log.filter((e) => e.from === "client" && e.message.method === method).length,
    received: (method) => log.filter((e) => e.from === "server" && e.message.method === method).map((e) => e.message),
    cut: () => {
      for (const s of [...streams]) s.cut();
      streams.clear();
    },
    openStreams: () => streams.size,
  };
}

/** Every message of `w` through one Conversation of `version`: no error-level issue. */
function assertCleanWire(w, version) {
  const conv = new Conversation({ version });
  const errors = [];
  for (const [i, e] of w.log.entries()) {
    const r = conv.observe(e.message, { from: e.from });
    for (const issue of r.issues) if (issue.severity === "error") errors.push({ i, from: e.from, issue, message: e.message });
  }
  for (const t of conv.tasks()) for (const issue of t.issues) if (issue.severity === "error") errors.push({ task: t.taskId, issue });
  conv.free();
  assert.deepEqual(errors, [], JSON.stringify(errors, null, 1).slice(0, 4000));
}

/** Calls `steps` with a client of `version` and returns what it saw. */
async function runSteps(version, push, label) {
  const w = wire();
  const client = await TaskClient.connect(url, { protocolVersion: version, fetch: w.fetch, handlers: { elicitation: yes }, push });
  const statuses = [];
  let pushedMidway = false;
  const seen = (async () => {
    for await (const e of client.events()) {
      if (e.type !== "taskStatus") continue;
      statuses.push(e.status);
      // Whether the task counted as pushed at its last status change (`working` after input).
      pushedMidway = client.pushed(e.taskId);
    }
  })();
  try {
    const result = await client.callTool("steps", { label }, { task: {} });
    assert.equal(result.content[0].text, `${label}: accept`);
  } finally {
    await client.close();
    await seen;
  }
  return { w, statuses, pushedMidway };
}

for (const version of [V26, V25]) {
  test(`${version}: a subscribed client sees every status change with fewer tasks/get than a polling one`, async (t) => {
    const polled = await runSteps(version, false, "poll");
    const pushed = await runSteps(version, true, "push");
    // Push: every change, in order (polling may miss some; here it is only counted).
    assert.deepEqual(pushed.statuses, ["working", "input_required", "working"]);
    assert.equal(pushed.pushedMidway, true, "the task was pushed while it ran");
    const polls = polled.w.sent("tasks/get");
    const pushes = pushed.w.sent("tasks/get");
    assert.ok(polls > 0, "the polling client polled");
    assert.ok(pushes < polls, `push sent ${pushes} tasks/get, polling ${polls}`);
    t.diagnostic(`tasks/get: ${polls} polling, ${pushes} with push; HTTP requests: ${polled.w.log.filter((e) => e.from === "client").length} polling, ${pushed.w.log.filter((e) => e.from === "client").length} with push`);
    if (version === V26) {
      assert.equal(pushed.w.sent("subscriptions/listen"), 1);
      const [ack] = pushed.w.received("notifications/subscriptions/acknowledged");
      assert.equal(ack.params.notifications.taskIds.length, 1);
      const notes = pushed.w.received("notifications/tasks");
      assert.deepEqual(runs(notes.map((n) => n.params.status)), ["working", "input_required", "working", "completed"]);
      for (const n of notes) assert.equal(typeof n.params._meta[SUBSCRIPTION_ID], "number");
      assert.equal(notes.at(-1).params.result.content[0].text, "push: accept", "the complete DetailedTask");
      assert.equal(polled.w.sent("subscriptions/listen"), 0);
    } else {
      const notes = pushed.w.received("notifications/tasks/status");
      assert.deepEqual(runs(notes.map((n) => n.params.status)), ["input_required", "working", "completed"]);
      assert.equal(pushed.w.log.filter((e) => e.from === "client" && e.message.method === undefined && e.message.id !== undefined).length >= 1, true, "the client answered the elicitation");
    }
    assertCleanWire(polled.w, version);
    assertCleanWire(pushed.w, version);
  });

  test(`${version}: a task cancelled elsewhere reaches the subscribed client by push`, async () => {
    const w = wire();
    const client = await TaskClient.connect(url, { protocolVersion: version, fetch: w.fetch });
    const label = `cancel-${version}`;
    try {
      const events = client.events();
      const call = client.callTool("gated", { label }, { task: {} });
      let taskId;
      for await (const e of events) if (e.type === "taskCreated" && (taskId = e.taskId)) break;
      // 2026: subscribed once acknowledged; 2025: once the GET stream is open (the task counts
      // as pushed only after a first notification: this cancel is it).
      if (version === V26) await waitPushed(client, taskId);
      else await waitUntil(() => internals(client).push.session?.alive === true, "the GET stream is open");
      const polledBefore = w.sent("tasks/get");
      // The cancel comes from the same caller's connection, outside the TaskClient.
      await client.connection.request("tasks/cancel", { taskId });
      await assert.rejects(call, TaskCancelledError);
      if (version === V26) {
        assert.equal(w.sent("tasks/get"), polledBefore, "no poll: the cancel was pushed");
        assert.equal(w.received("notifications/tasks").at(-1).params.status, "cancelled");
      } else {
        assert.equal(w.received("notifications/tasks/status").at(-1).params.status, "cancelled");
      }
    } finally {
      await client.close();
    }
    assertCleanWire(w, version);
  });

  test(`${version}: the push stream dropping mid-task falls back to polling, and the task completes`, async () => {
    const w = wire();
    const client = await TaskClient.connect(url, { protocolVersion: version, fetch: w.fetch, handlers: { elicitation: yes } });
    const label = `drop-${version}`;
    try {
      const events = client.events();
      const call = client.callTool("steps", { label }, { task: {} });
      let taskId;
      for await (const e of events) {
        if (e.type === "taskCreated") taskId = e.taskId;
        if (e.type === "taskStatus" && e.status === "input_required") break;
      }
      await waitPushed(client, taskId);
      const before = w.sent("tasks/get");
      assert.ok(w.openStreams() > 0);
      w.cut();
      const result = await call;
      assert.equal(result.content[0].text, `${label}: accept`);
      assert.ok(w.sent("tasks/get") > before, "polled after the stream dropped");
    } finally {
      await client.close();
    }
    assertCleanWire(w, version);
  });
}

/** Waits until `ok()` (checked every 5 ms, at most 2,000 times). */
async function waitUntil(ok, what) {
  for (let i = 0; i < 2000 && !ok(); i++) await sleep(5);
  assert.equal(ok(), true, what);
}

const waitPushed = (client, taskId) => waitUntil(() => client.pushed(taskId), `task ${taskId} is pushed`);

/** `xs` with runs of equal values collapsed. */
const runs = (xs) => xs.filter((x, i) => i === 0 || xs[i - 1] !== x);

// ---- refusals ------------------------------------------------------------------------------------

/** POSTs one 2026-07-28 request with its standard headers. */
async function post26(method, params, { declare = true, accept = "application/json, text/event-stream" } = {}) {
  const caps = declare ? { extensions: { [EXT]: {} } } : {};
  const body = { jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": caps } } };
  return fetch(url, { method: "POST", headers: { "Content-Type": "application/json", Accept: accept, "MCP-Protocol-Version": V26, "Mcp-Method": method }, body: JSON.stringify(body) });
}

/** The first SSE message of `res`; the stream is closed after it. */
async function firstMessage(res) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the stream ended");
      buffer += decoder.decode(value, { stream: true });
      const end = buffer.indexOf("\n\n");
      if (end === -1) continue;
      const data = buffer.slice(0, end).split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart());
      return JSON.parse(data.join("\n"));
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

test("2026-07-28: subscribing to a task of a 2025-11-25 session, or to an unknown id, is refused; -32021 without the extension; -32602 for bad ids", async () => {
  // A task of a 2025-11-25 session (not visible to a sessionless caller, §D 38).
  const w = wire();
  const owner = await TaskClient.connect(url, { protocolVersion: V25, fetch: w.fetch });
  const label = "foreign";
  try {
    const events = owner.events();
    const call = owner.callTool("gated", { label }, { task: {} });
    let taskId;
    for await (const e of events) if (e.type === "taskCreated" && (taskId = e.taskId)) break;
    const res = await post26("subscriptions/listen", { notifications: { taskIds: [taskId, "0123456789abcdef0123456789abcdef"] } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type"), /^text\/event-stream/);
    const ack = await firstMessage(res);
    assert.equal(ack.method, "notifications/subscriptions/acknowledged");
    assert.deepEqual(ack.params.notifications.taskIds, [], "neither the foreign nor the unknown task is accepted");
    gate(label).open();
    await call;
  } finally {
    await owner.close();
  }
  const undeclared = await post26("subscriptions/listen", { notifications: { taskIds: ["x"] } }, { declare: false });
  assert.equal(undeclared.status, 400);
  const e1 = await undeclared.json();
  assert.equal(e1.error.code, -32021, "§D 79");
  assert.deepEqual(e1.error.data.requiredCapabilities, { extensions: { [EXT]: {} } });
  const bad = await post26("subscriptions/listen", { notifications: { taskIds: [1, 2] } });
  assert.equal((await bad.json()).error.code, -32602, "§D 74");
  const noSse = await post26("subscriptions/listen", { notifications: { taskIds: ["x"] } }, { accept: "application/json" });
  assert.equal(noSse.status, 406);
  assertCleanWire(w, V25);
});

test("2025-11-25: another session's GET stream carries no status of this session's task", async () => {
  const w = wire();
  const owner = await TaskClient.connect(url, { protocolVersion: V25, fetch: w.fetch, handlers: { elicitation: yes } });
  const other = await TaskClient.connect(url, { protocolVersion: V25, push: false });
  // The other session's GET stream, read by hand.
  const res = await fetch(url, { method: "GET", headers: { Accept: "text/event-stream", "Mcp-Session-Id": other.connection.sessionId, "MCP-Protocol-Version": V25 } });
  assert.equal(res.status, 200);
  try {
    const result = await owner.callTool("steps", { label: "mine" }, { task: {} });
    assert.equal(result.content[0].text, "mine: accept");
    assert.ok(w.received("notifications/tasks/status").length >= 2, "the owner's session got its notifications");
    // A tool registered now is announced on every GET stream: the first message the other
    // session's stream carries is that one, not a status of the owner's task.
    app.tool("late", {}, () => text("late"));
    const first = await firstMessage(res);
    assert.equal(first.method, "notifications/tools/list_changed");
  } finally {
    await owner.close();
    await other.close();
  }
  assertCleanWire(w, V25);
});

test("2026-07-28: a listen without `notifications` is -32602; closing the server ends a listen with its result (§B.h)", async () => {
  const missing = await post26("subscriptions/listen", {});
  assert.equal((await missing.json()).error.code, -32602);
  // A server of its own, called through its fetch handler (no socket).
  const own = new McpHttpServer({ name: "closing", version: "1.0.0", keepAliveMs: 0 });
  own.tool("forever", { taskSupport: "required" }, (_a, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))));
  const meta = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };
  const call = (id, method, params, name) =>
    own.fetch(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": V26, "Mcp-Method": method, ...(name ? { "Mcp-Name": name } : {}) },
        body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } }),
      }),
    );
  const created = (await (await call(1, "tools/call", { name: "forever", arguments: {} }, "forever")).json()).result;
  assert.equal(created.resultType, "task");
  const res = await call(2, "subscriptions/listen", { notifications: { taskIds: [created.taskId], toolsListChanged: true } });
  const text = res.text(); // read to the end: the stream ends when the server closes
  await own.close();
  const messages = (await text)
    .split("\n\n")
    .map((e) => e.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n"))
    .filter((d) => d !== "")
    .map((d) => JSON.parse(d));
  assert.deepEqual(
    messages.map((m) => m.method ?? "result"),
    ["notifications/subscriptions/acknowledged", "notifications/tasks", "result"],
  );
  assert.deepEqual(messages[0].params.notifications, { taskIds: [created.taskId] }, "toolsListChanged is not served: left out");
  assert.equal(messages[1].params.status, "working");
  assert.equal(messages[2].id, 2);
  assert.equal(messages[2].result.resultType, "complete");
  assert.equal(messages[2].result._meta[SUBSCRIPTION_ID], 2);
  const conv = new Conversation({ version: V26 });
  for (const m of messages) for (const i of conv.observe(m, { from: "server" }).issues) assert.notEqual(i.severity, "error", JSON.stringify(i));
  conv.free();
});

test("push option: a bad backstopMs is a TypeError before anything is sent; a good one is taken", async () => {
  const w = wire();
  await assert.rejects(TaskClient.connect(url, { fetch: w.fetch, push: { backstopMs: -1 } }), TypeError);
  assert.equal(w.log.length, 0);
  const client = await TaskClient.connect(url, { fetch: w.fetch, push: { backstopMs: 60_000 } });
  try {
    assert.equal(internals(client).push.backstopMs, 60_000);
  } finally {
    await client.close();
  }
});
