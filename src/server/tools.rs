//! Answering a `tools/call`: [`TaskServer::begin_tool_call`] decides between running
//! it synchronously, making it a task (answering `CreateTaskResult` once the task is stored,
//! §D 82) and refusing it; [`TaskServer::finish_tool_call`] stores what the tool ended with.
//!
//! | | V25 (2025-11-25) | V26 (2026-07-28) |
//! |---|---|---|
//! | opt-in | `params.task` on the request (§A.e) | the extension in the request's own `_meta` clientCapabilities (§B.e); `params.task` ignored (§D 80) |
//! | [`TaskSupport::Forbidden`] | plain: run; augmented: -32601 (§D 41 SHOULD) | run |
//! | [`TaskSupport::Optional`] | plain: run; augmented: task | declared: task; else run |
//! | [`TaskSupport::Required`] | plain: -32601 (§D 41 MUST); augmented: task | declared: task; else -32021 (§D 78) |
//! | server did not declare `tasks.requests.tools.call` | `params.task` ignored, the call treated as plain (§D 40) | — |
//! | tool result `isError: true` | task `failed`, result kept for `tasks/result` (§D 44) | task `completed` with the result (§D 91) |
//! | thrown JSON-RPC error | task `failed` with that error | task `failed` with that error (§D 91) |

use serde_json::{Map, Value};

use crate::model::common::{JsonObject, JsonRpcError};
use crate::model::{ProtocolVersion, TaskStatus};
use crate::store::record::is_tool_error;
use crate::store::{Caller, NewTask, RandomSource, Storage, StoreError, TaskRecord};
use crate::validate::report::Issues;
use crate::validate::rules::Code;
use crate::validate::schema;

use super::context::{declares_extension, RequestContext};
use super::rpc::{self, INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND};
use super::TaskServer;

/// Whether a tool may run as a task. V25: the tool's `execution.taskSupport` (absent =
/// `Forbidden`, §D 11). V26 (no per-tool field on the wire): the server's policy for this call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TaskSupport {
    /// Never a task.
    #[default]
    Forbidden,
    /// A task when the client opted in (V25 `params.task`, V26 the extension), else synchronous.
    Optional,
    /// Only as a task: a call that did not opt in is refused.
    Required,
}

impl TaskSupport {
    /// Parses `execution.taskSupport` (`None` for anything else).
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "forbidden" => Some(TaskSupport::Forbidden),
            "optional" => Some(TaskSupport::Optional),
            "required" => Some(TaskSupport::Required),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Forbidden => "forbidden",
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }
}

/// The answer of `beginToolCall`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, tsify::Tsify)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[tsify(rename = "ToolCallStart")]
pub enum ToolCallDecision {
    /// Run the tool and answer with [`sync_tool_response`] (`syncToolResponse`); decided by
    /// [`TaskServer::begin_tool_call`].
    Sync,
    /// The task is stored: send `response` (the `CreateTaskResult`), run the tool, then call
    /// [`TaskServer::finish_tool_call`] (`finishToolCall(taskId, outcome)`).
    Task {
        #[serde(rename = "taskId")]
        task_id: String,
        #[tsify(type = "Record<string, unknown>")]
        response: Value,
    },
    /// Send `response` (an error); do not run the tool.
    Reject {
        #[tsify(type = "Record<string, unknown>")]
        response: Value,
    },
}

impl ToolCallDecision {
    /// The response to send now, if any.
    pub fn response(&self) -> Option<&Value> {
        match self {
            ToolCallDecision::Sync => None,
            ToolCallDecision::Task { response, .. } | ToolCallDecision::Reject { response } => {
                Some(response)
            }
        }
    }
}

/// The answer of `planToolCall`: what `beginToolCall` would decide, nothing created.
#[derive(Debug, Clone, PartialEq, serde::Serialize, tsify::Tsify)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[tsify(rename = "ToolCallPlanned")]
pub enum ToolCallPlan {
    /// It would run synchronously.
    Sync,
    /// It would become a task (nothing is created yet).
    Task,
    /// It would be refused with `response` (an error).
    Reject {
        #[tsify(type = "Record<string, unknown>")]
        response: Value,
    },
}

/// How a tool call ended.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolOutcome {
    /// The `CallToolResult` (possibly with `isError: true`).
    Result(Value),
    /// The call threw a JSON-RPC error.
    RpcError {
        code: i64,
        message: String,
        data: Option<Value>,
    },
}

