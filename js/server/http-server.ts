// McpHttpServer: one Streamable HTTP endpoint for MCP tools with tasks, serving both protocol eras
// on the same URL, on top of TaskHost.
//
//   2025-11-25 ("legacy"): `initialize` opens a session (`Mcp-Session-Id`), `tools/list` shows
//     `execution.taskSupport`, tasks are bound to the session (§D 38), `tasks/result` blocks on an
//     SSE stream that also carries the requests a task sends the client while it waits (§A.g),
//     `notifications/tasks/status` goes out when the work changes status (§D 43), GET opens a
//     notification stream, DELETE ends the session.
//   2026-07-28 ("modern"): stateless requests with per-request `_meta`, `server/discover`, the
//     headers of §B.f (-32020), the tasks extension, MRTR InputRequiredResult for input asked
//     outside a task; `subscriptions/listen` with `notifications.taskIds` pushes
//     `notifications/tasks` (js/server/subscriptions.ts).
//
// A request with modern `_meta` (or the modern headers) is served statelessly; `initialize`
// always opens a legacy session; anything else needs a session. A protocol version it does not
// speak gets -32022 with `data.supported` (HTTP 400).
//
// Two thin transports over one dispatcher (`#handle`, which reads an `HttpIn` and answers an
// `HttpAnswer`: a JSON body or an SSE stream): fetch-style (`fetch(request) => Promise<Response>`,
// SSE through ReadableStream) for Deno, Bun, edge runtimes and service workers, and `node(req,
// res)` for node:http, which reads IncomingMessage and writes ServerResponse directly
// (`writeHead`/`end`, SSE with `write`; no WHATWG Request or Response on the way) without
// importing any node: module. Web APIs only.
//
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).
import { TaskHost, authNames } from "./host.js";
import { McpEndpoint, ClientRequests, isId, rpcError, ok, unsupportedVersion } from "./endpoint.js";
import { concatBytes, isObject } from "./http.js";
import { TaskSubscriptions } from "./subscriptions.js";
import { INTERNALS } from "./internals.js";
import {
  V25, V26, META_PROTOCOL_VERSION, PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS, INTERNAL_ERROR, HEADER_MISMATCH, UNSUPPORTED_PROTOCOL_VERSION,
  SESSION_NOT_FOUND, SERVER_BUSY, MISSING_CAPABILITY,
} from "./protocol.js";

export type JsonObject = Record<string, unknown>;

export type TaskSupport = import("./mcp_tasks_wasm.js").V25TaskSupport;

export type StoreTask = import("./mcp_tasks_wasm.js").StoreTask;

export type ToolHandler = import("./host.js").ToolHandler;

export type ToolContext = import("./host.js").ToolContext;

export type TaskHostOptions = import("./host.js").TaskHostOptions;

export type ClientChannel = import("./host.js").ClientChannel;

export type ClientRequest = import("./host.js").ClientRequest;

export type SharedTaskServer = import("./shared.js").SharedTaskServer;

/**
 * What an authentication middleware established about a request (the SDK's `AuthInfo`, as its
 * `requireBearerAuth` sets `req.auth`): `clientId`, and a `subject` (the principal) when known,
 * directly or in `extra`.
 */
export type RequestAuth = { clientId?: string; subject?: string; extra?: Record<string, unknown>; [key: string]: unknown; };

/**
 * What the transport knows of a request besides the request itself: `node(req, res)` fills it
 * from `req.socket.remoteAddress` and `req.auth`; a fetch-style runtime passes it as the second
 * argument of `fetch` (Deno's `ServeHandlerInfo.remoteAddr.hostname` is read too).
 */
export type RequestInfo = { remoteAddress?: string | null; auth?: RequestAuth | null; remoteAddr?: { hostname?: string; }; };

/**
 * A tool as `tools/list` shows it, plus how it runs (the same for every transport).
 */
export type HttpToolOptions = import("./endpoint.js").ToolOptions;

export type McpHttpServerOptions = {
  /** `serverInfo.name`. */
  name: string;
  /** `serverInfo.version`. */
  version: string;
  /** `serverInfo.title`. */
  title?: string;
  /** Sent in `initialize` and `server/discover` results. */
  instructions?: string;
  /**
   * The TaskHost to run tools on (default: a new one with `hostOptions`). Register tools through
   * `McpHttpServer.tool`, which lists them too.
   */
  host?: TaskHost | TaskHost<SharedTaskServer>;
  /**
   * Options of the new TaskHost. 2026-07-28 requests are stateless (no session): their tasks are
   * bounded all together by `maxLiveTasksWithoutSession` (default 10,000) and per requestor (see
   * `requestor`) by `maxLiveTasksPerRequestor` (default 1,000); over either -32010 with
   * `data.cap` naming it, like the store's per-session `maxLiveTasksPerSession`, which bounds
   * each 2025-11-25 session.
   */
  hostOptions?: TaskHostOptions;
  /**
   * Serve only this path (e.g. `"/mcp"`: 404 elsewhere); default `null`, any path (mount it where
   * you like).
   */
  path?: string | null;
  /**
   * Browser origins allowed to call (others get 403, against DNS rebinding; requests without
   * `Origin` always pass); allowed origins get CORS headers. Default: any `localhost`, `127.0.0.1`
   * or `[::1]` origin.
   */
  allowedOrigins?: string[] | ((origin: string) => boolean);
  /**
   * A 2025-11-25 session idle this long (no request, no open stream) is ended (404 afterwards).
   * Default 30 minutes.
   */
  sessionTtlMs?: number;
  /** Largest request body (413 beyond). Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * At most this many 2026-07-28 `subscriptions/listen` streams open at once (HTTP 503, -32000
   * "Server busy" beyond, with `Retry-After`). Default 10,000.
   */
  maxSubscriptionStreams?: number;
  /**
   * At most this often, on a request, expired tasks are purged (`TaskHost.sweep`) and idle sessions
   * ended; no timer runs. Default 60 s.
   */
  housekeepingMs?: number;
  /**
   * An open SSE stream gets a comment line this often, so that idle streams (the GET stream, a long
   * `tasks/result`) outlive body timeouts of clients and proxies. Default 15 s; 0 disables.
   */
  keepAliveMs?: number;
  /** Unexpected errors (default `console.error`). */
  onError?: (error: unknown) => void;
  /**
   * Who is calling: a string naming the requestor of a request, or `null` when it cannot be told.
   * Default: the authenticated principal when the request carries auth info (`client:<clientId>`,
   * or `subject:<subject>` without a client id), else the peer's address (`address:<ip>`), else
   * `null`. It is the unit of the per-requestor bounds (`maxSessionsPerRequestor`, and the
   * host's `maxLiveTasksPerRequestor` for 2026-07-28 callers, which it reaches as
   * `ClientChannel.requestor`); it is meant to be the owner of tasks when tasks are bound to
   * principals, so give a stable identity (behind a proxy, the forwarded client address or the
   * authenticated user, not the proxy's address). Under `node(req, res)` the `request` is a
   * WHATWG Request built from the IncomingMessage (method, URL, headers, body) only when this
   * option is given: the default reads `info` alone, so no Request is built.
   */
  requestor?: (request: Request, info: RequestInfo) => string | null;
  /**
   * At most this many 2025-11-25 sessions live at once (idle ones end after `sessionTtlMs`);
   * `initialize` past it gets HTTP 503 with JSON-RPC error -32000, `data: { limit, cap:
   * "maxSessions" }`. Default 10,000.
   */
  maxSessions?: number;
  /**
   * At most this many live sessions per requestor (see `requestor`; callers it cannot tell apart
   * are bounded by `maxSessions` only); past it HTTP 429, `data: { limit, cap:
   * "maxSessionsPerRequestor" }`. Default 1,000.
   */
  maxSessionsPerRequestor?: number;
  /**
   * The SSE events a session keeps for resumption (a GET with `Last-Event-ID` replays the events
   * of that stream after it), at most this much JSON text per session (its length), oldest
   * dropped first; an event larger than this is sent but not kept. Default 32 KiB; 0 keeps none.
   */
  maxReplayBytes?: number;
  /**
   * The SSE events all sessions together keep for resumption, at most this many bytes: past it a
   * session drops its own oldest events, and keeps none when it has none to drop. Default 32 MiB.
   */
  maxReplayBytesTotal?: number;
  /**
   * What a 2026-07-28 request that leaves out the `Mcp-Method` or `Mcp-Name` routing header gets.
   * The spec: requestors MUST send them (`Mcp-Name: <taskId>` on `tasks/get|update|cancel`,
   * §D 111), and "Servers that read the body MUST reject missing or mismatching standard headers
   * with -32020 and HTTP 400" (§D 97). `"strict"` (the default) does exactly that.
   * `"allow-missing"` is an opt-in for requestors in the wild that omit them (a popular Python
   * framework's task client sends `tasks/get|update|cancel` without `Mcp-Name`): a request
   * without `Mcp-Method` or `Mcp-Name` is served as if it had sent the body's values (this server
   * routes by the body, so nothing is lost). A header that is present and disagrees with the
   * body is -32020 in both modes ("never a mismatched one"), and so is a missing
   * `MCP-Protocol-Version`. The checker names such a peer's omission `header-missing`.
   */
  routingHeaders?: "strict" | "allow-missing";
};

