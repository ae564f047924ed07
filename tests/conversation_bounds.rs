//! Everything a `Conversation` remembers is bounded (tasks, requests awaiting
//! an answer, events and issues per task, id length, bytes kept); reaching a bound forgets the
//! oldest first and says so (`history-bound`, `omittedEvents`), and never fails.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use mcp_tasks_wasm::conversation::{
    Conversation, ConversationOptions, ObserveReport, DEFAULT_MAX_KEPT_BYTES, DEFAULT_MAX_PENDING,
    DEFAULT_MAX_TASKS,
};
use serde_json::{json, Value};

const T0: &str = "2025-11-25T10:00:00Z";

fn status(task_id: &str, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/tasks/status", "params": {
        "taskId": task_id, "status": "working", "statusMessage": message,
        "createdAt": T0, "lastUpdatedAt": T0, "ttl": 60000, "pollInterval": 1000}})
}

fn bound_messages(r: &ObserveReport) -> Vec<&str> {
    r.issues
        .iter()
        .filter(|i| i.code == "history-bound")
        .map(|i| i.message.as_str())
        .collect()
}

fn options() -> ConversationOptions {
    ConversationOptions {
        version: Some(mcp_tasks_wasm::model::ProtocolVersion::V2025),
        ..ConversationOptions::default()
    }
}

#[test]
fn tasks_beyond_max_tasks_forget_the_oldest() {
    let mut c = Conversation::new(ConversationOptions {
        max_tasks: Some(10),
        ..options()
    });
    for i in 0..50 {
        let r = c.observe(&status(&format!("t{i}"), "m"));
        let bound = bound_messages(&r);
        if i < 10 {
            assert!(bound.is_empty(), "{bound:?}");
        } else {
            assert_eq!(bound.len(), 1, "{:#?}", r.issues);
            assert!(
                bound[0].starts_with(&format!(
                    "task t{} (first seen in message {}) was forgotten (maxTasks 10)",
                    i - 10,
                    i - 10
                )),
                "{}",
                bound[0]
            );
            assert_eq!(
                r.issues
                    .iter()
                    .find(|i| i.code == "history-bound")
                    .unwrap()
                    .severity,
                mcp_tasks_wasm::validate::Severity::Warning
            );
        }
    }
    let ids: Vec<String> = c.tasks().into_iter().map(|t| t.task_id).collect();
    let expected: Vec<String> = (40..50).map(|i| format!("t{i}")).collect();
    assert_eq!(ids, expected);
    assert_eq!(c.sizes().0, 10);
    // A forgotten task named again is a new task.
    c.observe(&status("t0", "again"));
    assert_eq!(c.tasks().last().unwrap().task_id, "t0");
    assert_eq!(c.tasks().last().unwrap().events.len(), 1);
}

#[test]
fn pending_requests_beyond_max_pending_forget_the_oldest() {
    let mut c = Conversation::new(ConversationOptions {
        max_pending: Some(5),
        ..options()
    });
    for i in 0..20 {
        let r = c.observe(&json!({"jsonrpc": "2.0", "id": i, "method": "ping"}));
        assert_eq!(
            bound_messages(&r).len(),
            usize::from(i >= 5),
            "{:#?}",
            r.issues
        );
    }
    assert_eq!(c.sizes().1, 5);
    // Request 0 was forgotten: its answer is unmatched; request 19 is still paired.
    let r = c.observe(&json!({"jsonrpc": "2.0", "id": 0, "result": {}}));
    assert!(r
        .issues
        .iter()
        .any(|i| i.code == "history-unmatched-response"));
    let r = c.observe(&json!({"jsonrpc": "2.0", "id": 19, "result": {}}));
    assert!(r
        .issues
        .iter()
        .all(|i| i.code != "history-unmatched-response"));
    assert_eq!(r.method.as_deref(), Some("ping"));
    assert_eq!(c.sizes().1, 4);
}

#[test]
fn events_per_task_keep_the_newest_and_count_the_rest() {
    let mut c = Conversation::new(ConversationOptions {
        max_events_per_task: Some(10),
        ..options()
    });
    for i in 0..100 {
        c.observe(&status("t", &format!("poll {i}")));
    }
    let t = &c.tasks()[0];
    assert_eq!(t.events.len(), 10);
    assert_eq!(t.omitted_events, 90);
    assert_eq!(t.events[0].index, 90);
    assert_eq!(t.events[9].status_message.as_deref(), Some("poll 99"));
    let json = serde_json::to_value(t).unwrap();
    assert_eq!(json["omittedEvents"], 90);
    assert!(json.get("omittedIssues").is_none());
    // Without drops the counters are absent from the JSON.
    let mut d = Conversation::new(options());
    d.observe(&status("t", "m"));
    let json = serde_json::to_value(&d.tasks()[0]).unwrap();
    assert!(json.get("omittedEvents").is_none());
}

