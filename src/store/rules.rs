//! The rules, as pure functions over a [`TaskRecord`]: who sees a task, when it expires, what its
//! TTL is, and what each operation does to it. The state machine is enforced in one place,
//! [`enter`]; every operation that changes a status goes through it.

use crate::model::common::{JsonObject, JsonRpcError};
use crate::model::{ProtocolVersion, TaskStatus};

use super::error::StoreError;
use super::record::{tool_error_message, InputEntry, InputState, Payload, TaskRecord, TaskState};
use super::storage::Scope;

/// Who performs an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Caller<'a> {
    /// The host itself (the work running a task, an admin view): sees every task.
    Host,
    /// A request from this session (`None`: a request without a session or authorization
    /// context).
    Session(Option<&'a str>),
    /// A request from this session (`None`: none) by this owner: the authenticated principal the
    /// host derived from the request's auth info. Sees, of its session's tasks, those bound to
    /// this owner and those bound to none.
    Owner(Option<&'a str>, &'a str),
}

impl<'a> Caller<'a> {
    /// A request of `session` by `owner` (`None`: no owner, [`Caller::Session`]).
    pub fn request(session: Option<&'a str>, owner: Option<&'a str>) -> Self {
        match owner {
            Some(owner) => Caller::Owner(session, owner),
            None => Caller::Session(session),
        }
    }

    /// The owner the request comes from (`None`: the host, or a request without one).
    pub fn owner(&self) -> Option<&'a str> {
        match self {
            Caller::Owner(_, owner) => Some(owner),
            _ => None,
        }
    }
}

/// Whether `caller` may see `record` (§D 38). A task is visible to exactly the session it is
/// bound to (unbound tasks to calls without a session), unless the host shares tasks across
/// sessions. Invisible tasks answer "not found", never "forbidden".
pub fn visible(record: &TaskRecord, caller: Caller<'_>, share_across_sessions: bool) -> bool {
    list_scope(caller, share_across_sessions).contains(record) && owns(record, caller)
}

/// Whether the owner binding lets `caller` see `record` (§D 38, and the V26 security
/// paragraph of §B.h: a task is bound to the principal that created it). A task bound to an
/// owner is seen only by that owner (and the host); a task bound to none (created without auth
/// info, or stored before owners existed) by whoever its session rule lets see it. Sharing
/// across sessions does not share across owners.
pub fn owns(record: &TaskRecord, caller: Caller<'_>) -> bool {
    match (caller, record.owner.as_deref()) {
        (Caller::Host, _) | (_, None) => true,
        (caller, Some(owner)) => caller.owner() == Some(owner),
    }
}

/// The listing scope of `caller`: what it can see, so `tasks/list` and `tasks/get` agree (§D 37).
pub fn list_scope(caller: Caller<'_>, share_across_sessions: bool) -> Scope<'_> {
    match caller {
        Caller::Host => Scope::All,
        Caller::Session(_) | Caller::Owner(..) if share_across_sessions => Scope::All,
        Caller::Session(s) | Caller::Owner(s, _) => Scope::Session(s),
    }
}

/// Whether `record` may be purged at `now_ms`: strictly after `createdAt + ttl` (§D 26, 94;
/// nothing is purged before). Unlimited TTLs never expire.
pub fn is_expired(record: &TaskRecord, now_ms: u64) -> bool {
    record.expires_at_ms().is_some_and(|t| now_ms > t)
}

/// The effective TTL (§D 25, 42): the requested TTL, else the default; capped by the maximum
/// (an unlimited request gets the maximum); at least 1 ms (conformance wants a positive `ttlMs`).
pub fn effective_ttl(
    requested: Option<u64>,
    default: Option<u64>,
    max: Option<u64>,
) -> Option<u64> {
    let base = requested.or(default);
    let capped = match (base, max) {
        (Some(t), Some(m)) => Some(t.min(m)),
        (None, Some(m)) => Some(m),
        (t, None) => t,
    };
    capped.map(|t| t.max(1))
}

/// What an operation asks of a task.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// `working` ⇄ `input_required` (or a self-loop with a new message).
    SetStatus {
        status: TaskStatus,
        message: Option<String>,
    },
    /// Issue V26 input requests (key → bare request); the task becomes `input_required`.
    RaiseInput {
        requests: JsonObject,
        message: Option<String>,
    },
    /// Answers from `tasks/update` (key → result).
    TakeInput { responses: JsonObject },
    Complete {
        result: Payload,
        message: Option<String>,
    },
    Fail {
        error: JsonRpcError,
        message: Option<String>,
    },
    /// V25 only: the tool result has `isError: true`, so the task fails keeping it (§D 44).
    FailWithToolResult {
        result: Payload,
        message: Option<String>,
    },
    /// A cancel request under `protocol` (decides what cancelling a terminal task answers).
    Cancel {
        protocol: ProtocolVersion,
        message: Option<String>,
    },
}

