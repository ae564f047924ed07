//! `TaskServerCore`: the one wasm class of the server entry, the request handler core
//! ([`crate::server::TaskServer`]) over an in-memory store, under the JS classes `TaskStore` and
//! `TaskServer` (js/server/store.ts). This file holds the class and its request methods; the
//! store methods are in [`super::store`]. Every method converts its arguments, delegates to one
//! core operation and converts the answer; no rule lives here.
//!
//! Conventions: time is `now` (Unix ms) or `Date.now()`, randomness is
//! `crypto.getRandomValues`, a store error throws the error of [`super::store::store_error`]
//! (the JS class turns it into its `TaskStoreError`), a malformed argument throws a `TypeError`.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::server::{
    self, answer::WireFinish, Outcome, PendingResult, RequestContext, ServerContext,
    ServerDeclarations, TaskSettings, TaskSupport, ToolCallDecision, ToolCallPlan, ToolOutcome,
};

use super::input::{carried, date_now, read_now};
use super::random::crypto_random;
use super::store::{
    answer, as_u64, bad, read_id, read_json, read_json_within, read_object, read_options,
    restore_store, snapshot_value, store_error, text, too_large, within, Members, TaskServerCore,
    Unread,
};
use crate::store::record::error_from_json;
use crate::store::DEFAULT_MAX_REQUEST_BYTES;

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
        Err(Unread::TooLarge) => Ok(Err(server::rpc::too_large_request(max as u64))),
    }
}

/// A request that must be read: too large throws the `TaskStoreError` (kind `too_large`).
fn read_request_or_throw(request: &JsValue, max: usize) -> Result<Value, JsValue> {
    read_request(request, max)?.map_err(|_| too_large("request", max))
}

