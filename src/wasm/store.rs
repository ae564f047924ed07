//! The store methods of the one core class, `TaskServerCore` (declared here),
//! over the task store core ([`crate::store`]); the argument and answer types of the JS
//! `TaskStore` / `TaskServer` (js/server/store.ts), declared once here for the .d.ts; the one
//! conversion of a [`StoreError`] into the thrown JS error. Every method converts its arguments,
//! delegates to one core operation and answers JSON text (parsed once by the JS class), except
//! the terminal writes (`complete`, `fail`, `failWithToolResult`), which answer the revision and
//! leave the rest as numbers in wasm memory ([`Written`]); no rule lives here.
//!
//! Argument convention: the operation's own arguments first, then the context as the JS class
//! read it (`session`, `host`, `now`); the JS class checks ids and sessions, which cross as plain
//! strings. Randomness is `crypto.getRandomValues` ([`CryptoRandom`]).

use js_sys::Reflect;
use serde::Serialize;
use serde_json::Value;
use tsify::Tsify;
use wasm_bindgen::prelude::*;

use crate::model::common::{JsonObject, JsonRpcError};
use crate::model::v2025::V25Task;
use crate::model::v2026::V26DetailedTask;
use crate::model::{ProtocolVersion, TaskStatus};
use crate::store::rules::Action;
use crate::store::Storage;
use crate::store::{
    Caller, Change, DeleteReason, InputState, MemoryStorage, NewTask, Store, StoreConfig,
    StoreError, TaskRecord,
};
use crate::store::{Payload, PayloadError};

use super::input::{js_to_json, read_limit, read_now, to_js};
use super::random::CryptoRandom;
use crate::store::record::{error_from_json, V26View};

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
#[allow(dead_code)] // declared for the .d.ts: built or read by js/server/store.js
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
#[allow(dead_code)] // declared for the .d.ts: built or read by js/server/store.js
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
#[allow(dead_code)] // declared for the .d.ts: built or read by js/server/store.js
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
#[allow(dead_code)] // declared for the .d.ts: built or read by js/server/store.js
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

/// One `list` page.
#[allow(dead_code)] // declared for the .d.ts: built or read by js/server/store.js
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
#[allow(dead_code)] // declared for the .d.ts: built or read by js/server/store.js
#[derive(Debug, Serialize, Tsify)]
pub struct TakeInputOutcome {
    pub task: StoreTask,
    /// Keys answered by this call.
    pub accepted: Vec<String>,
    /// Keys ignored: never issued, already answered or superseded.
    pub ignored: Vec<String>,
}

/// What `cancel` did.
#[allow(dead_code)] // declared for the .d.ts: built or read by js/server/store.js
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
#[allow(dead_code)] // declared for the .d.ts: built or read by js/server/store.js
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

