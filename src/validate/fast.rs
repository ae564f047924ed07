//! A fast path for the commonest answers: a valid 2025-11-25 `tasks/get` result (a flat task)
//! or `tasks/list` result, read from the text into borrowed, typed structs (no
//! `serde_json::Value` tree) and checked as they are read.
//!
//! The fast path only ever answers "valid, no issues": it gives up (`None`) on anything it does
//! not fully know (an unknown or duplicate member, `_meta`, a `null` where the checks want a
//! value, any rule broken, other options or versions), and the caller then runs the full
//! validator ([`super::detect::dispatch`]) on the same text. So whenever it answers, the full
//! validator gives the very same report: the differential tests below hold it to that.

use std::fmt;

use chrono::{DateTime, FixedOffset};
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Number, Value};

use super::fields::{millis, parse_timestamp, Millis};
use super::report::{Omitted, RpcKind, ValidationReport, VersionSource};
use super::Context;
use crate::model::{ProtocolVersion, TaskStatus};

/// The shapes the fast path knows.
#[derive(Clone, Copy)]
enum Shape {
    Task,
    List,
}

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
        ValidationReport {
            valid: true,
            version: Some(ProtocolVersion::V2025),
            version_source: self.version_source,
            kind: self.kind.to_string(),
            rpc: RpcKind::Result,
            method: ctx.in_reply_to.clone(),
            issues: Vec::new(),
            omitted: Omitted::default(),
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

/// The report of a valid message with no issues, when the fast path can tell; `None` means
/// "ask the full validator".
pub fn try_valid(text: &str, ctx: &Context) -> Option<ValidationReport> {
    check(text, ctx).map(|v| v.report(ctx))
}

/// [`try_valid`] without building the report.
pub fn check(text: &str, ctx: &Context) -> Option<Valid> {
    if ctx.headers.is_some() || ctx.version.is_some_and(|v| v != ProtocolVersion::V2025) {
        return None;
    }
    let task = || serde_json::from_str::<Envelope<Task25>>(text).is_ok();
    let list = || serde_json::from_str::<Envelope<List25>>(text).is_ok();
    let shape = match ctx.in_reply_to.as_deref() {
        Some("tasks/get") => task().then_some(Shape::Task),
        Some("tasks/list") => list().then_some(Shape::List),
        Some(_) => None,
        // Nothing names the method: the members do (a `taskId` is a task, a `tasks` array a
        // list). A list fails the task struct at its first member, and the other way round.
        None => {
            if task() {
                Some(Shape::Task)
            } else {
                list().then_some(Shape::List)
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
        kind: match shape {
            Shape::Task => "GetTaskResult",
            Shape::List => "ListTasksResult",
        },
    })
}

/// `{"jsonrpc":"2.0","id":…,"result":…}` and nothing else.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Envelope<R> {
    #[allow(dead_code)]
    jsonrpc: JsonRpc20,
    #[allow(dead_code)]
    id: Id,
    #[allow(dead_code)]
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::validate::{parse, validate_value, DEFAULT_MAX_BYTES};

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

    fn check_all(base: &Value) -> usize {
        let mut fast_answers = 0;
        for msg in variants(base) {
            let text = serde_json::to_string(&msg).unwrap();
            for ctx in contexts() {
                if let Some(fast) = try_valid(&text, &ctx) {
                    fast_answers += 1;
                    let slow = full(&text, &ctx).expect("the full validator parses it");
                    assert_eq!(fast, slow, "{text} {ctx:?}");
                }
            }
        }
        fast_answers
    }

    #[test]
    fn fast_task_answers_equal_the_full_validator() {
        let base = serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": task(0)});
        assert!(check_all(&base) > 20);
    }

    #[test]
    fn fast_list_answers_equal_the_full_validator() {
        let base = serde_json::json!({
            "jsonrpc": "2.0", "id": "a",
            "result": {"tasks": [task(1), task(2)], "nextCursor": "page-2"},
        });
        assert!(check_all(&base) > 20);
        let empty = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"tasks": []}});
        assert!(check_all(&empty) > 5);
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
                if let Some(fast) = try_valid(text, &ctx) {
                    assert_eq!(Some(fast), full(text, &ctx), "{text}");
                }
            }
        }
    }
}
