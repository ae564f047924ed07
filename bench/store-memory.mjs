// Memory per live (working) task, each contender in fresh `node --expose-gc` processes.
//
//   node bench/store-memory.mjs [--json bench/results/store-memory.json]
//   env STORE_MEMORY_SIZES  cumulative task counts measured (default 1000,10000,100000)
//
//   ours  the wasm linear memory (`initSync()` answers the instance's exports, `memory.buffer
//         .byteLength`) before the first and after the Nth `store.create(...)`, ÷ N. The memory
//         grows in 64 KiB pages and never shrinks; it holds the records, their indexes and the
//         allocator's slack (hash tables and B-trees grow by doubling), all of it.
//         The JS heap growth is recorded too (nothing of ours should stay on it).
//   sdk   `process.memoryUsage().heapUsed` after `global.gc()` before the first and after the
//         Nth `await store.createTask(...)`, ÷ N: the map entry, the Task object, the kept
//         request and requestId, the per-task `setTimeout` (Timeout object and timer list).
//         Two variants: each task keeps its own request object (as in a server, where every
//         `tools/call` is a separate parsed message: the realistic figure), and every task shares
//         one request object (the store's own overhead only).
// The task: bench/store-setup.mjs (V25, ttl 1 h, one session). Answers are discarded.
import { spawnSync } from "node:child_process";
import { writeFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import os from "node:os";
import {
  loadOurs, loadSdk, packageInfo, describeWorkload,
  OURS_OPTIONS, OURS_CREATE, OURS_CTX, SDK_TASK_PARAMS, SESSION, toolsCallRequest,
} from "./store-setup.mjs";

const SIZES = (process.env.STORE_MEMORY_SIZES ?? "1000,10000,100000").split(",").map(Number).sort((a, b) => a - b);

const heap = () => {
  global.gc();
  global.gc();
  return process.memoryUsage().heapUsed;
};

if (process.argv[2] === "--child") {
  const which = process.argv[3];
  const points = [];
  if (which === "ours") {
    const { TaskStore, memory } = await loadOurs();
    const store = new TaskStore(OURS_OPTIONS);
    const w0 = memory.buffer.byteLength;
    const h0 = heap();
    let made = 0;
    for (const n of SIZES) {
      for (; made < n; made++) store.create(OURS_CREATE, OURS_CTX);
      const w = memory.buffer.byteLength;
      const h = heap();
      points.push({ tasks: n, wasmBytes: w - w0, heapBytes: h - h0, wasmPerTask: (w - w0) / n, heapPerTask: (h - h0) / n });
    }
    if (store.list({ limit: 1 }, OURS_CTX).tasks[0]?.status !== "working") throw new Error("ours: tasks not working");
    points.push({ wasmTotal: memory.buffer.byteLength });
  } else {
    const { InMemoryTaskStore } = await loadSdk();
    const store = new InMemoryTaskStore();
    const shared = toolsCallRequest();
    const own = which === "sdk-own-request";
    const h0 = heap();
    let made = 0;
    for (const n of SIZES) {
      for (; made < n; made++) await store.createTask(SDK_TASK_PARAMS, made, own ? toolsCallRequest() : shared, SESSION);
      const h = heap();
      points.push({ tasks: n, heapBytes: h - h0, heapPerTask: (h - h0) / n });
    }
    if ((await store.listTasks(undefined, SESSION)).tasks[0]?.status !== "working") throw new Error("sdk: tasks not working");
    store.cleanup();
  }
  process.stdout.write(JSON.stringify(points));
  process.exit(0);
}

const loadStart = os.loadavg();
console.log(`# store memory: node ${process.version}, sizes ${SIZES.join(", ")}, load ${loadStart.map((x) => x.toFixed(2)).join(" ")}`);
const contenders = {};
for (const which of ["ours", "sdk-own-request", "sdk-shared-request"]) {
  const p = spawnSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), "--child", which], { encoding: "utf8", env: { ...process.env, STORE_MEMORY_SIZES: SIZES.join(",") } });
  if (p.status !== 0) throw new Error(`${which}: ${p.stderr}`);
  const points = JSON.parse(p.stdout);
  const extra = points.at(-1)?.tasks === undefined ? points.pop() : null;
  contenders[which] = { points, ...extra };
  for (const pt of points) {
    console.log(
      `  ${which.padEnd(18)} ${String(pt.tasks).padStart(7)} tasks: ` +
        (pt.wasmBytes !== undefined ? `wasm +${pt.wasmBytes} B (${pt.wasmPerTask.toFixed(0)} B/task), ` : "") +
        `JS heap +${pt.heapBytes} B (${pt.heapPerTask.toFixed(0)} B/task)`,
    );
  }
}
const loadEnd = os.loadavg();
const i = process.argv.indexOf("--json");
if (i > 0) {
  mkdirSync(dirname(process.argv[i + 1]), { recursive: true });
  writeFileSync(process.argv[i + 1], JSON.stringify({ date: new Date().toISOString(), node: process.version, ...packageInfo(), workload: describeWorkload, sizes: SIZES, loadStart, loadEnd, contenders }, null, 2));
}
