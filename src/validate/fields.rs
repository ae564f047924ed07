//! Member checks both versions share: the members of a task (§D 1–5, 63–66), milliseconds,
//! RFC 3339 timestamps, and the related-task `_meta` (§D 13).

use serde_json::{Map, Number, Value};

use super::envelope::type_name;
use super::report::{pointer, Issues};
use super::rules::Code;
use crate::model::common::RELATED_TASK_META_KEY;
use crate::model::{ProtocolVersion, TaskStatus};

pub use crate::base::time::{millis, parse as parse_timestamp, Instant, Millis, MAX_SAFE_INTEGER};

/// Which members a version uses for the task's retention and poll interval.
fn ms_names(version: ProtocolVersion) -> (TaskKey, TaskKey) {
    match version {
        ProtocolVersion::V2025 => (TaskKey::Ttl, TaskKey::PollInterval),
        ProtocolVersion::V2026 => (TaskKey::TtlMs, TaskKey::PollIntervalMs),
    }
}

/// The members of a task the checks read (both versions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskKey {
    TaskId,
    Status,
    StatusMessage,
    CreatedAt,
    LastUpdatedAt,
    Ttl,
    PollInterval,
    TtlMs,
    PollIntervalMs,
}

impl TaskKey {
    /// The member's name.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskKey::TaskId => "taskId",
            TaskKey::Status => "status",
            TaskKey::StatusMessage => "statusMessage",
            TaskKey::CreatedAt => "createdAt",
            TaskKey::LastUpdatedAt => "lastUpdatedAt",
            TaskKey::Ttl => "ttl",
            TaskKey::PollInterval => "pollInterval",
            TaskKey::TtlMs => "ttlMs",
            TaskKey::PollIntervalMs => "pollIntervalMs",
        }
    }
}

/// A member's value as the task checks see it: borrowed from a parsed `serde_json::Value`, or
/// read straight from the text by the typed fast path ([`super::fast`]), which thereby reports
/// exactly the issues (codes, paths, messages, order) of the full validator: both run the same
/// checks below.
#[derive(Debug, Clone, Copy)]
pub enum Seen<'a> {
    Null,
    Bool,
    Number(&'a Number),
    Str(&'a str),
    Array,
    Object,
}

impl<'a> Seen<'a> {
    /// The view of a parsed value.
    pub fn of(v: &'a Value) -> Self {
        match v {
            Value::Null => Seen::Null,
            Value::Bool(_) => Seen::Bool,
            Value::Number(n) => Seen::Number(n),
            Value::String(s) => Seen::Str(s),
            Value::Array(_) => Seen::Array,
            Value::Object(_) => Seen::Object,
        }
    }

    /// The JSON type's name, as [`type_name`] gives it.
    pub fn type_name(self) -> &'static str {
        match self {
            Seen::Null => "null",
            Seen::Bool => "boolean",
            Seen::Number(n) if n.is_i64() || n.is_u64() => "integer",
            Seen::Number(_) => "number",
            Seen::Str(_) => "string",
            Seen::Array => "array",
            Seen::Object => "object",
        }
    }

    fn millis(self) -> Millis {
        match self {
            Seen::Number(n) => millis(&Value::Number(n.clone())),
            _ => Millis::NotANumber,
        }
    }
}

/// The members of a task object, by name.
pub trait TaskMembers {
    /// The member `key`, if present.
    fn member(&self, key: TaskKey) -> Option<Seen<'_>>;
}

impl TaskMembers for Map<String, Value> {
    fn member(&self, key: TaskKey) -> Option<Seen<'_>> {
        self.get(key.as_str()).map(Seen::of)
    }
}

