//! [`Scheduler`]: the tracked tasks, their due-queue and the per-server budgets; every
//! operation takes `now` (Unix ms) and returns the [`SchedulerEvent`]s it caused. The rules are
//! stated once, in the module documentation ([`crate::schedule`]).

use std::collections::HashMap;
use std::rc::Rc;

use serde_json::Value;

use super::config::{ScheduleError, SchedulerConfig};
use super::event::{ExpiredBecause, PollFailure, SchedulerEvent, TrackedTask, NOT_FOUND_CODE};
use super::jitter::Jitter;
use super::queue::{DueQueue, Item};
use super::snapshot::{Snapshot, Ttl};
use crate::model::{ProtocolVersion, TaskStatus};

/// An instant that never comes (no TTL, no deadline), in the compact entry.
pub(super) const NEVER: u64 = u64::MAX;
/// No `lastUpdatedAt` known, in the compact entry.
pub(super) const UNKNOWN: u64 = u64::MAX;

/// The latest instant the scheduler holds, in Unix ms: the last a JS `Date` holds
/// (+275760-09-13T00:00:00Z), so every time it hands a host (`dueAt`, `nextWakeAt`, a saved
/// state) is one. A later `now` counts as this one; a due past it is kept at it and, like a
/// deadline or a TTL end past it, never comes. `restore` refuses a later time (`docs/decisions/scheduler-time.md`).
pub const MAX_TIME_MS: u64 = 8_640_000_000_000_000;

/// An instant that may never come (a deadline, a TTL end, a `lastUpdatedAt`) within
/// [`MAX_TIME_MS`]: a later one is [`NEVER`] (also [`UNKNOWN`]).
pub(super) fn within(at: u64) -> u64 {
    if at > MAX_TIME_MS {
        NEVER
    } else {
        at
    }
}

/// Where a tracked task is in its poll cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// Queued, waiting for its next poll.
    Waiting = 0,
    /// Handed out by `next_due`; queued at its timeout.
    InFlight = 1,
    /// Terminal, expired or past its deadline: no current queue item, snapshots ignored.
    Finished = 2,
}

/// One tracked task, kept compact (72 bytes on 64-bit targets, the key's text aside): times are
/// `u64` with sentinels ([`NEVER`], [`UNKNOWN`]) rather than `Option<u64>` (16 bytes each),
/// the server is an index, the key is shared with the index map.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    pub key: Rc<str>,
    /// Unix ms of the next poll (or timeout, deadline or TTL check) while not finished.
    pub due: u64,
    /// The latest `lastUpdatedAt` seen, Unix ms, or [`UNKNOWN`].
    pub last_updated: u64,
    /// `createdAt + ttl` of the latest snapshot, or [`NEVER`].
    pub expires_at: u64,
    /// The deadline given to `track`, or [`NEVER`].
    pub deadline: u64,
    /// The latest poll interval the server gave, in ms (saturated at `u32::MAX`, 49 days).
    pub interval: Option<u32>,
    /// The `seq` of the task's current queue item (older items of the task are stale).
    pub seq: u32,
    /// Index into `Scheduler::servers`.
    pub server: u32,
    /// Consecutive failed polls.
    pub errors: u16,
    /// Consecutive snapshots that repeated the status and `lastUpdatedAt`.
    pub unchanged: u16,
    pub status: Option<TaskStatus>,
    pub version: Option<ProtocolVersion>,
    pub phase: Phase,
    /// `due` honours a retry hint: a snapshot may not move it earlier until the next poll.
    pub held: bool,
}

impl Entry {
    pub(super) fn item(&self, slot: u32) -> Item {
        (self.due, self.seq, slot)
    }

    /// When the TTL backstop fires: strictly after `createdAt + ttl`, provided nothing changed
    /// after that instant (no `lastUpdatedAt` past it).
    pub(super) fn backstop_at(&self) -> u64 {
        let unchanged = self.last_updated == UNKNOWN || self.last_updated <= self.expires_at;
        if self.expires_at != NEVER && unchanged {
            self.expires_at.saturating_add(1)
        } else {
            NEVER
        }
    }

    fn last_updated(&self) -> Option<u64> {
        (self.last_updated != UNKNOWN).then_some(self.last_updated)
    }

    fn event(&self, kind: impl FnOnce(String) -> SchedulerEvent) -> SchedulerEvent {
        kind(self.key.to_string())
    }
}

/// A server's poll budget state (a GCRA in µs): `tat` is the earliest time the next poll may
/// go, `cursor` the next slot free for a deferred poll. Servers are few: found by a linear
/// search over their names.
#[derive(Debug, Clone)]
pub(super) struct Server {
    pub name: Box<str>,
    pub tat_us: u64,
    pub cursor_us: u64,
}

