//! The conversation checker: follows a stream of JSON-RPC messages of one conversation, pairs
//! responses with requests, validates each message with what the stream tells (the method it
//! answers, the task it asked about, the conversation's version) and follows every task across
//! the stream, flagging histories no single message shows (§A.c, §B.c, §B.g, §C; the
//! `history-*` codes of [`crate::validate::rules`], and `cancel-terminal`, §D 17).
//!
//! * `shape`: JSON-RPC roles, ids and the version a message's shape shows.
//! * `task`: per-task memory and the history rules.
//!
//! Nothing here panics or fails: every input gives an [`ObserveReport`].
//!
//! # Messages overtake each other
//!
//! The messages of one conversation travel on several streams (the answer to each request, a
//! notification stream, …), so the order in which they are observed is not the order in which
//! they were sent: with the TypeScript SDK's HTTP transport a `notifications/tasks/status` can
//! arrive before the `CreateTaskResult` of its task. The checker judges what such legal
//! reorderings cannot explain, and nothing else:
//!
//! * A `CreateTaskResult` observed after other messages about its task shows the task's first
//!   state: it is recorded on the timeline, but it is not the task's current status and is
//!   never taken for a task leaving a terminal status or going back in time.
//! * A snapshot stamped (`lastUpdatedAt`) earlier than one already seen is an older state that
//!   arrived late: it does not become the current status, and a non-terminal snapshot stamped
//!   before a terminal one is history, not a task leaving the terminal status. One stamped at
//!   the same instant as the terminal one or later, or without a usable stamp, did leave it
//!   (`history-leaves-terminal`, an error), and so did a task seen in a terminal status at `t`
//!   and in another status stamped after `t`, in whichever order they arrived.
//! * "Causally after": the answer to a request sent after message `i` was observed shows the
//!   task as it was after message `i` was sent, whatever the streams. Such an answer stamped
//!   earlier than a `lastUpdatedAt` observed before its request was sent is
//!   `history-last-updated-backwards`, a warning only (monotonic `lastUpdatedAt` is derived, never
//!   stated, §E 18), and after a V25 `tasks/result` answer (the task was terminal then) such an
//!   answer showing a non-terminal status, not stamped earlier than what was seen, is
//!   `history-leaves-terminal`. A notification is never causally after anything.
//! * Unknown task ids: a request naming a task no earlier message named is reported at once
//!   (`history-unknown-task`, a warning): a requestor learns task ids only from messages it
//!   received, so no reordering explains it. A notification naming a task no `CreateTaskResult`
//!   named yet is not judged in its report, since the `CreateTaskResult` may still be on its
//!   way: the judgement is held on the task's timeline ([`Conversation::tasks`] carries the
//!   `history-unknown-task` warning while no `CreateTaskResult` has named the task, and drops it
//!   once one does). Reports stay final the moment they are returned; only a timeline, which is
//!   "so far" by nature, can change its mind.
//!
//! # Rules that need more than one message
//!
//! Besides the task histories: the §D 41 `taskSupport` rules once a V25 `tools/list` answer has
//! named the tool (`history-required-tool-answered`, `history-forbidden-tool-task`,
//! `history-forbidden-tool-code`); a V25 `tasks/result` answer that is not what the request
//! would have returned (§D 30, `history-empty-task-result`); a 2026-07-28 `tasks/cancel` of a
//! task seen terminal answered with an error (§D 90, `history-cancel-terminal-refused`).
//!
//! # What was agreed and declared
//!
//! The version is the one the `initialize` answer agreed (`result.protocolVersion`), not the one
//! the request offered: a client offering 2026-07-28 and answered 2025-11-25 speaks 2025-11-25.
//! Until the answer arrives nothing fixes the version and each message speaks for itself (its
//! `_meta`, its shape). What a client declared counts: input requests it did not declare the
//! capability for (at `initialize` under 2025-11-25, in the answered request's own `_meta` under
//! 2026-07-28; §D 98, `history-input-undeclared`), and, under 2025-11-25, task augmentation of
//! a type the receiver's `tasks.requests` do not list (§D 47, `history-augment-undeclared`;
//! a task created for it, §D 40, `history-task-undeclared`).
//!
//! # Transcript records
//!
//! A message may come as a record of how it travelled, `{"message", "from"?, "headers"?,
//! "at"?}` ([`Conversation::observe_from`]): the HTTP headers of a 2026-07-28 request are
//! checked (`header-missing` for a routing header the requestor left out, `header-mismatch`),
//! and `at`, when the message was recorded (RFC 3339, else `record-time`), becomes the
//! `seenAt` of the task events the message adds.

mod caps;
mod shape;
mod task;

use std::collections::{HashMap, VecDeque};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tsify::Tsify;

use crate::model::common::{META_CLIENT_CAPABILITIES, RELATED_TASK_META_KEY};
use crate::model::{ProtocolVersion, TaskStatus};
use crate::validate::report::{pointer, pointer_index, Issue};
use crate::validate::{
    self, Code, Context, Issues, RpcKind, ValidationReport, VersionSource, DEFAULT_MAX_BYTES,
    DEFAULT_MAX_ISSUES,
};

use shape::{IdKey, Rpc};
use task::{Findings, Snapshot, TaskState, ITEM_BYTES};

/// Default of [`ConversationOptions::max_tasks`].
pub const DEFAULT_MAX_TASKS: usize = 10_000;
/// Default of [`ConversationOptions::max_pending`].
pub const DEFAULT_MAX_PENDING: usize = 10_000;
/// Default of [`ConversationOptions::max_events_per_task`].
pub const DEFAULT_MAX_EVENTS_PER_TASK: usize = 1_000;
/// Default of [`ConversationOptions::max_id_bytes`].
pub const DEFAULT_MAX_ID_BYTES: usize = 1_024;
/// Default of [`ConversationOptions::max_kept_bytes`] (64 MiB).
pub const DEFAULT_MAX_KEPT_BYTES: usize = 64 * 1024 * 1024;

/// Options of a [`Conversation`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ConversationOptions {
    /// The protocol version of the whole conversation; otherwise the answer to `initialize`
    /// fixes it (the version agreed, not the one offered), or, without one, the first message
    /// that shows a version (a `server/discover` probe only until an `initialize` follows it).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<ProtocolVersion>,
    /// Largest message accepted, in bytes (default 16 MiB).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_bytes: Option<u32>,
    /// Most issues in one message's report (default 100); the rest are counted by one
    /// `issues-truncated` warning.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_issues: Option<u32>,
    /// Most tasks remembered (default 10 000): beyond it the task first seen earliest is
    /// forgotten (a `history-bound` warning names it).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tasks: Option<u32>,
    /// Most requests awaiting their answer (default 10 000): beyond it the oldest is forgotten
    /// (`history-bound`), and its answer will show as unmatched.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_pending: Option<u32>,
    /// Most events kept per task (default 1000): beyond it the oldest events go (counted by
    /// the timeline's `omittedEvents`); the same bound caps the task's issues (the first ones
    /// stay, `omittedIssues` counts the rest) and the input keys it remembers.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_events_per_task: Option<u32>,
    /// Longest task id, request id, method or tool name remembered, in bytes (default 1024):
    /// a task with a longer id is not followed, a request with a longer id not paired
    /// (`history-bound`).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_id_bytes: Option<u32>,
    /// Approximate bytes of everything remembered (default 64 MiB): beyond it the oldest
    /// tasks and requests are forgotten first (`history-bound`).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_kept_bytes: Option<u32>,
}

/// Who sent a message. JSON-RPC ids are chosen by each side on its own, so a client's request
/// and a server's request may carry the same id (server-everything numbers its `elicitation/create`
/// from 0, as the client numbers `initialize`): given the sender, a response is paired with a
/// request of the *other* side. Without it, ids are taken as one space (a bare transcript).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "lowercase")]
pub enum Sender {
    Client,
    Server,
}

