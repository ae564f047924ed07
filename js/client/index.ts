// The JS helpers of the main entry (mcp-tasks-wasm), re-exported by every entry file next to the
// wasm-bindgen glue (the server entry re-exports them too). TypeScript, compiled by
// scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).
import { TaskClient, ToolTask, TaskError, TaskFailedError, TaskCancelledError, TaskExpiredError, ProtocolError, TaskSchedulerError, requestVia } from "./client.js";
import { HttpConnection, HttpError, RpcError, TransportError, VersionError } from "./http.js";

export type { SdkClientLike } from "./sdk-client.js";
export type { CallToolOptions, ProgressEvent, ResumeOptions } from "./client.js";
export type { ReceiverOptions, ReceivedTask } from "./receiver.js";
export type { CallToolResult, ContentBlock, JsonRpcAnswer, JsonRpcErrorObject, RequestId, TaskMethodResults, ResultOfMethod, HandleContext } from "./types.js";
export { TaskClient, ToolTask, TaskError, TaskFailedError, TaskCancelledError, TaskExpiredError, ProtocolError, TaskSchedulerError, requestVia, HttpConnection, HttpError, RpcError, TransportError, VersionError };
