//! `TaskServer`: the request handler core ([`crate::server::TaskServer`]) exported to JS as a
//! class over an in-memory store. Every method converts its arguments, delegates to one core
//! operation and converts the answer; no rule lives here.
//!
//! Conventions are `TaskStore`'s ([`super::store`]): the same options, time is `now` (Unix ms)
//! or `Date.now()`, randomness is `crypto.getRandomValues`, a store error throws the
//! `TaskStoreError`, a malformed argument throws a `TypeError`.

use serde::Serialize;
use serde_json::Value;
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;

use crate::model::common::JsonObject;
use crate::model::v2026::V26InputRequests;
use crate::model::{ProtocolVersion, TaskStatus};
use crate::server::{
    self, Finished, Outcome, PendingResult, RequestContext, TaskEvent, TaskSupport,
    ToolCallDecision, ToolCallPlan, ToolOutcome, V25Declared,
};
use crate::store::{Caller, MemoryStorage};

use super::input::{date_now, read_limit, read_now};
use super::random::CryptoRandom;
use super::store::{
    answer, as_u64, bad, changes_to_js, read_id, read_json, read_json_within, read_message,
    read_object, read_options, read_status, request_limit, restore_store, store_error, task,
    too_large, within, Members, RestoreOptions, StoreTask, TaskStoreOptions, Unread,
};
use crate::store::record::error_from_json;
use crate::store::{StoreError, DEFAULT_MAX_REQUEST_BYTES};

// ---- argument types (generated into the .d.ts; read member by member) -------------------------

/// What a V25 server declared in its `InitializeResult` (`capabilities.tasks`). Given, a member
/// left out counts as not declared; the whole object left out declares everything.
#[derive(Debug, Default, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ServerDeclarations {
    /// `capabilities.tasks.list` (else `tasks/list` answers -32601).
    #[tsify(optional)]
    pub list: Option<bool>,
    /// `capabilities.tasks.cancel` (else `tasks/cancel` answers -32601).
    #[tsify(optional)]
    pub cancel: Option<bool>,
    /// `capabilities.tasks.requests.tools.call` (else `params.task` is ignored).
    #[tsify(optional)]
    pub tool_calls: Option<bool>,
}

/// The context of one request: the second argument of `handle`, `beginToolCall` and
/// `syncToolResponse`.
#[derive(Debug, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ServerContext {
    /// The version the request is served under: the one negotiated at `initialize` (V25) or the
    /// one the request's own `_meta` names (V26).
    pub protocol_version: ProtocolVersion,
    /// The session (authorization context) of the request; absent or `null`: none.
    #[tsify(optional, type = "string | null")]
    pub session: Option<String>,
    /// V25 only: what the server declared (default: everything).
    #[tsify(optional)]
    pub declared: Option<ServerDeclarations>,
    /// The current time in Unix milliseconds (default `Date.now()`).
    #[tsify(optional)]
    pub now: Option<u64>,
}

// ---- answer types ------------------------------------------------------------------------------

/// What changed while a request was handled.
#[derive(Debug, Serialize, Tsify)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ServerTaskEvent {
    /// A `tasks/cancel` moved the task to `cancelled`: stop its work and `settle` the pending
    /// V25 `tasks/result` requests waiting on it.
    Cancelled {
        #[serde(rename = "taskId")]
        task_id: String,
    },
    /// A `tasks/update` answered input requests (keys `accepted`): wake the work waiting for
    /// them.
    InputTaken {
        #[serde(rename = "taskId")]
        task_id: String,
        accepted: Vec<String>,
    },
}

/// The answer of `handle`.
#[derive(Debug, Serialize, Tsify)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum HandleOutcome {
    /// Send `message` (a complete JSON-RPC response); `event`: what changed, if anything.
    Response {
        #[tsify(type = "Record<string, unknown>")]
        message: Value,
        #[tsify(optional)]
        #[serde(skip_serializing_if = "Option::is_none")]
        event: Option<ServerTaskEvent>,
    },
    /// A V25 `tasks/result` on a live task: answer it later with `settle`.
    Pending {
        #[serde(rename = "requestId")]
        #[tsify(type = "string | number")]
        request_id: Value,
        #[serde(rename = "taskId")]
        task_id: String,
        #[tsify(optional)]
        #[serde(skip_serializing_if = "Option::is_none")]
        session: Option<String>,
    },
    /// A `tasks/*` notification: nothing to answer.
    None,
    /// Not a `tasks/*` request: the host handles it (`tools/call` through `beginToolCall`).
    NotHandled,
}

