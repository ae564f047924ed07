// TaskHost: the asynchronous part of a task server, on top of TaskServer (the Rust core).
//
// TaskServer answers every message synchronously and runs nothing; what is left for a host is
// running tools in the background, waiting for input, blocking V25 `tasks/result` until the task
// ends, and stopping work when a task is cancelled. TaskHost does exactly that and holds no task
// rule of its own: every state change and every response comes from TaskServer.
//
// Input (`ctx.requestInput`) works in both versions, for tasks and for synchronous calls:
//   V26 task      input requests on the task (`input_required`), answered by `tasks/update`
//   V26 sync      an InputRequiredResult (MRTR, SEP-2322) with a signed `requestState`; the retry
//                 carrying `inputResponses` runs the handler again and requestInput resolves
//   V25 task      real requests to the client with related-task `_meta` (§A.g, §D 33), through
//                 the transport's `channel.sendRequest`; the task is `input_required` meanwhile
//   V25 sync      the same requests, sent on the call's own response stream
// TaskHost stays transport-agnostic: the transport (McpHttpServer, or yours) passes the channel.
//
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).
import { TaskServer } from "./store.js";
import { resultTooLarge } from "./errors.js";
export type SharedTaskServer = import("./shared.js").SharedTaskServer;
export type RerunMemo = import("./shared.js").RerunMemo;
/**
 * A count a host method answers: a number over a TaskServer, a promise of it over a
 * SharedTaskServer (whose storage is asynchronous).
 */
export type Counted<S> = S extends SharedTaskServer ? Promise<number> : number;
import { MrtrStates } from "./mrtr.js";
import { INTERNALS } from "./internals.js";
import { V25, V26, RELATED_TASK, META_CLIENT_CAPABILITIES as CLIENT_CAPABILITIES, TASK_LIMIT as TASK_LIMIT_CODE, INTERNAL_ERROR } from "./protocol.js";
import { ToolArguments, invalidArgumentsResult } from "./tool-schema.js";
import type { StandardSchemaOutput, StandardSchemaV1, ToolInputSchema, ToolSchemaLimits } from "./tool-schema.js";
import type { CallToolResult, HandleContext, JsonRpcAnswer, ResultOfMethod } from "./types.js";

export type ServerContext = import("./mcp_tasks_wasm.js").ServerContext;

export type TaskStoreOptions = import("./mcp_tasks_wasm.js").TaskStoreOptions;

export type TaskSupport = import("./mcp_tasks_wasm.js").V25TaskSupport;

export type JsonRpcError = import("./mcp_tasks_wasm.js").JsonRpcError;

export type PendingResult = Extract<import("./mcp_tasks_wasm.js").HandleOutcome, { kind: "pending"; }>;

export type ToolOutcome = { result: Record<string, unknown>; } | { error: JsonRpcError; };

/**
 * A blocked V25 `tasks/result` request: answered once (`done`), counted in its session's
 * `maxWaitingResultsPerSession` until then.
 */
export type ResultWaiter = { pending: PendingResult; resolve: (response: JsonObject) => void; session: string | null; done: boolean; settling?: Promise<boolean>; };

export type JsonObject = Record<string, unknown>;

export type InputRequests = import("./mcp_tasks_wasm.js").V26InputRequests;

export type StoreTask = import("./mcp_tasks_wasm.js").StoreTask;

/** What authentication established about a request (the SDK's `AuthInfo`: `clientId`, `subject`). */
export type RequestAuth = import("./http-server.js").RequestAuth;

/**
 * The work of one task: `gone` once the store no longer has the task (expired, purged) and the work
 * was aborted; `session` the session that created it (`null`: none).
 */
export type RunningTask = { abort: AbortController; done: Promise<void>; inputWaiters: Set<() => void>; asking: number; gone: boolean; closed: boolean; session: string | null; rerunnable?: boolean; takenElsewhere?: boolean; };

/** The default of `maxLiveTasksWithoutSession`. */
const DEFAULT_MAX_LIVE_WITHOUT_SESSION = 10_000;
/** The default of `maxLiveTasksPerRequestor`. */
const DEFAULT_MAX_LIVE_PER_REQUESTOR = 1_000;
/** The default of `maxWaitingResultsPerSession`. */
const DEFAULT_MAX_WAITING_RESULTS_PER_SESSION = 1_000;
/** The error a task fails with when the replica running it shuts down (`close`) over a shared storage. */
const SHUT_DOWN = Object.freeze({ code: INTERNAL_ERROR, message: "Internal error: the replica running this task shut down before it finished" });

/**
 * One request to the client: `elicitation/create`, `sampling/createMessage` or `roots/list`.
 */
export type ClientRequest = { method: string; params?: JsonObject; };

/**
 * How the transport reaches the client of one request (the third argument of `handle`).
 */
export type ClientChannel = {
  /**
   * 2025-11-25: sends one JSON-RPC request to the client and resolves with its result (rejects with
   * the JSON-RPC error `{ code, message, data? }` the client answered). With `taskId`, the request
   * carries related-task `_meta` already and belongs on a stream of the task's session (typically
   * the `tasks/result` stream, §A.g); with `taskId: null` it belongs on the response stream of the
   * call itself. `signal` aborts when the work no longer waits (task cancelled, host closed): drop
   * the request. Without it, requestInput under 2025-11-25 rejects.
   */
  sendRequest?: (request: ClientRequest, info: { taskId: string | null; signal: AbortSignal; }) => Promise<JsonObject>;
  /**
   * Sends one JSON-RPC notification to the client (`notifications/progress`): with `taskId: null`
   * on the call's own response stream (both versions); with a `taskId` (2025-11-25 only) where
   * `sendRequest` would send a request, a stream of the task's session. With no stream open the
   * transport may keep the task's last one until one opens, or drop it. Without it,
   * `ToolContext.progress` sends nothing.
   */
  sendNotification?: (notification: ClientRequest, info: { taskId: string | null; }) => void;
  /**
   * 2025-11-25: the capabilities the client declared at `initialize`; requestInput asks only for
   * what they declare (elicitation, sampling, roots).
   */
  clientCapabilities?: JsonObject;
  /** Aborts the work of a synchronous call (the client went away). */
  signal?: AbortSignal;
  /**
   * Who is calling (a principal, an address: McpHttpServer's `requestor` option); `null` or
   * absent: unknown. The live tasks of each requestor without a session are capped
   * (`maxLiveTasksPerRequestor`).
   */
  requestor?: string | null;
  /**
   * What authentication established about the request (the SDK's `AuthInfo`: McpHttpServer
   * passes `req.auth`). The owner of the tasks the request creates and sees is derived from it
   * (TaskHost's `owner` option; by default its client id and subject).
   */
  auth?: RequestAuth | null;
  /**
   * The owner of the request, given as is (wins over `auth`): tasks it creates are bound to it,
   * tasks of another owner answer as unknown ids. `null`: none.
   */
  owner?: string | null;
};

/**
 * What a tool's handler receives besides its arguments.
 */
export type ToolContext = {
  /**
   * Aborted when the task is cancelled (`tasks/cancel`) or the host is closed; the handler should
   * stop. Whatever it returns after that is discarded.
   */
  signal: AbortSignal;
  /** The task running this call; `null` when it runs synchronously. */
  taskId: string | null;
  /** The context of the `tools/call` request. */
  context: ServerContext;
  /** The `tools/call` request. */
  request: JsonObject;
  /**
   * Asks the client (key → `{ method, params }`) and resolves with the responses by key:
   * - 2026-07-28 task: the task becomes `input_required` with these input requests; resolves once
   * the client answered every key through `tasks/update`.
   * - 2026-07-28 synchronous call (and `prepare`): the call is answered with an InputRequiredResult
   * (`resultType: "input_required"`, a signed `requestState`); the retry carrying `inputResponses`
   * runs the handler again from the start, and this time requestInput resolves. Everything before
   * it runs once per round: keep it side-effect free.
   * - 2025-11-25 task: sends each request to the client with related-task `_meta` (§D 33); the task
   * is `input_required` until every answer is in (`message` is its status message).
   * - 2025-11-25 synchronous call (and `prepare`): sends them on the call's response stream.
   * Rejects when the task is cancelled or the call aborted, with a JSON-RPC error the client
   * answered (2025-11-25), and at once for a capability (elicitation, sampling, roots) the client
   * did not declare (§D 98: in the request's `_meta` for 2026-07-28, at `initialize` for
   * 2025-11-25) or when 2025-11-25 has no channel to the client.
   */
  requestInput: (inputRequests: InputRequests, message?: string) => Promise<Record<string, unknown>>;
  /** Sets the task's `statusMessage` (nothing without a task). */
  setStatusMessage: (message: string) => void;
  /**
   * Sends `notifications/progress` for the call's `_meta.progressToken` (MCP progress): for a
   * synchronous call of either version on its own response stream (HTTP: the POST's answer turns
   * into an SSE stream; stdio: the pipe); under 2025-11-25 for a task while it runs (the token
   * stays valid for the task's life, §A.i; the notification carries related-task `_meta`, §D 33).
   * A no-op for a 2026-07-28 task (progress is not supported for tasks, §B.h: use
   * `setStatusMessage`, seen in `tasks/get` and `notifications/tasks`), when the request has no
   * token, when the transport has no stream for it (`ClientChannel.sendNotification`), or when the
   * value is not a finite number above the last one sent (progress must increase).
   */
  progress: (progress: number, total?: number, message?: string) => void;
  /** What the tool's `prepare` returned (`undefined` without one). */
  prepared: unknown;
  /**
   * What the client declared it can do (`elicitation`, `sampling`, `roots`, …): 2026-07-28, the
   * request's own `_meta`; 2025-11-25, its `initialize` (from the channel; `null` when the
   * transport did not say).
   */
  clientCapabilities: JsonObject | null;
};