/**
 * Structural types of node:http's IncomingMessage and ServerResponse (no node: import).
 */
export type NodeRequest = AsyncIterable<Uint8Array> & { method?: string; url?: string; headers: Record<string, string | string[] | undefined>; socket?: { remoteAddress?: string; }; auth?: RequestAuth; };

export type NodeResponse = {
  writeHead: (status: number, headers: Record<string, string>) => unknown;
  write: (chunk: Uint8Array) => unknown;
  end: (chunk?: Uint8Array) => unknown;
  on: (event: "close", listener: () => void) => unknown;
  writableFinished: boolean;
  headersSent: boolean;
  destroy: () => unknown;
  flushHeaders?: () => void;
};

/**
 * What the dispatcher answers, before a transport writes it: `body` (JSON text; `null`: none),
 * or `stream`, an SSE stream the transport drains (`node` with `res.write`, `fetch` through a
 * ReadableStream).
 */
export type HttpAnswer = { status: number; headers: Record<string, string>; body: string | null; stream?: SseStream; };

/** `MCP-Protocol-Version` values a 2025-11-25 session accepts (older clients are offered 2025-11-25). */
const LEGACY_HEADER_VERSIONS = [V25, "2025-06-18", "2025-03-26"];

/** Errors the transport answers with HTTP 400 (§B.f; malformed requests). */
const BAD_REQUEST_CODES = [PARSE_ERROR, INVALID_REQUEST, HEADER_MISMATCH, MISSING_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION];

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();

/** The HTTP status of a JSON-RPC response. */
function statusOf(response: JsonObject): number {
  const error = response.error;
  const code = isObject(error) ? error.code : undefined;
  return typeof code === "number" && BAD_REQUEST_CODES.includes(code) ? 400 : 200;
}

function jsonResponse(status: number, body: JsonObject | null, headers: Record<string, string> = {}): HttpAnswer {
  if (body === null) return { status, headers, body: null };
  return { status, headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

/**
 * One HTTP request as the dispatcher reads it: what `fetch` and `node` adapt their request to
 * (FetchIn, NodeIn), so that both run the same protocol code.
 */
interface HttpIn {
  method: string;
  /** The URL's path. */
  pathname(): string;
  /** One header (lower-case name), `null` when absent; repeated ones joined by ", ". */
  header(name: string): string | null;
  /** Every header, by lower-case name. */
  headers(): Record<string, string>;
  /** The body, read up to `max` bytes: `null` when it is larger. */
  body(max: number): Promise<Uint8Array | null>;
  /** The client went away before its answer was written. */
  aborted(): boolean;
  /** Calls `listener` when the client goes away before its answer is written; answers a remover. */
  onAbort(listener: () => void): () => void;
  info: RequestInfo;
  /** The request as a WHATWG Request (for a custom `requestor`; `node` builds it only then). */
  request(): Request;
}

/** `fetch`'s request. */
class FetchIn implements HttpIn {
  req: Request;
  info: RequestInfo;
  method: string;
  constructor(req: Request, info: RequestInfo) {
    this.req = req;
    this.info = info;
    this.method = req.method;
  }

  pathname() {
    return new URL(this.req.url).pathname;
  }

  header(name: string) {
    return this.req.headers.get(name);
  }

  headers() {
    const out: Record<string, string> = {};
    this.req.headers.forEach((value, name) => {
      out[name] = value;
    });
    return out;
  }

  async body(max: number): Promise<Uint8Array | null> {
    if (this.req.body === null) return new Uint8Array(0);
    const reader = this.req.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > max) {
        reader.cancel().catch(() => {});
        return null;
      }
      chunks.push(value);
    }
    return concatBytes(chunks, size);
  }

  aborted() {
    return this.req.signal.aborted;
  }

  onAbort(listener: () => void) {
    const signal = this.req.signal;
    signal.addEventListener("abort", listener, { once: true });
    return () => signal.removeEventListener("abort", listener);
  }

  request() {
    return this.req;
  }
}

/** `node`'s request: IncomingMessage read directly, the client's going away seen on `res`. */
class NodeIn implements HttpIn {
  req: NodeRequest;
  info: RequestInfo;
  method: string;
  /** The connection closed before the answer was written. */
  gone = false;
  /** The response ended or the connection closed. */
  closed = false;
  listeners: Array<() => void> = [];
  /** The body as read (for `request()`). */
  bytes: Uint8Array | null = null;
  built: Request | null = null;
  constructor(req: NodeRequest, res: NodeResponse) {
    this.req = req;
    this.info = { remoteAddress: req.socket?.remoteAddress ?? null, auth: req.auth ?? null };
    this.method = req.method ?? "GET";
    res.on("close", () => {
      this.closed = true;
      if (res.writableFinished) return;
      this.gone = true;
      const listeners = this.listeners;
      this.listeners = [];
      for (const f of listeners) f();
    });
  }

  pathname() {
    const url = this.req.url ?? "/";
    // The common case without parsing: a plain path (no dot segments, escapes or backslashes).
    const end = url.search(/[?#]/);
    const path = end < 0 ? url : url.slice(0, end);
    if (/^\/(?!\/)[A-Za-z0-9_~\/-]*$/.test(path)) return path;
    return new URL(url, "http://localhost").pathname;
  }

  header(name: string) {
    const value = this.req.headers[name];
    return typeof value === "string" ? value : Array.isArray(value) ? value.join(", ") : null;
  }

  headers() {
    const out: Record<string, string> = {};
    for (const name in this.req.headers) {
      const value = this.header(name);
      if (value !== null) out[name] = value;
    }
    return out;
  }

  async body(max: number): Promise<Uint8Array | null> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    // Not a for-await: leaving it would destroy the request, and the socket with it, before the
    // 413 goes out. Past the limit the rest is left unread; the 413 closes the connection.
    const reading = this.req[Symbol.asyncIterator]();
    for (;;) {
      const next = await reading.next();
      if (next.done === true) break;
      size += next.value.length;
      if (size > max) return null;
      chunks.push(next.value);
    }
    this.bytes = concatBytes(chunks, size);
    return this.bytes;
  }

  aborted() {
    return this.gone;
  }

  onAbort(listener: () => void) {
    if (this.closed) return () => {};
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((f) => f !== listener);
    };
  }

  request() {
    if (this.built !== null) return this.built;
    const headers = new Headers();
    for (const [name, value] of Object.entries(this.req.headers)) {
      if (typeof value === "string") headers.set(name, value);
      else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    }
    let url;
    try {
      url = new URL(this.req.url ?? "/", `http://${headers.get("host") ?? "localhost"}`);
    } catch {
      url = new URL(this.req.url ?? "/", "http://localhost");
    }
    const abort = new AbortController();
    if (this.gone) abort.abort();
    else this.onAbort(() => abort.abort());
    const body = this.method === "GET" || this.method === "HEAD" ? null : (this.bytes as Uint8Array<ArrayBuffer> | null);
    this.built = new Request(url, { method: this.method, headers, body, signal: abort.signal });
    return this.built;
  }
}

/** `fetch`'s answer: a Response (SSE through a ReadableStream). */
function toResponse(answer: HttpAnswer): Response {
  const body = answer.stream !== undefined ? answer.stream.readable() : answer.body;
  return new Response(body, { status: answer.status, headers: answer.headers });
}