/// Options of one `Conversation.observe` call.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ObserveOptions {
    /// Who sent the message: `"client"` or `"server"`. Give it for live or proxied traffic, where
    /// both sides number their own requests; leave it out for a bare transcript.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Sender>,
}

impl Sender {
    /// `"client"` or `"server"`.
    pub fn parse(s: &str) -> Option<Sender> {
        match s {
            "client" => Some(Sender::Client),
            "server" => Some(Sender::Server),
            _ => None,
        }
    }
}

impl Sender {
    fn other(self) -> Sender {
        match self {
            Sender::Client => Sender::Server,
            Sender::Server => Sender::Client,
        }
    }
}

/// A pending request's key: who sent it (when given) and its id.
type PendingKey = (Option<Sender>, IdKey);

/// Where a task event was seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "lowercase")]
pub enum TaskEventSource {
    /// The answer that created the task (V25 nested `CreateTaskResult`, V26 `resultType:"task"`).
    Create,
    /// A `tasks/get` answer.
    Get,
    /// An entry of a V25 `tasks/list` answer.
    List,
    /// A V25 `tasks/cancel` answer, or a V26 `tasks/cancel` request.
    Cancel,
    /// `notifications/tasks/status` (V25) or `notifications/tasks` (V26).
    Notification,
    /// A V25 `tasks/result` answer.
    Result,
    /// A V26 `tasks/update` request.
    Update,
}

/// One moment of a task's life.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
#[tsify(missing_as_null)]
pub struct TaskEvent {
    /// The 0-based number of the message.
    pub index: usize,
    /// The status the message shows; `null` when it shows none (a `tasks/update` or V26
    /// `tasks/cancel` request, a V25 `tasks/result` answer).
    pub status: Option<TaskStatus>,
    /// The `lastUpdatedAt` the message shows, as written.
    pub at: Option<String>,
    pub source: TaskEventSource,
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// The `inputRequests` keys outstanding (input_required snapshots) or answered (`tasks/update`).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_keys: Option<Vec<String>>,
    /// When the message was recorded: the `at` of its transcript record (RFC 3339, as
    /// written), absent for a bare message.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seen_at: Option<String>,
}

/// Everything the conversation saw of one task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
#[tsify(missing_as_null)]
pub struct TaskTimeline {
    pub task_id: String,
    /// The version of the conversation when the task was first seen.
    pub version: Option<ProtocolVersion>,
    pub events: Vec<TaskEvent>,
    /// The status last shown; `null` if no message showed one.
    pub final_status: Option<TaskStatus>,
    /// The history issues about this task (their messages name the message number). Besides
    /// the issues of the message reports: `history-unknown-task` while the task was named by a
    /// notification and by no `CreateTaskResult` (a judgement held, see the module docs).
    pub issues: Vec<Issue>,
    /// Events dropped, oldest first, beyond `maxEventsPerTask` (absent when none).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "is_zero")]
    pub omitted_events: usize,
    /// Issues not kept beyond `maxEventsPerTask` (absent when none).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "is_zero")]
    pub omitted_issues: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The report on one message of a conversation: the single-message report, with the history
/// issues appended, plus the message number and the tasks it touched.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
#[tsify(missing_as_null)]
pub struct ObserveReport {
    /// The 0-based number of the message in the conversation.
    pub index: usize,
    /// `true` when no issue is an error.
    pub valid: bool,
    pub version: Option<ProtocolVersion>,
    pub version_source: VersionSource,
    pub kind: String,
    pub rpc: RpcKind,
    /// The method of a request or notification, or the method of the request a response answers.
    pub method: Option<String>,
    pub issues: Vec<Issue>,
    /// The ids of the tasks the message is about.
    pub task_ids: Vec<String>,
}

/// A request awaiting its response.
#[derive(Debug)]
struct Pending {
    /// The number of the request in the conversation.
    index: usize,
    method: String,
    task_id: Option<String>,
    declares_extension: bool,
    /// `tasks/update`: the keys this request marked answered.
    answered: Vec<String>,
    /// `tools/call`: the tool's name and whether the call is task-augmented (`params.task`).
    tool: Option<(String, bool)>,
    /// The input capabilities its `_meta` clientCapabilities declare (2026-07-28, §D 98).
    input_caps: u8,
    /// 2025-11-25: task-augmented although the receiver's `initialize` capabilities do not list
    /// the request type in `tasks.requests` (§D 40, 47).
    augment_undeclared: bool,
}

/// `Tool.execution.taskSupport` as a `tools/list` answer gave it (absent = forbidden, §D 11).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TaskSupport {
    Forbidden,
    Optional,
    Required,
}

impl TaskSupport {
    /// Every value, by its index (`TaskSupport as usize`, as `Conversation::tools` keeps it).
    const ALL: [TaskSupport; 3] = [
        TaskSupport::Forbidden,
        TaskSupport::Optional,
        TaskSupport::Required,
    ];
}

impl Pending {
    /// Approximate bytes the entry keeps (with its id).
    fn bytes(&self, id: &IdKey) -> usize {
        let id = match id {
            IdKey::Str(s) | IdKey::Num(s) => s.len(),
        };
        ITEM_BYTES * 4
            + id
            + self.method.len()
            + self.task_id.as_ref().map_or(0, String::len)
            + self.tool.as_ref().map_or(0, |t| t.0.len())
            + self
                .answered
                .iter()
                .map(|k| k.len() + ITEM_BYTES)
                .sum::<usize>()
    }
}

/// The bounds of a [`Conversation`] (see [`ConversationOptions`]).
#[derive(Debug, Clone, Copy)]
struct Limits {
    max_tasks: usize,
    max_pending: usize,
    max_events: usize,
    max_id_bytes: usize,
    max_kept_bytes: usize,
}

impl Limits {
    fn of(o: &ConversationOptions) -> Self {
        let get = |v: Option<u32>, d: usize| v.map_or(d, |v| (v as usize).max(1));
        Limits {
            max_tasks: get(o.max_tasks, DEFAULT_MAX_TASKS),
            max_pending: get(o.max_pending, DEFAULT_MAX_PENDING),
            max_events: get(o.max_events_per_task, DEFAULT_MAX_EVENTS_PER_TASK),
            max_id_bytes: get(o.max_id_bytes, DEFAULT_MAX_ID_BYTES),
            max_kept_bytes: get(o.max_kept_bytes, DEFAULT_MAX_KEPT_BYTES),
        }
    }
}

/// At most `n` bytes of `s`, cut at a character boundary.
fn cut(s: &str, n: usize) -> &str {
    let mut end = n.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.get(..end).unwrap_or("")
}