#[test]
fn issues_per_task_keep_the_first_and_count_the_rest() {
    let mut c = Conversation::new(ConversationOptions {
        max_events_per_task: Some(3),
        ..options()
    });
    let at = |s: u32| format!("2025-11-25T10:00:{s:02}Z");
    for s in 0..10 {
        // Every sighting shows another createdAt: one history issue each (after the first).
        let mut m = status("t", "m");
        m["params"]["createdAt"] = json!(at(s));
        m["params"]["lastUpdatedAt"] = json!(at(30));
        c.observe(&m);
    }
    let t = &c.tasks()[0];
    // The held history-unknown-task (no CreateTaskResult named it), then the first 3 findings.
    assert_eq!(t.issues.len(), 4, "{:#?}", t.issues);
    assert_eq!(t.issues[0].code, "history-unknown-task");
    assert!(t.issues[1..]
        .iter()
        .all(|i| i.code == "history-created-at-changed"));
    assert_eq!(t.omitted_issues, 6);
    assert!(
        t.issues[1].message.starts_with("message 1:"),
        "{}",
        t.issues[1].message
    );
}

#[test]
fn ids_longer_than_max_id_bytes_are_not_followed() {
    let mut c = Conversation::new(ConversationOptions {
        max_id_bytes: Some(64),
        ..options()
    });
    let long = "x".repeat(65);
    let r = c.observe(&status(&long, "m"));
    assert_eq!(
        bound_messages(&r),
        ["a task id of 65 bytes is longer than maxIdBytes (64): it is not followed"]
    );
    assert!(c.tasks().is_empty());
    let r = c.observe(&json!({"jsonrpc": "2.0", "id": long, "method": "ping"}));
    assert_eq!(
        bound_messages(&r),
        ["a request id of 65 bytes is longer than maxIdBytes (64): it is not followed"]
    );
    assert_eq!(c.sizes().1, 0);
    let r = c.observe(&json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/get",
        "params": {"taskId": long}}));
    assert_eq!(bound_messages(&r).len(), 1);
    assert!(r.issues.iter().all(|i| i.code != "history-unknown-task"));
    // An id of exactly the limit is followed.
    c.observe(&status(&"y".repeat(64), "m"));
    assert_eq!(c.tasks().len(), 1);
    // The default (1024 bytes): a 1 MB task id is not followed, 100 times over.
    let mut d = Conversation::new(options());
    let mega = "z".repeat(1 << 20);
    for i in 0..100 {
        let mut id = mega.clone();
        id.push_str(&i.to_string());
        let r = d.observe(&status(&id, "m"));
        assert_eq!(bound_messages(&r).len(), 1);
    }
    assert!(d.tasks().is_empty());
    assert!(d.kept_bytes() < 4096, "{}", d.kept_bytes());
}

#[test]
fn kept_bytes_stay_under_max_kept_bytes() {
    let budget = 256 * 1024;
    let mut c = Conversation::new(ConversationOptions {
        max_kept_bytes: Some(budget),
        ..options()
    });
    let message = "m".repeat(10_000);
    let mut forgotten = 0;
    for i in 0..200 {
        let r = c.observe(&status(&format!("t{i}"), &message));
        forgotten += bound_messages(&r)
            .iter()
            .filter(|m| m.contains("(maxKeptBytes 262144)"))
            .count();
        assert!(c.kept_bytes() <= budget as usize, "{}", c.kept_bytes());
        // Pending requests count too.
        c.observe(&json!({"jsonrpc": "2.0", "id": i, "method": "x".repeat(900)}));
        assert!(c.kept_bytes() <= budget as usize, "{}", c.kept_bytes());
    }
    assert!(forgotten > 100, "{forgotten}");
    let (tasks, pending) = c.sizes();
    assert!(tasks > 5 && tasks < 30, "{tasks}");
    assert!(pending > 0, "{pending}");
    // The newest task is remembered.
    assert_eq!(c.tasks().last().unwrap().task_id, "t199");
}

