// TaskHost (js/server/host.ts), the asynchronous helper of the server entry, through the packed
// and npm-installed package ("mcp-tasks-wasm/server"). Every response is checked with the
// package's own validateMessage. Tools are real async functions; time is a virtual clock where
// TTLs matter.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { request25, request26 } from "../lib/messages.mjs";
// The classes' internal tables and bounds, read through their deliberate test hook
// (`@internal`, absent from the typings: js/core/internals.ts).
const internals = (o) => o[Symbol.for("mcp-tasks-wasm.internals")]();

const { TaskHost, TaskServer, validateMessage } = await import("../.tmp/install/server.mjs");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const RELATED = "io.modelcontextprotocol/related-task";

let nextId = 1;

const v25 = (method, params) => request25(nextId++, method, params);

const v26 = (method, params, options) => request26(nextId++, method, params, options);

/** `host.handle` that must answer; checks the response against the request and the version. */
async function call(host, request, ctx) {
  const response = await host.handle(request, ctx);
  assert.ok(response, `${request.method}: no response`);
  assert.deepEqual(response.id, request.id);
  const r = validateMessage(response, { inReplyTo: request.method, version: ctx.protocolVersion });
  assert.equal(r.valid, true, `${request.method}: ${JSON.stringify(r.issues)}\n${JSON.stringify(response)}`);
  return response;
}

/** A promise and its resolver, to hold a tool until the test lets it go. */
function gate() {
  let open;
  const promise = new Promise((resolve) => (open = resolve));
  return { promise, open };
}

const text = (t) => ({ content: [{ type: "text", text: t }] });

test("V25: a plain call runs synchronously; an augmented call answers CreateTaskResult at once and tasks/result blocks until the work ends", async () => {
  const host = new TaskHost();
  const release = gate();
  let runs = 0;
  host.tool("echo", { taskSupport: "optional" }, async (args, ctx) => {
    runs++;
    if (ctx.taskId !== null) await release.promise;
    return text(`echo ${args.word}`);
  });
  const ctx = { protocolVersion: V25, session: "s1" };

  const sync = await call(host, v25("tools/call", { name: "echo", arguments: { word: "a" } }), ctx);
  assert.deepEqual(sync.result.content, [{ type: "text", text: "echo a" }]);

  const created = await call(host, v25("tools/call", { name: "echo", arguments: { word: "b" }, task: { ttl: 60_000 } }), ctx);
  const taskId = created.result.task.taskId;
  assert.equal(created.result.task.status, "working");
  assert.equal(created.result.task.ttl, 60_000);

  let settled = false;
  const resultReq = v25("tasks/result", { taskId });
  const pending = host.handle(resultReq, ctx).then((r) => ((settled = true), r));
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(settled, false, "tasks/result must block while the task works (§D 31)");
  assert.equal((await call(host, v25("tasks/get", { taskId }), ctx)).result.status, "working");

  release.open();
  const result = await pending;
  assert.equal(validateMessage(result, { inReplyTo: "tasks/result", version: V25 }).valid, true);
  assert.deepEqual(result.id, resultReq.id);
  assert.deepEqual(result.result.content, [{ type: "text", text: "echo b" }]);
  assert.deepEqual(result.result._meta[RELATED], { taskId });
  assert.equal((await call(host, v25("tasks/get", { taskId }), ctx)).result.status, "completed");
  assert.equal(runs, 2);
  assert.equal(internals(host).running.size, 0);
});

