// What every environment of the packaging matrix runs with the main entry (mcp-tasks-wasm): one
// validation (a valid and an invalid tasks/get answer) and one TaskClient call, over Streamable
// HTTP, to the reference server the matrix started on 127.0.0.1 (a task tool, called as a task).
// Copied into each scratch project as probe/client.js (and converted to CommonJS for node-cjs).
import { validateMessage, TaskClient } from "mcp-tasks-wasm";

export async function probeClient(serverUrl) {
  const answer = {
    jsonrpc: "2.0", id: 7,
    result: {
      taskId: "786512e2", status: "working",
      createdAt: "2025-11-25T10:30:00Z", lastUpdatedAt: "2025-11-25T10:30:05Z",
      ttl: 60000, pollInterval: 5000,
    },
  };
  const good = validateMessage(answer, { inReplyTo: "tasks/get" });
  const bad = validateMessage(JSON.stringify({ ...answer, result: { ...answer.result, ttl: -5 } }), { inReplyTo: "tasks/get" });
  const out = { valid: good.valid, kind: good.kind, badIssues: bad.issues.map((i) => i.code) };
  if (serverUrl) {
    const client = await TaskClient.connect(serverUrl, { protocolVersion: "2026-07-28" });
    try {
      const result = await client.callTool("square", { n: 7 }, { task: {} });
      out.remote = result.content[0].text;
    } finally {
      await client.close();
    }
  }
  return out;
}
