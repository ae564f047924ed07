// Drives an SDK example server (URL argv[2]) with the SDK's Client: calls each task tool given
// (argv[3..], "name:jsonArgs"), answers elicitation and sampling, prints each stream message's
// type and the final result; exits 1 unless every task ends completed with a result.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [url, ...calls] = process.argv.slice(2);
const fill = (schema) => Object.fromEntries(Object.entries(schema?.properties ?? {}).map(([k, p]) =>
  [k, p.enum ? p.enum[0] : p.type === "boolean" ? true : p.type === "number" || p.type === "integer" ? 1 : k === "email" ? "a@example.org" : "x"]));
const client = new Client({ name: "example-driver", version: "1.0.0" }, { capabilities: { elicitation: { form: {} }, sampling: {} } });
client.setRequestHandler(ElicitRequestSchema, async (r) => ({ action: "accept", content: fill(r.params.requestedSchema) }));
client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: "assistant", model: "driver", content: { type: "text", text: "an old pond / a frog jumps in / splash" } }));
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
let ok = true;
for (const call of calls) {
  const i = call.indexOf(":");
  const name = call.slice(0, i), args = JSON.parse(call.slice(i + 1));
  let last, taskId, status;
  for await (const m of client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, { task: { ttl: 60000 } })) {
    if (m.type === "taskCreated") taskId = m.task.taskId;
    if (m.type === "taskStatus") status = m.task.status;
    last = m;
    console.log(`${name}: ${m.type}${m.task ? " " + m.task.status : ""}${m.error ? " " + m.error.message : ""}`);
  }
  const task = await client.experimental.tasks.getTask(taskId);
  console.log(`${name}: task ${taskId} final status ${task.status}; result ${JSON.stringify(last?.result?.content)}`);
  if (last?.type !== "result" || task.status !== "completed") ok = false;
}
await client.close();
console.log(ok ? "ALL COMPLETED" : "NOT ALL COMPLETED");
process.exit(ok ? 0 : 1);