/**
 * A tool's work: returns a `CallToolResult` (`isError: true` for a tool execution error) or
 * throws. A thrown object with an integer `code` and a string `message` (such as the SDK's
 * `McpError`) is a JSON-RPC error (V25 and V26: the task `failed`); any other throw becomes a
 * tool execution error result (`isError: true`), as the official SDKs do.
 * @param args The call's `arguments` (`{}` when absent).
 */
export type ToolHandler = (args: JsonObject, ctx: ToolContext) => JsonObject | Promise<JsonObject>;
/** A tool handler as `tool()` types it: its arguments' type, a `CallToolResult`. */
export type TypedToolHandler<TArgs extends object = JsonObject> = (args: TArgs, ctx: ToolContext) => CallToolResult | Promise<CallToolResult>;

export type ToolOptions = {
  /**
   * V25: the tool's `execution.taskSupport` (default `"optional"`). V26: whether the server runs
   * calls of it as tasks ("forbidden": never, "optional": when the request declares the extension,
   * "required": refuses other calls).
   */
  taskSupport?: TaskSupport;
  /**
   * Runs on the `tools/call` itself, before the call becomes a task: the place for input the work
   * needs up front (`ctx.requestInput`: MRTR rounds under 2026-07-28, finished before the task
   * exists, §D 83; requests on the call's stream under 2025-11-25). What it returns reaches the
   * handler as `ctx.prepared`. A call that will be refused (-32021, §D 78; -32601, §D 41) is
   * refused before it runs. A throw ends the call as the handler's would (synchronously).
   */
  prepare?: (args: JsonObject, ctx: ToolContext) => unknown;
  /**
   * The `pollInterval`/`pollIntervalMs` (ms) suggested to pollers of this tool's tasks, over the
   * store's `pollIntervalMs`. A non-negative integer.
   */
  pollIntervalMs?: number;
  /**
   * The TTL bounds of this tool's tasks (ms), over the store's: `default` for a task whose
   * creator asked for none (every 2026-07-28 task), `max` the largest granted (a 2025-11-25
   * `params.task.ttl` above it is lowered to it). Positive integers, `default` ≤ `max`.
   */
  ttlMs?: { default?: number; max?: number; };
  /**
   * The tool's arguments: a JSON Schema object (`"type": "object"` at its root; default
   * `{ type: "object" }`) or a Standard Schema (zod 4 `z.object({...})`, which also types the
   * handler's `args`). Compiled at registration (a schema that cannot be used is a TypeError);
   * every call's `arguments` are checked before `prepare`, the handler or a task, both eras.
   */
  inputSchema?: ToolInputSchema;
  /**
   * The tool is safe to run again (idempotent): over a SharedTaskServer, when the replica running
   * one of its tasks stops (its lease runs out, or it closes), another replica that has the tool
   * takes the lease (exactly one does) and runs the handler again with the call's arguments, the
   * task `working` with statusMessage "re-running on another replica (attempt N of M)". At most
   * `maxAttempts` runs in all (default 3, 1 to 100); after the last the task fails as any task
   * whose replica stopped, the error saying the runs are exhausted (`data: { attempts,
   * maxAttempts }`). A re-run has no channel to a 2025-11-25 client (no progress, no input
   * requests to it). No effect over a TaskServer (one process: nowhere to run again).
   */
  rerun?: { maxAttempts?: number; };
};

/** The default of `ToolOptions.rerun.maxAttempts`. */
const DEFAULT_RERUN_ATTEMPTS = 3;

/** Options of a TaskHost over `S` (a TaskServer by default, or a SharedTaskServer). */
export type TaskHostOptions<S extends TaskServer | SharedTaskServer = TaskServer> = {
  /**
   * The TaskServer to use (default: a new one with `store`). A SharedTaskServer (tasks in a storage
   * shared by replicas) makes the host follow its change feed: a cancel made on another replica
   * aborts the work running here, input answered there wakes it, and `watch` listeners hear of
   * every replica's changes.
   */
  server?: S;
  /** Options of the new TaskServer's store. */
  store?: TaskStoreOptions;
  /** The clock, Unix ms (default `Date.now`). */
  now?: () => number;
  /**
   * Called when storing a finished task's outcome throws, or a `watch` listener throws (default:
   * `console.error`).
   */
  onError?: (error: unknown, taskId: string) => void;
  /**
   * At most this many tasks of callers without a session (`ctx.session` absent: 2026-07-28
   * stateless requests, a stdio server) run at once, all such callers together (§D 42;
   * `maxLiveTasksPerSession` bounds each session). Past it a call that would become a task is
   * refused like the session cap: JSON-RPC error -32010 with `data.limit` (synchronous calls still
   * run). Default 10,000; `Infinity` lifts it.
   */
  maxLiveTasksWithoutSession?: number;
  /**
   * At most this many live tasks of one requestor without a session (`channel.requestor` of the
   * call: McpHttpServer passes its `requestor` option's answer, by default the authenticated
   * principal, else the peer's address), besides the shared `maxLiveTasksWithoutSession`, so
   * that one caller cannot fill the shared bucket. Past it -32010 with `data: { limit, cap:
   * "maxLiveTasksPerRequestor" }`. Calls with no requestor are bounded by the shared cap only.
   * Default 1,000; `Infinity` lifts it.
   */
  maxLiveTasksPerRequestor?: number;
  /**
   * At most this many 2025-11-25 `tasks/result` requests of one session (of all callers without a
   * session, together) block at once, waiting for their tasks to end. Past it one more is
   * answered at once with JSON-RPC error -32010 with `data.limit` (the client may poll
   * `tasks/get`, or retry once one of its requests was answered). A request whose client went
   * away (`channel.signal` aborted) stops counting at once. Default 1,000; `Infinity` lifts it.
   */
  maxWaitingResultsPerSession?: number;
  /**
   * The MRTR `requestState` signing: its HMAC-SHA-256 key (give every instance behind one load
   * balancer the same; default a random key per host), how long a state is accepted (default 10
   * min) and how many taken states are remembered (`maxSpent`, default 100,000: a state is
   * accepted once, on this host; see MrtrStates).
   */
  requestState?: { key?: import("./mrtr.js").WebCryptoKey | Uint8Array; ttlMs?: number; maxSpent?: number; };
  /**
   * The owner of a request from its auth info (`ClientChannel.auth`; `null` without one): tasks
   * are bound to the owner of the request that created them, and a request of another owner (or
   * of none) gets -32602 "Task not found" for them, as for an unknown id, in both eras (§D 38).
   * A `ClientChannel.owner` given wins. Default: the authenticated principal, its client id and
   * subject (`["<clientId>","<subject>"]`, `null` members when absent), or none without auth.
   * Return `null` for none (tasks then bound to the session only, as without auth).
   */
  owner?: (auth: RequestAuth | null) => string | null;
} & ToolSchemaLimits;

/**
 * The default owner: the authenticated principal of `auth` (client id and subject, the subject
 * directly or in `extra`), `null` when it names neither. JSON text, so that two principals never
 * share an owner; U+FDD0 escaped (the core refuses it in a name, HACKING.md).
 */
