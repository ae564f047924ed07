// The client's poll step end to end: `ToolTask.status()` (one `tasks/get` over HTTP on
// 127.0.0.1, its answer checked by `validateMessage` as a parsed object, as the poll loop checks
// it) of two builds of the client, against one server, interleaved run by run in one process.
//
//   node bench/poll-loop.mjs [--before INSTALL_DIR] [--json FILE]
//   env POLL_RUNS (timed runs per build and version, default 7), POLL_N (calls per run, 300)
//
// INSTALL_DIR: a directory with esm.mjs and node_modules/mcp-tasks-wasm (scripts/pack.sh's
// tests/js/.tmp/install, or a copy of an older one). The server is this checkout's installed
// package; only the clients differ.
import http from "node:http";
import os from "node:os";
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : null);
const RUNS = Number(process.env.POLL_RUNS ?? 7);
const N = Number(process.env.POLL_N ?? 300);
const here = resolve(import.meta.dirname, "../tests/js/.tmp/install");
const before = arg("--before");
const load = async (dir) => import(pathToFileURL(resolve(dir, "esm.mjs")).href);

const { McpHttpServer } = await import(pathToFileURL(resolve(here, "server.mjs")).href);
const builds = [["after", (await load(here)).TaskClient]];
if (before) builds.unshift(["before", (await load(before)).TaskClient]);

const app = new McpHttpServer({ name: "poll-bench", version: "1.0.0", hostOptions: { store: { maxLiveTasksPerSession: null } } });
// Never ends on its own: every status() answers `working`.
app.tool("wait", { taskSupport: "required" }, (_args, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))));
const server = http.createServer(app.node);
await new Promise((r) => server.listen({ port: 0, host: "127.0.0.1" }, r));
const url = `http://127.0.0.1:${server.address().port}/mcp`;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const cases = [];
for (const version of ["2025-11-25", "2026-07-28"]) {
  for (const [who, TaskClient] of builds) {
    const client = await TaskClient.connect(url, { protocolVersion: version });
    const task = await client.startTool("wait", {}, {});
    for (let i = 0; i < 100; i++) await task.status(); // warm-up
    cases.push({ who, version, client, task, us: [] });
  }
}
const loadStart = os.loadavg();
for (let r = 0; r < RUNS; r++) {
  for (const c of cases) {
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      const s = await c.task.status();
      if (s.status !== "working") throw new Error(`${c.who} ${c.version}: ${JSON.stringify(s)}`);
    }
    c.us.push(((performance.now() - t0) * 1000) / N);
  }
}
const loadEnd = os.loadavg();
const rows = cases.map((c) => ({ who: c.who, version: c.version, usPerPoll: median(c.us), min: Math.min(...c.us), max: Math.max(...c.us) }));
console.log(`poll-loop: ${RUNS} interleaved runs of ${N} status() calls; load ${loadStart.map((x) => x.toFixed(2)).join(" ")} -> ${loadEnd.map((x) => x.toFixed(2)).join(" ")}`);
for (const r of rows) console.log(`${r.version} ${r.who}: ${r.usPerPoll.toFixed(1)} us/poll (${r.min.toFixed(1)}-${r.max.toFixed(1)})`);
for (const c of cases) {
  await c.task.cancel().catch(() => {});
  await c.client.close();
}
await app.close();
server.closeAllConnections?.();
await new Promise((r) => server.close(r));
const out = arg("--json");
if (out) writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), node: process.version, nproc: os.cpus().length, loadStart, loadEnd, runs: RUNS, n: N, before, rows }, null, 2));
