// Politeness: how many requests a client sends while it follows one task for 60 s of simulated
// time, ours (TaskClient, main entry pkg/node.mjs) against the official SDK's
// `client.experimental.tasks.callToolStream` loop (@modelcontextprotocol/sdk, its 2025-11-25
// polling), on the same scripted server.
//
//   node bench/politeness.mjs [--json bench/results/politeness.json]
//   env POLITENESS_SECONDS     simulated seconds per run (default 60)
//       POLITENESS_LATENCY_MS  simulated round trip of every request (default 10)
//       POLITENESS_SEEDS       jitter seeds of our client, one run each (default 1,2,3,4,5)
//
// The server (plain JS, in-process, speaks 2025-11-25): `initialize` is answered with the tasks
// capability; `tools/call` with `task` creates a task (working, ttl 1 h) and answers the
// CreateTaskResult; `tasks/get` answers the task, still working, unchanged, in every mode but:
//   no-interval      the task carries no `pollInterval`
//   interval-0       the task carries `pollInterval: 0` (creation and every tasks/get)
//   fail-rpc         every tasks/get answers the JSON-RPC error -32603 (creation as no-interval)
//   fail-transport   every tasks/get fails in the transport (no answer: a rejected send, as an
//                    HTTP client rejects on a 503 or a reset connection)
// Every request, answer or failure takes POLITENESS_LATENCY_MS of simulated time.
//
// Time: Node's `mock.timers` (node:test) mocks `setTimeout` and `Date` for both clients, so the
// SDK's `setTimeout(pollInterval)` sleeps, its request timeouts, our client's sleeps (its default
// clock: Date.now + setTimeout) and the server's latency all run on one virtual clock. The
// driver advances it 1 ms at a time and, after each step, lets every promise settle and fires
// the timers that became due at that instant (zero-delay ones included), until nothing more
// happens: no real waiting, and the SDK's zero-delay loop is not slowed by the driver.
//
// Contenders:
//   ours        new TaskClient({ request, protocolVersion: "2025-11-25", scheduler: { seed } })
//               .callTool("long_job", args, { task: { ttl } }); `request` hands the call to the
//               script (a JSON-RPC error becomes a rejection with `code`, a transport failure a
//               rejection without one). Default scheduler settings: floor 250 ms, default
//               interval 1000 ms, backoff 1 s doubling to 60 s, jitter +0–10 %.
//   sdk         a real SDK `Client` over `InMemoryTransport.createLinkedPair()`; the other end is
//               the script (no McpServer); `client.experimental.tasks.callToolStream(params,
//               CallToolResultSchema, { task: { ttl } })` consumed to its end. Its loop:
//               tasks/get, then `setTimeout(task.pollInterval ?? 1000)`; any error ends it.
//   sdk-resumed (failure modes only, hypothetical) the SDK's loop ends at the first error, so a
//               caller who wants to keep following the task polls on with the SDK's
//               `experimental.tasks.getTask` at the SDK's own pace (the last `pollInterval`, else
//               1000 ms), errors swallowed: what the SDK's fixed pace costs when it does not stop.
//
// Measured per run, over [0, POLITENESS_SECONDS] from the tools/call: requests by method, the
// minimum gap between consecutive tasks/get sends (and from the tools/call to the first one),
// the most task requests in any sliding floor window (250 ms), and how the run ended.
import { mock } from "node:test";
import { writeFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import os from "node:os";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SECONDS = Number(process.env.POLITENESS_SECONDS ?? 60);
const DURATION = SECONDS * 1000;
const LATENCY = Number(process.env.POLITENESS_LATENCY_MS ?? 10);
const SEEDS = (process.env.POLITENESS_SEEDS ?? "1,2,3,4,5").split(",").map(Number);
const FLOOR = 250;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const TTL = 3_600_000;
const V25 = "2025-11-25";
const MODES = ["no-interval", "interval-0", "fail-rpc", "fail-transport"];
const TASK_METHODS = new Set(["tools/call", "tasks/get", "tasks/result", "tasks/cancel"]);

// The MockTimers API prints an ExperimentalWarning; it says nothing about the measurement.
process.removeAllListeners("warning");

const { TaskClient } = await import(pathToFileURL(resolve(REPO, "pkg/node.mjs")).href);
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
const { CallToolResultSchema } = await import("@modelcontextprotocol/sdk/types.js");
const sdkVersion = JSON.parse(readFileSync(resolve(REPO, "node_modules/@modelcontextprotocol/sdk/package.json"), "utf8")).version;

// ---- the scripted server -------------------------------------------------------------------------

/**
 * One server per run. `answer(method, params)` → `{ result }`, `{ error }`, `{ transport: true }`
 * or `null` (a notification: no answer). `record` notes every request as it arrives, at its
 * virtual time; the run's t = 0 (`origin`) is the tools/call.
 */
function scriptedServer(mode) {
  const sent = [];
  let created = null;
  const iso = (ms) => new Date(ms).toISOString();
  const task = () => ({
    taskId: created.taskId,
    status: "working",
    createdAt: iso(created.at),
    lastUpdatedAt: iso(created.at),
    ttl: TTL,
    ...(mode === "interval-0" ? { pollInterval: 0 } : {}),
  });
  const server = {
    sent,
    origin: null,
    record(method) {
      const now = Date.now();
      if (method === "tools/call" && server.origin === null) server.origin = now;
      sent.push({ method, now });
      progress++;
    },
    answer(method, params) {
      switch (method) {
        case "initialize":
          return {
            result: {
              protocolVersion: V25,
              capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
              serverInfo: { name: "scripted", version: "1.0.0" },
            },
          };
        case "tools/call":
          if (!params?.task) return { result: { content: [{ type: "text", text: "done at once" }] } };
          created = { taskId: "7d6c4a1e-93b1-4d2f-8a55-0c3e9f1b2a64", at: Date.now() };
          return { result: { task: task() } };
        case "tasks/get":
          if (mode === "fail-rpc") return { error: { code: -32603, message: "Internal error: backend unavailable" } };
          if (mode === "fail-transport") return { transport: true };
          if (!created || params?.taskId !== created.taskId) return { error: { code: -32602, message: "Task not found" } };
          return { result: task() };
        case "tasks/cancel":
          return { result: { ...task(), status: "cancelled" } };
        default:
          if (method.startsWith("notifications/")) return null;
          return { error: { code: -32601, message: `Method not found: ${method}` } };
      }
    },
  };
  return server;
}

// ---- virtual time ----------------------------------------------------------------------------------

let progress = 0; // bumped by every request and answer: "something happened"
const realImmediate = () => new Promise((r) => setImmediate(r));
const later = (ms) => new Promise((r) => setTimeout(r, ms)); // mocked while a run is driven

/** Lets every promise settle and fires the timers due now, until two rounds change nothing. */
async function settle() {
  for (let quiet = 0; quiet < 2; ) {
    const before = progress;
    await realImmediate();
    mock.timers.tick(0);
    await realImmediate();
    quiet = progress === before ? quiet + 1 : 0;
  }
}

/**
 * Runs `start()` in virtual time from T0 and advances the clock 1 ms at a time until DURATION
 * after the tools/call; then `stop()` (what the run answers).
 */
async function inVirtualTime(server, start) {
  mock.timers.enable({ apis: ["setTimeout", "Date"], now: T0 });
  try {
    const handle = start();
    await settle();
    const cap = T0 + DURATION + 10_000;
    for (;;) {
      const now = Date.now();
      if (server.origin !== null ? now >= server.origin + DURATION : now >= cap) break;
      mock.timers.tick(1);
      await settle();
    }
    return await handle.stop();
  } finally {
    mock.timers.reset();
  }
}

/** Requests by method, gaps and windows over [0, DURATION] from the tools/call. */
function measure(server) {
  if (server.origin === null) throw new Error("no tools/call was sent");
  const sent = server.sent.map((s) => ({ method: s.method, at: s.now - server.origin })).filter((s) => s.at >= 0 && s.at <= DURATION && TASK_METHODS.has(s.method));
  const requests = {};
  for (const s of sent) requests[s.method] = (requests[s.method] ?? 0) + 1;
  const gets = sent.filter((s) => s.method === "tasks/get").map((s) => s.at);
  let minGap = null;
  for (let i = 1; i < gets.length; i++) minGap = Math.min(minGap ?? Infinity, gets[i] - gets[i - 1]);
  // Most task requests (tools/call included) in any window of FLOOR ms, and of 1 s.
  const most = (w) => {
    let best = 0;
    for (let i = 0, j = 0; i < sent.length; i++) {
      while (sent[i].at - sent[j].at >= w) j++;
      best = Math.max(best, i - j + 1);
    }
    return best;
  };
  return {
    total: sent.length,
    requests,
    firstPollAt: gets.length ? gets[0] : null,
    lastPollAt: gets.length ? gets.at(-1) : null,
    minGetGap: minGap,
    maxPerFloorWindow: most(FLOOR),
    maxPerSecond: most(1000),
    getTimes: gets.length <= 20 ? gets : undefined,
  };
}

// ---- ours ------------------------------------------------------------------------------------------

async function runOurs(mode, seed) {
  const server = scriptedServer(mode);
  const events = {};
  const ended = await inVirtualTime(server, () => {
    let outcome = "still following at the end";
    let endedAt = null;
    const request = async (method, params) => {
      server.record(method);
      const a = server.answer(method, params);
      await later(LATENCY);
      progress++;
      if (a.transport) throw new TypeError("fetch failed");
      if (a.error) throw Object.assign(new Error(a.error.message), a.error);
      return a.result;
    };
    // The default clock (Date.now + setTimeout), virtualised by mock.timers like the SDK's.
    const client = new TaskClient({ request, protocolVersion: V25, server: "scripted", scheduler: { seed } });
    (async () => {
      for await (const e of client.events()) events[e.type] = (events[e.type] ?? 0) + 1;
    })();
    client.callTool("long_job", { rows: 42 }, { task: { ttl: TTL } }).then(
      () => ((outcome = "completed"), (endedAt = Date.now())),
      (e) => ((outcome = `${e.name}: ${e.message}`), (endedAt = Date.now())),
    );
    return {
      async stop() {
        const r = { outcome, endedAt: endedAt === null ? null : endedAt - server.origin };
        client.close();
        await realImmediate();
        return r;
      },
    };
  });
  return { ...measure(server), ...ended, events };
}

// ---- the SDK -----------------------------------------------------------------------------------------

/** The SDK Client's transport pair, its other end answered by the script after LATENCY. */
function scriptedTransport(server, mode) {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  serverTransport.onmessage = (message) => {
    if (!("method" in message)) return;
    server.record(message.method);
    const a = server.answer(message.method, message.params);
    if (a === null || message.id === undefined) return;
    setTimeout(() => {
      progress++;
      if (a.error) serverTransport.send({ jsonrpc: "2.0", id: message.id, error: a.error });
      else serverTransport.send({ jsonrpc: "2.0", id: message.id, result: a.result });
    }, LATENCY);
  };
  // Transport failures: the send of a failing tasks/get rejects after the round trip, as the
  // SDK's Streamable HTTP client transport rejects on a 503 or a reset connection.
  const send = clientTransport.send.bind(clientTransport);
  clientTransport.send = async (message, options) => {
    if (mode === "fail-transport" && message.method === "tasks/get") {
      server.record(message.method);
      await later(LATENCY);
      progress++;
      throw new TypeError("fetch failed");
    }
    return send(message, options);
  };
  return { clientTransport, serverTransport };
}

async function runSdk(mode, resumed) {
  const server = scriptedServer(mode);
  const messages = {};
  const ended = await inVirtualTime(server, () => {
    let outcome = "still following at the end";
    let streamEnd = null;
    let streamEndedAt = null;
    let stopped = false;
    (async () => {
      const { clientTransport, serverTransport } = scriptedTransport(server, mode);
      await serverTransport.start();
      const client = new Client({ name: "bench", version: "1.0.0" }, { capabilities: {} });
      await client.connect(clientTransport);
      let taskId = null;
      let lastInterval;
      const stream = client.experimental.tasks.callToolStream({ name: "long_job", arguments: { rows: 42 } }, CallToolResultSchema, { task: { ttl: TTL } });
      for await (const m of stream) {
        messages[m.type] = (messages[m.type] ?? 0) + 1;
        if (m.type === "taskCreated") [taskId, lastInterval] = [m.task.taskId, m.task.pollInterval];
        if (m.type === "taskStatus") lastInterval = m.task.pollInterval;
        if (m.type === "error") streamEnd = `the stream yielded an error and ended: ${m.error.message}`;
        if (m.type === "result") streamEnd = "completed";
      }
      streamEndedAt = Date.now() - server.origin;
      outcome = streamEnd ?? "the stream ended";
      if (!resumed || taskId === null) return;
      // Hypothetical caller: keep following with the SDK's getTask at the SDK's own pace.
      outcome = `${outcome}; the caller kept polling`;
      while (!stopped) {
        await later(lastInterval ?? 1000);
        if (stopped) return;
        try {
          lastInterval = (await client.experimental.tasks.getTask(taskId)).pollInterval;
        } catch {
          // swallowed: poll again at the same pace
        }
      }
    })().catch((e) => (outcome = `driver error: ${e.stack}`));
    return {
      async stop() {
        stopped = true;
        return { outcome, streamEndedAt };
      },
    };
  });
  return { ...measure(server), ...ended, messages };
}

// ---- main --------------------------------------------------------------------------------------------

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const loadStart = os.loadavg();
console.log(`# politeness: node ${process.version}, SDK ${sdkVersion}, ${SECONDS} s simulated per run, round trip ${LATENCY} ms, our seeds ${SEEDS.join(",")}, load ${loadStart.map((x) => x.toFixed(2)).join(" ")}`);
const started = performance.now();
const modes = {};
for (const mode of MODES) {
  const oursRuns = [];
  for (const seed of SEEDS) oursRuns.push({ seed, ...(await runOurs(mode, seed)) });
  const sdk = await runSdk(mode, false);
  const sdkResumed = mode.startsWith("fail") ? await runSdk(mode, true) : null;
  const minOf = (k) => {
    const v = oursRuns.map((r) => r[k]).filter((x) => x !== null);
    return v.length ? Math.min(...v) : null;
  };
  const ours = {
    runs: oursRuns,
    totalMedian: median(oursRuns.map((r) => r.total)),
    totalMin: Math.min(...oursRuns.map((r) => r.total)),
    totalMax: Math.max(...oursRuns.map((r) => r.total)),
    getsMedian: median(oursRuns.map((r) => r.requests["tasks/get"] ?? 0)),
    minGetGap: minOf("minGetGap"),
    minFirstPollAt: minOf("firstPollAt"),
    maxPerFloorWindow: Math.max(...oursRuns.map((r) => r.maxPerFloorWindow)),
    maxPerSecond: Math.max(...oursRuns.map((r) => r.maxPerSecond)),
  };
  modes[mode] = { ours, sdk, sdkResumed };
  const line = (who, r) =>
    `  ${mode.padEnd(15)} ${who.padEnd(12)} ${String(r.total ?? r.totalMedian).padStart(6)} requests (${JSON.stringify(r.requests ?? { "tasks/get (median)": r.getsMedian })}), ` +
    `first poll at ${r.firstPollAt ?? r.minFirstPollAt} ms, min gap ${r.minGetGap ?? "—"} ms, ≤${r.maxPerFloorWindow} per ${FLOOR} ms` +
    (r.outcome ? `; ${r.outcome}` : "");
  console.log(line("ours", ours) + ` (runs ${ours.totalMin}–${ours.totalMax}; ${oursRuns[0].outcome}; events ${JSON.stringify(oursRuns[0].events)})`);
  console.log(line("sdk", sdk) + (sdk.streamEndedAt !== null ? ` at ${sdk.streamEndedAt} ms` : ""));
  if (sdkResumed) console.log(line("sdk-resumed", sdkResumed));
}
const loadEnd = os.loadavg();
console.log(`# ${((performance.now() - started) / 1000).toFixed(1)} s of real time`);

const i = process.argv.indexOf("--json");
if (i > 0) {
  mkdirSync(dirname(process.argv[i + 1]), { recursive: true });
  writeFileSync(
    process.argv[i + 1],
    JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        sdk: sdkVersion,
        seconds: SECONDS,
        latencyMs: LATENCY,
        floorMs: FLOOR,
        seeds: SEEDS,
        time: "node:test mock.timers (setTimeout, Date), 1 ms steps; no real waiting",
        loadStart,
        loadEnd,
        realSeconds: (performance.now() - started) / 1000,
        modes,
      },
      null,
      2,
    ),
  );
}
