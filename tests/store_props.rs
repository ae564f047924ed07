//! Property tests of the task store over random operation sequences (create with random
//! sessions and TTLs, status changes, input raised and answered, complete, fail, cancel, time
//! passing, sweeps, listing page by page while tasks come and go, snapshot → restore), checking
//! the store's invariants after every step against a model of what was observed before.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::{BTreeMap, HashSet};

use mcp_tasks_wasm::model::common::{JsonObject, JsonRpcError};
use mcp_tasks_wasm::model::{ProtocolVersion, TaskStatus};
use mcp_tasks_wasm::store::rules::{check_invariants, is_expired};
use mcp_tasks_wasm::store::{
    Caller, DeterministicRandom, MemoryStorage, NewTask, Storage, Store, StoreConfig, StoreError,
    TaskRecord, TaskState,
};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::{json, Value};

const SESSIONS: [Option<&str>; 3] = [None, Some("s0"), Some("s1")];
const T0: u64 = 1_764_066_600_000;

#[derive(Debug, Clone)]
enum Op {
    Create {
        session: usize,
        ttl: Option<u64>,
        v26: bool,
    },
    SetStatus {
        task: usize,
        input_required: bool,
    },
    Raise {
        task: usize,
        key: u8,
        variant: u8,
    },
    Answer {
        task: usize,
        keys: Vec<u8>,
        caller: Option<usize>,
    },
    Complete {
        task: usize,
    },
    Fail {
        task: usize,
    },
    /// A tool result with `isError: true` (V25 tasks fail keeping it; V26 tasks refuse).
    FailTool {
        task: usize,
    },
    Cancel {
        task: usize,
        v26: bool,
        caller: Option<usize>,
    },
    Advance {
        ms: u64,
    },
    Sweep {
        limit: usize,
    },
    ListStep {
        caller: usize,
    },
    Remove {
        task: usize,
    },
    Restart {
        seed: u64,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..3usize, prop::option::of(1..5000u64), any::<bool>())
            .prop_map(|(session, ttl, v26)| Op::Create { session, ttl, v26 }),
        2 => (any::<usize>(), any::<bool>()).prop_map(|(task, input_required)| Op::SetStatus { task, input_required }),
        3 => (any::<usize>(), 0..6u8, 0..2u8).prop_map(|(task, key, variant)| Op::Raise { task, key, variant }),
        3 => (any::<usize>(), prop::collection::vec(0..7u8, 0..4), prop::option::of(0..3usize))
            .prop_map(|(task, keys, caller)| Op::Answer { task, keys, caller }),
        2 => any::<usize>().prop_map(|task| Op::Complete { task }),
        1 => any::<usize>().prop_map(|task| Op::Fail { task }),
        1 => any::<usize>().prop_map(|task| Op::FailTool { task }),
        2 => (any::<usize>(), any::<bool>(), prop::option::of(0..3usize))
            .prop_map(|(task, v26, caller)| Op::Cancel { task, v26, caller }),
        3 => (0..2500u64).prop_map(|ms| Op::Advance { ms }),
        1 => (0..4usize).prop_map(|limit| Op::Sweep { limit }),
        3 => (0..3usize).prop_map(|caller| Op::ListStep { caller }),
        1 => any::<usize>().prop_map(|task| Op::Remove { task }),
        1 => any::<u64>().prop_map(|seed| Op::Restart { seed }),
    ]
}

/// What was observed about one task.
struct Seen {
    session: Option<String>,
    created_at: u64,
    ttl: Option<u64>,
    last_updated: u64,
    terminal: Option<TaskState>,
    keys: BTreeMap<String, Value>,
    gone: bool,
    removed: bool,
}

struct Paging {
    caller: usize,
    cursor: Option<String>,
    seen: Vec<String>,
    at_start: HashSet<String>,
}

struct World {
    store: Store<MemoryStorage, DeterministicRandom>,
    now: u64,
    ids: Vec<String>,
    seen: BTreeMap<String, Seen>,
    paging: Option<Paging>,
}

fn config() -> StoreConfig {
    StoreConfig {
        max_ttl_ms: None,
        default_ttl_ms: None,
        poll_interval_ms: Some(500),
        max_live_tasks_per_session: Some(4),
        share_across_sessions: false,
        page_size: 2,
        record_changes: true,
        ..StoreConfig::default()
    }
}

fn caller(i: usize) -> Caller<'static> {
    Caller::Session(SESSIONS[i % SESSIONS.len()])
}

fn request(key: u8, variant: u8) -> Value {
    if variant == 0 {
        json!({"method": "roots/list"})
    } else {
        json!({"method": "elicitation/create", "params": {"message": format!("k{key}")}})
    }
}