/// A [`StoreError`] as the thrown JS `Error` (`name: "TaskStoreError"`, with `code`, `message`,
/// `data?` and `kind`): the one place store errors cross the boundary. The JS classes turn it
/// into an instance of their exported `TaskStoreError` class.
pub(super) fn store_error(e: &StoreError) -> JsValue {
    let rpc = e.to_jsonrpc();
    let error = js_sys::Error::new(&rpc.message);
    error.set_name("TaskStoreError");
    // Setting own data properties of a fresh Error cannot fail.
    let _ = Reflect::set(&error, &"code".into(), &JsValue::from_f64(rpc.code as f64));
    if let Ok(Value::String(kind)) = serde_json::to_value(e.kind()) {
        let _ = Reflect::set(&error, &"kind".into(), &JsValue::from_str(&kind));
    }
    if let Some(data) = rpc.data.as_ref().and_then(|d| to_js(d).ok()) {
        let _ = Reflect::set(&error, &"data".into(), &data);
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

/// The versions, as a `TypeError` names them.
const VERSIONS: &str = "\"2025-11-25\" or \"2026-07-28\"";

fn read_context(ctx: JsValue, max: usize) -> Result<TaskContext, JsValue> {
    let Some(c) = Members::of(ctx, "context")? else {
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

fn read_list(params: JsValue, max: usize) -> Result<ListParams, JsValue> {
    let Some(p) = Members::of(params, "list params")? else {
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

pub(super) fn read_message(message: JsValue, max: usize) -> Result<Option<String>, JsValue> {
    if message.is_undefined() || message.is_null() {
        return Ok(None);
    }
    within(Some(&message), "message", max)?;
    message
        .dyn_ref::<js_sys::JsString>()
        .map(|m| Some(super::input::js_text(m)))
        .ok_or_else(|| bad("the status message must be a string, null or undefined".to_string()))
}

pub(super) fn read_status(status: &JsValue) -> Result<TaskStatus, JsValue> {
    status
        .as_string()
        .as_deref()
        .and_then(TaskStatus::parse)
        .ok_or_else(|| {
            bad("the status must be one of \"working\", \"input_required\", \"completed\", \"failed\", \"cancelled\"".to_string())
        })
}

fn read_version(version: &JsValue) -> Result<ProtocolVersion, JsValue> {
    super::input::js_version(version)
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
        Unread::Bad(unread(report, what, max))
    })
}

/// The error of a JSON argument that was not read (see [`read_json`]).
fn unread(report: crate::validate::ValidationReport, what: &str, max: usize) -> JsValue {
    if report.issues.first().is_some_and(|i| i.code == "too-large") {
        return too_large(what, max);
    }
    let why = report.issues.first().map_or_else(String::new, |issue| {
        if issue.path.is_empty() {
            issue.message.clone()
        } else {
            format!("{} (at {})", issue.message, issue.path)
        }
    });
    bad(format!("invalid `{what}`: {why}"))
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

/// A JSON object argument as the JS class wrote it with `JSON.stringify` (when it could tell
/// that nothing was lost: no `null` in it, within the limit in UTF-16 units), kept as text: the
/// checks of [`read_object`] but the NaN one (size in bytes, depth, an object), no tree built.
fn read_text(text: String, what: &str, max: usize) -> Result<Payload, JsValue> {
    if text.len() > max {
        return Err(too_large(what, max));
    }
    let carried = match crate::validate::surrogates::carry(&text) {
        (std::borrow::Cow::Owned(carried), _) => Some(carried),
        (std::borrow::Cow::Borrowed(_), _) => None,
    };
    Payload::from_carried_text(carried.unwrap_or(text)).map_err(|e| match e {
        PayloadError::NotObject => bad(format!("`{what}` must be an object")),
        e => bad(format!("invalid `{what}`: {e}")),
    })
}

pub(super) fn answer<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    to_js(value).map_err(JsValue::from)
}

// ---- answers as JSON text ----------------------------------------------------------------------
//
// An answer crosses as one JSON text, which the JS classes parse once (js/server/store.js). A
// task crosses without what it repeats (`taskId`, `status`, the `v25` task): the JS class takes
// them from `v26`, whose fields are the V25 task's under their V25 names (`ttlMs` → `ttl`,
// `pollIntervalMs` → `pollInterval`).

/// The answered input responses of a record, written as a JSON object in place.
struct Answered<'a>(&'a TaskRecord);

impl Serialize for Answered<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(
            self.0
                .inputs
                .iter()
                .filter_map(|(key, entry)| match &entry.state {
                    InputState::Answered { response } => Some((key, response)),
                    _ => None,
                }),
        )
    }
}

/// A `StoreTask` as it crosses (see above).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct WireTask<'a> {
    /// The record's version: the JS class keeps the answer while the task stays at it.
    revision: u64,
    protocol_version: ProtocolVersion,
    #[serde(skip_serializing_if = "Option::is_none")]
    session: Option<&'a str>,
    expires_at_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    input_responses: Option<Answered<'a>>,
    v26: V26View<'a>,
}

impl<'a> From<&'a TaskRecord> for WireTask<'a> {
    fn from(record: &'a TaskRecord) -> Self {
        let answered = record
            .inputs
            .iter()
            .any(|(_, e)| matches!(e.state, InputState::Answered { .. }));
        WireTask {
            revision: record.version,
            protocol_version: record.protocol,
            session: record.session.as_deref(),
            expires_at_ms: record.expires_at_ms(),
            input_responses: answered.then_some(Answered(record)),
            v26: V26View(record),
        }
    }
}

/// The fields of a task a terminal write leaves as they were (see `writtenBase`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct WrittenBase<'a> {
    protocol_version: ProtocolVersion,
    #[serde(skip_serializing_if = "Option::is_none")]
    session: Option<&'a str>,
    expires_at_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    input_responses: Option<Answered<'a>>,
    created_at: String,
    ttl_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    poll_interval_ms: Option<u64>,
}

impl<'a> From<&'a TaskRecord> for WrittenBase<'a> {
    fn from(record: &'a TaskRecord) -> Self {
        let wire = WireTask::from(record);
        WrittenBase {
            protocol_version: record.protocol,
            session: wire.session,
            expires_at_ms: wire.expires_at_ms,
            input_responses: wire.input_responses,
            created_at: crate::store::record::timestamp(record.created_at_ms),
            ttl_ms: record.ttl_ms,
            poll_interval_ms: record.poll_interval_ms,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct WirePage<'a> {
    tasks: Vec<WireTask<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<String>,
}

#[derive(Serialize)]
struct WireTakeInput<'a> {
    task: WireTask<'a>,
    accepted: Vec<String>,
    ignored: Vec<String>,
}

