// Replicas (docs/decisions/shared-storage.md): three processes of examples/conformance-server.mjs
// on ONE storage, real
// Postgres and real Redis (started here on 127.0.0.1 with throwaway data, as tests/js/storage
// does), requests spread round robin over them. Each replica is `--storage <url>` with the same
// `--cursor-key`; tasks live in the storage (SharedTaskServer), TaskHost on every replica follows
// the storage's change feed. What is proven, per engine:
//   - a task created on A is read on B and answered with input on C (its work, on A, resumes);
//   - a cancel on B races the completion on A: exactly one terminal outcome, which never changes;
//   - A killed with SIGKILL mid-task and restarted: the task stays readable, and once A's lease on
//     its work runs out a sweep (on any replica) fails it with the lease-lost error;
//   - a client subscribed (subscriptions/listen) on C hears every status change of work done on A.
// Every process is stopped by its PID (also on failure). No timing thresholds: waits are polls
// until a state shows (with a deadline for a hang).
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { startPostgres, startRedis, waitFor, ROOT } from "../storage/lib.mjs";

const { TaskClient } = await import("../.tmp/install/esm.mjs");

const EXAMPLE = join(ROOT, "examples/conformance-server.mjs");
/** Where the example finds the storage client libraries (pg, ioredis) installed by setup. */
const PEERS_DIR = join(ROOT, "tools/storage");
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const CURSOR_KEY = "5ca1ab1e5ca1ab1e5ca1ab1e5ca1ab1e";
const LEASE_MS = 600;
const LEASE_LOST = /replica running this task stopped/;

/** Every replica process started, killed by PID at exit (also when a test fails). */
const children = new Set();
process.on("exit", () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) process.kill(c.pid, "SIGKILL");
});

/** Starts one replica on `storage`; resolves with `{ url, child, name }` once it listens. */
async function startReplica(storage, name) {
  const child = spawn(
    process.execPath,
    [EXAMPLE, "--port", "0", "--storage", storage, "--cursor-key", CURSOR_KEY, "--lease-ms", String(LEASE_MS), "--lease-grace-ms", String(LEASE_MS), "--housekeeping-ms", "50", "--replica-id", name],
    { cwd: PEERS_DIR, stdio: ["ignore", "pipe", "pipe"] },
  );
  children.add(child);
  let err = "";
  child.stderr.setEncoding("utf8").on("data", (d) => (err += d));
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
      if (m) resolve(m[0]);
    });
    child.once("exit", (code, signal) => reject(new Error(`replica ${name} exited (${code ?? signal}) before listening: ${err}`)));
  });
  return { url, child, name, stderr: () => err };
}

/** Stops a replica by its PID (`signal`, default SIGTERM) and waits for it. */
async function stopReplica(r, signal = "SIGTERM") {
  const c = r.child;
  if (c.exitCode === null && c.signalCode === null) {
    const gone = new Promise((resolve) => c.once("exit", resolve));
    process.kill(c.pid, signal);
    const timer = setTimeout(() => c.exitCode === null && c.signalCode === null && process.kill(c.pid, "SIGKILL"), 10_000);
    await gone;
    clearTimeout(timer);
  }
  children.delete(c);
}

let nextId = 1;
const meta = () => ({
  "io.modelcontextprotocol/protocolVersion": V26,
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: { [EXT]: {} } },
});

/** One 2026-07-28 request to `replica`; its JSON-RPC answer. */
async function call(replica, method, params = {}) {
  const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": V26, "Mcp-Method": method };
  if (typeof params.taskId === "string") headers["Mcp-Name"] = params.taskId;
  else if (method === "tools/call") headers["Mcp-Name"] = params.name;
  const res = await fetch(replica.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta() } }) });
  const body = await res.json();
  return body;
}

/** The task as `tasks/get` on `replica` answers it. */
async function getTask(replica, taskId) {
  const answer = await call(replica, "tasks/get", { taskId });
  assert.ok(answer.result, `tasks/get on ${replica.name}: ${JSON.stringify(answer)}`);
  return answer.result;
}

