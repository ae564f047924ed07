//! Checks per message kind for protocol 2026-07-28 with the extension
//! `io.modelcontextprotocol/tasks` (TASKS-SPEC §B, §D rules 58–76).

use serde_json::{Map, Value};

use super::envelope::{is_integer, type_name, Envelope};
use super::fields::{
    check_params_task_id, check_task_members, check_tool_call_params, obj, str_of,
};
use super::report::{pointer, Issues, RpcKind, Severity};
use super::rules::Code;
use super::{schema, Context};
use crate::model::common::{
    META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, MISSING_CAPABILITY_CODE, TASKS_EXTENSION_ID,
};
use crate::model::{ProtocolVersion, TaskStatus};

const V: ProtocolVersion = ProtocolVersion::V2026;

/// Checks `env` as a 2026-07-28 message; returns its kind.
pub fn check(env: &Envelope<'_>, ctx: &Context, issues: &mut Issues) -> &'static str {
    match env.rpc {
        RpcKind::Request => {
            let kind = request(env, issues);
            if let Some(h) = &ctx.headers {
                headers(env, h, issues);
            }
            kind
        }
        RpcKind::Notification => notification(env, issues),
        RpcKind::Result => result(env, ctx, issues),
        RpcKind::Error => error(env, ctx, issues),
        RpcKind::Invalid => "Invalid",
    }
}

/// Whether `_meta` clientCapabilities declare the tasks extension (§B.e).
pub fn declares_extension(params: Option<&Map<String, Value>>) -> bool {
    params
        .and_then(|p| obj(p, "_meta"))
        .and_then(|m| obj(m, META_CLIENT_CAPABILITIES))
        .and_then(|c| obj(c, "extensions"))
        .is_some_and(|e| e.contains_key(TASKS_EXTENSION_ID))
}

/// The request `_meta` envelope (§D 72).
fn request_meta(env: &Envelope<'_>, issues: &mut Issues) {
    let Some(params) = env.params else {
        issues.push(
            Code::RequestMeta,
            "",
            "a 2026-07-28 request needs `params._meta` with protocolVersion and clientCapabilities",
        );
        return;
    };
    let Some(meta) = params.get("_meta") else {
        issues.push(
            Code::RequestMeta,
            "/params",
            "a 2026-07-28 request needs `params._meta` with protocolVersion and clientCapabilities",
        );
        return;
    };
    let Value::Object(m) = meta else {
        issues.push(
            Code::RequestMeta,
            "/params/_meta",
            format!("`_meta` must be an object, found {}", type_name(meta)),
        );
        return;
    };
    let mut missing = false;
    for key in [META_PROTOCOL_VERSION, META_CLIENT_CAPABILITIES] {
        if !m.contains_key(key) {
            missing = true;
            issues.push(
                Code::RequestMeta,
                "/params/_meta",
                format!("`_meta` lacks `{key}`"),
            );
        }
    }
    if let Some(Value::String(pv)) = m.get(META_PROTOCOL_VERSION) {
        if pv == "2025-11-25" {
            issues.push(
                Code::VersionMismatch,
                "/params/_meta/io.modelcontextprotocol~1protocolVersion",
                "the envelope names 2025-11-25, where the tasks extension enables nothing (§B.e)",
            );
        }
    }
    let _ = missing;
    schema::check(
        "v26/RequestMetaObject",
        meta,
        "/params/_meta",
        Code::RequestMeta,
        issues,
    );
}

fn require_extension(env: &Envelope<'_>, issues: &mut Issues) {
    if !declares_extension(env.params) {
        issues.push(
            Code::ExtensionNotDeclared,
            "/params/_meta",
            format!(
                "`{}` must declare `clientCapabilities.extensions[\"{TASKS_EXTENSION_ID}\"]` in its own `_meta`; a server answers -32021",
                env.method.unwrap_or("this request")
            ),
        );
    }
}

fn request(env: &Envelope<'_>, issues: &mut Issues) -> &'static str {
    request_meta(env, issues);
    match env.method.unwrap_or("") {
        "tasks/get" => {
            check_params_task_id(env.params, issues);
            require_extension(env, issues);
            "GetTaskRequest"
        }
        "tasks/cancel" => {
            check_params_task_id(env.params, issues);
            require_extension(env, issues);
            "CancelTaskRequest"
        }
        "tasks/update" => {
            check_params_task_id(env.params, issues);
            require_extension(env, issues);
            match env.params.and_then(|p| p.get("inputResponses")) {
                None => issues.push(
                    Code::InputResponses,
                    "/params",
                    "`tasks/update` needs `inputResponses`",
                ),
                Some(Value::Object(map)) => {
                    for (k, v) in map {
                        schema::check(
                            "ext/InputResponse",
                            v,
                            &pointer("/params/inputResponses", k),
                            Code::InputResponses,
                            issues,
                        );
                    }
                }
                Some(other) => issues.push(
                    Code::InputResponses,
                    "/params/inputResponses",
                    format!(
                        "`inputResponses` must be an object, found {}",
                        type_name(other)
                    ),
                ),
            }
            "UpdateTaskRequest"
        }
        m @ ("tasks/result" | "tasks/list") => {
            issues.push(
                Code::VersionMismatch,
                "/method",
                format!("`{m}` was removed in 2026-07-28; servers answer -32601"),
            );
            if m == "tasks/result" {
                "GetTaskPayloadRequest"
            } else {
                "ListTasksRequest"
            }
        }
        "tools/call" => {
            check_tool_call_params(env.params, issues);
            if let Some(v) = env.params.and_then(|p| p.get("inputResponses")) {
                schema::check(
                    "v26/InputResponses",
                    v,
                    "/params/inputResponses",
                    Code::InputResponses,
                    issues,
                );
            }
            if env.params.is_some_and(|p| p.contains_key("task")) {
                issues.push_with(
                    Severity::Warning,
                    Code::VersionMismatch,
                    "/params/task",
                    "`params.task` is the 2025-11-25 opt-in; under 2026-07-28 the server ignores it (§D 80)",
                );
            }
            "ToolCallRequest"
        }
        "subscriptions/listen" => {
            if let Some(n) = env.params.and_then(|p| obj(p, "notifications")) {
                if task_ids(n, "/params/notifications", issues) {
                    require_extension(env, issues);
                }
            }
            "SubscriptionsListenRequest"
        }
        _ => "Other",
    }
}

/// `notifications.taskIds` must be an array of strings (§D 74); true when present.
fn task_ids(n: &Map<String, Value>, path: &str, issues: &mut Issues) -> bool {
    let Some(ids) = n.get("taskIds") else {
        return false;
    };
    let p = pointer(path, "taskIds");
    match ids {
        Value::Array(a) => {
            for (i, id) in a.iter().enumerate() {
                if !id.is_string() {
                    issues.push(
                        Code::SubscriptionTaskIds,
                        &format!("{p}/{i}"),
                        format!("task ids must be strings, found {}", type_name(id)),
                    );
                }
            }
        }
        other => issues.push(
            Code::SubscriptionTaskIds,
            &p,
            format!(
                "`taskIds` must be an array of strings, found {}",
                type_name(other)
            ),
        ),
    }
    true
}

fn notification(env: &Envelope<'_>, issues: &mut Issues) -> &'static str {
    match env.method.unwrap_or("") {
        "notifications/tasks" => {
            match env.params {
                Some(p) => {
                    detailed_task(p, "/params", issues);
                    if p.contains_key("resultType") {
                        issues.push(
                            Code::TaskPayloadUnexpected,
                            "/params/resultType",
                            "a notification is not a result: `resultType` does not belong here",
                        );
                    }
                    meta_object(p, "/params", issues);
                }
                None => issues.push(
                    Code::TaskRequiredMember,
                    "",
                    "`notifications/tasks` carries the task in `params`",
                ),
            }
            "TaskStatusNotification"
        }
        "notifications/tasks/status" => {
            issues.push(
                Code::VersionMismatch,
                "/method",
                "`notifications/tasks/status` is the 2025-11-25 notification; 2026-07-28 uses `notifications/tasks`",
            );
            "TaskStatusNotification"
        }
        "notifications/subscriptions/acknowledged" => {
            if let Some(n) = env.params.and_then(|p| obj(p, "notifications")) {
                task_ids(n, "/params/notifications", issues);
            }
            "SubscriptionsAcknowledged"
        }
        _ => "Other",
    }
}

fn meta_object(container: &Map<String, Value>, path: &str, issues: &mut Issues) {
    super::fields::check_meta_object(container, path, Code::JsonRpcResult, issues);
}

/// The `resultType` of a result (§D 58, 61): `None` when missing or unusable.
fn result_type<'a>(r: &'a Map<String, Value>, issues: &mut Issues) -> Option<&'a str> {
    match r.get("resultType") {
        None => {
            issues.push(
                Code::ResultTypeMissing,
                "/result",
                "a 2026-07-28 result must carry `resultType`",
            );
            None
        }
        Some(Value::String(s)) => match s.as_str() {
            "complete" | "input_required" | "task" => Some(s.as_str()),
            other => {
                issues.push(
                    Code::ResultTypeUnknown,
                    "/result/resultType",
                    format!("`resultType` \"{other}\" is not complete, input_required or task"),
                );
                None
            }
        },
        Some(other) => {
            issues.push(
                Code::ResultTypeUnknown,
                "/result/resultType",
                format!("`resultType` must be a string, found {}", type_name(other)),
            );
            None
        }
    }
}

fn require_complete(rt: Option<&str>, method: &str, issues: &mut Issues) {
    match rt {
        Some("task") => issues.push(
            Code::ResultTypeTask,
            "/result/resultType",
            format!("`resultType: \"task\"` only belongs to a CreateTaskResult; a `{method}` answer has \"complete\""),
        ),
        Some("input_required") => issues.push(
            Code::ResultTypeComplete,
            "/result/resultType",
            format!("a `{method}` answer has `resultType: \"complete\"`"),
        ),
        _ => {}
    }
}

fn result(env: &Envelope<'_>, ctx: &Context, issues: &mut Issues) -> &'static str {
    let Some(r) = env.result else { return "Other" };
    let rt = result_type(r, issues);
    meta_object(r, "/result", issues);
    match ctx.in_reply_to.as_deref() {
        Some("tools/call") => match rt {
            Some("task") => create_task(r, issues),
            Some("input_required") => input_required_result(r, issues),
            _ => {
                if r.contains_key("taskId") && r.contains_key("status") {
                    issues.push(
                        Code::ResultTypeTask,
                        "/result",
                        "this answer is a task: a CreateTaskResult must have `resultType: \"task\"`",
                    );
                }
                if r.get("task").is_some_and(Value::is_object) {
                    issues.push(
                        Code::LegacyMember,
                        "/result/task",
                        "the nested `task` wrapper is the 2025-11-25 CreateTaskResult; 2026-07-28 is flat with `resultType: \"task\"`",
                    );
                } else if rt.is_some() {
                    if let Some(result) = env.message.get("result") {
                        schema::check(
                            "v26/CallToolResult",
                            result,
                            "/result",
                            Code::CallToolResult,
                            issues,
                        );
                    }
                }
                "CallToolResult"
            }
        },
        Some("tasks/get") => {
            require_complete(rt, "tasks/get", issues);
            detailed_task(r, "/result", issues);
            "GetTaskResult"
        }
        Some(m @ ("tasks/update" | "tasks/cancel")) => {
            require_complete(rt, m, issues);
            ack(r, m, issues);
            if m == "tasks/update" {
                "UpdateTaskResult"
            } else {
                "CancelTaskResult"
            }
        }
        Some("server/discover") => {
            discover(r, issues);
            "DiscoverResult"
        }
        Some(m) => {
            if rt == Some("task") {
                issues.push(
                    Code::CreateTaskMethod,
                    "/result/resultType",
                    format!("a CreateTaskResult only answers `tools/call`, not `{m}`: a client must treat it as invalid"),
                );
                "CreateTaskResult"
            } else if rt == Some("input_required") {
                input_required_result(r, issues)
            } else {
                "Other"
            }
        }
        None => {
            if rt == Some("task") {
                create_task(r, issues)
            } else if r.contains_key("taskId") || r.contains_key("status") {
                require_complete(rt, "tasks/get", issues);
                detailed_task(r, "/result", issues);
                "GetTaskResult"
            } else if r.get("task").is_some_and(Value::is_object) {
                issues.push(
                    Code::LegacyMember,
                    "/result/task",
                    "the nested `task` wrapper is the 2025-11-25 CreateTaskResult; 2026-07-28 is flat with `resultType: \"task\"`",
                );
                "CreateTaskResult"
            } else if rt == Some("input_required") {
                input_required_result(r, issues)
            } else if r.contains_key("capabilities") {
                discover(r, issues);
                "DiscoverResult"
            } else if r.keys().all(|k| k == "resultType" || k == "_meta") {
                "EmptyResult"
            } else {
                "Other"
            }
        }
    }
}

/// `CreateTaskResult`: flat task, `resultType: "task"`, no payload (§D 59, 63–66, 68).
fn create_task(r: &Map<String, Value>, issues: &mut Issues) -> &'static str {
    if r.get("task").is_some_and(Value::is_object) && !r.contains_key("taskId") {
        issues.push(
            Code::LegacyMember,
            "/result/task",
            "the nested `task` wrapper is the 2025-11-25 shape; a 2026-07-28 CreateTaskResult is flat",
        );
        return "CreateTaskResult";
    }
    check_task_members(r, "/result", V, issues);
    for key in ["result", "error", "inputRequests", "requestState"] {
        if r.contains_key(key) {
            issues.push(
                Code::TaskPayloadForbidden,
                &pointer("/result", key),
                format!(
                    "a CreateTaskResult carries no `{key}`: the payload is read with `tasks/get`"
                ),
            );
        }
    }
    if r.contains_key("task") {
        issues.push(
            Code::LegacyMember,
            "/result/task",
            "no nested `task` wrapper on a 2026-07-28 CreateTaskResult",
        );
    }
    "CreateTaskResult"
}

/// The MRTR `InputRequiredResult` answering `tools/call` before a task exists.
fn input_required_result(r: &Map<String, Value>, issues: &mut Issues) -> &'static str {
    let has_requests = r.contains_key("inputRequests");
    let has_state = r.contains_key("requestState");
    if !has_requests && !has_state {
        issues.push(
            Code::InputRequests,
            "/result",
            "an InputRequiredResult carries `inputRequests`, `requestState`, or both",
        );
    }
    if let Some(v) = r.get("inputRequests") {
        input_requests(v, "/result/inputRequests", issues);
    }
    if let Some(v) = r.get("requestState") {
        if !v.is_string() {
            issues.push(
                Code::InputRequests,
                "/result/requestState",
                format!("`requestState` must be a string, found {}", type_name(v)),
            );
        }
    }
    "InputRequiredResult"
}

