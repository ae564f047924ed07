// TaskClient: calls a tool and returns its final result whatever the server does (answers at
// once, asks for input first, creates a task, fails, expires), polling politely through
// TaskScheduler (the Rust core decides *when*), answering input with the host's handlers, and
// surviving a reload (serialize / restore).
//
// Transport-agnostic: the host gives `request(method, params) → Promise<result>` (a JSON-RPC error
// as a rejected promise with `code`, `message`, `data`; a retry hint as `retryAfterMs` on the
// rejection), feeds notifications to `notify()` and the server's own requests to
// `handleRequest()`. Or the client opens its own Streamable HTTP connection:
// `TaskClient.connect(url)` (http.ts), which learns the protocol version from the server.
//
// The version: an explicit `protocolVersion` wins; else the one the session negotiated
// (`TaskClient.connect`, `requestVia(sdkClient)`); else 2026-07-28, switching to 2025-11-25 when
// a `tools/call` is answered the 2025 way.
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).
import { wasmApi } from "./wasm.js";
import { TaskReceiver, withReceiver, type ReceiverOptions, type ReceivedTask } from "./receiver.js";
import { HttpConnection, TransportError, isErrorObject, isObject, sleepClamped } from "./http.js";
import { TaskPush } from "./push.js";
import { isSdkV2, sdkRequest } from "./sdk-client.js";
import type { SdkClientLike } from "./sdk-client.js";
import { INTERNALS } from "./internals.js";
import type { CallToolResult } from "./types.js";
import {
  V25, V26, INITIALIZE_VERSIONS, TASKS_EXTENSION as EXT, META_PROTOCOL_VERSION as META_VERSION, META_CLIENT_CAPABILITIES as META_CAPS,
  RELATED_TASK as RELATED, INVALID_PARAMS, METHOD_NOT_FOUND, INTERNAL_ERROR,
} from "./protocol.js";

export type ProtocolVersion = import("./mcp_tasks_wasm.js").ProtocolVersion;

export type JsonObject = Record<string, unknown>;

export type JsonRpcError = { code: number; message: string; data?: unknown; };

/**
 * Sends one request and resolves with its `result`. A JSON-RPC error rejects with an object (an
 * Error or not) carrying `code`, `message` and `data`; a transport failure rejects with anything
 * else. A rejection carrying `retryAfterMs` (a non-negative number of ms, e.g. from an HTTP
 * `Retry-After` or a 429) is a retry hint: a failed `tasks/get` is not retried sooner. It may carry
 * a `session` (requestVia and TaskClient.connect give one). `options.signal` aborts when the call
 * the request serves is aborted or passes its `timeoutMs` (a transport should abort the exchange).
 */
export type RequestFn = ((method: string, params: JsonObject, options?: { signal?: AbortSignal; }) => Promise<JsonObject>) & { session?: RequestSession; };

/**
 * What a `request` knows of its session, read by the TaskClient it is given to.
 */
export type RequestSession = {
  /** The version negotiated (undefined while unknown, e.g. not connected yet). */
  protocolVersion: () => string | null | undefined;
  /** The server's capabilities (2025-11-25: `initialize`'s), undefined while unknown. */
  serverCapabilities: () => unknown;
  /**
   * Called by the TaskClient's constructor: the transport hands it the server's notifications
   * (`notify`) and requests (`handleRequest`, answered by `handlers`, the client's input handlers).
   */
  attach?: (client: TaskClient, handlers: InputHandlers) => void;
  /** Called by `close()`: the transport stops feeding the client. */
  detach?: (client: TaskClient) => void;
};

/**
 * How the client waits: real time by default; tests pass a virtual clock.
 */
export type Clock = {
  /** Unix ms. */
  now: () => number;
  /** Resolves after `ms`, or early when `signal` aborts (it must not reject). */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
};

/**
 * Answers to input requests, by kind: each gets the request's `params` and returns its result
 * (`ElicitResult`, `CreateMessageResult`, `ListRootsResult`), exactly as for a standalone request
 * (§D 106). A kind without a handler is not declared to the server. Run for a task the client
 * hosts (`receiver`), a handler also gets `{ taskId, signal }` (`signal` aborts on `tasks/cancel`).
 */
export type InputHandlers = {
  /** Answers `elicitation/create`: its `params` in, its result out. */
  elicitation?: (params: JsonObject, task?: ReceivedTask) => Promise<JsonObject> | JsonObject;
  /** Answers `sampling/createMessage`: its `params` in, its result out. */
  sampling?: (params: JsonObject, task?: ReceivedTask) => Promise<JsonObject> | JsonObject;
  /** Answers `roots/list`: its `params` in, its result out. */
  roots?: (params: JsonObject) => Promise<JsonObject> | JsonObject;
};

export type TaskClientOptions = {
  /** Sends one request, answers its `result`. */
  request: RequestFn;
  /**
   * The version to speak. An explicit one always wins; without it, the version of the request's
   * session (requestVia, connect), else 2026-07-28 (a 2025-11-25 answer to `tools/call` switches
   * the client to 2025-11-25).
   */
  protocolVersion?: ProtocolVersion;
  /**
   * 2025-11-25: the server's `initialize` capabilities, when the request's session does not tell
   * them. Once they are known, the client augments `tools/call` by the rules of §D 47–48 (reading
   * `tools/list`); while they are unknown it augments exactly when the caller passes `{ task }`.
   */
  serverCapabilities?: JsonObject;
  /**
   * The client's answers to the server's input requests, by kind: 2026-07-28 `inputRequests` and
   * 2025-11-25 requests (on the `tasks/result` stream) go to them. A request of a kind without a
   * handler cancels its task and rejects the call (ProtocolError).
   */
  handlers?: InputHandlers;
  /** 2025-11-25: host the server's task-augmented elicitation and sampling (receiver.ts). */
  receiver?: ReceiverOptions;
  /**
   * More client capabilities to declare in the V26 `_meta` (the extension and the handlers' kinds
   * are always declared).
   */
  clientCapabilities?: JsonObject;
  /**
   * Options of the TaskScheduler that decides when to poll (floor, backoff, jitter, budget, stuck
   * detection).
   */
  scheduler?: import("./mcp_tasks_wasm.js").TaskSchedulerOptions;
  /** A name for the server (the scheduler's per-server budget). */
  server?: string;
  /** How the client waits (default: real time; tests pass a virtual clock). */
  clock?: Clock;
  /**
   * A task whose every request fails in transport (TransportError `network` or `timeout`: the
   * server is down, or restarting) for this long ends its call with a TransportError
   * `unreachable` instead of polling until its TTL (default 30 000 ms).
   */
  unreachableMs?: number;
};

/**
 * `signal`: aborts the call: a running task gets `tasks/cancel`, and the call rejects with a
 * TaskCancelledError whose `cause` is `signal.reason` (`taskId` empty when the signal aborted
 * before the server created a task: nothing runs there). An answer that arrives after the abort
 * is dropped.
 * `task`: 2025-11-25: ask for a task (`params.task`, with the requested `ttl`). When the server's
 * capabilities are known (connect, requestVia, or the `serverCapabilities` option) the tool's
 * `execution.taskSupport` decides (§D 47–48): a `required` tool is always augmented (with this
 * ttl if given), an `optional` one only when this is given (by default it runs synchronously), a
 * `forbidden` or unlisted one never (this is then ignored, and the call runs synchronously), nor
 * any tool of a server without `tasks.requests.tools.call`. While the capabilities are unknown,
 * given means augmented. 2026-07-28: ignored (the server decides).
 * `timeoutMs`: give up (TaskExpiredError, "the deadline passed") this many ms after the call
 * began: every exchange of the call is aborted then (over `TaskClient.connect`: a `tools/call` or
 * `tasks/result` stream that only sends keepalives too); before a task exists the error's
 * `taskId` is empty.
 */
export type CallToolOptions = {
  /**
   * Aborts the call: a running task gets `tasks/cancel`, and the call rejects with a
   * TaskCancelledError whose `cause` is `signal.reason` (`taskId` empty when the signal aborted
   * before the server created a task: nothing runs there). An answer that arrives after the abort
   * is dropped.
   */
  signal?: AbortSignal;
  /**
   * 2025-11-25: ask for a task (`params.task`, with the requested `ttl`). When the server's
   * capabilities are known (connect, requestVia, or the `serverCapabilities` option) the tool's
   * `execution.taskSupport` decides (§D 47–48): a `required` tool is always augmented (with this
   * ttl if given), an `optional` one only when this is given (by default it runs synchronously), a
   * `forbidden` or unlisted one never (this is then ignored, and the call runs synchronously), nor
   * any tool of a server without `tasks.requests.tools.call`. While the capabilities are unknown,
   * given means augmented. 2026-07-28: ignored (the server decides).
   */
  task?: { ttl?: number; };
  /**
   * Give up (TaskExpiredError, "the deadline passed") this many ms after the call began: every
   * exchange of the call is aborted then (over `TaskClient.connect`, a `tools/call` or
   * `tasks/result` stream that only sends keepalives too); before a task exists the error's
   * `taskId` is empty.
   */
  timeoutMs?: number;
  /**
   * Called with the call's progress (ProgressEvent): every change of the task's `statusMessage`
   * the client sees (a poll, a push, `status()`), and every `notifications/progress` for the call.
   * Given, the `tools/call` carries a `_meta.progressToken` (the server may send progress then).
   */
  onProgress?: (event: ProgressEvent) => void;
  /**
   * Ask the server for `notifications/progress` (a `_meta.progressToken` on `tools/call`) without
   * an `onProgress`: for `ToolTask.onProgress` / `ToolTask.progress()` later. Default: only
   * with `onProgress`.
   */
  progress?: boolean;
};

/** `TaskClient.resume` options. */
export type ResumeOptions = {
  /** Aborts the wait: the task gets `tasks/cancel` (as CallToolOptions.signal). */
  signal?: AbortSignal;
  /** Give up (TaskExpiredError) this many ms from now. */
  timeoutMs?: number;
  /** Called with every `statusMessage` change seen (progress notifications went to the caller that started the task). */
  onProgress?: (event: ProgressEvent) => void;
};

/**
 * A call's progress: a change of its task's `statusMessage` (`statusMessage`, with the status it
 * came with), or one `notifications/progress` whose `progressToken` is the call's (`progress`,
 * with the task's last known status; `taskId` empty and status `working` while no task exists: a
 * synchronous call, or before the server answered).
 */
export type ProgressEvent =
  | { type: "statusMessage"; taskId: string; status: string; message: string }
  | { type: "progress"; taskId: string; status: string; progress: number; total?: number; message?: string };

/**
 * `TaskClient.connect` options: the TaskClient's (but `request`) and the connection's.
 */
