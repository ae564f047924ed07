//! The store methods of the one core class, `TaskServerCore` (declared here),
//! over the task store core ([`crate::store`]); the argument and answer types of the JS
//! `TaskStore` / `TaskServer` (js/server/store.ts), declared once here for the .d.ts; the one
//! conversion of a [`StoreError`] into the thrown JS error. Every method converts its arguments,
//! delegates to one core operation and answers JSON text in the declared shapes
//! ([`crate::store::answer`]), parsed once by the JS class; no rule lives here.
//!
//! Argument convention: the operation's own arguments first, then the context as the JS class
//! read it (`session`, `host`, `now`); the JS class checks ids and sessions, which cross as plain
//! strings. Randomness is `crypto.getRandomValues` ([`CryptoRandom`]).

use js_sys::Reflect;
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::model::common::JsonObject;
use crate::model::TaskStatus;
use crate::store::answer::{self, WirePage};
use crate::store::options::{
    request_limit, CreateTaskParams, ListParams, RestoreOptions, TaskContext, TaskStoreOptions,
};
use crate::store::rules::Action;
use crate::store::{Caller, Change, MemoryStorage, NewTask, Store, StoreError, TaskRecord};
use crate::store::{Payload, PayloadError};

use super::input::{
    js_to_json, now_ms, read_limit, read_now, read_version, safe_u64, to_js, too_large_input,
    why_not_read,
};
use super::random::{crypto_random, CryptoRandom};
use crate::store::record::error_from_json;

/// A [`StoreError`] as the thrown JS `Error` (`name: "TaskStoreError"`, with `code`, `message`,
/// `data?` and `kind`): the one place store errors cross the boundary. The JS classes turn it
/// into an instance of their exported `TaskStoreError` class.
pub(super) fn store_error(e: StoreError) -> JsValue {
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

fn read_context(ctx: JsValue, max: usize) -> Result<TaskContext, JsValue> {
    let Some(c) = Members::of(ctx, "context")? else {
        return Ok(TaskContext::default());
    };
    within(c.raw("session")?.as_ref(), "context.session", max)?;
    let context = TaskContext {
        session: c.plain("session")?,
        host: c.boolean("host")?,
        now: c.ms("now")?,
    };
    one_of(context.session.as_ref(), context.host == Some(true))?;
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
    store_error(StoreError::TooLarge {
        argument: what.to_string(),
        option: "maxRequestBytes",
        limit: max as u64,
    })
}

pub(super) fn read_id(id: &JsValue, max: usize) -> Result<String, JsValue> {
    within(Some(id), "taskId", max)?;
    // No exactness check: the store's ids are 32 lowercase hex digits, so an id that would not
    // cross exactly (a lone surrogate becomes U+FFFD) names no task either way.
    id.as_string()
        .ok_or_else(|| bad("the task id must be a string".to_string()))
}

pub(super) fn read_message(message: JsValue, max: usize) -> Result<Option<String>, JsValue> {
    opt_text(&message, "message", "the status message", max)
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
        if too_large_input(&report) {
            return Unread::TooLarge;
        }
        Unread::Bad(unread(report, what))
    })
}

