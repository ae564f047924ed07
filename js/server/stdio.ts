// McpStdioServer: MCP tools with tasks over the stdio transport (newline-delimited JSON-RPC, one
// message per line, UTF-8), serving both protocol eras on the same pipe, on top of TaskHost.
//
//   2025-11-25: `initialize` opens the one implicit session of the process: tasks are bound to
//     it (§D 38), `tools/list` shows `execution.taskSupport`, the requests a task sends the client
//     (elicitation, sampling) and `notifications/tasks/status` (§D 43) go out on the output.
//   2026-07-28: every request carries its `_meta` (stateless), `server/discover`, the tasks
//     extension, MRTR for input asked before a task (McpEndpoint, as McpHttpServer).
//
// The streams are parameters (no `node:` import): a readable of bytes (a ReadableStream or any
// async iterable, e.g. Node's `process.stdin`) and a `write(bytes)` (e.g. `process.stdout`'s).
// Nothing but JSON-RPC is ever written there; errors go to `onError` (default console.error,
// which is stderr under Node).
//
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).
import { TaskHost } from "./host.js";
import { McpEndpoint, ClientRequests, isId, rpcError, ok } from "./endpoint.js";
import { concatBytes, isObject } from "./http.js";
import { V25, META_PROTOCOL_VERSION, PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR } from "./protocol.js";
import type { JsonObject, ToolOptions } from "./endpoint.js";

/** The input: a ReadableStream of bytes, or any async iterable of them (Node's `process.stdin`). */
export type StdioReadable = AsyncIterable<Uint8Array> | { getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array; }>; releaseLock(): void; }; };

/** The two ends of the pipe the server speaks on. */
export type StdioStreams = {
  readable: StdioReadable;
  /** Writes bytes to the output (one whole line at a time); may return a promise. */
  write: (bytes: Uint8Array) => unknown;
};

export type McpStdioServerOptions = {
  /** `serverInfo.name`. */
  name: string;
  /** `serverInfo.version`. */
  version: string;
  title?: string;
  instructions?: string;
  /** The TaskHost to serve (default: a new one with `hostOptions`). */
  host?: TaskHost;
  hostOptions?: import("./host.js").TaskHostOptions;
  /**
   * The longest line (message) read, in bytes (default 4 MiB). A longer one is skipped to its
   * end and answered -32600 with `data: { limit, cap: "maxMessageBytes" }`.
   */
  maxMessageBytes?: number;
  /** Where unexpected errors go (default console.error: stderr). Never stdout. */
  onError?: (error: unknown) => void;
};

const ENCODER = new TextEncoder();
const NEWLINE = 0x0a;

class McpStdioServer {
  #endpoint: McpEndpoint;
  readonly host: TaskHost;
  #maxMessageBytes: number;
  #onError: (error: unknown) => void;
  /** The implicit 2025-11-25 session (`null` until `initialize`). */
  #session: { id: string; clientCapabilities: JsonObject; } | null;
  /** Requests sent to the client, by id, waiting for its response. */
  #outgoing: ClientRequests<number>;
  #nextId: number;
  /** Requests being answered, by id (`notifications/cancelled` aborts one). */
  #inflight: Map<string | number, AbortController>;
  #write: ((bytes: Uint8Array) => unknown) | null;
  #writing: Promise<unknown>;
  #unwatch: () => void;
  #closed: boolean;