#[derive(Serialize)]
struct WireCancel<'a> {
    task: WireTask<'a>,
    changed: bool,
}

#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum WireChange<'a> {
    Created {
        task: WireTask<'a>,
        record: &'a TaskRecord,
    },
    Updated {
        task: WireTask<'a>,
        record: &'a TaskRecord,
    },
    Deleted {
        #[serde(rename = "taskId")]
        task_id: &'a str,
        reason: DeletedBecause,
    },
}

impl<'a> From<&'a Change> for WireChange<'a> {
    fn from(change: &'a Change) -> Self {
        match change {
            Change::Created { task } => WireChange::Created {
                task: WireTask::from(task),
                record: task,
            },
            Change::Updated { task } => WireChange::Updated {
                task: WireTask::from(task),
                record: task,
            },
            Change::Deleted { id, reason } => WireChange::Deleted {
                task_id: id,
                reason: match reason {
                    DeleteReason::Expired => DeletedBecause::Expired,
                    DeleteReason::Removed => DeletedBecause::Removed,
                },
            },
        }
    }
}

/// `value` as JSON text, its carried lone surrogates written back as escapes.
pub(super) fn text<T: Serialize>(value: &T) -> Result<String, JsValue> {
    // serde_json is built without "std", so without `to_writer` (Cargo.toml).
    let out = serde_json::to_vec(value).map_err(|e| {
        JsValue::from(js_sys::Error::new(&format!(
            "internal: cannot convert the result: {e}"
        )))
    })?;
    // serde_json writes UTF-8.
    let text = String::from_utf8(out).map_err(|_| {
        JsValue::from(js_sys::Error::new(
            "internal: cannot convert the result: not UTF-8",
        ))
    })?;
    Ok(match crate::validate::surrogates::restore(&text) {
        std::borrow::Cow::Borrowed(_) => text,
        std::borrow::Cow::Owned(restored) => restored,
    })
}

/// A record as the JSON text of its `StoreTask` (see above).
pub(super) fn task_text(record: &TaskRecord) -> Result<String, JsValue> {
    text(&WireTask::from(record))
}

/// The largest integer a JS number carries exactly.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// A number argument as a non-negative integer that JS carries exactly.
fn safe_u64(x: f64) -> Option<u64> {
    (x.fract() == 0.0 && (0.0..=MAX_SAFE_INTEGER).contains(&x)).then_some(x as u64)
}

/// The time the JS class passes (Unix ms; it defaults it to `Date.now()`).
fn at(now: f64) -> Result<u64, JsValue> {
    safe_u64(now)
        .ok_or_else(|| bad("`now` must be a non-negative integer (Unix milliseconds)".to_string()))
}

/// An optional milliseconds argument (`undefined` / `null`: none).
fn opt_ms(value: Option<f64>, what: &str) -> Result<Option<u64>, JsValue> {
    value
        .map(|v| {
            safe_u64(v).ok_or_else(|| {
                bad(format!(
                    "`{what}` must be a non-negative integer (milliseconds)"
                ))
            })
        })
        .transpose()
}

/// An optional string argument (`undefined` / `null`: none) of at most `max` bytes.
fn opt_string(value: &JsValue, what: &str, max: usize) -> Result<Option<String>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    within(Some(value), what, max)?;
    value
        .as_string()
        .map(Some)
        .ok_or_else(|| bad(format!("`{what}` must be a string, null or undefined")))
}

/// The context as the JS class read it: the session (`undefined` / `null`: none), `host`, and
/// the time.
struct Who {
    session: Option<String>,
    host: bool,
    now: u64,
}

impl Who {
    fn read(session: Option<String>, host: bool, now: f64) -> Result<Who, JsValue> {
        if host && session.is_some() {
            return Err(bad(
                "invalid context: give `session` or `host: true`, not both".to_string(),
            ));
        }
        Ok(Who {
            session,
            host,
            now: at(now)?,
        })
    }

    fn caller(&self) -> Caller<'_> {
        if self.host {
            Caller::Host
        } else {
            Caller::Session(self.session.as_deref())
        }
    }
}

fn store_err(e: StoreError) -> JsValue {
    store_error(&e)
}

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

/// The writes since the last call, as the JSON text of `StoreChange[]` (tasks as they cross).
pub(super) fn changes_text(changes: &[Change]) -> Result<String, JsValue> {
    let changes: Vec<WireChange<'_>> = changes.iter().map(WireChange::from).collect();
    text(&changes)
}

