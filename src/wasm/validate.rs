//! `validateMessage` and the rules table.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use crate::model::ProtocolVersion;
use crate::validate::{
    self, boundary, Context, ValidateOptions, ValidationReport, DEFAULT_MAX_BYTES,
};

pub(crate) use super::input::to_js;
use super::input::{js_to_json, Members};
use crate::convert::ConversionReport;

/// Reads the options object; bad options are a thrown `TypeError`, never a panic.
pub(crate) fn read_options(
    options: Option<Ts<ValidateOptions>>,
) -> Result<ValidateOptions, JsValue> {
    let Some(o) = Members::of(options.map_or(JsValue::UNDEFINED, JsValue::from), "options")? else {
        return Ok(ValidateOptions::default());
    };
    Ok(ValidateOptions {
        version: o.version("version")?,
        in_reply_to: o.strict_string("inReplyTo")?,
        max_bytes: o.u32("maxBytes")?,
        max_issues: o.u32("maxIssues")?,
        headers: o.strings("headers")?,
    })
}

/// Validates one JS value or JSON string against the core with the given context.
pub(crate) fn validate_js(
    message: &JsValue,
    options: &ValidateOptions,
    ctx: &Context,
) -> (ValidationReport, Option<serde_json::Value>) {
    let max = options
        .max_bytes
        .map(|m| m as usize)
        .unwrap_or(DEFAULT_MAX_BYTES);
    match js_to_json(message, max) {
        Ok(value) => (validate::validate_value(&value, ctx), Some(value)),
        Err(report) => (report, None),
    }
}

/// Validates one MCP message of protocol 2025-11-25 or 2026-07-28: a JS value or a JSON
/// string. Never throws on a bad message: the report says what is wrong. Throws a `TypeError` only
/// when `options` itself is malformed.
#[wasm_bindgen(js_name = validateMessage)]
pub fn validate_message(
    #[wasm_bindgen(unchecked_param_type = "unknown")] message: JsValue,
    options: Option<Ts<ValidateOptions>>,
) -> Result<Ts<ValidationReport>, JsValue> {
    BOUNDARY.with_borrow_mut(|b| b.route = 0);
    let options = read_options(options)?;
    let (report, _) = validate_js(&message, &options, &Context::from(&options));
    super::input::parse_json_text(&report.to_json())
        .map(Ts::new_unchecked)
        .map_err(|_| JsError::new("internal: JSON.parse refused the report").into())
}

/// The rules table: every issue code with the TASKS-SPEC rules it enforces.
#[wasm_bindgen(unchecked_return_type = "Rule[]")]
pub fn rules() -> Result<JsValue, JsError> {
    to_js(&validate::RULES)
}

/// Converts a task (a V25 `Task` or a V26 `Task`/`DetailedTask`) to the other version:
/// `ttl` ⇄ `ttlMs`, `pollInterval` ⇄ `pollIntervalMs`; every dropped or reinterpreted member is
/// reported in `issues`.
#[wasm_bindgen(js_name = convertTask)]
pub fn convert_task(
    #[wasm_bindgen(unchecked_param_type = "unknown")] task: JsValue,
    to: Ts<ProtocolVersion>,
) -> Result<Ts<ConversionReport>, JsValue> {
    let to = read_version(to)?;
    match js_to_json(&task, DEFAULT_MAX_BYTES) {
        Ok(value) => to_js(&crate::convert::convert_task(&value, None, to)),
        Err(report) => to_js(&ConversionReport::not_read(report, to)),
    }
    .map(Ts::new_unchecked)
    .map_err(JsValue::from)
}

/// Converts a `CreateTaskResult` between the V25 nested and the V26 flat shape.
#[wasm_bindgen(js_name = convertCreateTaskResult)]
pub fn convert_create_task_result(
    #[wasm_bindgen(unchecked_param_type = "unknown")] result: JsValue,
    to: Ts<ProtocolVersion>,
) -> Result<Ts<ConversionReport>, JsValue> {
    let to = read_version(to)?;
    match js_to_json(&result, DEFAULT_MAX_BYTES) {
        Ok(value) => to_js(&crate::convert::convert_create_task_result(&value, to)),
        Err(report) => to_js(&ConversionReport::not_read(report, to)),
    }
    .map(Ts::new_unchecked)
    .map_err(JsValue::from)
}

