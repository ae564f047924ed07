// A TaskClient over an official MCP SDK `Client`, 1.x (`@modelcontextprotocol/sdk`) or 2.x
// (`@modelcontextprotocol/client`), on whatever transport it was connected with (stdio,
// Streamable HTTP, in-memory): `TaskClient.over(sdkClient)` and `requestVia`.
//
// Why a raw path: SDK 2.x decodes every result before the caller sees it, and its 2026-07-28
// codec rejects `resultType: "task"` (§D 115) with its own SdkError: the task id is lost and the
// task runs on, uncancellable. The SDK has no public hook that hands a raw result to its caller
// (ext-tasks asks its host for a `rawDispatch` function for the same reason). So the task
// requests go on the SDK client's own transport, after it connected: each is sent with
// `transport.send` under an id of ours (a string the SDK never uses: its ids are numbers), and
// its answer is taken off `transport.onmessage` before the SDK's protocol layer sees it. Every
// other message (the server's requests, notifications, the SDK's own answers) goes on to the SDK
// as before; notifications are also shown to the TaskClients attached. The SDK keeps the
// session: the version it negotiated, the server's capabilities, the transport's headers (2.x
// derives the 2026-07-28 routing headers from the message body).
//
// No import of either SDK: the package does not depend on it. The types below are structural,
// written so that both SDKs' `Client` classes are assignable to them under `--strict`.
import { TransportError, isObject } from "./http.js";
import { V25 } from "./protocol.js";
import type { JsonObject, RequestFn, RequestSession } from "./client.js";

/** What this package needs of an SDK transport (both SDKs' `Transport`). */
type SdkTransport = {
  send(message: any, options?: any): Promise<void>;
  onmessage?: ((message: any, extra?: any) => void) | undefined;
  onclose?: (() => void) | undefined;
  protocolVersion?: string | undefined;
};

/**
 * An official MCP SDK `Client` (`@modelcontextprotocol/sdk` 1.x or `@modelcontextprotocol/client`
 * 2.x), connected on any transport. 2.x is told apart by `getProtocolEra`.
 */
export interface SdkClientLike {
  /** 1.x: `request(request, resultSchema, options)`; 2.x: also with a schema. */
  request(request: any, resultSchema?: any, options?: any): Promise<unknown>;
  /** After `connect`: the server's capabilities. */
  getServerCapabilities?(): unknown;
  /** 2.x: `"modern"` (2026-07-28, negotiated by `server/discover`) or `"legacy"` (`initialize`). */
  getProtocolEra?(): string | undefined;
  /** 2.x (and late 1.x): the version negotiated. */
  getNegotiatedProtocolVersion?(): string | undefined;
  /** 1.x: `(requestSchema, handler)`; 2.x: `(method, handler)`. */
  setRequestHandler?(schemaOrMethod: any, handler: (request: any, extra?: any) => any): void;
  /** 1.x: `(notificationSchema, handler)`; 2.x: `(method, handler)`. */
  setNotificationHandler?(schemaOrMethod: any, handler: (notification: any) => any): void;
}

/** The client side of a TaskClient this module feeds (its `notify` and `handleRequest`). */
type Attached = { notify(message: JsonObject): void; handleRequest(message: JsonObject): Promise<JsonObject>; };
/** The input handlers a TaskClient has, by kind. */
type Handlers = { elicitation?: unknown; sampling?: unknown; roots?: unknown; };

const INPUT_METHODS = { elicitation: "elicitation/create", sampling: "sampling/createMessage", roots: "roots/list" } as const;
/** Our request ids: strings, so they never meet the SDK's numeric ones. */
const ID_PREFIX = "mcp-tasks-wasm:";

/** Whether `sdkClient` is an SDK 2.x `Client`. */
export function isSdkV2(sdkClient: SdkClientLike): boolean {
  return typeof sdkClient.getProtocolEra === "function";
}

/** The TaskClients fed by one SDK client (its notifications). */
const attachedTo: WeakMap<object, Set<Attached>> = new WeakMap();
/** The raw channel of each transport. */
const channels: WeakMap<object, RawChannel> = new WeakMap();