/// How a task is tracked, besides its key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrackOptions {
    /// The server the task lives on: the budget is counted per server (absent: one unnamed
    /// server).
    pub server: Option<String>,
    /// The protocol version of the task, which names its members (`ttl` or `ttlMs`, …); told by
    /// the first snapshot when absent.
    pub version: Option<ProtocolVersion>,
    /// Give up this many ms after tracking (a [`SchedulerEvent::DeadlineExceeded`]).
    pub deadline_ms: Option<u64>,
}

/// The polling scheduler: see the module documentation for its rules.
#[derive(Debug, Clone)]
pub struct Scheduler {
    pub(super) config: SchedulerConfig,
    /// Entries by slot; `None` slots are listed in `free`.
    pub(super) entries: Vec<Option<Entry>>,
    pub(super) free: Vec<u32>,
    pub(super) index: HashMap<Rc<str>, u32>,
    pub(super) queue: DueQueue,
    pub(super) servers: Vec<Server>,
    pub(super) rng: Jitter,
    /// The latest `now` seen: time never goes back.
    pub(super) clock: u64,
}

impl Scheduler {
    /// An empty scheduler. `seed` seeds the jitter: the same seed and the same calls give the
    /// same times.
    pub fn new(config: SchedulerConfig, seed: u64) -> Result<Scheduler, ScheduleError> {
        Ok(Scheduler {
            config: config.check()?,
            entries: Vec::new(),
            free: Vec::new(),
            index: HashMap::new(),
            queue: DueQueue::default(),
            servers: Vec::new(),
            rng: Jitter::new(seed),
            clock: 0,
        })
    }

    pub fn config(&self) -> &SchedulerConfig {
        &self.config
    }

