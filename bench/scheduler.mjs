// TaskScheduler (main entry, pkg/node.mjs) with 100,000 tracked tasks: throughput of `track`,
// of `nextDue` (all due tasks at once, and in batches), of `observe` / `observeError`
// (rescheduling), and the wasm memory per tracked task.
//
//   node bench/scheduler.mjs [--json bench/results/scheduler.json]
//   env SCHED_TASKS         tracked tasks (default 100000)
//   env SCHED_RUNS          timed runs, each on a fresh scheduler (default 5; the median is reported)
//   env SCHED_MEMORY_SIZES  task counts of the memory measurement (default 1000,10000,100000)
//
// The tasks: keys like real ones, `srv-<k>/<UUID v4>` (42 characters, 4 servers, as in the native
// tests/schedule_memory.rs), each tracked with the V25 task of its CreateTaskResult (working,
// ttl 1 h, pollInterval 2000 ms) and `server` set; default options (floor 250 ms, jitter +0–10 %,
// no budget), a fixed seed. Every snapshot, key and params object is built before timing; the
// calls are the public API, so each includes the JS ↔ wasm crossing (the key string, the task
// object read member by member, the events array answered). Time is passed explicitly
// (`now`), so no clock is read.
//
// One timed run, on a fresh scheduler, in this order (each phase timed alone):
//   track          N × track(key, { server, task }, t0)
//   nextDue all    one nextDue(t1) handing out all N polls (every task is due at t1)
//   observe        N × observe(key, snapshot, t1): answered, rescheduled 2000 ms (+ jitter) later
//   nextDue ×100   nextDue(t2, 100) until it answers nothing: N/100 calls (the queue now holds a
//                  stale item per task as well: the lazy deletion's worst case)
//   observe        again, at t2
//   nextDue ×1000  nextDue(t3, 1000) until empty
//   observeError   N × observeError(key, { code: -32603 }, t3): failed, backed off
// then, on a second fresh scheduler, where the time goes: track(key, { server }, t0) with no
// snapshot (due at once), nextDue (untimed), observe(key, { status: "working" }, t1): the first
// status of each task, the smallest snapshot there is.
// Throughput = N ÷ phase time (tasks per second; for nextDue, polls handed out per second).
//
// Memory, each in a fresh process (wasm memory only grows, so a measurement must start from a
// fresh instance): the wasm linear memory (`initSync()` answers the instance's exports, as in
// bench/store-memory.mjs) before the scheduler is created and after the Nth track, ÷ N; then after
// every task was handed out (nextDue all at once, or in batches of 1000) and observed once. It
// counts 64 KiB pages: the entries, the interned keys, the index, the queue, the allocator's
// slack and any transient peak (the memory never shrinks), all of it.
import { spawnSync } from "node:child_process";
import { writeFileSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createHash, randomUUID } from "node:crypto";
import os from "node:os";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const WASM = resolve(REPO, "pkg/mcp_tasks_wasm_bg.wasm");
const N = Number(process.env.SCHED_TASKS ?? 100_000);
const RUNS = Math.max(1, Number(process.env.SCHED_RUNS ?? 5));
const SIZES = (process.env.SCHED_MEMORY_SIZES ?? "1000,10000,100000").split(",").map(Number).sort((a, b) => a - b);
const TARGET_BYTES = 256;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const SEED = 42;

async function loadOurs() {
  const mod = await import(pathToFileURL(resolve(REPO, "pkg/node.mjs")).href);
  const glue = await import(pathToFileURL(resolve(REPO, "pkg/mcp_tasks_wasm.js")).href); // the entry exports no initSync
  const exports = glue.initSync(); // node.mjs has already instantiated the module: the exports
  if (!(exports?.memory instanceof WebAssembly.Memory)) throw new Error("pkg: initSync() gave no wasm memory");
  return { TaskScheduler: mod.TaskScheduler, memory: exports.memory };
}

