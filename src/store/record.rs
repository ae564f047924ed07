//! The stored task: [`TaskRecord`], its state (status with the payload that status carries), its
//! input ledger, and its wire shapes in both versions.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::model::common::{JsonObject, JsonRpcError};
use crate::model::v2025::V25Task;
use crate::model::v2026::{
    V26DetailedTask, V26InputRequests, V26Task, V26TaskFields, V26TaskPayload,
};
use crate::model::{ProtocolVersion, TaskStatus};

/// The status of a task together with the payload its status carries. Terminal payloads live
/// inside their status, so a `completed` task without a result (or a `working` task with one),
/// or a `failed` task with both an error and a result, cannot be represented.
///
/// Stored (snapshots, changes) as `status` plus `result` / `error`: `failed` carries exactly one
/// of `error` (a JSON-RPC error) and `result` (a tool result with `isError: true`).
#[derive(Debug, Clone, PartialEq)]
pub enum TaskState {
    Working,
    InputRequired,
    /// Exactly what the original request would have returned (§D 30, 92).
    Completed {
        result: Payload,
    },
    /// The JSON-RPC error the underlying request ended with (§D 91).
    Failed {
        error: JsonRpcError,
    },
    /// `failed` because the tool result has `isError: true`: the 2025-11-25 rule (§D 44); that
    /// result is what V25 `tasks/result` answers (§D 30). Only V25-created tasks get here
    /// (2026-07-28 keeps such a result `completed`, §D 91). Its V26 view is `failed` with the
    /// derived error of [`tool_failure_error`].
    ToolFailed {
        result: Payload,
    },
    Cancelled,
}

pub use super::payload::{is_tool_error, Payload};

/// The JSON-RPC error a [`TaskState::ToolFailed`] task shows in its V26 view (a V26 `failed`
/// must carry one, §D 91): -32603 with the tool result in `data.toolResult`. Derived, never
/// stored; V25 `tasks/result` answers the result itself.
pub fn tool_failure_error(result: &JsonObject) -> JsonRpcError {
    let mut data = JsonObject::new();
    data.insert("toolResult".into(), Value::Object(result.clone()));
    JsonRpcError {
        code: TOOL_FAILURE_CODE,
        message: TOOL_FAILURE_MESSAGE.into(),
        data: Some(Value::Object(data)),
    }
}

/// The code of [`tool_failure_error`].
const TOOL_FAILURE_CODE: i64 = -32603;
/// The message of [`tool_failure_error`].
const TOOL_FAILURE_MESSAGE: &str = "Tool execution error (the tool result has isError: true)";

/// The `statusMessage` of a task failed by a tool error (§D 44 SHOULD: a diagnostic):
/// "Tool reported an error: <its first text content, at most 200 characters>".
pub fn tool_error_message(result: &JsonObject) -> String {
    let text = result
        .get("content")
        .and_then(Value::as_array)
        .and_then(|c| {
            c.iter()
                .find_map(|item| item.get("text").and_then(Value::as_str))
        });
    match text {
        Some(t) => format!(
            "Tool reported an error: {}",
            t.chars().take(200).collect::<String>()
        ),
        None => "Tool reported an error".into(),
    }
}

impl TaskState {
    /// The wire status of this state.
    pub fn status(&self) -> TaskStatus {
        match self {
            TaskState::Working => TaskStatus::Working,
            TaskState::InputRequired => TaskStatus::InputRequired,
            TaskState::Completed { .. } => TaskStatus::Completed,
            TaskState::Failed { .. } | TaskState::ToolFailed { .. } => TaskStatus::Failed,
            TaskState::Cancelled => TaskStatus::Cancelled,
        }
    }
}

/// Where one input request (V26 `inputRequests` entry) stands.
#[derive(Debug, Clone, PartialEq)]
pub enum InputState {
    /// Issued and not answered: listed in `inputRequests` (§D 85).
    Outstanding,
    /// Answered through `tasks/update`; the response is kept for the work (and survives restarts).
    Answered { response: Value },
    /// Withdrawn by the server (the task moved on without the answer); later answers are ignored.
    Superseded,
}