test("V25: isError fails the task but tasks/result returns the tool result; a thrown JSON-RPC error is returned as that error; a plain throw becomes an isError result", async () => {
  const host = new TaskHost();
  host.tool("bad-result", {}, async () => ({ ...text("nope"), isError: true }));
  host.tool("rpc-error", {}, async () => {
    throw Object.assign(new Error("no such row"), { code: -32602, data: { row: 7 } });
  });
  host.tool("throws", {}, async () => {
    throw new TypeError("kaput");
  });
  const ctx = { protocolVersion: V25 };
  const run = async (name) => {
    const created = await call(host, v25("tools/call", { name, task: {} }), ctx);
    const taskId = created.result.task.taskId;
    const result = await host.handle(v25("tasks/result", { taskId }), ctx);
    assert.equal(validateMessage(result, { inReplyTo: "tasks/result", version: V25 }).valid, true, JSON.stringify(result));
    const task = (await call(host, v25("tasks/get", { taskId }), ctx)).result;
    return { result, task };
  };

  const a = await run("bad-result");
  assert.equal(a.task.status, "failed", "§D 44: isError → failed in V25");
  assert.equal(a.result.result.isError, true);
  assert.deepEqual(a.result.result.content, [{ type: "text", text: "nope" }]);

  const b = await run("rpc-error");
  assert.equal(b.task.status, "failed");
  assert.equal(b.result.error.code, -32602);
  assert.equal(b.result.error.message, "no such row");
  assert.deepEqual(b.result.error.data, { row: 7 });

  const c = await run("throws");
  assert.equal(c.result.result.isError, true);
  assert.deepEqual(c.result.result.content, [{ type: "text", text: "kaput" }]);
});

test("V25: tasks/cancel aborts the work's signal, settles the blocked tasks/result, and the late outcome is discarded (§D 21, 23)", async () => {
  const host = new TaskHost();
  let sawAbort = null;
  const late = gate();
  host.tool("slow", {}, async (_args, { signal }) => {
    await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    sawAbort = signal.reason;
    await late.promise;
    return text("finished anyway");
  });
  const ctx = { protocolVersion: V25, session: "s" };
  const taskId = (await call(host, v25("tools/call", { name: "slow", task: {} }), ctx)).result.task.taskId;
  const blocked = host.handle(v25("tasks/result", { taskId }), ctx);

  const cancel = await call(host, v25("tasks/cancel", { taskId }), ctx);
  assert.equal(cancel.result.status, "cancelled");
  const result = await blocked;
  assert.equal(validateMessage(result, { inReplyTo: "tasks/result", version: V25 }).valid, true, JSON.stringify(result));
  await new Promise((r) => setTimeout(r, 0));
  assert.ok(sawAbort instanceof Error);
  assert.equal(sawAbort.name, "AbortError");

  late.open();
  await host.idle();
  assert.equal((await call(host, v25("tasks/get", { taskId }), ctx)).result.status, "cancelled");
  // A second cancel of the now terminal task: -32602 (§D 22).
  const again = await call(host, v25("tasks/cancel", { taskId }), ctx);
  assert.equal(again.error.code, -32602);
});

test("V25: support rules, session isolation, and what the host does not handle", async () => {
  const host = new TaskHost();
  host.tool("must", { taskSupport: "required" }, async () => text("ok"));
  host.tool("never", { taskSupport: "forbidden" }, async () => text("ok"));
  const a = { protocolVersion: V25, session: "alice" };
  const b = { protocolVersion: V25, session: "bob" };

  assert.equal((await call(host, v25("tools/call", { name: "must" }), a)).error.code, -32601, "§D 41");
  assert.equal((await call(host, v25("tools/call", { name: "never", task: {} }), a)).error.code, -32601, "§D 41");
  const taskId = (await call(host, v25("tools/call", { name: "must", task: {} }), a)).result.task.taskId;
  await host.idle();
  assert.equal((await call(host, v25("tasks/get", { taskId }), b)).error.code, -32602, "another session: not found (§D 38)");
  assert.equal((await call(host, v25("tasks/get", { taskId }), { protocolVersion: V25 })).error.code, -32602);
  assert.deepEqual((await call(host, v25("tasks/list", {}), b)).result.tasks, []);
  assert.equal((await call(host, v25("tasks/list", {}), a)).result.tasks.length, 1);

  assert.equal(await host.handle(v25("tools/call", { name: "unregistered" }), a), null);
  assert.equal(await host.handle(v25("ping"), a), null);
  assert.equal(await host.handle({ jsonrpc: "2.0", method: "notifications/tasks/status", params: {} }, a), null);
  await assert.rejects(host.handle(v25("tasks/get", { taskId }), { session: "x" }), TypeError);
});

