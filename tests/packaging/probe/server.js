// What every environment of the packaging matrix that can run a server runs with the server entry
// (mcp-tasks-wasm/server): a TaskHost tool run as a 2026-07-28 task (tools/call, then tasks/get
// until it completed), and a TaskClient driving the same host in process.
// Copied into each scratch project as probe/server.js (and converted to CommonJS for node-cjs).
import { TaskHost, TaskClient, validateMessage } from "mcp-tasks-wasm/server";

export async function probeServer() {
  const host = new TaskHost({ store: { pollIntervalMs: 250 } });
  host.tool("square", { taskSupport: "optional" }, async ({ n }) => ({ content: [{ type: "text", text: `n² = ${n * n}` }] }));
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
  };
  const ctx = { protocolVersion: "2026-07-28" };
  const created = await host.handle(
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "square", arguments: { n: 5 }, _meta } }, ctx);
  const taskId = created.result.taskId;
  await host.idle();
  const got = await host.handle({ jsonrpc: "2.0", id: 2, method: "tasks/get", params: { taskId, _meta } }, ctx);
  const out = {
    hostCreated: created.result.resultType,
    hostStatus: got.result.status,
    hostText: got.result.result.content[0].text,
    hostAnswerValid: validateMessage(got, { inReplyTo: "tasks/get" }).valid,
  };
  let id = 10;
  const methods = [];
  const client = new TaskClient({
    request: async (method, params) => {
      methods.push(method);
      const response = await host.handle({ jsonrpc: "2.0", id: ++id, method, params }, ctx);
      if (response.error) throw Object.assign(new Error(response.error.message), response.error);
      return response.result;
    },
  });
  const result = await client.callTool("square", { n: 6 }, { task: {} });
  client.close();
  out.local = result.content[0].text;
  out.localMethods = [...new Set(methods)];
  return out;
}
