// Requests saved by push against polling (docs/decisions/push.md): N tasks (default 1,000) of one
// tool that
// works, asks for input, works again and completes, followed by one TaskClient over real HTTP
// (127.0.0.1, an McpHttpServer in this process), once polling only (`push: false`) and once with
// push (`TaskClient.connect` default: 2026-07-28 `subscriptions/listen` per task, 2025-11-25 the
// session's GET stream), in both eras. Every HTTP request the client sends is counted on the wire
// (its fetch), by JSON-RPC method (GET for the 2025-11-25 stream).
//
//   node bench/push.mjs [--json FILE]
//   env PUSH_TASKS (1000), PUSH_STEP_MS (2000: each of the two working phases)
import { writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";

const { McpHttpServer } = await import("../tests/js/.tmp/install/server.mjs");
const { TaskClient } = await import("../tests/js/.tmp/install/esm.mjs");

const N = Number(process.env.PUSH_TASKS ?? 1000);
const STEP_MS = Number(process.env.PUSH_STEP_MS ?? 2000);
const jsonOut = process.argv.includes("--json") ? process.argv[process.argv.indexOf("--json") + 1] : null;

const app = new McpHttpServer({
  name: "push-bench",
  version: "1.0.0",
  keepAliveMs: 0,
  hostOptions: { store: { maxLiveTasksPerSession: null }, maxLiveTasksWithoutSession: Infinity },
});
app.tool("job", { taskSupport: "required" }, async ({ i }, { requestInput, signal }) => {
  await sleep(STEP_MS, undefined, { signal });
  await requestInput({ q: { method: "elicitation/create", params: { mode: "form", message: `go on with ${i}?`, requestedSchema: { type: "object", properties: {} } } } });
  await sleep(STEP_MS, undefined, { signal });
  return { content: [{ type: "text", text: `job ${i} done` }] };
});
const server = http.createServer(app.node);
server.maxConnections = 100_000;
// 1,000 calls open their connections at once: a backlog above the default 511.
await new Promise((resolve) => server.listen({ port: 0, host: "127.0.0.1", backlog: 4096 }, resolve));
const url = `http://127.0.0.1:${server.address().port}/mcp`;

/** One run: N tasks followed by one client; the requests it sent, by method. */
async function run(version, push) {
  /** @type {Record<string, number>} */
  const byMethod = {};
  let requests = 0;
  const f = (input, init) => {
    requests += 1;
    const method = init.body ? (JSON.parse(init.body).method ?? "(answer)") : init.method;
    byMethod[method] = (byMethod[method] ?? 0) + 1;
    return fetch(input, init);
  };
  const client = await TaskClient.connect(url, { protocolVersion: version, fetch: f, push, handlers: { elicitation: async () => ({ action: "accept", content: {} }) } });
  const t0 = performance.now();
  const results = await Promise.all(Array.from({ length: N }, (_, i) => client.callTool("job", { i }, { task: {} })));
  const wallMs = performance.now() - t0;
  await client.close();
  const done = results.filter((r, i) => r.content?.[0]?.text === `job ${i} done`).length;
  if (done !== N) throw new Error(`${version} push=${push}: ${done} of ${N} tasks completed`);
  return { version, push, tasks: N, requests, byMethod, tasksGet: byMethod["tasks/get"] ?? 0, wallMs: Math.round(wallMs) };
}

const loadStart = os.loadavg();
const runs = [];
for (const version of ["2026-07-28", "2025-11-25"]) {
  for (const push of [false, true]) {
    const r = await run(version, push);
    runs.push(r);
    console.log(`${version} ${push ? "push   " : "polling"}: ${r.requests} requests (${r.tasksGet} tasks/get) for ${N} tasks in ${(r.wallMs / 1000).toFixed(1)} s  ${JSON.stringify(r.byMethod)}`);
  }
}
await app.close();
server.closeAllConnections?.();
await new Promise((resolve) => server.close(resolve));
const out = { date: new Date().toISOString(), node: process.version, nproc: os.cpus().length, cpu: os.cpus()[0]?.model ?? "", loadStart, loadEnd: os.loadavg(), tasks: N, stepMs: STEP_MS, runs };
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(out, null, 2));
