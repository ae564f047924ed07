// Hostile input (docs/decisions/hostile-input.md): the wasm memory of each component after 1M
// hostile messages with its
// default bounds, and the time to refuse a 500 MB string.
//
//   node bench/hostile.mjs [--json bench/results/hostile.json]
//   env HOSTILE_N     messages per component (default 1000000)
//   env HOSTILE_RUNS  timed refusals of the 500 MB string per case (default 7; the median is reported)
//
// Memory, each component in a fresh process (wasm memory only grows, so a measurement must start
// from a fresh instance): the wasm linear memory (`initSync()` answers the exports of the
// instance the entry initialised) before the component is created and after the last message;
// the traffic is tests/js/hostile-drivers.mjs, the same as the memory soak of
// tests/js/soak.test.mjs:
//   Conversation   pkg/node.mjs: unanswered requests, statuses of new tasks, one task polled
//                  forever, ids over maxIdBytes, text that is not a message (1/5 each)
//   TaskServer     pkg/server/node.mjs: tools/call tasks from 10 sessions (beginToolCall), and
//                  through handle: tasks/get of unknown ids, forged cursors, unsolicited
//                  tasks/update responses, odd ids, tasks/result, notifications, unknown methods
//   TaskScheduler  pkg/node.mjs: 1000 tracked tasks, then snapshots about other tasks, unknown
//                  statuses, long messages, TTLs and intervals past what timers hold, failed polls
// The 500 MB string: "x" × 5e8 for validateMessage, a tasks/get request holding it for
// TaskServer.handle; built once, before timing; the wasm memory is checked unchanged.
import { spawnSync } from "node:child_process";
import { writeFileSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import os from "node:os";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const N = Number(process.env.HOSTILE_N ?? 1_000_000);
const RUNS = Math.max(1, Number(process.env.HOSTILE_RUNS ?? 7));
const MiB = 2 ** 20;

async function load(entry) {
  const mod = await import(pathToFileURL(resolve(REPO, entry)).href);
  // The entry's glue (next to it; the entry exports no initSync): the instance's exports.
  const glue = await import(pathToFileURL(resolve(REPO, dirname(entry), "mcp_tasks_wasm.js")).href);
  const exports = glue.initSync(); // the entry has already instantiated the module: its exports
  if (!(exports?.memory instanceof WebAssembly.Memory)) throw new Error(`${entry}: initSync() gave no wasm memory`);
  return { mod, memory: exports.memory };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// ---- one component (child process) --------------------------------------------------------------

if (process.argv[2] === "--component") {
  const which = process.argv[3];
  const drivers = await import(pathToFileURL(resolve(REPO, "tests/js/hostile-drivers.mjs")).href);
  const entry = which === "server" ? "pkg/server/node.mjs" : "pkg/node.mjs";
  const { mod, memory } = await load(entry);
  const drive = { conversation: drivers.driveConversation, server: drivers.driveServer, scheduler: drivers.driveScheduler }[which];
  const w0 = memory.buffer.byteLength;
  const t0 = performance.now();
  const counts = drive(mod, N);
  const ms = performance.now() - t0;
  process.stdout.write(JSON.stringify({ which, n: N, ms, wasmStart: w0, wasmEnd: memory.buffer.byteLength, counts }));
  process.exit(0);
}

// ---- the 500 MB string (child process) ----------------------------------------------------------

if (process.argv[2] === "--refuse") {
  const main = await load("pkg/node.mjs");
  const srv = await load("pkg/server/node.mjs");
  const huge = "x".repeat(5e8);
  const request = `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"${huge}"}}`;
  const server = new srv.mod.TaskServer();
  const ctx = { protocolVersion: "2025-11-25", now: Date.UTC(2026, 0, 1) };
  const cases = [
    { name: "validateMessage(s)", limit: "maxBytes 16 MiB (default)", memory: main.memory, call: () => main.mod.validateMessage(huge), ok: (r) => r.issues[0]?.code === "too-large" },
    { name: "validateMessage(s, { maxBytes: 1024 })", limit: "maxBytes 1024", memory: main.memory, call: () => main.mod.validateMessage(huge, { maxBytes: 1024 }), ok: (r) => r.issues[0]?.code === "too-large" },
    { name: "new TaskServer().handle(request, ctx)", limit: "maxRequestBytes 16 MiB (default)", memory: srv.memory, call: () => server.handle(request, ctx), ok: (r) => r.message?.error?.code === -32600 },
  ];
  const out = [];
  for (const c of cases) {
    c.call(); // warm-up
    const before = c.memory.buffer.byteLength;
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const r = c.call();
      times.push(performance.now() - t0);
      if (!c.ok(r)) throw new Error(`${c.name}: not refused: ${JSON.stringify(r).slice(0, 200)}`);
    }
    out.push({ name: c.name, limit: c.limit, medianMs: median(times), minMs: Math.min(...times), maxMs: Math.max(...times), runs: RUNS, memoryGrew: c.memory.buffer.byteLength - before, wasmBytes: c.memory.buffer.byteLength });
  }
  process.stdout.write(JSON.stringify({ units: huge.length, requestUnits: request.length, cases: out }));
  process.exit(0);
}

// ---- the parent ---------------------------------------------------------------------------------

const args = process.argv.slice(2);
const jsonOut = args.includes("--json") ? args[args.indexOf("--json") + 1] : null;
const child = (...a) => {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...a], { encoding: "utf8", maxBuffer: 1 << 24, env: process.env });
  if (r.status !== 0) throw new Error(`bench/hostile.mjs ${a.join(" ")} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout);
};
const loadStart = os.loadavg();
console.log(`# hostile: node ${process.version}, ${N.toLocaleString("en-US")} messages per component, load ${loadStart.map((x) => x.toFixed(2)).join(" ")}`);
const components = [];
for (const which of ["conversation", "server", "scheduler"]) {
  const r = child("--component", which);
  components.push(r);
  console.log(`${which.padEnd(13)} ${(r.ms / 1000).toFixed(1).padStart(6)} s  wasm ${(r.wasmStart / MiB).toFixed(2)} → ${(r.wasmEnd / MiB).toFixed(2)} MiB  ${JSON.stringify(r.counts)}`);
}
const loadMid = os.loadavg();
const refuse = child("--refuse");
for (const c of refuse.cases) console.log(`${`${c.name} (${c.limit})`.padEnd(72)} median ${c.medianMs.toFixed(3)} ms (min ${c.minMs.toFixed(3)}, max ${c.maxMs.toFixed(3)}), wasm memory grew ${c.memoryGrew} B`);
const result = { date: new Date().toISOString(), node: process.version, n: N, runs: RUNS, loadStart, loadMid, loadEnd: os.loadavg(), components, refuse };
if (jsonOut) {
  mkdirSync(dirname(resolve(jsonOut)), { recursive: true });
  writeFileSync(jsonOut, JSON.stringify(result, null, 2));
}
