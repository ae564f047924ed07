// TaskClient: calls a tool and returns its final result whatever the server does (answers at
// once, asks for input first, creates a task, fails, expires), polling politely through
// TaskScheduler (the Rust core decides *when*), answering input with the host's handlers, and
// surviving a reload (serialize / restore).
//
// Transport-agnostic: the host gives `request(method, params) → Promise<result>` (a JSON-RPC error
// as a rejected promise with `code`, `message`, `data`; a retry hint as `retryAfterMs` on the
// rejection) and feeds notifications to `notify()`.
// Written in the subset scripts/esm-to-cjs.mjs converts (the CommonJS twin is generated).
import { TaskScheduler, validateMessage } from "./mcp_tasks_wasm.js";

/**
 * @typedef {import("./mcp_tasks_wasm.js").ProtocolVersion} ProtocolVersion
 * @typedef {Record<string, unknown>} JsonObject
 * @typedef {{ code: number, message: string, data?: unknown }} JsonRpcError
 * @typedef {(method: string, params: JsonObject) => Promise<JsonObject>} RequestFn Sends one
 *   request and resolves with its `result`. A JSON-RPC error rejects with an object (an Error or
 *   not) carrying `code`, `message` and `data`; a transport failure rejects with anything else.
 *   A rejection carrying `retryAfterMs` (a non-negative number of ms, e.g. from an HTTP
 *   `Retry-After` or a 429) is a retry hint: a failed `tasks/get` is not retried sooner.
 */

/**
 * How the client waits: real time by default; tests pass a virtual clock.
 * @typedef {object} Clock
 * @property {() => number} now Unix ms.
 * @property {(ms: number, signal: AbortSignal) => Promise<void>} sleep Resolves after `ms`, or
 *   early when `signal` aborts (it must not reject).
 */

/**
 * Answers to input requests, by kind: each gets the request's `params` and returns its result
 * (`ElicitResult`, `CreateMessageResult`, `ListRootsResult`), exactly as for a standalone request
 * (§D 106). A kind without a handler is not declared to the server.
 * @typedef {object} InputHandlers
 * @property {(params: JsonObject) => Promise<JsonObject> | JsonObject} [elicitation]
 * @property {(params: JsonObject) => Promise<JsonObject> | JsonObject} [sampling]
 * @property {(params: JsonObject) => Promise<JsonObject> | JsonObject} [roots]
 */

/**
 * @typedef {object} TaskClientOptions
 * @property {RequestFn} request Sends one request, answers its `result`.
 * @property {ProtocolVersion} [protocolVersion] The version to speak (default 2026-07-28; a
 *   2025-11-25 answer switches the client to 2025-11-25).
 * @property {InputHandlers} [handlers]
 * @property {JsonObject} [clientCapabilities] More client capabilities to declare in the V26
 *   `_meta` (the extension and the handlers' kinds are always declared).
 * @property {import("./mcp_tasks_wasm.js").TaskSchedulerOptions} [scheduler] Options of the
 *   TaskScheduler that decides when to poll (floor, backoff, jitter, budget, stuck detection).
 * @property {string} [server] A name for the server (the scheduler's per-server budget).
 * @property {Clock} [clock]
 */

/**
 * @typedef {object} CallToolOptions
 * @property {AbortSignal} [signal] Stops waiting and sends `tasks/cancel` for a running task.
 * @property {{ ttl?: number }} [task] 2025-11-25: augment the call (`params.task`); the tool
 *   must support tasks (§D 48).
 * @property {number} [timeoutMs] Give up (TaskExpiredError, reason "deadline") this many ms
 *   after the task was created.
 */