/** Starts `tool` as a task on `replica`: its task id. */
async function startTask(replica, tool, args) {
  const answer = await call(replica, "tools/call", { name: tool, arguments: args });
  assert.equal(answer.result?.resultType, "task", `tools/call on ${replica.name}: ${JSON.stringify(answer)}`);
  return answer.result.taskId;
}

const TERMINAL = ["completed", "failed", "cancelled"];

/**
 * Opens `subscriptions/listen` for `taskIds` on `replica`: `{ notes, close }`, `notes` filling
 * with every message of the stream as it arrives.
 */
async function subscribe(replica, taskIds) {
  const abort = new AbortController();
  const res = await fetch(replica.url, {
    method: "POST",
    signal: abort.signal,
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": V26, "Mcp-Method": "subscriptions/listen" },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "subscriptions/listen", params: { notifications: { taskIds }, _meta: meta() } }),
  });
  assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
  const notes = [];
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const pump = (async () => {
    let buffer = "";
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let i;
      while ((i = buffer.indexOf("\n\n")) >= 0) {
        const event = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        const data = event.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("\n");
        if (data) notes.push(JSON.parse(data));
      }
    }
  })();
  return {
    notes,
    async close() {
      abort.abort();
      await pump;
    },
  };
}

/** `xs` with runs of equal neighbours collapsed. */
const runs = (xs) => xs.filter((x, i) => i === 0 || xs[i - 1] !== x);