/// The answer of `beginToolCall`.
#[derive(Debug, Serialize, Tsify)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ToolCallStart {
    /// Run the tool and answer with `syncToolResponse`.
    Sync,
    /// The task is stored: send `response` (the `CreateTaskResult`), run the tool, then call
    /// `finishToolCall(taskId, outcome)`.
    Task {
        #[serde(rename = "taskId")]
        task_id: String,
        #[tsify(type = "Record<string, unknown>")]
        response: Value,
    },
    /// Send `response` (an error); do not run the tool.
    Reject {
        #[tsify(type = "Record<string, unknown>")]
        response: Value,
    },
}

/// The answer of `planToolCall`: what `beginToolCall` would decide, nothing created.
#[derive(Debug, Serialize, Tsify)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ToolCallPlanned {
    /// It would run synchronously.
    Sync,
    /// It would become a task.
    Task,
    /// It would be refused with `response` (an error).
    Reject {
        #[tsify(type = "Record<string, unknown>")]
        response: Value,
    },
}

/// The answer of `finishToolCall`.
#[derive(Debug, Serialize, Tsify)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum FinishOutcome {
    /// The outcome is stored; `task` is terminal now.
    Stored { task: Box<StoreTask> },
    /// The task was already terminal (typically cancelled first): the outcome is discarded.
    AlreadyTerminal { status: TaskStatus },
    /// The task is gone (expired or removed).
    Gone,
}

// ---- reading arguments -------------------------------------------------------------------------

/// A request: `Ok(Err(response))` when it is larger than `max` bytes (refused before any copy
/// into wasm memory), where `response` is the JSON-RPC error -32600 to send (id `null`: the id
/// of a request that was not read is unknown).
fn read_request(request: &JsValue, max: usize) -> Result<Result<Value, Value>, JsValue> {
    if request.is_undefined() || request.is_null() {
        return Err(bad(
            "`request` must be a JSON-RPC message (an object or its JSON text)".to_string(),
        ));
    }
    match read_json_within(request, "request", max) {
        Ok(value) => Ok(Ok(value)),
        Err(Unread::Bad(e)) => Err(e),
        Err(Unread::TooLarge) => {
            let mut error = StoreError::TooLarge {
                argument: "request".to_string(),
                option: "maxRequestBytes",
                limit: max as u64,
            }
            .to_jsonrpc();
            error.code = server::rpc::INVALID_REQUEST;
            error.message = format!("Invalid Request: {}", error.message);
            Ok(Err(server::rpc::failure(None, &error)))
        }
    }
}

/// A request that must be read: too large throws the `TaskStoreError` (kind `too_large`).
fn read_request_or_throw(request: &JsValue, max: usize) -> Result<Value, JsValue> {
    read_request(request, max)?.map_err(|_| too_large("request", max))
}

fn read_server_context(ctx: JsValue, max: usize) -> Result<(RequestContext, u64), JsValue> {
    let c = Members::of(ctx, "context")?.ok_or_else(|| {
        bad("`ctx` is required: { protocolVersion, session?, declared?, now? }".to_string())
    })?;
    within(c.raw("session")?.as_ref(), "ctx.session", max)?;
    let declared = match c.raw("declared")? {
        None => None,
        Some(d) => match Members::of(d, "context.declared")? {
            None => None,
            Some(d) => Some(ServerDeclarations {
                list: d.boolean("list")?,
                cancel: d.boolean("cancel")?,
                tool_calls: d.boolean("toolCalls")?,
            }),
        },
    };
    let context = ServerContext {
        protocol_version: c.required_version("protocolVersion")?,
        session: c.string("session")?,
        declared,
        now: c.ms("now")?,
    };
    Ok(context.into_core())
}

impl ServerContext {
    /// The core's context and the time.
    fn into_core(self) -> (RequestContext, u64) {
        let declared = self.declared.map_or(V25Declared::ALL, |d| V25Declared {
            list: d.list.unwrap_or(false),
            cancel: d.cancel.unwrap_or(false),
            tool_calls: d.tool_calls.unwrap_or(false),
        });
        let context = RequestContext {
            version: self.protocol_version,
            session: self.session,
            declared,
        };
        (context, self.now.unwrap_or_else(date_now))
    }
}