/// The history checker over one conversation.
///
/// Everything it remembers is bounded ([`ConversationOptions`]): tasks, requests awaiting an
/// answer, events and issues per task, the length of ids, and the bytes kept in all. Reaching a
/// bound forgets the oldest first and says so (`history-bound` in the report of the message
/// that reached it, `omittedEvents` / `omittedIssues` on a timeline): it never fails.
pub struct Conversation {
    version: Option<ProtocolVersion>,
    /// The options fixed the version: `initialize` does not negotiate it.
    fixed: bool,
    /// An `initialize` awaits its answer: the version offered is not the conversation's until
    /// the server agrees to it, so nothing fixes the version meanwhile.
    initializing: bool,
    /// The input capabilities (`caps` bits) the client declared at `initialize`; `None` before
    /// an `initialize` was seen (2025-11-25, §D 98).
    init_caps: Option<u8>,
    /// The request types each side accepts as task-augmented (`caps::augmentable` bits of its
    /// `initialize` capabilities): the client's from the request, the server's from the
    /// answer; `None` until seen (2025-11-25, §D 40, 47).
    client_augmentable: Option<u8>,
    server_augmentable: Option<u8>,
    /// The version was fixed by a `server/discover` request alone (§C): a probe that an
    /// `initialize` may still replace (the client fell back to 2025-11-25).
    probing: bool,
    max_bytes: usize,
    max_issues: usize,
    limits: Limits,
    next_index: usize,
    /// Requests awaiting their answer, by (sender, id); sender `None` when not given.
    pending: HashMap<PendingKey, Pending>,
    /// The pending requests by request number, oldest first. An entry whose key is no longer
    /// pending under that number is stale: skipped, dropped when it reaches the front, and all
    /// at once when the stale ones outnumber the live ones (a `VecDeque`, not a `BTreeMap`:
    /// numbers only grow, and a `BTreeMap` of its own type costs about 3 KB gzip of module).
    pending_order: VecDeque<(usize, PendingKey)>,
    pending_bytes: usize,
    /// The tasks remembered, first seen first; task number `n` is at `n - evicted`.
    tasks: VecDeque<TaskState>,
    evicted: usize,
    /// Task id → task number.
    by_id: HashMap<String, usize>,
    /// The bytes of the tasks as last counted (see `settle`).
    tasks_bytes: usize,
    /// The task numbers changed by the message being observed.
    dirty: Vec<usize>,
    /// The task ids warned about as unknown (the values unused: a map of `by_id`'s type, not a
    /// `HashSet`, shares its hash table code: 2.1 KB raw, 0.6 KB gzip of the module).
    warned_unknown: HashMap<String, usize>,
    warned_order: VecDeque<String>,
    warned_bytes: usize,
    /// The tools the `tools/list` answers named (V25), by name, with their task support as its
    /// index in `TaskSupport::ALL` (a map of `by_id`'s type shares its hash table code: 1.3 KB
    /// raw, 0.8 KB gzip of the module); cleared by `notifications/tools/list_changed`.
    tools: HashMap<String, usize>,
    tools_bytes: usize,
    /// `history-bound` findings of the message being observed.
    bound: Findings,
}

impl Default for Conversation {
    fn default() -> Self {
        Conversation::new(ConversationOptions::default())
    }
}

impl Conversation {
    pub fn new(options: ConversationOptions) -> Self {
        Conversation {
            limits: Limits::of(&options),
            version: options.version,
            fixed: options.version.is_some(),
            initializing: false,
            init_caps: None,
            client_augmentable: None,
            server_augmentable: None,
            probing: false,
            max_bytes: options
                .max_bytes
                .map(|m| m as usize)
                .unwrap_or(DEFAULT_MAX_BYTES),
            max_issues: options
                .max_issues
                .map_or(DEFAULT_MAX_ISSUES, |m| (m as usize).max(1)),
            next_index: 0,
            pending: HashMap::new(),
            pending_order: VecDeque::new(),
            pending_bytes: 0,
            tasks: VecDeque::new(),
            evicted: 0,
            by_id: HashMap::new(),
            tasks_bytes: 0,
            dirty: Vec::new(),
            warned_unknown: HashMap::new(),
            warned_order: VecDeque::new(),
            warned_bytes: 0,
            tools: HashMap::new(),
            tools_bytes: 0,
            bound: Findings::default(),
        }
    }

    /// Approximate bytes remembered (tasks, pending requests, tools, warned ids).
    pub fn kept_bytes(&self) -> usize {
        self.tasks_bytes + self.pending_bytes + self.warned_bytes + self.tools_bytes
    }

    /// How many tasks and pending requests are remembered.
    pub fn sizes(&self) -> (usize, usize) {
        (self.tasks.len(), self.pending.len())
    }

    /// The slot of task number `n`.
    fn slot(&self, n: usize) -> Option<usize> {
        n.checked_sub(self.evicted)
    }

    fn note_bound(&mut self, path: &str, message: String) {
        self.bound
            .push(None, Code::HistoryBound, path.to_string(), message);
    }

    /// Whether `id` is short enough to remember; notes it (once per message) otherwise.
    fn id_fits(&mut self, what: &str, id: &str, path: &str) -> bool {
        if id.len() <= self.limits.max_id_bytes {
            return true;
        }
        let message = format!(
            "a {what} of {} bytes is longer than maxIdBytes ({}): it is not followed",
            id.len(),
            self.limits.max_id_bytes
        );
        if !self.bound.0.iter().any(|f| f.message == message) {
            self.note_bound(path, message);
        }
        false
    }

    /// The number of the oldest pending request (the stale entries before it dropped).
    fn oldest_pending(&mut self) -> Option<usize> {
        while let Some((index, key)) = self.pending_order.front() {
            if self.pending.get(key).is_some_and(|p| p.index == *index) {
                return Some(*index);
            }
            self.pending_order.pop_front();
        }
        None
    }

    /// After a pending request is taken: drops the stale entries of `pending_order` once they
    /// outnumber the live ones.
    fn prune_pending_order(&mut self) {
        if self.pending_order.len() > 2 * self.pending.len() + 64 {
            let pending = &self.pending;
            self.pending_order
                .retain(|(index, key)| pending.get(key).is_some_and(|p| p.index == *index));
        }
    }

    /// Forgets the pending request with the smallest number.
    fn evict_pending(&mut self, why: &str) {
        if self.oldest_pending().is_none() {
            return;
        }
        let Some((index, key)) = self.pending_order.pop_front() else {
            return;
        };
        if let Some(p) = self.pending.remove(&key) {
            self.pending_bytes = self.pending_bytes.saturating_sub(p.bytes(&key.1));
            let message = format!(
                "request {index} ({}) awaiting its answer was forgotten ({why}): its answer will show as unmatched",
                cut(&p.method, 100)
            );
            self.note_bound("", message);
        }
    }

    /// Forgets the task first seen earliest.
    fn evict_task(&mut self, why: &str) {
        let Some(state) = self.tasks.pop_front() else {
            return;
        };
        self.evicted += 1;
        self.by_id.remove(&state.task_id);
        self.tasks_bytes = self.tasks_bytes.saturating_sub(state.counted);
        let message = format!(
            "task {} (first seen in message {}) was forgotten ({why}): later messages about it are judged as about an unknown task",
            state.task_id,
            state.first_index().map_or_else(|| "?".to_string(), |i| i.to_string())
        );
        self.note_bound("", message);
    }

    /// Counts the bytes of the tasks the message changed.
    fn settle(&mut self) {
        let dirty = std::mem::take(&mut self.dirty);
        for n in dirty {
            let Some(state) = self.slot(n).and_then(|i| self.tasks.get_mut(i)) else {
                continue;
            };
            self.tasks_bytes = self
                .tasks_bytes
                .saturating_sub(state.counted)
                .saturating_add(state.bytes);
            state.counted = state.bytes;
        }
    }

    /// Forgets the oldest tasks and requests while more than `max_kept_bytes` are kept.
    fn enforce_budget(&mut self) {
        self.settle();
        while self.kept_bytes() > self.limits.max_kept_bytes {
            let task = self.tasks.front().map(|t| t.first_index().unwrap_or(0));
            let request = self.oldest_pending();
            let why = format!("maxKeptBytes {}", self.limits.max_kept_bytes);
            match (task, request) {
                (Some(t), Some(r)) if r < t => self.evict_pending(&why),
                (Some(_), _) => self.evict_task(&why),
                (None, Some(_)) => self.evict_pending(&why),
                (None, None) => {
                    // Only the tools and warned ids are left: forget them.
                    self.tools.clear();
                    self.tools_bytes = 0;
                    self.warned_unknown.clear();
                    self.warned_order.clear();
                    self.warned_bytes = 0;
                    break;
                }
            }
        }
    }

