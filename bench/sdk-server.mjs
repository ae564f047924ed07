#!/usr/bin/env node
// The official SDK 1.x server bench/server.mjs measures ours against: an McpServer with the SDK's
// experimental tasks (InMemoryTaskStore, InMemoryTaskMessageQueue, registerToolTask), served
// over the SDK's StreamableHTTPServerTransport on plain node:http, routed the way
// @modelcontextprotocol/server-everything routes it (a POST without a session gets a new
// transport and McpServer: `initialize` opens a session). It has the example server's
// `slow_compute` tool (examples/tools.mjs): a task that sleeps `seconds` seconds, then answers.
//
//   node bench/sdk-server.mjs [--port PORT] [--json-response]
//
// Prints "listening on http://127.0.0.1:PORT/mcp" once it listens; SIGTERM stops it.
// `--json-response` sets the transport's enableJsonResponse (JSON bodies instead of the default
// SSE ones).
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";

import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { InMemoryTaskStore, InMemoryTaskMessageQueue } from "@modelcontextprotocol/sdk/experimental/tasks";

import { sdkRouter } from "../tests/js/sdk-http-server.mjs";

const argv = process.argv.slice(2);
const port = argv.includes("--port") ? Number(argv[argv.indexOf("--port") + 1]) : 0;
const enableJsonResponse = argv.includes("--json-response");

const text = (t) => ({ content: [{ type: "text", text: t }] });

function buildServer() {
  const taskStore = new InMemoryTaskStore();
  const server = new McpServer(
    { name: "sdk-bench", version: "1.0.0" },
    { capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore, taskMessageQueue: new InMemoryTaskMessageQueue() },
  );
  server.experimental.tasks.registerToolTask(
    "slow_compute",
    { inputSchema: { seconds: z.number().min(0).optional(), label: z.string().optional() }, execution: { taskSupport: "optional" } },
    {
      async createTask({ seconds = 1, label = "compute" }, extra) {
        const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl ?? 60_000, pollInterval: 1000 });
        (async () => {
          await sleep(Number(seconds) * 1000);
          await extra.taskStore.storeTaskResult(task.taskId, "completed", text(`${label}: done after ${seconds} s`));
        })().catch((error) => extra.taskStore.updateTaskStatus(task.taskId, "failed", String(error?.message ?? error)).catch(() => {}));
        return { task };
      },
      getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
    },
  );
  return { server, taskStore };
}

const { listener, built } = sdkRouter(buildServer, { enableJsonResponse });
const httpServer = http.createServer(listener);
httpServer.listen(port, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${httpServer.address().port}/mcp`);
});
process.once("SIGTERM", () => {
  for (const b of built) b.taskStore.cleanup();
  httpServer.closeAllConnections();
  httpServer.close(() => process.exit(0));
});
