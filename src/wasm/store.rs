//! `TaskStore`: the task store core ([`crate::store`]) exported to JS as a class. Every method
//! converts its arguments, delegates to one core operation and converts the answer; no rule
//! lives here.
//!
//! Argument convention: the operation's own arguments first, then an optional context
//! `{ session?, host?, now? }` ([`TaskContext`]). Time is `ctx.now` (Unix ms) or `Date.now()`;
//! randomness is `crypto.getRandomValues` ([`CryptoRandom`]).

use js_sys::Reflect;
use serde::Serialize;
use serde_json::Value;
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;

use crate::model::common::{JsonObject, JsonRpcError};
use crate::model::v2025::V25Task;
use crate::model::v2026::{V26DetailedTask, V26InputRequests, V26InputResponses};
use crate::model::{ProtocolVersion, TaskStatus};
use crate::store::{
    Caller, Change, DeleteReason, InputState, MemoryStorage, NewTask, Store, StoreConfig,
    StoreError, TaskRecord,
};

use super::input::{date_now, js_to_json, read_limit, read_now, to_js};
use super::random::CryptoRandom;
use crate::store::record::error_from_json;

// ---- argument types (generated into the .d.ts; read member by member) -------------------------

/// Settings of a `TaskStore`. Every member is optional; where `null` is allowed it means
/// "none" (no cap, no default), which differs from leaving the member out (the default).
#[derive(Debug, Default, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct TaskStoreOptions {
    /// The largest TTL granted, in ms (default 86 400 000 = 24 h); `null` = unlimited retention.
    #[tsify(optional, type = "number | null")]
    pub max_ttl_ms: Option<Option<u64>>,
    /// The TTL of tasks created without one (every V26 task), in ms (default 3 600 000 = 1 h);
    /// `null` = no default (the maximum applies).
    #[tsify(optional, type = "number | null")]
    pub default_ttl_ms: Option<Option<u64>>,
    /// The poll interval suggested to pollers, in ms (default 1000); `null` = none.
    #[tsify(optional, type = "number | null")]
    pub poll_interval_ms: Option<Option<u64>>,
    /// The most live (non-terminal) tasks one session may hold (default 100); `null` = no cap.
    /// Over it `create` throws code -32010. Tasks created without a session (a stdio server, a
    /// host that does not authenticate) are not capped: bound them to a session to cap them.
    #[tsify(optional, type = "number | null")]
    pub max_live_tasks_per_session: Option<Option<usize>>,
    /// Tasks per `list` page (default 50, at most 1000).
    #[tsify(optional)]
    pub page_size: Option<usize>,
    /// Every caller sees every task (opts out of session isolation; default `false`).
    #[tsify(optional)]
    pub share_across_sessions: Option<bool>,
    /// Record every write for `takeChanges()` (default `false`).
    #[tsify(optional)]
    pub record_changes: Option<bool>,
    /// The largest argument accepted, in bytes of UTF-8 (default 16 777 216 = 16 MiB); `null` =
    /// no limit. Every argument is measured before it is copied into wasm memory (a string of
    /// more UTF-16 units than this is refused at once; an object by its JSON text): a request
    /// to `handle`, a result, input requests or responses, an error, an id, a status message,
    /// a session, a cursor. Over it, `TaskServer.handle` answers a JSON-RPC error -32600 (and
    /// `beginToolCall` / `planToolCall` reject with it); every other method throws a
    /// `TaskStoreError` (code -32602, kind `too_large`) naming the argument. Kept in snapshots.
    #[tsify(optional, type = "number | null")]
    pub max_request_bytes: Option<Option<u64>>,
}

/// The second, optional argument of `TaskStore.restore` and `TaskServer.restore`.
#[derive(Debug, Default, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct RestoreOptions {
    /// The largest snapshot accepted, in bytes of UTF-8 of its JSON text (default 268 435 456 =
    /// 256 MiB); `null` = no limit. Measured before it is copied into wasm memory; over it
    /// `restore` throws a `TaskStoreError` (kind `too_large`) naming `snapshot`. A snapshot is
    /// the host's own data, so the default is well above `maxRequestBytes`: a store of 10 000
    /// tasks with 10 KB results makes a snapshot of about 100 MB.
    #[tsify(optional, type = "number | null")]
    pub max_snapshot_bytes: Option<Option<u64>>,
}

/// The default `RestoreOptions.maxSnapshotBytes`: 256 MiB.
pub const DEFAULT_MAX_SNAPSHOT_BYTES: u64 = 256 * 1024 * 1024;

/// Who calls and when: the last, optional argument of every task operation.
#[derive(Debug, Default, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct TaskContext {
    /// The session (authorization context) of the request. Absent or `null`: a request without
    /// a session, which sees only tasks created without one. `create` binds the task to it.
    #[tsify(optional, type = "string | null")]
    pub session: Option<String>,
    /// `true`: the host itself (the work running a task, an admin view), which sees every task
    /// whatever its session. Not with `session`, not for `create`.
    #[tsify(optional)]
    pub host: Option<bool>,
    /// The current time in Unix milliseconds (default `Date.now()`): pass it to run in virtual
    /// time.
    #[tsify(optional)]
    pub now: Option<u64>,
}

