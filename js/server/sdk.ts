// SdkTaskStore: our TaskStore (the Rust core) behind the experimental `TaskStore` interface of the
// official TypeScript SDK (`@modelcontextprotocol/sdk` 1.x, protocol 2025-11-25), so that an SDK
// `McpServer`/`Server` can run on it: `new McpServer(info, { taskStore: new SdkTaskStore() })`.
//
// It holds no task rule of its own. The state machine, TTL cap and purge, session isolation,
// cursors and "the first terminal outcome wins" all live in TaskStore; this class converts the
// SDK's method shapes to ours and back, and our errors to what the SDK expects. It does not
// import the SDK (the package does not depend on it): SDK shapes are described structurally.
//
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).
import { TaskStore } from "./store.js";
import { TaskStoreError } from "./errors.js";
import { TaskFailedError } from "./client.js";
import { V25, INVALID_PARAMS, INTERNAL_ERROR } from "./protocol.js";

export type TaskStoreOptions = import("./mcp_tasks_wasm.js").TaskStoreOptions;

export type TaskContext = import("./mcp_tasks_wasm.js").TaskContext;

export type StoreTask = import("./mcp_tasks_wasm.js").StoreTask;

export type CreateTaskParams = import("./mcp_tasks_wasm.js").CreateTaskParams;

export type JsonRpcError = import("./mcp_tasks_wasm.js").JsonRpcError;

export type TaskStatus = import("./mcp_tasks_wasm.js").TaskStatus;

/** The SDK's `Task` (2025-11-25 wire task). */
export type Task = import("./mcp_tasks_wasm.js").V25Task;

/** A JSON-RPC result object (the SDK's `Result`). */
export type Result = Record<string, unknown>;

export type StoreErrorKind = import("./errors.js").StoreErrorKind;

/**
 * The SDK's `CreateTaskOptions`: what a task-creating handler passes to `createTask`.
 */
export type CreateTaskOptions = {
  /**
   * The TTL the requestor asked for (`params.task.ttl`), in ms; capped by `maxTtlMs`. `null` or
   * absent: the store's `defaultTtlMs`.
   */
  ttl?: number | null;
  /** Overrides the store's `pollIntervalMs` for this task. */
  pollInterval?: number;
  /** Ignored. */
  context?: Record<string, unknown>;
};

/**
 * Makes the `Error` a failing method throws from a JSON-RPC error: say
 * `(code, message, data) => new McpError(code, message, data)`, so that the SDK recognises it
 * (its `tasks/cancel` handler keeps the code only of an `McpError`).
 */
export type ErrorFactory = (code: number, message: string, data?: unknown) => Error;

/**
 * The adapter's own options.
 */