/// Checks a millisecond member. `nullable` for the TTL. Returns the value when usable.
fn check_ms(
    obj: &dyn TaskMembers,
    member: TaskKey,
    path: &str,
    version: ProtocolVersion,
    nullable: bool,
    type_code: Code,
    issues: &mut Issues,
) {
    let Some(v) = obj.member(member) else { return };
    let key = member.as_str();
    // The pointer is built only when an issue needs it (this runs for every task of a list).
    let p = || pointer(path, key);
    if matches!(v, Seen::Null) && nullable {
        return;
    }
    let what = if nullable {
        "an integer number of milliseconds or null"
    } else {
        "an integer number of milliseconds"
    };
    match v.millis() {
        Millis::Ok(ms) => {
            if ms == 0.0 && version == ProtocolVersion::V2026 {
                issues.push(
                    Code::TaskZeroMs,
                    &p(),
                    if nullable {
                        format!("`{key}` must be null or a positive integer under 2026-07-28; 0 is not a retention (§D 65)")
                    } else {
                        format!("`{key}` must be a positive integer under 2026-07-28; 0 asks for polling without pause (§D 65)")
                    },
                );
            }
        }
        Millis::Negative => issues.push(
            Code::TaskNegativeMs,
            &p(),
            format!("`{key}` is negative; milliseconds must be ≥ 0"),
        ),
        Millis::Fractional => issues.push(
            type_code,
            &p(),
            format!("`{key}` must be {what}, found a fraction"),
        ),
        Millis::TooLarge if version == ProtocolVersion::V2026 => issues.push(
            type_code,
            &p(),
            format!("`{key}` is larger than 2^53 − 1, which JSON numbers cannot carry exactly"),
        ),
        Millis::TooLarge => {}
        Millis::NotANumber => issues.push(
            type_code,
            &p(),
            format!("`{key}` must be {what}, found {}", v.type_name()),
        ),
    }
}

/// Checks one timestamp member; returns it parsed when valid.
fn check_timestamp(
    obj: &dyn TaskMembers,
    member: TaskKey,
    path: &str,
    issues: &mut Issues,
) -> Option<Instant> {
    let key = member.as_str();
    match obj.member(member) {
        None => {
            issues.push(
                Code::TaskRequiredMember,
                path,
                format!("the task has no `{key}`"),
            );
            None
        }
        Some(Seen::Str(s)) => match parse_timestamp(s) {
            Some(t) => Some(t),
            None => {
                issues.push(
                    Code::TimestampFormat,
                    &pointer(path, key),
                    format!(
                        "`{key}` is not an RFC 3339 date-time with a time zone (like 2025-11-25T10:30:00Z): \"{s}\""
                    ),
                );
                None
            }
        },
        Some(v) => {
            issues.push(
                Code::TimestampFormat,
                &pointer(path, key),
                format!(
                    "`{key}` must be a string timestamp, found {}",
                    v.type_name()
                ),
            );
            None
        }
    }
}

/// What a task check learned.
#[derive(Debug, Clone, Default)]
pub struct TaskSummary<'a> {
    pub task_id: Option<&'a str>,
    pub status: Option<TaskStatus>,
}

