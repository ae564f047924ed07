//! A fast path for the commonest answers: a 2025-11-25 `tasks/get` result (a flat task) or
//! `tasks/list` result, read from the text in one pass, with no `serde_json::Value` tree.
//!
//! One reading for valid and invalid messages alike: a scanner (`scan`) reads the commonest
//! texts byte by byte (objects, strings, integers, `null`), and hand-written serde
//! visitors (over `deserialize_any` only, no `derive(Deserialize)`: no typed serde_json request,
//! so neither serde's `Unexpected` float formatting nor core's `f64` Display is linked) read any
//! other text the scanner gives up on, afresh. Both read each task member as whatever JSON value
//! it is (numbers and strings kept, borrowed where the text has no escape; arrays and objects
//! skipped) and note, as they go, whether it is a member the checks accept. A task with nothing
//! to report costs no more; a task with something to report is checked by the very function the
//! full validator runs ([`task_issues`], behind [`super::fields::check_task_members`], over the
//! [`TaskMembers`] view), so it gets the same issues (codes, JSON Pointers, messages, severities,
//! order): the messages are written once, in [`super::fields::TaskIssue::message_with`]. The
//! issues are kept unformatted ([`Found`]: the kind, the member, the value as a span of the
//! text), so that the report is built only when asked ([`Findings::report`]).
//!
//! The scanner reads the tasks of a list lighter still (each member checked as it is read, no
//! value kept); the rare listed task with something to report is read again, whole.
//!
//! The fast path gives up (`None`) on anything else it does not fully know (an unknown or
//! duplicate member, `_meta`, an envelope problem, a listed task that is not an object, a shape
//! that leaves the version unknown, other options or versions), and the caller then runs the full
//! validator ([`super::detect::dispatch`]) on the same text. The differential tests below hold
//! every answer of the fast path equal to the full validator's report.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Number;

use super::fields::{
    millis_of, stamp, task_issues, Hole, Millis, Seen, Stamp, TaskIssue, TaskIssueKind, TaskKey,
    TaskMembers,
};
use super::report::{
    pointer_index, Issue, Issues, Omitted, RpcKind, ValidationReport, VersionSource,
};
use super::Context;
use crate::base::visit::{refuse, MemberName};
use crate::model::{ProtocolVersion, TaskStatus};

/// What the fast path tells of a message it knows: the parts of its report that vary (it is a
/// 2025-11-25 result answering `ctx.in_reply_to`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Valid {
    pub version_source: VersionSource,
    pub kind: &'static str,
}

impl Valid {
    /// The report, for the context the verdict was given in.
    pub fn report(self, ctx: &Context) -> ValidationReport {
        self.with_issues(ctx, Issues::new())
    }

    /// The report with `issues` (those of the task checks), for the context the verdict was
    /// given in: what [`super::detect::dispatch`] builds for the same message.
    fn with_issues(self, ctx: &Context, issues: Issues) -> ValidationReport {
        let valid = !issues.has_errors();
        let (issues, omitted) = issues.into_parts();
        ValidationReport {
            valid,
            version: Some(ProtocolVersion::V2025),
            version_source: self.version_source,
            kind: self.kind.to_string(),
            rpc: RpcKind::Result,
            method: ctx.in_reply_to.clone(),
            issues,
            omitted,
        }
    }

    /// Whether `report` is [`report`](Self::report) for a context with this `in_reply_to`
    /// (compared without building it).
    pub fn is_report(self, report: &ValidationReport, in_reply_to: Option<&str>) -> bool {
        report.valid
            && report.version == Some(ProtocolVersion::V2025)
            && report.version_source == self.version_source
            && report.kind == self.kind
            && report.rpc == RpcKind::Result
            && report.method.as_deref() == in_reply_to
            && report.issues.is_empty()
    }

    /// Whether the result is a `tasks/list` one.
    pub fn is_list(self) -> bool {
        self.kind == LIST
    }
}

const GET: &str = "GetTaskResult";
const LIST: &str = "ListTasksResult";

/// The value in an issue's message, as found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FoundHole {
    None,
    /// A JSON type name ([`super::fields::TYPE_NAMES`]).
    Type(&'static str),
    /// The bytes `start..end` of the text (a string with no escape).
    Span(u32, u32),
    /// A string of the text with escapes, decoded.
    Owned(String),
}

/// One issue of the task members, unformatted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The index of the listed task (`None`: the `tasks/get` result).
    pub task: Option<u32>,
    pub kind: TaskIssueKind,
    pub key: TaskKey,
    pub hole: FoundHole,
}

impl Found {
    /// The issue, its value read from `text` (the text the fast path read).
    pub fn issue<'t>(&'t self, text: &'t str) -> TaskIssue<'t> {
        let hole = match &self.hole {
            FoundHole::None => Hole::None,
            FoundHole::Type(t) => Hole::Type(t),
            FoundHole::Span(a, b) => Hole::Text(text.get(*a as usize..*b as usize).unwrap_or("")),
            FoundHole::Owned(s) => Hole::Text(s),
        };
        TaskIssue {
            kind: self.kind,
            key: self.key,
            hole,
        }
    }
}

/// The issues of a message's task members, found by the fast path.
#[derive(Debug)]
pub struct Findings {
    pub valid: Valid,
    /// The issues kept (at most the cap), in the report's order.
    pub list: Vec<Found>,
    /// The issues found beyond the cap.
    pub omitted: Omitted,
    limit: usize,
}

impl Findings {
    /// The report, for the context and the text the issues were found in.
    pub fn report(&self, ctx: &Context, text: &str) -> ValidationReport {
        let mut kept = Vec::with_capacity(self.list.len());
        for f in &self.list {
            let base = match f.task {
                None => Cow::Borrowed("/result"),
                Some(i) => Cow::Owned(pointer_index("/result/tasks", i as usize)),
            };
            let issue = f.issue(text);
            let code = issue.code();
            kept.push(Issue {
                severity: code.severity(),
                code: code.as_str().to_string(),
                path: issue.path(&base),
                message: issue.message(),
            });
        }
        self.valid
            .with_issues(ctx, Issues::resume(kept, self.omitted, self.limit))
    }

    /// The values of the issues copied out of `text` (which is about to go).
    pub fn detach(&mut self, text: &str) {
        for f in &mut self.list {
            if let FoundHole::Span(a, b) = f.hole {
                let s = text.get(a as usize..b as usize).unwrap_or("");
                f.hole = FoundHole::Owned(s.to_string());
            }
        }
    }
}

