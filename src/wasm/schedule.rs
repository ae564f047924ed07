//! `TaskScheduler`: the polling scheduler core ([`crate::schedule`]) exported to JS, in the
//! default build (clients and browsers poll). Every method converts its arguments, delegates
//! to one core operation and converts the answer; no rule lives here.
//!
//! Time is the optional last argument `now` (Unix ms) or `Date.now()`; the jitter seed is
//! `options.seed` or drawn from `Math.random()`.

use js_sys::{JsString, Number, Reflect};
use serde_json::Value;
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;

use super::input::{
    as_u64, bad, js_to_json, read_limit, read_now, safe_i64, to_js, why_not_read, Members,
};
use crate::schedule::options::{PollErrorInfo, TaskSchedulerOptions, TrackParams};
use crate::schedule::{PollFailure, ScheduleError, Scheduler, SchedulerConfig, SchedulerEvent};

// ---- argument types (generated into the .d.ts; read member by member) -------------------------

/// What the scheduler's methods answer: events, in order (`SchedulerEvent[]`).
#[derive(Tsify)]
#[allow(dead_code)] // a type for the .d.ts: the events cross as JSON text (one `JSON.parse`)
pub struct SchedulerEvents(Vec<SchedulerEvent>);

// ---- reading arguments -------------------------------------------------------------------------

fn read_options(
    options: Option<Ts<TaskSchedulerOptions>>,
) -> Result<(SchedulerConfig, u64), JsValue> {
    let Some(o) = Members::of(options.map_or(JsValue::UNDEFINED, JsValue::from), "options")? else {
        return Ok((SchedulerConfig::default(), random_seed()));
    };
    let count = |key: &str| {
        o.opt(key, "a positive integer or null", |v| {
            as_u64(v).and_then(|n| u32::try_from(n).ok())
        })
    };
    let options = TaskSchedulerOptions {
        floor_ms: o.ms("floorMs")?,
        default_interval_ms: o.ms("defaultIntervalMs")?,
        backoff_ms: o.ms("backoffMs")?,
        backoff_cap_ms: o.ms("backoffCapMs")?,
        jitter: o.opt("jitter", "a number from 0 to 1", |v| {
            v.as_f64().filter(|x| (0.0..=1.0).contains(x))
        })?,
        poll_timeout_ms: o.ms("pollTimeoutMs")?,
        budget_per_second: count("budgetPerSecond")?,
        stuck_after_polls: count("stuckAfterPolls")?,
        seed: o.opt("seed", "a non-negative safe integer", as_u64)?,
    };
    let (config, seed) = options.into_config();
    Ok((config, seed.unwrap_or_else(random_seed)))
}

/// A task key, its lone surrogates carried ([`super::input::carried`]): keys that differ only
/// in them stay two keys, and events name each as it was given.
fn read_key(key: &JsString) -> Result<String, JsValue> {
    // Typed `string`, but JS may pass anything: the runtime type is checked here.
    key.as_string()
        .map(|text| super::input::carried(key, text))
        .ok_or_else(|| bad("the task key must be a string".to_string()))
}

/// A task snapshot (a JS object; JSON text is not taken, to keep `observe` cheap to misuse).
fn read_task(task: &JsValue, what: &str) -> Result<Value, JsValue> {
    if !task.is_object() || js_sys::Array::is_array(task) {
        return Err(bad(format!("`{what}` must be a task object")));
    }
    js_to_json(task, usize::MAX)
        .map_err(|report| bad(format!("invalid `{what}`: {}", why_not_read(&report))))
}

fn read_track(params: Option<Ts<TrackParams>>) -> Result<TrackParams, JsValue> {
    let Some(p) = Members::of(
        params.map_or(JsValue::UNDEFINED, JsValue::from),
        "track params",
    )?
    else {
        return Ok(TrackParams::default());
    };
    let task = match p.raw("task")? {
        Some(t) if !t.is_null() => Some(read_task(&t, "task")?),
        _ => None,
    };
    Ok(TrackParams {
        server: p.text("server")?,
        version: p.opt_version("version")?,
        task,
        deadline_ms: p.ms("deadlineMs")?,
    })
}

fn read_failure(error: Option<Ts<PollErrorInfo>>) -> Result<PollErrorInfo, JsValue> {
    let Some(e) = Members::of(
        error.map_or(JsValue::UNDEFINED, JsValue::from),
        "poll error",
    )?
    else {
        return Ok(PollErrorInfo::default());
    };
    Ok(PollErrorInfo {
        code: e.opt("code", "an integer", |v| v.as_f64().and_then(safe_i64))?,
        message: None,
        retry_after_ms: e.ms("retryAfterMs")?,
    })
}

