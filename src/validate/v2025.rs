//! Checks per message kind for protocol 2025-11-25, the experimental tasks utility
//! (TASKS-SPEC §A, §D rules 1–17).

use serde_json::{Map, Value};

use super::envelope::{type_name, Envelope};
use super::fields::{
    check_meta_object, check_params_task_id, check_task_members, check_tool_call_params, obj,
    related_task, str_of,
};
use super::report::{pointer, pointer_index, Issues, RpcKind};
use super::rules::Code;
use super::Context;
use crate::model::{ProtocolVersion, TaskStatus};

const V: ProtocolVersion = ProtocolVersion::V2025;

/// Requests that a `params.task` may augment (§A.a).
const AUGMENTABLE: [&str; 3] = ["tools/call", "sampling/createMessage", "elicitation/create"];

/// Checks `env` as a 2025-11-25 message; returns its kind.
pub fn check(env: &Envelope<'_>, ctx: &Context, issues: &mut Issues) -> &'static str {
    match env.rpc {
        RpcKind::Request => request(env, issues),
        RpcKind::Notification => notification(env, issues),
        RpcKind::Result => result(env, ctx, issues),
        RpcKind::Error => {
            if ctx
                .in_reply_to
                .as_deref()
                .is_some_and(|m| m.starts_with("tasks/"))
            {
                "TaskError"
            } else {
                "Error"
            }
        }
        RpcKind::Invalid => "Invalid",
    }
}

/// Rule 13 on any `_meta` of params; rule 15/52 (warn) where the related-task key is
/// discouraged.
fn related_task_in_params(env: &Envelope<'_>, discouraged: bool, issues: &mut Issues) {
    if let Some(p) = env.params {
        if related_task(p, "/params", issues).is_some() && discouraged {
            issues.push(
                Code::RelatedTaskDiscouraged,
                "/params/_meta/io.modelcontextprotocol~1related-task",
                format!(
                    "`{}` should not carry the related-task `_meta`: the task id is in the message itself",
                    env.method.unwrap_or("this message")
                ),
            );
        }
    }
}

/// `params._meta.progressToken`, where present, is a string or an integer (the 2025-11-25
/// schema's `ProgressToken`, on every request: `RequestParams._meta`).
fn progress_token(env: &Envelope<'_>, issues: &mut Issues) {
    let Some(token) = env
        .params
        .and_then(|p| obj(p, "_meta"))
        .and_then(|m| m.get("progressToken"))
    else {
        return;
    };
    let integer = token.is_i64()
        || token.is_u64()
        || token
            .as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0);
    if !(token.is_string() || integer) {
        issues.push(
            Code::ProgressToken,
            "/params/_meta/progressToken",
            format!(
                "`progressToken` must be a string or an integer, found {}",
                match token {
                    Value::Number(n) => format!("the number {n}"),
                    other => type_name(other).to_string(),
                }
            ),
        );
    }
}