/// What [`apply`] decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// The new revision to write, or `None` when nothing changes (an idempotent repeat).
    pub record: Option<TaskRecord>,
    /// `TakeInput`: the keys accepted, in key order.
    pub accepted: Vec<String>,
    /// `TakeInput`: the keys ignored (never issued, answered or superseded; §D 88), in key order.
    pub ignored: Vec<String>,
}

impl Applied {
    fn changed(record: TaskRecord) -> Self {
        Applied {
            record: Some(record),
            accepted: Vec::new(),
            ignored: Vec::new(),
        }
    }

    fn unchanged() -> Self {
        Applied {
            record: None,
            accepted: Vec::new(),
            ignored: Vec::new(),
        }
    }
}

/// The methods an input request may use (§D 70).
const INPUT_METHODS: [&str; 3] = ["elicitation/create", "sampling/createMessage", "roots/list"];

/// Applies `action` to `record` at `now_ms`: the new revision (version + 1) or an error. Pure.
pub fn apply(record: &TaskRecord, action: &Action, now_ms: u64) -> Result<Applied, StoreError> {
    let terminal = record.status().is_terminal();
    match action {
        Action::SetStatus { status, message } => {
            let state = match status {
                TaskStatus::Working => TaskState::Working,
                TaskStatus::InputRequired => TaskState::InputRequired,
                TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled => {
                    if terminal {
                        return Err(StoreError::AlreadyTerminal {
                            status: record.status(),
                        });
                    }
                    return Err(StoreError::InvalidTransition {
                        from: record.status(),
                        to: *status,
                    });
                }
            };
            enter(record, state, message.clone(), now_ms).map(Applied::changed)
        }
        Action::RaiseInput { requests, message } => {
            if terminal {
                return Err(StoreError::AlreadyTerminal {
                    status: record.status(),
                });
            }
            raise_input(record, requests, message, now_ms)
        }
        Action::TakeInput { responses } => Ok(take_input(record, responses, now_ms)),
        Action::Complete { .. } | Action::Fail { .. } | Action::FailWithToolResult { .. } => {
            match terminal_move(record, action)? {
                Some((state, message)) => {
                    enter(record, state, message, now_ms).map(Applied::changed)
                }
                None => Ok(Applied::unchanged()), // not reached: these three always move
            }
        }
        Action::Cancel { protocol, message } => {
            if terminal && *protocol == ProtocolVersion::V2026 {
                // §D 90 (conformance): cancelling a terminal task is an idempotent ack in V26.
                return Ok(Applied::unchanged());
            }
            // §D 22: V25 rejects it (enter answers AlreadyTerminal, -32602).
            enter(record, TaskState::Cancelled, message.clone(), now_ms).map(Applied::changed)
        }
    }
}

