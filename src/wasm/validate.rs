//! `validateMessage` and the rules table.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use crate::model::ProtocolVersion;
use crate::validate::{
    self, Context, TextVerdict, ValidateOptions, ValidationReport, DEFAULT_MAX_BYTES,
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
        Err(report) => to_js(&not_converted(report, to)),
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
        Err(report) => to_js(&not_converted(report, to)),
    }
    .map_err(JsValue::from)
}

/// The target version: a bad one is a `TypeError`, as every malformed argument.
fn read_version(v: Ts<ProtocolVersion>) -> Result<ProtocolVersion, JsValue> {
    super::input::js_version(&v.into()).ok_or_else(|| {
        super::input::bad(format!(
            "the target version must be {}",
            ProtocolVersion::EXPECTED
        ))
    })
}

fn not_converted(report: ValidationReport, to: ProtocolVersion) -> ConversionReport {
    ConversionReport {
        ok: false,
        from: None,
        to,
        value: None,
        issues: report.issues,
    }
}

// ---- the byte boundary of `validateMessage` (used by the JS wrapper, js/core/validate.js) ------
//
// The wrapper writes the message (then `inReplyTo`) as UTF-8 into one reused buffer of wasm
// memory with `TextEncoder.encodeInto`, and makes one call with the options as numbers. The
// answer is one integer: > 0 names a "valid, no issues" report the wrapper keeps frozen;
// 0: the report is written compactly at the start of the same buffer ([`write_compact`]: a few
// little-endian u32 words, then every string of the report as one UTF-8 text the wrapper decodes
// once and slices; no JSON); < 0 is the length of the report as JSON text, written at the start
// of the same buffer (a report too long for the buffer, or whose strings carry a lone surrogate);
// [`TEMPLATED`]: the issues of a task's members as numbers, written where the message was
// ([`write_templated`]), so `inReplyTo` is left in place (the wrapper writes it again only when
// it changed or an answer at the start of the buffer covered it).

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
    // (`with`: `LocalKey::set` was a call, 1.4% of an invalid answer's time.)
    NEW_KNOWN.with(|n| n.set(0));
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
            let route = match verdict {
                TextVerdict::Valid(_) => 1,
                TextVerdict::Fast(_) => 2,
                TextVerdict::Report(_) => 3,
            };
            ROUTE.with(|r| r.set(route));
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
                        && found.list.len() <= MAX_TEMPLATED
                        && buf.len() >= at + templated_bytes(&found)
                    {
                        ROUTE.with(|r| r.set(4));
                        return write_templated(buf.get_mut(at..).unwrap_or_default(), &found);
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
                    Some((i, true)) => NEW_KNOWN.with(|n| n.set(i as u32)),
                    None => {}
                }
            }
            write_compact(buf, &report, plain).unwrap_or_else(|| write_report(buf, &report))
        })
    })
}

/// The answer of a templated report ([`write_templated`]).
const TEMPLATED: i32 = 1 << 30;

/// Most issues a templated report carries (the rest travel compactly).
const MAX_TEMPLATED: usize = 8;

/// The bytes of a templated report.
fn templated_bytes(found: &validate::fast::Findings) -> usize {
    8 + 16 * found.list.len()
}

/// Writes the issues of the fast path as numbers where the message was (`buf` starts there:
/// `inReplyTo`, before it, is kept for the next call) and answers
/// [`TEMPLATED`] (`i32::MAX`, a number no report has, which sends the wrapper to the export,
/// when they do not fit: the caller checked they do). Words (u32,
/// little-endian): the number of issues, `list | shape << 1` (a `tasks/list` result; the version
/// told by the shape, else by the option), then per issue its template number
/// ([`validate::fast::template`], which the wrapper asks for once by `__validateTemplate`), the
/// index of the listed task (`u32::MAX`: the `tasks/get` result) and the span of the text the
/// message takes its value from (byte offsets from the start of the message: `0, 0` for none).
/// The rest of the report the wrapper knows: version 2025-11-25, rpc `result`, method its
/// `inReplyTo`, valid when no issue is an error.
fn write_templated(buf: &mut [u8], found: &validate::fast::Findings) -> i32 {
    use crate::validate::VersionSource;
    let Some(out) = buf.get_mut(..templated_bytes(found)) else {
        return i32::MAX;
    };
    let head = u32::from(found.valid.is_list())
        | u32::from(found.valid.version_source == VersionSource::Shape) << 1;
    // Four bytes at a time as arrays (a `copy_from_slice` of each word was a call).
    let mut words = out
        .chunks_exact_mut(4)
        .filter_map(|c| <&mut [u8; 4]>::try_from(c).ok());
    let mut put = |w: u32| {
        if let Some(word) = words.next() {
            *word = w.to_le_bytes();
        }
    };
    put(found.list.len() as u32);
    put(head);
    for f in &found.list {
        let (a, b) = f.span();
        put(f.template());
        put(f.task.unwrap_or(u32::MAX));
        put(a);
        put(b);
    }
    TEMPLATED
}

