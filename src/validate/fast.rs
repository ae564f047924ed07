//! A fast path for the commonest answers: a 2025-11-25 `tasks/get` result (a flat task) or
//! `tasks/list` result, read from the text into borrowed, typed structs (no `serde_json::Value`
//! tree).
//!
//! Two readings: typed structs that check each member as it is read recognise a valid message
//! (the cheapest reading: it only ever answers "valid, no issues"); when they refuse it, the
//! members of each task are read as `Got` values (numbers and strings kept, borrowed where the
//! text has no escape; arrays and objects skipped) and checked by the very function the full
//! validator runs ([`check_task_members`], over the [`TaskMembers`] view), so a task with wrong
//! members is reported here with the same issues (codes, JSON Pointers, messages, severities,
//! order): the messages are written once, in that function. The fast path gives up (`None`) on
//! anything else it does not fully know (an unknown or duplicate member, `_meta`, an envelope
//! problem, a listed task that is not an object, a shape that leaves the version unknown, other
//! options or versions), and the caller then runs the full validator
//! ([`super::detect::dispatch`]) on the same text. The differential tests below hold every answer
//! of the fast path equal to the full validator's report.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Number, Value};

use chrono::{DateTime, FixedOffset};

use super::fields::{
    check_task_members, millis, parse_timestamp, Millis, Seen, TaskKey, TaskMembers,
};
use super::report::{pointer_index, Issues, RpcKind, ValidationReport, VersionSource};
use super::Context;
use crate::model::{ProtocolVersion, TaskStatus};

/// What the fast path tells of a valid message: the parts of its report that vary (it is a
/// 2025-11-25 result with no issues, answering `ctx.in_reply_to`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Valid {
    pub version_source: VersionSource,
    pub kind: &'static str,
}

impl Valid {
    /// The report, for the context the verdict was given in.
    pub fn report(self, ctx: &Context) -> ValidationReport {
        self.with_issues(ctx, Issues::new())
    }

    /// The report with `issues` (those of the task checks), for the context the verdict was
    /// given in: what [`super::detect::dispatch`] builds for the same message.
    fn with_issues(self, ctx: &Context, issues: Issues) -> ValidationReport {
        let valid = !issues.has_errors();
        let (issues, omitted) = issues.into_parts();
        ValidationReport {
            valid,
            version: Some(ProtocolVersion::V2025),
            version_source: self.version_source,
            kind: self.kind.to_string(),
            rpc: RpcKind::Result,
            method: ctx.in_reply_to.clone(),
            issues,
            omitted,
        }
    }

    /// Whether `report` is [`report`](Self::report) for a context with this `in_reply_to`
    /// (compared without building it).
    pub fn is_report(self, report: &ValidationReport, in_reply_to: Option<&str>) -> bool {
        report.valid
            && report.version == Some(ProtocolVersion::V2025)
            && report.version_source == self.version_source
            && report.kind == self.kind
            && report.rpc == RpcKind::Result
            && report.method.as_deref() == in_reply_to
            && report.issues.is_empty()
    }
}

/// What the fast path answers when it knows the message.
#[derive(Debug)]
pub enum Verdict {
    /// Valid, no issues (the report is not built).
    Valid(Valid),
    /// The report of a message with issues in its task members.
    Report(ValidationReport),
}

impl Verdict {
    /// The report, for the context the verdict was given in.
    pub fn into_report(self, ctx: &Context) -> ValidationReport {
        match self {
            Verdict::Valid(v) => v.report(ctx),
            Verdict::Report(r) => r,
        }
    }
}

/// The report of the message when the fast path can tell (valid or not); `None` means "ask the
/// full validator".
pub fn try_report(text: &str, ctx: &Context) -> Option<ValidationReport> {
    check(text, ctx).map(|v| v.into_report(ctx))
}

/// The report of a valid message with no issues, when the fast path can tell.
pub fn try_valid(text: &str, ctx: &Context) -> Option<ValidationReport> {
    match check(text, ctx)? {
        Verdict::Valid(v) => Some(v.report(ctx)),
        Verdict::Report(_) => None,
    }
}

