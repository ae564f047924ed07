//! The store's answers as JSON text, as they cross to the JS classes (js/server/store.ts), which
//! parse each once and freeze it: a task in the declared shape [`StoreTask`] (its V25 and V26
//! tasks both written here, from the record, [`TaskView`]), and an answer the JS class keeps
//! with the task's revision ([`Revised`]). Written straight from the records (no copy of a
//! payload); the text's carried lone surrogates are written back as escapes ([`json_text`]). A
//! terminal write may leave out the payload its caller holds ([`written_text`]): the answer
//! names where it goes. The declared (TypeScript) shapes are here too: [`StoreTask`],
//! [`TaskPage`], [`TakeInputOutcome`], [`CancelOutcome`], [`StoreChange`].

use serde::Serialize;
use tsify::Tsify;

use crate::model::common::JsonObject;
use crate::model::v2025::V25Task;
use crate::model::v2026::V26DetailedTask;
use crate::model::{ProtocolVersion, TaskStatus};

use super::cursor::{self, CursorKey};
use super::error::StoreError;
use super::ops::{Cancelled, Change, InputTaken, ListPage};
use super::record::{InputState, TaskRecord, V26Shell, V26View};
use super::rules::{list_scope, Caller};
use super::storage::Scope;

// ---- the declared shapes (what the JS classes answer: the JSON that crosses, parsed) ---------

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
    /// The owner the task is bound to (absent: none).
    #[tsify(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
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

/// [`DeleteReason`] under its declared name (tsify names a type by the path written).
type DeletedBecause = super::ops::DeleteReason;

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

// ---- what crosses ------------------------------------------------------------------------------

/// `value` as JSON text, its carried lone surrogates written back as escapes
/// ([`crate::validate::surrogates::restore`]).
pub fn json_text<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    // Stored results are written in as their text (`Payload`, `base::json::verbatim`).
    let text = crate::base::json::to_text(value)?;
    Ok(match crate::validate::surrogates::restore(&text) {
        std::borrow::Cow::Borrowed(_) => text,
        std::borrow::Cow::Owned(restored) => restored,
    })
}

/// Whether the record holds an answered input response.
pub fn has_answered_input(record: &TaskRecord) -> bool {
    record
        .inputs
        .iter()
        .any(|(_, e)| matches!(e.state, InputState::Answered { .. }))
}

/// The answered input responses of a record, written as a JSON object in place.
pub struct Answered<'a>(pub &'a TaskRecord);

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

/// The V26 task of a [`TaskView`]: whole, or without the payload a terminal write was given.
enum V26Of<'a> {
    Whole(V26View<'a>),
    Shell(V26Shell<'a>),
}

impl Serialize for V26Of<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            V26Of::Whole(v) => v.serialize(s),
            V26Of::Shell(v) => v.serialize(s),
        }
    }
}

/// A record written as its [`StoreTask`] (the same JSON: a test holds them equal).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskView<'a> {
    task_id: &'a str,
    status: TaskStatus,
    protocol_version: ProtocolVersion,
    #[serde(skip_serializing_if = "Option::is_none")]
    session: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    owner: Option<&'a str>,
    expires_at_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    input_responses: Option<Answered<'a>>,
    v25: V25Task,
    v26: V26Of<'a>,
}

impl<'a> TaskView<'a> {
    fn of(record: &'a TaskRecord, v26: V26Of<'a>) -> Self {
        TaskView {
            task_id: &record.id,
            status: record.status(),
            protocol_version: record.protocol,
            session: record.session.as_deref(),
            owner: record.owner.as_deref(),
            expires_at_ms: record.expires_at_ms(),
            input_responses: has_answered_input(record).then_some(Answered(record)),
            v25: record.to_v25(),
            v26,
        }
    }
}

impl<'a> From<&'a TaskRecord> for TaskView<'a> {
    fn from(record: &'a TaskRecord) -> Self {
        TaskView::of(record, V26Of::Whole(V26View(record)))
    }
}

/// An answer the JS class keeps with the revision of its task (the record's version, which
/// every write to the task bumps): `{ revision, payloadAt?, answer }`. `payloadAt`, when
/// present, is where in `answer` (member names) the payload left out is to be put.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Revised<T> {
    revision: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    payload_at: Option<Vec<&'static str>>,
    answer: T,
}

/// One `list` page as it crosses ([`TaskPage`]).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WirePage<'a> {
    tasks: Vec<TaskView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<&'a str>,
}

