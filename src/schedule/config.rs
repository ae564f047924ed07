//! [`SchedulerConfig`]: the host's settings, their defaults and their bounds, and
//! [`ScheduleError`].

use std::fmt;

use serde_json::Value;

/// The lowest floor a host may set, in ms: no task is polled more often than this, whatever the
/// server or the host asks (PEERS §3 15–16: user settings and 10 ms defaults made storms).
pub const MIN_FLOOR_MS: u64 = 250;
/// The interval used while the server gave none, in ms (the TypeScript and C# SDKs' choice).
pub const DEFAULT_INTERVAL_MS: u64 = 1000;
/// The first error backoff, in ms.
pub const DEFAULT_BACKOFF_MS: u64 = 1000;
/// The longest error backoff, in ms (MCPJam's cap).
pub const DEFAULT_BACKOFF_CAP_MS: u64 = 60_000;
/// The default jitter: up to +10 % of the delay, in millionths.
pub const DEFAULT_JITTER_PPM: u32 = 100_000;
/// A jitter of the whole delay, in millionths (the largest allowed).
pub const MAX_JITTER_PPM: u32 = 1_000_000;
/// How long a handed-out poll may stay unanswered before it counts as an error, in ms (Ruby's
/// per-request cap).
pub const DEFAULT_POLL_TIMEOUT_MS: u64 = 30_000;

/// The host's settings. Every bound is checked by [`SchedulerConfig::check`]: a floor under
/// [`MIN_FLOOR_MS`], a jitter over [`MAX_JITTER_PPM`], a zero timeout, budget or stuck count is
/// refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchedulerConfig {
    /// No task is polled sooner than this after its previous poll or snapshot (≥ 250 ms). A
    /// host may raise it (slow polling down), never lower it under the server's interval.
    pub floor_ms: u64,
    /// The interval while the server gave no `pollInterval`/`pollIntervalMs` (the floor still
    /// applies).
    pub default_interval_ms: u64,
    /// The backoff after the first consecutive error; it doubles with each further error.
    pub backoff_ms: u64,
    /// The largest backoff.
    pub backoff_cap_ms: u64,
    /// Up to this many millionths of the delay are added at random (`0` = none, at most
    /// 1,000,000 = the whole delay). Integer, so that delays are exact on every platform.
    pub jitter_ppm: u32,
    /// A handed-out poll unanswered for this long counts as an error (a timeout).
    pub poll_timeout_ms: u64,
    /// At most this many polls per second to one server, across all its tasks; `None` = no
    /// budget.
    pub budget_per_second: Option<u32>,
    /// Report a task as stuck once this many consecutive snapshots showed the same status and
    /// the same `lastUpdatedAt`; `None` = never.
    pub stuck_after_polls: Option<u32>,
}

impl Default for SchedulerConfig {
    fn default() -> Self {
        SchedulerConfig {
            floor_ms: MIN_FLOOR_MS,
            default_interval_ms: DEFAULT_INTERVAL_MS,
            backoff_ms: DEFAULT_BACKOFF_MS,
            backoff_cap_ms: DEFAULT_BACKOFF_CAP_MS,
            jitter_ppm: DEFAULT_JITTER_PPM,
            poll_timeout_ms: DEFAULT_POLL_TIMEOUT_MS,
            budget_per_second: None,
            stuck_after_polls: None,
        }
    }
}

impl SchedulerConfig {
    /// The settings if every bound holds, else why not.
    pub fn check(self) -> Result<SchedulerConfig, ScheduleError> {
        let invalid = |reason: String| Err(ScheduleError::InvalidConfig { reason });
        if self.floor_ms < MIN_FLOOR_MS {
            return invalid(format!(
                "floorMs must be at least {MIN_FLOOR_MS} (it can slow polling down, not speed it up)"
            ));
        }
        if self.jitter_ppm > MAX_JITTER_PPM {
            return invalid("jitter must be from 0 to 1".into());
        }
        if self.poll_timeout_ms == 0 {
            return invalid("pollTimeoutMs must be positive".into());
        }
        if self.budget_per_second == Some(0) {
            return invalid("budgetPerSecond must be positive (or absent: no budget)".into());
        }
        if self.stuck_after_polls == Some(0) {
            return invalid("stuckAfterPolls must be positive (or absent: never)".into());
        }
        Ok(self)
    }

    /// The JSON form [`Scheduler::serialize`](super::Scheduler::serialize) writes: `[floorMs,
    /// defaultIntervalMs, backoffMs, backoffCapMs, jitterPpm, pollTimeoutMs, budgetPerSecond,
    /// stuckAfterPolls]` (`null` = none).
    pub fn to_json(&self) -> Value {
        let opt = |v: Option<u32>| v.map_or(u64::MAX, u64::from);
        let numbers = [
            self.floor_ms,
            self.default_interval_ms,
            self.backoff_ms,
            self.backoff_cap_ms,
            u64::from(self.jitter_ppm),
            self.poll_timeout_ms,
            opt(self.budget_per_second),
            opt(self.stuck_after_polls),
        ];
        super::compact::row(None, &numbers)
    }

    /// Settings from [`to_json`](Self::to_json)'s form, bounds checked.
    pub fn from_json(value: &Value) -> Result<SchedulerConfig, String> {
        let bad = || "config is not [8 settings]".to_string();
        let fields = value.as_array().map(Vec::as_slice).unwrap_or_default();
        let mut n = [0u64; 8];
        if fields.len() != n.len() {
            return Err(bad());
        }
        for (slot, v) in n.iter_mut().zip(fields) {
            *slot = super::compact::read_num(v).ok_or_else(bad)?;
        }
        let [floor_ms, default_interval_ms, backoff_ms, backoff_cap_ms, jitter, poll_timeout_ms, budget, stuck] =
            n;
        let count = |v: u64| match v {
            u64::MAX => Ok(None),
            v => u32::try_from(v).map(Some).map_err(|_| bad()),
        };
        SchedulerConfig {
            floor_ms,
            default_interval_ms,
            backoff_ms,
            backoff_cap_ms,
            jitter_ppm: count(jitter)?.ok_or_else(bad)?,
            poll_timeout_ms,
            budget_per_second: count(budget)?,
            stuck_after_polls: count(stuck)?,
        }
        .check()
        .map_err(|e| e.to_string())
    }
}

/// Why a scheduler operation was refused. Nothing is changed when one is returned.
#[derive(Debug, Clone, PartialEq)]
pub enum ScheduleError {
    /// A setting out of its bounds ([`SchedulerConfig::check`]).
    InvalidConfig { reason: String },
    /// `track` of a key already tracked (finished tasks count until `forget`).
    AlreadyTracked,
    /// A snapshot without a readable task `status` ([`Snapshot::read`](super::Snapshot::read)).
    InvalidSnapshot { reason: String },
    /// A serialized state that cannot be restored.
    InvalidState { reason: String },
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleError::InvalidConfig { reason } => {
                write!(f, "invalid scheduler options: {reason}")
            }
            ScheduleError::AlreadyTracked => f.write_str("the task is already tracked"),
            ScheduleError::InvalidSnapshot { reason } => {
                write!(f, "invalid task snapshot: {reason}")
            }
            ScheduleError::InvalidState { reason } => {
                write!(f, "invalid scheduler state: {reason}")
            }
        }
    }
}

impl std::error::Error for ScheduleError {}
