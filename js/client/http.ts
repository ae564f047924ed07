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
// answers them; the answer is POSTed back; `ping` is answered here). A stream that ends before
// the answer is resumed with GET and `Last-Event-ID` when the server gave event ids.
//
// The connection is usable alone (`request`, `notify`) or as TaskClient's `request`
// (`TaskClient.connect` does that).
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).

export type JsonObject = Record<string, unknown>;

export type FetchFn = (input: string, init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal; }) => Promise<Response>;

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
};

const V25 = "2025-11-25";
const V26 = "2026-07-28";
/** The versions negotiated by `initialize`, newest first. */
const INITIALIZE_VERSIONS = [V25, "2025-06-18", "2025-03-26", "2024-11-05"];
const META_VERSION = "io.modelcontextprotocol/protocolVersion";
const META_CAPS = "io.modelcontextprotocol/clientCapabilities";
const METHOD_NOT_FOUND = -32601;
const INTERNAL_ERROR = -32603;
const UNSUPPORTED_VERSION = -32022;
/** GET resumptions of one answer's stream before giving up. */
const MAX_RESUMES = 5;
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

/** The exchange did not complete: the network failed (`cause`), the connection was closed, or the answer was unreadable. */
class TransportError extends Error {
  name: string;
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "TransportError";
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
  async request(method: string, params: JsonObject = {}): Promise<JsonObject> {
    if (this.closed) throw new TransportError(`${method}: the connection is closed`);
    const p = this.protocolVersion === V26 ? this.#withMeta(params) : params;
    const id = this.#nextId++;
    const res = await this.#post({ jsonrpc: "2.0", id, method, params: p }, method, p);
    if (method === "initialize") {
      const session = res.headers.get("mcp-session-id");
      if (session) this.sessionId = session;
    }
    return this.#read(res, id, method);
  }