/// The error of a JSON argument that was not read (see [`read_json`]).
fn unread(report: crate::validate::ValidationReport, what: &str) -> JsValue {
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

/// `value` as JSON text ([`answer::json_text`]), for the JS class to parse once.
pub(super) fn text<T: Serialize>(value: &T) -> Result<String, JsValue> {
    answer::json_text(value).map_err(internal)
}

/// A serialization the core could not make (never for its own types): an `Error`.
pub(super) fn internal(e: serde_json::Error) -> JsValue {
    js_sys::Error::new(&format!("internal: cannot convert the result: {e}")).into()
}

/// A record as the JSON text of its `StoreTask` ([`answer::task_text`]).
pub(super) fn task_text(record: &TaskRecord) -> Result<String, JsValue> {
    answer::task_text(record).map_err(internal)
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

/// An optional text argument (`undefined` / `null`: none) of at most `max` bytes, named `what`
/// in the limit's error and `called` in the type's; its lone surrogates are kept
/// ([`super::input::carried`]), as they are in any string of a JSON argument.
fn opt_text(
    value: &JsValue,
    what: &str,
    called: &str,
    max: usize,
) -> Result<Option<String>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    within(Some(value), what, max)?;
    value
        .as_string()
        .map(|text| Some(super::input::carried(value, text)))
        .ok_or_else(|| bad(format!("{called} must be a string, null or undefined")))
}

/// A context names a session or the host, not both.
fn one_of(session: Option<&impl AsRef<str>>, host: bool) -> Result<(), JsValue> {
    if host && session.is_some() {
        return Err(bad(
            "invalid context: give `session` or `host: true`, not both".to_string(),
        ));
    }
    Ok(())
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
        one_of(session.as_ref(), host)?;
        Ok(Who {
            session,
            host,
            now: now_ms(now)?,
        })
    }

    /// Runs one store operation of `core` as this caller at this time; a store error is thrown.
    fn run<T>(
        &self,
        core: &mut TaskServerCore,
        op: impl FnOnce(
            &mut Store<MemoryStorage, CryptoRandom>,
            Caller<'_>,
            u64,
        ) -> Result<T, StoreError>,
    ) -> Result<T, JsValue> {
        op(core.store_mut(), self.caller(), self.now).map_err(store_error)
    }

    fn caller(&self) -> Caller<'_> {
        if self.host {
            Caller::Host
        } else {
            Caller::Session(self.session.as_deref())
        }
    }
}

/// The store a snapshot (an object or its JSON text) describes, for `TaskStore.restore` and
/// `TaskServer.restore`.
pub(crate) fn restore_store(
    snapshot: &JsValue,
    options: JsValue,
) -> Result<Store<MemoryStorage, CryptoRandom>, JsValue> {
    let value = snapshot_value(snapshot, options)?;
    Store::restore(value, crypto_random()?).map_err(store_error)
}

/// A snapshot (an object or its JSON text) read as JSON within `RestoreOptions`'
/// `maxSnapshotBytes`, for `restore` and `reload`.
pub(crate) fn snapshot_value(snapshot: &JsValue, options: JsValue) -> Result<Value, JsValue> {
    if !snapshot.is_object() && !snapshot.is_string() {
        return Err(bad(
            "`snapshot` must be an object or its JSON text".to_string()
        ));
    }
    let options = match Members::of(options, "restore options")? {
        None => RestoreOptions::default(),
        Some(o) => RestoreOptions {
            max_snapshot_bytes: o.nullable(
                "maxSnapshotBytes",
                "a non-negative integer (bytes of UTF-8) or null",
                as_u64,
            )?,
        },
    };
    let max = options.snapshot_limit();
    // Text that is not JSON is a snapshot that cannot be restored, like a malformed one.
    let value = js_to_json(snapshot, max).map_err(|report| {
        if too_large_input(&report) {
            return store_error(StoreError::TooLarge {
                argument: "snapshot".to_string(),
                option: "maxSnapshotBytes",
                limit: max as u64,
            });
        }
        store_error(StoreError::InvalidSnapshot {
            reason: why_not_read(&report),
        })
    })?;
    Ok(value)
}

