#!/usr/bin/env node
// Our HTTP task server against the official SDK 1.x server, under the same load, in one
// interleaved run. The load: C closed loops (default 16, then 1), each one client with its own
// 2025-11-25 session, each looping `tools/call slow_compute {seconds: 0}` as a task ->
// `tasks/get` -> `tasks/result` (2026-07-28, ours only: stateless `tools/call` -> `tasks/get`
// until the task is terminal, its result inline). Contenders, each a fresh server process per
// measurement, rounds interleaved (ours, SDK, ours 2026, ..., then again):
//   ours   examples/conformance-server.mjs (McpHttpServer on node:http, memory storage) of
//          --ours ROOT (default this checkout, its pkg/ built by scripts/build.sh); ROOT may
//          also be an install dir (a node_modules/mcp-tasks-wasm inside, e.g. the
//          tests/js/.tmp/install of scripts/pack.sh): this checkout's example then runs on it
//   before with --before ROOT (same forms): an older build of ours (e.g. today's main), in the
//          same rounds, for a before/after comparison
//   sdk    bench/sdk-server.mjs: @modelcontextprotocol/sdk (the pinned 1.x) McpServer with
//          InMemoryTaskStore and StreamableHTTPServerTransport (its default SSE answers)
// The load generator is raw node:http with a keep-alive agent (one socket per loop), the same
// for both. Per measurement: 1 s of warm-up, then --seconds of counting: tasks/s, the server's
// CPU per task (utime + stime of /proc/PID/stat over the window), the whole machine's (/proc/stat)
// and the load generator's (this process) CPU per task, what is left of the machine's (the
// database, and anything else running meanwhile), p50/p99 of the task's latency (create ->
// result). Medians over --rounds rounds, and ours/SDK.
//
// --storage LIST (memory,shared-memory,sqlite,sqlite-disk,postgres,redis) measures our server on each
// storage instead (the example's --storage: a throwaway SQLite file on tmpfs, /dev/shm, where its
// syncs cost nothing as Postgres runs with fsync off, or with sqlite-disk in the temp dir, synced;
// Postgres and Redis servers started on 127.0.0.1
// free ports with throwaway dirs by tests/js/storage/lib.mjs, stopped by PID), 2025-11-25 at
// concurrency 16, each as a ratio of memory (measured in the same rounds, added when missing):
// each round's ratio pairs a storage with memory of the same build and round, and the median of
// the rounds' ratios is reported with their range. Every other round runs in the reverse order
// (a server started later in a round measures a little slower: a fixed order would bias the ratio
// and --before comparisons).
// It runs this checkout's example over the installed package (tests/js/.tmp/install: run
// scripts/build.sh and scripts/pack.sh first), where the storage client libraries are linked.
// --floor adds, in the same rounds, bench/floor-server.mjs on memory, sqlite and postgres (build
// "floor"): the in-memory server with each task's create and outcome stored before they are
// answered and nothing else of the storage contract, what no design that stores them beats here;
// --floor-adapter the same with the two writes through our adapter (build "adapter").
//
//   node bench/server.mjs [--rounds 5] [--seconds 3] [--concurrency 16,1] [--ours ROOT]
//                         [--before ROOT] [--storage sqlite,postgres] [--floor] [--floor-adapter]
//                         [--sdk-json] [--json FILE]
//                         [--profile DIR]   (V8 CPU profiles of every server process into DIR)
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";

import { open } from "../tests/js/server/raw-http.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "..");
const argv = process.argv.slice(2);
const opt = (name, fallback) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : fallback);
const ROUNDS = Number(opt("rounds", process.env.SERVER_ROUNDS ?? 5));
const SECONDS = Number(opt("seconds", process.env.SERVER_SECONDS ?? 3));
const WARMUP_MS = 1000;
const CONCURRENCY = String(opt("concurrency", "16,1")).split(",").map(Number);
const STORAGE = opt("storage", null);
/** The storage axis runs on the installed package by default: its storage peers are linked there. */
const OURS = resolve(opt("ours", STORAGE === null ? ROOT : join(ROOT, "tests/js/.tmp/install")));
const BEFORE = opt("before", null) === null ? null : resolve(opt("before", null));
const SDK_JSON = argv.includes("--sdk-json");
const jsonOut = opt("json", null);
const PROFILE = opt("profile", null);
const FLOOR = argv.includes("--floor");
const FLOOR_ADAPTER = argv.includes("--floor-adapter");
const TICK = 100; // clock ticks per second of /proc/PID/stat (USER_HZ)

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const META26 = {
  "io.modelcontextprotocol/protocolVersion": V26,
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
};