    /// The version of the conversation: the option, the version the `initialize` answer agreed,
    /// or the first version a message showed.
    pub fn version(&self) -> Option<ProtocolVersion> {
        self.version
    }

    /// The largest message accepted, in bytes.
    pub fn max_bytes(&self) -> usize {
        self.max_bytes
    }

    /// Parses JSON text with the conversation's size limit.
    pub fn parse(&self, text: &str) -> Result<Value, ValidationReport> {
        validate::parse(text, self.max_bytes)
    }

    /// Observes a message given as JSON text; text that is not JSON gives a report (and counts
    /// as a message).
    pub fn observe_text(&mut self, text: &str) -> ObserveReport {
        match self.parse(text) {
            Ok(v) => self.observe(&v),
            Err(report) => self.observe_rejected(report),
        }
    }

    /// Counts an input that never became a JSON value and wraps its report.
    pub fn observe_rejected(&mut self, report: ValidationReport) -> ObserveReport {
        let index = self.take_index();
        wrap(
            index,
            report,
            Vec::new(),
            Findings::default(),
            self.max_issues,
        )
    }

    /// Observes the `len` bytes of `buf` from `text_at` (UTF-8 JSON text, as
    /// [`Conversation::observe_text`]) sent by `from` 0 (not said), 1 ([`Sender::Client`]) or 2
    /// ([`Sender::Server`]), for the byte boundary of the bindings (`__observeBytes`): answers
    /// minus the length of the report as JSON text, written at the start of `buf`
    /// ([`crate::validate::boundary::write_json`]); 0 (nothing observed) when the text is over
    /// [`Conversation::max_bytes`]; `i32::MIN` when the report could not be written.
    pub fn observe_bytes(&mut self, buf: &mut Vec<u8>, text_at: u32, len: u32, from: u32) -> i32 {
        if len as usize > self.max_bytes() {
            return 0;
        }
        let from = match from {
            1 => Some(Sender::Client),
            2 => Some(Sender::Server),
            _ => None,
        };
        let at = text_at as usize;
        let bytes = buf
            .get(at..at.saturating_add(len as usize))
            .unwrap_or_default();
        let text = crate::validate::boundary::utf8(bytes);
        let report = match self.parse(&text) {
            Ok(value) => self.observe_from(&value, from),
            Err(report) => self.observe_rejected(report),
        };
        match serde_json::to_string(&report) {
            Ok(json) => crate::validate::boundary::write_json(buf, &json),
            Err(_) => i32::MIN,
        }
    }

    /// Every task remembered, in the order first seen. Call it once the conversation is over
    /// for the final judgement: a `history-unknown-task` held for a notification stays on a
    /// timeline only while no `CreateTaskResult` named the task.
    pub fn tasks(&self) -> Vec<TaskTimeline> {
        self.tasks.iter().map(TaskState::timeline).collect()
    }

    /// Tells the conversation about a task created before its first message: a client that
    /// kept the ids of its tasks across a restart and follows them again (§D 104: task ids are
    /// persisted to resume polling) learned the id from a message this conversation never saw. Requests
    /// naming it are then not `history-unknown-task`, nor is a notification about it held as
    /// one; its timeline starts with no event. Answers `false` (and remembers nothing) for an id
    /// longer than `maxIdBytes`, which is not followed anyway. Counts against `maxTasks` like
    /// any task (the oldest is forgotten first, with a `history-bound` warning in the next
    /// report). A task already known stays as it is.
    pub fn known_task(&mut self, task_id: &str) -> bool {
        if task_id.len() > self.limits.max_id_bytes {
            return false;
        }
        let version = self.version;
        let known = match self.state_mut(task_id, version) {
            Some(state) => {
                state.created_seen = true;
                true
            }
            None => false,
        };
        self.enforce_budget();
        known
    }

    fn take_index(&mut self) -> usize {
        let i = self.next_index;
        self.next_index = self.next_index.saturating_add(1);
        i
    }

    /// Observes one parsed message (its sender unknown: ids are one space).
    pub fn observe(&mut self, message: &Value) -> ObserveReport {
        self.observe_from(message, None)
    }

    /// Observes one parsed message sent by `from`: a response is paired with the other side's
    /// request of that id (or, failing that, with a request whose sender was not given).
    ///
    /// A transcript line is a bare JSON-RPC message or a record of one as it travelled:
    /// `{"message": {...}, "from"?: "client" | "server", "headers"?: {...}, "at"?: RFC 3339}`
    /// (an object with a `message` object and no `jsonrpc` member). The record's `from` counts
    /// when `from` is not given; its `headers` (HTTP, names case-insensitive) are checked
    /// against a 2026-07-28 request (§D 76, 111, §B.f): a routing header left out is
    /// `header-missing`, one that disagrees with the body `header-mismatch`; its `at` is the
    /// `seenAt` of the task events the message adds (`record-time` when it is not RFC 3339).
    pub fn observe_from(&mut self, message: &Value, from: Option<Sender>) -> ObserveReport {
        match record(message) {
            Some(r) => self.observe_one(r.message, from.or(r.from), r.headers, r.at),
            None => self.observe_one(message, from, None, None),
        }
    }