/// The fast path's verdict, or `None` (ask the full validator).
///
/// A valid message is recognised by typed structs that check each member as it is read (the
/// cheapest reading); only when they refuse it is the message read again into `TaskGot`s, whose
/// issues [`check_task_members`] reports.
pub fn check(text: &str, ctx: &Context) -> Option<Verdict> {
    match check_valid(text, ctx) {
        Some(valid) => Some(Verdict::Valid(valid)),
        None => check_issues(text, ctx),
    }
}

/// A valid message with no issues, read by the typed structs (`None`: anything else).
fn check_valid(text: &str, ctx: &Context) -> Option<Valid> {
    if ctx.headers.is_some() || ctx.version.is_some_and(|v| v != ProtocolVersion::V2025) {
        return None;
    }
    let task = || serde_json::from_str::<Envelope<Task25>>(text).is_ok();
    let list = || serde_json::from_str::<Envelope<List25>>(text).is_ok();
    let shape = match ctx.in_reply_to.as_deref() {
        Some("tasks/get") => task().then_some("GetTaskResult"),
        Some("tasks/list") => list().then_some("ListTasksResult"),
        Some(_) => None,
        None => {
            if task() {
                Some("GetTaskResult")
            } else {
                list().then_some("ListTasksResult")
            }
        }
    }?;
    // A V25 task always carries `ttl` and a list a `tasks` array: the shape tells the version
    // (`tasks/list` exists only in 2025-11-25), unless the options did.
    Some(Valid {
        version_source: if ctx.version.is_some() {
            VersionSource::Option
        } else {
            VersionSource::Shape
        },
        kind: shape,
    })
}

/// The verdict of a message read into `TaskGot`s (members of any JSON type) and checked by
/// [`check_task_members`], or `None` (ask the full validator).
fn check_issues(text: &str, ctx: &Context) -> Option<Verdict> {
    if ctx.headers.is_some() || ctx.version.is_some_and(|v| v != ProtocolVersion::V2025) {
        return None;
    }
    let source = if ctx.version.is_some() {
        VersionSource::Option
    } else {
        VersionSource::Shape
    };
    let task = || {
        let task = serde_json::from_str::<Envelope<TaskGot>>(text).ok()?.result;
        // Without the version in the options, the shape must tell it (a V25 `ttl` or
        // `pollInterval`), and without `inReplyTo` a `taskId` or `status` must make it a task:
        // otherwise the full validator decides (§C).
        if ctx.version.is_none() && task.get(TTL).is_none() && task.get(POLL).is_none() {
            return None;
        }
        if ctx.in_reply_to.is_none() && task.get(ID).is_none() && task.get(STATUS).is_none() {
            return None;
        }
        let valid = Valid {
            version_source: source,
            kind: "GetTaskResult",
        };
        let mut issues = Issues::with_limit(ctx.max_issues());
        check_task_members(&task, "/result", ProtocolVersion::V2025, &mut issues);
        Some(verdict(valid, ctx, issues))
    };
    let list = || {
        let list = serde_json::from_str::<Envelope<ListGot>>(text).ok()?.result;
        let valid = Valid {
            version_source: source,
            kind: "ListTasksResult",
        };
        let mut issues = Issues::with_limit(ctx.max_issues());
        for (i, task) in &list.bad {
            let path = pointer_index("/result/tasks", *i);
            check_task_members(task, &path, ProtocolVersion::V2025, &mut issues);
        }
        Some(verdict(valid, ctx, issues))
    };
    match ctx.in_reply_to.as_deref() {
        Some("tasks/get") => task(),
        Some("tasks/list") => list(),
        Some(_) => None,
        // Nothing names the method: the members do (a `taskId` is a task, a `tasks` array a
        // list). A list fails the task struct at its first member, and the other way round.
        None => task().or_else(list),
    }
}

fn verdict(valid: Valid, ctx: &Context, issues: Issues) -> Verdict {
    if issues.is_empty() {
        Verdict::Valid(valid)
    } else {
        Verdict::Report(valid.with_issues(ctx, issues))
    }
}

