//! Unit tests of the store operations, one or more per `[store]` rule of TASKS-SPEC §D.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use serde_json::{json, Value};

use super::*;
use crate::model::common::{JsonObject, JsonRpcError};
use crate::model::{ProtocolVersion, TaskStatus};
use crate::store::random::RandomUnavailable;

const V25: ProtocolVersion = ProtocolVersion::V2025;
const V26: ProtocolVersion = ProtocolVersion::V2026;
const T0: u64 = 1_764_066_600_000;
const HOST: Caller<'static> = Caller::Host;

fn store(config: StoreConfig) -> Store<MemoryStorage, DeterministicRandom> {
    Store::in_memory(config, DeterministicRandom::new(42)).unwrap()
}

fn default_store() -> Store<MemoryStorage, DeterministicRandom> {
    store(StoreConfig::default())
}

fn obj(v: Value) -> JsonObject {
    v.as_object().unwrap().clone()
}

fn elicit(msg: &str) -> Value {
    json!({"method": "elicitation/create", "params": {"message": msg}})
}

fn err() -> JsonRpcError {
    JsonRpcError {
        code: -32603,
        message: "boom".into(),
        data: None,
    }
}

// §D 19, 25: new tasks start working; the effective TTL is the requested one capped by the max.
#[test]
fn d19_d25_create_starts_working_with_effective_ttl() {
    let mut s = store(StoreConfig {
        max_ttl_ms: Some(5000),
        default_ttl_ms: Some(1000),
        ..StoreConfig::default()
    });
    let t = s.create(NewTask::new(V25).ttl(10_000), T0).unwrap();
    assert_eq!(t.status(), TaskStatus::Working);
    assert_eq!((t.requested_ttl_ms, t.ttl_ms), (Some(10_000), Some(5000)));
    assert_eq!(
        (t.created_at_ms, t.last_updated_at_ms, t.version),
        (T0, T0, 1)
    );
    assert_eq!(
        s.create(NewTask::new(V25).ttl(200), T0).unwrap().ttl_ms,
        Some(200)
    );
    assert_eq!(s.create(NewTask::new(V26), T0).unwrap().ttl_ms, Some(1000));
    assert_eq!(
        s.create(NewTask::new(V26).ttl(0), T0).unwrap().ttl_ms,
        Some(1)
    );
    let mut unlimited = store(StoreConfig {
        max_ttl_ms: None,
        default_ttl_ms: None,
        ..StoreConfig::default()
    });
    assert_eq!(
        unlimited.create(NewTask::new(V25), T0).unwrap().ttl_ms,
        None
    );
    let wire = serde_json::to_value(
        unlimited
            .create(NewTask::new(V26), T0)
            .unwrap()
            .to_v26_task(),
    )
    .unwrap();
    assert!(wire["ttlMs"].is_null());
}

// §D 18, 84: 128-bit random ids, unique.
#[test]
fn d18_ids_are_unique_random_hex() {
    let mut s = default_store();
    let mut ids = std::collections::HashSet::new();
    for _ in 0..200 {
        let id = s.create(NewTask::new(V25), T0).unwrap().id;
        assert_eq!(id.len(), 32);
        assert!(ids.insert(id));
    }
}

/// Replays scripted 16-byte draws (then zeros).
struct Script(Vec<[u8; 16]>);
impl RandomSource for Script {
    fn fill(&mut self, buf: &mut [u8]) -> Result<(), RandomUnavailable> {
        let next = if self.0.is_empty() {
            [0; 16]
        } else {
            self.0.remove(0)
        };
        for (d, s) in buf.iter_mut().zip(next) {
            *d = s;
        }
        Ok(())
    }
}

// §D 18: a colliding id is drawn again; a source that keeps colliding is an internal error.
#[test]
fn d18_id_collision_draws_again() {
    let key = [9; 16];
    let (a, b) = ([1; 16], [2; 16]);
    let mut s = Store::in_memory(StoreConfig::default(), Script(vec![key, a, a, b])).unwrap();
    assert_eq!(s.create(NewTask::new(V25), T0).unwrap().id, "01".repeat(16));
    assert_eq!(s.create(NewTask::new(V25), T0).unwrap().id, "02".repeat(16));
    // From now on every draw is zeros: the first succeeds, the next collides every time.
    s.create(NewTask::new(V25), T0).unwrap();
    let e = s.create(NewTask::new(V25), T0).unwrap_err();
    assert_eq!((e.clone(), e.code()), (StoreError::IdCollision, -32603));
}

// §D 20, 32: working ⇄ input_required; terminal statuses only through complete/fail/cancel.
#[test]
fn d20_only_allowed_edges() {
    let mut s = default_store();
    let id = s.create(NewTask::new(V25), T0).unwrap().id;
    let t = s
        .set_status(
            HOST,
            &id,
            TaskStatus::InputRequired,
            Some("need".into()),
            T0 + 1,
        )
        .unwrap();
    assert_eq!(
        (t.status(), t.status_message.as_deref(), t.version),
        (TaskStatus::InputRequired, Some("need"), 2)
    );
    let t = s
        .set_status(
            HOST,
            &id,
            TaskStatus::InputRequired,
            Some("still".into()),
            T0 + 2,
        )
        .unwrap();
    assert_eq!((t.status(), t.version), (TaskStatus::InputRequired, 3));
    s.set_status(HOST, &id, TaskStatus::Working, None, T0 + 3)
        .unwrap();
    for to in [
        TaskStatus::Completed,
        TaskStatus::Failed,
        TaskStatus::Cancelled,
    ] {
        let e = s.set_status(HOST, &id, to, None, T0 + 4).unwrap_err();
        assert_eq!(
            e,
            StoreError::InvalidTransition {
                from: TaskStatus::Working,
                to
            }
        );
    }
    let done = s
        .complete(HOST, &id, obj(json!({"content": []})), None, T0 + 5)
        .unwrap();
    assert_eq!(done.status(), TaskStatus::Completed);
    for to in TaskStatus::ALL {
        assert_eq!(
            s.set_status(HOST, &id, to, None, T0 + 6).unwrap_err(),
            StoreError::AlreadyTerminal {
                status: TaskStatus::Completed
            }
        );
    }
    assert_eq!(s.get(HOST, &id, T0 + 7).unwrap(), done);
}

