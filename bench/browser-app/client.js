// The browser app of bench/browser-app.mjs (its first row): a task tool called with
// TaskClient.connect and callTool, nothing else (no MCP SDK).
import { TaskClient } from "mcp-tasks-wasm";

export async function callTaskTool(url, name, args) {
  const client = await TaskClient.connect(url);
  try {
    return await client.callTool(name, args);
  } finally {
    client.close();
  }
}
