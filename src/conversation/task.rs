//! What the conversation remembers about one task, and the history rules applied to every new
//! sighting of it (§A.c, §B.c, §B.g; §D 20, 21, 28, 30, 87, 93).
//!
//! Sightings are judged in the order of the task's own clock (`lastUpdatedAt`), not only in the
//! order they arrive: messages that travel on different streams may overtake each other (see the
//! module docs of [`super`]).

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, VecDeque};
use std::hash::Hasher;

use chrono::{DateTime, FixedOffset};
use serde_json::{Map, Value};

use crate::model::{ProtocolVersion, TaskStatus};
use crate::validate::report::{pointer, Issue};
use crate::validate::Code;

use super::{TaskEvent, TaskEventSource, TaskTimeline};

/// One history finding: the task it is about (if any), the code, a JSON Pointer, a message.
pub(crate) struct Finding {
    pub task: Option<String>,
    pub code: Code,
    pub path: String,
    pub message: String,
}

/// The findings of one message.
#[derive(Default)]
pub(crate) struct Findings(pub Vec<Finding>);

impl Findings {
    pub fn push(&mut self, task: Option<&str>, code: Code, path: String, message: String) {
        self.0.push(Finding {
            task: task.map(str::to_string),
            code,
            path,
            message,
        });
    }
}

/// A 128-bit fingerprint of a JSON value (object members in key order): what the conversation
/// keeps of payloads it only compares (terminal results and errors, input requests), so that
/// their size does not stay in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fingerprint(u64, u64);

impl Fingerprint {
    pub fn of(v: &Value) -> Self {
        let mut a = DefaultHasher::new();
        let mut b = DefaultHasher::new();
        b.write_u8(0xa5);
        feed(v, &mut a);
        feed(v, &mut b);
        Fingerprint(a.finish(), b.finish())
    }

    pub fn of_str(s: &str) -> Self {
        Fingerprint::of(&Value::String(s.to_string()))
    }
}

fn feed(v: &Value, h: &mut DefaultHasher) {
    match v {
        Value::Null => h.write_u8(0),
        Value::Bool(b) => {
            h.write_u8(1);
            h.write_u8(u8::from(*b));
        }
        Value::Number(n) => {
            h.write_u8(2);
            h.write(n.to_string().as_bytes());
            h.write_u8(0xff);
        }
        Value::String(s) => {
            h.write_u8(3);
            h.write_usize(s.len());
            h.write(s.as_bytes());
        }
        Value::Array(items) => {
            h.write_u8(4);
            h.write_usize(items.len());
            for item in items {
                feed(item, h);
            }
        }
        Value::Object(map) => {
            h.write_u8(5);
            h.write_usize(map.len());
            // serde_json's `Map` (without its `preserve_order` feature) is a `BTreeMap`: its
            // members come in key order already (no sort, so no sort code in the module; the
            // test `fingerprint_ignores_member_order` holds it).
            for (k, item) in map {
                h.write_usize(k.len());
                h.write(k.as_bytes());
                feed(item, h);
            }
        }
    }
}

/// Approximate bytes an item of a collection costs besides its strings.
pub(crate) const ITEM_BYTES: usize = 48;

/// Approximate bytes an event keeps.
fn event_bytes(e: &TaskEvent) -> usize {
    ITEM_BYTES * 2
        + e.at.as_ref().map_or(0, String::len)
        + e.status_message.as_ref().map_or(0, String::len)
        + e.seen_at.as_ref().map_or(0, String::len)
        + e.input_keys
            .as_ref()
            .map_or(0, |k| k.iter().map(|k| k.len() + ITEM_BYTES).sum())
}

fn issue_bytes(i: &Issue) -> usize {
    ITEM_BYTES * 2 + i.code.len() + i.path.len() + i.message.len()
}

/// The most characters of a terminal `statusMessage` kept to quote it.
const QUOTE_CHARS: usize = 200;

