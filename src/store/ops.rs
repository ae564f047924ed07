//! [`Store`]: the operations, each `(store, args, now_ms) -> Result<_, StoreError>`, over a
//! [`Storage`] and a [`RandomSource`]. Reads and writes go through the pure [`rules`]; every
//! write is a compare-and-swap with a bounded retry.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::common::{JsonObject, JsonRpcError};
use crate::model::{ProtocolVersion, TaskStatus};

use super::cursor::{self, CursorKey};
use super::error::StoreError;
use super::random::{hex, is_task_id, new_task_id, unhex, RandomSource};
use super::record::{InputState, TaskRecord, TaskState, MAX_TIMESTAMP_MS};
use super::rules::{self, Action, Caller};
use super::storage::{MemoryStorage, Scope, Storage};

/// How many times a write re-reads and re-applies after losing a compare-and-swap.
pub const CAS_ATTEMPTS: usize = 8;
/// How many fresh ids `create` draws before giving up (a collision of 128-bit ids means a
/// broken random source).
pub const ID_ATTEMPTS: usize = 4;
/// The largest `tasks/list` page.
pub const MAX_PAGE_SIZE: usize = 1000;
/// The largest integer a snapshot holds (sequence, `seq`, `version`, milliseconds): JS numbers
/// carry integers exactly up to 2^53 − 1, and snapshots cross into JS.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// The host's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StoreConfig {
    /// The largest TTL granted; `None` allows unlimited retention (§D 42: cap and document it).
    pub max_ttl_ms: Option<u64>,
    /// The TTL of tasks whose creator asked for none (V26 creators never ask).
    pub default_ttl_ms: Option<u64>,
    /// The `pollInterval`/`pollIntervalMs` suggested to pollers unless a task sets its own.
    pub poll_interval_ms: Option<u64>,
    /// The most live (non-terminal) tasks one session may hold; `None` = no cap. Applies to
    /// tasks bound to a session only (calls without a session share no bucket).
    pub max_live_tasks_per_session: Option<usize>,
    /// Host opt-out of session isolation: every caller sees every task.
    pub share_across_sessions: bool,
    /// Tasks per `tasks/list` page (at most [`MAX_PAGE_SIZE`]).
    pub page_size: usize,
    /// Record a [`Change`] for every write, for [`Store::take_changes`]. Off by default so a
    /// host that never drains them does not accumulate memory.
    pub record_changes: bool,
    /// The largest argument the JS bindings accept, in bytes of UTF-8 (a request to
    /// `TaskServer.handle`, a result, a status message, an id…), checked before the argument is
    /// copied into wasm memory; `None` = no limit. Default [`DEFAULT_MAX_REQUEST_BYTES`]. The
    /// core itself takes parsed values and does not read it.
    pub max_request_bytes: Option<u64>,
}

/// The default [`StoreConfig::max_live_tasks_per_session`]: a client with a thousand concurrent
/// tasks is ordinary, ten times that in one session is not.
pub const DEFAULT_MAX_LIVE_TASKS_PER_SESSION: usize = 10_000;

/// The default [`StoreConfig::max_request_bytes`]: 16 MiB, as `validateMessage`'s `maxBytes`.
pub const DEFAULT_MAX_REQUEST_BYTES: u64 = 16 * 1024 * 1024;

impl StoreConfig {
    /// The JSON snapshots hold (the serde form: camelCase, `null` = unlimited / no cap).
    pub fn to_json(&self) -> JsonObject {
        let opt = |v: Option<u64>| v.map_or(Value::Null, Value::from);
        let mut o = JsonObject::new();
        o.insert("maxTtlMs".into(), opt(self.max_ttl_ms));
        o.insert("defaultTtlMs".into(), opt(self.default_ttl_ms));
        o.insert("pollIntervalMs".into(), opt(self.poll_interval_ms));
        o.insert(
            "maxLiveTasksPerSession".into(),
            self.max_live_tasks_per_session
                .map_or(Value::Null, Value::from),
        );
        o.insert(
            "shareAcrossSessions".into(),
            Value::Bool(self.share_across_sessions),
        );
        o.insert("pageSize".into(), Value::from(self.page_size));
        o.insert("recordChanges".into(), Value::Bool(self.record_changes));
        o.insert("maxRequestBytes".into(), opt(self.max_request_bytes));
        o
    }

