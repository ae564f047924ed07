//! Durability: [`Scheduler::serialize`] / [`Scheduler::restore`] (format
//! `mcp-tasks-wasm/scheduler/1`, written and read by hand), so that a reloaded page or a
//! restarted client resumes polling where it stopped (§D 104). Also the structural invariants
//! the property tests check.
//!
//! The state is compact (100,000 tasks fit in a few MB of `localStorage`) and opaque: settings
//! and tasks are arrays, not objects.
//!
//! ```text
//! { "format": "mcp-tasks-wasm/scheduler/1",
//!   "config": [floorMs, defaultIntervalMs, backoffMs, backoffCapMs, jitterPpm, pollTimeoutMs,
//!              budgetPerSecond, stuckAfterPolls],
//!   "jitter": "16 hex digits", "clock": ms, "seq": n,
//!   "servers": [[name, tatUs, cursorUs], …],
//!   "tasks": [[key, server, version (0 unknown, 1 2025-11-25, 2 2026-07-28),
//!              status (0 unknown, 1–5 in state-machine order), phase (0 waiting, 1 in flight,
//!              2 finished), dueAt, seq, held (0, 1), lastUpdatedAt, expiresAt, deadline,
//!              intervalMs, errors, unchanged], …] }
//! ```
//!
//! Every number is a non-negative integer or `null` for "none" (no TTL, no deadline, …); the
//! clock and the four times of a task (`dueAt`, never `null`; `lastUpdatedAt`, `expiresAt`,
//! `deadline`) are Unix ms up to [`MAX_TIME_MS`], the last instant a JS `Date` holds
//! (`docs/decisions/scheduler-time.md`). [`Scheduler::restore`] is the one check of this form:
//! `TaskClient.restore` builds its scheduler with it and names the field it refuses.

use std::rc::Rc;

use serde_json::{Map, Value};

use super::compact::{read_num, row, NONE};
use super::config::{ScheduleError, SchedulerConfig};
use super::queue::{DueQueue, Item};
use super::scheduler::{Entry, Phase, Scheduler, Server, MAX_TIME_MS, NEVER, UNKNOWN};
use crate::base::hex::{hex, unhex};
use crate::model::{ProtocolVersion, TaskStatus};

/// The `format` member of a serialized scheduler.
pub const STATE_FORMAT: &str = "mcp-tasks-wasm/scheduler/1";

const _: () = assert!(NEVER == NONE && UNKNOWN == NONE);
/// Numbers per task after its key.
const FIELDS: usize = 13;
/// Their names, as errors say them.
const FIELD_NAMES: [&str; FIELDS] = [
    "server",
    "version",
    "status",
    "phase",
    "dueAt",
    "seq",
    "held",
    "lastUpdatedAt",
    "expiresAt",
    "deadline",
    "intervalMs",
    "errors",
    "unchanged",
];
/// The fields that are instants (Unix ms, at most [`MAX_TIME_MS`]; `dueAt` never `null`).
const TIMES: [&str; 4] = ["dueAt", "lastUpdatedAt", "expiresAt", "deadline"];

/// A task's numbers (the sentinels [`NEVER`] and [`UNKNOWN`] are [`NONE`]).
fn encode(e: &Entry) -> [u64; FIELDS] {
    let index = |i: Option<usize>| i.map_or(0, |i| i as u64 + 1);
    [
        u64::from(e.server),
        index(e.version.map(|v| v as usize)),
        index(
            e.status
                .and_then(|s| TaskStatus::ALL.iter().position(|&t| t == s)),
        ),
        e.phase as u64,
        e.due,
        u64::from(e.seq),
        u64::from(e.held),
        e.last_updated,
        e.expires_at,
        e.deadline,
        e.interval.map_or(NONE, u64::from),
        u64::from(e.errors),
        u64::from(e.unchanged),
    ]
}

