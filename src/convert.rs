//! Conversion between the two versions where it is meaningful (TASKS-SPEC §C):
//!
//! * a task ⇄ a task: `ttl` ⇄ `ttlMs`, `pollInterval` ⇄ `pollIntervalMs`;
//! * the V25 nested `CreateTaskResult {task}` ⇄ the V26 flat one with `resultType: "task"`.
//!
//! Conversion works on JSON values so that members neither version defines travel unchanged.
//! Whatever has no counterpart is reported as a `conversion-lossy` warning (dropped or
//! reinterpreted, with the JSON Pointer of the source member) or a `conversion-impossible` error;
//! nothing is silently guessed.
//!
//! Lossy cases, all reported:
//! * V26 → V25: `result`, `error` and `inputRequests` are dropped (V25 delivers the payload
//!   through `tasks/result` and input through separate requests); `resultType` is dropped.
//! * V26 → V25: a `completed` task whose `result.isError` is true becomes `failed` (§D 44).
//! * V25 → V26: a `failed` task keeps `failed`, although V25 also uses it for tool results with
//!   `isError` that V26 reports as `completed` (§D 91): the reader is warned.
//! * V25 → V26: the related-task and model-immediate-response `_meta` keys are dropped (gone in V26).
//! * V26 → V25 `CreateTaskResult` in another status than `working` is impossible (§D 7).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tsify::Tsify;

use crate::base::pointer::pointer;
use crate::model::common::RELATED_TASK_META_KEY;
use crate::model::{ProtocolVersion, TaskStatus};
use crate::validate::fields::check_task_members;
use crate::validate::{Code, Issue, Issues};

/// The `_meta` key of V25's model-immediate-response text (gone in V26).
const MODEL_IMMEDIATE_RESPONSE: &str = "io.modelcontextprotocol/model-immediate-response";

/// The answer of a conversion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[tsify(missing_as_null)]
pub struct ConversionReport {
    /// `true` when `value` holds the converted value (warnings may remain).
    pub ok: bool,
    pub from: Option<ProtocolVersion>,
    pub to: ProtocolVersion,
    /// The converted value (an object), or `null` when the input was invalid or has no
    /// counterpart.
    #[tsify(type = "Record<string, unknown> | null")]
    pub value: Option<Value>,
    /// Validation errors of the input, `conversion-impossible` errors, `conversion-lossy` warnings.
    pub issues: Vec<Issue>,
}

impl ConversionReport {
    /// The answer for input that was not read (not JSON, too large, …): not converted, with the
    /// issues of its report.
    pub fn not_read(report: crate::validate::ValidationReport, to: ProtocolVersion) -> Self {
        ConversionReport {
            ok: false,
            from: None,
            to,
            value: None,
            issues: report.issues,
        }
    }
}

fn version_of_task(t: &Map<String, Value>) -> Option<ProtocolVersion> {
    if t.contains_key("ttlMs") || t.contains_key("pollIntervalMs") {
        Some(ProtocolVersion::V2026)
    } else if t.contains_key("ttl") || t.contains_key("pollInterval") {
        Some(ProtocolVersion::V2025)
    } else {
        None
    }
}

fn converted(
    from: ProtocolVersion,
    to: ProtocolVersion,
    value: Value,
    issues: Issues,
) -> ConversionReport {
    ConversionReport {
        ok: true,
        from: Some(from),
        to,
        value: Some(value),
        issues: issues.into_vec(),
    }
}

fn failed(from: Option<ProtocolVersion>, to: ProtocolVersion, issues: Issues) -> ConversionReport {
    ConversionReport {
        ok: false,
        from,
        to,
        value: None,
        issues: issues.into_vec(),
    }
}