// ---- the store methods of the one core class ---------------------------------------------------
//
// Every task operation takes the context as the JS class read it: `session` (absent: none),
// `host` (sees every task) and `now` (Unix ms). The JS class checks their types, `session`'s
// size and `host` with `session`; a context it cannot read goes through `checkArgument`, whose
// `TypeError` names what is wrong.

// ---- the class ---------------------------------------------------------------------------------

/// The one core class of the server entry: a task store ([`crate::store::Store`]) and the
/// request handler over it ([`crate::server::TaskServer`]). Internal: the package's `TaskStore`
/// and `TaskServer` (js/server/store.js) are thin JS classes over it, which read the context,
/// parse each answer once and keep the last answer of each task. Its store methods are here; its
/// request methods in `server.rs`.
#[wasm_bindgen]
pub struct TaskServerCore {
    pub(super) inner: crate::server::TaskServer<MemoryStorage, CryptoRandom>,
    /// What the last `complete` / `fail` / `failWithToolResult` wrote besides its revision.
    pub(super) written: Written,
}

/// What a terminal write answers besides the revision, read by the JS class from wasm memory
/// (`writtenAt()`: numbers, no call) and with `lastMessage()` instead of the task as JSON text.
#[derive(Default)]
pub(super) struct Written {
    /// Its `statusMessage`.
    message: Option<String>,
    /// Where the JS class writes the strings of a terminal write as UTF-8 (`inputAt`,
    /// `terminalInput`): no allocation per argument.
    input: Vec<u8>,
    /// `[lastUpdatedAt (Unix ms), protocol (index in protocolVersions()), expiresAtMs,
    /// createdAt (Unix ms), ttlMs, pollIntervalMs (-1: null or absent), 0 when that is all the
    /// write left unchanged (the session is the caller's, no answered input) or 1 (read
    /// `writtenBase`), the store's write count after the write (`writes()`)]`.
    fields: [f64; 8],
}

/// `Written::fields[6]`: the task's session is the caller's, and it holds no answered input.
const FIELDS_COMPLETE: f64 = 0.0;
/// `Written::fields[6]`: read the rest from `writtenBase`.
const FIELDS_PARTIAL: f64 = 1.0;

impl Written {
    /// The answer of `record` as written for a caller of `session`.
    fn of(record: &TaskRecord, session: Option<&str>) -> (u64, Written) {
        let opt = |v: Option<u64>| v.map_or(-1.0, |v| v as f64);
        let plain = record.session.as_deref() == session
            && !record
                .inputs
                .iter()
                .any(|(_, e)| matches!(e.state, InputState::Answered { .. }));
        let protocol = ProtocolVersion::ALL
            .iter()
            .position(|p| *p == record.protocol)
            .unwrap_or(0);
        let written = Written {
            message: record.status_message.clone(),
            input: Vec::new(),
            fields: [
                record.last_updated_at_ms as f64,
                protocol as f64,
                opt(record.expires_at_ms()),
                record.created_at_ms as f64,
                opt(record.ttl_ms),
                opt(record.poll_interval_ms),
                if plain {
                    FIELDS_COMPLETE
                } else {
                    FIELDS_PARTIAL
                },
                0.0, // the write count, set once written
            ],
        };
        (record.version, written)
    }
}

impl TaskServerCore {
    pub(super) fn store(&self) -> &crate::store::Store<MemoryStorage, CryptoRandom> {
        self.inner.store()
    }

    pub(super) fn store_mut(&mut self) -> &mut crate::store::Store<MemoryStorage, CryptoRandom> {
        self.inner.store_mut()
    }

    /// The largest argument accepted (`maxRequestBytes`).
    pub(super) fn max(&self) -> usize {
        request_limit(self.inner.store().config())
    }

    /// One terminal write of `payload` (a JSON object or its text, named `what`), made an action
    /// with the status message by `action`; answered by [`TaskServerCore::write_terminal`].
    /// Arguments are read in order: context, id, payload, message.
    #[allow(clippy::too_many_arguments)]
    fn terminal(
        &mut self,
        id: String,
        payload: (&JsValue, Option<String>),
        what: &str,
        message: JsValue,
        session: Option<String>,
        host: bool,
        now: f64,
        action: impl FnOnce(Payload, Option<String>) -> Result<Action, JsValue>,
    ) -> Result<f64, JsValue> {
        let max = self.max();
        let who = Who::read(session, host, now)?;
        let payload = match payload {
            (_, Some(text)) => read_text(text, what, max)?,
            (value, None) => Payload::from(read_object(value, what, max)?),
        };
        let message = read_message(message, max)?;
        self.write_terminal(&id, who.caller(), who.now, payload, message, action)
    }