/// Internal (the JS wrapper's): the template `n` of a templated report's issue
/// ([`write_templated`]): its code, severity, path after the task's, and message before and
/// after the value, joined by NUL characters; "" for a number no issue has.
#[wasm_bindgen(js_name = __validateTemplate)]
pub fn validate_template(n: u32) -> String {
    use crate::validate::Severity;
    let Some((code, path, prefix, suffix)) = validate::fast::template(n) else {
        return String::new();
    };
    let severity = match code.severity() {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    [code.as_str(), severity, &path, &prefix, &suffix].join("\0")
}

/// A string of a compact report: its length in UTF-16 units (the wrapper slices the decoded
/// text by them).
fn utf16_len(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.encode_utf16().count()
    }
}

/// Writes `report` at the start of the buffer as words then text, and answers 0; `None` when it
/// does not fit the buffer as it is (never grown here, so the wrapper's view stays right) or a
/// string carries a lone surrogate ([`crate::validate::surrogates`]: the JSON text restores it;
/// `plain`: the message had no `\u` and no U+FDD0, so no string of its report carries one).
///
/// Words (u32, little-endian): `valid | version << 1 | source << 3 | rpc << 5 | has_method << 8`
/// (version 0 none, 1 2025-11-25, 2 2026-07-28; source 0 option, 1 meta, 2 shape, 3 none; rpc 0
/// request, 1 notification, 2 result, 3 error, 4 invalid), the number of issues, the text's
/// length in bytes, the UTF-16 length of `kind` (then of `method` when present), then per issue
/// its severity (0 error, 1 warning) and the UTF-16 lengths of its code, path and message. Then
/// the text: `kind`, `method`, and each issue's code, path and message, one after the other.
// Not inlined: the CPU profile (bench/cpu-profile.mjs) names its share.
#[inline(never)]
fn write_compact(buf: &mut [u8], report: &ValidationReport, plain: bool) -> Option<i32> {
    use crate::validate::surrogates::MARK;
    use crate::validate::{RpcKind, Severity, VersionSource};
    let mut strings: Vec<&str> = Vec::with_capacity(2 + 3 * report.issues.len());
    strings.push(&report.kind);
    if let Some(m) = &report.method {
        strings.push(m);
    }
    for issue in &report.issues {
        strings.extend([issue.code.as_str(), &issue.path, &issue.message]);
    }
    // U+FDD0 is EF B7 90 in UTF-8: a byte scan first (`str::contains` of a char runs a substring
    // search).
    if !plain
        && strings
            .iter()
            .any(|s| s.as_bytes().contains(&0xEF) && s.contains(MARK))
    {
        return None;
    }
    let text: usize = strings.iter().map(|s| s.len()).sum();
    let words = 3 + strings.len() + report.issues.len();
    let total = words * 4 + text;
    let out = buf.get_mut(..total)?;
    let head = u32::from(report.valid)
        | match report.version {
            None => 0,
            Some(ProtocolVersion::V2025) => 1,
            Some(ProtocolVersion::V2026) => 2,
        } << 1
        | match report.version_source {
            VersionSource::Option => 0,
            VersionSource::Meta => 1,
            VersionSource::Shape => 2,
            VersionSource::None => 3,
        } << 3
        | match report.rpc {
            RpcKind::Request => 0,
            RpcKind::Notification => 1,
            RpcKind::Result => 2,
            RpcKind::Error => 3,
            RpcKind::Invalid => 4,
        } << 5
        | u32::from(report.method.is_some()) << 8;
    let mut w: Vec<u32> = Vec::with_capacity(words);
    w.extend([head, report.issues.len() as u32, text as u32]);
    w.push(utf16_len(&report.kind) as u32);
    if let Some(m) = &report.method {
        w.push(utf16_len(m) as u32);
    }
    for issue in &report.issues {
        w.push(match issue.severity {
            Severity::Error => 0,
            Severity::Warning => 1,
        });
        for s in [&issue.code, &issue.path, &issue.message] {
            w.push(utf16_len(s) as u32);
        }
    }
    let (head_bytes, mut rest) = out.split_at_mut_checked(words * 4)?;
    for (chunk, word) in head_bytes.chunks_exact_mut(4).zip(&w) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    for s in strings {
        let (into, after) = std::mem::take(&mut rest).split_at_mut_checked(s.len())?;
        into.copy_from_slice(s.as_bytes());
        rest = after;
    }
    Some(0)
}

/// Runs `f` on the input buffer (`Conversation`'s byte path shares it).
pub(crate) fn with_buffer<R>(f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
    on_buffer(f)
}

/// Writes the report as JSON text at the start of the buffer; answers minus its length.
fn write_report(buf: &mut Vec<u8>, report: &ValidationReport) -> i32 {
    write_json(buf, &report.to_json())
}

/// Writes JSON text from the core at the start of the buffer, its carried lone surrogates
/// written back as escapes; answers minus its length.
pub(crate) fn write_json(buf: &mut Vec<u8>, json: &str) -> i32 {
    let json = crate::validate::surrogates::restore(json);
    // Written over the input; the buffer never shrinks (the wrapper knows its size), and it
    // moves only when the report is longer (the wrapper asks for its address again).
    if buf.len() < json.len() {
        buf.resize(json.len(), 0);
    }
    if let Some(out) = buf.get_mut(..json.len()) {
        out.copy_from_slice(json.as_bytes());
    }
    -(json.len().min(i32::MAX as usize) as i32)
}