    /// Settings from [`to_json`](Self::to_json)'s form; absent members take their defaults,
    /// `null` clears an optional one, unknown members are ignored.
    pub fn from_json(value: &Value) -> Result<StoreConfig, String> {
        let o = value.as_object().ok_or("config is not an object")?;
        let bad = |key: &str, what: &str| format!("config: `{key}` must be {what}");
        let opt = |key: &str, default: Option<u64>| -> Result<Option<u64>, String> {
            match o.get(key) {
                None => Ok(default),
                Some(Value::Null) => Ok(None),
                Some(v) => v
                    .as_u64()
                    .map(Some)
                    .ok_or_else(|| bad(key, "a non-negative integer or null")),
            }
        };
        let flag = |key: &str, default: bool| -> Result<bool, String> {
            match o.get(key) {
                None => Ok(default),
                Some(v) => v.as_bool().ok_or_else(|| bad(key, "a boolean")),
            }
        };
        let count = |v: u64, key: &str| usize::try_from(v).map_err(|_| bad(key, "smaller"));
        let d = StoreConfig::default();
        let max_live = opt(
            "maxLiveTasksPerSession",
            d.max_live_tasks_per_session.map(|n| n as u64),
        )?
        .map(|n| count(n, "maxLiveTasksPerSession"))
        .transpose()?;
        let page_size = match o.get("pageSize") {
            None => d.page_size,
            Some(v) => count(
                v.as_u64()
                    .ok_or_else(|| bad("pageSize", "a non-negative integer"))?,
                "pageSize",
            )?,
        };
        Ok(StoreConfig {
            max_ttl_ms: opt("maxTtlMs", d.max_ttl_ms)?,
            default_ttl_ms: opt("defaultTtlMs", d.default_ttl_ms)?,
            poll_interval_ms: opt("pollIntervalMs", d.poll_interval_ms)?,
            max_live_tasks_per_session: max_live,
            share_across_sessions: flag("shareAcrossSessions", d.share_across_sessions)?,
            page_size,
            record_changes: flag("recordChanges", d.record_changes)?,
            max_request_bytes: opt("maxRequestBytes", d.max_request_bytes)?,
        })
    }
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig {
            max_ttl_ms: Some(24 * 60 * 60 * 1000),
            default_ttl_ms: Some(60 * 60 * 1000),
            poll_interval_ms: Some(1000),
            max_live_tasks_per_session: Some(DEFAULT_MAX_LIVE_TASKS_PER_SESSION),
            share_across_sessions: false,
            page_size: 50,
            record_changes: false,
            max_request_bytes: Some(DEFAULT_MAX_REQUEST_BYTES),
        }
    }
}

/// What `create` needs.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTask {
    /// The protocol version of the creating request.
    pub protocol: ProtocolVersion,
    /// The session (authorization context) to bind the task to.
    pub session: Option<String>,
    /// The owner (authenticated principal) to bind the task to.
    pub owner: Option<String>,
    /// V25 `params.task.ttl`.
    pub requested_ttl_ms: Option<u64>,
    /// Overrides the configured poll interval for this task.
    pub poll_interval_ms: Option<u64>,
    /// Overrides the configured default TTL for this task (a tool's own setting).
    pub default_ttl_ms: Option<u64>,
    /// Overrides the configured largest TTL for this task (a tool's own setting).
    pub max_ttl_ms: Option<u64>,
    pub status_message: Option<String>,
}

impl NewTask {
    /// An unbound task of `protocol` with the configured TTL and poll interval.
    pub fn new(protocol: ProtocolVersion) -> Self {
        NewTask {
            protocol,
            session: None,
            owner: None,
            requested_ttl_ms: None,
            poll_interval_ms: None,
            default_ttl_ms: None,
            max_ttl_ms: None,
            status_message: None,
        }
    }

    pub fn session(mut self, session: impl Into<String>) -> Self {
        self.session = Some(session.into());
        self
    }

    pub fn ttl(mut self, ttl_ms: u64) -> Self {
        self.requested_ttl_ms = Some(ttl_ms);
        self
    }

    /// The same task bound to `owner`.
    pub fn owner(mut self, owner: impl Into<String>) -> Self {
        self.owner = Some(owner.into());
        self
    }
}

/// Why a task left the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, tsify::Tsify)]
#[serde(rename_all = "snake_case")]
#[tsify(rename = "DeletedBecause")]
pub enum DeleteReason {
    /// Its TTL elapsed (purged lazily or by [`Store::sweep`]).
    Expired,
    /// The host removed it ([`Store::remove`]).
    Removed,
}

/// One successful write, for hosts that persist every transition (file, SQLite, IndexedDB).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Change {
    Created { task: TaskRecord },
    Updated { task: TaskRecord },
    Deleted { id: String, reason: DeleteReason },
}

/// One `tasks/list` page.
#[derive(Debug, Clone, PartialEq)]
pub struct ListPage {
    pub tasks: Vec<TaskRecord>,
    /// Present exactly when more tasks follow (§D 36).
    pub next_cursor: Option<String>,
}