/// `s` cut to `QUOTE_CHARS` characters (an ellipsis marks the cut).
fn quote(s: &str) -> String {
    let mut out: String = s.chars().take(QUOTE_CHARS).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

/// Parses an RFC 3339 instant; `None` for anything else (the validator reports the format).
pub(crate) fn instant(s: &str) -> Option<DateTime<FixedOffset>> {
    crate::base::time::parse(s)
}

/// One sighting of a task object in a message.
pub(crate) struct Snapshot<'a> {
    pub task: &'a Map<String, Value>,
    /// JSON Pointer of the task object in the message.
    pub base: String,
    pub source: TaskEventSource,
    pub index: usize,
    /// The sighting is the answer that created the task.
    pub creates: bool,
    /// Do not report `history-leaves-terminal` (a more precise code was already given).
    pub quiet_leave: bool,
    /// The number of the request this message answers; `None` for a notification or an answer
    /// paired with no request. An answer to a request sent after message `i` was observed shows
    /// the task as it was after message `i` was sent ("causally after" `i`).
    pub asked_at: Option<usize>,
}

impl Snapshot<'_> {
    /// The message answers a request sent after message `i` was observed.
    fn after(&self, i: usize) -> bool {
        self.asked_at.is_some_and(|a| a > i)
    }
}

/// A sighting with the status it showed: its message number and `lastUpdatedAt`.
#[derive(Clone, Copy)]
struct Seen {
    index: usize,
    at: Option<DateTime<FixedOffset>>,
    status: TaskStatus,
}

/// A key of `inputRequests` the client answered with `tasks/update`.
#[derive(Clone)]
struct Answered {
    key: String,
    /// The latest `lastUpdatedAt` seen when the answer was sent: a later snapshot that still
    /// shows the key with the same request and no newer `lastUpdatedAt` is a stale read
    /// (acks are eventually consistent, §B.c), not a reuse.
    seen_until: Option<DateTime<FixedOffset>>,
}

/// Everything the conversation knows about one task.
pub(crate) struct TaskState {
    pub task_id: String,
    pub version: Option<ProtocolVersion>,
    pub created_seen: bool,
    /// The method of the request whose answer created the task (`tools/call`, …), when seen.
    pub created_by: Option<String>,
    created_at: Option<String>,
    /// The task's `ttl` / `ttlMs` last shown (`None`: unlimited or never shown).
    ttl_ms: Option<f64>,
    /// Running maximum of `lastUpdatedAt` by message number: `(i, t)` means the largest
    /// `lastUpdatedAt` among messages up to `i` is `t` (pushed only when it grows; the oldest
    /// go beyond `max_events`).
    maxima: VecDeque<(usize, DateTime<FixedOffset>)>,
    /// The status of the newest sighting (by `lastUpdatedAt`, then arrival).
    pub status: Option<TaskStatus>,
    /// The first terminal sighting: terminal statuses are absorbing.
    terminal: Option<Seen>,
    /// The non-terminal sighting with the latest `lastUpdatedAt`.
    latest_open: Option<Seen>,
    terminal_result: Option<Fingerprint>,
    terminal_error: Option<Fingerprint>,
    /// The terminal `statusMessage` (quoted, cut to 200 characters) and its fingerprint.
    terminal_message: Option<(String, Fingerprint)>,
    /// The V25 `tasks/result` payload first delivered (a result without `_meta`, or an error):
    /// its kind, fingerprint and whether it had a `content` array / an `isError` member.
    v25_payload: Option<(String, Fingerprint, PayloadShape)>,
    /// The message number of the first `tasks/result` answer: the task was terminal then.
    result_delivered: Option<usize>,
    /// `history-empty-task-result` was reported (once per task).
    empty_result_flagged: bool,
    /// §D 50 (2025-11-25): a `tasks/result` request named the task.
    result_asked: bool,
    /// §D 50: the message that showed the current `input_required` (`None` when the current
    /// status is another), and the `tasks/get` requests about the task sent since.
    input_since: Option<usize>,
    input_polls: u32,
    /// `history-input-required-not-fetched` was reported (once per task).
    fetch_flagged: bool,
    /// Every `inputRequests` key issued (the newest `max_events`) and the request it named.
    input_keys: HashMap<String, Fingerprint>,
    /// The keys of `input_keys`, oldest first.
    input_order: VecDeque<String>,
    answered: VecDeque<Answered>,
    events: VecDeque<TaskEvent>,
    issues: Vec<Issue>,
    /// The message number of the first event (kept when old events are dropped).
    first_index: Option<usize>,
    /// The most events (and input keys, answered keys, `lastUpdatedAt` maxima) kept; the
    /// oldest go first. The most issues kept: the first ones stay.
    max_events: usize,
    /// Events dropped (the oldest) and issues not kept beyond `max_events`.
    pub omitted_events: usize,
    pub omitted_issues: usize,
    /// Approximate bytes this task keeps, and as last counted by the conversation.
    pub bytes: usize,
    pub counted: usize,
    /// `history-unknown-task` held for a notification that named the task before any
    /// `CreateTaskResult` did: shown on the timeline until a `CreateTaskResult` names it.
    held_unknown: Option<Issue>,
}