export type ConnectOptions = {
  /** Pin the version: no fallback. */
  protocolVersion?: ProtocolVersion;
  /** Sent with every HTTP request (e.g. Authorization). */
  headers?: Record<string, string>;
  /** The fetch to use (default: the global one). */
  fetch?: import("./http.js").FetchFn;
  /** 2025-11-25 `initialize`'s. */
  clientInfo?: { name: string; version: string; };
  /**
   * The client's answers to the server's input requests, by kind: 2026-07-28 `inputRequests` and
   * 2025-11-25 requests (on the `tasks/result` stream) go to them. A request of a kind without a
   * handler cancels its task and rejects the call (ProtocolError).
   */
  handlers?: InputHandlers;
  /** 2025-11-25: host the server's task-augmented elicitation and sampling (receiver.ts). */
  receiver?: ReceiverOptions;
  /** More client capabilities to declare. */
  clientCapabilities?: JsonObject;
  /**
   * Options of the TaskScheduler that decides when to poll (floor, backoff, jitter, budget, stuck
   * detection).
   */
  scheduler?: import("./mcp_tasks_wasm.js").TaskSchedulerOptions;
  /** A name for the server (the scheduler's per-server budget). */
  server?: string;
  /** How the client waits (default: real time; tests pass a virtual clock). */
  clock?: Clock;
  /**
   * Subscribe to status changes when the server offers it (js/client/push.ts: 2026-07-28
   * `subscriptions/listen`, 2025-11-25 the GET stream) and poll only every `backstopMs` (default 30
   * 000) while subscribed. Default `true`; `false`: poll only.
   */
  push?: boolean | { backstopMs?: number; };
  /**
   * The largest answer read: a JSON body or one SSE event (default 16 MiB). Over it the exchange
   * fails with a TransportError `too_large` and the body is cancelled.
   */
  maxMessageBytes?: number;
  /**
   * An exchange with no JSON-RPC message for this long (keepalive comments do not count; paused
   * while a handler answers a request the server sent on it) fails with a TransportError
   * `timeout` (default 300 000 ms).
   */
  idleTimeoutMs?: number;
  /** Resumptions (GET with Last-Event-ID) of one answer's dropped stream (default 5). */
  maxResumes?: number;
  /** See TaskClientOptions.unreachableMs (default 30 000 ms). */
  unreachableMs?: number;
};

/**
 * One thing that happened to a task, for UIs (`client.events()`), told apart by `type` as the
 * TypeScript SDK's `callToolStream` messages are (`taskCreated`, `taskStatus`, `result`, `error`)
 * and in the scheduler's words (`SchedulerEvent`: `taskStatus`, `inputRequired`, `stuck`,
 * `pollError`). Each task ends with exactly one `result` (the call resolves with `result`) or
 * `error` (it rejects with `error`: TaskFailedError, TaskCancelledError (`delivered: false`: the
 * cancel never reached the server, the task may still be running), TaskExpiredError,
 * ProtocolError, or a handler's error). `task` is the snapshot that caused the event, if any.
 * Progress comes too (ProgressEvent): `statusMessage` on every change of a task's status message,
 * `progress` for every `notifications/progress` of a call that asked for it.
 */
export type TaskEvent =
  | { type: "taskCreated"; taskId: string; status: string; task: JsonObject }
  | { type: "taskStatus" | "inputRequired"; taskId: string; status: string; task?: JsonObject }
  | { type: "result"; taskId: string; status: string; task?: JsonObject; result: JsonObject }
  | { type: "error"; taskId: string; status: string; task?: JsonObject; error: Error }
  | { type: "stuck"; taskId: string; status: string }
  | { type: "pollError"; taskId: string; error: unknown }
  | ProgressEvent;

const TERMINAL = ["completed", "failed", "cancelled"];
/** Pages of `tools/list` read at most (a server whose cursor never ends). */
const MAX_TOOL_PAGES = 100;
/**
 * A `tasks/cancel` that fails in transport (not answered) is sent again after each of these
 * delays, then reported as not delivered (3 tries over about 2.5 s).
 */
const CANCEL_RETRY_MS = [500, 2000];
/** A task failing in transport for this long ends its call (`unreachableMs`). */
const DEFAULT_UNREACHABLE_MS = 30_000;

/**
 * 2025-11-25: a `tasks/result` of a task seen terminal that fails in transport is sent again after
 * each of these delays (its result comes from nowhere else), then the call rejects.
 */
const RESULT_RETRY_MS = [500, 2000];
/** Scheduler events taken per `nextDue` call. */
const DUE_BATCH = 256;
// Validator errors the client survives (the checker still flags them; the client needs neither):
// - a 2026-07-28 `ttlMs` / `pollIntervalMs` of 0 breaks §D 65, but the scheduler's 250 ms
//   floor makes a 0 interval harmless;
// - a task without its required `ttl` / `ttlMs` (§D 2, 25, 63): Python mcp 1.30 leaves `ttl` out
//   when the request asked for none (`params.task: {}`); the TTL is then unknown, so the
//   client's TTL backstop does not fire: polling and the deadline still end the wait;
// - a 2025-11-25 `CreateTaskResult` whose task is not `working` breaks §D 7 (SDK 1.32.2's
//   InMemoryTaskStore hands out the object it stores, so work that ends or asks in the same tick
//   shows in it): the client takes it as the task's first snapshot (a terminal one fetches
//   `tasks/result`, an `input_required` one opens it).
const SURVIVED = new Set(["task-zero-ms", "task-ttl-missing", "create-task-status"]);

/** A task ended in a way that gives no result. */
class TaskError extends Error {
  name: string;
  taskId: string;
  status: string;
  constructor(message: string, taskId: string, status: string) {
    super(message);
    this.name = "TaskError";
    /** The task. */
    this.taskId = taskId;
    /** Its last known status. */
    this.status = status;
  }
}

/**
 * The task failed: with a JSON-RPC error (its `code`, `message`, `data`, and `error`), or, under
 * 2025-11-25, seen `failed` with whatever `tasks/result` gave (`result`: typically a tool result
 * with `isError: true`; Python mcp 1.30 gives a result holding only `_meta`, §D 30).
 */
class TaskFailedError extends TaskError {
  name: string;
  code: number | undefined;
  data: unknown;
  error: JsonRpcError | undefined;
  statusMessage: string | undefined;
  result: JsonObject | undefined;
  constructor(taskId: string, error: JsonRpcError | null, details: { statusMessage?: string; result?: JsonObject; } = {}) {
    const said = details.statusMessage ?? textOf(details.result);
    const why = error ? (said && said !== error.message ? `${said} (error ${error.code}: ${error.message})` : error.message) : said ?? "the task ended failed";
    super(`task ${taskId} failed: ${why}`, taskId, "failed");
    this.name = "TaskFailedError";
    this.code = error?.code;
    this.data = error?.data;
    /** The JSON-RPC error, as the server gave it (none when the task gave a tool result). */
    this.error = error ?? undefined;
    /** The task's last `statusMessage`, if any. */
    this.statusMessage = details.statusMessage;
    /** 2025-11-25: what `tasks/result` gave for the failed task (a `CallToolResult`, or not). */
    this.result = details.result;
  }
}

/**
 * The task was cancelled (by the caller's `signal`, or by the server), or we stopped following it
 * after a cancel that never reached the server: then `delivered` is `false` (the task may still
 * be running there; `deliveryError` is the last transport failure). Aborted by a signal, `cause`
 * is `signal.reason`; `taskId` is empty when the call was aborted before any task was created.
 */
class TaskCancelledError extends TaskError {
  name: string;
  delivered: boolean;
  cause: unknown;
  deliveryError?: unknown;
  constructor(taskId: string, details: { delivered?: boolean; cause?: unknown; deliveryError?: unknown; status?: string; } = {}) {
    const delivered = details.delivered ?? true;
    const failure = details.deliveryError;
    const why = failure instanceof Error ? failure.message : failure === undefined ? "" : String(failure);
    super(
      taskId === ""
        ? "the call was aborted before any task was created"
        : delivered
          ? `task ${taskId} was cancelled`
          : `task ${taskId}: the cancel was not delivered${why ? ` (${why})` : ""}; the task may still be running on the server`,
      taskId,
      delivered ? "cancelled" : details.status ?? "working",
    );
    this.name = "TaskCancelledError";
    /** Whether `tasks/cancel` reached the server (or the server itself cancelled the task). */
    this.delivered = delivered;
    /** The last transport failure of an undelivered cancel. */
    this.deliveryError = failure;
    if ("cause" in details) this.cause = details.cause;
  }
}

/** The task is gone (-32602 on `tasks/get`), outlived its TTL unchanged, or passed the deadline. */
class TaskExpiredError extends TaskError {
  name: string;
  constructor(taskId: string, status: string, why: string) {
    super(`task ${taskId} expired: ${why}`, taskId, status);
    this.name = "TaskExpiredError";
  }
}

/**
 * The server answered something the protocol does not allow (the validator's issues attached;
 * for a task's answer, the task's id, last status and message, and what was answered).
 */
class ProtocolError extends Error {
  name: string;
  issues: unknown[];
  taskId: string | undefined;
  status: string | undefined;
  statusMessage: string | undefined;
  result: unknown;
  constructor(message: string, issues: unknown[], details: { taskId?: string; status?: string; statusMessage?: string; result?: unknown; } = {}) {
    super(message);
    this.name = "ProtocolError";
    this.issues = issues;
    this.taskId = details.taskId;
    this.status = details.status;
    this.statusMessage = details.statusMessage;
    /** What the server answered. */
    this.result = details.result;
  }
}

/**
 * What a `TaskScheduler` throws for a key tracked twice (`kind: "already_tracked"`) or a state
 * `TaskScheduler.restore` cannot restore (`kind: "invalid_state"`); malformed arguments throw a
 * `TypeError`. The scheduler lives in WebAssembly and throws an `Error` named
 * "TaskSchedulerError": `instanceof TaskSchedulerError` holds for it (and for an instance of this
 * class), from either entry.
 */
class TaskSchedulerError extends Error {
  /** Which scheduler error this is. */
  kind: "already_tracked" | "invalid_state";
  constructor(message: string, kind: "already_tracked" | "invalid_state") {
    super(message);
    this.name = "TaskSchedulerError";
    this.kind = kind;
  }

  static [Symbol.hasInstance](value: unknown): value is TaskSchedulerError {
    return value instanceof Error && value.name === "TaskSchedulerError";
  }
}

/** The first text of a tool result, for messages. */
function textOf(result: JsonObject | undefined): string | undefined {
  const content = result?.content;
  if (!Array.isArray(content)) return undefined;
  for (const c of content) if (isObject(c) && typeof c.text === "string") return c.text.length > 200 ? `${c.text.slice(0, 200)}…` : c.text;
  return undefined;
}

