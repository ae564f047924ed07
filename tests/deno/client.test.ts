// The main entry's TaskClient and TaskScheduler in Deno, with no permission flags: a client
// calls a tool on an in-process TaskHost (server entry) and gets the task's result; a fake clock
// keeps it instant.
import { assert, assertEquals } from "./assert.ts";
import { TaskClient, TaskScheduler } from "../js/.tmp/install/node_modules/mcp-tasks-wasm/deno.js";
import { TaskHost } from "../js/.tmp/install/node_modules/mcp-tasks-wasm/server/deno.js";

Deno.test("TaskScheduler hands out a poll after the server's interval", () => {
  const s = new TaskScheduler({ seed: 1, jitter: 0 });
  const t0 = Date.UTC(2026, 0, 1);
  const task = { taskId: "t", status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttlMs: null, pollIntervalMs: 2000 };
  s.track("t", { version: "2026-07-28", task }, t0);
  assertEquals(s.nextDue(t0 + 1999), []);
  assertEquals(s.nextDue(t0 + 2000).map((e) => e.kind), ["poll"]);
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
