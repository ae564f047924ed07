// The browser app of bench/browser-app.mjs: the app of client.js (a task tool called with
// TaskClient.connect), next to the SDK 1.32.2 client and its task schemas (what an app talking
// MCP already ships).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CancelTaskResultSchema, CreateTaskResultSchema, GetTaskPayloadResultSchema, GetTaskResultSchema,
  ListTasksResultSchema, TaskStatusNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

export const schemas = [CancelTaskResultSchema, CreateTaskResultSchema, GetTaskPayloadResultSchema, GetTaskResultSchema, ListTasksResultSchema, TaskStatusNotificationSchema];

export { callTaskTool } from "./client.js";

export async function sdkClient(url) {
  const client = new Client({ name: "browser-app", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}