function realClock(): Clock {
  return { now: () => Date.now(), sleep: sleepClamped };
}

class TaskClient {
  /** The `request` function given (a TaskClient made by `connect`: its connection's): the same transport, for a request of your own. */
  readonly request: RequestFn;
  #session: RequestSession | undefined;
  protocolVersion: ProtocolVersion;
  #serverCapabilities: JsonObject | undefined;
  connection: HttpConnection | null;
  #handlers: InputHandlers;
  /** 2025-11-25: the tasks this client hosts for the server (`receiver: { tasks: true }`), or null. */
  receiver: TaskReceiver | null;
  #clientCapabilities: JsonObject;
  #server: string;
  #clock: Clock;
  #scheduler: import("./mcp_tasks_wasm.js").TaskScheduler;
  #tasks: Map<string, Handle>;
  #listeners: Set<(e: TaskEvent | null) => void>;
  #wake: AbortController;
  #loop: Promise<void> | null;
  #closed: boolean;
  #push: TaskPush | null;
  #unreachableMs: number;
  /** Whether the version is still to be learnt from the session (not named, not known yet). */
  #versionPending = false;
  /** 2025-11-25: each tool's `execution.taskSupport` from `tools/list` (null: the server could not list them). */
  #toolSupport: Promise<Map<string, string> | null> | null = null;
  /** The progress of the calls that asked for it, by their `progressToken`. */
  #feeds: Map<string, ProgressFeed> = new Map();

  constructor(options: TaskClientOptions) {
    if (!isObject(options) || typeof options.request !== "function") {
      throw new TypeError("new TaskClient({ request }): `request(method, params) → Promise<result>` is required");
    }
    this.request = options.request;
    this.#session = isObject(options.request.session) ? options.request.session : undefined;
    this.#versionPending = options.protocolVersion === undefined && this.#session !== undefined;
    this.protocolVersion = options.protocolVersion ?? this.#sessionVersion() ?? V26;
    if (this.#versionPending && this.#sessionVersion() !== undefined) this.#versionPending = false;
    this.#serverCapabilities = options.serverCapabilities;
    /** The HTTP connection of a client made by `TaskClient.connect`. */
    this.connection = null;
    this.#handlers = options.handlers ?? {};
    this.receiver = options.receiver?.tasks ? new TaskReceiver(this.#handlers, options.receiver) : null;
    this.#clientCapabilities = options.clientCapabilities ?? {};
    this.#server = options.server ?? "server";
    this.#clock = options.clock ?? realClock();
    this.#scheduler = new (wasmApi().TaskScheduler)(options.scheduler);
    /** Tracked tasks by id. */
    this.#tasks = new Map();
    this.#listeners = new Set();
    /** Wakes the polling loop early (a new task, a notification). */
    this.#wake = new AbortController();
    this.#loop = null;
    this.#closed = false;
    /** Push (a client made by `connect`, unless `push: false`). */
    this.#push = null;
    const unreachable = options.unreachableMs ?? DEFAULT_UNREACHABLE_MS;
    if (!(Number.isSafeInteger(unreachable) && unreachable >= 0)) throw new TypeError(`TaskClient: unreachableMs must be a non-negative integer (got ${String(unreachable)})`);
    /** How long a task may fail in transport before its call ends (TransportError `unreachable`). */
    this.#unreachableMs = unreachable;
    this.#session?.attach?.(this, this.#handlers);
  }

  /**
   * Connects to the MCP server at `url` over Streamable HTTP (`fetch` only: Node, Deno, browsers)
   * and resolves with a client that speaks the version the server speaks: 2026-07-28 when it
   * answers `server/discover` so, else 2025-11-25 through `initialize` (a session, deleted by
   * `close()`). `protocolVersion` pins one instead (no fallback). The server's requests while a
   * 2025-11-25 task waits (elicitation, sampling, roots, on the `tasks/result` stream) go to
   * `handlers`, as 2026-07-28 `inputRequests` do. Throws the connection's typed errors
   * (VersionError, HttpError, RpcError, TransportError with the network failure as `cause`).
   */
  static async connect(url: string | URL, options: ConnectOptions = {}): Promise<TaskClient> {
    if (!isObject(options)) throw new TypeError("TaskClient.connect(url, options): options must be an object");
    const { headers, fetch, clientInfo, push, maxMessageBytes, idleTimeoutMs, maxResumes, ...rest } = options;
    const handlers = options.handlers ?? {};
    const extra = options.clientCapabilities ?? {};
    const connection = new HttpConnection(url, {
      protocolVersion: options.protocolVersion,
      headers,
      fetch,
      clientInfo,
      maxMessageBytes,
      idleTimeoutMs,
      maxResumes,
      capabilities: (version) => (version === V26 ? v26Capabilities(extra, handlers) : withReceiver(v25Capabilities(extra, handlers), client.receiver)),
    });
    const client: TaskClient = new TaskClient({ ...rest, request: connection.request });
    client.connection = connection;
    try {
      if (push !== false) {
        // A bad `push.backstopMs` throws here, before anything is sent.
        client.#push = new TaskPush(connection, {
          backstopMs: isObject(push) ? push.backstopMs : undefined,
          defaultIntervalMs: options.scheduler?.defaultIntervalMs,
          onDrop: (taskIds) => client.#pushDropped(taskIds),
        });
      }
      await connection.connect();
    } catch (e) {
      await client.close();
      throw e;
    }
    client.#learnVersion();
    return client;
  }

  /**
   * A client over an official MCP SDK `Client` (`@modelcontextprotocol/sdk` 1.x or
   * `@modelcontextprotocol/client` 2.x), connected on any of its transports (stdio, Streamable
   * HTTP, in-memory) and in any negotiation mode (2.x: legacy, auto, pinned 2026-07-28). The SDK
   * keeps the session (the version it negotiated, the server's capabilities); the task requests
   * go on its transport and their answers are read before the SDK parses them (2.x rejects a
   * `resultType: "task"` answer). The server's notifications reach the client; `handlers` answer
   * its input requests (registered on the SDK client: declare their kinds in the SDK client's
   * `capabilities` for a 2025-11-25 server). Connect the SDK client first; `close()` leaves it
   * open.
   */
  static over(sdkClient: SdkClientLike, options: Omit<TaskClientOptions, "request"> = {}): TaskClient {
    if (!isObject(options)) throw new TypeError("TaskClient.over(sdkClient, options): options must be an object");
    return new TaskClient({ ...options, request: sdkRequest(sdkClient) });
  }

  // ---- the public API ---------------------------------------------------------------------------

  /**
   * Calls tool `name` and resolves with its final `CallToolResult` (`isError: true` results
   * included), however the server answers. Throws TaskFailedError (a JSON-RPC error of a failed
   * task), TaskCancelledError, TaskExpiredError, ProtocolError, or the request's own rejection.
   * An input request the client cannot answer (its handler throws, or there is none for its
   * kind) cancels the task and rejects with that error (ProtocolError when no handler).
   * The same as `(await startTool(name, args, options)).result()`.
   */
  callTool<TArgs extends object = JsonObject, TResult = CallToolResult>(name: string, args?: TArgs, options?: CallToolOptions): Promise<TResult>;
  async callTool(name: string, args: JsonObject = {}, options: CallToolOptions = {}): Promise<any> {
    return (await this.startTool(name, args, options)).result();
  }

