// TaskSubscriptions: 2026-07-28 push for McpHttpServer. `subscriptions/listen` with
// `params.notifications.taskIds` (§B.b, §B.h) answers with an SSE stream that carries, in order:
//   1. `notifications/subscriptions/acknowledged` listing the task ids accepted (those the caller
//      may read with `tasks/get`: a task of a 2025-11-25 session, an unknown or expired id is
//      left out, never named "forbidden", §D 38);
//   2. one `notifications/tasks` per accepted task with its DetailedTask now (what `tasks/get`
//      answers at that moment, minus `resultType`: closes the gap between the client's last
//      read and the subscription);
//   3. one `notifications/tasks` with the complete DetailedTask after every change TaskHost makes
//      to a subscribed task (TaskHost.watch), until the client closes the stream (§D 96), or
//      the server closes: then the listen's result (`resultType: "complete"`, `_meta` naming the
//      subscription) ends it gracefully.
// Each notification's `_meta["io.modelcontextprotocol/subscriptionId"]` is the listen request's
// id. Nothing else goes on the stream (no progress, no log messages, §D 96). A listen asking for
// `taskIds` without declaring the tasks extension gets -32021 (§D 79); a missing `notifications`
// (required by the 2026-07-28 schema) or malformed `taskIds` -32602. Other filters
// (`toolsListChanged`, …) are not served here: the acknowledgement leaves them out.
//
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).
import {
  V26, TASKS_EXTENSION, META_CLIENT_CAPABILITIES as CLIENT_CAPABILITIES, META_SUBSCRIPTION_ID as SUBSCRIPTION_ID,
  INVALID_PARAMS, INVALID_REQUEST, MISSING_CAPABILITY, SERVER_BUSY,
} from "./protocol.js";
import { isObject } from "./http.js";

export type JsonObject = Record<string, unknown>;

export type TaskHost = import("./host.js").TaskHost;

export type StoreTask = import("./mcp_tasks_wasm.js").StoreTask;

/** What McpHttpServer writes back (a JSON body or an SSE stream; each transport writes it its way). */
export type HttpAnswer = import("./http-server.js").HttpAnswer;

export type PushStream = { write(message: JsonObject): boolean; close(): void; response(headers: Record<string, string>): HttpAnswer; closed: boolean; };

export type StreamFactory = (onCancel: () => void) => PushStream;

/** `queued`: changes heard before the acknowledgement went out (`null` once it has). */
export type Subscription = { id: string | number; stream: PushStream; taskIds: Set<string>; queued: JsonObject[] | null; };

const TERMINAL = ["completed", "failed", "cancelled"];
/** At most this many task ids in one `subscriptions/listen`. */
const MAX_TASK_IDS = 1000;
/** At most this many open listen streams at once (more: -32000, HTTP 503). */
const DEFAULT_MAX_STREAMS = 10_000;

function rpcError(id: unknown, code: number, message: string, data?: unknown): JsonObject {
  const error: JsonObject = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: "2.0", id: typeof id === "string" || typeof id === "number" ? id : null, error };
}

