// Opt-in re-run (ToolOptions.rerun, js/server/host.ts; the takeover in js/server/shared.ts): two
// or three replicas (TaskHost over SharedTaskServer) on one real storage (SQLite file, Postgres
// table) with injectable lease clocks. Replica A starts a re-runnable tool and stops (its server
// closes: no more renewals, as a killed process); B's sweep takes the lease with a
// compare-and-set and runs the handler again with the call's arguments, the task showing
// "re-running on another replica (attempt 2 of 3)"; its result is the task's, in both eras.
// Runs are bounded, a tool without the option fails as before, two sweeping replicas re-run it
// once, a replica without the tool leaves it to one that has it, and the replica whose lease
// was taken (a storage outage) stops its work and stores nothing.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadStorage, startPostgres, waitFor } from "../storage/lib.mjs";
// The classes' internal tables and bounds, read through their deliberate test hook
// (`@internal`, absent from the typings: js/core/internals.ts).
const internals = (o) => o[Symbol.for("mcp-tasks-wasm.internals")]();

const { SharedTaskServer, TaskHost } = await import("../.tmp/install/server.mjs");
const { StorageError } = await loadStorage("");
const { openSqliteStorage } = await loadStorage("sqlite");
const { openPostgresStorage } = await loadStorage("postgres");

const KEY = "00112233445566778899aabbccddeeff";
const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const meta = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: { [EXT]: {} } } };
const LEASE = { leaseMs: 1000, leaseGraceMs: 500 }; // lost once seen unrenewed for 1500 ms
let nextId = 1;
const text = (t) => ({ content: [{ type: "text", text: t }] });

const dir = mkdtempSync(join(tmpdir(), "mcp-tasks-rerun-"));
const pg = await startPostgres();
after(async () => {
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
/** Opens a fresh shared store for each test: `open()` gives each replica its own connection. */
const engines = {
  sqlite: () => {
    const path = join(dir, `t${n++}.db`);
    return () => openSqliteStorage({ path });
  },
  postgres: () => {
    const table = `rerun_${process.pid}_${n++}`;
    return () => openPostgresStorage({ connectionString: pg.url, table });
  },
};

/**
 * A storage whose calls reject as an unreachable database does while `down` (a partition of one
 * replica), else go to `s`.
 */
function partitionable(s) {
  const view = Object.create(s);
  view.down = false;
  for (const m of ["get", "getMany", "putIfVersion", "putEachIfVersion", "rangeAfter", "rangeLive", "expired", "countLive", "nextSequence", "insertNew"]) {
    if (typeof s[m] !== "function") continue;
    view[m] = async (...args) => {
      if (view.down) throw new StorageError("engine", `${m}: connect ECONNREFUSED 127.0.0.1 (test partition)`);
      return s[m](...args);
    };
  }
  // The other clauses go to `s` itself (its state is private to it, not reachable through `view`).
  for (const m of ["delete", "nextSequenceWithLive", "lastSequence", "subscribe", "close"]) {
    if (typeof s[m] === "function") view[m] = (...args) => s[m](...args);
  }
  return view;
}

/**
 * A replica named `id` over its own connection: tools `again` (re-runnable, 3 runs),
 * `twice` (2 runs) and `once` (not re-runnable) unless `tools: false`; each run waits for the
 * test (`runs[i].resolve(result)`) or its signal aborts. `t` is its lease clock (ms), advanced by the test.
 */
async function replica(open, id, { tools = true, storage = null } = {}) {
  const s = storage ?? (await open());
  const r = { id, t: 0, runs: [], errors: [] };
  r.server = await SharedTaskServer.open(s, { cursorKey: KEY, replicaId: id, ...LEASE, clock: () => r.t, onError: () => {} });
  r.host = new TaskHost({ server: r.server, onError: (e) => r.errors.push(e) });
  // Each run waits for the test, or stops when its signal aborts (as a well-behaved tool does).
  const work = (args, ctx) =>
    new Promise((resolve, reject) => {
      r.runs.push({ args, ctx, resolve });
      ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true });
    });
  if (tools) {
    r.host.tool("again", { taskSupport: "optional", rerun: { maxAttempts: 3 } }, work);
    r.host.tool("twice", { taskSupport: "optional", rerun: { maxAttempts: 2 } }, work);
    r.host.tool("once", { taskSupport: "optional" }, work);
    // Asks twice (2026-07-28 input on the task), then answers with both replies.
    const ask = (message) => ({ method: "elicitation/create", params: { message, requestedSchema: { type: "object", properties: { v: { type: "string" } } } } });
    r.host.tool("ask", { taskSupport: "optional", rerun: {} }, async (_args, ctx) => {
      const first = await ctx.requestInput({ k1: ask("first?") });
      const second = await ctx.requestInput({ k2: ask("second?") });
      return text(`${id}: ${first.k1.content.v} ${second.k2.content.v}`);
    });
  } else {
    r.host.tool("other", { taskSupport: "optional" }, work);
  }
  /** Starts a task of `name` with `args` in `era`: its id. */
  r.start = async (name, args, era = V26) => {
    const params = { name, arguments: args, _meta: meta };
    if (era === V25) params.task = {};
    const out = await r.host.handle({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params }, ctxOf(era));
    return era === V25 ? out.result.task.taskId : out.result.taskId;
  };
  /** tasks/get in `era`: the task as the client sees it. */
  r.get = async (taskId, era = V26) => (await r.host.handle({ jsonrpc: "2.0", id: nextId++, method: "tasks/get", params: { taskId, _meta: meta } }, ctxOf(era))).result;
  /** Two sweeps `ms` apart on this replica's lease clock (the first sees the lease, the second judges it). */
  r.sweepAfter = async (ms) => {
    await r.server.sweep();
    r.t += ms;
    await r.server.sweep();
  };
  /** Stops as a killed process does: no more renewals, the work left hanging. */
  r.crash = () => r.server.close();
  /** tasks/update in 2026-07-28. */
  r.answer = (taskId, inputResponses) => r.host.handle({ jsonrpc: "2.0", id: nextId++, method: "tasks/update", params: { taskId, inputResponses, _meta: meta } }, ctxOf(V26));
  r.stop = async () => {
    for (const run of r.runs) run.resolve(text("late"));
    await r.host.close();
    await r.server.close();
  };
  return r;
}