/// What `create` needs besides the context.
#[derive(Debug, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct CreateTaskParams {
    /// The protocol version of the creating request.
    pub protocol_version: ProtocolVersion,
    /// The TTL the requestor asked for (V25 `params.task.ttl`), in ms; capped by `maxTtlMs`.
    #[tsify(optional, type = "number | null")]
    pub ttl: Option<u64>,
    /// Overrides the store's poll interval for this task, in ms.
    #[tsify(optional)]
    pub poll_interval_ms: Option<u64>,
    /// The first `statusMessage`.
    #[tsify(optional)]
    pub status_message: Option<String>,
}

/// Which `list` page.
#[derive(Debug, Default, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ListParams {
    /// The `nextCursor` of the previous page (V25 `params.cursor`).
    #[tsify(optional)]
    pub cursor: Option<String>,
    /// At most this many tasks (it can only shrink the store's `pageSize`).
    #[tsify(optional)]
    pub limit: Option<usize>,
}

// ---- answer types ------------------------------------------------------------------------------

/// A task as the store answers it: both wire shapes, plus what the work needs.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
#[tsify(missing_as_null)]
pub struct StoreTask {
    /// 128 random bits as 32 lowercase hex characters.
    pub task_id: String,
    pub status: TaskStatus,
    /// The protocol version of the request that created the task.
    pub protocol_version: ProtocolVersion,
    /// The session the task is bound to (absent: none).
    #[tsify(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// Unix ms after which the task is purged (`createdAt + ttl`); `null` = never.
    pub expires_at_ms: Option<u64>,
    /// The answered input responses by key (kept across snapshots for the work).
    #[tsify(optional, type = "Record<string, unknown>")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<JsonObject>,
    /// The V25 wire task: the answer of `tasks/get` and `tasks/cancel`, `task` of
    /// `CreateTaskResult`. V25 delivers the payload through `tasks/result`: take it from
    /// `v26.result` / `v26.error` (present when `status` is `completed` / `failed`); a V25 task
    /// failed by an `isError` tool result shows a derived -32603 there, with that result (what
    /// `tasks/result` answers) in `v26.error.data.toolResult`.
    pub v25: V25Task,
    /// The V26 `DetailedTask` (payload of the current status included): the answer of
    /// `tasks/get` and the params of `notifications/tasks`.
    pub v26: V26DetailedTask,
}

impl From<&TaskRecord> for StoreTask {
    fn from(record: &TaskRecord) -> Self {
        let mut answered = JsonObject::new();
        for (key, entry) in &record.inputs {
            if let InputState::Answered { response } = &entry.state {
                answered.insert(key.clone(), response.clone());
            }
        }
        StoreTask {
            task_id: record.id.clone(),
            status: record.status(),
            protocol_version: record.protocol,
            session: record.session.clone(),
            expires_at_ms: record.expires_at_ms(),
            input_responses: (!answered.is_empty()).then_some(answered),
            v25: record.to_v25(),
            v26: record.to_v26_detailed(),
        }
    }
}

/// One `list` page.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct TaskPage {
    pub tasks: Vec<StoreTask>,
    /// Present exactly when more tasks follow.
    #[tsify(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// What `takeInput` did.
#[derive(Debug, Serialize, Tsify)]
pub struct TakeInputOutcome {
    pub task: StoreTask,
    /// Keys answered by this call.
    pub accepted: Vec<String>,
    /// Keys ignored: never issued, already answered or superseded.
    pub ignored: Vec<String>,
}

/// What `cancel` did.
#[derive(Debug, Serialize, Tsify)]
pub struct CancelOutcome {
    pub task: StoreTask,
    /// `false` for a V26 cancel of an already terminal task (an idempotent ack).
    pub changed: bool,
}

/// Why a task left the store.
#[derive(Debug, Clone, Copy, Serialize, Tsify)]
#[serde(rename_all = "snake_case")]
pub enum DeletedBecause {
    /// Its TTL elapsed.
    Expired,
    /// `remove` (or a failed id draw).
    Removed,
}

/// One write, from `takeChanges()`: `record` is the stored record exactly as `snapshot().tasks`
/// holds it (opaque), `task` its view (e.g. for `notifications/tasks`).
#[derive(Debug, Serialize, Tsify)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StoreChange {
    Created {
        task: StoreTask,
        #[tsify(type = "Record<string, unknown>")]
        record: TaskRecord,
    },
    Updated {
        task: StoreTask,
        #[tsify(type = "Record<string, unknown>")]
        record: TaskRecord,
    },
    Deleted {
        #[serde(rename = "taskId")]
        task_id: String,
        reason: DeletedBecause,
    },
}

