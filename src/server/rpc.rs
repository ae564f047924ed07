//! JSON-RPC plumbing: reading a request's envelope, building responses, and every error object
//! the handler answers with (codes per §A.f and §B.f).

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::model::common::{JsonObject, JsonRpcError, MISSING_CAPABILITY_CODE, TASKS_EXTENSION_ID};
use crate::model::ProtocolVersion;
use crate::store::StoreError;

/// JSON-RPC "Invalid Request".
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC "Method not found".
pub const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC "Invalid params".
pub const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC "Internal error".
pub const INTERNAL_ERROR: i64 = -32603;

/// The envelope of a request the handler answers.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The `id` to echo: a string or an integer.
    pub id: &'a Value,
    pub method: &'a str,
    /// `params`, when present (it may be anything: the handlers check it).
    pub params: Option<&'a Value>,
}

impl<'a> Request<'a> {
    /// `params` as an object (absent or not an object: `None`).
    pub fn params_object(&self) -> Option<&'a JsonObject> {
        self.params.and_then(Value::as_object)
    }
}

/// How a message reads as a request.
#[derive(Debug, Clone, Copy)]
pub enum Envelope<'a> {
    /// A well-formed request.
    Request(Request<'a>),
    /// A message with a string `method` and no `id`: a notification, never answered.
    Notification { method: &'a str },
    /// A message with a string `method` but a broken envelope: answered with -32600 and the id
    /// when it is usable (else `null`).
    Invalid {
        method: &'a str,
        id: Option<&'a Value>,
        reason: &'static str,
    },
    /// Not a request at all (not an object, no string `method`: a response, garbage).
    NotARequest,
}

/// A JSON-RPC id: a string or an integer (MCP forbids `null`).
pub fn is_valid_id(id: &Value) -> bool {
    id.is_string() || crate::validate::envelope::is_integer(id)
}

/// Reads `message` as a request.
pub fn envelope(message: &Value) -> Envelope<'_> {
    let Some(obj) = message.as_object() else {
        return Envelope::NotARequest;
    };
    let Some(method) = obj.get("method").and_then(Value::as_str) else {
        return Envelope::NotARequest;
    };
    let Some(id) = obj.get("id") else {
        return Envelope::Notification { method };
    };
    let usable_id = is_valid_id(id).then_some(id);
    let invalid = |reason| Envelope::Invalid {
        method,
        id: usable_id,
        reason,
    };
    if usable_id.is_none() {
        return invalid("Invalid Request: `id` must be a string or an integer");
    }
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid("Invalid Request: `jsonrpc` must be \"2.0\"");
    }
    if obj.contains_key("result") || obj.contains_key("error") {
        return invalid("Invalid Request: a request carries no `result` or `error`");
    }
    Envelope::Request(Request {
        id,
        method,
        params: obj.get("params"),
    })
}

/// `{jsonrpc, id, result}`.
pub fn success(id: &Value, result: JsonObject) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

/// `{jsonrpc, id, error}` (`id` `null` when the request's id was unusable).
pub fn failure(id: Option<&Value>, error: &JsonRpcError) -> Value {
    json!({ "jsonrpc": "2.0", "id": id.unwrap_or(&Value::Null), "error": error })
}

/// The response to a request larger than the host's `maxRequestBytes` (`limit`), refused before
/// it was read: -32600 "Invalid Request", id `null` (the id of a request not read is unknown).
pub fn too_large_request(limit: u64) -> Value {
    let mut error = crate::store::StoreError::TooLarge {
        argument: "request".to_string(),
        option: "maxRequestBytes",
        limit,
    }
    .to_jsonrpc();
    error.code = INVALID_REQUEST;
    error.message = format!("Invalid Request: {}", error.message);
    failure(None, &error)
}

/// A serializable value as a JSON object (task shapes always are; anything else is an internal
/// error rather than a panic).
pub fn to_object<T: Serialize>(value: &T) -> Result<JsonObject, JsonRpcError> {
    match serde_json::to_value(value) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(_) | Err(_) => Err(error(
            INTERNAL_ERROR,
            "Internal error: a task shape did not serialize to an object",
        )),
    }
}

/// An error object without `data`.
pub fn error(code: i64, message: impl Into<String>) -> JsonRpcError {
    JsonRpcError {
        code,
        message: message.into(),
        data: None,
    }
}

/// -32601 for a method this version does not have (V26: `tasks/result`, `tasks/list`, §D 81;
/// V25: `tasks/update`; either: an unknown `tasks/*` method) or did not declare (V25
/// `tasks/list` / `tasks/cancel` without `capabilities.tasks.list|cancel`).
pub fn method_not_found(method: &str, version: ProtocolVersion, declared: bool) -> JsonRpcError {
    let why = match (method, version) {
        ("tasks/result" | "tasks/list", ProtocolVersion::V2026) => {
            " (removed in 2026-07-28: task results are inlined in tasks/get)"
        }
        ("tasks/update", ProtocolVersion::V2025) => " (not part of 2025-11-25)",
        _ if !declared => " (not declared in capabilities.tasks)",
        _ => "",
    };
    error(METHOD_NOT_FOUND, format!("Method not found: {method}{why}"))
}

/// The `data` of a -32021 naming the tasks extension (§D 73).
pub fn missing_extension_data() -> Value {
    json!({ "requiredCapabilities": { "extensions": { TASKS_EXTENSION_ID: {} } } })
}

/// -32021: the request needed the tasks extension in its own `_meta` clientCapabilities
/// (§D 78, 79).
pub fn missing_extension(method: &str) -> JsonRpcError {
    JsonRpcError {
        code: MISSING_CAPABILITY_CODE,
        message: format!(
            "Missing required client capability: `{method}` needs the extension {TASKS_EXTENSION_ID} declared in this request's _meta clientCapabilities"
        ),
        data: Some(missing_extension_data()),
    }
}