/** Children alive, stopped by PID at exit. */
const children = new Set();
process.on("exit", () => {
  for (const c of children) {
    try {
      process.kill(c.pid, "SIGKILL");
    } catch {}
  }
});

/** Starts a server process; resolves `{ url, pid, stop }` once it prints its URL. */
async function startServer(args, what) {
  // One directory per process: each of its threads (the SQLite writer thread too) writes its own
  // profile there, under Node's default name (pid and thread id in it).
  const flags = PROFILE === null ? [] : ["--cpu-prof", "--cpu-prof-dir", join(resolve(PROFILE), `${what}.${Date.now()}`)];
  // The storage client libraries (pg, ioredis, better-sqlite3) where scripts/setup.sh installs
  // them: the example finds pg and ioredis in its working directory, the SQLite adapter through
  // NODE_PATH.
  const peers = join(ROOT, "tools/storage/node_modules");
  const child = spawn(process.execPath, [...flags, ...args], {
    cwd: existsSync(peers) ? join(ROOT, "tools/storage") : ROOT,
    env: existsSync(peers) ? { ...process.env, NODE_PATH: peers } : process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let err = "";
  child.stderr.setEncoding("utf8").on("data", (d) => (err += d));
  const url = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${what}: no URL after 20 s\n${err}`)), 20_000);
    child.stdout.setEncoding("utf8").on("data", (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    child.once("exit", (code) => reject(new Error(`${what} exited (${code})\n${err}`)));
  });
  const exited = new Promise((r) => child.once("exit", r));
  return {
    url,
    pid: child.pid,
    async stop() {
      try {
        process.kill(child.pid, "SIGTERM");
      } catch {}
      const timer = setTimeout(() => {
        try {
          process.kill(child.pid, "SIGKILL");
        } catch {}
      }, 5000);
      await exited;
      clearTimeout(timer);
      children.delete(child);
    },
  };
}

/** utime + stime of a process, in seconds. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICK;
}

/**
 * The busy time of the whole machine (every process: user, nice, system, irq, softirq, steal of
 * /proc/stat), in seconds.
 */
function machineSeconds() {
  const fields = readFileSync("/proc/stat", "utf8").split("\n", 1)[0].trim().split(/\s+/).slice(1).map(Number);
  return ((fields[0] ?? 0) + (fields[1] ?? 0) + (fields[2] ?? 0) + (fields[5] ?? 0) + (fields[6] ?? 0) + (fields[7] ?? 0)) / TICK;
}

/** One POST over `agent`: `{ status, headers, message }` (the last SSE message of an SSE body). */
async function post(url, agent, message, headers) {
  const { status, headers: answered, body } = await open(url, message, headers, { agent }).answer;
  return { status, headers: answered, message: body };
}

/** A 2025-11-25 client loop: opens its session, then `task()` runs create -> get -> result. */
async function legacyClient(url, agent) {
  let id = 0;
  const init = await post(url, agent, {
    jsonrpc: "2.0",
    id: ++id,
    method: "initialize",
    params: { protocolVersion: V25, capabilities: { tasks: {} }, clientInfo: { name: "bench", version: "1" } },
  });
  const session = init.headers["mcp-session-id"];
  if (!session) throw new Error(`initialize: no session (${init.status} ${JSON.stringify(init.message)})`);
  const h = { "Mcp-Session-Id": session, "MCP-Protocol-Version": V25 };
  await post(url, agent, { jsonrpc: "2.0", method: "notifications/initialized" }, h);
  return async () => {
    const created = await post(url, agent, { jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 0 }, task: { ttl: 60_000 } } }, h);
    const taskId = created.message?.result?.task?.taskId;
    if (typeof taskId !== "string") throw new Error(`tools/call: ${JSON.stringify(created.message)}`);
    await post(url, agent, { jsonrpc: "2.0", id: ++id, method: "tasks/get", params: { taskId } }, h);
    const result = await post(url, agent, { jsonrpc: "2.0", id: ++id, method: "tasks/result", params: { taskId } }, h);
    if (!String(result.message?.result?.content?.[0]?.text ?? "").includes("done after")) throw new Error(`tasks/result: ${JSON.stringify(result.message)}`);
  };
}

/** A 2026-07-28 client loop: stateless create -> get until terminal (the result inline). */
async function modernClient(url, agent) {
  let id = 0;
  return async () => {
    const created = await post(
      url,
      agent,
      { jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 0 }, _meta: META26 } },
      { "MCP-Protocol-Version": V26, "Mcp-Method": "tools/call", "Mcp-Name": "slow_compute" },
    );
    const taskId = created.message?.result?.taskId;
    if (created.message?.result?.resultType !== "task" || typeof taskId !== "string") throw new Error(`tools/call: ${JSON.stringify(created.message)}`);
    for (let i = 0; i < 1000; i++) {
      const got = await post(
        url,
        agent,
        { jsonrpc: "2.0", id: ++id, method: "tasks/get", params: { taskId, _meta: META26 } },
        { "MCP-Protocol-Version": V26, "Mcp-Method": "tasks/get", "Mcp-Name": taskId },
      );
      const status = got.message?.result?.status;
      if (status === "completed") return;
      if (status !== "working") throw new Error(`tasks/get: ${JSON.stringify(got.message)}`);
    }
    throw new Error("tasks/get: still working after 1000 reads");
  };
}

function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Drives `concurrency` loops against `server` for the warm-up, then SECONDS of counting. */
async function load(server, era, concurrency) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const clients = await Promise.all(Array.from({ length: concurrency }, () => (era === V26 ? modernClient : legacyClient)(server.url, agent)));
  const t0 = performance.now();
  const measureFrom = t0 + WARMUP_MS;
  const end = measureFrom + SECONDS * 1000;
  let cpu0 = null;
  let machine0 = null;
  let own0 = null;
  const latencies = [];
  const warm = setTimeout(() => {
    cpu0 = cpuSeconds(server.pid);
    machine0 = machineSeconds();
    own0 = process.cpuUsage();
  }, WARMUP_MS);
  await Promise.all(
    clients.map(async (task) => {
      for (;;) {
        const start = performance.now();
        if (start >= end) return;
        await task();
        const now = performance.now();
        if (start >= measureFrom && now <= end) latencies.push(now - start);
      }
    }),
  );
  clearTimeout(warm);
  const cpu1 = cpuSeconds(server.pid);
  const machine1 = machineSeconds();
  const own = own0 === null ? null : process.cpuUsage(own0);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const tasks = latencies.length;
  const cpuMsPerTask = ((cpu1 - (cpu0 ?? cpu1)) * 1000) / tasks;
  const machineMsPerTask = ((machine1 - (machine0 ?? machine1)) * 1000) / tasks;
  const loadMsPerTask = own === null ? NaN : (own.user + own.system) / 1000 / tasks;
  return {
    tasks,
    tasksPerSecond: tasks / SECONDS,
    cpuMsPerTask,
    cpuPercent: ((cpu1 - (cpu0 ?? cpu1)) / SECONDS) * 100,
    // The whole machine's CPU per task, and this process's (the load generator): what is left
    // is the database's (and anything else running meanwhile).
    machineMsPerTask,
    loadMsPerTask,
    restMsPerTask: machineMsPerTask - cpuMsPerTask - loadMsPerTask,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
  };
}

function median(xs) {
  const s = [...xs].filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Scratch directories made here (removed at the end). */
const scratch = [];
/**
 * The example server of `root`: a checkout's own, or for an install dir this checkout's example
 * over that package (a scratch tree where `../pkg` is the installed package).
 */
function exampleOf(root) {
  if (existsSync(join(root, "examples/conformance-server.mjs"))) return join(root, "examples/conformance-server.mjs");
  const installed = join(root, "node_modules/mcp-tasks-wasm");
  if (!existsSync(join(installed, "server/node.mjs"))) throw new Error(`${root}: neither a checkout (examples/) nor an install dir (node_modules/mcp-tasks-wasm)`);
  const dir = mkdtempSync(join(os.tmpdir(), "mcp-tasks-bench-example-"));
  scratch.push(dir);
  mkdirSync(join(dir, "examples"));
  mkdirSync(join(dir, "bench"));
  for (const f of ["conformance-server.mjs", "tools.mjs"]) cpSync(join(ROOT, "examples", f), join(dir, "examples", f));
  cpSync(join(ROOT, "bench/floor-server.mjs"), join(dir, "bench/floor-server.mjs"));
  symlinkSync(installed, join(dir, "pkg"), "dir");
  return join(dir, "examples/conformance-server.mjs");
}
const EXAMPLE = exampleOf(OURS);
/** bench/floor-server.mjs beside the example of --ours (its pkg/ the same). */
const FLOOR_SERVER = join(dirname(dirname(EXAMPLE)), "bench/floor-server.mjs");
/** The storages bench/floor-server.mjs has a floor for (memory: its own, the example's). */
const FLOORED = ["memory", "sqlite", "postgres"];
const EXAMPLE_BEFORE = BEFORE === null ? null : exampleOf(BEFORE);
process.on("exit", () => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});
const oursArgs = (storage, example = EXAMPLE) => [example, "--port", "0", ...(storage ? ["--storage", storage] : [])];
const sdkArgs = () => [join(ROOT, "bench/sdk-server.mjs"), "--port", "0", ...(SDK_JSON ? ["--json-response"] : [])];

/** One measurement on a fresh server process. */
async function measure(args, what, era, concurrency) {
  const server = await startServer(args, what);
  try {
    return await load(server, era, concurrency);
  } finally {
    await server.stop();
  }
}

function summarize(runs) {
  const keys = ["tasksPerSecond", "cpuMsPerTask", "cpuPercent", "machineMsPerTask", "loadMsPerTask", "restMsPerTask", "p50Ms", "p99Ms"];
  return Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k]))]));
}

const f = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : "-");
const loadStart = os.loadavg();
const started = Date.now();
const result = { date: new Date().toISOString(), node: process.version, nproc: os.cpus().length, cpu: os.cpus()[0]?.model ?? "", ours: OURS, rounds: ROUNDS, seconds: SECONDS, loadStart };
result.sdk = JSON.parse(readFileSync(join(ROOT, "node_modules/@modelcontextprotocol/sdk/package.json"), "utf8")).version;
result.sdkAnswers = SDK_JSON ? "json" : "sse";

if (STORAGE === null) {
  /** The contenders, in the order of each round. */
  const cases = [];
  for (const c of CONCURRENCY) {
    if (EXAMPLE_BEFORE !== null) cases.push({ key: `before-${V25}-c${c}`, who: "before", era: V25, concurrency: c, args: oursArgs(null, EXAMPLE_BEFORE) });
    cases.push({ key: `ours-${V25}-c${c}`, who: "ours", era: V25, concurrency: c, args: oursArgs(null) });
    cases.push({ key: `sdk-${V25}-c${c}`, who: "sdk", era: V25, concurrency: c, args: sdkArgs() });
    if (EXAMPLE_BEFORE !== null) cases.push({ key: `before-${V26}-c${c}`, who: "before", era: V26, concurrency: c, args: oursArgs(null, EXAMPLE_BEFORE) });
    cases.push({ key: `ours-${V26}-c${c}`, who: "ours", era: V26, concurrency: c, args: oursArgs(null) });
  }
  const runs = Object.fromEntries(cases.map((c) => [c.key, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const c of cases) {
      const r = await measure(c.args, c.key, c.era, c.concurrency);
      runs[c.key].push(r);
      console.error(`round ${round} ${c.key}: ${f(r.tasksPerSecond)} tasks/s, ${f(r.cpuMsPerTask, 3)} ms CPU/task, p50 ${f(r.p50Ms, 2)} ms, p99 ${f(r.p99Ms, 2)} ms`);
    }
  }
  result.rows = cases.map((c) => {
    const med = summarize(runs[c.key]);
    const sdk = summarize(runs[`sdk-${V25}-c${c.concurrency}`]);
    return {
      who: c.who,
      era: c.era,
      concurrency: c.concurrency,
      ...med,
      vsSdk: { tasksPerSecond: med.tasksPerSecond / sdk.tasksPerSecond, cpuMsPerTask: med.cpuMsPerTask / sdk.cpuMsPerTask, p99Ms: med.p99Ms / sdk.p99Ms },
      runs: runs[c.key],
    };
  });
  result.before = BEFORE;
  console.log(`server: ${ROUNDS} interleaved rounds of ${SECONDS} s, fresh servers; ours = ${OURS}${BEFORE ? `, before = ${BEFORE}` : ""}; SDK ${result.sdk} (${result.sdkAnswers} answers); medians`);
  console.log("| server | era | loops | tasks/s | CPU ms/task | p50 ms | p99 ms | tasks/s vs SDK | CPU vs SDK | p99 vs SDK |");
  for (const r of result.rows) {
    console.log(
      `| ${r.who} | ${r.era} | ${r.concurrency} | ${f(r.tasksPerSecond)} | ${f(r.cpuMsPerTask, 3)} | ${f(r.p50Ms, 2)} | ${f(r.p99Ms, 2)} | ${f(r.vsSdk.tasksPerSecond, 2)}x | ${f(r.vsSdk.cpuMsPerTask, 2)}x | ${f(r.vsSdk.p99Ms, 2)}x |`,
    );
  }
} else {
  const { startPostgres, startRedis, loadStorage } = await import("../tests/js/storage/lib.mjs");
  if (OURS === join(ROOT, "tests/js/.tmp/install")) await loadStorage(); // links pg, ioredis, better-sqlite3 next to the package
  const names = ["memory", ...String(STORAGE).split(",").filter((s) => s && s !== "memory")];
  const c = CONCURRENCY[0];
  const dir = mkdtempSync(join(os.tmpdir(), "mcp-tasks-bench-server-"));
  // `sqlite`: the file on tmpfs (/dev/shm), where a sync costs nothing, as Postgres runs with fsync
  // off (the server's cost, not the disk's); `sqlite-disk`: the same in the temp dir, synced to disk.
  const shm = existsSync("/dev/shm") ? (() => {
    try {
      return mkdtempSync(join("/dev/shm", "mcp-tasks-bench-server-"));
    } catch {
      return null;
    }
  })() : null;
  result.sqliteOnTmpfs = shm !== null;
  const engines = {};
  try {
    if (names.includes("postgres")) engines.postgres = await startPostgres();
    if (names.includes("redis")) engines.redis = await startRedis();
    // With --before, that build runs each storage too, in the same rounds.
    const builds = EXAMPLE_BEFORE === null ? [["ours", EXAMPLE]] : [["before", EXAMPLE_BEFORE], ["ours", EXAMPLE]];
    // With --floor, bench/floor-server.mjs too, on the storages it has a floor for.
    if (FLOOR) builds.push(["floor", FLOOR_SERVER]);
    if (FLOOR_ADAPTER) builds.push(["adapter", FLOOR_SERVER, ["--adapter"]]);
    const namesOf = (who) => (who === "floor" || who === "adapter" ? names.filter((n) => FLOORED.includes(n)) : names);
    const keyOf = (who, name) => (who === "ours" ? name : `${who}-${name}`);
    const runs = Object.fromEntries(builds.flatMap(([who]) => namesOf(who).map((n) => [keyOf(who, n), []])));
    for (let round = 1; round <= ROUNDS; round++) {
      // Every other round runs in the reverse order (storages and builds alike): a server started
      // later in a round is measured a little slower (the previous one's teardown, the machine's
      // drift), and a fixed order would lend that to one side of every ratio.
      const all = names.flatMap((n) => builds.filter(([who]) => namesOf(who).includes(n)).map((b) => [n, b]));
      const order = round % 2 === 1 ? all : all.reverse();
      for (const [name, [who, example, extra = []]] of order) {
        const spec =
          name === "memory" ? null
          : name === "sqlite" ? `sqlite:${join(shm ?? dir, `${who}-round-${round}.db`)}`
          : name === "sqlite-disk" ? `sqlite:${join(dir, `${who}-disk-round-${round}.db`)}`
          : name === "postgres" ? engines.postgres.url
          : name === "redis" ? engines.redis.url
          : name === "shared-memory" ? "shared-memory"
          : null;
        if (name !== "memory" && spec === null) throw new Error(`--storage: unknown ${name}`);
        const r = await measure([...oursArgs(spec, example), ...extra], `${who}-${name}`, V25, c);
        runs[keyOf(who, name)].push(r);
        console.error(`round ${round} ${keyOf(who, name)}: ${f(r.tasksPerSecond)} tasks/s, ${f(r.cpuMsPerTask, 3)} ms CPU/task (machine ${f(r.machineMsPerTask, 3)}, load ${f(r.loadMsPerTask, 3)}, rest ${f(r.restMsPerTask, 3)}), p50 ${f(r.p50Ms, 2)} ms, p99 ${f(r.p99Ms, 2)} ms`);
      }
    }
    // Each round's ratio pairs a storage with memory of the same build and round (drift between
    // rounds cancels); the median of those, and their range, are reported.
    result.storageRows = builds.flatMap(([who]) => {
      const memory = runs[keyOf(who, "memory")];
      return namesOf(who).map((name) => {
        const mine = runs[keyOf(who, name)];
        const med = summarize(mine);
        const ratios = mine.map((r, i) => r.tasksPerSecond / memory[i].tasksPerSecond).sort((a, b) => a - b);
        return { storage: name, who, concurrency: c, ...med, vsMemory: median(ratios), vsMemoryRange: [ratios[0], ratios[ratios.length - 1]], runs: mine };
      });
    });
    result.before = BEFORE;
    console.log(`server storage: ours (${OURS}), ${V25}, ${c} loops, ${ROUNDS} interleaved rounds of ${SECONDS} s, fresh servers; medians (CPU: the server process only)`);
    console.log("| build | storage | tasks/s | vs memory (rounds' range) | server CPU ms/task | machine CPU ms/task | load generator | rest (database) | p50 ms | p99 ms |");
    for (const r of result.storageRows) {
      console.log(`| ${r.who} | ${r.storage} | ${f(r.tasksPerSecond)} | ${f(r.vsMemory, 2)}x (${f(r.vsMemoryRange[0], 2)}–${f(r.vsMemoryRange[1], 2)}) | ${f(r.cpuMsPerTask, 3)} | ${f(r.machineMsPerTask, 3)} | ${f(r.loadMsPerTask, 3)} | ${f(r.restMsPerTask, 3)} | ${f(r.p50Ms, 2)} | ${f(r.p99Ms, 2)} |`);
    }
  } finally {
    for (const e of Object.values(engines)) await e.stop();
    rmSync(dir, { recursive: true, force: true });
    if (shm !== null) rmSync(shm, { recursive: true, force: true });
  }
}
result.loadEnd = os.loadavg();
result.wallSeconds = Math.round((Date.now() - started) / 1000);
console.log(`load average ${loadStart.map((l) => l.toFixed(2)).join(" ")} at the start, ${result.loadEnd.map((l) => l.toFixed(2)).join(" ")} at the end; ${result.wallSeconds} s`);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(result, null, 2));
