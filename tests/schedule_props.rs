//! Property tests of the polling scheduler over random operation sequences (track with and
//! without a snapshot, snapshots, errors with codes and retry hints, time passing, hand-outs
//! with limits, forget, serialize → restore), checking after every step, against a model of
//! what the host saw:
//!
//! * no two polls of a task closer than the floor; none sooner than the latest server interval
//!   (or the default) after the task's previous poll, snapshot or failure (§D 49, 102);
//! * a finished task (terminal, expired, past its deadline) is never due again (§D 20, 93);
//! * `next_due` hands out only due tasks, in due order, and leaves none due unless its limit
//!   stopped it;
//! * `forget` removes everything; the structural invariants hold;
//! * the same with the clock starting just before the end of the scheduler's range
//!   (`MAX_TIME_MS`) and running past it: nothing is handed out at the end, and every state
//!   `serialize` writes there restores (`docs/decisions/scheduler-time.md`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::HashMap;

use mcp_tasks_wasm::schedule::{
    PollFailure, ScheduleError, Scheduler, SchedulerConfig, SchedulerEvent, TrackOptions,
    MAX_TIME_MS,
};
use proptest::prelude::*;
use serde_json::{json, Value};

const T0: u64 = 1_764_066_600_000;
const KEYS: u8 = 6;
const STATUSES: [&str; 5] = [
    "working",
    "input_required",
    "completed",
    "failed",
    "cancelled",
];

#[derive(Debug, Clone)]
struct Snap {
    status: usize,
    advance: u64,
    interval: Option<u64>,
    ttl: Option<Option<u64>>,
    v26: bool,
}

#[derive(Debug, Clone)]
enum Op {
    Track {
        key: u8,
        server: u8,
        snap: Option<Snap>,
        deadline: Option<u64>,
    },
    Observe {
        key: u8,
        snap: Snap,
    },
    Error {
        key: u8,
        code: Option<i64>,
        retry: Option<u64>,
    },
    Advance {
        ms: u64,
    },
    NextDue {
        limit: usize,
    },
    Forget {
        key: u8,
    },
    Restore,
}

fn snap() -> impl Strategy<Value = Snap> {
    (
        prop_oneof![6 => 0usize..2, 1 => 2usize..5],
        prop_oneof![0u64..1, 0u64..3000],
        proptest::option::of(prop_oneof![Just(0u64), 0u64..4000]),
        proptest::option::of(proptest::option::of(500u64..20_000)),
        any::<bool>(),
    )
        .prop_map(|(status, advance, interval, ttl, v26)| Snap {
            status,
            advance,
            interval,
            ttl,
            v26,
        })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0..KEYS, 0u8..3, proptest::option::of(snap()), proptest::option::of(0u64..20_000))
            .prop_map(|(key, server, snap, deadline)| Op::Track { key, server, snap, deadline }),
        4 => (0..KEYS, snap()).prop_map(|(key, snap)| Op::Observe { key, snap }),
        2 => (
            0..KEYS,
            proptest::option::of(prop_oneof![Just(-32602i64), Just(-32603), Just(-32000)]),
            proptest::option::of(0u64..15_000)
        )
            .prop_map(|(key, code, retry)| Op::Error { key, code, retry }),
        4 => prop_oneof![0u64..300, 0u64..5000, 20_000u64..40_000].prop_map(|ms| Op::Advance { ms }),
        4 => prop_oneof![Just(usize::MAX), 1usize..4].prop_map(|limit| Op::NextDue { limit }),
        1 => (0..KEYS).prop_map(|key| Op::Forget { key }),
        1 => Just(Op::Restore),
    ]
}

fn config() -> impl Strategy<Value = SchedulerConfig> {
    (
        250u64..1200,
        0u64..3000,
        0u32..3,
        proptest::option::of(1u32..20),
        proptest::option::of(1u32..4),
        1000u64..10_000,
    )
        .prop_map(
            |(floor_ms, default_interval_ms, jitter, budget, stuck, timeout)| SchedulerConfig {
                floor_ms,
                default_interval_ms,
                jitter_ppm: jitter * 100_000,
                budget_per_second: budget,
                stuck_after_polls: stuck,
                poll_timeout_ms: timeout,
                ..SchedulerConfig::default()
            },
        )
}

