//! Member checks both versions share: the members of a task (§D 1–5, 63–66), milliseconds,
//! RFC 3339 timestamps, and the related-task `_meta` (§D 13).

use serde_json::{Map, Number, Value};

use super::envelope::type_name;
use super::report::{pointer, Issues};
use super::rules::Code;
use crate::model::common::RELATED_TASK_META_KEY;
use crate::model::{ProtocolVersion, TaskStatus};

pub use crate::base::time::{millis, millis_of, stamp, Millis, Stamp, MAX_SAFE_INTEGER};

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
            Seen::Number(n) => millis_of(n),
            _ => Millis::NotANumber,
        }
    }
}

/// The members of a task object, by name.
pub trait TaskMembers {
    /// The member `key`, if present.
    fn member(&self, key: TaskKey) -> Option<Seen<'_>>;

    /// The timestamp member `key`, whose value is the string `s`, parsed ([`stamp`]: checked
    /// and compared only; a view that parsed it already answers what it found).
    fn timestamp(&self, _key: TaskKey, s: &str) -> Option<Stamp> {
        stamp(s)
    }
}

impl TaskMembers for Map<String, Value> {
    fn member(&self, key: TaskKey) -> Option<Seen<'_>> {
        self.get(key.as_str()).map(Seen::of)
    }
}

/// The JSON type names a member's value can have, as [`Seen::type_name`] gives them.
pub const TYPE_NAMES: [&str; 7] = [
    "null", "boolean", "integer", "number", "string", "array", "object",
];

/// What is wrong with a task member: with the member ([`TaskKey`]) and the value's part of the
/// message ([`Hole`]), all an issue needs. [`TaskIssue::message_with`] writes every message of
/// the task checks: the one place they are written (for the full validator and the fast path).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskIssueKind {
    /// A required member is absent (the path is the task's).
    Missing,
    IdType,
    StatusValue,
    StatusType,
    StatusMessageType,
    TimestampValue,
    TimestampType,
    TimestampOrder,
    /// The retention member of the other version instead of this one's (`key` is the other's).
    OtherVersionTtl,
    /// No retention member (the path is the task's).
    TtlMissing,
    LegacyTtl,
    LegacyPoll,
    ZeroMs,
    NegativeMs,
    FractionMs,
    TooLargeMs,
    TypeMs,
}

impl TaskKey {
    /// The retention members (nullable).
    fn is_ttl(self) -> bool {
        matches!(self, TaskKey::Ttl | TaskKey::TtlMs)
    }
}

/// The part of an issue's message taken from the message checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hole<'a> {
    None,
    /// A JSON type name ([`TYPE_NAMES`]).
    Type(&'static str),
    /// A string of the message (a status, a timestamp).
    Text(&'a str),
}

/// One issue of a task's members, before it is formatted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskIssue<'a> {
    pub kind: TaskIssueKind,
    pub key: TaskKey,
    pub hole: Hole<'a>,
}

