// bench/browser-app/client.js importing Conversation too (the main module, which has the
// conversation checker, loads next to the browser module): the result checked as a server's
// answer in a conversation.
import { Conversation, TaskClient } from "mcp-tasks-wasm";

export async function callTaskTool(url, name, args) {
  const client = await TaskClient.connect(url);
  try {
    const result = await client.callTool(name, args);
    const conversation = new Conversation();
    return { result, report: conversation.observe({ jsonrpc: "2.0", id: 1, result }, { from: "server" }) };
  } finally {
    client.close();
  }
}
