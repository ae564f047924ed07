// Task store: our TaskStore (pkg/server, wasm) vs the SDK's InMemoryTaskStore, in the same
// process, contenders interleaved run by run. The workload is described in bench/store-setup.mjs.
//
//   node bench/store.mjs [--json bench/results/store.json] [--only ops|list]
//   env BENCH_RUNS         timed runs per contender (default 7, at least 5)
//       BENCH_MS           target ms per timed run of a single-operation benchmark (default 150)
//       STORE_LIST_SIZES   stored tasks for the paging benchmark (default 10000,100000)
//       STORE_SDK_BIG_RUNS timed SDK paging runs at >= 100,000 tasks (default 3, at least 1: each
//                          takes about 100 s on the reference machine, the SDK being quadratic)
//
// 1. Single operations (ops/s; n calibrated so a run takes about BENCH_MS; setup untimed):
//    create    ours store.create(params, {session})           sdk await createTask(params, id, request, session)
//              (a fresh, empty store per run; it grows to n tasks during the run)
//    get       ours store.get(id, {session})                  sdk await getTask(id, session)
//              (one store of 10,000 working tasks, ids visited in creation order, round robin,
//              each read once untimed before timing; ours answers its kept answers: no write)
//    get-miss  the same, but ours writes once per pass over the tasks (a status message on an
//              extra task), so each of its reads follows a write to another task (its kept answer
//              is used after a check of the task's revision)
//    complete  ours store.complete(id, result, null, {session}) sdk await storeTaskResult(id, "completed", result, session)
//              (a fresh store of n working tasks per run, each completed once)
//    The SDK's methods are async: its figures include one `await` per operation, as any caller
//    of its TaskStore interface pays. Every answer is checked (status) during the timed runs.
// 2. Paging (`tasks/list` semantics): from no cursor, list with the previous nextCursor until
//    none; total ms for all N tasks of the session. Ours at its default page size (50) and at the
//    SDK's fixed page size (10, via `{ cursor, limit: 10 }`); sdk `await listTasks(cursor, session)`
//    (PAGE_SIZE = 10, not configurable). Before timing, one untimed pass of each contender checks
//    that it answers every task exactly once (the SDK's at sizes below 100,000 only: at 100,000 it
//    takes as long as a timed run; its timed runs still check the task and page counts), then one
//    untimed warm-up pass.
import { writeFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import os from "node:os";
import {
  loadOurs, loadSdk, median, packageInfo, describeWorkload,
  OURS_OPTIONS, OURS_CREATE, OURS_CTX, SDK_TASK_PARAMS, SESSION, RESULT, toolsCallRequest,
} from "./store-setup.mjs";
import { argVal, RUNS, RUN_MS, WARM_MS } from "./settings.mjs";

const LIST_SIZES = (process.env.STORE_LIST_SIZES ?? "10000,100000").split(",").map(Number);
const SDK_BIG_RUNS = Math.max(1, Number(process.env.STORE_SDK_BIG_RUNS ?? 3));
const GET_STORE_SIZE = 10_000;
const SDK_PAGE = 10; // InMemoryTaskStore.listTasks: const PAGE_SIZE = 10
const only = argVal("--only");
const jsonOut = argVal("--json");

const { TaskStore } = await loadOurs();
const { InMemoryTaskStore } = await loadSdk();
const REQUEST = toolsCallRequest();
const loadStr = (l) => l.map((x) => x.toFixed(2)).join(" ");

// ---- populate (untimed) ---------------------------------------------------------------------------
function oursStore(n) {
  const store = new TaskStore(OURS_OPTIONS);
  const ids = new Array(n);
  for (let i = 0; i < n; i++) ids[i] = store.create(OURS_CREATE, OURS_CTX).taskId;
  return { store, ids };
}
async function sdkStore(n) {
  const store = new InMemoryTaskStore();
  const ids = new Array(n);
  for (let i = 0; i < n; i++) ids[i] = (await store.createTask(SDK_TASK_PARAMS, i, REQUEST, SESSION)).taskId;
  return { store, ids };
}
const freeOurs = (s) => s.store.free();
const freeSdk = (s) => s.store.cleanup(); // clears its per-task setTimeout timers and the map

// ---- single operations ----------------------------------------------------------------------------
// Each contender: setup(n) → state (untimed), run(state, n) → how many answers were right (timed),
// teardown(state) (untimed). Distinct function literals: no shared type feedback.
let oursGetStore = null;
let oursMissStore = null;
let sdkGetStore = null;
// One untimed read of every task before timing (both contenders), so that every timed run
// measures the same steady state whatever its n.
const warm = (s) => {
  for (const id of s.ids) s.store.get(id, OURS_CTX);
  return s;
};
const sdkWarm = async (s) => {
  for (const id of s.ids) await s.store.getTask(id, SESSION);
  return s;
};
const withSentinel = (s) => ({ ...s, sentinel: s.store.create(OURS_CREATE, OURS_CTX).taskId });
const OPS = {
  create: {
    ours: {
      setup: () => ({ store: new TaskStore(OURS_OPTIONS) }),
      run(s, n) {
        const store = s.store;
        let ok = 0;
        for (let i = 0; i < n; i++) if (store.create(OURS_CREATE, OURS_CTX).status === "working") ok++;
        return ok;
      },
      teardown: freeOurs,
    },
    sdk: {
      setup: () => ({ store: new InMemoryTaskStore() }),
      async run(s, n) {
        const store = s.store;
        let ok = 0;
        for (let i = 0; i < n; i++) if ((await store.createTask(SDK_TASK_PARAMS, i, REQUEST, SESSION)).status === "working") ok++;
        return ok;
      },
      teardown: freeSdk,
    },
  },
  get: {
    ours: {
      setup: () => (oursGetStore ??= warm(oursStore(GET_STORE_SIZE))),
      run(s, n) {
        const store = s.store, ids = s.ids, m = ids.length;
        let ok = 0;
        for (let i = 0; i < n; i++) if (store.get(ids[i % m], OURS_CTX).status === "working") ok++;
        return ok;
      },
      teardown() {},
    },
    sdk: {
      setup: async () => (sdkGetStore ??= await sdkWarm(await sdkStore(GET_STORE_SIZE))),
      async run(s, n) {
        const store = s.store, ids = s.ids, m = ids.length;
        let ok = 0;
        for (let i = 0; i < n; i++) if ((await store.getTask(ids[i % m], SESSION)).status === "working") ok++;
        return ok;
      },
      teardown() {},
    },
  },
  // Ours keeps the last answer of each task until the store's next write: "get" reads those. Here
  // the store writes once per pass over its tasks (a status message on a task of its own, one
  // write per 10,000 reads), so every read goes through the core: the first read after a write.
  // The SDK keeps nothing: its code is that of "get".
  "get-miss": {
    ours: {
      setup: () => (oursMissStore ??= withSentinel(oursStore(GET_STORE_SIZE))),
      run(s, n) {
        const store = s.store, ids = s.ids, m = ids.length;
        let ok = 0;
        for (let i = 0; i < n; i++) {
          if (i % m === 0) store.setStatus(s.sentinel, "working", `pass ${i}`, OURS_CTX);
          if (store.get(ids[i % m], OURS_CTX).status === "working") ok++;
        }
        return ok;
      },
      teardown() {},
    },
    sdk: {
      setup: async () => (sdkGetStore ??= await sdkWarm(await sdkStore(GET_STORE_SIZE))),
      async run(s, n) {
        const store = s.store, ids = s.ids, m = ids.length;
        let ok = 0;
        for (let i = 0; i < n; i++) if ((await store.getTask(ids[i % m], SESSION)).status === "working") ok++;
        return ok;
      },
      teardown() {},
    },
  },
  complete: {
    ours: {
      setup: (n) => oursStore(n),
      run(s, n) {
        const store = s.store, ids = s.ids;
        let ok = 0;
        for (let i = 0; i < n; i++) if (store.complete(ids[i], RESULT, null, OURS_CTX).status === "completed") ok++;
        return ok;
      },
      teardown: freeOurs,
    },
    sdk: {
      setup: (n) => sdkStore(n),
      async run(s, n) {
        const store = s.store, ids = s.ids;
        let ok = 0;
        // storeTaskResult answers nothing (it throws on failure); checked after the run.
        for (let i = 0; i < n; i++) {
          await store.storeTaskResult(ids[i], "completed", RESULT, SESSION);
          ok++;
        }
        return ok;
      },
      async verify(s, n) {
        for (let i = 0; i < n; i++) if ((await s.store.getTask(s.ids[i], SESSION)).status !== "completed") return false;
        return true;
      },
      teardown: freeSdk,
    },
  },
};

async function timeOnce(c, n) {
  const state = await c.setup(n);
  const t0 = process.hrtime.bigint();
  const ok = await c.run(state, n);
  const ns = Number(process.hrtime.bigint() - t0);
  if (ok !== n) throw new Error(`wrong answers during timing: ${ok}/${n}`);
  if (c.verify && !(await c.verify(state, n))) throw new Error("verification after the run failed");
  c.teardown(state);
  return ns;
}

// Find n so that one timed run takes about RUN_MS, warming up on the way.
async function calibrate(c) {
  let n = 16;
  let ns = 0;
  const t0 = Date.now();
  for (;;) {
    ns = await timeOnce(c, n);
    if (ns > 20e6 && Date.now() - t0 >= WARM_MS) break;
    if (ns < 20e6) n *= 2;
  }
  return Math.max(1, Math.round((n * RUN_MS * 1e6) / ns));
}

async function benchOps() {
  const loadStart = os.loadavg();
  console.log(`# store ops: ${RUNS} runs x ~${RUN_MS} ms, warm-up >= ${WARM_MS} ms, load ${loadStr(loadStart)}`);
  const results = {};
  for (const [op, contenders] of Object.entries(OPS)) {
    const names = Object.keys(contenders);
    const n = {};
    for (const name of names) n[name] = await calibrate(contenders[name]);
    const samples = Object.fromEntries(names.map((k) => [k, []]));
    for (let r = 0; r < RUNS; r++) {
      for (const name of names) samples[name].push((await timeOnce(contenders[name], n[name])) / n[name]);
    }
    const entry = {};
    for (const name of names) {
      const nsOp = median(samples[name]);
      entry[name] = { nsPerOp: nsOp, opsPerSec: 1e9 / nsOp, minNs: Math.min(...samples[name]), maxNs: Math.max(...samples[name]), iterations: n[name], samples: samples[name] };
      console.log(`  ${op.padEnd(8)} ${name.padEnd(4)} ${entry[name].opsPerSec.toFixed(0).padStart(9)} ops/s ${nsOp.toFixed(0).padStart(7)} ns/op  (runs ${entry[name].minNs.toFixed(0)}..${entry[name].maxNs.toFixed(0)} ns, n=${n[name]})`);
    }
    entry.ratio = entry.ours.opsPerSec / entry.sdk.opsPerSec;
    console.log(`  ${op.padEnd(8)} ours/sdk ${entry.ratio.toFixed(2)}x`);
    results[op] = entry;
  }
  if (oursGetStore) freeOurs(oursGetStore);
  if (oursMissStore) freeOurs(oursMissStore);
  if (sdkGetStore) freeSdk(sdkGetStore);
  oursGetStore = oursMissStore = sdkGetStore = null;
  return { loadStart, loadEnd: os.loadavg(), runs: RUNS, runMs: RUN_MS, warmMs: WARM_MS, getStoreSize: GET_STORE_SIZE, results };
}

// ---- paging ---------------------------------------------------------------------------------------
function pageOurs(store, limit, seen) {
  let cursor;
  let tasks = 0;
  let pages = 0;
  do {
    const page = store.list(limit ? (cursor === undefined ? { limit } : { cursor, limit }) : cursor === undefined ? undefined : { cursor }, OURS_CTX);
    tasks += page.tasks.length;
    if (seen) for (const t of page.tasks) seen.add(t.taskId);
    pages++;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return { tasks, pages };
}
async function pageSdk(store, _limit, seen) {
  let cursor;
  let tasks = 0;
  let pages = 0;
  do {
    const page = await store.listTasks(cursor, SESSION);
    tasks += page.tasks.length;
    if (seen) for (const t of page.tasks) seen.add(t.taskId);
    pages++;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return { tasks, pages };
}

async function benchList() {
  const out = [];
  for (const N of LIST_SIZES) {
    const loadStart = os.loadavg();
    console.log(`\n# store list: ${N} tasks in one session, load ${loadStr(loadStart)}`);
    const t0 = performance.now();
    const ours = oursStore(N);
    const tOurs = performance.now();
    const sdk = await sdkStore(N);
    console.log(`  populated (untimed): ours ${(tOurs - t0).toFixed(0)} ms, sdk ${(performance.now() - tOurs).toFixed(0)} ms`);
    const big = N >= 100_000;
    const contenders = {
      "ours-50": { page: pageOurs, store: ours.store, limit: undefined, pageSize: 50, runs: RUNS },
      "ours-10": { page: pageOurs, store: ours.store, limit: SDK_PAGE, pageSize: SDK_PAGE, runs: RUNS },
      sdk: { page: pageSdk, store: sdk.store, limit: undefined, pageSize: SDK_PAGE, runs: big ? SDK_BIG_RUNS : Math.min(RUNS, 5), verifyPass: !big },
    };
    const expectPages = (size) => Math.max(1, Math.ceil(N / size));
    for (const [name, c] of Object.entries(contenders)) {
      if (c.verifyPass === false) {
        console.log(`  check ${name}: skipped (each pass takes as long as a timed run; counts are checked in every run)`);
        continue;
      }
      const seen = new Set();
      const r = await c.page(c.store, c.limit, seen);
      const good = r.tasks === N && seen.size === N && r.pages === expectPages(c.pageSize);
      console.log(`  check ${name}: ${r.tasks} tasks, ${seen.size} distinct, ${r.pages} pages ${good ? "ok" : "WRONG"}`);
      if (!good) throw new Error(`${name} did not list every task exactly once`);
      await c.page(c.store, c.limit, null); // warm-up
    }
    const samples = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
    const maxRuns = Math.max(...Object.values(contenders).map((c) => c.runs));
    for (let r = 0; r < maxRuns; r++) {
      for (const [name, c] of Object.entries(contenders)) {
        if (r >= c.runs) continue;
        const t = process.hrtime.bigint();
        const got = await c.page(c.store, c.limit, null);
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        if (got.tasks !== N || got.pages !== expectPages(c.pageSize)) throw new Error(`${name}: ${got.tasks} tasks in ${got.pages} pages`);
        samples[name].push(ms);
        console.log(`  run ${r + 1} ${name.padEnd(7)} ${ms.toFixed(1).padStart(10)} ms  (load ${loadStr(os.loadavg())})`);
      }
    }
    const entry = { tasks: N, loadStart, contenders: {} };
    for (const [name, c] of Object.entries(contenders)) {
      const ms = median(samples[name]);
      const pages = expectPages(c.pageSize);
      entry.contenders[name] = { pageSize: c.pageSize, pages, runs: samples[name].length, ms, minMs: Math.min(...samples[name]), maxMs: Math.max(...samples[name]), usPerPage: (ms * 1000) / pages, usPerTask: (ms * 1000) / N, samples: samples[name] };
    }
    entry.ratioDefault = entry.contenders.sdk.ms / entry.contenders["ours-50"].ms;
    entry.ratioSamePage = entry.contenders.sdk.ms / entry.contenders["ours-10"].ms;
    entry.loadEnd = os.loadavg();
    for (const [name, c] of Object.entries(entry.contenders)) {
      console.log(`  ${name.padEnd(7)} page ${String(c.pageSize).padStart(2)}: median ${c.ms.toFixed(1)} ms (${c.minMs.toFixed(1)}..${c.maxMs.toFixed(1)}, ${c.runs} runs), ${c.pages} pages, ${c.usPerPage.toFixed(1)} us/page`);
    }
    console.log(`  sdk/ours: ${entry.ratioDefault.toFixed(1)}x at the default page sizes, ${entry.ratioSamePage.toFixed(1)}x at page size 10`);
    freeOurs(ours);
    freeSdk(sdk);
    out.push(entry);
  }
  return out;
}

const meta = { date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? "", ...packageInfo(), workload: describeWorkload, sdkPageSize: SDK_PAGE, oursDefaultPageSize: 50 };
console.log(`# store: node ${process.version}, ${os.cpus().length} cpus, sdk ${meta.sdk}, server wasm ${meta.serverWasmSha256}`);
const loadStart = os.loadavg();
const ops = only && only !== "ops" ? null : await benchOps();
const list = only && only !== "list" ? null : await benchList();
const loadEnd = os.loadavg();
console.log(`\n# load at end: ${loadStr(loadEnd)}`);

if (jsonOut) {
  mkdirSync(dirname(jsonOut), { recursive: true });
  writeFileSync(jsonOut, JSON.stringify({ ...meta, loadStart, loadEnd, ops, list }, null, 2));
}
