// TaskHost: the asynchronous part of a task server, on top of TaskServer (the Rust core).
//
// TaskServer answers every message synchronously and runs nothing; what is left for a host is
// running tools in the background, waiting for input, blocking V25 `tasks/result` until the task
// ends, and stopping work when a task is cancelled. TaskHost does exactly that and holds no task
// rule of its own: every state change and every response comes from TaskServer.
//
// Written in the subset scripts/esm-to-cjs.mjs converts (the CommonJS twin is generated).
import { TaskServer } from "./mcp_tasks_wasm.js";

/**
 * @typedef {import("./mcp_tasks_wasm.js").ServerContext} ServerContext
 * @typedef {import("./mcp_tasks_wasm.js").TaskStoreOptions} TaskStoreOptions
 * @typedef {import("./mcp_tasks_wasm.js").V25TaskSupport} TaskSupport
 * @typedef {import("./mcp_tasks_wasm.js").JsonRpcError} JsonRpcError
 * @typedef {Extract<import("./mcp_tasks_wasm.js").HandleOutcome, { kind: "pending" }>} PendingResult
 * @typedef {{ result: Record<string, unknown> } | { error: JsonRpcError }} ToolOutcome
 * @typedef {Record<string, unknown>} JsonObject
 */

/**
 * What a tool's handler receives besides its arguments.
 * @typedef {object} ToolContext
 * @property {AbortSignal} signal Aborted when the task is cancelled (`tasks/cancel`) or the host
 *   is closed; the handler should stop. Whatever it returns after that is discarded.
 * @property {string | null} taskId The task running this call; `null` when it runs synchronously.
 * @property {ServerContext} context The context of the `tools/call` request.
 * @property {JsonObject} request The `tools/call` request.
 * @property {(inputRequests: import("./mcp_tasks_wasm.js").V26InputRequests, message?: string) => Promise<Record<string, unknown>>} requestInput
 *   V26 tasks only: raises input requests (key → `{ method, params }`; the task becomes
 *   `input_required`) and resolves with the responses by key once the client answered every
 *   key through `tasks/update`. Rejects when the task is cancelled, and at once when the call
 *   is not a V26 task or asks for a capability (elicitation, sampling, roots) the `tools/call`
 *   did not declare in its `_meta` (§D 98: `TaskServer.checkInputRequests`).
 * @property {(message: string) => void} setStatusMessage Sets the task's `statusMessage`
 *   (nothing without a task).
 */

/**
 * A tool's work: returns a `CallToolResult` (`isError: true` for a tool execution error) or
 * throws. A thrown object with an integer `code` and a string `message` (such as the SDK's
 * `McpError`) is a JSON-RPC error (V25 and V26: the task `failed`); any other throw becomes a
 * tool execution error result (`isError: true`), as the official SDKs do.
 * @callback ToolHandler
 * @param {JsonObject} args The call's `arguments` (`{}` when absent).
 * @param {ToolContext} ctx
 * @returns {JsonObject | Promise<JsonObject>}
 */

/**
 * @typedef {object} ToolOptions
 * @property {TaskSupport} [taskSupport] V25: the tool's `execution.taskSupport` (default
 *   `"optional"`). V26: whether the server runs calls of it as tasks ("forbidden": never,
 *   "optional": when the request declares the extension, "required": refuses other calls).
 */

/**
 * @typedef {object} TaskHostOptions
 * @property {TaskServer} [server] The TaskServer to use (default: a new one with `store`).
 * @property {TaskStoreOptions} [store] Options of the new TaskServer's store.
 * @property {() => number} [now] The clock, Unix ms (default `Date.now`).
 * @property {(error: unknown, taskId: string) => void} [onError] Called when storing a finished
 *   task's outcome throws (default: `console.error`).
 */

/** @param {unknown} e @returns {e is { code: number, message: string, data?: unknown }} */
function isJsonRpcError(e) {
  return (
    typeof e === "object" &&
    e !== null &&
    Number.isInteger(/** @type {{ code?: unknown }} */ (e).code) &&
    typeof (/** @type {{ message?: unknown }} */ (e).message) === "string"
  );
}

/**
 * Runs `handler` to a `ToolOutcome` (never throws).
 * @param {ToolHandler} handler @param {JsonObject} args @param {ToolContext} ctx
 * @returns {Promise<ToolOutcome>}
 */
async function runTool(handler, args, ctx) {
  try {
    const result = await handler(args, ctx);
    return { result: result ?? { content: [] } };
  } catch (e) {
    if (isJsonRpcError(e)) {
      /** @type {{ code: number, message: string, data?: unknown }} */
      const error = { code: e.code, message: e.message };
      if (e.data !== undefined) error.data = e.data;
      return { error };
    }
    const text = e instanceof Error ? e.message : String(e);
    return { result: { content: [{ type: "text", text }], isError: true } };
  }
}