  /**
   * Calls tool `name` and resolves with its ToolTask as soon as the server answered `tools/call`
   * (input asked before a task exists is answered first, §D 113): a task's handle carries its id
   * at once and is followed from now on (`result()` waits for the end); a synchronous answer
   * gives a handle already completed (`taskId` null). Rejects as `callTool` does before a task
   * exists; from then on the handle's `result()` carries the outcome. `options.signal` cancels
   * the task (as `cancel()`).
   */
  startTool<TArgs extends object = JsonObject, TResult = CallToolResult>(name: string, args?: TArgs, options?: CallToolOptions): Promise<ToolTask<TResult>>;
  async startTool(name: string, args: JsonObject = {}, options: CallToolOptions = {}): Promise<ToolTask<any>> {
    const signal = options.signal;
    // Aborted before a task exists: nothing runs on the server (a task created meanwhile is
    // cancelled by #await, which sees the signal aborted).
    const aborted = () => new TaskCancelledError("", { cause: signal?.reason });
    if (signal?.aborted) throw aborted();
    const feed = new ProgressFeed(options.onProgress);
    // The token names this call's notifications/progress (and, for a task, its whole life).
    const token = options.onProgress !== undefined || options.progress === true ? progressToken() : null;
    if (token !== null) this.#feeds.set(token, feed);
    const withToken = (params: JsonObject): JsonObject => (token === null ? params : { ...params, _meta: { progressToken: token } });
    // The call's bounds (its signal, its deadline) reach every exchange it makes.
    const scope = this.#scope(signal, options.timeoutMs);
    let handed = false;
    try {
      let params: JsonObject = withToken({ name, arguments: args });
      this.#learnVersion();
      if (this.protocolVersion === V25) {
        // The tools/list behind it is shared by every call (cached): raced, never aborted.
        const task = await scope.race(this.#augmentation(name, options.task));
        if (task) params.task = task;
      }
      // §D 113: MRTR rounds before a task exists: retry with inputResponses and the echoed state.
      for (let round = 0; ; round++) {
        if (signal?.aborted) throw aborted();
        let result: JsonObject;
        try {
          result = await scope.race(this.#send("tools/call", params, scope.signal));
        } catch (e) {
          if (scope.expired()) throw new TaskExpiredError("", "", "the deadline passed before the server answered tools/call");
          if (signal?.aborted) throw aborted();
          throw e;
        }
        const kind = this.#kindOfCallAnswer(result);
        if (kind !== "task" && signal?.aborted) throw aborted();
        if (kind === "complete") return new ToolTask(null, feed, { status: async () => ({ status: "completed" }), settled: Promise.resolve(result), cancel: async () => {} });
        if (kind === "task") {
          handed = true;
          const handle = this.#startTask(result, options, scope, feed);
          if (token !== null) handle.promise.finally(() => this.#feeds.delete(token)).catch(() => {});
          // From now on the caller's signal cancels the task, whoever waits for it.
          this.#await(handle, signal);
          return this.#toolTask(handle);
        }
        // input_required (V26 MRTR): answer every request, then call again.
        if (round >= 16) throw new ProtocolError("tools/call asked for input more than 16 times", []);
        const requests = (result.inputRequests as JsonObject);
        const inputResponses = await scope.race(this.#answerAll(requests));
        params = withToken({ name, arguments: args, inputResponses });
        if (typeof result.requestState === "string") params.requestState = result.requestState;
      }
    } catch (e) {
      if (!handed && scope.expired() && !(e instanceof TaskExpiredError)) throw new TaskExpiredError("", "", "the deadline passed before a task was created");
      throw e;
    } finally {
      if (!handed) {
        scope.end();
        if (token !== null) this.#feeds.delete(token);
      }
    }
  }

  /**
   * Picks up task `taskId` (created by this client or another: listed, stored, handed over) and
   * follows it until it ends: a ToolTask as `startTool` gives, without progress notifications
   * (their token belongs to the call that started the task; `statusMessage` changes are seen).
   * Sends nothing until the scheduler polls. 2026-07-28: any client the server lets read the task.
   * 2025-11-25: the same session only (servers bind a task to the session that created it, as
   * §D 38 has them bind it to an authorization context):
   * over `TaskClient.over`/`requestVia` share the SDK client; a second `TaskClient.connect` opens
   * another session, which does not see the task.
   */
  resume<TResult = CallToolResult>(taskId: string, options: ResumeOptions = {}): ToolTask<TResult> {
    if (typeof taskId !== "string" || taskId === "") throw new TypeError("TaskClient.resume(taskId): taskId must be a non-empty string");
    if (!isObject(options)) throw new TypeError("TaskClient.resume(taskId, options): options must be an object");
    let handle = this.#tasks.get(taskId);
    if (handle) {
      if (options.onProgress) handle.feed.listeners.add(options.onProgress);
    } else {
      handle = this.#track(taskId, null, options.timeoutMs, this.#scope(options.signal, options.timeoutMs), new ProgressFeed(options.onProgress));
    }
    this.#kick();
    this.#await(handle, options.signal);
    return this.#toolTask(handle);
  }

  /** Follows a task created elsewhere (e.g. listed, or restored) until it ends: as `callTool` (`resume(taskId, options).result()`). */
  follow<TResult = CallToolResult>(taskId: string, options?: { signal?: AbortSignal; timeoutMs?: number; }): Promise<TResult>;
  follow(taskId: string, options: { signal?: AbortSignal; timeoutMs?: number; } = {}): Promise<any> {
    return this.resume(taskId, options).result();
  }

  /**
   * Feeds an incoming notification (V25 `notifications/tasks/status`, V26 `notifications/tasks`):
   * a tracked task is updated and rescheduled at once; `notifications/progress` with the
   * `progressToken` of a call that asked for progress goes to its listeners (ProgressEvent); `notifications/tools/list_changed` makes
   * the next 2025-11-25 call read `tools/list` again. Other messages are ignored.
   */
  notify(message: JsonObject) {
    if (isObject(message) && message.method === "notifications/tools/list_changed") {
      this.#toolSupport = null;
      return;
    }
    if (!isObject(message) || !isObject(message.params)) return;
    if (message.method === "notifications/progress") return this.#progress(message.params);
    if (message.method !== "notifications/tasks/status" && message.method !== "notifications/tasks") return;
    // A pushed snapshot is judged as a polled one (in the client's version); an invalid one is
    // dropped (the task stays as it was: polling goes on) and reported.
    this.#learnVersion();
    const report = wasmApi().validateMessage(message, { version: this.protocolVersion });
    const errors = report.issues.filter((i) => i.severity === "error" && !SURVIVED.has(i.code));
    const task = message.params;
    if (errors.length > 0) {
      const taskId = typeof task.taskId === "string" ? task.taskId : "";
      if (this.#tasks.has(taskId)) this.#emit({ type: "pollError", taskId, error: new ProtocolError(`${message.method}: invalid notification: ${errors[0].message}`, errors) });
      return;
    }
    this.#push?.heardOf(message);
    const handle = typeof task.taskId === "string" ? this.#tasks.get(task.taskId) : undefined;
    if (handle) this.#observe(handle, task).catch((error) => this.#emit({ type: "pollError", taskId: handle.taskId, error }));
  }

  /**
   * Answers a request the server sent (2025-11-25: elicitation, sampling or roots, typically on
   * the `tasks/result` stream of a task waiting for input, with related-task `_meta`): the handler
   * of its kind answers, as for a 2026-07-28 `inputRequests` entry (§D 106); `ping` gets `{}`. A
   * kind without a handler rejects with -32601, a handler that throws with -32603 (an Error with
   * `code` and `message`, for the transport to answer); either way the related task, if this
   * client follows it, is cancelled and its call rejects (as for a 2026-07-28 input request).
   * @param message The JSON-RPC request (`method`, `params`).
   */
  async handleRequest(message: JsonObject): Promise<JsonObject> {
    const method = isObject(message) && typeof message.method === "string" ? message.method : "";
    const params = isObject(message) && isObject(message.params) ? message.params : {};
    if (method === "ping") return {};
    if (this.receiver?.accepts(message)) return this.receiver.handle(message);
    const kind = inputKind(method);
    const handler = kind ? this.#handlers[kind] : undefined;
    const meta = isObject(params._meta) ? params._meta : {};
    const related = isObject(meta[RELATED]) && typeof meta[RELATED].taskId === "string" ? meta[RELATED].taskId : undefined;
    const handle = related === undefined ? undefined : this.#tasks.get(related);
    if (!handler) {
      if (handle) this.#abandon(handle, new ProtocolError(`no handler for the server's ${method || "request"} about task ${handle.taskId}`, [])).catch(() => {});
      throw Object.assign(new Error(`Method not found: ${method || "(none)"}: this client has no handler for it`), { code: METHOD_NOT_FOUND });
    }
    try {
      const result = await handler(params);
      if (!isObject(result)) throw new TypeError(`the ${kind} handler answered ${JSON.stringify(result)}, not an object`);
      return result;
    } catch (e) {
      if (handle) this.#abandon(handle, e).catch(() => {});
      throw Object.assign(new Error(e instanceof Error ? e.message : String(e)), { code: INTERNAL_ERROR });
    }
  }

  /**
   * Every task event, as it happens (`taskCreated`, `taskStatus`, `inputRequired`, `result`,
   * `error`, `stuck`, `pollError`: see TaskEvent). Ends when the client is closed.
   */
  async *events(): AsyncGenerator<TaskEvent> {
    const queue: (TaskEvent | null)[] = [];
    let waiting: ((e: TaskEvent | null) => void) | null = null;
    const listener = (e: TaskEvent | null) => {
      if (waiting) {
        const w = waiting;
        waiting = null;
        w(e);
      } else queue.push(e);
    };
    this.#listeners.add(listener);
    try {
      for (;;) {
        const next = queue.length > 0 ? queue.shift() : await new Promise<TaskEvent | null>((resolve) => (waiting = resolve));
        if (next === null || next === undefined) return;
        yield next;
      }
    } finally {
      this.#listeners.delete(listener);
    }
  }

  /**
   * Everything needed to resume after a reload: the scheduler's state and every tracked task
   * (id, version, answered input keys). JSON-safe.
   */
  serialize(): JsonObject {
    return {
      format: "mcp-tasks-wasm/client/1",
      protocolVersion: this.protocolVersion,
      server: this.#server,
      scheduler: this.#scheduler.serialize(),
      tasks: [...this.#tasks.values()].map((h) => ({
        taskId: h.taskId,
        version: h.version,
        server: this.#server,
        createdAt: h.createdAt,
        answered: [...h.answered],
      })),
    };
  }

  /**
   * A client that resumes the tasks of `state` (from `serialize()`): follow them with
   * `follow(taskId)`; `pending()` lists them.
   */
  static restore(state: JsonObject | string, options: TaskClientOptions): TaskClient {
    let s: unknown = state;
    if (typeof state === "string") {
      try {
        s = JSON.parse(state);
      } catch (e) {
        throw new TypeError(`TaskClient.restore: the state is not JSON (${e instanceof Error ? e.message : String(e)})`);
      }
    }
    // Everything is checked before the client is built: a state that does not add up is
    // refused with the field it names, and no polling starts. The scheduler checks its own
    // rows (docs/decisions/scheduler-time.md); each listed task must have one it still polls.
    const checked = checkClientState(s);
    let scheduler: import("./mcp_tasks_wasm.js").TaskScheduler;
    try {
      scheduler = wasmApi().TaskScheduler.restore(checked.scheduler);
    } catch (e) {
      throw new TypeError(`TaskClient.restore: scheduler: ${e instanceof Error ? e.message : isObject(e) ? String(e.message) : String(e)}`);
    }
    checked.tasks.forEach((t, i) => {
      const row = scheduler.info(t.taskId);
      const why = row === null ? "has no row in scheduler.tasks" : row.finished ? "is still followed but finished in scheduler.tasks: the state does not add up" : null;
      if (why !== null) {
        scheduler.free();
        throw new TypeError(`TaskClient.restore: tasks[${i}] (task ${JSON.stringify(t.taskId)}) ${why}`);
      }
    });
    const client = new TaskClient({ ...options, protocolVersion: checked.protocolVersion, server: checked.server ?? options.server });
    client.#scheduler.free();
    client.#scheduler = scheduler;
    for (const t of checked.tasks) {
      const handle = new Handle(t.taskId, t.version);
      handle.createdAt = t.createdAt;
      for (const k of t.answered) handle.answered.add(k);
      client.#tasks.set(t.taskId, handle);
    }
    return client;
  }

  /** The ids of the tasks being followed. */
  pending(): string[] {
    return [...this.#tasks.keys()];
  }

  /** Whether `taskId`'s status reaches this client by push now (see the `push` option). */
  /** @internal The test hook (see INTERNALS): the push of a client made by `connect`. */
  [INTERNALS]() {
    return { push: this.#push };
  }

  pushed(taskId: string) {
    return this.#push?.pushed(taskId) ?? false;
  }

  /**
   * Stops polling; unsettled calls reject with an AbortError. Tasks keep running on the server.
   * A client made by `connect` also closes its connection (a 2025-11-25 session is deleted):
   * await the promise for that.
   */
  async close(): Promise<void> {
    this.#closed = true;
    for (const h of this.#tasks.values()) h.settle(abortError("the task client was closed"));
    this.#tasks.clear();
    this.#wake.abort();
    for (const l of this.#listeners) l(null);
    this.#listeners.clear();
    this.#push?.close();
    this.receiver?.close();
    this.#session?.detach?.(this);
    if (this.connection) await this.connection.close();
  }

  // ---- internals ---------------------------------------------------------------------------------

  /** The `_meta` of a V26 request (§D 100): the version, and the capabilities we can honour. */
  #meta() {
    return { [META_VERSION]: V26, [META_CAPS]: v26Capabilities(this.#clientCapabilities, this.#handlers) };
  }

  /** The version the request's session negotiated, as the client speaks it; undefined if unknown. */
  #sessionVersion(): ProtocolVersion | undefined {
    const v = this.#session?.protocolVersion();
    if (v === V26) return V26;
    if (typeof v === "string" && INITIALIZE_VERSIONS.includes(v)) return V25;
    return undefined;
  }

  /** Takes the session's version once it is known (a session connected after the client was made). */
  #learnVersion() {
    if (!this.#versionPending) return;
    const v = this.#sessionVersion();
    if (v === undefined) return;
    this.protocolVersion = v;
    this.#versionPending = false;
  }

  /** The server's capabilities, if known. */
  #capabilities(): JsonObject | undefined {
    if (this.#serverCapabilities) return this.#serverCapabilities;
    const caps = this.#session?.serverCapabilities();
    return isObject(caps) ? caps : undefined;
  }

  /** 2025-11-25: the `params.task` of a call of `name`, or undefined (§D 47, 48). */
  async #augmentation(name: string, asked: { ttl?: number; } | undefined): Promise<JsonObject | undefined> {
    const wanted = isObject(asked) ? { ...asked } : undefined;
    const caps = this.#capabilities();
    if (!caps) return wanted; // unknown server: the caller decides
    const tasks = caps.tasks;
    const canCall = isObject(tasks) && isObject(tasks.requests) && isObject(tasks.requests.tools) && isObject(tasks.requests.tools.call);
    if (!canCall) return undefined; // §D 48: never without tasks.requests.tools.call
    const support = await this.#listToolSupport();
    if (support === null) return wanted; // the tools could not be listed: the caller decides
    const mode = support.get(name) ?? "forbidden"; // absent = forbidden (§D 11)
    if (mode === "required") return wanted ?? {};
    if (mode === "optional") return wanted;
    return undefined;
  }

  /**
   * Each tool's `taskSupport` from `tools/list` (every page), cached until the server says the
   * list changed; null when the server answers `tools/list` with an error.
   */
  #listToolSupport(): Promise<Map<string, string> | null> {
    if (this.#toolSupport) return this.#toolSupport;
    const listing = (async () => {
      const support: Map<string, string> = new Map();
      let cursor: string | undefined;
      for (let page = 0; page < MAX_TOOL_PAGES; page++) {
        let result;
        try {
          result = await this.#send("tools/list", cursor === undefined ? {} : { cursor });
        } catch (e) {
          if (isErrorObject(e)) return null;
          throw e;
        }
        for (const tool of Array.isArray(result.tools) ? result.tools : []) {
          if (!isObject(tool) || typeof tool.name !== "string") continue;
          const mode = isObject(tool.execution) ? tool.execution.taskSupport : undefined;
          support.set(tool.name, typeof mode === "string" ? mode : "forbidden");
        }
        if (typeof result.nextCursor !== "string") break;
        cursor = result.nextCursor;
      }
      return support;
    })();
    this.#toolSupport = listing;
    // A transport failure is not remembered: the next call lists again.
    listing.catch(() => {
      if (this.#toolSupport === listing) this.#toolSupport = null;
    });
    return listing;
  }

  /** Sends a request in the client's version and checks the answer with the validator. */
  async #send(method: string, params: JsonObject, signal?: AbortSignal): Promise<JsonObject> {
    this.#learnVersion();
    const p = this.protocolVersion === V26 ? { ...params, _meta: { ...((params._meta as JsonObject) ?? {}), ...this.#meta() } } : params;
    const result = await (signal === undefined ? this.request(method, p) : this.request(method, p, { signal }));
    if (!isObject(result)) throw new ProtocolError(`${method}: the answer is not an object`, []);
    // The answer is judged in the client's version, except a V26 client's `tools/call`, whose
    // answer tells the server's version (a V25 task answer to a V26 `tasks/get` is invalid).
    const pinned = this.protocolVersion === V25 || method !== "tools/call";
    const report = wasmApi().validateMessage({ jsonrpc: "2.0", id: 0, result }, pinned ? { inReplyTo: method, version: this.protocolVersion } : { inReplyTo: method });
    // A V25-shaped answer to a V26 request: the server speaks 2025-11-25 (detected once).
    if (this.protocolVersion === V26 && report.version === V25 && method === "tools/call") this.protocolVersion = V25;
    const errors = report.issues.filter((i) => i.severity === "error" && !SURVIVED.has(i.code));
    if (errors.length > 0) throw new ProtocolError(`${method}: invalid answer: ${errors[0].message}`, errors);
    return result;
  }

  #kindOfCallAnswer(result: JsonObject): "complete" | "task" | "input_required" {
    if (isObject(result.task)) return "task"; // V25 CreateTaskResult
    const rt = result.resultType ?? "complete"; // §D 115
    if (rt === "task" || rt === "input_required" || rt === "complete") return rt;
    throw new ProtocolError(`tools/call: unknown resultType ${JSON.stringify(rt)}`, []);
  }

  #startTask(created: JsonObject, options: CallToolOptions, scope: CallScope, feed: ProgressFeed) {
    const task = ((isObject(created.task) ? created.task : created) as JsonObject);
    const taskId = (task.taskId as string);
    // "created" comes first: a first snapshot that is not `working` gives its own events at once.
    this.#emit({ type: "taskCreated", taskId, status: (task.status as string), task });
    feed.taskId = taskId;
    return this.#track(taskId, task, scope.left() ?? options.timeoutMs, scope, feed);
  }

  /** The ToolTask of a followed task. */
  #toolTask(handle: Handle): ToolTask<any> {
    return new ToolTask(handle.taskId, handle.feed, {
      status: async () => {
        const task = await this.#send("tasks/get", { taskId: handle.taskId });
        // A fresh snapshot of a followed task counts as a poll (status message, end, input).
        if (!handle.done && this.#tasks.get(handle.taskId) === handle) await this.#observe(handle, task);
        return task;
      },
      settled: handle.promise,
      cancel: (reason) => this.#cancel(handle, reason),
    });
  }

  /** A `notifications/progress`: to the listeners of the call whose token it carries. */
  #progress(params: JsonObject) {
    const token = params.progressToken;
    const feed = typeof token === "string" ? this.#feeds.get(token) : undefined;
    if (!feed || typeof params.progress !== "number" || !Number.isFinite(params.progress)) return;
    const event: ProgressEvent = { type: "progress", taskId: feed.taskId, status: feed.status(), progress: params.progress };
    if (typeof params.total === "number" && Number.isFinite(params.total)) event.total = params.total;
    if (typeof params.message === "string") event.message = params.message;
    feed.emit(event);
    this.#emit(event);
  }

  /** Takes a snapshot's `statusMessage`: a change is told (ProgressEvent `statusMessage`). */
  #seeMessage(handle: Handle, task: JsonObject) {
    const message = task.statusMessage;
    if (typeof message !== "string" || message === handle.statusMessage) return;
    handle.statusMessage = message;
    const event: ProgressEvent = { type: "statusMessage", taskId: handle.taskId, status: typeof task.status === "string" ? task.status : handle.status, message };
    handle.feed.emit(event);
    this.#emit(event);
  }

  /**
   * The bounds of one call: `signal` aborts when the caller's signal does or when `timeoutMs`
   * (from now, on the client's clock) passes (`expired()` then says so); `race` rejects a promise
   * the transport may never settle once the deadline passed; `end` disarms the timer.
   */
  #scope(callerSignal: AbortSignal | undefined, timeoutMs: number | undefined): CallScope {
    const controller = new AbortController();
    const disarm = new AbortController();
    let expired = false;
    let onExpire: (() => void) | null = null;
    const deadline = typeof timeoutMs === "number" && Number.isFinite(timeoutMs) && timeoutMs >= 0 ? this.#clock.now() + timeoutMs : null;
    const forward = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) forward();
    else callerSignal?.addEventListener("abort", forward, { once: true });
    const expiry = new Promise<never>((_, reject) => {
      if (deadline === null) return;
      this.#clock.sleep((timeoutMs as number), disarm.signal).then(() => {
        if (disarm.signal.aborted) return;
        expired = true;
        controller.abort(new TaskExpiredError("", "", "the deadline passed"));
        reject(new TaskExpiredError("", "", "the deadline passed"));
        onExpire?.();
      });
    });
    expiry.catch(() => {});
    return {
      signal: controller.signal,
      expired: () => expired,
      left: () => (deadline === null ? undefined : Math.max(0, deadline - this.#clock.now())),
      race: <T>(p: Promise<T>) => (deadline === null ? p : Promise.race([p, expiry])),
      onExpire: (f: () => void) => {
        onExpire = f;
        if (expired) f();
      },
      end: () => {
        disarm.abort();
        callerSignal?.removeEventListener("abort", forward);
      },
    };
  }

  #track(taskId: string, task: JsonObject | null, timeoutMs?: number, scope?: CallScope, feed?: ProgressFeed) {
    const handle = new Handle(taskId, this.protocolVersion);
    if (feed) handle.feed = feed;
    handle.feed.taskId = taskId;
    handle.feed.status = () => handle.status;
    if (scope) {
      handle.signal = scope.signal;
      // The deadline ends the call even while an exchange hangs (a tasks/result of a task the
      // scheduler no longer polls, a transport that ignores the signal).
      scope.onExpire(() => {
        if (!handle.done) this.#finish(handle, new TaskExpiredError(taskId, handle.status, "the deadline passed"), { status: handle.status });
      });
      handle.promise.finally(() => scope.end()).catch(() => {});
    }
    if (typeof task?.createdAt === "string") handle.createdAt = task.createdAt;
    if (task) this.#seeMessage(handle, task);
    this.#tasks.set(taskId, handle);
    this.#push?.follow(taskId, handle.version);
    if (this.#scheduler.info(taskId) === null) {
      const params: import("./mcp_tasks_wasm.js").TrackParams = { server: this.#server, version: handle.version };
      if (task) params.task = task;
      if (timeoutMs !== undefined) params.deadlineMs = timeoutMs;
      const events = this.#scheduler.track(taskId, params, this.#clock.now());
      // A first snapshot that is not `working` (terminal, or waiting for input) is acted on now:
      // the scheduler will not poll a terminal task again.
      if (task && (events.length > 0 || task.status === "input_required")) {
        this.#afterSnapshot(handle, task, events).catch((error) => this.#emit({ type: "pollError", taskId, error }));
      }
    }
    this.#kick();
    return handle;
  }

  #await(handle: Handle, signal?: AbortSignal): Promise<JsonObject> {
    if (signal) {
      const onAbort = () => this.#cancel(handle, signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
      handle.promise.finally(() => signal.removeEventListener("abort", onAbort)).catch(() => {});
    }
    return handle.promise;
  }

  /**
   * Sends `tasks/cancel` (never `notifications/cancelled`, §D 55, 110) and stops following. A
   * cancel the server answered (even with an error: a terminal or unknown task, V25 -32602) is
   * done: `cancelled`. One that never reached it (a transport failure) is sent again after
   * CANCEL_RETRY_MS; when every try failed the call rejects with a TaskCancelledError whose
   * `delivered` is false (the `error` event carries it), never a delivered cancel. Either way
   * its `cause` is `reason` (the signal's).
   */
  async #cancel(handle: Handle, reason: unknown) {
    if (handle.done) return;
    const failure = await this.#deliverCancel(handle);
    if (handle.done) return; // it ended some other way while we were trying
    if (failure === null) {
      this.#finish(handle, new TaskCancelledError(handle.taskId, { cause: reason }));
      return;
    }
    const error = new TaskCancelledError(handle.taskId, { delivered: false, cause: reason, deliveryError: failure.error, status: handle.status });
    this.#finish(handle, error, { status: handle.status });
  }