export function principalOf(auth: RequestAuth | null | undefined): string | null {
  const { clientId, subject } = authNames(auth);
  if (clientId === null && subject === null) return null;
  return JSON.stringify([clientId, subject]).replace(/\uFDD0/g, "\\ufdd0");
}

/**
 * The client id and the subject (given directly or in `extra`, as the SDK's `AuthInfo` carries
 * it) that `auth` names; `null` for one absent or empty. The one reading of auth info: owners
 * (`principalOf`) and McpHttpServer's default requestor.
 */
export function authNames(auth: RequestAuth | null | undefined): { clientId: string | null; subject: string | null; } {
  if (typeof auth !== "object" || auth === null) return { clientId: null, subject: null };
  const clientId = typeof auth.clientId === "string" && auth.clientId !== "" ? auth.clientId : null;
  const extra = typeof auth.extra === "object" && auth.extra !== null ? auth.extra : {};
  const given = typeof auth.subject === "string" ? auth.subject : extra.subject;
  return { clientId, subject: typeof given === "string" && given !== "" ? given : null };
}

/** A tool's task settings (`ToolOptions.pollIntervalMs`, `ttlMs`) as the core reads them; throws a TypeError. */
function taskSettingsOf(name: string, options: ToolOptions): { pollIntervalMs?: number; defaultTtlMs?: number; maxTtlMs?: number; } | null {
  const settings: { pollIntervalMs?: number; defaultTtlMs?: number; maxTtlMs?: number; } = {};
  const poll = options.pollIntervalMs;
  if (poll !== undefined) {
    if (!(Number.isSafeInteger(poll) && poll >= 0)) throw new TypeError(`tool ${name}: pollIntervalMs must be a non-negative integer (got ${String(poll)})`);
    settings.pollIntervalMs = poll;
  }
  const ttl = options.ttlMs;
  if (ttl !== undefined) {
    if (typeof ttl !== "object" || ttl === null) throw new TypeError(`tool ${name}: ttlMs must be { default?, max? } (got ${String(ttl)})`);
    for (const key of ["default", "max"] as const) {
      const v = ttl[key];
      if (v !== undefined && !(Number.isSafeInteger(v) && v > 0)) throw new TypeError(`tool ${name}: ttlMs.${key} must be a positive integer (got ${String(v)})`);
    }
    if (ttl.default !== undefined && ttl.max !== undefined && ttl.default > ttl.max) {
      throw new TypeError(`tool ${name}: ttlMs.default (${ttl.default}) must not exceed ttlMs.max (${ttl.max})`);
    }
    if (ttl.default !== undefined) settings.defaultTtlMs = ttl.default;
    if (ttl.max !== undefined) settings.maxTtlMs = ttl.max;
  }
  return Object.keys(settings).length === 0 ? null : settings;
}

function isJsonRpcError(e: unknown): e is { code: number; message: string; data?: unknown; } {
  return (
    typeof e === "object" &&
    e !== null &&
    Number.isInteger((e as { code?: unknown }).code) &&
    typeof ((e as { message?: unknown }).message) === "string"
  );
}

/** A TaskHost option that must be a positive integer. */
function positive(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1 || value > 0xffffffff) {
    throw new TypeError(`${name} must be a positive integer (got ${String(value)})`);
  }
  return value;
}

/**
 * The outcome a throw ends a call with: a JSON-RPC error for a thrown `{ code, message }`, else
 * a tool execution error result.
 */
function thrownOutcome(e: unknown): ToolOutcome {
  if (isJsonRpcError(e)) {
    const error: { code: number; message: string; data?: unknown; } = { code: e.code, message: e.message };
    if (e.data !== undefined) error.data = e.data;
    return { error };
  }
  const text = e instanceof Error ? e.message : String(e);
  return { result: { content: [{ type: "text", text }], isError: true } };
}

/** Runs `handler` to a `ToolOutcome` (never throws). */
async function runTool(handler: ToolHandler, args: JsonObject, ctx: ToolContext): Promise<ToolOutcome> {
  try {
    const result = await handler(args, ctx);
    return { result: result ?? { content: [] } };
  } catch (e) {
    return thrownOutcome(e);
  }
}

/** Rejects with `signal.reason` once `signal` aborts, else settles as `promise`. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/** The client capabilities a call's ToolContext shows. */
function capabilitiesOf(request: JsonObject, ctx: ServerContext, channel: ClientChannel): JsonObject | null {
  if (ctx.protocolVersion !== V26) return channel.clientCapabilities ?? null;
  const params = (request.params as { _meta?: JsonObject } | undefined);
  const caps = params?._meta?.[CLIENT_CAPABILITIES];
  return typeof caps === "object" && caps !== null ? (caps as JsonObject) : {};
}

/** `ToolContext.progress` of one call: `notifications/progress` for its token, increasing only. */
function progressOf(request: JsonObject, ctx: ServerContext, channel: ClientChannel, taskId: string | null, signal: AbortSignal, ended: () => boolean): ToolContext["progress"] {
  const meta = (request.params as { _meta?: JsonObject } | undefined)?._meta;
  const token = meta?.progressToken;
  const send = channel.sendNotification;
  const valid = (typeof token === "string" || (typeof token === "number" && Number.isInteger(token)));
  // 2026-07-28: on a synchronous call's own response stream only; progress is not supported for
  // tasks (§B.h, §D 96), whose clients follow `statusMessage` (setStatusMessage) instead.
  if ((ctx.protocolVersion === V26 && taskId !== null) || !valid || send === undefined) return () => {};
  let last = -Infinity;
  return (progress, total, message) => {
    // Work that was stopped or has answered reports nothing more.
    if (signal.aborted || ended()) return;
    if (typeof progress !== "number" || !Number.isFinite(progress) || progress <= last) return;
    last = progress;
    const params: JsonObject = { progressToken: token, progress };
    if (typeof total === "number" && Number.isFinite(total)) params.total = total;
    if (typeof message === "string") params.message = message;
    // §D 33: a notification about a task carries its id.
    if (taskId !== null) params._meta = { [RELATED_TASK]: { taskId } };
    send({ method: "notifications/progress", params }, { taskId });
  };
}

/** Whether `e` is the store's "no such task" (expired, purged). */
function isNotFound(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { kind?: unknown }).kind === "not_found";
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * What a 2026-07-28 synchronous call gathered across MRTR rounds: the verified answers, and the
 * requests still to ask (set when requestInput found keys unanswered).
 */
export type Rounds = { answers: Record<string, unknown>; pending: InputRequests | null; };

/** Thrown by requestInput in a 2026-07-28 synchronous call: the call answers InputRequiredResult. */
class InputRequired extends Error {
  name: string;
  constructor() {
    super("input required: this call is answered with an InputRequiredResult and retried with the answers");
    this.name = "InputRequired";
  }
}

/** The outcome of a tool whose result could not be read (the bindings threw a TypeError). */
function unreadable(e: unknown): ToolOutcome {
  const why = e instanceof Error ? e.message : String(e);
  return { error: { code: -32603, message: `Internal error: the tool returned an unreadable result (${why})` } };
}

/**
 * @template [S=TaskServer] The server: TaskServer (tasks in this
 *   process) or SharedTaskServer (tasks in a storage shared by replicas).
 */