/// One input request ever issued by a task. Entries are never removed, so a key is unique over
/// the task's whole life (§D 87). Stored as `{request, state, response?}`.
#[derive(Debug, Clone, PartialEq)]
pub struct InputEntry {
    /// The bare request `{method, params}`.
    pub request: Value,
    pub state: InputState,
}

/// A task's input ledger: every [`InputEntry`] by key, in key order (§D 87). A sorted vector
/// rather than a `BTreeMap`, which would add a B-tree instantiation of its own to the wasm build.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Inputs(Vec<(String, InputEntry)>);

type InputPair<'a> = (&'a String, &'a InputEntry);

/// The iterator of [`Inputs::iter`]: `(key, entry)` in key order.
pub type InputsIter<'a> = std::iter::Map<std::slice::Iter<'a, (String, InputEntry)>, PairFn<'a>>;

type PairFn<'a> = fn(&'a (String, InputEntry)) -> InputPair<'a>;

fn pair(e: &(String, InputEntry)) -> InputPair<'_> {
    (&e.0, &e.1)
}

impl Inputs {
    pub fn new() -> Self {
        Inputs(Vec::new())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    pub fn get(&self, key: &str) -> Option<&InputEntry> {
        self.find(key)
            .ok()
            .and_then(|i| self.0.get(i))
            .map(|e| &e.1)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut InputEntry> {
        self.find(key)
            .ok()
            .and_then(|i| self.0.get_mut(i))
            .map(|e| &mut e.1)
    }

    /// Inserts or replaces the entry of `key`; returns the replaced one.
    pub fn insert(&mut self, key: String, entry: InputEntry) -> Option<InputEntry> {
        match self.find(&key) {
            Ok(i) => self
                .0
                .get_mut(i)
                .map(|e| std::mem::replace(&mut e.1, entry)),
            Err(i) => {
                self.0.insert(i, (key, entry));
                None
            }
        }
    }

    /// The entries in key order.
    pub fn iter(&self) -> InputsIter<'_> {
        self.0.iter().map(pair as PairFn<'_>)
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut InputEntry> {
        self.0.iter_mut().map(|e| &mut e.1)
    }
}

impl<'a> IntoIterator for &'a Inputs {
    type Item = InputPair<'a>;
    type IntoIter = InputsIter<'a>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// A task as the store keeps it.
///
/// `version` is the revision counter compare-and-swap writes check (1 at creation, +1 per
/// write); `seq` is the creation sequence number that orders `tasks/list` (never reused).
///
/// Its stored JSON (snapshots, changes) is written and read by hand ([`TaskRecord::to_json`],
/// [`TaskRecord::from_json`]; the serde impls go through them): camelCase members, the state as
/// `status` + `result` / `error`, absent optional members omitted. Hand-written because derived
/// code (flattened, internally tagged) cost the wasm build tens of KB.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskRecord {
    pub id: String,
    pub version: u64,
    pub seq: u64,
    /// The protocol version of the request that created the task.
    pub protocol: ProtocolVersion,
    /// The session (authorization context) the task is bound to, if any.
    pub session: Option<String>,
    /// The owner (the authenticated principal of the creating request) the task is bound to, if
    /// any (records stored before owners existed have none).
    pub owner: Option<String>,
    pub state: TaskState,
    pub status_message: Option<String>,
    /// Unix milliseconds; never changes.
    pub created_at_ms: u64,
    /// Unix milliseconds; never decreases, never below `created_at_ms`.
    pub last_updated_at_ms: u64,
    /// The TTL the requestor asked for (V25 `params.task.ttl`), if any.
    pub requested_ttl_ms: Option<u64>,
    /// The effective TTL reported on the wire (`ttl` / `ttlMs`); `None` = unlimited.
    pub ttl_ms: Option<u64>,
    pub poll_interval_ms: Option<u64>,
    /// Every input request the task ever issued, by key.
    pub inputs: Inputs,
}

impl Serialize for TaskRecord {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Value::Object(self.to_json()).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for TaskRecord {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        TaskRecord::from_json(&value).map_err(serde::de::Error::custom)
    }
}

fn put_opt_u64(o: &mut JsonObject, key: &str, v: Option<u64>) {
    if let Some(v) = v {
        o.insert(key.into(), Value::from(v));
    }
}

fn put_opt_str(o: &mut JsonObject, key: &str, v: &Option<String>) {
    if let Some(v) = v {
        o.insert(key.into(), Value::String(v.clone()));
    }
}

/// The JSON of a JSON-RPC error object (`data` omitted when absent).
pub fn error_to_json(e: &JsonRpcError) -> Value {
    let mut o = JsonObject::new();
    o.insert("code".into(), Value::from(e.code));
    o.insert("message".into(), Value::String(e.message.clone()));
    if let Some(d) = &e.data {
        o.insert("data".into(), d.clone());
    }
    Value::Object(o)
}

/// A JSON-RPC error object: integer `code`, string `message`, any `data`.
pub fn error_from_json(v: &Value) -> Result<JsonRpcError, String> {
    let o = v.as_object().ok_or("the error is not an object")?;
    Ok(JsonRpcError {
        code: o
            .get("code")
            .and_then(Value::as_i64)
            .ok_or("the error's `code` is not an integer")?,
        message: o
            .get("message")
            .and_then(Value::as_str)
            .ok_or("the error's `message` is not a string")?
            .to_owned(),
        data: o.get("data").cloned(),
    })
}

/// Reads the members of one stored object.
struct Fields<'a> {
    o: &'a JsonObject,
    what: &'a str,
}

impl<'a> Fields<'a> {
    fn get(&self, key: &str) -> Option<&'a Value> {
        self.o.get(key).filter(|v| !v.is_null())
    }

    fn bad(&self, key: &str, expected: &str) -> String {
        format!("{}: `{key}` must be {expected}", self.what)
    }

    fn opt_u64(&self, key: &str) -> Result<Option<u64>, String> {
        self.get(key)
            .map(|v| {
                v.as_u64()
                    .ok_or_else(|| self.bad(key, "a non-negative integer"))
            })
            .transpose()
    }

    fn u64(&self, key: &str) -> Result<u64, String> {
        self.opt_u64(key)?
            .ok_or_else(|| self.bad(key, "a non-negative integer"))
    }

    fn opt_str(&self, key: &str) -> Result<Option<&'a str>, String> {
        self.get(key)
            .map(|v| v.as_str().ok_or_else(|| self.bad(key, "a string")))
            .transpose()
    }