    fn observe_one(
        &mut self,
        message: &Value,
        from: Option<Sender>,
        headers: Option<&serde_json::Map<String, Value>>,
        at: Option<Result<&str, ()>>,
    ) -> ObserveReport {
        let index = self.take_index();
        let mut f = Findings::default();
        if at == Some(Err(())) {
            f.push(
                None,
                Code::RecordTime,
                String::new(),
                "the record's `at` is not an RFC 3339 date-time with a time zone: when the message was recorded is unknown".to_string(),
            );
        }
        let mut touched = Touched::default();
        let rpc = shape::classify(message);

        // Pair a response with its request.
        let mut answered: Option<Pending> = None;
        if let Rpc::Response { id, id_is_null } = &rpc {
            answered = id.as_ref().and_then(|k| {
                let asker = from.map(Sender::other);
                self.take_pending(&(asker, k.clone()))
                    .or_else(|| asker.and_then(|_| self.take_pending(&(None, k.clone()))))
            });
            if answered.is_none() && !id_is_null {
                f.push(
                    None,
                    Code::UnmatchedResponse,
                    "/id".to_string(),
                    "no request seen before has this id".to_string(),
                );
            }
        }
        let in_reply_to = answered.as_ref().map(|p| p.method.clone());

        // The version (§C): fixed by options; else agreed by `initialize`, the client offering a
        // version and the server answering the one the session speaks, which may be another
        // (legal: an SDK offering 2026-07-28 answered 2025-11-25 speaks 2025-11-25); else the
        // first message that shows one. A client that does not know the server's version
        // probes with `server/discover` (2026-07-28) and, refused, falls back to `initialize`:
        // until something else confirms 2026-07-28, an `initialize` replaces the probe's
        // version (no switch). Until the answer arrives nothing fixes the version: each message
        // is judged by what it shows itself (its `_meta`, its shape), the offer included.
        let signal = shape::signal(message, in_reply_to.as_deref());
        let request = match rpc {
            Rpc::Request { method, .. } => Some(method),
            _ => None,
        };
        let init_answer = in_reply_to.as_deref() == Some("initialize");
        let offer = request == Some("initialize")
            && !self.fixed
            && (self.version.is_none() || self.probing || self.initializing);
        let agreed = init_answer && self.initializing;
        if offer {
            self.version = None;
            self.probing = false;
            self.initializing = true;
        } else if agreed {
            // The answer's `protocolVersion` (none for an error or a version we do not know:
            // then the messages that follow tell).
            self.initializing = false;
            self.version = shape::obj(message, "result")
                .and_then(|r| shape::str_of(r, "protocolVersion"))
                .and_then(ProtocolVersion::parse);
        }
        if request == Some("initialize") {
            let declared =
                shape::obj(message, "params").and_then(|p| shape::obj_of(p, "capabilities"));
            self.init_caps = Some(caps::declared(declared));
            self.client_augmentable = Some(caps::augmentable(declared));
            self.server_augmentable = None;
        }
        if init_answer {
            if let Some(result) = shape::obj(message, "result") {
                self.server_augmentable =
                    Some(caps::augmentable(shape::obj_of(result, "capabilities")));
            }
        }
        if signal.is_some() && !offer && !agreed {
            // Another `server/discover` keeps probing; any other message with a version ends it.
            self.probing =
                request == Some("server/discover") && (self.probing || self.version.is_none());
        }
        match (self.version, &signal) {
            _ if offer || agreed || self.initializing => {}
            (None, Some((v, _))) => self.version = Some(*v),
            (Some(conv), Some((v, path))) if conv != *v => f.push(
                None,
                Code::VersionSwitch,
                path.clone(),
                format!(
                    "the conversation speaks {} but this message has the shape of {}",
                    conv.as_str(),
                    v.as_str()
                ),
            ),
            _ => {}
        }
        let ctx = Context {
            version: self.version,
            in_reply_to: in_reply_to.clone(),
            request_task_id: answered.as_ref().and_then(|p| p.task_id.clone()),
            headers: headers.filter(|_| request.is_some()).cloned(),
            max_issues: Some(self.max_issues),
        };
        let report = validate::validate_value(message, &ctx);
        if self.version.is_none()
            && !self.initializing
            && !init_answer
            && matches!(
                report.version_source,
                VersionSource::Meta | VersionSource::Shape
            )
        {
            self.version = report.version;
        }
        // What this message means for the version-specific rules.
        let version = signal.as_ref().map(|s| s.0).or(self.version);

        match rpc {
            Rpc::Request { id, method } => {
                if version != Some(ProtocolVersion::V2026) && from != Some(Sender::Client) {
                    self.check_input_request(message, method, &mut f);
                }
                let pending =
                    self.on_request(message, method, index, version, &mut f, &mut touched);
                if let Some(id) = id {
                    self.remember_request((from, id), pending, &mut f);
                }
            }
            Rpc::Notification { method } => {
                self.on_notification(message, method, index, version, &mut f, &mut touched);
            }
            Rpc::Response { .. } => {
                self.on_response(message, answered, index, version, &mut f, &mut touched);
            }
            Rpc::Other => {}
        }
        related_task(message, &mut touched);

        let mut report = report;
        if report.method.is_none() {
            report.method = in_reply_to;
        }
        // Copy the history issues into the timelines of the tasks they are about.
        for finding in &f.0 {
            if let Some(t) = &finding.task {
                if let Some(&n) = self.by_id.get(t) {
                    if let Some(state) = self.slot(n).and_then(|i| self.tasks.get_mut(i)) {
                        state.add_issue(index, &to_issue(finding));
                        self.dirty.push(n);
                    }
                }
            }
        }
        // The record's time on the events this message added (`seenAt`).
        if let Some(Ok(at)) = at {
            for &n in &self.dirty {
                if let Some(state) = self.slot(n).and_then(|i| self.tasks.get_mut(i)) {
                    state.stamp(index, at);
                }
            }
        }
        self.enforce_budget();
        f.0.append(&mut self.bound.0);
        wrap(index, report, touched.0, f, self.max_issues)
    }

    /// Remembers a request until its answer, within `max_pending` and `max_id_bytes`.
    fn remember_request(&mut self, key: PendingKey, pending: Pending, f: &mut Findings) {
        let id = match &key.1 {
            IdKey::Str(s) | IdKey::Num(s) => s.as_str(),
        };
        if !self.id_fits("request id", id, "/id") {
            return;
        }
        if let Some(old) = self.pending.remove(&key) {
            f.push(
                None,
                Code::DuplicateRequestId,
                "/id".to_string(),
                "a request with this id is still awaiting its answer".to_string(),
            );
            self.pending_bytes = self.pending_bytes.saturating_sub(old.bytes(&key.1));
            self.prune_pending_order();
        }
        while self.pending.len() >= self.limits.max_pending {
            let why = format!("maxPending {}", self.limits.max_pending);
            self.evict_pending(&why);
        }
        self.pending_bytes += pending.bytes(&key.1);
        self.pending_order.push_back((pending.index, key.clone()));
        self.pending.insert(key, pending);
    }

    /// Takes the pending request a response answers.
    fn take_pending(&mut self, key: &PendingKey) -> Option<Pending> {
        let p = self.pending.remove(key)?;
        self.pending_bytes = self.pending_bytes.saturating_sub(p.bytes(&key.1));
        self.prune_pending_order();
        Some(p)
    }

    /// The task `task_id`, remembered from now on (forgetting the oldest beyond `max_tasks`);
    /// `None` for an id longer than `max_id_bytes`, which is not followed.
    fn state_mut(
        &mut self,
        task_id: &str,
        version: Option<ProtocolVersion>,
    ) -> Option<&mut TaskState> {
        let n = match self.by_id.get(task_id) {
            Some(&n) => n,
            None => {
                if !self.id_fits("task id", task_id, "") {
                    return None;
                }
                while self.tasks.len() >= self.limits.max_tasks {
                    let why = format!("maxTasks {}", self.limits.max_tasks);
                    self.evict_task(&why);
                }
                let n = self.evicted + self.tasks.len();
                self.tasks.push_back(TaskState::new(
                    task_id,
                    self.version.or(version),
                    self.limits.max_events,
                ));
                self.by_id.insert(task_id.to_string(), n);
                n
            }
        };
        if self.dirty.last() != Some(&n) {
            self.dirty.push(n);
        }
        let i = self.slot(n)?;
        self.tasks.get_mut(i)
    }

    fn state(&self, task_id: &str) -> Option<&TaskState> {
        self.by_id
            .get(task_id)
            .and_then(|&n| self.slot(n))
            .and_then(|i| self.tasks.get(i))
    }

    /// A request about a task the conversation never saw: warn once per task id (§D 35, 86),
    /// remembering at most `max_tasks` ids warned about.
    fn check_known(&mut self, task_id: &str, path: &str, f: &mut Findings) {
        if self.state(task_id).is_some()
            || task_id.len() > self.limits.max_id_bytes
            || self.warned_unknown.contains_key(task_id)
        {
            return;
        }
        while self.warned_order.len() >= self.limits.max_tasks {
            if let Some(old) = self.warned_order.pop_front() {
                self.warned_unknown.remove(&old);
                self.warned_bytes = self.warned_bytes.saturating_sub(old.len() + ITEM_BYTES);
            }
        }
        self.warned_bytes += task_id.len() + ITEM_BYTES;
        self.warned_unknown.insert(task_id.to_string(), 0);
        self.warned_order.push_back(task_id.to_string());
        f.push(
            None,
            Code::UnknownTask,
            path.to_string(),
            format!("task {task_id} was never seen created in this conversation"),
        );
    }