/// What [`TaskServer::finish_tool_call`] did.
#[derive(Debug, Clone, PartialEq)]
pub enum Finished {
    /// The outcome is stored; the task is terminal now.
    Stored(Box<TaskRecord>),
    /// The task was already terminal (typically cancelled first): the outcome is discarded, the
    /// first terminal outcome wins (§D 21, 93).
    AlreadyTerminal { status: TaskStatus },
    /// The task is gone (expired or removed): nothing to store.
    Gone,
}

impl<S: Storage, R: RandomSource> TaskServer<S, R> {
    /// Decides how to answer a `tools/call` of a tool whose task support is `support` (see the
    /// module table). A task is created (and stored) before its `CreateTaskResult` is returned
    /// (§D 82). Requests other than `tools/call` are [`ToolCallDecision::Sync`]: nothing else is
    /// task-augmentable on a server, and `params.task` elsewhere is ignored (§D 40).
    pub fn begin_tool_call(
        &mut self,
        request: &Value,
        ctx: &RequestContext,
        support: TaskSupport,
        now_ms: u64,
    ) -> ToolCallDecision {
        let (id, new_task) = match decide(request, ctx, support) {
            Decision::Sync => return ToolCallDecision::Sync,
            Decision::Reject(response) => return ToolCallDecision::Reject { response },
            Decision::Task { id, new_task } => (id, new_task),
        };
        let reject = |e: JsonRpcError| ToolCallDecision::Reject {
            response: rpc::failure(Some(id), &e),
        };
        let record = match self.store_mut().create(new_task, now_ms) {
            Ok(r) => r,
            Err(e) => return reject(e.to_jsonrpc()),
        };
        let result = match ctx.version {
            ProtocolVersion::V2025 => rpc::to_object(&record.to_v25()).map(|task| {
                let mut m = Map::new();
                m.insert("task".into(), Value::Object(task));
                m
            }),
            ProtocolVersion::V2026 => rpc::to_object(&record.to_v26_task())
                .map(|task| rpc::with_result_type("task", task)),
        };
        match result {
            Ok(result) => ToolCallDecision::Task {
                task_id: record.id.clone(),
                response: rpc::success(id, result),
            },
            Err(e) => reject(e),
        }
    }

    /// What [`begin_tool_call`](Self::begin_tool_call) would decide for this request, without
    /// creating anything: a host that must do work before the task exists (MRTR rounds,
    /// §D 83) learns first whether the call is refused (-32021 before any input is asked,
    /// §D 78; -32601 for a plain call of a required tool, §D 41). `begin_tool_call` decides
    /// again (and may still refuse: a session at its live-task cap).
    pub fn plan_tool_call(
        &self,
        request: &Value,
        ctx: &RequestContext,
        support: TaskSupport,
    ) -> ToolCallPlan {
        match decide(request, ctx, support) {
            Decision::Sync => ToolCallPlan::Sync,
            Decision::Task { .. } => ToolCallPlan::Task,
            Decision::Reject(response) => ToolCallPlan::Reject { response },
        }
    }

    /// Stores how the tool of task `task_id` ended (see the module table): a JSON-RPC error
    /// fails the task with that error; a result completes it, except that a V25 task whose
    /// result has `isError: true` fails (the result kept for `tasks/result`). The version is that
    /// of the request that created the task. A task already terminal keeps its outcome.
    pub fn finish_tool_call(
        &mut self,
        task_id: &str,
        outcome: ToolOutcome,
        now_ms: u64,
    ) -> Result<Finished, StoreError> {
        let store = self.store_mut();
        let record = match store.get(Caller::Host, task_id, now_ms) {
            Ok(r) => r,
            Err(StoreError::NotFound) => return Ok(Finished::Gone),
            Err(e) => return Err(e),
        };
        if record.status().is_terminal() {
            return Ok(Finished::AlreadyTerminal {
                status: record.status(),
            });
        }
        let host = Caller::Host;
        let written = match outcome {
            ToolOutcome::RpcError {
                code,
                message,
                data,
            } => store.fail(
                host,
                task_id,
                JsonRpcError {
                    code,
                    message,
                    data,
                },
                None,
                now_ms,
            ),
            ToolOutcome::Result(Value::Object(result)) => {
                match checked_result(result, record.protocol) {
                    Err(error) => store.fail(host, task_id, error, None, now_ms),
                    Ok(result)
                        if is_tool_error(&result) && record.protocol == ProtocolVersion::V2025 =>
                    {
                        // §D 44: V25 ends a tool error in `failed` (keeping the result for
                        // `tasks/result`), with a diagnostic status message.
                        store.fail_with_tool_result(host, task_id, result, None, now_ms)
                    }
                    // §D 91, 92: V26 keeps even an isError result as `completed`.
                    Ok(result) => store.complete(host, task_id, result, None, now_ms),
                }
            }
            ToolOutcome::Result(_) => store.fail(
                host,
                task_id,
                rpc::error(
                    INTERNAL_ERROR,
                    "Internal error: the tool returned a result that is not an object",
                ),
                None,
                now_ms,
            ),
        };
        match written {
            Ok(r) => Ok(Finished::Stored(Box::new(r))),
            Err(StoreError::AlreadyTerminal { status }) => Ok(Finished::AlreadyTerminal { status }),
            Err(StoreError::NotFound) => Ok(Finished::Gone),
            Err(e) => Err(e),
        }
    }
}

