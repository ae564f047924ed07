// The wasm functions the client helpers use (TaskScheduler, validateMessage), given by the entry
// that loaded them: the main entry's glue (the client module), or the server entry's (the server
// module, a superset of the client one, which also gives its task store core). So the helpers
// exist once in the package, shared by both entries (instanceof works across them: a
// TaskFailedError thrown by a TaskClient imported from mcp-tasks-wasm/server is the main entry's
// TaskFailedError), and each entry alone loads only its own .wasm.
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).

export type WasmApi = {
  TaskScheduler: typeof import("./mcp_tasks_wasm.js").TaskScheduler;
  validateMessage: typeof import("./mcp_tasks_wasm.js").validateMessage;
  /**
   * The task store core (a TaskClient's 2025-11-25 receiver keeps its tasks in one): only the
   * server module has it, so declared here by what the receiver calls (the client module's
   * declarations do not name it).
   */
  TaskServerCore?: new (options: object) => ReceiverCore;
};

/** What a TaskClient's receiver (receiver.ts) calls of the server module's `TaskServerCore`. */
export type ReceiverCore = {
  sweep(now: number, limit: number): number;
  handle(request: unknown, ctx: object): unknown;
  create(version: string, ttl: unknown, pollInterval: unknown, owner: unknown, session: string, shareAcrossSessions: boolean, now: number): string;
  terminal(kind: number, taskId: string, payload: unknown, payloadText: string, bare: boolean, message: unknown, session: string, shareAcrossSessions: boolean, now: number): unknown;
  get(taskId: string, session: string, shareAcrossSessions: boolean, now: number): unknown;
  settle(pending: unknown, now: unknown): unknown;
  free(): void;
};

const provided: WasmApi[] = [];

/**
 * Called by every entry file with its glue's functions once the module is loaded (at import; the
 * /bytes entries in their init() and initSync()). The first one given is used.
 */
function provideWasm(api: WasmApi) {
  provided.push(api);
}

/**
 * The task store core of the first entry that gave one: the server entry's. The main entry's
 * client module has none (a browser app pays only for the client).
 */
function taskServerCore(): NonNullable<WasmApi["TaskServerCore"]> {
  wasmApi();
  for (const api of provided) if (api.TaskServerCore !== undefined) return api.TaskServerCore;
  throw new Error("mcp-tasks-wasm: receiver: { tasks: true } keeps the received tasks in the task store core, which is in the server entry's module: import mcp-tasks-wasm/server (its TaskClient is this one)");
}

function wasmApi(): WasmApi {
  const api = provided[0];
  if (api === undefined) {
    throw new Error("mcp-tasks-wasm: the WebAssembly module is not loaded yet: import mcp-tasks-wasm or mcp-tasks-wasm/server, or with the /bytes entries call init() or initSync() first");
  }
  return api;
}

export { provideWasm, wasmApi, taskServerCore };
