// The server entry (mcp-tasks-wasm/server) in Deno, with no permission flags: TaskHost runs a
// tool as a 2026-07-28 task and answers tasks/get; every response passes the validator.
import { assert, assertEquals } from "./assert.ts";
import pkgJson from "../js/.tmp/install/node_modules/mcp-tasks-wasm/package.json" with { type: "json" };
import { TaskHost, validateMessage } from "../js/.tmp/install/node_modules/mcp-tasks-wasm/server/deno.js";

const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
};
const ctx = { protocolVersion: "2026-07-28" } as const;

Deno.test("the server export's deno condition names server/deno.js", () => {
  assertEquals(pkgJson.exports["./server"].deno.default, "./server/deno.js");
});

Deno.test("TaskHost runs a tool as a V26 task in Deno", async () => {
  const host = new TaskHost();
  host.tool("add", { taskSupport: "optional" }, (args) => ({
    content: [{ type: "text", text: String(Number(args.a) + Number(args.b)) }],
  }));
  const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: { a: 2, b: 3 }, _meta: meta } };
  const created = await host.handle(call, ctx);
  assert(created !== null);
  assertEquals(validateMessage(created, { inReplyTo: "tools/call" }).valid, true);
  const taskId = (created.result as { taskId: string }).taskId;
  await host.idle();
  const get = { jsonrpc: "2.0", id: 2, method: "tasks/get", params: { taskId, _meta: meta } };
  const got = await host.handle(get, ctx);
  assert(got !== null);
  assertEquals(validateMessage(got, { inReplyTo: "tasks/get" }).issues, []);
  const result = got.result as { status: string; result: { content: { type: string; text: string }[] } };
  assertEquals(result.status, "completed");
  assertEquals(result.result.content.map((c) => [c.type, c.text]), [["text", "5"]]);
});