    fn str(&self, key: &str) -> Result<&'a str, String> {
        self.opt_str(key)?.ok_or_else(|| self.bad(key, "a string"))
    }

    fn opt_object(&self, key: &str) -> Result<Option<&'a JsonObject>, String> {
        self.get(key)
            .map(|v| v.as_object().ok_or_else(|| self.bad(key, "an object")))
            .transpose()
    }
}

impl TaskRecord {
    /// The stored JSON of this record (see the type's documentation).
    pub fn to_json(&self) -> JsonObject {
        let mut o = JsonObject::new();
        o.insert("id".into(), Value::String(self.id.clone()));
        o.insert("version".into(), Value::from(self.version));
        o.insert("seq".into(), Value::from(self.seq));
        o.insert(
            "protocol".into(),
            Value::String(self.protocol.as_str().into()),
        );
        put_opt_str(&mut o, "session", &self.session);
        put_opt_str(&mut o, "owner", &self.owner);
        o.insert(
            "status".into(),
            Value::String(self.status().as_str().into()),
        );
        match &self.state {
            TaskState::Completed { result } | TaskState::ToolFailed { result } => {
                o.insert("result".into(), Value::Object(result.object()));
            }
            TaskState::Failed { error } => {
                o.insert("error".into(), error_to_json(error));
            }
            TaskState::Working | TaskState::InputRequired | TaskState::Cancelled => {}
        }
        put_opt_str(&mut o, "statusMessage", &self.status_message);
        o.insert("createdAtMs".into(), Value::from(self.created_at_ms));
        o.insert(
            "lastUpdatedAtMs".into(),
            Value::from(self.last_updated_at_ms),
        );
        put_opt_u64(&mut o, "requestedTtlMs", self.requested_ttl_ms);
        o.insert("ttlMs".into(), self.ttl_ms.map_or(Value::Null, Value::from));
        put_opt_u64(&mut o, "pollIntervalMs", self.poll_interval_ms);
        if !self.inputs.is_empty() {
            // Inserted one by one: collecting into a map would pull in a sort.
            let mut inputs = JsonObject::new();
            for (k, e) in &self.inputs {
                let mut entry = JsonObject::new();
                entry.insert("request".into(), e.request.clone());
                let state = match &e.state {
                    InputState::Outstanding => "outstanding",
                    InputState::Answered { response } => {
                        entry.insert("response".into(), response.clone());
                        "answered"
                    }
                    InputState::Superseded => "superseded",
                };
                entry.insert("state".into(), Value::String(state.into()));
                inputs.insert(k.clone(), Value::Object(entry));
            }
            o.insert("inputs".into(), Value::Object(inputs));
        }
        o
    }

