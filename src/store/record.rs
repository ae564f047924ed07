//! The stored task: [`TaskRecord`], its state (status with the payload that status carries), its
//! input ledger, and its wire shapes in both versions.

use std::collections::BTreeMap;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::common::{JsonObject, JsonRpcError};
use crate::model::v2025::V25Task;
use crate::model::v2026::{
    V26DetailedTask, V26InputRequests, V26Task, V26TaskFields, V26TaskPayload,
};
use crate::model::{ProtocolVersion, TaskStatus};

/// The status of a task together with the payload its status carries. Terminal payloads live
/// inside their status, so a `completed` task without a result (or a `working` task with one)
/// cannot be represented.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum TaskState {
    Working,
    InputRequired,
    /// Exactly what the original request would have returned (§D 30, 92).
    Completed {
        result: JsonObject,
    },
    /// The JSON-RPC error the underlying request ended with (§D 91).
    Failed {
        error: JsonRpcError,
    },
    Cancelled,
}

impl TaskState {
    /// The wire status of this state.
    pub fn status(&self) -> TaskStatus {
        match self {
            TaskState::Working => TaskStatus::Working,
            TaskState::InputRequired => TaskStatus::InputRequired,
            TaskState::Completed { .. } => TaskStatus::Completed,
            TaskState::Failed { .. } => TaskStatus::Failed,
            TaskState::Cancelled => TaskStatus::Cancelled,
        }
    }
}

/// Where one input request (V26 `inputRequests` entry) stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum InputState {
    /// Issued and not answered: listed in `inputRequests` (§D 85).
    Outstanding,
    /// Answered through `tasks/update`; the response is kept for the work (and survives restarts).
    Answered { response: Value },
    /// Withdrawn by the server (the task moved on without the answer); later answers are ignored.
    Superseded,
}

/// One input request ever issued by a task. Entries are never removed, so a key is unique over
/// the task's whole life (§D 87).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputEntry {
    /// The bare request `{method, params}`.
    pub request: Value,
    #[serde(flatten)]
    pub state: InputState,
}

/// A task as the store keeps it.
///
/// `version` is the revision counter compare-and-swap writes check (1 at creation, +1 per
/// write); `seq` is the creation sequence number that orders `tasks/list` (never reused).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskRecord {
    pub id: String,
    pub version: u64,
    pub seq: u64,
    /// The protocol version of the request that created the task.
    pub protocol: ProtocolVersion,
    /// The session (authorization context) the task is bound to, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    #[serde(flatten)]
    pub state: TaskState,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// Unix milliseconds; never changes.
    pub created_at_ms: u64,
    /// Unix milliseconds; never decreases, never below `created_at_ms`.
    pub last_updated_at_ms: u64,
    /// The TTL the requestor asked for (V25 `params.task.ttl`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_ttl_ms: Option<u64>,
    /// The effective TTL reported on the wire (`ttl` / `ttlMs`); `None` = unlimited.
    pub ttl_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_interval_ms: Option<u64>,
    /// Every input request the task ever issued, by key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub inputs: BTreeMap<String, InputEntry>,
}

impl TaskRecord {
    /// The wire status.
    pub fn status(&self) -> TaskStatus {
        self.state.status()
    }

    /// The instant after which the task may be purged (`createdAt + ttl`); `None` = never.
    pub fn expires_at_ms(&self) -> Option<u64> {
        self.ttl_ms
            .and_then(|ttl| self.created_at_ms.checked_add(ttl))
    }

    /// The keys of the outstanding input requests, in key order.
    pub fn outstanding_keys(&self) -> impl Iterator<Item = &str> {
        self.inputs
            .iter()
            .filter(|(_, e)| e.state == InputState::Outstanding)
            .map(|(k, _)| k.as_str())
    }

    /// The outstanding input requests as the V26 `inputRequests` object (§D 85).
    pub fn input_requests(&self) -> V26InputRequests {
        V26InputRequests(
            self.inputs
                .iter()
                .filter(|(_, e)| e.state == InputState::Outstanding)
                .map(|(k, e)| (k.clone(), e.request.clone()))
                .collect(),
        )
    }

    /// The V25 wire task (`ttl`, `pollInterval`; no payload: V25 delivers it through
    /// `tasks/result`).
    pub fn to_v25(&self) -> V25Task {
        V25Task {
            task_id: self.id.clone(),
            status: self.status(),
            status_message: self.status_message.clone(),
            created_at: timestamp(self.created_at_ms),
            last_updated_at: timestamp(self.last_updated_at_ms),
            ttl: self.ttl_ms,
            poll_interval: self.poll_interval_ms,
        }
    }