// §D 21, 93: terminal payloads never change; the first terminal outcome wins.
#[test]
fn d21_d93_first_terminal_outcome_wins() {
    let mut s = default_store();
    let id = s.create(NewTask::new(V25), T0).unwrap().id;
    let cancelled = s
        .cancel(Caller::Session(None), &id, V25, None, T0 + 1)
        .unwrap();
    assert!(cancelled.changed);
    assert_eq!(cancelled.task.status(), TaskStatus::Cancelled);
    // The work finishes later: discarded, reported as AlreadyTerminal.
    let late = s
        .complete(HOST, &id, obj(json!({"content": []})), None, T0 + 2)
        .unwrap_err();
    assert_eq!(
        late,
        StoreError::AlreadyTerminal {
            status: TaskStatus::Cancelled
        }
    );
    assert_eq!(s.fail(HOST, &id, err(), None, T0 + 3).unwrap_err(), late);
    assert_eq!(s.get(HOST, &id, T0 + 4).unwrap(), cancelled.task);

    let id = s.create(NewTask::new(V26), T0).unwrap().id;
    let done = s
        .complete(
            HOST,
            &id,
            obj(json!({"content": [], "isError": true})),
            None,
            T0 + 1,
        )
        .unwrap();
    assert!(s
        .complete(HOST, &id, obj(json!({"other": 1})), None, T0 + 2)
        .is_err());
    assert!(s.fail(HOST, &id, err(), None, T0 + 2).is_err());
    assert_eq!(s.get(HOST, &id, T0 + 3).unwrap(), done);
}

// §D 22 (V25: -32602) and §D 90 (V26: idempotent ack) for cancelling a terminal task.
#[test]
fn d22_d90_cancel_of_terminal_task_per_version() {
    let mut s = default_store();
    let id = s.create(NewTask::new(V25), T0).unwrap().id;
    let failed = s.fail(HOST, &id, err(), None, T0 + 1).unwrap();
    let e = s
        .cancel(Caller::Session(None), &id, V25, None, T0 + 2)
        .unwrap_err();
    assert_eq!(
        (e.code(), e.clone()),
        (
            -32602,
            StoreError::AlreadyTerminal {
                status: TaskStatus::Failed
            }
        )
    );
    let ack = s
        .cancel(Caller::Session(None), &id, V26, None, T0 + 2)
        .unwrap();
    assert!(!ack.changed);
    assert_eq!(ack.task, failed);
    // V25 cancel of a cancelled task is an error too; V26 acks again.
    let id = s.create(NewTask::new(V26), T0).unwrap().id;
    assert!(
        s.cancel(HOST, &id, V26, Some("stop".into()), T0 + 1)
            .unwrap()
            .changed
    );
    assert!(!s.cancel(HOST, &id, V26, None, T0 + 2).unwrap().changed);
    assert!(s.cancel(HOST, &id, V25, None, T0 + 2).is_err());
    assert_eq!(
        s.get(HOST, &id, T0 + 3).unwrap().status_message.as_deref(),
        Some("stop")
    );
}

// §D 44, 91: failed carries the JSON-RPC error and a diagnostic statusMessage.
#[test]
fn d91_fail_carries_error_and_message() {
    let mut s = default_store();
    let id = s.create(NewTask::new(V26), T0).unwrap().id;
    let t = s.fail(HOST, &id, err(), None, T0 + 1).unwrap();
    assert_eq!(t.status_message.as_deref(), Some("boom"));
    let wire = serde_json::to_value(t.to_v26_detailed()).unwrap();
    assert_eq!(wire["error"], json!({"code": -32603, "message": "boom"}));
    assert!(wire.get("result").is_none());
}

// §D 30, 44 (V25) vs §D 91 (V26): a tool result with isError fails a V25 task keeping the result
// (diagnostic statusMessage, V26 view with a derived JSON-RPC error); a V26 task refuses it.
#[test]
fn d44_tool_error_fails_v25_task_with_its_result() {
    let mut s = default_store();
    let result = obj(json!({"content": [{"type": "text", "text": "disk full"}], "isError": true}));
    let id = s.create(NewTask::new(V25), T0).unwrap().id;
    let t = s
        .fail_with_tool_result(HOST, &id, result.clone(), None, T0 + 1)
        .unwrap();
    assert_eq!(
        t.state,
        TaskState::ToolFailed {
            result: result.clone().into()
        }
    );
    assert_eq!(t.status(), TaskStatus::Failed);
    assert_eq!(
        t.status_message.as_deref(),
        Some("Tool reported an error: disk full")
    );
    assert_eq!(
        serde_json::to_value(t.to_v25()).unwrap()["status"],
        "failed"
    );
    let wire = serde_json::to_value(t.to_v26_detailed()).unwrap();
    assert_eq!(wire["error"]["code"], -32603);
    assert!(wire.get("result").is_none());
    // Terminal: a later outcome loses.
    assert!(matches!(
        s.fail_with_tool_result(HOST, &id, result.clone(), None, T0 + 2),
        Err(StoreError::AlreadyTerminal { .. })
    ));
    assert!(s.complete(HOST, &id, result.clone(), None, T0 + 2).is_err());
    // Snapshot and restore keep it.
    let back = Store::restore(s.snapshot(), DeterministicRandom::new(9)).unwrap();
    assert_eq!(back.storage().get(&id).unwrap(), t);
    // A snapshot claiming a V26 task failed with a tool result is refused.
    let mut snap = s.snapshot();
    snap["tasks"][0]["protocol"] = json!("2026-07-28");
    assert!(matches!(
        Store::restore(snap, DeterministicRandom::new(9)),
        Err(StoreError::InvalidSnapshot { .. })
    ));

    // Not an isError result, or a V26 task: refused, nothing changes.
    let id = s.create(NewTask::new(V25), T0).unwrap().id;
    let e = s
        .fail_with_tool_result(HOST, &id, obj(json!({"content": []})), None, T0 + 1)
        .unwrap_err();
    assert!(matches!(e, StoreError::InvalidToolFailure { .. }));
    assert_eq!(e.code(), -32603);
    let id = s.create(NewTask::new(V26), T0).unwrap().id;
    let e = s
        .fail_with_tool_result(HOST, &id, result, None, T0 + 1)
        .unwrap_err();
    assert!(matches!(e, StoreError::InvalidToolFailure { .. }));
    assert_eq!(
        s.get(HOST, &id, T0 + 2).unwrap().status(),
        TaskStatus::Working
    );
}