/// The jitter seed when none is given: `Math.random()` (53 bits). Jitter guards nothing (task
/// ids and cursors do not depend on it); it only has to differ between clients, which every
/// runtime's `Math.random` (seeded per isolate from the OS) does.
fn random_seed() -> u64 {
    (js_sys::Math::random() * 9_007_199_254_740_992.0) as u64
}

/// A [`ScheduleError`] as the thrown JS value: malformed options or snapshots are a
/// `TypeError`; a key tracked twice or a state that cannot be restored an `Error` named
/// `"TaskSchedulerError"` with `kind` (`already_tracked`, `invalid_state`).
fn schedule_error(e: &ScheduleError) -> JsValue {
    let kind = match e {
        ScheduleError::InvalidConfig { .. } | ScheduleError::InvalidSnapshot { .. } => {
            return bad(e.to_string())
        }
        ScheduleError::AlreadyTracked => "already_tracked",
        ScheduleError::InvalidState { .. } => "invalid_state",
    };
    let error = js_sys::Error::new(&e.to_string());
    error.set_name("TaskSchedulerError");
    // Setting an own data property of a fresh Error cannot fail.
    let _ = Reflect::set(&error, &JsValue::from_str("kind"), &JsValue::from_str(kind));
    error.into()
}

/// The largest state `TaskScheduler.restore` reads: 256 MiB of UTF-8 (a state holds about
/// 100 B per tracked task, so a million tasks fit many times over).
const MAX_STATE_BYTES: usize = 256 * 1024 * 1024;

/// Events as a JS array: JSON text parsed once by `JSON.parse` ([`to_js`]).
fn events(events: &[SchedulerEvent]) -> Result<Ts<SchedulerEvents>, JsValue> {
    Ok(Ts::new_unchecked(to_js(events)?))
}

// ---- the class ---------------------------------------------------------------------------------

/// Decides when to poll which MCP task (2025-11-25 and 2026-07-28), for any number of tasks on
/// any number of servers, politely: never faster than the server's `pollInterval(Ms)` nor a
/// 250 ms floor, with jitter, exponential backoff on failures, retry hints, an optional budget
/// per server, deadlines and the TTL backstop. No timers and no I/O: call `nextDue()` when
/// `nextWakeAt()` comes, send `tasks/get` for each `poll` event, and report each answer with
/// `observe` (notifications too) or each failure with `observeError`.
///
/// Every method that takes time takes an optional last argument `now` (Unix ms, default
/// `Date.now()`), so the scheduler runs in virtual time. Events (`SchedulerEvent`, told apart by
/// `type`) say what to do: `poll`, `taskStatus`, `inputRequired`, `terminal`, `expired`,
/// `stuck`, `deadlineExceeded`, `pollError`. Malformed arguments throw a `TypeError`.
#[wasm_bindgen(js_name = TaskScheduler)]
pub struct TaskScheduler {
    inner: Scheduler,
}