/// What a V25 `tasks/result` payload had that §D 30 looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PayloadShape {
    has_content: bool,
    has_is_error: bool,
}

impl PayloadShape {
    fn of(payload: &Value) -> Self {
        PayloadShape {
            has_content: payload.get("content").is_some_and(Value::is_array),
            has_is_error: payload.get("isError").is_some(),
        }
    }
}

impl TaskState {
    pub fn new(task_id: &str, version: Option<ProtocolVersion>, max_events: usize) -> Self {
        TaskState {
            task_id: task_id.to_string(),
            version,
            created_seen: false,
            created_by: None,
            created_at: None,
            ttl_ms: None,
            maxima: VecDeque::new(),
            status: None,
            terminal: None,
            latest_open: None,
            terminal_result: None,
            terminal_error: None,
            terminal_message: None,
            v25_payload: None,
            result_delivered: None,
            empty_result_flagged: false,
            result_asked: false,
            input_since: None,
            input_polls: 0,
            fetch_flagged: false,
            input_keys: HashMap::new(),
            input_order: VecDeque::new(),
            answered: VecDeque::new(),
            events: VecDeque::new(),
            issues: Vec::new(),
            held_unknown: None,
            first_index: None,
            max_events: max_events.max(1),
            omitted_events: 0,
            omitted_issues: 0,
            bytes: ITEM_BYTES * 8 + task_id.len(),
            counted: 0,
        }
    }

    /// The message number of the first event about the task.
    pub fn first_index(&self) -> Option<usize> {
        self.first_index
    }

    fn push_event(&mut self, event: TaskEvent) {
        self.first_index.get_or_insert(event.index);
        if self.events.len() >= self.max_events {
            if let Some(old) = self.events.pop_front() {
                self.bytes = self.bytes.saturating_sub(event_bytes(&old));
                self.omitted_events += 1;
            }
        }
        self.bytes += event_bytes(&event);
        self.events.push_back(event);
    }

    fn push_maximum(&mut self, index: usize, at: DateTime<FixedOffset>) {
        if self.maxima.len() >= self.max_events {
            self.maxima.pop_front();
        } else {
            self.bytes += ITEM_BYTES;
        }
        self.maxima.push_back((index, at));
    }

    fn remember_input_key(&mut self, key: &str, request: Fingerprint) {
        if self.input_order.len() >= self.max_events {
            if let Some(old) = self.input_order.pop_front() {
                self.input_keys.remove(&old);
                self.bytes = self.bytes.saturating_sub(old.len() + ITEM_BYTES);
            }
        }
        self.bytes += key.len() + ITEM_BYTES;
        self.input_keys.insert(key.to_string(), request);
        self.input_order.push_back(key.to_string());
    }

    /// The latest `lastUpdatedAt` seen.
    fn last_updated(&self) -> Option<DateTime<FixedOffset>> {
        self.maxima.back().map(|m| m.1)
    }

    /// The latest `lastUpdatedAt` among the messages observed before message `i`.
    fn known_before(&self, i: usize) -> Option<DateTime<FixedOffset>> {
        let k = self.maxima.partition_point(|m| m.0 < i);
        k.checked_sub(1)
            .and_then(|k| self.maxima.get(k))
            .map(|m| m.1)
    }

