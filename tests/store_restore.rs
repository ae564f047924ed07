//! `Store::restore` refuses every tampered field of a snapshot with an
//! error that names it (sequence, `createdAtMs`, `ttlMs` under a `maxTtlMs`, input requests,
//! ids the store could not have drawn, an all-zero cursor key), re-applies the configured caps,
//! leaves any existing store alone, and every snapshot the store makes round-trips.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use mcp_tasks_wasm::model::common::{JsonObject, JsonRpcError};
use mcp_tasks_wasm::model::ProtocolVersion;
use mcp_tasks_wasm::store::{
    Caller, DeterministicRandom, MemoryStorage, NewTask, Store, StoreConfig, StoreError,
};
use proptest::prelude::*;
use serde_json::{json, Value};

const T0: u64 = 1_764_066_600_000;
const HOST: Caller<'static> = Caller::Host;

type Mem = Store<MemoryStorage, DeterministicRandom>;

fn obj(v: Value) -> JsonObject {
    v.as_object().unwrap().clone()
}

/// A store with tasks of every kind, under the default config (maxTtlMs 24 h).
fn store() -> Mem {
    let mut s = Store::in_memory(StoreConfig::default(), DeterministicRandom::new(1)).unwrap();
    let a = s
        .create(NewTask::new(ProtocolVersion::V2025).ttl(60_000), T0)
        .unwrap();
    let b = s
        .create(NewTask::new(ProtocolVersion::V2026).session("s"), T0)
        .unwrap();
    let c = s.create(NewTask::new(ProtocolVersion::V2026), T0).unwrap();
    s.create(NewTask::new(ProtocolVersion::V2025), T0).unwrap();
    s.complete(HOST, &a.id, obj(json!({"content": []})), None, T0 + 1)
        .unwrap();
    s.raise_input(
        HOST,
        &b.id,
        obj(
            json!({"k1": {"method": "roots/list"}, "k2": {"method": "elicitation/create",
            "params": {"message": "?", "requestedSchema": {"type": "object", "properties": {}}}}}),
        ),
        None,
        T0 + 2,
    )
    .unwrap();
    s.take_input(HOST, &b.id, obj(json!({"k1": {"roots": []}})), T0 + 3)
        .unwrap();
    let err = JsonRpcError {
        code: -32000,
        message: "boom".into(),
        data: None,
    };
    s.fail(HOST, &c.id, err, None, T0 + 4).unwrap();
    s
}

fn refused(snapshot: Value) -> String {
    match Store::restore(snapshot, DeterministicRandom::new(2)) {
        Err(StoreError::InvalidSnapshot { reason }) => reason,
        Err(e) => panic!("expected InvalidSnapshot, got {e:?}"),
        Ok(_) => panic!("a tampered snapshot was restored"),
    }
}

#[track_caller]
fn assert_refused(snapshot: Value, names: &[&str]) {
    let reason = refused(snapshot);
    for n in names {
        assert!(reason.contains(n), "{reason:?} does not name {n:?}");
    }
}

fn with(snapshot: &Value, edit: impl FnOnce(&mut Value)) -> Value {
    let mut s = snapshot.clone();
    edit(&mut s);
    s
}

#[test]
fn the_untampered_snapshot_round_trips() {
    let s = store();
    let snap = s.snapshot();
    let r = Store::restore(snap.clone(), DeterministicRandom::new(9)).unwrap();
    assert_eq!(r.snapshot(), snap);
}

// A sequence the store cannot have issued.
#[test]
fn sequence_tampering_is_refused() {
    let snap = store().snapshot();
    assert_refused(
        with(&snap, |s| s["sequence"] = json!(u64::MAX)),
        &["sequence", "2^53"],
    );
    assert_refused(
        with(&snap, |s| s["sequence"] = json!(1u64 << 53)),
        &["sequence"],
    );
    // Below the last task's seq.
    assert_refused(
        with(&snap, |s| s["sequence"] = json!(2)),
        &["tasks[2]", "`seq` 3", "`sequence` 2"],
    );
    assert_refused(with(&snap, |s| s["sequence"] = json!(-1)), &["sequence"]);
    assert_refused(
        with(&snap, |s| s["tasks"][0]["seq"] = json!(0)),
        &["tasks[0]", "`seq`"],
    );
    assert_refused(
        with(&snap, |s| s["tasks"][1]["seq"] = json!(1)),
        &["tasks[1]", "`seq` 1"],
    );
    assert_refused(
        with(&snap, |s| s["tasks"][0]["version"] = json!(1u64 << 60)),
        &["`version`"],
    );
    assert_refused(
        with(&snap, |s| s["tasks"][0]["version"] = json!(0)),
        &["version"],
    );
}

