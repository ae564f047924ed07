// McpEndpoint: what an MCP server of tools with tasks answers, whatever carries the messages.
// McpHttpServer (Streamable HTTP) and McpStdioServer (newline-delimited JSON-RPC) each own their
// transport (sessions, streams, headers, framing) and hand every message to one endpoint for:
// the tool registry (`tools/list` of either era), the `initialize` answer of 2025-11-25, the
// stateless 2026-07-28 dispatch (`server/discover`, `tools/list`, `ping`, `tools/call` and
// `tasks/*` through the TaskHost, the serverInfo `_meta` on every result) and the error for a
// message the host does not serve.
//
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild). Web APIs only.
import { validateMessage } from "./mcp_tasks_wasm.js";
import { TaskHost } from "./host.js";
import { INTERNALS } from "./internals.js";
import { isObject } from "./http.js";
import {
  V25, V26, TASKS_EXTENSION, META_PROTOCOL_VERSION, META_SERVER_INFO, PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS,
  INTERNAL_ERROR, HEADER_MISMATCH, UNSUPPORTED_PROTOCOL_VERSION,
} from "./protocol.js";

export type JsonObject = Record<string, unknown>;
/** The tool's `execution.taskSupport` (2025-11-25) / the server's policy (2026-07-28). */
export type TaskSupport = import("./mcp_tasks_wasm.js").V25TaskSupport;

/**
 * A tool as `tools/list` shows it, plus how it runs.
 */
export type ToolOptions = {
  title?: string;
  description?: string;
  /**
   * Default `{ type: "object" }`: a JSON Schema object or a Standard Schema (zod 4
   * `z.object({...})`), published as its JSON Schema; calls' arguments are checked against it.
   */
  inputSchema?: import("./tool-schema.js").ToolInputSchema;
  outputSchema?: JsonObject;
  annotations?: JsonObject;
  /**
   * Default `"optional"`. 2025-11-25: the tool's `execution.taskSupport`; 2026-07-28: whether calls
   * become tasks (see TaskHost.tool).
   */
  taskSupport?: TaskSupport;
  /** Input gathered on the call before it becomes a task (see TaskHost's ToolOptions). */
  prepare?: (args: JsonObject, ctx: import("./host.js").ToolContext) => unknown;
  /** The poll interval suggested for this tool's tasks, ms (see TaskHost's ToolOptions). */
  pollIntervalMs?: number;
  /** The TTL bounds of this tool's tasks, ms (see TaskHost's ToolOptions). */
  ttlMs?: { default?: number; max?: number; };
  /** Safe to run again on another replica when the one running it stops (see TaskHost's ToolOptions). */
  rerun?: { maxAttempts?: number; };
};

/** The versions this server speaks, newest first (-32022's `data.supported`). */
export const SUPPORTED_VERSIONS = [V26, V25];

export function isId(id: unknown): id is string | number {
  return typeof id === "string" || (typeof id === "number" && Number.isInteger(id));
}

export function rpcError(id: unknown, code: number, message: string, data?: unknown): JsonObject {
  const error: JsonObject = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: "2.0", id: isId(id) ? id : null, error };
}

export function ok(id: unknown, result: JsonObject): JsonObject {
  return { jsonrpc: "2.0", id, result };
}