/// What `take_input` did.
#[derive(Debug, Clone, PartialEq)]
pub struct InputTaken {
    pub task: TaskRecord,
    /// Keys answered by this call.
    pub accepted: Vec<String>,
    /// Keys ignored: never issued, already answered or superseded (§D 88).
    pub ignored: Vec<String>,
}

/// What `cancel` did.
#[derive(Debug, Clone, PartialEq)]
pub struct Cancelled {
    pub task: TaskRecord,
    /// `false` for a V26 cancel of a task that was already terminal (an idempotent ack).
    pub changed: bool,
}

/// What [`Store::mutate_with`] found under the stored record.
// A value on the stack, moved once: boxing the next revision would cost the allocation this
// avoids.
#[allow(clippy::large_enum_variant)]
enum Step<T> {
    Expired,
    /// Not visible to the caller.
    Hidden,
    /// The rules refused the action.
    Refused(StoreError),
    /// The action changes nothing: the answer of the record as it is.
    Unchanged(T, rules::Applied),
    /// The next revision, to write over the stored `version`.
    Next(TaskRecord, rules::Applied, u64),
}

/// The task store: rules over a storage, with injected time (`now_ms`, Unix milliseconds) and
/// randomness. (No `Debug`: it would print the cursor key.)
pub struct Store<S: Storage, R: RandomSource> {
    config: StoreConfig,
    storage: S,
    rng: R,
    cursor_key: CursorKey,
    changes: Vec<Change>,
    /// Successful writes (puts and deletes) so far: a cache of answers keyed by it is valid
    /// while it stays the same.
    writes: u64,
}

impl<S: Storage, R: RandomSource> Store<S, R> {
    /// A store over `storage`; the cursor key is drawn from `rng` (which may fail:
    /// [`StoreError::RandomUnavailable`]).
    pub fn new(config: StoreConfig, storage: S, mut rng: R) -> Result<Self, StoreError> {
        let mut cursor_key = [0u8; 16];
        rng.fill(&mut cursor_key)?;
        Ok(Store::with_cursor_key(config, storage, rng, cursor_key))
    }

    /// A store over `storage` with the given cursor key (the key that makes `tasks/list` cursors
    /// unforgeable: keep it secret and random).
    pub fn with_cursor_key(config: StoreConfig, storage: S, rng: R, cursor_key: CursorKey) -> Self {
        Store {
            config,
            storage,
            rng,
            cursor_key,
            changes: Vec::new(),
            writes: 0,
        }
    }

    /// How many writes (creates, updates, deletes) this store has made: unchanged means no
    /// task changed, so answers cached at this count are still current (until they expire).
    pub fn writes(&self) -> u64 {
        self.writes
    }

    /// The revision (record version) of the stored task `id`, if it is stored: an answer made
    /// at this revision is still the task's (no check of expiry or visibility: the caller's).
    pub fn revision(&self, id: &str) -> Option<u64> {
        self.storage.version(id)
    }

    pub fn config(&self) -> &StoreConfig {
        &self.config
    }

    pub fn storage(&self) -> &S {
        &self.storage
    }

    /// The changes recorded since the last call (empty unless `record_changes`).
    pub fn take_changes(&mut self) -> Vec<Change> {
        std::mem::take(&mut self.changes)
    }

    /// Keeps the change `make` builds, when changes are recorded (it is not built otherwise).
    fn record(&mut self, make: impl FnOnce() -> Change) {
        if self.config.record_changes {
            self.changes.push(make());
        }
    }

    /// Creates a task in `working` (§D 18, 19, 25, 28, 42).
    pub fn create(&mut self, new: NewTask, now_ms: u64) -> Result<TaskRecord, StoreError> {
        if let (Some(limit), Some(session)) = (
            self.config.max_live_tasks_per_session,
            new.session.as_deref(),
        ) {
            if self.storage.count_live(Some(session)) >= limit {
                // Expired tasks still count until purged: purge this session's, then recount.
                self.purge_expired_in(Scope::Session(Some(session)), now_ms);
                if self.storage.count_live(Some(session)) >= limit {
                    return Err(StoreError::SessionCapReached { limit });
                }
            }
        }
        if self.storage.last_sequence() >= MAX_SAFE_INTEGER {
            return Err(StoreError::SequenceExhausted);
        }
        let seq = self.storage.next_sequence();
        // The store emits no instant past 9999-12-31 (RFC 3339 has four-digit years).
        let stamp = now_ms.min(MAX_TIMESTAMP_MS);
        let ttl_ms = rules::effective_ttl(
            new.requested_ttl_ms,
            new.default_ttl_ms.or(self.config.default_ttl_ms),
            new.max_ttl_ms.or(self.config.max_ttl_ms),
        );
        for _ in 0..ID_ATTEMPTS {
            let record = TaskRecord {
                id: new_task_id(&mut self.rng)?,
                version: 1,
                seq,
                protocol: new.protocol,
                session: new.session.clone(),
                owner: new.owner.clone(),
                state: TaskState::Working,
                status_message: new.status_message.clone(),
                created_at_ms: stamp,
                last_updated_at_ms: stamp,
                requested_ttl_ms: new.requested_ttl_ms,
                ttl_ms,
                poll_interval_ms: new.poll_interval_ms.or(self.config.poll_interval_ms),
                inputs: Default::default(),
            };
            if self.storage.put_if_version(record.clone(), None).is_ok() {
                self.writes += 1;
                self.record(|| Change::Created {
                    task: record.clone(),
                });
                return Ok(record);
            }
        }
        Err(StoreError::IdCollision)
    }