// The store near the end of its sequence refuses to create, and every snapshot it
// makes still restores (no task shares a seq, none is lost).
#[test]
fn the_sequence_ends_with_an_error_not_data_loss() {
    let snap = with(&store().snapshot(), |s| {
        s["sequence"] = json!((1u64 << 53) - 3)
    });
    let mut s = Store::restore(snap, DeterministicRandom::new(3)).unwrap();
    for _ in 0..2 {
        s.create(NewTask::new(ProtocolVersion::V2026), T0).unwrap();
    }
    assert_eq!(
        s.create(NewTask::new(ProtocolVersion::V2026), T0),
        Err(StoreError::SequenceExhausted)
    );
    let snap = s.snapshot();
    assert_eq!(snap["tasks"].as_array().unwrap().len(), 6);
    let page = s.list(HOST, None, None, T0).unwrap();
    assert_eq!(page.tasks.len(), 6);
    let r = Store::restore(snap.clone(), DeterministicRandom::new(4)).unwrap();
    assert_eq!(r.snapshot(), snap);
}

// Timestamps beyond what the store emits.
#[test]
fn timestamps_beyond_year_9999_are_refused() {
    let snap = store().snapshot();
    assert_refused(
        with(&snap, |s| s["tasks"][0]["createdAtMs"] = json!(8e15 as u64)),
        &["tasks[0]", "`createdAtMs` 8000000000000000"],
    );
    assert_refused(
        with(&snap, |s| {
            s["tasks"][0]["lastUpdatedAtMs"] = json!(253_402_300_800_000u64)
        }),
        &["`lastUpdatedAtMs`"],
    );
    // The last instant the store emits is accepted.
    let edge = with(&snap, |s| {
        s["tasks"][3]["createdAtMs"] = json!(253_402_300_799_999u64);
        s["tasks"][3]["lastUpdatedAtMs"] = json!(253_402_300_799_999u64);
    });
    assert!(Store::restore(edge, DeterministicRandom::new(5)).is_ok());
    // A clock past 9999 is stamped at the last instant, so the snapshot still restores.
    let mut s = store();
    let t = s
        .create(NewTask::new(ProtocolVersion::V2025), 8e15 as u64)
        .unwrap();
    assert_eq!(t.created_at_ms, 253_402_300_799_999);
    assert!(t.to_v25().created_at.starts_with("9999-12-31T23:59:59.999"));
    assert!(Store::restore(s.snapshot(), DeterministicRandom::new(6)).is_ok());
}

// TTL caps re-applied (§D 25, 42).
#[test]
fn ttls_beyond_the_configured_cap_are_refused() {
    let snap = store().snapshot();
    assert_refused(
        with(&snap, |s| s["tasks"][0]["ttlMs"] = Value::Null),
        &["tasks[0]", "`ttlMs` is null", "maxTtlMs is 86400000"],
    );
    assert_refused(
        with(&snap, |s| s["tasks"][0]["ttlMs"] = json!(86_400_001)),
        &["`ttlMs` 86400001", "maxTtlMs 86400000"],
    );
    assert_refused(
        with(&snap, |s| s["tasks"][0]["ttlMs"] = json!(0)),
        &["`ttlMs` 0"],
    );
    assert_refused(
        with(&snap, |s| {
            s["tasks"][0]["pollIntervalMs"] = json!(1u64 << 60)
        }),
        &["`pollIntervalMs`"],
    );
    // Lowering the cap in the snapshot's config re-applies it to the tasks.
    assert_refused(
        with(&snap, |s| s["config"]["maxTtlMs"] = json!(1000)),
        &["`ttlMs`"],
    );
    // Without a cap, unlimited tasks are fine.
    let open = with(&snap, |s| {
        s["config"]["maxTtlMs"] = Value::Null;
        s["tasks"][0]["ttlMs"] = Value::Null;
    });
    assert!(Store::restore(open, DeterministicRandom::new(7)).is_ok());
}

// Input requests and responses that are not what the store accepts.
#[test]
fn input_entries_are_checked() {
    let snap = store().snapshot();
    let b = 1; // the task with inputs
    assert!(snap["tasks"][b]["inputs"]["k2"].is_object());
    assert_refused(
        with(&snap, |s| {
            s["tasks"][b]["inputs"]["k2"]["request"] = json!(5)
        }),
        &["tasks[1]", "\"k2\"", "not an object"],
    );
    assert_refused(
        with(&snap, |s| {
            s["tasks"][b]["inputs"]["k2"]["request"] = json!({"method": "tools/call"})
        }),
        &["\"k2\"", "method"],
    );
    assert_refused(
        with(&snap, |s| {
            s["tasks"][b]["inputs"]["k1"]["response"] = json!(5)
        }),
        &["\"k1\"", "`response`"],
    );
}

