// The messages every benchmark uses (JSON-RPC responses), built deterministically.
// Each entry: { id, title, version, inReplyTo, expectValid, text, zod, ajv }
//   zod: name of the SDK zod schema for the `result` part (null: the SDK has none, V26)
//   ajv: { schema: "v25" | "v26", def } — the official-schema definition for the `result` part

const TASK_ID_25 = "7d1c2e4a-5b6f-4c3d-9e8f-0a1b2c3d4e5f";
const TASK_ID_26 = "786512e2-9e0d-44bd-8f29-789f320fe840";

function task25(i = 0, status = "working") {
  return {
    taskId: i === 0 ? TASK_ID_25 : `task-${String(i).padStart(4, "0")}-5b6f-4c3d-9e8f-0a1b2c3d4e5f`,
    status,
    statusMessage: "Building target release",
    createdAt: "2025-11-25T10:30:00Z",
    lastUpdatedAt: "2025-11-25T10:30:05Z",
    ttl: 600000,
    pollInterval: 2000,
  };
}

// 64 KiB (65,536 characters) of ASCII text with newlines (JSON escapes), as one text block.
function text64k() {
  const line = "build step ok: compiled module, linked, wrote artefact to disk\n"; // 64 chars
  return line.repeat(1024);
}

function callToolResult64k() {
  return { content: [{ type: "text", text: text64k() }], isError: false };
}

const STATUSES = ["working", "input_required", "completed", "failed", "cancelled"];

export function buildMessages() {
  const v25Get = { jsonrpc: "2.0", id: 3, result: task25() };
  const v26Get = {
    jsonrpc: "2.0",
    id: 3,
    result: {
      resultType: "complete",
      taskId: TASK_ID_26,
      status: "completed",
      createdAt: "2026-07-28T10:30:00Z",
      lastUpdatedAt: "2026-07-28T10:31:00Z",
      ttlMs: 3600000,
      pollIntervalMs: 5000,
      result: { content: [{ type: "text", text: "Deployed to production" }], isError: false },
    },
  };
  const v25BadStatus = structuredClone(v25Get);
  v25BadStatus.result.status = "running";
  const v25BadTtl = structuredClone(v25Get);
  v25BadTtl.result.ttl = "600000";
  const v26BadTtl = structuredClone(v26Get);
  v26BadTtl.result.ttlMs = "3600000";

  const tasks = [];
  for (let i = 0; i < 100; i++) tasks.push(task25(i + 1, STATUSES[i % 5]));
  const v25List = { jsonrpc: "2.0", id: 5, result: { tasks, nextCursor: "page-2" } };

  const v25Result64k = {
    jsonrpc: "2.0",
    id: 4,
    result: {
      ...callToolResult64k(),
      _meta: { "io.modelcontextprotocol/related-task": { taskId: TASK_ID_25 } },
    },
  };
  const v26Get64k = structuredClone(v26Get);
  v26Get64k.result.result = callToolResult64k();

  const defs = [
    ["v25-get-valid", "V25 `tasks/get` result, valid (flat Task)", "2025-11-25", "tasks/get", true, v25Get, "GetTaskResultSchema", { schema: "v25", def: "GetTaskResult" }],
    ["v26-get-valid", "V26 `tasks/get` result, valid (DetailedTask, completed, resultType complete)", "2026-07-28", "tasks/get", true, v26Get, null, { schema: "v26", def: "GetTaskResult" }],
    ["v25-get-bad-status", "V25 `tasks/get` result, invalid (`status: \"running\"`)", "2025-11-25", "tasks/get", false, v25BadStatus, "GetTaskResultSchema", { schema: "v25", def: "GetTaskResult" }],
    ["v25-get-bad-ttl", "V25 `tasks/get` result, invalid (`ttl` is a string)", "2025-11-25", "tasks/get", false, v25BadTtl, "GetTaskResultSchema", { schema: "v25", def: "GetTaskResult" }],
    ["v26-get-bad-ttl", "V26 `tasks/get` result, invalid (`ttlMs` is a string)", "2026-07-28", "tasks/get", false, v26BadTtl, null, { schema: "v26", def: "GetTaskResult" }],
    ["v25-list-100", "V25 `tasks/list` result, 100 tasks, valid", "2025-11-25", "tasks/list", true, v25List, "ListTasksResultSchema", { schema: "v25", def: "ListTasksResult" }],
    ["v25-result-64k", "V25 `tasks/result` answer: CallToolResult with 64 KiB of text, valid", "2025-11-25", "tasks/result", true, v25Result64k, "CallToolResultSchema", { schema: "v25", def: "CallToolResult" }],
    ["v26-get-64k", "V26 `tasks/get` completed DetailedTask with the same 64 KiB `result`, valid", "2026-07-28", "tasks/get", true, v26Get64k, null, { schema: "v26", def: "GetTaskResult" }],
  ];
  return defs.map(([id, title, version, inReplyTo, expectValid, obj, zod, ajv]) => ({
    id,
    title,
    version,
    inReplyTo,
    expectValid,
    text: JSON.stringify(obj),
    zod,
    ajv,
  }));
}

// The official schemas: a byte-exact copy in docs/spec/schemas (docs/spec/schemas/SOURCE.md).
export const SCHEMA_FILES = {
  v25: "docs/spec/schemas/2025-11-25/schema.json",
  v26: "docs/spec/schemas/tasks-extension/schema.json",
};