/// What the fast path answers when it knows the message.
#[derive(Debug)]
pub enum Verdict {
    /// Valid, no issues (the report is not built).
    Valid(Valid),
    /// The issues of the task members.
    Issues(Findings),
}

impl Verdict {
    /// The report, for the context and the text the verdict was given for.
    pub fn into_report(self, ctx: &Context, text: &str) -> ValidationReport {
        match self {
            Verdict::Valid(v) => v.report(ctx),
            Verdict::Issues(f) => f.report(ctx, text),
        }
    }
}

/// The report of the message when the fast path can tell (valid or not); `None` means "ask the
/// full validator".
pub fn try_report(text: &str, ctx: &Context) -> Option<ValidationReport> {
    check(text, ctx).map(|v| v.into_report(ctx, text))
}

/// The report of a valid message with no issues, when the fast path can tell.
pub fn try_valid(text: &str, ctx: &Context) -> Option<ValidationReport> {
    match check(text, ctx)? {
        Verdict::Valid(v) => Some(v.report(ctx)),
        Verdict::Issues(_) => None,
    }
}

/// The fast path's verdict, or `None` (ask the full validator).
// Not inlined: the CPU profile (bench/cpu-profile.mjs) names its share.
#[inline(never)]
pub fn check(text: &str, ctx: &Context) -> Option<Verdict> {
    if ctx.headers.is_some() || ctx.version.is_some_and(|v| v != ProtocolVersion::V2025) {
        return None;
    }
    let want = match ctx.in_reply_to.as_deref() {
        Some("tasks/get") => Want::Task,
        Some("tasks/list") => Want::List,
        Some(_) => return None,
        None => Want::Either,
    };
    let mut found = Collector::new(text, ctx.max_issues());
    // The task is read in place (a `tasks/get` result, or each listed task in turn): never moved.
    let mut task = TaskGot::default();
    let read = match scan(text, want, &mut found, &mut task) {
        Some(read) => read,
        None => {
            // Something the scanner does not read: the serde visitors read the text afresh.
            found = Collector::new(text, ctx.max_issues());
            task = TaskGot::default();
            let mut de = serde_json::Deserializer::from_str(text);
            let read = EnvelopeSeed {
                want,
                found: &mut found,
                task: &mut task,
            }
            .deserialize(&mut de)
            .ok()?;
            de.end().ok()?;
            read
        }
    };
    let kind = match read {
        Read::Task => {
            // Without the version in the options, the shape must tell it (a V25 `ttl` or
            // `pollInterval`), and without `inReplyTo` a `taskId` or `status` must make it a
            // task: otherwise the full validator decides (§C).
            if ctx.version.is_none() && task.get(TTL).is_none() && task.get(POLL).is_none() {
                return None;
            }
            if ctx.in_reply_to.is_none() && task.get(ID).is_none() && task.get(STATUS).is_none() {
                return None;
            }
            if !task.fine() {
                found.check(None, &task);
            }
            GET
        }
        Read::List => LIST,
    };
    // A V25 task always carries `ttl` and a list a `tasks` array: the shape tells the version
    // (`tasks/list` exists only in 2025-11-25), unless the options did.
    let valid = Valid {
        version_source: if ctx.version.is_some() {
            VersionSource::Option
        } else {
            VersionSource::Shape
        },
        kind,
    };
    if found.list.is_empty() && found.omitted.issues == 0 {
        return Some(Verdict::Valid(valid));
    }
    Some(Verdict::Issues(Findings {
        valid,
        list: found.list,
        omitted: found.omitted,
        limit: found.limit,
    }))
}

/// Collects the issues of the tasks read, as [`Issues`] would (the first `limit` kept, the rest
/// counted), unformatted.
struct Collector {
    /// Where the text lies in memory (a string of the message borrowed from it is a span).
    text_at: usize,
    text_len: usize,
    list: Vec<Found>,
    limit: usize,
    omitted: Omitted,
}

impl Collector {
    fn new(text: &str, limit: usize) -> Self {
        Collector {
            text_at: text.as_ptr() as usize,
            text_len: text.len(),
            list: Vec::new(),
            limit: limit.max(1),
            omitted: Omitted::default(),
        }
    }

    /// Checks a task read whole (not [`TaskGot::fine`]).
    fn check(&mut self, index: Option<u32>, task: &TaskGot<'_>) {
        task_issues(task, ProtocolVersion::V2025, &mut |i| self.add(index, &i));
    }

    fn add(&mut self, task: Option<u32>, issue: &TaskIssue<'_>) {
        if self.list.len() >= self.limit {
            self.omitted.issues += 1;
            if issue.code().severity() == super::Severity::Error {
                self.omitted.errors += 1;
            }
            return;
        }
        let hole = match issue.hole {
            Hole::None => FoundHole::None,
            Hole::Type(t) => FoundHole::Type(t),
            Hole::Text(s) => {
                let at = (s.as_ptr() as usize).wrapping_sub(self.text_at);
                let span = (at <= self.text_len && s.len() <= self.text_len - at)
                    .then(|| Some((u32::try_from(at).ok()?, u32::try_from(at + s.len()).ok()?)))
                    .flatten();
                match span {
                    Some((a, b)) => FoundHole::Span(a, b),
                    None => FoundHole::Owned(s.to_string()),
                }
            }
        };
        self.list.push(Found {
            task,
            kind: issue.kind,
            key: issue.key,
            hole,
        });
    }
}

/// The refusal of a value the fast path does not know (the caller runs the full validator).
const REFUSED: &str = "not on the fast path";

fn refused<E: de::Error>() -> E {
    E::custom(REFUSED)
}

/// What the `result` is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    Task,
    List,
    /// Nothing names the method: the members do (a task member makes it a task, `tasks` or
    /// `nextCursor` a list).
    Either,
}

/// What was read of a known message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Read {
    /// A task (read into the caller's [`TaskGot`]).
    Task,
    /// A list (its tasks checked as they were read).
    List,
}

/// `{"jsonrpc":"2.0","id":…,"result":…}` and nothing else (each member once).
struct EnvelopeSeed<'c, 'de> {
    want: Want,
    found: &'c mut Collector,
    task: &'c mut TaskGot<'de>,
}

