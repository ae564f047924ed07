//! The request handler of both versions: `tasks/*` requests in, exact JSON-RPC
//! responses out, over a [`Store`]. Pure Rust, no `JsValue`: the JS `TaskServer` class, the
//! blocking V25 `tasks/result` promise and the HTTP server sit on top of this API.
//!
//! | module | what it holds |
//! |---|---|
//! | [`context`] | [`RequestContext`] (version, session, V25 declarations), [`request_protocol`] |
//! | [`rpc`] | the request envelope, response builders, every error object (§A.f, §B.f) |
//! | `v25` | `tasks/get`, `tasks/list`, `tasks/cancel`, `tasks/result` of 2025-11-25 |
//! | `v26` | `tasks/get`, `tasks/update`, `tasks/cancel` of 2026-07-28 (gated by the extension) |
//! | [`tools`] | answering a `tools/call`: run it, make it a task, or refuse; storing its outcome |
//! | [`answer`] | the answers as they cross to the JS classes |
//!
//! # What [`TaskServer::handle`] answers
//!
//! | request | V25 (2025-11-25) | V26 (2026-07-28) |
//! |---|---|---|
//! | `tasks/get` | flat Task | `resultType:"complete"` + DetailedTask (§D 85) |
//! | `tasks/update` | -32601 | `{resultType:"complete"}`; keys not outstanding ignored (§D 88, 89) |
//! | `tasks/cancel` | the Task, already `cancelled`; terminal task -32602 (§D 22, 23) | `{resultType:"complete"}`, also for a terminal task (§D 90, §E 4) |
//! | `tasks/result` | the original result with related-task `_meta` (also for a task failed by an `isError` tool result, §D 44), or its error; [`Outcome::Pending`] while not terminal (§D 14, 30, 31) | -32601 (§D 81) |
//! | `tasks/list` | `{tasks, nextCursor?}`; forged cursor -32602 (§D 35–37) | -32601 (§D 81, §E 5) |
//! | other `tasks/*` | -32601 | -32601 |
//! | unknown, expired, other session's or owner's id | -32602 "… Task not found" (§D 26, 35, 38, 86) | -32602 |
//! | V26 request not declaring the extension | — | -32021 with `data.requiredCapabilities` (§D 79, 80), before any lookup |
//! | V25 `tasks/list` / `tasks/cancel` not declared | -32601 | — |
//!
//! Anything that is not a `tasks/*` request is [`Outcome::NotHandled`]: the host routes it
//! (`tools/call` goes through [`TaskServer::begin_tool_call`]).

pub mod answer;
pub mod context;
pub mod rpc;
pub mod tools;
mod v25;
mod v26;

use serde_json::Value;

use crate::model::ProtocolVersion;
use crate::store::{
    Caller, DeterministicRandom, MemoryStorage, RandomSource, Storage, Store, StoreConfig,
    StoreError,
};

pub use context::{
    check_input_capabilities, declares_extension, input_capability, request_protocol,
    RequestContext, ServerContext, ServerDeclarations, TaskSettings, V25Declared,
};
pub use tools::{
    sync_tool_response, Finished, TaskSupport, ToolCallDecision, ToolCallPlan, ToolOutcome,
};
pub use v25::{result_outcome, ResultOutcome};

/// What changed while a request was handled.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, tsify::Tsify)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[tsify(rename = "ServerTaskEvent")]
pub enum TaskEvent {
    /// A `tasks/cancel` moved the task to `cancelled`: stop its work (cooperatively) and settle
    /// whatever waits on it (pending V25 `tasks/result`).
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

/// A V25 `tasks/result` on a task that is not terminal yet: the request blocks (§D 31). The host
/// answers it later with `settle` ([`TaskServer::settle`]), once that returns a response.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
#[tsify(rename = "PendingRequest")]
pub struct PendingResult {
    /// The id of the `tasks/result` request.
    #[tsify(type = "string | number")]
    pub request_id: Value,
    pub task_id: String,
    /// The session the request came from.
    #[tsify(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The owner the request came from.
    #[tsify(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
}

/// [`TaskEvent`] and [`PendingResult`] under their declared names (tsify names a type by the
/// path written).
type ServerTaskEvent = TaskEvent;
type PendingRequest = PendingResult;

/// The handler's answer to one message (`handle`'s answer in JS, `kind` naming the variant).
#[derive(Debug, Clone, PartialEq, serde::Serialize, tsify::Tsify)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[tsify(rename = "HandleOutcome")]
pub enum Outcome {
    /// Send `message` (an exact JSON-RPC response); `event` says what changed, if anything.
    Response {
        #[tsify(type = "Record<string, unknown>")]
        message: Value,
        #[tsify(optional)]
        #[serde(skip_serializing_if = "Option::is_none")]
        event: Option<ServerTaskEvent>,
    },
    /// A V25 `tasks/result` that waits for its task to end: answer it later with `settle`.
    Pending(PendingRequest),
    /// A `tasks/*` notification (no `id`): JSON-RPC answers nothing.
    #[serde(rename = "none")]
    NoResponse,
    /// Not a `tasks/*` request: the host handles it (`tools/call` through `beginToolCall`).
    NotHandled,
}

impl Outcome {
    /// The response to send now, if any.
    pub fn response(&self) -> Option<&Value> {
        match self {
            Outcome::Response { message, .. } => Some(message),
            _ => None,
        }
    }