// §D 28: createdAt immutable, lastUpdatedAt non-decreasing even when the clock goes back.
#[test]
fn d28_timestamps_never_go_back() {
    let mut s = default_store();
    let id = s.create(NewTask::new(V25), T0).unwrap().id;
    let t = s
        .set_status(HOST, &id, TaskStatus::InputRequired, None, T0 + 50)
        .unwrap();
    assert_eq!(t.last_updated_at_ms, T0 + 50);
    let t = s
        .set_status(HOST, &id, TaskStatus::Working, None, T0 + 10)
        .unwrap();
    assert_eq!((t.created_at_ms, t.last_updated_at_ms), (T0, T0 + 50));
}

// §D 26, 94: nothing is purged before createdAt + ttl; afterwards the id is not found (-32602).
#[test]
fn d26_ttl_purges_lazily_and_by_sweep() {
    let mut s = store(StoreConfig {
        record_changes: true,
        ..StoreConfig::default()
    });
    let a = s.create(NewTask::new(V25).ttl(1000), T0).unwrap().id;
    let b = s.create(NewTask::new(V25).ttl(1000), T0).unwrap().id;
    let c = s.create(NewTask::new(V25).ttl(5000), T0).unwrap().id;
    assert_eq!(s.sweep(T0 + 1000, 100), 0);
    assert!(
        s.get(HOST, &a, T0 + 1000).is_ok(),
        "readable until createdAt + ttl"
    );
    // A running task expires like any other (the host chose the TTL), but only after it.
    let e = s.get(Caller::Session(None), &a, T0 + 1001).unwrap_err();
    assert_eq!((e.clone(), e.code()), (StoreError::NotFound, -32602));
    assert_eq!(s.storage().len(), 2, "purged lazily");
    assert_eq!(s.sweep(T0 + 1001, 100), 1);
    assert!(s.get(HOST, &b, T0 + 1001).is_err());
    assert!(s.get(HOST, &c, T0 + 1001).is_ok());
    assert_eq!(s.sweep(T0 + 10_000, 100), 1);
    assert!(s.storage().is_empty());
    let deleted = s
        .take_changes()
        .into_iter()
        .filter(|c| {
            matches!(
                c,
                Change::Deleted {
                    reason: DeleteReason::Expired,
                    ..
                }
            )
        })
        .count();
    assert_eq!(deleted, 3);
    // Operations on an expired id answer not found as well.
    let d = s.create(NewTask::new(V26).ttl(10), T0).unwrap().id;
    assert_eq!(
        s.cancel(HOST, &d, V26, None, T0 + 11).unwrap_err(),
        StoreError::NotFound
    );
}

// §D 38: a session's tasks are invisible (not found) to other sessions and to calls without one.
#[test]
fn d38_sessions_are_isolated() {
    let mut s = default_store();
    let a = s.create(NewTask::new(V25).session("alice"), T0).unwrap().id;
    let u = s.create(NewTask::new(V25), T0).unwrap().id;
    let alice = Caller::Session(Some("alice"));
    let bob = Caller::Session(Some("bob"));
    let anon = Caller::Session(None);
    assert!(s.get(alice, &a, T0).is_ok());
    assert!(s.get(HOST, &a, T0).is_ok());
    for other in [bob, anon] {
        assert_eq!(s.get(other, &a, T0).unwrap_err(), StoreError::NotFound);
        assert_eq!(
            s.cancel(other, &a, V25, None, T0).unwrap_err(),
            StoreError::NotFound
        );
        assert_eq!(
            s.take_input(other, &a, obj(json!({"k": {}})), T0)
                .unwrap_err(),
            StoreError::NotFound
        );
    }
    assert_eq!(s.get(alice, &a, T0).unwrap().status(), TaskStatus::Working);
    assert_eq!(s.get(alice, &u, T0).unwrap_err(), StoreError::NotFound);
    assert!(s.get(anon, &u, T0).is_ok());
    let ids = |p: ListPage| p.tasks.into_iter().map(|t| t.id).collect::<Vec<_>>();
    assert_eq!(
        ids(s.list(alice, None, None, T0).unwrap()),
        std::slice::from_ref(&a)
    );
    assert!(ids(s.list(bob, None, None, T0).unwrap()).is_empty());
    assert_eq!(
        ids(s.list(anon, None, None, T0).unwrap()),
        std::slice::from_ref(&u)
    );
    assert_eq!(
        ids(s.list(HOST, None, None, T0).unwrap()),
        [a.clone(), u.clone()]
    );

    let mut shared = store(StoreConfig {
        share_across_sessions: true,
        ..StoreConfig::default()
    });
    let a = shared
        .create(NewTask::new(V25).session("alice"), T0)
        .unwrap()
        .id;
    assert!(shared.get(bob, &a, T0).is_ok());
    assert_eq!(ids(shared.list(anon, None, None, T0).unwrap()), [a]);
}