/**
 * One thing that happened to a task, for UIs (`client.events()`).
 * @typedef {{ type: "created" | "status" | "input-required" | "completed" | "failed" | "cancelled" | "expired" | "stuck" | "poll-error", taskId: string, status?: string, task?: JsonObject, error?: unknown }} TaskEvent
 */

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const META_VERSION = "io.modelcontextprotocol/protocolVersion";
const META_CAPS = "io.modelcontextprotocol/clientCapabilities";
const INVALID_PARAMS = -32602;
/** Scheduler events taken per `nextDue` call. */
const DUE_BATCH = 256;
// Validator errors the client survives: a 2026-07-28 `ttlMs` / `pollIntervalMs` of 0 breaks
// §D 65 (the checker flags it), but the scheduler's 250 ms floor makes a 0 interval harmless.
const SURVIVED = new Set(["task-zero-ms"]);

/** A task ended in a way that gives no result. */
class TaskError extends Error {
  /** @param {string} message @param {string} taskId @param {string} status */
  constructor(message, taskId, status) {
    super(message);
    this.name = "TaskError";
    /** The task. */
    this.taskId = taskId;
    /** Its last known status. */
    this.status = status;
  }
}

/** The task failed with a JSON-RPC error (its `code`, `message`, `data`). */
class TaskFailedError extends TaskError {
  /** @param {string} taskId @param {JsonRpcError} error */
  constructor(taskId, error) {
    super(`task ${taskId} failed: ${error.message}`, taskId, "failed");
    this.name = "TaskFailedError";
    this.code = error.code;
    this.data = error.data;
    /** The JSON-RPC error, as the server gave it. */
    this.error = error;
  }
}

/** The task was cancelled (by us or by the server). */
class TaskCancelledError extends TaskError {
  /** @param {string} taskId */
  constructor(taskId) {
    super(`task ${taskId} was cancelled`, taskId, "cancelled");
    this.name = "TaskCancelledError";
  }
}

/** The task is gone (-32602 on `tasks/get`), outlived its TTL unchanged, or passed the deadline. */
class TaskExpiredError extends TaskError {
  /** @param {string} taskId @param {string} status @param {string} why */
  constructor(taskId, status, why) {
    super(`task ${taskId} expired: ${why}`, taskId, status);
    this.name = "TaskExpiredError";
  }
}

/** The server answered something the protocol does not allow (the validator's issues attached). */
class ProtocolError extends Error {
  /** @param {string} message @param {unknown[]} issues */
  constructor(message, issues) {
    super(message);
    this.name = "ProtocolError";
    this.issues = issues;
  }
}

/** @returns {Clock} */
function realClock() {
  return {
    now: () => Date.now(),
    sleep: (ms, signal) =>
      new Promise((resolve) => {
        if (signal.aborted) return resolve();
        const t = setTimeout(done, Math.max(0, ms));
        function done() {
          clearTimeout(t);
          signal.removeEventListener("abort", done);
          resolve();
        }
        signal.addEventListener("abort", done, { once: true });
      }),
  };
}

/** @param {unknown} v @returns {v is JsonObject} */
function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** @param {unknown} e @returns {e is JsonRpcError} */
function isRpcError(e) {
  return isObject(e) && Number.isInteger(e.code) && typeof e.message === "string";
}

class TaskClient {
  /** @param {TaskClientOptions} options */
  constructor(options) {
    if (!isObject(options) || typeof options.request !== "function") {
      throw new TypeError("new TaskClient({ request }): `request(method, params) → Promise<result>` is required");
    }
    /** @type {RequestFn} */
    this.request = options.request;
    /** @type {ProtocolVersion} */
    this.protocolVersion = options.protocolVersion ?? V26;
    /** @type {InputHandlers} */
    this.handlers = options.handlers ?? {};
    /** @type {JsonObject} */
    this.clientCapabilities = options.clientCapabilities ?? {};
    this.server = options.server ?? "server";
    /** @type {Clock} */
    this.clock = options.clock ?? realClock();
    this.scheduler = new TaskScheduler(options.scheduler);
    /** Tracked tasks by id. @type {Map<string, Handle>} */
    this.tasks = new Map();
    /** @type {Set<(e: TaskEvent | null) => void>} */
    this.listeners = new Set();
    /** Wakes the polling loop early (a new task, a notification). */
    this.wake = new AbortController();
    /** @type {Promise<void> | null} */
    this.loop = null;
    this.closed = false;
  }

