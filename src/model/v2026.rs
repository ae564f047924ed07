//! Wire types of the extension `io.modelcontextprotocol/tasks` of protocol 2026-07-28
//! (TASKS-SPEC §B.a, §B.b).
//!
//! Tasks are flat. `DetailedTask` is a union discriminated by `status` whose variants inline the
//! payload (`inputRequests`, `result`, `error`). `ttlMs` is required and nullable.

use serde::{Deserialize, Serialize};
use tsify::Tsify;

use super::common::{wire_alias, JsonObject, JsonRpcError, TaskStatus};

/// The members every V26 task shape shares, except `status`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
#[tsify(missing_as_null)]
pub struct V26TaskFields {
    pub task_id: String,
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// ISO 8601 (RFC 3339) timestamp.
    pub created_at: String,
    /// ISO 8601 (RFC 3339) timestamp.
    pub last_updated_at: String,
    /// Retention in integer milliseconds from `createdAt`; `null` means unlimited. Always present.
    pub ttl_ms: Option<u64>,
    /// Suggested integer milliseconds between polls.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_interval_ms: Option<u64>,
}

/// A flat V26 task (merged into `CreateTaskResult`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct V26Task {
    #[serde(flatten)]
    pub fields: V26TaskFields,
    pub status: TaskStatus,
}

/// The payload of a task, discriminated by `status` (§B.a `DetailedTask`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum V26TaskPayload {
    Working {},
    InputRequired {
        #[serde(rename = "inputRequests")]
        input_requests: V26InputRequests,
    },
    Completed {
        /// Exactly what the original request would have returned (a `CallToolResult`).
        #[tsify(type = "Record<string, unknown>")]
        result: JsonObject,
    },
    Failed {
        /// The JSON-RPC error the underlying request ended with.
        error: JsonRpcError,
    },
    Cancelled {},
}

impl V26TaskPayload {
    /// The status this payload belongs to.
    pub fn status(&self) -> TaskStatus {
        match self {
            V26TaskPayload::Working {} => TaskStatus::Working,
            V26TaskPayload::InputRequired { .. } => TaskStatus::InputRequired,
            V26TaskPayload::Completed { .. } => TaskStatus::Completed,
            V26TaskPayload::Failed { .. } => TaskStatus::Failed,
            V26TaskPayload::Cancelled {} => TaskStatus::Cancelled,
        }
    }
}

/// A task with the payload of its status: the answer of `tasks/get` and the params of
/// `notifications/tasks`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[tsify(type = "V26TaskFields & V26TaskPayload")]
pub struct V26DetailedTask {
    #[serde(flatten)]
    pub fields: V26TaskFields,
    #[serde(flatten)]
    pub payload: V26TaskPayload,
}

/// One server-to-client request carried in `inputRequests` (bare: no `jsonrpc`, no `id`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(tag = "method")]
pub enum V26InputRequest {
    #[serde(rename = "elicitation/create")]
    Elicitation {
        #[tsify(type = "Record<string, unknown>")]
        params: JsonObject,
    },
    #[serde(rename = "sampling/createMessage")]
    Sampling {
        #[tsify(type = "Record<string, unknown>")]
        params: JsonObject,
    },
    #[serde(rename = "roots/list")]
    Roots {
        #[tsify(optional, type = "Record<string, unknown>")]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        params: Option<JsonObject>,
    },
}

/// `inputRequests`: server-chosen keys, unique over the task's life, to bare requests.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, Tsify)]
#[tsify(type = "Record<string, V26InputRequest>")]
pub struct V26InputRequests(pub serde_json::Map<String, serde_json::Value>);

/// `inputResponses`: the same keys to `ElicitResult` / `CreateMessageResult` / `ListRootsResult`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, Tsify)]
#[tsify(type = "Record<string, Record<string, unknown>>")]
pub struct V26InputResponses(pub serde_json::Map<String, serde_json::Value>);

/// The `resultType` of a 2026 result; the extension adds `task`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "snake_case")]
pub enum V26ResultType {
    Complete,
    InputRequired,
    Task,
}

/// The answer to a `tools/call` the server chose to run as a task: flat, `resultType: "task"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct V26CreateTaskResult {
    #[tsify(type = "\"task\"")]
    pub result_type: V26ResultType,
    #[serde(flatten)]
    pub task: V26Task,
    #[tsify(optional, type = "Record<string, unknown>")]
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

/// The answer to `tasks/get`: a `DetailedTask` with `resultType: "complete"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
#[tsify(type = "V26DetailedTask & { resultType: \"complete\"; _meta?: Record<string, unknown> }")]
pub struct V26GetTaskResult {
    #[tsify(type = "\"complete\"")]
    pub result_type: V26ResultType,
    #[serde(flatten)]
    pub task: V26DetailedTask,
    #[tsify(optional, type = "Record<string, unknown>")]
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

/// The empty acknowledgement of `tasks/update` and `tasks/cancel`: `{ resultType: "complete" }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct V26AckResult {
    #[tsify(type = "\"complete\"")]
    pub result_type: V26ResultType,
    #[tsify(optional, type = "Record<string, unknown>")]
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

wire_alias! {
    /// The answer to `tasks/update`.
    V26UpdateTaskResult = V26AckResult
}
wire_alias! {
    /// The answer to `tasks/cancel`.
    V26CancelTaskResult = V26AckResult
}

/// `params` of `tasks/get` and `tasks/cancel` (`_meta` is the 2026 request envelope).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct V26TaskIdParams {
    pub task_id: String,
    #[tsify(type = "Record<string, unknown>")]
    #[serde(rename = "_meta")]
    pub meta: JsonObject,
}

wire_alias! {
    /// `params` of `tasks/get`.
    V26GetTaskRequestParams = V26TaskIdParams
}
wire_alias! {
    /// `params` of `tasks/cancel`.
    V26CancelTaskRequestParams = V26TaskIdParams
}

/// `params` of `tasks/update`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct V26UpdateTaskRequestParams {
    pub task_id: String,
    pub input_responses: V26InputResponses,
    #[tsify(type = "Record<string, unknown>")]
    #[serde(rename = "_meta")]
    pub meta: JsonObject,
}

wire_alias! {
    /// `params` of `notifications/tasks`: a complete `DetailedTask` (no `resultType`).
    V26TaskStatusNotificationParams = V26DetailedTask
}

/// The settings of the tasks extension: none are defined, so always `{}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, Tsify)]
#[serde(deny_unknown_fields)]
pub struct V26TasksExtensionCapability {}

/// `error.data` of a -32021 "missing required client capability" error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct V26MissingCapabilityErrorData {
    #[tsify(type = "Record<string, unknown>")]
    pub required_capabilities: JsonObject,
}

/// `subscriptions/listen` `params.notifications` members added by the extension, and the same
/// in `notifications/subscriptions/acknowledged`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct V26TaskSubscriptionNotifications {
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_ids: Option<Vec<String>>,
}