fn read_support(support: &JsValue) -> Result<TaskSupport, JsValue> {
    support
        .as_string()
        .as_deref()
        .and_then(TaskSupport::parse)
        .ok_or_else(|| {
            bad("`taskSupport` must be \"forbidden\", \"optional\" or \"required\"".to_string())
        })
}

/// `{ result }` or `{ error: { code, message, data? } }`.
fn read_tool_outcome(outcome: JsValue, max: usize) -> Result<ToolOutcome, JsValue> {
    let expected = "`outcome` must be { result } or { error: { code, message, data? } }";
    let o = Members::of(outcome, "outcome")?.ok_or_else(|| bad(expected.to_string()))?;
    match (o.raw("result")?, o.raw("error")?) {
        (Some(result), None) => Ok(ToolOutcome::Result(read_json(
            &result,
            "outcome.result",
            max,
        )?)),
        (None, Some(error)) => {
            let error = read_object(&error, "outcome.error", max)?;
            let error = error_from_json(&Value::Object(error))
                .map_err(|e| bad(format!("invalid `outcome.error`: {e}")))?;
            Ok(ToolOutcome::RpcError {
                code: error.code,
                message: error.message,
                data: error.data,
            })
        }
        _ => Err(bad(expected.to_string())),
    }
}

fn read_pending(pending: JsValue, max: usize) -> Result<PendingResult, JsValue> {
    let p = Members::of(pending, "pending")?.ok_or_else(|| {
        bad(
            "`pending` must be the { kind: \"pending\", requestId, taskId } of `handle`"
                .to_string(),
        )
    })?;
    within(p.raw("requestId")?.as_ref(), "pending.requestId", max)?;
    within(p.raw("taskId")?.as_ref(), "pending.taskId", max)?;
    within(p.raw("session")?.as_ref(), "pending.session", max)?;
    let request_id = p
        .raw("requestId")?
        .filter(|v| {
            v.is_string() || as_u64(v).is_some() || v.as_f64().is_some_and(|f| f.fract() == 0.0)
        })
        .ok_or_else(|| p.bad("requestId", "a string or an integer"))?;
    let task_id = p
        .string("taskId")?
        .ok_or_else(|| p.bad("taskId", "a string"))?;
    Ok(PendingResult {
        request_id: read_json(&request_id, "pending.requestId", max)?,
        task_id,
        session: p.string("session")?,
    })
}

fn outcome_to_js(outcome: Outcome) -> HandleOutcome {
    match outcome {
        Outcome::Response { message, event } => HandleOutcome::Response {
            message,
            event: event.map(|e| match e {
                TaskEvent::Cancelled { task_id } => ServerTaskEvent::Cancelled { task_id },
                TaskEvent::InputTaken { task_id, accepted } => {
                    ServerTaskEvent::InputTaken { task_id, accepted }
                }
            }),
        },
        Outcome::Pending(p) => HandleOutcome::Pending {
            request_id: p.request_id,
            task_id: p.task_id,
            session: p.session,
        },
        Outcome::NoResponse => HandleOutcome::None,
        Outcome::NotHandled => HandleOutcome::NotHandled,
    }
}

// ---- the class ---------------------------------------------------------------------------------

/// An MCP task server for both protocol versions (2025-11-25 and 2026-07-28) over an in-memory
/// store: it answers `tasks/*` requests with exact JSON-RPC responses and turns `tools/call`
/// into tasks. It does no I/O and runs no tools: the host routes messages, runs the work and
/// reports how it ended.
///
/// - `handle(request, ctx)`: every incoming request. `{ kind: "response", message, event? }`:
///   send `message`; `event` says a task was cancelled or took input. `{ kind: "not-handled" }`:
///   not a `tasks/*` request, route it yourself (a `tools/call` to `beginToolCall`).
/// - `beginToolCall(request, ctx, taskSupport)`: `sync` (run the tool, answer with
///   `syncToolResponse`), `task` (send `response`, run the tool, then
///   `finishToolCall(taskId, { result } | { error })`) or `reject` (send `response`).
/// - A V25 `tasks/result` on a live task blocks: `handle` answers `{ kind: "pending", … }`. The
///   host keeps these pending results and calls `settle(pending)` after every `finishToolCall`
///   and every `cancelled` event of that task (and after sweeps: a purged task settles with
///   -32602); `settle` answers the response to send, or `null` while the task is live.
///
/// `ctx` is `{ protocolVersion, session?, declared?, now? }` (`ServerContext`); the host methods
/// (`getTask`, `setStatus`, `raiseInput`, `sweep`) act as the host, which sees every task. Time
/// is `now` (Unix ms) or `Date.now()`. A store error throws the `TaskStoreError`
/// (`{ code, message, data?, kind }`); a malformed argument throws a `TypeError`.
#[wasm_bindgen(js_name = TaskServer)]
pub struct TaskServer {
    inner: server::TaskServer<MemoryStorage, CryptoRandom>,
}