    fn v26_fields(&self) -> V26TaskFields {
        V26TaskFields {
            task_id: self.id.clone(),
            status_message: self.status_message.clone(),
            created_at: timestamp(self.created_at_ms),
            last_updated_at: timestamp(self.last_updated_at_ms),
            ttl_ms: self.ttl_ms,
            poll_interval_ms: self.poll_interval_ms,
        }
    }

    /// The flat V26 task (`ttlMs`, `pollIntervalMs`) that `CreateTaskResult` carries.
    pub fn to_v26_task(&self) -> V26Task {
        V26Task {
            fields: self.v26_fields(),
            status: self.status(),
        }
    }

    /// The V26 `DetailedTask`: the payload of the current status (§D 85).
    pub fn to_v26_detailed(&self) -> V26DetailedTask {
        let payload = match &self.state {
            TaskState::Working => V26TaskPayload::Working {},
            TaskState::InputRequired => V26TaskPayload::InputRequired {
                input_requests: self.input_requests(),
            },
            TaskState::Completed { result } => V26TaskPayload::Completed {
                result: result.clone(),
            },
            TaskState::Failed { error } => V26TaskPayload::Failed {
                error: error.clone(),
            },
            TaskState::Cancelled => V26TaskPayload::Cancelled {},
        };
        V26DetailedTask {
            fields: self.v26_fields(),
            payload,
        }
    }
}

/// RFC 3339 UTC with millisecond precision (`2025-11-25T10:30:00.000Z`), as both versions emit
/// (§A.d, §B.d). Instants beyond chrono's range (year 262143) print as its largest instant.
pub fn timestamp(ms: u64) -> String {
    let dt = i64::try_from(ms)
        .ok()
        .and_then(DateTime::<Utc>::from_timestamp_millis)
        .unwrap_or(DateTime::<Utc>::MAX_UTC);
    dt.to_rfc3339_opts(SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use serde_json::json;

    fn record(state: TaskState) -> TaskRecord {
        TaskRecord {
            id: "abc".into(),
            version: 1,
            seq: 1,
            protocol: ProtocolVersion::V2026,
            session: None,
            state,
            status_message: Some("m".into()),
            created_at_ms: 1_764_066_600_000,
            last_updated_at_ms: 1_764_066_600_250,
            requested_ttl_ms: None,
            ttl_ms: Some(60_000),
            poll_interval_ms: Some(1000),
            inputs: BTreeMap::new(),
        }
    }

    #[test]
    fn timestamps_are_rfc3339_utc_millis() {
        assert_eq!(timestamp(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(timestamp(1_764_066_600_250), "2025-11-25T10:30:00.250Z");
        assert!(timestamp(u64::MAX).ends_with('Z'));
    }

    // §D 25 / 63: V25 `ttl`, V26 `ttlMs`, both always present (null = unlimited).
    #[test]
    fn wire_shapes_of_both_versions() {
        let mut r = record(TaskState::Completed {
            result: json!({"content": []}).as_object().unwrap().clone(),
        });
        let v25 = serde_json::to_value(r.to_v25()).unwrap();
        assert_eq!(v25["ttl"], 60_000);
        assert_eq!(v25["pollInterval"], 1000);
        assert_eq!(v25["createdAt"], "2025-11-25T10:30:00.000Z");
        assert!(v25.get("result").is_none());
        let v26 = serde_json::to_value(r.to_v26_detailed()).unwrap();
        assert_eq!(v26["ttlMs"], 60_000);
        assert_eq!(v26["status"], "completed");
        assert_eq!(v26["result"], json!({"content": []}));
        r.ttl_ms = None;
        assert!(serde_json::to_value(r.to_v26_task()).unwrap()["ttlMs"].is_null());
        assert!(serde_json::to_value(r.to_v25()).unwrap()["ttl"].is_null());
    }

    // §D 85: only outstanding requests are listed.
    #[test]
    fn detailed_input_required_lists_outstanding_only() {
        let mut r = record(TaskState::InputRequired);
        let req = json!({"method": "roots/list"});
        r.inputs.insert(
            "a".into(),
            InputEntry {
                request: req.clone(),
                state: InputState::Outstanding,
            },
        );
        r.inputs.insert(
            "b".into(),
            InputEntry {
                request: req.clone(),
                state: InputState::Answered {
                    response: json!({"roots": []}),
                },
            },
        );
        let v26 = serde_json::to_value(r.to_v26_detailed()).unwrap();
        assert_eq!(v26["inputRequests"], json!({"a": req}));
    }

    #[test]
    fn record_json_round_trips() {
        let mut r = record(TaskState::Failed {
            error: JsonRpcError {
                code: -32603,
                message: "x".into(),
                data: None,
            },
        });
        r.inputs.insert(
            "k".into(),
            InputEntry {
                request: json!({"method": "roots/list"}),
                state: InputState::Superseded,
            },
        );
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["status"], "failed");
        let back: TaskRecord = serde_json::from_value(v).unwrap();
        assert_eq!(back, r);
    }
}
