//! [`StoreError`]: every way a store operation can fail, with the JSON-RPC error it maps to.

use std::fmt;

use crate::model::common::JsonRpcError;
use crate::model::TaskStatus;

/// JSON-RPC "Invalid params".
pub const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC "Internal error".
pub const INTERNAL_ERROR: i64 = -32603;
/// The code of [`StoreError::SessionCapReached`]: implementation-defined server error range
/// (-32000..-32099), chosen clear of every code MCP assigns (-32000/-32001 are used by SDKs for
/// transport conditions; -32002, -32042, -32020..-32022 by the protocol).
pub const TASK_LIMIT_CODE: i64 = -32010;

/// Why a store operation failed.
#[derive(Debug, Clone, PartialEq)]
pub enum StoreError {
    /// No such task for this caller: never created, expired, purged, or bound to another session
    /// (never "forbidden": another session's task is indistinguishable from a missing one).
    /// -32602 in both versions (§D 26, 35, 38, 86).
    NotFound,
    /// A `tasks/list` cursor that this store did not issue to this caller (forged, altered,
    /// foreign session, malformed). -32602 (§D 35).
    InvalidCursor,
    /// The task is already terminal. For a V25 `tasks/cancel` this is the -32602 answer (§D 22);
    /// for a late `complete`/`fail` it is the "first terminal outcome won" report (§D 21, 93)
    /// that the worker may ignore.
    AlreadyTerminal { status: TaskStatus },
    /// `set_status` to a status it cannot set: terminal statuses need their payload and go
    /// through `complete`, `fail` or `cancel`. A host bug: -32603.
    InvalidTransition { from: TaskStatus, to: TaskStatus },
    /// An input request key already used for another request, or already answered/superseded
    /// (§D 87). A host bug: -32603.
    InputKeyReused { key: String },
    /// An input request that is not a bare `{method, params}` object of an allowed method, or an
    /// empty set of requests. A host bug: -32603.
    InvalidInputRequest { key: Option<String>, reason: String },
    /// A tool-error failure ([`Store::fail_with_tool_result`](super::Store::fail_with_tool_result))
    /// whose result lacks `isError: true`, or of a task not created under 2025-11-25. A host
    /// bug: -32603.
    InvalidToolFailure { reason: String },
    /// The session already holds the configured maximum of live (non-terminal) tasks (§D 42).
    SessionCapReached { limit: usize },
    /// Compare-and-swap kept losing to concurrent writers (bounded retries exhausted). -32603.
    Conflict,
    /// No fresh task id after repeated collisions (a broken random source). -32603.
    IdCollision,
    /// A snapshot that cannot be restored. -32603.
    InvalidSnapshot { reason: String },
    /// The random source failed: no task id (or cursor key) can be drawn. -32603.
    RandomUnavailable { reason: String },
    /// The creation sequence reached 2^53 − 1 (the largest integer snapshots carry exactly):
    /// no task can be created. -32603.
    SequenceExhausted,
    /// An argument of the JS bindings (a request, a result, an id…) larger than the configured
    /// `option` (`maxRequestBytes`, or `maxSnapshotBytes` for a snapshot): `limit` bytes of
    /// UTF-8. Refused before it was copied into wasm memory. -32602.
    TooLarge {
        argument: String,
        option: &'static str,
        limit: u64,
    },
}

impl From<super::random::RandomUnavailable> for StoreError {
    fn from(e: super::random::RandomUnavailable) -> Self {
        StoreError::RandomUnavailable { reason: e.0 }
    }
}

/// What a store error names: `kind` of the JS `TaskStoreError` (one per [`StoreError`]
/// variant, in `snake_case`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, tsify::Tsify)]
#[serde(rename_all = "snake_case")]
pub enum StoreErrorKind {
    NotFound,
    InvalidCursor,
    AlreadyTerminal,
    InvalidTransition,
    InputKeyReused,
    InvalidInputRequest,
    InvalidToolFailure,
    SessionCapReached,
    Conflict,
    IdCollision,
    InvalidSnapshot,
    RandomUnavailable,
    SequenceExhausted,
    /// An argument larger than `maxRequestBytes` (or a snapshot larger than
    /// `maxSnapshotBytes`), refused before it was copied into wasm memory.
    TooLarge,
}

impl StoreError {
    /// Which error this is, without its details.
    pub fn kind(&self) -> StoreErrorKind {
        match self {
            StoreError::NotFound => StoreErrorKind::NotFound,
            StoreError::InvalidCursor => StoreErrorKind::InvalidCursor,
            StoreError::AlreadyTerminal { .. } => StoreErrorKind::AlreadyTerminal,
            StoreError::InvalidTransition { .. } => StoreErrorKind::InvalidTransition,
            StoreError::InputKeyReused { .. } => StoreErrorKind::InputKeyReused,
            StoreError::InvalidInputRequest { .. } => StoreErrorKind::InvalidInputRequest,
            StoreError::InvalidToolFailure { .. } => StoreErrorKind::InvalidToolFailure,
            StoreError::SessionCapReached { .. } => StoreErrorKind::SessionCapReached,
            StoreError::Conflict => StoreErrorKind::Conflict,
            StoreError::IdCollision => StoreErrorKind::IdCollision,
            StoreError::InvalidSnapshot { .. } => StoreErrorKind::InvalidSnapshot,
            StoreError::RandomUnavailable { .. } => StoreErrorKind::RandomUnavailable,
            StoreError::SequenceExhausted => StoreErrorKind::SequenceExhausted,
            StoreError::TooLarge { .. } => StoreErrorKind::TooLarge,
        }
    }

