// The 2025-11-25 receiver of a TaskClient (`receiver: { tasks: true }`): a server, as requestor,
// sends task-augmented `elicitation/create` and `sampling/createMessage` to the client and polls
// them with `tasks/get|result|list|cancel` over the same connection. The server here is a small
// raw JSON-RPC one on node:http (127.0.0.1, port 0): no server of ours sends task-augmented input
// requests. It sends its requests on the SSE answer of a `tools/call`, records every message both
// ways, and the recorded traffic is fed to the package's `Conversation` checker.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";

// The receiver keeps its tasks in the task store core, which is in the server entry's module:
// its TaskClient is the main entry's (one copy), given that module.
const { TaskClient, Conversation } = await import("./.tmp/install/server.mjs");

const V25 = "2025-11-25";
const RELATED = "io.modelcontextprotocol/related-task";

/**
 * A 2025-11-25 server whose `tools/call` answers on an SSE stream after running `script(ask)`:
 * `ask(method, params)` sends a request to the client on that stream and resolves with its JSON-RPC
 * answer (`{ result }` or `{ error }`).
 */
async function startServer(script) {
  const traffic = [];
  const waiting = new Map();
  const seen = { initialize: null };
  let next = 0;
  const server = createServer(async (req, res) => {
    if (req.method !== "POST") {
      res.writeHead(req.method === "DELETE" ? 200 : 405).end();
      return;
    }
    let body = "";
    for await (const chunk of req) body += chunk;
    const message = JSON.parse(body);
    traffic.push({ from: "client", message });
    const json = (reply) => {
      traffic.push({ from: "server", message: reply });
      res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s-1" }).end(JSON.stringify(reply));
    };
    if (message.method === undefined) {
      waiting.get(message.id)?.(message);
      res.writeHead(202).end();
    } else if (!("id" in message)) {
      res.writeHead(202).end();
    } else if (message.method === "initialize") {
      seen.initialize = message.params;
      json({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: V25, capabilities: { tools: {} }, serverInfo: { name: "requestor", version: "1.0.0" } } });
    } else if (message.method === "tools/call") {
      res.writeHead(200, { "content-type": "text/event-stream", "mcp-session-id": "s-1" });
      const send = (m) => {
        traffic.push({ from: "server", message: m });
        res.write(`event: message\ndata: ${JSON.stringify(m)}\n\n`);
      };
      const ask = (method, params) => {
        const id = `srv-${++next}`;
        const answer = new Promise((resolve) => waiting.set(id, resolve));
        send({ jsonrpc: "2.0", id, method, params });
        return answer;
      };
      let text = "done";
      try {
        await script(ask);
      } catch (e) {
        text = `script failed: ${e.stack}`;
      }
      send({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text }] } });
      res.end();
    } else {
      json({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/mcp`, traffic, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Connects a 2025-11-25 client (push off) with `options` to `srv`, calls its `ask` tool and closes both: the tool's answer. */
async function callAsk(srv, options) {
  const client = await TaskClient.connect(srv.url, { protocolVersion: V25, push: false, ...options });
  try {
    return await client.request("tools/call", { name: "ask", arguments: {} });
  } finally {
    await client.close();
    await srv.close();
  }
}

const ELICIT = { mode: "form", message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } };
const SAMPLE = { messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 10 };

test("receiver: declared at initialize; task-augmented elicitation and sampling become tasks the server polls, lists, cancels and reads", async () => {
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  const sampled = { aborted: false };
  const got = {};
  const srv = await startServer(async (ask) => {
    // A task-augmented elicitation: a task at once (CreateTaskResult), the handler in the background.
    got.created = await ask("elicitation/create", { ...ELICIT, task: { ttl: 60_000 } });
    const taskId = got.created.result.task.taskId;
    got.get = await ask("tasks/get", { taskId });
    // maxLiveTasks: 1, and one is live: the next is refused, saying why.
    got.refused = await ask("elicitation/create", { ...ELICIT, task: {} });
    // tasks/result blocks until the handler answers (§D 30); the list shows the task meanwhile.
    const result = ask("tasks/result", { taskId });
    got.list = await ask("tasks/list", {});
    release();
    got.result = await result;
    got.after = await ask("tasks/get", { taskId });
    // A sampling task, cancelled while its handler runs: the handler's signal aborts.
    got.sampling = await ask("sampling/createMessage", { ...SAMPLE, task: {} });
    const samplingId = got.sampling.result.task.taskId;
    got.cancel = await ask("tasks/cancel", { taskId: samplingId });
    got.cancelledGet = await ask("tasks/get", { taskId: samplingId });
    got.unknown = await ask("tasks/get", { taskId: "no-such-task" });
    // A plain elicitation is answered directly, as before.
    got.plain = await ask("elicitation/create", ELICIT);
  });
  const answer = await callAsk(srv, {
    receiver: { tasks: true, maxLiveTasks: 1 },
    handlers: {
      // Run for a task (the context given), the answer waits for the gate; run plainly, it does not.
      elicitation: async (_params, context) => {
        if (context?.taskId) await gate;
        return { action: "accept", content: { name: "Alice" } };
      },
      sampling: (_params, { signal }) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener("abort", () => {
            sampled.aborted = true;
            reject(signal.reason);
          }),
        ),
    },
  });
  assert.equal(answer.content[0].text, "done");
  // §D 46: what the client receives as tasks, declared at initialize.
  assert.deepEqual(srv.seen.initialize.capabilities.tasks, {
    list: {},
    cancel: {},
    requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
  });
  const task = got.created.result.task;
  assert.equal(task.status, "working");
  assert.equal(task.ttl, 60_000);
  assert.equal(typeof task.createdAt, "string");
  assert.equal(got.get.result.taskId, task.taskId);
  assert.equal(got.get.result.status, "working");
  assert.equal(got.refused.error.code, -32010);
  assert.deepEqual(got.refused.error.data, { limit: 1, cap: "maxLiveTasks" });
  assert.deepEqual(got.list.result.tasks.map((t) => t.taskId), [task.taskId]);
  assert.equal(got.result.result.action, "accept");
  assert.deepEqual(got.result.result.content, { name: "Alice" });
  assert.deepEqual(got.result.result._meta[RELATED], { taskId: task.taskId });
  assert.equal(got.after.result.status, "completed");
  assert.equal(got.sampling.result.task.status, "working");
  assert.equal(got.cancel.result.status, "cancelled");
  assert.equal(got.cancelledGet.result.status, "cancelled");
  assert.ok(sampled.aborted, "the cancelled task's handler was told");
  assert.equal(got.unknown.error.code, -32602);
  assert.equal(got.plain.result.action, "accept");
  assert.equal(got.plain.result.task, undefined);

  // The recorded conversation passes the package's checker with no error.
  const conversation = new Conversation();
  const errors = [];
  for (const { from, message } of srv.traffic) {
    for (const issue of conversation.observe(message, { from }).issues) if (issue.severity === "error") errors.push({ method: message.method, id: message.id, issue });
  }
  assert.deepEqual(errors, []);
});

test("receiver: blocked tasks/result requests are bounded (maxWaitingResults): -32010 beyond, the others still answered", async () => {
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  const got = {};
  const srv = await startServer(async (ask) => {
    const created = await ask("elicitation/create", { ...ELICIT, task: {} });
    const taskId = created.result.task.taskId;
    const first = ask("tasks/result", { taskId });
    got.second = await ask("tasks/result", { taskId });
    release();
    got.first = await first;
  });
  const answer = await callAsk(srv, {
    receiver: { tasks: true, maxWaitingResults: 1 },
    handlers: {
      elicitation: async (_params, context) => {
        if (context?.taskId) await gate;
        return { action: "accept", content: { name: "Bo" } };
      },
    },
  });
  assert.equal(answer.content[0].text, "done");
  assert.equal(got.second.error.code, -32010);
  assert.deepEqual(got.second.error.data, { limit: 1, cap: "maxWaitingResults" });
  assert.deepEqual(got.first.result.content, { name: "Bo" });
});

test("receiver: a received task past its TTL is gone, and its handler is aborted", async () => {
  const seen = { aborted: false };
  const got = {};
  const srv = await startServer(async (ask) => {
    const created = await ask("elicitation/create", { ...ELICIT, task: { ttl: 0 } });
    got.ttl = created.result.task.ttl;
    // Gone strictly after createdAt + ttl (1 ms at least): polled until then, a bounded number of times.
    for (let i = 0; i < 1000 && got.get?.error === undefined; i++) got.get = await ask("tasks/get", { taskId: created.result.task.taskId });
  });
  await callAsk(srv, {
    receiver: { tasks: true },
    handlers: {
      // Run plainly (no task), it declines at once; run for a task, it waits to be aborted.
      elicitation: (_params, context) =>
        !context ? { action: "decline" } : new Promise((_resolve, reject) =>
          context.signal.addEventListener("abort", () => {
            seen.aborted = true;
            reject(context.signal.reason);
          }),
        ),
    },
  });
  assert.equal(got.ttl, 1, "the smallest TTL the store grants");
  assert.equal(got.get.error.code, -32602);
  assert.ok(seen.aborted);
});

test("receiver off (the default): no tasks.requests declared; params.task is ignored and the request answered directly", async () => {
  const got = {};
  const srv = await startServer(async (ask) => {
    got.elicit = await ask("elicitation/create", { ...ELICIT, task: {} });
    got.get = await ask("tasks/get", { taskId: "x" });
  });
  await callAsk(srv, {
    handlers: { elicitation: () => ({ action: "decline" }) },
  });
  assert.equal(srv.seen.initialize.capabilities.tasks.requests, undefined);
  assert.equal(got.elicit.result.action, "decline");
  assert.equal(got.get.error.code, -32601);
});

test("receiver: the main entry alone (no task store core in its module) says to import the server entry", async () => {
  const { execFile } = await import("node:child_process");
  const program = `
    import { TaskClient } from "mcp-tasks-wasm";
    try { new TaskClient({ request: async () => ({}), receiver: { tasks: true } }); console.log("made"); }
    catch (e) { console.log(e.message); }
    new TaskClient({ request: async () => ({}) }).close();`;
  const stdout = await new Promise((done, fail) => execFile(process.execPath, ["--input-type=module", "-e", program], { cwd: new URL("./.tmp/install/", import.meta.url) }, (e, out) => (e ? fail(e) : done(out))));
  assert.match(stdout.trim(), /import mcp-tasks-wasm\/server/);
});

test("receiver: maxLiveTasks and maxWaitingResults must be positive integers", () => {
  assert.throws(() => new TaskClient({ request: async () => ({}), receiver: { tasks: true, maxLiveTasks: 0 } }), TypeError);
  assert.throws(() => new TaskClient({ request: async () => ({}), receiver: { tasks: true, maxWaitingResults: 1.5 } }), TypeError);
});