  /**
   * Sends `tasks/cancel` until the server answers it (a result or a JSON-RPC error) or every
   * try of CANCEL_RETRY_MS failed in transport: `null` when delivered, else the last failure.
   */
  async #deliverCancel(handle: Handle): Promise<{ error: unknown; } | null> {
    let last: unknown;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.#send("tasks/cancel", { taskId: handle.taskId });
        return null;
      } catch (e) {
        // The server answered (an error, or an answer the validator refused): it got the cancel.
        if (isErrorObject(e) || e instanceof ProtocolError) return null;
        last = e;
      }
      if (attempt >= CANCEL_RETRY_MS.length || this.#closed || handle.done) return { error: last };
      await this.#clock.sleep(CANCEL_RETRY_MS[attempt], new AbortController().signal);
    }
  }

  /** Starts the polling loop if it is not running, or wakes it. */
  #kick() {
    this.#wake.abort();
    if (!this.#loop && !this.#closed) {
      this.#loop = this.#run().finally(() => (this.#loop = null));
    }
  }

  /**
   * The polling loop: one timer (at the scheduler's `nextWakeAt`) for every task. Polls are not
   * awaited here: a slow or hung `tasks/get`, or a handler waiting for its user, holds back no
   * other poll, and the scheduler's poll timeout can fire; each answer wakes the loop.
   */
  async #run() {
    while (!this.#closed && this.#tasks.size > 0) {
      this.#wake = new AbortController();
      // In batches: one answer for every due task at once would grow wasm memory for good.
      for (let due = this.#scheduler.nextDue(this.#clock.now(), DUE_BATCH); due.length > 0; ) {
        for (const ev of due) {
          this.#event(ev, null)
            .catch((error) => this.#emit({ type: "pollError", taskId: ev.key, error }))
            .finally(() => this.#kick());
        }
        due = due.length < DUE_BATCH ? [] : this.#scheduler.nextDue(this.#clock.now(), DUE_BATCH);
      }
      if (this.#tasks.size === 0 || this.#closed) break;
      const at = this.#scheduler.nextWakeAt();
      if (at === null) break;
      const wait = at - this.#clock.now();
      if (wait > 0 && !this.#wake.signal.aborted) await this.#clock.sleep(wait, this.#wake.signal);
      else await Promise.resolve(); // let the polls just sent run before handing out more
    }
  }

  /** Acts on one scheduler event; `task` is the snapshot that caused it, if any. */
  async #event(ev: import("./mcp_tasks_wasm.js").SchedulerEvent, task: JsonObject | null) {
    const handle = this.#tasks.get(ev.key);
    if (!handle) {
      this.#scheduler.forget(ev.key);
      return;
    }
    const taskId = handle.taskId;
    const snapshot = task ? { task } : {};
    switch (ev.type) {
      case "poll":
        return this.#poll(handle);
      case "taskStatus":
        handle.status = ev.status;
        this.#emit({ type: "taskStatus", taskId, status: ev.status, ...snapshot });
        return;
      case "inputRequired":
        handle.status = ev.status;
        this.#emit({ type: "taskStatus", taskId, status: ev.status, ...snapshot });
        this.#emit({ type: "inputRequired", taskId, status: ev.status, ...snapshot });
        return;
      case "terminal":
        handle.status = ev.status;
        if (task) await this.#terminal(handle, task);
        return;
      case "stuck":
        this.#emit({ type: "stuck", taskId, status: handle.status });
        return;
      case "pollError":
        // Failures of answered polls were reported by #poll; this one never answered.
        if (ev.timedOut) this.#emit({ type: "pollError", taskId, error: new Error(`tasks/get of ${taskId} timed out`) });
        return;
      case "expired": {
        const why = ev.reason === "ttl" ? "its TTL passed with no change" : "the server no longer knows it";
        this.#finish(handle, new TaskExpiredError(taskId, handle.status, why), { status: handle.status });
        return;
      }
      case "deadlineExceeded":
        this.#finish(handle, new TaskExpiredError(taskId, handle.status, "the deadline passed"), { status: handle.status });
        return;
      default:
    }
  }

  /** `tasks/get`, reported to the scheduler. */
  async #poll(handle: Handle) {
    let task;
    try {
      task = await this.#send("tasks/get", { taskId: handle.taskId }, handle.signal);
    } catch (e) {
      if (handle.done) return;
      if (this.#lostServer(handle, e)) return;
      const err: import("./mcp_tasks_wasm.js").PollErrorInfo = isErrorObject(e) ? { code: e.code, message: e.message } : { message: e instanceof Error ? e.message : String(e) };
      const hint = isObject(e) || e instanceof Error ? (e as JsonObject).retryAfterMs : undefined;
      if (typeof hint === "number" && Number.isFinite(hint) && hint >= 0) err.retryAfterMs = Math.ceil(hint);
      if (!isErrorObject(e) || e.code !== INVALID_PARAMS) this.#emit({ type: "pollError", taskId: handle.taskId, error: e });
      // -32602 for a known id: expired or purged (§D 56, 114); the scheduler says so.
      for (const ev of this.#scheduler.observeError(handle.taskId, err, this.#clock.now())) await this.#event(ev, null);
      return;
    }
    await this.#observe(handle, task);
  }

  /** A fresh snapshot of a tracked task (a poll or a notification). */
  async #observe(handle: Handle, task: JsonObject) {
    if (handle.done) return;
    handle.failingSince = null;
    // §D 34: an answer about another task is not this task's state (nor its result).
    if (task.taskId !== handle.taskId) return this.#foreignAnswer(handle, task);
    // A task id is only that task: one created at another time is not the task we follow (a
    // server that reused the id after a reload, or a snapshot of something else).
    if (typeof task.createdAt === "string") {
      if (handle.createdAt === null) handle.createdAt = task.createdAt;
      else if (Date.parse(task.createdAt) !== Date.parse(handle.createdAt)) {
        this.#finish(handle, new TaskExpiredError(handle.taskId, handle.status, "its id now names another task (a different createdAt)"), { status: handle.status });
        return;
      }
    }
    this.#seeMessage(handle, task);
    // While pushed, the scheduler sees the backstop as the poll interval (js/client/push.ts).
    const seen = this.#push ? this.#push.adjust(handle.taskId, handle.version, task) : task;
    await this.#afterSnapshot(handle, task, this.#scheduler.observe(handle.taskId, seen, this.#clock.now()));
  }

  /** Push stopped for these tasks: poll each now, and on at the server's interval. */
  #pushDropped(taskIds: string[]) {
    for (const taskId of taskIds) {
      const handle = this.#tasks.get(taskId);
      if (handle && !handle.done) this.#poll(handle).catch((error) => this.#emit({ type: "pollError", taskId, error }));
    }
  }

  /**
   * Acts on the scheduler's events for a snapshot of a tracked task, then on its input requests.
   */
  async #afterSnapshot(handle: Handle, task: JsonObject, events: import("./mcp_tasks_wasm.js").SchedulerEvent[]) {
    for (const ev of events) await this.#event(ev, task);
    this.#kick(); // the next poll is rescheduled: the loop's timer follows (the handlers may take long)
    if (handle.done || task.status !== "input_required") return;
    // Input is needed while the status says so, new keys included (§D 50, 105, 107).
    if (handle.version === V25) this.#openResult(handle);
    else await this.#answerTask(handle, ((task.inputRequests ?? {}) as JsonObject));
  }

  /** The first terminal snapshot is final. */
  async #terminal(handle: Handle, task: JsonObject) {
    const status = (task.status as string);
    if (status === "cancelled") {
      this.#finish(handle, new TaskCancelledError(handle.taskId), { status, task });
      return;
    }
    if (handle.version === V26) {
      if (status === "completed") this.#finish(handle, (task.result as JsonObject), { status, task });
      else this.#finish(handle, new TaskFailedError(handle.taskId, (task.error as JsonRpcError), { statusMessage: handle.statusMessage }), { status, task });
      return;
    }
    // V25: the payload comes from tasks/result (what the original request returned, §D 30).
    this.#openResult(handle);
    await handle.resultOpen;
  }

  /** V25: `tasks/result` (blocks until the task ends, and lets the server deliver its input requests). */
  #openResult(handle: Handle) {
    if (handle.resultOpen) return;
    handle.resultOpen = (async () => {
      let result: JsonObject;
      try {
        result = await this.#send("tasks/result", { taskId: handle.taskId }, handle.signal);
      } catch (e) {
        if (handle.done) return;
        if (this.#lostServer(handle, e)) return;
        if (isErrorObject(e)) {
          // The underlying request's own error (§D 30): the task failed.
          const error = new TaskFailedError(handle.taskId, e, { statusMessage: handle.statusMessage });
          this.#finish(handle, error, { status: "failed" });
        } else if (e instanceof ProtocolError) {
          const error = new ProtocolError(e.message, e.issues, { taskId: handle.taskId, status: handle.status, statusMessage: handle.statusMessage, result: e.result });
          this.#finish(handle, error, { status: handle.status });
        } else {
          handle.resultOpen = null; // a transport failure: polling goes on, reopen later
          this.#emit({ type: "pollError", taskId: handle.taskId, error: e });
          // A task seen terminal is polled no more: its result comes only from tasks/result.
          if (TERMINAL.includes(handle.status) && !this.#closed) {
            if (handle.resultTries >= RESULT_RETRY_MS.length) {
              this.#finish(handle, e instanceof Error ? e : new Error(String(e)), { status: handle.status });
              return;
            }
            await this.#clock.sleep(RESULT_RETRY_MS[handle.resultTries++], handle.signal ?? new AbortController().signal);
            if (!handle.done && !this.#closed) {
              this.#openResult(handle);
              await handle.resultOpen;
            }
          }
        }
        return;
      }
      handle.failingSince = null;
      await this.#settleResult(handle, result);
    })();
  }

  /**
   * Whether a failed exchange of `handle`'s task ended its call: the server lost the 2025-11-25
   * session (every task of the client went with it: each call ends, TransportError
   * `session_lost`), or the task failed in transport (`network`, `timeout`) for `unreachableMs`
   * (TransportError `unreachable`). Anything else (a JSON-RPC error, a rejection of another
   * transport) is left to the caller, and a failure of another kind breaks the run.
   */
  #lostServer(handle: Handle, e: unknown): boolean {
    const kind = e instanceof TransportError || (e instanceof Error && e.name === "TransportError") ? (e as TransportError).kind : null;
    if (kind === "session_lost") {
      for (const h of [...this.#tasks.values()]) {
        if (h.done || h.version !== handle.version) continue;
        this.#finish(h, new TransportError(`task ${h.taskId}: the server lost the session (HTTP 404): the task is gone with it`, e, { kind: "session_lost" }), { status: h.status });
      }
      return true;
    }
    if (kind !== "network" && kind !== "timeout") {
      handle.failingSince = null;
      return false;
    }
    const now = this.#clock.now();
    if (handle.failingSince === null) handle.failingSince = now;
    const failing = now - handle.failingSince;
    if (failing < this.#unreachableMs) return false;
    const why = e instanceof Error ? e.message : String(e);
    this.#finish(handle, new TransportError(`task ${handle.taskId}: the server was unreachable for ${failing} ms (unreachableMs ${this.#unreachableMs}): ${why}`, e, { kind: "unreachable" }), { status: handle.status });
    return true;
  }

  /**
   * V25: the final outcome from a `tasks/result` answer. A task seen `failed` never resolves: it
   * rejects as TaskFailedError with its status message and whatever `tasks/result` gave
   * (`result`: a tool result, or, from Python mcp 1.30, one holding only `_meta`). An `isError`
   * result, or an answer that is no `CallToolResult`, of a task whose end was not seen yet is
   * settled by one `tasks/get` (§D 44: an `isError` task SHOULD be `failed`; a server may end it
   * `completed`, and then the result resolves). An answer that is no `CallToolResult` (no
   * `content` array) of a task not seen `failed` is a ProtocolError (§D 30).
   */
  async #settleResult(handle: Handle, result: JsonObject) {
    const taskId = handle.taskId;
    const toolResult = Array.isArray(result.content);
    if ((!toolResult || result.isError === true) && !TERMINAL.includes(handle.status)) await this.#statusNow(handle);
    if (handle.done) return;
    if (handle.status === "failed") {
      const error = new TaskFailedError(taskId, null, { statusMessage: handle.statusMessage, result });
      this.#finish(handle, error, { status: "failed" });
      return;
    }
    if (!toolResult) {
      const error = new ProtocolError(
        `tasks/result of task ${taskId} (${handle.status}) is neither a CallToolResult nor a JSON-RPC error (§D 30)`,
        [],
        { taskId, status: handle.status, statusMessage: handle.statusMessage, result },
      );
      this.#finish(handle, error, { status: handle.status });
      return;
    }
    this.#finish(handle, result, { status: handle.status });
  }

  /**
   * Ends the call of `handle` with a ProtocolError: the server answered `tasks/get` about the
   * task with a task of another id (§D 34).
   */
  #foreignAnswer(handle: Handle, task: JsonObject) {
    const error = new ProtocolError(
      `tasks/get of task ${handle.taskId} answered about another task (${JSON.stringify(task.taskId)}) (§D 34)`,
      [],
      { taskId: handle.taskId, status: handle.status, statusMessage: handle.statusMessage, result: task },
    );
    this.#finish(handle, error, { status: handle.status });
  }

  /** One `tasks/get` for the task's status now (its failure leaves the status as it was). */
  async #statusNow(handle: Handle) {
    let task: JsonObject;
    try {
      task = await this.#send("tasks/get", { taskId: handle.taskId });
    } catch {
      return; // unknown: the result decides
    }
    if (task.taskId !== handle.taskId) return this.#foreignAnswer(handle, task);
    if (typeof task.status === "string") handle.status = task.status;
    this.#seeMessage(handle, task);
  }

  /**
   * V26 `input_required`: answers the keys not answered yet (§D 105–107) with `tasks/update`;
   * keys count as answered only once the update is acknowledged.
   */
  async #answerTask(handle: Handle, requests: JsonObject) {
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
    const todo: JsonObject = {};
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
      const inputResponses: JsonObject = {};
      for (const k of keys) inputResponses[k] = handle.unacked[k];
      await this.#send("tasks/update", { taskId: handle.taskId, inputResponses }, handle.signal);
      for (const k of keys) {
        handle.answered.add(k);
        delete handle.unacked[k];
      }
    } catch (e) {
      this.#emit({ type: "pollError", taskId: handle.taskId, error: e });
    } finally {
      for (const k of keys) handle.inFlight.delete(k);
      this.#kick();
    }
  }

  /**
   * Gives up on a task the client cannot serve: one `tasks/cancel` (best effort), then the call
   * rejects with `reason`.
   */
  async #abandon(handle: Handle, reason: unknown) {
    if (handle.done) return;
    const error = reason instanceof Error ? reason : new Error(String(reason));
    await this.#deliverCancel(handle);
    this.#finish(handle, error, { status: handle.status });
  }

  /** Runs the handler of every input request. */
  async #answerAll(requests: JsonObject): Promise<JsonObject> {
    const out: JsonObject = {};
    for (const [key, req] of Object.entries(requests)) {
      if (!isObject(req) || typeof req.method !== "string") throw new ProtocolError(`input request ${key} is not { method, params }`, []);
      const kind = inputKind(req.method);
      const handler = kind ? this.#handlers[kind] : undefined;
      if (!handler) throw new ProtocolError(`no handler for input request ${key} (${req.method})`, []);
      out[key] = await handler(((req.params ?? {}) as JsonObject));
    }
    return out;
  }

  /**
   * Ends the call of `handle` with `outcome` and reports it: `result` (a result to resolve with)
   * or `error` (an Error to reject with), with the task's status (`seen.status`, else the error's,
   * else the last known) and the snapshot that ended it, if any.
   */
  #finish(handle: Handle, outcome: unknown, seen: { status?: string; task?: JsonObject } = {}) {
    if (handle.done) return;
    this.#scheduler.forget(handle.taskId);
    this.#tasks.delete(handle.taskId);
    this.#push?.unfollow(handle.taskId);
    handle.settle(outcome);
    const taskId = handle.taskId;
    const status = seen.status ?? (outcome instanceof TaskError ? outcome.status : handle.status);
    const task = seen.task ? { task: seen.task } : {};
    this.#emit(outcome instanceof Error
      ? { type: "error", taskId, status, ...task, error: outcome }
      : { type: "result", taskId, status, ...task, result: outcome as JsonObject });
  }

  #emit(event: TaskEvent) {
    for (const l of this.#listeners) l(event);
  }
}