fn request(env: &Envelope<'_>, issues: &mut Issues) -> &'static str {
    let method = env.method.unwrap_or("");
    progress_token(env, issues);
    match method {
        "tasks/get" | "tasks/result" | "tasks/cancel" => {
            check_params_task_id(env.params, issues);
            related_task_in_params(env, true, issues);
            match method {
                "tasks/get" => "GetTaskRequest",
                "tasks/result" => "GetTaskPayloadRequest",
                _ => "CancelTaskRequest",
            }
        }
        "tasks/list" => {
            if let Some(p) = env.params {
                if let Some(c) = p.get("cursor") {
                    if !c.is_string() {
                        issues.push(
                            Code::ListParams,
                            "/params/cursor",
                            format!("`cursor` must be a string, found {}", type_name(c)),
                        );
                    }
                }
                check_meta_object(p, "/params", Code::ListParams, issues);
            }
            related_task_in_params(env, true, issues);
            "ListTasksRequest"
        }
        "tasks/update" => {
            issues.push(
                Code::VersionMismatch,
                "/method",
                "`tasks/update` exists only in 2026-07-28",
            );
            "UpdateTaskRequest"
        }
        "initialize" => {
            if let Some(caps) = env.params.and_then(|p| obj(p, "capabilities")) {
                capability_tasks(
                    caps,
                    "/params/capabilities",
                    &[
                        &["list"],
                        &["cancel"],
                        &["requests", "sampling", "createMessage"],
                        &["requests", "elicitation", "create"],
                    ],
                    issues,
                );
            }
            related_task_in_params(env, false, issues);
            "InitializeRequest"
        }
        _ => {
            related_task_in_params(env, false, issues);
            if method == "tools/call" {
                check_tool_call_params(env.params, issues);
            }
            match env.params.and_then(|p| p.get("task")) {
                Some(task) => {
                    task_metadata(task, issues);
                    if AUGMENTABLE.contains(&method) {
                        "TaskAugmentedRequest"
                    } else {
                        issues.push(
                            Code::TaskMetadataMethod,
                            "/params/task",
                            format!(
                                "`{method}` is not task-augmentable: only tools/call, sampling/createMessage and elicitation/create are; the receiver ignores `params.task`"
                            ),
                        );
                        "Other"
                    }
                }
                None => "Other",
            }
        }
    }
}

/// `params.task` (§D 10).
fn task_metadata(task: &Value, issues: &mut Issues) {
    let Value::Object(t) = task else {
        issues.push(
            Code::TaskMetadata,
            "/params/task",
            format!("`params.task` must be an object, found {}", type_name(task)),
        );
        return;
    };
    if let Some(ttl) = t.get("ttl") {
        match super::fields::millis(ttl) {
            super::fields::Millis::Ok(_) | super::fields::Millis::TooLarge => {}
            super::fields::Millis::Negative => issues.push(
                Code::TaskNegativeMs,
                "/params/task/ttl",
                "the requested `ttl` is negative",
            ),
            super::fields::Millis::Fractional => issues.push(
                Code::TaskMetadata,
                "/params/task/ttl",
                "the requested `ttl` must be an integer number of milliseconds",
            ),
            super::fields::Millis::NotANumber => issues.push(
                Code::TaskMetadata,
                "/params/task/ttl",
                format!(
                    "the requested `ttl` must be an integer, found {}",
                    type_name(ttl)
                ),
            ),
        }
    }
}

/// Leaves of `capabilities.tasks` must be objects (§D 12). `leaves` are paths under `tasks`.
fn capability_tasks(
    caps: &Map<String, Value>,
    path: &str,
    leaves: &[&[&str]],
    issues: &mut Issues,
) {
    let Some(tasks) = caps.get("tasks") else {
        return;
    };
    let tpath = pointer(path, "tasks");
    let Value::Object(tasks) = tasks else {
        issues.push(
            Code::CapabilityLeaf,
            &tpath,
            format!(
                "`capabilities.tasks` must be an object, found {}",
                type_name(tasks)
            ),
        );
        return;
    };
    for leaf in leaves {
        let mut cur = tasks;
        let mut p = tpath.clone();
        for (depth, key) in leaf.iter().enumerate() {
            let Some(v) = cur.get(*key) else { break };
            p = pointer(&p, key);
            match v {
                Value::Object(o) => cur = o,
                other => {
                    let what = if depth + 1 == leaf.len() {
                        "capability leaf"
                    } else {
                        "capability group"
                    };
                    issues.push(
                        Code::CapabilityLeaf,
                        &p,
                        format!(
                            "a {what} must be an object (`{{}}` means supported), found {}",
                            type_name(other)
                        ),
                    );
                    break;
                }
            }
        }
    }
}

fn notification(env: &Envelope<'_>, issues: &mut Issues) -> &'static str {
    match env.method.unwrap_or("") {
        "notifications/tasks/status" => {
            match env.params {
                Some(p) => {
                    check_task_members(p, "/params", V, issues);
                    check_meta_object(p, "/params", Code::TaskRequiredMember, issues);
                    related_task_in_params(env, true, issues);
                }
                None => issues.push(
                    Code::TaskRequiredMember,
                    "",
                    "`notifications/tasks/status` carries the task in `params`",
                ),
            }
            "TaskStatusNotification"
        }
        "notifications/tasks" => {
            issues.push(
                Code::VersionMismatch,
                "/method",
                "`notifications/tasks` is the 2026-07-28 notification; 2025-11-25 uses `notifications/tasks/status`",
            );
            "TaskStatusNotification"
        }
        _ => {
            related_task_in_params(env, false, issues);
            "Other"
        }
    }
}

fn result(env: &Envelope<'_>, ctx: &Context, issues: &mut Issues) -> &'static str {
    let Some(r) = env.result else { return "Other" };
    if str_of(r, "resultType") == Some("task") {
        issues.push(
            Code::VersionMismatch,
            "/result/resultType",
            "`resultType: \"task\"` is the 2026-07-28 CreateTaskResult; 2025-11-25 nests the task under `task`",
        );
    }
    let related = related_task(r, "/result", issues);
    let kind = match ctx.in_reply_to.as_deref() {
        Some("tasks/get") => {
            flat_task(r, issues);
            "GetTaskResult"
        }
        Some("tasks/cancel") => {
            let s = flat_task(r, issues);
            if let Some(st) = s {
                if st != TaskStatus::Cancelled {
                    issues.push(
                        Code::CancelStatus,
                        "/result/status",
                        format!(
                            "a successful `tasks/cancel` answer must show status cancelled, found {}",
                            st.as_str()
                        ),
                    );
                }
            }
            "CancelTaskResult"
        }
        Some("tasks/list") => {
            list(r, issues);
            "ListTasksResult"
        }
        Some("tasks/result") => {
            match &related {
                None => issues.push(
                    Code::RelatedTaskMissing,
                    "/result",
                    "a `tasks/result` answer must carry `_meta[\"io.modelcontextprotocol/related-task\"]`",
                ),
                Some(Some(id)) => {
                    if let Some(asked) = &ctx.request_task_id {
                        if asked != id {
                            issues.push(
                                Code::RelatedTaskMissing,
                                "/result/_meta/io.modelcontextprotocol~1related-task/taskId",
                                format!("the related task is \"{id}\", but the request asked for \"{asked}\""),
                            );
                        }
                    }
                }
                Some(None) => {}
            }
            "GetTaskPayloadResult"
        }
        Some("initialize") => {
            server_capabilities(r, issues);
            "InitializeResult"
        }
        Some("tools/list") => {
            tools_list(r, issues);
            "ListToolsResult"
        }
        Some(m) if AUGMENTABLE.contains(&m) => {
            if r.contains_key("task") {
                create_task(r, issues)
            } else if m == "tools/call" {
                if let Some(result @ Value::Object(_)) = env.message.get("result") {
                    super::schema::check(
                        "v25/CallToolResult",
                        result,
                        "/result",
                        Code::CallToolResult,
                        issues,
                    );
                }
                "CallToolResult"
            } else {
                "Other"
            }
        }
        Some(_) => "Other",
        None => {
            if r.contains_key("task") {
                create_task(r, issues)
            } else if r.contains_key("tasks") {
                list(r, issues);
                "ListTasksResult"
            } else if r.contains_key("taskId") || r.contains_key("status") {
                flat_task(r, issues);
                "GetTaskResult"
            } else if r.contains_key("capabilities") && r.contains_key("protocolVersion") {
                server_capabilities(r, issues);
                "InitializeResult"
            } else if r.get("tools").is_some_and(Value::is_array) {
                tools_list(r, issues);
                "ListToolsResult"
            } else if related.is_some() {
                "GetTaskPayloadResult"
            } else {
                "Other"
            }
        }
    };
    if related.is_some()
        && matches!(
            kind,
            "GetTaskResult" | "CancelTaskResult" | "ListTasksResult"
        )
    {
        issues.push(
            Code::RelatedTaskDiscouraged,
            "/result/_meta/io.modelcontextprotocol~1related-task",
            "`tasks/get`, `tasks/list` and `tasks/cancel` answers should not carry the related-task `_meta`",
        );
    }
    check_meta_object(r, "/result", Code::JsonRpcResult, issues);
    kind
}

/// `InitializeResult.capabilities.tasks` of a server (§D 12).
fn server_capabilities(r: &Map<String, Value>, issues: &mut Issues) {
    if let Some(caps) = obj(r, "capabilities") {
        capability_tasks(
            caps,
            "/result/capabilities",
            &[&["list"], &["cancel"], &["requests", "tools", "call"]],
            issues,
        );
    }
}

/// A flat task result (`tasks/get`, `tasks/cancel`): returns its status.
fn flat_task(r: &Map<String, Value>, issues: &mut Issues) -> Option<TaskStatus> {
    check_task_members(r, "/result", V, issues).status
}

/// `CreateTaskResult` (§D 6, 7).
fn create_task(r: &Map<String, Value>, issues: &mut Issues) -> &'static str {
    match r.get("task") {
        Some(Value::Object(t)) => {
            let s = check_task_members(t, "/result/task", V, issues);
            if let Some(st) = s.status {
                if st != TaskStatus::Working {
                    issues.push(
                        Code::CreateTaskStatus,
                        "/result/task/status",
                        format!("a task is created in `working`, found {}", st.as_str()),
                    );
                }
            }
        }
        Some(other) => issues.push(
            Code::CreateTaskNested,
            "/result/task",
            format!("`task` must be the task object, found {}", type_name(other)),
        ),
        None => issues.push(
            Code::CreateTaskNested,
            "/result",
            "a 2025-11-25 CreateTaskResult nests the task under `task`",
        ),
    }
    "CreateTaskResult"
}

/// `ListTasksResult` (§D 9).
fn list(r: &Map<String, Value>, issues: &mut Issues) {
    match r.get("tasks") {
        Some(Value::Array(tasks)) => {
            for (i, t) in tasks.iter().enumerate() {
                let p = pointer_index("/result/tasks", i);
                match t {
                    Value::Object(o) => {
                        check_task_members(o, &p, V, issues);
                    }
                    other => issues.push(
                        Code::ListResult,
                        &p,
                        format!(
                            "each listed task must be an object, found {}",
                            type_name(other)
                        ),
                    ),
                }
            }
        }
        Some(other) => issues.push(
            Code::ListResult,
            "/result/tasks",
            format!("`tasks` must be an array, found {}", type_name(other)),
        ),
        None => issues.push(
            Code::ListResult,
            "/result",
            "a `tasks/list` answer has a `tasks` array",
        ),
    }
    if let Some(c) = r.get("nextCursor") {
        if !c.is_string() {
            issues.push(
                Code::ListResult,
                "/result/nextCursor",
                format!("`nextCursor` must be a string, found {}", type_name(c)),
            );
        }
    }
}

/// `tools/list`: `Tool.execution.taskSupport` (§D 11).
fn tools_list(r: &Map<String, Value>, issues: &mut Issues) {
    let Some(Value::Array(tools)) = r.get("tools") else {
        return;
    };
    for (i, tool) in tools.iter().enumerate() {
        let Some(exec) = tool.as_object().and_then(|t| t.get("execution")) else {
            continue;
        };
        let p = pointer(&pointer_index("/result/tools", i), "execution");
        let Value::Object(exec) = exec else {
            issues.push(
                Code::ToolTaskSupport,
                &p,
                format!("`execution` must be an object, found {}", type_name(exec)),
            );
            continue;
        };
        if let Some(ts) = exec.get("taskSupport") {
            let ok = matches!(ts.as_str(), Some("forbidden" | "optional" | "required"));
            if !ok {
                issues.push(
                    Code::ToolTaskSupport,
                    &pointer(&p, "taskSupport"),
                    format!("`taskSupport` must be forbidden, optional or required, found {ts}"),
                );
            }
        }
    }
}
