// The task handle (TaskClient.startTool → ToolTask, TaskClient.resume) and progress
// (ProgressEvent: every statusMessage change, every notifications/progress of the call):
// - in-process, TaskClient against TaskHost (the server entry) in virtual time, every request
//   recorded;
// - over real HTTP on 127.0.0.1, TaskClient.connect to examples/conformance-server.mjs (a child
//   process, stopped by its PID).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { virtualClock, flush } from "./virtual-clock.mjs";
import { startExample } from "./example-server.mjs";

const { TaskClient, ToolTask, TaskCancelledError } = await import("./.tmp/install/esm.mjs");
const { TaskHost } = await import("./.tmp/install/server.mjs");

const V26 = "2026-07-28";
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const text = (t) => ({ content: [{ type: "text", text: t }] });

/** A client talking to `host` in-process, in virtual time; every request recorded. */
function connect(host, { clock = virtualClock(T0), protocolVersion = V26 } = {}) {
  const sent = [];
  let id = 1;
  const request = async (method, params) => {
    sent.push({ method, params });
    const response = await host.handle({ jsonrpc: "2.0", id: id++, method, params }, { protocolVersion });
    if (response.error) throw Object.assign(new Error(response.error.message), response.error);
    return response.result;
  };
  const client = new TaskClient({ request, protocolVersion, clock });
  return { client, clock, sent, count: (m) => sent.filter((s) => s.method === m).length };
}

function gate() {
  let open;
  const promise = new Promise((r) => (open = r));
  return { promise, open };
}

test("startTool: the task's id at once, status() reads, result() waits for the end", async () => {
  const host = new TaskHost({ store: { pollIntervalMs: 1000 } });
  const release = gate();
  host.tool("slow", {}, async () => {
    await release.promise;
    return text("done");
  });
  const { client, clock, count } = connect(host);
  const task = await client.startTool("slow", {});
  assert.ok(task instanceof ToolTask);
  assert.equal(typeof task.taskId, "string");
  assert.equal(task.done, false, "the handle comes before the result");
  let settled = false;
  task.result().then(() => (settled = true), () => (settled = true));
  const polls = count("tasks/get");
  const now = await task.status();
  assert.equal(now.taskId, task.taskId);
  assert.equal(now.status, "working");
  assert.equal(count("tasks/get"), polls + 1, "status() is a fresh tasks/get");
  await clock.advance(2_000);
  assert.equal(settled, false);
  release.open();
  await clock.advance(1_200);
  assert.equal((await task.result()).content[0].text, "done");
  assert.equal((await task.settle()).content[0].text, "done");
  assert.equal(task.done, true);
  await client.close();
});

test("startTool: a synchronous answer gives a handle already completed", async () => {
  const host = new TaskHost();
  host.tool("now", { taskSupport: "forbidden" }, () => text("at once"));
  const { client, count } = connect(host);
  const task = await client.startTool("now", {});
  assert.equal(task.taskId, null);
  assert.equal((await task.result()).content[0].text, "at once");
  assert.deepEqual(await task.status(), { status: "completed" });
  await task.cancel();
  assert.equal(count("tasks/cancel"), 0);
  assert.equal(count("tasks/get"), 0);
  await client.close();
});

test("cancel() delivers tasks/cancel; result() rejects with TaskCancelledError; status() says cancelled", async () => {
  const host = new TaskHost({ store: { pollIntervalMs: 1000 } });
  let aborted = false;
  host.tool("forever", {}, (_args, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => {
    aborted = true;
    reject(new Error("stopped"));
  })));
  const { client, count, sent } = connect(host);
  const task = await client.startTool("forever", {});
  await task.cancel("enough");
  assert.equal(count("tasks/cancel"), 1);
  assert.equal(sent.find((s) => s.method === "tasks/cancel").params.taskId, task.taskId);
  await assert.rejects(task.result(), (e) => e instanceof TaskCancelledError && e.taskId === task.taskId && e.delivered === true && e.cause === "enough");
  await flush();
  assert.equal(aborted, true, "the tool's work stopped");
  assert.equal((await task.status()).status, "cancelled");
  await client.close();
});

test("resume(taskId) from a second TaskClient follows the task to its result", async () => {
  const host = new TaskHost({ store: { pollIntervalMs: 1000 } });
  const release = gate();
  host.tool("slow", {}, async () => {
    await release.promise;
    return text("picked up");
  });
  const clock = virtualClock(T0);
  const first = connect(host, { clock });
  const started = await first.client.startTool("slow", {});
  await first.client.close(); // the first client goes away; the task runs on
  const second = connect(host, { clock });
  const task = second.client.resume(started.taskId);
  assert.equal(task.taskId, started.taskId);
  assert.equal((await task.status()).status, "working");
  release.open();
  await clock.advance(1_200);
  assert.equal((await task.result()).content[0].text, "picked up");
  assert.ok(second.count("tasks/get") >= 1);
  assert.equal(second.count("tools/call"), 0);
  await second.client.close();
});