/** -32022 for a version this server does not speak, with the ones it does. */
export function unsupportedVersion(id: unknown, requested: string): JsonObject {
  return rpcError(id, UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${requested}`, {
    supported: SUPPORTED_VERSIONS,
    requested,
  });
}

/**
 * What `McpEndpoint.modern` made of one 2026-07-28 message: nothing to answer (a notification),
 * a refusal of the message itself (`bad`: HTTP 400), a `subscriptions/listen` for the transport
 * to serve, or the response.
 */
export type ModernAnswer =
  | { kind: "none"; }
  | { kind: "bad"; response: JsonObject; }
  | { kind: "listen"; }
  | { kind: "response"; response: JsonObject; };

export type ModernOptions = {
  /** The HTTP headers the message came with (checked against it, §D 97); none on stdio. */
  headers?: Record<string, string>;
  /** Serve a request whose `Mcp-Method` / `Mcp-Name` header is missing (never a mismatched one). */
  allowMissingRoutingHeaders?: boolean;
  /** Aborts the work of a synchronous call (the client went away). */
  signal?: AbortSignal;
  /** Who is calling (bounds the live tasks of each caller). */
  requestor?: string | null;
  /** What authentication established about the request (the owner of its tasks derives from it). */
  auth?: import("./host.js").RequestAuth | null;
  /**
   * Sends a notification on this request's own response stream (the progress of a synchronous
   * `tools/call`: an SSE answer over HTTP, the pipe over stdio); absent: none is sent.
   */
  notify?: (notification: JsonObject) => void;
};

/**
 * The requests a server sent its client (2025-11-25 input: elicitation, sampling, roots), each
 * waiting for the client's response: one table per connection or session, the same for every
 * transport (McpHttpServer, McpStdioServer, McpServerTasks).
 */
export class ClientRequests<K extends string | number> {
  #waiting: Map<K, { resolve: (result: JsonObject) => void; reject: (error: unknown) => void; }> = new Map();

  /** How many wait for their response. */
  get size(): number {
    return this.#waiting.size;
  }

  /**
   * The result of the request `id`, which `send` sends (called once the request waits): rejects
   * with `signal.reason` when `signal` aborts first (`onAbort` then undoes what `send` left
   * behind), or with the client's JSON-RPC error.
   */
  ask(id: K, signal: AbortSignal, send: () => void, onAbort?: () => void): Promise<JsonObject> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      this.#waiting.set(id, { resolve, reject });
      signal.addEventListener(
        "abort",
        () => {
          this.#waiting.delete(id);
          onAbort?.();
          reject(signal.reason);
        },
        { once: true },
      );
      send();
    });
  }

  /** Settles the request `id` with the client's response `message`; `false` when none waits. */
  settle(id: K, message: JsonObject): boolean {
    const waiting = this.#waiting.get(id);
    if (waiting === undefined) return false;
    this.#waiting.delete(id);
    if (isObject(message.error)) waiting.reject(message.error);
    else waiting.resolve(isObject(message.result) ? message.result : {});
    return true;
  }

  /** Gives up the request `id` with `error` (it could not be sent). */
  fail(id: K, error: unknown) {
    const waiting = this.#waiting.get(id);
    this.#waiting.delete(id);
    waiting?.reject(error);
  }

  /** Rejects every waiting request with `error` (the connection or session ended). */
  rejectAll(error: unknown) {
    const all = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const w of all) w.reject(error);
  }
}

export class McpEndpoint {
  serverInfo: JsonObject;
  instructions: string | undefined;
  host: TaskHost;
  tools: Map<string, { descriptor: JsonObject, taskSupport: TaskSupport }>;

  constructor(serverInfo: JsonObject, instructions: string | undefined, host: TaskHost) {
    this.serverInfo = serverInfo;
    this.instructions = instructions;
    this.host = host;
    this.tools = new Map();
  }

  /**
   * Registers a tool: the TaskHost runs it (synchronously or as a task), `tools/list` shows it.
   * Returns whether a tool of that name was there before.
   */
  tool(name: string, options: ToolOptions, handler: import("./host.js").TypedToolHandler): boolean {
    const o = options ?? {};
    const taskSupport = o.taskSupport ?? "optional";
    const hostOptions: import("./host.js").ToolOptions = { taskSupport };
    if (o.prepare) hostOptions.prepare = o.prepare;
    if (o.pollIntervalMs !== undefined) hostOptions.pollIntervalMs = o.pollIntervalMs;
    if (o.ttlMs !== undefined) hostOptions.ttlMs = o.ttlMs;
    if (o.inputSchema !== undefined) hostOptions.inputSchema = o.inputSchema;
    if (o.rerun !== undefined) hostOptions.rerun = o.rerun;
    this.host.tool(name, hostOptions, handler);
    const descriptor: JsonObject = { name };
    if (o.title !== undefined) descriptor.title = o.title;
    if (o.description !== undefined) descriptor.description = o.description;
    descriptor.inputSchema = this.host[INTERNALS]().tools.get(name)?.args.jsonSchema ?? { type: "object" };
    if (o.outputSchema !== undefined) descriptor.outputSchema = o.outputSchema;
    if (o.annotations !== undefined) descriptor.annotations = o.annotations;
    const existed = this.tools.has(name);
    this.tools.set(name, { descriptor, taskSupport });
    return existed;
  }

  /** The 2025-11-25 `initialize` result (the session's capabilities). */
  initializeResult(): JsonObject {
    const result: JsonObject = {
      // The client's version when it is 2025-11-25; otherwise the one this server speaks in a
      // session (an older client may accept it or disconnect).
      protocolVersion: V25,
      capabilities: {
        // §D 39: `list` only because requestors are identified (the session).
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
        tools: { listChanged: true },
      },
      serverInfo: this.serverInfo,
    };
    if (this.instructions !== undefined) result.instructions = this.instructions;
    return result;
  }

  /**
   * The 2025-11-25 answers of a session's request that are not the host's: `ping`, `tools/list`,
   * -32601 for a method that is neither `tools/call` nor `tasks/*`; `null` for the host's.
   */
  legacyOwn(method: string, id: string | number): JsonObject | null {
    switch (method) {
      case "ping":
        return ok(id, {});
      case "tools/list":
        return ok(id, {
          tools: [...this.tools.values()].map((t) => ({ ...t.descriptor, execution: { taskSupport: t.taskSupport } })),
        });
      default:
        if (method === "tools/call" || method.startsWith("tasks/")) return null;
        return rpcError(id, METHOD_NOT_FOUND, `Method not found: ${method}`);
    }
  }

  /**
   * The TaskHost context of a request in the 2025-11-25 session `session`: its tasks are bound
   * to it (§D 38), so `tasks/list` is declared (§D 39).
   */
  legacyContext(session: string) {
    return { protocolVersion: (V25 as "2025-11-25"), session, declared: { list: true, cancel: true, toolCalls: true } };
  }

  /** A request the host did not answer: an unknown tool or method. */
  notForHost(message: JsonObject): JsonObject {
    if (message.method === "tools/call") {
      const name = isObject(message.params) ? message.params.name : undefined;
      return rpcError(message.id, INVALID_PARAMS, `Invalid params: unknown tool ${JSON.stringify(name)}`);
    }
    return rpcError(message.id, METHOD_NOT_FOUND, `Method not found: ${String(message.method)}`);
  }

  /**
   * One 2026-07-28 message, stateless: checked against the version (and the headers, when it came
   * with some), then answered.
   */
  async modern(message: JsonObject, options: ModernOptions = {}): Promise<ModernAnswer> {
    const headers = options.headers;
    // The package's validator checks the message against 2026-07-28 and, over HTTP, the standard
    // headers (Mcp-Method = method; Mcp-Name = params.taskId on tasks/get|update|cancel, or the
    // tool's name; MCP-Protocol-Version = the version `_meta` names).
    const report = validateMessage(message, headers === undefined ? { version: V26 } : { version: V26, headers });
    if (report.rpc === "notification") return { kind: "none" };
    if (report.rpc !== "request") {
      return { kind: "bad", response: rpcError(message.id, INVALID_REQUEST, "Invalid Request: expected a JSON-RPC request") };
    }
    const id = message.id;
    const issue = (code: string) => report.issues.find((i) => i.code === code);
    // §D 97: a missing or mismatched standard header is -32020; with `allowMissingRoutingHeaders`
    // a missing Mcp-Method (at /method) or Mcp-Name (at /params/taskId) is served as if it named
    // the body's values, never a mismatched one.
    const allowMissing = options.allowMissingRoutingHeaders === true;
    const mismatch = issue("header-mismatch") ??
      report.issues.find((i) => i.code === "header-missing" && !(allowMissing && (i.path === "/method" || i.path === "/params/taskId")));
    if (mismatch) return { kind: "bad", response: rpcError(id, HEADER_MISMATCH, `Header mismatch: ${mismatch.message}`) };
    const badMeta = issue("request-meta");
    if (badMeta) return { kind: "bad", response: rpcError(id, INVALID_PARAMS, `Invalid params: ${badMeta.message}`) };
    const params = (message.params as JsonObject);
    const requested = (params._meta as JsonObject)[META_PROTOCOL_VERSION];
    if (requested !== V26) return { kind: "bad", response: unsupportedVersion(id, String(requested)) };

    let response: JsonObject | null;
    switch (message.method) {
      case "server/discover": {
        const result: JsonObject = {
          resultType: "complete",
          supportedVersions: SUPPORTED_VERSIONS,
          // The tasks extension, never the legacy `capabilities.tasks` block (§D 75).
          capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
          serverInfo: this.serverInfo,
          cacheScope: "public",
          ttlMs: 0,
        };
        if (this.instructions !== undefined) result.instructions = this.instructions;
        response = ok(id, result);
        break;
      }
      case "tools/list":
        response = ok(id, {
          resultType: "complete",
          tools: [...this.tools.values()].map((t) => t.descriptor),
          cacheScope: "public",
          ttlMs: 0,
        });
        break;
      case "ping":
        response = ok(id, { resultType: "complete" });
        break;
      case "subscriptions/listen":
        return { kind: "listen" };
      default: {
        // tools/call and tasks/*: the host answers; `null` means the message is not for it.
        const channel: import("./host.js").ClientChannel = { requestor: options.requestor ?? null, auth: options.auth ?? null };
        if (options.signal) channel.signal = options.signal;
        const notify = options.notify;
        if (notify !== undefined) {
          // Only a synchronous call's own stream: a 2026-07-28 task sends no progress (§B.h).
          channel.sendNotification = (note, info) => {
            if (info.taskId !== null) return;
            const notification: JsonObject = { jsonrpc: "2.0", method: note.method };
            if (note.params !== undefined) notification.params = note.params;
            notify(notification);
          };
        }
        response = await this.host.handle(message, { protocolVersion: V26 }, channel);
        if (response === null) response = this.notForHost(message);
      }
    }
    const result = response.result;
    if (isObject(result)) {
      // Every result says which server produced it (SHOULD, 2026-07-28).
      result._meta = { ...(isObject(result._meta) ? result._meta : {}), [META_SERVER_INFO]: this.serverInfo };
    }
    return { kind: "response", response };
  }
}