    /// The terminal status the task had when a message answering the request sent at
    /// `asked_at` and stamped `at` was produced: the first terminal sighting, unless it may have
    /// come later (observed after the request was sent and stamped after `at`).
    pub fn terminal_for(
        &self,
        asked_at: Option<usize>,
        at: Option<DateTime<FixedOffset>>,
    ) -> Option<TaskStatus> {
        let t = self.terminal?;
        let causal = asked_at.is_some_and(|a| a > t.index);
        let later = matches!((at, t.at), (Some(n), Some(t)) if n < t);
        (causal || !later).then_some(t.status)
    }

    /// The first terminal status shown, if any.
    pub fn terminal_status(&self) -> Option<TaskStatus> {
        self.terminal.map(|t| t.status)
    }

    /// The task's retention had certainly run out by the latest `lastUpdatedAt` seen (a server
    /// may forget the task then, §D 26, 94).
    pub fn ttl_elapsed(&self) -> bool {
        let (Some(created), Some(ttl), Some(last)) = (
            self.created_at.as_deref().and_then(instant),
            self.ttl_ms,
            self.last_updated(),
        ) else {
            return false;
        };
        let elapsed = last.signed_duration_since(created).num_milliseconds();
        elapsed as f64 >= ttl
    }

    /// A notification named the task before any `CreateTaskResult` did: hold the judgement.
    pub fn hold_unknown(&mut self, index: usize, path: &str) {
        if self.created_seen || self.held_unknown.is_some() {
            return;
        }
        self.held_unknown = Some(Issue {
            severity: Code::UnknownTask.severity(),
            code: Code::UnknownTask.as_str().to_string(),
            path: path.to_string(),
            message: format!(
                "message {index}: task {} was named by a notification, and no CreateTaskResult in this conversation named it (held until one does: a notification may overtake the CreateTaskResult)",
                self.task_id
            ),
        });
    }

    pub fn add_issue(&mut self, index: usize, issue: &Issue) {
        if self.issues.len() >= self.max_events {
            self.omitted_issues += 1;
            return;
        }
        let mut issue = issue.clone();
        issue.message = format!("message {index}: {}", issue.message);
        self.bytes += issue_bytes(&issue);
        self.issues.push(issue);
    }

    pub fn timeline(&self) -> TaskTimeline {
        let mut issues: Vec<Issue> = self.held_unknown.iter().cloned().collect();
        issues.extend(self.issues.iter().cloned());
        TaskTimeline {
            task_id: self.task_id.clone(),
            version: self.version,
            events: self.events.iter().cloned().collect(),
            final_status: self.status,
            issues,
            omitted_events: self.omitted_events,
            omitted_issues: self.omitted_issues,
        }
    }

    /// Records an event that carries no task snapshot (a `tasks/update` or V26 `tasks/cancel`
    /// request, a V25 `tasks/result` answer).
    pub fn note(&mut self, index: usize, source: TaskEventSource, input_keys: Option<Vec<String>>) {
        self.push_event(TaskEvent {
            index,
            status: None,
            at: None,
            source,
            status_message: None,
            input_keys,
            seen_at: None,
        });
    }

    /// Sets `seen_at` on the events message `index` added (the newest ones).
    pub fn stamp(&mut self, index: usize, at: &str) {
        for e in self.events.iter_mut().rev() {
            if e.index != index {
                break;
            }
            if e.seen_at.is_none() {
                self.bytes += at.len();
                e.seen_at = Some(at.to_string());
            }
        }
    }

    /// The client answered `keys` (a `tasks/update` request); returns the keys newly marked
    /// answered, so an error response can take them back.
    pub fn answer(&mut self, keys: &[String]) -> Vec<String> {
        let mut fresh = Vec::new();
        for k in keys {
            if !self.answered.iter().any(|a| &a.key == k) {
                if self.answered.len() >= self.max_events {
                    if let Some(old) = self.answered.pop_front() {
                        self.bytes = self.bytes.saturating_sub(old.key.len() + ITEM_BYTES);
                    }
                }
                self.bytes += k.len() + ITEM_BYTES;
                self.answered.push_back(Answered {
                    key: k.clone(),
                    seen_until: self.last_updated(),
                });
                fresh.push(k.clone());
            }
        }
        fresh
    }