impl<'de> DeserializeSeed<'de> for EnvelopeSeed<'_, 'de> {
    type Value = Read;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Read, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for EnvelopeSeed<'_, 'de> {
    type Value = Read;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-RPC result")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Read, A::Error> {
        let (mut rpc, mut id, mut result) = (false, false, None);
        while let Some(key) = map.next_key_seed(MemberName(member_key))? {
            match key {
                ENV_JSONRPC if !rpc => {
                    map.next_value_seed(JsonRpc20)?;
                    rpc = true;
                }
                ENV_ID if !id => {
                    map.next_value_seed(Id)?;
                    id = true;
                }
                ENV_RESULT if result.is_none() => {
                    result = Some(map.next_value_seed(ResultSeed {
                        want: self.want,
                        found: &mut *self.found,
                        task: &mut *self.task,
                    })?);
                }
                _ => return Err(refused()),
            }
        }
        match (rpc, id, result) {
            (true, true, Some(r)) => Ok(r),
            _ => Err(refused()),
        }
    }
    refuse!('de, refused; unit, bool, num, str, seq);
}

// Member names, as [`member_key`] reads them: a task member's slot, or one of these.
const ID: usize = 0;
const STATUS: usize = 1;
const MESSAGE: usize = 2;
const CREATED: usize = 3;
const UPDATED: usize = 4;
const TTL: usize = 5;
const POLL: usize = 6;
const TASKS: usize = 7;
const CURSOR: usize = 8;
const ENV_JSONRPC: usize = 9;
const ENV_ID: usize = 10;
const ENV_RESULT: usize = 11;
const OTHER: usize = 12;

/// The number of a member name (the constants above).
// One copy (the scanner's and the visitors' callers), not inlined into each.
#[inline(never)]
fn member_key(s: &str) -> usize {
    // By length first, then one comparison with a literal (inlined: no `memcmp` call).
    let is = |name: &str, key: usize| if s == name { key } else { OTHER };
    match s.len() {
        2 => is("id", ENV_ID),
        3 => is("ttl", TTL),
        5 => is("tasks", TASKS),
        6 => match s.as_bytes().first() {
            Some(b't') => is("taskId", ID),
            Some(b's') => is("status", STATUS),
            _ => is("result", ENV_RESULT),
        },
        7 => is("jsonrpc", ENV_JSONRPC),
        9 => is("createdAt", CREATED),
        10 => is("nextCursor", CURSOR),
        12 => is("pollInterval", POLL),
        13 => match s.as_bytes().first() {
            Some(b's') => is("statusMessage", MESSAGE),
            _ => is("lastUpdatedAt", UPDATED),
        },
        _ => OTHER,
    }
}

/// The `result`: a task or a list, as `want` says.
struct ResultSeed<'c, 'de> {
    want: Want,
    found: &'c mut Collector,
    task: &'c mut TaskGot<'de>,
}

impl<'de> DeserializeSeed<'de> for ResultSeed<'_, 'de> {
    type Value = Read;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Read, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ResultSeed<'_, 'de> {
    type Value = Read;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a task or a task list")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Read, A::Error> {
        let mut want = self.want;
        let (mut tasks, mut cursor) = (false, false);
        while let Some(key) = map.next_key_seed(MemberName(member_key))? {
            match key {
                ID..=POLL if want != Want::List => {
                    want = Want::Task;
                    self.task.read(key, &mut map)?;
                }
                TASKS if want != Want::Task && !tasks => {
                    want = Want::List;
                    map.next_value_seed(TasksSeed {
                        found: &mut *self.found,
                        task: &mut *self.task,
                    })?;
                    tasks = true;
                }
                CURSOR if want != Want::Task && !cursor => {
                    want = Want::List;
                    map.next_value_seed(AnyStr)?;
                    cursor = true;
                }
                _ => return Err(refused()),
            }
        }
        match want {
            Want::List if tasks => Ok(Read::List),
            Want::List => Err(refused()),
            Want::Task | Want::Either => Ok(Read::Task),
        }
    }
    refuse!('de, refused; unit, bool, num, str, seq);
}

/// The `tasks` array: each task read whole into `task` ([`TaskSeed`]), and checked when it has
/// something to report. Nothing is kept of a task.
struct TasksSeed<'c, 'de> {
    found: &'c mut Collector,
    task: &'c mut TaskGot<'de>,
}

impl<'de> DeserializeSeed<'de> for TasksSeed<'_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TasksSeed<'_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of tasks")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i: u32 = 0;
        while let Some(()) = seq.next_element_seed(TaskSeed {
            task: &mut *self.task,
        })? {
            if !self.task.fine() {
                self.found.check(Some(i), self.task);
            }
            i = i.checked_add(1).ok_or_else(refused)?;
        }
        Ok(())
    }
    refuse!('de, refused; unit, bool, num, str, map);
}

/// A listed task: an object of task members only, read into `task` (cleared first).
struct TaskSeed<'c, 'de> {
    task: &'c mut TaskGot<'de>,
}

impl<'de> DeserializeSeed<'de> for TaskSeed<'_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TaskSeed<'_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a task object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.task.clear();
        while let Some(key) = map.next_key_seed(MemberName(member_key))? {
            self.task.read(key, &mut map)?;
        }
        Ok(())
    }
    refuse!('de, refused; unit, bool, num, str, seq);
}

/// A member's value as read from the text: what the task checks need of it.
enum Got<'de> {
    Null,
    Bool,
    Number(Number),
    Str(Cow<'de, str>),
    Array,
    Object,
}

impl Got<'_> {
    fn seen(&self) -> Seen<'_> {
        match self {
            Got::Null => Seen::Null,
            Got::Bool => Seen::Bool,
            Got::Number(n) => Seen::Number(n),
            Got::Str(s) => Seen::Str(text(s)),
            Got::Array => Seen::Array,
            Got::Object => Seen::Object,
        }
    }

    /// A 2025-11-25 millisecond value the checks accept: a non-negative integer, classified by
    /// [`millis`] as the full validator does (beyond 2^53 − 1 is not an issue in 2025-11-25).
    fn is_ms25(&self) -> bool {
        match self {
            Got::Number(n) if n.is_u64() => true,
            Got::Number(n) => matches!(millis_of(n), Millis::Ok(_) | Millis::TooLarge),
            _ => false,
        }
    }
}

/// The text of a string value (matched here: `Cow`'s `Deref` was a call in the module).
#[inline(always)]
#[allow(clippy::ptr_arg)] // the `Cow` itself, matched: that is the point
fn text<'a>(s: &'a Cow<'_, str>) -> &'a str {
    match s {
        Cow::Borrowed(s) => s,
        Cow::Owned(s) => s,
    }
}