class TaskHost<S extends TaskServer | SharedTaskServer = TaskServer> {
  readonly server: S;
  readonly now: () => number;
  #onError: (error: unknown, taskId: string) => void;
  #tools: Map<string, { options: ToolOptions, handler: ToolHandler, task: ServerContext["task"] | null, args: ToolArguments }>;
  /** Bounds of tool schemas and argument checks (`maxInputSchemaNodes`, `maxArgumentCheckSteps`). */
  #schemaLimits: ToolSchemaLimits;
  #running: Map<string, RunningTask>;
  #waiting: Map<string, Set<ResultWaiter>>;
  #waitingBySession: Map<string | null, number>;
  #maxWaitingResultsPerSession: number;
  #states: MrtrStates;
  #watchers: Set<(task: StoreTask) => void>;
  #interest: Map<(task: StoreTask) => void, (taskId: string) => boolean>;
  #maxLiveTasksWithoutSession: number;
  #sessionless: Set<string>;
  #maxLiveTasksPerRequestor: number;
  /** The running tasks without a session of each requestor, and each such task's requestor. */
  #requestorTasks: Map<string, Set<string>>;
  #taskRequestor: Map<string, string>;
  #shown: Map<string, string>;
  #unfollow: (() => void) | null;
  #ownerHook: ((auth: RequestAuth | null) => string | null) | null;
  constructor(options: TaskHostOptions<S> = {}) {
    /** The TaskServer every request goes through. */
    this.server = options.server ?? (new TaskServer(options.store) as S);
    this.now = options.now ?? Date.now;
    this.#onError = options.onError ?? ((error, taskId) => console.error(`task ${taskId}:`, error));
    this.#tools = new Map();
    this.#schemaLimits = {};
    if (options.maxInputSchemaNodes !== undefined) this.#schemaLimits.maxInputSchemaNodes = positive("maxInputSchemaNodes", options.maxInputSchemaNodes);
    if (options.maxArgumentCheckSteps !== undefined) this.#schemaLimits.maxArgumentCheckSteps = positive("maxArgumentCheckSteps", options.maxArgumentCheckSteps);
    /** Running task work by task id. */
    this.#running = new Map();
    /** Blocked V25 `tasks/result` requests by task id. */
    this.#waiting = new Map();
    /** How many of them each session has (`null`: callers without a session). */
    this.#waitingBySession = new Map();
    const waitCap = options.maxWaitingResultsPerSession ?? DEFAULT_MAX_WAITING_RESULTS_PER_SESSION;
    if (!(waitCap === Infinity || (Number.isSafeInteger(waitCap) && waitCap >= 0))) {
      throw new TypeError(`maxWaitingResultsPerSession must be a non-negative integer or Infinity (got ${String(waitCap)})`);
    }
    /** The cap on blocked `tasks/result` requests per session. */
    this.#maxWaitingResultsPerSession = waitCap;
    /** MRTR `requestState` signing. */
    this.#states = new MrtrStates(options.requestState);
    this.#watchers = new Set();
    /** What each watcher wants to hear of (absent: everything). */
    this.#interest = new Map();
    const cap = options.maxLiveTasksWithoutSession ?? DEFAULT_MAX_LIVE_WITHOUT_SESSION;
    if (!(cap === Infinity || (Number.isSafeInteger(cap) && cap >= 0))) {
      throw new TypeError(`maxLiveTasksWithoutSession must be a non-negative integer or Infinity (got ${String(cap)})`);
    }
    /** The cap on live tasks of callers without a session (all together). */
    this.#maxLiveTasksWithoutSession = cap;
    /** Ids of the running tasks of callers without a session, not aborted. */
    this.#sessionless = new Set();
    const perRequestor = options.maxLiveTasksPerRequestor ?? DEFAULT_MAX_LIVE_PER_REQUESTOR;
    if (!(perRequestor === Infinity || (Number.isSafeInteger(perRequestor) && perRequestor >= 0))) {
      throw new TypeError(`maxLiveTasksPerRequestor must be a non-negative integer or Infinity (got ${String(perRequestor)})`);
    }
    this.#maxLiveTasksPerRequestor = perRequestor;
    this.#requestorTasks = new Map();
    this.#taskRequestor = new Map();
    /** The last task each watcher call showed (shared servers: the feed repeats). */
    this.#shown = new Map();
    /** Stops following the shared server's change feed (`null`: not shared). */
    this.#unfollow = null;
    if (options.owner !== undefined && typeof options.owner !== "function") throw new TypeError("owner must be a function (auth) => string | null");
    /** The `owner` option (`null`: the default, `principalOf`). */
    this.#ownerHook = options.owner ?? null;
    const server = (this.server as TaskServer | SharedTaskServer);
    if ("watchChanges" in server) {
      this.#unfollow = server.watchChanges((taskId, version) => {
        this.#heard(taskId, version).catch((e) => this.#report(e, taskId));
      });
      server[INTERNALS]().rerunner = {
        has: (tool) => this.#tools.get(tool)?.options.rerun !== undefined,
        start: (taskId, memo) => this.#rerun(taskId, memo),
        lost: (taskId) => {
          const run = this.#running.get(taskId);
          if (run === undefined) return;
          run.takenElsewhere = true;
          this.#stop(taskId, "re-run on another replica");
        },
      };
    }
  }

  /** Whether the tasks live in a storage shared with other replicas. */
  get #shared() {
    return this.#unfollow !== null;
  }

  /**
   * A write to `taskId` by any replica (the shared server's change feed): stops its work here
   * when it ended elsewhere (cancelled, failed on a lost lease, purged), wakes the work waiting
   * for input, answers blocked `tasks/result` requests, tells the watchers.
   */
  async #heard(taskId: string, version?: number) {
    const run = this.#running.get(taskId);
    if (run === undefined && !this.#waiting.has(taskId) && ![...this.#watchers].some((w) => this.#interest.get(w)?.(taskId) ?? true)) return;
    if (run === undefined && this.#watchers.size === 0) {
      // No work here to stop or wake, nobody watching: only blocked results (settle reads the task).
      await this.#settle(taskId);
      return;
    }
    let task: StoreTask | null = null;
    try {
      // At the announced revision: the record this replica wrote or read, when it has it.
      task = await (this.server as SharedTaskServer).getTask(taskId, this.now(), version);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    if (run !== undefined && !run.abort.signal.aborted) {
      if (task === null) {
        run.gone = true;
        this.#stop(taskId, "expired (past its TTL, or purged)");
      } else if (["completed", "failed", "cancelled"].includes(task.status)) {
        this.#stop(taskId, task.status === "cancelled" ? "cancelled" : `${task.status} elsewhere`);
      } else this.#wake(taskId);
    }
    await this.#settle(taskId);
    if (task !== null) this.#show(task);
  }

  /** Registers a tool that `handle` runs for `tools/call` (synchronously or as a task). */
  tool<S extends StandardSchemaV1>(name: string, options: ToolOptions & { inputSchema: S; }, handler: TypedToolHandler<Extract<StandardSchemaOutput<S>, object>>): this;
  tool<TArgs extends object = JsonObject>(name: string, options: ToolOptions, handler: TypedToolHandler<TArgs>): this;
  tool(name: string, options: ToolOptions, handler: ToolHandler): this {
    if (typeof name !== "string" || name === "") throw new TypeError("tool name must be a non-empty string");
    if (typeof handler !== "function") throw new TypeError(`tool ${name}: handler must be a function`);
    const support = options?.taskSupport ?? "optional";
    if (!["forbidden", "optional", "required"].includes(support)) {
      throw new TypeError(`tool ${name}: taskSupport must be "forbidden", "optional" or "required" (got ${JSON.stringify(support)})`);
    }
    const prepare = options?.prepare;
    if (prepare !== undefined && typeof prepare !== "function") throw new TypeError(`tool ${name}: prepare must be a function`);
    const task = taskSettingsOf(name, options ?? {});
    const kept: ToolOptions = { taskSupport: support };
    if (prepare) kept.prepare = prepare;
    const rerun = options?.rerun;
    if (rerun !== undefined) {
      const max = (typeof rerun === "object" && rerun !== null ? rerun.maxAttempts : undefined) ?? DEFAULT_RERUN_ATTEMPTS;
      if (typeof rerun !== "object" || rerun === null || !(Number.isSafeInteger(max) && max >= 1 && max <= 100)) {
        throw new TypeError(`tool ${name}: rerun must be { maxAttempts } with an integer from 1 to 100 (got ${JSON.stringify(rerun)})`);
      }
      kept.rerun = { maxAttempts: max };
    }
    const args = new ToolArguments(name, options?.inputSchema, this.#schemaLimits);
    this.#tools.get(name)?.args.free();
    this.#tools.set(name, { options: kept, handler, task, args });
    return this;
  }

  /**
   * The owner of a request on `channel`: `channel.owner` when given, else the `owner` option's
   * answer for `channel.auth`, else its authenticated principal (`principalOf`); `null`: none.
   * Throws a TypeError when the `owner` option answers something else than a string or `null`.
   */
  ownerOf(channel: ClientChannel = {}): string | null {
    if (channel.owner !== undefined) return channel.owner;
    const auth = channel.auth ?? null;
    if (this.#ownerHook === null) return principalOf(auth);
    const owner = this.#ownerHook(auth);
    if (owner !== null && typeof owner !== "string") throw new TypeError(`the owner option must answer a string or null (got ${typeof owner})`);
    return owner;
  }

  /**
   * Calls `listener` with the task after every change the host makes to it: input requested or
   * answered (`input_required` ⇄ `working`), a status message, the outcome stored, a cancel.
   * (Not at creation: the `CreateTaskResult` says it.) A transport sends
   * `notifications/tasks/status` from here (§D 43). Returns the function that stops it.
   *
   * Over a SharedTaskServer the listener hears of every replica's changes (the storage's change
   * feed), each read from the storage: `interested(taskId)` (default: every task) spares the
   * reads of tasks the listener would ignore.
   */
  watch(listener: (task: StoreTask) => void, interested?: (taskId: string) => boolean): () => void {
    this.#watchers.add(listener);
    if (interested) this.#interest.set(listener, interested);
    return () => {
      this.#watchers.delete(listener);
      this.#interest.delete(listener);
    };
  }

  /**
   * Answers one incoming JSON-RPC message: the response to send, or `null` when there is none
   * (a notification) or the message is not for this host (not `tasks/*`, not a `tools/call` of a
   * registered tool: route it yourself). A V25 `tasks/result` on a live task resolves when the
   * task ends. Throws a `TypeError` on a malformed `ctx`.
   * @param [channel] How to reach the client (2025-11-25 input; see
   *   `ClientChannel`); a task keeps the channel of the call that created it.
   * @returns The JSON-RPC response (`result`, whose shape
   *   depends on the method, or `error`: typed loosely), or `null`.
   */
  handle<M extends string = string, V extends string = ServerContext["protocolVersion"]>(message: string | (JsonObject & { method?: M }), context: HandleContext<V>, channel?: ClientChannel): Promise<JsonRpcAnswer<ResultOfMethod<M, V>> | null>;
  async handle(message: JsonObject | string, context: Omit<ServerContext, "now">, channel: ClientChannel = {}): Promise<any> {
    const ctx: ServerContext = { ...context, now: this.now() };
    // §D 38: the request's owner binds the tasks it creates and limits those it sees.
    const owner = this.ownerOf(channel);
    if (owner !== null) ctx.owner = owner;
    const out = await this.server.handle(message, ctx);
    switch (out.kind) {
      case "response":
        if (out.event?.kind === "cancelled") {
          this.#stop(out.event.taskId, "cancelled");
          this.#guard(this.#changed(out.event.taskId), out.event.taskId);
        }
        if (out.event?.kind === "input-taken") {
          this.#wake(out.event.taskId);
          this.#guard(this.#changed(out.event.taskId), out.event.taskId);
        }
        return out.message;
      case "pending":
        return this.#wait(out, ctx, channel.signal);
      case "none":
        return null;
      default:
        return this.#toolCall(typeof message === "string" ? JSON.parse(message) : message, ctx, channel);
    }
  }

  /**
   * Purges expired tasks (`TaskServer.sweep`) and answers the blocked `tasks/result` requests of
   * purged tasks. No timer runs inside the host: call this from your own (say once a minute).
   * @param [limit] At most this many tasks (default all).
   * @returns How many tasks were purged (over a SharedTaskServer, a promise of it;
   *   its sweep also fails the tasks of replicas that stopped).
   */
  sweep(limit?: number): Counted<S> {
    return (this.#sweep(limit) as Counted<S>);
  }

  #sweep(limit?: number): number | Promise<number> {
    const server = (this.server as TaskServer | SharedTaskServer);
    if ("watchChanges" in server) {
      return (async () => {
        const purged = await server.sweep(this.now(), limit ?? null);
        for (const taskId of [...this.#waiting.keys()]) await this.#settle(taskId);
        await this.#stopGone();
        return purged;
      })();
    }
    const purged = server.sweep(this.now(), limit ?? null);
    for (const taskId of [...this.#waiting.keys()]) this.#guard(this.#settle(taskId), taskId);
    this.#stopGone();
    return purged;
  }

  /**
   * Aborts the work of every running task the store no longer has (expired, purged): its signal
   * aborts with an AbortError whose message says "expired", what it returns is dropped and
   * `idle()` settles once the handlers return. `sweep` calls it; so may you, between sweeps.
   * @returns How many were aborted now (over a SharedTaskServer, a promise of it).
   */
  stopExpired(): Counted<S> {
    return (this.#stopGone() as Counted<S>);
  }

  #stopGone(): number | Promise<number> {
    const server = (this.server as TaskServer | SharedTaskServer);
    if ("watchChanges" in server) {
      return (async () => {
        let stopped = 0;
        for (const [taskId, run] of [...this.#running]) {
          if (run.abort.signal.aborted) continue;
          try {
            await server.getTask(taskId, this.now());
          } catch (e) {
            if (!isNotFound(e)) continue;
            run.gone = true;
            this.#stop(taskId, "expired (past its TTL, or purged)");
            stopped += 1;
          }
        }
        return stopped;
      })();
    }
    let stopped = 0;
    const now = this.now();
    for (const [taskId, run] of this.#running) {
      if (run.abort.signal.aborted) continue;
      try {
        server.getTask(taskId, now);
      } catch (e) {
        if (!isNotFound(e)) continue;
        run.gone = true;
        this.#stop(taskId, "expired (past its TTL, or purged)");
        stopped += 1;
      }
    }
    return stopped;
  }

  /**
   * @internal Our modules' and tests' accessor (see INTERNALS): the registered tools (the
   * endpoint lists their schemas), `onError` (reports of the SDK v2 wrapper), and the tables and
   * bounds the tests count.
   */
  [INTERNALS]() {
    return {
      tools: this.#tools,
      onError: this.#onError,
      running: this.#running,
      waiting: this.#waiting,
      sessionless: this.#sessionless,
      requestorTasks: this.#requestorTasks,
      maxLiveTasksWithoutSession: this.#maxLiveTasksWithoutSession,
      maxLiveTasksPerRequestor: this.#maxLiveTasksPerRequestor,
      maxWaitingResultsPerSession: this.#maxWaitingResultsPerSession,
    };
  }

  /** Resolves when no task work is running (say, before a snapshot or in tests). */
  async idle() {
    while (this.#running.size > 0) await Promise.all([...this.#running.values()].map((r) => r.done));
  }

  /**
   * Stops every running task's work (its signal aborts, reason `"closed"`). Resolves when the
   * handlers have returned. Over a SharedTaskServer (the tasks outlive this replica) each such
   * task fails with JSON-RPC error -32603 "the replica running this task shut down".
   */
  async close() {
    this.#unfollow?.();
    for (const taskId of this.#running.keys()) this.#stop(taskId, "closed");
    await this.idle();
  }

  // ---- internals ---------------------------------------------------------------------------------

  async #toolCall(request: JsonObject, ctx: ServerContext, channel: ClientChannel): Promise<JsonObject | null> {
    if (request?.method !== "tools/call") return null;
    const params = (request.params as JsonObject | undefined);
    const name = params?.name;
    const tool = typeof name === "string" ? this.#tools.get(name) : undefined;
    if (!tool || typeof name !== "string") return null;
    const args = ((params?.arguments ?? {}) as JsonObject);
    const support = tool.options.taskSupport ?? "optional";
    const v26 = ctx.protocolVersion === V26;
    const retry = v26 && params?.requestState !== undefined;
    // Arguments against the tool's inputSchema, before anything runs and before any task exists:
    // a mismatch is a tool execution error (isError, SEP-1303) the model can correct, in both eras;
    // a call the protocol refuses anyway (-32021, §D 78; -32601, §D 41) keeps that refusal.
    let verdict = tool.args.check(args);
    if (verdict instanceof Promise) verdict = await verdict; // a Standard Schema's own validate
    if (!verdict.ok) {
      const plan = this.server.planToolCall(request, ctx, support);
      if (plan.kind === "reject") return plan.response;
      return this.#syncResponse(request, ctx, { result: invalidArgumentsResult(name, verdict.issues, verdict.omitted) });
    }
    const input = verdict.args;

    const capped = this.#sessionlessCap(request, ctx, support, channel);
    if (capped !== null) return capped;
    // A call that will be refused is refused before anything runs or any input is asked (§D 78).
    if (tool.options.prepare || retry) {
      const plan = this.server.planToolCall(request, ctx, support);
      if (plan.kind === "reject") return plan.response;
    }
    const rounds: Rounds = { answers: {}, pending: null };
    if (retry) {
      const opened = await this.#states.open(params?.requestState, name, args, this.now());
      if ("refused" in opened) {
        const error: { code: number; message: string; data?: unknown; } = { code: -32602, message: `Invalid params: ${opened.refused}` };
        if (opened.data !== undefined) error.data = opened.data;
        return { jsonrpc: "2.0", id: request.id ?? null, error };
      }
      // §D 113: the retry answers the latest round; earlier rounds' answers ride in the state.
      const given = ((params?.inputResponses ?? {}) as JsonObject);
      rounds.answers = { ...opened.state.answers };
      for (const key of opened.state.asked) {
        const answer = typeof given === "object" && given !== null ? given[key] : undefined;
        if (typeof answer === "object" && answer !== null) rounds.answers[key] = answer;
      }
    }

    let prepared: unknown;
    if (tool.options.prepare) {
      const prepare = tool.options.prepare;
      const phase: { value: unknown; failed: ToolOutcome | null; } = { value: undefined, failed: null };
      const run = await this.#runSync(request, ctx, channel, rounds, undefined, async (c) => {
        try {
          phase.value = await prepare(input, c);
        } catch (e) {
          phase.failed = thrownOutcome(e);
        }
        return { content: [] };
      });
      if (run === null) return this.#inputRequired(request, name, args, rounds);
      if (phase.failed !== null) return this.#syncResponse(request, ctx, phase.failed);
      prepared = phase.value;
    }

    if (tool.options.prepare || retry) {
      const late = this.#sessionlessCap(request, ctx, support, channel); // more may have started meanwhile
      if (late !== null) return late;
    }
    // The tool's own task settings (poll interval, TTL bounds) over the store's.
    const taskCtx = tool.task === null ? ctx : { ...ctx, task: tool.task };
    const memo = this.#rerunMemo(name, tool.options, args, request, taskCtx, prepared);
    const start = memo === null
      ? await this.server.beginToolCall(request, taskCtx, support)
      : await (this.server as SharedTaskServer).beginToolCall(request, taskCtx, support, memo);
    if (start.kind === "reject") return start.response;
    if (start.kind === "sync") {
      const outcome = await this.#runSync(request, ctx, channel, rounds, prepared, (c) => tool.handler(input, c));
      if (outcome === null) return this.#inputRequired(request, name, args, rounds);
      return this.#syncResponse(request, ctx, outcome);
    }
    this.#start(start.taskId, tool.handler, input, request, ctx, channel, prepared, memo !== null);
    return start.response;
  }

  /**
   * What another replica needs to run a re-runnable tool's task again (stored with its lease),
   * or `null`: not re-runnable, not shared, or a `prepare` value JSON cannot carry (reported).
   */
  #rerunMemo(name: string, options: ToolOptions, args: JsonObject, request: JsonObject, ctx: ServerContext, prepared: unknown): Omit<RerunMemo, "attempt"> | null {
    if (options.rerun === undefined || !this.#shared) return null;
    const { now: _now, ...context } = ctx;
    const memo: Omit<RerunMemo, "attempt"> = { tool: name, arguments: args, request, context, maxAttempts: options.rerun.maxAttempts ?? DEFAULT_RERUN_ATTEMPTS };
    if (prepared !== undefined) {
      try {
        memo.prepared = JSON.parse(JSON.stringify(prepared));
      } catch (e) {
        this.#report(new TypeError(`tool ${name}: its prepare value is not JSON, so the task cannot be re-run elsewhere (${messageOf(e)})`), "");
        return null;
      }
    }
    return memo;
  }

  /**
   * Runs a re-runnable task's work again on this replica, which took its lease (the shared
   * server's sweep found the lease of the replica running it lost).
   */
  #rerun(taskId: string, memo: RerunMemo) {
    const tool = this.#tools.get(memo.tool);
    if (tool === undefined || this.#running.has(taskId)) return;
    const ctx = ({ ...memo.context, now: this.now() } as ServerContext);
    // The memo keeps the arguments as the client sent them: checked again, so that a Standard
    // Schema's output (defaults, transforms) reaches the handler as on the first run.
    const run = (verdict: Awaited<ReturnType<ToolArguments["check"]>>) => {
      if (this.#running.has(taskId)) return;
      this.#start(taskId, tool.handler, verdict.ok ? verdict.args : memo.arguments, memo.request, ctx, {}, memo.prepared, true, true);
    };
    const verdict = tool.args.check(memo.arguments);
    if (verdict instanceof Promise) this.#guard(verdict.then(run), taskId);
    else run(verdict);
  }

  /**
   * The -32010 refusal of a call that would become a task of a caller without a session while
   * `maxLiveTasksWithoutSession` of them are live, or `maxLiveTasksPerRequestor` of its
   * requestor's (§D 42), else `null`. `data.cap` names the cap reached.
   */
  #sessionlessCap(request: JsonObject, ctx: ServerContext, support: TaskSupport, channel: ClientChannel): JsonObject | null {
    if (typeof ctx.session === "string" && ctx.session !== "") return null;
    const requestor = channel.requestor;
    const mine = typeof requestor === "string" ? (this.#requestorTasks.get(requestor)?.size ?? 0) : 0;
    let refusal: { message: string; data: JsonObject; } | null = null;
    if (this.#sessionless.size >= this.#maxLiveTasksWithoutSession) {
      const limit = this.#maxLiveTasksWithoutSession;
      refusal = { message: `Too many live tasks of callers without a session (limit ${limit})`, data: { limit, cap: "maxLiveTasksWithoutSession" } };
    } else if (mine >= this.#maxLiveTasksPerRequestor) {
      const limit = this.#maxLiveTasksPerRequestor;
      refusal = { message: `Too many live tasks of this requestor (limit ${limit})`, data: { limit, cap: "maxLiveTasksPerRequestor" } };
    }
    if (refusal === null) return null;
    if (this.server.planToolCall(request, ctx, support).kind !== "task") return null;
    return { jsonrpc: "2.0", id: request.id ?? null, error: { code: TASK_LIMIT_CODE, ...refusal } };
  }

  /** Counts a running task without a session against its requestor. */
  #countRequestor(taskId: string, requestor: string | null | undefined) {
    if (typeof requestor !== "string") return;
    const set = this.#requestorTasks.get(requestor) ?? new Set();
    set.add(taskId);
    this.#requestorTasks.set(requestor, set);
    this.#taskRequestor.set(taskId, requestor);
  }

  /** A task without a session is no longer live: off the shared and the requestor's counts. */
  #release(taskId: string) {
    this.#sessionless.delete(taskId);
    const requestor = this.#taskRequestor.get(taskId);
    if (requestor === undefined) return;
    this.#taskRequestor.delete(taskId);
    const set = this.#requestorTasks.get(requestor);
    set?.delete(taskId);
    if (set !== undefined && set.size === 0) this.#requestorTasks.delete(requestor);
  }

  #syncResponse(request: JsonObject, ctx: ServerContext, outcome: ToolOutcome): JsonObject {
    try {
      return this.server.syncToolResponse(request, ctx, outcome);
    } catch (e) {
      // A result the package cannot read as JSON (a BigInt, a cycle): an internal error.
      return this.server.syncToolResponse(request, ctx, unreadable(e));
    }
  }

  /**
   * Runs one synchronous phase of a call (`prepare` or the handler): its outcome, or `null` when
   * it asked for input a 2026-07-28 client must give in another round (`rounds.pending`).
   */
  async #runSync(request: JsonObject, ctx: ServerContext, channel: ClientChannel, rounds: Rounds, prepared: unknown, body: (ctx: ToolContext) => JsonObject | Promise<JsonObject>): Promise<ToolOutcome | null> {
    const abort = new AbortController();
    let ended = false;
    const outer = channel.signal;
    const onAbort = () => abort.abort(outer?.reason);
    if (outer?.aborted) onAbort();
    else outer?.addEventListener("abort", onAbort, { once: true });
    try {
      const outcome = await runTool((_args, c) => body(c), {}, {
        signal: abort.signal,
        taskId: null,
        context: ctx,
        request,
        prepared,
        clientCapabilities: capabilitiesOf(request, ctx, channel),
        requestInput: (inputRequests) => this.#syncInput(request, ctx, channel, abort.signal, rounds, inputRequests),
        setStatusMessage: () => {},
        progress: progressOf(request, ctx, channel, null, abort.signal, () => ended),
      });
      // Even a handler that caught the InputRequired throw gets the next round.
      return rounds.pending !== null ? null : outcome;
    } finally {
      ended = true;
      outer?.removeEventListener("abort", onAbort);
    }
  }

  /** requestInput outside a task. */
  async #syncInput(request: JsonObject, ctx: ServerContext, channel: ClientChannel, signal: AbortSignal, rounds: Rounds, inputRequests: InputRequests): Promise<Record<string, unknown>> {
    signal.throwIfAborted();
    if (ctx.protocolVersion !== V26) {
      try {
        this.#checkV25Input(channel, inputRequests);
      } catch (e) {
        throw new Error(`requestInput: ${messageOf(e)}`);
      }
      return this.#askClient(channel, null, inputRequests, signal);
    }
    try {
      TaskServer.checkInputRequests(request, inputRequests); // §D 98
    } catch (e) {
      throw new Error(`requestInput: ${messageOf(e)}`);
    }
    const keys = Object.keys(inputRequests);
    const missing = keys.filter((k) => !Object.hasOwn(rounds.answers, k));
    if (missing.length === 0) return Object.fromEntries(keys.map((k) => [k, rounds.answers[k]]));
    rounds.pending = { ...rounds.pending, ...Object.fromEntries(missing.map((k) => [k, inputRequests[k]])) };
    throw new InputRequired();
  }

  /**
   * The InputRequiredResult that ends this round (SEP-2322): what is still to ask, and the signed
   * state carrying every answer so far.
   */
  async #inputRequired(request: JsonObject, tool: string, args: JsonObject, rounds: Rounds): Promise<JsonObject> {
    const pending = rounds.pending ?? {};
    const requestState = await this.#states.issue({
      tool,
      args: await this.#states.digest(args),
      answers: rounds.answers,
      asked: Object.keys(pending),
      iat: this.now(),
    });
    return {
      jsonrpc: "2.0",
      id: request.id ?? null,
      result: { resultType: "input_required", inputRequests: pending, requestState },
    };
  }

  /**
   * §D 98 for 2025-11-25: only methods the client can answer, per its `initialize` capabilities
   * (every input method when the channel does not say). Throws the TaskStoreError.
   */
  #checkV25Input(channel: ClientChannel, inputRequests: InputRequests) {
    if (!channel.sendRequest) {
      throw new Error(
        "under 2025-11-25 it needs a transport that sends requests to the client (TaskHost.handle's channel.sendRequest)",
      );
    }
    const caps = channel.clientCapabilities ?? { elicitation: {}, sampling: {}, roots: {} };
    const probe = { jsonrpc: "2.0", id: 0, method: "tools/call", params: { _meta: { [CLIENT_CAPABILITIES]: caps } } };
    TaskServer.checkInputRequests(probe, inputRequests);
  }

  /** Sends every input request to the client (2025-11-25) and resolves with the results by key. */
  async #askClient(channel: ClientChannel, taskId: string | null, inputRequests: InputRequests, signal: AbortSignal): Promise<Record<string, unknown>> {
    const send = channel.sendRequest;
    if (!send) throw new Error("requestInput: no channel to the client");
    const entries = Object.entries(inputRequests);
    const results = await Promise.all(
      entries.map(([, input]) => {
        const params: JsonObject = { ...((input.params as JsonObject | undefined) ?? {}) };
        if (taskId !== null) {
          // §D 33: every request about the task carries its id.
          params._meta = { ...(params._meta as JsonObject | undefined), [RELATED_TASK]: { taskId } };
        }
        return abortable(send({ method: input.method, params }, { taskId, signal }), signal);
      }),
    );
    return Object.fromEntries(entries.map(([key], i) => [key, results[i]]));
  }

  /** Runs a task's work in the background and stores its outcome. */
  #start(taskId: string, handler: ToolHandler, args: JsonObject, request: JsonObject, ctx: ServerContext, channel: ClientChannel, prepared: unknown, rerunnable = false, again = false) {
    const abort = new AbortController();
    const inputWaiters: Set<() => void> = new Set();
    const session = typeof ctx.session === "string" && ctx.session !== "" ? ctx.session : null;
    const run: RunningTask = { abort, done: Promise.resolve(), inputWaiters, asking: 0, gone: false, closed: false, session, rerunnable };
    let ended = false;
    const toolCtx: ToolContext = {
      signal: abort.signal,
      taskId,
      context: ctx,
      request,
      prepared,
      clientCapabilities: capabilitiesOf(request, ctx, channel),
      progress: progressOf(request, ctx, channel, taskId, abort.signal, () => ended),
      requestInput: (inputRequests, message) =>
        ctx.protocolVersion === V26
          ? this.#requestInput(taskId, request, abort.signal, inputWaiters, inputRequests, message, again)
          : this.#requestInputV25(taskId, channel, abort.signal, inputRequests, message),
      setStatusMessage: (message) => {
        const server = (this.server as TaskServer | SharedTaskServer);
        if ("watchChanges" in server) {
          // Over a shared storage: written in the background (the watchers hear of it by the feed).
          (async () => {
            const task = await server.getTask(taskId, this.now());
            if (task.status === "working" || task.status === "input_required") {
              await server.setStatus(taskId, task.status, message, this.now());
            }
          })().catch((e) => {
            if (!isNotFound(e)) this.#report(e, taskId);
          });
          return;
        }
        const task = server.getTask(taskId, this.now());
        if (task.status === "working" || task.status === "input_required") {
          server.setStatus(taskId, task.status, message, this.now());
          this.#guard(this.#changed(taskId), taskId);
        }
      },
    };
    const done = (async () => {
      await null; // the CreateTaskResult is answered before the work starts
      let outcome = await runTool(handler, args, toolCtx);
      ended = true;
      // Over a shared storage the task outlives this host: work stopped by `close` (a replica
      // shutting down) fails the task with SHUT_DOWN, not with what the aborted handler returned;
      // a re-runnable task's is left to another replica (its lease runs out), as is the work of
      // a task whose lease another replica took.
      if (run.closed && this.#shared) outcome = { error: SHUT_DOWN };
      const handOver = this.#shared && ((run.closed && run.rerunnable === true) || run.takenElsewhere === true);
      if (handOver) (this.server as SharedTaskServer)[INTERNALS]().release(taskId);
      let stored = false;
      try {
        try {
          if (!handOver) stored = (await this.server.finishToolCall(taskId, outcome, this.now())).kind === "stored";
        } catch (e) {
          // A result that can never be stored fails the task now, saying why.
          const big = resultTooLarge(e, outcome);
          if (big === null && !(e instanceof TypeError)) throw e;
          stored = (await this.server.finishToolCall(taskId, big ?? unreadable(e), this.now())).kind === "stored";
        }
      } catch (e) {
        // The work of an expired or purged task was aborted: its outcome has nowhere to go.
        if (!(run.gone && isNotFound(e))) this.#report(e, taskId);
      }
      this.#running.delete(taskId);
      this.#release(taskId);
      if (stored) await this.#changed(taskId);
      await this.#settle(taskId);
    })().catch((e) => this.#report(e, taskId)); // nobody awaits this but `idle()`: it never rejects
    run.done = done;
    this.#running.set(taskId, run);
    if (run.session === null) {
      this.#sessionless.add(taskId);
      this.#countRequestor(taskId, channel.requestor);
    }
  }

  /**
   * requestInput of a 2026-07-28 task: input requests on the task, answered by `tasks/update`.
   * @param request The `tools/call` that created the task.
   */
  async #requestInput(taskId: string, request: JsonObject, signal: AbortSignal, waiters: Set<() => void>, inputRequests: InputRequests, message?: string, again = false): Promise<Record<string, unknown>> {
    signal.throwIfAborted();
    TaskServer.checkInputRequests(request, inputRequests); // §D 98: only what the client declared
    const keys = Object.keys(inputRequests);
    // A re-run asking what an earlier run asked gets the answers given (a key names one request
    // for the task's whole life), or waits for those still outstanding: nothing is asked twice.
    const asked = again ? await this.#askedBefore(taskId) : null;
    if (asked === null || !keys.every((k) => asked.has(k))) {
      await this.server.raiseInput(taskId, inputRequests, message ?? null, this.now());
      await this.#changed(taskId);
    }
    for (;;) {
      // Shared: the revision this replica keeps (its own write, or what the feed's news of an
      // answer read): a later answer is announced and wakes this loop again.
      const answered = (await (this.server as SharedTaskServer).getTask(taskId, this.now(), 0)).inputResponses ?? {};
      if (keys.every((k) => Object.hasOwn(answered, k))) {
        // Answers of the store are frozen: the work gets its own copies.
        return Object.fromEntries(keys.map((k) => [k, structuredClone(answered[k])]));
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

  /** The input keys task `taskId` answered or still asks for (a re-run's earlier runs). */
  async #askedBefore(taskId: string): Promise<Set<string>> {
    const task = await this.server.getTask(taskId, this.now());
    const pending = (task.v26 as { inputRequests?: JsonObject }).inputRequests ?? {};
    return new Set([...Object.keys(task.inputResponses ?? {}), ...Object.keys(pending)]);
  }

  /**
   * requestInput of a 2025-11-25 task: real requests to the client (§A.g), the task
   * `input_required` until every answer is in (§D 32).
   */
  async #requestInputV25(taskId: string, channel: ClientChannel, signal: AbortSignal, inputRequests: InputRequests, message?: string): Promise<Record<string, unknown>> {
    signal.throwIfAborted();
    this.#checkV25Input(channel, inputRequests);
    const run = this.#running.get(taskId);
    if (!run) throw new Error(`task ${taskId} is not running`);
    run.asking += 1;
    if (run.asking === 1) {
      await this.server.setStatus(taskId, "input_required", message ?? null, this.now());
      await this.#changed(taskId);
    }
    try {
      return await this.#askClient(channel, taskId, inputRequests, signal);
    } finally {
      run.asking -= 1;
      if (run.asking === 0 && !signal.aborted) {
        try {
          if ((await (this.server as SharedTaskServer).getTask(taskId, this.now(), 0)).status === "input_required") {
            await this.server.setStatus(taskId, "working", null, this.now());
            await this.#changed(taskId);
          }
        } catch {
          // The task is gone (purged) or already terminal: nothing to resume.
        }
      }
    }
  }

  /**
   * Tells the watchers about a change of `taskId` (over a shared server the change feed does,
   * for every replica's changes: nothing to do here).
   */
  async #changed(taskId: string) {
    if (this.#watchers.size === 0 || this.#shared) return;
    let task: StoreTask;
    try {
      task = await this.server.getTask(taskId, this.now());
    } catch {
      return; // purged
    }
    this.#show(task);
  }

  /** Calls the watchers with `task` (a shared server's feed: once per distinct state). */
  #show(task: StoreTask) {
    const taskId = task.taskId;
    if (this.#shared) {
      const seen = JSON.stringify(task.v26);
      if (this.#shown.get(taskId) === seen) return;
      // Not at creation (as without a shared server): the CreateTaskResult says it.
      const v26 = (task.v26 as { createdAt?: string, lastUpdatedAt?: string });
      if (!this.#shown.has(taskId) && task.status === "working" && v26.createdAt === v26.lastUpdatedAt) {
        this.#shown.set(taskId, seen);
        return;
      }
      if (["completed", "failed", "cancelled"].includes(task.status)) this.#shown.delete(taskId);
      else {
        if (this.#shown.size >= 100_000) this.#shown.clear();
        this.#shown.set(taskId, seen);
      }
    }
    for (const listener of [...this.#watchers]) {
      try {
        listener(task);
      } catch (e) {
        this.#report(e, taskId);
      }
    }
  }

  #stop(taskId: string, reason: string) {
    const run = this.#running.get(taskId);
    if (run && !run.abort.signal.aborted) {
      run.closed = reason === "closed";
      const error = new Error(`task ${taskId} ${reason}`);
      error.name = "AbortError";
      run.abort.abort(error);
    }
    this.#release(taskId); // no longer live (cancelled, expired, closed)
    this.#guard(this.#settle(taskId), taskId);
  }

  #wake(taskId: string) {
    const run = this.#running.get(taskId);
    if (run) for (const wake of [...run.inputWaiters]) wake();
  }

  /**
   * Logs an unexpected error through `onError`; an `onError` that throws is logged by
   * `console.error`. Never throws: the last resort of every promise nobody awaits.
   */
  #report(error: unknown, taskId: string) {
    try {
      this.#onError(error, taskId);
    } catch (e) {
      try {
        console.error(`task ${taskId}: onError threw`, e, "while reporting", error);
      } catch {
        // nowhere left to say it
      }
    }
  }

  /** Runs `promise` in the background: a rejection is reported, never left unhandled. */
  #guard(promise: Promise<unknown>, taskId: string) {
    promise.catch((e) => this.#report(e, taskId));
  }

  /**
   * Blocks a V25 `tasks/result` until its task ends (§D 31): resolves with the response. Refused
   * at once (-32010, `data.limit`) past `maxWaitingResultsPerSession` of its session; dropped from
   * every table, and answered with an error nobody reads, once `signal` aborts (its client went
   * away or cancelled it).
   */
  #wait(pending: PendingResult, ctx: ServerContext, signal?: AbortSignal): Promise<JsonObject> {
    const session = typeof ctx.session === "string" && ctx.session !== "" ? ctx.session : null;
    const limit = this.#maxWaitingResultsPerSession;
    const count = this.#waitingBySession.get(session) ?? 0;
    if (count >= limit) {
      return Promise.resolve({
        jsonrpc: "2.0",
        id: pending.requestId,
        error: {
          code: TASK_LIMIT_CODE,
          message: `Too many blocked tasks/result requests in this session (limit ${limit}): poll tasks/get, or retry once one is answered`,
          data: { limit },
        },
      });
    }
    const abandoned = () => ({
      jsonrpc: "2.0",
      id: pending.requestId,
      error: { code: -32603, message: "Internal error: the request was abandoned (its client went away or cancelled it)" },
    });
    if (signal?.aborted) return Promise.resolve(abandoned());
    return new Promise((resolve) => {
      const w: ResultWaiter = { pending, resolve, session, done: false };
      const set = this.#waiting.get(pending.taskId) ?? new Set();
      set.add(w);
      this.#waiting.set(pending.taskId, set);
      this.#waitingBySession.set(session, count + 1);
      if (signal !== undefined) {
        const onAbort = () => {
          if (this.#drop(w)) resolve(abandoned());
        };
        signal.addEventListener("abort", onAbort, { once: true });
        w.resolve = (response) => {
          signal.removeEventListener("abort", onAbort);
          resolve(response);
        };
      }
      // The task may have ended in between: this request's own check (the others waiting on the
      // task are not read again).
      this.#guard(this.#answer(w, this.now()), pending.taskId);
    });
  }

  /** Removes a waiter from every table: whether it was still waiting. */
  #drop(w: ResultWaiter): boolean {
    if (w.done) return false;
    w.done = true;
    const taskId = w.pending.taskId;
    const set = this.#waiting.get(taskId);
    if (set !== undefined) {
      set.delete(w);
      if (set.size === 0) this.#waiting.delete(taskId);
    }
    const left = (this.#waitingBySession.get(w.session) ?? 1) - 1;
    if (left > 0) this.#waitingBySession.set(w.session, left);
    else this.#waitingBySession.delete(w.session);
    return true;
  }

  /**
   * Answers one waiter if its task ended: whether it is answered (`false`: the task is live).
   * Never throws: a response that cannot be made is reported and answered -32603, alone.
   */
  async #answer(w: ResultWaiter, now: number): Promise<boolean> {
    if (w.done) return true;
    const under = w.settling;
    if (under !== undefined) {
      // One settle of this waiter at a time (a write's finish and its change heard back ask
      // together): when the one under way answers, that is the answer; else ask again, the task
      // may have ended after it read.
      if ((await under) || w.done) return true;
    }
    const settling = this.#answerNow(w, now);
    w.settling = settling;
    try {
      return await settling;
    } finally {
      if (w.settling === settling) delete w.settling;
    }
  }

  /** One settle of `w` (see `answer`). */
  async #answerNow(w: ResultWaiter, now: number): Promise<boolean> {
    let response: JsonObject | null;
    try {
      response = await this.server.settle(w.pending, now);
    } catch (e) {
      this.#report(e, w.pending.taskId);
      response = {
        jsonrpc: "2.0",
        id: w.pending.requestId,
        error: { code: -32603, message: "Internal error: the result of this task could not be answered" },
      };
    }
    if (response === null) return false;
    if (this.#drop(w)) w.resolve(response);
    return true;
  }

  /**
   * Answers the blocked `tasks/result` requests of `taskId` that can be answered now. They wait
   * on one task, so one still waiting means all are: the others are read only once it ended
   * (each answered on its own: one that fails leaves none of the others unanswered).
   */
  async #settle(taskId: string) {
    const first = this.#waiting.get(taskId)?.values().next().value;
    if (first === undefined) return;
    if (!(await this.#answer(first, this.now()))) return;
    const now = this.now();
    for (const w of [...(this.#waiting.get(taskId) ?? [])]) await this.#answer(w, now);
  }
}

export { TaskHost };