/// `inputRequests`: an object of bare requests (§D 70).
fn input_requests(v: &Value, path: &str, issues: &mut Issues) {
    match v {
        Value::Object(map) => {
            for (k, req) in map {
                schema::check(
                    "ext/InputRequest",
                    req,
                    &pointer(path, k),
                    Code::InputRequests,
                    issues,
                );
            }
        }
        other => issues.push(
            Code::TaskPayload,
            path,
            format!(
                "`inputRequests` must be an object, found {}",
                type_name(other)
            ),
        ),
    }
}

/// A `DetailedTask` (tasks/get answer, notifications/tasks params): members and the payload of
/// its status (§D 63–69).
fn detailed_task(t: &Map<String, Value>, path: &str, issues: &mut Issues) {
    let summary = check_task_members(t, path, V, issues);
    if t.contains_key("requestState") {
        issues.push(
            Code::TaskPayloadForbidden,
            &pointer(path, "requestState"),
            "`requestState` belongs to MRTR rounds before a task exists, never to a task",
        );
    }
    if t.get("task").is_some_and(Value::is_object) {
        issues.push(
            Code::LegacyMember,
            &pointer(path, "task"),
            "no nested `task` wrapper on 2026-07-28 tasks",
        );
    }
    let Some(status) = summary.status else { return };
    let expected: &[&str] = match status {
        TaskStatus::InputRequired => &["inputRequests"],
        TaskStatus::Completed => &["result"],
        TaskStatus::Failed => &["error"],
        TaskStatus::Working | TaskStatus::Cancelled => &[],
    };
    match status {
        TaskStatus::InputRequired => match t.get("inputRequests") {
            None => issues.push(
                Code::TaskPayload,
                path,
                "an input_required task lists every outstanding request in `inputRequests`",
            ),
            Some(v) => input_requests(v, &pointer(path, "inputRequests"), issues),
        },
        TaskStatus::Completed => match t.get("result") {
            None => issues.push(
                Code::TaskPayload,
                path,
                "a completed task carries the final result in `result`",
            ),
            Some(Value::Object(res)) => {
                if let Some(inner) = res.get("resultType") {
                    if inner.as_str() != Some("complete") {
                        issues.push(
                            Code::InnerResultType,
                            &pointer(&pointer(path, "result"), "resultType"),
                            format!("the inlined result should have no `resultType` or \"complete\", found {inner}"),
                        );
                    }
                }
            }
            Some(other) => issues.push(
                Code::TaskPayload,
                &pointer(path, "result"),
                format!("`result` must be an object, found {}", type_name(other)),
            ),
        },
        TaskStatus::Failed => {
            match t.get("error") {
                None => {
                    let tool_result = t
                        .get("result")
                        .and_then(Value::as_object)
                        .is_some_and(|r| r.contains_key("isError") || r.contains_key("content"));
                    if tool_result {
                        issues.push(
                            Code::FailedNotRpcError,
                            path,
                            "a failed task carries a JSON-RPC `error`; a tool result (even with isError) makes the task completed",
                        );
                    } else {
                        issues.push(
                            Code::TaskPayload,
                            path,
                            "a failed task carries the JSON-RPC error in `error`",
                        );
                    }
                }
                Some(e) => rpc_error_object(e, &pointer(path, "error"), issues),
            }
            if t.contains_key("result") {
                issues.push(
                    Code::TaskPayloadForbidden,
                    &pointer(path, "result"),
                    "a failed task carries no `result`",
                );
            }
        }
        TaskStatus::Working | TaskStatus::Cancelled => {}
    }
    for key in ["inputRequests", "result", "error"] {
        if expected.contains(&key) || (status == TaskStatus::Failed && key == "result") {
            continue;
        }
        if t.contains_key(key) {
            issues.push(
                Code::TaskPayloadUnexpected,
                &pointer(path, key),
                format!("`{key}` does not belong to a {} task", status.as_str()),
            );
        }
    }
}

