//! JSON-RPC 2.0 classification of a message (request, notification, result, error).

use serde_json::{Map, Value};

use super::report::{Issues, RpcKind};
use super::rules::Code;

/// The parts of a JSON-RPC message the checks need.
#[derive(Debug, Clone, Copy)]
pub struct Envelope<'a> {
    pub rpc: RpcKind,
    pub message: &'a Map<String, Value>,
    pub method: Option<&'a str>,
    /// `params` when it is an object.
    pub params: Option<&'a Map<String, Value>>,
    /// `result` when it is an object.
    pub result: Option<&'a Map<String, Value>>,
    /// `error` when it is an object.
    pub error: Option<&'a Map<String, Value>>,
}

/// A JSON integer as JSON Schema counts it: `5` and `5.0` alike (one definition for the
/// validator, the handler and the bindings).
pub fn is_integer(v: &Value) -> bool {
    match v {
        Value::Number(n) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

fn check_id(id: Option<&Value>, required: bool, issues: &mut Issues) {
    match id {
        None if required => issues.push(Code::JsonRpcId, "", "the message has no `id`"),
        None => {}
        Some(Value::String(_)) => {}
        Some(v) if is_integer(v) => {}
        Some(Value::Null) if !required => {}
        Some(_) => issues.push(
            Code::JsonRpcId,
            "/id",
            "`id` must be a string or an integer",
        ),
    }
}

/// Classifies `message`; `None` when it is not an object (an issue says so).
pub fn classify<'a>(message: &'a Value, issues: &mut Issues) -> Option<Envelope<'a>> {
    let obj = match message {
        Value::Object(o) => o,
        Value::Array(_) => {
            issues.push(
                Code::NotObject,
                "",
                "a message must be a JSON object; JSON-RPC batches (arrays) are not part of MCP",
            );
            return None;
        }
        other => {
            issues.push(
                Code::NotObject,
                "",
                format!(
                    "a message must be a JSON object, found {}",
                    type_name(other)
                ),
            );
            return None;
        }
    };
    match obj.get("jsonrpc") {
        Some(Value::String(s)) if s == "2.0" => {}
        None => issues.push(
            Code::JsonRpcVersion,
            "",
            "the message has no `jsonrpc` member",
        ),
        Some(_) => issues.push(
            Code::JsonRpcVersion,
            "/jsonrpc",
            "`jsonrpc` must be \"2.0\"",
        ),
    }
    let has_result = obj.contains_key("result");
    let has_error = obj.contains_key("error");
    let mut env = Envelope {
        rpc: RpcKind::Invalid,
        message: obj,
        method: None,
        params: None,
        result: None,
        error: None,
    };
    if let Some(m) = obj.get("method") {
        match m {
            Value::String(s) => env.method = Some(s.as_str()),
            _ => issues.push(Code::JsonRpcMethod, "/method", "`method` must be a string"),
        }
        if has_result || has_error {
            issues.push(
                Code::JsonRpcShape,
                "",
                "a message with `method` must not also carry `result` or `error`",
            );
        }
        match obj.get("params") {
            None => {}
            Some(Value::Object(p)) => env.params = Some(p),
            Some(_) => issues.push(Code::JsonRpcParams, "/params", "`params` must be an object"),
        }
        if obj.contains_key("id") {
            check_id(obj.get("id"), true, issues);
            env.rpc = RpcKind::Request;
        } else {
            env.rpc = RpcKind::Notification;
            // MCP names every notification `notifications/…`: anything else is a request that
            // lost its id.
            if let Some(m) = env.method {
                if !m.starts_with("notifications/") {
                    issues.push(
                        Code::JsonRpcId,
                        "",
                        format!("`{m}` is a request: it needs an `id` (only notifications/… go without)"),
                    );
                }
            }
        }
        return Some(env);
    }
    match (has_result, has_error) {
        (true, true) => {
            issues.push(
                Code::JsonRpcShape,
                "",
                "a response carries either `result` or `error`, not both",
            );
            Some(env)
        }
        (true, false) => {
            env.rpc = RpcKind::Result;
            check_id(obj.get("id"), true, issues);
            match obj.get("result") {
                Some(Value::Object(r)) => env.result = Some(r),
                _ => issues.push(Code::JsonRpcResult, "/result", "`result` must be an object"),
            }
            Some(env)
        }
        (false, true) => {
            env.rpc = RpcKind::Error;
            check_id(obj.get("id"), false, issues);
            match obj.get("error") {
                Some(Value::Object(e)) => {
                    match e.get("code") {
                        None => issues.push(Code::JsonRpcError, "/error", "`error` has no `code`"),
                        Some(c) if !is_integer(c) => issues.push(
                            Code::JsonRpcError,
                            "/error/code",
                            format!("`error.code` must be an integer, found {}", type_name(c)),
                        ),
                        Some(_) => {}
                    }
                    match e.get("message") {
                        None => {
                            issues.push(Code::JsonRpcError, "/error", "`error` has no `message`")
                        }
                        Some(Value::String(_)) => {}
                        Some(m) => issues.push(
                            Code::JsonRpcError,
                            "/error/message",
                            format!("`error.message` must be a string, found {}", type_name(m)),
                        ),
                    }
                    env.error = Some(e);
                }
                _ => issues.push(Code::JsonRpcError, "/error", "`error` must be an object"),
            }
            Some(env)
        }
        (false, false) => {
            issues.push(
                Code::JsonRpcShape,
                "",
                "not a request, notification or response: no `method`, `result` or `error`",
            );
            Some(env)
        }
    }
}

/// The JSON type name of a value, for messages.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}