  // ---- the public API ---------------------------------------------------------------------------

  /**
   * Calls tool `name` and resolves with its final `CallToolResult` (`isError: true` results
   * included), however the server answers. Throws TaskFailedError (a JSON-RPC error of a failed
   * task), TaskCancelledError, TaskExpiredError, ProtocolError, or the request's own rejection.
   * An input request the client cannot answer (its handler throws, or there is none for its
   * kind) cancels the task and rejects with that error (ProtocolError when no handler).
   * @param {string} name @param {JsonObject} [args] @param {CallToolOptions} [options]
   * @returns {Promise<JsonObject>}
   */
  async callTool(name, args = {}, options = {}) {
    /** @type {JsonObject} */
    let params = { name, arguments: args };
    if (this.protocolVersion === V25 && options.task) params.task = { ...options.task };
    // §D 113: MRTR rounds before a task exists: retry with inputResponses and the echoed state.
    for (let round = 0; ; round++) {
      const result = await this.#send("tools/call", params);
      const kind = this.#kindOfCallAnswer(result);
      if (kind === "complete") return result;
      if (kind === "task") {
        return this.#await(this.#startTask(result, options), options.signal);
      }
      // input_required (V26 MRTR): answer every request, then call again.
      if (round >= 16) throw new ProtocolError("tools/call asked for input more than 16 times", []);
      const requests = /** @type {JsonObject} */ (result.inputRequests);
      const inputResponses = await this.#answerAll(requests);
      params = { name, arguments: args, inputResponses };
      if (typeof result.requestState === "string") params.requestState = result.requestState;
    }
  }

  /**
   * Follows a task created elsewhere (e.g. listed, or restored) until it ends: as `callTool`.
   * @param {string} taskId @param {{ signal?: AbortSignal, timeoutMs?: number }} [options]
   * @returns {Promise<JsonObject>}
   */
  follow(taskId, options = {}) {
    const handle = this.tasks.get(taskId) ?? this.#track(taskId, null, options.timeoutMs);
    this.#kick();
    return this.#await(handle, options.signal);
  }

  /**
   * Feeds an incoming notification (V25 `notifications/tasks/status`, V26 `notifications/tasks`):
   * a tracked task is updated and rescheduled at once. Other messages are ignored.
   * @param {JsonObject} message
   */
  notify(message) {
    if (!isObject(message) || !isObject(message.params)) return;
    if (message.method !== "notifications/tasks/status" && message.method !== "notifications/tasks") return;
    const task = message.params;
    const handle = typeof task.taskId === "string" ? this.tasks.get(task.taskId) : undefined;
    if (handle) this.#observe(handle, task).catch((error) => this.#emit({ type: "poll-error", taskId: handle.taskId, error }));
  }

  /**
   * Every task event, as it happens (created, status, input-required, completed, failed,
   * cancelled, expired, stuck, poll-error). Ends when the client is closed.
   * @returns {AsyncGenerator<TaskEvent>}
   */
  async *events() {
    /** @type {(TaskEvent | null)[]} */
    const queue = [];
    /** @type {((e: TaskEvent | null) => void) | null} */
    let waiting = null;
    const listener = (/** @type {TaskEvent | null} */ e) => {
      if (waiting) {
        const w = waiting;
        waiting = null;
        w(e);
      } else queue.push(e);
    };
    this.listeners.add(listener);
    try {
      for (;;) {
        const next = queue.length > 0 ? queue.shift() : await new Promise((resolve) => (waiting = resolve));
        if (next === null || next === undefined) return;
        yield next;
      }
    } finally {
      this.listeners.delete(listener);
    }
  }

  /**
   * Everything needed to resume after a reload: the scheduler's state and every tracked task
   * (id, version, answered input keys). JSON-safe.
   * @returns {JsonObject}
   */
  serialize() {
    return {
      format: "mcp-tasks-wasm/client/1",
      protocolVersion: this.protocolVersion,
      server: this.server,
      scheduler: this.scheduler.serialize(),
      tasks: [...this.tasks.values()].map((h) => ({
        taskId: h.taskId,
        version: h.version,
        server: this.server,
        createdAt: h.createdAt,
        answered: [...h.answered],
      })),
    };
  }

