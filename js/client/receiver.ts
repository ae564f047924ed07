// The 2025-11-25 receiver side of a TaskClient: the server, as requestor, may ask for a task
// instead of an answer on `sampling/createMessage` and `elicitation/create` (`params.task`), then
// poll it with `tasks/get|result|list|cancel` over the same connection. The task state lives in the
// package's task store core (the wasm `TaskServerCore`: the same state machine, TTLs, caps and
// wire answers as the server entry's TaskServer); this module only routes requests to it and runs
// the client's input handlers in the background.
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).

import { taskServerCore, type ReceiverCore } from "./wasm.js";
import { isObject } from "./http.js";
// The version whose receiver this is (V25): 2026-07-28 has no client-hosted tasks.
import { V25 } from "./protocol.js";

type JsonObject = Record<string, unknown>;

/** Every received task belongs to one session, so the core's live-task cap bounds them (§D 42). */
const PEER = "server";
const TASK_METHODS = new Set(["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]);
const DEFAULT_MAX_LIVE_TASKS = 100;
const DEFAULT_MAX_WAITING_RESULTS = 1000;

/**
 * `receiver` of a TaskClient (2025-11-25): host the server's task-augmented input requests.
 */
export type ReceiverOptions = {
  /**
   * Accept task-augmented `sampling/createMessage` and `elicitation/create` (those with a
   * handler), declared at `initialize` as `tasks.requests`, with `tasks.list` and `tasks.cancel`.
   * Default `false`: a request's `params.task` is ignored and it is answered directly.
   */
  tasks?: boolean;
  /**
   * The most received tasks still running at once (default 100). Over it, a task-augmented
   * request is refused with -32010 (`data: { limit, cap: "maxLiveTasks" }`).
   */
  maxLiveTasks?: number;
  /**
   * The most `tasks/result` requests blocked at once, waiting for their task to end (default
   * 1000). Over it, -32010 (`data: { limit, cap: "maxWaitingResults" }`).
   */
  maxWaitingResults?: number;
  /** The largest TTL granted to a received task, in ms (default 3 600 000 = 1 h). */
  maxTtlMs?: number;
  /** The poll interval suggested to the server, in ms (default 1000). */
  pollIntervalMs?: number;
};

/** The task an input handler runs for: its id, and a signal that aborts when it is cancelled. */
export type ReceivedTask = { taskId: string; signal: AbortSignal; };

/** An input handler: the request's `params`, and the task it runs for. */
type Handler = (params: JsonObject, task: ReceivedTask) => Promise<JsonObject> | JsonObject;

type Core = ReceiverCore;

type Waiting = { pending: JsonObject; resolve: (message: JsonObject) => void; };

/** The input kind of a task-augmentable request method, or null. */
function kindOf(method: unknown): "elicitation" | "sampling" | null {
  if (method === "elicitation/create") return "elicitation";
  if (method === "sampling/createMessage") return "sampling";
  return null;
}

class TaskReceiver {
  #core: Core;
  #handlers: { elicitation?: unknown; sampling?: unknown; };
  #running = new Map<string, AbortController>();
  #waiting = new Set<Waiting>();
  #closed = false;
  #max: number;
  #maxWaiting: number;

  constructor(handlers: { elicitation?: unknown; sampling?: unknown; }, options: ReceiverOptions) {
    const max = options.maxLiveTasks ?? DEFAULT_MAX_LIVE_TASKS;
    if (!(Number.isSafeInteger(max) && max > 0)) throw new TypeError(`TaskClient: receiver.maxLiveTasks must be a positive integer (got ${String(max)})`);
    const waiting = options.maxWaitingResults ?? DEFAULT_MAX_WAITING_RESULTS;
    if (!(Number.isSafeInteger(waiting) && waiting > 0)) throw new TypeError(`TaskClient: receiver.maxWaitingResults must be a positive integer (got ${String(waiting)})`);
    this.#maxWaiting = waiting;
    const Core = taskServerCore();
    this.#handlers = handlers;
    this.#max = max;
    this.#core = new Core({
      maxLiveTasksPerSession: max,
      maxTtlMs: options.maxTtlMs ?? 3_600_000,
      defaultTtlMs: options.maxTtlMs ?? 3_600_000,
      pollIntervalMs: options.pollIntervalMs ?? 1000,
    });
  }

  /** `tasks` of the client's 2025-11-25 `initialize` capabilities (§D 46): what it receives. */
  capabilities(): JsonObject {
    const requests: JsonObject = {};
    if (typeof this.#handlers.sampling === "function") requests.sampling = { createMessage: {} };
    if (typeof this.#handlers.elicitation === "function") requests.elicitation = { create: {} };
    return { list: {}, cancel: {}, requests };
  }

  /** Whether this receiver answers `message`: a task-augmented input request it hosts, or `tasks/*`. */
  accepts(message: JsonObject): boolean {
    if (TASK_METHODS.has(message.method as string)) return true;
    const kind = kindOf(message.method);
    return kind !== null && typeof this.#handlers[kind] === "function" && isObject(message.params) && "task" in message.params;
  }

  /**
   * Answers a request `accepts` took: the result, or throws `{ code, message, data? }` (the
   * JSON-RPC error the transport answers).
   */
  async handle(message: JsonObject): Promise<JsonObject> {
    if (this.#closed) throw { code: -32603, message: "the task client was closed" };
    const now = Date.now();
    // Expired tasks go (and their blocked `tasks/result` settle with -32602) before anything is read.
    if (this.#core.sweep(now, 1000) > 0) this.#expired(now);
    const kind = kindOf(message.method);
    if (kind !== null) return this.#create(kind, message, now);
    const request = { jsonrpc: "2.0", id: message.id ?? 0, method: message.method, params: isObject(message.params) ? message.params : {} };
    const outcome = this.#core.handle(request, { protocolVersion: V25, session: PEER, now }) as JsonObject;
    if (outcome.kind === "pending") {
      // §D 30: a `tasks/result` of a live task blocks until the task ends; so many at most.
      if (this.#waiting.size >= this.#maxWaiting) throw { code: -32010, message: `Too many blocked tasks/result requests (limit ${String(this.#maxWaiting)})`, data: { limit: this.#maxWaiting, cap: "maxWaitingResults" } };
      const answer = await new Promise<JsonObject>((resolve) => this.#waiting.add({ pending: outcome, resolve }));
      return unwrap(answer);
    }
    if (outcome.kind !== "response" || !isObject(outcome.message)) throw { code: -32603, message: `the task store could not answer ${String(message.method)}` };
    const event = outcome.event;
    if (isObject(event) && event.kind === "cancelled" && typeof event.taskId === "string") {
      // §D 147: cancelled before the answer; the handler is told, its late answer is dropped.
      this.#running.get(event.taskId)?.abort(new Error("the server cancelled the task"));
      this.#running.delete(event.taskId);
      this.#settle();
    }
    return unwrap(outcome.message);
  }

  /** Stops every running handler; blocked `tasks/result` answer an error. */
  close() {
    this.#closed = true;
    for (const c of this.#running.values()) c.abort(new Error("the task client was closed"));
    this.#running.clear();
    for (const w of this.#waiting) w.resolve({ error: { code: -32603, message: "the task client was closed" } });
    this.#waiting.clear();
    this.#core.free();
  }

  /** Stores a task (working), answers CreateTaskResult at once, runs the handler in the background. */
  #create(kind: "elicitation" | "sampling", message: JsonObject, now: number): JsonObject {
    const params = message.params as JsonObject;
    const task = params.task;
    const ttl = isObject(task) ? task.ttl : undefined;
    if (!isObject(task) || !(ttl === undefined || (typeof ttl === "number" && Number.isSafeInteger(ttl) && ttl >= 0))) {
      throw { code: -32602, message: "params.task must be an object whose ttl, if given, is a non-negative integer (ms)" };
    }
    let taskId: string;
    try {
      taskId = String(JSON.parse(this.#core.create(V25, ttl, undefined, undefined, PEER, false, now)).answer.taskId);
    } catch (e) {
      const error = rpcError(e);
      // The core counts the cap per session; the client's one peer is its only session.
      if (error.code === -32010) throw { ...error, message: `Too many live received tasks (limit ${String(this.#max)})`, data: { limit: this.#max, cap: "maxLiveTasks" } };
      throw error;
    }
    const controller = new AbortController();
    this.#running.set(taskId, controller);
    // The handler gets the request as a plain one would be (no `task`); its answer is the task's result.
    const { task: _task, ...plain } = params;
    const handler = this.#handlers[kind] as Handler;
    Promise.resolve()
      .then(() => handler(plain, { taskId, signal: controller.signal }))
      .then(
        (result) => {
          if (!isObject(result)) throw new TypeError(`the ${kind} handler answered ${JSON.stringify(result)}, not an object`);
          this.#finish(taskId, 0, result);
        },
        (e) => this.#finish(taskId, 1, isObject(e) && typeof e.code === "number" && typeof e.message === "string" ? { code: e.code, message: e.message, ...(e.data === undefined ? {} : { data: e.data }) } : { code: -32603, message: e instanceof Error ? e.message : String(e) }),
      )
      .catch((e) => this.#finish(taskId, 1, { code: -32603, message: e instanceof Error ? e.message : String(e) }));
    return { task: this.#wire(taskId, now) };
  }

  /** The task as `tasks/get` answers it (the core's 2025-11-25 wire form). */
  #wire(taskId: string, now: number): JsonObject {
    const outcome = this.#core.handle({ jsonrpc: "2.0", id: 0, method: "tasks/get", params: { taskId } }, { protocolVersion: V25, session: PEER, now }) as JsonObject;
    return unwrap(outcome.message as JsonObject);
  }

  /** Stores how a handler ended (kind 0: its result; 1: a JSON-RPC error), unless the task ended first. */
  #finish(taskId: string, kind: 0 | 1, payload: JsonObject) {
    if (this.#closed || !this.#running.has(taskId)) return; // cancelled or expired: the late answer is dropped
    this.#running.delete(taskId);
    try {
      // `bare`: the answer is not read, so it need not carry the payload back.
      this.#core.terminal(kind, taskId, payload, JSON.stringify(payload), true, undefined, PEER, false, Date.now());
    } catch (e) {
      // A result the store refuses (too large) fails the task, saying why, rather than leaving it working.
      const error = rpcError(e);
      try {
        this.#core.terminal(1, taskId, error, JSON.stringify(error), true, undefined, PEER, false, Date.now());
      } catch {
        // gone meanwhile
      }
    }
    this.#settle();
  }

  /** After a sweep: the handlers of tasks gone (expired) are aborted; their blocked results settle. */
  #expired(now: number) {
    for (const [taskId, controller] of [...this.#running]) {
      try {
        this.#core.get(taskId, PEER, false, now);
      } catch {
        this.#running.delete(taskId);
        controller.abort(new Error("the task expired"));
      }
    }
    this.#settle();
  }

  /** Answers every blocked `tasks/result` whose task has ended. */
  #settle() {
    for (const w of [...this.#waiting]) {
      const message = this.#core.settle(w.pending, Date.now()) as JsonObject | null;
      if (message === null || message === undefined) continue;
      this.#waiting.delete(w);
      w.resolve(message);
    }
  }
}

/** The result of a JSON-RPC response, or throws its error. */
function unwrap(message: JsonObject): JsonObject {
  if (isObject(message.error)) throw message.error;
  return isObject(message.result) ? message.result : {};
}

/** A store error as a JSON-RPC error object (`code`, `message`, `data`). */
function rpcError(e: unknown): { code: number; message: string; data?: unknown; } {
  if (isObject(e) && typeof e.code === "number") return { code: e.code, message: String(e.message), ...(e.data === undefined ? {} : { data: e.data }) };
  return { code: -32603, message: e instanceof Error ? e.message : String(e) };
}

/**
 * The 2025-11-25 `initialize` capabilities with the receiver's `tasks` merged in (when it has
 * one): `tasks.list`, `tasks.cancel` and `tasks.requests` of the kinds it hosts.
 */
function withReceiver(caps: JsonObject, receiver: TaskReceiver | null): JsonObject {
  if (receiver === null) return caps;
  const tasks = isObject(caps.tasks) ? caps.tasks : {};
  const ours = receiver.capabilities();
  const requests = { ...(isObject(tasks.requests) ? tasks.requests : {}), ...(ours.requests as JsonObject) };
  return { ...caps, tasks: { ...tasks, list: {}, cancel: {}, requests } };
}

export { TaskReceiver, withReceiver };
