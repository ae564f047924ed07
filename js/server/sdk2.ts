// McpServerTasks: task-capable tools inside an existing server of the official TypeScript SDK v2
// (`McpServer` / `Server` of `@modelcontextprotocol/server` 2.x), served by the SDK's own entries
// and transports (`createMcpHandler`'s Streamable HTTP, `serveStdio`, or a transport you connect).
//
//   const tasks = new McpServerTasks({ name: "my-server", version: "1.0.0" });
//   tasks.tool("slow_compute", { inputSchema, taskSupport: "optional" }, handler);
//   const handler = createMcpHandler(() => tasks.attach(buildMyMcpServer()));
//
// The hook is the transport: `attach` wraps each transport the SDK instance connects to (its own
// `connect`, overridden on that instance only) so that the messages of the task tools reach the
// TaskHost before the SDK decodes them, and go back out as the TaskHost wrote them:
//   - `tools/call` of a task tool and `tasks/*` are answered by the TaskHost (McpEndpoint: the
//     2026-07-28 dispatch and the 2025-11-25 session context, as McpHttpServer and McpStdioServer);
//   - `tools/list` answers are the SDK's tools followed by the task tools; the 2025-11-25
//     `initialize` answer declares `capabilities.tasks`, the 2026-07-28 `server/discover` answer
//     the tasks extension (§D 75);
//   - everything else (the SDK's tools, resources, prompts, logging, completion, its own
//     `initialize` and `server/discover`) goes to the SDK untouched.
// Why not `setRequestHandler`: McpServer owns `tools/call` and `tools/list` (one handler per
// method, the SDK's tools behind it, reachable only through protected members), the SDK v2 lifts
// the 2026-07-28 `_meta` envelope out of a request before a handler sees it, and re-encodes what a
// handler returns per era; the TaskHost needs the message as the client sent it and answers it
// whole. The transport is the one seam every SDK entry (HTTP per request, sessionful, stdio) has.
//
// No runtime import of the SDK: its instances and transports are typed structurally here.
//
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild). Web APIs only.
import { TaskHost } from "./host.js";
import { INTERNALS } from "./internals.js";
import { McpEndpoint, ClientRequests, isId, rpcError } from "./endpoint.js";
import { isObject } from "./http.js";
import { V25, TASKS_EXTENSION, META_PROTOCOL_VERSION, INVALID_REQUEST, METHOD_NOT_FOUND, INTERNAL_ERROR } from "./protocol.js";
import type { JsonObject, ToolOptions } from "./endpoint.js";
import type { ClientChannel, ClientRequest, SharedTaskServer, TaskHostOptions, TypedToolHandler } from "./host.js";
import type { RequestAuth } from "./http-server.js";

/** The SDK's `MessageExtraInfo`, as far as it is read here. */
export type SdkMessageExtra = { authInfo?: RequestAuth; request?: { signal?: AbortSignal; }; [key: string]: unknown; };

/** An SDK v2 `Transport`, as far as it is used here (every SDK server transport has these). */
export type SdkTransport = {
  send(message: JsonObject, options?: { relatedRequestId?: string | number; [key: string]: unknown; }): Promise<void>;
  onmessage?: ((message: JsonObject, extra?: SdkMessageExtra) => void) | undefined;
  onclose?: (() => void) | undefined;
  sessionId?: string | undefined;
};

/** What `attach` takes: an SDK v2 `McpServer` or `Server` (anything with `connect(transport)`). */
export type SdkConnectable = { connect(transport: never): Promise<void>; };

export type McpServerTasksOptions = {
  /** `serverInfo.name` (the SDK server's: the 2026-07-28 `_meta` of the task answers names it). */
  name: string;
  /** `serverInfo.version`. */
  version: string;
  title?: string;
  /** The TaskHost to serve (default: a new one with `hostOptions`; a SharedTaskServer's, for replicas). */
  host?: TaskHost | TaskHost<SharedTaskServer>;
  hostOptions?: TaskHostOptions;
};

