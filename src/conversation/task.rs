//! What the conversation remembers about one task, and the history rules applied to every new
//! sighting of it (§A.c, §B.c, §B.g; §D 20, 21, 28, 87, 93).

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

/// Parses an RFC 3339 instant; `None` for anything else (the validator reports the format).
pub(crate) fn instant(s: &str) -> Option<DateTime<FixedOffset>> {
    DateTime::parse_from_rfc3339(s).ok()
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
}

/// A key of `inputRequests` the client answered with `tasks/update`.
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
    created_at: Option<String>,
    last_updated: Option<DateTime<FixedOffset>>,
    /// The status last shown.
    pub status: Option<TaskStatus>,
    /// The first terminal status shown: terminal statuses are absorbing.
    pub terminal: Option<TaskStatus>,
    terminal_result: Option<Value>,
    terminal_error: Option<Value>,
    terminal_message: Option<String>,
    /// The V25 `tasks/result` payload first delivered (a result without `_meta`, or an error).
    v25_payload: Option<(String, Value)>,
    /// `tasks/result` was answered: the task was terminal then.
    result_delivered: bool,
    /// Every `inputRequests` key ever issued and the request it named.
    input_keys: Map<String, Value>,
    answered: Vec<Answered>,
    events: Vec<TaskEvent>,
    issues: Vec<Issue>,
}

impl TaskState {
    pub fn new(task_id: &str, version: Option<ProtocolVersion>) -> Self {
        TaskState {
            task_id: task_id.to_string(),
            version,
            created_seen: false,
            created_at: None,
            last_updated: None,
            status: None,
            terminal: None,
            terminal_result: None,
            terminal_error: None,
            terminal_message: None,
            v25_payload: None,
            result_delivered: false,
            input_keys: Map::new(),
            answered: Vec::new(),
            events: Vec::new(),
            issues: Vec::new(),
        }
    }

    pub fn add_issue(&mut self, index: usize, issue: &Issue) {
        let mut issue = issue.clone();
        issue.message = format!("message {index}: {}", issue.message);
        self.issues.push(issue);
    }

    pub fn timeline(&self) -> TaskTimeline {
        TaskTimeline {
            task_id: self.task_id.clone(),
            version: self.version,
            events: self.events.clone(),
            final_status: self.status,
            issues: self.issues.clone(),
        }
    }

    /// Records an event that carries no task snapshot (a `tasks/update` or V26 `tasks/cancel`
    /// request, a V25 `tasks/result` answer).
    pub fn note(&mut self, index: usize, source: TaskEventSource, input_keys: Option<Vec<String>>) {
        self.events.push(TaskEvent {
            index,
            status: None,
            at: None,
            source,
            status_message: None,
            input_keys,
        });
    }

    /// The client answered `keys` (a `tasks/update` request); returns the keys newly marked
    /// answered, so an error response can take them back.
    pub fn answer(&mut self, keys: &[String]) -> Vec<String> {
        let mut fresh = Vec::new();
        for k in keys {
            if !self.answered.iter().any(|a| &a.key == k) {
                self.answered.push(Answered {
                    key: k.clone(),
                    seen_until: self.last_updated,
                });
                fresh.push(k.clone());
            }
        }
        fresh
    }

    /// The `tasks/update` that answered `keys` failed: the answers were not delivered.
    pub fn unanswer(&mut self, keys: &[String]) {
        self.answered.retain(|a| !keys.contains(&a.key));
    }

