// A running tool's progress (ToolContext.progress, js/server/host.ts): `notifications/progress`
// for the call's `_meta.progressToken`: for a synchronous call of either version on its own
// response stream (HTTP: the POST's answer becomes an SSE stream), and under 2025-11-25 for a task
// while it runs (§A.i; related-task `_meta`, §D 33), over McpHttpServer on 127.0.0.1
// (TaskClient.connect's onProgress hears them) and over McpStdioServer (raw lines); nothing for a
// 2026-07-28 task (§B.h: its setStatusMessage shows in tasks/get instead), without a token, or for
// a value that does not increase.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";

const { McpHttpServer, McpStdioServer, validateMessage } = await import("../.tmp/install/server.mjs");
const { TaskClient } = await import("../.tmp/install/esm.mjs");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const RELATED = "io.modelcontextprotocol/related-task";
const text = (t) => ({ content: [{ type: "text", text: t }] });

/**
 * Reports 1/3, waits for `gate` (the test opens it once the client heard 1/3), then 2/3, a repeat
 * of 2 (dropped), a status message, 3/3 with a message; after it answered, a stray 4 (dropped).
 */
let gate = Promise.resolve();
async function steps(_args, { progress, setStatusMessage }) {
  progress(1, 3);
  await gate;
  progress(2, 3);
  progress(2, 3);
  setStatusMessage("almost done");
  progress(3, 3, "done");
  setTimeout(() => progress(4, 3), 0);
  return text("stepped");
}

/** Sets a status message, waits for `gate` (opened once the client saw it), then answers. */
async function status(_args, { progress, setStatusMessage }) {
  progress(1, 2); // a 2026-07-28 task: a no-op
  setStatusMessage("half way");
  await gate;
  return text("reported");
}

function register(app) {
  app.tool("steps_sync", { taskSupport: "forbidden" }, steps);
  app.tool("steps_task", { taskSupport: "required" }, steps);
  app.tool("status_task", { taskSupport: "required" }, status);
  return app;
}

/** An McpHttpServer with the tools above on 127.0.0.1; `stop` closes it. */
async function httpServer() {
  const app = register(new McpHttpServer({ name: "progress", version: "1" }));
  const server = http.createServer(app.node);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/mcp`;
  const stop = async () => {
    await app.close();
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  };
  return { url, stop };
}

test("McpHttpServer 2025-11-25: a synchronous call and a task send increasing progress for the call's token", async () => {
  const app = register(new McpHttpServer({ name: "progress", version: "1" }));
  const server = http.createServer(app.node);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/mcp`;
  try {
    const client = await TaskClient.connect(url, { protocolVersion: V25 });
    try {
      for (const tool of ["steps_sync", "steps_task"]) {
        const events = [];
        let open;
        gate = new Promise((resolve) => (open = resolve));
        // A task reports on the GET stream (push); a step with no stream open waits for one.
        const onProgress = (e) => {
          events.push(e);
          if (e.type === "progress" && e.progress === 1) open();
        };
        const result = await client.callTool(tool, {}, { onProgress });
        assert.deepEqual(result.content, text("stepped").content, tool);
        const progress = events.filter((e) => e.type === "progress").map(({ progress, total, message }) => ({ progress, total, message }));
        assert.deepEqual(progress, [
          { progress: 1, total: 3, message: undefined },
          { progress: 2, total: 3, message: undefined },
          { progress: 3, total: 3, message: "done" },
        ], `${tool}: ${JSON.stringify(events)}`);
      }
    } finally {
      await client.close();
    }
  } finally {
    await app.close();
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** McpStdioServer over in-memory pipes: `send` writes one line, `lines` holds what it wrote. */
function stdio() {
  const app = register(new McpStdioServer({ name: "progress", version: "1" }));
  const lines = [];
  let push;
  let end;
  const queue = [];
  const readable = {
    [Symbol.asyncIterator]() {
      return {
        next: () =>
          queue.length > 0
            ? Promise.resolve({ done: false, value: queue.shift() })
            : new Promise((resolve) => {
                push = (v) => resolve({ done: false, value: v });
                end = () => resolve({ done: true, value: undefined });
              }),
      };
    },
  };
  let buffered = "";
  const served = app.serve({
    readable,
    write: (bytes) => {
      buffered += new TextDecoder().decode(bytes);
      const parts = buffered.split("\n");
      buffered = parts.pop();
      for (const p of parts) lines.push(JSON.parse(p));
    },
  });
  const send = (message) => {
    const bytes = new TextEncoder().encode(`${JSON.stringify(message)}\n`);
    if (push) {
      const p = push;
      push = undefined;
      p(bytes);
    } else queue.push(bytes);
  };
  const until = async (pred) => {
    for (let i = 0; i < 10_000; i++) {
      const found = lines.find(pred);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 1));
    }
    throw new Error(`not seen; lines: ${JSON.stringify(lines)}`);
  };
  const stop = async () => {
    if (end) end();
    else queue.push(null);
    await app.close();
    await served.catch(() => {});
  };
  return { send, lines, until, stop };
}