/// Checks the members every task of `version` has (§D 1–5 for V25, 63–66 for V26). `obj` is the
/// task object (or the result / params the task is merged into), `path` its pointer. One
/// function for every kind of member view (`dyn`: its messages are compiled once).
pub fn check_task_members<'a>(
    obj: &'a dyn TaskMembers,
    path: &str,
    version: ProtocolVersion,
    issues: &mut Issues,
) -> TaskSummary<'a> {
    let mut summary = TaskSummary::default();
    match obj.member(TaskKey::TaskId) {
        None => issues.push(Code::TaskRequiredMember, path, "the task has no `taskId`"),
        Some(Seen::Str(s)) => summary.task_id = Some(s),
        Some(v) => issues.push(
            Code::TaskIdType,
            &pointer(path, "taskId"),
            format!("`taskId` must be a string, found {}", v.type_name()),
        ),
    }
    match obj.member(TaskKey::Status) {
        None => issues.push(Code::TaskRequiredMember, path, "the task has no `status`"),
        Some(Seen::Str(s)) => match TaskStatus::parse(s) {
            Some(st) => summary.status = Some(st),
            None => issues.push(
                Code::TaskStatusEnum,
                &pointer(path, "status"),
                format!(
                    "`status` \"{s}\" is not one of working, input_required, completed, failed, cancelled"
                ),
            ),
        },
        Some(v) => issues.push(
            Code::TaskStatusEnum,
            &pointer(path, "status"),
            format!("`status` must be a string, found {}", v.type_name()),
        ),
    }
    if let Some(v) = obj.member(TaskKey::StatusMessage) {
        if !matches!(v, Seen::Str(_)) {
            issues.push(
                Code::TaskStatusMessageType,
                &pointer(path, "statusMessage"),
                format!("`statusMessage` must be a string, found {}", v.type_name()),
            );
        }
    }
    let created = check_timestamp(obj, TaskKey::CreatedAt, path, issues);
    let updated = check_timestamp(obj, TaskKey::LastUpdatedAt, path, issues);
    if let (Some(c), Some(u)) = (created, updated) {
        if u < c {
            issues.push(
                Code::TimestampOrder,
                &pointer(path, "lastUpdatedAt"),
                "`lastUpdatedAt` is before `createdAt`",
            );
        }
    }
    let (ttl, poll) = ms_names(version);
    let (other_ttl, other_poll) = ms_names(match version {
        ProtocolVersion::V2025 => ProtocolVersion::V2026,
        ProtocolVersion::V2026 => ProtocolVersion::V2025,
    });
    let has = |key: TaskKey| obj.member(key).is_some();
    if !has(ttl) {
        if has(other_ttl) {
            let code = match version {
                ProtocolVersion::V2025 => Code::VersionMismatch,
                ProtocolVersion::V2026 => Code::LegacyMember,
            };
            issues.push(
                code,
                &pointer(path, other_ttl.as_str()),
                format!(
                    "`{}` is the member of the other protocol version; {} needs `{}`",
                    other_ttl.as_str(),
                    version.as_str(),
                    ttl.as_str()
                ),
            );
        } else {
            issues.push(
                Code::TaskTtlMissing,
                path,
                format!(
                    "the task has no `{}`; it is required, as null when unlimited",
                    ttl.as_str()
                ),
            );
        }
    } else if version == ProtocolVersion::V2026 && has(other_ttl) {
        issues.push(
            Code::LegacyMember,
            &pointer(path, other_ttl.as_str()),
            "`ttl` is the 2025-11-25 member; 2026-07-28 tasks carry only `ttlMs`",
        );
    }
    if version == ProtocolVersion::V2026 && has(other_poll) {
        issues.push(
            Code::LegacyMember,
            &pointer(path, other_poll.as_str()),
            "`pollInterval` is the 2025-11-25 member; 2026-07-28 tasks carry `pollIntervalMs`",
        );
    }
    check_ms(obj, ttl, path, version, true, Code::TaskTtlType, issues);
    check_ms(
        obj,
        poll,
        path,
        version,
        false,
        Code::TaskPollIntervalType,
        issues,
    );
    summary
}

/// The object under `key`, if it is one.
pub fn obj<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Map<String, Value>> {
    map.get(key).and_then(Value::as_object)
}

/// The string under `key`, if it is one.
pub fn str_of<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    map.get(key).and_then(Value::as_str)
}

/// Requires `params.taskId` to be a string (§D 8, 71). Returns it.
pub fn check_params_task_id(
    params: Option<&Map<String, Value>>,
    issues: &mut Issues,
) -> Option<String> {
    let Some(p) = params else {
        issues.push(
            Code::ParamsTaskId,
            "",
            "the request has no `params` with a `taskId`",
        );
        return None;
    };
    match p.get("taskId") {
        None => {
            issues.push(Code::ParamsTaskId, "/params", "`params.taskId` is missing");
            None
        }
        Some(Value::String(s)) => Some(s.clone()),
        Some(v) => {
            issues.push(
                Code::ParamsTaskId,
                "/params/taskId",
                format!("`params.taskId` must be a string, found {}", type_name(v)),
            );
            None
        }
    }
}

