// The two task stores and the workload they share (bench/store.mjs, bench/store-memory.mjs).
//
//   ours  TaskStore from the built server entry pkg/server/node.mjs (wasm, synchronous)
//   sdk   InMemoryTaskStore from @modelcontextprotocol/sdk/experimental/tasks (JS, async)
//
// The task, for both: a 2025-11-25 task created by a `tools/call` with `task: { ttl: 3600000 }`
// (1 h, under our default maxTtlMs of 24 h, so no timer or expiry fires during a run), bound to
// one Streamable HTTP session (a UUID). Our store is configured with `maxLiveTasksPerSession:
// null` (the default caps a session at 100 live tasks, which would refuse the 2nd..Nth create of
// a benchmark), everything else default (page size 50, poll interval 1000 ms).
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const SERVER_WASM = resolve(REPO, "pkg/mcp_tasks_wasm_bg.wasm");

export const TTL = 3_600_000;
export const SESSION = "6f1c2a4e-2b1d-4e59-9a57-1f0c8d3b7e21";
export const V25 = "2025-11-25";
export const OURS_OPTIONS = { maxLiveTasksPerSession: null };
export const OURS_CREATE = { protocolVersion: V25, ttl: TTL };
export const OURS_CTX = { session: SESSION };
export const SDK_TASK_PARAMS = { ttl: TTL };
/** The CallToolResult a task completes with (both stores). */
export const RESULT = { content: [{ type: "text", text: "Report ready: 42 rows processed." }] };
/** The request the SDK keeps with each task (`createTask(params, requestId, request, sessionId)`). */
export function toolsCallRequest() {
  return { method: "tools/call", params: { name: "long_job", arguments: { rows: 42 }, task: { ttl: TTL } } };
}

export const describeWorkload = {
  task: `2025-11-25 task created with ttl ${TTL} ms (1 h), bound to one session (a 36-character UUID), status working`,
  oursOptions: OURS_OPTIONS,
  oursCreate: `store.create(${JSON.stringify(OURS_CREATE)}, { session })`,
  sdkCreate: "await store.createTask({ ttl: 3600000 }, requestId, request, sessionId) with request = " + JSON.stringify(toolsCallRequest()),
  result: RESULT,
};

/** { TaskStore, TaskServerCore, memory } from pkg/server/node.mjs (TaskStore: the JS class over the
 * wasm core TaskServerCore); `memory` is the wasm linear memory. */
export async function loadOurs() {
  const mod = await import(pathToFileURL(resolve(REPO, "pkg/server/node.mjs")).href);
  // node.mjs has already instantiated the module: initSync() answers the existing exports.
  // Its glue (TaskServerCore is internal: the entry does not export it).
  const glue = await import(pathToFileURL(resolve(REPO, "pkg/server/mcp_tasks_wasm.js")).href);
  const exports = glue.initSync();
  if (!(exports?.memory instanceof WebAssembly.Memory)) throw new Error("pkg/server: initSync() gave no wasm memory");
  return { TaskStore: mod.TaskStore, TaskServerCore: glue.TaskServerCore, memory: exports.memory };
}

export async function loadSdk() {
  const mod = await import("@modelcontextprotocol/sdk/experimental/tasks");
  if (typeof mod.InMemoryTaskStore !== "function") throw new Error("SDK: no InMemoryTaskStore in experimental/tasks");
  return { InMemoryTaskStore: mod.InMemoryTaskStore };
}

/** What was measured: the server wasm's hash and build time, the SDK version. */
export function packageInfo() {
  const wasm = readFileSync(SERVER_WASM);
  return {
    serverWasmSha256: createHash("sha256").update(wasm).digest("hex").slice(0, 16),
    serverWasmBuilt: new Date(statSync(SERVER_WASM).mtimeMs).toISOString(),
    serverWasmBytes: wasm.length,
    sdk: JSON.parse(readFileSync(resolve(REPO, "node_modules/@modelcontextprotocol/sdk/package.json"), "utf8")).version,
  };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
