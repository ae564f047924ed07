//! What a message's own shape says about the protocol version, and small JSON helpers.
//!
//! Only definite signals count: `_meta["io.modelcontextprotocol/protocolVersion"]`, the
//! `protocolVersion` of `initialize`, methods that exist in one version only, `resultType`, the
//! nested V25 `task` wrapper and the TTL / poll-interval member names of task objects. A message
//! without such a signal (an error, a plain `CallToolResult`, …) says nothing.

use serde_json::{Map, Value};

use crate::model::common::META_PROTOCOL_VERSION;
use crate::model::ProtocolVersion;
use crate::validate::report::pointer;

/// A version signal and the JSON Pointer of the member that gave it.
pub(crate) type Signal = (ProtocolVersion, String);

/// The JSON-RPC role of a message, as far as the conversation needs it.
pub(crate) enum Rpc<'a> {
    /// A request; `id` is `None` when it is not a string or a number.
    Request {
        id: Option<IdKey>,
        method: &'a str,
    },
    Notification {
        method: &'a str,
    },
    /// A response; `id` is `None` for `null` (or any id that cannot be matched).
    Response {
        id: Option<IdKey>,
        id_is_null: bool,
    },
    Other,
}

/// A JSON-RPC id as a map key: string and number ids are distinct (`"1"` ≠ `1`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum IdKey {
    Str(String),
    Num(String),
}

impl IdKey {
    pub(crate) fn of(v: &Value) -> Option<IdKey> {
        match v {
            Value::String(s) => Some(IdKey::Str(s.clone())),
            Value::Number(n) => Some(IdKey::Num(n.to_string())),
            _ => None,
        }
    }
}

pub(crate) fn classify(message: &Value) -> Rpc<'_> {
    let Some(m) = message.as_object() else {
        return Rpc::Other;
    };
    if let Some(method) = m.get("method").and_then(Value::as_str) {
        return match m.get("id") {
            Some(id) => Rpc::Request {
                id: IdKey::of(id),
                method,
            },
            None => Rpc::Notification { method },
        };
    }
    if m.contains_key("result") || m.contains_key("error") {
        let id = m.get("id");
        return Rpc::Response {
            id: id.and_then(IdKey::of),
            id_is_null: matches!(id, None | Some(Value::Null)),
        };
    }
    Rpc::Other
}

pub(crate) fn obj<'a>(v: &'a Value, key: &str) -> Option<&'a Map<String, Value>> {
    v.get(key).and_then(Value::as_object)
}

pub(crate) fn obj_of<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a Map<String, Value>> {
    m.get(key).and_then(Value::as_object)
}

pub(crate) fn str_of<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    m.get(key).and_then(Value::as_str)
}

/// `params._meta["io.modelcontextprotocol/clientCapabilities"].extensions` names the tasks
/// extension (§B.e; rule 77).
pub(crate) fn declares_extension(message: &Value) -> bool {
    crate::validate::v2026::declares_extension(message.get("params").and_then(Value::as_object))
}

/// Methods that exist in one version only.
fn method_version(method: &str) -> Option<ProtocolVersion> {
    match method {
        "tasks/result" | "tasks/list" | "notifications/tasks/status" => {
            Some(ProtocolVersion::V2025)
        }
        "tasks/update" | "notifications/tasks" | "server/discover" | "subscriptions/listen" => {
            Some(ProtocolVersion::V2026)
        }
        _ => None,
    }
}

/// The member names of a task object: `ttl`/`pollInterval` (V25) or `ttlMs`/`pollIntervalMs`
/// (V26). Only objects that carry a `taskId` count.
fn task_members(task: &Map<String, Value>, base: &str) -> Option<Signal> {
    if !task.contains_key("taskId") {
        return None;
    }
    for (key, v) in [
        ("ttlMs", ProtocolVersion::V2026),
        ("pollIntervalMs", ProtocolVersion::V2026),
        ("ttl", ProtocolVersion::V2025),
        ("pollInterval", ProtocolVersion::V2025),
    ] {
        if task.contains_key(key) {
            return Some((v, pointer(base, key)));
        }
    }
    None
}

/// The version the message's own shape shows, if any. `answers` is the method of the request a
/// response answers, when known.
pub(crate) fn signal(message: &Value, answers: Option<&str>) -> Option<Signal> {
    let m = message.as_object()?;
    if let Some(method) = m.get("method").and_then(Value::as_str) {
        let params = m.get("params").and_then(Value::as_object);
        if let Some(pv) = params
            .and_then(|p| p.get("_meta"))
            .and_then(Value::as_object)
            .and_then(|meta| meta.get(META_PROTOCOL_VERSION))
            .and_then(Value::as_str)
            .and_then(ProtocolVersion::parse)
        {
            return Some((
                pv,
                pointer(&pointer("/params", "_meta"), META_PROTOCOL_VERSION),
            ));
        }
        if method == "initialize" {
            if let Some(pv) = params
                .and_then(|p| str_of(p, "protocolVersion"))
                .and_then(ProtocolVersion::parse)
            {
                return Some((pv, "/params/protocolVersion".to_string()));
            }
        }
        if let Some(v) = method_version(method) {
            return Some((v, "/method".to_string()));
        }
        if let Some(p) = params {
            if method.starts_with("notifications/tasks") {
                return task_members(p, "/params");
            }
            // A V25 task-augmented request: `params.task` without the V26 `_meta` envelope.
            if p.get("task").is_some_and(Value::is_object)
                && matches!(
                    method,
                    "tools/call" | "sampling/createMessage" | "elicitation/create"
                )
            {
                return Some((ProtocolVersion::V2025, "/params/task".to_string()));
            }
        }
        return None;
    }
    let result = m.get("result").and_then(Value::as_object)?;
    if result.contains_key("resultType") {
        return Some((ProtocolVersion::V2026, "/result/resultType".to_string()));
    }
    if answers == Some("initialize") {
        if let Some(pv) = str_of(result, "protocolVersion").and_then(ProtocolVersion::parse) {
            return Some((pv, "/result/protocolVersion".to_string()));
        }
    }
    if let Some(task) = result.get("task").and_then(Value::as_object) {
        if task.contains_key("taskId") {
            return Some((ProtocolVersion::V2025, "/result/task".to_string()));
        }
    }
    if let Some(tasks) = result.get("tasks").and_then(Value::as_array) {
        let listed = match answers {
            Some(a) => a == "tasks/list",
            None => tasks.iter().any(Value::is_object),
        };
        if listed {
            return Some((ProtocolVersion::V2025, "/result/tasks".to_string()));
        }
    }
    task_members(result, "/result")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn signals() {
        let r = json!({"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"a"}});
        assert_eq!(signal(&r, None).map(|s| s.0), Some(ProtocolVersion::V2026));
        let r = json!({"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"a"}}});
        assert_eq!(signal(&r, None).map(|s| s.0), Some(ProtocolVersion::V2025));
        let r = json!({"jsonrpc":"2.0","id":1,"result":{"content":[]}});
        assert_eq!(signal(&r, Some("tools/call")), None);
        let n = json!({"jsonrpc":"2.0","method":"notifications/tasks","params":{}});
        assert_eq!(signal(&n, None).map(|s| s.0), Some(ProtocolVersion::V2026));
    }
}
