//! The arguments a JS host gives a `TaskScheduler` (declared once here, for the .d.ts too) and
//! how they resolve into the core's settings: every member left out takes its default. The
//! bindings read the members; this module decides.

use serde_json::Value;
use tsify::Tsify;

use super::config::SchedulerConfig;
use super::event::PollFailure;
use super::scheduler::TrackOptions;
use crate::model::ProtocolVersion;

/// Settings of a `TaskScheduler`; every member is optional.
#[derive(Debug, Default, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct TaskSchedulerOptions {
    /// No task is polled sooner than this after its previous poll (default and minimum 250 ms;
    /// less throws a `TypeError`). Raise it to slow polling down: nothing polls faster than
    /// the server's `pollInterval`/`pollIntervalMs`.
    #[tsify(optional)]
    pub floor_ms: Option<u64>,
    /// The interval while the server gives none (default 1000 ms; the floor still applies).
    #[tsify(optional)]
    pub default_interval_ms: Option<u64>,
    /// The backoff after a first failed poll, doubled per further failure (default 1000 ms).
    #[tsify(optional)]
    pub backoff_ms: Option<u64>,
    /// The longest backoff (default 60 000 ms).
    #[tsify(optional)]
    pub backoff_cap_ms: Option<u64>,
    /// Up to this fraction of each delay is added at random, 0 to 1 (default 0.1).
    #[tsify(optional)]
    pub jitter: Option<f64>,
    /// A poll handed out and not answered for this long counts as failed (default 30 000 ms).
    #[tsify(optional)]
    pub poll_timeout_ms: Option<u64>,
    /// At most this many polls per second to one server, across its tasks (default: none).
    #[tsify(optional, type = "number | null")]
    pub budget_per_second: Option<u32>,
    /// Report a task as `stuck` after this many snapshots in a row repeated its status and
    /// `lastUpdatedAt` (default: never).
    #[tsify(optional, type = "number | null")]
    pub stuck_after_polls: Option<u32>,
    /// The jitter seed, a non-negative safe integer (default: from `Math.random()`). The same
    /// seed and calls give the same times.
    #[tsify(optional)]
    pub seed: Option<u64>,
}

/// How `track` follows a task.
#[derive(Debug, Default, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct TrackParams {
    /// The server the task lives on: `budgetPerSecond` counts per server.
    #[tsify(optional)]
    pub server: Option<String>,
    /// The task's protocol version (default: told by its first snapshot).
    #[tsify(optional)]
    pub version: Option<ProtocolVersion>,
    /// The task as last seen (the `task` of a V25 `CreateTaskResult`, a V26 `CreateTaskResult`):
    /// the first poll is then one interval away. Without it the task is due at once.
    #[tsify(optional, type = "Record<string, unknown>")]
    pub task: Option<Value>,
    /// Give up on the task this many ms from now (a `deadlineExceeded` event).
    #[tsify(optional)]
    pub deadline_ms: Option<u64>,
}

/// A failed poll. A JSON-RPC error object (`{ code, message }`) can be passed as it is.
#[derive(Debug, Default, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct PollErrorInfo {
    /// The JSON-RPC error code; absent for a transport failure. -32602 ends the task as
    /// expired (`tasks/get` of a purged task).
    #[tsify(optional)]
    pub code: Option<i64>,
    /// Not used by the scheduler (declared so that a JSON-RPC error object type-checks).
    #[tsify(optional)]
    pub message: Option<String>,
    /// The server's retry hint (e.g. HTTP `Retry-After` in ms): no poll before it.
    #[tsify(optional)]
    pub retry_after_ms: Option<u64>,
}

impl TaskSchedulerOptions {
    /// The settings (each member given, else its default; `jitter` in millionths) and the
    /// jitter seed when given.
    pub fn into_config(self) -> (SchedulerConfig, Option<u64>) {
        let d = SchedulerConfig::default();
        let config = SchedulerConfig {
            floor_ms: self.floor_ms.unwrap_or(d.floor_ms),
            default_interval_ms: self.default_interval_ms.unwrap_or(d.default_interval_ms),
            backoff_ms: self.backoff_ms.unwrap_or(d.backoff_ms),
            backoff_cap_ms: self.backoff_cap_ms.unwrap_or(d.backoff_cap_ms),
            jitter_ppm: self
                .jitter
                .map_or(d.jitter_ppm, |x| (x * 1e6).round() as u32),
            poll_timeout_ms: self.poll_timeout_ms.unwrap_or(d.poll_timeout_ms),
            budget_per_second: self.budget_per_second,
            stuck_after_polls: self.stuck_after_polls,
        };
        (config, self.seed)
    }
}

impl TrackParams {
    /// How the task is tracked, and its last seen snapshot.
    pub fn into_parts(self) -> (TrackOptions, Option<Value>) {
        let options = TrackOptions {
            server: self.server,
            version: self.version,
            deadline_ms: self.deadline_ms,
        };
        (options, self.task)
    }
}

impl From<PollErrorInfo> for PollFailure {
    fn from(error: PollErrorInfo) -> Self {
        PollFailure {
            code: error.code,
            retry_after_ms: error.retry_after_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_left_out_take_the_defaults_and_jitter_is_in_millionths() {
        assert_eq!(
            TaskSchedulerOptions::default().into_config(),
            (SchedulerConfig::default(), None)
        );
        let (config, seed) = TaskSchedulerOptions {
            floor_ms: Some(500),
            jitter: Some(0.25),
            budget_per_second: Some(3),
            seed: Some(9),
            ..TaskSchedulerOptions::default()
        }
        .into_config();
        assert_eq!(seed, Some(9));
        assert_eq!(
            config,
            SchedulerConfig {
                floor_ms: 500,
                jitter_ppm: 250_000,
                budget_per_second: Some(3),
                ..SchedulerConfig::default()
            }
        );
    }

    #[test]
    fn track_params_and_poll_errors_become_the_core_arguments() {
        let (options, task) = TrackParams {
            server: Some("a".into()),
            version: Some(ProtocolVersion::V2026),
            task: Some(Value::Null),
            deadline_ms: Some(5),
        }
        .into_parts();
        assert_eq!(
            options,
            TrackOptions {
                server: Some("a".into()),
                version: Some(ProtocolVersion::V2026),
                deadline_ms: Some(5),
            }
        );
        assert_eq!(task, Some(Value::Null));
        let failure = PollFailure::from(PollErrorInfo {
            code: Some(-32602),
            message: Some("gone".into()),
            retry_after_ms: Some(7),
        });
        assert_eq!(
            failure,
            PollFailure {
                code: Some(-32602),
                retry_after_ms: Some(7)
            }
        );
    }
}