// §D 42: a per-session cap on live (non-terminal, unexpired) tasks.
#[test]
fn d42_session_cap_counts_live_tasks() {
    let mut s = store(StoreConfig {
        max_live_tasks_per_session: Some(2),
        ..StoreConfig::default()
    });
    let x = || NewTask::new(V25).session("x");
    let a = s.create(x(), T0).unwrap().id;
    s.create(x().ttl(100), T0).unwrap();
    let e = s.create(x(), T0).unwrap_err();
    assert_eq!(
        (e.clone(), e.code()),
        (StoreError::SessionCapReached { limit: 2 }, -32010)
    );
    assert!(
        s.create(NewTask::new(V25).session("y"), T0).is_ok(),
        "other sessions unaffected"
    );
    for _ in 0..5 {
        assert!(
            s.create(NewTask::new(V25), T0).is_ok(),
            "unbound tasks are not capped"
        );
    }
    // An expired task frees its slot (even before any sweep).
    assert!(s.create(x(), T0 + 101).is_ok());
    assert!(s.create(x(), T0 + 101).is_err());
    // A finished task frees its slot.
    s.complete(HOST, &a, JsonObject::new(), None, T0 + 102)
        .unwrap();
    assert!(s.create(x(), T0 + 103).is_ok());
}

fn page_ids(p: &ListPage) -> Vec<String> {
    p.tasks.iter().map(|t| t.id.clone()).collect()
}

// §D 36, 37: pages in creation order; nextCursor exactly while more tasks exist.
#[test]
fn d36_list_pages_with_cursors() {
    let mut s = store(StoreConfig {
        page_size: 3,
        ..StoreConfig::default()
    });
    let all: Vec<String> = (0..7)
        .map(|_| s.create(NewTask::new(V25), T0).unwrap().id)
        .collect();
    let anon = Caller::Session(None);
    let p1 = s.list(anon, None, None, T0).unwrap();
    let p2 = s.list(anon, p1.next_cursor.as_deref(), None, T0).unwrap();
    let p3 = s.list(anon, p2.next_cursor.as_deref(), None, T0).unwrap();
    assert_eq!([page_ids(&p1), page_ids(&p2), page_ids(&p3)].concat(), all);
    assert!(p3.next_cursor.is_none());
    // Exactly a multiple of the page size: no cursor after the last full page.
    s.remove(HOST, &all[6], T0).unwrap();
    let p2 = s.list(anon, p1.next_cursor.as_deref(), None, T0).unwrap();
    assert_eq!(page_ids(&p2), all[3..6]);
    assert!(p2.next_cursor.is_none());
    // `limit` shrinks pages, never grows them.
    assert_eq!(s.list(anon, None, Some(2), T0).unwrap().tasks.len(), 2);
    assert_eq!(s.list(anon, None, Some(100), T0).unwrap().tasks.len(), 3);
}

// §D 36: stable while tasks are created and deleted between pages (keyset, not offsets).
#[test]
fn d36_list_is_stable_under_inserts_and_deletes() {
    let mut s = store(StoreConfig {
        page_size: 2,
        ..StoreConfig::default()
    });
    let ids: Vec<String> = (0..4)
        .map(|_| s.create(NewTask::new(V25), T0).unwrap().id)
        .collect();
    let p1 = s.list(HOST, None, None, T0).unwrap();
    assert_eq!(page_ids(&p1), ids[..2]);
    s.remove(HOST, &ids[0], T0).unwrap(); // before the cursor
    s.remove(HOST, &ids[2], T0).unwrap(); // after the cursor
    let new = s.create(NewTask::new(V25), T0).unwrap().id;
    let p2 = s.list(HOST, p1.next_cursor.as_deref(), None, T0).unwrap();
    assert_eq!(page_ids(&p2), [ids[3].clone(), new]);
    assert!(p2.next_cursor.is_none());
}

// Expired tasks met while listing are purged and skipped; pages still fill up.
#[test]
fn d26_list_skips_and_purges_expired() {
    let mut s = store(StoreConfig {
        page_size: 2,
        ..StoreConfig::default()
    });
    let keep: Vec<String> = (0..6)
        .filter_map(|i| {
            let ttl = if i % 2 == 0 { 10 } else { 10_000 };
            let id = s.create(NewTask::new(V25).ttl(ttl), T0).unwrap().id;
            (i % 2 == 1).then_some(id)
        })
        .collect();
    let p1 = s.list(HOST, None, None, T0 + 100).unwrap();
    assert_eq!(page_ids(&p1), keep[..2]);
    let p2 = s
        .list(HOST, p1.next_cursor.as_deref(), None, T0 + 100)
        .unwrap();
    assert_eq!(page_ids(&p2), keep[2..]);
    assert!(p2.next_cursor.is_none());
    assert_eq!(s.storage().len(), 3);
}