    /// The task `id` as `caller` sees it; expired tasks are purged and answer `NotFound`.
    pub fn get(
        &mut self,
        caller: Caller<'_>,
        id: &str,
        now_ms: u64,
    ) -> Result<TaskRecord, StoreError> {
        let record = self.storage.get(id).ok_or(StoreError::NotFound)?;
        if rules::is_expired(&record, now_ms) {
            self.purge(id, DeleteReason::Expired);
            return Err(StoreError::NotFound);
        }
        if !rules::visible(&record, caller, self.config.share_across_sessions) {
            return Err(StoreError::NotFound);
        }
        Ok(record)
    }

    /// One `tasks/list` page (V25) in creation order, after `cursor` (§D 35–38). `limit` may
    /// only shrink the configured page size.
    pub fn list(
        &mut self,
        caller: Caller<'_>,
        cursor: Option<&str>,
        limit: Option<usize>,
        now_ms: u64,
    ) -> Result<ListPage, StoreError> {
        let share = self.config.share_across_sessions;
        let scope = rules::list_scope(caller, share);
        let mut pos = match cursor {
            None => 0,
            Some(c) => cursor::decode(&self.cursor_key, scope, caller.owner(), c)
                .ok_or(StoreError::InvalidCursor)?,
        };
        let page = self.config.page_size.clamp(1, MAX_PAGE_SIZE);
        let limit = limit.map_or(page, |l| l.clamp(1, page));
        let want = limit.saturating_add(1); // one more tells whether a next page exists
        let mut tasks = Vec::with_capacity(want);
        loop {
            let ask = want.saturating_sub(tasks.len());
            let batch = self.storage.range_after(scope, pos, ask);
            let exhausted = batch.len() < ask;
            for record in batch {
                pos = pos.max(record.seq);
                if rules::is_expired(&record, now_ms) {
                    self.purge(&record.id, DeleteReason::Expired);
                } else if scope.contains(&record) && rules::owns(&record, caller) {
                    tasks.push(record);
                }
            }
            if exhausted || tasks.len() >= want {
                break;
            }
        }
        let next_cursor = if tasks.len() > limit {
            tasks.truncate(limit);
            tasks
                .last()
                .map(|last| cursor::encode(&self.cursor_key, scope, caller.owner(), last.seq))
        } else {
            None
        };
        Ok(ListPage { tasks, next_cursor })
    }

    /// `working` ⇄ `input_required`, or a new status message (§D 20, 32).
    pub fn set_status(
        &mut self,
        caller: Caller<'_>,
        id: &str,
        status: TaskStatus,
        message: Option<String>,
        now_ms: u64,
    ) -> Result<TaskRecord, StoreError> {
        self.mutate_task(caller, id, Action::SetStatus { status, message }, now_ms)
    }

    /// Issues V26 input requests (key → bare request); the task becomes `input_required` (§D 87).
    pub fn raise_input(
        &mut self,
        caller: Caller<'_>,
        id: &str,
        requests: JsonObject,
        message: Option<String>,
        now_ms: u64,
    ) -> Result<TaskRecord, StoreError> {
        self.mutate_task(caller, id, Action::RaiseInput { requests, message }, now_ms)
    }

    /// Takes `tasks/update` input responses (§D 88, 89).
    pub fn take_input(
        &mut self,
        caller: Caller<'_>,
        id: &str,
        responses: JsonObject,
        now_ms: u64,
    ) -> Result<InputTaken, StoreError> {
        let (task, applied, _) =
            self.mutate(caller, id, Action::TakeInput { responses }, now_ms)?;
        Ok(InputTaken {
            task,
            accepted: applied.accepted,
            ignored: applied.ignored,
        })
    }

    /// Completes the task with the original request's result (§D 30, 91, 92). On a terminal
    /// task: `AlreadyTerminal`, and nothing changes (§D 21, 93).
    pub fn complete(
        &mut self,
        caller: Caller<'_>,
        id: &str,
        result: JsonObject,
        message: Option<String>,
        now_ms: u64,
    ) -> Result<TaskRecord, StoreError> {
        self.mutate_task(
            caller,
            id,
            Action::Complete {
                result: result.into(),
                message,
            },
            now_ms,
        )
    }