fn iso(ms: u64) -> String {
    chrono::DateTime::from_timestamp_millis(ms as i64)
        .unwrap()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// What the host knows about one key.
#[derive(Debug, Default, Clone)]
struct Model {
    tracked: bool,
    finished: bool,
    /// Version of the key's task (fixed by its first snapshot).
    v26: Option<bool>,
    /// ms after T0 of the latest `lastUpdatedAt` sent.
    updated: u64,
    interval: Option<u64>,
    last_poll: Option<u64>,
    /// The latest poll, snapshot or failure.
    last_activity: Option<u64>,
}

impl Model {
    fn task(&mut self, s: &Snap) -> Value {
        let v26 = *self.v26.get_or_insert(s.v26);
        self.updated += s.advance;
        let (ttl, interval) = if v26 {
            ("ttlMs", "pollIntervalMs")
        } else {
            ("ttl", "pollInterval")
        };
        let mut t = json!({
            "taskId": "t", "status": STATUSES[s.status],
            "createdAt": iso(T0), "lastUpdatedAt": iso(T0 + self.updated),
        });
        match s.ttl {
            Some(ttl_ms) => t[ttl] = json!(ttl_ms),
            None if s.status == 0 => {} // an unreadable TTL keeps the last one
            None => t[ttl] = json!(null),
        }
        if let Some(i) = s.interval {
            t[interval] = json!(i);
            self.interval = Some(i);
        }
        t
    }
}

struct Run {
    s: Scheduler,
    config: SchedulerConfig,
    now: u64,
    models: HashMap<String, Model>,
}

impl Run {
    fn model(&mut self, key: &str) -> &mut Model {
        self.models.entry(key.to_string()).or_default()
    }

    /// Applies the events of an operation at `now` to the model, checking each poll.
    fn take(&mut self, events: &[SchedulerEvent]) -> Result<(), TestCaseError> {
        let (floor, default) = (self.config.floor_ms, self.config.default_interval_ms);
        let now = self.now;
        for e in events {
            let key = e.key().to_string();
            let m = self.model(&key);
            prop_assert!(m.tracked, "event for an untracked key: {:?}", e);
            prop_assert!(!m.finished, "event for a finished task: {:?}", e);
            match e {
                SchedulerEvent::Poll { .. } => {
                    if let Some(last) = m.last_poll {
                        prop_assert!(
                            now - last >= floor,
                            "{key}: polls {last} and {now} closer than the floor {floor}"
                        );
                    }
                    if let Some(last) = m.last_activity {
                        let base = floor.max(m.interval.unwrap_or(default));
                        prop_assert!(
                            now - last >= base,
                            "{key}: polled at {now}, {} ms after {last}, under max(floor, interval) = {base}",
                            now - last
                        );
                    }
                    m.last_poll = Some(now);
                    m.last_activity = Some(now);
                }
                SchedulerEvent::PollError { next_poll_at, .. } => {
                    // Past the end of the range the next poll is kept at its end, never to come.
                    prop_assert!(*next_poll_at > now || *next_poll_at == MAX_TIME_MS);
                    prop_assert!(*next_poll_at <= MAX_TIME_MS);
                    m.last_activity = Some(now);
                }
                SchedulerEvent::Terminal { .. }
                | SchedulerEvent::Expired { .. }
                | SchedulerEvent::DeadlineExceeded { .. } => m.finished = true,
                _ => {}
            }
        }
        Ok(())
    }

    fn step(&mut self, op: &Op) -> Result<(), TestCaseError> {
        let now = self.now;
        match op {
            Op::Track {
                key,
                server,
                snap,
                deadline,
            } => {
                let key = format!("k{key}");
                let was = self.model(&key).tracked;
                let mut fresh = Model::default();
                let task = snap.as_ref().map(|s| fresh.task(s));
                let options = TrackOptions {
                    server: Some(format!("s{server}")),
                    version: None,
                    deadline_ms: *deadline,
                };
                match self.s.track(&key, options, task.as_ref(), now) {
                    Err(ScheduleError::AlreadyTracked) => prop_assert!(was),
                    Err(e) => prop_assert!(false, "track refused: {e}"),
                    Ok(events) => {
                        prop_assert!(!was);
                        fresh.tracked = true;
                        if task.is_some() {
                            fresh.last_activity = Some(now);
                        }
                        self.models.insert(key, fresh);
                        self.take(&events)?;
                    }
                }
            }
            Op::Observe { key, snap } => {
                let key = format!("k{key}");
                let m = self.model(&key);
                let live = m.tracked && !m.finished;
                let mut next = m.clone();
                let task = next.task(snap);
                let events = self.s.observe(&key, &task, now).unwrap();
                if live {
                    next.last_activity = Some(now);
                    *self.model(&key) = next;
                    self.take(&events)?;
                } else {
                    prop_assert!(events.is_empty(), "{key} is not live: {events:?}");
                }
            }
            Op::Error { key, code, retry } => {
                let key = format!("k{key}");
                let live = self.model(&key).tracked && !self.model(&key).finished;
                let failure = PollFailure {
                    code: *code,
                    retry_after_ms: *retry,
                };
                let events = self.s.observe_error(&key, &failure, now);
                if live {
                    self.model(&key).last_activity = Some(now);
                    self.take(&events)?;
                    prop_assert_eq!(events.len(), 1);
                } else {
                    prop_assert!(events.is_empty());
                }
            }
            Op::Advance { ms } => self.now += ms,
            Op::NextDue { limit } => {
                let due_before: HashMap<String, Option<u64>> = self
                    .models
                    .keys()
                    .map(|k| (k.clone(), self.s.info(k).and_then(|i| i.due_at)))
                    .collect();
                let events = self.s.next_due(now, *limit);
                prop_assert!(events.len() <= *limit);
                let mut last_due = 0;
                for e in &events {
                    let due = due_before.get(e.key()).copied().flatten();
                    prop_assert!(
                        due.is_some_and(|d| d <= now),
                        "{} was not due at {now}: {due:?}",
                        e.key()
                    );
                    let due = due.unwrap_or(0);
                    prop_assert!(due >= last_due, "out of due order: {events:?}");
                    last_due = due;
                }
                self.take(&events)?;
                if events.len() < *limit {
                    prop_assert!(
                        self.s.next_wake_at().is_none_or(|t| t > now),
                        "still due after next_due"
                    );
                }
            }
            Op::Forget { key } => {
                let key = format!("k{key}");
                let was = self.model(&key).tracked;
                prop_assert_eq!(self.s.forget(&key), was);
                prop_assert!(!self.s.has(&key));
                prop_assert!(self.s.info(&key).is_none());
                self.models.insert(key, Model::default());
            }
            Op::Restore => {
                let text = serde_json::to_string(&self.s.serialize()).unwrap();
                self.s = Scheduler::restore(&serde_json::from_str(&text).unwrap()).unwrap();
            }
        }
        self.check()
    }

    fn check(&self) -> Result<(), TestCaseError> {
        if let Err(why) = self.s.check_invariants() {
            prop_assert!(false, "{}", why);
        }
        let tracked = self.models.values().filter(|m| m.tracked).count();
        prop_assert_eq!(self.s.len(), tracked);
        for (key, m) in &self.models {
            let info = self.s.info(key);
            prop_assert_eq!(info.is_some(), m.tracked);
            if let Some(info) = info {
                prop_assert_eq!(info.finished, m.finished, "{}", key);
                if m.finished {
                    prop_assert!(info.due_at.is_none());
                }
                if let Some(due) = info.due_at {
                    // Nothing is left overdue without a reason to run it.
                    prop_assert!(due < u64::MAX);
                }
            }
        }
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn scheduler_invariants_hold(
        config in config(),
        seed in any::<u64>(),
        ops in proptest::collection::vec(op(), 1..120),
        // The clock starts now-ish, or 90 s before the end of the range (snapshot times stay
        // now-ish: chrono reads RFC 3339 up to year 262142, inside the range).
        start in prop_oneof![3 => Just(T0), 1 => Just(MAX_TIME_MS - 90_000)],
    ) {
        let mut run = Run {
            s: Scheduler::new(config.clone(), seed).unwrap(),
            config,
            now: start,
            models: HashMap::new(),
        };
        for op in &ops {
            run.step(op)?;
        }
        // Drain: everything still live keeps being polled politely until the end of time.
        for _ in 0..50 {
            let Some(at) = run.s.next_wake_at() else { break };
            prop_assert!(at < MAX_TIME_MS, "a wake at the end of the range: {}", at);
            run.now = run.now.max(at);
            run.step(&Op::NextDue { limit: usize::MAX })?;
        }
    }
}