export type SdkAdapterOptions = {
  /**
   * The TaskStore to use (default: a new one with the other options, which are not allowed with
   * it).
   */
  store?: TaskStore;
  /**
   * The clock, Unix ms (default `() => Date.now()`, read at every call, so fake timers that replace
   * `Date.now` after construction reach it).
   */
  now?: () => number;
  /**
   * Makes the errors store failures are thrown as (default: the store's own `TaskStoreError`, an
   * `Error` with `code`, `message`, `data?`, `kind`). Either way the error has `kind`; a made one
   * has the store's error as `cause`.
   */
  createError?: ErrorFactory;
  /**
   * `storeTaskResult` on a task that already ended (a cancelled task whose work finished, §D 21) or
   * is gone (expired, removed) resolves and changes nothing, instead of rejecting with code -32602
   * (default `false`, like the SDK's own store).
   */
  ignoreLateResults?: boolean;
  /**
   * Whether the work reaches its tasks without a session (default `true`). The SDK passes the
   * `sessionId` argument on every call it makes on behalf of a client: its
   * `tasks/get|result|list|cancel` handlers and the request-scoped store it hands tool handlers as
   * `extra.taskStore` call `getTask(id, extra.sessionId)` and so on, the argument present even when
   * its value is `undefined` (stateless HTTP, stdio); and each of its client paths that writes
   * (`tasks/cancel`, `extra.taskStore.updateTaskStatus`) reads the task with `getTask(id,
   * sessionId)` first. A call that leaves the argument out comes from code holding the store
   * itself: the work running a task (the SDK's examples finish tasks from a background closure with
   * `store.storeTaskResult(id, status, result)`), the SDK's own tests, an admin view. With `true`:
   * - the argument left out (any method): the host (§D 38), which reaches every task by its id, and
   * `listTasks()` lists every session's tasks, like the 1.32.2 store ("calls that pass no sessionId
   * are not restricted");
   * - the writing methods `storeTaskResult` and `updateTaskStatus` with `sessionId` `undefined`,
   * even given explicitly (a subclass that forwards `super.storeTaskResult(id, status, result,
   * sessionId)`, as the SDK's simpleTaskInteractive example does): the host too, by exact id;
   * - the reading methods `getTask`, `getTaskResult`, `listTasks` given `sessionId`, `undefined`
   * included: fail-closed, the session's own tasks only (`undefined`: the tasks created without a
   * session). So no client lists, reads, cancels or fetches another session's task through the SDK,
   * whatever the transport. RISK: (1) code of yours that answers a client by calling the store
   * directly must pass the client's `sessionId` (even `undefined`) as an argument; leaving it out
   * acts as the host and crosses sessions. (2) A write with no session (tool code in stateless HTTP
   * or stdio, whose `extra.sessionId` is undefined) reaches any task whose id it names: the id, 128
   * random bits (§D 39), is then the only guard, so write only ids your own work created, never an
   * id taken from a client's arguments. `false`: no call is the host; a call without a session
   * (left out or `undefined`) sees only tasks created without one, the strictest setting, under
   * which the work must pass the session the task was created in (`extra.sessionId`).
   */
  unscopedWork?: boolean;
};

/**
 * Options of an `SdkTaskStore`: the options of a new `TaskStore` (`maxTtlMs`, `defaultTtlMs`,
 * `pollIntervalMs`, `maxLiveTasksPerSession`, `pageSize`, `shareAcrossSessions`,
 * `recordChanges`) and the adapter's own. `pageSize` defaults to 10 here, the page size of the
 * SDK's `InMemoryTaskStore` (a `TaskStore`'s own default is 50).
 */
export type SdkTaskStoreOptions = TaskStoreOptions & SdkAdapterOptions;

/** The page size of the SDK's `InMemoryTaskStore`, our default. */
const SDK_PAGE_SIZE = 10;
/** The longest cursor an "Invalid cursor: …" message repeats in full. */
const CURSOR_ECHO_MAX = 200;

function isStoreError(e: unknown): e is Error & { code: number; data?: unknown; kind: string; } {
  return e instanceof Error && e.name === "TaskStoreError" && Number.isInteger((e as { code?: unknown }).code);
}

/**
 * The error a failed task's `tasks/result` answers: a `TaskFailedError` (the package's one class,
 * with `code`, `data` and `error`) with the stored message unchanged (the SDK answers
 * `{ code, message, data }` from it, §D 30).
 */
function storedError(taskId: string, error: JsonRpcError): TaskFailedError {
  const e = new TaskFailedError(taskId, error);
  e.message = error.message;
  if (error.data === undefined) delete (e as { data?: unknown }).data;
  return e;
}

class SdkTaskStore {
  readonly store: TaskStore;
  #now: () => number;
  #createError: ErrorFactory | undefined;
  #ignoreLateResults: boolean;
  #unscopedWork: boolean;
  constructor(options: SdkTaskStoreOptions = {}) {
    const { store, now, createError, ignoreLateResults, unscopedWork, ...storeOptions } = options ?? {};
    if (store !== undefined && Object.keys(storeOptions).length > 0) {
      throw new TypeError(
        `SdkTaskStore: give \`store\` or the options of a new one, not both (${Object.keys(storeOptions).join(", ")})`,
      );
    }
    /** The TaskStore every operation goes through (snapshot, restore, sweep it as you like). */
    this.store = store ?? new TaskStore({
      ...storeOptions,
      pageSize: storeOptions.pageSize === undefined ? SDK_PAGE_SIZE : storeOptions.pageSize,
    });
    this.#now = now ?? (() => Date.now());
    this.#createError = createError;
    this.#ignoreLateResults = ignoreLateResults === true;
    /** The work reaches its tasks without a session (see the `unscopedWork` option). */
    this.#unscopedWork = unscopedWork !== false;
  }

