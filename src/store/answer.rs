//! The store's answers as JSON text, as they cross to the JS classes (js/server/store.ts), which
//! parse each once. A task crosses without what it repeats (`taskId`, `status`, the `v25` task):
//! the JS class takes them from `v26`, whose fields are the V25 task's under their V25 names
//! (`ttlMs` → `ttl`, `pollIntervalMs` → `pollInterval`). Written straight from the records
//! (no copy of a payload); the text's carried lone surrogates are written back as escapes
//! ([`json_text`]). The declared (TypeScript) shapes the JS classes build from them are here too:
//! [`StoreTask`], [`TaskPage`], [`TakeInputOutcome`], [`CancelOutcome`], [`StoreChange`].

use serde::Serialize;
use tsify::Tsify;

use crate::model::common::JsonObject;
use crate::model::v2025::V25Task;
use crate::model::v2026::V26DetailedTask;
use crate::model::{ProtocolVersion, TaskStatus};

use super::cursor::{self, CursorKey};
use super::error::StoreError;
use super::ops::{Cancelled, Change, InputTaken, ListPage};
use super::record::{timestamp, InputState, TaskRecord, V26View};
use super::rules::{list_scope, Caller};
use super::storage::Scope;

// ---- the declared shapes (what the JS classes answer, built from what crosses) -------------

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

/// A task as it crosses (see the module).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WireTask<'a> {
    /// The record's version: the JS class keeps the answer while the task stays at it.
    revision: u64,
    protocol_version: ProtocolVersion,
    #[serde(skip_serializing_if = "Option::is_none")]
    session: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    owner: Option<&'a str>,
    expires_at_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    input_responses: Option<Answered<'a>>,
    v26: V26View<'a>,
}

impl<'a> From<&'a TaskRecord> for WireTask<'a> {
    fn from(record: &'a TaskRecord) -> Self {
        WireTask {
            revision: record.version,
            protocol_version: record.protocol,
            session: record.session.as_deref(),
            owner: record.owner.as_deref(),
            expires_at_ms: record.expires_at_ms(),
            input_responses: has_answered_input(record).then_some(Answered(record)),
            v26: V26View(record),
        }
    }
}

/// The fields of a task a terminal write leaves as they were (the bindings' `writtenBase`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WrittenBase<'a> {
    protocol_version: ProtocolVersion,
    #[serde(skip_serializing_if = "Option::is_none")]
    session: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    owner: Option<&'a str>,
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
        WrittenBase {
            protocol_version: record.protocol,
            session: record.session.as_deref(),
            owner: record.owner.as_deref(),
            expires_at_ms: record.expires_at_ms(),
            input_responses: has_answered_input(record).then_some(Answered(record)),
            created_at: timestamp(record.created_at_ms),
            ttl_ms: record.ttl_ms,
            poll_interval_ms: record.poll_interval_ms,
        }
    }
}

/// One `list` page as it crosses.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WirePage<'a> {
    tasks: Vec<WireTask<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<&'a str>,
}

impl<'a> From<&'a ListPage> for WirePage<'a> {
    fn from(page: &'a ListPage) -> Self {
        WirePage {
            tasks: page.tasks.iter().map(WireTask::from).collect(),
            next_cursor: page.next_cursor.as_deref(),
        }
    }
}

/// What `take_input` did, as it crosses.
#[derive(Serialize)]
pub struct WireTakeInput<'a> {
    task: WireTask<'a>,
    accepted: &'a [String],
    ignored: &'a [String],
}

impl<'a> From<&'a InputTaken> for WireTakeInput<'a> {
    fn from(taken: &'a InputTaken) -> Self {
        WireTakeInput {
            task: WireTask::from(&taken.task),
            accepted: &taken.accepted,
            ignored: &taken.ignored,
        }
    }
}

/// What `cancel` did, as it crosses.
#[derive(Serialize)]
pub struct WireCancel<'a> {
    task: WireTask<'a>,
    changed: bool,
}

impl<'a> From<&'a Cancelled> for WireCancel<'a> {
    fn from(cancelled: &'a Cancelled) -> Self {
        WireCancel {
            task: WireTask::from(&cancelled.task),
            changed: cancelled.changed,
        }
    }
}

/// One write as it crosses (`takeChanges()`): the task's view and its stored record.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WireChange<'a> {
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
        reason: super::ops::DeleteReason,
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
                reason: *reason,
            },
        }
    }
}

/// What a terminal write answers besides the revision, read by the JS class from wasm memory
/// (`writtenAt()`: numbers, no call) and with `lastMessage()` instead of the task as JSON text
/// (the bindings' `TaskServerCore` keeps the last one).
#[derive(Debug, Default)]
pub struct Written {
    /// Its `statusMessage`.
    pub message: Option<String>,
    /// `[lastUpdatedAt (Unix ms), protocol (index in protocolVersions()), expiresAtMs,
    /// createdAt (Unix ms), ttlMs, pollIntervalMs (-1: null or absent), 0 when that is all the
    /// write left unchanged (the session is the caller's, no answered input) or 1 (read
    /// `writtenBase`), the store's write count after the write (`writes()`)]`.
    pub fields: [f64; 8],
}

/// `Written::fields[6]`: the task's session is the caller's, it has no owner and holds no
/// answered input.
pub const FIELDS_COMPLETE: f64 = 0.0;
/// `Written::fields[6]`: read the rest from `writtenBase`.
pub const FIELDS_PARTIAL: f64 = 1.0;