    /// The write of a terminal action (`action` of the payload and the status message), answered
    /// as the new revision (negated when the status message written is not `message`: read it
    /// with `lastMessage()`), the rest kept in [`Written`].
    fn write_terminal(
        &mut self,
        id: &str,
        caller: Caller<'_>,
        now: u64,
        payload: Payload,
        message: Option<String>,
        action: impl FnOnce(Payload, Option<String>) -> Result<Action, JsValue>,
    ) -> Result<f64, JsValue> {
        let given = message.clone();
        let action = action(payload, message)?;
        let session = match caller {
            Caller::Host => None,
            Caller::Session(s) => s,
        };
        let (revision, written) = self
            .store_mut()
            .act_then(caller, id, action, now, |r| Written::of(r, session))
            .map_err(store_err)?;
        // Negative when the status message is not the one given (the core derived it).
        let derived = written.message != given;
        let mut fields = written.fields;
        if let Some(writes) = fields.get_mut(7) {
            *writes = self.store().writes() as f64;
        }
        self.written.message = written.message;
        self.written.fields = fields;
        Ok(if derived {
            -(revision as f64)
        } else {
            revision as f64
        })
    }

    /// [`TaskServerCore::terminal_input`] over the input buffer `input`.
    #[allow(clippy::too_many_arguments)]
    fn terminal_from(
        &mut self,
        input: &[u8],
        kind: u32,
        lengths: [i32; 4],
        host: bool,
        now: f64,
    ) -> Result<f64, JsValue> {
        let [id_len, session_len, text_len, message_len] = lengths;
        let mut rest = input;
        let id = take_input(&mut rest, id_len)?.unwrap_or_default();
        let session = take_input(&mut rest, session_len)?;
        let text = take_input(&mut rest, text_len)?.unwrap_or_default();
        let message = take_input(&mut rest, message_len)?.map(str::to_owned);
        if host && session.is_some() {
            return Err(bad(
                "invalid context: give `session` or `host: true`, not both".to_string(),
            ));
        }
        let now = at(now)?;
        let caller = if host {
            Caller::Host
        } else {
            Caller::Session(session)
        };
        let max = self.max();
        match kind {
            0 => {
                let result = read_text(text.to_owned(), "result", max)?;
                self.write_terminal(id, caller, now, result, message, |result, message| {
                    Ok(Action::Complete { result, message })
                })
            }
            1 => {
                let error = read_text(text.to_owned(), "error", max)?;
                self.write_terminal(id, caller, now, error, message, fail_action)
            }
            2 => {
                let result = read_text(text.to_owned(), "result", max)?;
                self.write_terminal(id, caller, now, result, message, |result, message| {
                    Ok(Action::FailWithToolResult { result, message })
                })
            }
            _ => Err(bad(
                "`kind` must be 0 (complete), 1 (fail) or 2 (failWithToolResult)".to_string(),
            )),
        }
    }
}

/// The next `len` bytes of `rest` as UTF-8 (`len` < 0: none), taken off it.
fn take_input<'a>(rest: &mut &'a [u8], len: i32) -> Result<Option<&'a str>, JsValue> {
    let Ok(len) = usize::try_from(len) else {
        return Ok(None);
    };
    let (head, tail) = rest
        .split_at_checked(len)
        .ok_or_else(|| bad("the lengths exceed the input buffer (`inputAt`)".to_string()))?;
    *rest = tail;
    std::str::from_utf8(head)
        .map(Some)
        .map_err(|_| bad("the input buffer holds no UTF-8 text there".to_string()))
}

/// The `fail` action of a JSON-RPC error payload.
fn fail_action(error: Payload, message: Option<String>) -> Result<Action, JsValue> {
    let error = error_from_json(&Value::Object(error.object()))
        .map_err(|e| bad(format!("invalid `error`: {e}")))?;
    Ok(Action::Fail { error, message })
}

/// The most bytes `inputAt` reserves (the JS class passes larger arguments as strings).
const MAX_INPUT_BYTES: u32 = 1 << 20;

#[wasm_bindgen(js_class = TaskServerCore)]
impl TaskServerCore {
    /// `maxRequestBytes` (`Infinity`: no limit).
    #[wasm_bindgen(js_name = maxRequestBytes)]
    pub fn max_request_bytes(&self) -> f64 {
        self.store()
            .config()
            .max_request_bytes
            .map_or(f64::INFINITY, |n| n as f64)
    }

