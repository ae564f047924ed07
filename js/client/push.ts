// TaskPush: a TaskClient made by `TaskClient.connect` subscribes to its tasks' status changes
// when the server offers push, and polls only as a backstop while the subscription is alive.
//
//   2026-07-28  `subscriptions/listen` with `notifications.taskIds` (§B.b, §B.h), when
//               `server/discover` names the tasks extension: the tasks followed within 20 ms
//               share one listen (up to 1,000 ids), each later batch gets its own. A task counts
//               as pushed once the acknowledgement lists it; then every `notifications/tasks` on
//               the stream is a snapshot. A listen the server refuses (an error, no event stream,
//               the task not acknowledged) leaves its tasks to normal polling; so does a stream
//               that drops (they are not subscribed again). The stream ends once every task on it
//               ended.
//   2025-11-25  the session's GET stream, opened once, carrying `notifications/tasks/status`
//               (§D 43; and the server's requests, answered as on any stream). A task counts as
//               pushed once a status notification for it arrived (a server may open the stream
//               and never notify: polling stays normal until it proves it pushes).
//
// Every message read goes to the connection (`receive`): notifications reach TaskClient.notify,
// which validates them exactly as polled answers (§D 51, 112: the client may keep polling; it
// does, at `backstopMs`). While a task is pushed, the snapshots the scheduler sees carry a poll
// interval of at least `backstopMs`; when its stream drops, the client polls the task at once and
// the server's own interval applies again.
//
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).
import { wasmApi } from "./wasm.js";
import { isObject, sseData } from "./http.js";
import { INTERNALS } from "./internals.js";
import { V25, V26, TASKS_EXTENSION as EXT, METHOD_NOT_FOUND } from "./protocol.js";

export type JsonObject = Record<string, unknown>;

export type HttpConnection = import("./http.js").HttpConnection;

/** One `subscriptions/listen`: the tasks it asked for and still follows, those acknowledged. */
export type Listen = { abort: AbortController; alive: boolean; taskIds: Set<string>; accepted: Set<string>; };

export type PushOptions = {
  /**
   * The poll interval while a task's push stream is alive (default 30 000 ms; never below the
   * server's own `pollInterval(Ms)`).
   */
  backstopMs?: number;
  /**
   * The scheduler's interval when the server gives none (restored when push stops;
   * TaskSchedulerOptions.defaultIntervalMs, default 1000 ms).
   */
  defaultIntervalMs?: number;
  /** Push stopped for these tasks: poll them now. */
  onDrop: (taskIds: string[]) => void;
  /** A stream that failed (for the client's events). */
  onError?: (error: unknown) => void;
};

const DEFAULT_BACKSTOP_MS = 30_000;
/** At most this many task ids per `subscriptions/listen`. */
const MAX_IDS_PER_LISTEN = 1000;
/** Tasks followed within this many ms of the first share one `subscriptions/listen`. */
const BATCH_MS = 20;

/**
 * The JSON-RPC messages of an SSE body, in order, until it ends (or fails: the error propagates);
 * an event that is not JSON is no message.
 */
async function* sseMessages(body: ReadableStream<Uint8Array>, maxMessageBytes?: number): AsyncGenerator<JsonObject> {
  for await (const text of sseData(body, undefined, { maxMessageBytes })) {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      continue; // not JSON: not a message
    }
    for (const m of Array.isArray(message) ? message : [message]) if (isObject(m)) yield m;
  }
}