    /// A write of `action` (complete, fail, …), answering `then` of the record as written (not a
    /// copy of it): what the wasm class answers is taken straight from the new revision. On a
    /// terminal task: as the action's own method.
    pub fn act_then<T>(
        &mut self,
        caller: Caller<'_>,
        id: &str,
        action: Action,
        now_ms: u64,
        mut then: impl FnMut(&TaskRecord) -> T,
    ) -> Result<T, StoreError> {
        /// Why the write stops before it is made.
        enum Stop {
            Expired,
            Hidden,
            Refused(StoreError),
        }
        let share = self.config.share_across_sessions;
        let record_changes = self.config.record_changes;
        for _ in 0..CAS_ATTEMPTS {
            // What `mutate_with` checks, on the stored record itself; then the move is made on
            // it in place (`Storage::update`: no copy of the record), the answer taken from it.
            let step = self.storage.read(id, |current| {
                if rules::is_expired(current, now_ms) {
                    return Err(Stop::Expired);
                }
                if !rules::visible(current, caller, share) {
                    return Err(Stop::Hidden);
                }
                match rules::terminal_move(current, &action) {
                    Err(e) => Err(Stop::Refused(e)),
                    Ok(None) => Ok(None),
                    Ok(Some(moved)) => match rules::may_enter(current) {
                        Err(e) => Err(Stop::Refused(e)),
                        Ok(()) => Ok(Some((moved, current.version))),
                    },
                }
            });
            let ((state, message), version) = match step {
                None | Some(Err(Stop::Hidden)) => return Err(StoreError::NotFound),
                Some(Err(Stop::Expired)) => {
                    self.purge(id, DeleteReason::Expired);
                    return Err(StoreError::NotFound);
                }
                Some(Err(Stop::Refused(e))) => return Err(e),
                // Not a terminal write: the general path.
                Some(Ok(None)) => {
                    return self
                        .mutate_with(caller, id, action, now_ms, then)
                        .map(|(answer, _, _)| answer)
                }
                Some(Ok(Some(planned))) => planned,
            };
            let updated = self.storage.update(id, version, |record| {
                rules::advance(record, state, message, now_ms);
                (then(record), record_changes.then(|| record.clone()))
            });
            if let Ok((answer, change)) = updated {
                self.writes += 1;
                if let Some(task) = change {
                    self.record(|| Change::Updated { task });
                }
                return Ok(answer);
            }
            // Another writer won: `state` and `message` are made again from what it wrote.
        }
        Err(StoreError::Conflict)
    }

    /// Fails the task with the JSON-RPC error the original request ended with (§D 91).
    pub fn fail(
        &mut self,
        caller: Caller<'_>,
        id: &str,
        error: JsonRpcError,
        message: Option<String>,
        now_ms: u64,
    ) -> Result<TaskRecord, StoreError> {
        self.mutate_task(caller, id, Action::Fail { error, message }, now_ms)
    }

    /// Fails a task created under 2025-11-25 because its tool result has `isError: true`, keeping
    /// that result for `tasks/result` (§D 30, 44). `message` defaults to a diagnostic quoting the
    /// result's first text. Anything else (no `isError: true`, a 2026-07-28 task, which completes
    /// with such a result, §D 91): [`StoreError::InvalidToolFailure`]. On a terminal task: as
    /// [`complete`](Store::complete).
    pub fn fail_with_tool_result(
        &mut self,
        caller: Caller<'_>,
        id: &str,
        result: JsonObject,
        message: Option<String>,
        now_ms: u64,
    ) -> Result<TaskRecord, StoreError> {
        self.mutate_task(
            caller,
            id,
            Action::FailWithToolResult {
                result: result.into(),
                message,
            },
            now_ms,
        )
    }

    /// Cancels the task (§D 22, 23, 90). A terminal task: `AlreadyTerminal` under V25,
    /// an unchanged ack under V26. `protocol` is that of the cancel request.
    pub fn cancel(
        &mut self,
        caller: Caller<'_>,
        id: &str,
        protocol: ProtocolVersion,
        message: Option<String>,
        now_ms: u64,
    ) -> Result<Cancelled, StoreError> {
        let (task, _, changed) =
            self.mutate(caller, id, Action::Cancel { protocol, message }, now_ms)?;
        Ok(Cancelled { task, changed })
    }

    /// Deletes a task now (e.g. a cancelled one, §D 24).
    pub fn remove(
        &mut self,
        caller: Caller<'_>,
        id: &str,
        now_ms: u64,
    ) -> Result<TaskRecord, StoreError> {
        let record = self.get(caller, id, now_ms)?;
        self.purge(id, DeleteReason::Removed);
        Ok(record)
    }

