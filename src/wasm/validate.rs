//! `validateMessage` and the rules table.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use crate::model::ProtocolVersion;
use crate::validate::{
    self, compact, Context, TextVerdict, ValidateOptions, ValidationReport, DEFAULT_MAX_BYTES,
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
#[wasm_bindgen(js_name = validateMessage, unchecked_return_type = "ValidationReport")]
pub fn validate_message(
    #[wasm_bindgen(unchecked_param_type = "unknown")] message: JsValue,
    options: Option<Ts<ValidateOptions>>,
) -> Result<JsValue, JsValue> {
    ROUTE.set(0);
    let options = read_options(options)?;
    let (report, _) = validate_js(&message, &options, &Context::from(&options));
    super::input::parse_json_text(&report.to_json())
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
#[wasm_bindgen(js_name = convertTask, unchecked_return_type = "ConversionReport")]
pub fn convert_task(
    #[wasm_bindgen(unchecked_param_type = "unknown")] task: JsValue,
    to: Ts<ProtocolVersion>,
) -> Result<JsValue, JsValue> {
    let to = read_version(to)?;
    match js_to_json(&task, DEFAULT_MAX_BYTES) {
        Ok(value) => to_js(&crate::convert::convert_task(&value, None, to)),
        Err(report) => to_js(&ConversionReport::not_read(report, to)),
    }
    .map_err(JsValue::from)
}

/// Converts a `CreateTaskResult` between the V25 nested and the V26 flat shape.
#[wasm_bindgen(js_name = convertCreateTaskResult, unchecked_return_type = "ConversionReport")]
pub fn convert_create_task_result(
    #[wasm_bindgen(unchecked_param_type = "unknown")] result: JsValue,
    to: Ts<ProtocolVersion>,
) -> Result<JsValue, JsValue> {
    let to = read_version(to)?;
    match js_to_json(&result, DEFAULT_MAX_BYTES) {
        Ok(value) => to_js(&crate::convert::convert_create_task_result(&value, to)),
        Err(report) => to_js(&ConversionReport::not_read(report, to)),
    }
    .map_err(JsValue::from)
}

/// The target version: a bad one is a `TypeError`, as every malformed argument.
fn read_version(v: Ts<ProtocolVersion>) -> Result<ProtocolVersion, JsValue> {
    super::input::read_version(&v.into(), "the target version")
}

// ---- the byte boundary of `validateMessage` (used by the JS wrapper, js/core/validate.js) ------
//
// The wrapper writes the message (then `inReplyTo`) as UTF-8 into one reused buffer of wasm
// memory with `TextEncoder.encodeInto`, and makes one call with the options as numbers. The
// answer is one integer: > 0 names a "valid, no issues" report the wrapper keeps frozen;
// 0: the report is written compactly at the start of the same buffer ([`write_compact`]: a few
// little-endian u32 words, then every string of the report as one UTF-8 text the wrapper decodes
// once and slices; no JSON); < 0 is the length of the report as JSON text, written at the start
// of the same buffer (a report too long for the buffer, or whose strings carry a lone surrogate).

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

/// Most distinct "valid, no issues" reports given a number (the rest travel as JSON).
const MAX_KNOWN: usize = 64;

thread_local! {
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static KNOWN: RefCell<Vec<ValidationReport>> = const { RefCell::new(Vec::new()) };
    static NEW_KNOWN: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    static CONTEXT: RefCell<Context> = RefCell::new(Context::default());
    static ROUTE: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Internal (the tests'): how the last call found its report: 1 the typed fast path's "valid, no
/// issues", 2 the typed fast path's report with issues (compact), 4 the same as a templated
/// report (numbers only), 3 the full validator (all through `__validateBytes`), 0 the export
/// `validateMessage` (the wrapper's fallback).
#[wasm_bindgen(js_name = __validateRoute)]
pub fn validate_route() -> u32 {
    ROUTE.get()
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

/// Internal (the JS wrapper's): the number the last JSON answer's report was given (0: none),
/// so that later answers with the same report are that number.
#[wasm_bindgen(js_name = __validateNewKnown)]
pub fn validate_new_known() -> u32 {
    NEW_KNOWN.get()
}

/// An optional option passed as a number: negative is absent.
fn optional(n: f64) -> Option<u32> {
    (n >= 0.0).then_some(n as u32)
}

/// Internal (the JS wrapper's): validates the `len` bytes of the buffer from `text_at` (UTF-8
/// JSON text) with `inReplyTo` its first `reply_len` bytes (`u32::MAX`: none), `version` 0 (none), 1
/// (2025-11-25) or 2 (2026-07-28), `max_bytes` and `max_issues` (negative: default); `flags` bit
/// 0 (`plain`): the text holds no `\u` and no U+FDD0 (nothing to carry, see
/// `validate::surrogates`); bit 1 (`ascii`): the text and `inReplyTo` are ASCII (byte offsets in
/// the text are UTF-16 offsets in the wrapper's string, so a templated answer may name spans).
#[wasm_bindgen(js_name = __validateBytes)]
pub fn validate_bytes(
    text_at: u32,
    len: u32,
    reply_len: u32,
    version: u32,
    max_bytes: f64,
    max_issues: f64,
    flags: u32,
) -> i32 {
    NEW_KNOWN.set(0);
    let plain = flags & 1 != 0;
    on_buffer(|buf| {
        CONTEXT.with_borrow_mut(|ctx| {
            let at = text_at as usize;
            let max = optional(max_bytes).map_or(DEFAULT_MAX_BYTES, |m| m as usize);
            ctx.version = match version {
                1 => Some(ProtocolVersion::V2025),
                2 => Some(ProtocolVersion::V2026),
                _ => None,
            };
            ctx.max_issues = optional(max_issues).map(|m| m as usize);
            // The context is kept from call to call: `inReplyTo` is rebuilt only when it changed.
            let reply = (reply_len != u32::MAX)
                .then(|| buf.get(..reply_len as usize))
                .flatten();
            if ctx.in_reply_to.as_deref().map(str::as_bytes) != reply {
                ctx.in_reply_to = reply.map(|b| String::from_utf8_lossy(b).into_owned());
            }
            let bytes = buf
                .get(at..at.saturating_add(len as usize))
                .unwrap_or_default();
            // encodeInto writes well-formed UTF-8.
            let lossy;
            let (text, plain, ascii) = match std::str::from_utf8(bytes) {
                Ok(text) => (text, plain, flags & 2 != 0),
                Err(_) => {
                    lossy = String::from_utf8_lossy(bytes).into_owned();
                    (lossy.as_str(), false, false)
                }
            };
            let verdict = validate::validate_text_verdict(text, max, ctx, plain);
            ROUTE.set(match verdict {
                TextVerdict::Valid(_) => 1,
                TextVerdict::Fast(_) => 2,
                TextVerdict::Report(_) => 3,
            });
            let report = match verdict {
                TextVerdict::Valid(valid) => {
                    let reply = ctx.in_reply_to.as_deref();
                    let known = KNOWN
                        .with_borrow(|known| known.iter().position(|k| valid.is_report(k, reply)));
                    if let Some(i) = known {
                        return i as i32 + 1;
                    }
                    valid.report(ctx)
                }
                TextVerdict::Fast(found) => {
                    if ascii
                        && found.templated()
                        && found.list.len() <= compact::MAX_TEMPLATED
                        && buf.len() >= compact::templated_bytes(&found)
                    {
                        ROUTE.set(4);
                        return compact::write_templated(buf, &found);
                    }
                    found.report(ctx, text)
                }
                TextVerdict::Report(report) => report,
            };
            if report.valid && report.issues.is_empty() {
                let known =
                    KNOWN.with_borrow_mut(|known| match known.iter().position(|k| *k == report) {
                        Some(i) => Some((i + 1, false)),
                        None if known.len() < MAX_KNOWN => {
                            known.push(report.clone());
                            Some((known.len(), true))
                        }
                        None => None,
                    });
                match known {
                    Some((i, false)) => return i as i32,
                    Some((i, true)) => NEW_KNOWN.set(i as u32),
                    None => {}
                }
            }
            compact::write_compact(buf, &report, plain)
                .unwrap_or_else(|| compact::write_report(buf, &report))
        })
    })
}

/// Internal (the JS wrapper's): the template `n` of a templated report's issue
/// ([`write_templated`]): its code, severity, path after the task's, and message before and
/// after the value, joined by NUL characters; "" for a number no issue has.
#[wasm_bindgen(js_name = __validateTemplate)]
pub fn validate_template(n: u32) -> String {
    validate::compact::template_text(n)
}

/// Runs `f` on the input buffer (`Conversation`'s byte path shares it).
pub(crate) fn with_buffer<R>(f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
    on_buffer(f)
}