/// The target version: a bad one is a `TypeError`, as every malformed argument.
fn read_version(v: Ts<ProtocolVersion>) -> Result<ProtocolVersion, JsValue> {
    super::input::read_version(&v.into(), "the target version")
}

// ---- the byte boundary of `validateMessage` (used by the JS wrapper, js/core/validate.ts) ------
//
// The wrapper writes `inReplyTo` (at the start) and the message as UTF-8 into one reused buffer
// of wasm memory with `TextEncoder.encodeInto`, and makes one call with the options as numbers.
// The answer is minus the length of the report as JSON text, written at the start of the same
// buffer ([`boundary::Boundary::answer`]), which the wrapper decodes and parses once: the one
// encoding of a report, as the export's.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, Ordering};

/// Where the input buffer is now: the wrapper reads it at this fixed address (given once by
/// `__validateBufferAt`) before each call instead of asking with a call.
static BUFFER_AT: AtomicU32 = AtomicU32::new(0);

/// Runs `f` on the input buffer, then notes where it is ([`BUFFER_AT`]: it moves when it grows).
fn on_buffer<R>(f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
    BUFFER.with_borrow_mut(|b| {
        let r = f(b);
        BUFFER_AT.store(b.as_ptr() as u32, Ordering::Relaxed);
        r
    })
}

/// Internal (the JS wrapper's): the address of the u32 that holds the input buffer's address,
/// kept up to date by every call that can move the buffer.
#[wasm_bindgen(js_name = __validateBufferAt)]
pub fn validate_buffer_at() -> u32 {
    BUFFER_AT.as_ptr() as u32
}

thread_local! {
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// What the byte boundary keeps from call to call ([`boundary::Boundary`]).
    static BOUNDARY: RefCell<boundary::Boundary> = RefCell::new(boundary::Boundary::default());
}

/// Internal (the tests'): how the last call found its report: 1 the typed fast path's "valid, no
/// issues", 2 the typed fast path's report with issues, 3 the full validator (all through
/// `__validateBytes`), 0 the export `validateMessage` (the wrapper's fallback).
#[wasm_bindgen(js_name = __validateRoute)]
pub fn validate_route() -> u32 {
    BOUNDARY.with_borrow(|b| b.route)
}

/// Internal (the JS wrapper's): the address of the input buffer, grown to at least `capacity`
/// bytes; 0 when that much memory cannot be had (the buffer is then left as it was), never an
/// abort.
#[wasm_bindgen(js_name = __validateBuffer)]
pub fn validate_buffer(capacity: u32) -> u32 {
    on_buffer(|b| {
        let want = capacity as usize;
        if b.len() < want {
            if b.try_reserve_exact(want - b.len()).is_err() {
                return 0;
            }
            b.resize(want, 0);
        }
        b.as_ptr() as u32
    })
}

/// Internal (the JS wrapper's): the wasm memory, for its view of the buffer.
#[wasm_bindgen(js_name = __validateMemory)]
pub fn validate_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// Internal (the JS wrapper's): validates the `len` bytes of the buffer from `text_at` (UTF-8
/// JSON text) with `inReplyTo` its first `reply_len` bytes (`u32::MAX`: none), `version` 0
/// (none), 1 (2025-11-25) or 2 (2026-07-28), `max_bytes` and `max_issues` (negative: default).
/// Answers minus the length of the report as JSON text, written at the start of the buffer.
#[wasm_bindgen(js_name = __validateBytes)]
pub fn validate_bytes(
    text_at: u32,
    len: u32,
    reply_len: u32,
    version: u32,
    max_bytes: f64,
    max_issues: f64,
) -> i32 {
    let call = boundary::BytesCall {
        text_at,
        len,
        reply_len,
        version,
        max_bytes,
        max_issues,
    };
    on_buffer(|buf| BOUNDARY.with_borrow_mut(|b| b.answer(buf, &call)))
}

/// Runs `f` on the input buffer (`Conversation`'s byte path shares it).
#[cfg(feature = "conversation-js")]
pub(crate) fn with_buffer<R>(f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
    on_buffer(f)
}