/// Any JSON value, as a [`Got`].
struct GotSeed;

impl<'de> DeserializeSeed<'de> for GotSeed {
    type Value = Got<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Got<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for GotSeed {
    type Value = Got<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Got<'de>, E> {
        Ok(Got::Null)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Got<'de>, E> {
        Ok(Got::Bool)
    }
    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Got<'de>, E> {
        Ok(Got::Number(Number::from(u)))
    }
    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Got<'de>, E> {
        Ok(Got::Number(Number::from(i)))
    }
    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Got<'de>, E> {
        // As `serde_json::Value` reads it (a non-finite number is not JSON).
        Number::from_f64(f).map(Got::Number).ok_or_else(refused)
    }
    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Got<'de>, E> {
        Ok(Got::Str(Cow::Borrowed(s)))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Got<'de>, E> {
        Ok(Got::Str(Cow::Owned(s.to_string())))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Got<'de>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Got::Array)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Got<'de>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Got::Object)
    }
}

/// A 2025-11-25 task object whose members are all task members (any value, each at most once),
/// with what the reading learned: whether a member present is one the checks refuse, and the
/// timestamps when valid.
#[derive(Default)]
struct TaskGot<'de> {
    members: [Option<Got<'de>>; 7],
    /// The members present, by slot (bit `1 << slot`): read whole or lightly.
    seen: u8,
    /// Whether values were kept (read whole).
    kept: bool,
    bad: bool,
    created: Option<Stamp>,
    updated: Option<Stamp>,
}

impl<'de> TaskGot<'de> {
    fn get(&self, slot: usize) -> Option<&Got<'de>> {
        self.members.get(slot).and_then(Option::as_ref)
    }

    /// Forgets what was read (for the next listed task).
    fn clear(&mut self) {
        if self.kept {
            self.members.iter_mut().for_each(|m| *m = None);
            self.kept = false;
        }
        self.seen = 0;
        self.bad = false;
        self.created = None;
        self.updated = None;
    }

    /// Reads the value of the member `slot` (a task member read once, else a refusal).
    fn read<A: MapAccess<'de>>(&mut self, slot: usize, map: &mut A) -> Result<(), A::Error> {
        if !self.mark(slot) {
            return Err(refused());
        }
        let got = map.next_value_seed(GotSeed)?;
        self.put(slot, got);
        Ok(())
    }

    /// Notes the member `slot` present; false for another member, or one read before (refused).
    fn mark(&mut self, slot: usize) -> bool {
        let bit = 1u8 << (slot & 7);
        if slot > POLL || self.seen & bit != 0 {
            return false;
        }
        self.seen |= bit;
        true
    }

    /// Whether the checks accept the string `s` as the member `slot` (a timestamp is kept,
    /// parsed).
    #[inline(always)]
    fn accepts_str(&mut self, slot: usize, s: &str) -> bool {
        match slot {
            STATUS => TaskStatus::parse(s).is_some(),
            CREATED => {
                self.created = stamp(s);
                self.created.is_some()
            }
            UPDATED => {
                self.updated = stamp(s);
                self.updated.is_some()
            }
            ID | MESSAGE => true,
            _ => false,
        }
    }

    /// Notes whether the checks accept `got` as the member `slot` (not [`fine`](Self::fine)
    /// when they do not), the value not kept.
    fn accepts(&mut self, slot: usize, got: &Got<'_>) {
        let ok = match (slot, got) {
            (TTL, Got::Null) => true,
            (TTL | POLL, got) => got.is_ms25(),
            (_, Got::Str(s)) => self.accepts_str(slot, text(s)),
            _ => false,
        };
        self.bad |= !ok;
    }

    /// Keeps the value of the member `slot` (a task member not yet read), noting whether the
    /// checks accept it.
    fn put(&mut self, slot: usize, got: Got<'de>) {
        self.accepts(slot, &got);
        self.kept = true;
        if let Some(at) = self.members.get_mut(slot) {
            *at = Some(got);
        }
    }

    /// Whether the task has nothing to report: every member present accepted, the required
    /// ones present, `lastUpdatedAt` not before `createdAt`.
    fn fine(&self) -> bool {
        const REQUIRED: u8 = 1 << ID | 1 << STATUS | 1 << TTL;
        !self.bad
            && self.seen & REQUIRED == REQUIRED
            && matches!((self.created, self.updated), (Some(c), Some(u)) if u >= c)
    }
}

impl TaskMembers for TaskGot<'_> {
    fn member(&self, key: TaskKey) -> Option<Seen<'_>> {
        let slot = match key {
            TaskKey::TaskId => ID,
            TaskKey::Status => STATUS,
            TaskKey::StatusMessage => MESSAGE,
            TaskKey::CreatedAt => CREATED,
            TaskKey::LastUpdatedAt => UPDATED,
            TaskKey::Ttl => TTL,
            TaskKey::PollInterval => POLL,
            // Never read into a 2025-11-25 task (an unknown member there: the full validator).
            TaskKey::TtlMs | TaskKey::PollIntervalMs => return None,
        };
        self.get(slot).map(Got::seen)
    }

    /// As read (a string member that did not parse is `None`).
    fn timestamp(&self, key: TaskKey, _: &str) -> Option<Stamp> {
        match key {
            TaskKey::CreatedAt => self.created,
            TaskKey::LastUpdatedAt => self.updated,
            _ => None,
        }
    }
}

// ---- the scanner: the commonest texts without serde ---------------------------------------------

/// The message read as [`EnvelopeSeed`] reads it (the same member numbers, the same
/// [`TaskGot`] and [`Collector`] calls, so the same verdict), but byte by byte, without serde:
/// a `tasks/list` answer of 100 tasks took 408 k instructions with the visitors alone (native
/// build, callgrind; examples/validate_text.rs). It reads only what it fully knows: objects,
/// strings (one with an escape decoded by serde_json, as the visitors decode it), integers (no
/// fraction or exponent), `null` and JSON whitespace; on anything else, or any member the
/// visitors would refuse, it gives up (`None`) and the visitors read the text afresh.
fn scan<'t>(
    text: &'t str,
    want: Want,
    found: &mut Collector,
    task: &mut TaskGot<'t>,
) -> Option<Read> {
    let mut s = Scan { text, at: 0 };
    let (mut rpc, mut id, mut result) = (false, false, None);
    s.eat(b'{')?;
    let mut first = true;
    while let Some(key) = s.next_key(&mut first)? {
        match key {
            ENV_JSONRPC if !rpc => {
                rpc = true;
                if s.string()? != "2.0" {
                    return None;
                }
            }
            ENV_ID if !id => {
                id = true;
                if s.peek()? == b'"' {
                    s.string()?;
                } else {
                    s.integer()?;
                }
            }
            ENV_RESULT if result.is_none() => result = Some(s.result(want, found, task)?),
            _ => return None,
        }
    }
    // Nothing but whitespace after.
    match s.peek() {
        None if rpc && id => result,
        _ => None,
    }
}