/** Requests of ours on an SDK transport, their answers taken before the SDK sees them. */
class RawChannel {
  transport: SdkTransport;
  pending: Map<string, { resolve: (v: JsonObject) => void; reject: (e: unknown) => void; }> = new Map();
  next = 0;
  closed = false;

  constructor(transport: SdkTransport, sdkClient: object) {
    this.transport = transport;
    const inner = transport.onmessage;
    transport.onmessage = (message: unknown, extra?: unknown) => {
      if (isObject(message) && typeof message.id === "string" && message.id.startsWith(ID_PREFIX) && !("method" in message)) {
        // Ours: never the SDK's (an answer to a request given up on is dropped here).
        const waiter = this.pending.get(message.id);
        if (waiter) {
          this.pending.delete(message.id);
          if (isObject(message.error)) {
            const e = message.error;
            const code = typeof e.code === "number" ? e.code : -32603;
            const text = typeof e.message === "string" ? e.message : "error";
            waiter.reject(Object.assign(new Error(text), { name: "RpcError", code, data: e.data }));
          } else if (isObject(message.result)) waiter.resolve(message.result);
          else waiter.reject(new TransportError("the server answered a result that is not an object", undefined, { kind: "invalid" }));
        }
        return;
      }
      if (isObject(message) && typeof message.method === "string" && !("id" in message)) {
        for (const client of attachedTo.get(sdkClient) ?? []) client.notify(message);
      }
      inner?.call(transport, message, extra);
    };
    const innerClose = transport.onclose;
    transport.onclose = () => {
      this.closed = true;
      const lost = new TransportError("the SDK client's transport closed", undefined, { kind: "closed" });
      for (const w of this.pending.values()) w.reject(lost);
      this.pending.clear();
      innerClose?.call(transport);
    };
  }

  request(method: string, params: JsonObject, signal?: AbortSignal): Promise<JsonObject> {
    if (this.closed) return Promise.reject(new TransportError("the SDK client's transport closed", undefined, { kind: "closed" }));
    const id = `${ID_PREFIX}${this.next++}`;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!this.pending.delete(id)) return;
        reject(signal?.reason ?? new TransportError("aborted", undefined, { kind: "aborted" }));
        // The server may stop working on it (best effort: nothing waits for this).
        this.transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "aborted" } }).catch(() => {});
      };
      if (signal?.aborted) return onAbort();
      const done = () => signal?.removeEventListener("abort", onAbort);
      this.pending.set(id, { resolve: (v) => (done(), resolve(v)), reject: (e) => (done(), reject(e)) });
      signal?.addEventListener("abort", onAbort, { once: true });
      this.transport.send({ jsonrpc: "2.0", id, method, params }).catch((e: unknown) => {
        if (!this.pending.delete(id)) return;
        done();
        reject(e instanceof TransportError ? e : new TransportError(`the SDK transport could not send ${method}: ${e instanceof Error ? e.message : String(e)}`, e));
      });
    });
  }
}

/** The raw channel on the SDK client's current transport (made at its first use). */
function channelOf(sdkClient: SdkClientLike): RawChannel {
  const transport = (sdkClient as { transport?: unknown; }).transport;
  if (!isObject(transport) || typeof transport.send !== "function") {
    throw new TransportError("the SDK client is not connected: call `await sdkClient.connect(transport)` first", undefined, { kind: "closed" });
  }
  let channel = channels.get(transport);
  if (!channel) {
    channel = new RawChannel((transport as unknown as SdkTransport), sdkClient);
    channels.set(transport, channel);
  }
  return channel;
}

/** The version the SDK client negotiated, undefined before it connected. */
function sdkVersion(sdkClient: SdkClientLike): string | undefined {
  if (isSdkV2(sdkClient)) {
    if (sdkClient.getProtocolEra?.() === undefined) return undefined;
    return sdkClient.getNegotiatedProtocolVersion?.();
  }
  const transport = (sdkClient as { transport?: unknown; }).transport;
  if (isObject(transport) && typeof transport.protocolVersion === "string") return transport.protocolVersion;
  // SDK 1.x negotiates with `initialize` only: once connected, it speaks a 2025 version.
  return sdkClient.getServerCapabilities?.() === undefined ? undefined : V25;
}