// §D 35, 38: forged, altered, empty or foreign cursors answer -32602.
#[test]
fn cursors_reveal_no_store_wide_count_and_have_one_form() {
    // No count leaks. Session b creates 0 or 1000 tasks, then session a creates two and lists
    // one per page. The cursor a receives holds the store-wide sequence of its first task (1 or
    // 1001) encrypted: the clear number is nowhere in it, and its upper-case variant is refused.
    for others in [0u64, 1000] {
        let mut s = store(StoreConfig {
            page_size: 1,
            max_live_tasks_per_session: None,
            ..StoreConfig::default()
        });
        for _ in 0..others {
            s.create(NewTask::new(V25).session("b"), T0).unwrap();
        }
        s.create(NewTask::new(V25).session("a"), T0).unwrap();
        s.create(NewTask::new(V25).session("a"), T0).unwrap();
        let a = Caller::Session(Some("a"));
        let first = s.list(a, None, None, T0).unwrap();
        assert_eq!(first.tasks[0].seq, others + 1);
        let c = first.next_cursor.unwrap();
        assert_eq!(c.len(), 32);
        assert!(c
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
        let clear = format!("{:016x}", others + 1);
        assert!(!c.contains(&clear), "{c} shows the sequence {clear}");
        assert_eq!(
            s.list(a, Some(&c.to_uppercase()), None, T0).unwrap_err(),
            StoreError::InvalidCursor
        );
        let second = s.list(a, Some(&c), None, T0).unwrap();
        assert_eq!(second.tasks.len(), 1);
        assert!(second.next_cursor.is_none());
    }
}

#[test]
fn d35_invalid_cursors() {
    let mut s = store(StoreConfig {
        page_size: 1,
        ..StoreConfig::default()
    });
    for session in ["a", "a", "b", "b"] {
        s.create(NewTask::new(V25).session(session), T0).unwrap();
    }
    let a = Caller::Session(Some("a"));
    let b = Caller::Session(Some("b"));
    let ca = s.list(a, None, None, T0).unwrap().next_cursor.unwrap();
    assert!(s.list(a, Some(&ca), None, T0).is_ok());
    for bad in [
        "",
        "0",
        "not a cursor",
        &"0".repeat(32),
        &ca.to_uppercase()[..31],
    ] {
        let e = s.list(a, Some(bad), None, T0).unwrap_err();
        assert_eq!(
            (e.clone(), e.code()),
            (StoreError::InvalidCursor, -32602),
            "{bad:?}"
        );
    }
    assert_eq!(
        s.list(b, Some(&ca), None, T0).unwrap_err(),
        StoreError::InvalidCursor
    );
    assert_eq!(
        s.list(Caller::Session(None), Some(&ca), None, T0)
            .unwrap_err(),
        StoreError::InvalidCursor
    );
    // Another store (another key) does not accept it either.
    let mut other = Store::in_memory(StoreConfig::default(), DeterministicRandom::new(7)).unwrap();
    assert_eq!(
        other.list(a, Some(&ca), None, T0).unwrap_err(),
        StoreError::InvalidCursor
    );
}

// §D 85, 87, 88, 32: input keys, outstanding set, partial answers.
#[test]
fn d87_d88_input_requests_and_responses() {
    let mut s = default_store();
    let id = s.create(NewTask::new(V26), T0).unwrap().id;
    let c = Caller::Session(None);
    let t = s
        .raise_input(
            HOST,
            &id,
            obj(json!({"a": elicit("A"), "b": elicit("B")})),
            None,
            T0 + 1,
        )
        .unwrap();
    assert_eq!(t.status(), TaskStatus::InputRequired);
    let wire = serde_json::to_value(t.to_v26_detailed()).unwrap();
    assert_eq!(
        wire["inputRequests"],
        json!({"a": elicit("A"), "b": elicit("B")})
    );
    // Re-raising an outstanding key with the same request: idempotent.
    let again = s
        .raise_input(HOST, &id, obj(json!({"a": elicit("A")})), None, T0 + 2)
        .unwrap();
    assert_eq!(again.version, t.version);
    // With another request: the key is taken.
    assert_eq!(
        s.raise_input(HOST, &id, obj(json!({"a": elicit("other")})), None, T0 + 2)
            .unwrap_err(),
        StoreError::InputKeyReused { key: "a".into() }
    );
    // Partial answer: stays input_required; unknown keys ignored.
    let r = s
        .take_input(
            c,
            &id,
            obj(json!({"a": {"action": "accept"}, "zz": {}})),
            T0 + 3,
        )
        .unwrap();
    assert_eq!(
        (r.accepted, r.ignored),
        (vec!["a".to_owned()], vec!["zz".to_owned()])
    );
    assert_eq!(r.task.status(), TaskStatus::InputRequired);
    assert_eq!(r.task.outstanding_keys().collect::<Vec<_>>(), ["b"]);
    // Answering again: ignored, nothing written.
    let r2 = s
        .take_input(c, &id, obj(json!({"a": {"action": "decline"}})), T0 + 4)
        .unwrap();
    assert_eq!(
        (r2.accepted.len(), r2.ignored.len(), r2.task.version),
        (0, 1, r.task.version)
    );
    // An answered key is never reused.
    assert!(s
        .raise_input(HOST, &id, obj(json!({"a": elicit("A")})), None, T0 + 5)
        .is_err());
    // The last outstanding answer resumes the task.
    let r3 = s
        .take_input(c, &id, obj(json!({"b": {"action": "accept"}})), T0 + 6)
        .unwrap();
    assert_eq!(r3.task.status(), TaskStatus::Working);
    assert!(matches!(
        &r3.task.inputs.get("a").unwrap().state,
        InputState::Answered { response } if response == &json!({"action": "accept"})
    ));
    // Leaving input_required another way supersedes what was outstanding.
    s.raise_input(
        HOST,
        &id,
        obj(json!({"c": {"method": "roots/list"}})),
        None,
        T0 + 7,
    )
    .unwrap();
    s.set_status(HOST, &id, TaskStatus::Working, None, T0 + 8)
        .unwrap();
    let r4 = s
        .take_input(c, &id, obj(json!({"c": {"roots": []}})), T0 + 9)
        .unwrap();
    assert_eq!(r4.ignored, ["c"]);
    assert!(s
        .raise_input(
            HOST,
            &id,
            obj(json!({"c": {"method": "roots/list"}})),
            None,
            T0 + 10
        )
        .is_err());
    // Terminal: raising is refused, answers are ignored.
    s.raise_input(
        HOST,
        &id,
        obj(json!({"d": {"method": "roots/list"}})),
        None,
        T0 + 11,
    )
    .unwrap();
    let done = s
        .complete(HOST, &id, JsonObject::new(), None, T0 + 12)
        .unwrap();
    assert_eq!(done.outstanding_keys().count(), 0);
    assert_eq!(
        s.raise_input(
            HOST,
            &id,
            obj(json!({"e": {"method": "roots/list"}})),
            None,
            T0 + 13
        )
        .unwrap_err(),
        StoreError::AlreadyTerminal {
            status: TaskStatus::Completed
        }
    );
    assert_eq!(
        s.take_input(c, &id, obj(json!({"d": {}})), T0 + 13)
            .unwrap()
            .ignored,
        ["d"]
    );
}

#[test]
fn d70_input_requests_are_checked() {
    let mut s = default_store();
    let id = s.create(NewTask::new(V26), T0).unwrap().id;
    for bad in [
        json!({}),
        json!({"k": 1}),
        json!({"k": {"method": "tools/call", "params": {}}}),
        json!({"k": {"method": "elicitation/create"}}),
        json!({"k": {"method": "roots/list", "params": 3}}),
    ] {
        let e = s
            .raise_input(HOST, &id, obj(bad.clone()), None, T0)
            .unwrap_err();
        assert!(matches!(e, StoreError::InvalidInputRequest { .. }), "{bad}");
    }
    assert_eq!(s.get(HOST, &id, T0).unwrap().version, 1);
}

/// A storage that loses the first `n` compare-and-swaps of existing records.
struct Flaky {
    inner: MemoryStorage,
    conflicts: usize,
}
impl Storage for Flaky {
    fn get(&self, id: &str) -> Option<TaskRecord> {
        self.inner.get(id)
    }
    fn put_if_version(&mut self, r: TaskRecord, expected: Option<u64>) -> Result<(), Conflict> {
        if expected.is_some() && self.conflicts > 0 {
            self.conflicts -= 1;
            return Err(Conflict);
        }
        self.inner.put_if_version(r, expected)
    }
    fn delete(&mut self, id: &str) -> Option<TaskRecord> {
        self.inner.delete(id)
    }
    fn range_after(&self, scope: Scope<'_>, after: u64, limit: usize) -> Vec<TaskRecord> {
        self.inner.range_after(scope, after, limit)
    }
    fn expired(&self, now_ms: u64, limit: usize) -> Vec<String> {
        self.inner.expired(now_ms, limit)
    }
    fn count_live(&self, session: Option<&str>) -> usize {
        self.inner.count_live(session)
    }
    fn next_sequence(&mut self) -> u64 {
        self.inner.next_sequence()
    }
    fn last_sequence(&self) -> u64 {
        self.inner.last_sequence()
    }
}

// Writes are compare-and-swaps with a bounded retry; exhaustion is -32603.
#[test]
fn cas_retries_then_gives_up() {
    let flaky = Flaky {
        inner: MemoryStorage::new(),
        conflicts: ops::CAS_ATTEMPTS - 1,
    };
    let mut s = Store::new(StoreConfig::default(), flaky, DeterministicRandom::new(1)).unwrap();
    let id = s.create(NewTask::new(V25), T0).unwrap().id;
    assert_eq!(
        s.cancel(HOST, &id, V25, None, T0).unwrap().task.status(),
        TaskStatus::Cancelled
    );
    let flaky = Flaky {
        inner: MemoryStorage::new(),
        conflicts: usize::MAX,
    };
    let mut s = Store::new(StoreConfig::default(), flaky, DeterministicRandom::new(1)).unwrap();
    let id = s.create(NewTask::new(V25), T0).unwrap().id;
    let e = s.cancel(HOST, &id, V25, None, T0).unwrap_err();
    assert_eq!((e.clone(), e.code()), (StoreError::Conflict, -32603));
    assert_eq!(s.get(HOST, &id, T0).unwrap().status(), TaskStatus::Working);
}

// Every write leaves a Change when the host asks for them.
#[test]
fn changes_follow_every_write() {
    let mut s = store(StoreConfig {
        record_changes: true,
        ..StoreConfig::default()
    });
    let id = s.create(NewTask::new(V26), T0).unwrap().id;
    s.set_status(HOST, &id, TaskStatus::InputRequired, None, T0 + 1)
        .unwrap();
    s.cancel(HOST, &id, V26, None, T0 + 2).unwrap();
    s.cancel(HOST, &id, V26, None, T0 + 3).unwrap(); // no-op: no change
    s.remove(HOST, &id, T0 + 4).unwrap();
    let kinds: Vec<String> = s
        .take_changes()
        .iter()
        .map(|c| {
            serde_json::to_value(c).unwrap()["kind"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(kinds, ["created", "updated", "updated", "deleted"]);
    assert!(s.take_changes().is_empty());
    let mut quiet = default_store();
    quiet.create(NewTask::new(V26), T0).unwrap();
    assert!(quiet.take_changes().is_empty());
}

// Durability: restore(snapshot) is the same store; cursors and ordering survive the restart.
#[test]
fn snapshot_restore_keeps_tasks_cursors_and_order() {
    let mut s = store(StoreConfig {
        page_size: 2,
        ..StoreConfig::default()
    });
    let ids: Vec<String> = (0..5)
        .map(|_| s.create(NewTask::new(V26).session("x"), T0).unwrap().id)
        .collect();
    s.raise_input(HOST, &ids[1], obj(json!({"k": elicit("?")})), None, T0 + 1)
        .unwrap();
    s.complete(HOST, &ids[2], obj(json!({"content": []})), None, T0 + 1)
        .unwrap();
    let x = Caller::Session(Some("x"));
    let cursor = s.list(x, None, None, T0).unwrap().next_cursor.unwrap();
    let snap = s.snapshot();
    let mut r = Store::restore(snap.clone(), DeterministicRandom::new(99)).unwrap();
    assert_eq!(r.snapshot(), snap);
    assert_eq!(
        r.get(x, &ids[1], T0 + 2).unwrap(),
        s.get(x, &ids[1], T0 + 2).unwrap()
    );
    assert_eq!(
        page_ids(&r.list(x, Some(&cursor), None, T0).unwrap()),
        ids[2..4]
    );
    let new = r.create(NewTask::new(V26).session("x"), T0 + 3).unwrap();
    assert!(
        new.seq > s.get(HOST, &ids[4], T0).unwrap().seq,
        "sequence continues"
    );
}

#[test]
fn reload_replaces_every_record_and_keeps_nothing_else() {
    let mut a = default_store();
    let first = a.create(NewTask::new(V26).session("x"), T0).unwrap().id;
    let mut b = Store::in_memory(StoreConfig::default(), DeterministicRandom::new(7)).unwrap();
    let other = b.create(NewTask::new(V26).session("x"), T0).unwrap().id;
    b.complete(HOST, &other, obj(json!({"content": []})), None, T0 + 1)
        .unwrap();
    let snap = b.snapshot();
    // A change not taken and an answer cached at the old write count do not survive.
    let writes = a.writes();
    a.reload(snap.clone()).unwrap();
    assert_eq!(
        a.snapshot(),
        snap,
        "exactly the snapshot's records, settings and key"
    );
    assert!(a.take_changes().is_empty());
    assert!(a.writes() > writes);
    assert!(
        a.get(HOST, &first, T0 + 2).is_err(),
        "the old record is gone"
    );
    assert_eq!(
        a.get(HOST, &other, T0 + 2).unwrap(),
        b.get(HOST, &other, T0 + 2).unwrap()
    );
    // A snapshot that cannot be restored cannot be reloaded, and leaves the store as it was.
    let mut bad = snap.clone();
    bad["tasks"][0]["seq"] = json!(0);
    assert!(matches!(
        a.reload(bad),
        Err(StoreError::InvalidSnapshot { .. })
    ));
    assert_eq!(a.snapshot(), snap);
}

#[test]
fn load_replaces_the_records_of_its_ids_and_keeps_the_others() {
    let mut b = Store::in_memory(StoreConfig::default(), DeterministicRandom::new(7)).unwrap();
    let one = b.create(NewTask::new(V26).session("x"), T0).unwrap().id;
    let two = b.create(NewTask::new(V25).session("y"), T0).unwrap().id;
    let mut a = Store::restore(b.snapshot(), DeterministicRandom::new(8)).unwrap();
    // `one` moves on in b (its storage); a loads that revision alone.
    b.complete(HOST, &one, obj(json!({"content": []})), None, T0 + 1)
        .unwrap();
    let three = b.create(NewTask::new(V25).session("x"), T0 + 2).unwrap().id;
    let tasks = b.snapshot()["tasks"].clone();
    let pick = |id: &str| {
        Value::Array(
            tasks
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| t["id"] == json!(id))
                .cloned()
                .collect(),
        )
    };
    let writes = a.writes();
    a.load(pick(&one)).unwrap();
    a.load(pick(&three)).unwrap();
    assert!(a.writes() > writes);
    assert!(a.take_changes().is_empty());
    for id in [&one, &two, &three] {
        assert_eq!(
            a.get(HOST, id, T0 + 3).unwrap(),
            b.get(HOST, id, T0 + 3).unwrap()
        );
    }
    assert_eq!(
        a.storage().count_live(Some("x")),
        1,
        "the indexes follow the replaced record"
    );
    // Refused whole: not an array, a bad record, a duplicate id; nothing changes.
    let before = a.snapshot();
    let mut bad = pick(&two);
    bad[0]["seq"] = json!(0);
    for v in [
        json!({}),
        bad,
        Value::Array(vec![pick(&one)[0].clone(), pick(&one)[0].clone()]),
    ] {
        assert!(matches!(a.load(v), Err(StoreError::InvalidSnapshot { .. })));
    }
    assert_eq!(a.snapshot(), before);
}

#[test]
fn restore_rejects_bad_snapshots() {
    let mut s = default_store();
    s.create(NewTask::new(V25), T0).unwrap();
    s.create(NewTask::new(V25), T0).unwrap();
    let good = s.snapshot();
    let restore = |v: Value| Store::restore(v, DeterministicRandom::new(1)).err();
    let mut bad = vec![json!(null), json!({"format": "x"})];
    let mut v = good.clone();
    v["format"] = json!("other");
    bad.push(v);
    let mut v = good.clone();
    v["cursorKey"] = json!("zz");
    bad.push(v);
    let mut v = good.clone();
    v["tasks"][1]["seq"] = v["tasks"][0]["seq"].clone();
    bad.push(v);
    let mut v = good.clone();
    v["tasks"][1]["id"] = v["tasks"][0]["id"].clone();
    v["tasks"][1]["seq"] = json!(2);
    bad.push(v);
    let mut v = good.clone();
    v["tasks"][0]["lastUpdatedAtMs"] = json!(0);
    bad.push(v);
    let mut v = good.clone();
    v["sequence"] = json!(1);
    bad.push(v);
    let mut v = good.clone();
    v["config"]["pageSize"] = json!("x");
    bad.push(v);
    let mut v = good.clone();
    v["tasks"][0]["status"] = json!("done");
    bad.push(v);
    for b in bad {
        let e = restore(b.clone());
        assert!(matches!(e, Some(StoreError::InvalidSnapshot { .. })), "{b}");
    }
    assert!(restore(good.clone()).is_none());
    // Config members left out take their defaults; null clears an optional one.
    let mut v = good.clone();
    v["config"] = json!({"maxTtlMs": null});
    let r = Store::restore(v, DeterministicRandom::new(1)).unwrap();
    assert_eq!(
        *r.config(),
        StoreConfig {
            max_ttl_ms: None,
            ..StoreConfig::default()
        }
    );
    // maxRequestBytes (read by the JS bindings) round-trips; null is no limit.
    assert_eq!(
        StoreConfig::default().max_request_bytes,
        Some(16 * 1024 * 1024)
    );
    for limit in [Some(1024), None] {
        let config = StoreConfig {
            max_request_bytes: limit,
            ..StoreConfig::default()
        };
        assert_eq!(
            StoreConfig::from_json(&Value::Object(config.to_json())),
            Ok(config)
        );
    }
    let mut v = good;
    v["config"]["maxRequestBytes"] = json!(-1);
    assert!(matches!(
        restore(v),
        Some(StoreError::InvalidSnapshot { .. })
    ));
}

/// A source that fails after `ok` draws.
struct Failing {
    ok: usize,
}
impl RandomSource for Failing {
    fn fill(&mut self, buf: &mut [u8]) -> Result<(), RandomUnavailable> {
        if self.ok == 0 {
            return Err(RandomUnavailable("the entropy pool is gone".into()));
        }
        self.ok -= 1;
        buf.fill(7);
        Ok(())
    }
}

// §D 18, 84: a failing random source never yields a weak id: the store refuses (-32603), and a
// store without a cursor key is never made.
#[test]
fn d84_a_failing_random_source_refuses_instead_of_weak_ids() {
    let e = Store::in_memory(StoreConfig::default(), Failing { ok: 0 }).err();
    assert!(
        matches!(e, Some(StoreError::RandomUnavailable { .. })),
        "{e:?}"
    );
    let mut s = Store::in_memory(StoreConfig::default(), Failing { ok: 1 }).unwrap();
    let e = s.create(NewTask::new(V25), T0).unwrap_err();
    assert_eq!(e.code(), -32603);
    assert!(e.to_string().contains("entropy pool"), "{e}");
    assert_eq!(s.storage().len(), 0, "nothing was stored");
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn os_random_serves_a_store() {
    let mut s = Store::in_memory(StoreConfig::default(), crate::store::random::OsRandom).unwrap();
    let a = s.create(NewTask::new(V25), T0).unwrap().id;
    let b = s.create(NewTask::new(V25), T0).unwrap().id;
    assert_ne!(a, b);
    assert_eq!(a.len(), 32);
}

// `act_then` (the terminal writes of the wasm class: the move made on the stored record in
// place, `Storage::update`) writes what the general path (`mutate_with`: a new revision put over
// the old) writes: the same records, answers, errors, write counts and changes, over the
// built-in storage and over one that only has the default `update` (and loses compare-and-swaps).
#[test]
fn terminal_writes_in_place_match_the_general_path() {
    use crate::store::rules::Action;
    let result = |is_error: bool| {
        Payload::from(obj(
            json!({"content": [{"type": "text", "text": "r"}], "isError": is_error}),
        ))
    };
    let actions: Vec<(&str, Action)> = vec![
        (
            "complete",
            Action::Complete {
                result: result(false),
                message: None,
            },
        ),
        (
            "complete+message",
            Action::Complete {
                result: result(false),
                message: Some("m".into()),
            },
        ),
        (
            "fail",
            Action::Fail {
                error: err(),
                message: None,
            },
        ),
        (
            "fail+message",
            Action::Fail {
                error: err(),
                message: Some("m".into()),
            },
        ),
        (
            "tool failure",
            Action::FailWithToolResult {
                result: result(true),
                message: None,
            },
        ),
        (
            "tool failure without isError",
            Action::FailWithToolResult {
                result: result(false),
                message: None,
            },
        ),
    ];
    let config = StoreConfig {
        record_changes: true,
        ..StoreConfig::default()
    };
    for (name, action) in &actions {
        for protocol in [V25, V26] {
            for case in [
                "working",
                "input",
                "terminal",
                "other session",
                "expired",
                "unknown",
            ] {
                for conflicts in [0, 1] {
                    let flaky = |conflicts| Flaky {
                        inner: MemoryStorage::new(),
                        conflicts,
                    };
                    let mut general =
                        Store::new(config.clone(), flaky(0), DeterministicRandom::new(42)).unwrap();
                    let mut in_place = Store::new(
                        config.clone(),
                        flaky(conflicts),
                        DeterministicRandom::new(7),
                    )
                    .unwrap();
                    let mut memory = store(config.clone());
                    let prepared = [
                        general.prepare(protocol, case),
                        in_place.prepare(protocol, case),
                        memory.prepare(protocol, case),
                    ];
                    let id = |k: usize| {
                        if case == "unknown" {
                            "0".repeat(32)
                        } else {
                            prepared[k].clone()
                        }
                    };
                    let now = if case == "expired" {
                        T0 + 10 * 86_400_000
                    } else {
                        T0 + 5
                    };
                    let caller = Caller::Session(Some("s"));
                    let answer = |r: &TaskRecord| (r.version, r.status_message.clone());
                    let want = match action.clone() {
                        Action::Complete { result, message } => {
                            general.complete(caller, &id(0), result.object(), message, now)
                        }
                        Action::Fail { error, message } => {
                            general.fail(caller, &id(0), error, message, now)
                        }
                        Action::FailWithToolResult { result, message } => general
                            .fail_with_tool_result(caller, &id(0), result.object(), message, now),
                        other => Err(StoreError::InvalidToolFailure {
                            reason: format!("not a terminal write: {other:?}"),
                        }),
                    }
                    .map(|r| answer(&r));
                    let label = format!("{name}, {protocol:?}, {case}, {conflicts} conflicts");
                    assert_eq!(
                        in_place.act_then(caller, &id(1), action.clone(), now, answer),
                        want,
                        "{label}"
                    );
                    assert_eq!(
                        memory.act_then(caller, &id(2), action.clone(), now, answer),
                        want,
                        "{label}"
                    );
                    assert_eq!(in_place.writes(), general.writes(), "{label}");
                    assert_eq!(memory.writes(), general.writes(), "{label}");
                    // The same record but its id (each store drew its own).
                    let record = |r: Option<TaskRecord>| {
                        r.map(|r| TaskRecord {
                            id: String::new(),
                            ..r
                        })
                    };
                    let want_record = record(general.storage().get(&prepared[0]));
                    assert_eq!(
                        record(in_place.storage().get(&prepared[1])),
                        want_record,
                        "{label}"
                    );
                    assert_eq!(
                        record(memory.storage().get(&prepared[2])),
                        want_record,
                        "{label}"
                    );
                    let changes = general.take_changes().len();
                    assert_eq!(in_place.take_changes().len(), changes, "{label}");
                    assert_eq!(memory.take_changes().len(), changes, "{label}");
                    // The live count follows the status (a session at its cap may create again).
                    assert_eq!(
                        memory.storage().count_live(Some("s")),
                        general.storage().count_live(Some("s")),
                        "{label}"
                    );
                }
            }
        }
    }
}

/// The stores `terminal_writes_in_place_match_the_general_path` compares, over either storage.
trait Twin {
    fn prepare(&mut self, protocol: ProtocolVersion, case: &str) -> String;
}

impl<S: Storage> Twin for Store<S, DeterministicRandom> {
    fn prepare(&mut self, protocol: ProtocolVersion, case: &str) -> String {
        let session = if case == "other session" { "t" } else { "s" };
        let mut new = NewTask::new(protocol).session(session);
        new.requested_ttl_ms = Some(60_000);
        let id = self.create(new, T0).unwrap().id;
        if case == "input" && protocol == V26 {
            self.raise_input(HOST, &id, obj(json!({"k": elicit("q")})), None, T0 + 1)
                .unwrap();
        }
        if case == "terminal" {
            self.cancel(HOST, &id, V25, None, T0 + 1).unwrap();
        }
        id
    }
}