/// `{"jsonrpc":"2.0","id":…,"result":…}` and nothing else.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Envelope<R> {
    #[allow(dead_code)]
    jsonrpc: JsonRpc20,
    #[allow(dead_code)]
    id: Id,
    result: R,
}

/// A 2025-11-25 task, every member checked as [`super::fields::check_task_members`] checks it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Task25Members {
    #[allow(dead_code)]
    task_id: AnyStr,
    #[allow(dead_code)]
    status: Status,
    #[allow(dead_code)]
    #[serde(default, deserialize_with = "present")]
    status_message: Option<AnyStr>,
    created_at: Timestamp,
    last_updated_at: Timestamp,
    #[allow(dead_code)]
    ttl: TtlOrNull,
    #[allow(dead_code)]
    #[serde(default, deserialize_with = "present")]
    poll_interval: Option<Ms25>,
}

/// A task whose members are well-formed and whose `lastUpdatedAt` is not before `createdAt`.
struct Task25;

impl<'de> Deserialize<'de> for Task25 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let t = Task25Members::deserialize(d)?;
        if t.last_updated_at.0 < t.created_at.0 {
            return Err(de::Error::custom("lastUpdatedAt before createdAt"));
        }
        Ok(Task25)
    }
}

/// A 2025-11-25 `ListTasksResult`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct List25 {
    #[allow(dead_code)]
    tasks: Tasks25,
    #[allow(dead_code)]
    #[serde(default, deserialize_with = "present")]
    next_cursor: Option<AnyStr>,
}

/// An optional member that, when present, must read as `T` (`null` is not "absent").
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// An array of tasks, each checked as it is read (nothing kept).
struct Tasks25;

impl<'de> Deserialize<'de> for Tasks25 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Tasks25;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of tasks")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tasks25, A::Error> {
                while seq.next_element::<Task25>()?.is_some() {}
                Ok(Tasks25)
            }
        }
        d.deserialize_seq(V)
    }
}

/// One of the five task statuses.
struct Status;

impl<'de> Deserialize<'de> for Status {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Status;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a task status")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Status, E> {
                TaskStatus::parse(s)
                    .map(|_| Status)
                    .ok_or_else(|| E::custom("status"))
            }
        }
        d.deserialize_str(V)
    }
}

/// An RFC 3339 timestamp, parsed as [`parse_timestamp`] parses it.
struct Timestamp(DateTime<FixedOffset>);

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Timestamp;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an RFC 3339 timestamp")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Timestamp, E> {
                parse_timestamp(s)
                    .map(Timestamp)
                    .ok_or_else(|| E::custom("timestamp"))
            }
        }
        d.deserialize_str(V)
    }
}

/// A 2025-11-25 millisecond member that the checks accept: classified by [`millis`] exactly as
/// the full validator does (a non-negative integer; beyond 2^53 − 1 is not an issue in
/// 2025-11-25).
struct Ms25;

fn ms25<E: de::Error>(n: Option<Number>) -> Result<Ms25, E> {
    match n.map(|n| millis(&Value::Number(n))) {
        Some(Millis::Ok(_) | Millis::TooLarge) => Ok(Ms25),
        _ => Err(E::custom("milliseconds")),
    }
}

struct MsVisitor;

impl Visitor<'_> for MsVisitor {
    type Value = Ms25;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("milliseconds")
    }
    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Ms25, E> {
        ms25(Some(Number::from(u)))
    }
    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Ms25, E> {
        ms25(Some(Number::from(i)))
    }
    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Ms25, E> {
        ms25(Number::from_f64(f))
    }
}

impl<'de> Deserialize<'de> for Ms25 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(MsVisitor)
    }
}

/// The V25 `ttl`: milliseconds or `null` (required: a missing `ttl` is an issue).
struct TtlOrNull;

impl<'de> Deserialize<'de> for TtlOrNull {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = TtlOrNull;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("milliseconds or null")
            }
            fn visit_unit<E: de::Error>(self) -> Result<TtlOrNull, E> {
                Ok(TtlOrNull)
            }
            fn visit_u64<E: de::Error>(self, u: u64) -> Result<TtlOrNull, E> {
                MsVisitor.visit_u64(u).map(|_| TtlOrNull)
            }
            fn visit_i64<E: de::Error>(self, i: i64) -> Result<TtlOrNull, E> {
                MsVisitor.visit_i64(i).map(|_| TtlOrNull)
            }
            fn visit_f64<E: de::Error>(self, f: f64) -> Result<TtlOrNull, E> {
                MsVisitor.visit_f64(f).map(|_| TtlOrNull)
            }
        }
        d.deserialize_any(V)
    }
}