    pub(crate) fn reply(message: Value) -> Self {
        Outcome::Response {
            message,
            event: None,
        }
    }
}

/// The task server core: a [`Store`] and the rules of both versions' `tasks/*` methods.
pub struct TaskServer<S: Storage, R: RandomSource> {
    store: Store<S, R>,
}

impl<R: RandomSource> TaskServer<MemoryStorage, R> {
    /// A server over a fresh in-memory store.
    pub fn in_memory(config: StoreConfig, rng: R) -> Result<Self, StoreError> {
        Ok(TaskServer::new(Store::in_memory(config, rng)?))
    }
}

impl TaskServer<MemoryStorage, DeterministicRandom> {
    /// A reproducible in-memory server (tests, simulations: ids are predictable, never use it
    /// in production, §D 39).
    pub fn deterministic(config: StoreConfig, seed: u64) -> Self {
        let mut rng = DeterministicRandom::new(seed);
        let key = rng.next_16();
        TaskServer::new(Store::with_cursor_key(
            config,
            MemoryStorage::new(),
            rng,
            key,
        ))
    }
}

impl<S: Storage, R: RandomSource> TaskServer<S, R> {
    pub fn new(store: Store<S, R>) -> Self {
        TaskServer { store }
    }

    pub fn store(&self) -> &Store<S, R> {
        &self.store
    }

    /// The store, for the work itself (status changes, input requests, sweeps, snapshots).
    pub fn store_mut(&mut self) -> &mut Store<S, R> {
        &mut self.store
    }

    pub fn into_store(self) -> Store<S, R> {
        self.store
    }

    /// Answers one message at `now_ms` (Unix milliseconds). Never panics; every response is a
    /// complete JSON-RPC response object with the request's `id`.
    pub fn handle(&mut self, request: &Value, ctx: &RequestContext, now_ms: u64) -> Outcome {
        let req = match rpc::envelope(request) {
            rpc::Envelope::NotARequest => return Outcome::NotHandled,
            rpc::Envelope::Notification { method } | rpc::Envelope::Invalid { method, .. }
                if !is_tasks_method(method) =>
            {
                return Outcome::NotHandled
            }
            rpc::Envelope::Notification { .. } => return Outcome::NoResponse,
            rpc::Envelope::Invalid { id, reason, .. } => {
                return Outcome::reply(rpc::failure(id, &rpc::error(rpc::INVALID_REQUEST, reason)))
            }
            rpc::Envelope::Request(req) => req,
        };
        if !is_tasks_method(req.method) {
            return Outcome::NotHandled;
        }
        match ctx.version {
            ProtocolVersion::V2025 => v25::handle(&mut self.store, &req, ctx, now_ms),
            ProtocolVersion::V2026 => v26::handle(&mut self.store, &req, ctx, now_ms),
        }
    }

    /// The answer to a pending V25 `tasks/result` (§D 30, 31): `None` while the task is not
    /// terminal; the original result (with related-task `_meta`) or error once it is; -32602
    /// once the task is gone (expired, removed).
    pub fn settle(&mut self, pending: &PendingResult, now_ms: u64) -> Option<Value> {
        self.result_response(
            &pending.request_id,
            &pending.task_id,
            Caller::request(pending.session.as_deref(), pending.owner.as_deref()),
            now_ms,
        )
    }

    /// The V25 `tasks/result` response for `task_id` as `caller` sees it, answering request
    /// `request_id`: `None` while the task is not terminal.
    pub fn result_response(
        &mut self,
        request_id: &Value,
        task_id: &str,
        caller: Caller<'_>,
        now_ms: u64,
    ) -> Option<Value> {
        v25::result_response(&mut self.store, request_id, task_id, caller, now_ms)
    }
}

fn is_tasks_method(method: &str) -> bool {
    method.starts_with("tasks/")
}
