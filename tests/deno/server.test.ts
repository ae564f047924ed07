// The server entry (mcp-tasks-wasm/server) in Deno, with no permission flags: TaskHost runs a
// tool as a 2026-07-28 task and answers tasks/get; McpHttpServer serves both eras through
// app.fetch (Deno without permissions cannot listen: the handler is called directly). Every
// response passes the validator.
import { assert, assertEquals } from "./assert.ts";
import pkgJson from "../js/.tmp/install/node_modules/mcp-tasks-wasm/package.json" with { type: "json" };
import { McpHttpServer, TaskHost, validateMessage } from "../js/.tmp/install/node_modules/mcp-tasks-wasm/server/deno.js";

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

Deno.test("McpHttpServer serves a 2026-07-28 and a 2025-11-25 request through app.fetch in Deno", async () => {
  const app = new McpHttpServer({ name: "deno-server", version: "1.0.0" });
  app.tool("add", { taskSupport: "optional" }, (args) => ({
    content: [{ type: "text", text: String(Number(args.a) + Number(args.b)) }],
  }));
  const post = (body: unknown, headers: Record<string, string>) =>
    app.fetch(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(body),
      }),
    );

  // 2026-07-28: stateless, per-request _meta and the §B.f headers.
  const modern = await post(
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: { a: 2, b: 3 }, _meta: meta } },
    { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "add" },
  );
  assertEquals(modern.status, 200);
  const created = await modern.json();
  assertEquals(validateMessage(created, { inReplyTo: "tools/call" }).issues, []);
  assertEquals(created.result.resultType, "task");

  // 2025-11-25: initialize opens a session; a plain call in it.
  const init = await post(
    { jsonrpc: "2.0", id: 2, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "d", version: "1" } } },
    {},
  );
  assertEquals(init.status, 200);
  const session = init.headers.get("mcp-session-id");
  assert(session !== null);
  assertEquals((await init.json()).result.protocolVersion, "2025-11-25");
  const legacy = await post(
    { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "add", arguments: { a: 4, b: 5 } } },
    { "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" },
  );
  const sum = await legacy.json();
  assertEquals(validateMessage(sum, { version: "2025-11-25", inReplyTo: "tools/call" }).issues, []);
  assertEquals(sum.result.content.map((c: { type: string; text: string }) => [c.type, c.text]), [["text", "9"]]);
  await app.close();
});