/// Whether the 8 bytes of `w` hold a `"`, a `\` or a control character: the high bit of each
/// such byte (exact up to the first one, the lowest).
fn special(w: u64) -> u64 {
    const ONES: u64 = u64::MAX / 255;
    const HIGH: u64 = ONES << 7;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x;
    (w.wrapping_sub(ONES * 0x20) | zero(w ^ (ONES * 0x22)) | zero(w ^ (ONES * 0x5c))) & !w & HIGH
}

/// Where the scanner is in the text.
struct Scan<'t> {
    text: &'t str,
    at: usize,
}

impl<'t> Scan<'t> {
    /// The next byte after whitespace (not taken).
    // Inlined (as `eat`): wasm-opt -Oz leaves a call to each, per member and value.
    #[inline(always)]
    fn peek(&mut self) -> Option<u8> {
        let bytes = self.text.as_bytes();
        while let Some(&c) = bytes.get(self.at) {
            if !matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
                return Some(c);
            }
            self.at += 1;
        }
        None
    }

    /// Takes `c`, the next byte after whitespace.
    #[inline(always)]
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.at += 1)
    }

    /// The name of the next member of an object whose `{` (and any members before) was read, as
    /// a number ([`member_key`]), its `:` taken; `Some(None)` at the `}` (taken). `first`: no
    /// member was read yet.
    #[inline(never)]
    fn next_key(&mut self, first: &mut bool) -> Option<Option<usize>> {
        match self.peek()? {
            b'}' => {
                self.at += 1;
                return Some(None);
            }
            b',' if !*first => self.at += 1,
            _ if !*first => return None,
            _ => *first = false,
        }
        let key = match self.plain() {
            Some(s) => member_key(s),
            None => member_key(&self.escaped()?),
        };
        self.eat(b':')?;
        Some(Some(key))
    }

    /// After an element of an array: true after a `,` (another element follows), false at the
    /// `]` (taken).
    fn next_element(&mut self) -> Option<bool> {
        let c = self.peek()?;
        self.at += 1;
        match c {
            b',' => Some(true),
            b']' => Some(false),
            _ => None,
        }
    }

    /// A string, borrowed from the text; one with an escape decoded ([`escaped`](Self::escaped)).
    fn string(&mut self) -> Option<Cow<'t, str>> {
        match self.plain() {
            Some(s) => Some(Cow::Borrowed(s)),
            None => self.escaped(),
        }
    }

    /// A string with no escape, borrowed from the text; `None` at an escape (`at` then left at
    /// its `"`, for [`escaped`](Self::escaped)), a control character or the end of the text.
    #[inline(never)]
    fn plain(&mut self) -> Option<&'t str> {
        self.eat(b'"')?;
        let bytes = self.text.as_bytes();
        let start = self.at;
        let mut end = start;
        // Eight bytes at a time (strings are most of a message), then one at a time.
        while let Some(chunk) = bytes.get(end..end + 8) {
            let found = special(u64::from_le_bytes(<[u8; 8]>::try_from(chunk).ok()?));
            if found != 0 {
                end += found.trailing_zeros() as usize / 8;
                break;
            }
            end += 8;
        }
        while let Some(&c) = bytes.get(end) {
            if c == b'"' || c == b'\\' || c < 0x20 {
                break;
            }
            end += 1;
        }
        if bytes.get(end) != Some(&b'"') {
            self.at = start - 1;
            return None;
        }
        self.at = end + 1;
        self.text.get(start..end)
    }

    /// A string with an escape, its `"` at `at`, decoded by serde_json with the visitors'
    /// [`GotSeed`]: the same decoding (escapes, surrogate pairs) and the same refusals.
    #[cold]
    #[inline(never)]
    fn escaped(&mut self) -> Option<Cow<'t, str>> {
        let bytes = self.text.as_bytes();
        let quote = self.at;
        // Its end: the first `"` not escaped (serde_json checks the escapes).
        let mut end = quote + 1;
        loop {
            match *bytes.get(end)? {
                b'"' => break,
                b'\\' => end += 2,
                _ => end += 1,
            }
        }
        let literal = self.text.get(quote..=end)?;
        let mut de = serde_json::Deserializer::from_str(literal);
        let Got::Str(s) = GotSeed.deserialize(&mut de).ok()? else {
            return None;
        };
        self.at = end + 1;
        Some(s)
    }

    /// An integer as serde_json reads it: at most 18 digits (beyond, it may read a float), no
    /// leading zero, no fraction or exponent, not `-0` (a float there).
    fn integer(&mut self) -> Option<Number> {
        let bytes = self.text.as_bytes();
        let negative = bytes.get(self.at) == Some(&b'-');
        let start = self.at + usize::from(negative);
        let mut n: u64 = 0;
        self.at = start;
        while let Some(c) = bytes.get(self.at).filter(|c| c.is_ascii_digit()) {
            n = n.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
            self.at += 1;
        }
        let digits = self.at - start;
        let leading_zero = digits > 1 && bytes.get(start) == Some(&b'0');
        if digits == 0
            || digits > 18
            || leading_zero
            || matches!(bytes.get(self.at), Some(b'.' | b'e' | b'E'))
        {
            return None;
        }
        match (negative, i64::try_from(n)) {
            (false, _) => Some(Number::from(n)),
            (true, Ok(i)) if i > 0 => Some(Number::from(-i)),
            _ => None,
        }
    }

    /// A task member's value: `null`, a string or an integer (anything else: `None`).
    #[inline(never)]
    fn value(&mut self) -> Option<Got<'t>> {
        match self.peek()? {
            b'"' => match self.plain() {
                Some(s) => Some(Got::Str(Cow::Borrowed(s))),
                None => self.escaped().map(Got::Str),
            },
            b'n' => {
                let null = self.text.as_bytes().get(self.at..self.at + 4)? == b"null";
                null.then(|| {
                    self.at += 4;
                    Got::Null
                })
            }
            _ => self.integer().map(Got::Number),
        }
    }

    /// A task object read into `task` (cleared first), as [`TaskSeed`] reads it (`keep`: the
    /// values kept), or lightly: what the checks accept noted, no value kept.
    fn task(&mut self, task: &mut TaskGot<'t>, keep: bool) -> Option<()> {
        task.clear();
        self.eat(b'{')?;
        let mut first = true;
        while let Some(key) = self.next_key(&mut first)? {
            if !task.mark(key) {
                return None;
            }
            let got = self.value()?;
            if keep {
                task.put(key, got);
            } else {
                task.accepts(key, &got);
            }
        }
        Some(())
    }

    /// The `result`, as [`ResultSeed`] reads it.
    fn result(
        &mut self,
        want: Want,
        found: &mut Collector,
        task: &mut TaskGot<'t>,
    ) -> Option<Read> {
        let mut want = want;
        let (mut tasks, mut cursor) = (false, false);
        self.eat(b'{')?;
        let mut first = true;
        while let Some(key) = self.next_key(&mut first)? {
            match key {
                ID..=POLL if want != Want::List => {
                    want = Want::Task;
                    if !task.mark(key) {
                        return None;
                    }
                    let got = self.value()?;
                    task.put(key, got);
                }
                TASKS if want != Want::Task && !tasks => {
                    want = Want::List;
                    self.tasks(found, task)?;
                    tasks = true;
                }
                CURSOR if want != Want::Task && !cursor => {
                    want = Want::List;
                    self.string()?;
                    cursor = true;
                }
                _ => return None,
            }
        }
        match want {
            Want::List if tasks => Some(Read::List),
            Want::List => None,
            Want::Task | Want::Either => Some(Read::Task),
        }
    }

    /// The `tasks` array, as [`TasksSeed`] reads it: each task read lightly (no value kept); one
    /// with something to report read again, whole, and checked.
    fn tasks(&mut self, found: &mut Collector, task: &mut TaskGot<'t>) -> Option<()> {
        self.eat(b'[')?;
        if self.peek()? == b']' {
            self.at += 1;
            return Some(());
        }
        let mut i: u32 = 0;
        loop {
            self.peek()?;
            let start = self.at;
            self.task(task, false)?;
            if !task.fine() {
                let end = self.at;
                self.at = start;
                self.task(task, true)?;
                self.at = end;
                found.check(Some(i), task);
            }
            i = i.checked_add(1)?;
            if !self.next_element()? {
                return Some(());
            }
        }
    }
}

