//! [`Snapshot`]: the few members of a task the scheduler reads (status, timestamps, TTL, poll
//! interval), from a V25 `Task` / V26 `DetailedTask` JSON value.

use serde_json::{Map, Value};

use super::config::ScheduleError;
use crate::base::time::{self, millis, Millis};
use crate::model::{ProtocolVersion, TaskStatus};

/// What a task snapshot says about its retention (`ttl` V25, `ttlMs` V26; §A.d, §B.d).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ttl {
    /// Absent or unreadable (negative, fractional, not a number): the last known value stands.
    Unknown,
    /// `null`: unlimited retention, no backstop.
    Unlimited,
    /// Milliseconds from `createdAt`.
    Ms(u64),
}

/// The members of a task snapshot the scheduler uses. The validator judges messages; the
/// scheduler only paces polls, so it reads leniently: only `status` is required. An unreadable
/// timestamp, TTL or interval reads as absent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub status: TaskStatus,
    /// `createdAt` as Unix ms (a time before 1970 reads as 0).
    pub created_at_ms: Option<u64>,
    /// `lastUpdatedAt` as Unix ms.
    pub last_updated_at_ms: Option<u64>,
    pub ttl: Ttl,
    /// `pollInterval` (V25) / `pollIntervalMs` (V26).
    pub poll_interval_ms: Option<u64>,
    /// The version whose member names the snapshot uses, when they tell.
    pub version: Option<ProtocolVersion>,
}

impl Snapshot {
    /// Reads a task: a V25 `Task` (`tasks/get` answer, `notifications/tasks/status` params), a
    /// V25 `CreateTaskResult` (`{ task: Task }`), or a V26 task (`CreateTaskResult`,
    /// `GetTaskResult`, `notifications/tasks` params; flat). With `version` known, only its
    /// member names are read (`ttl`/`pollInterval` or `ttlMs`/`pollIntervalMs`); unknown, the
    /// V26 names are tried first and the version is told by which are present.
    pub fn read(
        value: &Value,
        version: Option<ProtocolVersion>,
    ) -> Result<Snapshot, ScheduleError> {
        let invalid = |reason: &str| ScheduleError::InvalidSnapshot {
            reason: reason.to_string(),
        };
        let mut task = value.as_object().ok_or_else(|| invalid("not an object"))?;
        if !task.contains_key("status") {
            if let Some(Value::Object(inner)) = task.get("task") {
                task = inner; // V25 CreateTaskResult (§D 6)
            }
        }
        let status = match task.get("status") {
            None => return Err(invalid("`status` is missing")),
            Some(s) => s
                .as_str()
                .and_then(TaskStatus::parse)
                .ok_or_else(|| invalid("`status` is not a task status (§D 3, 63)"))?,
        };
        let names = |v: ProtocolVersion| match v {
            ProtocolVersion::V2025 => ("ttl", "pollInterval"),
            ProtocolVersion::V2026 => ("ttlMs", "pollIntervalMs"),
        };
        let version = version.or_else(|| {
            [ProtocolVersion::V2026, ProtocolVersion::V2025]
                .into_iter()
                .find(|v| {
                    let (ttl, interval) = names(*v);
                    task.contains_key(ttl) || task.contains_key(interval)
                })
        });
        let (ttl, poll_interval_ms) = match version.map(names) {
            None => (Ttl::Unknown, None),
            Some((ttl_key, interval_key)) => (
                match task.get(ttl_key) {
                    Some(Value::Null) => Ttl::Unlimited,
                    Some(v) => ms(v).map_or(Ttl::Unknown, Ttl::Ms),
                    None => Ttl::Unknown,
                },
                task.get(interval_key).and_then(ms),
            ),
        };
        Ok(Snapshot {
            status,
            created_at_ms: timestamp(task, "createdAt"),
            last_updated_at_ms: timestamp(task, "lastUpdatedAt"),
            ttl,
            poll_interval_ms,
            version,
        })
    }

    /// `createdAt + ttl`, the instant after which the TTL backstop may fire (§B.d, §D 108);
    /// `None` when either is unknown or the TTL is unlimited.
    pub fn expires_at_ms(&self) -> Option<u64> {
        match (self.created_at_ms, self.ttl) {
            (Some(created), Ttl::Ms(ttl)) => Some(created.saturating_add(ttl)),
            _ => None,
        }
    }
}

/// A non-negative integer number of milliseconds (§D 4, 65), else `None`.
fn ms(v: &Value) -> Option<u64> {
    match millis(v) {
        Millis::Ok(m) => Some(m as u64),
        _ => None,
    }
}

/// An RFC 3339 timestamp member as Unix ms (§D 5, 64); before 1970 reads as 0.
fn timestamp(task: &Map<String, Value>, key: &str) -> Option<u64> {
    let at = time::parse(task.get(key)?.as_str()?)?;
    Some(u64::try_from(at.timestamp_millis()).unwrap_or(0))
}