    /// A record from its stored JSON; unknown members are ignored, `null` counts as absent.
    /// Checks the shape (types, the state's payload), not the invariants
    /// ([`rules::check_invariants`](super::rules::check_invariants)).
    pub fn from_json(value: &Value) -> Result<TaskRecord, String> {
        let o = value.as_object().ok_or("a task record is not an object")?;
        let f = Fields {
            o,
            what: "task record",
        };
        let id = f.str("id")?;
        let f = Fields {
            o,
            what: &format!("task {id}"),
        };
        let protocol = f.str("protocol")?;
        let protocol = ProtocolVersion::parse(protocol)
            .ok_or_else(|| f.bad("protocol", "\"2025-11-25\" or \"2026-07-28\""))?;
        let status =
            TaskStatus::parse(f.str("status")?).ok_or_else(|| f.bad("status", "a task status"))?;
        let result = f.opt_object("result")?.cloned();
        let error = f
            .get("error")
            .map(|e| error_from_json(e).map_err(|m| format!("{}: {m}", f.what)))
            .transpose()?;
        let state = state_of(status, result, error).map_err(|m| format!("{}: {m}", f.what))?;
        let mut inputs = Inputs::new();
        for (key, entry) in f.opt_object("inputs")?.into_iter().flatten() {
            let what = format!("{}: input {key:?}", f.what);
            let eo = entry
                .as_object()
                .ok_or_else(|| format!("{what} is not an object"))?;
            let e = Fields { o: eo, what: &what };
            let request = eo
                .get("request")
                .cloned()
                .ok_or_else(|| e.bad("request", "present"))?;
            let state = match (e.str("state")?, eo.get("response")) {
                ("outstanding", _) => InputState::Outstanding,
                ("superseded", _) => InputState::Superseded,
                ("answered", Some(response)) => InputState::Answered {
                    response: response.clone(),
                },
                ("answered", None) => return Err(e.bad("response", "present when answered")),
                _ => return Err(e.bad("state", "outstanding, answered or superseded")),
            };
            inputs.insert(key.clone(), InputEntry { request, state });
        }
        Ok(TaskRecord {
            id: id.to_owned(),
            version: f.u64("version")?,
            seq: f.u64("seq")?,
            protocol,
            session: f.opt_str("session")?.map(str::to_owned),
            owner: f.opt_str("owner")?.map(str::to_owned),
            state,
            status_message: f.opt_str("statusMessage")?.map(str::to_owned),
            created_at_ms: f.u64("createdAtMs")?,
            last_updated_at_ms: f.u64("lastUpdatedAtMs")?,
            requested_ttl_ms: f.opt_u64("requestedTtlMs")?,
            ttl_ms: f.opt_u64("ttlMs")?,
            poll_interval_ms: f.opt_u64("pollIntervalMs")?,
            inputs,
        })
    }
}

