//! Exact timings of the scheduler in virtual time (jitter 0 unless the test is about jitter;
//! fixed seeds), one test per rule of the module documentation.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use serde_json::{json, Value};

use super::scheduler::Entry;
use super::*;
use crate::model::{ProtocolVersion, TaskStatus};

/// 2025-11-25T10:30:00Z.
const T0: u64 = 1_764_066_600_000;

fn iso(ms: u64) -> String {
    chrono::DateTime::from_timestamp_millis(ms as i64)
        .unwrap()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// A V25 task: created at T0, updated `updated` ms later.
fn v25(status: &str, updated: u64, ttl: Value, interval: Option<u64>) -> Value {
    let mut t = json!({
        "taskId": "t", "status": status, "createdAt": iso(T0),
        "lastUpdatedAt": iso(T0 + updated), "ttl": ttl,
    });
    if let Some(i) = interval {
        t["pollInterval"] = json!(i);
    }
    t
}

/// A V26 task: created at T0, updated `updated` ms later.
fn v26(status: &str, updated: u64, ttl: Value, interval: Option<u64>) -> Value {
    let mut t = json!({
        "taskId": "t", "status": status, "createdAt": iso(T0),
        "lastUpdatedAt": iso(T0 + updated), "ttlMs": ttl,
    });
    if let Some(i) = interval {
        t["pollIntervalMs"] = json!(i);
    }
    t
}

fn no_jitter() -> SchedulerConfig {
    SchedulerConfig {
        jitter_ppm: 0,
        ..SchedulerConfig::default()
    }
}

fn scheduler(config: SchedulerConfig) -> Scheduler {
    Scheduler::new(config, 7).unwrap()
}

fn polls(events: &[SchedulerEvent]) -> Vec<&str> {
    events
        .iter()
        .filter(|e| matches!(e, SchedulerEvent::Poll { .. }))
        .map(SchedulerEvent::key)
        .collect()
}

fn due(s: &Scheduler, key: &str) -> Option<u64> {
    s.info(key).unwrap().due_at
}

fn poll(key: &str) -> SchedulerEvent {
    SchedulerEvent::Poll { key: key.into() }
}

fn track(s: &mut Scheduler, key: &str, task: &Value, now: u64) -> Vec<SchedulerEvent> {
    s.track(key, TrackOptions::default(), Some(task), now)
        .unwrap()
}

// ---- the delay ---------------------------------------------------------------------------------

// §D 49, 102: no interval from the server → the default (1000 ms).
#[test]
fn interval_absent_uses_the_default() {
    let mut s = scheduler(no_jitter());
    let events = track(&mut s, "a", &v25("working", 0, json!(null), None), T0);
    assert_eq!(
        events,
        [SchedulerEvent::Status {
            key: "a".into(),
            from: None,
            status: TaskStatus::Working
        }]
    );
    assert_eq!(due(&s, "a"), Some(T0 + 1000));
    assert_eq!(s.next_wake_at(), Some(T0 + 1000));
    assert!(s.next_due(T0 + 999, usize::MAX).is_empty());
    assert_eq!(s.next_due(T0 + 1000, usize::MAX), [poll("a")]);
}

// A server's 0 (a storm invitation, validator code task-zero-ms) gives the floor, 250 ms.
#[test]
fn interval_zero_gives_the_floor() {
    let mut s = scheduler(no_jitter());
    track(&mut s, "a", &v26("working", 0, json!(null), Some(0)), T0);
    assert_eq!(due(&s, "a"), Some(T0 + 250));
    // A 10 ms interval (the ext-tasks default) too.
    s.next_due(T0 + 250, usize::MAX);
    s.observe("a", &v26("working", 1, json!(null), Some(10)), T0 + 260)
        .unwrap();
    assert_eq!(due(&s, "a"), Some(T0 + 260 + 250));
}

// §B.d: pollIntervalMs MAY change between polls: the latest value counts; a snapshot without
// one keeps the last.
#[test]
fn interval_follows_the_latest_value() {
    let mut s = scheduler(no_jitter());
    track(&mut s, "a", &v26("working", 0, json!(null), Some(5000)), T0);
    assert_eq!(due(&s, "a"), Some(T0 + 5000));
    assert_eq!(s.next_due(T0 + 5000, usize::MAX), [poll("a")]);
    s.observe(
        "a",
        &v26("working", 5000, json!(null), Some(2000)),
        T0 + 5040,
    )
    .unwrap();
    assert_eq!(due(&s, "a"), Some(T0 + 7040));
    s.next_due(T0 + 7040, usize::MAX);
    s.observe("a", &v26("working", 7000, json!(null), None), T0 + 7050)
        .unwrap();
    assert_eq!(due(&s, "a"), Some(T0 + 9050));
}

// The host's floor slows polling down, never under the server's interval.
#[test]
fn a_raised_floor_slows_down_only() {
    let mut s = scheduler(SchedulerConfig {
        floor_ms: 2000,
        ..no_jitter()
    });
    track(
        &mut s,
        "fast",
        &v25("working", 0, json!(null), Some(500)),
        T0,
    );
    track(
        &mut s,
        "slow",
        &v25("working", 0, json!(null), Some(5000)),
        T0,
    );
    assert_eq!(due(&s, "fast"), Some(T0 + 2000));
    assert_eq!(due(&s, "slow"), Some(T0 + 5000));
    let low = Scheduler::new(
        SchedulerConfig {
            floor_ms: 249,
            ..SchedulerConfig::default()
        },
        0,
    );
    assert!(matches!(low, Err(ScheduleError::InvalidConfig { .. })));
}

#[test]
fn settings_out_of_bounds_are_refused() {
    for config in [
        SchedulerConfig {
            jitter_ppm: 1_000_001,
            ..SchedulerConfig::default()
        },
        SchedulerConfig {
            poll_timeout_ms: 0,
            ..SchedulerConfig::default()
        },
        SchedulerConfig {
            budget_per_second: Some(0),
            ..SchedulerConfig::default()
        },
        SchedulerConfig {
            stuck_after_polls: Some(0),
            ..SchedulerConfig::default()
        },
    ] {
        assert!(
            matches!(
                Scheduler::new(config.clone(), 0),
                Err(ScheduleError::InvalidConfig { .. })
            ),
            "{config:?}"
        );
    }
}

// Jitter: +0..+10 % of the delay, upward only, the same for the same seed.
#[test]
fn jitter_is_seeded_and_upward() {
    let dues = |seed| {
        let mut s = Scheduler::new(SchedulerConfig::default(), seed).unwrap();
        (0..6)
            .map(|i| {
                let key = format!("t{i}");
                track(
                    &mut s,
                    &key,
                    &v25("working", 0, json!(null), Some(2000)),
                    T0,
                );
                due(&s, &key).unwrap() - T0
            })
            .collect::<Vec<_>>()
    };
    let a = dues(42);
    assert_eq!(a, dues(42));
    assert_ne!(a, dues(43));
    assert!(a.iter().all(|d| (2000..=2200).contains(d)), "{a:?}");
    // Pinned: SplitMix64 from seed 42, one draw per delay, `r % 201`.
    assert_eq!(a, [2055, 2049, 2033, 2066, 2124, 2051]);
}

// ---- failures ----------------------------------------------------------------------------------

fn fail_once(s: &mut Scheduler, key: &str, now: u64, failure: &PollFailure) -> SchedulerEvent {
    let due_at = due(s, key).unwrap();
    assert!(due_at <= now, "{key} is not due at {now} (due {due_at})");
    assert_eq!(s.next_due(now, usize::MAX), [poll(key)]);
    let mut events = s.observe_error(key, failure, now);
    assert_eq!(events.len(), 1, "{events:?}");
    events.remove(0)
}

// Errors back off exponentially up to the cap; a snapshot resets the count.
#[test]
fn errors_back_off_to_the_cap_and_reset_on_success() {
    let mut s = scheduler(no_jitter());
    track(&mut s, "a", &v25("working", 0, json!(null), Some(1500)), T0);
    let mut now = T0 + 1500;
    let mut delays = Vec::new();
    for attempt in 1..=9 {
        let e = fail_once(&mut s, "a", now, &PollFailure::default());
        let SchedulerEvent::PollError {
            attempt: n,
            next_poll_at,
            code,
            timed_out,
            ..
        } = e
        else {
            panic!("{e:?}")
        };
        assert_eq!((n, code, timed_out), (attempt, None, false));
        delays.push(next_poll_at - now);
        now = next_poll_at;
    }
    // max(interval 1500, 1000 · 2^(n−1)) capped at 60,000.
    assert_eq!(
        delays,
        [1500, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]
    );
    assert_eq!(s.info("a").unwrap().errors, 9);
    s.next_due(now, usize::MAX);
    s.observe("a", &v25("working", 0, json!(null), Some(1500)), now)
        .unwrap();
    assert_eq!(s.info("a").unwrap().errors, 0);
    assert_eq!(due(&s, "a"), Some(now + 1500));
}

// A server error carries its code; the retry hint is honoured when it is the longer wait, and
// holds until the next poll even against a notification.
#[test]
fn retry_hint_is_honoured_when_longer() {
    let mut s = scheduler(no_jitter());
    track(&mut s, "a", &v25("working", 0, json!(null), None), T0);
    let e = fail_once(
        &mut s,
        "a",
        T0 + 1000,
        &PollFailure {
            code: Some(-32603),
            retry_after_ms: Some(10_000),
        },
    );
    assert_eq!(
        e,
        SchedulerEvent::PollError {
            key: "a".into(),
            attempt: 1,
            code: Some(-32603),
            timed_out: false,
            next_poll_at: T0 + 11_000
        }
    );
    // A notification at +2000 would reschedule to +3000: the hint holds it at +11,000.
    s.observe("a", &v25("working", 2000, json!(null), None), T0 + 2000)
        .unwrap();
    assert_eq!(due(&s, "a"), Some(T0 + 11_000));
    // A shorter hint than the backoff changes nothing.
    assert_eq!(s.next_due(T0 + 11_000, usize::MAX), [poll("a")]);
    let e = s.observe_error(
        "a",
        &PollFailure {
            code: None,
            retry_after_ms: Some(100),
        },
        T0 + 11_000,
    );
    assert!(matches!(
        e[..],
        [SchedulerEvent::PollError { next_poll_at, .. }] if next_poll_at == T0 + 12_000
    ));
}

// A poll unanswered for pollTimeoutMs is a failure (timedOut), then backs off.
#[test]
fn an_unanswered_poll_times_out() {
    let mut s = scheduler(no_jitter());
    s.track("a", TrackOptions::default(), None, T0).unwrap();
    assert_eq!(s.next_due(T0, usize::MAX), [poll("a")]);
    assert!(s.info("a").unwrap().in_flight);
    assert_eq!(s.next_wake_at(), Some(T0 + 30_000));
    assert_eq!(
        s.next_due(T0 + 30_000, usize::MAX),
        [SchedulerEvent::PollError {
            key: "a".into(),
            attempt: 1,
            code: None,
            timed_out: true,
            next_poll_at: T0 + 31_000
        }]
    );
    assert!(!s.info("a").unwrap().in_flight);
    // The late answer still counts.
    s.observe("a", &v25("working", 0, json!(null), None), T0 + 30_500)
        .unwrap();
    assert_eq!(due(&s, "a"), Some(T0 + 31_500));
}

// §D 56, 114: -32602 for a tracked task = expired or purged: stop polling.
#[test]
fn not_found_ends_the_task() {
    let mut s = scheduler(no_jitter());
    track(&mut s, "a", &v25("working", 0, json!(60_000), None), T0);
    s.next_due(T0 + 1000, usize::MAX);
    let events = s.observe_error(
        "a",
        &PollFailure {
            code: Some(NOT_FOUND_CODE),
            retry_after_ms: None,
        },
        T0 + 1010,
    );
    assert_eq!(
        events,
        [SchedulerEvent::Expired {
            key: "a".into(),
            reason: ExpiredBecause::NotFound
        }]
    );
    assert!(s.info("a").unwrap().finished);
    assert_eq!(s.next_wake_at(), None);
    assert!(s.next_due(u64::MAX, usize::MAX).is_empty());
}

// ---- budget ------------------------------------------------------------------------------------

fn track_bare(s: &mut Scheduler, key: &str, server: &str, now: u64) {
    s.track(
        key,
        TrackOptions {
            server: Some(server.into()),
            ..TrackOptions::default()
        },
        None,
        now,
    )
    .unwrap();
}

// §D 95: at most N polls per second to one server, across its tasks; other servers unaffected.
#[test]
fn budget_spreads_polls_per_server() {
    let mut s = scheduler(SchedulerConfig {
        budget_per_second: Some(2),
        ..no_jitter()
    });
    for key in ["a1", "a2", "a3"] {
        track_bare(&mut s, key, "A", T0);
    }
    track_bare(&mut s, "b1", "B", T0);
    assert_eq!(polls(&s.next_due(T0, usize::MAX)), ["a1", "b1"]);
    assert_eq!(due(&s, "a2"), Some(T0 + 500));
    assert_eq!(due(&s, "a3"), Some(T0 + 1000));
    assert!(polls(&s.next_due(T0 + 499, usize::MAX)).is_empty());
    assert_eq!(polls(&s.next_due(T0 + 500, usize::MAX)), ["a2"]);
    assert_eq!(polls(&s.next_due(T0 + 1000, usize::MAX)), ["a3"]);
}

// After a long sleep the backlog drains at the budget, never in one burst (PEERS §3 15).
#[test]
fn budget_holds_after_a_late_wake() {
    let mut s = scheduler(SchedulerConfig {
        budget_per_second: Some(4),
        ..no_jitter()
    });
    for i in 0..10 {
        track_bare(&mut s, &format!("t{i}"), "A", T0);
    }
    let late = T0 + 60_000;
    assert_eq!(polls(&s.next_due(late, usize::MAX)), ["t0"]);
    let mut handed = vec![(late, "t0".to_string())];
    while handed.len() < 10 {
        let now = s.next_wake_at().unwrap();
        for e in s.next_due(now, usize::MAX) {
            if let SchedulerEvent::Poll { key } = e {
                handed.push((now, key));
            }
        }
    }
    let times: Vec<u64> = handed.iter().map(|(t, _)| t - late).collect();
    assert_eq!(
        times,
        [0, 250, 500, 750, 1000, 1250, 1500, 1750, 2000, 2250]
    );
    let keys: Vec<&str> = handed.iter().map(|(_, k)| k.as_str()).collect();
    assert_eq!(
        keys,
        ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"]
    );
}

// A budget that does not divide a second: slots stay on the µs grid (3/s → 333, 666, 1000 ms).
#[test]
fn budget_slots_do_not_drift() {
    let mut s = scheduler(SchedulerConfig {
        budget_per_second: Some(3),
        ..no_jitter()
    });
    for i in 0..4 {
        track_bare(&mut s, &format!("t{i}"), "A", T0);
    }
    let mut at = Vec::new();
    for now in T0..T0 + 1100 {
        if !polls(&s.next_due(now, usize::MAX)).is_empty() {
            at.push(now - T0);
        }
    }
    assert_eq!(at, [0, 333, 666, 999]);
}

// ---- deadline, TTL backstop, stuck ------------------------------------------------------------

#[test]
fn deadline_ends_polling_on_time() {
    let mut s = scheduler(no_jitter());
    let options = TrackOptions {
        deadline_ms: Some(2500),
        ..TrackOptions::default()
    };
    s.track(
        "a",
        options,
        Some(&v25("working", 0, json!(null), None)),
        T0,
    )
    .unwrap();
    assert_eq!(s.next_due(T0 + 1000, usize::MAX), [poll("a")]);
    s.observe("a", &v25("working", 0, json!(null), None), T0 + 1000)
        .unwrap();
    assert_eq!(s.next_due(T0 + 2000, usize::MAX), [poll("a")]);
    s.observe("a", &v25("working", 0, json!(null), None), T0 + 2000)
        .unwrap();
    // The next poll would be at +3000: the deadline comes first.
    assert_eq!(s.next_wake_at(), Some(T0 + 2500));
    assert_eq!(
        s.next_due(T0 + 2500, usize::MAX),
        [SchedulerEvent::DeadlineExceeded { key: "a".into() }]
    );
    assert!(s.info("a").unwrap().finished);
    assert_eq!(s.next_wake_at(), None);
}

// §B.d, §D 108: createdAt + ttl passed with no change since → expired, not polled again.
#[test]
fn ttl_backstop_fires_strictly_after_expiry() {
    let mut s = scheduler(no_jitter());
    track(&mut s, "a", &v26("working", 0, json!(2500), None), T0);
    s.next_due(T0 + 1000, usize::MAX);
    s.observe("a", &v26("working", 0, json!(2500), None), T0 + 1000)
        .unwrap();
    s.next_due(T0 + 2000, usize::MAX);
    s.observe("a", &v26("working", 0, json!(2500), None), T0 + 2000)
        .unwrap();
    assert_eq!(s.next_wake_at(), Some(T0 + 2501));
    assert!(s.next_due(T0 + 2500, usize::MAX).is_empty());
    assert_eq!(
        s.next_due(T0 + 2501, usize::MAX),
        [SchedulerEvent::Expired {
            key: "a".into(),
            reason: ExpiredBecause::Ttl
        }]
    );
}

// A task that changed after its TTL elapsed is alive: no backstop (the server kept it).
#[test]
fn ttl_backstop_spares_a_task_that_moved() {
    let mut s = scheduler(no_jitter());
    track(&mut s, "a", &v25("working", 0, json!(1500), None), T0);
    s.next_due(T0 + 1000, usize::MAX);
    s.observe("a", &v25("working", 1400, json!(1500), None), T0 + 1000)
        .unwrap();
    assert_eq!(s.next_wake_at(), Some(T0 + 1501));
    // Answered past the TTL, unchanged: expired at once.
    let mut t = s.clone();
    assert_eq!(t.next_due(T0 + 1501, usize::MAX).len(), 1);
    // Instead: a notification showing a change after the TTL keeps it alive.
    let events = s
        .observe("a", &v25("working", 1700, json!(1500), None), T0 + 1200)
        .unwrap();
    assert!(events.is_empty());
    assert_eq!(due(&s, "a"), Some(T0 + 2200));
    assert_eq!(s.next_due(T0 + 2200, usize::MAX), [poll("a")]);
    // null ttl: unlimited, never backstopped.
    t = scheduler(no_jitter());
    track(&mut t, "b", &v25("working", 0, json!(null), None), T0);
    assert_eq!(due(&t, "b"), Some(T0 + 1000));
}

#[test]
fn stuck_is_reported_once_per_plateau() {
    let mut s = scheduler(SchedulerConfig {
        stuck_after_polls: Some(3),
        ..no_jitter()
    });
    track(&mut s, "a", &v26("working", 0, json!(null), None), T0);
    let mut now = T0;
    let mut stuck_at = Vec::new();
    for (i, updated) in [0, 0, 0, 0, 0, 5000, 5000, 5000, 5000].iter().enumerate() {
        now = due(&s, "a").unwrap();
        s.next_due(now, usize::MAX);
        let events = s
            .observe("a", &v26("working", *updated, json!(null), None), now)
            .unwrap();
        if events.contains(&SchedulerEvent::Stuck {
            key: "a".into(),
            polls: 3,
        }) {
            stuck_at.push(i);
        }
    }
    // Polls 0–2 repeat the tracked snapshot 3 times; poll 5 advances; 6, 7, 8 repeat it.
    assert_eq!(stuck_at, [2, 8]);
    assert!(due(&s, "a").unwrap() > now);
}

// ---- snapshots ---------------------------------------------------------------------------------

// §D 51, 112: a notification between polls updates and reschedules the task.
#[test]
fn a_notification_between_polls_reschedules() {
    let mut s = scheduler(no_jitter());
    track(&mut s, "a", &v25("working", 0, json!(null), Some(3000)), T0);
    assert_eq!(due(&s, "a"), Some(T0 + 3000));
    let events = s
        .observe(
            "a",
            &v25("input_required", 1200, json!(null), Some(3000)),
            T0 + 1200,
        )
        .unwrap();
    assert_eq!(
        events,
        [SchedulerEvent::InputRequired {
            key: "a".into(),
            from: Some(TaskStatus::Working),
            status: TaskStatus::InputRequired
        }]
    );
    // input_required keeps the polling going (§D 50, 105).
    assert_eq!(due(&s, "a"), Some(T0 + 4200));
    let events = s
        .observe(
            "a",
            &v25("working", 1500, json!(null), Some(3000)),
            T0 + 1500,
        )
        .unwrap();
    assert_eq!(
        events,
        [SchedulerEvent::Status {
            key: "a".into(),
            from: Some(TaskStatus::InputRequired),
            status: TaskStatus::Working
        }]
    );
    assert_eq!(due(&s, "a"), Some(T0 + 4500));
}

// §D 20, 93: the first terminal snapshot is final; later ones are ignored.
#[test]
fn terminal_is_final() {
    let mut s = scheduler(no_jitter());
    track(&mut s, "a", &v25("working", 0, json!(null), None), T0);
    let events = s
        .observe("a", &v25("completed", 800, json!(null), None), T0 + 800)
        .unwrap();
    assert_eq!(
        events,
        [SchedulerEvent::Terminal {
            key: "a".into(),
            from: Some(TaskStatus::Working),
            status: TaskStatus::Completed
        }]
    );
    let info = s.info("a").unwrap();
    assert!(info.finished && info.due_at.is_none());
    assert_eq!(info.status, Some(TaskStatus::Completed));
    for late in ["working", "failed", "cancelled"] {
        assert!(s
            .observe("a", &v25(late, 900, json!(null), None), T0 + 900)
            .unwrap()
            .is_empty());
    }
    assert!(s
        .observe_error("a", &PollFailure::default(), T0 + 900)
        .is_empty());
    assert_eq!(s.info("a").unwrap().status, Some(TaskStatus::Completed));
    assert!(s.next_due(u64::MAX, usize::MAX).is_empty());
    // Tracked with a terminal snapshot: never polled.
    let events = track(&mut s, "b", &v25("failed", 0, json!(null), None), T0);
    assert!(matches!(events[..], [SchedulerEvent::Terminal { .. }]));
    assert_eq!(s.next_wake_at(), None);
}

// An older lastUpdatedAt than one already seen: the answer counts, its content does not.
#[test]
fn stale_snapshots_change_nothing() {
    let mut s = scheduler(no_jitter());
    track(
        &mut s,
        "a",
        &v26("input_required", 2000, json!(null), Some(4000)),
        T0 + 2000,
    );
    assert_eq!(s.next_due(T0 + 6000, usize::MAX), [poll("a")]);
    let events = s
        .observe(
            "a",
            &v26("working", 1000, json!(null), Some(300)),
            T0 + 6100,
        )
        .unwrap();
    assert!(events.is_empty());
    assert_eq!(s.info("a").unwrap().status, Some(TaskStatus::InputRequired));
    assert_eq!(due(&s, "a"), Some(T0 + 10_100));
    // A terminal one is taken whatever its timestamp.
    let events = s
        .observe("a", &v26("completed", 1000, json!(null), None), T0 + 6200)
        .unwrap();
    assert!(matches!(events[..], [SchedulerEvent::Terminal { .. }]));
}

#[test]
fn snapshots_of_both_versions_are_read() {
    let nested = json!({ "task": v25("working", 0, json!(60_000), Some(500)) });
    let s = Snapshot::read(&nested, None).unwrap();
    assert_eq!(s.version, Some(ProtocolVersion::V2025));
    assert_eq!((s.ttl, s.poll_interval_ms), (Ttl::Ms(60_000), Some(500)));
    assert_eq!(s.expires_at_ms(), Some(T0 + 60_000));
    let flat = v26("completed", 9, json!(null), Some(2000));
    let s = Snapshot::read(&flat, None).unwrap();
    assert_eq!(s.version, Some(ProtocolVersion::V2026));
    assert_eq!(s.ttl, Ttl::Unlimited);
    assert_eq!(s.last_updated_at_ms, Some(T0 + 9));
    // A known version reads only its own names.
    let s = Snapshot::read(&flat, Some(ProtocolVersion::V2025)).unwrap();
    assert_eq!((s.ttl, s.poll_interval_ms), (Ttl::Unknown, None));
    // Lenient beyond the status: unreadable members read as absent.
    let odd = json!({ "status": "working", "createdAt": "yesterday", "ttlMs": -5,
        "pollIntervalMs": 1.5 });
    let s = Snapshot::read(&odd, None).unwrap();
    assert_eq!(
        (s.created_at_ms, s.ttl, s.poll_interval_ms),
        (None, Ttl::Unknown, None)
    );
    for bad in [
        json!(null),
        json!([]),
        json!({}),
        json!({ "status": "done" }),
        json!({ "task": {} }),
    ] {
        assert!(
            matches!(
                Snapshot::read(&bad, None),
                Err(ScheduleError::InvalidSnapshot { .. })
            ),
            "{bad}"
        );
    }
}

// A refused snapshot changes nothing.
#[test]
fn a_bad_snapshot_changes_nothing() {
    let mut s = scheduler(no_jitter());
    track(&mut s, "a", &v25("working", 0, json!(null), None), T0);
    let before = s.info("a");
    assert!(s.observe("a", &json!({ "status": 1 }), T0 + 500).is_err());
    assert_eq!(s.info("a"), before);
    assert!(s
        .track("b", TrackOptions::default(), Some(&json!("x")), T0)
        .is_err());
    assert!(!s.has("b"));
    s.check_invariants().unwrap();
}

// ---- bookkeeping -------------------------------------------------------------------------------

#[test]
fn track_twice_forget_and_unknown_keys() {
    let mut s = scheduler(no_jitter());
    s.track("a", TrackOptions::default(), None, T0).unwrap();
    assert_eq!(
        s.track("a", TrackOptions::default(), None, T0),
        Err(ScheduleError::AlreadyTracked)
    );
    assert_eq!(s.len(), 1);
    assert!(s.forget("a"));
    assert!(!s.forget("a"));
    assert!(s.is_empty());
    assert_eq!(s.next_wake_at(), None);
    assert!(s
        .observe("a", &v25("working", 0, json!(null), None), T0)
        .unwrap()
        .is_empty());
    assert!(s.observe_error("a", &PollFailure::default(), T0).is_empty());
    // The slot is reused.
    s.track("b", TrackOptions::default(), None, T0).unwrap();
    assert_eq!(s.entries.len(), 1);
    s.check_invariants().unwrap();
}

#[test]
fn time_never_goes_back() {
    let mut s = scheduler(no_jitter());
    track(
        &mut s,
        "a",
        &v25("working", 0, json!(null), None),
        T0 + 5000,
    );
    assert_eq!(s.next_due(T0 + 6000, usize::MAX), [poll("a")]);
    // An answer "before" the poll counts as at +6000.
    s.observe("a", &v25("working", 0, json!(null), None), T0)
        .unwrap();
    assert_eq!(due(&s, "a"), Some(T0 + 7000));
}

#[test]
fn limit_bounds_each_call() {
    let mut s = scheduler(no_jitter());
    for i in 0..5 {
        s.track(&format!("t{i}"), TrackOptions::default(), None, T0)
            .unwrap();
    }
    assert_eq!(polls(&s.next_due(T0, 2)), ["t0", "t1"]);
    assert_eq!(polls(&s.next_due(T0, 2)), ["t2", "t3"]);
    assert_eq!(polls(&s.next_due(T0, 2)), ["t4"]);
    assert!(s.next_due(T0, 0).is_empty());
}

// §D 104: serialize → restore resumes exactly (jitter state included); a poll in flight is
// due again one interval after the saved clock.
#[test]
fn serialize_and_restore_resume_exactly() {
    let mut a = Scheduler::new(
        SchedulerConfig {
            budget_per_second: Some(50),
            stuck_after_polls: Some(4),
            ..SchedulerConfig::default()
        },
        99,
    )
    .unwrap();
    for i in 0..20 {
        let options = TrackOptions {
            server: Some(format!("s{}", i % 3)),
            version: (i % 2 == 0).then_some(ProtocolVersion::V2025),
            deadline_ms: (i % 5 == 0).then_some(10_000),
        };
        let task = v25("working", 0, json!(5000 + i * 100), Some(400 + i * 10));
        a.track(&format!("t{i}"), options, Some(&task), T0).unwrap();
    }
    a.observe("t3", &v25("completed", 10, json!(null), None), T0 + 10)
        .unwrap();
    let handed = a.next_due(T0 + 600, usize::MAX);
    assert!(!handed.is_empty());
    let state = a.serialize();
    assert_eq!(state["format"], STATE_FORMAT);
    let text = serde_json::to_string(&state).unwrap();
    let mut b = Scheduler::restore(&serde_json::from_str(&text).unwrap()).unwrap();
    b.check_invariants().unwrap();
    assert_eq!(b.len(), 20);
    assert_eq!(b.info("t3").unwrap().status, Some(TaskStatus::Completed));
    // Handed-out polls were lost with the old process: due again, one interval on.
    for key in polls(&handed) {
        let info = b.info(key).unwrap();
        assert!(!info.in_flight);
        assert!(info.due_at.unwrap() <= T0 + 600 + 1000, "{key}: {info:?}");
    }
    // Both resume identically from here.
    for key in polls(&handed) {
        a.observe(key, &v25("working", 600, json!(null), None), T0 + 650)
            .unwrap();
        b.observe(key, &v25("working", 600, json!(null), None), T0 + 650)
            .unwrap();
    }
    let mut now = T0 + 650;
    for _ in 0..200 {
        now += 37;
        assert_eq!(a.next_due(now, usize::MAX), b.next_due(now, usize::MAX));
        assert_eq!(a.next_wake_at(), b.next_wake_at());
    }
    assert_eq!(
        serde_json::to_string(&b.serialize()["tasks"])
            .unwrap()
            .len(),
        serde_json::to_string(&a.serialize()["tasks"])
            .unwrap()
            .len()
    );
    for bad in [
        json!(null),
        json!({ "format": "other" }),
        json!({ "format": STATE_FORMAT, "config": {} }),
    ] {
        assert!(matches!(
            Scheduler::restore(&bad),
            Err(ScheduleError::InvalidState { .. })
        ));
    }
    let mut dup = state.clone();
    let first = dup["tasks"][0].clone();
    dup["tasks"].as_array_mut().unwrap().push(first);
    assert!(Scheduler::restore(&dup).is_err());
}

// Found by the property test: a poll in flight when serialized (its answer lost) is due again
// one interval after the saved clock, not at its timeout (1000 ms, shorter than the interval).
#[test]
fn a_restored_poll_in_flight_waits_an_interval() {
    let mut s = scheduler(SchedulerConfig {
        poll_timeout_ms: 1000,
        ..no_jitter()
    });
    s.track("a", TrackOptions::default(), None, T0).unwrap();
    s.observe("a", &v25("working", 0, json!(null), Some(1001)), T0)
        .unwrap();
    assert_eq!(s.next_due(T0 + 1001, usize::MAX), [poll("a")]);
    let mut r = Scheduler::restore(&s.serialize()).unwrap();
    assert_eq!(due(&r, "a"), Some(T0 + 2002));
    assert!(r.next_due(T0 + 2001, usize::MAX).is_empty());
    assert_eq!(r.next_due(T0 + 2002, usize::MAX), [poll("a")]);
}

// The footprint promise: 72 bytes of entry per task on 64-bit targets.
#[test]
#[cfg(target_pointer_width = "64")]
fn entries_are_compact() {
    assert_eq!(std::mem::size_of::<Entry>(), 72);
    assert_eq!(std::mem::size_of::<Option<Entry>>(), 72);
}

// 100,000 tasks: tracked, all handed out, all answered, all rescheduled.
#[test]
fn a_hundred_thousand_tasks() {
    const N: usize = 100_000;
    let mut s = scheduler(SchedulerConfig::default());
    for i in 0..N {
        let key = format!("server-{}/{i:032x}", i % 7);
        s.track(&key, TrackOptions::default(), None, T0).unwrap();
    }
    assert_eq!(s.len(), N);
    let events = s.next_due(T0, usize::MAX);
    assert_eq!(events.len(), N);
    let task = v25("working", 0, json!(null), Some(2000));
    for e in &events {
        s.observe(e.key(), &task, T0 + 100).unwrap();
    }
    assert_eq!(s.next_wake_at().map(|t| t >= T0 + 2100), Some(true));
    assert!(s.next_due(T0 + 2099, usize::MAX).is_empty());
    assert_eq!(s.next_due(T0 + 2300, usize::MAX).len(), N);
    s.check_invariants().unwrap();
    for e in &events[..N / 2] {
        assert!(s.forget(e.key()));
    }
    assert_eq!(s.len(), N / 2);
    s.check_invariants().unwrap();
}

// The time range (docs/decisions/scheduler-time.md): a restore refuses a time past the last
// instant a JS `Date` holds, naming the field; the end of the range itself restores.
#[test]
fn restore_refuses_a_time_past_the_range_naming_it() {
    let mut s = scheduler(no_jitter());
    let deadline = TrackOptions {
        deadline_ms: Some(60_000),
        ..TrackOptions::default()
    };
    s.track(
        "a",
        deadline,
        Some(&v25("working", 0, json!(5000), None)),
        T0,
    )
    .unwrap();
    let state = s.serialize();
    // Row indices: [key, server, version, status, phase, dueAt, seq, held, lastUpdatedAt,
    // expiresAt, deadline, …].
    for (index, field) in [
        (5, "dueAt"),
        (8, "lastUpdatedAt"),
        (9, "expiresAt"),
        (10, "deadline"),
    ] {
        for past in [MAX_TIME_MS + 1, 1 << 53, 1 << 60] {
            let mut bad = state.clone();
            bad["tasks"][0][index] = json!(past);
            let why = Scheduler::restore(&bad).unwrap_err().to_string();
            assert!(
                why.contains(&format!(
                    "tasks[0]: {field} is {past}, past the latest time (8640000000000000 ms)"
                )),
                "{why}"
            );
        }
        let mut end = state.clone();
        end["tasks"][0][index] = json!(MAX_TIME_MS);
        Scheduler::restore(&end)
            .unwrap()
            .check_invariants()
            .unwrap();
    }
    let mut bad = state.clone();
    bad["tasks"][0][5] = json!(null);
    let why = Scheduler::restore(&bad).unwrap_err().to_string();
    assert!(why.contains("tasks[0]: dueAt is null"), "{why}");
    for clock in [json!(MAX_TIME_MS + 1), json!(-1), json!("x")] {
        let mut bad = state.clone();
        bad["clock"] = clock.clone();
        let why = Scheduler::restore(&bad).unwrap_err().to_string();
        assert!(
            why.contains(&format!("clock is {clock}, not a time in ms")),
            "{why}"
        );
    }
    let mut bad = state.clone();
    bad["tasks"][0][4] = json!(3);
    let why = Scheduler::restore(&bad).unwrap_err().to_string();
    assert!(why.contains("tasks[0]: phase is out of range"), "{why}");
}

// Time stays in the range: a `now` past it counts as its end, a due, deadline or TTL end past
// it never comes (no poll storm there), and the state saved there restores.
#[test]
fn times_stay_in_the_range_and_the_state_restores() {
    let mut s = scheduler(no_jitter());
    let far = TrackOptions {
        deadline_ms: Some(u64::MAX / 2),
        ..TrackOptions::default()
    };
    let task = v26("working", 0, json!(1u64 << 53), Some(1000));
    s.track("a", far, Some(&task), MAX_TIME_MS - 10).unwrap();
    s.track("b", TrackOptions::default(), None, MAX_TIME_MS - 5)
        .unwrap();
    assert_eq!(due(&s, "a"), Some(MAX_TIME_MS));
    assert_eq!(s.next_due(u64::MAX, usize::MAX), [poll("b")]);
    let failure = PollFailure {
        code: None,
        retry_after_ms: Some(u64::MAX),
    };
    s.observe_error("b", &failure, u64::MAX);
    assert_eq!(due(&s, "b"), Some(MAX_TIME_MS));
    assert!(s.next_due(u64::MAX, usize::MAX).is_empty());
    assert_eq!(s.next_wake_at(), None);
    let state = s.serialize();
    assert_eq!(state["clock"], json!(MAX_TIME_MS));
    let row = &state["tasks"][0];
    assert_eq!((&row[9], &row[10]), (&json!(null), &json!(null)), "{row}");
    let r = Scheduler::restore(&state).unwrap();
    r.check_invariants().unwrap();
    assert!(!r.info("a").unwrap().finished);
    assert_eq!(r.serialize(), state);
}
