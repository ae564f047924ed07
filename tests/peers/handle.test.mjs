// Progress from a real peer: @modelcontextprotocol/server-everything 2026.8.31 (2025-11-25,
// Streamable HTTP on 127.0.0.1, stopped by its PID) through the task handle:
// - `trigger-long-running-operation` sends one notifications/progress per step against the
//   call's progressToken: each is a `progress` event, over TaskClient.connect and over
//   TaskClient.over(an SDK 1.32.2 Client);
// - `simulate-research-query` is a task whose statusMessage changes stage by stage: each change
//   the client sees is a `statusMessage` event, from the handle startTool gives at once.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TaskClient } from "../../pkg/node.mjs";
import { startEverything } from "./peers.mjs";

let everything;
before(async () => {
  everything = await startEverything();
});
after(() => everything?.stop());

const steps = (events) => events.filter((e) => e.type === "progress").map((e) => [e.progress, e.total]);

test("server-everything: notifications/progress of a call are progress events (connect, and over an SDK 1.x Client)", async () => {
  const direct = await TaskClient.connect(everything.url);
  const sdk = new Client({ name: "handle-progress", version: "1.0.0" });
  await sdk.connect(new StreamableHTTPClientTransport(new URL(everything.url)));
  const over = TaskClient.over(sdk);
  try {
    for (const client of [direct, over]) {
      const seen = [];
      const all = [];
      const reading = (async () => {
        for await (const e of client.events()) all.push(e);
      })();
      const result = await client.callTool("trigger-long-running-operation", { duration: 0.4, steps: 4 }, { onProgress: (e) => seen.push(e) });
      assert.match(result.content[0].text, /Long running operation completed/);
      assert.deepEqual(steps(seen), [[1, 4], [2, 4], [3, 4], [4, 4]]);
      for (const e of seen) assert.equal(e.taskId, "", "a synchronous call has no task");
      await client.close();
      await reading;
      assert.deepEqual(steps(all), [[1, 4], [2, 4], [3, 4], [4, 4]], "client.events() too");
    }
  } finally {
    await direct.close();
    await over.close();
    await sdk.close();
  }
});

test("server-everything: simulate-research-query's statusMessage changes are statusMessage events of its handle", async () => {
  const client = await TaskClient.connect(everything.url);
  try {
    const seen = [];
    const task = await client.startTool("simulate-research-query", { topic: "tides" }, { onProgress: (e) => seen.push(e) });
    assert.equal(typeof task.taskId, "string");
    const now = await task.status();
    assert.equal(now.taskId, task.taskId);
    assert.match((await task.result()).content[0].text, /# Research Report: tides\n/);
    const messages = seen.filter((e) => e.type === "statusMessage");
    assert.ok(messages.length >= 2, `status messages seen: ${JSON.stringify(messages)}`);
    for (const e of messages) assert.equal(e.taskId, task.taskId);
    for (let i = 1; i < messages.length; i++) assert.notEqual(messages[i].message, messages[i - 1].message, "one event per change");
  } finally {
    await client.close();
  }
});
