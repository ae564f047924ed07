//! A report written into the byte buffer of `validateMessage`'s byte boundary (the bindings'
//! `__validateBytes`, read by js/core/validate.ts), without JSON where it can: as numbers naming
//! templates ([`write_templated`]), compactly as words then text ([`write_compact`]), or else as
//! JSON text ([`write_report`], [`write_json`]). Pure Rust over a `Vec<u8>`: the bindings own the
//! buffer and hand it in.

use crate::model::ProtocolVersion;

use super::{Context, TextVerdict, DEFAULT_MAX_BYTES};

use super::fast::Findings;
use super::report::ValidationReport;

/// The answer of a templated report ([`write_templated`]).
pub const TEMPLATED: i32 = 1 << 30;

/// Most issues a templated report carries (the rest travel compactly).
pub const MAX_TEMPLATED: usize = 8;

/// The bytes of a templated report.
pub fn templated_bytes(found: &Findings) -> usize {
    8 + 16 * found.list.len()
}

/// Writes the issues of the fast path as numbers where the message was (`buf` starts there) and
/// answers
/// [`TEMPLATED`] (`i32::MAX`, a number no report has, which sends the wrapper to the export,
/// when they do not fit: the caller checked they do). Words (u32,
/// little-endian): the number of issues, `list | shape << 1` (a `tasks/list` result; the version
/// told by the shape, else by the option), then per issue its template number
/// ([`super::fast::template`], which the wrapper asks for once by `__validateTemplate`), the
/// index of the listed task (`u32::MAX`: the `tasks/get` result) and the span of the text the
/// message takes its value from (byte offsets from the start of the message: `0, 0` for none).
/// The rest of the report the wrapper knows: version 2025-11-25, rpc `result`, method its
/// `inReplyTo`, valid when no issue is an error.
pub fn write_templated(buf: &mut [u8], found: &Findings) -> i32 {
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

/// A string of a compact report: its length in UTF-16 units (the wrapper slices the decoded
/// text by them).
pub fn utf16_len(s: &str) -> usize {
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
pub fn write_compact(buf: &mut [u8], report: &ValidationReport, plain: bool) -> Option<i32> {
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

/// Writes the report as JSON text at the start of the buffer; answers minus its length.
pub fn write_report(buf: &mut Vec<u8>, report: &ValidationReport) -> i32 {
    write_json(buf, &report.to_json())
}

/// Writes JSON text from the core at the start of the buffer, its carried lone surrogates
/// written back as escapes; answers minus its length.
pub fn write_json(buf: &mut Vec<u8>, json: &str) -> i32 {
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

/// The template `n` of a templated report's issue ([`write_templated`]): its code, severity, path
/// after the task's, and message before and after the value, joined by NUL characters; "" for a
/// number no issue has.
pub fn template_text(n: u32) -> String {
    use crate::validate::Severity;
    let Some((code, path, prefix, suffix)) = super::fast::template(n) else {
        return String::new();
    };
    let severity = match code.severity() {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    [code.as_str(), severity, &path, &prefix, &suffix].join("\0")
}

// ---- the state of the byte boundary ------------------------------------------------------------

/// Most distinct "valid, no issues" reports given a number (the rest travel as JSON).
pub const MAX_KNOWN: usize = 64;

/// What the byte boundary keeps from call to call (the bindings hold one, thread-local): the
/// context (its `inReplyTo` rebuilt only when it changed), the "valid, no issues" reports given a
/// number (which the wrapper keeps frozen), and what the last call did.
#[derive(Debug, Default)]
pub struct Boundary {
    known: Vec<ValidationReport>,
    context: Context,
    /// The number the last JSON answer's report was given (0: none), so that later answers with
    /// the same report are that number.
    pub new_known: u32,
    /// How the last call found its report: 1 the typed fast path's "valid, no issues", 2 the
    /// typed fast path's report with issues (compact), 4 the same as a templated report (numbers
    /// only), 3 the full validator, 0 none (the bindings' `validateMessage` sets it).
    pub route: u32,
}

/// One call of the byte boundary, as numbers: the `len` bytes of the buffer from `text_at`
/// (UTF-8 JSON text) with `inReplyTo` its first `reply_len` bytes (`u32::MAX`: none), `version` 0
/// (none), 1 (2025-11-25) or 2 (2026-07-28), `max_bytes` and `max_issues` (negative: default);
/// `flags` bit 0 (`plain`): the text holds no `\u` and no U+FDD0 (nothing to carry, see
/// [`super::surrogates`]); bit 1 (`ascii`): the text and `inReplyTo` are ASCII (byte offsets in
/// the text are UTF-16 offsets in the wrapper's string, so a templated answer may name spans).
#[derive(Debug, Clone, Copy)]
pub struct BytesCall {
    pub text_at: u32,
    pub len: u32,
    pub reply_len: u32,
    pub version: u32,
    pub max_bytes: f64,
    pub max_issues: f64,
    pub flags: u32,
}

/// An optional option passed as a number: negative is absent.
fn optional(n: f64) -> Option<u32> {
    (n >= 0.0).then_some(n as u32)
}

impl Boundary {
    /// Validates the text `call` names in `buf` and answers: > 0 the number of a known "valid,
    /// no issues" report; 0 the report written compactly at the start of `buf`
    /// ([`write_compact`]); [`TEMPLATED`] its issues as template numbers ([`write_templated`]);
    /// < 0 minus the length of the report as JSON text written at the start of `buf`.
    pub fn answer(&mut self, buf: &mut Vec<u8>, call: &BytesCall) -> i32 {
        let BytesCall {
            text_at,
            len,
            reply_len,
            version,
            max_bytes,
            max_issues,
            flags,
        } = *call;
        let Boundary {
            known,
            context: ctx,
            new_known,
            route,
        } = self;
        *new_known = 0;
        let plain = flags & 1 != 0;
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
        let verdict = super::validate_text_verdict(text, max, ctx, plain);
        *route = match verdict {
            TextVerdict::Valid(_) => 1,
            TextVerdict::Fast(_) => 2,
            TextVerdict::Report(_) => 3,
        };
        let report = match verdict {
            TextVerdict::Valid(valid) => {
                let reply = ctx.in_reply_to.as_deref();
                let known = known.iter().position(|k| valid.is_report(k, reply));
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
                    *route = 4;
                    return write_templated(buf.get_mut(at..).unwrap_or_default(), &found);
                }
                found.report(ctx, text)
            }
            TextVerdict::Report(report) => report,
        };
        if report.valid && report.issues.is_empty() {
            let known = match known.iter().position(|k| *k == report) {
                Some(i) => Some((i + 1, false)),
                None if known.len() < MAX_KNOWN => {
                    known.push(report.clone());
                    Some((known.len(), true))
                }
                None => None,
            };
            match known {
                Some((i, false)) => return i as i32,
                Some((i, true)) => *new_known = i as u32,
                None => {}
            }
        }
        write_compact(buf, &report, plain).unwrap_or_else(|| write_report(buf, &report))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]
    use serde_json::json;

    use super::*;
    use crate::validate::{validate_text_verdict, validate_value, Context, TextVerdict};

    fn word(buf: &[u8], i: usize) -> u32 {
        u32::from_le_bytes(buf[4 * i..4 * i + 4].try_into().unwrap())
    }

    /// The strings of a compact report, as the JS wrapper slices them (ASCII here: UTF-16
    /// lengths are byte lengths).
    fn strings(buf: &[u8], report: &ValidationReport) -> Vec<String> {
        let n = report.issues.len();
        let lengths: Vec<usize> = {
            let mut l = vec![word(buf, 3) as usize];
            let mut at = 4;
            if report.method.is_some() {
                l.push(word(buf, at) as usize);
                at += 1;
            }
            for _ in 0..n {
                l.extend((1..4).map(|k| word(buf, at + k) as usize));
                at += 4;
            }
            l
        };
        let words = 3 + lengths.len() + n;
        let mut text = &buf[words * 4..words * 4 + word(buf, 2) as usize];
        lengths
            .into_iter()
            .map(|len| {
                let (s, rest) = text.split_at(len);
                text = rest;
                String::from_utf8(s.to_vec()).unwrap()
            })
            .collect()
    }

    #[test]
    fn a_report_is_written_as_words_then_text() {
        let message = json!({"jsonrpc": "2.0", "id": 1, "result": {"taskId": 5}});
        let ctx = Context {
            version: Some(ProtocolVersion::V2025),
            in_reply_to: Some("tasks/get".into()),
            ..Context::default()
        };
        let report = validate_value(&message, &ctx);
        assert!(!report.issues.is_empty());
        let mut buf = vec![0u8; 4096];
        assert_eq!(write_compact(&mut buf, &report, true), Some(0));
        let head = word(&buf, 0);
        assert_eq!(head & 1, u32::from(report.valid));
        assert_eq!(head >> 1 & 3, 1, "version 2025-11-25");
        assert_eq!(head >> 5 & 7, 2, "a result");
        assert_eq!(head >> 8 & 1, u32::from(report.method.is_some()));
        assert_eq!(word(&buf, 1) as usize, report.issues.len());
        let mut expected = vec![report.kind.clone()];
        expected.extend(report.method.clone());
        for issue in &report.issues {
            expected.extend([
                issue.code.as_str().to_string(),
                issue.path.clone(),
                issue.message.clone(),
            ]);
        }
        assert_eq!(strings(&buf, &report), expected);
        // Too small a buffer: not written (the wrapper's view must stay right).
        assert_eq!(write_compact(&mut [0u8; 8], &report, true), None);
    }

    /// A call over `text` written at the start of a buffer, `inReplyTo` none.
    fn call(buf: &mut Vec<u8>, text: &str, flags: u32) -> BytesCall {
        buf.clear();
        buf.extend_from_slice(text.as_bytes());
        buf.resize(4096, 0);
        BytesCall {
            text_at: 0,
            len: text.len() as u32,
            reply_len: u32::MAX,
            version: 0,
            max_bytes: -1.0,
            max_issues: -1.0,
            flags,
        }
    }

    #[test]
    fn a_valid_report_is_written_once_then_answered_by_its_number() {
        let mut boundary = Boundary::default();
        let mut buf = Vec::new();
        let text = r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t"}}"#;
        let c = call(&mut buf, text, 1 | 2);
        let first = boundary.answer(&mut buf, &c);
        assert!(first <= 0, "the first answer carries the report: {first}");
        assert_eq!(boundary.new_known, 1);
        let c = call(&mut buf, text, 1 | 2);
        assert_eq!(boundary.answer(&mut buf, &c), 1);
        assert_eq!(boundary.new_known, 0);
        assert_ne!(boundary.route, 0);
    }

    #[test]
    fn a_report_with_issues_is_written_and_routed() {
        let mut boundary = Boundary::default();
        let mut buf = Vec::new();
        let c = call(&mut buf, "{", 1 | 2);
        let n = boundary.answer(&mut buf, &c);
        assert_eq!(n, 0, "written compactly");
        assert_eq!((boundary.route, boundary.new_known), (3, 0));
        assert!(word(&buf, 1) >= 1, "with its issues");
        assert_eq!(word(&buf, 0) & 1, 0, "not valid");
    }

    #[test]
    fn json_text_is_written_over_the_buffer_with_lone_surrogates_restored() {
        let (carried, _) = crate::validate::surrogates::carry(r#"{"m":"\udc00"}"#);
        let mut buf = vec![7u8; 4];
        let n = write_json(&mut buf, &carried);
        assert_eq!(n, -14);
        assert_eq!(&buf[..14], br#"{"m":"\udc00"}"#);
    }

    #[test]
    fn fast_path_issues_are_written_as_template_numbers() {
        let text = r#"{"jsonrpc":"2.0","id":1,"result":{"taskId":"t","status":"nope","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":null}}"#;
        let ctx = Context {
            version: Some(ProtocolVersion::V2025),
            in_reply_to: Some("tasks/get".into()),
            ..Context::default()
        };
        let TextVerdict::Fast(found) = validate_text_verdict(text, 1 << 20, &ctx, true) else {
            panic!("the fast path finds the bad status");
        };
        let mut buf = vec![0u8; templated_bytes(&found)];
        assert_eq!(write_templated(&mut buf, &found), TEMPLATED);
        assert_eq!(word(&buf, 0) as usize, found.list.len());
        for (i, f) in found.list.iter().enumerate() {
            assert_eq!(word(&buf, 2 + 4 * i), f.template());
            assert!(!template_text(f.template()).is_empty());
        }
        assert_eq!(template_text(u32::MAX), "");
    }
}