test("McpStdioServer 2025-11-25: progress for a synchronous call and a task (related-task _meta); none without a token", async () => {
  const s = stdio();
  try {
    s.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: V25, capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    await s.until((m) => m.id === 1);
    s.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    s.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "steps_sync", arguments: {}, _meta: { progressToken: "sync" } } });
    await s.until((m) => m.id === 2);
    s.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "steps_task", arguments: {}, task: {}, _meta: { progressToken: 7 } } });
    const created = await s.until((m) => m.id === 3);
    const taskId = created.result.task.taskId;
    s.send({ jsonrpc: "2.0", id: 4, method: "tasks/result", params: { taskId } });
    await s.until((m) => m.id === 4);
    s.send({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "steps_sync", arguments: {} } });
    await s.until((m) => m.id === 5);
    await new Promise((r) => setTimeout(r, 5));

    const notes = s.lines.filter((m) => m.method === "notifications/progress");
    for (const n of notes) {
      const r = validateMessage(n, { version: V25 });
      assert.equal(r.valid, true, JSON.stringify(r.issues));
    }
    const of = (token) => notes.filter((n) => n.params.progressToken === token).map((n) => n.params.progress);
    assert.deepEqual(of("sync"), [1, 2, 3]);
    assert.deepEqual(of(7), [1, 2, 3]);
    assert.equal(notes.length, 6, "no progress without a token");
    for (const n of notes.filter((n) => n.params.progressToken === 7)) assert.deepEqual(n.params._meta, { [RELATED]: { taskId } });
    for (const n of notes.filter((n) => n.params.progressToken === "sync")) assert.equal(n.params._meta, undefined);
    const messages = notes.map((n) => n.params.message ?? null);
    assert.deepEqual(messages, [null, null, "done", null, null, "done"]);
  } finally {
    await s.stop();
  }
});

test("McpStdioServer 2026-07-28: progress of a synchronous call before its answer; none for a task (§B.h), whose status message tasks/get shows", async () => {
  const s = stdio();
  try {
    const meta = (token) => ({
      ...(token === undefined ? {} : { progressToken: token }),
      "io.modelcontextprotocol/protocolVersion": V26,
      "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
    });
    s.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "steps_sync", arguments: {}, _meta: meta("t26") } });
    const answer = await s.until((m) => m.id === 1);
    assert.equal(answer.result.content[0].text, "stepped");
    const sync = s.lines.filter((m) => m.method === "notifications/progress");
    assert.deepEqual(sync.map((n) => [n.params.progressToken, n.params.progress, n.params.total, n.params.message ?? null]), [
      ["t26", 1, 3, null],
      ["t26", 2, 3, null],
      ["t26", 3, 3, "done"],
    ]);
    for (const n of sync) {
      assert.equal(n.params._meta, undefined, "no related-task _meta without a task");
      const r = validateMessage(n, { version: V26 });
      assert.equal(r.valid, true, JSON.stringify(r.issues));
    }
    assert.ok(s.lines.indexOf(sync[2]) < s.lines.indexOf(answer), "the progress went out before the answer");

    let open;
    gate = new Promise((resolve) => (open = resolve));
    s.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "status_task", arguments: {}, _meta: meta("task26") } });
    const taskId = (await s.until((m) => m.id === 2)).result.taskId;
    let seen = null;
    for (let i = 3; i < 1000 && seen === null; i++) {
      s.send({ jsonrpc: "2.0", id: i, method: "tasks/get", params: { taskId, _meta: meta() } });
      const got = await s.until((m) => m.id === i);
      if (got.result.statusMessage === "half way") seen = got.result;
    }
    assert.equal(seen?.status, "working");
    open();
    assert.equal(s.lines.filter((m) => m.method === "notifications/progress" && m.params.progressToken === "task26").length, 0);
  } finally {
    await s.stop();
  }
});

test("McpHttpServer 2026-07-28: a synchronous call's progress on the POST's SSE answer (TaskClient hears it); a task's status message instead of progress", async () => {
  const { url, stop } = await httpServer();
  try {
    const client = await TaskClient.connect(url, { protocolVersion: V26 });
    try {
      // On the call's own stream, before its answer: no need to wait for the client.
      gate = Promise.resolve();
      const events = [];
      const result = await client.callTool("steps_sync", {}, { onProgress: (e) => events.push(e) });
      assert.deepEqual(result.content, text("stepped").content);
      assert.deepEqual(events.filter((e) => e.type === "progress").map(({ progress, total, message }) => ({ progress, total, message })), [
        { progress: 1, total: 3, message: undefined },
        { progress: 2, total: 3, message: undefined },
        { progress: 3, total: 3, message: "done" },
      ], JSON.stringify(events));

      // A task: progress() sends nothing (§B.h); setStatusMessage shows in tasks/get.
      let open;
      gate = new Promise((resolve) => (open = resolve));
      const taskEvents = [];
      const done = await client.callTool("status_task", {}, {
        onProgress: (e) => {
          taskEvents.push(e);
          if (e.type === "statusMessage" && e.message === "half way") open();
        },
      });
      assert.deepEqual(done.content, text("reported").content);
      assert.deepEqual(taskEvents.filter((e) => e.type === "progress"), []);
      assert.ok(taskEvents.some((e) => e.type === "statusMessage" && e.message === "half way" && typeof e.taskId === "string"), JSON.stringify(taskEvents));
    } finally {
      await client.close();
    }

    // Without Accept: text/event-stream the same call is answered as one JSON body.
    const res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", "Mcp-Method": "tools/call", "Mcp-Name": "steps_sync", "MCP-Protocol-Version": V26 },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "steps_sync",
          arguments: {},
          _meta: { progressToken: 5, "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": {} },
        },
      }),
    });
    assert.equal(res.headers.get("content-type")?.startsWith("application/json"), true);
    assert.equal((await res.json()).result.content[0].text, "stepped");
  } finally {
    await stop();
  }
});
