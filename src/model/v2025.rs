//! Wire types of the experimental tasks utility of protocol 2025-11-25 (TASKS-SPEC §A.a, §A.b).
//!
//! Required-but-nullable members (`ttl`) are `T | null` and always serialised; optional members
//! are `field?: T` and omitted when absent. `_meta` and results of the original request are
//! JSON objects (`Record<string, unknown>`).

use serde::{Deserialize, Serialize};
use tsify::Tsify;

use super::common::{wire_alias, JsonObject, TaskStatus};

/// A task as every V25 answer carries it (flat in `tasks/get`, `tasks/cancel`, notifications;
/// nested under `task` in `CreateTaskResult`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
#[tsify(missing_as_null)]
pub struct V25Task {
    pub task_id: String,
    pub status: TaskStatus,
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// ISO 8601 (RFC 3339) timestamp.
    pub created_at: String,
    /// ISO 8601 (RFC 3339) timestamp.
    pub last_updated_at: String,
    /// Retention in milliseconds from `createdAt`; `null` means unlimited. Always present.
    pub ttl: Option<u64>,
    /// Suggested milliseconds between polls.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_interval: Option<u64>,
}

/// `params.task` of a task-augmented request: the requested retention.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct V25TaskMetadata {
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl: Option<u64>,
}

/// The value under `_meta["io.modelcontextprotocol/related-task"]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct V25RelatedTaskMetadata {
    pub task_id: String,
}

/// The answer to an accepted task-augmented request: the task, **nested**.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct V25CreateTaskResult {
    pub task: V25Task,
    #[tsify(optional, type = "Record<string, unknown>")]
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

/// The answer to `tasks/get` and `tasks/cancel`: a flat task plus optional `_meta`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
#[tsify(missing_as_null)]
pub struct V25GetTaskResult {
    #[serde(flatten)]
    pub task: V25Task,
    #[tsify(optional, type = "Record<string, unknown>")]
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

wire_alias! {
    /// The answer to `tasks/cancel` has the same shape as that of `tasks/get`.
    V25CancelTaskResult = V25GetTaskResult
}

/// The answer to `tasks/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct V25ListTasksResult {
    pub tasks: Vec<V25Task>,
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    #[tsify(optional, type = "Record<string, unknown>")]
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

/// `params` of `tasks/get`, `tasks/result` and `tasks/cancel`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct V25TaskIdParams {
    pub task_id: String,
}

wire_alias! {
    /// `params` of `tasks/get`.
    V25GetTaskRequestParams = V25TaskIdParams
}
wire_alias! {
    /// `params` of `tasks/result`.
    V25GetTaskPayloadRequestParams = V25TaskIdParams
}
wire_alias! {
    /// `params` of `tasks/cancel`.
    V25CancelTaskRequestParams = V25TaskIdParams
}

/// `params` of `tasks/list` (optional as a whole).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct V25ListTasksRequestParams {
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    #[tsify(optional, type = "Record<string, unknown>")]
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

wire_alias! {
    /// `params` of `notifications/tasks/status`: a flat task plus optional `_meta`.
    V25TaskStatusNotificationParams = V25GetTaskResult
}

/// `Tool.execution.taskSupport`; absent means `forbidden`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "lowercase")]
pub enum V25TaskSupport {
    #[default]
    Forbidden,
    Optional,
    Required,
}

/// `Tool.execution` (returned by `tools/list`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct V25ToolExecution {
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_support: Option<V25TaskSupport>,
}

/// An empty capability leaf `{}` (presence means support).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, Tsify)]
pub struct V25CapabilityLeaf {}

/// `ServerCapabilities.tasks.requests`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, Tsify)]
pub struct V25ServerTaskRequests {
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<V25ToolsTaskRequests>,
}

/// `ServerCapabilities.tasks.requests.tools`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, Tsify)]
pub struct V25ToolsTaskRequests {
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<V25CapabilityLeaf>,
}

/// `ServerCapabilities.tasks`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, Tsify)]
pub struct V25ServerTasksCapability {
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<V25CapabilityLeaf>,
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancel: Option<V25CapabilityLeaf>,
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests: Option<V25ServerTaskRequests>,
}

/// `ClientCapabilities.tasks.requests`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, Tsify)]
pub struct V25ClientTaskRequests {
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<V25SamplingTaskRequests>,
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<V25ElicitationTaskRequests>,
}

/// `ClientCapabilities.tasks.requests.sampling`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct V25SamplingTaskRequests {
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub create_message: Option<V25CapabilityLeaf>,
}

/// `ClientCapabilities.tasks.requests.elicitation`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, Tsify)]
pub struct V25ElicitationTaskRequests {
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub create: Option<V25CapabilityLeaf>,
}

/// `ClientCapabilities.tasks`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, Tsify)]
pub struct V25ClientTasksCapability {
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<V25CapabilityLeaf>,
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancel: Option<V25CapabilityLeaf>,
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests: Option<V25ClientTaskRequests>,
}