/** The ids of the requests this module sends the client (2025-11-25 input), never the SDK's. */
const OUR_ID_PREFIX = "mcp-tasks-wasm-server-";

/** One connection (one wrapped transport): its 2025-11-25 session, the answers to amend. */
type Connection = {
  /** The transport's own `send` (this module's messages are not amended). */
  send: SdkTransport["send"];
  /** The 2025-11-25 session (`null`: none; see `wrap`). */
  session: () => string | null;
  clientCapabilities: JsonObject | undefined;
  /** Requests of this connection the SDK answers and this module amends, by id. */
  amend: Map<string | number, { method: string; modern: boolean; }>;
  /** Requests the TaskHost is answering, by id (`notifications/cancelled` aborts one). */
  inflight: Map<string | number, AbortController>;
  closed: boolean;
  unwatch: (() => void) | null;
};

/**
 * Makes `target[key]` read back as `wrap(f)` for the function `f` last set there (the one there
 * now included), `undefined` while none is: the wrapper is made once per function set.
 */
function interpose<T extends object, K extends keyof T>(target: T, key: K, wrap: (set: NonNullable<T[K]>) => T[K]) {
  const wrapOf = (fn: T[K]) => (fn === undefined ? undefined : wrap(fn as NonNullable<T[K]>));
  let wrapped = wrapOf(target[key]);
  Object.defineProperty(target, key, {
    configurable: true,
    enumerable: true,
    get: () => wrapped,
    set: (fn: T[K]) => {
      wrapped = wrapOf(fn);
    },
  });
}

class McpServerTasks {
  #endpoint: McpEndpoint;
  readonly host: TaskHost;
  /** Requests sent to clients (2025-11-25 input), by id, waiting for their response. */
  #outgoing: ClientRequests<string>;
  #nextId: number;
  /**
   * The blocked 2025-11-25 `tasks/result` request of each task (its connection and id, the
   * session it came in): a task's requests and notifications go out on its stream (§A.g).
   */
  #resultStreams: Map<string, { conn: Connection; id: string | number; session: string | null; }>;
  #attached: WeakSet<object>;

  constructor(options: McpServerTasksOptions) {
    if (!isObject(options) || typeof options.name !== "string" || typeof options.version !== "string") {
      throw new TypeError("McpServerTasks needs { name, version } (the serverInfo of the SDK server)");
    }
    const serverInfo: JsonObject = { name: options.name, version: options.version };
    if (typeof options.title === "string") serverInfo.title = options.title;
    this.host = (options.host ?? new TaskHost(options.hostOptions)) as TaskHost;
    this.#endpoint = new McpEndpoint(serverInfo, undefined, this.host);
    this.#outgoing = new ClientRequests();
    this.#nextId = 1;
    this.#resultStreams = new Map();
    this.#attached = new WeakSet();
  }

  /**
   * Registers a task-capable tool (TaskHost runs it, synchronously or as a task; `tools/list` of
   * every attached server shows it after the SDK's own). Register them before serving.
   */
  tool<S extends import("./tool-schema.js").StandardSchemaV1>(name: string, options: ToolOptions & { inputSchema: S; }, handler: TypedToolHandler<Extract<import("./tool-schema.js").StandardSchemaOutput<S>, object>>): this;
  tool<TArgs extends object = JsonObject>(name: string, options: ToolOptions, handler: TypedToolHandler<TArgs>): this;
  tool(name: string, options: ToolOptions, handler: TypedToolHandler): this {
    this.#endpoint.tool(name, options, handler);
    return this;
  }