impl World {
    fn new() -> Self {
        World {
            store: Store::in_memory(config(), DeterministicRandom::new(1)).unwrap(),
            now: T0,
            ids: Vec::new(),
            seen: BTreeMap::new(),
            paging: None,
        }
    }

    fn pick(&self, i: usize) -> Option<(String, Option<String>)> {
        if self.ids.is_empty() {
            return None;
        }
        let id = self.ids[i % self.ids.len()].clone();
        let session = self.seen[&id].session.clone();
        Some((id, session))
    }

    /// The ids `get` shows to session `i` right now (read from storage, without side effects).
    fn visible_to(&self, i: usize) -> HashSet<String> {
        let session = SESSIONS[i];
        self.ids
            .iter()
            .filter_map(|id| self.store.storage().get(id))
            .filter(|r| r.session.as_deref() == session && !is_expired(r, self.now))
            .map(|r| r.id)
            .collect()
    }

    fn allowed(e: &StoreError) -> bool {
        matches!(
            e,
            StoreError::NotFound
                | StoreError::AlreadyTerminal { .. }
                | StoreError::InputKeyReused { .. }
                | StoreError::SessionCapReached { .. }
        )
    }

    fn step(&mut self, op: &Op) -> Result<(), TestCaseError> {
        let now = self.now;
        match op.clone() {
            Op::Create { session, ttl, v26 } => {
                let protocol = if v26 {
                    ProtocolVersion::V2026
                } else {
                    ProtocolVersion::V2025
                };
                let mut new = NewTask::new(protocol);
                new.session = SESSIONS[session].map(str::to_owned);
                new.requested_ttl_ms = ttl;
                match self.store.create(new, now) {
                    Ok(t) => {
                        prop_assert_eq!(t.status(), TaskStatus::Working); // §D 19
                        prop_assert!(!self.seen.contains_key(&t.id)); // §D 18
                        self.ids.push(t.id.clone());
                        self.seen.insert(
                            t.id.clone(),
                            Seen {
                                session: t.session.clone(),
                                created_at: t.created_at_ms,
                                ttl: t.ttl_ms,
                                last_updated: t.last_updated_at_ms,
                                terminal: None,
                                keys: BTreeMap::new(),
                                gone: false,
                                removed: false,
                            },
                        );
                    }
                    Err(e) => prop_assert_eq!(e, StoreError::SessionCapReached { limit: 4 }),
                }
            }
            Op::SetStatus {
                task,
                input_required,
            } => {
                let Some((id, _)) = self.pick(task) else {
                    return Ok(());
                };
                let to = if input_required {
                    TaskStatus::InputRequired
                } else {
                    TaskStatus::Working
                };
                if let Err(e) = self.store.set_status(Caller::Host, &id, to, None, now) {
                    prop_assert!(Self::allowed(&e), "{e:?}");
                }
            }
            Op::Raise { task, key, variant } => {
                let Some((id, _)) = self.pick(task) else {
                    return Ok(());
                };
                let mut reqs = JsonObject::new();
                reqs.insert(format!("k{key}"), request(key, variant));
                if let Err(e) = self.store.raise_input(Caller::Host, &id, reqs, None, now) {
                    prop_assert!(Self::allowed(&e), "{e:?}");
                }
            }
            Op::Answer {
                task,
                keys,
                caller: who,
            } => {
                let Some((id, session)) = self.pick(task) else {
                    return Ok(());
                };
                let c = match who {
                    Some(i) => caller(i),
                    None => Caller::Session(session.as_deref()),
                };
                let before = self.store.storage().get(&id);
                let outstanding: HashSet<String> = before
                    .as_ref()
                    .map(|r| r.outstanding_keys().map(str::to_owned).collect())
                    .unwrap_or_default();
                let responses: JsonObject = keys
                    .iter()
                    .map(|k| (format!("k{k}"), json!({"action": "accept"})))
                    .collect();
                match self.store.take_input(c, &id, responses.clone(), now) {
                    Ok(r) => {
                        // §D 88: exactly the outstanding keys are accepted, the rest ignored.
                        for k in responses.keys() {
                            prop_assert_eq!(r.accepted.contains(k), outstanding.contains(k));
                            prop_assert_eq!(r.ignored.contains(k), !outstanding.contains(k));
                        }
                        let left = r.task.outstanding_keys().count();
                        if !r.accepted.is_empty() && left == 0 {
                            prop_assert_eq!(r.task.status(), TaskStatus::Working);
                        }
                        if left > 0 {
                            prop_assert_eq!(r.task.status(), TaskStatus::InputRequired);
                        }
                    }
                    Err(e) => {
                        prop_assert_eq!(&e, &StoreError::NotFound);
                        // A foreign session changes nothing.
                        if let Some(b) = before.filter(|b| !is_expired(b, now)) {
                            prop_assert_eq!(self.store.storage().get(&id), Some(b));
                        }
                    }
                }
            }
            Op::Complete { task } => {
                let Some((id, _)) = self.pick(task) else {
                    return Ok(());
                };
                let result: JsonObject = json!({"content": [], "n": now})
                    .as_object()
                    .cloned()
                    .unwrap();
                if let Err(e) = self.store.complete(Caller::Host, &id, result, None, now) {
                    prop_assert!(Self::allowed(&e), "{e:?}");
                }
            }
            Op::Fail { task } => {
                let Some((id, _)) = self.pick(task) else {
                    return Ok(());
                };
                let error = JsonRpcError {
                    code: -32603,
                    message: format!("at {now}"),
                    data: None,
                };
                if let Err(e) = self.store.fail(Caller::Host, &id, error, None, now) {
                    prop_assert!(Self::allowed(&e), "{e:?}");
                }
            }
            Op::FailTool { task } => {
                let Some((id, _)) = self.pick(task) else {
                    return Ok(());
                };
                let result = json!({"content": [{"type": "text", "text": format!("at {now}")}], "isError": true})
                    .as_object()
                    .cloned()
                    .unwrap();
                let before = self.store.storage().get(&id);
                match self
                    .store
                    .fail_with_tool_result(Caller::Host, &id, result, None, now)
                {
                    Ok(r) => prop_assert_eq!(r.protocol, ProtocolVersion::V2025),
                    Err(StoreError::InvalidToolFailure { .. }) => {
                        // Only a live 2026-07-28 task refuses (§D 91 keeps it completed).
                        let before = before.unwrap();
                        prop_assert_eq!(before.protocol, ProtocolVersion::V2026);
                        prop_assert!(!before.status().is_terminal());
                    }
                    Err(e) => prop_assert!(Self::allowed(&e), "{e:?}"),
                }
            }
            Op::Cancel {
                task,
                v26,
                caller: who,
            } => {
                let Some((id, session)) = self.pick(task) else {
                    return Ok(());
                };
                let c = match who {
                    Some(i) => caller(i),
                    None => Caller::Session(session.as_deref()),
                };
                let protocol = if v26 {
                    ProtocolVersion::V2026
                } else {
                    ProtocolVersion::V2025
                };
                let before = self
                    .store
                    .storage()
                    .get(&id)
                    .filter(|b| !is_expired(b, now));
                let visible = before
                    .as_ref()
                    .is_some_and(|b| Caller::Session(b.session.as_deref()) == c);
                let terminal = before.as_ref().is_some_and(|b| b.status().is_terminal());
                match self.store.cancel(c, &id, protocol, None, now) {
                    Ok(r) => {
                        prop_assert!(visible);
                        prop_assert_eq!(r.changed, !terminal);
                        prop_assert!(!terminal || v26, "§D 22: V25 cancel of a terminal task");
                        if !terminal {
                            prop_assert_eq!(r.task.status(), TaskStatus::Cancelled);
                            // §D 23
                        }
                    }
                    Err(StoreError::AlreadyTerminal { .. }) => {
                        prop_assert!(visible && terminal && !v26)
                    }
                    Err(e) => {
                        prop_assert_eq!(e, StoreError::NotFound);
                        prop_assert!(!visible);
                    }
                }
            }
            Op::Advance { ms } => self.now += ms,
            Op::Sweep { limit } => {
                let n = self.store.sweep(now, limit);
                prop_assert!(n <= limit);
            }
            Op::Remove { task } => {
                let Some((id, session)) = self.pick(task) else {
                    return Ok(());
                };
                if self
                    .store
                    .remove(Caller::Session(session.as_deref()), &id, now)
                    .is_ok()
                {
                    self.seen.get_mut(&id).unwrap().removed = true;
                }
            }
            Op::ListStep { caller: who } => self.list_step(who)?,
            Op::Restart { seed } => {
                let snap = self.store.snapshot();
                let restored =
                    Store::restore(snap.clone(), DeterministicRandom::new(seed)).unwrap();
                prop_assert_eq!(restored.snapshot(), snap); // restore(snapshot) is the same store
                self.store = restored;
            }
        }
        self.check()
    }