impl<'a> From<&'a ListPage> for WirePage<'a> {
    fn from(page: &'a ListPage) -> Self {
        WirePage {
            tasks: page.tasks.iter().map(TaskView::from).collect(),
            next_cursor: page.next_cursor.as_deref(),
        }
    }
}

/// What `take_input` did, as it crosses ([`TakeInputOutcome`]).
#[derive(Serialize)]
pub struct WireTakeInput<'a> {
    task: TaskView<'a>,
    accepted: &'a [String],
    ignored: &'a [String],
}

/// What `cancel` did, as it crosses ([`CancelOutcome`]).
#[derive(Serialize)]
pub struct WireCancel<'a> {
    task: TaskView<'a>,
    changed: bool,
}

/// One write as it crosses (`takeChanges()`, [`StoreChange`]): the task's view and its stored
/// record.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WireChange<'a> {
    Created {
        task: TaskView<'a>,
        record: &'a TaskRecord,
    },
    Updated {
        task: TaskView<'a>,
        record: &'a TaskRecord,
    },
    Deleted {
        #[serde(rename = "taskId")]
        task_id: &'a str,
        reason: super::ops::DeleteReason,
    },
}

impl<'a> From<&'a Change> for WireChange<'a> {
    fn from(change: &'a Change) -> Self {
        match change {
            Change::Created { task } => WireChange::Created {
                task: TaskView::from(task),
                record: task,
            },
            Change::Updated { task } => WireChange::Updated {
                task: TaskView::from(task),
                record: task,
            },
            Change::Deleted { id, reason } => WireChange::Deleted {
                task_id: id,
                reason: *reason,
            },
        }
    }
}

/// A record as the JSON text of its [`StoreTask`] with its revision ([`Revised`]).
pub fn task_text(record: &TaskRecord) -> Result<String, serde_json::Error> {
    json_text(&Revised {
        revision: record.version,
        payload_at: None,
        answer: TaskView::from(record),
    })
}

/// The answer of a terminal write (`complete`, `fail`, `failWithToolResult`) as [`task_text`];
/// with `bare` (the caller holds the payload it gave), without that payload when the task holds
/// it as given (a result; not an error, which is kept as `code`, `message`, `data`), and
/// `payloadAt` saying where it goes.
pub fn written_text(record: &TaskRecord, bare: bool) -> Result<String, serde_json::Error> {
    let shell = V26Shell(record);
    let at = if bare { shell.payload_at() } else { None };
    let Some(at) = at else {
        return task_text(record);
    };
    let payload_at = ["v26"].iter().chain(at).copied().collect();
    json_text(&Revised {
        revision: record.version,
        payload_at: Some(payload_at),
        answer: TaskView::of(record, V26Of::Shell(shell)),
    })
}

/// What `take_input` did, as the JSON text of a [`TakeInputOutcome`] with the task's revision.
pub fn taken_text(taken: &InputTaken) -> Result<String, serde_json::Error> {
    json_text(&Revised {
        revision: taken.task.version,
        payload_at: None,
        answer: WireTakeInput {
            task: TaskView::from(&taken.task),
            accepted: &taken.accepted,
            ignored: &taken.ignored,
        },
    })
}

/// What `cancel` did, as the JSON text of a [`CancelOutcome`] with the task's revision.
pub fn cancelled_text(cancelled: &Cancelled) -> Result<String, serde_json::Error> {
    json_text(&Revised {
        revision: cancelled.task.version,
        payload_at: None,
        answer: WireCancel {
            task: TaskView::from(&cancelled.task),
            changed: cancelled.changed,
        },
    })
}

/// Writes as the JSON text of `StoreChange[]`.
pub fn changes_text(changes: &[Change]) -> Result<String, serde_json::Error> {
    let changes: Vec<WireChange<'_>> = changes.iter().map(WireChange::from).collect();
    json_text(&changes)
}

/// One write as the shared server stores it (`takeStoredChanges()`): the stored record alone
/// (no view: js/server/shared.ts writes records and never shows them), or the id of a deleted task.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum StoredWire<'a> {
    Created {
        record: &'a TaskRecord,
    },
    Updated {
        record: &'a TaskRecord,
    },
    Deleted {
        #[serde(rename = "taskId")]
        task_id: &'a str,
    },
}