    /// Purges at most `limit` expired tasks, earliest deadline first; returns how many. Hosts
    /// call it when they like (an interval, an idle callback, each request): there is no timer.
    pub fn sweep(&mut self, now_ms: u64, limit: usize) -> usize {
        let ids = self.storage.expired(now_ms, limit);
        ids.iter()
            .filter(|id| self.purge(id, DeleteReason::Expired))
            .count()
    }

    fn purge(&mut self, id: &str, reason: DeleteReason) -> bool {
        let gone = self.storage.delete(id).is_some();
        if gone {
            self.writes += 1;
            self.record(|| Change::Deleted {
                id: id.to_owned(),
                reason,
            });
        }
        gone
    }

    fn purge_expired_in(&mut self, scope: Scope<'_>, now_ms: u64) {
        let mut pos = 0;
        loop {
            let batch = self.storage.range_after(scope, pos, 256);
            let Some(last) = batch.last() else { break };
            pos = last.seq;
            for record in &batch {
                if rules::is_expired(record, now_ms) {
                    self.purge(&record.id, DeleteReason::Expired);
                }
            }
        }
    }

    /// Read, apply the rules, compare-and-swap; re-read and retry on a conflict.
    /// [`mutate`](Store::mutate) for the operations that answer only the task.
    fn mutate_task(
        &mut self,
        caller: Caller<'_>,
        id: &str,
        action: Action,
        now_ms: u64,
    ) -> Result<TaskRecord, StoreError> {
        self.mutate(caller, id, action, now_ms)
            .map(|(task, _, _)| task)
    }

    fn mutate(
        &mut self,
        caller: Caller<'_>,
        id: &str,
        action: Action,
        now_ms: u64,
    ) -> Result<(TaskRecord, rules::Applied, bool), StoreError> {
        self.mutate_with(caller, id, action, now_ms, TaskRecord::clone)
    }

    /// [`mutate`](Self::mutate), answering `then` of the record as it is after the action (as
    /// stored, or unchanged when the action changed nothing) instead of the record itself: the
    /// new revision moves into storage without a copy (its payload included).
    fn mutate_with<T>(
        &mut self,
        caller: Caller<'_>,
        id: &str,
        action: Action,
        now_ms: u64,
        mut then: impl FnMut(&TaskRecord) -> T,
    ) -> Result<(T, rules::Applied, bool), StoreError> {
        let share = self.config.share_across_sessions;
        for _ in 0..CAS_ATTEMPTS {
            // The rules see the stored record itself (no copy); what `get` refuses, this refuses.
            let step = self.storage.read(id, |current| {
                if rules::is_expired(current, now_ms) {
                    return Step::Expired;
                }
                if !rules::visible(current, caller, share) {
                    return Step::Hidden;
                }
                match rules::apply(current, &action, now_ms) {
                    Err(e) => Step::Refused(e),
                    Ok(mut applied) => match applied.record.take() {
                        None => Step::Unchanged(then(current), applied),
                        Some(next) => Step::Next(next, applied, current.version),
                    },
                }
            });
            let (next, applied, version) = match step {
                None | Some(Step::Hidden) => return Err(StoreError::NotFound),
                Some(Step::Expired) => {
                    self.purge(id, DeleteReason::Expired);
                    return Err(StoreError::NotFound);
                }
                Some(Step::Refused(e)) => return Err(e),
                Some(Step::Unchanged(answer, applied)) => return Ok((answer, applied, false)),
                Some(Step::Next(next, applied, version)) => (next, applied, version),
            };
            // Answered before the write (wasted only when a concurrent writer wins).
            let answer = then(&next);
            let change = self.config.record_changes.then(|| next.clone());
            if self.storage.put_if_version(next, Some(version)).is_ok() {
                self.writes += 1;
                if let Some(task) = change {
                    self.record(|| Change::Updated { task });
                }
                return Ok((answer, applied, true));
            }
        }
        Err(StoreError::Conflict)
    }

    /// The whole store as JSON: settings, cursor key, sequence counter and every record in
    /// creation order, so that restored cursors and listing order keep working.
    pub fn snapshot(&self) -> Value {
        let mut tasks = Vec::new();
        let mut pos = 0;
        loop {
            let batch = self.storage.range_after(Scope::All, pos, 1024);
            let Some(last) = batch.last() else { break };
            pos = last.seq;
            tasks.extend(batch);
        }
        let mut snap = JsonObject::new();
        snap.insert("format".into(), Value::String(SNAPSHOT_FORMAT.into()));
        snap.insert("config".into(), Value::Object(self.config.to_json()));
        snap.insert("cursorKey".into(), Value::String(hex(&self.cursor_key)));
        snap.insert("sequence".into(), Value::from(self.storage.last_sequence()));
        snap.insert(
            "tasks".into(),
            Value::Array(tasks.iter().map(|t| Value::Object(t.to_json())).collect()),
        );
        Value::Object(snap)
    }
}