test("V26: requestInput raises input requests, partial answers keep input_required, the work resumes with every answer", async () => {
  const host = new TaskHost();
  let answers = null;
  host.tool("ask", { taskSupport: "optional" }, async (_args, { requestInput }) => {
    answers = await requestInput(
      {
        name: { method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } },
        ok: { method: "elicitation/create", params: { message: "Sure?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } } },
      },
      "waiting for you",
    );
    return text(`hello ${answers.name.content.name}`);
  });
  const ctx = { protocolVersion: V26 };
  const created = await call(host, v26("tools/call", { name: "ask", arguments: {} }, { caps: { elicitation: {} } }), ctx);
  assert.equal(created.result.resultType, "task");
  const taskId = created.result.taskId;
  await new Promise((r) => setTimeout(r, 0));

  const waiting = (await call(host, v26("tasks/get", { taskId }), ctx)).result;
  assert.equal(waiting.status, "input_required");
  assert.equal(waiting.statusMessage, "waiting for you");
  assert.deepEqual(Object.keys(waiting.inputRequests).sort(), ["name", "ok"]);

  const ack = await call(host, v26("tasks/update", { taskId, inputResponses: { name: { action: "accept", content: { name: "Ada" } }, stray: { x: 1 } } }), ctx);
  assert.deepEqual(ack.result, { resultType: "complete" });
  const partial = (await call(host, v26("tasks/get", { taskId }), ctx)).result;
  assert.equal(partial.status, "input_required", "§D 88: a partial answer keeps input_required");
  assert.deepEqual(Object.keys(partial.inputRequests), ["ok"]);
  assert.equal(answers, null);

  await call(host, v26("tasks/update", { taskId, inputResponses: { ok: { action: "accept", content: { ok: true } } } }), ctx);
  await host.idle();
  assert.deepEqual(answers, {
    name: { action: "accept", content: { name: "Ada" } },
    ok: { action: "accept", content: { ok: true } },
  });
  const done = (await call(host, v26("tasks/get", { taskId }), ctx)).result;
  assert.equal(done.status, "completed");
  assert.deepEqual(done.result.content, [{ type: "text", text: "hello Ada" }]);
});

test("V26: cancel while waiting for input rejects requestInput; tool errors complete, JSON-RPC errors fail; non-declaring requests", async () => {
  const host = new TaskHost();
  let rejection = null;
  host.tool("ask", {}, async (_args, { requestInput }) => {
    try {
      await requestInput({ k: { method: "roots/list" } });
    } catch (e) {
      rejection = e;
      throw e;
    }
    return text("unreachable");
  });
  host.tool("tool-error", { taskSupport: "required" }, async () => ({ ...text("bad input"), isError: true }));
  host.tool("rpc-error", {}, async () => {
    throw { code: -32000, message: "backend down" };
  });
  const ctx = { protocolVersion: V26 };

  // §D 98: roots/list needs the `roots` capability the call did not declare: requestInput rejects
  // before the task shows any input request.
  const undeclaredId = (await call(host, v26("tools/call", { name: "ask" }), ctx)).result.taskId;
  await host.idle();
  assert.equal(rejection?.kind, "invalid_input_request");
  assert.match(rejection.message, /roots/);
  // The tool rethrew the TaskStoreError (a JSON-RPC error -32603): the task failed with it.
  const undeclared = (await call(host, v26("tasks/get", { taskId: undeclaredId }), ctx)).result;
  assert.equal(undeclared.status, "failed");
  assert.equal(undeclared.error.code, -32603);
  assert.equal(undeclared.inputRequests, undefined);
  rejection = null;

  const askId = (await call(host, v26("tools/call", { name: "ask" }, { caps: { roots: {} } }), ctx)).result.taskId;
  await new Promise((r) => setTimeout(r, 0));
  assert.equal((await call(host, v26("tasks/get", { taskId: askId }), ctx)).result.status, "input_required");
  assert.deepEqual((await call(host, v26("tasks/cancel", { taskId: askId }), ctx)).result, { resultType: "complete" });
  await host.idle();
  assert.equal(rejection?.name, "AbortError");
  assert.equal((await call(host, v26("tasks/get", { taskId: askId }), ctx)).result.status, "cancelled");

  const toolErrId = (await call(host, v26("tools/call", { name: "tool-error" }), ctx)).result.taskId;
  const rpcErrId = (await call(host, v26("tools/call", { name: "rpc-error" }), ctx)).result.taskId;
  await host.idle();
  const toolErr = (await call(host, v26("tasks/get", { taskId: toolErrId }), ctx)).result;
  assert.equal(toolErr.status, "completed", "§D 91");
  assert.equal(toolErr.result.isError, true);
  const rpcErr = (await call(host, v26("tasks/get", { taskId: rpcErrId }), ctx)).result;
  assert.equal(rpcErr.status, "failed");
  assert.deepEqual(rpcErr.error, { code: -32000, message: "backend down" });

  // A request that does not declare the extension: required → -32021, optional → synchronous.
  const refused = await call(host, v26("tools/call", { name: "tool-error" }, { ext: false }), ctx);
  assert.equal(refused.error.code, -32021);
  assert.ok(refused.error.data.requiredCapabilities.extensions[EXT]);
  const sync = await call(host, v26("tools/call", { name: "rpc-error" }, { ext: false }), ctx);
  assert.equal(sync.error.code, -32000);
  // requestInput outside a V26 task rejects at once.
  const sync2 = await call(host, v26("tools/call", { name: "ask" }, { ext: false }), ctx);
  assert.equal(sync2.result.isError, true);
  assert.match(sync2.result.content[0].text, /requestInput/);
});

test("sweep purges expired tasks, answers their blocked tasks/result with -32602 and aborts their work", async () => {
  let now = Date.UTC(2026, 0, 1);
  const host = new TaskHost({ now: () => now, store: { maxTtlMs: 10_000 } });
  const reasons = [];
  host.tool("forever", {}, (_args, { signal }) =>
    new Promise((_, reject) =>
      signal.addEventListener("abort", () => {
        reasons.push(signal.reason);
        reject(signal.reason);
      }),
    ),
  );
  const ctx = { protocolVersion: V25 };
  const created = await call(host, v25("tools/call", { name: "forever", task: { ttl: 999_999 } }), ctx);
  assert.equal(created.result.task.ttl, 10_000, "the TTL is capped and the effective TTL reported (§D 25)");
  const taskId = created.result.task.taskId;
  const resultReq = v25("tasks/result", { taskId });
  const blocked = host.handle(resultReq, ctx);

  now += 10_000;
  assert.equal(host.sweep(), 0, "nothing is purged before createdAt + ttl has passed (§D 26)");
  now += 1;
  assert.equal(host.sweep(), 1);
  const answer = await blocked;
  assert.deepEqual(answer.id, resultReq.id);
  assert.equal(answer.error.code, -32602);
  assert.equal((await call(host, v25("tasks/get", { taskId }), ctx)).error.code, -32602);

  // The purged task's work was aborted (reason: expired); idle() settles.
  await host.idle();
  assert.equal(internals(host).running.size, 0);
  assert.equal(reasons.length, 1);
  assert.equal(reasons[0].name, "AbortError");
  assert.match(reasons[0].message, /expired/);
  await host.close();
});

test("a host can share a TaskServer, and the CommonJS entry exports the same helpers", async () => {
  const server = new TaskServer({ pollIntervalMs: 250 });
  const host = new TaskHost({ server });
  assert.equal(host.server, server);
  host.tool("t", {}, () => text("x"));
  const created = await call(host, v25("tools/call", { name: "t", task: {} }), { protocolVersion: V25 });
  assert.equal(created.result.task.pollInterval, 250);

  const require = createRequire(fileURLToPath(new URL("../.tmp/install/package.json", import.meta.url)));
  const cjs = require("mcp-tasks-wasm/server");
  assert.equal(typeof cjs.TaskHost, "function");
  assert.equal(typeof cjs.TaskServer, "function");
  const cjsHost = new cjs.TaskHost();
  cjsHost.tool("t", {}, () => text("from cjs"));
  const r = await cjsHost.handle(v25("tools/call", { name: "t" }), { protocolVersion: V25 });
  assert.deepEqual(r.result.content, [{ type: "text", text: "from cjs" }]);
  assert.throws(() => cjsHost.tool("", {}, () => {}), TypeError);
});

test("durability: a server restored from a snapshot (or rebuilt from the change hook) answers for tasks created before the restart", async () => {
  const server = new TaskServer({ recordChanges: true, pageSize: 2 });
  const host = new TaskHost({ server });
  host.tool("t", {}, ({ n }) => text(`n=${n}`));
  const ctx = { protocolVersion: V25, session: "s" };
  const ids = [];
  for (let n = 0; n < 3; n++) {
    ids.push((await call(host, v25("tools/call", { name: "t", arguments: { n }, task: {} }), ctx)).result.task.taskId);
  }
  await host.idle();
  const page1 = (await call(host, v25("tasks/list", {}), ctx)).result;
  assert.equal(page1.tasks.length, 2);
  const changes = server.takeChanges();
  assert.deepEqual(changes.filter((c) => c.kind === "created").map((c) => c.task.taskId), ids);
  assert.ok(changes.some((c) => c.kind === "updated" && c.task.status === "completed"));

  // "Restart": a new process would read the snapshot from disk as JSON text.
  const text1 = JSON.stringify(server.snapshot());
  const restored = new TaskHost({ server: TaskServer.restore(text1) });
  for (const [n, taskId] of ids.entries()) {
    const result = await restored.handle(v25("tasks/result", { taskId }), ctx);
    assert.deepEqual(result.result.content, [{ type: "text", text: `n=${n}` }]);
  }
  // The cursor handed out before the restart still pages on (the cursor key is in the snapshot).
  const page2 = (await call(restored, v25("tasks/list", { cursor: page1.nextCursor }), ctx)).result;
  assert.deepEqual([...page1.tasks, ...page2.tasks].map((t) => t.taskId).sort(), [...ids].sort());
  assert.equal((await call(restored, v25("tasks/get", { taskId: ids[0] }), { protocolVersion: V25, session: "other" })).error.code, -32602);
  assert.throws(() => TaskServer.restore("{not json"), (e) => e.code === -32603 && e.kind === "invalid_snapshot");
  assert.throws(() => TaskServer.restore(42), TypeError);
});

test("a tool that returns something that is not a CallToolResult gets an internal error, never an invalid answer or a stuck task", async () => {
  const host = new TaskHost({ onError: (e) => assert.fail(`onError: ${e}`) });
  const garbage = { "no-content": { structuredContent: {} }, "string-content": { content: "hi" }, bigint: { content: [], n: 1n }, nothing: undefined };
  for (const [name, value] of Object.entries(garbage)) host.tool(name, {}, () => value);
  for (const protocolVersion of [V25, V26]) {
    const ctx = { protocolVersion };
    for (const name of Object.keys(garbage)) {
      // Synchronously (V25: no params.task; V26: a request that does not declare the extension),
      // then as a task.
      const syncCall = protocolVersion === V25 ? v25("tools/call", { name }) : v26("tools/call", { name }, { ext: false });
      const taskCall = protocolVersion === V25 ? v25("tools/call", { name, task: {} }) : v26("tools/call", { name });
      const sync = await call(host, syncCall, ctx);
      if (name === "nothing") {
        assert.deepEqual(sync.result.content, [], "undefined is taken as an empty result");
        continue;
      }
      assert.equal(sync.error?.code, -32603, `${protocolVersion} ${name}: ${JSON.stringify(sync)}`);
      // As a task: it fails with -32603.
      const created = await call(host, taskCall, ctx);
      const taskId = protocolVersion === V25 ? created.result.task.taskId : created.result.taskId;
      await host.idle();
      const get = protocolVersion === V25 ? v25("tasks/get", { taskId }) : v26("tasks/get", { taskId });
      const task = (await call(host, get, ctx)).result;
      assert.equal(task.status, "failed", `${protocolVersion} ${name}`);
      if (protocolVersion === V26) assert.equal(task.error.code, -32603);
    }
  }
});