const ctxOf = (era) => (era === V25 ? { protocolVersion: V25, session: "session-1" } : { protocolVersion: V26 });

for (const [engine, fresh] of Object.entries(engines)) {
  test(`${engine}: A stops while running a re-runnable tool; B re-runs it with the call's arguments and its result is the task's (both eras)`, async () => {
    const open = fresh();
    const A = await replica(open, "A");
    const B = await replica(open, "B");
    try {
      for (const era of [V26, V25]) {
        const before = B.runs.length;
        const taskId = await A.start("again", { n: 7, era }, era);
        assert.equal(A.runs.length, era === V26 ? 1 : 2);
        // B sees the lease for the first time: nothing is lost yet.
        await B.server.sweep();
        assert.equal((await B.get(taskId, era)).status, "working");
        assert.equal(B.runs.length, before, "no re-run while A renews");
      }
      await A.crash();
      await B.sweepAfter(1501);
      assert.equal(B.runs.length, 2, "B re-ran both tasks");
      for (const [i, era] of [V26, V25].entries()) {
        const run = B.runs[i];
        assert.deepEqual(run.args, { n: 7, era });
        assert.deepEqual(run.ctx.request.params.arguments, { n: 7, era });
        assert.equal(run.ctx.context.protocolVersion, era);
        const taskId = run.ctx.taskId;
        const task = await B.get(taskId, era);
        assert.equal(task.status, "working");
        assert.equal(task.statusMessage, "re-running on another replica (attempt 2 of 3)");
        run.resolve(text(`B ran ${era}`));
        await waitFor(async () => (await B.get(taskId, era)).status !== "working", "the re-run's result stored");
        if (era === V26) {
          const done = await B.get(taskId, era);
          assert.equal(done.status, "completed");
          assert.deepEqual(done.result.content, text(`B ran ${era}`).content);
        } else {
          const res = await B.host.handle({ jsonrpc: "2.0", id: nextId++, method: "tasks/result", params: { taskId } }, ctxOf(era));
          assert.deepEqual(res.result.content, text(`B ran ${era}`).content);
          assert.equal((await B.get(taskId, era)).status, "completed");
        }
      }
      assert.deepEqual(B.errors, []);
    } finally {
      await A.stop();
      await B.stop();
    }
  });

  test(`${engine}: a re-run asking what the first run asked gets the answer given, and waits for the one outstanding (no key asked twice)`, async () => {
    const open = fresh();
    const A = await replica(open, "A");
    const B = await replica(open, "B");
    try {
      const taskId = await A.start("ask", {});
      await waitFor(async () => (await A.get(taskId)).inputRequests?.k1 !== undefined, "k1 asked");
      await A.answer(taskId, { k1: { action: "accept", content: { v: "one" } } });
      await waitFor(async () => (await A.get(taskId)).inputRequests?.k2 !== undefined, "k2 asked");
      await A.crash();
      await B.sweepAfter(1501);
      const waiting = await B.get(taskId);
      assert.equal(waiting.status, "input_required");
      assert.equal(waiting.statusMessage, "re-running on another replica (attempt 2 of 3)");
      assert.deepEqual(Object.keys(waiting.inputRequests), ["k2"]);
      await B.answer(taskId, { k2: { action: "accept", content: { v: "two" } } });
      await waitFor(async () => ["completed", "failed"].includes((await B.get(taskId)).status), "the re-run's end");
      const done = await B.get(taskId);
      assert.equal(done.status, "completed", JSON.stringify(done));
      assert.deepEqual(done.result.content, text("B: one two").content);
    } finally {
      await A.stop();
      await B.stop();
    }
  });

  test(`${engine}: runs are bounded: after the last replica stops too, the task fails saying its runs are exhausted`, async () => {
    const open = fresh();
    const A = await replica(open, "A");
    const B = await replica(open, "B");
    const C = await replica(open, "C");
    try {
      const taskId = await A.start("twice", { n: 1 });
      await A.crash();
      await B.sweepAfter(1501);
      assert.equal(B.runs.length, 1);
      assert.equal((await C.get(taskId)).statusMessage, "re-running on another replica (attempt 2 of 2)");
      await B.crash();
      await C.sweepAfter(1501);
      assert.equal(C.runs.length, 0, "no third run");
      const task = await C.get(taskId);
      assert.equal(task.status, "failed");
      assert.equal(task.error.code, -32603);
      assert.match(task.error.message, /replica running this task stopped.*runs are exhausted \(attempt 2 of 2\)/);
      assert.deepEqual(task.error.data, { attempts: 2, maxAttempts: 2 });
    } finally {
      await A.stop();
      await B.stop();
      await C.stop();
    }
  });

  test(`${engine}: a tool without rerun still fails when its replica stops`, async () => {
    const open = fresh();
    const A = await replica(open, "A");
    const B = await replica(open, "B");
    try {
      const taskId = await A.start("once", {});
      await A.crash();
      await B.sweepAfter(1501);
      assert.equal(B.runs.length, 0);
      const task = await B.get(taskId);
      assert.equal(task.status, "failed");
      assert.match(task.error.message, /replica running this task stopped before it finished \(its work lease ran out\)$/);
    } finally {
      await A.stop();
      await B.stop();
    }
  });

  test(`${engine}: two replicas sweeping at once re-run the task once`, async () => {
    const open = fresh();
    const A = await replica(open, "A");
    const B = await replica(open, "B");
    const C = await replica(open, "C");
    try {
      const taskId = await A.start("again", { n: 2 });
      await A.crash();
      await Promise.all([B.server.sweep(), C.server.sweep()]);
      B.t += 1501;
      C.t += 1501;
      await Promise.all([B.server.sweep(), C.server.sweep()]);
      await Promise.all([B.server.sweep(), C.server.sweep()]);
      assert.equal(B.runs.length + C.runs.length, 1, `runs: B ${B.runs.length}, C ${C.runs.length}`);
      const task = await B.get(taskId);
      assert.equal(task.statusMessage, "re-running on another replica (attempt 2 of 3)");
      const winner = B.runs.length === 1 ? B : C;
      winner.runs[0].resolve(text("once"));
      await winner.host.idle();
      assert.equal((await B.get(taskId)).status, "completed");
    } finally {
      await A.stop();
      await B.stop();
      await C.stop();
    }
  });

  test(`${engine}: a replica without the tool leaves the task to one that has it, and fails it only after twice the wait`, async () => {
    const open = fresh();
    const A = await replica(open, "A");
    const D = await replica(open, "D", { tools: false });
    try {
      const kept = await A.start("again", { n: 3 });
      await A.crash();
      await D.sweepAfter(1501);
      assert.equal((await D.get(kept)).status, "working", "left for a replica with the tool");
      const B = await replica(open, "B");
      try {
        await B.sweepAfter(1501);
        assert.equal(B.runs.length, 1);
        B.runs[0].resolve(text("B"));
        await B.host.idle();
        assert.equal((await D.get(kept)).status, "completed");
      } finally {
        await B.stop();
      }
      // Nobody with the tool: D fails it once it has waited twice the lease and grace.
      const E = await replica(open, "E");
      const lone = await E.start("again", { n: 4 });
      await E.crash();
      await D.sweepAfter(1501);
      assert.equal((await D.get(lone)).status, "working");
      D.t += 1501;
      await D.server.sweep();
      const task = await D.get(lone);
      assert.equal(task.status, "failed");
      assert.match(task.error.message, /replica running this task stopped/);
      await E.stop();
    } finally {
      await A.stop();
      await D.stop();
    }
  });

  test(`${engine}: a replica that shuts down cleanly leaves a re-runnable task to another replica (not failed)`, async () => {
    const open = fresh();
    const A = await replica(open, "A");
    const B = await replica(open, "B");
    try {
      const taskId = await A.start("again", { n: 5 });
      const once = await A.start("once", {});
      await A.host.close(); // a clean shutdown: the work is aborted
      assert.equal(A.runs[0].ctx.signal.aborted, true);
      assert.equal((await B.get(taskId)).status, "working");
      assert.equal((await B.get(once)).status, "failed", "a task of another tool fails at once, as before");
      await B.sweepAfter(1501);
      assert.equal(B.runs.length, 1);
      B.runs[0].resolve(text("after the restart"));
      await B.host.idle();
      assert.deepEqual((await B.get(taskId)).result.content, text("after the restart").content);
    } finally {
      await A.stop();
      await B.stop();
    }
  });

  test(`${engine}: the replica whose lease was taken (cut off from the storage) stops its work and stores nothing`, async () => {
    const open = fresh();
    const a = partitionable(await open());
    const A = await replica(open, "A", { storage: a });
    const B = await replica(open, "B");
    try {
      const taskId = await A.start("again", { n: 6 });
      a.down = true; // A's renewals fail from now on
      await B.sweepAfter(1501);
      assert.equal(B.runs.length, 1);
      a.down = false;
      // A's next renewal finds B's lease: A's work is aborted, never renewed back.
      const signal = A.runs[0].ctx.signal;
      for (let i = 0; i < 200 && !signal.aborted; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(signal.aborted, true);
      assert.match(String(signal.reason?.message), /re-run on another replica/);
      A.runs[0].resolve(text("from A"));
      await A.host.idle();
      assert.equal((await B.get(taskId)).status, "working", "A's late result was not stored");
      B.runs[0].resolve(text("from B"));
      await B.host.idle();
      assert.deepEqual((await B.get(taskId)).result.content, text("from B").content);
    } finally {
      await A.stop();
      await B.stop();
    }
  });
}

test("ToolOptions.rerun: maxAttempts is an integer from 1 to 100 (default 3)", () => {
  const host = new TaskHost();
  host.tool("ok", { rerun: {} }, () => text(""));
  assert.deepEqual(internals(host).tools.get("ok").options.rerun, { maxAttempts: 3 });
  for (const rerun of [{ maxAttempts: 0 }, { maxAttempts: 101 }, { maxAttempts: 1.5 }, true, null]) {
    assert.throws(() => host.tool("bad", { rerun }, () => text("")), (e) => e instanceof TypeError && /rerun/.test(e.message), JSON.stringify(rerun));
  }
});