    /// How many writes the store has made: answers cached at this count are current.
    pub fn writes(&self) -> f64 {
        self.store().writes() as f64
    }

    /// The revision of the stored task `id` (-1: not stored): an answer
    /// made at this revision is still the task's (the JS class checks expiry and visibility
    /// itself).
    pub fn revision(&self, id: &str) -> f64 {
        self.store().revision(id).map_or(-1.0, |v| v as f64)
    }

    /// Throws what is wrong with an argument the JS class could not read quickly: `what` is
    /// `"context"`, `"params"` (of `create`), `"list"` or `"id"` (a task id: a string within
    /// `maxRequestBytes`); returns when it is fine.
    #[wasm_bindgen(js_name = checkArgument)]
    pub fn check_argument(&self, what: JsValue, value: JsValue) -> Result<(), JsValue> {
        let max = self.max();
        match what.as_string().as_deref() {
            Some("context") => read_context(value, max).map(|_| ()),
            Some("params") => read_create(value, max).map(|_| ()),
            Some("list") => read_list(value, max).map(|_| ()),
            Some("id") => read_id(&value, max).map(|_| ()),
            _ => Err(bad(
                "`what` must be \"context\", \"params\", \"list\" or \"id\"".to_string(),
            )),
        }
    }

    /// Creates a task in `working`, bound to `session`.
    #[allow(clippy::too_many_arguments)]
    pub fn create(
        &mut self,
        protocol: JsValue,
        ttl: Option<f64>,
        poll_interval_ms: Option<f64>,
        status_message: JsValue,
        session: Option<String>,
        host: bool,
        now: f64,
    ) -> Result<String, JsValue> {
        let max = self.max();
        if host {
            return Err(bad(
                "invalid context: `create` binds the task to `session`; `host` is not allowed"
                    .to_string(),
            ));
        }
        let who = Who::read(session, false, now)?;
        let protocol = protocol
            .as_string()
            .as_deref()
            .and_then(ProtocolVersion::parse)
            .ok_or_else(|| {
                bad(format!(
                    "invalid params: `protocolVersion` must be {VERSIONS}"
                ))
            })?;
        let new = NewTask {
            protocol,
            session: who.session,
            requested_ttl_ms: opt_ms(ttl, "params.ttl")?,
            poll_interval_ms: opt_ms(poll_interval_ms, "params.pollIntervalMs")?,
            status_message: opt_string(&status_message, "params.statusMessage", max)?,
        };
        let record = self.store_mut().create(new, who.now).map_err(store_err)?;
        task_text(&record)
    }

    /// The task `id` as the caller sees it.
    pub fn get(
        &mut self,
        id: String,
        session: Option<String>,
        host: bool,
        now: f64,
    ) -> Result<String, JsValue> {
        let who = Who::read(session, host, now)?;
        let record = self
            .store_mut()
            .get(who.caller(), &id, who.now)
            .map_err(store_err)?;
        task_text(&record)
    }

    /// One page of the tasks the caller sees (`page`: `ListParams`).
    pub fn list(
        &mut self,
        page: JsValue,
        session: Option<String>,
        host: bool,
        now: f64,
    ) -> Result<String, JsValue> {
        let who = Who::read(session, host, now)?;
        let page = read_list(page, self.max())?;
        let listed = self
            .store_mut()
            .list(who.caller(), page.cursor.as_deref(), page.limit, who.now)
            .map_err(store_err)?;
        text(&WirePage {
            tasks: listed.tasks.iter().map(WireTask::from).collect(),
            next_cursor: listed.next_cursor,
        })
    }

    /// `working` ⇄ `input_required`, or a new status message.
    #[wasm_bindgen(js_name = setStatus)]
    pub fn set_status(
        &mut self,
        id: String,
        status: JsValue,
        message: JsValue,
        session: Option<String>,
        host: bool,
        now: f64,
    ) -> Result<String, JsValue> {
        let max = self.max();
        let who = Who::read(session, host, now)?;
        let status = read_status(&status)?;
        let message = read_message(message, max)?;
        let record = self
            .store_mut()
            .set_status(who.caller(), &id, status, message, who.now)
            .map_err(store_err)?;
        task_text(&record)
    }

    /// Issues V26 input requests (key → `{ method, params }`).
    #[wasm_bindgen(js_name = raiseInput)]
    pub fn raise_input(
        &mut self,
        id: String,
        requests: JsValue,
        message: JsValue,
        session: Option<String>,
        host: bool,
        now: f64,
    ) -> Result<String, JsValue> {
        let max = self.max();
        let who = Who::read(session, host, now)?;
        let requests = read_object(&requests, "inputRequests", max)?;
        let message = read_message(message, max)?;
        let record = self
            .store_mut()
            .raise_input(who.caller(), &id, requests, message, who.now)
            .map_err(store_err)?;
        task_text(&record)
    }

