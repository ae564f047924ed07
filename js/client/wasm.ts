// The two wasm functions the client helpers use (TaskScheduler, validateMessage), given by the
// entry that loaded them: the main entry's glue, or the server entry's (its module is a superset
// of the main one). So the helpers exist once in the package, shared by both entries (instanceof
// works across them: a TaskFailedError thrown by a TaskClient imported from mcp-tasks-wasm/server
// is the main entry's TaskFailedError), and mcp-tasks-wasm/server alone loads only its own .wasm.
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).

export type WasmApi = {
  TaskScheduler: typeof import("./mcp_tasks_wasm.js").TaskScheduler;
  validateMessage: typeof import("./mcp_tasks_wasm.js").validateMessage;
  /** The task store core (a TaskClient's 2025-11-25 receiver keeps its tasks in one). */
  TaskServerCore?: typeof import("./mcp_tasks_wasm.js").TaskServerCore;
};

const provided: WasmApi[] = [];

/**
 * Called by every entry file with its glue's functions once the module is loaded (at import; the
 * /bytes entries in their init() and initSync()). The first one given is used.
 */
function provideWasm(api: WasmApi) {
  provided.push(api);
}

function wasmApi(): WasmApi {
  const api = provided[0];
  if (api === undefined) {
    throw new Error("mcp-tasks-wasm: the WebAssembly module is not loaded yet: import mcp-tasks-wasm or mcp-tasks-wasm/server, or with the /bytes entries call init() or initSync() first");
  }
  return api;
}

export { provideWasm, wasmApi };