/// Converts the members of a task object (`path` is where it sits in the input).
fn convert_members(
    t: &Map<String, Value>,
    path: &str,
    from: ProtocolVersion,
    to: ProtocolVersion,
    issues: &mut Issues,
) -> Map<String, Value> {
    let mut out = Map::new();
    let payload_is_error = t
        .get("result")
        .and_then(Value::as_object)
        .and_then(|r| r.get("isError"))
        .and_then(Value::as_bool)
        == Some(true);
    for (k, v) in t {
        match (from, to, k.as_str()) {
            (ProtocolVersion::V2025, ProtocolVersion::V2026, "ttl") => {
                out.insert("ttlMs".into(), v.clone());
            }
            (ProtocolVersion::V2025, ProtocolVersion::V2026, "pollInterval") => {
                out.insert("pollIntervalMs".into(), v.clone());
            }
            (ProtocolVersion::V2026, ProtocolVersion::V2025, "ttlMs") => {
                out.insert("ttl".into(), v.clone());
            }
            (ProtocolVersion::V2026, ProtocolVersion::V2025, "pollIntervalMs") => {
                out.insert("pollInterval".into(), v.clone());
            }
            (
                ProtocolVersion::V2026,
                ProtocolVersion::V2025,
                key @ ("result" | "error" | "inputRequests"),
            ) => {
                let how = if key == "inputRequests" {
                    "2025-11-25 sends input requests as separate requests tagged with the related-task _meta"
                } else {
                    "2025-11-25 delivers the payload through tasks/result"
                };
                issues.push(
                    Code::ConversionLossy,
                    &pointer(path, key),
                    format!("`{key}` dropped: {how}"),
                );
            }
            (ProtocolVersion::V2026, ProtocolVersion::V2025, "resultType") => {
                issues.push(
                    Code::ConversionLossy,
                    &pointer(path, "resultType"),
                    "`resultType` dropped: 2025-11-25 results have none",
                );
            }
            (ProtocolVersion::V2026, ProtocolVersion::V2025, "status")
                if v.as_str() == Some("completed") && payload_is_error =>
            {
                out.insert(
                    "status".into(),
                    Value::String(TaskStatus::Failed.as_str().into()),
                );
                issues.push(
                    Code::ConversionLossy,
                    &pointer(path, "status"),
                    "completed with `result.isError: true` becomes failed: 2025-11-25 fails tasks whose tool result is an error (§D 44)",
                );
            }
            (ProtocolVersion::V2025, ProtocolVersion::V2026, "status")
                if v.as_str() == Some("failed") =>
            {
                out.insert(k.clone(), v.clone());
                issues.push(
                    Code::ConversionLossy,
                    &pointer(path, "status"),
                    "failed kept as failed: in 2025-11-25 it may stand for a tool result with isError, which 2026-07-28 reports as completed; only tasks/result tells which",
                );
            }
            (ProtocolVersion::V2025, ProtocolVersion::V2026, "_meta") => {
                out.insert(
                    k.clone(),
                    strip_v25_meta(v, &pointer(path, "_meta"), issues),
                );
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    out
}

/// Drops the `_meta` keys 2026-07-28 no longer has.
fn strip_v25_meta(meta: &Value, path: &str, issues: &mut Issues) -> Value {
    let Value::Object(m) = meta else {
        return meta.clone();
    };
    let mut out = Map::new();
    for (k, v) in m {
        if k == RELATED_TASK_META_KEY || k == MODEL_IMMEDIATE_RESPONSE {
            issues.push(
                Code::ConversionLossy,
                &pointer(path, k),
                format!("`_meta[\"{k}\"]` dropped: 2026-07-28 has no such key"),
            );
        } else {
            out.insert(k.clone(), v.clone());
        }
    }
    Value::Object(out)
}

/// Converts a task (flat; a V26 `DetailedTask` is accepted too) to version `to`. `from` is
/// detected from `ttl` / `ttlMs` when not given.
pub fn convert_task(
    task: &Value,
    from: Option<ProtocolVersion>,
    to: ProtocolVersion,
) -> ConversionReport {
    let mut issues = Issues::new();
    let Value::Object(t) = task else {
        issues.push(
            Code::ConversionImpossible,
            "",
            "a task must be a JSON object",
        );
        return failed(from, to, issues);
    };
    let Some(from) = from.or_else(|| version_of_task(t)) else {
        issues.push(
            Code::ConversionImpossible,
            "",
            "neither `ttl` nor `ttlMs` tells the version of this task; pass it",
        );
        return failed(None, to, issues);
    };
    check_task_members(t, "", from, &mut issues);
    if issues.has_errors() {
        return failed(Some(from), to, issues);
    }
    if from == to {
        return converted(from, to, task.clone(), issues);
    }
    let out = convert_members(t, "", from, to, &mut issues);
    converted(from, to, Value::Object(out), issues)
}

/// Converts a `CreateTaskResult`: V25 `{task: {...}}` ⇄ V26 flat `{resultType: "task", ...}`.
pub fn convert_create_task_result(result: &Value, to: ProtocolVersion) -> ConversionReport {
    let mut issues = Issues::new();
    let Value::Object(r) = result else {
        issues.push(
            Code::ConversionImpossible,
            "",
            "a CreateTaskResult must be a JSON object",
        );
        return failed(None, to, issues);
    };
    let from = if r.get("task").is_some_and(Value::is_object) {
        ProtocolVersion::V2025
    } else if r.get("resultType").and_then(Value::as_str) == Some("task") {
        ProtocolVersion::V2026
    } else {
        issues.push(
            Code::ConversionImpossible,
            "",
            "not a CreateTaskResult of either version: no nested `task` and no `resultType: \"task\"`",
        );
        return failed(None, to, issues);
    };
    match from {
        ProtocolVersion::V2025 => {
            let Some(Value::Object(task)) = r.get("task") else {
                return failed(Some(from), to, issues);
            };
            check_task_members(task, "/task", from, &mut issues);
            if issues.has_errors() {
                return failed(Some(from), to, issues);
            }
            if from == to {
                return converted(from, to, result.clone(), issues);
            }
            let mut out = Map::new();
            out.insert("resultType".into(), Value::String("task".into()));
            for (k, v) in convert_members(task, "/task", from, to, &mut issues) {
                out.insert(k, v);
            }
            for (k, v) in r {
                match k.as_str() {
                    "task" => {}
                    "_meta" => {
                        out.insert(k.clone(), strip_v25_meta(v, "/_meta", &mut issues));
                    }
                    _ => {
                        out.insert(k.clone(), v.clone());
                    }
                }
            }
            converted(from, to, Value::Object(out), issues)
        }
        ProtocolVersion::V2026 => {
            check_task_members(r, "", from, &mut issues);
            if issues.has_errors() {
                return failed(Some(from), to, issues);
            }
            if from == to {
                return converted(from, to, result.clone(), issues);
            }
            if let Some(s) = r.get("status").and_then(Value::as_str) {
                if s != TaskStatus::Working.as_str() {
                    issues.push(
                        Code::ConversionImpossible,
                        "/status",
                        format!(
                            "a 2025-11-25 task is created in working (§D 7); this one starts {s}"
                        ),
                    );
                    return failed(Some(from), to, issues);
                }
            }
            let mut task = Map::new();
            let mut out = Map::new();
            for (k, v) in r {
                match k.as_str() {
                    "resultType" => {}
                    "_meta" => {
                        out.insert(k.clone(), v.clone());
                    }
                    _ => {
                        task.insert(k.clone(), v.clone());
                    }
                }
            }
            let task = convert_members(&task, "", from, to, &mut issues);
            out.insert("task".into(), Value::Object(task));
            converted(from, to, Value::Object(out), issues)
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use serde_json::json;

    const V25: ProtocolVersion = ProtocolVersion::V2025;
    const V26: ProtocolVersion = ProtocolVersion::V2026;

    #[test]
    fn input_not_read_is_not_converted_and_says_why() {
        let report = crate::validate::input_report(crate::validate::Code::TooLarge, "big");
        let issues = report.issues.clone();
        let r = ConversionReport::not_read(report, V26);
        assert_eq!((r.ok, r.from, r.to, r.value), (false, None, V26, None));
        assert_eq!(r.issues, issues);
    }

    fn task25() -> Value {
        json!({"taskId":"t","status":"working","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":null,"pollInterval":500,"x-vendor":1})
    }

    #[test]
    fn task_round_trip_is_lossless() {
        let r = convert_task(&task25(), None, V26);
        assert!(r.ok && r.issues.is_empty(), "{:?}", r.issues);
        let v = r.value.unwrap();
        assert_eq!(v["ttlMs"], Value::Null);
        assert_eq!(v["pollIntervalMs"], 500);
        assert_eq!(v["x-vendor"], 1);
        assert!(v.get("ttl").is_none());
        let back = convert_task(&v, None, V25);
        assert_eq!(back.value.unwrap(), task25());
    }

    #[test]
    fn payload_drop_is_reported() {
        let t = json!({"taskId":"t","status":"completed","createdAt":"2026-07-28T10:30:00Z","lastUpdatedAt":"2026-07-28T10:30:00Z","ttlMs":5,"result":{"content":[],"isError":true}});
        let r = convert_task(&t, None, V25);
        assert!(r.ok);
        let v = r.value.unwrap();
        assert_eq!(v["status"], "failed");
        assert!(v.get("result").is_none());
        let paths: Vec<_> = r
            .issues
            .iter()
            .map(|i| (i.code.as_str(), i.path.as_str()))
            .collect();
        assert!(paths.contains(&("conversion-lossy", "/result")));
        assert!(paths.contains(&("conversion-lossy", "/status")));
    }

    #[test]
    fn invalid_input_is_refused() {
        let r = convert_task(&json!({"taskId":"t","ttl":-1}), None, V26);
        assert!(!r.ok);
        assert!(r.value.is_none());
        assert!(r.issues.iter().any(|i| i.code == "task-required-member"));
        let r = convert_task(&json!({"taskId":"t"}), None, V26);
        assert_eq!(r.issues[0].code, "conversion-impossible");
    }

    #[test]
    fn create_task_result_both_ways() {
        let v25 = json!({"task": task25(), "_meta": {"io.modelcontextprotocol/model-immediate-response": "hi", "k": 1}});
        let r = convert_create_task_result(&v25, V26);
        assert!(r.ok);
        let v = r.value.unwrap();
        assert_eq!(v["resultType"], "task");
        assert_eq!(v["taskId"], "t");
        assert_eq!(v["_meta"], json!({"k": 1}));
        assert_eq!(
            r.issues[0].path,
            "/_meta/io.modelcontextprotocol~1model-immediate-response"
        );
        let back = convert_create_task_result(&v, V25).value.unwrap();
        assert_eq!(back["task"], task25());
        let mut seed = v.clone();
        seed["status"] = json!("completed");
        let r = convert_create_task_result(&seed, V25);
        assert!(!r.ok);
        assert_eq!(r.issues[0].code, "conversion-impossible");
    }
}