    /// Takes V26 input responses (key → result).
    #[wasm_bindgen(js_name = takeInput)]
    pub fn take_input(
        &mut self,
        id: String,
        responses: JsValue,
        session: Option<String>,
        host: bool,
        now: f64,
    ) -> Result<String, JsValue> {
        let max = self.max();
        let who = Who::read(session, host, now)?;
        let responses = read_object(&responses, "inputResponses", max)?;
        let taken = self
            .store_mut()
            .take_input(who.caller(), &id, responses, who.now)
            .map_err(store_err)?;
        text(&WireTakeInput {
            task: WireTask::from(&taken.task),
            accepted: taken.accepted,
            ignored: taken.ignored,
        })
    }

    /// Completes the task with the original request's result (`result`: the object; `text`: its
    /// JSON text when the JS class could write it). Answers the new revision (see `terminal`;
    /// the rest of the answer: `writtenAt`, `lastMessage()`; the JS class builds the task).
    #[allow(clippy::too_many_arguments)]
    pub fn complete(
        &mut self,
        id: String,
        result: JsValue,
        text: Option<String>,
        message: JsValue,
        session: Option<String>,
        host: bool,
        now: f64,
    ) -> Result<f64, JsValue> {
        self.terminal(
            id,
            (&result, text),
            "result",
            message,
            session,
            host,
            now,
            |result, message| Ok(Action::Complete { result, message }),
        )
    }

    /// Fails the task with a JSON-RPC error (the object, or its JSON text); answers as
    /// `complete`.
    #[allow(clippy::too_many_arguments)]
    pub fn fail(
        &mut self,
        id: String,
        error: JsValue,
        text: Option<String>,
        message: JsValue,
        session: Option<String>,
        host: bool,
        now: f64,
    ) -> Result<f64, JsValue> {
        self.terminal(
            id,
            (&error, text),
            "error",
            message,
            session,
            host,
            now,
            fail_action,
        )
    }