/// The state and status message `complete`, `fail` or `failWithToolResult` (`action`) moves
/// `record` to, after the checks of the action itself (a tool failure: a 2025-11-25 task, a
/// result with `isError: true`); what [`enter`] then checks (a terminal task) is not checked
/// here. `None` for any other action.
pub fn terminal_move(
    record: &TaskRecord,
    action: &Action,
) -> Result<Option<(TaskState, Option<String>)>, StoreError> {
    match action {
        Action::Complete { result, message } => Ok(Some((
            TaskState::Completed {
                result: Payload::clone(result),
            },
            message.clone(),
        ))),
        Action::Fail { error, message } => {
            // §D 44, 91: failed tasks SHOULD carry a diagnostic statusMessage.
            let message = message.clone().or_else(|| Some(error.message.clone()));
            Ok(Some((
                TaskState::Failed {
                    error: error.clone(),
                },
                message,
            )))
        }
        Action::FailWithToolResult { result, message } => {
            if !record.status().is_terminal() {
                if record.protocol != ProtocolVersion::V2025 {
                    return Err(StoreError::InvalidToolFailure {
                        reason: "a 2026-07-28 task keeps a tool error result as completed (§D 91)"
                            .into(),
                    });
                }
                if !result.is_error() {
                    return Err(StoreError::InvalidToolFailure {
                        reason: "the tool result does not have isError: true".into(),
                    });
                }
            }
            let message = message
                .clone()
                .or_else(|| Some(tool_error_message(&result.object())));
            Ok(Some((
                TaskState::ToolFailed {
                    result: Payload::clone(result),
                },
                message,
            )))
        }
        _ => Ok(None),
    }
}

/// Whether [`enter`] lets `record` move at all (a terminal task never changes again).
pub fn may_enter(record: &TaskRecord) -> Result<(), StoreError> {
    let from = record.status();
    if from.is_terminal() {
        return Err(StoreError::AlreadyTerminal { status: from });
    }
    Ok(())
}

/// [`enter`]'s move, made on `record` itself (its next revision in place; [`may_enter`] said
/// yes).
pub fn advance(record: &mut TaskRecord, state: TaskState, message: Option<String>, now_ms: u64) {
    record.version = record.version.saturating_add(1);
    // The store emits no instant past 9999-12-31 (RFC 3339 has four-digit years).
    record.last_updated_at_ms = record
        .last_updated_at_ms
        .max(now_ms.min(super::record::MAX_TIMESTAMP_MS));
    if state.status() != TaskStatus::InputRequired {
        for entry in record.inputs.values_mut() {
            if entry.state == InputState::Outstanding {
                entry.state = InputState::Superseded;
            }
        }
    }
    record.state = state;
    record.status_message = message;
}

/// THE state machine (§D 19–21, 28, 93): moves `record` to `state` with `message`.
///
/// * a terminal task never changes again, not even to the same status with another payload
///   (the first terminal outcome wins; a V25 cancelled task stays cancelled);
/// * every other move is an edge of the diagram or a self-loop update;
/// * `lastUpdatedAt` never decreases (a clock going backwards keeps the old value);
/// * leaving `input_required` supersedes the outstanding input requests (their keys stay used).
pub fn enter(
    record: &TaskRecord,
    state: TaskState,
    message: Option<String>,
    now_ms: u64,
) -> Result<TaskRecord, StoreError> {
    may_enter(record)?;
    let mut next = record.clone();
    advance(&mut next, state, message, now_ms);
    Ok(next)
}

/// A copy of `record` as its next revision, stamped at `now_ms` (never earlier than before).
fn touch(record: &TaskRecord, now_ms: u64) -> TaskRecord {
    let mut next = record.clone();
    next.version = record.version.saturating_add(1);
    // The store emits no instant past 9999-12-31 (RFC 3339 has four-digit years).
    next.last_updated_at_ms = record
        .last_updated_at_ms
        .max(now_ms.min(super::record::MAX_TIMESTAMP_MS));
    next
}