/// `"2.0"`.
struct JsonRpc20;

impl<'de> DeserializeSeed<'de> for JsonRpc20 {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for JsonRpc20 {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("\"2.0\"")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<(), E> {
        if s == "2.0" {
            Ok(())
        } else {
            Err(refused())
        }
    }
    refuse!('de, refused; unit, bool, num, seq, map);
}

/// A response id: a string or an integer (`5.0` counts, as [`super::envelope::is_integer`]).
struct Id;

impl<'de> DeserializeSeed<'de> for Id {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Id {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string or an integer")
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, f: f64) -> Result<(), E> {
        if f.fract() == 0.0 {
            Ok(())
        } else {
            Err(refused())
        }
    }
    refuse!('de, refused; unit, bool, seq, map);
}

/// Any string (its content is not needed).
struct AnyStr;

impl<'de> DeserializeSeed<'de> for AnyStr {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for AnyStr {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    refuse!('de, refused; unit, bool, num, seq, map);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::validate::{parse, validate_value, DEFAULT_MAX_BYTES};
    use serde_json::Value;

    fn full(text: &str, ctx: &Context) -> Option<ValidationReport> {
        parse(text, DEFAULT_MAX_BYTES)
            .ok()
            .map(|v| validate_value(&v, ctx))
    }

    fn task(i: usize) -> Value {
        let status = [
            "working",
            "input_required",
            "completed",
            "failed",
            "cancelled",
        ][i % 5];
        serde_json::json!({
            "taskId": format!("task-{i}"),
            "status": status,
            "statusMessage": "Building target release",
            "createdAt": "2025-11-25T10:30:00Z",
            "lastUpdatedAt": "2025-11-25T10:30:05Z",
            "ttl": 600000,
            "pollInterval": 2000,
        })
    }

    /// Values put in place of each member, to cover the checks' edges.
    fn edge_values() -> Vec<Value> {
        serde_json::from_str(
            r#"[null, true, 0, -0.0, 1, -1, 2.5, 5.0, -5.0, 1e300, 9007199254740991,
                9007199254740993, 18446744073709551615, -9223372036854775808, "", "2.0", "x",
                "working", "running", "cancelled", "2025-11-25T10:30:00Z",
                "2025-11-25T10:30:00+02:00", "2025-11-25T10:29:00Z", "2025-11-25 10:30:00Z",
                "2025-11-25T10:30:00", "2025-02-30T10:30:00Z", "2025-11-25T10:30:05.5Z",
                "tasks/get", [], {}, [1], {"a": 1}, [{}]]"#,
        )
        .unwrap()
    }

    fn contexts() -> Vec<Context> {
        let mut out = Vec::new();
        for version in [
            None,
            Some(ProtocolVersion::V2025),
            Some(ProtocolVersion::V2026),
        ] {
            for reply in [
                None,
                Some("tasks/get"),
                Some("tasks/list"),
                Some("tasks/cancel"),
            ] {
                out.push(Context {
                    version,
                    in_reply_to: reply.map(str::to_string),
                    ..Context::default()
                });
            }
        }
        out
    }