/// The decision of [`TaskServer::begin_tool_call`] before anything is stored.
enum Decision<'a> {
    Sync,
    Task { id: &'a Value, new_task: NewTask },
    Reject(Value),
}

fn decide<'a>(request: &'a Value, ctx: &RequestContext, support: TaskSupport) -> Decision<'a> {
    let req = match rpc::envelope(request) {
        rpc::Envelope::Request(r) => r,
        rpc::Envelope::Invalid {
            id,
            reason,
            method: "tools/call",
        } => {
            return Decision::Reject(rpc::failure(id, &rpc::error(rpc::INVALID_REQUEST, reason)));
        }
        rpc::Envelope::Invalid { .. }
        | rpc::Envelope::Notification { .. }
        | rpc::Envelope::NotARequest => return Decision::Sync,
    };
    if req.method != "tools/call" {
        return Decision::Sync;
    }
    let params = req.params_object();
    let tool = params
        .and_then(|p| p.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let reject = |e: JsonRpcError| Decision::Reject(rpc::failure(Some(req.id), &e));
    let new_task = match ctx.version {
        ProtocolVersion::V2025 => {
            let task_param = params.and_then(|p| p.get("task"));
            match (task_param, support) {
                // §D 40: not declared augmentable → process normally, ignore params.task.
                (Some(_), _) if !ctx.declared.tool_calls => {
                    if support == TaskSupport::Required {
                        return reject(required_error(tool));
                    }
                    return Decision::Sync;
                }
                (Some(_), TaskSupport::Forbidden) => {
                    return reject(rpc::error(
                        METHOD_NOT_FOUND,
                        format!(
                            "Method not found: tool '{tool}' does not support task-augmented calls"
                        ),
                    ))
                }
                (Some(meta), _) => match requested_ttl(meta) {
                    Ok(ttl) => NewTask {
                        requested_ttl_ms: ttl,
                        ..NewTask::new(ProtocolVersion::V2025)
                    },
                    Err(e) => return reject(e),
                },
                (None, TaskSupport::Required) => return reject(required_error(tool)),
                (None, _) => return Decision::Sync,
            }
        }
        ProtocolVersion::V2026 => match (support, declares_extension(params)) {
            (TaskSupport::Forbidden, _) | (TaskSupport::Optional, false) => return Decision::Sync,
            (TaskSupport::Required, false) => return reject(rpc::missing_extension("tools/call")),
            (_, true) => NewTask::new(ProtocolVersion::V2026),
        },
    };
    Decision::Task {
        id: req.id,
        new_task: NewTask {
            session: ctx.session.clone(),
            owner: ctx.owner.clone(),
            poll_interval_ms: ctx.task.poll_interval_ms,
            default_ttl_ms: ctx.task.default_ttl_ms,
            max_ttl_ms: ctx.task.max_ttl_ms,
            ..new_task
        },
    }
}