for (const engine of ["postgres", "redis"]) {
  describe(`three replicas on one ${engine}`, () => {
    let db;
    /** @type {Array<{ url: string, child: import("node:child_process").ChildProcess, name: string }>} */
    let replicas = [];
    let turn = 0;
    /** The next replica, round robin. */
    const next = () => replicas[turn++ % replicas.length];

    before(async () => {
      db = engine === "postgres" ? await startPostgres() : await startRedis();
      replicas = [];
      for (const name of ["A", "B", "C"]) replicas.push(await startReplica(db.url, name));
    });
    after(async () => {
      for (const r of replicas) await stopReplica(r);
      await db?.stop();
    });

    test("round robin: created on A, read on B, input answered on C; the work on A resumes and completes", async () => {
      const [A, B, C] = replicas;
      const taskId = await startTask(A, "confirm_delete", { filename: "report.txt" });
      await waitFor(async () => (await getTask(B, taskId)).status === "input_required", "input_required on B");
      const asked = await getTask(B, taskId);
      assert.deepEqual(Object.keys(asked.inputRequests), ["confirm"]);
      const update = await call(C, "tasks/update", { taskId, inputResponses: { confirm: { action: "accept", content: { confirm: true } } } });
      assert.equal(update.result?.resultType, "complete", JSON.stringify(update));
      await waitFor(async () => (await getTask(next(), taskId)).status === "completed", "completed (read round robin)");
      for (const r of replicas) {
        const done = await getTask(r, taskId);
        assert.equal(done.status, "completed");
        assert.equal(done.result.content[0].text, "Deleted report.txt");
      }
      // tasks/list is a 2025-11-25 method; the cursor key is shared, so a listing's pages could
      // come from different replicas (checked in shared.test.mjs).
    });

    test("MRTR: a call answered with an InputRequiredResult on A is retried on B, which creates the task", async () => {
      const [A, B] = replicas;
      const first = await call(A, "tools/call", { name: "test_tool_with_task", arguments: {} });
      assert.equal(first.result?.resultType, "input_required", JSON.stringify(first));
      const { requestState, inputRequests } = first.result;
      assert.deepEqual(Object.keys(inputRequests), ["user_name"]);
      const retry = await call(B, "tools/call", {
        name: "test_tool_with_task",
        arguments: {},
        requestState,
        inputResponses: { user_name: { action: "accept", content: { name: "Ada" } } },
      });
      assert.equal(retry.result?.resultType, "task", JSON.stringify(retry));
      const taskId = retry.result.taskId;
      await waitFor(async () => (await getTask(next(), taskId)).status === "completed", "completed");
      assert.equal((await getTask(A, taskId)).result.content[0].text, "Hello, Ada! (from a task)");
    });

    test("a cancel on B races the completion on A: exactly one terminal outcome, never changed", async (t) => {
      const [A, B] = replicas;
      const outcomes = { completed: 0, cancelled: 0 };
      for (let i = 0; i < 8; i++) {
        // The work ends after 0-70 ms; the cancel goes out at once: either may win.
        const taskId = await startTask(A, "slow_compute", { seconds: (i % 8) * 0.01, label: `race${i}` });
        const cancel = await call(B, "tasks/cancel", { taskId });
        assert.equal(cancel.result?.resultType, "complete", JSON.stringify(cancel));
        await waitFor(async () => TERMINAL.includes((await getTask(next(), taskId)).status), `task ${i} terminal`);
        const first = await getTask(A, taskId);
        assert.ok(first.status === "completed" || first.status === "cancelled", JSON.stringify(first));
        if (first.status === "completed") assert.equal(first.result.content[0].text, `race${i}: done after ${(i % 8) * 0.01} s`);
        else assert.equal(first.result, undefined);
        outcomes[first.status] += 1;
        // A second cancel (on C) is an idempotent ack and changes nothing; every replica agrees.
        await call(replicas[2], "tasks/cancel", { taskId });
        for (const r of replicas) assert.deepEqual(await getTask(r, taskId), first);
      }
      assert.equal(outcomes.completed + outcomes.cancelled, 8);
      t.diagnostic(`outcomes: ${outcomes.completed} completed, ${outcomes.cancelled} cancelled`);
    });

    test("a subscriber on C hears every status change of work running on A", async () => {
      const [A, B, C] = replicas;
      const taskId = await startTask(A, "confirm_delete", { filename: "pushed.txt" });
      const sub = await subscribe(C, [taskId]);
      try {
        await waitFor(() => sub.notes.some((n) => n.method === "notifications/subscriptions/acknowledged"), "the acknowledgement");
        const ack = sub.notes.find((n) => n.method === "notifications/subscriptions/acknowledged");
        assert.deepEqual(ack.params.notifications.taskIds, [taskId]);
        const statuses = () => sub.notes.filter((n) => n.method === "notifications/tasks").map((n) => n.params.status);
        await waitFor(() => statuses().includes("input_required"), "input_required pushed by C");
        const asking = sub.notes.find((n) => n.method === "notifications/tasks" && n.params.status === "input_required");
        assert.deepEqual(Object.keys(asking.params.inputRequests), ["confirm"]);
        await call(B, "tasks/update", { taskId, inputResponses: { confirm: { action: "accept", content: { confirm: false } } } });
        await waitFor(() => statuses().includes("completed"), "completed pushed by C");
        const seen = runs(statuses());
        // The first note is the task as it was when the subscription began (working or already
        // input_required); the changes follow in order (a `working` between the answer and the
        // completion may be read already completed: the feed is read after each write).
        assert.ok(["working", "input_required"].includes(seen[0]), seen.join(","));
        assert.equal(seen.at(-1), "completed", seen.join(","));
        assert.ok(seen.indexOf("input_required") < seen.indexOf("completed"), seen.join(","));
        for (const s of seen) assert.ok(["working", "input_required", "completed"].includes(s), seen.join(","));
        const last = sub.notes.filter((n) => n.method === "notifications/tasks").at(-1);
        assert.equal(last.params.result.content[0].text, "Kept pushed.txt", "the complete DetailedTask");
      } finally {
        await sub.close();
      }
    });

    test("TaskClient (2026-07-28, push) with every request sent to the next replica: input asked on one, answered on another, pushed by a third", async (t) => {
      // The client's fetch sends each request to the next replica: the subscription, the
      // tools/call, the tasks/update and any backstop poll land on different processes.
      const sent = [];
      const roundRobin = (input, init) => {
        const r = next();
        sent.push({ replica: r.name, method: init?.body ? JSON.parse(init.body).method : init?.method });
        return fetch(r.url, init);
      };
      const client = await TaskClient.connect(replicas[0].url, {
        protocolVersion: V26,
        fetch: roundRobin,
        handlers: { elicitation: async () => ({ action: "accept", content: { confirm: true } }) },
        push: true,
      });
      const statuses = [];
      const seen = (async () => {
        for await (const e of client.events()) if (e.type === "taskStatus" || e.type === "inputRequired") statuses.push(e.status);
      })();
      try {
        const result = await client.callTool("confirm_delete", { filename: "spread.txt" }, { task: {} });
        assert.equal(result.content[0].text, "Deleted spread.txt");
      } finally {
        await client.close();
        await seen;
      }
      const by = (m) => new Set(sent.filter((x) => x.method === m).map((x) => x.replica));
      t.diagnostic(sent.map((x) => `${x.replica}:${x.method}`).join(" "));
      assert.ok(by("tools/call").size >= 1 && by("tasks/update").size >= 1, JSON.stringify(sent));
      assert.ok(by("subscriptions/listen").size >= 1, `the client subscribed: ${JSON.stringify(sent)}`);
      assert.ok(statuses.includes("input_required"), statuses.join(","));
      // More than one replica served this client.
      assert.ok(new Set(sent.map((x) => x.replica)).size > 1, JSON.stringify(sent));
    });

    test("A stopped (SIGTERM) mid-task: its task fails at once, read on B", async () => {
      const [A, B] = replicas;
      const taskId = await startTask(A, "slow_compute", { seconds: 600, label: "stopped" });
      await stopReplica(A, "SIGTERM");
      const failed = await getTask(B, taskId);
      assert.equal(failed.status, "failed");
      assert.match(failed.error.message, /replica running this task shut down/);
      replicas[0] = await startReplica(db.url, "A1");
    });

    test("A killed (SIGKILL) mid-task and restarted: the task stays readable and fails once A's lease runs out", async () => {
      const [A, B, C] = replicas;
      const taskId = await startTask(A, "slow_compute", { seconds: 600, label: "orphan" });
      assert.equal((await getTask(B, taskId)).status, "working");
      await stopReplica(A, "SIGKILL");
      // Still readable (and still `working`) on the others while the lease runs.
      assert.ok(["working", "failed"].includes((await getTask(C, taskId)).status));
      const restarted = await startReplica(db.url, "A2");
      replicas[0] = restarted;
      // Housekeeping runs on requests: polling any replica sweeps; the lease runs out.
      await waitFor(async () => (await getTask(next(), taskId)).status === "failed", "the orphaned task failed");
      for (const r of replicas) {
        const failed = await getTask(r, taskId);
        assert.equal(failed.status, "failed");
        assert.equal(failed.error.code, -32603);
        assert.match(failed.error.message, LEASE_LOST);
        assert.ok(failed.ttlMs > 0, "readable until its TTL");
      }
      // The restarted replica serves new work as before.
      const fresh = await startTask(restarted, "slow_compute", { seconds: 0, label: "after" });
      await waitFor(async () => (await getTask(B, fresh)).status === "completed", "new work on the restarted replica");
    });
  });
}

test("--storage shared-memory: one replica's shared server over the in-memory storage serves a task to its end", async () => {
  // The benchmark's measure of the shared machinery without a database (bench/server.mjs).
  const r = await startReplica("shared-memory", "M");
  try {
    const taskId = await startTask(r, "slow_compute", { seconds: 0 });
    await waitFor(async () => TERMINAL.includes((await getTask(r, taskId)).status), "the task's end");
    const done = await getTask(r, taskId);
    assert.equal(done.status, "completed", JSON.stringify(done));
    assert.match(JSON.stringify(done.result), /done after 0 s/);
  } finally {
    await stopReplica(r);
  }
});