  /**
   * Gives an SDK v2 server instance the task tools: every transport it connects to from now on
   * (the one `createMcpHandler` or `serveStdio` hands the instance its factory made, or yours)
   * carries them. Returns the instance (for the factory: `() => tasks.attach(build())`).
   */
  attach<T extends SdkConnectable>(server: T): T {
    if (this.#attached.has(server)) return server; // once: a second wrap would answer twice
    this.#attached.add(server);
    const target = server as unknown as { connect(transport: SdkTransport): Promise<void>; };
    const connect = target.connect.bind(server);
    target.connect = (transport: SdkTransport) => connect(this.wrap(transport));
    return server;
  }

  /**
   * Wraps one SDK transport in place (before the SDK connects to it): the task messages are
   * answered here, the SDK hears the others, and its answers to `tools/list`, `initialize` and
   * `server/discover` are amended on their way out. Returns the transport.
   */
  wrap<T extends SdkTransport>(transport: T): T {
    const send = transport.send.bind(transport);
    // 2025-11-25 tasks are bound to the session (§D 38): the transport's session id (set at
    // `initialize` on a sessionful HTTP transport), or for a long-lived connection without one
    // (stdio) the connection itself; a stateless HTTP exchange (a transport per request) has none.
    const own = isPerRequest(transport) ? null : crypto.randomUUID();
    const conn: Connection = {
      send,
      session: () => (typeof transport.sessionId === "string" ? transport.sessionId : own),
      clientCapabilities: undefined,
      amend: new Map(),
      inflight: new Map(),
      closed: false,
      unwatch: null,
    };
    // What was set on the transport (by you before connecting, then by the SDK as it connects);
    // the transport calls what it reads back: a function that lets this module see the message
    // first, then calls the one set. The SDK reads the handler set before its own and calls it
    // from its own: reached again with the same message (or close), that call goes straight on.
    let seeing: unknown = undefined;
    let closing = false;
    const onmessage = (set: NonNullable<SdkTransport["onmessage"]>) => (message: JsonObject, extra?: SdkMessageExtra) => {
      if (seeing === message) return set(message, extra);
      seeing = message;
      try {
        if (!this.#intercept(conn, message, extra)) set(message, extra);
      } finally {
        seeing = undefined;
      }
    };
    const onclose = (set: NonNullable<SdkTransport["onclose"]>) => () => {
      if (closing) return set();
      closing = true;
      try {
        this.#closed(conn);
        set();
      } finally {
        closing = false;
      }
    };
    interpose(transport, "onmessage", onmessage);
    interpose(transport, "onclose", onclose);
    transport.send = (message, options) => send(this.#amend(conn, message), options);
    return transport;
  }

  /** Whether this module answers `message` (then the SDK never sees it). */
  #intercept(conn: Connection, message: JsonObject, extra?: SdkMessageExtra): boolean {
    if (!isObject(message)) return false;
    const method = message.method;
    if (typeof method !== "string") {
      // A client's response to a request this module sent.
      const id = message.id;
      if (typeof id !== "string" || !id.startsWith(OUR_ID_PREFIX)) return false;
      this.#outgoing.settle(id, message);
      return true;
    }
    const params = isObject(message.params) ? message.params : {};
    if (!Object.hasOwn(message, "id")) {
      if (method === "notifications/cancelled" && isId(params.requestId)) {
        conn.inflight.get(params.requestId)?.abort(new Error("the client cancelled the request"));
        // The SDK sends no answer to a request it saw cancelled: nothing left to amend.
        conn.amend.delete(params.requestId);
      }
      return false; // the SDK hears every notification
    }
    const id = message.id;
    if (!isId(id)) return false;
    const modern = isObject(params._meta) && params._meta[META_PROTOCOL_VERSION] !== undefined;
    if (method === "initialize") {
      conn.clientCapabilities = isObject(params.capabilities) ? params.capabilities : {};
    }
    if (method === "tools/list" || method === "initialize" || method === "server/discover") {
      conn.amend.set(id, { method, modern });
      return false;
    }
    const ours = method.startsWith("tasks/") || (method === "tools/call" && typeof params.name === "string" && this.#endpoint.tools.has(params.name));
    if (!ours) return false;
    if (conn.inflight.has(id)) {
      this.#send(conn, rpcError(id, INVALID_REQUEST, "Invalid Request: this id is in use by a request being answered"), id);
      return true;
    }
    const controller = new AbortController();
    conn.inflight.set(id, controller);
    const waitsOn = method === "tasks/result" && !modern && typeof params.taskId === "string" ? params.taskId : null;
    const stream = { conn, id, session: conn.session() };
    if (waitsOn !== null) this.#resultStreams.set(waitsOn, stream);
    const outer = extra?.request?.signal;
    if (outer !== undefined) {
      if (outer.aborted) controller.abort(outer.reason);
      else outer.addEventListener("abort", () => controller.abort(outer.reason), { once: true });
    }
    this.#answer(conn, message, id, modern, extra, controller.signal)
      .catch((e) => {
        this.host[INTERNALS]().onError(e, "");
        return rpcError(id, INTERNAL_ERROR, "Internal error");
      })
      .then((response) => {
        if (conn.inflight.get(id) === controller) conn.inflight.delete(id);
        if (waitsOn !== null && this.#resultStreams.get(waitsOn) === stream) this.#resultStreams.delete(waitsOn);
        if (response !== null && !conn.closed) return conn.send(response, { relatedRequestId: id });
        return undefined;
      })
      .catch((e) => this.host[INTERNALS]().onError(e, ""));
    return true;
  }

  async #answer(conn: Connection, message: JsonObject, id: string | number, modern: boolean, extra: SdkMessageExtra | undefined, signal: AbortSignal): Promise<JsonObject | null> {
    const auth = isObject(extra?.authInfo) ? (extra.authInfo as RequestAuth) : null;
    const requestor = auth !== null && typeof auth.clientId === "string" ? auth.clientId : null;
    if (modern) {
      const answer = await this.#endpoint.modern(message, { signal, requestor, auth });
      switch (answer.kind) {
        case "none":
          return null;
        case "listen":
          return rpcError(id, METHOD_NOT_FOUND, "Method not found: subscriptions/listen");
        default:
          return answer.response;
      }
    }
    const session = conn.session();
    const ctx = session === null
      ? { protocolVersion: V25 as "2025-11-25", declared: { list: false, cancel: true, toolCalls: true } }
      : this.#endpoint.legacyContext(session);
    const channel: ClientChannel = {
      signal,
      requestor,
      auth,
      sendRequest: (request, info) => {
        const [to, related] = this.#route(conn, id, session, info.taskId);
        return this.#ask(to, request, related, info.signal);
      },
      sendNotification: (note, info) => {
        const notification: JsonObject = { jsonrpc: "2.0", method: note.method };
        if (note.params !== undefined) notification.params = note.params;
        const [to, related] = this.#route(conn, id, session, info.taskId);
        this.#send(to, notification, related);
      },
    };
    if (conn.clientCapabilities !== undefined) channel.clientCapabilities = conn.clientCapabilities;
    return (await this.host.handle(message, ctx, channel)) ?? this.#endpoint.notForHost(message);
  }

  /**
   * Where a message of the call `id` (made on `conn` in `session`) goes: a synchronous call's on
   * its own response stream; a task's on the stream of a `tasks/result` of the same session
   * blocked on it (§A.g: on a stateless HTTP leg the only stream there is), else on the
   * connection without a related request (stdio; a sessionful transport's GET stream).
   */
  #route(conn: Connection, id: string | number, session: string | null, taskId: string | null): [Connection, string | number | null] {
    if (taskId === null) return [conn, id];
    const stream = this.#resultStreams.get(taskId);
    if (stream !== undefined && !stream.conn.closed && stream.session === session) return [stream.conn, stream.id];
    return [conn, null];
  }

  /** Writes a message of this module (never throws; dropped once the connection closed). */
  #send(conn: Connection, message: JsonObject, related: string | number | null) {
    if (conn.closed) return;
    const options = related === null ? undefined : { relatedRequestId: related };
    conn.send(message, options).catch((e) => this.host[INTERNALS]().onError(e, ""));
  }

  /** Sends one request to the client (2025-11-25 input) and resolves with its result. */
  #ask(conn: Connection, request: ClientRequest, related: string | number | null, signal: AbortSignal): Promise<JsonObject> {
    const id = `${OUR_ID_PREFIX}${this.#nextId++}`;
    const message: JsonObject = { jsonrpc: "2.0", id, method: request.method };
    if (request.params !== undefined) message.params = request.params;
    if (!signal.aborted && conn.closed) return Promise.reject(new Error("the connection is closed"));
    return this.#outgoing.ask(id, signal, () => this.#send(conn, message, related));
  }