    /// The `tasks/update` that answered `keys` failed: the answers were not delivered.
    pub fn unanswer(&mut self, keys: &[String]) {
        let before: usize = self.answered.iter().map(|a| a.key.len() + ITEM_BYTES).sum();
        self.answered.retain(|a| !keys.contains(&a.key));
        let after: usize = self.answered.iter().map(|a| a.key.len() + ITEM_BYTES).sum();
        self.bytes = self.bytes.saturating_sub(before - after);
    }

    /// A V25 `tasks/result` request named the task: its requestor fetches the input requests
    /// (and the outcome) as §D 50 asks.
    pub fn result_requested(&mut self) {
        self.result_asked = true;
    }

    /// A V25 `tasks/get` request about the task (§D 50): on `input_required` a poller should
    /// call `tasks/result` at once, through which the receiver delivers its input requests. A
    /// second `tasks/get` sent while the task shows `input_required`, with no `tasks/result`
    /// ever asked for it, is `history-input-required-not-fetched` (once per task: a poller
    /// that goes on polling is one finding, not one per poll). One `tasks/get` is let pass: a
    /// poller may send it beside its `tasks/result` (§D 50 keeps polling while not blocked).
    pub fn polled(&mut self, f: &mut Findings) {
        let Some(since) = self.input_since else {
            return;
        };
        if self.result_asked || self.fetch_flagged {
            return;
        }
        self.input_polls = self.input_polls.saturating_add(1);
        if self.input_polls < 2 {
            return;
        }
        self.fetch_flagged = true;
        let id = self.task_id.clone();
        f.push(
            Some(&id),
            Code::InputRequiredNotFetched,
            "/method".to_string(),
            format!(
                "task {id} has shown input_required since message {since}, and this is the second tasks/get about it since, with no tasks/result: on input_required a 2025-11-25 requestor should call tasks/result at once, which delivers the task's input requests (§D 50)"
            ),
        );
    }

    /// A V25 `tasks/result` answer: the payload of a terminal task, the same every time (§D 30).
    pub fn deliver_payload(
        &mut self,
        index: usize,
        kind: &str,
        payload: Value,
        path: &str,
        f: &mut Findings,
    ) {
        self.result_delivered.get_or_insert(index);
        let shape = PayloadShape::of(&payload);
        if kind == "result" {
            self.check_result_payload(shape, path, f);
        }
        let fp = Fingerprint::of(&payload);
        match &self.v25_payload {
            None => self.v25_payload = Some((kind.to_string(), fp, shape)),
            Some((k, p, _)) => {
                if k != kind || *p != fp {
                    f.push(
                        Some(&self.task_id),
                        Code::TerminalPayloadChanged,
                        path.to_string(),
                        format!(
                            "tasks/result answered task {} with {} different from the {} it gave before",
                            self.task_id,
                            article(kind),
                            k
                        ),
                    );
                }
            }
        }
    }

    /// A successful V25 `tasks/result` answer is what the request would have returned (§D 30):
    /// a CallToolResult for a `tools/call` task; for a task seen `failed` whose request is not
    /// known, at least a `content` or an `isError` (Python `mcp` 1.30 answers `{_meta}` alone).
    /// A cancelled task is exempt: its `tasks/result` is undefined (§E 16).
    fn check_result_payload(&mut self, payload: PayloadShape, path: &str, f: &mut Findings) {
        if self.empty_result_flagged || self.terminal_status() == Some(TaskStatus::Cancelled) {
            return;
        }
        let has_content = payload.has_content;
        let id = self.task_id.clone();
        let message = match self.created_by.as_deref() {
            Some("tools/call") if !has_content => format!(
                "tasks/result answered task {id}, created by tools/call, with a result that is not a CallToolResult (no `content` array): it must be what tools/call would have returned, its CallToolResult or its JSON-RPC error"
            ),
            None if !has_content
                && !payload.has_is_error
                && self.terminal_status() == Some(TaskStatus::Failed) =>
            {
                format!(
                    "task {id} is failed, yet tasks/result answered a result with neither `content` nor `isError`: a failed task's answer is the request's JSON-RPC error (or an isError tool result)"
                )
            }
            _ => return,
        };
        self.empty_result_flagged = true;
        f.push(Some(&id), Code::EmptyTaskResult, path.to_string(), message);
    }