    /// The JSON-RPC error code this error answers with.
    pub fn code(&self) -> i64 {
        match self {
            StoreError::NotFound
            | StoreError::InvalidCursor
            | StoreError::AlreadyTerminal { .. }
            | StoreError::TooLarge { .. } => INVALID_PARAMS,
            StoreError::SessionCapReached { .. } => TASK_LIMIT_CODE,
            StoreError::InvalidTransition { .. }
            | StoreError::InputKeyReused { .. }
            | StoreError::InvalidInputRequest { .. }
            | StoreError::InvalidToolFailure { .. }
            | StoreError::Conflict
            | StoreError::IdCollision
            | StoreError::InvalidSnapshot { .. }
            | StoreError::RandomUnavailable { .. }
            | StoreError::SequenceExhausted => INTERNAL_ERROR,
        }
    }

    /// The JSON-RPC error object (`data` is set for the session cap and `TooLarge` only).
    pub fn to_jsonrpc(&self) -> JsonRpcError {
        let data = match self {
            StoreError::SessionCapReached { limit } => Some(serde_json::json!({ "limit": limit })),
            StoreError::TooLarge { option, limit, .. } => {
                let mut data = serde_json::Map::new();
                data.insert((*option).to_string(), serde_json::Value::from(*limit));
                Some(serde_json::Value::Object(data))
            }
            _ => None,
        };
        JsonRpcError {
            code: self.code(),
            message: self.to_string(),
            data,
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::NotFound => f.write_str("Task not found (unknown, expired or purged)"),
            StoreError::InvalidCursor => f.write_str("Invalid cursor"),
            StoreError::AlreadyTerminal { status } => {
                write!(f, "Task is already terminal ({})", status.as_str())
            }
            StoreError::InvalidTransition { from, to } => write!(
                f,
                "Invalid status change {} -> {} (terminal statuses go through complete, fail or cancel)",
                from.as_str(),
                to.as_str()
            ),
            StoreError::InputKeyReused { key } => {
                write!(f, "Input request key {key:?} was already used by this task")
            }
            StoreError::InvalidInputRequest { key: Some(key), reason } => {
                write!(f, "Invalid input request {key:?}: {reason}")
            }
            StoreError::InvalidInputRequest { key: None, reason } => {
                write!(f, "Invalid input requests: {reason}")
            }
            StoreError::InvalidToolFailure { reason } => {
                write!(f, "Invalid tool error failure: {reason}")
            }
            StoreError::SessionCapReached { limit } => {
                write!(f, "Too many live tasks for this session (limit {limit})")
            }
            StoreError::Conflict => f.write_str("Task store conflict: concurrent writers, retries exhausted"),
            StoreError::IdCollision => f.write_str("Could not generate a fresh task id"),
            StoreError::InvalidSnapshot { reason } => write!(f, "Invalid store snapshot: {reason}"),
            StoreError::RandomUnavailable { reason } => {
                write!(f, "No secure random source: {reason}")
            }
            StoreError::SequenceExhausted => {
                f.write_str("The task sequence is exhausted (2^53 - 1 tasks were created)")
            }
            StoreError::TooLarge {
                argument,
                option,
                limit,
            } => write!(
                f,
                "`{argument}` is larger than {option} ({limit} bytes of UTF-8)"
            ),
        }
    }
}

impl std::error::Error for StoreError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes() {
        assert_eq!(StoreError::NotFound.code(), -32602);
        assert_eq!(StoreError::InvalidCursor.code(), -32602);
        assert_eq!(
            StoreError::AlreadyTerminal {
                status: TaskStatus::Completed
            }
            .code(),
            -32602
        );
        assert_eq!(StoreError::Conflict.code(), -32603);
        let e = StoreError::SessionCapReached { limit: 3 }.to_jsonrpc();
        assert_eq!(e.code, TASK_LIMIT_CODE);
        assert_eq!(e.data, Some(serde_json::json!({"limit": 3})));
        let e = StoreError::TooLarge {
            argument: "result".into(),
            option: "maxRequestBytes",
            limit: 1024,
        }
        .to_jsonrpc();
        assert_eq!(e.code, -32602);
        assert_eq!(
            e.message,
            "`result` is larger than maxRequestBytes (1024 bytes of UTF-8)"
        );
        assert_eq!(e.data, Some(serde_json::json!({"maxRequestBytes": 1024})));
    }
}
