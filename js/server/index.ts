// The JS helpers of the server entry (mcp-tasks-wasm/server), re-exported by every entry file
// next to the wasm-bindgen glue: the server's (TaskStore, TaskServer, SharedTaskServer, TaskStoreError, TaskHost, SdkTaskStore, McpHttpServer, McpStdioServer, McpServerTasks) and the client's, so that
// the server entry is a superset of the main one. TypeScript, compiled by scripts/build-ts.mjs
// (tsc; the CommonJS twin by esbuild).
import { TaskStore, TaskServer } from "./store.js";
import { TaskStoreError } from "./errors.js";
import { TaskHost } from "./host.js";
import { SharedTaskServer } from "./shared.js";
import { SdkTaskStore } from "./sdk.js";
import { McpHttpServer } from "./http-server.js";
import { McpStdioServer } from "./stdio.js";
import { McpServerTasks } from "./sdk2.js";
import { TaskClient, TaskError, TaskFailedError, TaskCancelledError, TaskExpiredError, ProtocolError, TaskSchedulerError } from "./client.js";

export { TaskStore, TaskServer, SharedTaskServer, TaskStoreError, TaskHost, SdkTaskStore, McpHttpServer, McpStdioServer, McpServerTasks, TaskClient, TaskError, TaskFailedError, TaskCancelledError, TaskExpiredError, ProtocolError, TaskSchedulerError };
export type { StandardSchemaV1, StandardSchemaOutput, ToolInputSchema, ToolSchemaLimits, ArgumentIssue } from "./tool-schema.js";
