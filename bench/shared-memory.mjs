// SharedTaskServer over MemoryStorage, end to end in one process: N tasks (default 3000), each
// create -> get -> complete -> get (2025-11-25), 16 in flight, after 300 of warm-up; tasks/s and
// the process's CPU per task. With --before INSTALL an older build's install (the
// tests/js/.tmp/install of scripts/pack.sh) runs in the same rounds, interleaved.
//   node bench/shared-memory.mjs [--tasks N] [--rounds 3] [--before INSTALL]
// Uses this checkout's install (scripts/build.sh && scripts/pack.sh first). What it weighs: the
// in-memory storage behind the replicas' contract (src/store/storage.rs through the server
// module) and SharedTaskServer's read/run/write per operation; no HTTP.
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median } from "./store-setup.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({ options: { tasks: { type: "string" }, rounds: { type: "string" }, before: { type: "string" }, child: { type: "string" } } });
const N = Number(args.tasks ?? 3000);

if (args.child !== undefined) {
  const dir = args.child;
  const { SharedTaskServer } = await import(join(dir, "server.mjs"));
  const { MemoryStorage } = await import(join(dir, "node_modules/mcp-tasks-wasm/storage/index.js"));
  const storage = new MemoryStorage();
  const server = await SharedTaskServer.open(storage, { cursorKey: "00112233445566778899aabbccddeeff" });
  const ctx = { session: "s1" };
  const one = async () => {
    const t = await server.create({ protocolVersion: "2025-11-25", ttl: 60_000 }, ctx);
    await server.get(t.taskId, ctx);
    await server.complete(t.taskId, { content: [{ type: "text", text: "done" }] }, null, ctx);
    await server.get(t.taskId, ctx);
  };
  for (let w = 0; w < 300; w++) await one();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let next = 0;
  await Promise.all(Array.from({ length: 16 }, async () => { while (next++ < N) await one(); }));
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  console.log(JSON.stringify({ tasksPerSec: (N / ms) * 1000, cpuMsPerTask: (c.user + c.system) / 1000 / N }));
  await server.close();
  await storage.close();
  process.exit(0);
}

const builds = { ours: resolve(HERE, "../tests/js/.tmp/install") };
if (args.before !== undefined) builds.before = resolve(args.before);
const rounds = Number(args.rounds ?? 3);
const results = Object.fromEntries(Object.keys(builds).map((b) => [b, []]));
const load0 = loadavg().map((l) => l.toFixed(2)).join(" ");
for (let r = 0; r < rounds; r++) {
  for (const [name, dir] of Object.entries(builds)) {
    const out = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", dir, "--tasks", String(N)], { encoding: "utf8" });
    if (out.status !== 0) throw new Error(`${name}: ${out.stderr}`);
    results[name].push(JSON.parse(out.stdout.trim().split("\n").pop()));
  }
}
console.log(`SharedTaskServer over MemoryStorage, ${N} tasks (create, get, complete, get) at 16 in flight; medians of ${rounds} interleaved rounds`);
console.log("| build | tasks/s | CPU ms / task |\n|---|---:|---:|");
for (const [name, rs] of Object.entries(results)) {
  console.log(`| ${name} | ${median(rs.map((x) => x.tasksPerSec)).toFixed(0)} | ${median(rs.map((x) => x.cpuMsPerTask)).toFixed(3)} |`);
}
console.log(`load average ${load0} at the start, ${loadavg().map((l) => l.toFixed(2)).join(" ")} at the end`);
