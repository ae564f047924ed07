// The main entry's TaskClient and TaskScheduler in Deno, with no permission flags: a client
// calls a tool on an in-process TaskHost (server entry) and gets the task's result; a fake clock
// keeps it instant. TaskClient.connect is there too; with no network permission its wire is
// checked with an injected fetch serving canned 2025-11-25 answers (JSON and an event stream):
// a parsing test only, the real-server proofs run in Node (tests/js/client-connect.test.mjs).
import { assert, assertEquals } from "./assert.ts";
import { HttpConnection, TaskClient, TaskScheduler } from "../js/.tmp/install/node_modules/mcp-tasks-wasm/deno.js";
import { TaskHost } from "../js/.tmp/install/node_modules/mcp-tasks-wasm/server/deno.js";

Deno.test("TaskScheduler hands out a poll after the server's interval", () => {
  const s = new TaskScheduler({ seed: 1, jitter: 0 });
  const t0 = Date.UTC(2026, 0, 1);
  const task = { taskId: "t", status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttlMs: null, pollIntervalMs: 2000 };
  s.track("t", { version: "2026-07-28", task }, t0);
  assertEquals(s.nextDue(t0 + 1999), []);
  assertEquals(s.nextDue(t0 + 2000).map((e) => e.type), ["poll"]);
});

Deno.test("TaskClient gets a V26 task's result from a TaskHost", async () => {
  const host = new TaskHost({ store: { pollIntervalMs: 250 } });
  host.tool("add", {}, (args) => ({ content: [{ type: "text", text: String(Number(args.a) + Number(args.b)) }] }));
  let now = Date.UTC(2026, 0, 1);
  const clock = {
    now: () => now,
    sleep: async (ms: number) => {
      await host.idle();
      now += ms;
    },
  };
  let id = 0;
  const client = new TaskClient({
    clock,
    request: async (method: string, params: Record<string, unknown>) => {
      const r = await host.handle({ jsonrpc: "2.0", id: ++id, method, params }, { protocolVersion: "2026-07-28" });
      assert(r !== null);
      if (r.error) throw r.error;
      return r.result as Record<string, unknown>;
    },
  });
  const result = await client.callTool("add", { a: 2, b: 3 });
  assertEquals((result.content as { text: string }[])[0].text, "5");
  client.close();
});

Deno.test("TaskClient.connect (pinned 2025-11-25, an injected fetch): initialize, the session header, an SSE answer, DELETE on close", async () => {
  assert(typeof TaskClient.connect === "function" && typeof HttpConnection === "function");
  const seen: { method: string; rpc?: string; session?: string; version?: string }[] = [];
  const fetch = async (_url: string, init: { method: string; headers: Record<string, string>; body?: string }) => {
    const body = init.body ? JSON.parse(init.body) : undefined;
    seen.push({ method: init.method, rpc: body?.method, session: init.headers["Mcp-Session-Id"], version: init.headers["MCP-Protocol-Version"] });
    if (init.method === "DELETE") return new Response(null, { status: 200 });
    if (body.method === "initialize") {
      return Response.json({ jsonrpc: "2.0", id: body.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "canned", version: "1" } } }, { headers: { "Mcp-Session-Id": "s-1" } });
    }
    if (body.method === "notifications/initialized") return new Response(null, { status: 202 });
    const events = `id: 1\r\ndata: \r\n\r\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { content: [{ type: "text", text: "from the stream" }] } })}\r\n\r\n`;
    return new Response(events, { headers: { "Content-Type": "text/event-stream" } });
  };
  const client = await TaskClient.connect("http://127.0.0.1:9/mcp", { protocolVersion: "2025-11-25", fetch });
  assertEquals(client.protocolVersion, "2025-11-25");
  const result = await client.callTool("t", {});
  assertEquals((result.content as { text: string }[])[0].text, "from the stream");
  await client.close();
  assertEquals(seen, [
    { method: "POST", rpc: "initialize" },
    { method: "POST", rpc: "notifications/initialized", session: "s-1", version: "2025-11-25" },
    { method: "POST", rpc: "tools/call", session: "s-1", version: "2025-11-25" },
    { method: "DELETE", session: "s-1", version: "2025-11-25" },
  ]);
});