test("every statusMessage change is a progress event (onProgress, progress(), events())", async () => {
  const host = new TaskHost({ store: { pollIntervalMs: 1000 } });
  const steps = [gate(), gate(), gate()];
  const finish = gate();
  host.tool("staged", {}, async (_args, ctx) => {
    for (const [i, step] of steps.entries()) {
      await step.promise;
      ctx.setStatusMessage(`step ${i + 1} of ${steps.length}`);
    }
    await finish.promise;
    return text("staged: done");
  });
  const { client, clock } = connect(host);
  const all = [];
  const reading = (async () => {
    for await (const e of client.events()) if (e.type === "statusMessage") all.push(e.message);
  })();
  const seen = [];
  const task = await client.startTool("staged", {}, { onProgress: (e) => seen.push(e) });
  const iterated = [];
  const iterating = (async () => {
    for await (const e of task.progress()) iterated.push(e.message);
  })();
  for (const step of steps) {
    step.open();
    await clock.advance(1_100); // one poll after each change
  }
  finish.open();
  await clock.advance(1_100);
  assert.equal((await task.result()).content[0].text, "staged: done");
  await iterating;
  const expected = ["step 1 of 3", "step 2 of 3", "step 3 of 3"];
  assert.deepEqual(seen.map((e) => e.message), expected);
  for (const e of seen) {
    assert.equal(e.type, "statusMessage");
    assert.equal(e.taskId, task.taskId);
  }
  assert.deepEqual(iterated, expected);
  await client.close();
  await reading;
  assert.deepEqual(all, expected);
});

test("notifications/progress of the call reach onProgress and events(); the call sends a progressToken only when asked", async () => {
  const host = new TaskHost({ store: { pollIntervalMs: 1000 } });
  let client;
  const go = gate();
  const release = gate();
  // The server's side: the tool reports progress against the call's token, as a server sends
  // notifications/progress on its transport (here: straight to the client's notify()).
  host.tool("reporting", {}, async (_args, ctx) => {
    const token = ctx.request.params?._meta?.progressToken;
    if (token !== undefined) {
      await go.promise;
      for (let i = 1; i <= 3; i++) client.notify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: i, total: 3, message: `part ${i}` } });
      // Another call's token is not this call's progress.
      client.notify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "someone-else", progress: 9 } });
    }
    await release.promise;
    return text("reported");
  });
  const c = connect(host);
  client = c.client;
  const all = [];
  const reading = (async () => {
    for await (const e of client.events()) if (e.type === "progress") all.push(e.progress);
  })();
  const seen = [];
  const task = await client.startTool("reporting", {}, { onProgress: (e) => seen.push(e) });
  const token = c.sent.find((s) => s.method === "tools/call").params._meta?.progressToken;
  assert.equal(typeof token, "string", "the call asked for progress");
  go.open();
  await flush();
  release.open();
  await c.clock.advance(1_200);
  assert.equal((await task.result()).content[0].text, "reported");
  assert.deepEqual(seen.filter((e) => e.type === "progress"), [1, 2, 3].map((i) => ({ type: "progress", taskId: task.taskId, status: "working", progress: i, total: 3, message: `part ${i}` })));
  // A call that does not ask sends no token.
  const plain = await client.startTool("reporting", {});
  assert.equal(c.sent.filter((s) => s.method === "tools/call")[1].params._meta?.progressToken, undefined);
  await c.clock.advance(1_200);
  await plain.result();
  await client.close();
  await reading;
  assert.deepEqual(all, [1, 2, 3]);
});

test("callTool({ onProgress }) gets the progress of a synchronous call too", async () => {
  const host = new TaskHost();
  let client;
  host.tool("quick", { taskSupport: "forbidden" }, (_args, ctx) => {
    const token = ctx.request.params?._meta?.progressToken;
    client.notify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 50, total: 100 } });
    return text("quick");
  });
  const c = connect(host);
  client = c.client;
  const seen = [];
  const result = await client.callTool("quick", {}, { onProgress: (e) => seen.push(e) });
  assert.equal(result.content[0].text, "quick");
  assert.deepEqual(seen, [{ type: "progress", taskId: "", status: "working", progress: 50, total: 100 }]);
  await client.close();
});

// ---- over HTTP: the example server -----------------------------------------------------------

let example;
before(async () => {
  example = await startExample();
});
after(() => example?.process.kill());

test("example server: startTool gives the id at once, status(), cancel() delivered, resume() from a second client", async () => {
  const client = await TaskClient.connect(example.url);
  const other = await TaskClient.connect(example.url);
  try {
    const long = await client.startTool("slow_compute", { seconds: 30, label: "long" }, { task: {} });
    assert.equal(typeof long.taskId, "string");
    assert.equal((await long.status()).status, "working");
    await long.cancel();
    await assert.rejects(long.result(), (e) => e instanceof TaskCancelledError && e.delivered === true && e.taskId === long.taskId);
    assert.equal((await long.status()).status, "cancelled");

    const short = await client.startTool("slow_compute", { seconds: 1, label: "resumed" }, { task: {} });
    const picked = other.resume(short.taskId);
    assert.equal((await picked.result()).content[0].text, "resumed: done after 1 s");
    assert.equal((await short.result()).content[0].text, "resumed: done after 1 s");
  } finally {
    await client.close();
    await other.close();
  }
});