/** `n` tasks: keys, track params and the tasks/get answer each gets. */
function workload(n) {
  const iso = new Date(T0).toISOString();
  const keys = [];
  const params = [];
  const snapshots = [];
  for (let i = 0; i < n; i++) {
    const taskId = randomUUID();
    const server = `srv-${i % 4}`;
    keys.push(`${server}/${taskId}`);
    const task = { taskId, status: "working", createdAt: iso, lastUpdatedAt: iso, ttl: 3_600_000, pollInterval: 2000 };
    params.push({ server, task });
    snapshots.push({ ...task });
  }
  return { keys, params, snapshots };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// ---- memory (child process) ---------------------------------------------------------------------

if (process.argv[2] === "--memory") {
  const how = process.argv[3]; // "all" | "batched"
  const { TaskScheduler, memory } = await loadOurs();
  const max = SIZES.at(-1);
  const { keys, params, snapshots } = workload(max);
  const w0 = memory.buffer.byteLength;
  const s = new TaskScheduler({ seed: SEED });
  const points = [];
  let made = 0;
  for (const n of SIZES) {
    for (; made < n; made++) s.track(keys[made], params[made], T0);
    const w = memory.buffer.byteLength - w0;
    points.push({ tasks: n, phase: "tracked", wasmBytes: w, perTask: w / n });
  }
  // Every task polled and answered once.
  const t1 = T0 + 10_000;
  let handed = 0;
  if (how === "all") {
    const due = s.nextDue(t1);
    handed = due.length;
    for (const e of due) s.observe(e.key, snapshots[0], t1);
  } else {
    for (;;) {
      const due = s.nextDue(t1, 1000);
      if (due.length === 0) break;
      handed += due.length;
      for (const e of due) s.observe(e.key, snapshots[0], t1);
    }
  }
  if (handed !== max) throw new Error(`memory: ${handed} polls handed out, expected ${max}`);
  const w = memory.buffer.byteLength - w0;
  points.push({ tasks: max, phase: how === "all" ? "after a round (nextDue all at once)" : "after a round (nextDue in batches of 1000)", wasmBytes: w, perTask: w / max });
  if (how === "all") {
    // A second round the same way: the peak of the first is reused, not added again.
    const t2 = t1 + 10_000;
    const due = s.nextDue(t2);
    if (due.length !== max) throw new Error(`memory: second round handed out ${due.length}`);
    for (const e of due) s.observe(e.key, snapshots[0], t2);
    const w2 = memory.buffer.byteLength - w0;
    points.push({ tasks: max, phase: "after a second round (nextDue all at once)", wasmBytes: w2, perTask: w2 / max });
  }
  if (s.size !== max) throw new Error("memory: size");
  process.stdout.write(JSON.stringify({ points, wasmStart: w0, wasmEnd: memory.buffer.byteLength }));
  process.exit(0);
}

// ---- throughput ------------------------------------------------------------------------------------

const { TaskScheduler } = await loadOurs();
const loadStart = os.loadavg();
console.log(`# scheduler: node ${process.version}, ${N.toLocaleString("en-US")} tasks, ${RUNS} runs, load ${loadStart.map((x) => x.toFixed(2)).join(" ")}`);
const { keys, params, snapshots } = workload(N);
const error = { code: -32603, message: "Internal error" };
const bareParams = params.map((p) => ({ server: p.server }));
const MINIMAL = { status: "working" };

const time = (f) => {
  const t = performance.now();
  const r = f();
  return [performance.now() - t, r];
};

function drain(s, now, limit) {
  let handed = 0;
  let calls = 0;
  for (;;) {
    const due = s.nextDue(now, limit);
    calls++;
    if (due.length === 0) break;
    handed += due.length;
    for (let i = 0; i < due.length; i++) if (due[i].type !== "poll") throw new Error(`unexpected ${due[i].type}`);
  }
  return { handed, calls };
}

function oneRun() {
  const s = new TaskScheduler({ seed: SEED });
  const ms = {};
  const t1 = T0 + 10_000;
  const t2 = t1 + 10_000;
  const t3 = t2 + 10_000;
  [ms.track] = time(() => {
    for (let i = 0; i < N; i++) s.track(keys[i], params[i], T0);
  });
  let due;
  [ms.nextDueAll, due] = time(() => s.nextDue(t1));
  if (due.length !== N) throw new Error(`nextDue: ${due.length} polls, expected ${N}`);
  // Answer in key order (the order does not matter to the scheduler; the snapshot does not change).
  [ms.observe] = time(() => {
    for (let i = 0; i < N; i++) s.observe(keys[i], snapshots[i], t1);
  });
  let d;
  [ms.nextDue100, d] = time(() => drain(s, t2, 100));
  if (d.handed !== N) throw new Error(`nextDue(100): ${d.handed}`);
  [ms.observe2] = time(() => {
    for (let i = 0; i < N; i++) s.observe(keys[i], snapshots[i], t2);
  });
  [ms.nextDue1000, d] = time(() => drain(s, t3, 1000));
  if (d.handed !== N) throw new Error(`nextDue(1000): ${d.handed}`);
  let events;
  [ms.observeError, events] = time(() => {
    let polls = 0;
    for (let i = 0; i < N; i++) polls += s.observeError(keys[i], error, t3).length;
    return polls;
  });
  if (events !== N) throw new Error(`observeError: ${events} events`);
  const wake = s.nextWakeAt();
  if (!(wake >= t3 + 1000)) throw new Error(`nextWakeAt ${wake}`);
  s.free();
  // Where the time goes: the same calls with no snapshot to read.
  const b = new TaskScheduler({ seed: SEED });
  [ms.trackBare] = time(() => {
    for (let i = 0; i < N; i++) b.track(keys[i], bareParams[i], T0);
  });
  if (b.nextDue(t1).length !== N) throw new Error("bare: nextDue");
  [ms.observeMinimal] = time(() => {
    for (let i = 0; i < N; i++) b.observe(keys[i], MINIMAL, t1);
  });
  b.free();
  return ms;
}

oneRun(); // warm-up (JIT, wasm tiering, memory grown once)
const runs = [];
for (let r = 0; r < RUNS; r++) runs.push(oneRun());
const phases = {
  track: { label: "track(key, { server, task }, now)", ops: N },
  nextDueAll: { label: "nextDue(now): all N due at once, one call", ops: N },
  nextDue100: { label: "nextDue(now, 100) until empty", ops: N, calls: Math.ceil(N / 100) + 1 },
  nextDue1000: { label: "nextDue(now, 1000) until empty", ops: N, calls: Math.ceil(N / 1000) + 1 },
  observe: { label: "observe(key, task, now): answered, rescheduled", ops: N },
  observe2: { label: "observe, second round (stale queue items present)", ops: N },
  observeError: { label: "observeError(key, { code: -32603 }, now): backed off", ops: N },
  trackBare: { label: "(no snapshot) track(key, { server }, now): due at once", ops: N, diagnostic: true },
  observeMinimal: { label: "(no snapshot) observe(key, { status: \"working\" }, now)", ops: N, diagnostic: true },
};
const throughput = {};
for (const [k, p] of Object.entries(phases)) {
  const times = runs.map((r) => r[k]);
  const m = median(times);
  throughput[k] = { ...p, msMedian: m, msMin: Math.min(...times), msMax: Math.max(...times), opsPerSec: (p.ops / m) * 1000, nsPerOp: (m * 1e6) / p.ops };
  console.log(`  ${p.label.padEnd(52)} ${m.toFixed(1).padStart(7)} ms for ${N} (${(throughput[k].opsPerSec / 1e6).toFixed(2)} M/s, ${throughput[k].nsPerOp.toFixed(0)} ns each; runs ${Math.min(...times).toFixed(1)}–${Math.max(...times).toFixed(1)} ms)`);
}
const loadMid = os.loadavg();

const memory = {};
for (const how of ["all", "batched"]) {
  const p = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--memory", how], { encoding: "utf8", env: { ...process.env, SCHED_MEMORY_SIZES: SIZES.join(",") } });
  if (p.status !== 0) throw new Error(`memory ${how}: ${p.stderr}`);
  memory[how] = JSON.parse(p.stdout);
  for (const pt of memory[how].points) {
    if (how === "batched" && pt.phase === "tracked") continue;
    console.log(`  memory ${String(pt.tasks).padStart(7)} tasks, ${pt.phase}: wasm +${pt.wasmBytes} B = ${pt.perTask.toFixed(1)} B/task (target < ${TARGET_BYTES})`);
  }
}
const loadEnd = os.loadavg();

const i = process.argv.indexOf("--json");
if (i > 0) {
  const wasm = readFileSync(WASM);
  mkdirSync(dirname(process.argv[i + 1]), { recursive: true });
  writeFileSync(
    process.argv[i + 1],
    JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        wasmSha256: createHash("sha256").update(wasm).digest("hex").slice(0, 16),
        wasmBuilt: new Date(statSync(WASM).mtimeMs).toISOString(),
        tasks: N,
        runs: RUNS,
        keyLength: keys[0].length,
        workload: { key: "srv-<k>/<UUID v4>, 4 servers", track: params[0], options: { seed: SEED } },
        targetBytesPerTask: TARGET_BYTES,
        loadStart,
        loadMid,
        loadEnd,
        throughput,
        memory,
      },
      null,
      2,
    ),
  );
}
