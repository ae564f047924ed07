// A tool's own task settings, through the packed and installed package: `pollIntervalMs` and
// `ttlMs: { default, max }` in ToolOptions apply to the tasks of that tool only, in both eras, on
// a TaskServer and on a SharedTaskServer (the same core over stored records); the store's
// settings stay for other tools. Bad settings throw a TypeError at registration, in TaskHost,
// McpHttpServer and McpStdioServer alike.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadStorage } from "../storage/lib.mjs";

const { TaskHost, SharedTaskServer, McpHttpServer, McpStdioServer } = await import("../.tmp/install/server.mjs");
const { MemoryStorage } = await loadStorage("");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const META = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };

let nextId = 1;
const wait = (_args, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve({ content: [] }), { once: true }));

async function hosts() {
  const shared = await SharedTaskServer.open(new MemoryStorage(), { cursorKey: "00112233445566778899aabbccddeeff" });
  return [["TaskServer", new TaskHost({ store: { pollIntervalMs: 1000, defaultTtlMs: 60_000, maxTtlMs: 120_000 } })],
    ["SharedTaskServer", new TaskHost({ server: shared })]];
}

test("a tool's poll interval and TTL bounds apply to its tasks in both eras; other tools keep the store's", async () => {
  for (const [name, host] of await hosts()) {
    host.tool("tuned", { taskSupport: "optional", pollIntervalMs: 250, ttlMs: { default: 5_000, max: 30_000 } }, wait);
    host.tool("plain", { taskSupport: "optional" }, wait);
    const v26 = async (tool) =>
      (await host.handle({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: tool, arguments: {}, _meta: META } }, { protocolVersion: V26 })).result;
    const v25 = async (tool, ttl) =>
      (await host.handle({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: tool, arguments: {}, task: ttl === undefined ? {} : { ttl } } }, { protocolVersion: V25, session: "s" })).result.task;
    const a = await v26("tuned");
    assert.equal(a.pollIntervalMs, 250, name);
    assert.equal(a.ttlMs, 5_000, name);
    const b = await v25("tuned", 600_000); // above the tool's max: lowered to it
    assert.equal(b.pollInterval, 250, name);
    assert.equal(b.ttl, 30_000, name);
    assert.equal((await v25("tuned")).ttl, 5_000, name);
    const c = await v26("plain");
    assert.notEqual(c.pollIntervalMs, 250, name);
    assert.notEqual(c.ttlMs, 5_000, name);
    await host.close();
  }
});

test("bad task settings are refused at registration with a TypeError", () => {
  const bad = [
    { pollIntervalMs: -1 },
    { pollIntervalMs: 1.5 },
    { pollIntervalMs: "250" },
    { ttlMs: 5_000 },
    { ttlMs: null },
    { ttlMs: { default: 0 } },
    { ttlMs: { max: -5 } },
    { ttlMs: { default: Infinity } },
    { ttlMs: { default: 10_000, max: 5_000 } },
  ];
  const registrars = [
    ["TaskHost", (o) => new TaskHost().tool("t", o, wait)],
    ["McpHttpServer", (o) => {
      const app = new McpHttpServer({ name: "s", version: "1" });
      try {
        app.tool("t", o, wait);
      } finally {
        app.close();
      }
    }],
    ["McpStdioServer", (o) => new McpStdioServer({ name: "s", version: "1" }).tool("t", o, wait)],
  ];
  for (const [name, register] of registrars) {
    for (const options of bad) {
      assert.throws(() => register({ taskSupport: "optional", ...options }), TypeError, `${name} ${JSON.stringify(options)}`);
    }
    register({ taskSupport: "optional", pollIntervalMs: 0, ttlMs: { default: 1, max: 1 } });
  }
});