/// The writes since the last call, as the JSON text of `StoreChange[]` ([`answer::changes_text`]).
pub(super) fn changes_text(changes: &[Change]) -> Result<String, JsValue> {
    answer::changes_text(changes).map_err(internal)
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
/// and `TaskServer` (js/server/store.ts) are thin JS classes over it, which read the context,
/// parse each answer once and keep the last answer of each task. Its store methods are here; its
/// request methods in `server.rs`.
#[wasm_bindgen]
pub struct TaskServerCore {
    pub(super) inner: crate::server::TaskServer<MemoryStorage, CryptoRandom>,
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

    /// The write of a terminal action (`action` of the payload and the status message),
    /// answered as [`answer::written_text`] (`bare`: without the payload the caller holds).
    #[allow(clippy::too_many_arguments)]
    fn write_terminal(
        &mut self,
        id: &str,
        caller: Caller<'_>,
        now: u64,
        payload: Payload,
        message: Option<String>,
        action: MakeAction,
        bare: bool,
    ) -> Result<String, JsValue> {
        let action = action(payload, message)?;
        self.store_mut()
            .act_then(caller, id, action, now, |r| answer::written_text(r, bare))
            .map_err(store_error)?
            .map_err(internal)
    }
}

/// A terminal write's action and what its payload is called: `kind` 0 `complete`, 1 `fail`,
/// 2 `failWithToolResult`.
type MakeAction = fn(Payload, Option<String>) -> Result<Action, JsValue>;
fn terminal_kind(kind: u32) -> Result<(&'static str, MakeAction), JsValue> {
    let action: (&str, MakeAction) = match kind {
        0 => ("result", |result, message| {
            Ok(Action::Complete { result, message })
        }),
        1 => ("error", fail_action),
        2 => ("result", |result, message| {
            Ok(Action::FailWithToolResult { result, message })
        }),
        _ => {
            return Err(bad(
                "`kind` must be 0 (complete), 1 (fail) or 2 (failWithToolResult)".to_string(),
            ))
        }
    };
    Ok(action)
}

/// The `fail` action of a JSON-RPC error payload.
fn fail_action(error: Payload, message: Option<String>) -> Result<Action, JsValue> {
    let error = error_from_json(&Value::Object(error.object()))
        .map_err(|e| bad(format!("invalid `error`: {e}")))?;
    Ok(Action::Fail { error, message })
}

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
        let protocol = read_version(&protocol, "invalid params: `protocolVersion`")?;
        let new = NewTask {
            protocol,
            session: who.session,
            requested_ttl_ms: opt_ms(ttl, "params.ttl")?,
            poll_interval_ms: opt_ms(poll_interval_ms, "params.pollIntervalMs")?,
            status_message: opt_text(
                &status_message,
                "params.statusMessage",
                "`params.statusMessage`",
                max,
            )?,
            ..NewTask::new(protocol)
        };
        let record = self.store_mut().create(new, who.now).map_err(store_error)?;
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
        let record = who.run(self, |s, c, now| s.get(c, &id, now))?;
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
        let listed = who.run(self, |s, c, now| {
            s.list(c, page.cursor.as_deref(), page.limit, now)
        })?;
        text(&WirePage::from(&listed))
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
        let record = who.run(self, |s, c, now| s.set_status(c, &id, status, message, now))?;
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
        let record = who.run(self, |s, c, now| {
            s.raise_input(c, &id, requests, message, now)
        })?;
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
        let taken = who.run(self, |s, c, now| s.take_input(c, &id, responses, now))?;
        answer::taken_text(&taken).map_err(internal)
    }

    /// `complete` (`kind` 0), `fail` (1) or `failWithToolResult` (2, §D 44) of `payload` (the
    /// result or JSON-RPC error object; `text`: its JSON text when the JS class could write it).
    /// Answers the task as `get` does (`{ revision, answer }`); with `bare` (the JS class holds
    /// a copy of the payload) without a payload kept as given, `payloadAt` naming where it goes.
    #[allow(clippy::too_many_arguments)]
    pub fn terminal(
        &mut self,
        kind: u32,
        id: String,
        payload: JsValue,
        text: Option<String>,
        bare: bool,
        message: JsValue,
        session: Option<String>,
        host: bool,
        now: f64,
    ) -> Result<String, JsValue> {
        let (what, action) = terminal_kind(kind)?;
        let max = self.max();
        let who = Who::read(session, host, now)?;
        let payload = match text {
            Some(text) => read_text(text, what, max)?,
            None => Payload::from(read_object(&payload, what, max)?),
        };
        let message = read_message(message, max)?;
        self.write_terminal(&id, who.caller(), who.now, payload, message, action, bare)
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
        let outcome = who.run(self, |s, c, now| {
            crate::server::result_outcome(s, c, &id, now)
        })?;
        answer(&outcome)
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
        let protocol = read_version(&protocol, "the protocol version")?;
        let message = read_message(message, max)?;
        let cancelled = who.run(self, |s, c, now| s.cancel(c, &id, protocol, message, now))?;
        answer::cancelled_text(&cancelled).map_err(internal)
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
        let record = who.run(self, |s, c, now| s.remove(c, &id, now))?;
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

    /// The writes since the last call, records only ([`answer::stored_changes_text`]): what the
    /// shared server stores.
    #[wasm_bindgen(js_name = takeStoredChanges)]
    pub fn take_stored_changes(&mut self) -> Result<String, JsValue> {
        let changes = self.store_mut().take_changes();
        answer::stored_changes_text(&changes).map_err(internal)
    }
}