    /// Every message built by replacing, adding or removing one member, at every level.
    fn variants(base: &Value) -> Vec<Value> {
        let mut out = vec![base.clone()];
        fn walk(v: &Value, path: &mut Vec<String>, out: &mut Vec<Value>, root: &Value) {
            let Value::Object(m) = v else {
                if let Value::Array(a) = v {
                    for (i, item) in a.iter().enumerate().take(2) {
                        path.push(i.to_string());
                        walk(item, path, out, root);
                        path.pop();
                    }
                }
                return;
            };
            let ptr = |p: &[String]| p.iter().map(|s| format!("/{s}")).collect::<String>();
            for key in m.keys() {
                path.push(key.clone());
                for e in edge_values() {
                    let mut copy = root.clone();
                    *copy.pointer_mut(&ptr(path)).unwrap() = e;
                    out.push(copy);
                }
                let mut removed = root.clone();
                removed
                    .pointer_mut(&ptr(&path[..path.len() - 1]))
                    .unwrap()
                    .as_object_mut()
                    .unwrap()
                    .remove(key);
                out.push(removed);
                walk(&m[key], path, out, root);
                path.pop();
            }
            for extra in [
                "_meta",
                "ttlMs",
                "resultType",
                "task",
                "tasks",
                "taskId",
                "method",
                "error",
                "params",
                "other",
            ] {
                if !m.contains_key(extra) {
                    let mut copy = root.clone();
                    copy.pointer_mut(&ptr(path))
                        .unwrap()
                        .as_object_mut()
                        .unwrap()
                        .insert(extra.to_string(), serde_json::json!({}));
                    out.push(copy);
                }
            }
        }
        walk(base, &mut Vec::new(), &mut out, base);
        out
    }

    /// Every variant in every context: whenever the fast path answers (valid or not), its
    /// report equals the full validator's. Answers how many valid and invalid answers it gave.
    fn check_all(base: &Value) -> (usize, usize) {
        let (mut valid, mut invalid) = (0, 0);
        for msg in variants(base) {
            let text = serde_json::to_string(&msg).unwrap();
            for ctx in contexts() {
                if let Some(fast) = try_report(&text, &ctx) {
                    if fast.issues.is_empty() {
                        valid += 1;
                    } else {
                        invalid += 1;
                    }
                    let slow = full(&text, &ctx).expect("the full validator parses it");
                    assert_eq!(fast, slow, "{text} {ctx:?}");
                }
            }
        }
        (valid, invalid)
    }

    #[test]
    fn fast_task_answers_equal_the_full_validator() {
        let base = serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": task(0)});
        let (valid, invalid) = check_all(&base);
        assert!(valid > 20 && invalid > 200, "{valid} {invalid}");
    }

    #[test]
    fn fast_list_answers_equal_the_full_validator() {
        let base = serde_json::json!({
            "jsonrpc": "2.0", "id": "a",
            "result": {"tasks": [task(1), task(2)], "nextCursor": "page-2"},
        });
        let (valid, invalid) = check_all(&base);
        assert!(valid > 20 && invalid > 200, "{valid} {invalid}");
        let empty = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"tasks": []}});
        assert!(check_all(&empty).0 > 5);
    }

    /// Several members wrong at once, with a cap on the issues: the same order and truncation.
    #[test]
    fn several_issues_and_the_cap_equal_the_full_validator() {
        let mut bad = task(0);
        bad["taskId"] = serde_json::json!(7);
        bad["status"] = serde_json::json!("running");
        bad["statusMessage"] = serde_json::json!(["x"]);
        bad["createdAt"] = serde_json::json!("yesterday \\ \"quoted\" \u{00e9}");
        bad["lastUpdatedAt"] = serde_json::json!(1.5);
        bad["ttl"] = serde_json::json!("600000");
        bad["pollInterval"] = serde_json::json!(-2.5);
        let get = serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": bad.clone()});
        let list = serde_json::json!({"jsonrpc": "2.0", "id": 3,
            "result": {"tasks": [task(1), bad.clone(), task(2), bad]}});
        for msg in [get, list] {
            let text = serde_json::to_string(&msg).unwrap();
            for max in [None, Some(0), Some(1), Some(3), Some(100)] {
                for mut ctx in contexts() {
                    ctx.max_issues = max;
                    if let Some(fast) = try_report(&text, &ctx) {
                        assert_eq!(Some(fast), full(&text, &ctx), "{text} {ctx:?}");
                    }
                }
            }
            let ctx = Context::default();
            assert!(try_report(&text, &ctx).is_some_and(|r| !r.valid), "{text}");
        }
    }

    /// The benchmarks' invalid answers take the fast path.
    #[test]
    fn bench_invalid_answers_take_the_fast_path() {
        for (key, value) in [("status", "running"), ("ttl", "600000")] {
            let mut t = task(0);
            t[key] = serde_json::json!(value);
            let text = serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": t}).to_string();
            let ctx = Context {
                in_reply_to: Some("tasks/get".into()),
                ..Context::default()
            };
            let fast = try_report(&text, &ctx).expect("the fast path answers");
            assert!(!fast.valid && fast.issues.len() == 1);
            let found = match check(&text, &ctx) {
                Some(Verdict::Issues(found)) => Some(found),
                _ => None,
            }
            .expect("issues expected");
            assert!(!found.list.is_empty(), "{found:?}");
            assert_eq!(Some(fast), full(&text, &ctx));
        }
    }

