//! The reusable [`Storage`] contract test (see the contract in [`super::storage`]).
//!
//! `storage_contract(|| MyStorage::new())` returns `Err` describing the first broken clause.
//! Every later storage (databases, IndexedDB bridges) runs it on fresh, empty instances.

use crate::model::common::JsonRpcError;
use crate::model::ProtocolVersion;

use super::record::{Inputs, TaskRecord, TaskState};
use super::storage::{Scope, Storage};

fn record(id: &str, seq: u64, session: Option<&str>, ttl: Option<u64>) -> TaskRecord {
    TaskRecord {
        id: id.to_owned(),
        version: 1,
        seq,
        protocol: ProtocolVersion::V2025,
        session: session.map(str::to_owned),
        owner: None,
        state: TaskState::Working,
        status_message: None,
        created_at_ms: 1000,
        last_updated_at_ms: 1000,
        requested_ttl_ms: None,
        ttl_ms: ttl,
        poll_interval_ms: None,
        inputs: Inputs::new(),
    }
}

fn check(ok: bool, clause: &str) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(format!("storage contract broken: {clause}"))
    }
}

fn ids(records: &[TaskRecord]) -> Vec<&str> {
    records.iter().map(|r| r.id.as_str()).collect()
}

/// Runs every clause of the storage contract against fresh storages from `make`.
pub fn storage_contract<S: Storage>(make: impl Fn() -> S) -> Result<(), String> {
    get_put_delete(&mut make())?;
    compare_and_swap(&mut make())?;
    ranges(&mut make())?;
    expiry_index(&mut make())?;
    live_counts(&mut make())?;
    sequences(&mut make())?;
    Ok(())
}

fn get_put_delete<S: Storage>(s: &mut S) -> Result<(), String> {
    check(s.get("a").is_none(), "1: get of a missing id is None")?;
    let a = record("a", 1, None, None);
    check(
        s.put_if_version(a.clone(), None).is_ok(),
        "2: insert with expected None",
    )?;
    check(
        s.get("a").as_ref() == Some(&a),
        "1: get returns the record stored",
    )?;
    check(
        s.delete("a").as_ref() == Some(&a),
        "3: delete returns the record",
    )?;
    check(s.get("a").is_none(), "3: deleted records are gone")?;
    check(s.delete("a").is_none(), "3: delete of a missing id is None")?;
    check(
        s.put_if_version(a, None).is_ok(),
        "2: an id can be inserted again after delete",
    )
}

fn compare_and_swap<S: Storage>(s: &mut S) -> Result<(), String> {
    let a = record("a", 1, Some("s"), None);
    check(s.put_if_version(a.clone(), None).is_ok(), "2: insert")?;
    check(
        s.put_if_version(a.clone(), None).is_err(),
        "2: insert over an existing id conflicts",
    )?;
    let mut b = a.clone();
    b.version = 2;
    b.state = TaskState::Failed {
        error: JsonRpcError {
            code: -1,
            message: "x".into(),
            data: None,
        },
    };
    check(
        s.put_if_version(b.clone(), Some(2)).is_err(),
        "2: wrong expected version conflicts",
    )?;
    check(
        s.get("a").as_ref() == Some(&a),
        "2: a conflicting write stores nothing",
    )?;
    check(
        s.put_if_version(b.clone(), Some(1)).is_ok(),
        "2: matching version replaces",
    )?;
    check(
        s.get("a").as_ref() == Some(&b),
        "2: replaced record is returned",
    )?;
    check(
        s.put_if_version(b.clone(), Some(1)).is_err(),
        "2: a stale version conflicts",
    )?;
    check(
        s.put_if_version(record("zz", 9, None, None), Some(1))
            .is_err(),
        "2: replacing a missing id conflicts",
    )
}

