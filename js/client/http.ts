// HttpConnection: one MCP client connection over Streamable HTTP, with `fetch` only (Node, Deno,
// browsers: no `node:` module). It negotiates the protocol version itself:
//
//   2026-07-28  stateless: `server/discover`, then every request carries its own `_meta` (protocol
//               version, client capabilities) and the headers MCP-Protocol-Version, Mcp-Method
//               and Mcp-Name (§B.b, §D 111), values not header-safe in the Base64 sentinel;
//   2025-11-25  a session: `initialize`, the `Mcp-Session-Id` it answers sent on every request
//               with `MCP-Protocol-Version`, `notifications/initialized`, `DELETE` on close.
//
// Without a pinned version it tries 2026-07-28 first and falls back to `initialize` when the
// server does not answer `server/discover` in the 2026 way (an HTTP 4xx, a JSON-RPC error, a
// discover answer without 2026-07-28); a -32022 naming the versions the server speaks picks one
// of them. Answers come as JSON or as an SSE stream (`text/event-stream`), on which the server may
// also send notifications (handed to `onnotification`) and requests of its own (`onrequest`
// answers them; the answer is POSTed back; `ping` is answered here). A stream that ends or drops
// before the answer is resumed with GET and `Last-Event-ID` when the server gave event ids
// (Streamable HTTP resumability), at most `maxResumes` times.
//
// Every exchange is bounded by the client, whatever the server does: an answer (a JSON body, or
// one SSE event) over `maxMessageBytes` is refused and its body cancelled; an exchange with no
// JSON-RPC message for `idleTimeoutMs` (keepalive comments do not count) is aborted; a request's
// own `signal` aborts it; a redirect is followed only to the same origin (307/308, method and
// body kept), never with the body or the headers to another one. Each such failure is a
// TransportError whose `kind` says which.
//
// The connection is usable alone (`request`, `notify`) or as TaskClient's `request`
// (`TaskClient.connect` does that).
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).
import {
  V25, V26, INITIALIZE_VERSIONS, META_PROTOCOL_VERSION as META_VERSION, META_CLIENT_CAPABILITIES as META_CAPS, METHOD_NOT_FOUND, INTERNAL_ERROR,
  UNSUPPORTED_PROTOCOL_VERSION as UNSUPPORTED_VERSION,
} from "./protocol.js";

import { INTERNALS } from "./internals.js";

export type JsonObject = Record<string, unknown>;

export type FetchFn = (input: string, init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal; redirect?: "manual"; }) => Promise<Response>;

/**
 * Why an exchange did not complete: `network` (the fetch or the body failed; `cause`), `closed`
 * (the connection was closed), `aborted` (the request's signal; `cause` is its reason), `timeout`
 * (no message for `idleTimeoutMs`), `too_large` (an answer over `maxMessageBytes`; `limit`),
 * `redirect` (a redirect not followed; `location`), `session_lost` (HTTP 404 to a request
 * carrying the 2025-11-25 session: the server no longer knows it), `unreachable` (TaskClient: the
 * server failed every try for `unreachableMs`), `invalid` (an answer that is no JSON-RPC
 * response), `ended` (the event stream ended, and could not be resumed, before the answer).
 */
export type TransportErrorKind = "network" | "closed" | "aborted" | "timeout" | "too_large" | "redirect" | "session_lost" | "unreachable" | "invalid" | "ended";

/** Per-request options of `request` (TaskClient passes the call's signal and deadline as one). */
export type RequestOptions = { signal?: AbortSignal; };

/**
 * The client's capabilities, or a function giving them for a protocol version (they differ between
 * eras).
 */
export type CapabilitiesOption = JsonObject | ((version: string) => JsonObject);

/**
 * What the session carried by `request` tells a client, and how it hands the client the server's
 * messages (a TaskClient given `connection.request` uses it).
 */
export type SessionClient = { notify(message: JsonObject): void; handleRequest(message: JsonObject): Promise<JsonObject>; };

export type ConnectionSession = { protocolVersion: () => string | null; serverCapabilities: () => JsonObject | null; attach: (client: SessionClient) => void; };

export type HttpConnectionOptions = {
  /**
   * Pin the version ("2026-07-28", "2025-11-25", or an older `initialize` version): no fallback, a
   * server that does not speak it is a VersionError.
   */
  protocolVersion?: string;
  /** Sent with every HTTP request (e.g. Authorization). */
  headers?: Record<string, string>;
  /** The fetch to use (default: the global one). */
  fetch?: FetchFn;
  /** The `clientInfo` of `initialize` (2025-11-25); default `{ name: "mcp-tasks-wasm", version: "0.1.0" }`. */
  clientInfo?: { name: string; version: string; };
  /**
   * Declared in `initialize` (2025-11-25) and in the `_meta` of every 2026-07-28 request that does
   * not carry its own.
   */
  capabilities?: CapabilitiesOption;
  /** A notification from the server. */
  onnotification?: (message: JsonObject) => void;
  /**
   * A request from the server (other than `ping`): resolve with its result, or throw an object with
   * `code` and `message` (any other throw answers -32603). Without it, such requests get -32601.
   */
  onrequest?: (message: JsonObject) => Promise<JsonObject> | JsonObject;
  /** A failure nobody awaits (e.g. POSTing an answer). */
  onerror?: (error: unknown) => void;
  /**
   * The largest answer read: a JSON body, or one SSE event (default 16 MiB, as the server's
   * store). Over it: TransportError `too_large`, the body cancelled.
   */
  maxMessageBytes?: number;
  /**
   * An exchange that brings no JSON-RPC message for this long (SSE keepalive comments do not
   * count; a JSON answer must arrive whole within it) is aborted: TransportError `timeout`
   * (default 300 000 ms). The wait pauses while the client answers a request the server sent
   * on that stream (`onrequest`, e.g. a user answering an elicitation).
   */
  idleTimeoutMs?: number;
  /** GET resumptions (Last-Event-ID) of one answer's stream before giving up (default 5). */
  maxResumes?: number;
};