/// A hostile stream: many tasks, unanswered requests, polls of one task, long ids. The bounds
/// hold after every message (the default bounds, scaled down to keep the test quick).
#[test]
fn hostile_stream_stays_within_bounds() {
    let mut c = Conversation::new(ConversationOptions {
        max_tasks: Some(1000),
        max_pending: Some(1000),
        max_events_per_task: Some(100),
        max_kept_bytes: Some(2 * 1024 * 1024),
        ..options()
    });
    let long = "L".repeat(5000);
    for i in 0u64..60_000 {
        let m = match i % 4 {
            0 => status(&format!("task-{i}"), "new"),
            1 => json!({"jsonrpc": "2.0", "id": i, "method": "tasks/get",
                "params": {"taskId": format!("nope-{i}")}}),
            2 => status("polled", &format!("poll {i}")),
            _ => status(&format!("{long}{i}"), "long"),
        };
        let r = c.observe(&m);
        assert!(r.issues.len() <= 101);
        let (tasks, pending) = c.sizes();
        assert!(tasks <= 1000 && pending <= 1000);
        assert!(c.kept_bytes() <= 2 * 1024 * 1024);
    }
    let polled = c.tasks().into_iter().find(|t| t.task_id == "polled");
    if let Some(t) = polled {
        assert!(t.events.len() <= 100);
    }
    assert_eq!(DEFAULT_MAX_TASKS, 10_000);
    assert_eq!(DEFAULT_MAX_PENDING, 10_000);
    assert_eq!(DEFAULT_MAX_KEPT_BYTES, 64 * 1024 * 1024);
}

// The pending requests' order (a deque with stale entries since 2026-12-01, a `BTreeMap`
// before): against a model, over thousands of requests with duplicate ids, answers out of
// order and evictions, the request forgotten is always the oldest still pending.
#[test]
fn pending_requests_are_forgotten_oldest_first_whatever_was_answered() {
    let max = 7usize;
    let mut c = Conversation::new(ConversationOptions {
        max_pending: Some(max as u32),
        ..options()
    });
    // The model: the requests still pending, oldest first, as (message number, id).
    let mut live: Vec<(usize, u64)> = Vec::new();
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    for index in 0..6000usize {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let id = x % 12;
        if x % 5 < 3 {
            let r = c.observe(&json!({"jsonrpc": "2.0", "id": id, "method": "ping"}));
            live.retain(|&(_, i)| i != id);
            let mut forgotten = Vec::new();
            while live.len() >= max {
                forgotten.push(live.remove(0).0);
            }
            live.push((index, id));
            let expected: Vec<String> = forgotten
                .iter()
                .map(|n| format!("request {n} (ping) awaiting its answer was forgotten (maxPending {max}): its answer will show as unmatched"))
                .collect();
            assert_eq!(bound_messages(&r), expected, "message {index}");
        } else {
            let r = c.observe(&json!({"jsonrpc": "2.0", "id": id, "result": {}}));
            let was_live = live.iter().any(|&(_, i)| i == id);
            live.retain(|&(_, i)| i != id);
            let unmatched = r
                .issues
                .iter()
                .any(|i| i.code == "history-unmatched-response");
            assert_eq!(unmatched, !was_live, "message {index}");
        }
        assert_eq!(c.sizes().1, live.len(), "message {index}");
    }
}

// The same when answered requests pile up behind one that stays pending (the deque drops its
// stale entries in bulk): the old one is still the first forgotten.
#[test]
fn a_request_left_pending_behind_thousands_of_answered_ones_is_forgotten_first() {
    let mut c = Conversation::new(ConversationOptions {
        max_pending: Some(50),
        ..options()
    });
    c.observe(&json!({"jsonrpc": "2.0", "id": "kept", "method": "ping"}));
    for i in 0..5000u64 {
        let id = i % 4;
        c.observe(&json!({"jsonrpc": "2.0", "id": id, "method": "ping"}));
        let r = c.observe(&json!({"jsonrpc": "2.0", "id": id, "result": {}}));
        assert!(r
            .issues
            .iter()
            .all(|i| i.code != "history-unmatched-response"));
    }
    assert_eq!(c.sizes().1, 1);
    let mut forgotten = Vec::new();
    for i in 0..60u64 {
        let r = c.observe(&json!({"jsonrpc": "2.0", "id": 100 + i, "method": "ping"}));
        forgotten.extend(bound_messages(&r).into_iter().map(str::to_string));
    }
    assert_eq!(forgotten.len(), 11, "{forgotten:#?}");
    assert!(
        forgotten[0].starts_with("request 0 (ping)"),
        "{forgotten:#?}"
    );
    assert!(
        forgotten[1].starts_with("request 10001 (ping)"),
        "{forgotten:#?}"
    );
}