/** `node`'s answer: written with `writeHead` and `end` (SSE events with `write`). */
function writeNode(answer: HttpAnswer, incoming: NodeIn, res: NodeResponse) {
  const stream = answer.stream;
  if (stream !== undefined) {
    if (incoming.closed) return stream.cancel(); // nobody to write to
    res.writeHead(answer.status, answer.headers);
    res.flushHeaders?.();
    res.on("close", () => stream.cancel());
    stream.attach({
      write: (text) => res.write(ENCODER.encode(text)),
      end: () => res.end(),
    });
    return;
  }
  if (answer.body === null) {
    res.writeHead(answer.status, answer.headers);
    res.end();
    return;
  }
  const bytes = ENCODER.encode(answer.body);
  const headers: Record<string, string> = { ...answer.headers, "Content-Length": String(bytes.length) };
  // A body refused unread (too large) is not read to its end to keep the connection: it closes.
  if (answer.status === 413) headers["Connection"] = "close";
  res.writeHead(answer.status, headers);
  res.end(bytes);
}

/** The default origin rule: local pages only. */
function isLocalOrigin(origin: string): boolean {
  try {
    return ["localhost", "127.0.0.1", "[::1]"].includes(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** Checks a count option: a non-negative safe integer, or `Infinity` when `infinite`. */
function countOption(name: string, value: number, infinite: boolean): number {
  if (!((infinite && value === Infinity) || (Number.isSafeInteger(value) && value >= 0))) {
    throw new TypeError(`${name} must be a non-negative integer${infinite ? " or Infinity" : ""} (got ${String(value)})`);
  }
  return value;
}

/** The default requestor: the authenticated principal, else the peer's address. */
function defaultRequestor(_request: Request, info: RequestInfo): string | null {
  const { clientId, subject } = authNames(info.auth);
  if (clientId !== null) return `client:${clientId}`;
  if (subject !== null) return `subject:${subject}`;
  const address = info.remoteAddress ?? info.remoteAddr?.hostname;
  return typeof address === "string" && address !== "" ? `address:${address}` : null;
}

/**
 * The SSE events of one session's streams, kept for resumption (2025-11-25 Streamable HTTP: a
 * GET with `Last-Event-ID` replays what followed that event on the same stream). Event ids are
 * `<stream>.<n>`: the stream's part is random (a stream cannot be named from another session),
 * `n` counts the session's events. At most `maxBytes` of JSON are kept, oldest dropped first.
 */
class EventLog {
  maxBytes: number;
  /** What every session's log holds together, and its bound. */
  total: { bytes: number; max: number; };
  bytes: number;
  events: Array<{ stream: string; seq: number; data: string; }>;
  head: number;
  next: number;
  /** The highest `n` dropped (a resume from before it may have lost events). */
  dropped: number;
  constructor(maxBytes: number, total: { bytes: number; max: number; }) {
    this.maxBytes = maxBytes;
    this.total = total;
    this.bytes = 0;
    this.events = [];
    this.head = 0;
    this.next = 1;
    this.dropped = 0;
  }

  /** Keeps one event of `stream` (when it fits); answers its id. */
  append(stream: string, data: string): string {
    const seq = this.next++;
    const size = data.length;
    if (size > this.maxBytes || size > this.total.max) {
      this.dropped = seq; // larger than the whole log: sent, not kept
      return `${stream}.${seq}`;
    }
    // Room: within this session's bound and the bound of all sessions, its own oldest dropped.
    while (this.head < this.events.length && (this.bytes + size > this.maxBytes || this.total.bytes + size > this.total.max)) {
      const old = this.events[this.head];
      this.events[this.head] = (undefined as unknown as (typeof this.events)[number]);
      this.head += 1;
      if (old) {
        this.bytes -= old.data.length;
        this.total.bytes -= old.data.length;
        this.dropped = old.seq;
      }
    }
    if (this.bytes + size > this.maxBytes || this.total.bytes + size > this.total.max) {
      this.dropped = seq; // the other sessions hold the rest of maxReplayBytesTotal: sent, not kept
      return `${stream}.${seq}`;
    }
    this.events.push({ stream, seq, data });
    this.bytes += size;
    this.total.bytes += size;
    if (this.head > 64 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
    return `${stream}.${seq}`;
  }

  /**
   * The events of the stream named by `lastEventId` after it: `{ stream, events }`, or
   * `"gone"` when some may have been dropped since, `"unknown"` when this session did not send it.
   */
  after(lastEventId: string): { stream: string; events: Array<{ id: string; data: string; }>; } | "gone" | "unknown" {
    const m = /^([0-9a-f-]{36})\.([1-9][0-9]{0,15})$/.exec(lastEventId);
    if (!m) return "unknown";
    const stream = m[1] as string;
    const seq = Number(m[2]);
    if (!(seq < this.next)) return "unknown";
    let found = false;
    const events: Array<{ id: string; data: string; }> = [];
    for (let i = this.head; i < this.events.length; i++) {
      const e = this.events[i];
      if (!e || e.stream !== stream) continue;
      if (e.seq === seq) found = true;
      else if (e.seq > seq) events.push({ id: `${stream}.${e.seq}`, data: e.data });
    }
    if (seq <= this.dropped) return "gone"; // the event itself, or one after it, was dropped
    return found ? { stream, events } : "unknown";
  }

  /** Forgets every event and keeps no more (the session ended). */
  clear() {
    this.maxBytes = 0;
    this.total.bytes -= this.bytes;
    this.bytes = 0;
    this.events = [];
    this.head = 0;
  }
}

/**
 * One Server-Sent Events response body. Events written before a transport takes it (`attach`)
 * wait in `pending`; `node` then writes them to the ServerResponse, `fetch` to a ReadableStream.
 */
class SseStream {
  closed: boolean;
  timer: ReturnType<typeof setInterval> | null;
  /** The session's event log and this stream's name in it (`null`: events carry no id). */
  log: { events: EventLog; stream: string; } | null;
  /** Where the text goes once a transport took the stream (`null`: kept in `pending`). */
  sink: { write(text: string): unknown; end(): unknown; } | null;
  pending: string[];
  onCancel: () => void;
  /**
   * @param onCancel Called when the client goes away (the body is cancelled).
   * @param keepAliveMs Sends an SSE comment this often while open (0: never), so that
   *   idle streams survive clients' and proxies' body timeouts (undici: 300 s).
   * @param log A session's event log: each event gets an `id:` and is kept for resumption, under
   *   `stream` (default a new random name).
   */
  constructor(onCancel: () => void, keepAliveMs: number, log: EventLog | null = null, stream: string = crypto.randomUUID()) {
    this.log = log === null ? null : { events: log, stream };
    this.closed = false;
    this.timer = null;
    this.sink = null;
    this.pending = [];
    this.onCancel = onCancel;
    if (keepAliveMs > 0) {
      this.timer = setInterval(() => {
        if (this.closed) return this.#stopTimer();
        this.#put(": keepalive\n\n");
      }, Math.min(keepAliveMs, 2 ** 31 - 1)); // a longer delay would fire every 1 ms
    }
  }

  #stopTimer() {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** Sends text; `false` once the stream is closed. */
  #put(text: string): boolean {
    if (this.closed) return false;
    if (this.sink === null) {
      this.pending.push(text);
      return true;
    }
    try {
      this.sink.write(text);
      return true;
    } catch {
      this.closed = true;
      this.#stopTimer();
      return false;
    }
  }

  /** Sends one JSON-RPC message; `false` once the stream is closed. */
  write(message: JsonObject) {
    if (this.closed) return false;
    const data = JSON.stringify(message);
    const id = this.log === null ? null : this.log.events.append(this.log.stream, data);
    return this.writeEvent(id, data);
  }

  /** Sends one event (`id`: its SSE id, `null` none); `false` once the stream is closed. */
  writeEvent(id: string | null, data: string) {
    return this.#put(`${id === null ? "" : `id: ${id}\n`}event: message\ndata: ${data}\n\n`);
  }

  close() {
    this.#stopTimer();
    if (this.closed) return;
    this.closed = true;
    try {
      this.sink?.end();
    } catch {
      // already gone
    }
  }

  /** The client went away before the stream ended. */
  cancel() {
    if (this.closed) return;
    this.closed = true;
    this.#stopTimer();
    this.pending = [];
    this.onCancel();
  }

  /** A transport takes the stream: what waits is written, then each event as it comes. */
  attach(sink: { write(text: string): unknown; end(): unknown; }) {
    this.sink = sink;
    const pending = this.pending;
    this.pending = [];
    for (const text of pending) sink.write(text);
    if (this.closed) sink.end();
  }

  /** The stream as a ReadableStream (`fetch`). */
  readable(): ReadableStream<Uint8Array> {
    return new ReadableStream({
      start: (controller) => {
        this.attach({ write: (text) => controller.enqueue(ENCODER.encode(text)), end: () => controller.close() });
      },
      cancel: () => this.cancel(),
    });
  }

  response(headers: Record<string, string>): HttpAnswer {
    return {
      status: 200,
      headers: { ...headers, "Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no" },
      body: null,
      stream: this,
    };
  }
}

/**
 * Whether a 2026-07-28 message is a `tools/call` with a `_meta.progressToken` whose client accepts
 * an SSE answer: its progress can go out on the answer's stream.
 */
function wantsProgress(message: JsonObject, headers: Record<string, string>): boolean {
  if (message.method !== "tools/call" || !isObject(message.params) || !isObject(message.params._meta)) return false;
  const token = message.params._meta.progressToken;
  if (typeof token !== "string" && !(typeof token === "number" && Number.isInteger(token))) return false;
  return (headers["accept"] ?? "").toLowerCase().includes("text/event-stream");
}

/**
 * The answer to one POSTed request: a JSON body, or an SSE stream as soon as something must go
 * out before the final response (requests to the client, status notifications).
 */
class Reply {
  id: unknown;
  keepAliveMs: number;
  canStream: boolean;
  headers: Record<string, string>;
  done: boolean;
  stream: SseStream | null;
  /**
   * Aborts when the client goes away before the final answer; made when `signal` is first read
   * (an AbortSignal costs a few microseconds, and most requests never look at theirs).
   */
  abort: AbortController | null;
  /** Why the reply was aborted (`null`: it was not), also before `abort` exists. */
  abortReason: Error | null = null;
  resolve: (response: HttpAnswer) => void;
  response: Promise<HttpAnswer>;
  onGone: Set<() => void>;
  log: EventLog | null;
  /** Cancelled by the client: finished without an answer. */
  cancelled = false;
  /**
   * @param id The request's id.
   * @param canStream The client accepts SSE.
   * @param headers Headers of the HTTP response.
   * @param request The request (the client's going away ends the reply).
   * @param keepAliveMs See SseStream.
   * @param log The session's event log (the stream's events get ids, kept for resumption).
   */
  constructor(id: unknown, canStream: boolean, headers: Record<string, string>, request: HttpIn, keepAliveMs: number, log: EventLog | null = null) {
    this.log = log;
    this.id = id;
    this.keepAliveMs = keepAliveMs;
    this.canStream = canStream;
    this.headers = headers;
    this.done = false;
    this.stream = null;
    this.abort = null;
    this.resolve = (): void => {};
    this.response = new Promise((resolve) => {
      this.resolve = resolve;
    });
    this.onGone = new Set();
    const gone = () => this.#gone();
    if (request.aborted()) gone();
    else request.onAbort(gone);
  }

  get signal() {
    if (this.abort === null) {
      this.abort = new AbortController();
      if (this.abortReason !== null) this.abort.abort(this.abortReason);
    }
    return this.abort.signal;
  }

  /** Aborts the reply's work (the first reason is kept). */
  #abort(reason: Error) {
    if (this.abortReason !== null) return;
    this.abortReason = reason;
    this.abort?.abort(reason);
  }

  /** Sends `message` before the final answer (switching to SSE); `false` when it cannot. */
  send(message: JsonObject) {
    if (this.done || !this.canStream || this.abortReason !== null) return false;
    if (this.stream === null) {
      this.stream = new SseStream(() => this.#gone(), this.keepAliveMs, this.log);
      this.resolve(this.stream.response(this.headers));
    }
    return this.stream.write(message);
  }

  /**
   * The client cancelled the request (`notifications/cancelled`): its work is aborted, and no
   * answer is sent for it (the stream closes, or HTTP 202 without a body), as cancellation asks.
   */
  cancel() {
    this.cancelled = true;
    if (this.abortReason === null) {
      const reason = new Error("the client cancelled the request");
      reason.name = "AbortError";
      this.#abort(reason);
    }
  }

  /** The final answer (`null`: none, HTTP 202). */
  finish(message: JsonObject | null, status?: number) {
    if (this.done) return;
    this.done = true;
    if (this.cancelled) message = null;
    if (this.stream !== null) {
      if (message !== null) this.stream.write(message);
      this.stream.close();
    } else {
      let response: HttpAnswer;
      try {
        response = jsonResponse(message === null ? 202 : (status ?? statusOf(message)), message, this.headers);
      } catch {
        // A message JSON cannot carry (a BigInt, a cycle): answered all the same.
        response = jsonResponse(500, rpcError(this.id, INTERNAL_ERROR, "Internal error: the response could not be written"), this.headers);
      }
      this.resolve(response);
    }
  }

  #gone() {
    if (this.done && this.stream === null) return; // answered with JSON: nothing was cut short
    // Nobody reads this answer any more; settle the promise all the same.
    if (!this.done && this.stream === null) this.resolve({ status: 204, headers: this.headers, body: null });
    this.done = true;
    this.stream?.close();
    if (this.abortReason === null) {
      const reason = new Error("the client closed the request");
      reason.name = "AbortError";
      this.#abort(reason);
    }
    for (const f of this.onGone) f();
  }
}


/**
 * A 2025-11-25 session.
 */
export type Session = {
  id: string;
  clientCapabilities: JsonObject;
  lastSeen: number;
  /** The GET stream. */
  listen: SseStream | null;
  /** Open `tasks/result` requests by task id. */
  resultStreams: Map<string, Set<Reply>>;
  /** Requests to the client waiting for a stream. */
  queued: Array<{ taskId: string; message: JsonObject; }>;
  /**
   * The last progress notification of each live task that found no stream open, sent when one
   * opens (a later step supersedes it); dropped when the task ends (its result says more), so it
   * holds at most one per live task of the session (`maxLiveTasksPerSession`).
   */
  progress: Map<string, JsonObject>;
  /** Requests sent to the client, by id, waiting for its response. */
  outgoing: ClientRequests<string | number>;
  nextId: number;
  /**
   * The live tasks created in this session, with when their TTL ends (Unix ms; `Infinity`: no
   * TTL). A task leaves when it ends, expires or the session ends: the session holds at most the
   * store's `maxLiveTasksPerSession` of them.
   */
  tasks: Map<string, number>;
  /** Requests being answered, by id. */
  inflight: Map<string | number, Reply>;
  /** Who opened it (McpHttpServer's `requestor`; `null`: unknown). */
  requestor: string | null;
  /**
   * The owner of its requests and tasks (TaskHost.ownerOf the auth of its `initialize`; `null`:
   * none): a request of another owner finds no such session.
   */
  owner: string | null;
  /** The SSE events of its streams, for resumption (`Last-Event-ID`). */
  events: EventLog;
  /** The name of its GET stream in `events` (kept across resumptions). */
  listenStream: string | null;
};

class McpHttpServer {
  #serverInfo: JsonObject;
  #instructions: string | undefined;
  readonly host: TaskHost;
  #path: string | null;
  #originAllowed: (origin: string) => boolean;
  #sessionTtlMs: number;
  #maxBodyBytes: number;
  #housekeepingMs: number;
  #keepAliveMs: number;
  #onError: (error: unknown) => void;
  #requestor: (request: Request, info: RequestInfo) => string | null;
  #maxSessions: number;
  #maxSessionsPerRequestor: number;
  #maxReplayBytes: number;
  /** `McpHttpServerOptions.routingHeaders`: whether a missing `Mcp-Method` / `Mcp-Name` is served. */
  #allowMissingRoutingHeaders: boolean;
  /** The bytes every session's event log holds, and their bound (`maxReplayBytesTotal`). */
  #replayBytes: { bytes: number; max: number; };
  #tools: Map<string, { descriptor: JsonObject, taskSupport: TaskSupport }>;
  /** The transport-independent answers (tool registry, initialize, the 2026-07-28 dispatch). */
  #endpoint: McpEndpoint;
  #sessions: Map<string, Session>;
  /** Live sessions per requestor. */
  #sessionsOf: Map<string, number>;
  /** The session of each live task of a session (what a change of a task concerns, in O(1)). */
  #taskSessions: Map<string, Session>;
  /** Session tasks that ended before their CreateTaskResult was seen (a few, newest kept). */
  #endedEarly: Set<string>;
  #replies: Set<Reply>;
  #lastHousekeeping: number;
  #closed: boolean;
  #unwatch: () => void;
  #subscriptions: TaskSubscriptions;
  fetch: (request: Request, info?: RequestInfo) => Promise<Response>;
  node: (req: NodeRequest, res: NodeResponse) => void;
  constructor(options: McpHttpServerOptions) {
    if (!isObject(options) || typeof options.name !== "string" || typeof options.version !== "string") {
      throw new TypeError("McpHttpServer needs { name, version } (the serverInfo)");
    }
    this.#serverInfo = { name: options.name, version: options.version };
    if (typeof options.title === "string") this.#serverInfo.title = options.title;
    this.#instructions = options.instructions;
    /** (typed as over TaskServer; over a SharedTaskServer its `sweep` answers a promise) */
    this.host = (options.host ?? new TaskHost(options.hostOptions)) as TaskHost;
    this.#path = options.path ?? null;
    const origins = options.allowedOrigins;
    this.#originAllowed = typeof origins === "function" ? origins : Array.isArray(origins) ? (o) => origins.includes(o) : isLocalOrigin;
    this.#sessionTtlMs = options.sessionTtlMs ?? 30 * 60_000;
    this.#maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.#housekeepingMs = options.housekeepingMs ?? 60_000;
    this.#keepAliveMs = options.keepAliveMs ?? 15_000;
    this.#onError = options.onError ?? ((error) => console.error("McpHttpServer:", error));
    this.#requestor = options.requestor ?? defaultRequestor;
    this.#maxSessions = countOption("maxSessions", options.maxSessions ?? 10_000, true);
    this.#maxSessionsPerRequestor = countOption("maxSessionsPerRequestor", options.maxSessionsPerRequestor ?? 1_000, true);
    this.#maxReplayBytes = countOption("maxReplayBytes", options.maxReplayBytes ?? 32 * 1024, false);
    const routing = options.routingHeaders ?? "strict";
    if (routing !== "strict" && routing !== "allow-missing") {
      throw new TypeError(`routingHeaders must be "strict" or "allow-missing", not ${JSON.stringify(routing)}`);
    }
    this.#allowMissingRoutingHeaders = routing === "allow-missing";
    this.#replayBytes = { bytes: 0, max: countOption("maxReplayBytesTotal", options.maxReplayBytesTotal ?? 32 * 1024 * 1024, false) };
    this.#endpoint = new McpEndpoint(this.#serverInfo, this.#instructions, this.host);
    this.#tools = this.#endpoint.tools;
    this.#sessions = new Map();
    this.#sessionsOf = new Map();
    this.#taskSessions = new Map();
    this.#endedEarly = new Set();
    /** Replies not finished yet (closed with an error by `close`). */
    this.#replies = new Set();
    this.#lastHousekeeping = this.host.now();
    this.#closed = false;
    // Each change is looked up by its task id: its cost does not grow with the idle sessions.
    this.#unwatch = this.host.watch(
      (task) => this.#statusChanged(task),
      (taskId) => this.#taskSessions.has(taskId),
    );
    /** 2026-07-28 push: `subscriptions/listen` streams (js/server/subscriptions.ts). */
    this.#subscriptions = new TaskSubscriptions(this.host, (onCancel) => new SseStream(onCancel, this.#keepAliveMs), {
      serverInfo: this.#serverInfo,
      maxStreams: countOption("maxSubscriptionStreams", options.maxSubscriptionStreams ?? 10_000, true),
    });

    /** The fetch-style handler: `Deno.serve(app.fetch)`, `export default { fetch: app.fetch }`. */
    this.fetch = async (request, info): Promise<Response> => toResponse(await this.#handle(new FetchIn(request, info ?? {})));
    /**
     * The node:http handler: `http.createServer(app.node)`. Streams SSE responses; a client that
     * closes its connection aborts its request.
     */
    this.node = (req, res): void => {
      this.#node(req, res).catch((e) => {
        this.#report(e);
        // The last resort: answered (500 with a JSON-RPC error, or the stream cut), never thrown.
        try {
          if (!res.headersSent) {
            res.writeHead(500, { "Content-Type": "application/json" });
            res.write(ENCODER.encode(JSON.stringify(rpcError(null, INTERNAL_ERROR, "Internal error"))));
            res.end();
          } else res.destroy();
        } catch (e) {
          this.#report(e);
        }
      });
    };
  }

  /** Registers a tool: TaskHost runs it (synchronously or as a task), `tools/list` shows it. */
  tool<S extends import("./tool-schema.js").StandardSchemaV1>(name: string, options: HttpToolOptions & { inputSchema: S; }, handler: import("./host.js").TypedToolHandler<Extract<import("./tool-schema.js").StandardSchemaOutput<S>, object>>): this;
  tool<TArgs extends object = JsonObject>(name: string, options: HttpToolOptions, handler: import("./host.js").TypedToolHandler<TArgs>): this;
  tool(name: string, options: HttpToolOptions, handler: import("./host.js").TypedToolHandler): this {
    const changed = this.#endpoint.tool(name, options, handler) || this.#sessions.size > 0;
    if (changed) {
      for (const session of this.#sessions.values()) {
        session.listen?.write({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
      }
    }
    return this;
  }

  /**
   * @internal The test hook (see INTERNALS): the session table (replaceable, to count its uses),
   * the waiting replies, the replay buffers' bytes, the registered tools and the endpoint.
   */
  [INTERNALS]() {
    const server = this;
    return {
      get sessions() {
        return server.#sessions;
      },
      set sessions(table: Map<string, Session>) {
        server.#sessions = table;
      },
      replies: this.#replies,
      replayBytes: this.#replayBytes,
      maxSessions: this.#maxSessions,
      maxSessionsPerRequestor: this.#maxSessionsPerRequestor,
      tools: this.#tools,
      endpoint: this.#endpoint,
    };
  }

  /**
   * Purges expired tasks and ends idle sessions now (it also happens on requests, at most every
   * `housekeepingMs`). Returns how many tasks were purged (over a SharedTaskServer, a promise of
   * it: its sweep reads the storage).
   */
  sweep(): number | Promise<number> {
    const now = this.host.now();
    this.#lastHousekeeping = now;
    // A TaskHost over a SharedTaskServer answers a promise (typed as over a TaskServer here).
    const purged = this.host.sweep() as number | Promise<number>;
    if (purged instanceof Promise) purged.catch((e) => this.#report(e));
    for (const session of [...this.#sessions.values()]) {
      // Tasks past their TTL are no longer live (the store purges them without telling anyone).
      for (const [taskId, ends] of session.tasks) if (ends <= now) this.#forgetTask(taskId);
      const busy = session.listen !== null || session.resultStreams.size > 0 || session.outgoing.size > 0 || session.inflight.size > 0;
      if (!busy && now - session.lastSeen > this.#sessionTtlMs) this.#endSession(session);
    }
    return purged;
  }

  /**
   * Stops serving: open streams end, requests still waiting are answered with an error, every
   * session ends, and the TaskHost's running work is aborted (`TaskHost.close`; the tasks stay
   * in the store). Later requests get HTTP 503. Does not close your HTTP server.
   */
  async close() {
    this.#closed = true;
    for (const reply of [...this.#replies]) {
      reply.finish(rpcError(reply.id, INTERNAL_ERROR, "Internal error: the server is shutting down"), 503);
    }
    for (const session of [...this.#sessions.values()]) this.#endSession(session, false);
    this.#unwatch();
    this.#subscriptions.close();
    await this.host.close();
  }

  /**
   * Logs an unexpected error through `onError`; an `onError` that throws is logged by
   * `console.error`. Never throws: no request can end the process.
   */
  #report(error: unknown) {
    try {
      this.#onError(error);
    } catch (e) {
      try {
        console.error("McpHttpServer: onError threw", e, "while reporting", error);
      } catch {
        // nowhere left to say it
      }
    }
  }

  // ---- HTTP --------------------------------------------------------------------------------------

  /** The dispatcher both transports share. */
  async #handle(request: HttpIn): Promise<HttpAnswer> {
    const cors: Record<string, string> = {};
    const origin = request.header("origin");
    try {
      if (this.#path !== null && request.pathname() !== this.#path) {
        return jsonResponse(404, rpcError(null, INVALID_REQUEST, `Not found: the MCP endpoint is ${this.#path}`));
      }
      if (origin !== null) {
        if (!this.#originAllowed(origin)) return jsonResponse(403, rpcError(null, INVALID_REQUEST, "Forbidden: origin not allowed"));
        // CORS for allowed origins only, so that a page on another local port may call.
        cors["Access-Control-Allow-Origin"] = origin;
        cors["Vary"] = "Origin";
        cors["Access-Control-Expose-Headers"] = "Mcp-Session-Id";
        if (request.method === "OPTIONS") {
          return {
            status: 204,
            body: null,
            headers: {
              ...cors,
              "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
              "Access-Control-Allow-Headers":
                "Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID, Authorization",
              "Access-Control-Max-Age": "600",
            },
          };
        }
      }
      if (this.#closed) return jsonResponse(503, rpcError(null, INTERNAL_ERROR, "Service unavailable: the server is closed"), cors);
      if (this.host.now() - this.#lastHousekeeping >= this.#housekeepingMs) this.sweep();
      switch (request.method) {
        case "POST":
          return await this.#post(request, cors);
        case "GET":
          return this.#get(request, cors);
        case "DELETE":
          return this.#delete(request, cors);
        default:
          return jsonResponse(405, rpcError(null, INVALID_REQUEST, "Method not allowed: POST JSON-RPC messages"), {
            ...cors,
            Allow: "GET, POST, DELETE",
          });
      }
    } catch (e) {
      this.#report(e);
      return jsonResponse(500, rpcError(null, INTERNAL_ERROR, "Internal error"), cors);
    }
  }

  async #node(req: NodeRequest, res: NodeResponse) {
    const incoming = new NodeIn(req, res);
    writeNode(await this.#handle(incoming), incoming, res);
  }

  /**
   * Who sends `request` (the `requestor` option). The default reads only `RequestInfo`, so
   * `node` builds no WHATWG Request for it; a custom one gets the request as a Request.
   */
  #requestorOf(request: HttpIn): string | null {
    if (this.#requestor === defaultRequestor) return defaultRequestor((null as unknown as Request), request.info);
    return this.#requestor(request.request(), request.info);
  }

  async #post(request: HttpIn, cors: Record<string, string>): Promise<HttpAnswer> {
    const type = request.header("content-type");
    if (type !== null && !type.toLowerCase().includes("application/json")) {
      return jsonResponse(415, rpcError(null, INVALID_REQUEST, "Unsupported Media Type: POST application/json"), cors);
    }
    const declared = Number(request.header("content-length"));
    if (declared > this.#maxBodyBytes) return jsonResponse(413, rpcError(null, INVALID_REQUEST, "Request body too large"), cors);
    const bytes = await request.body(this.#maxBodyBytes);
    if (bytes === null) return jsonResponse(413, rpcError(null, INVALID_REQUEST, "Request body too large"), cors);
    let message: unknown;
    try {
      message = JSON.parse(DECODER.decode(bytes));
    } catch {
      return jsonResponse(400, rpcError(null, PARSE_ERROR, "Parse error: the body is not JSON"), cors);
    }
    if (Array.isArray(message)) {
      return jsonResponse(400, rpcError(null, INVALID_REQUEST, "Invalid Request: JSON-RPC batches are not supported"), cors);
    }
    if (!isObject(message)) return jsonResponse(400, rpcError(null, INVALID_REQUEST, "Invalid Request: expected a JSON-RPC message"), cors);
    // A request's id is a string or an integer (MCP: never null; JSON-RPC: no objects, arrays,
    // fractions): anything else is refused with `id: null`, in both eras, before any routing.
    if (message.method !== undefined && Object.hasOwn(message, "id") && !isId(message.id)) {
      return jsonResponse(400, rpcError(null, INVALID_REQUEST, "Invalid Request: `id` must be a string or an integer"), cors);
    }

    const headers = request.headers();
    const meta = isObject(message.params) && isObject(message.params._meta) ? message.params._meta : null;
    const sessionId = headers["mcp-session-id"];
    // Era dispatch: initialize opens a legacy session; modern `_meta` (or headers) is stateless.
    if (message.method === "initialize") return this.#initialize(message, cors, request);
    if (meta !== null && meta[META_PROTOCOL_VERSION] !== undefined) return this.#modern(message, headers, request, cors);
    if (sessionId !== undefined) return this.#legacy(message, sessionId, headers, request, cors);
    const headerVersion = headers["mcp-protocol-version"];
    if (headers["mcp-method"] !== undefined || headerVersion === V26) return this.#modern(message, headers, request, cors);
    if (headerVersion !== undefined && !LEGACY_HEADER_VERSIONS.includes(headerVersion)) {
      return jsonResponse(400, this.#unsupported(message.id, headerVersion), cors);
    }
    return jsonResponse(
      400,
      rpcError(
        message.id,
        INVALID_REQUEST,
        "Bad Request: no Mcp-Session-Id header. Send initialize first (2025-11-25), or per-request _meta with io.modelcontextprotocol/protocolVersion (2026-07-28)",
      ),
      cors,
    );
  }

  #unsupported(id: unknown, requested: string): JsonObject {
    return unsupportedVersion(id, requested);
  }

  // ---- 2026-07-28 --------------------------------------------------------------------------------

  async #modern(message: JsonObject, headers: Record<string, string>, request: HttpIn, cors: Record<string, string>): Promise<HttpAnswer> {
    if (wantsProgress(message, headers)) return this.#modernStreamed(message, headers, request, cors);
    const abort = new AbortController();
    if (request.aborted()) abort.abort();
    const stopWatching = request.onAbort(() => abort.abort());
    let answer: import("./endpoint.js").ModernAnswer;
    try {
      answer = await this.#endpoint.modern(message, {
        headers,
        allowMissingRoutingHeaders: this.#allowMissingRoutingHeaders,
        signal: abort.signal,
        // The requestor bounds the live tasks of each caller (TaskHost maxLiveTasksPerRequestor).
        requestor: this.#requestorOf(request),
        auth: request.info.auth ?? null,
      });
    } finally {
      stopWatching();
    }
    switch (answer.kind) {
      case "none":
        return jsonResponse(202, null, cors);
      case "bad":
        return jsonResponse(400, answer.response, cors);
      case "listen":
        // An SSE stream: the acknowledgement, then `notifications/tasks` (§B.h, §D 96).
        return this.#subscriptions.listen(message, headers, cors, { auth: request.info.auth ?? null });
      default:
        return jsonResponse(statusOf(answer.response), answer.response, cors);
    }
  }

  /**
   * A 2026-07-28 `tools/call` that asks for progress (`_meta.progressToken`) and accepts SSE: a
   * JSON answer, or, from its first progress notification on, an SSE stream that ends with the
   * answer (as a 2025-11-25 call's; a task sends no progress, §B.h).
   */
  #modernStreamed(message: JsonObject, headers: Record<string, string>, request: HttpIn, cors: Record<string, string>): Promise<HttpAnswer> {
    const id = message.id;
    const reply = new Reply(id, true, cors, request, this.#keepAliveMs);
    this.#replies.add(reply);
    this.#endpoint
      .modern(message, {
        headers,
        allowMissingRoutingHeaders: this.#allowMissingRoutingHeaders,
        signal: reply.signal,
        requestor: this.#requestorOf(request),
        auth: request.info.auth ?? null,
        notify: (notification) => reply.send(notification),
      })
      .then((answer) => {
        if (answer.kind === "bad") reply.finish(answer.response, 400);
        else if (answer.kind === "response") reply.finish(answer.response);
        else reply.finish(null);
      })
      .catch((e) => {
        this.#report(e);
        reply.finish(rpcError(id, INTERNAL_ERROR, "Internal error"), 500);
      })
      .finally(() => this.#replies.delete(reply));
    return reply.response;
  }

  // ---- 2025-11-25 --------------------------------------------------------------------------------

  #initialize(message: JsonObject, cors: Record<string, string>, request: HttpIn): HttpAnswer {
    const id = message.id;
    if (!isId(id)) return jsonResponse(400, rpcError(id, INVALID_REQUEST, "Invalid Request: initialize must be a request with an id"), cors);
    const params = message.params;
    if (!isObject(params) || typeof params.protocolVersion !== "string") {
      return jsonResponse(200, rpcError(id, INVALID_PARAMS, "Invalid params: initialize needs params.protocolVersion (a string)"), cors);
    }
    const capabilities = isObject(params.capabilities) ? params.capabilities : {};
    if (this.#sessions.size >= this.#maxSessions) {
      const limit = this.#maxSessions;
      const error = rpcError(id, SERVER_BUSY, `Server busy: ${limit} sessions are open (maxSessions); try again later`, { limit, cap: "maxSessions" });
      return jsonResponse(503, error, { ...cors, "Retry-After": "5" });
    }
    const requestor = this.#requestorOf(request);
    const owned = requestor === null ? 0 : (this.#sessionsOf.get(requestor) ?? 0);
    if (requestor !== null && owned >= this.#maxSessionsPerRequestor) {
      const limit = this.#maxSessionsPerRequestor;
      const error = rpcError(id, SERVER_BUSY, `Too many sessions: this requestor has ${limit} open (maxSessionsPerRequestor); end one (DELETE) first`, {
        limit,
        cap: "maxSessionsPerRequestor",
      });
      return jsonResponse(429, error, { ...cors, "Retry-After": "5" });
    }
    const session: Session = {
      id: crypto.randomUUID(),
      clientCapabilities: capabilities,
      lastSeen: this.host.now(),
      listen: null,
      resultStreams: new Map(),
      queued: [],
      progress: new Map(),
      outgoing: new ClientRequests(),
      nextId: 1,
      tasks: new Map(),
      inflight: new Map(),
      requestor,
      owner: this.host.ownerOf({ auth: request.info.auth ?? null }),
      events: new EventLog(this.#maxReplayBytes, this.#replayBytes),
      listenStream: null,
    };
    this.#sessions.set(session.id, session);
    if (requestor !== null) this.#sessionsOf.set(requestor, owned + 1);
    const result = this.#endpoint.initializeResult();
    return jsonResponse(200, ok(id, result), { ...cors, "Mcp-Session-Id": session.id });
  }

  /**
   * The session `sessionId` names, for a request of the owner that opened it: a request of
   * another owner finds none (404 as for an unknown id: its tasks, streams and pending input
   * requests are the owner's, §D 38).
   */
  #session(sessionId: string, info: RequestInfo): Session | undefined {
    const session = this.#sessions.get(sessionId);
    if (session === undefined || session.owner === null) return session;
    return this.host.ownerOf({ auth: info.auth ?? null }) === session.owner ? session : undefined;
  }

  async #legacy(message: JsonObject, sessionId: string, headers: Record<string, string>, request: HttpIn, cors: Record<string, string>): Promise<HttpAnswer> {
    const session = this.#session(sessionId, request.info);
    if (!session) {
      return jsonResponse(404, rpcError(message.id, SESSION_NOT_FOUND, "Session not found: initialize again"), cors);
    }
    const headerVersion = headers["mcp-protocol-version"];
    if (headerVersion !== undefined && !LEGACY_HEADER_VERSIONS.includes(headerVersion)) {
      return jsonResponse(400, this.#unsupported(message.id, headerVersion), cors);
    }
    session.lastSeen = this.host.now();
    const sessionHeaders = { ...cors, "Mcp-Session-Id": session.id };
    const method = message.method;

    if (typeof method !== "string") {
      // The client's response to a request we sent it.
      const settled = isId(message.id) && session.outgoing.settle(message.id, message);
      if (settled || "result" in message || "error" in message) return jsonResponse(202, null, sessionHeaders);
      return jsonResponse(400, rpcError(message.id, INVALID_REQUEST, "Invalid Request: no method"), sessionHeaders);
    }
    if (!("id" in message)) {
      // Notifications: `initialized`, `cancelled` (aborts a request in flight), the rest ignored.
      if (method === "notifications/cancelled" && isObject(message.params)) {
        const target = message.params.requestId;
        if (isId(target)) session.inflight.get(target)?.cancel();
      }
      return jsonResponse(202, null, sessionHeaders);
    }
    const id = message.id;
    if (!isId(id)) return jsonResponse(400, rpcError(null, INVALID_REQUEST, "Invalid Request: `id` must be a string or an integer"), sessionHeaders);
    const own = this.#endpoint.legacyOwn(method, id);
    if (own !== null) return jsonResponse(200, own, sessionHeaders);
    const accept = (headers["accept"] ?? "").toLowerCase();
    const reply = new Reply(id, accept.includes("text/event-stream"), sessionHeaders, request, this.#keepAliveMs, session.events);
    this.#replies.add(reply);
    session.inflight.set(id, reply);
    this.#answerLegacy(message, id, session, reply)
      .catch((e) => {
        this.#report(e);
        reply.finish(rpcError(id, INTERNAL_ERROR, "Internal error"), 500);
      })
      .finally(() => {
        this.#replies.delete(reply);
        if (session.inflight.get(id) === reply) session.inflight.delete(id);
      });
    return reply.response;
  }

  /** `tools/call` and `tasks/*` in a session: through the host, with a channel to the client. */
  async #answerLegacy(message: JsonObject, id: string | number, session: Session, reply: Reply) {
    const ctx = this.#endpoint.legacyContext(session.id);
    const channel: ClientChannel = {
      // The session's owner owns its tasks (only its requests reach the session).
      owner: session.owner,
      clientCapabilities: session.clientCapabilities,
      get signal() {
        return reply.signal; // made when read
      },
      sendRequest: (req, info) => this.#sendToClient(session, req, info.taskId, info.taskId === null ? reply : null, info.signal),
      sendNotification: (note, info) => this.#notifyClient(session, note, info.taskId === null ? reply : null, info.taskId),
    };
    const params = isObject(message.params) ? message.params : {};
    const resultOf = message.method === "tasks/result" && typeof params.taskId === "string" ? params.taskId : null;
    if (resultOf !== null) {
      // This stream carries the task's requests to the client while the result waits (§A.g).
      const set = session.resultStreams.get(resultOf) ?? new Set();
      set.add(reply);
      session.resultStreams.set(resultOf, set);
      const unregister = () => {
        set.delete(reply);
        if (set.size === 0 && session.resultStreams.get(resultOf) === set) session.resultStreams.delete(resultOf);
      };
      reply.onGone.add(unregister);
      this.#flush(session, resultOf);
      try {
        reply.finish(await this.host.handle(message, ctx, channel));
      } finally {
        unregister();
      }
      return;
    }
    const response = (await this.host.handle(message, ctx, channel)) ?? this.#endpoint.notForHost(message);
    const result = response.result;
    if (isObject(result) && isObject(result.task) && typeof result.task.taskId === "string" && this.#sessions.get(session.id) === session) {
      const task = result.task;
      const taskId = task.taskId as string;
      const created = typeof task.createdAt === "string" ? Date.parse(task.createdAt) : NaN;
      const ends = typeof task.ttl === "number" && Number.isFinite(created) ? created + task.ttl : Infinity;
      const live = !["completed", "failed", "cancelled"].includes(String(task.status)) && !this.#endedEarly.delete(taskId);
      if (live) {
        session.tasks.set(taskId, ends);
        this.#taskSessions.set(taskId, session);
      }
    }
    reply.finish(response);
  }

  /**
   * Sends one request to the client and resolves with its result: on `reply` (a synchronous
   * call's own stream), or for a task on a `tasks/result` stream of it, else the GET stream, else
   * queued until one opens.
   */
  #sendToClient(session: Session, req: ClientRequest, taskId: string | null, reply: Reply | null, signal: AbortSignal): Promise<JsonObject> {
    const id = session.nextId++;
    const message: JsonObject = { jsonrpc: "2.0", id, method: req.method };
    if (req.params !== undefined) message.params = req.params;
    const send = () => {
      if (reply !== null) {
        if (!reply.send(message)) {
          session.outgoing.fail(id, new Error("cannot ask the client: its request does not accept an SSE response (Accept: text/event-stream)"));
        }
      } else if (taskId !== null) {
        session.queued.push({ taskId, message });
        this.#flush(session, taskId);
      }
    };
    return session.outgoing.ask(id, signal, send, () => {
      session.queued = session.queued.filter((q) => q.message !== message);
    });
  }

  /**
   * Sends one notification to the client: on `reply` (a synchronous call's own stream), or for a
   * task on a `tasks/result` stream of it, else the GET stream; none open, it waits for one as the
   * task's last undelivered progress (a later step supersedes it, so one per task is kept).
   */
  #notifyClient(session: Session, note: ClientRequest, reply: Reply | null, taskId: string | null) {
    const message: JsonObject = { jsonrpc: "2.0", method: note.method };
    if (note.params !== undefined) message.params = note.params;
    if (reply !== null) {
      reply.send(message);
      return;
    }
    if (taskId === null || this.#sessions.get(session.id) !== session) return;
    session.progress.delete(taskId);
    for (const r of session.resultStreams.get(taskId) ?? []) if (r.send(message)) return;
    if (session.listen?.write(message)) return;
    session.progress.set(taskId, message);
  }

  /**
   * Delivers the queued requests of `taskId` (every task's when `null`): on a `tasks/result`
   * stream of the task, else on the GET stream.
   */
  #flush(session: Session, taskId: string | null) {
    session.queued = session.queued.filter((q) => {
      if (taskId !== null && q.taskId !== taskId) return true;
      for (const r of session.resultStreams.get(q.taskId) ?? []) if (r.send(q.message)) return false;
      return !(session.listen?.write(q.message) ?? false);
    });
    for (const [task, message] of session.progress) {
      if (taskId !== null && task !== taskId) continue;
      let sent = false;
      for (const r of session.resultStreams.get(task) ?? []) if ((sent = r.send(message))) break;
      if (sent || session.listen?.write(message)) session.progress.delete(task);
    }
  }

  /**
   * §D 43: `notifications/tasks/status` (the full flat Task, no related-task `_meta`) on a stream
   * of the task's session: its `tasks/result` stream, else the GET stream; none open, none sent.
   */
  #statusChanged(task: StoreTask) {
    if (["completed", "failed", "cancelled"].includes(task.status) && !this.#forgetTask(task.taskId) && task.session !== undefined) {
      // A fast task may end before its session records it: remembered for that moment.
      this.#endedEarly.add(task.taskId);
      if (this.#endedEarly.size > 1024) this.#endedEarly.delete(this.#endedEarly.values().next().value as string);
    }
    if (task.protocolVersion !== V25 || task.session === undefined) return;
    const session = this.#sessions.get(task.session);
    if (!session) return;
    if (["completed", "failed", "cancelled"].includes(task.status)) session.progress.delete(task.taskId);
    const note = { jsonrpc: "2.0", method: "notifications/tasks/status", params: task.v25 };
    for (const r of session.resultStreams.get(task.taskId) ?? []) if (r.send(note)) return;
    session.listen?.write(note);
  }

  /** Drops a task that is no longer live from its session; `false` when no session had it. */
  #forgetTask(taskId: string): boolean {
    const session = this.#taskSessions.get(taskId);
    if (session === undefined) return false;
    this.#taskSessions.delete(taskId);
    session.tasks.delete(taskId);
    return true;
  }

  #get(request: HttpIn, cors: Record<string, string>): HttpAnswer {
    const sessionId = request.header("mcp-session-id");
    if (sessionId === null) {
      return jsonResponse(400, rpcError(null, INVALID_REQUEST, "Bad Request: a GET stream needs the Mcp-Session-Id of a 2025-11-25 session"), cors);
    }
    const session = this.#session(sessionId, request.info);
    if (!session) return jsonResponse(404, rpcError(null, SESSION_NOT_FOUND, "Session not found: initialize again"), cors);
    if (!(request.header("accept") ?? "").toLowerCase().includes("text/event-stream")) {
      return jsonResponse(406, rpcError(null, INVALID_REQUEST, "Not Acceptable: a GET stream needs Accept: text/event-stream"), cors);
    }
    const headers = { ...cors, "Mcp-Session-Id": session.id };
    const lastEventId = request.header("last-event-id");
    if (lastEventId !== null) return this.#resume(session, lastEventId, headers);
    if (session.listen !== null && !session.listen.closed) {
      return jsonResponse(409, rpcError(null, INVALID_REQUEST, "Conflict: this session already has a GET stream"), cors);
    }
    return this.#listen(session, crypto.randomUUID(), [], headers);
  }

  /** Opens the session's GET stream named `stream`, first replaying `replay`. */
  #listen(session: Session, stream: string, replay: Array<{ id: string; data: string; }>, headers: Record<string, string>): HttpAnswer {
    session.lastSeen = this.host.now();
    const sse: SseStream = new SseStream(
      () => {
        if (session.listen === sse) session.listen = null;
        session.lastSeen = this.host.now();
      },
      this.#keepAliveMs,
      session.events,
      stream,
    );
    for (const e of replay) sse.writeEvent(e.id, e.data);
    session.listen = sse;
    session.listenStream = stream;
    const response = sse.response(headers);
    this.#flush(session, null);
    return response;
  }

  /**
   * A GET with `Last-Event-ID` (2025-11-25 resumability): the events of that event's stream
   * after it, from the session's log. The GET stream goes on live afterwards (replacing an open
   * one); a POST's stream ends after the replay (its request ended when the stream dropped: ask
   * again, e.g. `tasks/result`). Events of other streams are never replayed on it.
   */
  #resume(session: Session, lastEventId: string, headers: Record<string, string>): HttpAnswer {
    const found = session.events.after(lastEventId);
    if (found === "unknown") {
      return jsonResponse(400, rpcError(null, INVALID_REQUEST, "Bad Request: Last-Event-ID names no event of this session"), headers);
    }
    if (found === "gone") {
      const limit = this.#maxReplayBytes;
      const error = rpcError(null, SERVER_BUSY, `Gone: events after Last-Event-ID are no longer kept (maxReplayBytes ${limit}, maxReplayBytesTotal); open a new stream`, {
        limit,
        cap: "maxReplayBytes",
      });
      return jsonResponse(410, error, headers);
    }
    if (found.stream === session.listenStream) {
      const old = session.listen;
      session.listen = null;
      old?.close();
      return this.#listen(session, found.stream, found.events, headers);
    }
    session.lastSeen = this.host.now();
    const sse = new SseStream(() => {}, 0);
    for (const e of found.events) sse.writeEvent(e.id, e.data);
    sse.close();
    return sse.response(headers);
  }

  #delete(request: HttpIn, cors: Record<string, string>): HttpAnswer {
    const sessionId = request.header("mcp-session-id");
    if (sessionId === null) return jsonResponse(400, rpcError(null, INVALID_REQUEST, "Bad Request: DELETE needs the Mcp-Session-Id to end"), cors);
    const session = this.#session(sessionId, request.info);
    if (!session) return jsonResponse(404, rpcError(null, SESSION_NOT_FOUND, "Session not found"), cors);
    this.#endSession(session);
    return { status: 200, headers: cors, body: null };
  }

  /**
   * Ends a session: its streams close, requests to its client are abandoned, and (unless the
   * server is closing) its live tasks are cancelled, since nobody else may read them (§D 38).
   */
  #endSession(session: Session, cancelTasks: boolean = true) {
    if (this.#sessions.get(session.id) !== session) return;
    this.#sessions.delete(session.id);
    if (session.requestor !== null) {
      const owned = (this.#sessionsOf.get(session.requestor) ?? 1) - 1;
      if (owned > 0) this.#sessionsOf.set(session.requestor, owned);
      else this.#sessionsOf.delete(session.requestor);
    }
    const live = [...session.tasks.keys()];
    for (const taskId of live) this.#taskSessions.delete(taskId);
    session.tasks.clear();
    session.events.clear();
    session.listen?.close();
    session.listen = null;
    for (const set of session.resultStreams.values()) {
      for (const r of set) r.finish(rpcError(r.id, INTERNAL_ERROR, "Internal error: the session ended"));
    }
    session.resultStreams.clear();
    const ended = new Error("the session ended");
    ended.name = "AbortError";
    session.outgoing.rejectAll(ended);
    session.queued = [];
    if (!cancelTasks) return;
    const ctx = { protocolVersion: (V25 as "2025-11-25"), session: session.id };
    for (const taskId of live) {
      const cancel = { jsonrpc: "2.0", id: 0, method: "tasks/cancel", params: { taskId } };
      // A task already terminal answers -32602: nothing to do.
      this.host.handle(cancel, ctx).catch((e) => this.#report(e));
    }
  }
}

export { McpHttpServer };