    /// Fails a 2025-11-25 task with its `isError: true` tool result (§D 44); answers as
    /// `complete`.
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = failWithToolResult)]
    pub fn fail_with_tool_result(
        &mut self,
        id: String,
        result: JsValue,
        text: Option<String>,
        message: JsValue,
        session: Option<String>,
        host: bool,
        now: f64,
    ) -> Result<f64, JsValue> {
        self.terminal(
            id,
            (&result, text),
            "result",
            message,
            session,
            host,
            now,
            |result, message| Ok(Action::FailWithToolResult { result, message }),
        )
    }

    /// Where the JS class writes the strings of `terminalInput`: a buffer of at least `bytes`
    /// bytes (at most 1 MiB) in wasm memory, at the same place until a larger one is asked for.
    #[wasm_bindgen(js_name = inputAt)]
    pub fn input_at(&mut self, bytes: u32) -> Result<u32, JsValue> {
        if bytes > MAX_INPUT_BYTES {
            return Err(bad(format!(
                "the input buffer holds at most {MAX_INPUT_BYTES} bytes"
            )));
        }
        let input = &mut self.written.input;
        if input.len() < bytes as usize {
            *input = vec![0; bytes as usize];
        }
        Ok(input.as_ptr() as usize as u32)
    }

    /// `complete` (`kind` 0), `fail` (1) or `failWithToolResult` (2) of the strings the JS class
    /// wrote as UTF-8 into the input buffer (`inputAt`), one after the other: the task id, the
    /// session (`sessionLen` < 0: none), the payload's JSON text and the status message
    /// (`messageLen` < 0: none); each length in bytes. Answers as `complete`.
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = terminalInput)]
    pub fn terminal_input(
        &mut self,
        kind: u32,
        id_len: i32,
        session_len: i32,
        text_len: i32,
        message_len: i32,
        host: bool,
        now: f64,
    ) -> Result<f64, JsValue> {
        let input = std::mem::take(&mut self.written.input);
        let answer = self.terminal_from(
            &input,
            kind,
            [id_len, session_len, text_len, message_len],
            host,
            now,
        );
        self.written.input = input;
        answer
    }

    /// The error a task failed by a tool result shows in its V26 view, for an empty result (the
    /// JS class puts the result in `data.toolResult`).
    #[wasm_bindgen(js_name = toolFailure)]
    pub fn tool_failure() -> Result<JsValue, JsValue> {
        answer(&crate::store::record::tool_failure_error(&JsonObject::new()))
    }

    /// What the JS class takes from its kept answer when it has none of the revision before a
    /// terminal write: the JSON text of the stored task `id` without what the write changed
    /// (`WrittenBase`), or `null` when it is not stored.
    #[wasm_bindgen(js_name = writtenBase)]
    pub fn written_base(&self, id: &str) -> Result<Option<String>, JsValue> {
        self.store()
            .storage()
            .read(id, |record| text(&WrittenBase::from(record)))
            .transpose()
    }

    /// Where in wasm memory the numbers of the last terminal write are (`Written::fields`: eight
    /// f64, at the same place for the life of this object), for a `Float64Array` over
    /// `memory()`.
    #[wasm_bindgen(js_name = writtenAt)]
    pub fn written_at(&self) -> u32 {
        self.written.fields.as_ptr() as usize as u32
    }

    /// The module's memory (for `writtenAt`).
    pub fn memory() -> JsValue {
        wasm_bindgen::memory()
    }

    /// The protocol versions, in the order `writtenAt`'s numbers name them.
    #[wasm_bindgen(js_name = protocolVersions)]
    pub fn protocol_versions() -> Vec<String> {
        ProtocolVersion::ALL
            .iter()
            .map(|p| p.as_str().to_string())
            .collect()
    }

    /// The `statusMessage` of the last terminal write (`undefined`: none), its carried lone
    /// surrogates restored (as in every answer of the task).
    #[wasm_bindgen(js_name = lastMessage)]
    pub fn last_message(&self) -> Result<JsValue, JsValue> {
        match &self.written.message {
            None => Ok(JsValue::UNDEFINED),
            Some(m) if !m.contains(crate::validate::surrogates::MARK) => Ok(JsValue::from_str(m)),
            Some(m) => super::input::parse_json_text(&text(m)?),
        }
    }

    /// What a 2025-11-25 `tasks/result` answers for the task (`ResultOf`).
    #[wasm_bindgen(js_name = resultOf)]
    pub fn result_of(
        &mut self,
        id: String,
        session: Option<String>,
        host: bool,
        now: f64,
    ) -> Result<JsValue, JsValue> {
        let who = Who::read(session, host, now)?;
        let outcome = crate::server::result_outcome(self.store_mut(), who.caller(), &id, who.now)
            .map_err(store_err)?;
        answer(&match outcome {
            crate::server::ResultOutcome::Pending => ResultOf::Pending,
            crate::server::ResultOutcome::Result(result) => ResultOf::Result { result },
            crate::server::ResultOutcome::Error(error) => ResultOf::Error { error },
        })
    }

    /// Cancels the task; `protocol` is that of the cancel request.
    #[allow(clippy::too_many_arguments)]
    pub fn cancel(
        &mut self,
        id: String,
        protocol: JsValue,
        message: JsValue,
        session: Option<String>,
        host: bool,
        now: f64,
    ) -> Result<String, JsValue> {
        let max = self.max();
        let who = Who::read(session, host, now)?;
        let protocol = read_version(&protocol)?;
        let message = read_message(message, max)?;
        let cancelled = self
            .store_mut()
            .cancel(who.caller(), &id, protocol, message, who.now)
            .map_err(store_err)?;
        text(&WireCancel {
            task: WireTask::from(&cancelled.task),
            changed: cancelled.changed,
        })
    }

    /// Deletes the task now and answers it as it was.
    pub fn remove(
        &mut self,
        id: String,
        session: Option<String>,
        host: bool,
        now: f64,
    ) -> Result<String, JsValue> {
        let who = Who::read(session, host, now)?;
        let record = self
            .store_mut()
            .remove(who.caller(), &id, who.now)
            .map_err(store_err)?;
        task_text(&record)
    }

    /// Purges expired tasks (at most `limit`) at `now`; answers how many.
    pub fn sweep(&mut self, now: JsValue, limit: JsValue) -> Result<u32, JsValue> {
        let now = read_now(Some(now))?;
        let limit = read_limit(Some(limit))?;
        let purged = self.store_mut().sweep(now, limit);
        Ok(u32::try_from(purged).unwrap_or(u32::MAX))
    }

    /// The whole store as a JSON object (settings, cursor key, every record).
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        answer(&self.store().snapshot())
    }

    /// The writes since the last call, as the JSON text of `StoreChange[]`.
    #[wasm_bindgen(js_name = takeChanges)]
    pub fn take_changes(&mut self) -> Result<String, JsValue> {
        let changes = self.store_mut().take_changes();
        changes_text(&changes)
    }
}