/// The entry [`encode`] describes, else the name of a field out of range.
fn decode(key: &str, n: [u64; FIELDS]) -> Result<Entry, &'static str> {
    let [server, version, status, phase, due, seq, held, updated, expires, deadline, interval, errors, unchanged] =
        n;
    let pick = |i: u64| usize::try_from(i).ok().and_then(|i| i.checked_sub(1));
    Ok(Entry {
        key: Rc::from(key),
        due,
        last_updated: updated,
        expires_at: expires,
        deadline,
        interval: match interval {
            NONE => None,
            i => Some(u32::try_from(i).map_err(|_| "intervalMs")?),
        },
        seq: u32::try_from(seq).map_err(|_| "seq")?,
        server: u32::try_from(server).map_err(|_| "server")?,
        errors: u16::try_from(errors).map_err(|_| "errors")?,
        unchanged: u16::try_from(unchanged).map_err(|_| "unchanged")?,
        status: match pick(status) {
            None => None,
            Some(i) => Some(*TaskStatus::ALL.get(i).ok_or("status")?),
        },
        version: match pick(version) {
            None => None,
            Some(0) => Some(ProtocolVersion::V2025),
            Some(1) => Some(ProtocolVersion::V2026),
            Some(_) => return Err("version"),
        },
        phase: match phase {
            0 => Phase::Waiting,
            1 => Phase::InFlight,
            2 => Phase::Finished,
            _ => return Err("phase"),
        },
        held: match held {
            0 => false,
            1 => true,
            _ => return Err("held"),
        },
    })
}

impl Scheduler {
    /// The whole scheduler as JSON: settings, jitter state, clock, the servers' budget state and
    /// every tracked task (finished ones included).
    pub fn serialize(&self) -> Value {
        // Plain loops, one row builder: less code in the wasm than iterator chains.
        let mut tasks = Vec::with_capacity(self.index.len());
        for e in self.entries.iter().flatten() {
            tasks.push(row(Some(&e.key), &encode(e)));
        }
        let mut servers = Vec::with_capacity(self.servers.len());
        for s in &self.servers {
            servers.push(row(Some(&s.name), &[s.tat_us, s.cursor_us]));
        }
        let mut state = Map::new();
        state.insert("format".into(), Value::from(STATE_FORMAT));
        state.insert("config".into(), self.config.to_json());
        // As hex: a JS number cannot carry 64 bits.
        let jitter = hex(&self.rng.state().to_be_bytes());
        state.insert("jitter".into(), Value::from(jitter));
        state.insert("clock".into(), Value::from(self.clock));
        state.insert("seq".into(), Value::from(self.queue.next_seq()));
        state.insert("servers".into(), Value::Array(servers));
        state.insert("tasks".into(), Value::Array(tasks));
        Value::Object(state)
    }

    /// The scheduler a [`serialize`](Self::serialize) describes. A task that was in flight (its
    /// answer died with the old process) is due again `max(floor, interval)` after the saved
    /// clock (no jitter), or at its deadline or TTL backstop if sooner.
    pub fn restore(state: &Value) -> Result<Scheduler, ScheduleError> {
        let invalid = |reason: String| ScheduleError::InvalidState { reason };
        let member = |key: &str| state.get(key).unwrap_or(&Value::Null);
        if member("format").as_str() != Some(STATE_FORMAT) {
            return Err(invalid(format!("format is not {STATE_FORMAT:?}")));
        }
        let config = SchedulerConfig::from_json(member("config")).map_err(invalid)?;
        let seed = member("jitter")
            .as_str()
            .and_then(unhex::<8>)
            .ok_or_else(|| invalid("jitter is not 16 hex digits".into()))?;
        let mut s = Scheduler::new(config, u64::from_be_bytes(seed))?;
        let Some(clock) = member("clock").as_u64().filter(|&t| t <= MAX_TIME_MS) else {
            return Err(invalid(format!(
                "clock is {}, not a time in ms from 0 to {MAX_TIME_MS}",
                member("clock")
            )));
        };
        let (Some(seq), Some(servers), Some(tasks)) = (
            member("seq").as_u64().and_then(|n| u32::try_from(n).ok()),
            member("servers").as_array(),
            member("tasks").as_array(),
        ) else {
            return Err(invalid("seq, servers or tasks is malformed".into()));
        };
        s.clock = clock;
        for (i, server) in servers.iter().enumerate() {
            let server = match server.as_array().map(Vec::as_slice) {
                Some([name, tat, cursor]) => name.as_str().zip(tat.as_u64()).zip(cursor.as_u64()),
                _ => None,
            };
            let Some(((name, tat_us), cursor_us)) = server else {
                return Err(invalid(format!(
                    "servers[{i}]: not [name, tatUs, cursorUs]"
                )));
            };
            s.servers.push(Server {
                name: name.into(),
                tat_us,
                cursor_us,
            });
        }
        let mut items = Vec::with_capacity(tasks.len());
        for (i, task) in tasks.iter().enumerate() {
            let item = s
                .restore_task(task)
                .map_err(|why| invalid(format!("tasks[{i}]: {why}")))?;
            items.extend(item);
        }
        s.queue = DueQueue::from_items(items, seq);
        s.settle();
        Ok(s)
    }

