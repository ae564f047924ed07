// A stdio server and a Streamable HTTP server of either era, called from a TaskClient on the
// official SDK 1.32.2 Client and on the SDK 2.4.0 Client (TaskClient.over, on each SDK's own
// transport), with progress seen and a cancel delivered:
//   servers  examples/stdio-server.mjs (McpStdioServer, started by the SDK's StdioClientTransport)
//            and examples/conformance-server.mjs (McpHttpServer, a child on 127.0.0.1);
//   eras     2025-11-25 (SDK 1.32.2; SDK 2.4.0 in legacy mode) and 2026-07-28 (SDK 2.4.0 pinned
//            to it: SDK 1.x does not speak 2026-07-28);
//   call     progress_job as a task through the task handle (startTool): its id at once, progress
//            events (2025-11-25: notifications/progress for the call's token; both eras: the
//            task's status messages), the result; then a second task cancelled through the
//            handle, the server saying `cancelled`.
// Every process is stopped by its PID, also on failure.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

import { startExample } from "../js/example-server.mjs";
import { killedAtEnd } from "../js/lib/pids.mjs";

const { TaskClient, TaskCancelledError } = await import("../js/.tmp/install/esm.mjs");

const sdk2 = (p) => new URL(`../../tools/sdk2/node_modules/@modelcontextprotocol/${p}`, import.meta.url).href;
const v2 = await import(sdk2("client/dist/index.mjs"));
const v2stdio = await import(sdk2("client/dist/stdio.mjs"));
const { Client: ClientV1 } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport: StdioV1 } = await import("@modelcontextprotocol/sdk/client/stdio.js");
const { StreamableHTTPClientTransport: HttpV1 } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const STDIO_SERVER = fileURLToPath(new URL("../../examples/stdio-server.mjs", import.meta.url));

const pids = killedAtEnd();

const example = await startExample();
pids.add(example.process.pid);

const SDKS = {
  "SDK 1.32.2": {
    eras: [V25],
    client: () => new ClientV1({ name: "acceptance-v1", version: "1.0.0" }, { capabilities: {} }),
    http: (url) => new HttpV1(new URL(url)),
    stdio: (params) => new StdioV1(params),
  },
  "SDK 2.4.0": {
    eras: [V25, V26],
    client: (era) => new v2.Client({ name: "acceptance-v2", version: "1.0.0" }, { versionNegotiation: era === V25 ? { mode: "legacy" } : { mode: { pin: V26 } } }),
    http: (url) => new v2.StreamableHTTPClientTransport(new URL(url)),
    stdio: (params) => new v2stdio.StdioClientTransport(params),
  },
};

/** A `tasks/get` through the TaskClient's own request path: the task's status. */
async function statusOf(client, taskId) {
  const meta = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };
  const task = await client.request("tasks/get", client.protocolVersion === V26 ? { taskId, _meta: meta } : { taskId });
  return task.status;
}

for (const [sdkName, sdk] of Object.entries(SDKS)) {
  for (const era of sdk.eras) {
    for (const server of ["stdio", "Streamable HTTP"]) {
      test(`${sdkName}, ${era}, ${server} server: a task with progress seen, then a cancel delivered`, async () => {
        const sdkClient = sdk.client(era);
        const transport = server === "stdio" ? sdk.stdio({ command: process.execPath, args: [STDIO_SERVER], stderr: "inherit" }) : sdk.http(example.url);
        await sdkClient.connect(transport);
        if (server === "stdio") {
          assert.ok(Number.isInteger(transport.pid), "the SDK started the stdio server");
          pids.add(transport.pid);
        }
        const client = TaskClient.over(sdkClient);
        try {
          const seen = [];
          const task = await client.startTool("progress_job", { steps: 4, stepMs: 400 }, { task: {}, onProgress: (e) => seen.push(e) });
          assert.equal(client.protocolVersion, era);
          assert.equal(typeof task.taskId, "string", "the task's id at once");
          const result = await task.result();
          assert.equal(result.content[0].text, "progress_job: 4 steps done");
          const progress = seen.filter((e) => e.type === "progress");
          const messages = seen.filter((e) => e.type === "statusMessage");
          for (const e of seen) assert.equal(e.taskId, task.taskId);
          if (era === V25) {
            // notifications/progress for the call's token (none for 2026-07-28 tasks, §B.h).
            assert.ok(progress.length >= 1, `progress notifications seen: ${JSON.stringify(seen)}`);
            for (let i = 1; i < progress.length; i++) assert.ok(progress[i].progress > progress[i - 1].progress, "progress increases");
            assert.ok(progress.every((e) => e.total === 4));
          } else {
            assert.equal(progress.length, 0);
          }
          assert.ok(progress.length + messages.length >= 1, `progress seen: ${JSON.stringify(seen)}`);
          for (const m of messages) assert.match(m.message, /^step [1-4] of 4$/);

          const long = await client.startTool("progress_job", { steps: 100, stepMs: 500 }, { task: {} });
          await long.cancel("the user gave up");
          await assert.rejects(long.result(), (e) => e instanceof TaskCancelledError && e.taskId === long.taskId);
          assert.equal(await statusOf(client, long.taskId), "cancelled", "the cancel reached the server");
        } finally {
          await client.close();
          await sdkClient.close();
          if (server === "stdio") {
            try {
              process.kill(transport.pid, "SIGKILL");
            } catch {}
            pids.delete(transport.pid);
          }
        }
      });
    }
  }
}