  /**
   * A client that resumes the tasks of `state` (from `serialize()`): follow them with
   * `follow(taskId)`; `pending()` lists them.
   * @param {JsonObject | string} state @param {TaskClientOptions} options
   * @returns {TaskClient}
   */
  static restore(state, options) {
    const s = typeof state === "string" ? JSON.parse(state) : state;
    if (!isObject(s) || s.format !== "mcp-tasks-wasm/client/1" || !Array.isArray(s.tasks)) {
      throw new TypeError("TaskClient.restore: not a state from serialize()");
    }
    const client = new TaskClient({
      ...options,
      protocolVersion: /** @type {ProtocolVersion} */ (s.protocolVersion),
      server: typeof s.server === "string" ? s.server : options.server,
    });
    client.scheduler = TaskScheduler.restore(/** @type {JsonObject} */ (s.scheduler));
    for (const t of s.tasks) {
      if (!isObject(t) || typeof t.taskId !== "string") continue;
      const handle = new Handle(t.taskId, t.version === V25 ? V25 : V26);
      if (typeof t.createdAt === "string") handle.createdAt = t.createdAt;
      for (const k of Array.isArray(t.answered) ? t.answered : []) if (typeof k === "string") handle.answered.add(k);
      client.tasks.set(t.taskId, handle);
    }
    return client;
  }

  /** The ids of the tasks being followed. @returns {string[]} */
  pending() {
    return [...this.tasks.keys()];
  }

  /** Stops polling; unsettled calls reject with an AbortError. Tasks keep running on the server. */
  close() {
    this.closed = true;
    for (const h of this.tasks.values()) h.settle(abortError("the task client was closed"));
    this.tasks.clear();
    this.wake.abort();
    for (const l of this.listeners) l(null);
  }

  // ---- internals ---------------------------------------------------------------------------------