impl TaskIssue<'_> {
    /// The issue's code.
    pub fn code(&self) -> Code {
        use TaskIssueKind as K;
        match self.kind {
            K::Missing => Code::TaskRequiredMember,
            K::IdType => Code::TaskIdType,
            K::StatusValue | K::StatusType => Code::TaskStatusEnum,
            K::StatusMessageType => Code::TaskStatusMessageType,
            K::TimestampValue | K::TimestampType => Code::TimestampFormat,
            K::TimestampOrder => Code::TimestampOrder,
            // `ttlMs` where 2025-11-25 needs `ttl`; `ttl` where 2026-07-28 needs `ttlMs`.
            K::OtherVersionTtl if self.key == TaskKey::TtlMs => Code::VersionMismatch,
            K::OtherVersionTtl | K::LegacyTtl | K::LegacyPoll => Code::LegacyMember,
            K::TtlMissing => Code::TaskTtlMissing,
            K::ZeroMs => Code::TaskZeroMs,
            K::NegativeMs => Code::TaskNegativeMs,
            K::FractionMs | K::TooLargeMs | K::TypeMs if self.key.is_ttl() => Code::TaskTtlType,
            K::FractionMs | K::TooLargeMs | K::TypeMs => Code::TaskPollIntervalType,
        }
    }

    /// Whether the issue's path is the member's (else the task's).
    pub fn at_member(&self) -> bool {
        !matches!(
            self.kind,
            TaskIssueKind::Missing | TaskIssueKind::TtlMissing
        )
    }

    /// The issue's JSON Pointer, for a task at `path`.
    pub fn path(&self, path: &str) -> String {
        if self.at_member() {
            pointer(path, self.key.as_str())
        } else {
            path.to_string()
        }
    }

    /// The value's part of the message.
    pub fn hole_str(&self) -> &str {
        match self.hole {
            Hole::None => "",
            Hole::Type(s) => s,
            Hole::Text(s) => s,
        }
    }

    /// The message, with its value.
    pub fn message(&self) -> String {
        self.message_with(self.hole_str())
    }

    /// The message with `hole` where its value goes (every message of the task checks).
    pub fn message_with(&self, hole: &str) -> String {
        use TaskIssueKind as K;
        let key = self.key.as_str();
        let what = if self.key.is_ttl() {
            "an integer number of milliseconds or null"
        } else {
            "an integer number of milliseconds"
        };
        match self.kind {
            K::Missing => format!("the task has no `{key}`"),
            K::IdType | K::StatusType | K::StatusMessageType => {
                format!("`{key}` must be a string, found {hole}")
            }
            K::StatusValue => format!(
                "`{key}` \"{hole}\" is not one of working, input_required, completed, failed, cancelled"
            ),
            K::TimestampValue => format!(
                "`{key}` is not an RFC 3339 date-time with a time zone (like 2025-11-25T10:30:00Z): \"{hole}\""
            ),
            K::TimestampType => format!("`{key}` must be a string timestamp, found {hole}"),
            K::TimestampOrder => "`lastUpdatedAt` is before `createdAt`".to_string(),
            K::OtherVersionTtl => {
                let (version, ttl) = if self.key == TaskKey::TtlMs {
                    (ProtocolVersion::V2025, TaskKey::Ttl)
                } else {
                    (ProtocolVersion::V2026, TaskKey::TtlMs)
                };
                format!(
                    "`{key}` is the member of the other protocol version; {} needs `{}`",
                    version.as_str(),
                    ttl.as_str()
                )
            }
            K::TtlMissing => {
                format!("the task has no `{key}`; it is required, as null when unlimited")
            }
            K::LegacyTtl => {
                "`ttl` is the 2025-11-25 member; 2026-07-28 tasks carry only `ttlMs`".to_string()
            }
            K::LegacyPoll => {
                "`pollInterval` is the 2025-11-25 member; 2026-07-28 tasks carry `pollIntervalMs`"
                    .to_string()
            }
            K::ZeroMs if self.key.is_ttl() => format!(
                "`{key}` must be null or a positive integer under 2026-07-28; 0 is not a retention (§D 65)"
            ),
            K::ZeroMs => format!(
                "`{key}` must be a positive integer under 2026-07-28; 0 asks for polling without pause (§D 65)"
            ),
            K::NegativeMs => format!("`{key}` is negative; milliseconds must be ≥ 0"),
            K::FractionMs => format!("`{key}` must be {what}, found a fraction"),
            K::TooLargeMs => format!(
                "`{key}` is larger than 2^53 − 1, which JSON numbers cannot carry exactly"
            ),
            K::TypeMs => format!("`{key}` must be {what}, found {hole}"),
        }
    }
}

/// The issues of a task's members go to this.
pub type TaskSink<'s, 'a> = &'s mut dyn FnMut(TaskIssue<'a>);

fn issue<'a>(sink: TaskSink<'_, 'a>, kind: TaskIssueKind, key: TaskKey, hole: Hole<'a>) {
    sink(TaskIssue { kind, key, hole });
}