/// A bare input request: `{method, params}` of elicitation/create, sampling/createMessage or
/// roots/list (§D 70, 98).
pub(crate) fn check_input_request(
    key: &str,
    request: &serde_json::Value,
) -> Result<(), StoreError> {
    let invalid = |reason: &str| StoreError::InvalidInputRequest {
        key: Some(key.to_owned()),
        reason: reason.to_owned(),
    };
    let obj = request
        .as_object()
        .ok_or_else(|| invalid("not an object"))?;
    let method = obj
        .get("method")
        .and_then(|m| m.as_str())
        .ok_or_else(|| invalid("`method` is not a string"))?;
    if !INPUT_METHODS.contains(&method) {
        return Err(invalid(
            "`method` is not elicitation/create, sampling/createMessage or roots/list",
        ));
    }
    match obj.get("params") {
        Some(p) if !p.is_object() => Err(invalid("`params` is not an object")),
        None if method != "roots/list" => Err(invalid("`params` is missing")),
        _ => Ok(()),
    }
}

/// §D 87: keys are unique over the task's life; re-raising an outstanding key with the same
/// request is an idempotent repeat.
fn raise_input(
    record: &TaskRecord,
    requests: &JsonObject,
    message: &Option<String>,
    now_ms: u64,
) -> Result<Applied, StoreError> {
    if requests.is_empty() {
        return Err(StoreError::InvalidInputRequest {
            key: None,
            reason: "no requests".into(),
        });
    }
    let mut fresh = Vec::new();
    for (key, request) in requests {
        check_input_request(key, request)?;
        match record.inputs.get(key) {
            Some(e) if e.state == InputState::Outstanding && e.request == *request => {}
            Some(_) => return Err(StoreError::InputKeyReused { key: key.clone() }),
            None => fresh.push((key.clone(), request.clone())),
        }
    }
    if fresh.is_empty() && record.status() == TaskStatus::InputRequired {
        return Ok(Applied::unchanged());
    }
    let mut next = enter(record, TaskState::InputRequired, message.clone(), now_ms)?;
    for (key, request) in fresh {
        next.inputs.insert(
            key,
            InputEntry {
                request,
                state: InputState::Outstanding,
            },
        );
    }
    Ok(Applied::changed(next))
}

/// §D 88, 32: outstanding keys are accepted, every other key ignored; once nothing is
/// outstanding any more the task goes back to `working`, a partial answer keeps
/// `input_required`. A terminal task ignores everything (its requests were superseded).
fn take_input(record: &TaskRecord, responses: &JsonObject, now_ms: u64) -> Applied {
    let mut next = touch(record, now_ms);
    let mut accepted = Vec::new();
    let mut ignored = Vec::new();
    for (key, response) in responses {
        match next.inputs.get_mut(key) {
            Some(e) if e.state == InputState::Outstanding => {
                e.state = InputState::Answered {
                    response: response.clone(),
                };
                accepted.push(key.clone());
            }
            _ => ignored.push(key.clone()),
        }
    }
    if accepted.is_empty() {
        return Applied {
            record: None,
            accepted,
            ignored,
        };
    }
    if next.status() == TaskStatus::InputRequired && next.outstanding_keys().next().is_none() {
        next.state = TaskState::Working;
        next.status_message = None;
    }
    Applied {
        record: Some(next),
        accepted,
        ignored,
    }
}

/// The invariants every stored record keeps (checked on restore and by the property tests).
pub fn check_invariants(record: &TaskRecord) -> Result<(), String> {
    if record.last_updated_at_ms < record.created_at_ms {
        return Err(format!(
            "task {}: lastUpdatedAt before createdAt",
            record.id
        ));
    }
    if record.version == 0 {
        return Err(format!("task {}: version 0", record.id));
    }
    if let TaskState::ToolFailed { result } = &record.state {
        if record.protocol != ProtocolVersion::V2025 {
            return Err(format!(
                "task {}: failed with a tool result, but not created under 2025-11-25",
                record.id
            ));
        }
        if !result.is_error() {
            return Err(format!(
                "task {}: failed with a tool result without isError: true",
                record.id
            ));
        }
    }
    if record.outstanding_keys().next().is_some() && record.status() != TaskStatus::InputRequired {
        return Err(format!(
            "task {}: outstanding input requests while {}",
            record.id,
            record.status().as_str()
        ));
    }
    Ok(())
}