/**
 * The outcome of a tool whose result could not be read (the bindings threw a TypeError).
 * @param {unknown} e @returns {ToolOutcome}
 */
function unreadable(e) {
  const why = e instanceof Error ? e.message : String(e);
  return { error: { code: -32603, message: `Internal error: the tool returned an unreadable result (${why})` } };
}

class TaskHost {
  /** @param {TaskHostOptions} [options] */
  constructor(options = {}) {
    /** The TaskServer every request goes through. */
    this.server = options.server ?? new TaskServer(options.store);
    /** @type {() => number} */
    this.now = options.now ?? Date.now;
    /** @type {(error: unknown, taskId: string) => void} */
    this.onError = options.onError ?? ((error, taskId) => console.error(`task ${taskId}:`, error));
    /** @type {Map<string, { options: ToolOptions, handler: ToolHandler }>} */
    this.tools = new Map();
    /** Running task work by task id. @type {Map<string, { abort: AbortController, done: Promise<void>, inputWaiters: Set<() => void> }>} */
    this.running = new Map();
    /** Blocked V25 `tasks/result` requests by task id. @type {Map<string, Array<{ pending: PendingResult, resolve: (response: JsonObject) => void }>>} */
    this.waiting = new Map();
  }

  /**
   * Registers a tool that `handle` runs for `tools/call` (synchronously or as a task).
   * @param {string} name @param {ToolOptions} options @param {ToolHandler} handler
   * @returns {this}
   */
  tool(name, options, handler) {
    if (typeof name !== "string" || name === "") throw new TypeError("tool name must be a non-empty string");
    if (typeof handler !== "function") throw new TypeError(`tool ${name}: handler must be a function`);
    this.tools.set(name, { options: { taskSupport: options?.taskSupport ?? "optional" }, handler });
    return this;
  }

  /**
   * Answers one incoming JSON-RPC message: the response to send, or `null` when there is none
   * (a notification) or the message is not for this host (not `tasks/*`, not a `tools/call` of a
   * registered tool: route it yourself). A V25 `tasks/result` on a live task resolves when the
   * task ends. Throws a `TypeError` on a malformed `ctx`.
   * @param {JsonObject | string} message
   * @param {Omit<ServerContext, "now">} context
   * @returns {Promise<JsonObject | null>}
   */
  async handle(message, context) {
    /** @type {ServerContext} */
    const ctx = { ...context, now: this.now() };
    const out = this.server.handle(message, ctx);
    switch (out.kind) {
      case "response":
        if (out.event?.kind === "cancelled") this.#stop(out.event.taskId, "cancelled");
        if (out.event?.kind === "input-taken") this.#wake(out.event.taskId);
        return out.message;
      case "pending":
        return new Promise((resolve) => {
          const list = this.waiting.get(out.taskId) ?? [];
          list.push({ pending: out, resolve });
          this.waiting.set(out.taskId, list);
          this.#settle(out.taskId); // it may have ended in between
        });
      case "none":
        return null;
      default:
        return this.#toolCall(typeof message === "string" ? JSON.parse(message) : message, ctx);
    }
  }

  /**
   * Purges expired tasks (`TaskServer.sweep`) and answers the blocked `tasks/result` requests of
   * purged tasks. No timer runs inside the host: call this from your own (say once a minute).
   * @param {number} [limit] At most this many tasks (default all).
   * @returns {number} How many tasks were purged.
   */
  sweep(limit) {
    const purged = this.server.sweep(this.now(), limit ?? null);
    for (const taskId of [...this.waiting.keys()]) this.#settle(taskId);
    return purged;
  }