/// A member's value as read from the text: what the task checks need of it.
enum Got<'de> {
    Null,
    Bool,
    Number(Number),
    Str(Cow<'de, str>),
    Array,
    Object,
}

impl Got<'_> {
    fn seen(&self) -> Seen<'_> {
        match self {
            Got::Null => Seen::Null,
            Got::Bool => Seen::Bool,
            Got::Number(n) => Seen::Number(n),
            Got::Str(s) => Seen::Str(s),
            Got::Array => Seen::Array,
            Got::Object => Seen::Object,
        }
    }
}

impl<'de> Deserialize<'de> for Got<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Got<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Got<'de>, E> {
                Ok(Got::Null)
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Got<'de>, E> {
                Ok(Got::Bool)
            }
            fn visit_u64<E: de::Error>(self, u: u64) -> Result<Got<'de>, E> {
                Ok(Got::Number(Number::from(u)))
            }
            fn visit_i64<E: de::Error>(self, i: i64) -> Result<Got<'de>, E> {
                Ok(Got::Number(Number::from(i)))
            }
            fn visit_f64<E: de::Error>(self, f: f64) -> Result<Got<'de>, E> {
                // As `serde_json::Value` reads it (a non-finite number is not JSON).
                Number::from_f64(f)
                    .map(Got::Number)
                    .ok_or_else(|| E::custom("not a finite number"))
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Got<'de>, E> {
                Ok(Got::Str(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Got<'de>, E> {
                Ok(Got::Str(Cow::Owned(s.to_string())))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Got<'de>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Got::Array)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Got<'de>, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Got::Object)
            }
        }
        d.deserialize_any(V)
    }
}

const ID: usize = 0;
const STATUS: usize = 1;
const TTL: usize = 5;
const POLL: usize = 6;

/// The slot of a 2025-11-25 task member.
fn slot(key: &str) -> Option<usize> {
    match key {
        "taskId" => Some(ID),
        "status" => Some(STATUS),
        "statusMessage" => Some(2),
        "createdAt" => Some(3),
        "lastUpdatedAt" => Some(4),
        "ttl" => Some(TTL),
        "pollInterval" => Some(POLL),
        _ => None,
    }
}

/// A 2025-11-25 task object whose members are all task members (any value, each at most once).
#[derive(Default)]
struct TaskGot<'de> {
    members: [Option<Got<'de>>; 7],
}

impl TaskGot<'_> {
    fn get(&self, slot: usize) -> Option<&Got<'_>> {
        self.members.get(slot).and_then(Option::as_ref)
    }
}

impl TaskMembers for TaskGot<'_> {
    fn member(&self, key: TaskKey) -> Option<Seen<'_>> {
        let slot = match key {
            TaskKey::TaskId => ID,
            TaskKey::Status => STATUS,
            TaskKey::StatusMessage => 2,
            TaskKey::CreatedAt => 3,
            TaskKey::LastUpdatedAt => 4,
            TaskKey::Ttl => TTL,
            TaskKey::PollInterval => POLL,
            // Never read into a 2025-11-25 task (an unknown member there: the full validator).
            TaskKey::TtlMs | TaskKey::PollIntervalMs => return None,
        };
        self.get(slot).map(Got::seen)
    }
}

/// A member name of a task (`None`: another name).
struct Key(Option<usize>);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Key, E> {
                Ok(Key(slot(s)))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> Deserialize<'de> for TaskGot<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TaskGot<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a task object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TaskGot<'de>, A::Error> {
                let mut task = TaskGot::default();
                while let Some(Key(k)) = map.next_key()? {
                    let at = k
                        .and_then(|i| task.members.get_mut(i))
                        .ok_or_else(|| de::Error::custom("not a task member"))?;
                    if at.is_some() {
                        return Err(de::Error::custom("duplicate member"));
                    }
                    *at = Some(map.next_value()?);
                }
                Ok(task)
            }
        }
        d.deserialize_map(V)
    }
}