  /** Sends one notification (HTTP 202 expected). */
  async notify(method: string, params?: JsonObject): Promise<void> {
    if (this.closed) throw new TransportError(`${method}: the connection is closed`);
    const message: JsonObject = { jsonrpc: "2.0", method };
    const p = params !== undefined && this.protocolVersion === V26 ? this.#withMeta(params) : params;
    if (p !== undefined) message.params = p;
    const res = await this.#post(message, method, p ?? {});
    await this.#expectAccepted(res, method);
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
   * Opens a long-lived event stream for push (js/client/push.js reads it): 2026-07-28, `method`
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
      return await this.#fetch(this.url, init);
    } catch (e) {
      throw new TransportError(`${init.method} ${method ?? "stream"} to ${this.url}: ${e instanceof Error ? e.message : String(e)}`, e);
    }
  }

  /**
   * Hands on a message read from a stream opened with `openStream`: notifications to
   * `onnotification`, requests to `onrequest` (answered by POST), as on any answer's stream.
   */
  receive(message: JsonObject) {
    this.#dispatch(message);
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

  /** POSTs one message. */
  async #post(message: JsonObject, method: string | null, params: JsonObject): Promise<Response> {
    try {
      return await this.#fetch(this.url, { method: "POST", headers: this.#headersFor(method, params), body: JSON.stringify(message), signal: this.#aborter.signal });
    } catch (e) {
      throw new TransportError(`POST ${method ?? "response"} to ${this.url}: ${this.closed ? "the connection was closed" : e instanceof Error ? e.message : String(e)}`, e);
    }
  }

  /** A notification or an answer was accepted (2xx; its body, if any, is read for messages). */
  async #expectAccepted(res: Response, what: string) {
    if (res.ok) {
      await res.body?.cancel().catch(() => {});
      return;
    }
    const text = await res.text().catch(() => "");
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
  async #read(res: Response, id: number, method: string): Promise<JsonObject> {
    const wait = retryAfter(res.headers.get("retry-after"));
    const type = (res.headers.get("content-type") ?? "").toLowerCase();
    if (res.ok && type.startsWith("text/event-stream") && res.body) return this.#readStream(res.body, id, method, 0);
    let text;
    try {
      text = await res.text();
    } catch (e) {
      throw new TransportError(`${method}: the answer could not be read: ${e instanceof Error ? e.message : String(e)}`, e);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      if (!res.ok) throw new HttpError(`${method}: HTTP ${res.status} ${res.statusText}`.trim(), res.status, text.slice(0, BODY_KEPT), wait);
      throw new TransportError(`${method}: the answer is not JSON (HTTP ${res.status}, ${type || "no content type"})`);
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
    throw new TransportError(`${method}: the answer holds no ${answer ? "valid " : ""}JSON-RPC response to request ${id}`);
  }

  /**
   * Reads an SSE stream until the answer to `id`; every other message is dispatched. A stream
   * that ends first is resumed (GET with Last-Event-ID) when it had event ids and a session.
   */
  async #readStream(body: ReadableStream<Uint8Array>, id: number, method: string, resumes: number): Promise<JsonObject> {
    const stream = { lastEventId: (null as string | null), retryMs: 1000 };
    let answer: JsonObject | null = null;
    try {
      for await (const text of sseData(body, stream)) {
        let message: unknown;
        try {
          message = JSON.parse(text);
        } catch {
          this.#report(new TransportError(`${method}: an SSE event is not JSON: ${text.slice(0, 200)}`));
          continue;
        }
        for (const m of Array.isArray(message) ? message : [message]) {
          if (!isObject(m)) continue;
          if (m.id === id && !("method" in m)) answer = m;
          else if ("method" in m) this.#dispatch(m);
        }
        if (answer !== null) break;
      }
    } catch (e) {
      throw new TransportError(`${method}: the event stream failed: ${this.closed ? "the connection was closed" : e instanceof Error ? e.message : String(e)}`, e);
    }
    const { lastEventId, retryMs } = stream;
    if (answer !== null) {
      if (isErrorObject(answer.error)) throw new RpcError(answer.error, 200);
      if (isObject(answer.result)) return answer.result;
      throw new TransportError(`${method}: the answer to request ${id} is not a JSON-RPC response`);
    }
    if (lastEventId !== null && this.sessionId !== null && resumes < MAX_RESUMES && !this.closed) {
      await sleepClamped(Math.min(retryMs, 30_000), this.#aborter.signal);
      return this.#resume(lastEventId, id, method, resumes + 1);
    }
    throw new TransportError(`${method}: the event stream ended before the answer`);
  }

  /** GET the stream again from `lastEventId`. */
  async #resume(lastEventId: string, id: number, method: string, resumes: number): Promise<JsonObject> {
    const headers = this.#headersFor(null, {});
    delete headers["Content-Type"];
    headers.Accept = "text/event-stream";
    headers["Last-Event-ID"] = lastEventId;
    let res;
    try {
      res = await this.#fetch(this.url, { method: "GET", headers, signal: this.#aborter.signal });
    } catch (e) {
      throw new TransportError(`${method}: resuming the event stream failed: ${e instanceof Error ? e.message : String(e)}`, e);
    }
    const type = (res.headers.get("content-type") ?? "").toLowerCase();
    if (!res.ok || !type.startsWith("text/event-stream") || !res.body) {
      await res.body?.cancel().catch(() => {});
      throw new TransportError(`${method}: the event stream ended before the answer, and could not be resumed (HTTP ${res.status})`);
    }
    return this.#readStream(res.body, id, method, resumes);
  }

  /** A message from the server that is not the awaited answer. */
  #dispatch(message: JsonObject) {
    if (typeof message.method !== "string") return;
    if (!("id" in message)) {
      try {
        this.onnotification?.(message);
      } catch (e) {
        this.#report(e);
      }
      return;
    }
    this.#answer(message).catch((e) => this.#report(e));
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
    const res = await this.#post(reply, null, {});
    await this.#expectAccepted(res, `the answer to ${String(message.method)}`);
  }

  /** Deletes the 2025-11-25 session, if any (best effort). */
  async #endSession() {
    if (this.sessionId === null) return;
    const headers = this.#headersFor(null, {});
    delete headers["Content-Type"];
    this.sessionId = null;
    try {
      const res = await this.#fetch(this.url, { method: "DELETE", headers });
      await res.body?.cancel().catch(() => {});
    } catch (e) {
      this.#report(e);
    }
  }

  #report(error: unknown) {
    if (this.onerror) this.onerror(error);
  }
}

// isObject, isErrorObject and sleepClamped serve client.js too; the entry (index.js) does not
// re-export them.
/**
 * The data of each `message` event of an SSE body, in order, until the body ends (a read error
 * propagates; stopping early cancels the body). `stream` follows the body's `id:` and `retry:`
 * fields as they are read (for a resume with Last-Event-ID).
 */
async function* sseData(body: ReadableStream<Uint8Array>, stream: { lastEventId: string | null; retryMs: number; } = { lastEventId: null, retryMs: 1000 }): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let event = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (;;) {
        const end = buffer.search(/\r\n|\r|\n/);
        // A lone "\r" at the end may be the first half of "\r\n": wait for more.
        if (end === -1 || (end === buffer.length - 1 && buffer[end] === "\r")) break;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
        if (line === "") {
          const text = data.join("\n");
          const type = event;
          data = [];
          event = "";
          if (text !== "" && (type === "" || type === "message")) yield text;
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        const v = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") data.push(v);
        else if (field === "event") event = v;
        else if (field === "id" && !v.includes("\0")) stream.lastEventId = v;
        else if (field === "retry" && /^\d+$/.test(v)) stream.retryMs = Number(v);
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

export { HttpConnection, HttpError, RpcError, TransportError, VersionError, isObject, isErrorObject, sleepClamped, sseData };