  constructor(options: McpStdioServerOptions) {
    if (!isObject(options) || typeof options.name !== "string" || typeof options.version !== "string") {
      throw new TypeError("McpStdioServer needs { name, version } (the serverInfo)");
    }
    const serverInfo: JsonObject = { name: options.name, version: options.version };
    if (typeof options.title === "string") serverInfo.title = options.title;
    this.host = (options.host ?? new TaskHost(options.hostOptions)) as TaskHost;
    this.#endpoint = new McpEndpoint(serverInfo, options.instructions, this.host);
    const max = options.maxMessageBytes ?? 4 * 1024 * 1024;
    if (!(Number.isSafeInteger(max) && max > 0)) throw new TypeError(`maxMessageBytes must be a positive integer, not ${String(max)}`);
    this.#maxMessageBytes = max;
    this.#onError = options.onError ?? ((error) => console.error("McpStdioServer:", error));
    this.#session = null;
    this.#outgoing = new ClientRequests();
    this.#nextId = 1;
    this.#inflight = new Map();
    this.#write = null;
    this.#writing = Promise.resolve();
    this.#closed = false;
    // §D 43: the session's tasks say when they change status.
    this.#unwatch = this.host.watch(
      (task) => {
        if (task.protocolVersion === V25 && this.#session !== null && task.session === this.#session.id) {
          this.#send({ jsonrpc: "2.0", method: "notifications/tasks/status", params: task.v25 });
        }
      },
    );
  }

  /** Registers a tool: TaskHost runs it (synchronously or as a task), `tools/list` shows it. */
  tool<S extends import("./tool-schema.js").StandardSchemaV1>(name: string, options: ToolOptions & { inputSchema: S; }, handler: import("./host.js").TypedToolHandler<Extract<import("./tool-schema.js").StandardSchemaOutput<S>, object>>): this;
  tool<TArgs extends object = JsonObject>(name: string, options: ToolOptions, handler: import("./host.js").TypedToolHandler<TArgs>): this;
  tool(name: string, options: ToolOptions, handler: import("./host.js").TypedToolHandler): this {
    const existed = this.#endpoint.tool(name, options, handler);
    if (existed || this.#session !== null) this.#send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    return this;
  }

  /**
   * Serves the messages of `readable`, answering on `write`, until the input ends (the client
   * closed it: the MCP stdio shutdown), then closes (`close`). One server serves one pipe.
   */
  async serve(streams: StdioStreams): Promise<void> {
    if (this.#write !== null) throw new Error("McpStdioServer serves one pipe: this one is serving already");
    if (!isObject(streams) || typeof streams.write !== "function") throw new TypeError("serve needs { readable, write(bytes) }");
    this.#write = streams.write;
    try {
      let line: Uint8Array[] = [];
      let size = 0;
      /** Skipping the rest of a line longer than `maxMessageBytes`. */
      let skipping = false;
      for await (const chunk of chunks(streams.readable)) {
        if (this.#closed) break;
        let from = 0;
        while (from < chunk.length) {
          const nl = chunk.indexOf(NEWLINE, from);
          const end = nl < 0 ? chunk.length : nl;
          if (!skipping) {
            size += end - from;
            if (size > this.#maxMessageBytes) {
              skipping = true;
              line = [];
              const limit = this.#maxMessageBytes;
              this.#send(rpcError(null, INVALID_REQUEST, `Message too large: a line holds at most ${limit} bytes (maxMessageBytes)`, { limit, cap: "maxMessageBytes" }));
            } else line.push(chunk.subarray(from, end));
          }
          if (nl < 0) break;
          if (!skipping) this.#line(concatBytes(line, size));
          line = [];
          size = 0;
          skipping = false;
          from = nl + 1;
        }
      }
      if (!skipping && size > 0) this.#line(concatBytes(line, size));
    } finally {
      await this.close();
    }
  }

  /**
   * Stops serving: the requests sent to the client are rejected, and the TaskHost's running
   * work is aborted (`TaskHost.close`; the tasks stay in the store). Nothing is written after.
   */
  async close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#unwatch();
    for (const controller of this.#inflight.values()) controller.abort(new Error("the server is shutting down"));
    this.#outgoing.rejectAll(new Error("the server is shutting down"));
    await this.host.close();
    await this.#writing;
  }

  #report(error: unknown) {
    try {
      this.#onError(error);
    } catch {
      // nowhere left to say it (never stdout)
    }
  }

  /** Writes one message as one line, in order; a write that fails is reported, never thrown. */
  #send(message: JsonObject) {
    const write = this.#write;
    if (write === null || this.#closed) return;
    const bytes = ENCODER.encode(`${JSON.stringify(message)}\n`);
    this.#writing = this.#writing.then(() => write(bytes)).catch((e) => this.#report(e));
  }

  #line(bytes: Uint8Array) {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).trim();
    } catch {
      this.#send(rpcError(null, PARSE_ERROR, "Parse error: the line is not UTF-8"));
      return;
    }
    if (text === "") return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.#send(rpcError(null, PARSE_ERROR, "Parse error: the line is not JSON"));
      return;
    }
    if (Array.isArray(message)) {
      this.#send(rpcError(null, INVALID_REQUEST, "Invalid Request: JSON-RPC batches are not supported"));
      return;
    }
    if (!isObject(message)) {
      this.#send(rpcError(null, INVALID_REQUEST, "Invalid Request: expected a JSON-RPC message"));
      return;
    }
    this.#message(message).catch((e) => {
      this.#report(e);
      if (message.method !== undefined && isId(message.id)) this.#send(rpcError(message.id, INTERNAL_ERROR, "Internal error"));
    });
  }

  async #message(message: JsonObject) {
    const method = message.method;
    if (typeof method !== "string") {
      // The client's response to a request we sent it.
      const settled = typeof message.id === "number" && this.#outgoing.settle(message.id, message);
      if (!settled && !("result" in message || "error" in message)) {
        this.#send(rpcError(message.id, INVALID_REQUEST, "Invalid Request: no method"));
      }
      return;
    }
    if (Object.hasOwn(message, "id") && !isId(message.id)) {
      this.#send(rpcError(null, INVALID_REQUEST, "Invalid Request: `id` must be a string or an integer"));
      return;
    }
    const isRequest = Object.hasOwn(message, "id");
    if (!isRequest && method === "notifications/cancelled" && isObject(message.params)) {
      // Aborts a request in flight (a synchronous call's work; a task is cancelled by tasks/cancel).
      const target = message.params.requestId;
      if (isId(target)) this.#inflight.get(target)?.abort(new Error("the client cancelled the request"));
      return;
    }
    const id = message.id as string | number;
    const controller = new AbortController();
    if (isRequest) {
      if (this.#inflight.has(id)) {
        this.#send(rpcError(id, INVALID_REQUEST, "Invalid Request: this id is in use by a request being answered"));
        return;
      }
      this.#inflight.set(id, controller);
    }
    try {
      const response = await this.#answer(message, method, controller.signal);
      if (isRequest && response !== null) this.#send(response);
    } finally {
      if (isRequest && this.#inflight.get(id) === controller) this.#inflight.delete(id);
    }
  }

  async #answer(message: JsonObject, method: string, signal: AbortSignal): Promise<JsonObject | null> {
    const id = message.id;
    const meta = isObject(message.params) && isObject(message.params._meta) ? message.params._meta : null;
    // Era dispatch, as over HTTP: initialize opens the (one) legacy session; modern `_meta` is
    // stateless; anything else needs the session.
    if (method === "initialize") return isId(id) ? this.#initialize(message, id) : null;
    if (meta !== null && meta[META_PROTOCOL_VERSION] !== undefined) {
      // A synchronous call's progress goes out on the pipe before its answer.
      const answer = await this.#endpoint.modern(message, { signal, notify: (n) => this.#send(n) });
      switch (answer.kind) {
        case "none":
          return null;
        case "listen":
          return rpcError(id, METHOD_NOT_FOUND, "Method not found: subscriptions/listen is served over HTTP (stdio: poll tasks/get)");
        default:
          return answer.response;
      }
    }
    if (!isId(id)) return null; // notifications/initialized and the rest: nothing to answer
    const session = this.#session;
    if (session === null) {
      return rpcError(
        id,
        INVALID_REQUEST,
        "Invalid Request: not initialized. Send initialize first (2025-11-25), or per-request _meta with io.modelcontextprotocol/protocolVersion (2026-07-28)",
      );
    }
    const own = this.#endpoint.legacyOwn(method, id);
    if (own !== null) return own;
    const ctx = this.#endpoint.legacyContext(session.id);
    const channel: import("./host.js").ClientChannel = {
      clientCapabilities: session.clientCapabilities,
      signal,
      // One pipe: a task's requests and a synchronous call's go out the same way.
      sendRequest: (req, info) => this.#ask(req, info.signal),
      sendNotification: (note) => {
        const notification: JsonObject = { jsonrpc: "2.0", method: note.method };
        if (note.params !== undefined) notification.params = note.params;
        this.#send(notification);
      },
    };
    return (await this.host.handle(message, ctx, channel)) ?? this.#endpoint.notForHost(message);
  }

  #initialize(message: JsonObject, id: string | number): JsonObject {
    const params = message.params;
    if (!isObject(params) || typeof params.protocolVersion !== "string") {
      return rpcError(id, INVALID_PARAMS, "Invalid params: initialize needs params.protocolVersion (a string)");
    }
    if (this.#session !== null) return rpcError(id, INVALID_REQUEST, "Invalid Request: already initialized (one session per stdio process)");
    const capabilities = isObject(params.capabilities) ? params.capabilities : {};
    this.#session = { id: crypto.randomUUID(), clientCapabilities: capabilities };
    return ok(id, this.#endpoint.initializeResult());
  }

  /** Sends one request to the client and resolves with its result. */
  #ask(req: import("./host.js").ClientRequest, signal: AbortSignal): Promise<JsonObject> {
    const id = this.#nextId++;
    const message: JsonObject = { jsonrpc: "2.0", id, method: req.method };
    if (req.params !== undefined) message.params = req.params;
    if (!signal.aborted && this.#closed) return Promise.reject(new Error("the server is closed"));
    return this.#outgoing.ask(id, signal, () => this.#send(message));
  }
}

/** The chunks of a ReadableStream or an async iterable. */
async function* chunks(readable: StdioReadable): AsyncGenerator<Uint8Array> {
  if (Symbol.asyncIterator in readable) {
    yield* readable as AsyncIterable<Uint8Array>;
    return;
  }
  const reader = (readable as Exclude<StdioReadable, AsyncIterable<Uint8Array>>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value !== undefined) yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

export { McpStdioServer };