/// A 2025-11-25 `ListTasksResult` (`tasks` required, `nextCursor` a string if present): the
/// listed tasks with issues, by index (the others are checked as they are read, and dropped).
struct ListGot<'de> {
    bad: Vec<(usize, TaskGot<'de>)>,
}

impl<'de> Deserialize<'de> for ListGot<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ListGot<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a task list")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ListGot<'de>, A::Error> {
                let mut tasks = None;
                let mut cursor = false;
                while let Some(key) = map.next_key::<ListKey>()? {
                    match key {
                        ListKey::Tasks if tasks.is_none() => {
                            tasks = Some(map.next_value_seed(TasksSeed)?);
                        }
                        ListKey::NextCursor if !cursor => {
                            map.next_value::<AnyStr>()?;
                            cursor = true;
                        }
                        _ => return Err(de::Error::custom("not a list member")),
                    }
                }
                let bad = tasks.ok_or_else(|| de::Error::custom("no tasks"))?;
                Ok(ListGot { bad })
            }
        }
        d.deserialize_map(V)
    }
}

enum ListKey {
    Tasks,
    NextCursor,
    Other,
}

impl<'de> Deserialize<'de> for ListKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = ListKey;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<ListKey, E> {
                Ok(match s {
                    "tasks" => ListKey::Tasks,
                    "nextCursor" => ListKey::NextCursor,
                    _ => ListKey::Other,
                })
            }
        }
        d.deserialize_str(V)
    }
}

/// The `tasks` array: each task checked as it is read (at no path: nothing is kept of a task
/// without issues); a task with issues is kept, to be checked again at its path.
struct TasksSeed;

impl<'de> DeserializeSeed<'de> for TasksSeed {
    type Value = Vec<(usize, TaskGot<'de>)>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Vec<(usize, TaskGot<'de>)>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of tasks")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut bad = Vec::new();
                let mut i = 0;
                while let Some(task) = seq.next_element::<TaskGot>()? {
                    let mut issues = Issues::new();
                    check_task_members(&task, "", ProtocolVersion::V2025, &mut issues);
                    if !issues.is_empty() {
                        bad.push((i, task));
                    }
                    i += 1;
                }
                Ok(bad)
            }
        }
        d.deserialize_seq(V)
    }
}

/// `"2.0"`.
struct JsonRpc20;

impl<'de> Deserialize<'de> for JsonRpc20 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = JsonRpc20;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("\"2.0\"")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<JsonRpc20, E> {
                if s == "2.0" {
                    Ok(JsonRpc20)
                } else {
                    Err(E::custom("not 2.0"))
                }
            }
        }
        d.deserialize_str(V)
    }
}