#[wasm_bindgen(js_class = TaskServer)]
impl TaskServer {
    /// A new server over an empty store (the options of `TaskStore`). Throws when `options` is
    /// malformed or the runtime has no `crypto.getRandomValues`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<Ts<TaskStoreOptions>>) -> Result<TaskServer, JsValue> {
        let config = read_options(options.map_or(JsValue::UNDEFINED, JsValue::from))?.into_config();
        let inner = server::TaskServer::in_memory(config, CryptoRandom::new()?)
            .map_err(|e| store_error(&e))?;
        Ok(TaskServer { inner })
    }

    /// The server a `snapshot()` describes (its store: every task, the settings and the cursor
    /// key), e.g. after a restart. Throws like `TaskStore.restore`.
    /// `options.maxSnapshotBytes` as in `TaskStore.restore`.
    pub fn restore(
        #[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")]
        snapshot: JsValue,
        options: Option<Ts<RestoreOptions>>,
    ) -> Result<TaskServer, JsValue> {
        Ok(TaskServer {
            inner: server::TaskServer::new(restore_store(
                &snapshot,
                options.map_or(JsValue::UNDEFINED, JsValue::from),
            )?),
        })
    }

    /// The largest argument accepted (`maxRequestBytes`).
    fn max(&self) -> usize {
        request_limit(self.inner.store().config())
    }

    /// The whole store as a JSON object, for `TaskServer.restore` (or `TaskStore.restore`). It
    /// holds the cursor key: keep it private.
    #[wasm_bindgen(unchecked_return_type = "Record<string, unknown>")]
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        answer(&self.inner.store().snapshot())
    }

    /// The store's writes since the last call, oldest first (empty unless the options set
    /// `recordChanges`): persist them to keep a durable copy between snapshots.
    #[wasm_bindgen(js_name = takeChanges, unchecked_return_type = "StoreChange[]")]
    pub fn take_changes(&mut self) -> Result<JsValue, JsValue> {
        changes_to_js(self.inner.store_mut().take_changes())
    }

    /// Answers one incoming message (an object or its JSON text). A message larger than
    /// `maxRequestBytes` is refused before it is copied into wasm memory: the response is a
    /// JSON-RPC error -32600 with `id: null` and `data: { maxRequestBytes }`.
    #[wasm_bindgen(unchecked_return_type = "HandleOutcome")]
    pub fn handle(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")] request: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ServerContext")] ctx: JsValue,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let request = match read_request(&request, max)? {
            Ok(request) => request,
            Err(message) => {
                return answer(&HandleOutcome::Response {
                    message,
                    event: None,
                })
            }
        };
        let (ctx, now) = read_server_context(ctx, max)?;
        answer(&outcome_to_js(self.inner.handle(&request, &ctx, now)))
    }

    /// The response to a pending V25 `tasks/result` (the `pending` outcome of `handle`): `null`
    /// while its task is live; the original result (with related-task `_meta`) or error once it
    /// is terminal; -32602 once it is gone.
    #[wasm_bindgen(unchecked_return_type = "Record<string, unknown> | null")]
    pub fn settle(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Extract<HandleOutcome, { kind: \"pending\" }>")]
        pending: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] now: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let pending = read_pending(pending, self.max())?;
        let now = read_now(now)?;
        match self.inner.settle(&pending, now) {
            Some(message) => answer(&message),
            None => Ok(JsValue::NULL),
        }
    }

    /// Decides how to answer a `tools/call` of a tool with task support `taskSupport` (V25: its
    /// `execution.taskSupport`, absent = "forbidden"; V26: the server's policy for the call). A
    /// task is stored before its `CreateTaskResult` is returned. A session at its live-task cap
    /// gets a `reject` response with code -32010.
    #[wasm_bindgen(js_name = beginToolCall, unchecked_return_type = "ToolCallStart")]
    pub fn begin_tool_call(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")] request: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ServerContext")] ctx: JsValue,
        #[wasm_bindgen(
            js_name = "taskSupport",
            unchecked_param_type = "\"forbidden\" | \"optional\" | \"required\""
        )]
        task_support: JsValue,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let request = match read_request(&request, max)? {
            Ok(request) => request,
            Err(response) => return answer(&ToolCallStart::Reject { response }),
        };
        let (ctx, now) = read_server_context(ctx, max)?;
        let support = read_support(&task_support)?;
        let decision = self.inner.begin_tool_call(&request, &ctx, support, now);
        answer(&match decision {
            ToolCallDecision::Sync => ToolCallStart::Sync,
            ToolCallDecision::Task { task_id, response } => {
                ToolCallStart::Task { task_id, response }
            }
            ToolCallDecision::Reject { response } => ToolCallStart::Reject { response },
        })
    }

    /// What `beginToolCall` would decide for this request, creating nothing: `sync`, `task` or
    /// `reject` (with the error `response`). For work that must happen before a task exists
    /// (MRTR rounds, §D 83): a call that will be refused is refused before any input is asked
    /// (-32021, §D 78). `beginToolCall` decides again afterwards (and may still refuse, e.g. a
    /// session at its live-task cap).
    #[wasm_bindgen(js_name = planToolCall, unchecked_return_type = "ToolCallPlanned")]
    pub fn plan_tool_call(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")] request: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ServerContext")] ctx: JsValue,
        #[wasm_bindgen(
            js_name = "taskSupport",
            unchecked_param_type = "\"forbidden\" | \"optional\" | \"required\""
        )]
        task_support: JsValue,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let request = match read_request(&request, max)? {
            Ok(request) => request,
            Err(response) => return answer(&ToolCallPlanned::Reject { response }),
        };
        let (ctx, _) = read_server_context(ctx, max)?;
        let support = read_support(&task_support)?;
        answer(&match self.inner.plan_tool_call(&request, &ctx, support) {
            ToolCallPlan::Sync => ToolCallPlanned::Sync,
            ToolCallPlan::Task => ToolCallPlanned::Task,
            ToolCallPlan::Reject { response } => ToolCallPlanned::Reject { response },
        })
    }

    /// Stores how the tool of task `taskId` ended: `{ result }` (a `CallToolResult`) or
    /// `{ error: { code, message, data? } }` (a thrown JSON-RPC error). A V25 result with
    /// `isError: true` fails the task; V26 completes it. An already terminal task (cancelled
    /// first) keeps its outcome: `already-terminal`. Then `settle` the pending results of it.
    #[wasm_bindgen(js_name = finishToolCall, unchecked_return_type = "FinishOutcome")]
    pub fn finish_tool_call(
        &mut self,
        #[wasm_bindgen(js_name = "taskId", unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(
            unchecked_param_type = "{ result: Record<string, unknown> } | { error: JsonRpcError }"
        )]
        outcome: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] now: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let task_id = read_id(&task_id, max)?;
        let outcome = read_tool_outcome(outcome, max)?;
        let now = read_now(now)?;
        let finished = self
            .inner
            .finish_tool_call(&task_id, outcome, now)
            .map_err(|e| store_error(&e))?;
        answer(&match finished {
            Finished::Stored(record) => FinishOutcome::Stored {
                task: Box::new(StoreTask::from(record.as_ref())),
            },
            Finished::AlreadyTerminal { status } => FinishOutcome::AlreadyTerminal { status },
            Finished::Gone => FinishOutcome::Gone,
        })
    }

    /// The synchronous answer to a `tools/call` that ran to `outcome` (`{ result }` or
    /// `{ error }`): the result (V26: with `resultType: "complete"` added when absent) or the
    /// error. Uses no server state.
    #[wasm_bindgen(js_name = syncToolResponse, unchecked_return_type = "Record<string, unknown>")]
    pub fn sync_tool_response(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")] request: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ServerContext")] ctx: JsValue,
        #[wasm_bindgen(
            unchecked_param_type = "{ result: Record<string, unknown> } | { error: JsonRpcError }"
        )]
        outcome: JsValue,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let request = read_request_or_throw(&request, max)?;
        let (ctx, _) = read_server_context(ctx, max)?;
        let outcome = read_tool_outcome(outcome, max)?;
        answer(&server::sync_tool_response(&request, &ctx, outcome))
    }

    /// The task `taskId` as the host sees it (any session). Unknown, expired and purged tasks
    /// throw code -32602 (kind `not_found`).
    #[wasm_bindgen(js_name = getTask, unchecked_return_type = "StoreTask")]
    pub fn get_task(
        &mut self,
        #[wasm_bindgen(js_name = "taskId", unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] now: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let task_id = read_id(&task_id, max)?;
        let now = read_now(now)?;
        let record = self
            .inner
            .store_mut()
            .get(Caller::Host, &task_id, now)
            .map_err(|e| store_error(&e))?;
        task(&record)
    }

    /// `TaskStore.setStatus` as the host: moves a live task between `working` and
    /// `input_required` (or sets a new status message).
    #[wasm_bindgen(js_name = setStatus, unchecked_return_type = "StoreTask")]
    pub fn set_status(
        &mut self,
        #[wasm_bindgen(js_name = "taskId", unchecked_param_type = "string")] task_id: JsValue,
        status: Ts<TaskStatus>,
        #[wasm_bindgen(unchecked_optional_param_type = "string | null")] message: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] now: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let task_id = read_id(&task_id, max)?;
        let status = read_status(status)?;
        let message = read_message(message, max)?;
        let now = read_now(now)?;
        let record = self
            .inner
            .store_mut()
            .set_status(Caller::Host, &task_id, status, message, now)
            .map_err(|e| store_error(&e))?;
        task(&record)
    }

    /// §D 98: throws a `TaskStoreError` (code -32603, kind `invalid_input_request`) unless every
    /// input request (key → `{ method, params }`) needs only client capabilities that `request`
    /// (the V26 `tools/call` that created the task) declared in its own `_meta`: elicitation,
    /// sampling, roots. Call it before `raiseInput` (TaskHost does). Either argument larger than
    /// the default `maxRequestBytes` (16 MiB) throws a `TaskStoreError` (kind `too_large`).
    #[wasm_bindgen(js_name = checkInputRequests)]
    pub fn check_input_requests(
        #[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")] request: JsValue,
        #[wasm_bindgen(js_name = "inputRequests")] input_requests: Ts<V26InputRequests>,
    ) -> Result<(), JsValue> {
        let max = usize::try_from(DEFAULT_MAX_REQUEST_BYTES).unwrap_or(usize::MAX);
        let request = read_request_or_throw(&request, max)?;
        let input_requests = read_object(&input_requests.into(), "inputRequests", max)?;
        server::check_input_capabilities(&request, &input_requests).map_err(|e| store_error(&e))
    }

    /// `TaskStore.raiseInput` as the host: issues V26 input requests (key → `{ method, params }`);
    /// the task becomes `input_required`.
    #[wasm_bindgen(js_name = raiseInput, unchecked_return_type = "StoreTask")]
    pub fn raise_input(
        &mut self,
        #[wasm_bindgen(js_name = "taskId", unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(js_name = "inputRequests")] input_requests: Ts<V26InputRequests>,
        #[wasm_bindgen(unchecked_optional_param_type = "string | null")] message: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] now: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let task_id = read_id(&task_id, max)?;
        let requests: JsonObject = read_object(&input_requests.into(), "inputRequests", max)?;
        let message = read_message(message, max)?;
        let now = read_now(now)?;
        let record = self
            .inner
            .store_mut()
            .raise_input(Caller::Host, &task_id, requests, message, now)
            .map_err(|e| store_error(&e))?;
        task(&record)
    }

    /// Purges expired tasks (at most `limit`, default all) at `now`; answers how many. Pending
    /// results of purged tasks settle with -32602.
    pub fn sweep(
        &mut self,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] now: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] limit: Option<JsValue>,
    ) -> Result<u32, JsValue> {
        let now = read_now(now)?;
        let limit = read_limit(limit)?;
        let purged = self.inner.store_mut().sweep(now, limit);
        Ok(u32::try_from(purged).unwrap_or(u32::MAX))
    }
}