/**
 * Checks what only the client owns in a state from `serialize()`, before `restore` builds
 * anything; throws a TypeError naming the field that does not add up: the format, the version,
 * each task (a non-empty string id, once; its version; `createdAt`; `answered`). The scheduler's
 * rows are its own (`TaskScheduler.restore` checks them, times included:
 * docs/decisions/scheduler-time.md); `restore` then asks it about each listed task.
 */
function checkClientState(s: unknown): { protocolVersion: ProtocolVersion; server: string | undefined; scheduler: JsonObject; tasks: { taskId: string; version: ProtocolVersion; createdAt: string | null; answered: string[]; }[]; } {
  const fail: (field: string, why: string) => never = (field, why) => {
    throw new TypeError(`TaskClient.restore: ${field} ${why}`);
  };
  if (!isObject(s)) fail("the state", "is not an object from serialize()");
  if (s.format !== "mcp-tasks-wasm/client/1") fail("format", `is ${JSON.stringify(s.format)}, not "mcp-tasks-wasm/client/1"`);
  if (s.protocolVersion !== V25 && s.protocolVersion !== V26) fail("protocolVersion", `is ${JSON.stringify(s.protocolVersion)}, not ${V25} or ${V26}`);
  if (s.server !== undefined && typeof s.server !== "string") fail("server", "is not a string");
  if (!Array.isArray(s.tasks)) fail("tasks", "is not an array");
  if (!isObject(s.scheduler)) fail("scheduler", "is not an object");
  const seen: Set<string> = new Set();
  const tasks = s.tasks.map((t, i) => {
    const at = `tasks[${i}]`;
    if (!isObject(t)) fail(at, "is not an object");
    const taskId = t.taskId;
    if (typeof taskId !== "string" || taskId === "") fail(`${at}.taskId`, `is ${JSON.stringify(taskId)}, not a non-empty string`);
    if (seen.has(taskId)) fail(`${at}.taskId`, `${JSON.stringify(taskId)} appears twice`);
    seen.add(taskId);
    if (t.version !== V25 && t.version !== V26) fail(`${at}.version`, `is ${JSON.stringify(t.version)}, not ${V25} or ${V26}`);
    if (t.createdAt !== null && t.createdAt !== undefined && (typeof t.createdAt !== "string" || Number.isNaN(Date.parse(t.createdAt)))) {
      fail(`${at}.createdAt`, `is ${JSON.stringify(t.createdAt)}, not a timestamp or null`);
    }
    const answered = t.answered ?? [];
    if (!Array.isArray(answered) || !answered.every((k) => typeof k === "string")) fail(`${at}.answered`, "is not an array of strings");
    return {
      taskId,
      version: (t.version as ProtocolVersion),
      createdAt: typeof t.createdAt === "string" ? t.createdAt : null,
      answered: (answered as string[]),
    };
  });
  return {
    protocolVersion: (s.protocolVersion as ProtocolVersion),
    server: typeof s.server === "string" ? s.server : undefined,
    scheduler: s.scheduler,
    tasks,
  };
}

