// examples/conformance-server.mjs over HTTP: the paths the official suite (scripts/conformance.sh)
// does not reach or only touches, and every response checked with the package's validateMessage.
// The example imports the built package from pkg/; the checks here use the installed one.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startExample } from "../example-server.mjs";

const { validateMessage } = await import("../.tmp/install/server.mjs");

const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";

/** @type {import("node:child_process").ChildProcess} */
let server;
let url = "";
let nextId = 1;

before(async () => {
  ({ url, process: server } = await startExample());
});

after(() => server?.kill());

function meta({ ext = true, elicitation = true, version = V26 } = {}) {
  const caps = {};
  if (elicitation) caps.elicitation = {};
  if (ext) caps.extensions = { [EXT]: {} };
  return { "io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": caps };
}

/**
 * POSTs one request with the routing headers a 2026-07-28 client sends (override with
 * `headers`; `null` drops one) and checks the response with validateMessage.
 */
async function rpc(method, params = {}, { headers = {}, metaOptions, rawParams = false } = {}) {
  const body = { jsonrpc: "2.0", id: nextId++, method };
  body.params = rawParams ? params : { ...params, _meta: meta(metaOptions) };
  /** @type {Record<string, string>} */
  const version = metaOptions?.version ?? V26; // a client sends the version its _meta names
  const h = { "Content-Type": "application/json", Accept: "application/json", "MCP-Protocol-Version": version, "Mcp-Method": method };
  if (typeof params?.taskId === "string") h["Mcp-Name"] = params.taskId;
  for (const [k, v] of Object.entries(headers)) {
    if (v === null) delete h[k];
    else h[k] = v;
  }
  const res = await fetch(url, { method: "POST", headers: h, body: JSON.stringify(body) });
  const message = await res.json();
  assert.equal(message.id, body.id);
  const report = validateMessage(message, { version: V26, inReplyTo: method });
  assert.ok(report.valid, `${method}: ${JSON.stringify(report.issues)} in ${JSON.stringify(message)}`);
  return { status: res.status, message, result: message.result, error: message.error };
}