fn ranges<S: Storage>(s: &mut S) -> Result<(), String> {
    let layout = [
        ("a", 1, Some("x")),
        ("b", 2, None),
        ("c", 3, Some("x")),
        ("d", 5, Some("y")),
        ("e", 7, Some("x")),
    ];
    for (id, seq, session) in layout {
        check(
            s.put_if_version(record(id, seq, session, None), None)
                .is_ok(),
            "2: insert",
        )?;
    }
    check(
        ids(&s.range_after(Scope::All, 0, 10)) == ["a", "b", "c", "d", "e"],
        "4: all, seq order",
    )?;
    check(
        ids(&s.range_after(Scope::All, 2, 2)) == ["c", "d"],
        "4: after and limit",
    )?;
    check(
        ids(&s.range_after(Scope::All, 7, 10)).is_empty(),
        "4: nothing after the last",
    )?;
    check(s.range_after(Scope::All, 0, 0).is_empty(), "4: limit 0")?;
    check(
        ids(&s.range_after(Scope::Session(Some("x")), 0, 10)) == ["a", "c", "e"],
        "4: session scope",
    )?;
    check(
        ids(&s.range_after(Scope::Session(Some("x")), 1, 1)) == ["c"],
        "4: session after/limit",
    )?;
    check(
        ids(&s.range_after(Scope::Session(None), 0, 10)) == ["b"],
        "4: unbound scope",
    )?;
    check(
        s.range_after(Scope::Session(Some("q")), 0, 10).is_empty(),
        "4: unknown session",
    )?;
    check(
        s.range_after(Scope::All, u64::MAX, 10).is_empty(),
        "4: after u64::MAX",
    )?;
    // Keyset stability: deleting and inserting does not shift positions.
    check(s.delete("c").is_some(), "3: delete")?;
    check(
        s.put_if_version(record("f", 8, Some("x"), None), None)
            .is_ok(),
        "2: insert",
    )?;
    check(
        ids(&s.range_after(Scope::Session(Some("x")), 1, 10)) == ["e", "f"],
        "4: stable under changes",
    )?;
    // An update keeps the record's position.
    let mut a = record("a", 1, Some("x"), None);
    a.version = 2;
    a.status_message = Some("m".into());
    check(s.put_if_version(a, Some(1)).is_ok(), "2: update")?;
    check(
        ids(&s.range_after(Scope::All, 0, 2)) == ["a", "b"],
        "4: update keeps the position",
    )
}

fn expiry_index<S: Storage>(s: &mut S) -> Result<(), String> {
    // created_at 1000: expires at 1000 + ttl.
    for (id, seq, ttl) in [
        ("a", 1, Some(500)),
        ("b", 2, None),
        ("c", 3, Some(100)),
        ("d", 4, Some(2000)),
    ] {
        check(
            s.put_if_version(record(id, seq, None, ttl), None).is_ok(),
            "2: insert",
        )?;
    }
    check(
        s.expired(1100, 10).is_empty(),
        "5: not expired at exactly createdAt + ttl",
    )?;
    check(s.expired(1101, 10) == ["c"], "5: expired strictly after")?;
    check(
        s.expired(10_000, 10) == ["c", "a", "d"],
        "5: earliest deadline first, unlimited never",
    )?;
    check(s.expired(10_000, 2) == ["c", "a"], "5: limit")?;
    check(s.delete("c").is_some(), "3: delete")?;
    check(
        s.expired(10_000, 10) == ["a", "d"],
        "5: deleted records leave the index",
    )?;
    let mut d = record("d", 4, None, None);
    d.version = 2;
    check(s.put_if_version(d, Some(1)).is_ok(), "2: update")?;
    check(
        s.expired(10_000, 10) == ["a"],
        "5: the index follows updates",
    )
}

fn live_counts<S: Storage>(s: &mut S) -> Result<(), String> {
    for (id, seq, session) in [
        ("a", 1, Some("x")),
        ("b", 2, Some("x")),
        ("c", 3, None),
        ("d", 4, Some("y")),
    ] {
        check(
            s.put_if_version(record(id, seq, session, None), None)
                .is_ok(),
            "2: insert",
        )?;
    }
    check(s.count_live(Some("x")) == 2, "6: live count per session")?;
    check(s.count_live(None) == 1, "6: live count of unbound tasks")?;
    check(s.count_live(Some("q")) == 0, "6: unknown session")?;
    let mut a = record("a", 1, Some("x"), None);
    a.version = 2;
    a.state = TaskState::Cancelled;
    check(s.put_if_version(a, Some(1)).is_ok(), "2: update")?;
    check(
        s.count_live(Some("x")) == 1,
        "6: terminal tasks are not live",
    )?;
    check(s.delete("b").is_some(), "3: delete")?;
    check(
        s.count_live(Some("x")) == 0,
        "6: deleted tasks are not live",
    )
}

fn sequences<S: Storage>(s: &mut S) -> Result<(), String> {
    check(
        s.last_sequence() == 0,
        "7: a fresh storage has returned no sequence",
    )?;
    let a = s.next_sequence();
    let b = s.next_sequence();
    check(a > 0 && b > a, "7: sequences increase")?;
    check(
        s.last_sequence() == b,
        "7: last_sequence is the greatest returned",
    )?;
    check(
        s.put_if_version(record("a", b + 10, None, None), None)
            .is_ok(),
        "2: insert",
    )?;
    check(
        s.next_sequence() > b + 10,
        "7: sequences exceed every stored seq",
    )
}