/** GET resumptions of one answer's stream before giving up (`maxResumes`). */
const DEFAULT_MAX_RESUMES = 5;
/** The largest JSON answer or SSE event read (`maxMessageBytes`): the server store's limit. */
const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** An exchange with no message for this long is aborted (`idleTimeoutMs`). */
const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
/** Same-origin redirects followed per request. */
const MAX_REDIRECTS = 5;
/** At most this much of an HTTP error body is kept. */
const BODY_KEPT = 4096;

/** The server answered an HTTP error status without a JSON-RPC error in the body. */
class HttpError extends Error {
  name: string;
  status: number;
  body: string;
  retryAfterMs: number | undefined;
  constructor(message: string, status: number, body: string, retryAfterMs?: number) {
    super(message);
    this.name = "HttpError";
    /** The HTTP status. */
    this.status = status;
    /** The start of the body (text). */
    this.body = body;
    /** From `Retry-After`, in ms. */
    this.retryAfterMs = retryAfterMs;
  }
}

/** The server answered a JSON-RPC error (`code`, `message`, `data`), whatever the HTTP status. */
class RpcError extends Error {
  name: string;
  code: number;
  data: unknown;
  status: number;
  retryAfterMs: number | undefined;
  constructor(error: { code: number; message: string; data?: unknown; }, status: number, retryAfterMs?: number) {
    super(error.message);
    this.name = "RpcError";
    this.code = error.code;
    this.data = error.data;
    /** The HTTP status it came with. */
    this.status = status;
    /** From `Retry-After`, in ms. */
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * The exchange did not complete: `kind` says why (TransportErrorKind: the network failed, with
 * `cause`; the connection was closed; a bound of the client was hit, `limit` or `location` naming
 * it; the session was lost; the answer was unreadable).
 */
class TransportError extends Error {
  name: string;
  kind: TransportErrorKind;
  limit: number | undefined;
  location: string | undefined;
  constructor(message: string, cause?: unknown, details: { kind?: TransportErrorKind; limit?: number; location?: string; } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "TransportError";
    /** Why the exchange did not complete. */
    this.kind = details.kind ?? "network";
    /** `too_large`: the byte limit (`maxMessageBytes`); `timeout`: the ms (`idleTimeoutMs`). */
    this.limit = details.limit;
    /** `redirect`: where the server redirected to. */
    this.location = details.location;
  }
}

/** No protocol version in common: the one `requested` (or pinned) and those the server named. */
class VersionError extends Error {
  name: string;
  requested: string | null;
  supported: string[];
  constructor(message: string, requested: string | null, supported: string[]) {
    super(message);
    this.name = "VersionError";
    this.requested = requested;
    this.supported = supported;
  }
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isErrorObject(e: unknown): e is { code: number; message: string; data?: unknown; } {
  return isObject(e) && Number.isInteger(e.code) && typeof e.message === "string";
}

/** `Retry-After` (seconds or an HTTP date) in ms, or undefined. */
function retryAfter(value: string | null) {
  if (value === null) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * A header value as sent: as is when header-safe (visible ASCII, inner spaces), else the Base64
 * sentinel `=?base64?…?=` of its UTF-8 bytes (§B.b).
 */
function headerValue(value: string) {
  if (/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value)) return value;
  let binary = "";
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/** The target `Mcp-Name` names for a method (§D 111; SEP-2243), if any. */
function nameOf(method: string, params: JsonObject) {
  if (method === "tasks/get" || method === "tasks/update" || method === "tasks/cancel") return params.taskId;
  if (method === "tools/call" || method === "prompts/get") return params.name;
  if (method === "resources/read") return params.uri;
  return undefined;
}

/**
 * The longest delay `setTimeout` holds (2^31 − 1 ms, about 24.8 days): a longer one (or a
 * non-finite one) fires after 1 ms, which would turn a huge `pollIntervalMs` / `retryAfterMs`
 * into a wake-up storm.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Resolves after `ms` (or at once when `signal` aborts), never handing `setTimeout` more than
 * MAX_TIMER_MS: a longer wait re-arms until its end. Never rejects. (TaskClient's real clock too.)
 */
function sleepClamped(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const wait = Number.isNaN(ms) ? 0 : Math.max(0, ms);
    const end = Date.now() + wait;
    let t: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const arm = (left: number) => {
      t = setTimeout(() => {
        const rest = end - Date.now();
        if (rest > 0 && left >= MAX_TIMER_MS) arm(rest); // a clamped timer fired: wait on
        else done();
      }, Math.min(left, MAX_TIMER_MS));
    };
    signal.addEventListener("abort", done, { once: true });
    arm(wait);
  });
}

/** One exchange's bounds (HttpConnection's #exchange). */
type Exchange = { signal: AbortSignal; touch: () => void; hold: () => void; release: () => void; end: () => void; failure: (e: unknown, what: string) => unknown; };

/** The bytes of `chunks` (`size` in all) as one array (a response body, an SSE line; the servers' request bodies and stdio lines). */
function concatBytes(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

class HttpConnection {
  url: string;
  headers: Record<string, string>;
  protocolVersion: string | null;
  serverCapabilities: JsonObject | null;
  serverInfo: JsonObject | null;
  sessionId: string | null;
  onnotification: ((message: JsonObject) => void) | null;
  onrequest: ((message: JsonObject) => Promise<JsonObject> | JsonObject) | null;
  onerror: ((error: unknown) => void) | null;
  closed: boolean;
  maxMessageBytes: number;
  idleTimeoutMs: number;
  maxResumes: number;
  /**
   * Opens a connection: negotiates the version (see the file's head) and resolves once the server
   * can be called. Throws VersionError, HttpError, RpcError or TransportError.
   */
  static async open(url: string | URL, options: HttpConnectionOptions = {}): Promise<HttpConnection> {
    const connection = new HttpConnection(url, options);
    await connection.connect();
    return connection;
  }

  #fetch: FetchFn;
  /** The pinned version, if any. */
  #pinned: string | null;
  #clientInfo: { name: string; version: string; };
  #capabilities: CapabilitiesOption;
  #nextId = 1;
  /** Aborts every exchange in flight on close. */
  #aborter = new AbortController();
  /** The streams `openStream` opened and not ended yet (aborted on close). */
  #streams: Set<AbortController> = new Set();
  /**
   * 2025-11-25: the server answered 404 to the session (it restarted, or dropped it): requests
   * about its tasks fail with `session_lost`; any other request opens a new session first.
   */
  #sessionLost = false;
  /** The `initialize` that replaces a lost session, while it runs. */
  #reopening: Promise<void> | null = null;

  /** A connection not opened yet (`connect()` opens it). */
  constructor(url: string | URL, options: HttpConnectionOptions = {}) {
    if (!isObject(options)) throw new TypeError("new HttpConnection(url, options): options must be an object");
    /** The endpoint. */
    this.url = new URL(url).href;
    /** Sent with every HTTP request (change them, e.g. a renewed token, at any time). */
    this.headers = { ...(options.headers ?? {}) };
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#pinned = options.protocolVersion ?? null;
    if (this.#pinned !== null && this.#pinned !== V26 && !INITIALIZE_VERSIONS.includes(this.#pinned)) {
      throw new TypeError(`HttpConnection: unknown protocolVersion ${JSON.stringify(this.#pinned)} (use ${[V26, ...INITIALIZE_VERSIONS].join(", ")})`);
    }
    this.#clientInfo = options.clientInfo ?? { name: "mcp-tasks-wasm", version: "0.1.0" };
    this.#capabilities = options.capabilities ?? {};
    /** The version in use once connected. */
    this.protocolVersion = null;
    /** What the server declared (`initialize` or `server/discover`). */
    this.serverCapabilities = null;
    this.serverInfo = null;
    /** 2025-11-25: the session, when the server gave one. */
    this.sessionId = null;
    this.onnotification = options.onnotification ?? null;
    this.onrequest = options.onrequest ?? null;
    this.onerror = options.onerror ?? null;
    this.closed = false;
    const positive = (name: string, v: number | undefined, d: number) => {
      if (v === undefined) return d;
      if (!(Number.isSafeInteger(v) && v > 0)) throw new TypeError(`HttpConnection: ${name} must be a positive integer (got ${String(v)})`);
      return v;
    };
    /** The largest JSON answer or SSE event read, in bytes. */
    this.maxMessageBytes = positive("maxMessageBytes", options.maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES);
    /** An exchange with no message for this long is aborted (ms). */
    this.idleTimeoutMs = positive("idleTimeoutMs", options.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS);
    /** Resumptions of one answer's stream. */
    this.maxResumes = options.maxResumes === 0 ? 0 : positive("maxResumes", options.maxResumes, DEFAULT_MAX_RESUMES);
    this.request = Object.assign(this.request.bind(this), {
      // What a TaskClient given this `request` learns from it (TaskClient.connect does this).
      session: {
        protocolVersion: () => this.protocolVersion,
        serverCapabilities: () => this.serverCapabilities,
        attach: (client: SessionClient) => {
          this.onnotification = (m) => client.notify(m);
          this.onrequest = (m) => client.handleRequest(m);
        },
      },
    });
    this.notify = this.notify.bind(this);
  }

  /**
   * Negotiates the version (unless connected already). On failure the connection stays unusable
   * (a session `initialize` opened is deleted).
   */
  async connect(): Promise<void> {
    if (this.protocolVersion !== null) return;
    if (this.#pinned === V26) {
      await this.#discover(true);
      return;
    }
    if (this.#pinned !== null) {
      await this.#initialize([this.#pinned], true);
      return;
    }
    const outcome = await this.#discover(false);
    if (outcome === null) return;
    const offered = outcome.filter((v) => INITIALIZE_VERSIONS.includes(v));
    if (outcome.length > 0 && offered.length === 0) {
      throw new VersionError(`the server speaks ${outcome.join(", ")}, none of which this client speaks`, V26, outcome);
    }
    await this.#initialize(offered.length > 0 ? offered : INITIALIZE_VERSIONS, false);
  }

  /**
   * 2026-07-28: `server/discover`. Resolves null when the server speaks 2026-07-28 (now in use),
   * else the versions it named (maybe none) for the fallback. Network failures and
   * authentication refusals are thrown, not fallen back from.
   */
  async #discover(pinned: boolean): Promise<string[] | null> {
    this.protocolVersion = V26;
    let result: JsonObject;
    try {
      result = await this.request("server/discover", {});
    } catch (e) {
      this.protocolVersion = null;
      if (e instanceof TransportError) throw e;
      if (e instanceof HttpError && [401, 403, 407].includes(e.status)) throw e;
      const supported = e instanceof RpcError && e.code === UNSUPPORTED_VERSION && isObject(e.data) && Array.isArray(e.data.supported) ? e.data.supported.filter((v) => typeof v === "string") : [];
      if (!pinned) return supported;
      if (e instanceof RpcError && e.code === METHOD_NOT_FOUND) {
        // A 2026 server without server/discover: pinned, so speak 2026-07-28 all the same.
        this.protocolVersion = V26;
        this.serverCapabilities = {};
        return null;
      }
      if (supported.length > 0) throw new VersionError(`the server does not speak ${V26} (it speaks ${supported.join(", ")})`, V26, supported);
      throw e;
    }
    const versions = Array.isArray(result.supportedVersions) ? result.supportedVersions.filter((v) => typeof v === "string") : null;
    const speaks26 = versions ? versions.includes(V26) : typeof result.resultType === "string";
    if (!speaks26) {
      this.protocolVersion = null;
      if (pinned) throw new VersionError(`the server does not speak ${V26} (server/discover names ${(versions ?? []).join(", ") || "no version"})`, V26, versions ?? []);
      return versions ?? [];
    }
    this.serverCapabilities = isObject(result.capabilities) ? result.capabilities : {};
    this.serverInfo = isObject(result.serverInfo) ? result.serverInfo : null;
    return null;
  }

  /**
   * 2025-11-25 and older: `initialize` with the first of `versions`, then
   * `notifications/initialized`. A -32022 (or an error naming `data.supported`) retries once
   * with a version both sides speak, unless pinned.
   */
  async #initialize(versions: string[], pinned: boolean): Promise<void> {
    const requested = versions[0];
    let result: JsonObject;
    try {
      result = await this.request("initialize", { protocolVersion: requested, capabilities: this.#capabilitiesFor(requested), clientInfo: this.#clientInfo });
    } catch (e) {
      const supported = e instanceof RpcError && isObject(e.data) && Array.isArray(e.data.supported) ? e.data.supported.filter((v) => typeof v === "string") : null;
      if (!supported) throw e;
      const common = INITIALIZE_VERSIONS.filter((v) => supported.includes(v) && v !== requested);
      if (pinned || common.length === 0) throw new VersionError(`the server does not speak ${requested} (it speaks ${supported.join(", ")})`, requested, supported);
      return this.#initialize(common, true);
    }
    const negotiated = result.protocolVersion;
    if (typeof negotiated !== "string" || !INITIALIZE_VERSIONS.includes(negotiated) || (pinned && negotiated !== requested)) {
      await this.#endSession();
      throw new VersionError(`initialize: the server answered protocol version ${JSON.stringify(negotiated)}, not ${pinned ? requested : `one of ${INITIALIZE_VERSIONS.join(", ")}`}`, requested, typeof negotiated === "string" ? [negotiated] : []);
    }
    this.protocolVersion = negotiated;
    this.serverCapabilities = isObject(result.capabilities) ? result.capabilities : {};
    this.serverInfo = isObject(result.serverInfo) ? result.serverInfo : null;
    try {
      await this.notify("notifications/initialized");
    } catch (e) {
      await this.#endSession();
      this.protocolVersion = null;
      throw e;
    }
  }

  /**
   * Sends one request and resolves with its `result`. A JSON-RPC error rejects with RpcError, an
   * HTTP error without one with HttpError, anything else with TransportError. Under 2026-07-28,
   * params without `_meta` get the protocol version and the client's capabilities.
   */
  async request(method: string, params: JsonObject = {}, options: RequestOptions = {}): Promise<JsonObject> {
    if (this.closed) throw new TransportError(`${method}: the connection is closed`, undefined, { kind: "closed" });
    await this.#afterLostSession(method);
    const p = this.protocolVersion === V26 ? this.#withMeta(params) : params;
    const id = this.#nextId++;
    const ex = this.#exchange(method, options.signal);
    const carried = this.sessionId;
    try {
      const res = await this.#post({ jsonrpc: "2.0", id, method, params: p }, method, p, ex);
      if (method === "initialize") {
        const session = res.headers.get("mcp-session-id");
        if (session) this.sessionId = session;
      }
      return await this.#read(res, id, method, ex, carried);
    } catch (e) {
      throw ex.failure(e, method);
    } finally {
      ex.end();
    }
  }

  /** Sends one notification (HTTP 202 expected). */
  async notify(method: string, params?: JsonObject, options: RequestOptions = {}): Promise<void> {
    if (this.closed) throw new TransportError(`${method}: the connection is closed`, undefined, { kind: "closed" });
    const message: JsonObject = { jsonrpc: "2.0", method };
    const p = params !== undefined && this.protocolVersion === V26 ? this.#withMeta(params) : params;
    if (p !== undefined) message.params = p;
    const ex = this.#exchange(method, options.signal);
    const carried = this.sessionId;
    try {
      const res = await this.#post(message, method, p ?? {}, ex);
      await this.#expectAccepted(res, method, carried);
    } catch (e) {
      throw ex.failure(e, method);
    } finally {
      ex.end();
    }
  }

  /**
   * 2025-11-25, after the server lost the session (404): a request about the old session's tasks
   * fails at once (`session_lost`: they are gone with it); any other opens a new session first,
   * as the transport requires (one `initialize` for every request waiting on it).
   */
  async #afterLostSession(method: string) {
    if (!this.#sessionLost || method === "initialize" || method === "notifications/initialized") return;
    if (method.startsWith("tasks/")) {
      throw new TransportError(`${method}: the server lost the session (HTTP 404): its tasks are gone`, undefined, { kind: "session_lost" });
    }
    if (this.#reopening === null) {
      const version = this.protocolVersion;
      this.#reopening = (async () => {
        this.protocolVersion = null;
        try {
          await this.#initialize([version ?? V25], true);
          this.#sessionLost = false;
        } catch (e) {
          this.protocolVersion = version;
          throw e;
        }
      })().finally(() => (this.#reopening = null));
    }
    await this.#reopening;
  }

  /**
   * Ends the connection: exchanges in flight reject with TransportError; a 2025-11-25 session is
   * deleted (HTTP DELETE; a server that refuses, e.g. 405, is fine).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.#aborter.abort();
    for (const s of [...this.#streams]) s.abort();
    await this.#endSession();
  }

  /**
   * Opens a long-lived event stream for push (js/client/push.ts reads it): 2026-07-28, `method`
   * (`subscriptions/listen`) POSTed with `params` (the `_meta` added as for `request`);
   * 2025-11-25, `method` null, the session's GET stream. Resolves with the HTTP response, its
   * body not read; `signal` (or closing the connection) ends it. Throws TransportError.
   */
  async openStream(method: string | null, params: JsonObject, signal: AbortSignal): Promise<Response> {
    if (this.closed) throw new TransportError(`${method ?? "GET stream"}: the connection is closed`);
    const abort = new AbortController();
    const stop = () => abort.abort(signal.reason); // the fetch rejects with it: TransportError's `cause`
    if (signal.aborted) stop();
    this.#streams.add(abort);
    signal.addEventListener("abort", stop, { once: true });
    abort.signal.addEventListener("abort", () => {
      this.#streams.delete(abort);
      signal.removeEventListener("abort", stop);
    });
    const p = method !== null && this.protocolVersion === V26 ? this.#withMeta(params) : params;
    const headers = this.#headersFor(method, p);
    const init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal; } = { method: "POST", headers, signal: abort.signal };
    if (method === null) {
      init.method = "GET";
      delete headers["Content-Type"];
      headers.Accept = "text/event-stream";
    } else init.body = JSON.stringify({ jsonrpc: "2.0", id: this.#nextId++, method, params: p });
    try {
      return await this.#fetchFollowing(init, `${init.method} ${method ?? "stream"}`);
    } catch (e) {
      if (e instanceof TransportError) throw e;
      throw new TransportError(`${init.method} ${method ?? "stream"} to ${this.url}: ${e instanceof Error ? e.message : String(e)}`, e);
    }
  }

  /**
   * @internal Our modules' accessor (see INTERNALS), for push (`push.ts`) over `openStream`:
   * `readText`, the body of a response that is not an event stream (a JSON error), read up to
   * `maxMessageBytes` (TransportError `too_large` past it); `receive`, a message read from such a
   * stream handed on as on any answer's stream (notifications to `onnotification`, requests to
   * `onrequest`, answered by POST).
   */
  [INTERNALS]() {
    return {
      readText: (res: Response, what: string): Promise<string> => this.#text(res, what),
      receive: (message: JsonObject) => this.#dispatch(message),
    };
  }

  // ---- internals -----------------------------------------------------------------------------

  /** The client's capabilities for `version`. */
  #capabilitiesFor(version: string): JsonObject {
    const c = this.#capabilities;
    return typeof c === "function" ? c(version) : c;
  }

  #withMeta(params: JsonObject): JsonObject {
    const meta = isObject(params._meta) ? params._meta : {};
    if (META_VERSION in meta) return params;
    return { ...params, _meta: { ...meta, [META_VERSION]: V26, [META_CAPS]: this.#capabilitiesFor(V26) } };
  }

  /** The headers of one HTTP request. */
  #headersFor(method: string | null, params: JsonObject): Record<string, string> {
    const h: Record<string, string> = { ...this.headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    if (this.protocolVersion !== null) h["MCP-Protocol-Version"] = this.protocolVersion;
    if (this.sessionId !== null) h["Mcp-Session-Id"] = this.sessionId;
    if (this.protocolVersion === V26 && method !== null) {
      h["Mcp-Method"] = headerValue(method);
      const name = nameOf(method, params);
      if (typeof name === "string") h["Mcp-Name"] = headerValue(name);
    }
    return h;
  }

  /**
   * One exchange's bounds: aborted when the connection closes (`closed`), when the request's
   * `signal` aborts (`aborted`), or after `idleTimeoutMs` without a message (`timeout`; `touch`
   * restarts the wait, `hold`/`release` pause it while the client answers a request of the
   * server's that arrived on the stream). `failure` turns whatever the exchange threw into the TransportError that
   * says which; `end` releases the timer and listeners.
   */
  #exchange(method: string, signal?: AbortSignal, closable = true): Exchange {
    const controller = new AbortController();
    let why: "closed" | "aborted" | "timeout" | null = null;
    const stop = (reason: "closed" | "aborted" | "timeout") => {
      if (why !== null) return;
      why = reason;
      controller.abort(reason === "aborted" ? signal?.reason : new Error(reason));
    };
    const onClose = () => stop("closed");
    const onAbort = () => stop("aborted");
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** Requests of the server on this stream being answered: no idle wait meanwhile. */
    let held = 0;
    let ended = false;
    const touch = () => {
      clearTimeout(timer);
      if (why === null && held === 0 && !ended) timer = setTimeout(() => stop("timeout"), this.idleTimeoutMs);
    };
    if (closable && this.#aborter.signal.aborted) onClose();
    else if (closable) this.#aborter.signal.addEventListener("abort", onClose, { once: true });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    touch();
    const idle = this.idleTimeoutMs;
    return {
      signal: controller.signal,
      touch,
      hold: () => {
        held++;
        clearTimeout(timer);
      },
      release: () => {
        held--;
        touch();
      },
      end: () => {
        ended = true;
        clearTimeout(timer);
        this.#aborter.signal.removeEventListener("abort", onClose);
        signal?.removeEventListener("abort", onAbort);
      },
      failure: (e: unknown, what: string): unknown => {
        if (why === "closed") return e instanceof TransportError && e.kind === "closed" ? e : new TransportError(`${what}: the connection was closed`, e, { kind: "closed" });
        if (why === "aborted") return new TransportError(`${what}: aborted`, signal?.reason, { kind: "aborted" });
        if (why === "timeout") return new TransportError(`${what}: no answer from the server for ${idle} ms (idleTimeoutMs)`, undefined, { kind: "timeout", limit: idle });
        return e;
      },
    };
  }

  /**
   * `fetch` with `redirect: "manual"`: a 307/308 to the same origin is followed (method, body and
   * headers kept), at most MAX_REDIRECTS times; any other redirect, and every redirect to another
   * origin, is a TransportError `redirect` naming the Location (the body and the custom headers,
   * credentials included, never reach another origin). A browser's opaque redirect names none.
   */
  async #fetchFollowing(init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal; }, what: string): Promise<Response> {
    let url = this.url;
    const origin = new URL(url).origin;
    for (let hop = 0; ; hop++) {
      const res = await this.#fetch(url, { ...init, redirect: "manual" });
      if (res.type === "opaqueredirect") {
        throw new TransportError(`${what}: the server redirected (not followed: the target is not visible here)`, undefined, { kind: "redirect" });
      }
      if (res.status < 300 || res.status > 399 || res.status === 304) return res;
      const location = res.headers.get("location");
      await res.body?.cancel().catch(() => {});
      let target: URL | null = null;
      try {
        target = location === null ? null : new URL(location, url);
      } catch {
        target = null;
      }
      const where = target?.href ?? location ?? "(no Location)";
      if (target === null) throw new TransportError(`${what}: HTTP ${res.status} redirect without a valid Location`, undefined, { kind: "redirect", location: location ?? undefined });
      if (target.origin !== origin) {
        throw new TransportError(`${what}: HTTP ${res.status} redirect to another origin (${where}): not followed`, undefined, { kind: "redirect", location: where });
      }
      if (res.status !== 307 && res.status !== 308) {
        throw new TransportError(`${what}: HTTP ${res.status} redirect to ${where}: only 307 and 308 keep the request (not followed)`, undefined, { kind: "redirect", location: where });
      }
      if (hop + 1 >= MAX_REDIRECTS) throw new TransportError(`${what}: more than ${MAX_REDIRECTS} redirects (last to ${where})`, undefined, { kind: "redirect", location: where });
      url = target.href;
    }
  }

  /** POSTs one message. */
  async #post(message: JsonObject, method: string | null, params: JsonObject, ex: { signal: AbortSignal; }): Promise<Response> {
    const what = `POST ${method ?? "response"}`;
    try {
      return await this.#fetchFollowing({ method: "POST", headers: this.#headersFor(method, params), body: JSON.stringify(message), signal: ex.signal }, what);
    } catch (e) {
      if (e instanceof TransportError) throw e;
      throw new TransportError(`${what} to ${this.url}: ${this.closed ? "the connection was closed" : e instanceof Error ? e.message : String(e)}`, e);
    }
  }

  /**
   * The body of `res` as text, read incrementally and never past `maxMessageBytes` (a larger
   * `Content-Length` is refused before reading): over it, the body is cancelled and a
   * TransportError `too_large` thrown.
   */
  async #text(res: Response, what: string, limit = this.maxMessageBytes): Promise<string> {
    const tooLarge = () => new TransportError(`${what}: the answer is larger than maxMessageBytes (${limit} bytes)`, undefined, { kind: "too_large", limit });
    const declared = Number(res.headers.get("content-length") ?? "");
    if (Number.isFinite(declared) && declared > limit) {
      await res.body?.cancel().catch(() => {});
      throw tooLarge();
    }
    if (res.body === null) return "";
    const reader = res.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) throw tooLarge();
        chunks.push(value);
      }
    } catch (e) {
      if (e instanceof TransportError) throw e;
      throw new TransportError(`${what}: the answer could not be read: ${e instanceof Error ? e.message : String(e)}`, e);
    } finally {
      reader.cancel().catch(() => {});
    }
    return new TextDecoder().decode(concatBytes(chunks, size));
  }

  /** Whether `res` says the 2025-11-25 session the request carried is gone: mark it lost. */
  #lostSession(res: Response, carried: string | null, method: string) {
    if (res.status !== 404 || carried === null || method === "initialize") return false;
    if (this.sessionId === carried) {
      this.sessionId = null;
      this.#sessionLost = true;
    }
    return true;
  }

  /** A notification or an answer was accepted (2xx; its body, if any, is read for messages). */
  async #expectAccepted(res: Response, what: string, carried: string | null) {
    if (res.ok) {
      await res.body?.cancel().catch(() => {});
      return;
    }
    if (this.#lostSession(res, carried, what)) {
      await res.body?.cancel().catch(() => {});
      throw new TransportError(`${what}: the server lost the session (HTTP 404)`, undefined, { kind: "session_lost" });
    }
    const text = await this.#text(res, what).catch(() => "");
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: an HTTP error
    }
    const wait = retryAfter(res.headers.get("retry-after"));
    if (isObject(body) && isErrorObject(body.error)) throw new RpcError(body.error, res.status, wait);
    throw new HttpError(`${what}: HTTP ${res.status} ${res.statusText}`.trim(), res.status, text.slice(0, BODY_KEPT), wait);
  }

  /** Reads the answer to request `id` from `res` (JSON or SSE), handing other messages on. */
  async #read(res: Response, id: number, method: string, ex: Exchange, carried: string | null): Promise<JsonObject> {
    const wait = retryAfter(res.headers.get("retry-after"));
    const type = (res.headers.get("content-type") ?? "").toLowerCase();
    // Streamable HTTP (2025-11-25): a 404 to a request carrying the session: the session is gone.
    if (this.#lostSession(res, carried, method)) {
      await res.body?.cancel().catch(() => {});
      throw new TransportError(`${method}: the server lost the session (HTTP 404): its tasks are gone`, undefined, { kind: "session_lost" });
    }
    if (res.ok && type.startsWith("text/event-stream") && res.body) return this.#readStream(res.body, id, method, 0, null, ex);
    const text = await this.#text(res, method);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      if (!res.ok) throw new HttpError(`${method}: HTTP ${res.status} ${res.statusText}`.trim(), res.status, text.slice(0, BODY_KEPT), wait);
      throw new TransportError(`${method}: the answer is not JSON (HTTP ${res.status}, ${type || "no content type"})`, undefined, { kind: "invalid" });
    }
    const messages = Array.isArray(body) ? body : [body];
    let answer: JsonObject | undefined;
    for (const m of messages) {
      if (isObject(m) && m.id === id && !("method" in m)) answer = m;
      else if (isObject(m) && "method" in m) this.#dispatch(m);
    }
    // An error about the HTTP request itself may name no id (e.g. a refused session).
    if (!answer && messages.length === 1 && isObject(body) && body.id === null && isErrorObject(body.error)) answer = body;
    if (answer && isErrorObject(answer.error)) throw new RpcError(answer.error, res.status, wait);
    if (!res.ok) throw new HttpError(`${method}: HTTP ${res.status} ${res.statusText}`.trim(), res.status, text.slice(0, BODY_KEPT), wait);
    if (answer && isObject(answer.result)) return answer.result;
    throw new TransportError(`${method}: the answer holds no ${answer ? "valid " : ""}JSON-RPC response to request ${id}`, undefined, { kind: "invalid" });
  }

  /**
   * Reads an SSE stream until the answer to `id`; every other message is dispatched (each one
   * restarts the exchange's idle wait; comments do not). A stream that ends, or drops, first is
   * resumed (GET with Last-Event-ID, after the server's `retry`) when it had an event id, at most
   * `maxResumes` times; an event over `maxMessageBytes` fails at once (`too_large`).
   */
  async #readStream(body: ReadableStream<Uint8Array>, id: number, method: string, resumes: number, lastId: string | null, ex: Exchange): Promise<JsonObject> {
    const stream = { lastEventId: lastId, retryMs: 1000 };
    let answer: JsonObject | null = null;
    let dropped: unknown = null;
    try {
      for await (const text of sseData(body, stream, { maxMessageBytes: this.maxMessageBytes })) {
        ex.touch();
        let message: unknown;
        try {
          message = JSON.parse(text);
        } catch {
          this.#report(new TransportError(`${method}: an SSE event is not JSON: ${text.slice(0, 200)}`, undefined, { kind: "invalid" }));
          continue;
        }
        for (const m of Array.isArray(message) ? message : [message]) {
          if (!isObject(m)) continue;
          if (m.id === id && !("method" in m)) answer = m;
          else if ("method" in m) {
            // The server waits for this answer (e.g. a user answering an elicitation): the
            // stream's idle wait pauses until it is sent.
            const answering = this.#dispatch(m);
            if (answering !== null) {
              ex.hold();
              answering.finally(() => ex.release());
            }
          }
        }
        if (answer !== null) break;
      }
    } catch (e) {
      if (e instanceof TransportError || ex.signal.aborted) throw e instanceof TransportError ? new TransportError(`${method}: ${e.message}`, e.cause, { kind: e.kind, limit: e.limit }) : e;
      dropped = e; // the connection dropped mid-stream: resumable like a stream that ended
    }
    const { lastEventId, retryMs } = stream;
    if (answer !== null) {
      if (isErrorObject(answer.error)) throw new RpcError(answer.error, 200);
      if (isObject(answer.result)) return answer.result;
      throw new TransportError(`${method}: the answer to request ${id} is not a JSON-RPC response`, undefined, { kind: "invalid" });
    }
    if (lastEventId !== null && resumes < this.maxResumes && !this.closed) {
      await sleepClamped(Math.min(retryMs, 30_000), ex.signal);
      if (ex.signal.aborted) throw new TransportError(`${method}: the event stream dropped before the answer`, dropped ?? undefined, { kind: "ended" });
      return this.#resume(lastEventId, id, method, resumes + 1, ex);
    }
    const how = dropped === null ? "ended" : `failed (${dropped instanceof Error ? dropped.message : String(dropped)})`;
    throw new TransportError(`${method}: the event stream ${how} before the answer${resumes > 0 ? ` (after ${resumes} resumptions)` : ""}`, dropped ?? undefined, { kind: dropped === null ? "ended" : "network" });
  }

  /** GET the stream again from `lastEventId` (Streamable HTTP resumability). */
  async #resume(lastEventId: string, id: number, method: string, resumes: number, ex: Exchange): Promise<JsonObject> {
    const headers = this.#headersFor(null, {});
    delete headers["Content-Type"];
    headers.Accept = "text/event-stream";
    headers["Last-Event-ID"] = lastEventId;
    const carried = this.sessionId;
    let res;
    try {
      res = await this.#fetchFollowing({ method: "GET", headers, signal: ex.signal }, `${method}: resuming`);
    } catch (e) {
      if (e instanceof TransportError || ex.signal.aborted) throw e;
      throw new TransportError(`${method}: resuming the event stream failed: ${e instanceof Error ? e.message : String(e)}`, e);
    }
    if (this.#lostSession(res, carried, method)) {
      await res.body?.cancel().catch(() => {});
      throw new TransportError(`${method}: the server lost the session (HTTP 404): its tasks are gone`, undefined, { kind: "session_lost" });
    }
    const type = (res.headers.get("content-type") ?? "").toLowerCase();
    if (!res.ok || !type.startsWith("text/event-stream") || !res.body) {
      await res.body?.cancel().catch(() => {});
      throw new TransportError(`${method}: the event stream ended before the answer, and could not be resumed (HTTP ${res.status})`, undefined, { kind: "ended" });
    }
    ex.touch();
    return this.#readStream(res.body, id, method, resumes, lastEventId, ex);
  }

  /** A message from the server that is not the awaited answer. */
  #dispatch(message: JsonObject): Promise<void> | null {
    if (typeof message.method !== "string") return null;
    if (!("id" in message)) {
      try {
        this.onnotification?.(message);
      } catch (e) {
        this.#report(e);
      }
      return null;
    }
    return this.#answer(message).catch((e) => this.#report(e));
  }

  /** Answers a request from the server and POSTs the answer back. */
  async #answer(message: JsonObject) {
    let reply: JsonObject;
    try {
      let result: JsonObject;
      if (message.method === "ping") result = {};
      else if (this.onrequest) result = await this.onrequest(message);
      else throw { code: METHOD_NOT_FOUND, message: `Method not found: ${String(message.method)}` };
      reply = { jsonrpc: "2.0", id: message.id, result: isObject(result) ? result : {} };
    } catch (e) {
      const error = isErrorObject(e) ? { code: e.code, message: e.message, ...(e.data === undefined ? {} : { data: e.data }) } : { code: INTERNAL_ERROR, message: e instanceof Error ? e.message : String(e) };
      reply = { jsonrpc: "2.0", id: message.id, error };
    }
    if (this.closed) return;
    const ex = this.#exchange("response");
    try {
      const res = await this.#post(reply, null, {}, ex);
      await this.#expectAccepted(res, `the answer to ${String(message.method)}`, this.sessionId);
    } catch (e) {
      throw ex.failure(e, `the answer to ${String(message.method)}`);
    } finally {
      ex.end();
    }
  }

  /** Deletes the 2025-11-25 session, if any (best effort). */
  async #endSession() {
    if (this.sessionId === null) return;
    const headers = this.#headersFor(null, {});
    delete headers["Content-Type"];
    this.sessionId = null;
    const ex = this.#exchange("DELETE", undefined, false);
    try {
      // Not aborted by close() (which calls this after aborting the rest): the idle bound only.
      const res = await this.#fetchFollowing({ method: "DELETE", headers, signal: ex.signal }, "DELETE the session");
      await res.body?.cancel().catch(() => {});
    } catch (e) {
      this.#report(e);
    } finally {
      ex.end();
    }
  }

  #report(error: unknown) {
    if (this.onerror) this.onerror(error);
  }
}

