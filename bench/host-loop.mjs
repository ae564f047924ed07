// Where the shared server's time goes, without HTTP: a TaskHost in this process, L closed loops
// (default 16) of `tools/call slow_compute {seconds: 0}` as a task -> `tasks/get` -> `tasks/result`
// (2025-11-25, one session per loop), as bench/server.mjs drives the example over HTTP, for each
// `--storage`: memory (the in-memory TaskServer), shared-memory (SharedTaskServer over the
// in-memory TaskStorage) and sqlite (over a throwaway file in the temp dir: TMPDIR=/dev/shm for
// tmpfs). Each in a fresh process: 1 s of warm-up, then --seconds counted; tasks/s and the CPU per
// task of each thread of the process (/proc/self/task: `main`, the event loop; the SQLite writer
// thread and V8's threads by id), so the event loop's share of a storage is seen apart from the
// threads beside it. Linux only (/proc). Uses the installed package (scripts/build.sh and
// scripts/pack.sh first), or --ours INSTALL_DIR.
//
//   node bench/host-loop.mjs [--storage memory,shared-memory,sqlite] [--seconds 3] [--loops 16]
//                            [--ours tests/js/.tmp/install]
// Add node's --cpu-prof (NODE_OPTIONS="--cpu-prof --cpu-prof-dir DIR") for a profile of each.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const HERE = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    storage: { type: "string" }, seconds: { type: "string" }, loops: { type: "string" }, ours: { type: "string" }, child: { type: "string" },
  },
});
const SECONDS = Number(args.seconds ?? 3);
const LOOPS = Number(args.loops ?? 16);
const OURS = resolve(args.ours ?? join(HERE, "../tests/js/.tmp/install"));

/** CPU ms of each thread of this process so far. */
function threads() {
  const out = {};
  for (const t of readdirSync("/proc/self/task")) {
    const f = readFileSync(`/proc/self/task/${t}/stat`, "utf8").split(") ")[1].split(" ");
    out[t] = (Number(f[11]) + Number(f[12])) * 10; // utime + stime, clock ticks of 10 ms
  }
  return out;
}

if (args.child !== undefined) {
  const kind = args.child;
  const base = join(OURS, "node_modules/mcp-tasks-wasm");
  const { TaskHost, SharedTaskServer } = await import(pathToFileURL(join(base, "server/node.mjs")).href);
  let server = null;
  let dir = null;
  if (kind !== "memory") {
    let storage;
    if (kind === "shared-memory") {
      const { MemoryStorage } = await import(pathToFileURL(join(base, "storage/index.js")).href);
      storage = new MemoryStorage();
    } else if (kind === "sqlite") {
      const { openSqliteStorage } = await import(pathToFileURL(join(base, "storage/sqlite.js")).href);
      dir = mkdtempSync(join(os.tmpdir(), "mcp-tasks-host-loop-"));
      storage = await openSqliteStorage({ path: join(dir, "tasks.db") });
    } else throw new Error(`--storage: unknown ${kind}`);
    server = await SharedTaskServer.open(storage, { cursorKey: "00112233445566778899aabbccddeeff" });
  }
  const host = new TaskHost(server === null ? {} : { server });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  host.tool("slow_compute", { inputSchema: { type: "object", properties: { seconds: { type: "number" } } }, taskSupport: "optional" }, async ({ seconds = 1 }) => {
    await sleep(seconds * 1000);
    return { content: [{ type: "text", text: "done" }] };
  });
  let id = 0;
  let done = 0;
  let stop = false;
  const loop = async (i) => {
    const ctx = { protocolVersion: "2025-11-25", session: `s${i}` };
    while (!stop) {
      const created = await host.handle({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 0 }, task: {} } }, ctx);
      const taskId = created.result.task.taskId;
      await host.handle({ jsonrpc: "2.0", id: id++, method: "tasks/get", params: { taskId } }, ctx);
      const result = await host.handle({ jsonrpc: "2.0", id: id++, method: "tasks/result", params: { taskId } }, ctx);
      if (result.result?.content?.[0]?.text !== "done") throw new Error(`unexpected tasks/result: ${JSON.stringify(result)}`);
      done++;
    }
  };
  const loops = Array.from({ length: LOOPS }, (_, i) => loop(i));
  await sleep(1000);
  const [d0, th0, t0] = [done, threads(), performance.now()];
  await sleep(SECONDS * 1000);
  const [d1, th1, t1] = [done, threads(), performance.now()];
  stop = true;
  await Promise.all(loops);
  const n = d1 - d0;
  const perThread = Object.entries(th1)
    .map(([t, v]) => [t === String(process.pid) ? "main" : t, (v - (th0[t] ?? 0)) / n])
    .filter(([, v]) => v > 0);
  const total = perThread.reduce((a, [, v]) => a + v, 0);
  console.log(JSON.stringify({ kind, tasksPerSecond: (n / (t1 - t0)) * 1000, cpuMsPerTask: total, mainMsPerTask: Object.fromEntries(perThread).main ?? 0, threads: Object.fromEntries(perThread) }));
  await host.close();
  await server?.close();
  if (dir !== null) rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

const kinds = String(args.storage ?? "memory,shared-memory,sqlite").split(",").filter(Boolean);
console.log(`host loop: ${OURS}, ${LOOPS} loops, ${SECONDS} s counted, 2025-11-25; CPU ms per task (/proc, 10 ms ticks)`);
console.log("| storage | tasks/s | CPU ms/task | event loop ms/task | other threads ms/task |");
console.log("|---|---:|---:|---:|---:|");
for (const kind of kinds) {
  const p = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", kind, "--seconds", String(SECONDS), "--loops", String(LOOPS), "--ours", OURS], { encoding: "utf8" });
  if (p.status !== 0) throw new Error(`${kind}: ${p.stderr}`);
  const r = JSON.parse(p.stdout.trim().split("\n").pop());
  const f = (x, d = 3) => x.toFixed(d);
  console.log(`| ${kind} | ${Math.round(r.tasksPerSecond)} | ${f(r.cpuMsPerTask)} | ${f(r.mainMsPerTask)} | ${f(r.cpuMsPerTask - r.mainMsPerTask)} |`);
}