  /**
   * SDK `createTask`: a new task in `working`, bound to the session (§D 19, 38). The TTL the
   * requestor asked for is capped by `maxTtlMs` and the task reports the TTL granted (§D 25).
   * A malformed `ttl`/`pollInterval` (negative, fractional): code -32602. Over the session's
   * live-task cap: code -32010.
   * @param _requestId The JSON-RPC id of the creating request (unused).
   * @param _request The creating request
   *   (unused: the SDK keeps the handler's work, the store only its outcome).
   */
  async createTask(taskParams: CreateTaskOptions, _requestId: string | number, _request: { method: string; params?: Record<string, unknown>; }, sessionId?: string): Promise<Task> {
    const params: CreateTaskParams = { protocolVersion: V25 };
    if (taskParams?.ttl != null) params.ttl = taskParams.ttl;
    if (taskParams?.pollInterval != null) params.pollIntervalMs = taskParams.pollInterval;
    const ctx = this.#ctx(sessionId);
    try {
      return this.store.create(params, ctx).v25;
    } catch (e) {
      if (e instanceof TypeError) {
        throw this.#error(INVALID_PARAMS, `Invalid task parameters: ${e.message}`, undefined, "invalid_params", e);
      }
      throw this.#mapped(e);
    }
  }

  /**
   * SDK `getTask`: the task as the session sees it, or `null` when it is unknown, expired,
   * purged or another session's (§D 35, 38): the SDK answers -32602 then.
   * @param [sessionId] The client's session (the SDK always passes the argument, `undefined` included); left out: the host, which reaches every task (see `unscopedWork`).
   */
  async getTask(taskId: string, sessionId?: string): Promise<Task | null> {
    try {
      return this.store.get(taskId, this.#ctx(sessionId, arguments.length < 2)).v25;
    } catch (e) {
      if (isStoreError(e) && e.kind === "not_found") return null;
      throw this.#mapped(e, taskId);
    }
  }

  /**
   * SDK `storeTaskResult`: ends the task with the original request's outcome. `"completed"`:
   * `result` is the result. `"failed"`: `result` is a tool result with `isError: true` (§D 44),
   * which `tasks/result` then answers; any other result is refused (code -32603, kind
   * `invalid_tool_failure`). The first terminal outcome wins (§D 21): on a task that already
   * ended this rejects with code -32602 (kind `already_terminal`) and changes nothing, or
   * resolves with `ignoreLateResults`.
   * @param [sessionId] The caller's session; `undefined` (left out or given): the work, which reaches any task by its id (see `unscopedWork`).
   */
  async storeTaskResult(taskId: string, status: "completed" | "failed", result: Result, sessionId?: string): Promise<void> {
    const ctx = this.#ctx(sessionId, sessionId === undefined);
    try {
      if (status === "completed") {
        this.store.complete(taskId, result, null, ctx);
      } else if (status === "failed") {
        this.store.failWithToolResult(taskId, result, null, ctx);
      } else {
        throw new TypeError(`storeTaskResult: status must be "completed" or "failed", not ${JSON.stringify(status)}`);
      }
    } catch (e) {
      if (this.#ignoreLateResults && isStoreError(e) && (e.kind === "already_terminal" || e.kind === "not_found")) return;
      throw this.#mapped(e, taskId, ctx, (terminal) =>
        `Cannot store result for task ${taskId} in terminal status '${terminal}'. Task results can only be stored once.`);
    }
  }

  /**
   * SDK `getTaskResult`: what `tasks/result` answers for a terminal task (§D 30). `completed`:
   * the stored result; `failed` by an `isError` tool result: that result; `failed` by a
   * JSON-RPC error: rejects with exactly that error (a plain `Error` with its `code`, `message`
   * and `data`); `cancelled`: rejects with code -32602 (kind `cancelled`, "Task … has no result
   * stored (it was cancelled)"). A live task has no result yet (the SDK waits for a terminal
   * status first): code -32603 (kind `not_terminal`). Unknown: code -32602.
   * @param [sessionId] The client's session (the SDK always passes the argument, `undefined` included); left out: the host, which reaches every task (see `unscopedWork`).
   */
  async getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    let outcome: import("./mcp_tasks_wasm.js").ResultOf;
    const ctx = this.#ctx(sessionId, arguments.length < 2);
    try {
      outcome = this.store.resultOf(taskId, ctx);
    } catch (e) {
      throw this.#mapped(e, taskId);
    }
    switch (outcome.kind) {
      case "result":
        return outcome.result;
      case "error":
        // A cancelled task never produced an outcome (its error is the store's, not one the
        // work stored): the SDK store's phrase, so that code matching it still works.
        if (this.store.get(taskId, ctx).v25.status === "cancelled") {
          throw this.#error(INVALID_PARAMS, `Task ${taskId} has no result stored (it was cancelled)`, undefined, "cancelled");
        }
        throw storedError(taskId, outcome.error);
      default:
        throw this.#error(INTERNAL_ERROR, `Task ${taskId} has no result stored (it is not terminal)`, undefined, "not_terminal");
    }
  }