// Ids the store could not have drawn (§D 84), and the cursor key.
#[test]
fn ids_and_cursor_keys_are_checked() {
    let snap = store().snapshot();
    for bad in [
        json!(""),
        json!("x"),
        json!("x".repeat(1 << 20)),
        json!(snap["tasks"][0]["id"].as_str().unwrap().to_uppercase()),
        json!(format!("{}0", snap["tasks"][0]["id"].as_str().unwrap())),
    ] {
        let reason = refused(with(&snap, |s| s["tasks"][0]["id"] = bad.clone()));
        assert!(
            reason.contains("tasks[0]") && reason.contains("`id`"),
            "{reason}"
        );
        assert!(
            reason.len() < 400,
            "the reason quotes a 1 MB id: {} bytes",
            reason.len()
        );
    }
    assert_refused(
        with(&snap, |s| s["cursorKey"] = json!("0".repeat(32))),
        &["cursorKey", "all zeros"],
    );
    assert_refused(
        with(&snap, |s| {
            s["cursorKey"] = json!(s["cursorKey"].as_str().unwrap().to_uppercase())
        }),
        &["cursorKey"],
    );
}

// Refusing leaves the running store alone: it keeps working and its snapshot is unchanged.
#[test]
fn a_refused_restore_leaves_the_existing_store_untouched() {
    let mut s = store();
    let before = s.snapshot();
    let _ = refused(with(&before, |x| x["sequence"] = json!(u64::MAX)));
    assert_eq!(s.snapshot(), before);
    s.create(NewTask::new(ProtocolVersion::V2026), T0).unwrap();
}

#[derive(Debug, Clone)]
enum Op {
    Create {
        v26: bool,
        ttl: Option<u64>,
        session: bool,
    },
    Complete(usize),
    Fail(usize),
    Cancel(usize),
    Raise(usize, u8),
    Answer(usize, u8),
    Advance(u64),
    Sweep,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (
            any::<bool>(),
            proptest::option::of(0u64..200_000_000),
            any::<bool>()
        )
            .prop_map(|(v26, ttl, session)| Op::Create { v26, ttl, session }),
        any::<usize>().prop_map(Op::Complete),
        any::<usize>().prop_map(Op::Fail),
        any::<usize>().prop_map(Op::Cancel),
        (any::<usize>(), 0u8..4).prop_map(|(t, k)| Op::Raise(t, k)),
        (any::<usize>(), 0u8..4).prop_map(|(t, k)| Op::Answer(t, k)),
        (0u64..100_000_000).prop_map(Op::Advance),
        Just(Op::Sweep),
    ]
}

proptest! {
    /// Every snapshot the store makes (default caps, any history) restores to the same store:
    /// snapshot → restore → snapshot is the identity.
    #[test]
    fn every_snapshot_round_trips(ops in proptest::collection::vec(op(), 1..40), seed in any::<u64>()) {
        let mut s = Store::in_memory(StoreConfig::default(), DeterministicRandom::new(seed)).unwrap();
        let mut ids: Vec<String> = Vec::new();
        let mut now = T0;
        for op in ops {
            let pick = |i: usize| ids.get(i % ids.len().max(1)).cloned();
            match op {
                Op::Create { v26, ttl, session } => {
                    let mut n = NewTask::new(if v26 { ProtocolVersion::V2026 } else { ProtocolVersion::V2025 });
                    n.requested_ttl_ms = ttl;
                    if session { n = n.session("s"); }
                    if let Ok(t) = s.create(n, now) { ids.push(t.id); }
                }
                Op::Complete(i) => if let Some(id) = pick(i) {
                    let _ = s.complete(HOST, &id, obj(json!({"content": []})), None, now);
                },
                Op::Fail(i) => if let Some(id) = pick(i) {
                    let e = JsonRpcError { code: -1, message: "x".into(), data: Some(json!([1])) };
                    let _ = s.fail(HOST, &id, e, Some("m".into()), now);
                },
                Op::Cancel(i) => if let Some(id) = pick(i) {
                    let _ = s.cancel(HOST, &id, ProtocolVersion::V2026, None, now);
                },
                Op::Raise(i, k) => if let Some(id) = pick(i) {
                    let _ = s.raise_input(HOST, &id, obj(json!({format!("k{k}"): {"method": "roots/list"}})), None, now);
                },
                Op::Answer(i, k) => if let Some(id) = pick(i) {
                    let _ = s.take_input(HOST, &id, obj(json!({format!("k{k}"): {"roots": []}})), now);
                },
                Op::Advance(ms) => now += ms,
                Op::Sweep => { s.sweep(now, usize::MAX); }
            }
            let snap = s.snapshot();
            let restored = Store::restore(snap.clone(), DeterministicRandom::new(seed ^ 1));
            prop_assert!(restored.is_ok(), "{:?}", restored.err());
            prop_assert_eq!(restored.unwrap().snapshot(), snap);
        }
    }
}
