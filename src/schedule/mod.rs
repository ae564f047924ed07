//! The polling scheduler core: when to poll which task, for a client tracking many
//! tasks (100,000 and more) on many servers (why: `docs/decisions/polling-scheduler.md`).
//!
//! Pure Rust with no `JsValue` and no timers: time (`now`, Unix ms) is passed to every
//! operation, randomness is a seed. The host asks [`Scheduler::next_due`] what to poll, sends
//! `tasks/get`, and reports the answer ([`Scheduler::observe`]) or the failure
//! ([`Scheduler::observe_error`]); [`Scheduler::next_wake_at`] tells it when to ask again, so it
//! needs one timer for all its tasks. The wasm bindings pass `Date.now()` and a seed from
//! `crypto.getRandomValues`.
//!
//! | module | what it holds |
//! |---|---|
//! | [`scheduler`] | [`Scheduler`]: tracked tasks (compact entries in a slab, keys interned once), the due-queue, per-server budgets |
//! | [`queue`] | [`DueQueue`](queue::DueQueue): a binary heap of `(due, seq, slot)` with lazy deletion, O(log n) push and pop |
//! | [`snapshot`] | [`Snapshot`]: the status, timestamps, TTL and poll interval of a V25 `Task` / V26 `DetailedTask` |
//! | [`config`] | [`SchedulerConfig`] (defaults, bounds) and [`ScheduleError`] |
//! | [`event`] | [`SchedulerEvent`] (what the host acts on), [`PollFailure`], [`TrackedTask`] |
//! | [`jitter`] | [`Jitter`](jitter::Jitter): seeded SplitMix64 with a serializable state |
//! | [`state`] | [`Scheduler::serialize`] / [`Scheduler::restore`] (format `mcp-tasks-wasm/scheduler/1`) |
//!
//! # Rules
//!
//! Numbers are TASKS-SPEC §D rules; PEERS §3 items are the storms and hangs other clients had.
//!
//! * **Delay** (§D 49, 102): after a snapshot or a failure at `now`, the next poll of the task
//!   is due at `now + max(d + J, retryAfter)`, where
//!   - `d = max(floorMs, interval, backoff)`;
//!   - `interval` is the latest `pollInterval` (V25) / `pollIntervalMs` (V26) the server gave
//!     for the task (it may change between polls; a snapshot without one keeps the last), else
//!     `defaultIntervalMs` (1000); a server's `0` gives the floor;
//!   - `floorMs` (default and minimum 250) is the host's floor: a host may raise it to slow
//!     polling down; nothing it sets polls faster than the server asks (PEERS §3 15, 16);
//!   - `backoff` is 0 after a success and `min(backoffCapMs, backoffMs · 2^(n−1))` after `n`
//!     consecutive failures (defaults 1000 and 60,000); any snapshot resets `n`;
//!   - `J` is jitter, uniform in `0..=⌊d · jitter⌋` (default 0.1: +0 to +10 %; kept in
//!     millionths, [`SchedulerConfig::jitter_ppm`], so delays are integers), only upward,
//!     drawn from the seeded stream: the same seed and calls give the same times;
//!   - `retryAfter` is the failure's retry hint (HTTP `Retry-After`), honoured when larger; it
//!     also holds later reschedules (a notification) until the next poll is handed out.
//!
//!   So two polls of a task are never closer than the floor, nor than the server's latest
//!   interval.
//! * **First poll**: `track` with the creating snapshot (the task of `CreateTaskResult`) makes
//!   it one delay away, honouring its `pollInterval(Ms)` (PEERS §3 17); without a snapshot the
//!   task is due at once.
//! * **Hand-out**: [`Scheduler::next_due`] takes due tasks in due order (ties in the order they
//!   were scheduled), at most `limit` events. For each: a passed deadline ends it
//!   ([`SchedulerEvent::DeadlineExceeded`]); the TTL backstop ends it (below); a poll handed
//!   out earlier and unanswered for `pollTimeoutMs` (30,000) counts as a failure
//!   ([`SchedulerEvent::PollError`] with `timedOut`); a server over its budget defers it;
//!   else it is handed out ([`SchedulerEvent::Poll`]) and stays in flight until answered.
//! * **Budget** (optional `budgetPerSecond` N, per server, across its tasks; §D 95): polls to
//!   one server are spaced `1000/N` ms apart (a GCRA counted in µs, at ms granularity: the k-th
//!   poll of a busy spell comes no sooner than `⌊k · 1000/N⌋` ms after its first). A due poll
//!   over budget is deferred to the server's next free slot, in due order; after a long sleep
//!   the backlog drains at N per second, never in one burst.
//! * **Snapshots** (§D 51, 112): a `tasks/get` answer, a notification (V25
//!   `notifications/tasks/status`, V26 `notifications/tasks`) or any other copy of the task
//!   updates and reschedules it. A non-terminal snapshot with an older `lastUpdatedAt` than one
//!   already seen is stale: it answers the poll but changes nothing. Snapshots need a readable
//!   `status`; other members are read leniently (unreadable = absent; the validator judges).
//! * **Status events**: each change of status is one event: [`SchedulerEvent::Status`] (to
//!   `working`, or the first status seen), [`SchedulerEvent::InputRequired`] (§D 50, 105:
//!   polling goes on, the host answers: V25 `tasks/result`, V26 `tasks/update`),
//!   [`SchedulerEvent::Terminal`].
//! * **Terminal is final** (§D 20, 93): the first terminal snapshot finishes the task (even one
//!   that looks older); it is never due again and later snapshots and errors are ignored.
//! * **Expiry**: -32602 on a poll of a tracked task means expired or purged (§D 56, 114): the
//!   task ends ([`ExpiredBecause::NotFound`]). The **TTL backstop** (§B.d, §D 108): once `now >
//!   createdAt + ttl` (V25 `ttl`, V26 `ttlMs`, the latest value; `null` = none) and no
//!   `lastUpdatedAt` after that instant was seen, the task ends ([`ExpiredBecause::Ttl`]) —
//!   reported at that instant, not polled again.
//! * **Deadline**: `track`'s `deadline_ms` ends a task still live that long after tracking.
//! * **Stuck** (PEERS §4 10): with `stuckAfterPolls` K, a task whose snapshots repeated the
//!   same status and `lastUpdatedAt` K times in a row is reported once
//!   ([`SchedulerEvent::Stuck`]); polling goes on, an advance re-arms it.
//! * **Finished tasks** (terminal, expired, past the deadline) stay tracked, so that late
//!   snapshots are recognised and ignored, until [`Scheduler::forget`]. Untracked keys are
//!   ignored too: a late answer after `forget` is routine.
//! * **Time** never goes back: a `now` earlier than one already seen counts as that one.
//!
//! # Footprint
//!
//! One tracked task costs its entry (72 bytes on 64-bit targets), the key's text once (shared
//! by the slab and the index through an `Rc<str>`), an index slot and a 16-byte queue item:
//! 212 bytes in all with a 42-character key, 100,000 tasks (measured natively by
//! `tests/schedule_memory.rs`, table slack included). Rescheduling leaves the old queue item
//! stale until it surfaces or the queue is compacted (at twice the tracked tasks): 233 bytes
//! per task after every task was polled and answered once.

mod compact;
pub mod config;
pub mod event;
pub mod jitter;
pub mod options;
pub mod queue;
pub mod scheduler;
pub mod snapshot;
pub mod state;

pub use config::{ScheduleError, SchedulerConfig, MIN_FLOOR_MS};
pub use event::{ExpiredBecause, PollFailure, SchedulerEvent, TrackedTask, NOT_FOUND_CODE};
pub use scheduler::{Scheduler, TrackOptions, MAX_TIME_MS};
pub use snapshot::{Snapshot, Ttl};
pub use state::STATE_FORMAT;

#[cfg(test)]
mod tests;