/** The bounds of one call (TaskClient's #scope). */
type CallScope = {
  signal: AbortSignal;
  expired: () => boolean;
  left: () => number | undefined;
  race: <T>(p: Promise<T>) => Promise<T>;
  onExpire: (f: () => void) => void;
  end: () => void;
};

/** What the client knows of one task it follows. */
class Handle {
  taskId: string;
  version: ProtocolVersion;
  status: string;
  statusMessage: string | undefined;
  done: boolean;
  createdAt: string | null;
  answered: Set<string>;
  inFlight: Set<string>;
  unacked: JsonObject;
  resultOpen: Promise<void> | null;
  resultTries: number;
  failingSince: number | null;
  signal: AbortSignal | undefined;
  feed: ProgressFeed;
  resolve: (v: JsonObject) => void;
  reject: (e: unknown) => void;
  promise: Promise<JsonObject>;
  constructor(taskId: string, version: ProtocolVersion) {
    this.taskId = taskId;
    this.version = version;
    this.status = "working";
    /** The latest `statusMessage` seen. */
    this.statusMessage = undefined;
    this.done = false;
    /** The task's `createdAt` as first seen: a snapshot with another one is another task. */
    this.createdAt = null;
    /** Input keys answered and acknowledged. */
    this.answered = new Set();
    /** Keys being answered now. */
    this.inFlight = new Set();
    /** Answers sent but not acknowledged yet: resent with the next update. */
    this.unacked = {};
    /** V25: the open tasks/result. */
    this.resultOpen = null;
    /** V25: tasks/result sent again after a transport failure, the task seen terminal. */
    this.resultTries = 0;
    /** When the current run of transport failures began (client clock), or null. */
    this.failingSince = null;
    /** Aborts the task's exchanges (the call's signal, its deadline). */
    this.signal = undefined;
    /** Who listens to the task's progress. */
    this.feed = new ProgressFeed();
    this.resolve = (): void => {};
    this.reject = (): void => {};
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // A task nobody follows (restored, never `follow`ed) settles on close: no unhandled rejection.
    this.promise.catch(() => {});
  }