    /// Listed tasks with something to report, among others, spaced oddly, empty, with `{` in
    /// strings before them: each read again from its first member, the same issues.
    #[test]
    fn listed_tasks_read_again_equal_the_full_validator() {
        let ok = r#"{"taskId":"{a{","status":"working","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":1}"#;
        let bad = r#"{ 
 "taskId" : "b" , "status":"running","statusMessage":"{","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:29:00Z","ttl":-1}"#;
        for tasks in [
            format!("[{ok},{bad},{ok},{{}},{bad}]"),
            format!("[ {{ }} , {bad} ]"),
            format!("[{bad}]"),
        ] {
            let text = format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"nextCursor":"{{","tasks":{tasks}}}}}"#
            );
            for max in [None, Some(1), Some(3)] {
                let ctx = Context {
                    in_reply_to: Some("tasks/list".into()),
                    max_issues: max,
                    ..Context::default()
                };
                let fast = try_report(&text, &ctx).expect("the fast path answers");
                assert!(!fast.valid);
                assert_eq!(Some(fast), full(&text, &ctx), "{text}");
            }
        }
    }

    /// Raw JSON (not written by serde_json) at every value of a task, alone and listed, and of
    /// the envelope: whatever the scanner or the visitors answer equals the full validator's
    /// report, and a text that is not JSON is never answered.
    #[test]
    fn scanner_edges_equal_the_full_validator() {
        let raw = [
            "0",
            "01",
            "-0",
            "-1",
            "-01",
            "5",
            "-",
            "1.0",
            "1e3",
            "1E3",
            "2.",
            "123456789012345678",
            "1234567890123456789",
            "-123456789012345678",
            "99999999999999999999",
            "null",
            "nul",
            "nullx",
            "true",
            "[]",
            "{}",
            r#""""#,
            r#""a""#,
            "\"a\tb\"",
            r#""a\"b""#,
            r#""\u00e9""#,
            r#""é""#,
            r#""2025-11-25T10:30:00Z""#,
            r#""2025-11-25T10:29:00Z""#,
            r#""working""#,
            r#""running""#,
            r#""2.0""#,
            " 7 ",
            "\n\"working\"\t",
            "",
            "\"open",
            // Escapes: decoded as the visitors decode them, or refused as they refuse them.
            r#""w\u006frking""#,
            r#""\ud83d\ude00""#,
            r#""\ud83d""#,
            r#""\ude00x""#,
            r#""a\\""#,
            r#""\/\b\f\n\r\t""#,
            r#""\x""#,
            r#""\u12""#,
            r#""\u12G4""#,
            r#""a\"#,
            r#""2.\u0030""#,
            r#""2025-11-25T10:30:00\u005a""#,
            "\"a\\\u{1}\"",
        ];
        let members = [
            ("taskId", r#""t""#),
            ("status", r#""working""#),
            ("statusMessage", r#""m""#),
            ("createdAt", r#""2025-11-25T10:30:00Z""#),
            ("lastUpdatedAt", r#""2025-11-25T10:30:00Z""#),
            ("ttl", "1"),
            ("pollInterval", "2"),
        ];
        let task_with = |at: usize, value: &str| {
            let body: Vec<String> = members
                .iter()
                .enumerate()
                .map(|(i, (k, v))| format!(r#""{k}":{}"#, if i == at { value } else { v }))
                .collect();
            format!("{{{}}}", body.join(","))
        };
        let ok = task_with(usize::MAX, "");
        let mut texts = Vec::new();
        for value in raw {
            for at in 0..members.len() {
                let t = task_with(at, value);
                texts.push(format!(r#"{{"jsonrpc":"2.0","id":1,"result":{t}}}"#));
                texts.push(format!(
                    r#"{{"jsonrpc":"2.0","id":1,"result":{{"tasks":[{ok},{t},{ok}],"nextCursor":"c"}}}}"#
                ));
            }
            texts.push(format!(r#"{{"jsonrpc":"2.0","id":{value},"result":{ok}}}"#));
            texts.push(format!(r#"{{"jsonrpc":{value},"id":1,"result":{ok}}}"#));
            texts.push(format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"tasks":[{ok}],"nextCursor":{value}}}}}"#
            ));
        }
        for odd in [
            format!(r#"{{"jsonrpc":"1.0","jsonrpc":"2.0","id":1,"result":{ok}}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{ok},}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"tasks":[{ok},]}}}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"tasks":[,{ok}]}}}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"tasks":[{ok}{ok}]}}}}"#),
            r#"{"jsonrpc":"2.0","id":1,"result":{"tasks":[{},{ }]}}"#.to_string(),
            r#"{"jsonrpc":"2.0","id":1,"result":{"tasks":[]}}"#.to_string(),
            r#"{"jsonrpc":"2.0","id":1,"result":{"tasks":[ ],"tasks":[]}}"#.to_string(),
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.to_string(),
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{ok}}} "#),
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{ok}}}}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{ok}"#),
            format!(" {{ \"jsonrpc\" :\r\"2.0\" ,\t\"id\"\n: 1 , \"result\" : {ok} }} "),
            format!(r#"{{"jsonrpc":"2.0","id":1 "result":{ok}}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{ok},"x":1}}"#),
        ] {
            texts.push(odd);
        }
        let mut answered = 0;
        for text in &texts {
            for ctx in contexts() {
                if let Some(fast) = try_report(text, &ctx) {
                    answered += 1;
                    assert_eq!(Some(fast), full(text, &ctx), "{text} {ctx:?}");
                }
            }
        }
        assert!(answered > 1000, "{answered}");
    }

    /// The benchmarks' messages are read by the scanner (not given up to the visitors).
    #[test]
    fn the_scanner_reads_the_common_answers() {
        let list: Vec<Value> = (0..5).map(task).collect();
        let mut bad = task(0);
        bad["status"] = serde_json::json!("running");
        let mut escaped = task(3);
        escaped["statusMessage"] = serde_json::json!("line\n\"quoted\" \\ é");
        let escaped_list: Vec<Value> = vec![task(1), escaped.clone()];
        for (msg, want) in [
            (
                serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": escaped}),
                Want::Task,
            ),
            (
                serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": {"tasks": escaped_list}}),
                Want::List,
            ),
            (
                serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": task(0)}),
                Want::Task,
            ),
            (
                serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": bad}),
                Want::Task,
            ),
            (
                serde_json::json!({"jsonrpc": "2.0", "id": 5, "result": {"tasks": list, "nextCursor": "page-2"}}),
                Want::List,
            ),
        ] {
            let text = msg.to_string();
            let mut found = Collector::new(&text, 10);
            let mut got = TaskGot::default();
            assert!(scan(&text, want, &mut found, &mut got).is_some(), "{text}");
        }
    }

    #[test]
    fn fast_path_takes_the_common_answers() {
        let get = serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": task(0)}).to_string();
        let ctx = Context {
            in_reply_to: Some("tasks/get".into()),
            ..Context::default()
        };
        assert!(try_valid(&get, &ctx).is_some());
        // Duplicate members, escapes and odd spacing: the same verdicts either way.
        for text in [
            r#"{"jsonrpc":"2.0","id":3,"id":4,"result":{"taskId":"a","status":"working","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":null}}"#,
            r#" { "jsonrpc" : "2.0" , "id" : 3.0 , "result" : { "taskId" : "a\u0041\n" , "status" : "work\u0069ng" , "createdAt" : "2025-11-25T10:30:00Z" , "lastUpdatedAt" : "2025-11-25T10:30:00Z" , "ttl" : 1e3 } } "#,
            r#"{"jsonrpc":"2.0","id":3,"result":{"taskId":"a","status":"working","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":1}} x"#,
            // A name with an escape: the scanner gives up, the visitors read it.
            r#"{"jsonrpc":"2.0","id":1,"result":{"tasks":[{"\u0074askId":"a","status":"running","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":1}]}}"#,
        ] {
            for ctx in contexts() {
                if let Some(fast) = try_report(text, &ctx) {
                    assert_eq!(Some(fast), full(text, &ctx), "{text}");
                }
            }
        }
    }
}