    fn on_request(
        &mut self,
        message: &Value,
        method: &str,
        index: usize,
        version: Option<ProtocolVersion>,
        f: &mut Findings,
        touched: &mut Touched,
    ) -> Pending {
        let params = shape::obj(message, "params");
        let task_id = params
            .and_then(|p| shape::str_of(p, "taskId"))
            .map(str::to_string);
        let max_id = self.limits.max_id_bytes;
        let tool = (method == "tools/call")
            .then(|| params.and_then(|p| shape::str_of(p, "name")))
            .flatten()
            .filter(|name| name.len() <= max_id)
            .map(|name| {
                let augmented = params
                    .and_then(|p| p.get("task"))
                    .is_some_and(Value::is_object);
                (name.to_string(), augmented)
            });
        let mut pending = Pending {
            index,
            method: cut(method, max_id).to_string(),
            task_id: None,
            declares_extension: shape::declares_extension(message),
            answered: Vec::new(),
            tool,
            input_caps: caps::declared(
                params
                    .and_then(|p| shape::obj_of(p, "_meta"))
                    .and_then(|m| shape::obj_of(m, META_CLIENT_CAPABILITIES)),
            ),
            augment_undeclared: false,
        };
        if version != Some(ProtocolVersion::V2026) {
            pending.augment_undeclared = self.check_augmented(method, params, f);
        }
        if !matches!(
            method,
            "tasks/get" | "tasks/result" | "tasks/cancel" | "tasks/update"
        ) {
            return pending;
        }
        let Some(tid) = task_id else {
            return pending;
        };
        touched.add(&tid);
        if !self.id_fits("task id", &tid, "/params/taskId") {
            return pending;
        }
        self.check_known(&tid, "/params/taskId", f);
        let v26 = version == Some(ProtocolVersion::V2026);
        match method {
            "tasks/update" => {
                let keys: Vec<String> = params
                    .and_then(|p| p.get("inputResponses"))
                    .and_then(Value::as_object)
                    .map(|m| m.keys().cloned().collect())
                    .unwrap_or_default();
                if let Some(state) = self.state_mut(&tid, version) {
                    pending.answered = state.answer(&keys);
                    state.note(index, TaskEventSource::Update, Some(keys));
                }
            }
            "tasks/cancel" if v26 => {
                if let Some(state) = self.state_mut(&tid, version) {
                    state.note(index, TaskEventSource::Cancel, None);
                }
            }
            // §D 50: on input_required a 2025-11-25 poller calls tasks/result at once.
            "tasks/get" | "tasks/result" if !v26 && self.state(&tid).is_some() => {
                if let Some(state) = self.state_mut(&tid, version) {
                    if method == "tasks/get" {
                        state.polled(f);
                    } else {
                        state.result_requested();
                    }
                }
            }
            _ => {}
        }
        pending.task_id = Some(tid);
        pending
    }

    fn on_notification(
        &mut self,
        message: &Value,
        method: &str,
        index: usize,
        version: Option<ProtocolVersion>,
        f: &mut Findings,
        touched: &mut Touched,
    ) {
        if method == "notifications/tools/list_changed" {
            self.tools.clear();
            self.tools_bytes = 0;
            return;
        }
        if !matches!(method, "notifications/tasks/status" | "notifications/tasks") {
            return;
        }
        let Some(params) = shape::obj(message, "params") else {
            return;
        };
        let Some(tid) = shape::str_of(params, "taskId") else {
            return;
        };
        touched.add(tid);
        // A notification may overtake the CreateTaskResult that names its task: the judgement
        // is held on the task's timeline until one does (see the module docs).
        let unknown = self.state(tid).is_none();
        let snap = Snapshot {
            task: params,
            base: "/params".to_string(),
            source: TaskEventSource::Notification,
            index,
            creates: false,
            quiet_leave: false,
            asked_at: None,
        };
        if let Some(state) = self.state_mut(tid, version) {
            if unknown {
                state.hold_unknown(index, "/params/taskId");
            }
            state.apply(&snap, f);
        }
    }

    fn on_response(
        &mut self,
        message: &Value,
        request: Option<Pending>,
        index: usize,
        version: Option<ProtocolVersion>,
        f: &mut Findings,
        touched: &mut Touched,
    ) {
        let result = shape::obj(message, "result");
        let Some(req) = request else {
            // Unmatched: only a self-describing creation can still be followed.
            if let Some(r) = result {
                self.on_create(r, None, index, version, f, touched);
            }
            return;
        };
        let asked = req.task_id.as_deref();
        if let Some(t) = asked {
            touched.add(t);
        }
        if version != Some(ProtocolVersion::V2026) {
            self.check_tool_answer(message, &req, f);
        }
        let Some(result) = result else {
            // An error response.
            if let (Some(t), Some(err)) = (asked, message.get("error")) {
                match req.method.as_str() {
                    "tasks/cancel" if version == Some(ProtocolVersion::V2026) => {
                        self.check_cancel_refused(t, err, f);
                    }
                    "tasks/update" => {
                        if let Some(state) = self.state_mut(t, version) {
                            state.unanswer(&req.answered);
                        }
                    }
                    "tasks/result" => {
                        // -32602 means unknown or expired, not the task's outcome (§A.f).
                        let not_found = err.get("code").and_then(Value::as_i64) == Some(-32602);
                        if !not_found && self.state(t).is_some() {
                            if let Some(state) = self.state_mut(t, version) {
                                state.deliver_payload(index, "error", err.clone(), "/error", f);
                                state.note(index, TaskEventSource::Result, None);
                            }
                        }
                    }
                    _ => {}
                }
            }
            return;
        };
        if version == Some(ProtocolVersion::V2026) {
            check_input_requests(result, &req, f);
        }
        match req.method.as_str() {
            "tools/list" => self.on_tools_list(result),
            "tasks/get" => {
                self.on_snapshot(
                    result,
                    "/result",
                    &req,
                    TaskEventSource::Get,
                    index,
                    version,
                    f,
                    touched,
                );
            }
            "tasks/cancel" => {
                if result.contains_key("taskId") {
                    self.on_snapshot(
                        result,
                        "/result",
                        &req,
                        TaskEventSource::Cancel,
                        index,
                        version,
                        f,
                        touched,
                    );
                }
            }
            "tasks/list" => {
                if let Some(list) = result.get("tasks").and_then(Value::as_array) {
                    for (i, item) in list.iter().enumerate() {
                        let Some(t) = item.as_object() else { continue };
                        let Some(tid) = shape::str_of(t, "taskId") else {
                            continue;
                        };
                        touched.add(tid);
                        let snap = Snapshot {
                            task: t,
                            base: pointer_index("/result/tasks", i),
                            source: TaskEventSource::List,
                            index,
                            creates: false,
                            quiet_leave: false,
                            asked_at: Some(req.index),
                        };
                        if let Some(state) = self.state_mut(tid, version) {
                            state.apply(&snap, f);
                        }
                    }
                }
            }
            "tasks/result" => {
                if let Some(t) = asked {
                    // The result but its `_meta`, copied member by member: no `Map::remove`,
                    // whose `BTreeMap` removal code would be linked for this map type alone
                    // (about 3 KB gzip; BENCHMARKS.md "Size").
                    let mut payload = serde_json::Map::new();
                    for (k, v) in result.iter().filter(|(k, _)| k.as_str() != "_meta") {
                        payload.insert(k.clone(), v.clone());
                    }
                    if let Some(state) = self.state_mut(t, version) {
                        state.deliver_payload(
                            index,
                            "result",
                            Value::Object(payload),
                            "/result",
                            f,
                        );
                        state.note(index, TaskEventSource::Result, None);
                    }
                }
            }
            _ => {
                self.on_create(result, Some(&req), index, version, f, touched);
            }
        }
    }