    /// Applies one sighting of the task, reporting what the history forbids.
    ///
    /// Overtaking: a `CreateTaskResult` that arrives after other messages about its task (a
    /// status notification on another stream can overtake it) shows the task's first state; a
    /// snapshot stamped earlier than one already seen is an older state that arrived late.
    /// Neither becomes the task's current status, and neither is taken for a task leaving a
    /// terminal status. Only an answer to a request sent after a later `lastUpdatedAt` was
    /// observed cannot have been overtaken: if it shows an earlier one, that is
    /// `history-last-updated-backwards`, a warning (monotonic `lastUpdatedAt` is never stated,
    /// §E 18).
    pub fn apply(&mut self, s: &Snapshot<'_>, f: &mut Findings) {
        let id = self.task_id.clone();
        let task = Some(id.as_str());
        // The creation overtaken by messages about the task that were sent after it.
        let late_create = s.creates && self.first_index.is_some_and(|i| !s.after(i));
        if s.creates {
            self.created_seen = true;
            self.held_unknown = None;
        }
        // createdAt never changes (§D 28, derived; §E 18).
        if let Some(new) = s.task.get("createdAt").and_then(Value::as_str) {
            match &self.created_at {
                None => {
                    self.bytes += new.len();
                    self.created_at = Some(new.to_string());
                }
                Some(old) => {
                    let same = match (instant(old), instant(new)) {
                        (Some(a), Some(b)) => a == b,
                        _ => old == new,
                    };
                    if !same {
                        f.push(
                            task,
                            Code::CreatedAtChanged,
                            pointer(&s.base, "createdAt"),
                            format!("task {id} was created at {old}, now shows createdAt {new}"),
                        );
                    }
                }
            }
        }
        for key in ["ttlMs", "ttl"] {
            if let Some(v) = s.task.get(key) {
                self.ttl_ms = v.as_f64();
            }
        }
        let at = s.task.get("lastUpdatedAt").and_then(Value::as_str);
        let at_instant = at.and_then(instant);
        let newest = self.last_updated();
        let stale = late_create || matches!((at_instant, newest), (Some(n), Some(o)) if n < o);
        if !late_create {
            // An answer that cannot have been overtaken shows an older lastUpdatedAt than one
            // observed before its request was sent (§D 28, derived; §E 18).
            if let (Some(n), Some(known)) =
                (at_instant, s.asked_at.and_then(|a| self.known_before(a)))
            {
                if n < known {
                    f.push(
                        task,
                        Code::LastUpdatedBackwards,
                        pointer(&s.base, "lastUpdatedAt"),
                        format!(
                            "task {id} showed lastUpdatedAt {} before this request was sent, and the answer shows {} (earlier) (§E 18: monotonic lastUpdatedAt is never stated by the spec)",
                            crate::base::time::rfc3339(&known),
                            crate::base::time::rfc3339(&n)
                        ),
                    );
                }
            }
            if let Some(n) = at_instant {
                if newest.is_none_or(|o| n > o) {
                    self.push_maximum(s.index, n);
                }
            }
        }
        let status = s
            .task
            .get("status")
            .and_then(Value::as_str)
            .and_then(TaskStatus::parse);
        let status_message = s
            .task
            .get("statusMessage")
            .and_then(Value::as_str)
            .map(str::to_string);
        if let Some(st) = status {
            let seen = Seen {
                index: s.index,
                at: at_instant,
                status: st,
            };
            self.check_status(seen, late_create, stale, s, f);
            if st == TaskStatus::InputRequired {
                self.check_input_requests(s, at_instant, f);
            }
            if !stale || self.status.is_none() {
                if st != TaskStatus::InputRequired {
                    self.input_since = None;
                    self.input_polls = 0;
                } else if self.status != Some(st) {
                    self.input_since = Some(s.index);
                    self.input_polls = 0;
                }
                self.status = Some(st);
            }
        }
        let input_keys = match (
            status,
            s.task.get("inputRequests").and_then(Value::as_object),
        ) {
            (Some(TaskStatus::InputRequired), Some(reqs)) => Some(reqs.keys().cloned().collect()),
            _ => None,
        };
        self.push_event(TaskEvent {
            index: s.index,
            status,
            at: at.map(str::to_string),
            source: s.source,
            status_message,
            input_keys,
            seen_at: None,
        });
    }