  settle(outcome: unknown) {
    if (this.done) return;
    this.done = true;
    if (outcome instanceof Error) this.reject(outcome);
    else this.resolve((outcome as JsonObject));
  }
}

/** The listeners of one call's progress. */
class ProgressFeed {
  /** The task's id once there is one ("" before). */
  taskId = "";
  listeners: Set<(event: ProgressEvent) => void> = new Set();
  /** The task's last known status (`working` before there is one). */
  status: () => string = () => "working";
  constructor(first?: (event: ProgressEvent) => void) {
    if (first !== undefined) {
      if (typeof first !== "function") throw new TypeError("onProgress must be a function");
      this.listeners.add(first);
    }
  }

  emit(event: ProgressEvent) {
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch {
        // A listener's failure is its own: the task and the other listeners go on.
      }
    }
  }
}

/** A fresh progress token: unique on a session shared by several clients. */
function progressToken(): string {
  const crypto = (globalThis as { crypto?: { randomUUID?: () => string; }; }).crypto;
  const unique = typeof crypto?.randomUUID === "function" ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return `mcp-tasks-wasm/progress/${unique}`;
}

/**
 * One tool call, from `TaskClient.startTool` (or a task picked up by `TaskClient.resume`): its
 * task's id at once, its status on demand, its outcome, its cancel and its progress. A
 * synchronous answer gives a handle already completed (`taskId` null).
 */
class ToolTask<TResult = CallToolResult> {
  /** The task's id; null when the server answered the call synchronously (no task). */
  readonly taskId: string | null;
  #feed: ProgressFeed;
  #ops: { status: () => Promise<JsonObject>; settled: Promise<JsonObject>; cancel: (reason: unknown) => Promise<void>; };
  #done = false;

  constructor(taskId: string | null, feed: ProgressFeed, ops: { status: () => Promise<JsonObject>; settled: Promise<JsonObject>; cancel: (reason: unknown) => Promise<void>; }) {
    this.taskId = taskId;
    this.#feed = feed;
    this.#ops = ops;
    ops.settled.then(() => (this.#done = true), () => (this.#done = true));
  }

  /** Whether the outcome is in (`result()` settles at once). */
  get done(): boolean {
    return this.#done;
  }

  /**
   * The task now: one `tasks/get` (its `status`, `statusMessage`, …; a change counts as a poll's).
   * A synchronous call: `{ status: "completed" }`, nothing sent.
   */
  status(): Promise<JsonObject> {
    return this.#ops.status();
  }

  /**
   * Waits for the final `CallToolResult`, with `callTool`'s errors (TaskFailedError,
   * TaskCancelledError, TaskExpiredError, ProtocolError, …). Every call gives the same outcome.
   */
  result(): Promise<TResult> {
    return this.#ops.settled as Promise<TResult>;
  }

  /** `result()` (ext-tasks' name). */
  settle(): Promise<TResult> {
    return this.result();
  }

  /**
   * Cancels the task (`tasks/cancel`, sent again on transport failures): resolves once that is
   * done; `result()` then rejects with a TaskCancelledError (`delivered: false` when the cancel
   * never reached the server), `cause` being `reason`. Nothing for a task already ended.
   */
  async cancel(reason?: unknown): Promise<void> {
    if (this.#done) return;
    await this.#ops.cancel(reason);
  }

  /** Calls `listener` with each ProgressEvent from now on; returns what stops it. */
  onProgress(listener: (event: ProgressEvent) => void): () => void {
    if (typeof listener !== "function") throw new TypeError("ToolTask.onProgress(listener): listener must be a function");
    this.#feed.listeners.add(listener);
    return () => this.#feed.listeners.delete(listener);
  }

  /** The ProgressEvents from now on, until the task ends. */
  async *progress(): AsyncGenerator<ProgressEvent> {
    const queue: ProgressEvent[] = [];
    let wake: (() => void) | null = null;
    const stop = this.onProgress((e) => {
      queue.push(e);
      wake?.();
    });
    let ended = this.#done;
    const end = () => {
      ended = true;
      wake?.();
    };
    this.#ops.settled.then(end, end);
    try {
      for (;;) {
        const next = queue.shift();
        if (next !== undefined) {
          yield next;
          continue;
        }
        if (ended) return;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    } finally {
      stop();
    }
  }
}

export type { SdkClientLike };

export type RequestViaOptions = {
  /**
   * The SDK's request schemas (`ElicitRequestSchema`, `CreateMessageRequestSchema`,
   * `ListRootsRequestSchema`) of the kinds the TaskClient's `handlers` should answer when the
   * server sends them (2025-11-25: while a task waits, on the `tasks/result` stream): each kind
   * with a handler is registered with `sdkClient.setRequestHandler` (replacing any other; the SDK
   * client must declare the capability, e.g. `capabilities: { elicitation: {} }`). SDK 2.x: the
   * kinds given are registered by method name (`setRequestHandler("elicitation/create", …)`).
   */
  inputRequests?: { elicitation?: unknown; sampling?: unknown; roots?: unknown; };
  /**
   * SDK notification schemas (e.g. `TaskStatusNotificationSchema`,
   * `ToolListChangedNotificationSchema`) whose notifications are fed to the TaskClient's `notify()`
   * (`setNotificationHandler`, replacing any other). SDK 2.x: not needed (every notification
   * reaches the TaskClient, the SDK's handlers too).
   */
  notifications?: unknown[];
};

/**
 * A TaskClient `request` that sends through an official SDK `Client`. SDK 1.x: through
 * `request({ method, params }, schema)`: pass the SDK's `ResultSchema`, which keeps every member
 * of the answer (JSON-RPC errors arrive as the SDK's `McpError`: `code`, `message`, `data`).
 * SDK 2.x: as `TaskClient.over` does (on the client's transport, the answers read before the SDK
 * parses them, which would reject a task); the schemas are not needed there and input handlers
 * are registered by method name. It carries the SDK session to the TaskClient: the version
 * negotiated and the server's capabilities (so `taskSupport` decides augmentation). Connect the
 * SDK client before the first call. The schemas are passed in because this package does not
 * depend on the SDK. `TaskClient.over(sdkClient)` is the shorter form for either SDK.
 */
function requestVia(sdkClient: SdkClientLike, resultSchema: unknown, options: RequestViaOptions = {}): RequestFn {
  if (isSdkV2(sdkClient)) return sdkRequest(sdkClient, options.inputRequests ?? {});
  const request: RequestFn = async (method, params) => (await sdkClient.request({ method, params }, resultSchema) as JsonObject);
  request.session = {
    protocolVersion: () => {
      const transport = (sdkClient as { transport?: unknown; }).transport;
      if (isObject(transport) && typeof transport.protocolVersion === "string") return transport.protocolVersion;
      // SDK 1.x negotiates with `initialize` only: once connected, it speaks a 2025 version.
      return sdkClient.getServerCapabilities?.() === undefined ? undefined : V25;
    },
    serverCapabilities: () => sdkClient.getServerCapabilities?.(),
    attach: (client, handlers) => {
      const schemas = options.inputRequests ?? {};
      for (const kind of (["elicitation", "sampling", "roots"] as const)) {
        const schema = schemas[kind];
        if (schema === undefined || !handlers[kind]) continue;
        if (typeof sdkClient.setRequestHandler !== "function") throw new TypeError("requestVia: inputRequests needs an SDK client with setRequestHandler");
        sdkClient.setRequestHandler(schema, (req) => client.handleRequest(req));
      }
      for (const schema of options.notifications ?? []) {
        if (typeof sdkClient.setNotificationHandler !== "function") throw new TypeError("requestVia: notifications needs an SDK client with setNotificationHandler");
        sdkClient.setNotificationHandler(schema, (n) => client.notify(n));
      }
    },
  };
  return request;
}

/** The input kind of a request method, or null. */
function inputKind(method: string): "elicitation" | "sampling" | "roots" | null {
  if (method === "elicitation/create") return "elicitation";
  if (method === "sampling/createMessage") return "sampling";
  if (method === "roots/list") return "roots";
  return null;
}

/**
 * 2026-07-28: the client capabilities of every request's `_meta` (§D 100): the extension, and
 * the kinds of input the handlers answer.
 */
function v26Capabilities(extra: JsonObject, handlers: InputHandlers): JsonObject {
  const extensions = isObject(extra.extensions) ? extra.extensions : {};
  const caps: JsonObject = { ...extra, extensions: { ...extensions, [EXT]: {} } };
  if (handlers.elicitation) caps.elicitation = caps.elicitation ?? {};
  if (handlers.sampling) caps.sampling = caps.sampling ?? {};
  if (handlers.roots) caps.roots = caps.roots ?? {};
  return caps;
}

/**
 * 2025-11-25: the client capabilities of `initialize` (§D 46): `tasks` (we make task-augmented
 * requests; no `tasks.requests` unless `receiver: { tasks: true }` adds them (withReceiver):
 * otherwise a server's elicitation or sampling request is answered directly, its `params.task`
 * ignored as §A.e requires of a receiver that did not declare it), and the kinds of input the
 * handlers answer.
 * The 2026 `extensions` are left out (they enable nothing under 2025-11-25).
 */
function v25Capabilities(extra: JsonObject, handlers: InputHandlers): JsonObject {
  const { extensions: _ignored, ...rest } = extra;
  const caps: JsonObject = { ...rest, tasks: isObject(rest.tasks) ? rest.tasks : {} };
  if (handlers.elicitation) caps.elicitation = caps.elicitation ?? {};
  if (handlers.sampling) caps.sampling = caps.sampling ?? {};
  if (handlers.roots) caps.roots = caps.roots ?? {};
  return caps;
}

function abortError(message: string) {
  const e = new Error(message);
  e.name = "AbortError";
  return e;
}

export { TaskClient, ToolTask, TaskError, TaskFailedError, TaskCancelledError, TaskExpiredError, ProtocolError, TaskSchedulerError, requestVia };
