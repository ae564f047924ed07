//! `tasks/*` of protocol 2025-11-25 (§A.b; §D 22, 23, 30, 31, 34–38).

use serde_json::{json, Map, Value};

use crate::model::common::{JsonObject, JsonRpcError, RELATED_TASK_META_KEY};
use crate::model::ProtocolVersion;
use crate::store::{Caller, RandomSource, Storage, Store, TaskRecord, TaskState};

use super::context::RequestContext;
use super::rpc::{self, Action, Request, INVALID_PARAMS};
use super::{Outcome, PendingResult, TaskEvent};

const V: ProtocolVersion = ProtocolVersion::V2025;

pub(super) fn handle<S: Storage, R: RandomSource>(
    store: &mut Store<S, R>,
    req: &Request<'_>,
    ctx: &RequestContext,
    now_ms: u64,
) -> Outcome {
    let answer = match req.method {
        "tasks/get" => get(store, req, ctx, now_ms),
        "tasks/result" => return result(store, req, ctx, now_ms),
        "tasks/list" if ctx.declared.list => list(store, req, ctx, now_ms),
        "tasks/cancel" if ctx.declared.cancel => return cancel(store, req, ctx, now_ms),
        "tasks/list" | "tasks/cancel" => Err(rpc::method_not_found(req.method, V, false)),
        other => Err(rpc::method_not_found(other, V, true)),
    };
    Outcome::reply(match answer {
        Ok(result) => rpc::success(req.id, result),
        Err(e) => rpc::failure(Some(req.id), &e),
    })
}

/// `params.taskId` (§D 34: a related-task `_meta` on the request is ignored).
fn task_id<'a>(req: &Request<'a>) -> Result<&'a str, JsonRpcError> {
    req.params_object()
        .and_then(|p| p.get("taskId"))
        .and_then(Value::as_str)
        .ok_or_else(rpc::invalid_task_id)
}

fn flat(record: &TaskRecord) -> Result<JsonObject, JsonRpcError> {
    rpc::to_object(&record.to_v25())
}

fn get<S: Storage, R: RandomSource>(
    store: &mut Store<S, R>,
    req: &Request<'_>,
    ctx: &RequestContext,
    now_ms: u64,
) -> Result<JsonObject, JsonRpcError> {
    let id = task_id(req)?;
    let record = store
        .get(ctx.caller(), id, now_ms)
        .map_err(|e| rpc::store_error(&e, Action::Get))?;
    flat(&record)
}

fn list<S: Storage, R: RandomSource>(
    store: &mut Store<S, R>,
    req: &Request<'_>,
    ctx: &RequestContext,
    now_ms: u64,
) -> Result<JsonObject, JsonRpcError> {
    let cursor = match req.params {
        None | Some(Value::Null) => None,
        Some(Value::Object(p)) => match p.get("cursor") {
            None | Some(Value::Null) => None,
            Some(Value::String(c)) => Some(c.as_str()),
            Some(_) => {
                return Err(rpc::error(
                    INVALID_PARAMS,
                    "Invalid params: `params.cursor` must be a string",
                ))
            }
        },
        Some(_) => {
            return Err(rpc::error(
                INVALID_PARAMS,
                "Invalid params: `params` must be an object",
            ))
        }
    };
    let page = store
        .list(ctx.caller(), cursor, None, now_ms)
        .map_err(|e| rpc::store_error(&e, Action::List))?;
    let tasks = page
        .tasks
        .iter()
        .map(|t| flat(t).map(Value::Object))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Map::new();
    out.insert("tasks".into(), Value::Array(tasks));
    if let Some(next) = page.next_cursor {
        out.insert("nextCursor".into(), Value::String(next));
    }
    Ok(out)
}

fn cancel<S: Storage, R: RandomSource>(
    store: &mut Store<S, R>,
    req: &Request<'_>,
    ctx: &RequestContext,
    now_ms: u64,
) -> Outcome {
    let done = task_id(req).and_then(|id| {
        store
            .cancel(
                ctx.caller(),
                id,
                V,
                Some("Cancelled by the requestor".into()),
                now_ms,
            )
            .map_err(|e| rpc::store_error(&e, Action::Cancel))
    });
    match done.and_then(|c| flat(&c.task).map(|r| (c, r))) {
        Ok((c, result)) => Outcome::Response {
            message: rpc::success(req.id, result),
            event: c.changed.then(|| TaskEvent::Cancelled {
                task_id: c.task.id.clone(),
            }),
        },
        Err(e) => Outcome::reply(rpc::failure(Some(req.id), &e)),
    }
}