/** Whether `res` is an open event stream. */
function isEventStream(res: Response) {
  return res.ok && (res.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream") && res.body !== null;
}

class TaskPush {
  connection: HttpConnection;
  backstopMs: number;
  defaultIntervalMs: number;
  onDrop: (taskIds: string[]) => void;
  onError: (error: unknown) => void;
  listens: Map<string, Listen>;
  pending: Set<string>;
  flushTimer: ReturnType<typeof setTimeout> | null;
  unsupported: boolean;
  session: { abort: AbortController, alive: boolean } | null;
  followed: Set<string>;
  heard: Set<string>;
  boosted: Set<string>;
  closed: boolean;
  constructor(connection: HttpConnection, options: PushOptions) {
    this.connection = connection;
    const backstop = options.backstopMs ?? DEFAULT_BACKSTOP_MS;
    if (!(Number.isSafeInteger(backstop) && backstop > 0)) throw new TypeError(`push.backstopMs must be a positive integer (got ${String(backstop)})`);
    this.backstopMs = backstop;
    this.defaultIntervalMs = options.defaultIntervalMs ?? 1000;
    this.onDrop = options.onDrop;
    this.onError = options.onError ?? (() => {});
    /** 2026-07-28: each followed task's listen. */
    this.listens = new Map();
    /** 2026-07-28: tasks to subscribe at the end of this batch (BATCH_MS). */
    this.pending = new Set();
    this.flushTimer = null;
    /** Set once the server refused a listen as unknown (-32601, 404, 405): not asked again. */
    this.unsupported = false;
    /** 2025-11-25: the GET stream (`null`: not open). */
    this.session = null;
    /** 2025-11-25: followed tasks. */
    this.followed = new Set();
    /** 2025-11-25: tasks the GET stream proved it pushes. */
    this.heard = new Set();
    /** Tasks whose scheduler interval was raised (restored when push stops). */
    this.boosted = new Set();
    this.closed = false;
  }

  /** Starts pushing `taskId` of protocol `version`, if the server offers it. */
  follow(taskId: string, version: string) {
    if (this.closed || this.unsupported) return;
    if (version === V26) {
      const caps = this.connection.serverCapabilities;
      if (this.connection.protocolVersion !== V26 || !isObject(caps) || !isObject(caps.extensions) || !isObject(caps.extensions[EXT])) return;
      if (this.listens.has(taskId) || this.pending.has(taskId)) return;
      this.pending.add(taskId);
      if (this.flushTimer === null) this.flushTimer = setTimeout(() => this.#flush(), BATCH_MS);
      return;
    }
    if (this.connection.sessionId === null) return;
    this.followed.add(taskId);
    if (this.session === null) this.#openSession();
  }

  /** Stops pushing `taskId` (it ended, or the client stopped following it). */
  unfollow(taskId: string) {
    this.boosted.delete(taskId);
    this.heard.delete(taskId);
    this.followed.delete(taskId);
    this.pending.delete(taskId);
    const l = this.listens.get(taskId);
    if (l) {
      this.listens.delete(taskId);
      l.taskIds.delete(taskId);
      l.accepted.delete(taskId);
      if (l.taskIds.size === 0) l.abort.abort();
    }
  }

  /** Whether `taskId`'s status reaches the client by push now. */
  pushed(taskId: string) {
    const l = this.listens.get(taskId);
    if (l && l.alive && l.accepted.has(taskId)) return true;
    return this.session !== null && this.session.alive && this.heard.has(taskId);
  }

  /**
   * A valid 2025-11-25 status notification arrived (TaskClient.notify calls this after its
   * validation): from now the task counts as pushed while the GET stream is open.
   */
  heardOf(message: JsonObject) {
    const params = message.params;
    if (message.method === "notifications/tasks/status" && isObject(params) && typeof params.taskId === "string" && this.followed.has(params.taskId)) {
      this.heard.add(params.taskId);
    }
  }

  /**
   * The snapshot the scheduler should see: while pushed, its poll interval raised to the
   * backstop; after push stopped, the server's interval (or the default) back.
   */
  adjust(taskId: string, version: string, task: JsonObject): JsonObject {
    const key = version === V25 ? "pollInterval" : "pollIntervalMs";
    const own = typeof task[key] === "number" && Number.isSafeInteger(task[key]) ? (task[key] as number) : null;
    if (this.pushed(taskId)) {
      this.boosted.add(taskId);
      return { ...task, [key]: Math.max(own ?? this.defaultIntervalMs, this.backstopMs) };
    }
    if (this.boosted.delete(taskId) && own === null) return { ...task, [key]: this.defaultIntervalMs };
    return task;
  }

  /** Ends every stream. */
  close() {
    this.closed = true;
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.pending.clear();
    for (const l of new Set(this.listens.values())) l.abort.abort();
    this.listens.clear();
    this.session?.abort.abort();
    this.session = null;
  }

  /** 2026-07-28: subscribes the tasks followed this turn, in listens of at most 1,000 ids. */
  #flush() {
    this.flushTimer = null;
    const ids = [...this.pending];
    this.pending.clear();
    if (this.closed) return;
    for (let i = 0; i < ids.length; i += MAX_IDS_PER_LISTEN) this.#listen(ids.slice(i, i + MAX_IDS_PER_LISTEN));
  }

  /** 2026-07-28: one `subscriptions/listen` for `taskIds`, read until it ends. */
  #listen(taskIds: string[]) {
    const entry: Listen = { abort: new AbortController(), alive: false, taskIds: new Set(taskIds), accepted: new Set() };
    for (const taskId of taskIds) this.listens.set(taskId, entry);
    this.#run(entry, async () => {
      const res = await this.connection.openStream("subscriptions/listen", { notifications: { taskIds } }, entry.abort.signal);
      if (!isEventStream(res) || res.body === null) {
        // A JSON answer: a JSON-RPC error (-32601 or HTTP 404/405: no subscriptions here).
        const text = await this.connection[INTERNALS]().readText(res, "subscriptions/listen").catch(() => "");
        let code: unknown;
        try {
          const body = JSON.parse(text);
          code = isObject(body) && isObject(body.error) ? body.error.code : undefined;
        } catch {
          code = undefined;
        }
        if ([404, 405].includes(res.status) || code === METHOD_NOT_FOUND) this.unsupported = true;
        throw new Error(`subscriptions/listen: HTTP ${res.status}, no event stream${code === undefined ? "" : ` (error ${String(code)})`}`);
      }
      let first = true;
      const connection = this.connection[INTERNALS]();
      for await (const m of sseMessages(res.body, this.connection.maxMessageBytes)) {
        if (first) {
          first = false;
          const accepted = this.#acknowledged(m);
          for (const taskId of accepted) if (entry.taskIds.has(taskId)) entry.accepted.add(taskId);
          if (entry.accepted.size === 0) throw new Error("subscriptions/listen: the server acknowledged none of the tasks");
          entry.alive = true;
          continue;
        }
        connection.receive(m);
      }
    }, (wasAlive) => {
      // The tasks stay mapped to this ended listen (not subscribed again): polling takes over.
      const dropped = [...entry.accepted].filter((taskId) => this.listens.get(taskId) === entry);
      if (wasAlive && !this.closed && dropped.length > 0) this.onDrop(dropped);
    });
  }

  /**
   * Reads one stream (`read`) to its end: a failure is reported unless the stream was aborted on
   * purpose; then the stream is marked dead and aborted, and `ended` is told whether it had been
   * alive.
   */
  #run(entry: { abort: AbortController; alive: boolean; }, read: () => Promise<void>, ended: (wasAlive: boolean) => void) {
    read()
      .catch((e) => {
        if (!entry.abort.signal.aborted) this.onError(e);
      })
      .finally(() => {
        const wasAlive = entry.alive;
        entry.alive = false;
        entry.abort.abort();
        ended(wasAlive);
      });
  }

  /**
   * The task ids a listen stream's first message acknowledges: none unless it is a valid
   * acknowledgement (§D 74).
   */
  #acknowledged(m: JsonObject): string[] {
    if (m.method !== "notifications/subscriptions/acknowledged") return [];
    const report = wasmApi().validateMessage(m, { version: V26 });
    if (report.issues.some((i) => i.severity === "error")) return [];
    const n = isObject(m.params) ? m.params.notifications : undefined;
    return isObject(n) && Array.isArray(n.taskIds) ? n.taskIds.filter((t) => typeof t === "string") : [];
  }

  /** 2025-11-25: the session's GET stream, read until it ends. */
  #openSession() {
    const entry = { abort: new AbortController(), alive: false };
    this.session = entry;
    this.#run(entry, async () => {
      const res = await this.connection.openStream(null, {}, entry.abort.signal);
      if (!isEventStream(res) || res.body === null) {
        await res.body?.cancel().catch(() => {});
        if ([404, 405].includes(res.status)) this.unsupported = true;
        throw new Error(`GET stream: HTTP ${res.status}, no event stream`);
      }
      entry.alive = true;
      const connection = this.connection[INTERNALS]();
      for await (const m of sseMessages(res.body, this.connection.maxMessageBytes)) connection.receive(m);
    }, (wasAlive) => {
      if (this.session !== entry || this.closed) return;
      this.session = null; // the next task followed opens it again
      const dropped = [...this.heard];
      this.heard.clear();
      if (wasAlive && dropped.length > 0) this.onDrop(dropped);
    });
  }
}

export { TaskPush, sseMessages };
