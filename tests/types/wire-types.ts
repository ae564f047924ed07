// Type test of the generated .d.ts (run by tests/js/types.test.mjs with `tsc --strict`):
// correct wire literals type-check; each `@ts-expect-error` line MUST fail to type-check, or tsc
// reports the directive as unused and the test fails.
import {
  validateMessage,
  convertTask,
  type ValidationReport,
  type Issue,
  type TaskStatus,
  type V25Task,
  type V25CreateTaskResult,
  type V25ListTasksResult,
  type V25TaskMetadata,
  type V25ToolExecution,
  type V25ServerTasksCapability,
  type V26Task,
  type V26DetailedTask,
  type V26CreateTaskResult,
  type V26GetTaskResult,
  type V26AckResult,
  type V26InputRequest,
  type V26UpdateTaskRequestParams,
  type V26MissingCapabilityErrorData,
  type JsonRpcError,
  type ConversionReport,
  type V25CancelTaskResult,
  type V25TaskStatusNotificationParams,
  type V25GetTaskRequestParams,
  type V26TaskStatusNotificationParams,
  type V26UpdateTaskResult,
  type V26CancelTaskRequestParams,
} from "mcp-tasks-wasm";

const status: TaskStatus = "input_required";
// @ts-expect-error: not a status
const badStatus: TaskStatus = "submitted";

const v25: V25Task = {
  taskId: "t-1",
  status: "working",
  createdAt: "2025-11-25T10:30:00Z",
  lastUpdatedAt: "2025-11-25T10:30:00Z",
  ttl: null,
  pollInterval: 5000,
};
// @ts-expect-error: ttl is required (nullable, never absent)
const v25NoTtl: V25Task = { taskId: "t", status: "working", createdAt: "x", lastUpdatedAt: "x" };
// @ts-expect-error: ttl is a number or null, not a string
const v25StringTtl: V25Task = { ...v25, ttl: "60" };

const created25: V25CreateTaskResult = { task: v25 };
const list25: V25ListTasksResult = { tasks: [v25], nextCursor: "c" };
const meta25: V25TaskMetadata = { ttl: 1000 };
const exec: V25ToolExecution = { taskSupport: "optional" };
// @ts-expect-error: taskSupport is a closed union
const badExec: V25ToolExecution = { taskSupport: "always" };
const caps: V25ServerTasksCapability = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

const v26: V26Task = {
  taskId: "t-2",
  status: "working",
  createdAt: "2026-07-28T10:30:00Z",
  lastUpdatedAt: "2026-07-28T10:30:00Z",
  ttlMs: 60000,
};
// @ts-expect-error: ttlMs is required
const v26NoTtl: V26Task = { taskId: "t", status: "working", createdAt: "x", lastUpdatedAt: "x" };
// @ts-expect-error: the 2025 member name is not the 2026 one
const v26Legacy: V26Task = { taskId: "t", status: "working", createdAt: "x", lastUpdatedAt: "x", ttl: null };

const created26: V26CreateTaskResult = { ...v26, resultType: "task" };
// @ts-expect-error: a CreateTaskResult has resultType "task"
const created26Bad: V26CreateTaskResult = { ...v26, resultType: "complete" };

const elicit: V26InputRequest = { method: "elicitation/create", params: { message: "Name?" } };
const inputRequired: V26DetailedTask = { ...v26, status: "input_required", inputRequests: { name: elicit } };
// @ts-expect-error: input_required needs inputRequests
const inputRequiredBad: V26DetailedTask = { ...v26, status: "input_required" };
const failed: V26DetailedTask = { ...v26, status: "failed", error: { code: -32603, message: "boom" } };
// @ts-expect-error: failed carries a JSON-RPC error, not a result
const failedBad: V26DetailedTask = { ...v26, status: "failed", result: { content: [] } };
const completed: V26GetTaskResult = { ...v26, status: "completed", resultType: "complete", result: { content: [] } };
// @ts-expect-error: a tasks/get answer has resultType "complete"
const completedBad: V26GetTaskResult = { ...v26, status: "completed", resultType: "task", result: {} };
const ack: V26AckResult = { resultType: "complete" };
const update: V26UpdateTaskRequestParams = {
  taskId: "t-2",
  inputResponses: { name: { action: "accept", content: { name: "Luca" } } },
  _meta: {},
};
const err: JsonRpcError = { code: -32021, message: "missing", data: { anything: true } };
const data: V26MissingCapabilityErrorData = { requiredCapabilities: { extensions: {} } };

// The API: a report with literal-typed fields, plain objects, never Map.
const report: ValidationReport = validateMessage('{"jsonrpc":"2.0","id":1,"method":"ping"}', {
  version: "2025-11-25",
  inReplyTo: "tasks/get",
});
const valid: boolean = report.valid;
const version: "2025-11-25" | "2026-07-28" | null = report.version;
const issues: Issue[] = report.issues;
const severity: "error" | "warning" | undefined = issues[0]?.severity;
// @ts-expect-error: the version option is a closed union
validateMessage("{}", { version: "2024-11-05" });
const conversion: ConversionReport = convertTask(v25, "2026-07-28");
const converted: unknown = conversion.value;

// The aliases of both versions exist under their wire names.
const cancelled25: V25CancelTaskResult = { ...v25, status: "cancelled" };
const note25: V25TaskStatusNotificationParams = { ...v25, _meta: {} };
const get25: V25GetTaskRequestParams = { taskId: "t-1" };
const note26: V26TaskStatusNotificationParams = { ...v26, status: "cancelled" };
// @ts-expect-error: a notifications/tasks payload for input_required lists its inputRequests
const note26Bad: V26TaskStatusNotificationParams = { ...v26, status: "input_required" };
const updated: V26UpdateTaskResult = { resultType: "complete" };
const cancel26: V26CancelTaskRequestParams = { taskId: "t-2", _meta: {} };

export {
  cancelled25, note25, get25, note26, note26Bad, updated, cancel26,
  status, badStatus, v25NoTtl, v25StringTtl, created25, list25, meta25, exec, badExec, caps,
  v26NoTtl, v26Legacy, created26, created26Bad, inputRequired, inputRequiredBad, failed, failedBad,
  completed, completedBad, ack, update, err, data, valid, version, severity, converted,
};