impl<R: RandomSource> Store<MemoryStorage, R> {
    /// A store over a fresh [`MemoryStorage`].
    pub fn in_memory(config: StoreConfig, rng: R) -> Result<Self, StoreError> {
        Store::new(config, MemoryStorage::new(), rng)
    }

    /// The store a [`snapshot`](Store::snapshot) describes, over a [`MemoryStorage`].
    pub fn restore(snapshot: Value, rng: R) -> Result<Self, StoreError> {
        let (config, storage, cursor_key) = read_snapshot(snapshot)?;
        Ok(Store {
            config,
            storage,
            rng,
            cursor_key,
            changes: Vec::new(),
            writes: 0,
        })
    }

    /// Replaces everything this store holds by what `snapshot` describes (checked as
    /// [`Store::restore`] checks it), keeping its random source: a store reused for one
    /// operation after another over records read elsewhere (the shared server's replicas) pays
    /// no new store per operation. Changes not taken are dropped; `writes` moves on, so no answer
    /// cached at an earlier count passes for current.
    pub fn reload(&mut self, snapshot: Value) -> Result<(), StoreError> {
        let (config, storage, cursor_key) = read_snapshot(snapshot)?;
        self.config = config;
        self.storage = storage;
        self.cursor_key = cursor_key;
        self.changes.clear();
        self.writes = self.writes.saturating_add(1);
        Ok(())
    }
}

impl<R: RandomSource> Store<MemoryStorage, R> {
    /// Puts `tasks` (an array of records as a snapshot's `tasks` holds them, each checked as
    /// [`Store::restore`] checks it) into this store, each in place of the record of its id,
    /// keeping every other record, the settings, the cursor key and the random source; the
    /// sequence moves up to the greatest `seq`. What a shared server's core reads before an
    /// operation on one task it does not hold at that revision: the records it holds stay, so
    /// the next operation on one of them reads nothing more. Changes not taken are dropped and
    /// `writes` moves on, as [`Store::reload`] does.
    pub fn load(&mut self, tasks: Value) -> Result<(), StoreError> {
        let invalid = |reason: String| StoreError::InvalidSnapshot { reason };
        let Value::Array(tasks) = tasks else {
            return Err(invalid("tasks is not an array".into()));
        };
        let mut read = Vec::with_capacity(tasks.len());
        for (i, task) in tasks.iter().enumerate() {
            let task =
                TaskRecord::from_json(task).map_err(|e| invalid(format!("tasks[{i}]: {e}")))?;
            check_restored(&task, &self.config)
                .and_then(|()| rules::check_invariants(&task))
                .map_err(|e| invalid(format!("tasks[{i}]: {e}")))?;
            if read.iter().any(|t: &TaskRecord| t.id == task.id) {
                return Err(invalid(format!(
                    "tasks[{i}]: duplicate task id {}",
                    task.id
                )));
            }
            read.push(task);
        }
        for task in read {
            let id = task.id.clone();
            // A `seq` is another task's: the one held goes (its storage moved on).
            let taken = self
                .storage
                .range_after(Scope::All, task.seq.saturating_sub(1), 1)
                .into_iter()
                .find(|t| t.seq == task.seq && t.id != id);
            if let Some(other) = taken {
                self.storage.delete(&other.id);
            }
            self.storage.delete(&id);
            if self.storage.put_if_version(task, None).is_err() {
                return Err(invalid(format!("task {id}: not stored")));
            }
        }
        self.changes.clear();
        self.writes = self.writes.saturating_add(1);
        Ok(())
    }
}