  /** §D 43: the session's tasks say when they change status (a connection with a session). */
  #watch(conn: Connection) {
    if (conn.unwatch !== null) return;
    conn.unwatch = this.host.watch(
      (task) => {
        const session = conn.session();
        if (task.protocolVersion === V25 && session !== null && task.session === session) {
          this.#send(conn, { jsonrpc: "2.0", method: "notifications/tasks/status", params: task.v25 }, null);
        }
      },
    );
  }

  #closed(conn: Connection) {
    if (conn.closed) return;
    conn.closed = true;
    conn.unwatch?.();
    for (const controller of conn.inflight.values()) controller.abort(new Error("the connection closed"));
    conn.inflight.clear();
  }

  /** The SDK's answer, with the task tools and capabilities added where they belong. */
  #amend(conn: Connection, message: JsonObject): JsonObject {
    if (!isObject(message) || typeof message.method === "string" || !isId(message.id)) return message;
    const pending = conn.amend.get(message.id);
    if (pending === undefined) return message;
    conn.amend.delete(message.id);
    const tools = [...this.#endpoint.tools.values()];
    const listed = tools.map((t) => (pending.modern ? t.descriptor : { ...t.descriptor, execution: { taskSupport: t.taskSupport } }));
    if (isObject(message.error)) {
      // An SDK server without tools of its own has no `tools/list`: the task tools are the list.
      if (pending.method === "tools/list" && message.error.code === METHOD_NOT_FOUND) {
        const result: JsonObject = { tools: listed };
        if (pending.modern) Object.assign(result, { resultType: "complete", cacheScope: "public", ttlMs: 0 });
        return { jsonrpc: "2.0", id: message.id, result };
      }
      return message;
    }
    const result = message.result;
    if (!isObject(result)) return message;
    if (pending.method === "tools/list") {
      // One name, one tool: a task tool hides an SDK tool of the same name (its calls come here).
      // Paginated SDK lists get the task tools on their last page.
      if (result.nextCursor !== undefined) return message;
      const own = Array.isArray(result.tools) ? result.tools.filter((t) => !(isObject(t) && this.#endpoint.tools.has(String(t.name)))) : [];
      return { ...message, result: { ...result, tools: [...own, ...listed] } };
    }
    const capabilities = isObject(result.capabilities) ? { ...result.capabilities } : {};
    if (!isObject(capabilities.tools)) capabilities.tools = {};
    if (pending.method === "initialize") {
      // §D 39: `list` only where requestors are identified (a session).
      const tasks: JsonObject = { cancel: {}, requests: { tools: { call: {} } } };
      if (conn.session() !== null) {
        tasks.list = {};
        this.#watch(conn);
      }
      capabilities.tasks = tasks;
    } else {
      // 2026-07-28: the tasks extension, never the legacy `capabilities.tasks` block (§D 75).
      const extensions = isObject(capabilities.extensions) ? capabilities.extensions : {};
      capabilities.extensions = { ...extensions, [TASKS_EXTENSION]: {} };
    }
    return { ...message, result: { ...result, capabilities } };
  }
}

/** Whether the transport serves one HTTP exchange (the SDK's per-request and stateless ones). */
function isPerRequest(transport: SdkTransport): boolean {
  const t = transport as { handleMessage?: unknown; handleRequest?: unknown; };
  return typeof t.handleMessage === "function" || typeof t.handleRequest === "function";
}

export { McpServerTasks };
