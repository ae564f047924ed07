//! `tasks/*` of protocol 2026-07-28 with the extension `io.modelcontextprotocol/tasks`
//! (§B.b; §D 79–81, 85–90).

use serde_json::{Map, Value};

use crate::model::common::{JsonObject, JsonRpcError};
use crate::model::ProtocolVersion;
use crate::store::{RandomSource, Storage, Store};

use super::context::{declares_extension, RequestContext};
use super::rpc::{self, Action, Request, INVALID_PARAMS};
use super::{Outcome, TaskEvent};

const V: ProtocolVersion = ProtocolVersion::V2026;

pub(super) fn handle<S: Storage, R: RandomSource>(
    store: &mut Store<S, R>,
    req: &Request<'_>,
    ctx: &RequestContext,
    now_ms: u64,
) -> Outcome {
    let answer = match req.method {
        "tasks/get" | "tasks/update" | "tasks/cancel" => dispatch(store, req, ctx, now_ms),
        // §D 81, §E 5: tasks/result and tasks/list were removed; no other tasks/* exists.
        other => Err(rpc::method_not_found(other, V, true)),
    };
    match answer {
        Ok((result, event)) => Outcome::Response {
            message: rpc::success(req.id, result),
            event,
        },
        Err(e) => Outcome::reply(rpc::failure(Some(req.id), &e)),
    }
}

type Answer = Result<(JsonObject, Option<TaskEvent>), JsonRpcError>;

fn dispatch<S: Storage, R: RandomSource>(
    store: &mut Store<S, R>,
    req: &Request<'_>,
    ctx: &RequestContext,
    now_ms: u64,
) -> Answer {
    let params = req.params_object();
    // §D 79, 80: the request's own declaration, checked before any lookup (conformance).
    if !declares_extension(params) {
        return Err(rpc::missing_extension(req.method));
    }
    let id = params
        .and_then(|p| p.get("taskId"))
        .and_then(Value::as_str)
        .ok_or_else(rpc::invalid_task_id)?;
    let caller = ctx.caller();
    match req.method {
        "tasks/update" => {
            let responses = match params.and_then(|p| p.get("inputResponses")) {
                Some(Value::Object(r)) => r.clone(),
                _ => {
                    return Err(rpc::error(
                        INVALID_PARAMS,
                        "Invalid params: `params.inputResponses` must be an object",
                    ))
                }
            };
            // §D 88, 89: keys not outstanding are ignored; the partial answer is applied before
            // the ack (conformance reads it right after).
            let taken = store
                .take_input(caller, id, responses, now_ms)
                .map_err(|e| rpc::store_error(&e, Action::Update))?;
            let event = (!taken.accepted.is_empty()).then(|| TaskEvent::InputTaken {
                task_id: taken.task.id.clone(),
                accepted: taken.accepted,
            });
            Ok((ack(), event))
        }
        "tasks/cancel" => {
            // §D 90, §E 4: a terminal task is acknowledged unchanged.
            let c = store
                .cancel(
                    caller,
                    id,
                    V,
                    Some("Cancelled by the requestor".into()),
                    now_ms,
                )
                .map_err(|e| rpc::store_error(&e, Action::Cancel))?;
            let event = c.changed.then(|| TaskEvent::Cancelled {
                task_id: c.task.id.clone(),
            });
            Ok((ack(), event))
        }
        _ => {
            // §D 85: the variant of the current status, payload inlined.
            let record = store
                .get(caller, id, now_ms)
                .map_err(|e| rpc::store_error(&e, Action::Get))?;
            let detailed = rpc::to_object(&record.to_v26_detailed())?;
            Ok((rpc::with_result_type("complete", detailed), None))
        }
    }
}

/// The empty acknowledgement `{resultType:"complete"}` (§D 89, 90).
fn ack() -> JsonObject {
    let mut m = Map::new();
    m.insert("resultType".into(), Value::String("complete".into()));
    m
}