  /** Resolves when no task work is running (say, before a snapshot or in tests). */
  async idle() {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((r) => r.done));
  }

  /**
   * Stops every running task's work (its signal aborts, reason `"closed"`); the tasks stay as
   * they are in the store. Resolves when the handlers have returned.
   */
  async close() {
    for (const taskId of this.running.keys()) this.#stop(taskId, "closed");
    await this.idle();
  }

  // ---- internals ---------------------------------------------------------------------------------

  /** @param {JsonObject} request @param {ServerContext} ctx @returns {Promise<JsonObject | null>} */
  async #toolCall(request, ctx) {
    if (request?.method !== "tools/call") return null;
    const params = /** @type {JsonObject | undefined} */ (request.params);
    const name = params?.name;
    const tool = typeof name === "string" ? this.tools.get(name) : undefined;
    if (!tool) return null;
    const args = /** @type {JsonObject} */ (params?.arguments ?? {});
    const start = this.server.beginToolCall(request, ctx, tool.options.taskSupport ?? "optional");
    if (start.kind === "reject") return start.response;
    if (start.kind === "sync") {
      const abort = new AbortController();
      const outcome = await runTool(tool.handler, args, {
        signal: abort.signal,
        taskId: null,
        context: ctx,
        request,
        requestInput: () => Promise.reject(new Error("requestInput needs a V26 task; this call runs synchronously")),
        setStatusMessage: () => {},
      });
      try {
        return this.server.syncToolResponse(request, ctx, outcome);
      } catch (e) {
        // A result the package cannot read as JSON (a BigInt, a cycle): an internal error.
        return this.server.syncToolResponse(request, ctx, unreadable(e));
      }
    }
    this.#start(start.taskId, tool.handler, args, request, ctx);
    return start.response;
  }

  /**
   * Runs a task's work in the background and stores its outcome.
   * @param {string} taskId @param {ToolHandler} handler @param {JsonObject} args
   * @param {JsonObject} request @param {ServerContext} ctx
   */
  #start(taskId, handler, args, request, ctx) {
    const abort = new AbortController();
    /** @type {Set<() => void>} */
    const inputWaiters = new Set();
    /** @type {ToolContext} */
    const toolCtx = {
      signal: abort.signal,
      taskId,
      context: ctx,
      request,
      requestInput: (inputRequests, message) =>
        this.#requestInput(taskId, request, ctx, abort.signal, inputWaiters, inputRequests, message),
      setStatusMessage: (message) => {
        const task = this.server.getTask(taskId, this.now());
        if (task.status === "working" || task.status === "input_required") {
          this.server.setStatus(taskId, task.status, message, this.now());
        }
      },
    };
    const done = (async () => {
      await null; // the CreateTaskResult is answered before the work starts
      const outcome = await runTool(handler, args, toolCtx);
      try {
        try {
          this.server.finishToolCall(taskId, outcome, this.now());
        } catch (e) {
          if (!(e instanceof TypeError)) throw e;
          this.server.finishToolCall(taskId, unreadable(e), this.now());
        }
      } catch (e) {
        this.onError(e, taskId);
      }
      this.running.delete(taskId);
      this.#settle(taskId);
    })();
    this.running.set(taskId, { abort, done, inputWaiters });
  }

  /**
   * @param {string} taskId @param {JsonObject} request The `tools/call` that created the task.
   * @param {ServerContext} ctx @param {AbortSignal} signal @param {Set<() => void>} waiters
   * @param {import("./mcp_tasks_wasm.js").V26InputRequests} inputRequests
   * @param {string} [message]
   * @returns {Promise<Record<string, unknown>>}
   */
  async #requestInput(taskId, request, ctx, signal, waiters, inputRequests, message) {
    if (ctx.protocolVersion !== "2026-07-28") {
      throw new Error("requestInput is for 2026-07-28 tasks (a 2025-11-25 server sends its requests to the client itself)");
    }
    signal.throwIfAborted();
    TaskServer.checkInputRequests(request, inputRequests); // §D 98: only what the client declared
    this.server.raiseInput(taskId, inputRequests, message ?? null, this.now());
    const keys = Object.keys(inputRequests);
    for (;;) {
      const answered = this.server.getTask(taskId, this.now()).inputResponses ?? {};
      if (keys.every((k) => Object.hasOwn(answered, k))) {
        return Object.fromEntries(keys.map((k) => [k, answered[k]]));
      }
      await new Promise((resolve, reject) => {
        const wake = () => {
          waiters.delete(wake);
          signal.removeEventListener("abort", onAbort);
          resolve(undefined);
        };
        const onAbort = () => {
          waiters.delete(wake);
          reject(signal.reason);
        };
        waiters.add(wake);
        signal.addEventListener("abort", onAbort, { once: true });
      });
    }
  }

  /** @param {string} taskId @param {string} reason */
  #stop(taskId, reason) {
    const run = this.running.get(taskId);
    if (run && !run.abort.signal.aborted) {
      const error = new Error(`task ${taskId} ${reason}`);
      error.name = "AbortError";
      run.abort.abort(error);
    }
    this.#settle(taskId);
  }

  /** @param {string} taskId */
  #wake(taskId) {
    const run = this.running.get(taskId);
    if (run) for (const wake of [...run.inputWaiters]) wake();
  }

  /** Answers the blocked `tasks/result` requests of `taskId` that can be answered now. @param {string} taskId */
  #settle(taskId) {
    const list = this.waiting.get(taskId);
    if (!list) return;
    const now = this.now();
    const still = list.filter((w) => {
      const response = this.server.settle(w.pending, now);
      if (response === null) return true;
      w.resolve(response);
      return false;
    });
    if (still.length > 0) this.waiting.set(taskId, still);
    else this.waiting.delete(taskId);
  }
}

export { TaskHost };