/// The state a stored `status` with its `result` / `error` describes: `failed` needs exactly one
/// of an error and an `isError: true` tool result.
fn state_of(
    status: TaskStatus,
    result: Option<JsonObject>,
    error: Option<JsonRpcError>,
) -> Result<TaskState, String> {
    match (status, result, error) {
        (TaskStatus::Working, None, None) => Ok(TaskState::Working),
        (TaskStatus::InputRequired, None, None) => Ok(TaskState::InputRequired),
        (TaskStatus::Cancelled, None, None) => Ok(TaskState::Cancelled),
        (TaskStatus::Completed, Some(result), None) => Ok(TaskState::Completed {
            result: result.into(),
        }),
        (TaskStatus::Failed, None, Some(error)) => Ok(TaskState::Failed { error }),
        (TaskStatus::Failed, Some(result), None) if is_tool_error(&result) => {
            Ok(TaskState::ToolFailed {
                result: result.into(),
            })
        }
        (TaskStatus::Failed, Some(_), None) => {
            Err("a failed task's result must have isError: true".into())
        }
        (TaskStatus::Completed, None, _) => Err("a completed task needs a result".into()),
        (TaskStatus::Failed, None, None) => {
            Err("a failed task needs an error or a tool result".into())
        }
        (status, ..) => Err(format!(
            "unexpected result or error for status {}",
            status.as_str()
        )),
    }
}

impl TaskRecord {
    /// The wire status.
    pub fn status(&self) -> TaskStatus {
        self.state.status()
    }

    /// The instant after which the task may be purged (`createdAt + ttl`); `None` = never.
    pub fn expires_at_ms(&self) -> Option<u64> {
        self.ttl_ms
            .and_then(|ttl| self.created_at_ms.checked_add(ttl))
    }

    /// The keys of the outstanding input requests, in key order.
    pub fn outstanding_keys(&self) -> impl Iterator<Item = &str> {
        self.inputs
            .iter()
            .filter(|(_, e)| e.state == InputState::Outstanding)
            .map(|(k, _)| k.as_str())
    }

    /// The outstanding input requests as the V26 `inputRequests` object (§D 85).
    pub fn input_requests(&self) -> V26InputRequests {
        let mut requests = JsonObject::new();
        for (k, e) in &self.inputs {
            if e.state == InputState::Outstanding {
                requests.insert(k.clone(), e.request.clone());
            }
        }
        V26InputRequests(requests)
    }

    /// The V25 wire task (`ttl`, `pollInterval`; no payload: V25 delivers it through
    /// `tasks/result`).
    pub fn to_v25(&self) -> V25Task {
        V25Task {
            task_id: self.id.clone(),
            status: self.status(),
            status_message: self.status_message.clone(),
            created_at: timestamp(self.created_at_ms),
            last_updated_at: timestamp(self.last_updated_at_ms),
            ttl: self.ttl_ms,
            poll_interval: self.poll_interval_ms,
        }
    }

    fn v26_fields(&self) -> V26TaskFields {
        V26TaskFields {
            task_id: self.id.clone(),
            status_message: self.status_message.clone(),
            created_at: timestamp(self.created_at_ms),
            last_updated_at: timestamp(self.last_updated_at_ms),
            ttl_ms: self.ttl_ms,
            poll_interval_ms: self.poll_interval_ms,
        }
    }