    /// A `tools/list` answer (V25): remember each tool's `execution.taskSupport` (absent =
    /// forbidden, §D 11). A tool whose `execution` is malformed is forgotten (the validator
    /// reports it). Pages add up; `notifications/tools/list_changed` forgets them all.
    fn on_tools_list(&mut self, result: &serde_json::Map<String, Value>) {
        let Some(tools) = result.get("tools").and_then(Value::as_array) else {
            return;
        };
        for tool in tools {
            let Some(tool) = tool.as_object() else {
                continue;
            };
            let Some(name) = shape::str_of(tool, "name") else {
                continue;
            };
            let support = match tool.get("execution") {
                None => Some(TaskSupport::Forbidden),
                Some(Value::Object(e)) => match e.get("taskSupport").map(Value::as_str) {
                    None => Some(TaskSupport::Forbidden),
                    Some(Some("forbidden")) => Some(TaskSupport::Forbidden),
                    Some(Some("optional")) => Some(TaskSupport::Optional),
                    Some(Some("required")) => Some(TaskSupport::Required),
                    Some(_) => None,
                },
                Some(_) => None,
            };
            match support {
                Some(s) if name.len() <= self.limits.max_id_bytes => {
                    if self.tools.contains_key(name) {
                        self.tools.insert(name.to_string(), s as usize);
                    } else if self.tools.len() < self.limits.max_tasks {
                        self.tools_bytes += name.len() + ITEM_BYTES;
                        self.tools.insert(name.to_string(), s as usize);
                    }
                }
                _ => {
                    if self.tools.remove(name).is_some() {
                        self.tools_bytes = self.tools_bytes.saturating_sub(name.len() + ITEM_BYTES);
                    }
                }
            }
        }
    }

    /// §D 41 (V25), for a tool the conversation's `tools/list` answers named: a plain call of a
    /// `required` tool is answered with error -32601 (-32600 accepted, §E 11); a task-augmented
    /// call of a `forbidden` (or undeclared) tool is not answered with a task (error), and
    /// should be answered with -32601 (warning otherwise).
    fn check_tool_answer(&self, message: &Value, req: &Pending, f: &mut Findings) {
        let Some((name, augmented)) = &req.tool else {
            return;
        };
        let Some(&support) = self.tools.get(name).and_then(|&i| TaskSupport::ALL.get(i)) else {
            return;
        };
        let error = message.get("error");
        let code = error.and_then(|e| e.get("code")).and_then(Value::as_i64);
        let result = message.get("result");
        let created = result
            .and_then(|r| r.get("task"))
            .and_then(Value::as_object)
            .and_then(|t| shape::str_of(t, "taskId"));
        let answered = match (error, code) {
            (Some(_), Some(c)) => format!("error {c}"),
            (Some(_), None) => "an error".to_string(),
            _ if created.is_some() => "a CreateTaskResult".to_string(),
            _ if result.and_then(|r| r.get("isError")) == Some(&Value::Bool(true)) => {
                "an isError result".to_string()
            }
            _ => "a result".to_string(),
        };
        let path = match (error, code) {
            (Some(_), Some(_)) => "/error/code",
            (Some(_), None) => "/error",
            _ => "/result",
        };
        match (support, augmented) {
            (TaskSupport::Required, false) if !matches!(code, Some(-32601 | -32600)) => {
                f.push(
                    None,
                    Code::RequiredToolAnswered,
                    path.to_string(),
                    format!(
                        "tool \"{name}\" requires a task (tools/list: taskSupport \"required\"), and this plain tools/call was answered with {answered}: the answer must be error -32601 (§D 41)"
                    ),
                );
            }
            (TaskSupport::Forbidden, true) => {
                if let Some(tid) = created {
                    f.push(
                        Some(tid),
                        Code::ForbiddenToolTask,
                        "/result/task".to_string(),
                        format!(
                            "tool \"{name}\" does not support tasks (tools/list: taskSupport forbidden or absent), yet this task-augmented tools/call created task {tid}: the answer should be error -32601 (§D 41)"
                        ),
                    );
                } else if code != Some(-32601) {
                    f.push(
                        None,
                        Code::ForbiddenToolCode,
                        path.to_string(),
                        format!(
                            "tool \"{name}\" does not support tasks (tools/list: taskSupport forbidden or absent); this task-augmented tools/call was answered with {answered}, where error -32601 is expected (§D 41)"
                        ),
                    );
                }
            }
            _ => {}
        }
    }

    /// §D 98 under 2025-11-25: a server's `elicitation/create`, `sampling/createMessage` or
    /// `roots/list` goes only to a client that declared the capability at `initialize` (not
    /// judged before an `initialize` was seen).
    fn check_input_request(&self, message: &Value, method: &str, f: &mut Findings) {
        let Some(declared) = self.init_caps else {
            return;
        };
        let params = shape::obj(message, "params");
        let Some((bit, name)) = caps::needed(method, params) else {
            return;
        };
        if declared & bit == 0 {
            let task = params
                .and_then(|p| shape::obj_of(p, "_meta"))
                .and_then(|m| shape::obj_of(m, RELATED_TASK_META_KEY))
                .and_then(|r| shape::str_of(r, "taskId"));
            f.push(
                task,
                Code::InputUndeclared,
                "/method".to_string(),
                format!(
                    "{method} sent to a client that did not declare {name} in its initialize capabilities (§D 98)"
                ),
            );
        }
    }

    /// §D 47 under 2025-11-25: a task-augmented request (`params.task`) of a type the receiver
    /// did not list in its `tasks.requests` (the server's for `tools/call`, the client's for
    /// `elicitation/create` and `sampling/createMessage`; not judged before its `initialize`
    /// capabilities were seen). Answers whether it was such a request.
    fn check_augmented(
        &self,
        method: &str,
        params: Option<&serde_json::Map<String, Value>>,
        f: &mut Findings,
    ) -> bool {
        if !params.is_some_and(|p| p.get("task").is_some_and(Value::is_object)) {
            return false;
        }
        let Some((bit, name, to_server)) = caps::augment_needed(method) else {
            return false;
        };
        let receiver = if to_server {
            self.server_augmentable
        } else {
            self.client_augmentable
        };
        let Some(declared) = receiver else {
            return false;
        };
        if declared & bit != 0 {
            return false;
        }
        let who = if to_server { "server" } else { "client" };
        f.push(
            None,
            Code::AugmentUndeclared,
            "/params/task".to_string(),
            format!(
                "a task-augmented {method} to a {who} whose initialize capabilities do not list {name}: it should not be augmented, and the {who} must process it normally (§D 47, 40)"
            ),
        );
        true
    }

    /// §D 90: a 2026-07-28 `tasks/cancel` of a task seen terminal is acknowledged, never
    /// refused. Not judged: the refusals of the request itself (-32700, -32600, and -32020,
    /// -32021, -32022 of §B.f), and -32602 once the task's `ttlMs` had certainly run out by
    /// the latest `lastUpdatedAt` seen (an expired task may be forgotten, §D 94).
    fn check_cancel_refused(&self, task_id: &str, err: &Value, f: &mut Findings) {
        let Some(state) = self.state(task_id) else {
            return;
        };
        let Some(term) = state.terminal_status() else {
            return;
        };
        let code = err.get("code").and_then(Value::as_i64);
        if matches!(code, Some(-32700 | -32600 | -32020 | -32021 | -32022)) {
            return;
        }
        if code == Some(-32602) && state.ttl_elapsed() {
            return;
        }
        let what = code.map_or("an error".to_string(), |c| format!("error {c}"));
        f.push(
            Some(task_id),
            Code::CancelTerminalRefused,
            "/error".to_string(),
            format!(
                "task {task_id} was {} (terminal), and this tasks/cancel was answered with {what}: under 2026-07-28 a cancel of a terminal task is acknowledged with {{\"resultType\": \"complete\"}} (§D 90)",
                term.as_str()
            ),
        );
    }