impl From<Change> for StoreChange {
    fn from(change: Change) -> Self {
        match change {
            Change::Created { task } => StoreChange::Created {
                task: StoreTask::from(&task),
                record: task,
            },
            Change::Updated { task } => StoreChange::Updated {
                task: StoreTask::from(&task),
                record: task,
            },
            Change::Deleted { id, reason } => StoreChange::Deleted {
                task_id: id,
                reason: match reason {
                    DeleteReason::Expired => DeletedBecause::Expired,
                    DeleteReason::Removed => DeletedBecause::Removed,
                },
            },
        }
    }
}

/// The answer of `resultOf`: what a 2025-11-25 `tasks/result` answers for a task.
#[derive(Debug, Serialize, Tsify)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ResultOf {
    /// The task is live (`tasks/result` blocks).
    Pending,
    /// What the original request returned.
    Result {
        #[tsify(type = "Record<string, unknown>")]
        result: JsonObject,
    },
    /// The JSON-RPC error to answer with.
    Error { error: JsonRpcError },
}

/// What a store error names, as `error.kind`.
#[derive(Debug, Clone, Copy, Serialize, Tsify)]
#[serde(rename_all = "snake_case")]
pub enum TaskStoreErrorKind {
    NotFound,
    InvalidCursor,
    AlreadyTerminal,
    InvalidTransition,
    InputKeyReused,
    InvalidInputRequest,
    InvalidToolFailure,
    SessionCapReached,
    Conflict,
    IdCollision,
    InvalidSnapshot,
    RandomUnavailable,
    SequenceExhausted,
    /// An argument larger than `maxRequestBytes` (or a snapshot larger than
    /// `maxSnapshotBytes`), refused before it was copied into wasm memory.
    TooLarge,
}

/// The members of the `Error` a store operation throws (`error.name === "TaskStoreError"`):
/// `{ code, message, data? }` is the JSON-RPC error to answer the request with.
#[derive(Debug, Serialize, Tsify)]
pub struct TaskStoreError {
    /// The JSON-RPC error code: -32602 (not found, invalid cursor, already terminal, too large;
    /// `data: { maxRequestBytes }` for the latter), -32010
    /// (session cap), -32603 (host bugs, conflicts, invalid snapshots).
    pub code: i64,
    pub message: String,
    #[tsify(optional, type = "unknown")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
    pub kind: TaskStoreErrorKind,
}

/// A [`StoreError`] as the thrown JS `Error`: the one place store errors cross the boundary.
pub(super) fn store_error(e: &StoreError) -> JsValue {
    let rpc = e.to_jsonrpc();
    let info = TaskStoreError {
        code: rpc.code,
        message: rpc.message,
        data: rpc.data,
        kind: match e {
            StoreError::NotFound => TaskStoreErrorKind::NotFound,
            StoreError::InvalidCursor => TaskStoreErrorKind::InvalidCursor,
            StoreError::AlreadyTerminal { .. } => TaskStoreErrorKind::AlreadyTerminal,
            StoreError::InvalidTransition { .. } => TaskStoreErrorKind::InvalidTransition,
            StoreError::InputKeyReused { .. } => TaskStoreErrorKind::InputKeyReused,
            StoreError::InvalidInputRequest { .. } => TaskStoreErrorKind::InvalidInputRequest,
            StoreError::InvalidToolFailure { .. } => TaskStoreErrorKind::InvalidToolFailure,
            StoreError::SessionCapReached { .. } => TaskStoreErrorKind::SessionCapReached,
            StoreError::Conflict => TaskStoreErrorKind::Conflict,
            StoreError::IdCollision => TaskStoreErrorKind::IdCollision,
            StoreError::InvalidSnapshot { .. } => TaskStoreErrorKind::InvalidSnapshot,
            StoreError::RandomUnavailable { .. } => TaskStoreErrorKind::RandomUnavailable,
            StoreError::SequenceExhausted => TaskStoreErrorKind::SequenceExhausted,
            StoreError::TooLarge { .. } => TaskStoreErrorKind::TooLarge,
        },
    };
    let error = js_sys::Error::new(&info.message);
    error.set_name("TaskStoreError");
    // Setting own data properties of a fresh Error cannot fail.
    if let Ok(members) = to_js(&info) {
        for key in ["code", "data", "kind"] {
            let key = JsValue::from_str(key);
            if let Ok(v) = Reflect::get(&members, &key) {
                if !v.is_undefined() {
                    let _ = Reflect::set(&error, &key, &v);
                }
            }
        }
    }
    error.into()
}

// ---- reading arguments -------------------------------------------------------------------------

pub(super) use super::input::{as_u64, bad, Members};