    /// Terminal statuses are absorbing and their outcome is frozen (§D 20, 21, 93), judged on
    /// the task's clock: a non-terminal snapshot stamped before the terminal one is an older
    /// state that arrived late; one stamped at the same instant or later, or without a usable
    /// stamp, left the terminal status. `late_create`: the snapshot is the creation,
    /// overtaken; `stale`: stamped before the newest sighting.
    fn check_status(
        &mut self,
        seen: Seen,
        late_create: bool,
        stale: bool,
        s: &Snapshot<'_>,
        f: &mut Findings,
    ) {
        let id = self.task_id.clone();
        let task = Some(id.as_str());
        let st = seen.status;
        let path = pointer(&s.base, "status");
        match self.terminal {
            Some(term) if term.status != st => {
                let older =
                    late_create || matches!((seen.at, term.at), (Some(n), Some(t)) if n < t);
                // Two terminal statuses can never both hold; an older open state is history.
                if (st.is_terminal() || !older) && !s.quiet_leave {
                    f.push(
                        task,
                        Code::LeavesTerminal,
                        path,
                        format!(
                            "task {id} was {} (terminal) and now shows {}",
                            term.status.as_str(),
                            st.as_str()
                        ),
                    );
                }
                return;
            }
            Some(_) => {}
            None if st.is_terminal() => {
                // A non-terminal snapshot stamped later than this terminal one arrived first.
                if let (Some(open), Some(n)) = (self.latest_open, seen.at) {
                    if open.at.is_some_and(|o| o > n) && !late_create && !s.quiet_leave {
                        f.push(
                            task,
                            Code::LeavesTerminal,
                            path.clone(),
                            format!(
                                "task {id} shows {} at {}, but message {} showed it {} at {} (later): it left the terminal status",
                                st.as_str(),
                                crate::base::time::rfc3339(&n),
                                open.index,
                                open.status.as_str(),
                                open.at.map(|o| crate::base::time::rfc3339(&o)).unwrap_or_default()
                            ),
                        );
                    }
                }
                self.terminal = Some(seen);
                if st == TaskStatus::Failed {
                    // §D 30: a result delivered before the failure was seen.
                    if let Some(("result", shape)) = self
                        .v25_payload
                        .as_ref()
                        .map(|(k, _, shape)| (k.as_str(), *shape))
                    {
                        self.check_result_payload(shape, &path, f);
                    }
                }
            }
            None => {
                // tasks/result was answered, so the task was terminal then: an answer to a
                // request sent after that answer must be terminal too (a notification, or the
                // answer to an earlier request, may have been overtaken).
                if let Some(r) = self.result_delivered {
                    if s.after(r) && !stale && !s.quiet_leave {
                        f.push(
                            task,
                            Code::LeavesTerminal,
                            path,
                            format!(
                                "tasks/result already answered for task {id} (so it was terminal), yet it now shows {}",
                                st.as_str()
                            ),
                        );
                    }
                }
                if !late_create && self.latest_open.is_none_or(|o| later(seen.at, o.at)) {
                    self.latest_open = Some(seen);
                }
                return;
            }
        }
        if Some(st) != self.terminal_status() {
            return;
        }
        for (member, slot) in [
            ("result", &mut self.terminal_result),
            ("error", &mut self.terminal_error),
        ] {
            if let Some(v) = s.task.get(member) {
                let fp = Fingerprint::of(v);
                match slot {
                    None => *slot = Some(fp),
                    Some(old) if *old != fp => f.push(
                        task,
                        Code::TerminalPayloadChanged,
                        pointer(&s.base, member),
                        format!(
                            "task {id} is {} and its {member} differs from the one shown before",
                            st.as_str()
                        ),
                    ),
                    Some(_) => {}
                }
            }
        }
        if let Some(msg) = s.task.get("statusMessage").and_then(Value::as_str) {
            let fp = Fingerprint::of_str(msg);
            match &self.terminal_message {
                None => {
                    let quoted = quote(msg);
                    self.bytes += quoted.len();
                    self.terminal_message = Some((quoted, fp));
                }
                Some((old, old_fp)) if *old_fp != fp => f.push(
                    task,
                    Code::TerminalPayloadChanged,
                    pointer(&s.base, "statusMessage"),
                    format!(
                        "task {id} is {} and its statusMessage changed from \"{old}\" to \"{}\"",
                        st.as_str(),
                        quote(msg)
                    ),
                ),
                Some(_) => {}
            }
        }
    }