/// A response id: a string or an integer (`5.0` counts, as [`super::envelope::is_integer`]).
struct Id;

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Id;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or an integer")
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Id, E> {
                Ok(Id)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Id, E> {
                Ok(Id)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Id, E> {
                Ok(Id)
            }
            fn visit_f64<E: de::Error>(self, f: f64) -> Result<Id, E> {
                if f.fract() == 0.0 {
                    Ok(Id)
                } else {
                    Err(E::custom("fraction"))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// Any string (its content is not needed).
struct AnyStr;

impl<'de> Deserialize<'de> for AnyStr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = AnyStr;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<AnyStr, E> {
                Ok(AnyStr)
            }
        }
        d.deserialize_str(V)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::validate::{parse, validate_value, DEFAULT_MAX_BYTES};
    use serde_json::Value;

    fn full(text: &str, ctx: &Context) -> Option<ValidationReport> {
        parse(text, DEFAULT_MAX_BYTES)
            .ok()
            .map(|v| validate_value(&v, ctx))
    }

    fn task(i: usize) -> Value {
        let status = [
            "working",
            "input_required",
            "completed",
            "failed",
            "cancelled",
        ][i % 5];
        serde_json::json!({
            "taskId": format!("task-{i}"),
            "status": status,
            "statusMessage": "Building target release",
            "createdAt": "2025-11-25T10:30:00Z",
            "lastUpdatedAt": "2025-11-25T10:30:05Z",
            "ttl": 600000,
            "pollInterval": 2000,
        })
    }

    /// Values put in place of each member, to cover the checks' edges.
    fn edge_values() -> Vec<Value> {
        serde_json::from_str(
            r#"[null, true, 0, -0.0, 1, -1, 2.5, 5.0, -5.0, 1e300, 9007199254740991,
                9007199254740993, 18446744073709551615, -9223372036854775808, "", "2.0", "x",
                "working", "running", "cancelled", "2025-11-25T10:30:00Z",
                "2025-11-25T10:30:00+02:00", "2025-11-25T10:29:00Z", "2025-11-25 10:30:00Z",
                "2025-11-25T10:30:00", "2025-02-30T10:30:00Z", "2025-11-25T10:30:05.5Z",
                "tasks/get", [], {}, [1], {"a": 1}, [{}]]"#,
        )
        .unwrap()
    }

    fn contexts() -> Vec<Context> {
        let mut out = Vec::new();
        for version in [
            None,
            Some(ProtocolVersion::V2025),
            Some(ProtocolVersion::V2026),
        ] {
            for reply in [
                None,
                Some("tasks/get"),
                Some("tasks/list"),
                Some("tasks/cancel"),
            ] {
                out.push(Context {
                    version,
                    in_reply_to: reply.map(str::to_string),
                    ..Context::default()
                });
            }
        }
        out
    }

    /// Every message built by replacing, adding or removing one member, at every level.
    fn variants(base: &Value) -> Vec<Value> {
        let mut out = vec![base.clone()];
        fn walk(v: &Value, path: &mut Vec<String>, out: &mut Vec<Value>, root: &Value) {
            let Value::Object(m) = v else {
                if let Value::Array(a) = v {
                    for (i, item) in a.iter().enumerate().take(2) {
                        path.push(i.to_string());
                        walk(item, path, out, root);
                        path.pop();
                    }
                }
                return;
            };
            let ptr = |p: &[String]| p.iter().map(|s| format!("/{s}")).collect::<String>();
            for key in m.keys() {
                path.push(key.clone());
                for e in edge_values() {
                    let mut copy = root.clone();
                    *copy.pointer_mut(&ptr(path)).unwrap() = e;
                    out.push(copy);
                }
                let mut removed = root.clone();
                removed
                    .pointer_mut(&ptr(&path[..path.len() - 1]))
                    .unwrap()
                    .as_object_mut()
                    .unwrap()
                    .remove(key);
                out.push(removed);
                walk(&m[key], path, out, root);
                path.pop();
            }
            for extra in [
                "_meta",
                "ttlMs",
                "resultType",
                "task",
                "tasks",
                "taskId",
                "method",
                "error",
                "params",
                "other",
            ] {
                if !m.contains_key(extra) {
                    let mut copy = root.clone();
                    copy.pointer_mut(&ptr(path))
                        .unwrap()
                        .as_object_mut()
                        .unwrap()
                        .insert(extra.to_string(), serde_json::json!({}));
                    out.push(copy);
                }
            }
        }
        walk(base, &mut Vec::new(), &mut out, base);
        out
    }

    /// Every variant in every context: whenever the fast path answers (valid or not), its
    /// report equals the full validator's. Answers how many valid and invalid answers it gave.
    fn check_all(base: &Value) -> (usize, usize) {
        let (mut valid, mut invalid) = (0, 0);
        for msg in variants(base) {
            let text = serde_json::to_string(&msg).unwrap();
            for ctx in contexts() {
                if let Some(fast) = try_report(&text, &ctx) {
                    if fast.issues.is_empty() {
                        valid += 1;
                    } else {
                        invalid += 1;
                    }
                    let slow = full(&text, &ctx).expect("the full validator parses it");
                    assert_eq!(fast, slow, "{text} {ctx:?}");
                }
                // The second reading alone (it also meets the valid messages).
                if let Some(issues) = check_issues(&text, &ctx) {
                    let slow = full(&text, &ctx).expect("the full validator parses it");
                    assert_eq!(issues.into_report(&ctx), slow, "{text} {ctx:?}");
                }
            }
        }
        (valid, invalid)
    }

    #[test]
    fn fast_task_answers_equal_the_full_validator() {
        let base = serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": task(0)});
        let (valid, invalid) = check_all(&base);
        assert!(valid > 20 && invalid > 200, "{valid} {invalid}");
    }

    #[test]
    fn fast_list_answers_equal_the_full_validator() {
        let base = serde_json::json!({
            "jsonrpc": "2.0", "id": "a",
            "result": {"tasks": [task(1), task(2)], "nextCursor": "page-2"},
        });
        let (valid, invalid) = check_all(&base);
        assert!(valid > 20 && invalid > 200, "{valid} {invalid}");
        let empty = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"tasks": []}});
        assert!(check_all(&empty).0 > 5);
    }

    /// Several members wrong at once, with a cap on the issues: the same order and truncation.
    #[test]
    fn several_issues_and_the_cap_equal_the_full_validator() {
        let mut bad = task(0);
        bad["taskId"] = serde_json::json!(7);
        bad["status"] = serde_json::json!("running");
        bad["statusMessage"] = serde_json::json!(["x"]);
        bad["createdAt"] = serde_json::json!("yesterday \\ \"quoted\" \u{00e9}");
        bad["lastUpdatedAt"] = serde_json::json!(1.5);
        bad["ttl"] = serde_json::json!("600000");
        bad["pollInterval"] = serde_json::json!(-2.5);
        let get = serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": bad.clone()});
        let list = serde_json::json!({"jsonrpc": "2.0", "id": 3,
            "result": {"tasks": [task(1), bad.clone(), task(2), bad]}});
        for msg in [get, list] {
            let text = serde_json::to_string(&msg).unwrap();
            for max in [None, Some(0), Some(1), Some(3), Some(100)] {
                for mut ctx in contexts() {
                    ctx.max_issues = max;
                    if let Some(fast) = try_report(&text, &ctx) {
                        assert_eq!(Some(fast), full(&text, &ctx), "{text} {ctx:?}");
                    }
                }
            }
            let ctx = Context::default();
            assert!(try_report(&text, &ctx).is_some_and(|r| !r.valid), "{text}");
        }
    }

    /// The benchmarks' invalid answers take the fast path.
    #[test]
    fn bench_invalid_answers_take_the_fast_path() {
        for (key, value) in [("status", "running"), ("ttl", "600000")] {
            let mut t = task(0);
            t[key] = serde_json::json!(value);
            let text = serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": t}).to_string();
            let ctx = Context {
                in_reply_to: Some("tasks/get".into()),
                ..Context::default()
            };
            let fast = try_report(&text, &ctx).expect("the fast path answers");
            assert!(!fast.valid && fast.issues.len() == 1);
            assert_eq!(Some(fast), full(&text, &ctx));
        }
    }

    #[test]
    fn fast_path_takes_the_common_answers() {
        let get = serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": task(0)}).to_string();
        let ctx = Context {
            in_reply_to: Some("tasks/get".into()),
            ..Context::default()
        };
        assert!(try_valid(&get, &ctx).is_some());
        // Duplicate members, escapes and odd spacing: the same verdicts either way.
        for text in [
            r#"{"jsonrpc":"2.0","id":3,"id":4,"result":{"taskId":"a","status":"working","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":null}}"#,
            r#" { "jsonrpc" : "2.0" , "id" : 3.0 , "result" : { "taskId" : "a\u0041\n" , "status" : "work\u0069ng" , "createdAt" : "2025-11-25T10:30:00Z" , "lastUpdatedAt" : "2025-11-25T10:30:00Z" , "ttl" : 1e3 } } "#,
            r#"{"jsonrpc":"2.0","id":3,"result":{"taskId":"a","status":"working","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":1}} x"#,
        ] {
            for ctx in contexts() {
                if let Some(fast) = try_report(text, &ctx) {
                    assert_eq!(Some(fast), full(text, &ctx), "{text}");
                }
            }
        }
    }
}