async function untilStatus(taskId, statuses, timeoutMs = 5000) {
  const t0 = Date.now();
  for (;;) {
    const { result } = await rpc("tasks/get", { taskId });
    if (statuses.includes(result.status) || Date.now() - t0 > timeoutMs) return result;
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("server/discover advertises the tasks extension, not capabilities.tasks", async () => {
  const { status, result } = await rpc("server/discover");
  assert.equal(status, 200);
  assert.deepEqual(result.capabilities.extensions, { [EXT]: {} });
  assert.equal(result.capabilities.tasks, undefined);
  // One endpoint serves both eras: 2025-11-25 through initialize (a session).
  assert.deepEqual(result.supportedVersions, [V26, "2025-11-25"]);
  const { result: list } = await rpc("tools/list");
  assert.deepEqual(
    list.tools.map((t) => t.name).sort(),
    ["confirm_delete", "failing_job", "greet", "multi_input", "progress_job", "protocol_error_job", "slow_compute", "test_tool_with_task"],
  );
});

test("-32020: Mcp-Method, Mcp-Name or MCP-Protocol-Version that disagree with the body or are missing (HTTP 400)", async () => {
  const wrongMethod = await rpc("tools/call", { name: "greet", arguments: { name: "x" } }, { headers: { "Mcp-Method": "tasks/get" } });
  assert.equal(wrongMethod.status, 400);
  assert.equal(wrongMethod.error.code, -32020);

  const noMethod = await rpc("tools/call", { name: "greet", arguments: {} }, { headers: { "Mcp-Method": null } });
  assert.equal(noMethod.error.code, -32020);
  // §B.f: MCP-Protocol-Version missing, or not the version _meta names; an Mcp-Name naming another tool.
  const noVersion = await rpc("tools/call", { name: "greet", arguments: {} }, { headers: { "MCP-Protocol-Version": null } });
  assert.equal(noVersion.error.code, -32020);
  const otherVersion = await rpc("tools/call", { name: "greet", arguments: {} }, { headers: { "MCP-Protocol-Version": "2025-11-25" } });
  assert.equal(otherVersion.error.code, -32020);
  const otherTool = await rpc("tools/call", { name: "greet", arguments: {} }, { headers: { "Mcp-Name": "failing_job" } });
  assert.equal(otherTool.error.code, -32020);

  const created = await rpc("tools/call", { name: "slow_compute", arguments: { seconds: 30 } });
  const taskId = created.result.taskId;
  const wrongName = await rpc("tasks/get", { taskId }, { headers: { "Mcp-Name": "someone-else" } });
  assert.equal(wrongName.status, 400);
  assert.equal(wrongName.error.code, -32020);
  // The Base64 sentinel form of the right id is accepted.
  const encoded = `=?base64?${Buffer.from(taskId).toString("base64")}?=`;
  const sentinel = await rpc("tasks/get", { taskId }, { headers: { "Mcp-Name": encoded } });
  assert.equal(sentinel.result.taskId, taskId);
  await rpc("tasks/cancel", { taskId });
});

test("-32021: a client that did not declare the extension, with data.requiredCapabilities (HTTP 400)", async () => {
  const required = await rpc("tools/call", { name: "failing_job", arguments: {} }, { metaOptions: { ext: false } });
  assert.equal(required.status, 400);
  assert.equal(required.error.code, -32021);
  assert.deepEqual(required.error.data.requiredCapabilities.extensions, { [EXT]: {} });

  for (const method of ["tasks/get", "tasks/cancel"]) {
    const { error } = await rpc(method, { taskId: "nope" }, { metaOptions: { ext: false } });
    assert.equal(error.code, -32021, method);
  }
  // An optional task tool runs synchronously instead.
  const sync = await rpc("tools/call", { name: "slow_compute", arguments: { seconds: 0 } }, { metaOptions: { ext: false } });
  assert.equal(sync.result.resultType, "complete");
  assert.ok(Array.isArray(sync.result.content));
  // §D 78: a task-only tool that gathers input first is refused before anything is asked.
  const early = await rpc("tools/call", { name: "test_tool_with_task", arguments: {} }, { metaOptions: { ext: false } });
  assert.equal(early.status, 400);
  assert.equal(early.error.code, -32021);
});

test("a synchronous call that needs input asks with an InputRequiredResult (MRTR) and completes on the retry", async () => {
  const args = { filename: "sync.txt" };
  const round1 = await rpc("tools/call", { name: "confirm_delete", arguments: args }, { metaOptions: { ext: false } });
  assert.equal(round1.result.resultType, "input_required");
  assert.deepEqual(Object.keys(round1.result.inputRequests), ["confirm"]);
  const round2 = await rpc(
    "tools/call",
    { name: "confirm_delete", arguments: args, inputResponses: { confirm: { action: "accept", content: { confirm: true } } }, requestState: round1.result.requestState },
    { metaOptions: { ext: false } },
  );
  assert.equal(round2.result.resultType, "complete");
  assert.equal(round2.result.content[0].text, "Deleted sync.txt");
});

test("the _meta envelope: missing → -32602, another protocol version → -32022 (HTTP 400)", async () => {
  const missing = await rpc("tools/list", {}, { rawParams: true });
  assert.equal(missing.status, 400);
  assert.equal(missing.error.code, -32602);
  const other = await rpc("tools/list", {}, { metaOptions: { version: "2099-01-01" } });
  assert.equal(other.status, 400);
  assert.equal(other.error.code, -32022);
  assert.deepEqual(other.error.data, { supported: [V26, "2025-11-25"], requested: "2099-01-01" });
});

test("a task's life: working → input_required → tasks/update → completed; cancel; failed", async () => {
  const created = await rpc("tools/call", { name: "confirm_delete", arguments: { filename: "a.txt" } });
  assert.equal(created.result.resultType, "task");
  const waiting = await untilStatus(created.result.taskId, ["input_required"]);
  assert.equal(waiting.status, "input_required");
  assert.deepEqual(Object.keys(waiting.inputRequests), ["confirm"]);
  const ack = await rpc("tasks/update", {
    taskId: created.result.taskId,
    inputResponses: { confirm: { action: "accept", content: { confirm: true } } },
  });
  assert.deepEqual(Object.keys(ack.result).filter((k) => k !== "_meta"), ["resultType"]);
  const done = await untilStatus(created.result.taskId, ["completed", "failed", "cancelled"]);
  assert.equal(done.status, "completed");
  assert.equal(done.result.content[0].text, "Deleted a.txt");

  const slow = await rpc("tools/call", { name: "slow_compute", arguments: { seconds: 30 } });
  await rpc("tasks/cancel", { taskId: slow.result.taskId });
  assert.equal((await untilStatus(slow.result.taskId, ["cancelled"])).status, "cancelled");

  const broken = await rpc("tools/call", { name: "protocol_error_job", arguments: {} });
  const failed = await untilStatus(broken.result.taskId, ["failed", "completed"]);
  assert.equal(failed.status, "failed");
  assert.equal(failed.error.code, -32603);

  const unknown = await rpc("tasks/get", { taskId: "no-such-task" });
  assert.equal(unknown.error.code, -32602);
  assert.equal((await rpc("tasks/result", { taskId: "no-such-task" })).error.code, -32601);
});

test("MRTR before the task: InputRequiredResult, a forged requestState refused, then the task", async () => {
  const round1 = await rpc("tools/call", { name: "test_tool_with_task", arguments: {} });
  assert.equal(round1.result.resultType, "input_required");
  assert.equal(round1.result.taskId, undefined);
  assert.deepEqual(Object.keys(round1.result.inputRequests), ["user_name"]);
  const answers = { user_name: { action: "accept", content: { name: "Ada" } } };

  const forged = await rpc("tools/call", {
    name: "test_tool_with_task",
    arguments: {},
    inputResponses: answers,
    requestState: `${round1.result.requestState}x`,
  });
  assert.equal(forged.error.code, -32602);

  const round2 = await rpc("tools/call", {
    name: "test_tool_with_task",
    arguments: {},
    inputResponses: answers,
    requestState: round1.result.requestState,
  });
  assert.equal(round2.result.resultType, "task");
  assert.equal(round2.result.requestState, undefined);
  const done = await untilStatus(round2.result.taskId, ["completed", "failed", "cancelled"]);
  assert.equal(done.status, "completed");
  assert.match(done.result.content[0].text, /Ada/);
});