  /**
   * SDK `updateTaskStatus`. `working` ⇄ `input_required` (or a new `statusMessage`): moved by
   * the store. `cancelled`: a 2025-11-25 cancel (§D 22: a terminal task rejects with -32602).
   * `failed`: fails the task with the JSON-RPC error `{ code: -32603, message: statusMessage }`,
   * which `tasks/result` then answers. `completed` (the interface lists it) completes the task
   * with the empty result `{}`, which `tasks/result` then answers: store the real result with
   * `storeTaskResult` instead (the SDK's own store leaves the task with no result at all, and its
   * `tasks/result` fails). A terminal task never changes (§D 20): -32602.
   * @param [sessionId] The caller's session; `undefined` (left out or given): the work, which reaches any task by its id (see `unscopedWork`).
   */
  async updateTaskStatus(taskId: string, status: TaskStatus, statusMessage?: string, sessionId?: string): Promise<void> {
    const ctx = this.#ctx(sessionId, sessionId === undefined);
    const message = statusMessage ?? null;
    try {
      switch (status) {
        case "cancelled":
          this.store.cancel(taskId, V25, message, ctx);
          break;
        case "failed":
          this.store.fail(taskId, { code: INTERNAL_ERROR, message: statusMessage ?? "Task failed" }, message, ctx);
          break;
        case "completed":
          this.store.complete(taskId, {}, message, ctx);
          break;
        default:
          this.store.setStatus(taskId, status, message, ctx);
      }
    } catch (e) {
      throw this.#mapped(e, taskId, ctx, (terminal) =>
        `Cannot update task ${taskId} from terminal status '${terminal}' to '${status}'. Terminal states (completed, failed, cancelled) cannot transition to other states.`);
    }
  }

  /**
   * SDK `listTasks`: one page of the session's tasks in creation order (§D 36, 37, 38), with
   * `nextCursor` exactly when more follow. Cursors are opaque and bound to the session; one
   * this store did not issue to this session rejects with code -32602 (kind `invalid_cursor`).
   * @param [sessionId] The client's session (the SDK always passes the argument, `undefined` included); left out: the host, which reaches every task (see `unscopedWork`).
   */
  async listTasks(cursor?: string, sessionId?: string): Promise<{ tasks: Task[]; nextCursor?: string; }> {
    try {
      const page = this.store.list(cursor == null ? null : { cursor }, this.#ctx(sessionId, arguments.length < 2));
      const out: { tasks: Task[]; nextCursor?: string; } = { tasks: page.tasks.map((t) => t.v25) };
      if (page.nextCursor !== undefined) out.nextCursor = page.nextCursor;
      return out;
    } catch (e) {
      if (isStoreError(e) && e.kind === "invalid_cursor" && typeof cursor === "string") {
        const shown = cursor.length > CURSOR_ECHO_MAX ? `${cursor.slice(0, CURSOR_ECHO_MAX)}…` : cursor;
        throw this.#error(e.code, `Invalid cursor: ${shown}`, e.data, e.kind, e);
      }
      throw this.#mapped(e);
    }
  }

  /**
   * Purges expired tasks now (`TaskStore.sweep`). Expired tasks are never answered anyway (the
   * store purges what it meets); this frees their memory. No timer runs inside: call it from
   * your own (say once a minute).
   * @param [limit] At most this many tasks (default all).
   * @returns How many tasks were purged.
   */
  sweep(limit?: number): number {
    return this.store.sweep(this.#now(), limit ?? null);
  }

  /**
   * Every task of every session, as `getTask` answers each (expired ones are left out): the
   * debugging helper of the SDK's `InMemoryTaskStore`, outside the `TaskStore` interface. It
   * crosses sessions: never answer a client with it.
   */
  getAllTasks(): Task[] {
    const now = this.#now();
    const tasks: Task[] = [];
    for (const record of this.#records()) {
      try {
        tasks.push(this.store.get(record.id, { session: record.session, now }).v25);
      } catch (e) {
        if (!(isStoreError(e) && e.kind === "not_found")) throw e;
      }
    }
    return tasks;
  }

  /**
   * Removes every task of every session, as the SDK's `InMemoryTaskStore.cleanup()` does (it
   * also stops its TTL timers; no timer runs here). For tests and shutdown.
   */
  cleanup(): void {
    const now = this.#now();
    for (const record of this.#records()) {
      try {
        this.store.remove(record.id, { session: record.session, now });
      } catch (e) {
        if (!(isStoreError(e) && e.kind === "not_found")) throw e;
      }
    }
  }

  // ---- internals ---------------------------------------------------------------------------------

  /** The id and session of every stored task, in creation order (from the store's snapshot). */
  #records(): { id: string; session: string | null; }[] {
    const tasks = (this.store.snapshot() as { tasks?: unknown }).tasks;
    if (!Array.isArray(tasks)) return [];
    return tasks.map((t) => {
      const r = (t as { id: string, session?: string | null });
      return { id: r.id, session: r.session ?? null };
    });
  }

  /**
   * The store context of a call of session `sessionId` (`undefined`: a request without a
   * session, which sees only tasks created without one). `asHost`: the call is the work's (the
   * `sessionId` argument left out, or a write without a session): the host, which reaches every
   * task, unless `unscopedWork` is `false`.
   */
  #ctx(sessionId: string | undefined, asHost: boolean = false): TaskContext {
    if (asHost && this.#unscopedWork) return { host: true, now: this.#now() };
    return { session: sessionId ?? null, now: this.#now() };
  }

  /**
   * A store error as the error to throw (`createError`'s, or the store's own); anything else
   * (a `TypeError` for a malformed argument) as it is. With `taskId`, the messages keep the
   * phrases of the SDK's `InMemoryTaskStore` so that code matching them still works (code and
   * kind are the store's): not found is "Task with ID … not found", and a task already ended
   * gets `terminalMessage(status)` (the status read back from the store).
   */
  #mapped(e: unknown, taskId?: string, ctx?: TaskContext, terminalMessage?: (terminal: string) => string): unknown {
    if (!isStoreError(e)) return e;
    let message = e.message;
    if (taskId !== undefined && e.kind === "not_found") {
      message = `Task with ID ${taskId} not found (unknown, expired or purged)`;
    } else if (taskId !== undefined && ctx !== undefined && terminalMessage !== undefined && e.kind === "already_terminal") {
      let terminal = "";
      try {
        terminal = this.store.get(taskId, ctx).v25.status;
      } catch {
        terminal = "";
      }
      if (terminal !== "") message = terminalMessage(terminal);
    }
    if (this.#createError === undefined) {
      e.message = message; // the store's own error, reworded (its class, code and kind kept)
      return e;
    }
    return this.#error(e.code, message, e.data, e.kind, e);
  }

  /** A new error `{ code, message, data?, kind }` (through `createError` when given). */
  #error(code: number, message: string, data: unknown, kind: string, cause?: unknown): Error {
    let error: Error;
    if (this.#createError) {
      error = this.#createError(code, message, data);
    } else {
      error = new TaskStoreError(message, { code, kind: kind as StoreErrorKind, data });
    }
    Object.assign(error, cause === undefined ? { kind } : { kind, cause });
    return error;
  }
}

export { SdkTaskStore };