/// Checks a millisecond member. `nullable` for the TTL.
fn check_ms<'a>(
    obj: &'a dyn TaskMembers,
    member: TaskKey,
    version: ProtocolVersion,
    sink: TaskSink<'_, 'a>,
) {
    use TaskIssueKind as K;
    let Some(v) = obj.member(member) else { return };
    if matches!(v, Seen::Null) && member.is_ttl() {
        return;
    }
    let kind = match v.millis() {
        Millis::Ok(ms) if ms == 0.0 && version == ProtocolVersion::V2026 => K::ZeroMs,
        Millis::Ok(_) => return,
        Millis::Negative => K::NegativeMs,
        Millis::Fractional => K::FractionMs,
        Millis::TooLarge if version == ProtocolVersion::V2026 => K::TooLargeMs,
        Millis::TooLarge => return,
        Millis::NotANumber => {
            return issue(sink, K::TypeMs, member, Hole::Type(v.type_name()));
        }
    };
    issue(sink, kind, member, Hole::None);
}

/// Checks one timestamp member; returns it parsed when valid.
fn check_timestamp<'a>(
    obj: &'a dyn TaskMembers,
    member: TaskKey,
    sink: TaskSink<'_, 'a>,
) -> Option<Stamp> {
    use TaskIssueKind as K;
    match obj.member(member) {
        None => {
            issue(sink, K::Missing, member, Hole::None);
            None
        }
        Some(Seen::Str(s)) => match obj.timestamp(member, s) {
            Some(t) => Some(t),
            None => {
                issue(sink, K::TimestampValue, member, Hole::Text(s));
                None
            }
        },
        Some(v) => {
            issue(sink, K::TimestampType, member, Hole::Type(v.type_name()));
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
    task_issues(obj, version, &mut |i: TaskIssue<'a>| {
        issues.push(i.code(), &i.path(path), i.message());
    })
}

/// [`check_task_members`], each issue handed to `sink` unformatted, in the report's order.
pub fn task_issues<'a>(
    obj: &'a dyn TaskMembers,
    version: ProtocolVersion,
    sink: TaskSink<'_, 'a>,
) -> TaskSummary<'a> {
    use TaskIssueKind as K;
    let mut summary = TaskSummary::default();
    match obj.member(TaskKey::TaskId) {
        None => issue(sink, K::Missing, TaskKey::TaskId, Hole::None),
        Some(Seen::Str(s)) => summary.task_id = Some(s),
        Some(v) => issue(sink, K::IdType, TaskKey::TaskId, Hole::Type(v.type_name())),
    }
    match obj.member(TaskKey::Status) {
        None => issue(sink, K::Missing, TaskKey::Status, Hole::None),
        Some(Seen::Str(s)) => match TaskStatus::parse(s) {
            Some(st) => summary.status = Some(st),
            None => issue(sink, K::StatusValue, TaskKey::Status, Hole::Text(s)),
        },
        Some(v) => issue(
            sink,
            K::StatusType,
            TaskKey::Status,
            Hole::Type(v.type_name()),
        ),
    }
    if let Some(v) = obj.member(TaskKey::StatusMessage) {
        if !matches!(v, Seen::Str(_)) {
            issue(
                sink,
                K::StatusMessageType,
                TaskKey::StatusMessage,
                Hole::Type(v.type_name()),
            );
        }
    }
    let created = check_timestamp(obj, TaskKey::CreatedAt, sink);
    let updated = check_timestamp(obj, TaskKey::LastUpdatedAt, sink);
    if let (Some(c), Some(u)) = (created, updated) {
        if u < c {
            issue(sink, K::TimestampOrder, TaskKey::LastUpdatedAt, Hole::None);
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
            issue(sink, K::OtherVersionTtl, other_ttl, Hole::None);
        } else {
            issue(sink, K::TtlMissing, ttl, Hole::None);
        }
    } else if version == ProtocolVersion::V2026 && has(other_ttl) {
        issue(sink, K::LegacyTtl, other_ttl, Hole::None);
    }
    if version == ProtocolVersion::V2026 && has(other_poll) {
        issue(sink, K::LegacyPoll, other_poll, Hole::None);
    }
    check_ms(obj, ttl, version, sink);
    check_ms(obj, poll, version, sink);
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
        assert!(stamp("2025-11-25T10:30:00Z").is_some());
        assert!(stamp("2025-11-25T10:30:00.123+02:00").is_some());
        assert!(stamp("2025-11-25T10:30:00").is_none());
        assert!(stamp("not-a-date").is_none());
        assert!(stamp("2025-13-25T10:30:00Z").is_none());
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