    /// `inputRequests` keys are unique over the task's life: one key never names two requests
    /// and is never re-issued once answered (§B.g; §D 87).
    fn check_input_requests(
        &mut self,
        s: &Snapshot<'_>,
        at: Option<DateTime<FixedOffset>>,
        f: &mut Findings,
    ) {
        let Some(reqs) = s.task.get("inputRequests").and_then(Value::as_object) else {
            return;
        };
        let id = self.task_id.clone();
        let base = pointer(&s.base, "inputRequests");
        for (key, req) in reqs {
            let fp = Fingerprint::of(req);
            let before = self.input_keys.get(key).copied();
            let same = before == Some(fp);
            if let Some(a) = self.answered.iter().find(|a| &a.key == key) {
                let newer = matches!((at, a.seen_until), (Some(n), Some(u)) if n > u);
                if !same || newer {
                    f.push(
                        Some(&id),
                        Code::InputKeyReused,
                        pointer(&base, key),
                        format!(
                            "inputRequests key \"{key}\" of task {id} was already answered with tasks/update and is issued again{}",
                            if same { "" } else { " for a different request" }
                        ),
                    );
                }
            } else if before.is_some() && !same {
                f.push(
                    Some(&id),
                    Code::InputKeyReused,
                    pointer(&base, key),
                    format!(
                        "inputRequests key \"{key}\" of task {id} named another request before"
                    ),
                );
            }
            if before.is_none() {
                self.remember_input_key(key, fp);
            }
        }
    }
}

/// `a` is later than `b`, or `b` has no usable stamp while `a` has one.
fn later(a: Option<DateTime<FixedOffset>>, b: Option<DateTime<FixedOffset>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a >= b,
        (_, None) => true,
        (None, Some(_)) => false,
    }
}

fn article(kind: &str) -> String {
    match kind {
        "error" => "an error".to_string(),
        k => format!("a {k}"),
    }
}

#[cfg(test)]
mod tests {
    use super::Fingerprint;

    #[test]
    fn fingerprint_ignores_member_order() {
        // Parsed from text, so that each object's members arrive in the written order.
        let a: serde_json::Value =
            serde_json::from_str(r#"{"b":1,"a":{"y":[1,"x"],"x":null},"c":true}"#)
                .unwrap_or_default();
        let b: serde_json::Value =
            serde_json::from_str(r#"{"c":true,"a":{"x":null,"y":[1,"x"]},"b":1}"#)
                .unwrap_or_default();
        assert!(a.is_object());
        assert_eq!(Fingerprint::of(&a), Fingerprint::of(&b));
        let c: serde_json::Value =
            serde_json::from_str(r#"{"c":true,"a":{"x":null,"y":["x",1]},"b":1}"#)
                .unwrap_or_default();
        assert_ne!(Fingerprint::of(&a), Fingerprint::of(&c));
    }
}