    /// The flat V26 task (`ttlMs`, `pollIntervalMs`) that `CreateTaskResult` carries.
    pub fn to_v26_task(&self) -> V26Task {
        V26Task {
            fields: self.v26_fields(),
            status: self.status(),
        }
    }

    /// The V26 `DetailedTask`: the payload of the current status (§D 85).
    pub fn to_v26_detailed(&self) -> V26DetailedTask {
        let payload = match &self.state {
            TaskState::Working => V26TaskPayload::Working {},
            TaskState::InputRequired => V26TaskPayload::InputRequired {
                input_requests: self.input_requests(),
            },
            TaskState::Completed { result } => V26TaskPayload::Completed {
                result: result.object(),
            },
            TaskState::Failed { error } => V26TaskPayload::Failed {
                error: error.clone(),
            },
            TaskState::ToolFailed { result } => V26TaskPayload::Failed {
                error: tool_failure_error(&result.object()),
            },
            TaskState::Cancelled => V26TaskPayload::Cancelled {},
        };
        V26DetailedTask {
            fields: self.v26_fields(),
            payload,
        }
    }
}

/// [`TaskRecord::to_v26_detailed`] written straight from the record, without copying its
/// payload: the same JSON (a test holds them equal for every status), for answers that are
/// serialized at once.
pub struct V26View<'a>(pub &'a TaskRecord);

/// The outstanding input requests of a record, written as the V26 `inputRequests` object.
struct Outstanding<'a>(&'a TaskRecord);

impl Serialize for Outstanding<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(
            self.0
                .inputs
                .iter()
                .filter(|(_, e)| e.state == InputState::Outstanding)
                .map(|(k, e)| (k, &e.request)),
        )
    }
}

impl Serialize for V26View<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        write_v26(self.0, true, s)
    }
}

/// [`V26View`] without the payload a terminal write was given: `result` of a completed task,
/// `error.data.toolResult` of one failed by a tool result, written as `null` (where
/// [`V26Shell::payload_at`] says), for a caller that holds that payload already.
pub struct V26Shell<'a>(pub &'a TaskRecord);

impl V26Shell<'_> {
    /// Where the payload left out is, as member names from the `DetailedTask` (`None`: nothing
    /// is left out, the task holds no such payload).
    pub fn payload_at(&self) -> Option<&'static [&'static str]> {
        match self.0.state {
            TaskState::Completed { .. } => Some(&["result"]),
            TaskState::ToolFailed { .. } => Some(&["error", "data", "toolResult"]),
            _ => None,
        }
    }
}

impl Serialize for V26Shell<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        write_v26(self.0, false, s)
    }
}

/// The V26 `DetailedTask` of `r`; without the given payload unless `payload` ([`V26Shell`]).
fn write_v26<S: Serializer>(r: &TaskRecord, payload: bool, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(None)?;
    m.serialize_entry("taskId", &r.id)?;
    if let Some(message) = &r.status_message {
        m.serialize_entry("statusMessage", message)?;
    }
    m.serialize_entry("createdAt", &timestamp(r.created_at_ms))?;
    m.serialize_entry("lastUpdatedAt", &timestamp(r.last_updated_at_ms))?;
    m.serialize_entry("ttlMs", &r.ttl_ms)?;
    if let Some(poll) = r.poll_interval_ms {
        m.serialize_entry("pollIntervalMs", &poll)?;
    }
    m.serialize_entry("status", &r.status())?;
    let given = |p| payload.then_some(p);
    match &r.state {
        TaskState::Working | TaskState::Cancelled => {}
        TaskState::InputRequired => m.serialize_entry("inputRequests", &Outstanding(r))?,
        TaskState::Completed { result } => m.serialize_entry("result", &given(result))?,
        TaskState::Failed { error } => m.serialize_entry("error", error)?,
        TaskState::ToolFailed { result } => {
            m.serialize_entry("error", &ToolFailure(given(result)))?
        }
    }
    m.end()
}