/// The related-task `_meta` value of `container` (a result or params object), if present.
/// Checks its shape (§D 13) and returns its `taskId` when well-formed.
pub fn related_task(
    container: &Map<String, Value>,
    path: &str,
    issues: &mut Issues,
) -> Option<Option<String>> {
    let meta = obj(container, "_meta")?;
    let v = meta.get(RELATED_TASK_META_KEY)?;
    let p = pointer(&pointer(path, "_meta"), RELATED_TASK_META_KEY);
    match v {
        Value::Object(o) => match o.get("taskId") {
            Some(Value::String(s)) => Some(Some(s.clone())),
            Some(other) => {
                issues.push(
                    Code::RelatedTaskShape,
                    &pointer(&p, "taskId"),
                    format!(
                        "related-task `taskId` must be a string, found {}",
                        type_name(other)
                    ),
                );
                Some(None)
            }
            None => {
                issues.push(
                    Code::RelatedTaskShape,
                    &p,
                    "related-task `_meta` has no `taskId`",
                );
                Some(None)
            }
        },
        other => {
            issues.push(
                Code::RelatedTaskShape,
                &p,
                format!(
                    "related-task `_meta` must be an object, found {}",
                    type_name(other)
                ),
            );
            Some(None)
        }
    }
}

/// `_meta`, where present, must be an object (both versions' schemas).
pub fn check_meta_object(
    container: &Map<String, Value>,
    path: &str,
    code: Code,
    issues: &mut Issues,
) {
    if let Some(v) = container.get("_meta") {
        if !v.is_object() {
            issues.push(
                code,
                &pointer(path, "_meta"),
                format!("`_meta` must be an object, found {}", type_name(v)),
            );
        }
    }
}

/// `tools/call` params (§A.b, §B.b): an object with a string `name` and, if present, an object
/// `arguments`.
pub fn check_tool_call_params(params: Option<&Map<String, Value>>, issues: &mut Issues) {
    let Some(p) = params else {
        issues.push(
            Code::ToolCallParams,
            "",
            "`tools/call` needs `params` with the tool `name`",
        );
        return;
    };
    match p.get("name") {
        None => issues.push(
            Code::ToolCallParams,
            "/params",
            "`params.name` (the tool) is missing",
        ),
        Some(Value::String(_)) => {}
        Some(v) => issues.push(
            Code::ToolCallParams,
            "/params/name",
            format!("`params.name` must be a string, found {}", type_name(v)),
        ),
    }
    if let Some(a) = p.get("arguments") {
        if !a.is_object() {
            issues.push(
                Code::ToolCallParams,
                "/params/arguments",
                format!(
                    "`params.arguments` must be an object, found {}",
                    type_name(a)
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps() {
        assert!(parse_timestamp("2025-11-25T10:30:00Z").is_some());
        assert!(parse_timestamp("2025-11-25T10:30:00.123+02:00").is_some());
        assert!(parse_timestamp("2025-11-25T10:30:00").is_none());
        assert!(parse_timestamp("not-a-date").is_none());
        assert!(parse_timestamp("2025-13-25T10:30:00Z").is_none());
    }

    #[test]
    fn millis_classes() {
        assert!(matches!(millis(&serde_json::json!(5)), Millis::Ok(_)));
        assert!(matches!(millis(&serde_json::json!(5.0)), Millis::Ok(_)));
        assert!(matches!(millis(&serde_json::json!(-5)), Millis::Negative));
        assert!(matches!(
            millis(&serde_json::json!(-1.5)),
            Millis::Fractional
        ));
        assert!(matches!(
            millis(&serde_json::json!("5")),
            Millis::NotANumber
        ));
        assert!(matches!(
            millis(&serde_json::json!(1e300)),
            Millis::TooLarge
        ));
    }
}