/**
 * Registers the TaskClient's input handlers on the SDK client, so that the server's requests
 * (2025-11-25: elicitation, sampling, roots, on the `tasks/result` stream) reach them: SDK 2.x
 * by method name (`setRequestHandler("elicitation/create", …)`), 1.x by the schemas given
 * (requestVia's `inputRequests`) or else as its `fallbackRequestHandler` (1.x registers by zod
 * schema, which this package does not have), the previous fallback still answering the rest.
 * Without schemas, a kind the SDK 2.x client did not declare in its capabilities is skipped.
 */
export function registerInputHandlers(sdkClient: SdkClientLike, client: Attached, handlers: Handlers, schemas: { elicitation?: unknown; sampling?: unknown; roots?: unknown; } | undefined) {
  const kinds = (["elicitation", "sampling", "roots"] as const).filter((k) => handlers[k] && (schemas === undefined || schemas[k] !== undefined));
  if (kinds.length === 0) return;
  const answer = (request: unknown) => client.handleRequest((isObject(request) ? request : {}));
  if (isSdkV2(sdkClient) || schemas !== undefined) {
    if (typeof sdkClient.setRequestHandler !== "function") throw new TypeError("the SDK client has no setRequestHandler: it cannot take the input handlers");
    for (const kind of kinds) {
      try {
        sdkClient.setRequestHandler(isSdkV2(sdkClient) ? INPUT_METHODS[kind] : schemas?.[kind], answer);
      } catch (e) {
        // SDK 2.x refuses a handler for a kind its client did not declare. No 2025-11-25 server
        // sends that kind to it then, and under 2026-07-28 the TaskClient answers input requests
        // itself (declaring its handlers' kinds per request, §D 100): only named schemas insist.
        if (schemas === undefined) continue;
        throw new TypeError(`the SDK client refused a ${INPUT_METHODS[kind]} handler (declare it: \`new Client(info, { capabilities: { ${kind}: {} } })\`): ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return;
  }
  const sdk = sdkClient as { fallbackRequestHandler?: (request: any, extra: any) => Promise<any>; };
  const previous = sdk.fallbackRequestHandler;
  const methods: string[] = kinds.map((k) => INPUT_METHODS[k]);
  sdk.fallbackRequestHandler = async (request, extra) => {
    if (isObject(request) && typeof request.method === "string" && methods.includes(request.method)) return answer(request);
    if (previous) return previous(request, extra);
    throw Object.assign(new Error(`Method not found: ${isObject(request) ? String(request.method) : "(none)"}`), { code: -32601 });
  };
}

/**
 * A TaskClient `request` over an SDK client's own transport (see the top of this file), with the
 * SDK session: the version negotiated and the server's capabilities. `attach` feeds the
 * TaskClient the server's notifications and registers its input handlers
 * (`registerInputHandlers`; `schemas`: requestVia's `inputRequests`).
 */
export function sdkRequest(sdkClient: SdkClientLike, schemas?: { elicitation?: unknown; sampling?: unknown; roots?: unknown; }): RequestFn {
  if (!isObject(sdkClient) || typeof (sdkClient as SdkClientLike).request !== "function") {
    throw new TypeError("expected an MCP SDK Client (1.x or 2.x)");
  }
  const request: RequestFn = async (method, params, options) => channelOf(sdkClient).request(method, params, options?.signal);
  const session: RequestSession = {
    protocolVersion: () => sdkVersion(sdkClient),
    serverCapabilities: () => sdkClient.getServerCapabilities?.(),
    attach: (client, handlers) => {
      registerInputHandlers(sdkClient, client, handlers, schemas);
      let set = attachedTo.get(sdkClient);
      if (!set) attachedTo.set(sdkClient, (set = new Set()));
      set.add(client);
      // A transport connected already is hooked now: its notifications reach the client at once.
      if (isObject((sdkClient as { transport?: unknown; }).transport)) channelOf(sdkClient);
    },
    detach: (client) => {
      attachedTo.get(sdkClient)?.delete(client);
    },
  };
  request.session = session;
  return request;
}
