// The shapes the protocol fixes, shared by the helpers of both entries (TaskClient's results,
// TaskHost's and McpHttpServer's tool handlers and answers): types only, no code. The task
// shapes themselves are the wire types generated from the Rust model (./mcp_tasks_wasm.js).
import type {
  ProtocolVersion,
  ServerContext,
  V25CancelTaskResult,
  V25CreateTaskResult,
  V25GetTaskResult,
  V25ListTasksResult,
  V26CancelTaskResult,
  V26CreateTaskResult,
  V26GetTaskResult,
  V26UpdateTaskResult,
} from "./mcp_tasks_wasm.js";

/** A JSON-RPC request id. */
export type RequestId = string | number;

/**
 * A content block of a tool result (MCP `ContentBlock`): `type` says which fields it has
 * (`text` for "text"; `data` and `mimeType` for "image" and "audio"; `uri` and `name` for
 * "resource_link"; `resource` for "resource").
 */
export type ContentBlock = {
  type: "text" | "image" | "audio" | "resource_link" | "resource" | (string & {});
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string; [key: string]: unknown };
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
};

/** A tool's result (MCP `CallToolResult`): what a tool handler returns and `callTool` answers. */
export type CallToolResult = {
  /** What the tool answers, as content blocks. */
  content: ContentBlock[];
  /** The answer as a JSON object (matching the tool's `outputSchema` when it declares one). */
  structuredContent?: Record<string, unknown>;
  /** `true`: a tool execution error (said in `content`), not a JSON-RPC error. */
  isError?: boolean;
  /** Metadata (MCP `_meta`). */
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
};

/** A JSON-RPC error object. */
export type JsonRpcErrorObject = { code: number; message: string; data?: unknown };

/** A JSON-RPC answer to a request: its result, or an error (the other member is absent). */
export type JsonRpcAnswer<TResult = Record<string, unknown>> =
  | { jsonrpc: "2.0"; id: RequestId | null; result: TResult; error?: undefined }
  | { jsonrpc: "2.0"; id: RequestId | null; error: JsonRpcErrorObject; result?: undefined };

/** `T` when version `V` may be `version` (a `string` V may be any). */
type Under<V, version extends ProtocolVersion, T> = string extends V ? T : V extends version ? T : never;

/**
 * The result of each method a task host answers under protocol version `V` (both versions' when
 * `V` is the union or a `string`: narrow on the fields, `resultType` is 2026-07-28's, `task`
 * 2025-11-25's CreateTaskResult).
 */
export type TaskMethodResults<V extends string = ProtocolVersion> = {
  "tools/call": CallToolResult | Under<V, "2025-11-25", V25CreateTaskResult> | Under<V, "2026-07-28", V26CreateTaskResult>;
  "tasks/get": Under<V, "2025-11-25", V25GetTaskResult> | Under<V, "2026-07-28", V26GetTaskResult>;
  "tasks/list": Under<V, "2025-11-25", V25ListTasksResult>;
  "tasks/cancel": Under<V, "2025-11-25", V25CancelTaskResult> | Under<V, "2026-07-28", V26CancelTaskResult>;
  "tasks/update": Under<V, "2026-07-28", V26UpdateTaskResult>;
  "tasks/result": CallToolResult;
};

/**
 * The result of method `M` under version `V` (`Record<string, unknown>` for a method the map does
 * not know, or a method the version does not have).
 */
export type ResultOfMethod<M extends string, V extends string = ProtocolVersion> = M extends keyof TaskMethodResults
  ? [TaskMethodResults<V>[M]] extends [never] ? Record<string, unknown> : TaskMethodResults<V>[M]
  : Record<string, unknown>;

/**
 * The context a host's `handle` takes. `protocolVersion` is checked when known: a literal of
 * another version is a type error, a `string` (e.g. from `const ctx = { protocolVersion:
 * "2026-07-28" }`, widened) is accepted and checked at run time (a TypeError).
 */
export type HandleContext<V extends string = ProtocolVersion> = Omit<ServerContext, "now" | "protocolVersion"> & {
  protocolVersion: V & (string extends V ? string : V extends ProtocolVersion ? V : ProtocolVersion);
};