/// -32602 for a request whose params lack a string `taskId` (§D 8, 71).
pub fn invalid_task_id() -> JsonRpcError {
    error(
        INVALID_PARAMS,
        "Invalid params: `params.taskId` must be a string",
    )
}

/// What a failed request was doing, for the error message ("Failed to retrieve task: …").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Get,
    GetResult,
    Update,
    Cancel,
    List,
}

impl Action {
    fn prefix(self) -> &'static str {
        match self {
            Action::Get => "Failed to retrieve task",
            Action::GetResult => "Failed to retrieve task result",
            Action::Update => "Failed to update task",
            Action::Cancel => "Failed to cancel task",
            Action::List => "Failed to list tasks",
        }
    }
}

/// The error a store failure answers with: the store's code (§A.f, §B.f), a message in the words
/// of the spec examples.
pub fn store_error(e: &StoreError, action: Action) -> JsonRpcError {
    match e {
        StoreError::NotFound => error(
            INVALID_PARAMS,
            format!("{}: Task not found", action.prefix()),
        ),
        StoreError::InvalidCursor => error(
            INVALID_PARAMS,
            format!("{}: Invalid cursor", action.prefix()),
        ),
        StoreError::AlreadyTerminal { status } => error(
            INVALID_PARAMS,
            format!(
                "Cannot cancel task: already in terminal status '{}'",
                status.as_str()
            ),
        ),
        other => {
            let mut err = other.to_jsonrpc();
            err.message = format!("{}: {}", action.prefix(), err.message);
            err
        }
    }
}

/// The V25 `tasks/result` answer for a task that was cancelled: it never produced a result
/// (§E 16 reading: -32602 with a clear message).
pub fn cancelled_has_no_result(task_id: &str) -> JsonRpcError {
    error(
        INVALID_PARAMS,
        format!("Failed to retrieve task result: task {task_id} was cancelled and has no result"),
    )
}

/// `{ "resultType": t }` followed by the members of `rest`.
pub fn with_result_type(result_type: &str, rest: JsonObject) -> JsonObject {
    let mut out = Map::with_capacity(rest.len() + 1);
    out.insert("resultType".into(), Value::String(result_type.into()));
    for (k, v) in rest {
        if k != "resultType" {
            out.insert(k, v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use super::*;
    use crate::model::TaskStatus;

    #[test]
    #[allow(clippy::indexing_slicing)]
    fn a_request_too_large_is_an_invalid_request_without_id() {
        let response = too_large_request(10);
        assert_eq!(response["id"], Value::Null);
        assert_eq!(response["error"]["code"], json!(INVALID_REQUEST));
        let message = response["error"]["message"].as_str().unwrap();
        assert!(message.starts_with("Invalid Request: "), "{message}");
        assert!(message.contains("maxRequestBytes"), "{message}");
    }

    #[test]
    fn envelopes() {
        assert!(matches!(envelope(&json!([])), Envelope::NotARequest));
        assert!(matches!(
            envelope(&json!({"id": 1, "result": {}})),
            Envelope::NotARequest
        ));
        assert!(matches!(
            envelope(&json!({"jsonrpc": "2.0", "method": "tasks/get"})),
            Envelope::Notification {
                method: "tasks/get"
            }
        ));
        assert!(matches!(
            envelope(&json!({"jsonrpc": "2.0", "id": null, "method": "m"})),
            Envelope::Invalid { id: None, .. }
        ));
        assert!(matches!(
            envelope(&json!({"id": 2, "method": "m"})),
            Envelope::Invalid { id: Some(_), .. }
        ));
        assert!(matches!(
            envelope(&json!({"jsonrpc": "2.0", "id": 2, "method": "m", "result": {}})),
            Envelope::Invalid { .. }
        ));
        let msg = json!({"jsonrpc": "2.0", "id": "a", "method": "m"});
        let Envelope::Request(r) = envelope(&msg) else {
            panic!()
        };
        assert_eq!((r.id, r.method, r.params), (&json!("a"), "m", None));
        for (id, ok) in [
            (json!(1), true),
            (json!(-1), true),
            (json!(1.0), true),
            (json!(1.5), false),
            (json!("x"), true),
            (json!(null), false),
            (json!(true), false),
        ] {
            assert_eq!(is_valid_id(&id), ok, "{id}");
        }
    }

    #[test]
    fn error_objects() {
        assert_eq!(
            store_error(&StoreError::NotFound, Action::Get).message,
            "Failed to retrieve task: Task not found"
        );
        let e = store_error(
            &StoreError::AlreadyTerminal {
                status: TaskStatus::Failed,
            },
            Action::Cancel,
        );
        assert_eq!(
            (e.code, e.message.as_str()),
            (
                -32602,
                "Cannot cancel task: already in terminal status 'failed'"
            )
        );
        let e = store_error(&StoreError::Conflict, Action::Update);
        assert_eq!(e.code, -32603);
        assert!(e.message.starts_with("Failed to update task: "));
        let e = missing_extension("tasks/get");
        assert_eq!(e.code, -32021);
        assert_eq!(e.data, Some(missing_extension_data()));
        assert_eq!(
            method_not_found("tasks/x", ProtocolVersion::V2025, true).message,
            "Method not found: tasks/x"
        );
    }

    #[test]
    fn result_type_comes_first_and_replaces() {
        let mut rest = Map::new();
        rest.insert("resultType".into(), json!("task"));
        rest.insert("a".into(), json!(1));
        let out = with_result_type("complete", rest);
        assert_eq!(
            Value::Object(out),
            json!({"resultType": "complete", "a": 1})
        );
    }
}