/// The synchronous answer to a `tools/call` that ran to `outcome`: the result (V26: with
/// `resultType: "complete"` when the tool gave none, §D 58) or the error.
pub fn sync_tool_response(request: &Value, ctx: &RequestContext, outcome: ToolOutcome) -> Value {
    let id = request.get("id").filter(|id| rpc::is_valid_id(id));
    match outcome {
        ToolOutcome::Result(Value::Object(result)) => match checked_result(result, ctx.version) {
            Ok(mut result) => {
                if ctx.version == ProtocolVersion::V2026 && !result.contains_key("resultType") {
                    result = rpc::with_result_type("complete", result);
                }
                rpc::success(id.unwrap_or(&Value::Null), result)
            }
            Err(error) => rpc::failure(id, &error),
        },
        ToolOutcome::Result(_) => rpc::failure(
            id,
            &rpc::error(
                INTERNAL_ERROR,
                "Internal error: the tool returned a result that is not an object",
            ),
        ),
        ToolOutcome::RpcError {
            code,
            message,
            data,
        } => rpc::failure(
            id,
            &JsonRpcError {
                code,
                message,
                data,
            },
        ),
    }
}

fn required_error(tool: &str) -> JsonRpcError {
    rpc::error(
        METHOD_NOT_FOUND,
        format!("Method not found: tool '{tool}' can only be called as a task (add params.task)"),
    )
}

/// `params.task.ttl` (§D 10): absent or a non-negative integer.
fn requested_ttl(meta: &Value) -> Result<Option<u64>, JsonRpcError> {
    let invalid = |m: &str| rpc::error(INVALID_PARAMS, format!("Invalid params: {m}"));
    let Value::Object(meta) = meta else {
        return Err(invalid("`params.task` must be an object"));
    };
    match meta.get("ttl") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_u64()
            .map(Some)
            .ok_or_else(|| invalid("`params.task.ttl` must be a non-negative integer")),
        Some(_) => Err(invalid("`params.task.ttl` must be a non-negative integer")),
    }
}

/// §D 30, 92: what a task or a synchronous call answers is exactly the tool's result, so that
/// result must be a `CallToolResult` of `version` (the official schema). One that is not makes
/// the call an internal error (-32603, naming the first problem) rather than an invalid answer.
fn checked_result(
    result: JsonObject,
    version: ProtocolVersion,
) -> Result<JsonObject, JsonRpcError> {
    let def = match version {
        ProtocolVersion::V2025 => "v25/CallToolResult",
        ProtocolVersion::V2026 => "v26/CallToolResult",
    };
    // The 2026 schema requires the `resultType` a synchronous answer gets (and a result inlined
    // in a task does without): check as if it were there, then hand back the result as given.
    let mut result = result;
    let added = version == ProtocolVersion::V2026 && !result.contains_key("resultType");
    if added {
        result.insert("resultType".into(), Value::String("complete".into()));
    }
    let value = Value::Object(result);
    let mut issues = Issues::new();
    if schema::check(def, &value, "", Code::CallToolResult, &mut issues) {
        if let Value::Object(result) = value {
            if !added {
                return Ok(result);
            }
            // Without the `resultType` added for the check, member by member (no `Map::remove`,
            // whose `BTreeMap` removal code would be linked for this map type alone: about
            // 3 KB gzip).
            let mut without = JsonObject::new();
            for (k, v) in result {
                if k != "resultType" {
                    without.insert(k, v);
                }
            }
            return Ok(without);
        }
    }
    let first = issues
        .into_vec()
        .into_iter()
        .next()
        .map_or_else(String::new, |i| {
            let at = if i.path.is_empty() {
                "/"
            } else {
                i.path.as_str()
            };
            format!(" at {at}: {}", i.message)
        });
    Err(rpc::error(
        INTERNAL_ERROR,
        format!("Internal error: the tool returned an invalid CallToolResult{first}"),
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn task_support_strings() {
        for s in [
            TaskSupport::Forbidden,
            TaskSupport::Optional,
            TaskSupport::Required,
        ] {
            assert_eq!(TaskSupport::parse(s.as_str()), Some(s));
        }
        assert_eq!(TaskSupport::parse("always"), None);
        assert_eq!(TaskSupport::default(), TaskSupport::Forbidden);
    }

    // §D 10: params.task.ttl is absent, null or a non-negative integer.
    #[test]
    fn requested_ttls() {
        assert_eq!(requested_ttl(&json!({})).unwrap(), None);
        assert_eq!(requested_ttl(&json!({"ttl": null})).unwrap(), None);
        assert_eq!(requested_ttl(&json!({"ttl": 5})).unwrap(), Some(5));
        for bad in [
            json!({"ttl": -1}),
            json!({"ttl": 0.5}),
            json!({"ttl": "5"}),
            json!([]),
        ] {
            assert_eq!(requested_ttl(&bad).unwrap_err().code, INVALID_PARAMS);
        }
    }
}