impl Written {
    /// The answer of `record` as written for a caller of `session`.
    pub fn of(record: &TaskRecord, session: Option<&str>) -> (u64, Written) {
        let opt = |v: Option<u64>| v.map_or(-1.0, |v| v as f64);
        let plain = record.session.as_deref() == session
            && record.owner.is_none()
            && !has_answered_input(record);
        let protocol = ProtocolVersion::ALL
            .iter()
            .position(|p| *p == record.protocol)
            .unwrap_or(0);
        let written = Written {
            message: record.status_message.clone(),
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

/// A record as the JSON text of its task (see the module).
pub fn task_text(record: &TaskRecord) -> Result<String, serde_json::Error> {
    json_text(&WireTask::from(record))
}

/// Writes as the JSON text of `StoreChange[]` (tasks as they cross).
pub fn changes_text(changes: &[Change]) -> Result<String, serde_json::Error> {
    let changes: Vec<WireChange<'_>> = changes.iter().map(WireChange::from).collect();
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

    #[test]
    fn a_task_crosses_without_what_it_repeats() {
        let mut s = store();
        let new = NewTask::new(ProtocolVersion::V2025)
            .session("s1")
            .ttl(60_000);
        let record = s.create(new, T0).unwrap();
        let wire = parse(&task_text(&record).unwrap());
        assert_eq!(
            wire,
            json!({
                "revision": 1,
                "protocolVersion": "2025-11-25",
                "session": "s1",
                "expiresAtMs": T0 + 60_000,
                "v26": serde_json::to_value(record.to_v26_detailed()).unwrap(),
            })
        );
    }

    #[test]
    fn answered_input_crosses_and_the_written_base_keeps_it() {
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
        let wire = parse(&json_text(&WireTakeInput::from(&taken)).unwrap());
        assert_eq!(wire["accepted"], json!(["k"]));
        assert_eq!(wire["ignored"], json!(["x"]));
        assert_eq!(
            wire["task"]["inputResponses"],
            json!({"k": {"action": "accept"}})
        );
        assert!(wire["task"].get("session").is_none());
        let base = parse(&json_text(&WrittenBase::from(&taken.task)).unwrap());
        assert_eq!(
            base,
            json!({
                "protocolVersion": "2026-07-28",
                "expiresAtMs": taken.task.expires_at_ms(),
                "inputResponses": {"k": {"action": "accept"}},
                "createdAt": "2025-11-25T10:30:00.000Z",
                "ttlMs": taken.task.ttl_ms,
                "pollIntervalMs": taken.task.poll_interval_ms,
            })
        );
    }

    #[test]
    fn pages_cancels_and_changes_cross_with_their_tasks() {
        let mut s = store();
        let a = s.create(NewTask::new(ProtocolVersion::V2025), T0).unwrap();
        s.create(NewTask::new(ProtocolVersion::V2025), T0).unwrap();
        let page = s.list(Caller::Host, None, Some(1), T0).unwrap();
        let wire = parse(&json_text(&WirePage::from(&page)).unwrap());
        assert_eq!(wire["tasks"][0]["v26"]["taskId"], json!(a.id));
        assert!(wire["nextCursor"].is_string());
        let cancelled = s
            .cancel(Caller::Host, &a.id, ProtocolVersion::V2026, None, T0 + 5)
            .unwrap();
        let wire = parse(&json_text(&WireCancel::from(&cancelled)).unwrap());
        assert_eq!(wire["changed"], json!(true));
        assert_eq!(wire["task"]["v26"]["status"], json!("cancelled"));
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
    fn a_terminal_write_answers_its_numbers() {
        let mut s = store();
        let new = NewTask::new(ProtocolVersion::V2026).session("s1");
        let record = s.create(new, T0).unwrap();
        let (revision, written) = Written::of(&record, Some("s1"));
        assert_eq!(revision, record.version);
        assert_eq!(written.message, record.status_message);
        let ttl = record.ttl_ms.unwrap() as f64;
        assert_eq!(
            written.fields,
            [
                T0 as f64,
                1.0, // the index of 2026-07-28 in ProtocolVersion::ALL
                T0 as f64 + ttl,
                T0 as f64,
                ttl,
                record.poll_interval_ms.map_or(-1.0, |p| p as f64),
                FIELDS_COMPLETE,
                0.0, // the write count: set by the binding once written
            ]
        );
        // Another caller's session: the JS class reads the rest from `writtenBase`.
        assert_eq!(Written::of(&record, None).1.fields[6], FIELDS_PARTIAL);
        let unlimited = TaskRecord {
            ttl_ms: None,
            poll_interval_ms: None,
            ..record
        };
        let fields = Written::of(&unlimited, Some("s1")).1.fields;
        assert_eq!((fields[2], fields[4], fields[5]), (-1.0, -1.0, -1.0));
    }

    #[test]
    fn carried_lone_surrogates_are_written_back_as_escapes() {
        let (carried, _) = crate::validate::surrogates::carry(r#"{"m":"a\ud800b"}"#);
        let value: Value = serde_json::from_str(&carried).unwrap();
        assert_eq!(json_text(&value).unwrap(), r#"{"m":"a\ud800b"}"#);
        assert_eq!(json_text(&json!({"m": "é"})).unwrap(), r#"{"m":"é"}"#);
    }
}