    /// Tracked tasks, finished ones included (until [`forget`](Self::forget)).
    pub fn len(&self) -> usize {
        self.index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    pub fn has(&self, key: &str) -> bool {
        self.index.contains_key(key)
    }

    /// When the earliest task is due (a poll, a timeout, a deadline or a TTL check): the one
    /// timer a host needs. `None` when nothing waits.
    pub fn next_wake_at(&self) -> Option<u64> {
        // `settle` keeps the top current; a due at the end of the range never comes.
        self.queue
            .peek()
            .map(|item| item.0)
            .filter(|&due| due < MAX_TIME_MS)
    }

    /// Where a tracked task stands.
    pub fn info(&self, key: &str) -> Option<TrackedTask> {
        let e = self.entry(*self.index.get(key)?)?;
        let finished = e.phase == Phase::Finished;
        Some(TrackedTask {
            status: e.status,
            due_at: (!finished).then_some(e.due),
            in_flight: e.phase == Phase::InFlight,
            errors: u32::from(e.errors),
            finished,
        })
    }

    /// Starts tracking a task. With `snapshot` (e.g. the task of the `CreateTaskResult`) its
    /// first poll is one delay away and its status is reported; without, it is due at once.
    pub fn track(
        &mut self,
        key: &str,
        options: TrackOptions,
        snapshot: Option<&Value>,
        now: u64,
    ) -> Result<Vec<SchedulerEvent>, ScheduleError> {
        if self.index.contains_key(key) {
            return Err(ScheduleError::AlreadyTracked);
        }
        let snapshot = match snapshot {
            Some(v) => Some(Snapshot::read(v, options.version)?),
            None => None,
        };
        let server = self.intern(options.server.as_deref().unwrap_or(""))?;
        let slot = match self.free.pop() {
            Some(slot) => slot,
            None => {
                let slot =
                    u32::try_from(self.entries.len()).map_err(|_| ScheduleError::InvalidState {
                        reason: "more than 2^32 tracked tasks".into(),
                    })?;
                self.entries.push(None);
                slot
            }
        };
        let now = self.tick(now);
        let key: Rc<str> = Rc::from(key);
        let entry = Entry {
            key: Rc::clone(&key),
            due: now,
            last_updated: UNKNOWN,
            expires_at: NEVER,
            deadline: options
                .deadline_ms
                .map_or(NEVER, |d| within(now.saturating_add(d))),
            interval: None,
            seq: 0,
            server,
            errors: 0,
            unchanged: 0,
            status: None,
            version: options.version,
            phase: Phase::Waiting,
            held: false,
        };
        if let Some(place) = self.entries.get_mut(slot as usize) {
            *place = Some(entry);
        }
        self.index.insert(key, slot);
        let mut events = Vec::new();
        match snapshot {
            Some(snapshot) => self.apply(slot, &snapshot, now, &mut events),
            None => self.schedule(slot, now),
        }
        self.settle();
        Ok(events)
    }

    /// Hands out the tasks due at `now`, earliest first (ties in scheduling order), at most
    /// `limit` events: a [`SchedulerEvent::Poll`] for each task to poll now, and the deadline,
    /// TTL-backstop and timeout events that fell due.
    pub fn next_due(&mut self, now: u64, limit: usize) -> Vec<SchedulerEvent> {
        let now = self.tick(now);
        let mut events = Vec::new();
        while events.len() < limit {
            let Some(item) = self
                .queue
                .peek()
                .filter(|item| item.0 <= now && item.0 < MAX_TIME_MS)
            else {
                break;
            };
            self.queue.pop();
            if !self.current(&item) {
                continue;
            }
            let slot = item.2;
            if self.finish_if_over(slot, now, &mut events) {
                continue;
            }
            let Some(e) = self.entry(slot) else { continue };
            if e.phase == Phase::InFlight {
                // Unanswered for pollTimeoutMs: a failed poll.
                self.fail(slot, now, &PollFailure::default(), true, &mut events);
                continue;
            }
            let server = e.server as usize;
            if let (Some(per_second), Some(server)) =
                (self.config.budget_per_second, self.servers.get_mut(server))
            {
                if let Some(slot_ms) = admit(server, per_second, now) {
                    // Over the server's budget: deferred to its next free slot.
                    if let Some(e) = self.entry(slot) {
                        let due = slot_ms.max(e.due).min(e.deadline).min(e.backstop_at());
                        self.schedule(slot, due);
                    }
                    continue;
                }
            }
            let timeout = self.config.poll_timeout_ms;
            if let Some(e) = self.entry_mut(slot) {
                e.phase = Phase::InFlight;
                e.held = false;
                let due = now
                    .saturating_add(timeout)
                    .min(e.deadline)
                    .min(e.backstop_at());
                events.push(e.event(|key| SchedulerEvent::Poll { key }));
                self.schedule(slot, due);
            }
        }
        self.settle();
        events
    }

    /// A snapshot of the task: a `tasks/get` answer, a status notification, or any other
    /// fresher copy. Untracked keys and finished tasks are ignored (an empty list). A value
    /// without a readable `status` is refused and changes nothing.
    pub fn observe(
        &mut self,
        key: &str,
        snapshot: &Value,
        now: u64,
    ) -> Result<Vec<SchedulerEvent>, ScheduleError> {
        let Some(slot) = self.live_slot(key) else {
            return Ok(Vec::new());
        };
        let version = self.entry(slot).and_then(|e| e.version);
        let snapshot = Snapshot::read(snapshot, version)?;
        let now = self.tick(now);
        let mut events = Vec::new();
        self.apply(slot, &snapshot, now, &mut events);
        self.settle();
        Ok(events)
    }

    /// A failed poll: a JSON-RPC error answer (`code`) or a transport failure (no code).
    /// -32602 ends the task as expired (§D 56, 114); anything else backs off. Untracked keys
    /// and finished tasks are ignored.
    pub fn observe_error(
        &mut self,
        key: &str,
        failure: &PollFailure,
        now: u64,
    ) -> Vec<SchedulerEvent> {
        let Some(slot) = self.live_slot(key) else {
            return Vec::new();
        };
        let now = self.tick(now);
        let mut events = Vec::new();
        if failure.code == Some(NOT_FOUND_CODE) {
            self.finish(slot, &mut events, |key| SchedulerEvent::Expired {
                key,
                reason: ExpiredBecause::NotFound,
            });
        } else if !self.finish_if_over(slot, now, &mut events) {
            // (A deadline or TTL backstop already due ends the task instead of a retry.)
            self.fail(slot, now, failure, false, &mut events);
        }
        self.settle();
        events
    }

    /// Stops tracking the task and forgets everything about it. `false` if it was not tracked.
    pub fn forget(&mut self, key: &str) -> bool {
        let Some(slot) = self.index.remove(key) else {
            return false;
        };
        if let Some(place) = self.entries.get_mut(slot as usize) {
            *place = None; // its queue item, if any, is now stale
            self.free.push(slot);
        }
        self.settle();
        true
    }

    // ---- internals ------------------------------------------------------------------------

    pub(super) fn entry(&self, slot: u32) -> Option<&Entry> {
        self.entries.get(slot as usize)?.as_ref()
    }

    fn entry_mut(&mut self, slot: u32) -> Option<&mut Entry> {
        self.entries.get_mut(slot as usize)?.as_mut()
    }

    /// The slot of a tracked, unfinished task.
    fn live_slot(&self, key: &str) -> Option<u32> {
        let slot = *self.index.get(key)?;
        (self.entry(slot)?.phase != Phase::Finished).then_some(slot)
    }

    fn tick(&mut self, now: u64) -> u64 {
        self.clock = self.clock.max(now.min(MAX_TIME_MS));
        self.clock
    }

    /// Whether a queue item is its task's current one.
    pub(super) fn current(&self, item: &Item) -> bool {
        self.entry(item.2)
            .is_some_and(|e| e.phase != Phase::Finished && e.item(item.2) == *item)
    }

    /// Queues the task at `due`, at most [`MAX_TIME_MS`] (its previous item, if any, goes
    /// stale).
    pub(super) fn schedule(&mut self, slot: u32, due: u64) {
        let due = due.min(MAX_TIME_MS);
        if self.entry(slot).is_some() {
            let seq = self.queue.push(due, slot);
            if let Some(e) = self.entry_mut(slot) {
                e.due = due;
                e.seq = seq;
            }
        }
    }

    /// Drops stale items from the top (so that `next_wake_at` reads the top as it is), and
    /// compacts the queue when stale items outnumber the tracked tasks (amortised O(1)).
    pub(super) fn settle(&mut self) {
        while let Some(item) = self.queue.peek() {
            if self.current(&item) {
                break;
            }
            self.queue.pop();
        }
        if self.queue.len() > 2 * self.index.len() + 1024 {
            let mut queue = std::mem::take(&mut self.queue);
            queue.retain(|item| self.current(item));
            self.queue = queue;
        }
    }

    /// The index of the server named `name`, added if new.
    pub(super) fn intern(&mut self, name: &str) -> Result<u32, ScheduleError> {
        let found = self.servers.iter().position(|s| &*s.name == name);
        let i = found.unwrap_or(self.servers.len());
        let i = u32::try_from(i).map_err(|_| ScheduleError::InvalidState {
            reason: "more than 2^32 servers".into(),
        })?;
        if found.is_none() {
            self.servers.push(Server {
                name: name.into(),
                tat_us: 0,
                cursor_us: 0,
            });
        }
        Ok(i)
    }

    /// Takes a snapshot into the entry: status events, stuck detection, then the
    /// deadline and TTL backstop, else the next poll.
    fn apply(&mut self, slot: u32, s: &Snapshot, now: u64, events: &mut Vec<SchedulerEvent>) {
        let stuck_after = self.config.stuck_after_polls;
        let Some(e) = self.entry_mut(slot) else {
            return;
        };
        // Any snapshot answers the poll and proves the server alive.
        e.phase = Phase::Waiting;
        e.errors = 0;
        let stale = matches!(
            (s.last_updated_at_ms, e.last_updated()),
            (Some(new), Some(old)) if new < old
        );
        // A terminal snapshot is taken even if it looks older: nothing can follow it.
        if !stale || s.status.is_terminal() {
            if e.version.is_none() {
                e.version = s.version;
            }
            if let Some(ms) = s.poll_interval_ms {
                e.interval = Some(u32::try_from(ms).unwrap_or(u32::MAX));
            }
            match (s.ttl, s.expires_at_ms()) {
                (Ttl::Unlimited, _) => e.expires_at = NEVER,
                (Ttl::Ms(_), Some(at)) => e.expires_at = within(at),
                _ => {}
            }
            let repeated = e.status == Some(s.status)
                && s.last_updated_at_ms.is_some()
                && s.last_updated_at_ms == e.last_updated();
            e.unchanged = if repeated {
                e.unchanged.saturating_add(1)
            } else {
                0
            };
            if let Some(at) = s.last_updated_at_ms {
                e.last_updated = within(at);
            }
            let from = e.status;
            if from != Some(s.status) {
                e.status = Some(s.status);
                let status = s.status;
                events.push(e.event(|key| match status {
                    TaskStatus::InputRequired => {
                        SchedulerEvent::InputRequired { key, from, status }
                    }
                    s if s.is_terminal() => SchedulerEvent::Terminal { key, from, status },
                    _ => SchedulerEvent::Status { key, from, status },
                }));
            }
            if s.status.is_terminal() {
                e.phase = Phase::Finished;
                return;
            }
            if stuck_after.is_some_and(|k| u32::from(e.unchanged) == k) {
                let polls = u32::from(e.unchanged);
                events.push(e.event(|key| SchedulerEvent::Stuck { key, polls }));
            }
        }
        if !self.finish_if_over(slot, now, events) {
            self.reschedule(slot, now, None);
        }
    }

    /// A failed poll (an error answer, a transport failure or a timeout): backoff, event.
    fn fail(
        &mut self,
        slot: u32,
        now: u64,
        failure: &PollFailure,
        timed_out: bool,
        events: &mut Vec<SchedulerEvent>,
    ) {
        let (code, retry_after) = (failure.code, failure.retry_after_ms);
        if let Some(e) = self.entry_mut(slot) {
            e.phase = Phase::Waiting;
            e.errors = e.errors.saturating_add(1);
        }
        self.reschedule(slot, now, retry_after);
        if let Some(e) = self.entry(slot) {
            let (attempt, next_poll_at) = (u32::from(e.errors), e.due);
            events.push(e.event(|key| SchedulerEvent::PollError {
                key,
                attempt,
                code,
                timed_out,
                next_poll_at,
            }));
        }
    }

    /// Ends a task whose deadline or TTL backstop is due at `now`; `true` if so.
    fn finish_if_over(&mut self, slot: u32, now: u64, events: &mut Vec<SchedulerEvent>) -> bool {
        let Some(e) = self.entry(slot) else {
            return true;
        };
        if now >= e.deadline {
            self.finish(slot, events, |key| SchedulerEvent::DeadlineExceeded { key });
            true
        } else if now >= e.backstop_at() {
            self.finish(slot, events, |key| SchedulerEvent::Expired {
                key,
                reason: ExpiredBecause::Ttl,
            });
            true
        } else {
            false
        }
    }

    /// Marks a task finished (its queue item goes stale) and reports why.
    fn finish(
        &mut self,
        slot: u32,
        events: &mut Vec<SchedulerEvent>,
        kind: impl FnOnce(String) -> SchedulerEvent,
    ) {
        if let Some(e) = self.entry_mut(slot) {
            e.phase = Phase::Finished;
            events.push(e.event(kind));
        }
    }

    /// Queues a waiting task for its next poll: `now + delay`, no earlier than a retry hint or
    /// a held due, no later than its deadline or TTL backstop.
    fn reschedule(&mut self, slot: u32, now: u64, retry_after: Option<u64>) {
        let Some(e) = self.entries.get(slot as usize).and_then(Option::as_ref) else {
            return;
        };
        let delay = delay(&self.config, &mut self.rng, e.interval, e.errors);
        let mut due = now.saturating_add(delay);
        if let Some(hint) = retry_after {
            due = due.max(now.saturating_add(hint));
        }
        if e.held {
            due = due.max(e.due);
        }
        let due = due.min(e.deadline).min(e.backstop_at());
        if let Some(e) = self.entry_mut(slot) {
            e.held = e.held || retry_after.is_some();
        }
        self.schedule(slot, due);
    }
}

/// The delay to the next poll: `d + J` with `d = max(floor, interval, backoff)`, `interval` the
/// server's latest (else the default), `backoff = min(cap, base · 2^(errors−1))` after errors,
/// `J` uniform in `0..=⌊d · jitter_ppm / 10^6⌋`.
fn delay(config: &SchedulerConfig, rng: &mut Jitter, interval: Option<u32>, errors: u16) -> u64 {
    let interval = interval.map_or(config.default_interval_ms, u64::from);
    let mut d = config.floor_ms.max(interval);
    if errors > 0 {
        let factor = 1u64.checked_shl(u32::from(errors - 1)).unwrap_or(u64::MAX);
        let backoff = config
            .backoff_ms
            .saturating_mul(factor)
            .min(config.backoff_cap_ms);
        d = d.max(backoff);
    }
    let spread = d.saturating_mul(u64::from(config.jitter_ppm)) / 1_000_000;
    d.saturating_add(rng.up_to(spread.min(d)))
}

/// The per-server budget at hand-out (a GCRA over µs, at ms granularity): `None` admits the
/// poll now; `Some(ms)` defers it to the server's next free slot.
fn admit(server: &mut Server, per_second: u32, now: u64) -> Option<u64> {
    let spacing = (1_000_000 / u64::from(per_second.max(1))).max(1);
    if server.tat_us / 1000 <= now {
        let from = server.tat_us.max(now.saturating_mul(1000));
        server.tat_us = from.saturating_add(spacing);
        None
    } else {
        let slot = server.cursor_us.max(server.tat_us);
        server.cursor_us = slot.saturating_add(spacing);
        Some(slot / 1000)
    }
}