pub(super) fn read_options(options: JsValue) -> Result<TaskStoreOptions, JsValue> {
    let Some(o) = Members::of(options, "options")? else {
        return Ok(TaskStoreOptions::default());
    };
    let ms = "a non-negative integer (milliseconds) or null";
    Ok(TaskStoreOptions {
        max_ttl_ms: o.nullable("maxTtlMs", ms, as_u64)?,
        default_ttl_ms: o.nullable("defaultTtlMs", ms, as_u64)?,
        poll_interval_ms: o.nullable("pollIntervalMs", ms, as_u64)?,
        max_live_tasks_per_session: o.nullable(
            "maxLiveTasksPerSession",
            "a non-negative integer or null",
            |v| as_u64(v).map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        )?,
        page_size: o.count("pageSize")?,
        share_across_sessions: o.boolean("shareAcrossSessions")?,
        record_changes: o.boolean("recordChanges")?,
        max_request_bytes: o.nullable(
            "maxRequestBytes",
            "a non-negative integer (bytes of UTF-8) or null",
            as_u64,
        )?,
    })
}

/// The largest argument `config` accepts, in bytes (`usize::MAX`: no limit).
pub(super) fn request_limit(config: &StoreConfig) -> usize {
    bytes_limit(config.max_request_bytes)
}

fn bytes_limit(limit: Option<u64>) -> usize {
    limit.map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX))
}

impl TaskStoreOptions {
    pub(super) fn into_config(self) -> StoreConfig {
        let d = StoreConfig::default();
        StoreConfig {
            max_ttl_ms: self.max_ttl_ms.unwrap_or(d.max_ttl_ms),
            default_ttl_ms: self.default_ttl_ms.unwrap_or(d.default_ttl_ms),
            poll_interval_ms: self.poll_interval_ms.unwrap_or(d.poll_interval_ms),
            max_live_tasks_per_session: self
                .max_live_tasks_per_session
                .unwrap_or(d.max_live_tasks_per_session),
            share_across_sessions: self
                .share_across_sessions
                .unwrap_or(d.share_across_sessions),
            page_size: self.page_size.unwrap_or(d.page_size),
            record_changes: self.record_changes.unwrap_or(d.record_changes),
            max_request_bytes: self.max_request_bytes.unwrap_or(d.max_request_bytes),
        }
    }
}

/// The optional context argument.
type Ctx = Option<Ts<TaskContext>>;

fn read_context(ctx: Ctx, max: usize) -> Result<TaskContext, JsValue> {
    let Some(c) = Members::of(ctx.map_or(JsValue::UNDEFINED, JsValue::from), "context")? else {
        return Ok(TaskContext::default());
    };
    within(c.raw("session")?.as_ref(), "context.session", max)?;
    let context = TaskContext {
        session: c.string("session")?,
        host: c.boolean("host")?,
        now: c.ms("now")?,
    };
    if context.host == Some(true) && context.session.is_some() {
        return Err(bad(
            "invalid context: give `session` or `host: true`, not both".to_string(),
        ));
    }
    Ok(context)
}

impl TaskContext {
    fn caller(&self) -> Caller<'_> {
        if self.host == Some(true) {
            Caller::Host
        } else {
            Caller::Session(self.session.as_deref())
        }
    }

    fn now_ms(&self) -> u64 {
        self.now.unwrap_or_else(date_now)
    }
}

fn read_create(params: JsValue, max: usize) -> Result<CreateTaskParams, JsValue> {
    let p = Members::of(params, "params")?
        .ok_or_else(|| bad("`params` is required: { protocolVersion, ttl? }".to_string()))?;
    within(
        p.raw("statusMessage")?.as_ref(),
        "params.statusMessage",
        max,
    )?;
    let protocol_version = p.required_version("protocolVersion")?;
    Ok(CreateTaskParams {
        protocol_version,
        ttl: p.ms("ttl")?,
        poll_interval_ms: p.ms("pollIntervalMs")?,
        status_message: p.string("statusMessage")?,
    })
}

/// The optional `list` page argument.
type Page = Option<Ts<ListParams>>;

fn read_list(params: Page, max: usize) -> Result<ListParams, JsValue> {
    let Some(p) = Members::of(
        params.map_or(JsValue::UNDEFINED, JsValue::from),
        "list params",
    )?
    else {
        return Ok(ListParams::default());
    };
    within(p.raw("cursor")?.as_ref(), "page.cursor", max)?;
    Ok(ListParams {
        cursor: p.string("cursor")?,
        limit: p.count("limit")?,
    })
}

/// A string argument of more UTF-16 units than `max` bytes is too large: refused before it is
/// copied (every unit is at least one byte of UTF-8). Anything else passes (its reader checks
/// its type).
pub(super) fn within(value: Option<&JsValue>, what: &str, max: usize) -> Result<(), JsValue> {
    match value.and_then(|v| v.dyn_ref::<js_sys::JsString>()) {
        Some(s) if s.length() as usize > max => Err(too_large(what, max)),
        _ => Ok(()),
    }
}