/**
 * What the SSE decoder did, for tests (read from this internal module, not the package entry):
 * `scanned` counts the bytes examined while looking for line ends, `copied` the bytes copied to
 * join a line's pieces. Both grow with the bytes received, never with their square.
 */
const sseStats = { scanned: 0, copied: 0 };

/**
 * Splits an SSE body into lines and events in time linear in its bytes: each byte is examined
 * once when looking for a line end (the next CR and LF are remembered, not searched again), a
 * line split over chunks is kept as its pieces and joined once, and decoded from UTF-8 only then
 * (a line end is ASCII: no character is cut). A line longer than the limit, or an event whose
 * data passes it, throws a TransportError `too_large` at once.
 */
class SseDecoder {
  #pieces: Uint8Array[] = [];
  #pending = 0;
  /** The previous chunk ended with CR: an LF opening the next one belongs to that line end. */
  #skipLf = false;
  #data: string[] = [];
  #dataBytes = 0;
  #event = "";
  #limit: number;
  #stream: { lastEventId: string | null; retryMs: number; };
  #utf8 = new TextDecoder();
  constructor(limit: number, stream: { lastEventId: string | null; retryMs: number; }) {
    this.#limit = limit;
    this.#stream = stream;
  }

  #tooLarge(what: string) {
    return new TransportError(`${what} is larger than maxMessageBytes (${this.#limit} bytes)`, undefined, { kind: "too_large", limit: this.#limit });
  }

  /** Takes one chunk; answers the data of the `message` events it completed, in order. */
  push(chunk: Uint8Array): string[] {
    const out: string[] = [];
    let start = 0;
    if (chunk.byteLength === 0) return out;
    if (this.#skipLf && chunk[0] === 10) start = 1;
    this.#skipLf = false;
    let lf = -2;
    let cr = -2;
    // Room for a field name before an event's data ("data: "), so an event of the limit fits.
    const lineLimit = this.#limit + 64;
    for (;;) {
      if (lf !== -1 && lf < start) {
        lf = chunk.indexOf(10, start);
        sseStats.scanned += (lf === -1 ? chunk.byteLength : lf + 1) - start;
      }
      if (cr !== -1 && cr < start) {
        cr = chunk.indexOf(13, start);
        sseStats.scanned += (cr === -1 ? chunk.byteLength : cr + 1) - start;
      }
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) {
        if (start < chunk.byteLength) {
          this.#pending += chunk.byteLength - start;
          if (this.#pending > lineLimit) throw this.#tooLarge("an SSE line");
          this.#pieces.push(chunk.subarray(start));
        }
        return out;
      }
      let line: Uint8Array;
      if (this.#pieces.length === 0) line = chunk.subarray(start, end);
      else {
        this.#pieces.push(chunk.subarray(start, end));
        const size = this.#pending + end - start;
        if (size > lineLimit) throw this.#tooLarge("an SSE line");
        line = concatBytes(this.#pieces, size);
        sseStats.copied += size;
        this.#pieces = [];
        this.#pending = 0;
      }
      if (line.byteLength > lineLimit) throw this.#tooLarge("an SSE line");
      if (chunk[end] === 13) {
        if (end + 1 < chunk.byteLength) start = chunk[end + 1] === 10 ? end + 2 : end + 1;
        else {
          start = end + 1;
          this.#skipLf = true;
        }
      } else start = end + 1;
      const text = this.#line(line);
      if (text !== null) out.push(text);
    }
  }

  /** One line: the data of the event it ends, if any. */
  #line(bytes: Uint8Array): string | null {
    if (bytes.byteLength === 0) {
      const text = this.#data.join("\n");
      const type = this.#event;
      this.#data = [];
      this.#dataBytes = 0;
      this.#event = "";
      return text !== "" && (type === "" || type === "message") ? text : null;
    }
    if (bytes[0] === 58) return null; // ":" a comment (a keepalive)
    const colon = bytes.indexOf(58);
    const field = this.#utf8.decode(colon === -1 ? bytes : bytes.subarray(0, colon));
    let from = colon === -1 ? bytes.byteLength : colon + 1;
    if (from < bytes.byteLength && bytes[from] === 32) from++;
    if (field === "data") {
      this.#dataBytes += bytes.byteLength - from + 1;
      if (this.#dataBytes > this.#limit + 1) throw this.#tooLarge("an SSE event");
      this.#data.push(this.#utf8.decode(bytes.subarray(from)));
      return null;
    }
    const v = this.#utf8.decode(bytes.subarray(from));
    if (field === "event") this.#event = v;
    else if (field === "id" && !v.includes("\0")) this.#stream.lastEventId = v;
    else if (field === "retry" && /^\d+$/.test(v)) this.#stream.retryMs = Number(v);
    return null;
  }
}

// isObject, isErrorObject and sleepClamped serve client.js too; the entry (index.js) does not
// re-export them.
/**
 * The data of each `message` event of an SSE body, in order, until the body ends (a read error
 * propagates; stopping early cancels the body). `stream` follows the body's `id:` and `retry:`
 * fields as they are read (for a resume with Last-Event-ID). A line or an event over
 * `maxMessageBytes` (default 16 MiB) throws a TransportError `too_large` and cancels the body.
 */
async function* sseData(body: ReadableStream<Uint8Array>, stream: { lastEventId: string | null; retryMs: number; } = { lastEventId: null, retryMs: 1000 }, options: { maxMessageBytes?: number; } = {}): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new SseDecoder(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, stream);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      for (const text of decoder.push(value)) yield text;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

export { HttpConnection, HttpError, RpcError, TransportError, VersionError, concatBytes, isObject, isErrorObject, sleepClamped, sseData, sseStats };
