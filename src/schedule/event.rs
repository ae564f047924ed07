//! What the scheduler reports ([`SchedulerEvent`]) and what a host reports to it about a
//! failed poll ([`PollFailure`]).

use serde::Serialize;
use tsify::Tsify;

use crate::model::TaskStatus;

/// JSON-RPC "Invalid params": the answer to `tasks/get` for an id the server no longer knows
/// (expired or purged; §D 35, 56, 86, 114).
pub const NOT_FOUND_CODE: i64 = -32602;

/// Something the host should act on, in the order it happened. `key` is the host's key of the
/// task. In JS an object discriminated by `type`, named in camelCase as the TypeScript SDK's
/// stream messages (`taskStatus`) and `TaskClient`'s events are: `poll`, `taskStatus`,
/// `inputRequired`, `terminal`, `expired`, `stuck`, `deadlineExceeded`, `pollError`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Tsify)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum SchedulerEvent {
    /// Poll the task now (`tasks/get`), then report the answer (`observe`) or the failure
    /// (`observeError`).
    Poll { key: String },
    /// The task moved to `working` (`from: null`: its first snapshot).
    #[serde(rename = "taskStatus")]
    Status {
        key: String,
        #[tsify(type = "TaskStatus | null")]
        from: Option<TaskStatus>,
        status: TaskStatus,
    },
    /// The task needs input (§D 50, 105): V25 — call `tasks/result` now; V26 — answer its
    /// `inputRequests` with `tasks/update`. Polling goes on.
    InputRequired {
        key: String,
        #[tsify(type = "TaskStatus | null")]
        from: Option<TaskStatus>,
        status: TaskStatus,
    },
    /// The task reached `completed`, `failed` or `cancelled`: final, no more polls (§D 20, 93).
    Terminal {
        key: String,
        #[tsify(type = "TaskStatus | null")]
        from: Option<TaskStatus>,
        status: TaskStatus,
    },
    /// The task is gone or may be given up: no more polls.
    Expired { key: String, reason: ExpiredBecause },
    /// The task showed the same status and `lastUpdatedAt` in `polls` consecutive snapshots.
    /// Reported once per plateau; polling goes on.
    Stuck { key: String, polls: u32 },
    /// The deadline given to `track` passed before the task ended: no more polls.
    DeadlineExceeded { key: String },
    /// A poll failed (or went unanswered for `pollTimeoutMs`): `attempt` consecutive failures so
    /// far; the next poll is due at `nextPollAt` (Unix ms).
    PollError {
        key: String,
        attempt: u32,
        /// The JSON-RPC error code, `null` for a transport failure or a timeout.
        #[tsify(type = "number | null")]
        code: Option<i64>,
        #[serde(rename = "timedOut")]
        timed_out: bool,
        #[serde(rename = "nextPollAt")]
        next_poll_at: u64,
    },
}

impl SchedulerEvent {
    /// The task the event is about.
    pub fn key(&self) -> &str {
        match self {
            SchedulerEvent::Poll { key }
            | SchedulerEvent::Status { key, .. }
            | SchedulerEvent::InputRequired { key, .. }
            | SchedulerEvent::Terminal { key, .. }
            | SchedulerEvent::Expired { key, .. }
            | SchedulerEvent::Stuck { key, .. }
            | SchedulerEvent::DeadlineExceeded { key }
            | SchedulerEvent::PollError { key, .. } => key,
        }
    }
}

/// Why a task is reported expired (`"ttl"`, `"notFound"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub enum ExpiredBecause {
    /// `createdAt + ttl` passed and the task had not changed since (the TTL backstop, §B.d,
    /// §D 108).
    Ttl,
    /// `tasks/get` answered -32602 for the task: expired or purged (§D 56, 114).
    NotFound,
}

/// A failed poll, as the host reports it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PollFailure {
    /// The JSON-RPC error code of the answer; `None` for a transport failure (no answer).
    pub code: Option<i64>,
    /// The server's retry hint (HTTP `Retry-After`, in ms): no poll before it.
    pub retry_after_ms: Option<u64>,
}

/// Where a tracked task stands ([`Scheduler::info`](super::Scheduler::info)).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct TrackedTask {
    /// The latest status seen (`null`: no snapshot yet).
    #[tsify(type = "TaskStatus | null")]
    pub status: Option<TaskStatus>,
    /// When the next poll (or deadline/TTL check) is due, Unix ms; `null` once finished.
    #[tsify(type = "number | null")]
    pub due_at: Option<u64>,
    /// A poll was handed out and is not answered yet.
    pub in_flight: bool,
    /// Consecutive failed polls.
    pub errors: u32,
    /// Terminal, expired or past its deadline: never polled again.
    pub finished: bool,
}