  /** The `_meta` of a V26 request (§D 100): the version, and the capabilities we can honour. */
  #meta() {
    /** @type {JsonObject} */
    const caps = { ...this.clientCapabilities, extensions: { ...(/** @type {JsonObject} */ (this.clientCapabilities.extensions) ?? {}), [EXT]: {} } };
    if (this.handlers.elicitation) caps.elicitation = caps.elicitation ?? {};
    if (this.handlers.sampling) caps.sampling = caps.sampling ?? {};
    if (this.handlers.roots) caps.roots = caps.roots ?? {};
    return { [META_VERSION]: V26, [META_CAPS]: caps };
  }

  /**
   * Sends a request in the client's version and checks the answer with the validator.
   * @param {string} method @param {JsonObject} params @returns {Promise<JsonObject>}
   */
  async #send(method, params) {
    const p = this.protocolVersion === V26 ? { ...params, _meta: { ...(/** @type {JsonObject} */ (params._meta) ?? {}), ...this.#meta() } } : params;
    const result = await this.request(method, p);
    if (!isObject(result)) throw new ProtocolError(`${method}: the answer is not an object`, []);
    // The answer is judged in the client's version, except a V26 client's `tools/call`, whose
    // answer tells the server's version (a V25 task answer to a V26 `tasks/get` is invalid).
    const pinned = this.protocolVersion === V25 || method !== "tools/call";
    const report = validateMessage({ jsonrpc: "2.0", id: 0, result }, pinned ? { inReplyTo: method, version: this.protocolVersion } : { inReplyTo: method });
    // A V25-shaped answer to a V26 request: the server speaks 2025-11-25 (detected once).
    if (this.protocolVersion === V26 && report.version === V25 && method === "tools/call") this.protocolVersion = V25;
    const errors = report.issues.filter((i) => i.severity === "error" && !SURVIVED.has(i.code));
    if (errors.length > 0) throw new ProtocolError(`${method}: invalid answer: ${errors[0].message}`, errors);
    return result;
  }

  /** @param {JsonObject} result @returns {"complete" | "task" | "input_required"} */
  #kindOfCallAnswer(result) {
    if (isObject(result.task)) return "task"; // V25 CreateTaskResult
    const rt = result.resultType ?? "complete"; // §D 115
    if (rt === "task" || rt === "input_required" || rt === "complete") return rt;
    throw new ProtocolError(`tools/call: unknown resultType ${JSON.stringify(rt)}`, []);
  }

  /** @param {JsonObject} created @param {CallToolOptions} options */
  #startTask(created, options) {
    const task = /** @type {JsonObject} */ (isObject(created.task) ? created.task : created);
    const handle = this.#track(/** @type {string} */ (task.taskId), task, options.timeoutMs);
    if (typeof task.createdAt === "string") handle.createdAt = task.createdAt;
    this.#emit({ type: "created", taskId: handle.taskId, status: /** @type {string} */ (task.status), task });
    return handle;
  }

  /** @param {string} taskId @param {JsonObject | null} task @param {number} [timeoutMs] */
  #track(taskId, task, timeoutMs) {
    const handle = new Handle(taskId, this.protocolVersion);
    this.tasks.set(taskId, handle);
    if (this.scheduler.info(taskId) === null) {
      /** @type {import("./mcp_tasks_wasm.js").TrackParams} */
      const params = { server: this.server, version: handle.version };
      if (task) params.task = task;
      if (timeoutMs !== undefined) params.deadlineMs = timeoutMs;
      this.scheduler.track(taskId, params, this.clock.now());
    }
    this.#kick();
    return handle;
  }

  /** @param {Handle} handle @param {AbortSignal} [signal] @returns {Promise<JsonObject>} */
  #await(handle, signal) {
    if (signal) {
      const onAbort = () => this.#cancel(handle);
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
      handle.promise.finally(() => signal.removeEventListener("abort", onAbort)).catch(() => {});
    }
    return handle.promise;
  }

  /** Sends `tasks/cancel` (never `notifications/cancelled`, §D 55, 110) and stops following. @param {Handle} handle */
  async #cancel(handle) {
    if (handle.done) return;
    try {
      await this.#send("tasks/cancel", { taskId: handle.taskId });
    } catch {
      // A terminal or unknown task (V25 -32602): nothing to cancel any more.
    }
    this.#finish(handle, new TaskCancelledError(handle.taskId), { type: "cancelled", taskId: handle.taskId });
  }

  /** Starts the polling loop if it is not running, or wakes it. */
  #kick() {
    this.wake.abort();
    if (!this.loop && !this.closed) {
      this.loop = this.#run().finally(() => (this.loop = null));
    }
  }

  /**
   * The polling loop: one timer (at the scheduler's `nextWakeAt`) for every task. Polls are not
   * awaited here: a slow or hung `tasks/get`, or a handler waiting for its user, holds back no
   * other poll, and the scheduler's poll timeout can fire; each answer wakes the loop.
   */
  async #run() {
    while (!this.closed && this.tasks.size > 0) {
      this.wake = new AbortController();
      // In batches: one answer for every due task at once would grow wasm memory for good.
      for (let due = this.scheduler.nextDue(this.clock.now(), DUE_BATCH); due.length > 0; ) {
        for (const ev of due) {
          this.#event(ev, null)
            .catch((error) => this.#emit({ type: "poll-error", taskId: ev.key, error }))
            .finally(() => this.#kick());
        }
        due = due.length < DUE_BATCH ? [] : this.scheduler.nextDue(this.clock.now(), DUE_BATCH);
      }
      if (this.tasks.size === 0 || this.closed) break;
      const at = this.scheduler.nextWakeAt();
      if (at === null) break;
      const wait = at - this.clock.now();
      if (wait > 0 && !this.wake.signal.aborted) await this.clock.sleep(wait, this.wake.signal);
      else await Promise.resolve(); // let the polls just sent run before handing out more
    }
  }

  /**
   * Acts on one scheduler event; `task` is the snapshot that caused it, if any.
   * @param {import("./mcp_tasks_wasm.js").SchedulerEvent} ev @param {JsonObject | null} task
   */
  async #event(ev, task) {
    const handle = this.tasks.get(ev.key);
    if (!handle) {
      this.scheduler.forget(ev.key);
      return;
    }
    const taskId = handle.taskId;
    const snapshot = task ? { task } : {};
    switch (ev.kind) {
      case "poll":
        return this.#poll(handle);
      case "status":
        handle.status = ev.status;
        this.#emit({ type: "status", taskId, status: ev.status, ...snapshot });
        return;
      case "input_required":
        handle.status = ev.status;
        this.#emit({ type: "status", taskId, status: ev.status, ...snapshot });
        this.#emit({ type: "input-required", taskId, status: ev.status, ...snapshot });
        return;
      case "terminal":
        handle.status = ev.status;
        if (task) await this.#terminal(handle, task);
        return;
      case "stuck":
        this.#emit({ type: "stuck", taskId, status: handle.status });
        return;
      case "poll_error":
        // Failures of answered polls were reported by #poll; this one never answered.
        if (ev.timedOut) this.#emit({ type: "poll-error", taskId, error: new Error(`tasks/get of ${taskId} timed out`) });
        return;
      case "expired": {
        const why = ev.reason === "ttl" ? "its TTL passed with no change" : "the server no longer knows it";
        this.#finish(handle, new TaskExpiredError(taskId, handle.status, why), { type: "expired", taskId, status: handle.status });
        return;
      }
      case "deadline_exceeded":
        this.#finish(handle, new TaskExpiredError(taskId, handle.status, "the deadline passed"), { type: "expired", taskId, status: handle.status });
        return;
      default:
    }
  }

  /** `tasks/get`, reported to the scheduler. @param {Handle} handle */
  async #poll(handle) {
    let task;
    try {
      task = await this.#send("tasks/get", { taskId: handle.taskId });
    } catch (e) {
      if (handle.done) return;
      /** @type {import("./mcp_tasks_wasm.js").PollErrorInfo} */
      const err = isRpcError(e) ? { code: e.code, message: e.message } : { message: e instanceof Error ? e.message : String(e) };
      const hint = isObject(e) || e instanceof Error ? /** @type {JsonObject} */ (e).retryAfterMs : undefined;
      if (typeof hint === "number" && Number.isFinite(hint) && hint >= 0) err.retryAfterMs = Math.ceil(hint);
      if (!isRpcError(e) || e.code !== INVALID_PARAMS) this.#emit({ type: "poll-error", taskId: handle.taskId, error: e });
      // -32602 for a known id: expired or purged (§D 56, 114); the scheduler says so.
      for (const ev of this.scheduler.observeError(handle.taskId, err, this.clock.now())) await this.#event(ev, null);
      return;
    }
    await this.#observe(handle, task);
  }

  /** A fresh snapshot of a tracked task (a poll or a notification). @param {Handle} handle @param {JsonObject} task */
  async #observe(handle, task) {
    if (handle.done) return;
    // A task id is only that task: one created at another time is not the task we follow (a
    // server that reused the id after a reload, or a snapshot of something else).
    if (typeof task.createdAt === "string") {
      if (handle.createdAt === null) handle.createdAt = task.createdAt;
      else if (Date.parse(task.createdAt) !== Date.parse(handle.createdAt)) {
        this.#finish(handle, new TaskExpiredError(handle.taskId, handle.status, "its id now names another task (a different createdAt)"), { type: "expired", taskId: handle.taskId, status: handle.status });
        return;
      }
    }
    for (const ev of this.scheduler.observe(handle.taskId, task, this.clock.now())) await this.#event(ev, task);
    this.#kick(); // the next poll is rescheduled: the loop's timer follows (the handlers may take long)
    if (handle.done || task.status !== "input_required") return;
    // Input is needed while the status says so, new keys included (§D 50, 105, 107).
    if (handle.version === V25) this.#openResult(handle);
    else await this.#answerTask(handle, /** @type {JsonObject} */ (task.inputRequests ?? {}));
  }

  /** The first terminal snapshot is final. @param {Handle} handle @param {JsonObject} task */
  async #terminal(handle, task) {
    const status = /** @type {string} */ (task.status);
    if (status === "cancelled") {
      this.#finish(handle, new TaskCancelledError(handle.taskId), { type: "cancelled", taskId: handle.taskId, status, task });
      return;
    }
    if (handle.version === V26) {
      if (status === "completed") this.#finish(handle, /** @type {JsonObject} */ (task.result), { type: "completed", taskId: handle.taskId, status, task });
      else this.#finish(handle, new TaskFailedError(handle.taskId, /** @type {JsonRpcError} */ (task.error)), { type: "failed", taskId: handle.taskId, status, task });
      return;
    }
    // V25: the payload comes from tasks/result (what the original request returned, §D 30).
    this.#openResult(handle);
    await handle.resultOpen;
  }

  /** V25: `tasks/result` (blocks until the task ends, and lets the server deliver its input requests). @param {Handle} handle */
  #openResult(handle) {
    if (handle.resultOpen) return;
    handle.resultOpen = (async () => {
      try {
        const result = await this.#send("tasks/result", { taskId: handle.taskId });
        const status = result.isError === true ? "failed" : "completed";
        this.#finish(handle, result, { type: status, taskId: handle.taskId, status });
      } catch (e) {
        if (isRpcError(e)) {
          this.#finish(handle, new TaskFailedError(handle.taskId, e), { type: "failed", taskId: handle.taskId, status: "failed", error: e });
        } else {
          handle.resultOpen = null; // a transport failure: polling goes on, reopen later
          this.#emit({ type: "poll-error", taskId: handle.taskId, error: e });
        }
      }
    })();
  }

  /**
   * V26 `input_required`: answers the keys not answered yet (§D 105–107) with `tasks/update`;
   * keys count as answered only once the update is acknowledged.
   * @param {Handle} handle @param {JsonObject} requests
   */
  async #answerTask(handle, requests) {
    const requested = Object.keys(requests);
    // An answer sent but not acknowledged is resent (never asked again) while its key is still
    // requested; a key no longer requested reached the server (or was superseded): done with it.
    for (const k of Object.keys(handle.unacked)) {
      if (!handle.inFlight.has(k) && !requested.includes(k)) {
        handle.answered.add(k);
        delete handle.unacked[k];
      }
    }
    const open = requested.filter((k) => !handle.answered.has(k) && !handle.inFlight.has(k) && !(k in handle.unacked));
    const resend = Object.keys(handle.unacked).filter((k) => !handle.inFlight.has(k));
    if (open.length === 0 && resend.length === 0) return this.#kick();
    const keys = [...resend, ...open];
    for (const k of keys) handle.inFlight.add(k);
    /** @type {JsonObject} */
    const todo = {};
    for (const k of open) todo[k] = requests[k];
    try {
      Object.assign(handle.unacked, await this.#answerAll(todo));
    } catch (e) {
      // No answer (a handler threw, or none handles the kind): the task cannot go on. Cancel it
      // on the server rather than leave it waiting, and fail the call with the reason.
      for (const k of keys) handle.inFlight.delete(k);
      await this.#abandon(handle, e);
      return;
    }
    try {
      /** @type {JsonObject} */
      const inputResponses = {};
      for (const k of keys) inputResponses[k] = handle.unacked[k];
      await this.#send("tasks/update", { taskId: handle.taskId, inputResponses });
      for (const k of keys) {
        handle.answered.add(k);
        delete handle.unacked[k];
      }
    } catch (e) {
      this.#emit({ type: "poll-error", taskId: handle.taskId, error: e });
    } finally {
      for (const k of keys) handle.inFlight.delete(k);
      this.#kick();
    }
  }

  /**
   * Gives up on a task the client cannot serve: one `tasks/cancel` (best effort), then the call
   * rejects with `reason`.
   * @param {Handle} handle @param {unknown} reason
   */
  async #abandon(handle, reason) {
    if (handle.done) return;
    const error = reason instanceof Error ? reason : new Error(String(reason));
    try {
      await this.#send("tasks/cancel", { taskId: handle.taskId });
    } catch {
      // already terminal or gone: nothing to cancel
    }
    this.#finish(handle, error, { type: "cancelled", taskId: handle.taskId, status: handle.status, error });
  }

  /** Runs the handler of every input request. @param {JsonObject} requests @returns {Promise<JsonObject>} */
  async #answerAll(requests) {
    /** @type {JsonObject} */
    const out = {};
    for (const [key, req] of Object.entries(requests)) {
      if (!isObject(req) || typeof req.method !== "string") throw new ProtocolError(`input request ${key} is not { method, params }`, []);
      const kind = req.method === "elicitation/create" ? "elicitation" : req.method === "sampling/createMessage" ? "sampling" : req.method === "roots/list" ? "roots" : null;
      const handler = kind ? this.handlers[kind] : undefined;
      if (!handler) throw new ProtocolError(`no handler for input request ${key} (${req.method})`, []);
      out[key] = await handler(/** @type {JsonObject} */ (req.params ?? {}));
    }
    return out;
  }

  /** @param {Handle} handle @param {unknown} outcome A result, or an Error to reject with. @param {TaskEvent} event */
  #finish(handle, outcome, event) {
    if (handle.done) return;
    this.scheduler.forget(handle.taskId);
    this.tasks.delete(handle.taskId);
    handle.settle(outcome);
    this.#emit(event);
  }

  /** @param {TaskEvent} event */
  #emit(event) {
    for (const l of this.listeners) l(event);
  }
}