/// The `TaskStoreError` (kind `too_large`) of an argument over `max` bytes.
pub(super) fn too_large(what: &str, max: usize) -> JsValue {
    store_error(&StoreError::TooLarge {
        argument: what.to_string(),
        option: "maxRequestBytes",
        limit: max as u64,
    })
}

pub(super) fn read_id(id: &JsValue, max: usize) -> Result<String, JsValue> {
    within(Some(id), "taskId", max)?;
    id.as_string()
        .ok_or_else(|| bad("the task id must be a string".to_string()))
}

pub(super) fn read_message(
    message: Option<JsValue>,
    max: usize,
) -> Result<Option<String>, JsValue> {
    let Some(message) = message.filter(|m| !m.is_undefined() && !m.is_null()) else {
        return Ok(None);
    };
    within(Some(&message), "message", max)?;
    message
        .dyn_ref::<js_sys::JsString>()
        .map(|m| Some(super::input::js_text(m)))
        .ok_or_else(|| bad("the status message must be a string, null or undefined".to_string()))
}

pub(super) fn read_status(status: Ts<TaskStatus>) -> Result<TaskStatus, JsValue> {
    JsValue::from(status)
        .as_string()
        .as_deref()
        .and_then(TaskStatus::parse)
        .ok_or_else(|| {
            bad("the status must be one of \"working\", \"input_required\", \"completed\", \"failed\", \"cancelled\"".to_string())
        })
}

fn read_version(version: Ts<ProtocolVersion>) -> Result<ProtocolVersion, JsValue> {
    super::input::js_version(&JsValue::from(version))
        .ok_or_else(|| bad(crate::model::common::UnknownVersion.to_string()))
}

/// Why a JSON argument was not read.
pub(super) enum Unread {
    /// Larger than the limit (refused before any copy into wasm memory).
    TooLarge,
    /// Not JSON: the `TypeError` to throw.
    Bad(JsValue),
}

/// A JSON value (or its JSON text) of at most `max` bytes of UTF-8, measured before it is
/// copied into wasm memory.
pub(super) fn read_json_within(value: &JsValue, what: &str, max: usize) -> Result<Value, Unread> {
    js_to_json(value, max).map_err(|report| {
        if report.issues.first().is_some_and(|i| i.code == "too-large") {
            return Unread::TooLarge;
        }
        let why = report.issues.first().map_or_else(String::new, |issue| {
            if issue.path.is_empty() {
                issue.message.clone()
            } else {
                format!("{} (at {})", issue.message, issue.path)
            }
        });
        Unread::Bad(bad(format!("invalid `{what}`: {why}")))
    })
}

/// A JSON value handed in by the host: a `TypeError` when it is not JSON, a `TaskStoreError`
/// (kind `too_large`) when it is larger than `max` bytes.
pub(super) fn read_json(value: &JsValue, what: &str, max: usize) -> Result<Value, JsValue> {
    read_json_within(value, what, max).map_err(|e| match e {
        Unread::TooLarge => too_large(what, max),
        Unread::Bad(e) => e,
    })
}

/// A JSON object argument (a JS object, not JSON text).
pub(super) fn read_object(value: &JsValue, what: &str, max: usize) -> Result<JsonObject, JsValue> {
    if !value.is_object() || js_sys::Array::is_array(value) {
        return Err(bad(format!("`{what}` must be an object")));
    }
    match read_json(value, what, max)? {
        Value::Object(map) => Ok(map),
        _ => Err(bad(format!("`{what}` must be an object"))),
    }
}

pub(super) fn answer<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    to_js(value).map_err(JsValue::from)
}

pub(super) fn task(record: &TaskRecord) -> Result<JsValue, JsValue> {
    answer(&StoreTask::from(record))
}

// ---- the class ---------------------------------------------------------------------------------

/// An in-memory MCP task store for both protocol versions (2025-11-25 and 2026-07-28): task
/// records, the status state machine, TTLs, session isolation, `tasks/list` cursors, input
/// requests, snapshots. No timers and no clock of its own: time is `ctx.now` or `Date.now()`,
/// and expired tasks are purged when met or by `sweep()`.
///
/// Every task operation takes an optional last argument `ctx: { session?, host?, now? }`
/// (`TaskContext`): `session` is the request's session (absent: no session), `host: true` acts
/// as the host and sees every task, `now` is Unix ms. A store error throws an `Error` named
/// `"TaskStoreError"` with `code`, `message`, `data?` (the JSON-RPC error to answer with) and
/// `kind` (`TaskStoreError`); a malformed argument throws a `TypeError`.
/// The store a snapshot (an object or its JSON text) describes, for `TaskStore.restore` and
/// `TaskServer.restore`.
pub(crate) fn restore_store(
    snapshot: &JsValue,
    options: JsValue,
) -> Result<Store<MemoryStorage, CryptoRandom>, JsValue> {
    if !snapshot.is_object() && !snapshot.is_string() {
        return Err(bad(
            "`snapshot` must be an object or its JSON text".to_string()
        ));
    }
    let max = match Members::of(options, "restore options")? {
        None => bytes_limit(Some(DEFAULT_MAX_SNAPSHOT_BYTES)),
        Some(o) => bytes_limit(
            o.nullable(
                "maxSnapshotBytes",
                "a non-negative integer (bytes of UTF-8) or null",
                as_u64,
            )?
            .unwrap_or(Some(DEFAULT_MAX_SNAPSHOT_BYTES)),
        ),
    };
    // Text that is not JSON is a snapshot that cannot be restored, like a malformed one.
    let value = js_to_json(snapshot, max).map_err(|report| {
        if report.issues.first().is_some_and(|i| i.code == "too-large") {
            return store_error(&StoreError::TooLarge {
                argument: "snapshot".to_string(),
                option: "maxSnapshotBytes",
                limit: max as u64,
            });
        }
        store_error(&StoreError::InvalidSnapshot {
            reason: report
                .issues
                .first()
                .map_or_else(String::new, |issue| issue.message.clone()),
        })
    })?;
    Store::restore(value, CryptoRandom::new()?).map_err(|e| store_error(&e))
}