/// A JSON-RPC error object `{code: integer, message: string, data?}`.
fn rpc_error_object(e: &Value, path: &str, issues: &mut Issues) {
    let Value::Object(o) = e else {
        issues.push(
            Code::TaskPayload,
            path,
            format!(
                "`error` must be a JSON-RPC error object, found {}",
                type_name(e)
            ),
        );
        return;
    };
    if !o.get("code").is_some_and(is_integer) {
        issues.push(
            Code::TaskPayload,
            &pointer(path, "code"),
            "`error.code` must be an integer",
        );
    }
    if !o.get("message").is_some_and(Value::is_string) {
        issues.push(
            Code::TaskPayload,
            &pointer(path, "message"),
            "`error.message` must be a string",
        );
    }
}

/// `tasks/update` and `tasks/cancel` acks carry no task members (§D 68).
fn ack(r: &Map<String, Value>, method: &str, issues: &mut Issues) {
    for key in ["taskId", "status", "result", "error", "inputRequests"] {
        if r.contains_key(key) {
            issues.push(
                Code::TaskPayloadForbidden,
                &pointer("/result", key),
                format!("the `{method}` answer is an empty acknowledgement: no `{key}`"),
            );
        }
    }
}

/// `server/discover`: no legacy `capabilities.tasks`; the extension's settings are `{}` (§D 75).
fn discover(r: &Map<String, Value>, issues: &mut Issues) {
    let Some(caps) = obj(r, "capabilities") else {
        return;
    };
    if caps.contains_key("tasks") {
        issues.push(
            Code::LegacyCapability,
            "/result/capabilities/tasks",
            "a 2026-07-28 server advertises the tasks extension, never the legacy `capabilities.tasks`",
        );
    }
    if let Some(ext) = obj(caps, "extensions").and_then(|e| e.get(TASKS_EXTENSION_ID)) {
        let ok = ext.as_object().is_some_and(Map::is_empty);
        if !ok {
            issues.push(
                Code::LegacyCapability,
                &pointer("/result/capabilities/extensions", TASKS_EXTENSION_ID),
                format!("the tasks extension has no settings: its value is `{{}}`, found {ext}"),
            );
        }
    }
    schema::check(
        "v26/ServerCapabilities",
        &Value::Object(caps.clone()),
        "/result/capabilities",
        Code::LegacyCapability,
        issues,
    );
}