    /// Adds one serialized task; answers its queue item unless it is finished. Errors name the
    /// field.
    fn restore_task(&mut self, task: &Value) -> Result<Option<Item>, String> {
        let fields = task.as_array().map(Vec::as_slice).unwrap_or_default();
        let (Some((key, rest)), true) = (fields.split_first(), fields.len() == FIELDS + 1) else {
            return Err(format!("not [key, {FIELDS} numbers]"));
        };
        let key = key.as_str().ok_or("the key is not a string")?;
        if self.index.contains_key(key) {
            return Err(format!("the key {key:?} appears twice"));
        }
        let mut n = [0u64; FIELDS];
        for ((slot, v), name) in n.iter_mut().zip(rest).zip(FIELD_NAMES) {
            *slot = read_num(v)
                .ok_or_else(|| format!("{name} is {v}, not a non-negative integer or null"))?;
        }
        for (&at, name) in n.iter().zip(FIELD_NAMES) {
            if !TIMES.contains(&name) {
                continue;
            }
            if at == NONE && name == "dueAt" {
                return Err("dueAt is null, not a time".into());
            }
            if at != NONE && at > MAX_TIME_MS {
                return Err(format!(
                    "{name} is {at}, past the latest time ({MAX_TIME_MS} ms)"
                ));
            }
        }
        let mut entry = decode(key, n).map_err(|name| format!("{name} is out of range"))?;
        if entry.server as usize >= self.servers.len() {
            return Err("server (its index) is out of range".into());
        }
        if entry.phase == Phase::InFlight {
            let interval = entry
                .interval
                .map_or(self.config.default_interval_ms, u64::from);
            let again = self
                .clock
                .saturating_add(self.config.floor_ms.max(interval));
            entry.due = again
                .min(entry.deadline)
                .min(entry.backstop_at())
                .min(MAX_TIME_MS);
            entry.phase = Phase::Waiting;
        }
        let slot = u32::try_from(self.entries.len()).map_err(|_| "too many tasks")?;
        let item = (entry.phase != Phase::Finished).then(|| entry.item(slot));
        self.index.insert(Rc::clone(&entry.key), slot);
        self.entries.push(Some(entry));
        Ok(item)
    }

    /// The structural invariants, for tests: every tracked key names its entry; each
    /// unfinished entry has exactly one current queue item, finished ones none; the top of the
    /// queue is current; stale items are bounded; free slots are empty.
    #[doc(hidden)]
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut items: Vec<Item> = self.queue.iter().copied().collect();
        items.sort_unstable();
        let mut unfinished = 0;
        for (slot, e) in self.entries.iter().enumerate() {
            let Some(e) = e else { continue };
            let slot = u32::try_from(slot).map_err(|_| "slot overflow")?;
            if self.index.get(&e.key) != Some(&slot) {
                return Err(format!("{:?}: the index does not name slot {slot}", e.key));
            }
            if e.status.is_some_and(TaskStatus::is_terminal) && e.phase != Phase::Finished {
                return Err(format!("{:?}: terminal but not finished", e.key));
            }
            if e.phase == Phase::Finished {
                continue;
            }
            unfinished += 1;
            let item = e.item(slot);
            let copies =
                items.partition_point(|i| *i <= item) - items.partition_point(|i| *i < item);
            if copies != 1 {
                return Err(format!("{:?}: {copies} current queue items", e.key));
            }
        }
        let live = self.entries.iter().flatten().count();
        if live != self.index.len() {
            return Err(format!("{live} entries, {} keys", self.index.len()));
        }
        let current = items.iter().filter(|i| self.current(i)).count();
        if current != unfinished {
            return Err(format!("{unfinished} unfinished, {current} current items"));
        }
        if self.queue.peek().is_some_and(|top| !self.current(&top)) {
            return Err("the top of the queue is stale".into());
        }
        if self.queue.len() > 2 * self.index.len() + 1024 {
            return Err(format!(
                "{} queue items for {} tasks",
                self.queue.len(),
                live
            ));
        }
        if let Some(slot) = self.free.iter().find(|&&slot| self.entry(slot).is_some()) {
            return Err(format!("free slot {slot} is occupied"));
        }
        Ok(())
    }
}