/// Writes as the JSON text of `({ kind: "created" | "updated", record } | { kind: "deleted",
/// taskId })[]`: what a store over shared storage writes (`changes_text` without the views).
pub fn stored_changes_text(changes: &[Change]) -> Result<String, serde_json::Error> {
    let changes: Vec<StoredWire<'_>> = changes
        .iter()
        .map(|c| match c {
            Change::Created { task } => StoredWire::Created { record: task },
            Change::Updated { task } => StoredWire::Updated { record: task },
            Change::Deleted { id, .. } => StoredWire::Deleted { task_id: id },
        })
        .collect();
    json_text(&changes)
}

/// Where a `tasks/list` page starts, for a store over shared asynchronous storage
/// (js/server/shared.ts, which reads the records itself): the scope to read (`rangeAfter` of the
/// storage contract) and the creation sequence the page follows (0 without a cursor).
#[derive(Serialize)]
pub struct ListPosition<'a> {
    after: u64,
    scope: WireScope<'a>,
}

/// A [`Scope`] as it crosses: `{"kind":"all"}` or `{"kind":"session","session":…}`.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum WireScope<'a> {
    All,
    Session { session: Option<&'a str> },
}

/// The [`ListPosition`] of a `tasks/list` page of `caller` with `cursor`, under the store's
/// cursor key `key` (§D 35–38): a cursor not issued for this scope with this key is
/// [`StoreError::InvalidCursor`].
pub fn list_position<'a>(
    key: &CursorKey,
    cursor: Option<&str>,
    caller: Caller<'a>,
    share_across_sessions: bool,
) -> Result<ListPosition<'a>, StoreError> {
    let scope = list_scope(caller, share_across_sessions);
    let after = match cursor {
        None => 0,
        Some(c) => {
            cursor::decode(key, scope, caller.owner(), c).ok_or(StoreError::InvalidCursor)?
        }
    };
    let scope = match scope {
        Scope::All => WireScope::All,
        Scope::Session(session) => WireScope::Session { session },
    };
    Ok(ListPosition { after, scope })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use serde_json::{json, Value};

    use super::*;
    use crate::store::{Caller, DeterministicRandom, MemoryStorage, NewTask, Store, StoreConfig};

    const T0: u64 = 1_764_066_600_000;

    fn store() -> Store<MemoryStorage, DeterministicRandom> {
        let config = StoreConfig {
            record_changes: true,
            ..StoreConfig::default()
        };
        Store::in_memory(config, DeterministicRandom::new(7)).unwrap()
    }

    fn parse(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    /// The declared shape of a record, built from its V25 and V26 tasks.
    fn store_task(r: &TaskRecord) -> StoreTask {
        StoreTask {
            task_id: r.id.clone(),
            status: r.status(),
            protocol_version: r.protocol,
            session: r.session.clone(),
            owner: r.owner.clone(),
            expires_at_ms: r.expires_at_ms(),
            input_responses: has_answered_input(r)
                .then(|| serde_json::to_value(Answered(r)).unwrap())
                .and_then(|v| v.as_object().cloned()),
            v25: r.to_v25(),
            v26: r.to_v26_detailed(),
        }
    }

    fn obj(v: Value) -> JsonObject {
        v.as_object().unwrap().clone()
    }

    /// Records in every status, with and without a session, an owner, answered input.
    fn records() -> Vec<TaskRecord> {
        let mut s = store();
        let mut out = Vec::new();
        let new = |s: &mut Store<_, _>, v, session: Option<&str>| {
            let mut n = NewTask::new(v).ttl(60_000);
            if let Some(session) = session {
                n = n.session(session);
            }
            s.create(n, T0).unwrap().id
        };
        let a = new(&mut s, ProtocolVersion::V2025, Some("s1"));
        out.push(s.get(Caller::Host, &a, T0).unwrap());
        let owned = NewTask::new(ProtocolVersion::V2026)
            .session("s1")
            .owner("alice");
        out.push(s.create(owned, T0).unwrap());
        let b = new(&mut s, ProtocolVersion::V2026, None);
        let requests = obj(
            json!({"k": {"method": "elicitation/create", "params": {}}, "l": {"method": "roots/list"}}),
        );
        out.push(
            s.raise_input(Caller::Host, &b, requests, Some("m".into()), T0 + 1)
                .unwrap(),
        );
        let taken = s
            .take_input(
                Caller::Host,
                &b,
                obj(json!({"k": {"action": "accept"}})),
                T0 + 2,
            )
            .unwrap();
        out.push(taken.task);
        let result = obj(json!({"content": [{"text": "é\u{1F600}", "type": "text"}]}));
        out.push(s.complete(Caller::Host, &b, result, None, T0 + 3).unwrap());
        let c = new(&mut s, ProtocolVersion::V2025, Some("s2"));
        let error = crate::model::common::JsonRpcError {
            code: -32001,
            message: "down".into(),
            data: Some(json!({"a": null})),
        };
        out.push(s.fail(Caller::Host, &c, error, None, T0 + 4).unwrap());
        let d = new(&mut s, ProtocolVersion::V2025, None);
        let failed = obj(json!({"content": [], "isError": true}));
        out.push(
            s.fail_with_tool_result(Caller::Host, &d, failed, None, T0 + 5)
                .unwrap(),
        );
        let e = new(&mut s, ProtocolVersion::V2025, None);
        let cancelled = s.cancel(Caller::Host, &e, ProtocolVersion::V2025, None, T0 + 6);
        out.push(cancelled.unwrap().task);
        out
    }

    #[test]
    fn a_task_crosses_as_its_declared_store_task_with_its_revision() {
        for r in records() {
            let text = task_text(&r).unwrap();
            // The same members in the same order as the declared shape serialized.
            let declared = serde_json::to_string(&store_task(&r)).unwrap();
            assert_eq!(
                text,
                format!(r#"{{"revision":{},"answer":{declared}}}"#, r.version)
            );
            // Whole, a terminal write's answer is the same text.
            assert_eq!(written_text(&r, false).unwrap(), text);
        }
    }

    #[test]
    fn a_bare_terminal_answer_leaves_out_the_given_payload_and_says_where() {
        for r in records() {
            let whole = parse(&task_text(&r).unwrap());
            let bare = parse(&written_text(&r, true).unwrap());
            let Some(at) = bare.get("payloadAt") else {
                // Nothing left out: a working, input, cancelled or `fail`ed task (its error is kept
                // as `code`, `message`, `data`, not as given).
                assert_eq!(bare, whole);
                continue;
            };
            let path: Vec<&str> = at
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            let pointer = format!("/{}", path.join("/"));
            assert!(
                bare["answer"].pointer(&pointer).unwrap().is_null(),
                "{pointer}"
            );
            // Put back where it says, the answer is the whole one.
            let mut filled = bare["answer"].clone();
            *filled.pointer_mut(&pointer).unwrap() =
                whole["answer"].pointer(&pointer).unwrap().clone();
            assert_eq!(filled, whole["answer"]);
            assert_eq!(bare["revision"], whole["revision"]);
        }
        let kinds: Vec<Value> = records()
            .iter()
            .filter_map(|r| {
                parse(&written_text(r, true).unwrap())
                    .get("payloadAt")
                    .cloned()
            })
            .collect();
        assert_eq!(
            kinds,
            [
                json!(["v26", "result"]),
                json!(["v26", "error", "data", "toolResult"])
            ]
        );
    }

    #[test]
    fn answered_input_crosses_with_the_outcome_of_take_input() {
        let mut s = store();
        let id = s
            .create(NewTask::new(ProtocolVersion::V2026), T0)
            .unwrap()
            .id;
        let requests = json!({"k": {"method": "elicitation/create", "params": {}}});
        let requests = requests.as_object().unwrap().clone();
        s.raise_input(Caller::Host, &id, requests, None, T0 + 1)
            .unwrap();
        let responses = json!({"k": {"action": "accept"}, "x": {}});
        let taken = s
            .take_input(
                Caller::Host,
                &id,
                responses.as_object().unwrap().clone(),
                T0 + 2,
            )
            .unwrap();
        let wire = parse(&taken_text(&taken).unwrap());
        assert_eq!(wire["revision"], json!(taken.task.version));
        let wire = &wire["answer"];
        assert_eq!(wire["accepted"], json!(["k"]));
        assert_eq!(wire["ignored"], json!(["x"]));
        assert_eq!(
            wire["task"]["inputResponses"],
            json!({"k": {"action": "accept"}})
        );
        assert!(wire["task"].get("session").is_none());
    }

    #[test]
    fn pages_cancels_and_changes_cross_with_their_tasks() {
        let mut s = store();
        let a = s.create(NewTask::new(ProtocolVersion::V2025), T0).unwrap();
        s.create(NewTask::new(ProtocolVersion::V2025), T0).unwrap();
        let page = s.list(Caller::Host, None, Some(1), T0).unwrap();
        let wire = parse(&json_text(&WirePage::from(&page)).unwrap());
        assert_eq!(wire["tasks"][0]["v25"]["taskId"], json!(a.id));
        assert!(wire["nextCursor"].is_string());
        let cancelled = s
            .cancel(Caller::Host, &a.id, ProtocolVersion::V2026, None, T0 + 5)
            .unwrap();
        let wire = parse(&cancelled_text(&cancelled).unwrap());
        assert_eq!(wire["revision"], json!(cancelled.task.version));
        assert_eq!(wire["answer"]["changed"], json!(true));
        assert_eq!(wire["answer"]["task"]["v26"]["status"], json!("cancelled"));
        s.remove(Caller::Host, &a.id, T0 + 6).unwrap();
        let changes = parse(&changes_text(&s.take_changes()).unwrap());
        let kinds: Vec<&str> = changes
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["kind"].as_str().unwrap())
            .collect();
        assert_eq!(kinds, ["created", "created", "updated", "deleted"]);
        assert_eq!(
            changes[2]["record"],
            serde_json::to_value(&cancelled.task).unwrap()
        );
        assert_eq!(
            changes[3],
            json!({"kind": "deleted", "taskId": a.id, "reason": "removed"})
        );
    }

    #[test]
    fn stored_changes_carry_the_records_and_no_view() {
        let mut s = store();
        let a = s.create(NewTask::new(ProtocolVersion::V2025), T0).unwrap();
        let cancelled = s
            .cancel(Caller::Host, &a.id, ProtocolVersion::V2026, None, T0 + 5)
            .unwrap();
        s.remove(Caller::Host, &a.id, T0 + 6).unwrap();
        let changes = parse(&stored_changes_text(&s.take_changes()).unwrap());
        assert_eq!(
            changes,
            json!([
                {"kind": "created", "record": serde_json::to_value(&a).unwrap()},
                {"kind": "updated", "record": serde_json::to_value(&cancelled.task).unwrap()},
                {"kind": "deleted", "taskId": a.id},
            ])
        );
    }

    #[test]
    fn a_list_position_names_the_scope_and_what_the_cursor_follows() {
        let text = |p: Result<ListPosition<'_>, StoreError>| json_text(&p.unwrap()).unwrap();
        let key = [7u8; 16];
        assert_eq!(
            text(list_position(&key, None, Caller::Host, false)),
            r#"{"after":0,"scope":{"kind":"all"}}"#
        );
        assert_eq!(
            text(list_position(&key, None, Caller::Session(None), false)),
            r#"{"after":0,"scope":{"kind":"session","session":null}}"#
        );
        let scope = Scope::Session(Some("s"));
        let cursor = cursor::encode(&key, scope, None, 41);
        assert_eq!(
            text(list_position(
                &key,
                Some(&cursor),
                Caller::Session(Some("s")),
                false
            )),
            r#"{"after":41,"scope":{"kind":"session","session":"s"}}"#
        );
        assert!(matches!(
            list_position(&key, Some(&cursor), Caller::Session(Some("t")), false),
            Err(StoreError::InvalidCursor)
        ));
        assert!(matches!(
            list_position(&key, Some(&cursor), Caller::Session(Some("s")), true),
            Err(StoreError::InvalidCursor)
        ));
        // An owner's cursor is good for that owner only, in the same scope.
        let owned = cursor::encode(&key, scope, Some("alice"), 41);
        assert!(
            list_position(&key, Some(&owned), Caller::Owner(Some("s"), "alice"), false).is_ok()
        );
        assert!(matches!(
            list_position(&key, Some(&owned), Caller::Owner(Some("s"), "bob"), false),
            Err(StoreError::InvalidCursor)
        ));
    }

    #[test]
    fn carried_lone_surrogates_are_written_back_as_escapes() {
        let (carried, _) = crate::validate::surrogates::carry(r#"{"m":"a\ud800b"}"#);
        let value: Value = serde_json::from_str(&carried).unwrap();
        assert_eq!(json_text(&value).unwrap(), r#"{"m":"a\ud800b"}"#);
        assert_eq!(json_text(&json!({"m": "é"})).unwrap(), r#"{"m":"é"}"#);
    }
}