    /// A `tasks/get` or V25 `tasks/cancel` answer: a whole task, which must be the one asked
    /// about (§D 34).
    #[allow(clippy::too_many_arguments)]
    fn on_snapshot(
        &mut self,
        result: &serde_json::Map<String, Value>,
        base: &str,
        req: &Pending,
        source: TaskEventSource,
        index: usize,
        version: Option<ProtocolVersion>,
        f: &mut Findings,
        touched: &mut Touched,
    ) {
        let Some(tid) = shape::str_of(result, "taskId") else {
            return;
        };
        touched.add(tid);
        if let Some(a) = req.task_id.as_deref() {
            if a != tid {
                f.push(
                    Some(a),
                    Code::TaskIdMismatch,
                    pointer(base, "taskId"),
                    format!("the request asked about task {a} but the answer is about task {tid}"),
                );
                return;
            }
        }
        let mut quiet_leave = false;
        // V25: a cancel of a task already terminal must be refused with -32602 (§D 17, 22).
        // "Already": the terminal sighting was observed before the cancel was sent, or is not
        // stamped later than the answer (otherwise the task left `cancelled`: leaves-terminal).
        if source == TaskEventSource::Cancel && version != Some(ProtocolVersion::V2026) {
            let at = shape::str_of(result, "lastUpdatedAt").and_then(task::instant);
            if let Some(term) = self
                .state(tid)
                .and_then(|s| s.terminal_for(Some(req.index), at))
            {
                f.push(
                    Some(tid),
                    Code::CancelTerminal,
                    base.to_string(),
                    format!(
                        "task {tid} was already {} when this cancel was answered: the answer must be error -32602, not a result",
                        term.as_str()
                    ),
                );
                quiet_leave = true;
            }
        }
        let snap = Snapshot {
            task: result,
            base: base.to_string(),
            source,
            index,
            creates: false,
            quiet_leave,
            asked_at: Some(req.index),
        };
        if let Some(state) = self.state_mut(tid, version) {
            state.apply(&snap, f);
        }
    }

    /// A `CreateTaskResult`: V26 flat with `resultType:"task"`, or V25 nested `{task}` answering
    /// a task-augmentable request.
    fn on_create(
        &mut self,
        result: &serde_json::Map<String, Value>,
        req: Option<&Pending>,
        index: usize,
        version: Option<ProtocolVersion>,
        f: &mut Findings,
        touched: &mut Touched,
    ) {
        let (task, base) = if result.get("resultType").and_then(Value::as_str) == Some("task") {
            // The request's own `_meta` must have declared the extension (§B.e; §D 77).
            if let Some(r) = req {
                if !r.declares_extension {
                    f.push(
                        shape::str_of(result, "taskId"),
                        Code::CreateTaskUndeclared,
                        "/result/resultType".to_string(),
                        format!(
                            "a task was created for a {} request whose _meta clientCapabilities do not declare extensions[\"io.modelcontextprotocol/tasks\"]",
                            r.method
                        ),
                    );
                }
            }
            (result, "/result".to_string())
        } else {
            let augmentable = req.is_none_or(|r| {
                matches!(
                    r.method.as_str(),
                    "tools/call" | "sampling/createMessage" | "elicitation/create"
                )
            });
            match result.get("task").and_then(Value::as_object) {
                Some(t) if augmentable => {
                    // §D 40: a receiver that did not declare the type ignores `params.task`.
                    if let Some(r) = req.filter(|r| r.augment_undeclared) {
                        f.push(
                            shape::str_of(t, "taskId"),
                            Code::TaskUndeclaredType,
                            "/result/task".to_string(),
                            format!(
                                "a task was created for a task-augmented {} although the receiver did not list it in its initialize capabilities' tasks.requests: it must process the request normally and ignore params.task (§D 40)",
                                r.method
                            ),
                        );
                    }
                    (t, "/result/task".to_string())
                }
                _ => return,
            }
        };
        let Some(tid) = shape::str_of(task, "taskId") else {
            return;
        };
        touched.add(tid);
        let snap = Snapshot {
            task,
            base,
            source: TaskEventSource::Create,
            index,
            creates: true,
            quiet_leave: false,
            asked_at: req.map(|r| r.index),
        };
        if let Some(state) = self.state_mut(tid, version) {
            if let Some(r) = req {
                state.created_by.get_or_insert_with(|| r.method.clone());
            }
            state.apply(&snap, f);
        }
    }
}

/// §D 98 under 2026-07-28: the `inputRequests` of an answer (an `InputRequiredResult`, an
/// `input_required` task) name only requests whose capability the request answered declared
/// in its own `_meta` clientCapabilities (earlier requests do not count, as for §D 77).
fn check_input_requests(result: &serde_json::Map<String, Value>, req: &Pending, f: &mut Findings) {
    let Some(requests) = result.get("inputRequests").and_then(Value::as_object) else {
        return;
    };
    let task = shape::str_of(result, "taskId");
    for (key, entry) in requests {
        let Some(method) = entry.get("method").and_then(Value::as_str) else {
            continue;
        };
        let params = entry.get("params").and_then(Value::as_object);
        let Some((bit, name)) = caps::needed(method, params) else {
            continue;
        };
        if req.input_caps & bit == 0 {
            f.push(
                task,
                Code::InputUndeclared,
                pointer(&pointer("/result/inputRequests", key), "method"),
                format!(
                    "input request {key} ({method}) answers a {} request whose _meta clientCapabilities do not declare {name} (§D 98)",
                    req.method
                ),
            );
        }
    }
}

/// A transcript record: the message, its sender, its HTTP headers and when it was recorded.
struct Record<'a> {
    message: &'a Value,
    from: Option<Sender>,
    headers: Option<&'a serde_json::Map<String, Value>>,
    /// `at`: `Some(Ok(text))` an RFC 3339 date-time, `Some(Err(()))` anything else.
    at: Option<Result<&'a str, ()>>,
}

/// A transcript record `{"message", "from"?, "headers"?, "at"?}`: the message, its sender, its
/// HTTP headers and the RFC 3339 time it was recorded; `None` for anything else (a JSON-RPC
/// message has `jsonrpc`, a record has not).
fn record(v: &Value) -> Option<Record<'_>> {
    let m = v.as_object()?;
    if m.contains_key("jsonrpc") {
        return None;
    }
    let message = m.get("message").filter(|x| x.is_object())?;
    let from = m
        .get("from")
        .and_then(Value::as_str)
        .and_then(Sender::parse);
    let at = m.get("at").map(|a| {
        a.as_str()
            .filter(|t| crate::base::time::parse(t).is_some())
            .ok_or(())
    });
    Some(Record {
        message,
        from,
        headers: shape::obj(v, "headers"),
        at,
    })
}

/// The task ids a message touched, in order, without repeats.
#[derive(Default)]
struct Touched(Vec<String>);

impl Touched {
    fn add(&mut self, id: &str) {
        if !self.0.iter().any(|t| t == id) {
            self.0.push(id.to_string());
        }
    }
}

/// `_meta["io.modelcontextprotocol/related-task"].taskId` on params or result (V25 §A.h).
fn related_task(message: &Value, touched: &mut Touched) {
    for holder in ["params", "result"] {
        if let Some(id) = message
            .get(holder)
            .and_then(|h| h.get("_meta"))
            .and_then(|m| m.get(RELATED_TASK_META_KEY))
            .and_then(|r| r.get("taskId"))
            .and_then(Value::as_str)
        {
            touched.add(id);
        }
    }
}

fn to_issue(f: &task::Finding) -> Issue {
    Issue {
        severity: f.code.severity(),
        code: f.code.as_str().to_string(),
        path: f.path.clone(),
        message: f.message.clone(),
    }
}

/// The report of one message: the validator's issues then the history findings, under one
/// cap (the first `max_issues`, then `issues-truncated`).
fn wrap(
    index: usize,
    report: ValidationReport,
    task_ids: Vec<String>,
    f: Findings,
    max_issues: usize,
) -> ObserveReport {
    let mut issues = Issues::resume(report.issues, report.omitted, max_issues);
    for finding in &f.0 {
        issues.add(to_issue(finding));
    }
    let valid = !issues.has_errors();
    let issues = issues.into_vec();
    ObserveReport {
        index,
        valid,
        version: report.version,
        version_source: report.version_source,
        kind: report.kind,
        rpc: report.rpc,
        method: report.method,
        issues,
        task_ids,
    }
}