pub(super) fn read_server_context(
    ctx: JsValue,
    max: usize,
) -> Result<(RequestContext, u64), JsValue> {
    let c = Members::of(ctx, "context")?.ok_or_else(|| {
        bad("`ctx` is required: { protocolVersion, session?, declared?, now? }".to_string())
    })?;
    within(c.raw("session")?.as_ref(), "ctx.session", max)?;
    within(c.raw("owner")?.as_ref(), "ctx.owner", max)?;
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
    let task = match c.raw("task")? {
        None => None,
        Some(t) => match Members::of(t, "context.task")? {
            None => None,
            Some(t) => Some(TaskSettings {
                poll_interval_ms: t.ms("pollIntervalMs")?,
                default_ttl_ms: t.ms("defaultTtlMs")?,
                max_ttl_ms: t.ms("maxTtlMs")?,
            }),
        },
    };
    let context = ServerContext {
        protocol_version: c.required_version("protocolVersion")?,
        session: c.plain("session")?,
        owner: c.plain("owner")?,
        task,
        declared,
        now: c.ms("now")?,
    };
    let (context, now) = context.into_core();
    Ok((context, now.unwrap_or_else(date_now)))
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

/// The arguments of `beginToolCall` / `planToolCall`, read in order (a request too large is
/// answered before the others are read): `Err(response)` as `read_request`.
type ToolCall = (Value, RequestContext, u64, TaskSupport);
fn read_tool_call(
    request: &JsValue,
    ctx: JsValue,
    support: &JsValue,
    max: usize,
) -> Result<Result<ToolCall, Value>, JsValue> {
    let request = match read_request(request, max)? {
        Ok(request) => request,
        Err(response) => return Ok(Err(response)),
    };
    let (ctx, now) = read_server_context(ctx, max)?;
    Ok(Ok((request, ctx, now, read_support(support)?)))
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
        .text("taskId")?
        .ok_or_else(|| p.bad("taskId", "a string"))?;
    // The id the response must carry, as the JSON value it was: a string id is the string
    // itself (its lone surrogates carried), never JSON text (`"42"` is not the number 42).
    let request_id = match request_id.as_string() {
        Some(id) => Value::String(carried(&request_id, id)),
        None => read_json(&request_id, "pending.requestId", max)?,
    };
    Ok(PendingResult {
        request_id,
        task_id,
        session: p.plain("session")?,
        owner: p.plain("owner")?,
    })
}

#[wasm_bindgen]
impl TaskServerCore {
    /// A new core over an empty store (`TaskStoreOptions`).
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<TaskServerCore, JsValue> {
        let config = read_options(options)?.into_config();
        let inner = server::TaskServer::in_memory(config, crypto_random()?).map_err(store_error)?;
        Ok(TaskServerCore { inner })
    }

    /// The core a `snapshot()` describes (the object or its JSON text; `RestoreOptions`).
    pub fn restore(snapshot: JsValue, options: JsValue) -> Result<TaskServerCore, JsValue> {
        Ok(TaskServerCore {
            inner: server::TaskServer::new(restore_store(&snapshot, options)?),
        })
    }

    /// Replaces the tasks, settings and cursor key of this core by those a snapshot describes
    /// (as `restore` reads it, `RestoreOptions`), keeping its random source: one core serves
    /// operation after operation over records read from a shared storage.
    pub fn reload(&mut self, snapshot: JsValue, options: JsValue) -> Result<(), JsValue> {
        let value = snapshot_value(&snapshot, options)?;
        self.store_mut().reload(value).map_err(store_error)
    }

    /// Puts the records of `tasks` (the JSON text of an array of stored records, read as
    /// `restore` reads a snapshot's `tasks`) into this core, each in place of the record of its
    /// id, keeping the others, the settings and the cursor key: a shared server's core loads only
    /// the record it does not hold at the revision it read.
    pub fn load(&mut self, tasks: JsValue, options: JsValue) -> Result<(), JsValue> {
        let value = snapshot_value(&tasks, options)?;
        self.store_mut().load(value).map_err(store_error)
    }

    /// Answers one incoming message (`HandleOutcome`).
    pub fn handle(&mut self, request: JsValue, ctx: JsValue) -> Result<JsValue, JsValue> {
        let max = self.max();
        let request = match read_request(&request, max)? {
            Ok(request) => request,
            Err(message) => return answer(&Outcome::reply(message)),
        };
        let (ctx, now) = read_server_context(ctx, max)?;
        answer(&self.inner.handle(&request, &ctx, now))
    }

    /// The response to a pending V25 `tasks/result`, `null` while its task is live.
    pub fn settle(&mut self, pending: JsValue, now: JsValue) -> Result<JsValue, JsValue> {
        let pending = read_pending(pending, self.max())?;
        let now = read_now(Some(now))?;
        match self.inner.settle(&pending, now) {
            Some(message) => answer(&message),
            None => Ok(JsValue::NULL),
        }
    }

    /// How to answer a `tools/call` (`ToolCallStart`).
    #[wasm_bindgen(js_name = beginToolCall)]
    pub fn begin_tool_call(
        &mut self,
        request: JsValue,
        ctx: JsValue,
        task_support: JsValue,
    ) -> Result<JsValue, JsValue> {
        match read_tool_call(&request, ctx, &task_support, self.max())? {
            Ok((request, ctx, now, support)) => {
                answer(&self.inner.begin_tool_call(&request, &ctx, support, now))
            }
            Err(response) => answer(&ToolCallDecision::Reject { response }),
        }
    }

    /// What `beginToolCall` would decide, creating nothing (`ToolCallPlanned`).
    #[wasm_bindgen(js_name = planToolCall)]
    pub fn plan_tool_call(
        &self,
        request: JsValue,
        ctx: JsValue,
        task_support: JsValue,
    ) -> Result<JsValue, JsValue> {
        match read_tool_call(&request, ctx, &task_support, self.max())? {
            Ok((request, ctx, _, support)) => {
                answer(&self.inner.plan_tool_call(&request, &ctx, support))
            }
            Err(response) => answer(&ToolCallPlan::Reject { response }),
        }
    }

    /// Stores how the tool of a task ended, as the JSON text of `FinishOutcome` (the task as it
    /// crosses).
    #[wasm_bindgen(js_name = finishToolCall)]
    pub fn finish_tool_call(
        &mut self,
        task_id: JsValue,
        outcome: JsValue,
        now: JsValue,
    ) -> Result<String, JsValue> {
        let max = self.max();
        let task_id = read_id(&task_id, max)?;
        let outcome = read_tool_outcome(outcome, max)?;
        let now = read_now(Some(now))?;
        let finished = self
            .inner
            .finish_tool_call(&task_id, outcome, now)
            .map_err(store_error)?;
        text(&WireFinish::from(&finished))
    }

    /// The synchronous answer to a `tools/call` that ran to `outcome`.
    #[wasm_bindgen(js_name = syncToolResponse)]
    pub fn sync_tool_response(
        &self,
        request: JsValue,
        ctx: JsValue,
        outcome: JsValue,
    ) -> Result<JsValue, JsValue> {
        let max = self.max();
        let request = read_request_or_throw(&request, max)?;
        let (ctx, _) = read_server_context(ctx, max)?;
        let outcome = read_tool_outcome(outcome, max)?;
        answer(&server::sync_tool_response(&request, &ctx, outcome))
    }

    /// §D 98: throws unless every input request needs only client capabilities that `request`
    /// declared in its own `_meta`.
    #[wasm_bindgen(js_name = checkInputRequests)]
    pub fn check_input_requests(request: JsValue, input_requests: JsValue) -> Result<(), JsValue> {
        let max = usize::try_from(DEFAULT_MAX_REQUEST_BYTES).unwrap_or(usize::MAX);
        let request = read_request_or_throw(&request, max)?;
        let input_requests = read_object(&input_requests, "inputRequests", max)?;
        server::check_input_capabilities(&request, &input_requests).map_err(store_error)
    }
}