/// The writes since the last call, as JS `StoreChange`s.
pub(crate) fn changes_to_js(changes: Vec<crate::store::Change>) -> Result<JsValue, JsValue> {
    let changes: Vec<StoreChange> = changes.into_iter().map(StoreChange::from).collect();
    answer(&changes)
}

#[wasm_bindgen(js_name = TaskStore)]
pub struct TaskStore {
    inner: Store<MemoryStorage, CryptoRandom>,
}

#[wasm_bindgen(js_class = TaskStore)]
impl TaskStore {
    /// A new, empty store. Throws when `options` is malformed or the runtime has no
    /// `crypto.getRandomValues`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<Ts<TaskStoreOptions>>) -> Result<TaskStore, JsValue> {
        let config = read_options(options.map_or(JsValue::UNDEFINED, JsValue::from))?.into_config();
        let inner = Store::in_memory(config, CryptoRandom::new()?).map_err(|e| store_error(&e))?;
        Ok(TaskStore { inner })
    }

    /// The store a `snapshot()` describes (the object, or its JSON text). Throws a
    /// `TaskStoreError` (code -32603, kind `invalid_snapshot`) when it cannot be restored
    /// (malformed, or text that is not JSON), a `TypeError` for anything but an object or a
    /// string.
    ///
    /// `options.maxSnapshotBytes` (default 256 MiB; `null`: no limit) bounds the snapshot's JSON
    /// text, measured before it is copied into wasm memory: over it, a `TaskStoreError` (kind
    /// `too_large`). The restored store keeps the snapshot's settings (`maxRequestBytes`
    /// included).
    pub fn restore(
        #[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")]
        snapshot: JsValue,
        options: Option<Ts<RestoreOptions>>,
    ) -> Result<TaskStore, JsValue> {
        Ok(TaskStore {
            inner: restore_store(&snapshot, options.map_or(JsValue::UNDEFINED, JsValue::from))?,
        })
    }

    /// The largest argument accepted (`maxRequestBytes`).
    fn max(&self) -> usize {
        request_limit(self.inner.config())
    }

    /// Creates a task in `working`, bound to `ctx.session`. Throws code -32010 when the session
    /// holds `maxLiveTasksPerSession` live tasks.
    #[wasm_bindgen(unchecked_return_type = "StoreTask")]
    pub fn create(
        &mut self,
        params: Ts<CreateTaskParams>,
        #[wasm_bindgen(unchecked_optional_param_type = "TaskContext | null")] ctx: Ctx,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let params = read_create(params.into(), max)?;
        let ctx = read_context(ctx, max)?;
        if ctx.host == Some(true) {
            return Err(bad(
                "invalid context: `create` binds the task to `session`; `host` is not allowed"
                    .to_string(),
            ));
        }
        let now = ctx.now_ms();
        let new = NewTask {
            protocol: params.protocol_version,
            session: ctx.session,
            requested_ttl_ms: params.ttl,
            poll_interval_ms: params.poll_interval_ms,
            status_message: params.status_message,
        };
        let record = self.inner.create(new, now).map_err(|e| store_error(&e))?;
        task(&record)
    }

    /// The task `id` as `ctx` sees it. Unknown, expired, purged and other sessions' tasks all
    /// throw code -32602 (kind `not_found`).
    #[wasm_bindgen(unchecked_return_type = "StoreTask")]
    pub fn get(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "TaskContext | null")] ctx: Ctx,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let id = read_id(&id, max)?;
        let ctx = read_context(ctx, max)?;
        let record = self
            .inner
            .get(ctx.caller(), &id, ctx.now_ms())
            .map_err(|e| store_error(&e))?;
        task(&record)
    }

    /// One page of the tasks `ctx` sees, in creation order (V25 `tasks/list`). A cursor this
    /// store did not issue to this caller throws code -32602 (kind `invalid_cursor`).
    #[wasm_bindgen(unchecked_return_type = "TaskPage")]
    pub fn list(
        &mut self,
        #[wasm_bindgen(unchecked_optional_param_type = "ListParams | null")] page: Page,
        #[wasm_bindgen(unchecked_optional_param_type = "TaskContext | null")] ctx: Ctx,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let page = read_list(page, max)?;
        let ctx = read_context(ctx, max)?;
        let listed = self
            .inner
            .list(
                ctx.caller(),
                page.cursor.as_deref(),
                page.limit,
                ctx.now_ms(),
            )
            .map_err(|e| store_error(&e))?;
        answer(&TaskPage {
            tasks: listed.tasks.iter().map(StoreTask::from).collect(),
            next_cursor: listed.next_cursor,
        })
    }

    /// Moves a live task between `working` and `input_required` (or sets a new status message).
    /// Terminal statuses go through `complete`, `fail` and `cancel` (else code -32603).
    #[wasm_bindgen(js_name = setStatus, unchecked_return_type = "StoreTask")]
    pub fn set_status(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        status: Ts<TaskStatus>,
        #[wasm_bindgen(unchecked_optional_param_type = "string | null")] message: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "TaskContext | null")] ctx: Ctx,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let id = read_id(&id, max)?;
        let status = read_status(status)?;
        let message = read_message(message, max)?;
        let ctx = read_context(ctx, max)?;
        let record = self
            .inner
            .set_status(ctx.caller(), &id, status, message, ctx.now_ms())
            .map_err(|e| store_error(&e))?;
        task(&record)
    }

    /// Issues V26 input requests (key → bare `{ method, params }`); the task becomes
    /// `input_required`. Keys are unique over the task's life (a reused key: code -32603).
    #[wasm_bindgen(js_name = raiseInput, unchecked_return_type = "StoreTask")]
    pub fn raise_input(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(js_name = "inputRequests")] input_requests: Ts<V26InputRequests>,
        #[wasm_bindgen(unchecked_optional_param_type = "string | null")] message: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "TaskContext | null")] ctx: Ctx,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let id = read_id(&id, max)?;
        let requests = read_object(&input_requests.into(), "inputRequests", max)?;
        let message = read_message(message, max)?;
        let ctx = read_context(ctx, max)?;
        let record = self
            .inner
            .raise_input(ctx.caller(), &id, requests, message, ctx.now_ms())
            .map_err(|e| store_error(&e))?;
        task(&record)
    }

    /// Takes V26 `tasks/update` input responses (key → result). Keys not outstanding are
    /// ignored and reported; the task returns to `working` when nothing is outstanding.
    #[wasm_bindgen(js_name = takeInput, unchecked_return_type = "TakeInputOutcome")]
    pub fn take_input(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(js_name = "inputResponses")] input_responses: Ts<V26InputResponses>,
        #[wasm_bindgen(unchecked_optional_param_type = "TaskContext | null")] ctx: Ctx,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let id = read_id(&id, max)?;
        let responses = read_object(&input_responses.into(), "inputResponses", max)?;
        let ctx = read_context(ctx, max)?;
        let taken = self
            .inner
            .take_input(ctx.caller(), &id, responses, ctx.now_ms())
            .map_err(|e| store_error(&e))?;
        answer(&TakeInputOutcome {
            task: StoreTask::from(&taken.task),
            accepted: taken.accepted,
            ignored: taken.ignored,
        })
    }

    /// Completes the task with the original request's result. The first terminal outcome wins:
    /// on a terminal task this throws code -32602 (kind `already_terminal`) and changes nothing,
    /// which a worker may ignore.
    #[wasm_bindgen(unchecked_return_type = "StoreTask")]
    pub fn complete(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Record<string, unknown>")] result: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "string | null")] message: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "TaskContext | null")] ctx: Ctx,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let id = read_id(&id, max)?;
        let result = read_object(&result, "result", max)?;
        let message = read_message(message, max)?;
        let ctx = read_context(ctx, max)?;
        let record = self
            .inner
            .complete(ctx.caller(), &id, result, message, ctx.now_ms())
            .map_err(|e| store_error(&e))?;
        task(&record)
    }

    /// Fails the task with the JSON-RPC error the original request ended with. On a terminal
    /// task: as `complete`.
    #[wasm_bindgen(unchecked_return_type = "StoreTask")]
    pub fn fail(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        error: Ts<JsonRpcError>,
        #[wasm_bindgen(unchecked_optional_param_type = "string | null")] message: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "TaskContext | null")] ctx: Ctx,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let id = read_id(&id, max)?;
        let error = read_object(&error.into(), "error", max)?;
        let error = error_from_json(&Value::Object(error))
            .map_err(|e| bad(format!("invalid `error`: {e}")))?;
        let message = read_message(message, max)?;
        let ctx = read_context(ctx, max)?;
        let record = self
            .inner
            .fail(ctx.caller(), &id, error, message, ctx.now_ms())
            .map_err(|e| store_error(&e))?;
        task(&record)
    }

    /// Fails a 2025-11-25 task with the tool result (`isError: true`) its tool call returned
    /// (§D 44): `tasks/result` then answers that result. Throws code -32603 (kind
    /// `invalid_tool_failure`) when `result.isError` is not `true` or the task was created under
    /// 2026-07-28 (where such a result completes the task, §D 91). On a terminal task: as
    /// `complete`.
    #[wasm_bindgen(js_name = failWithToolResult, unchecked_return_type = "StoreTask")]
    pub fn fail_with_tool_result(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Record<string, unknown>")] result: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "string | null")] message: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "TaskContext | null")] ctx: Ctx,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let id = read_id(&id, max)?;
        let result = read_object(&result, "result", max)?;
        let message = read_message(message, max)?;
        let ctx = read_context(ctx, max)?;
        let record = self
            .inner
            .fail_with_tool_result(ctx.caller(), &id, result, message, ctx.now_ms())
            .map_err(|e| store_error(&e))?;
        task(&record)
    }

    /// What a 2025-11-25 `tasks/result` answers for the task, without the JSON-RPC envelope
    /// (§D 30, 31, 44): `{ kind: "pending" }` while it is live; `{ kind: "result", result }` (the
    /// completed result, or the `isError` result that failed it); `{ kind: "error", error }` (the
    /// JSON-RPC error it failed with; -32602 for a cancelled task). Unknown, expired and other
    /// sessions' tasks throw code -32602 (kind `not_found`).
    #[wasm_bindgen(js_name = resultOf, unchecked_return_type = "ResultOf")]
    pub fn result_of(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "TaskContext | null")] ctx: Ctx,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let id = read_id(&id, max)?;
        let ctx = read_context(ctx, max)?;
        let outcome =
            crate::server::result_outcome(&mut self.inner, ctx.caller(), &id, ctx.now_ms())
                .map_err(|e| store_error(&e))?;
        answer(&match outcome {
            crate::server::ResultOutcome::Pending => ResultOf::Pending,
            crate::server::ResultOutcome::Result(result) => ResultOf::Result { result },
            crate::server::ResultOutcome::Error(error) => ResultOf::Error { error },
        })
    }

    /// Cancels the task; `protocolVersion` is that of the cancel request. An already terminal
    /// task: under 2025-11-25 throws code -32602 (kind `already_terminal`); under 2026-07-28
    /// answers it unchanged with `changed: false`.
    #[wasm_bindgen(unchecked_return_type = "CancelOutcome")]
    pub fn cancel(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(js_name = "protocolVersion")] protocol_version: Ts<ProtocolVersion>,
        #[wasm_bindgen(unchecked_optional_param_type = "string | null")] message: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "TaskContext | null")] ctx: Ctx,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let id = read_id(&id, max)?;
        let protocol = read_version(protocol_version)?;
        let message = read_message(message, max)?;
        let ctx = read_context(ctx, max)?;
        let cancelled = self
            .inner
            .cancel(ctx.caller(), &id, protocol, message, ctx.now_ms())
            .map_err(|e| store_error(&e))?;
        answer(&CancelOutcome {
            task: StoreTask::from(&cancelled.task),
            changed: cancelled.changed,
        })
    }

    /// Deletes the task now and answers it as it was.
    #[wasm_bindgen(unchecked_return_type = "StoreTask")]
    pub fn remove(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "TaskContext | null")] ctx: Ctx,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let id = read_id(&id, max)?;
        let ctx = read_context(ctx, max)?;
        let record = self
            .inner
            .remove(ctx.caller(), &id, ctx.now_ms())
            .map_err(|e| store_error(&e))?;
        task(&record)
    }

    /// Purges expired tasks (at most `limit`, default all), earliest deadline first, at `now`
    /// (Unix ms, default `Date.now()`); answers how many. Call it when you like: there is no
    /// timer.
    pub fn sweep(
        &mut self,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] now: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] limit: Option<JsValue>,
    ) -> Result<u32, JsValue> {
        let now = read_now(now)?;
        let limit = read_limit(limit)?;
        let purged = self.inner.sweep(now, limit);
        Ok(u32::try_from(purged).unwrap_or(u32::MAX))
    }

    /// The whole store as a JSON object (settings, cursor key, every record): for
    /// `TaskStore.restore`. It holds the cursor key: keep it private.
    #[wasm_bindgen(unchecked_return_type = "Record<string, unknown>")]
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        answer(&self.inner.snapshot())
    }

    /// The writes since the last call, oldest first (always empty unless `recordChanges`).
    #[wasm_bindgen(js_name = takeChanges, unchecked_return_type = "StoreChange[]")]
    pub fn take_changes(&mut self) -> Result<JsValue, JsValue> {
        changes_to_js(self.inner.take_changes())
    }
}