fn error(env: &Envelope<'_>, ctx: &Context, issues: &mut Issues) -> &'static str {
    let Some(e) = env.error else { return "Error" };
    let code = e.get("code").and_then(Value::as_i64);
    let answers_tasks = ctx
        .in_reply_to
        .as_deref()
        .is_some_and(|m| m.starts_with("tasks/") || m == "tools/call");
    match code {
        Some(MISSING_CAPABILITY_CODE) => {
            missing_capability(e, answers_tasks, issues);
            return "MissingCapabilityError";
        }
        Some(c @ (-32003 | -32001 | -32004 | -32002 | -32042)) => issues.push(
            Code::RetiredErrorCode,
            "/error/code",
            format!(
                "{c} is a pre-release or 2025-era code; 2026-07-28 uses -32021, -32020, -32022"
            ),
        ),
        _ => {}
    }
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

/// -32021 carries `data.requiredCapabilities` (§D 73).
fn missing_capability(e: &Map<String, Value>, answers_tasks: bool, issues: &mut Issues) {
    let Some(data) = e.get("data") else {
        issues.push(
            Code::MissingCapabilityData,
            "/error",
            "a -32021 error carries `data.requiredCapabilities`",
        );
        return;
    };
    let Some(req) = data.as_object().and_then(|d| d.get("requiredCapabilities")) else {
        issues.push(
            Code::MissingCapabilityData,
            "/error/data",
            "`data.requiredCapabilities` is missing",
        );
        return;
    };
    schema::check(
        "v26/ClientCapabilities",
        req,
        "/error/data/requiredCapabilities",
        Code::MissingCapabilityData,
        issues,
    );
    let names_tasks = req
        .as_object()
        .and_then(|r| obj(r, "extensions"))
        .is_some_and(|x| x.contains_key(TASKS_EXTENSION_ID));
    if answers_tasks && !names_tasks {
        issues.push(
            Code::MissingCapabilityData,
            "/error/data/requiredCapabilities",
            format!("for tasks, `requiredCapabilities.extensions` names \"{TASKS_EXTENSION_ID}\""),
        );
    }
}

/// HTTP routing headers (§D 76, §B.f): `Mcp-Method` = method, `Mcp-Name` = `params.taskId`
/// (tasks) or the named target (SEP-2243), `MCP-Protocol-Version` = the version `_meta` names.
fn headers(env: &Envelope<'_>, h: &Map<String, Value>, issues: &mut Issues) {
    let get = |name: &str| -> Option<String> {
        h.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .and_then(|(_, v)| v.as_str())
            .map(decode_sentinel)
    };
    let method = env.method.unwrap_or("");
    match get("mcp-method") {
        Some(m) if m == method => {}
        Some(m) => issues.push(
            Code::HeaderMismatch,
            "/method",
            format!("header Mcp-Method is \"{m}\" but the body's method is \"{method}\""),
        ),
        None => issues.push(
            Code::HeaderMissing,
            "/method",
            "header Mcp-Method is missing: the requestor left it out (a server answers -32020 unless it opted in to serve such requests, §D 97)",
        ),
    }
    if matches!(method, "tasks/get" | "tasks/update" | "tasks/cancel") {
        let task_id = env.params.and_then(|p| str_of(p, "taskId"));
        match (get("mcp-name"), task_id) {
            (Some(n), Some(id)) if n == id => {}
            (Some(n), Some(id)) => issues.push(
                Code::HeaderMismatch,
                "/params/taskId",
                format!("header Mcp-Name is \"{n}\" but `params.taskId` is \"{id}\""),
            ),
            (None, _) => issues.push(
                Code::HeaderMissing,
                "/params/taskId",
                "header Mcp-Name (the task id) is missing: the requestor left it out (§D 111; a server answers -32020 unless it opted in to serve such requests, §D 97)",
            ),
            (Some(_), None) => {}
        }
    }
    // SEP-2243: where a standard Mcp-Name is sent for a named request, it must name the body's
    // target (`params.name`, or `params.uri` for resources/read).
    let target = match method {
        "tools/call" | "prompts/get" => Some(("name", "/params/name")),
        "resources/read" => Some(("uri", "/params/uri")),
        _ => None,
    };
    if let (Some((member, path)), Some(n)) = (target, get("mcp-name")) {
        if let Some(v) = env.params.and_then(|p| str_of(p, member)) {
            if n != v {
                issues.push(
                    Code::HeaderMismatch,
                    path,
                    format!("header Mcp-Name is \"{n}\" but `params.{member}` is \"{v}\""),
                );
            }
        }
    }
    // §B.f: MCP-Protocol-Version must be sent and equal the version the request's `_meta` names.
    let named = env
        .params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(META_PROTOCOL_VERSION))
        .and_then(Value::as_str);
    if let Some(named) = named {
        match get("mcp-protocol-version") {
            Some(v) if v == named => {}
            Some(v) => issues.push(
                Code::HeaderMismatch,
                "/params/_meta",
                format!("header MCP-Protocol-Version is \"{v}\" but `_meta` names \"{named}\""),
            ),
            None => issues.push(
                Code::HeaderMissing,
                "/params/_meta",
                "header MCP-Protocol-Version is missing",
            ),
        }
    }
}

/// Decodes the `=?base64?…?=` sentinel of header values that are not header-safe.
fn decode_sentinel(v: &str) -> String {
    let Some(inner) = v
        .strip_prefix("=?base64?")
        .and_then(|r| r.strip_suffix("?="))
    else {
        return v.to_string();
    };
    base64_decode(inner)
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_else(|| v.to_string())
}

fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0u32;
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xff) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentinel_decodes() {
        assert_eq!(decode_sentinel("=?base64?dGFzay0x?="), "task-1");
        assert_eq!(decode_sentinel("plain"), "plain");
    }
}