/// What a [`snapshot`](Store::snapshot) holds, checked as [`Store::restore`] checks it: its
/// settings, its records (over a [`MemoryStorage`]) and its cursor key.
fn read_snapshot(snapshot: Value) -> Result<(StoreConfig, MemoryStorage, [u8; 16]), StoreError> {
    let invalid = |reason: String| StoreError::InvalidSnapshot { reason };
    let snap = snapshot
        .as_object()
        .ok_or_else(|| invalid("not an object".into()))?;
    let format = snap.get("format").and_then(Value::as_str);
    if format != Some(SNAPSHOT_FORMAT) {
        return Err(invalid(format!(
            "unknown format {}",
            snap.get("format").unwrap_or(&Value::Null)
        )));
    }
    let cursor_key = snap
        .get("cursorKey")
        .and_then(Value::as_str)
        .and_then(unhex::<16>)
        .ok_or_else(|| invalid("cursorKey is not 32 lowercase hex digits".into()))?;
    if cursor_key.iter().all(|b| *b == 0) {
        return Err(invalid(
            "cursorKey is all zeros: the store draws it at random, so it was tampered with".into(),
        ));
    }
    let sequence = snap
        .get("sequence")
        .and_then(Value::as_u64)
        .ok_or_else(|| invalid("sequence is not a non-negative integer".into()))?;
    if sequence > MAX_SAFE_INTEGER {
        return Err(invalid(format!(
            "sequence {sequence} is above 2^53 - 1, the largest the store issues"
        )));
    }
    let config = match snap.get("config") {
        None => StoreConfig::default(),
        Some(c) => StoreConfig::from_json(c).map_err(invalid)?,
    };
    let tasks = match snap.get("tasks") {
        Some(Value::Array(tasks)) => tasks,
        _ => return Err(invalid("tasks is not an array".into())),
    };
    let mut storage = MemoryStorage::with_sequence(sequence);
    let mut last_seq = 0;
    for (i, task) in tasks.iter().enumerate() {
        let task = TaskRecord::from_json(task).map_err(|e| invalid(format!("tasks[{i}]: {e}")))?;
        check_restored(&task, &config)
            .and_then(|()| rules::check_invariants(&task))
            .map_err(|e| invalid(format!("tasks[{i}]: {e}")))?;
        if task.seq <= last_seq {
            return Err(invalid(format!(
                "tasks[{i}]: `seq` {} is not above the previous task's {last_seq} (tasks are in creation order)",
                task.seq
            )));
        }
        if task.seq > sequence {
            return Err(invalid(format!(
                "tasks[{i}]: `seq` {} is above the snapshot's `sequence` {sequence}",
                task.seq
            )));
        }
        last_seq = task.seq;
        let id = task.id.clone();
        storage
            .put_if_version(task, None)
            .map_err(|_| invalid(format!("tasks[{i}]: duplicate task id {id}")))?;
    }
    Ok((config, storage, cursor_key))
}

/// The checks of a restored record beyond its shape and invariants: every field within what
/// the store itself issues, and the configured caps re-applied. The error names the field.
fn check_restored(task: &TaskRecord, config: &StoreConfig) -> Result<(), String> {
    if !is_task_id(&task.id) {
        let shown: String = task.id.chars().take(40).collect();
        return Err(format!(
            "`id` {shown:?}{} ({} bytes) is not an id the store draws (32 lowercase hex characters, §D 84)",
            if shown.len() < task.id.len() { "…" } else { "" },
            task.id.len()
        ));
    }
    let id = &task.id;
    for (field, v) in [("seq", task.seq), ("version", task.version)] {
        if v == 0 || v > MAX_SAFE_INTEGER {
            return Err(format!(
                "task {id}: `{field}` {v} is not between 1 and 2^53 - 1"
            ));
        }
    }
    for (field, v) in [
        ("createdAtMs", task.created_at_ms),
        ("lastUpdatedAtMs", task.last_updated_at_ms),
    ] {
        if v > MAX_TIMESTAMP_MS {
            return Err(format!(
                "task {id}: `{field}` {v} is beyond the timestamps the store emits (at most {MAX_TIMESTAMP_MS}, 9999-12-31T23:59:59.999Z)"
            ));
        }
    }
    for (field, v) in [
        ("requestedTtlMs", task.requested_ttl_ms),
        ("ttlMs", task.ttl_ms),
        ("pollIntervalMs", task.poll_interval_ms),
    ] {
        if let Some(v) = v.filter(|v| *v > MAX_SAFE_INTEGER) {
            return Err(format!("task {id}: `{field}` {v} is above 2^53 - 1"));
        }
    }
    // §D 25, 42: the configured maximum TTL holds for restored tasks too.
    if let Some(max) = config.max_ttl_ms {
        match task.ttl_ms {
            None => {
                return Err(format!(
                    "task {id}: `ttlMs` is null (unlimited), but the configured maxTtlMs is {max}"
                ))
            }
            Some(ttl) if ttl > max => {
                return Err(format!(
                    "task {id}: `ttlMs` {ttl} is above the configured maxTtlMs {max}"
                ))
            }
            Some(_) => {}
        }
    }
    if task.ttl_ms == Some(0) {
        return Err(format!(
            "task {id}: `ttlMs` 0 (the store grants at least 1 ms)"
        ));
    }
    for (key, entry) in &task.inputs {
        rules::check_input_request(key, &entry.request)
            .map_err(|e| format!("task {id}: `inputs`: {e}"))?;
        if let InputState::Answered { response } = &entry.state {
            if !response.is_object() {
                return Err(format!(
                    "task {id}: input {key:?}: `response` is not an object (an input response is a result)"
                ));
            }
        }
    }
    Ok(())
}

/// The `format` member of snapshots.
pub const SNAPSHOT_FORMAT: &str = "mcp-tasks-wasm/store/1";