/** What the client knows of one task it follows. */
class Handle {
  /** @param {string} taskId @param {ProtocolVersion} version */
  constructor(taskId, version) {
    this.taskId = taskId;
    this.version = version;
    this.status = "working";
    this.done = false;
    /** The task's `createdAt` as first seen: a snapshot with another one is another task. @type {string | null} */
    this.createdAt = null;
    /** Input keys answered and acknowledged. @type {Set<string>} */
    this.answered = new Set();
    /** Keys being answered now. @type {Set<string>} */
    this.inFlight = new Set();
    /** Answers sent but not acknowledged yet: resent with the next update. @type {JsonObject} */
    this.unacked = {};
    /** V25: the open tasks/result. @type {Promise<void> | null} */
    this.resultOpen = null;
    /** @type {(v: JsonObject) => void} */
    this.resolve = () => {};
    /** @type {(e: unknown) => void} */
    this.reject = () => {};
    /** @type {Promise<JsonObject>} */
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** @param {unknown} outcome */
  settle(outcome) {
    if (this.done) return;
    this.done = true;
    if (outcome instanceof Error) this.reject(outcome);
    else this.resolve(/** @type {JsonObject} */ (outcome));
  }
}

/**
 * A TaskClient `request` that sends through an official SDK `Client` (anything with
 * `request({ method, params }, schema)`): pass the SDK's `ResultSchema`, which keeps every member
 * of the answer. JSON-RPC errors arrive as the SDK's `McpError` (`code`, `message`, `data`).
 * @param {{ request: (req: { method: string, params: JsonObject }, schema: unknown) => Promise<unknown> }} sdkClient
 * @param {unknown} resultSchema
 * @returns {RequestFn}
 */
function requestVia(sdkClient, resultSchema) {
  return async (method, params) => /** @type {JsonObject} */ (await sdkClient.request({ method, params }, resultSchema));
}

/** @param {string} message */
function abortError(message) {
  const e = new Error(message);
  e.name = "AbortError";
  return e;
}

export { TaskClient, TaskError, TaskFailedError, TaskCancelledError, TaskExpiredError, ProtocolError, requestVia };