// Optional arguments are typed `Option<Number>` / `Option<Ts<…>>`: declared `now?: number | null`
// and `params?: TrackParams | null` from the types, and passed by the glue as they are (an
// imported JS type is not converted), so `read_now` and the `Members` readers still refuse a
// value of the wrong type with the package's `TypeError`. (A trailing `Option<JsValue>` is not
// declared optional, and it ends the run of optional parameters before it.)
#[wasm_bindgen(js_class = TaskScheduler)]
impl TaskScheduler {
    /// An empty scheduler. Throws a `TypeError` when `options` is malformed or out of bounds.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<Ts<TaskSchedulerOptions>>) -> Result<TaskScheduler, JsValue> {
        let (config, seed) = read_options(options)?;
        let inner = Scheduler::new(config, seed).map_err(|e| schedule_error(&e))?;
        Ok(TaskScheduler { inner })
    }

    /// The scheduler a `serialize()` describes (the object, or its JSON text): polling resumes
    /// where it stopped. Throws a `TaskSchedulerError` (kind `invalid_state`) when it cannot be
    /// restored.
    pub fn restore(
        #[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")] state: JsValue,
    ) -> Result<TaskScheduler, JsValue> {
        if !state.is_object() && !state.is_string() {
            return Err(bad("`state` must be an object or its JSON text".to_string()));
        }
        // Checked before any copy into wasm memory, as every other input (that memory never
        // shrinks).
        let value = js_to_json(&state, MAX_STATE_BYTES).map_err(|report| {
            let reason = why_not_read(&report);
            schedule_error(&ScheduleError::InvalidState { reason })
        })?;
        let inner = Scheduler::restore(&value).map_err(|e| schedule_error(&e))?;
        Ok(TaskScheduler { inner })
    }

    /// Starts tracking a task under `key` (any string: e.g. server and task id). With
    /// `params.task` its status is reported and its first poll is one interval away; without,
    /// it is due at once. Throws a `TaskSchedulerError` (kind `already_tracked`) for a key
    /// already tracked.
    pub fn track(
        &mut self,
        key: JsString,
        params: Option<Ts<TrackParams>>,
        now: Option<Number>,
    ) -> Result<Ts<SchedulerEvents>, JsValue> {
        let key = read_key(&key)?;
        let params = read_track(params)?;
        let now = read_now(now.map(JsValue::from))?;
        let (options, task) = params.into_parts();
        let out = self
            .inner
            .track(&key, options, task.as_ref(), now)
            .map_err(|e| schedule_error(&e))?;
        events(&out)
    }

    /// What is due at `now`, earliest first, at most `limit` events (default all): a `poll`
    /// for each task to poll now, and the deadlines, TTL backstops and timeouts that fell due.
    #[wasm_bindgen(js_name = nextDue)]
    pub fn next_due(
        &mut self,
        now: Option<Number>,
        limit: Option<Number>,
    ) -> Result<Ts<SchedulerEvents>, JsValue> {
        let now = read_now(now.map(JsValue::from))?;
        let limit = read_limit(limit.map(JsValue::from))?;
        events(&self.inner.next_due(now, limit))
    }

    /// When to call `nextDue` next (Unix ms), or `null` when nothing waits: the one timer a
    /// host needs.
    #[wasm_bindgen(js_name = nextWakeAt, unchecked_return_type = "number | null")]
    pub fn next_wake_at(&self) -> JsValue {
        self.inner
            .next_wake_at()
            .map_or(JsValue::NULL, |t| JsValue::from_f64(t as f64))
    }

    /// A snapshot of the task: a `tasks/get` answer's result, a `notifications/tasks/status`
    /// (V25) or `notifications/tasks` (V26) params, or any fresher copy. Keys not tracked and
    /// finished tasks are ignored (`[]`). Throws a `TypeError` for a value without a task
    /// `status`.
    pub fn observe(
        &mut self,
        key: JsString,
        #[wasm_bindgen(unchecked_param_type = "Record<string, unknown>")] task: JsValue,
        now: Option<Number>,
    ) -> Result<Ts<SchedulerEvents>, JsValue> {
        let key = read_key(&key)?;
        let task = read_task(&task, "task")?;
        let now = read_now(now.map(JsValue::from))?;
        let out = self
            .inner
            .observe(&key, &task, now)
            .map_err(|e| schedule_error(&e))?;
        events(&out)
    }

    /// A failed poll: a JSON-RPC error (`code`) or a transport failure (no `error`, or no
    /// `code`). -32602 ends the task (`expired`, reason `notFound`); anything else backs off
    /// (`pollError`). Keys not tracked and finished tasks are ignored (`[]`).
    #[wasm_bindgen(js_name = observeError)]
    pub fn observe_error(
        &mut self,
        key: JsString,
        error: Option<Ts<PollErrorInfo>>,
        now: Option<Number>,
    ) -> Result<Ts<SchedulerEvents>, JsValue> {
        let key = read_key(&key)?;
        let error = read_failure(error)?;
        let now = read_now(now.map(JsValue::from))?;
        let failure = PollFailure::from(error);
        events(&self.inner.observe_error(&key, &failure, now))
    }

    /// Stops tracking the task; `false` if it was not tracked.
    pub fn forget(&mut self, key: JsString) -> Result<bool, JsValue> {
        Ok(self.inner.forget(&read_key(&key)?))
    }

    /// Where a tracked task stands, or `null` when `key` is not tracked.
    #[wasm_bindgen(unchecked_return_type = "TrackedTask | null")]
    pub fn info(&self, key: JsString) -> Result<JsValue, JsValue> {
        match self.inner.info(&read_key(&key)?) {
            Some(info) => to_js(&info).map_err(JsValue::from),
            None => Ok(JsValue::NULL),
        }
    }

    /// Tracked tasks, finished ones included.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> u32 {
        u32::try_from(self.inner.len()).unwrap_or(u32::MAX)
    }

    /// The whole scheduler as a JSON object (settings, jitter state, budgets, every task), for
    /// `TaskScheduler.restore`: store it (e.g. in `localStorage`) to resume after a reload.
    #[wasm_bindgen(unchecked_return_type = "Record<string, unknown>")]
    pub fn serialize(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.serialize()).map_err(JsValue::from)
    }
}