/// [`tool_failure_error`] of a payload (`None`: written as `null`), written without parsing it.
struct ToolFailure<'a>(Option<&'a Payload>);

/// `{ "toolResult": payload }`.
struct ToolResultData<'a>(Option<&'a Payload>);

impl Serialize for ToolFailure<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("code", &TOOL_FAILURE_CODE)?;
        m.serialize_entry("message", TOOL_FAILURE_MESSAGE)?;
        m.serialize_entry("data", &ToolResultData(self.0))?;
        m.end()
    }
}

impl Serialize for ToolResultData<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry("toolResult", &self.0)?;
        m.end()
    }
}

/// The latest instant the store emits, in Unix ms (9999-12-31T23:59:59.999Z): RFC 3339 has
/// four-digit years, so later instants would give timestamps validators refuse.
pub const MAX_TIMESTAMP_MS: u64 = 253_402_300_799_999;

/// RFC 3339 UTC with millisecond precision (`2025-11-25T10:30:00.000Z`), as both versions emit
/// (§A.d, §B.d): written in one place, [`crate::base::time`].
pub use crate::base::time::format_ms as timestamp;

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use serde_json::json;

    fn record(state: TaskState) -> TaskRecord {
        TaskRecord {
            id: "abc".into(),
            version: 1,
            seq: 1,
            protocol: ProtocolVersion::V2026,
            session: None,
            owner: None,
            state,
            status_message: Some("m".into()),
            created_at_ms: 1_764_066_600_000,
            last_updated_at_ms: 1_764_066_600_250,
            requested_ttl_ms: None,
            ttl_ms: Some(60_000),
            poll_interval_ms: Some(1000),
            inputs: Inputs::new(),
        }
    }

    #[test]
    fn timestamps_are_rfc3339_utc_millis() {
        assert_eq!(timestamp(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(timestamp(1_764_066_600_250), "2025-11-25T10:30:00.250Z");
        assert!(timestamp(u64::MAX).ends_with('Z'));
    }

    // §D 25 / 63: V25 `ttl`, V26 `ttlMs`, both always present (null = unlimited).
    #[test]
    fn wire_shapes_of_both_versions() {
        let mut r = record(TaskState::Completed {
            result: json!({"content": []}).as_object().unwrap().clone().into(),
        });
        let v25 = serde_json::to_value(r.to_v25()).unwrap();
        assert_eq!(v25["ttl"], 60_000);
        assert_eq!(v25["pollInterval"], 1000);
        assert_eq!(v25["createdAt"], "2025-11-25T10:30:00.000Z");
        assert!(v25.get("result").is_none());
        let v26 = serde_json::to_value(r.to_v26_detailed()).unwrap();
        assert_eq!(v26["ttlMs"], 60_000);
        assert_eq!(v26["status"], "completed");
        assert_eq!(v26["result"], json!({"content": []}));
        r.ttl_ms = None;
        assert!(serde_json::to_value(r.to_v26_task()).unwrap()["ttlMs"].is_null());
        assert!(serde_json::to_value(r.to_v25()).unwrap()["ttl"].is_null());
    }

    // V26View writes exactly what to_v26_detailed serializes, for every status.
    #[test]
    fn v26_view_is_the_detailed_task() {
        let mut input = record(TaskState::InputRequired);
        for (key, state) in [
            ("a", InputState::Outstanding),
            ("b", InputState::Superseded),
        ] {
            input.inputs.insert(
                key.into(),
                InputEntry {
                    request: json!({"method": "roots/list"}),
                    state,
                },
            );
        }
        let result = json!({"content": [], "isError": true})
            .as_object()
            .unwrap()
            .clone();
        let mut plain = record(TaskState::Working);
        plain.status_message = None;
        plain.poll_interval_ms = None;
        plain.ttl_ms = None;
        for r in [
            record(TaskState::Working),
            plain,
            input,
            record(TaskState::Completed {
                result: result.clone().into(),
            }),
            record(TaskState::Failed {
                error: JsonRpcError {
                    code: -32603,
                    message: "boom".into(),
                    data: Some(json!({"x": 1})),
                },
            }),
            record(TaskState::ToolFailed {
                result: result.into(),
            }),
            record(TaskState::Cancelled),
        ] {
            assert_eq!(
                serde_json::to_string(&V26View(&r)).unwrap(),
                serde_json::to_string(&r.to_v26_detailed()).unwrap()
            );
        }
    }

    // §D 85: only outstanding requests are listed.
    #[test]
    fn detailed_input_required_lists_outstanding_only() {
        let mut r = record(TaskState::InputRequired);
        let req = json!({"method": "roots/list"});
        r.inputs.insert(
            "a".into(),
            InputEntry {
                request: req.clone(),
                state: InputState::Outstanding,
            },
        );
        r.inputs.insert(
            "b".into(),
            InputEntry {
                request: req.clone(),
                state: InputState::Answered {
                    response: json!({"roots": []}),
                },
            },
        );
        let v26 = serde_json::to_value(r.to_v26_detailed()).unwrap();
        assert_eq!(v26["inputRequests"], json!({"a": req}));
    }

    #[test]
    fn record_json_round_trips() {
        let mut r = record(TaskState::Failed {
            error: JsonRpcError {
                code: -32603,
                message: "x".into(),
                data: None,
            },
        });
        r.inputs.insert(
            "k".into(),
            InputEntry {
                request: json!({"method": "roots/list"}),
                state: InputState::Superseded,
            },
        );
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["status"], "failed");
        let back: TaskRecord = serde_json::from_value(v).unwrap();
        assert_eq!(back, r);
    }

    // A failed task stores exactly one of an error and an isError tool result.
    #[test]
    fn tool_failed_round_trips_and_bad_states_are_rejected() {
        let result = json!({"content": [], "isError": true});
        let r = record(TaskState::ToolFailed {
            result: result.as_object().unwrap().clone().into(),
        });
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["status"], "failed");
        assert_eq!(v["result"], result);
        assert!(v.get("error").is_none());
        assert_eq!(serde_json::from_value::<TaskRecord>(v.clone()).unwrap(), r);
        let v26 = serde_json::to_value(r.to_v26_detailed()).unwrap();
        assert_eq!(v26["status"], "failed");
        assert_eq!(v26["error"]["code"], -32603);
        assert_eq!(v26["error"]["data"]["toolResult"], result);
        assert!(v26.get("result").is_none());
        let err = json!({"code": -1, "message": "x"});
        for (status, result, error) in [
            ("failed", Some(result.clone()), Some(err.clone())),
            ("failed", None, None),
            ("failed", Some(json!({"content": []})), None),
            ("completed", None, None),
            ("completed", Some(json!({})), Some(err.clone())),
            ("working", Some(json!({})), None),
            ("cancelled", None, Some(err.clone())),
        ] {
            let mut bad = v.clone();
            bad["status"] = json!(status);
            let o = bad.as_object_mut().unwrap();
            o.remove("result");
            if let Some(x) = result.clone() {
                o.insert("result".into(), x);
            }
            if let Some(x) = error.clone() {
                o.insert("error".into(), x);
            }
            assert!(
                serde_json::from_value::<TaskRecord>(bad.clone()).is_err(),
                "{bad}"
            );
        }
    }

    // §D 44: the diagnostic quotes the first text content, cut at 200 characters.
    #[test]
    fn tool_error_messages() {
        let long = "é".repeat(300);
        let result = json!({"content": [{"type": "image"}, {"type": "text", "text": long}], "isError": true});
        let d = tool_error_message(result.as_object().unwrap());
        assert_eq!(d.chars().count(), "Tool reported an error: ".len() + 200);
        assert_eq!(
            tool_error_message(&JsonObject::new()),
            "Tool reported an error"
        );
    }
}