function json(status: number, body: JsonObject, headers: Record<string, string>): HttpAnswer {
  return { status, headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

class TaskSubscriptions {
  serverInfo: JsonObject | undefined;
  host: TaskHost;
  openStream: StreamFactory;
  maxStreams: number;
  byTask: Map<string, Set<Subscription>>;
  open: Set<Subscription>;
  unwatch: () => void;
  /**
   * @param host The host whose tasks are pushed (its `watch` feeds the streams).
   * @param openStream Opens an SSE response body (McpHttpServer's, with its
   *   keepalive); `onCancel` runs when the client goes away.
   * @param [options] `serverInfo`: named in
   *   the `_meta` of the result that ends a listen when the server closes.
   */
  constructor(host: TaskHost, openStream: StreamFactory, options: { maxStreams?: number; serverInfo?: JsonObject; } = {}) {
    this.serverInfo = options.serverInfo;
    this.host = host;
    this.openStream = openStream;
    this.maxStreams = options.maxStreams ?? DEFAULT_MAX_STREAMS;
    /** Open subscriptions by subscribed task id. */
    this.byTask = new Map();
    /** Every open subscription. */
    this.open = new Set();
    this.unwatch = host.watch(
      (task) => this.#changed(task),
      (taskId) => this.byTask.has(taskId),
    );
  }

  /** How many listen streams are open. */
  get size() {
    return this.open.size;
  }

  /**
   * Answers one validated 2026-07-28 `subscriptions/listen` request.
   * @param headers The request's headers
   *   (lower-case names).
   */
  async listen(message: JsonObject, headers: Record<string, string>, cors: Record<string, string>, channel: import("./host.js").ClientChannel = {}): Promise<HttpAnswer> {
    const id = (message.id as string | number);
    const params = isObject(message.params) ? message.params : {};
    const meta = isObject(params._meta) ? params._meta : {};
    const notifications = params.notifications;
    if (!isObject(notifications)) {
      return json(200, rpcError(id, INVALID_PARAMS, "Invalid params: `notifications` (the notifications to listen to) must be an object"), cors);
    }
    const asked = isObject(notifications) ? notifications.taskIds : undefined;
    if (asked !== undefined && !(Array.isArray(asked) && asked.every((t) => typeof t === "string"))) {
      return json(200, rpcError(id, INVALID_PARAMS, "Invalid params: `notifications.taskIds` must be an array of strings (§D 74)"), cors);
    }
    if (asked !== undefined) {
      const caps = meta[CLIENT_CAPABILITIES];
      const extensions = isObject(caps) ? caps.extensions : undefined;
      if (!isObject(extensions) || !isObject(extensions[TASKS_EXTENSION])) {
        // §D 79: task notifications only for a request that declares the extension.
        return json(
          400,
          rpcError(id, MISSING_CAPABILITY, "Missing required client capability: subscribing to tasks needs the io.modelcontextprotocol/tasks extension declared in this request's _meta", {
            requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
          }),
          cors,
        );
      }
      if (asked.length > MAX_TASK_IDS) {
        return json(200, rpcError(id, INVALID_PARAMS, `Invalid params: at most ${MAX_TASK_IDS} task ids per subscription (got ${asked.length})`), cors);
      }
    }
    if (!(headers["accept"] ?? "").toLowerCase().includes("text/event-stream")) {
      return json(406, rpcError(id, INVALID_REQUEST, "Not Acceptable: subscriptions/listen answers with an event stream (Accept: text/event-stream)"), cors);
    }
    if (this.open.size >= this.maxStreams) {
      return json(503, rpcError(id, SERVER_BUSY, `Server busy: ${this.maxStreams} subscriptions are open; try again later`), { ...cors, "Retry-After": "5" });
    }
    const wanted = [...new Set(((asked ?? []) as string[]))];
    const sub: Subscription = { id, stream: ((null as unknown) as PushStream), taskIds: new Set(), queued: [] };
    sub.stream = this.openStream(() => this.#drop(sub));
    // The reads and the registration happen in the same turn (TaskHost answers `tasks/get`
    // synchronously), so a change after a read is heard by the watcher: queued until the
    // acknowledgement and the snapshots are out.
    const reads = wanted.map((taskId) =>
      this.host.handle({ jsonrpc: "2.0", id: 0, method: "tasks/get", params: { taskId, _meta: meta } }, { protocolVersion: V26 }, { auth: channel.auth ?? null, owner: channel.owner }).catch(() => null),
    );
    for (const taskId of wanted) this.#add(sub, taskId);
    this.open.add(sub);
    const answers = await Promise.all(reads);
    const accepted: string[] = [];
    const snapshots: JsonObject[] = [];
    wanted.forEach((taskId, i) => {
      const result = answers[i]?.result;
      if (isObject(result) && result.taskId === taskId) {
        accepted.push(taskId);
        const task: JsonObject = { ...result };
        delete task.resultType;
        delete task._meta;
        snapshots.push(task);
        if (TERMINAL.includes(String(task.status))) this.#remove(sub, taskId); // nothing follows
      } else this.#remove(sub, taskId); // not visible to this caller: refused (§D 38)
    });
    const subscriptionMeta = { [SUBSCRIPTION_ID]: id };
    sub.stream.write({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: asked === undefined ? {} : { taskIds: accepted }, _meta: subscriptionMeta },
    });
    for (const task of snapshots) sub.stream.write({ jsonrpc: "2.0", method: "notifications/tasks", params: { ...task, _meta: subscriptionMeta } });
    const queued = sub.queued ?? [];
    sub.queued = null;
    for (const note of queued) {
      const params = (note.params as JsonObject);
      if (accepted.includes(String(params.taskId))) sub.stream.write(note);
    }
    return sub.stream.response(cors);
  }

  /** Ends every listen with its result, then its stream (the server is closing). */
  close() {
    this.unwatch();
    for (const sub of [...this.open]) {
      const meta: JsonObject = { [SUBSCRIPTION_ID]: sub.id };
      if (this.serverInfo) meta["io.modelcontextprotocol/serverInfo"] = this.serverInfo;
      if (sub.queued === null) sub.stream.write({ jsonrpc: "2.0", id: sub.id, result: { resultType: "complete", _meta: meta } });
      sub.stream.close();
      this.#drop(sub);
    }
  }

  #add(sub: Subscription, taskId: string) {
    sub.taskIds.add(taskId);
    const set = this.byTask.get(taskId) ?? new Set();
    set.add(sub);
    this.byTask.set(taskId, set);
  }

  #remove(sub: Subscription, taskId: string) {
    sub.taskIds.delete(taskId);
    const set = this.byTask.get(taskId);
    if (!set) return;
    set.delete(sub);
    if (set.size === 0) this.byTask.delete(taskId);
  }

  /** The client closed the stream. */
  #drop(sub: Subscription) {
    this.open.delete(sub);
    for (const taskId of [...sub.taskIds]) this.#remove(sub, taskId);
  }

  /** TaskHost changed a task: push it to its subscribers. */
  #changed(task: StoreTask) {
    const set = this.byTask.get(task.taskId);
    if (!set) return;
    const terminal = TERMINAL.includes(task.status);
    for (const sub of [...set]) {
      const note = { jsonrpc: "2.0", method: "notifications/tasks", params: { ...task.v26, _meta: { [SUBSCRIPTION_ID]: sub.id } } };
      if (sub.queued !== null) sub.queued.push(note);
      else if (!sub.stream.write(note)) {
        this.#drop(sub);
        continue;
      }
      if (terminal && sub.queued === null) this.#remove(sub, task.taskId);
    }
  }
}

export { TaskSubscriptions };