    /// A V25 `tasks/result` answer: the payload of a terminal task, the same every time (§D 30).
    pub fn deliver_payload(&mut self, kind: &str, payload: Value, path: &str, f: &mut Findings) {
        self.result_delivered = true;
        match &self.v25_payload {
            None => self.v25_payload = Some((kind.to_string(), payload)),
            Some((k, p)) => {
                if k != kind || p != &payload {
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

    /// Applies one sighting of the task, reporting what the history forbids.
    pub fn apply(&mut self, s: &Snapshot<'_>, f: &mut Findings) {
        let id = self.task_id.clone();
        let task = Some(id.as_str());
        if s.creates {
            self.created_seen = true;
        }
        // createdAt never changes (§D 28, derived; §E 18).
        if let Some(new) = s.task.get("createdAt").and_then(Value::as_str) {
            match &self.created_at {
                None => self.created_at = Some(new.to_string()),
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
        // lastUpdatedAt never goes backwards (§D 28, derived).
        let at = s.task.get("lastUpdatedAt").and_then(Value::as_str);
        let at_instant = at.and_then(instant);
        if let Some(new) = at_instant {
            match self.last_updated {
                Some(old) if new < old => {
                    f.push(
                        task,
                        Code::LastUpdatedBackwards,
                        pointer(&s.base, "lastUpdatedAt"),
                        format!(
                            "task {id} showed lastUpdatedAt {} before, now {} (earlier)",
                            old.to_rfc3339(),
                            new.to_rfc3339()
                        ),
                    );
                }
                Some(old) if new <= old => {}
                _ => self.last_updated = Some(new),
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
            self.check_status(st, s, f);
            if st == TaskStatus::InputRequired {
                self.check_input_requests(s, at_instant, f);
            }
            self.status = Some(st);
        }
        let input_keys = match (
            status,
            s.task.get("inputRequests").and_then(Value::as_object),
        ) {
            (Some(TaskStatus::InputRequired), Some(reqs)) => Some(reqs.keys().cloned().collect()),
            _ => None,
        };
        self.events.push(TaskEvent {
            index: s.index,
            status,
            at: at.map(str::to_string),
            source: s.source,
            status_message,
            input_keys,
        });
    }

    /// Terminal statuses are absorbing and their outcome is frozen (§D 20, 21, 93).
    fn check_status(&mut self, st: TaskStatus, s: &Snapshot<'_>, f: &mut Findings) {
        let id = self.task_id.clone();
        let task = Some(id.as_str());
        match self.terminal {
            Some(term) if term != st => {
                if !s.quiet_leave {
                    f.push(
                        task,
                        Code::LeavesTerminal,
                        pointer(&s.base, "status"),
                        format!(
                            "task {id} was {} (terminal) and now shows {}",
                            term.as_str(),
                            st.as_str()
                        ),
                    );
                }
                return;
            }
            Some(_) => {}
            None => {
                if self.result_delivered && !st.is_terminal() && !s.quiet_leave {
                    f.push(
                        task,
                        Code::LeavesTerminal,
                        pointer(&s.base, "status"),
                        format!(
                            "tasks/result already answered for task {id} (so it was terminal), yet it now shows {}",
                            st.as_str()
                        ),
                    );
                }
                if st.is_terminal() {
                    self.terminal = Some(st);
                }
            }
        }
        if Some(st) != self.terminal {
            return;
        }
        for (member, slot) in [
            ("result", &mut self.terminal_result),
            ("error", &mut self.terminal_error),
        ] {
            if let Some(v) = s.task.get(member) {
                match slot {
                    None => *slot = Some(v.clone()),
                    Some(old) if old != v => f.push(
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
            match &self.terminal_message {
                None => self.terminal_message = Some(msg.to_string()),
                Some(old) if old != msg => f.push(
                    task,
                    Code::TerminalPayloadChanged,
                    pointer(&s.base, "statusMessage"),
                    format!(
                        "task {id} is {} and its statusMessage changed from \"{old}\" to \"{msg}\"",
                        st.as_str()
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
            let before = self.input_keys.get(key);
            let same = before == Some(req);
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
                self.input_keys.insert(key.clone(), req.clone());
            }
        }
    }
}

fn article(kind: &str) -> String {
    match kind {
        "error" => "an error".to_string(),
        k => format!("a {k}"),
    }
}