fn result<S: Storage, R: RandomSource>(
    store: &mut Store<S, R>,
    req: &Request<'_>,
    ctx: &RequestContext,
    now_ms: u64,
) -> Outcome {
    let id = match task_id(req) {
        Ok(id) => id,
        Err(e) => return Outcome::reply(rpc::failure(Some(req.id), &e)),
    };
    match result_response(store, req.id, id, ctx.caller(), now_ms) {
        Some(message) => Outcome::reply(message),
        None => Outcome::Pending(PendingResult {
            request_id: req.id.clone(),
            task_id: id.to_owned(),
            session: ctx.session.clone(),
            owner: ctx.owner.clone(),
        }),
    }
}

/// The `tasks/result` answer once `task_id` is terminal; `None` while it is not (§D 30, 31).
pub(super) fn result_response<S: Storage, R: RandomSource>(
    store: &mut Store<S, R>,
    request_id: &Value,
    task_id: &str,
    caller: Caller<'_>,
    now_ms: u64,
) -> Option<Value> {
    match result_outcome(store, caller, task_id, now_ms) {
        Err(e) => Some(rpc::failure(
            Some(request_id),
            &rpc::store_error(&e, Action::GetResult),
        )),
        Ok(ResultOutcome::Pending) => None,
        Ok(ResultOutcome::Result { result }) => {
            Some(rpc::success(request_id, related(result, task_id)))
        }
        Ok(ResultOutcome::Error { error }) => Some(rpc::failure(Some(request_id), &error)),
    }
}

/// The answer of `resultOf`: what a 2025-11-25 `tasks/result` answers for a task.
// Without the JSON-RPC envelope and the related-task `_meta` (§D 30, 31, 44); declared for the
// .d.ts under the bindings' name.
#[derive(Debug, Clone, PartialEq, serde::Serialize, tsify::Tsify)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[tsify(rename = "ResultOf")]
pub enum ResultOutcome {
    /// The task is live: the request blocks (§D 31).
    Pending,
    /// What the original request returned: the result of a `completed` task, or the
    /// `isError: true` result that failed a V25 task (§D 44).
    Result {
        #[tsify(type = "Record<string, unknown>")]
        result: JsonObject,
    },
    /// The JSON-RPC error to answer with: the one a `failed` task ended with, or -32602 for a
    /// `cancelled` task, which has no result.
    Error { error: JsonRpcError },
}

/// [`ResultOutcome`] of task `task_id` as `caller` sees it; an unknown (expired, foreign) task
/// is the store's [`StoreError::NotFound`](crate::store::StoreError::NotFound).
pub fn result_outcome<S: Storage, R: RandomSource>(
    store: &mut Store<S, R>,
    caller: Caller<'_>,
    task_id: &str,
    now_ms: u64,
) -> Result<ResultOutcome, crate::store::StoreError> {
    let record = store.get(caller, task_id, now_ms)?;
    Ok(match record.state {
        TaskState::Working | TaskState::InputRequired => ResultOutcome::Pending,
        TaskState::Completed { result } | TaskState::ToolFailed { result } => {
            ResultOutcome::Result {
                result: result.object(),
            }
        }
        TaskState::Failed { error } => ResultOutcome::Error { error },
        TaskState::Cancelled => ResultOutcome::Error {
            error: rpc::cancelled_has_no_result(task_id),
        },
    })
}

/// `result` with `_meta["io.modelcontextprotocol/related-task"] = {taskId}` (§D 14, 33).
fn related(mut result: JsonObject, task_id: &str) -> JsonObject {
    let related = json!({ "taskId": task_id });
    match result.get_mut("_meta") {
        Some(Value::Object(meta)) => {
            meta.insert(RELATED_TASK_META_KEY.into(), related);
        }
        _ => {
            let mut meta = Map::new();
            meta.insert(RELATED_TASK_META_KEY.into(), related);
            result.insert("_meta".into(), Value::Object(meta));
        }
    }
    result
}
