// The browser app of bench/browser-app.mjs: a task tool called with TaskClient.connect, next to
// the SDK 1.32.2 client and its task schemas (what an app talking MCP already ships).
import { TaskClient } from "mcp-tasks-wasm";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CancelTaskResultSchema, CreateTaskResultSchema, GetTaskPayloadResultSchema, GetTaskResultSchema,
  ListTasksResultSchema, TaskStatusNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

export const schemas = [CancelTaskResultSchema, CreateTaskResultSchema, GetTaskPayloadResultSchema, GetTaskResultSchema, ListTasksResultSchema, TaskStatusNotificationSchema];

export async function callTaskTool(url, name, args) {
  const client = await TaskClient.connect(url);
  try {
    return await client.callTool(name, args);
  } finally {
    client.close();
  }
}

export async function sdkClient(url) {
  const client = new Client({ name: "browser-app", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}