    /// One page of a listing that other operations interleave with (§D 36: stable pages).
    fn list_step(&mut self, who: usize) -> Result<(), TestCaseError> {
        let mut p = match self.paging.take() {
            Some(p) => p,
            None => Paging {
                caller: who,
                cursor: None,
                seen: Vec::new(),
                at_start: self.visible_to(who),
            },
        };
        let page = self
            .store
            .list(caller(p.caller), p.cursor.as_deref(), None, self.now)
            .unwrap();
        prop_assert!(page.tasks.len() <= 2);
        for t in &page.tasks {
            prop_assert_eq!(t.session.as_deref(), SESSIONS[p.caller]); // §D 38
            p.seen.push(t.id.clone());
        }
        match page.next_cursor {
            Some(c) => {
                p.cursor = Some(c);
                self.paging = Some(p);
            }
            None => {
                let unique: HashSet<&String> = p.seen.iter().collect();
                prop_assert_eq!(unique.len(), p.seen.len(), "a task listed twice");
                let now_visible = self.visible_to(p.caller);
                for id in p.at_start.intersection(&now_visible) {
                    prop_assert!(
                        unique.contains(id),
                        "task {} visible throughout but not listed",
                        id
                    );
                }
            }
        }
        Ok(())
    }

    fn check(&mut self) -> Result<(), TestCaseError> {
        let now = self.now;
        for id in &self.ids {
            let seen = self.seen.get_mut(id).unwrap();
            let Some(r) = self.store.storage().get(id) else {
                // Nothing is purged before createdAt + ttl (§D 26, 94), and gone stays gone.
                let deadline = seen.ttl.map(|t| seen.created_at + t);
                prop_assert!(
                    seen.removed || deadline.is_some_and(|d| now > d),
                    "task {} purged before its TTL",
                    id
                );
                seen.gone = true;
                continue;
            };
            prop_assert!(!seen.gone, "task {} came back", id);
            check_invariants(&r).map_err(TestCaseError::fail)?;
            prop_assert_eq!(r.created_at_ms, seen.created_at); // §D 28
            prop_assert_eq!(&r.session, &seen.session);
            prop_assert_eq!(r.ttl_ms, seen.ttl);
            prop_assert!(
                r.last_updated_at_ms >= seen.last_updated
                    && r.last_updated_at_ms >= r.created_at_ms
            );
            seen.last_updated = r.last_updated_at_ms;
            // §D 20, 21, 93: a terminal task never changes status or payload.
            match &seen.terminal {
                Some(t) => prop_assert_eq!(&r.state, t),
                None if r.status().is_terminal() => seen.terminal = Some(r.state.clone()),
                None => {}
            }
            // §D 87: keys are never forgotten and never name another request.
            for (k, req) in &seen.keys {
                prop_assert_eq!(r.inputs.get(k).map(|e| &e.request), Some(req));
            }
            for (k, e) in &r.inputs {
                seen.keys.insert(k.clone(), e.request.clone());
            }
        }
        // §D 37, 38: paging from the start lists every task get shows, exactly once, and no
        // task of another session; get agrees.
        for (i, session) in SESSIONS.iter().enumerate() {
            let mut listed = Vec::new();
            let mut cursor = None;
            loop {
                let page = self
                    .store
                    .list(Caller::Session(*session), cursor.as_deref(), None, now)
                    .unwrap();
                listed.extend(page.tasks.into_iter().map(|t: TaskRecord| t.id));
                match page.next_cursor {
                    Some(c) => cursor = Some(c),
                    None => break,
                }
            }
            let unique: HashSet<String> = listed.iter().cloned().collect();
            prop_assert_eq!(unique.len(), listed.len(), "listed twice");
            let visible = self.visible_to(i);
            prop_assert_eq!(&unique, &visible);
            for id in &self.ids {
                let got = self.store.get(Caller::Session(*session), id, now).is_ok();
                prop_assert_eq!(got, visible.contains(id), "get and list disagree on {}", id);
            }
        }
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn store_invariants_hold_after_every_step(ops in prop::collection::vec(op(), 1..80)) {
        let mut world = World::new();
        for op in &ops {
            world.step(op)?;
        }
    }
}

/// Changes replayed onto an empty storage rebuild the same records (a host persisting each
/// transition sees everything).
#[test]
fn changes_replay_to_the_same_records() {
    use mcp_tasks_wasm::store::Change;
    let mut world = World::new();
    let mut replica: BTreeMap<String, TaskRecord> = BTreeMap::new();
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let ops = prop::collection::vec(op(), 200)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    for op in &ops {
        world.step(op).unwrap();
        for change in world.store.take_changes() {
            match change {
                Change::Created { task } | Change::Updated { task } => {
                    replica.insert(task.id.clone(), task);
                }
                Change::Deleted { id, .. } => {
                    replica.remove(&id);
                }
            }
        }
    }
    let stored: BTreeMap<String, TaskRecord> = world
        .ids
        .iter()
        .filter_map(|id| world.store.storage().get(id))
        .map(|r| (r.id.clone(), r))
        .collect();
    assert!(!stored.is_empty());
    assert_eq!(replica, stored);
}
