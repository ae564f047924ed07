//! The byte boundary of `validateMessage` (the bindings' `__validateBytes`, called by
//! js/core/validate.ts): the message as UTF-8 JSON text in a buffer the bindings own, the options
//! as numbers, and one answer, the report as JSON text written at the start of the same buffer.
//! JSON text is the one encoding a report crosses in (the generated export, `Conversation`'s
//! byte path and this one): `JSON.parse` is its one decoder. Pure Rust over a `Vec<u8>`.

use crate::model::ProtocolVersion;

use super::report::ValidationReport;
use super::{Context, TextVerdict, DEFAULT_MAX_BYTES};

/// Writes the report as JSON text at the start of the buffer; answers minus its length.
pub fn write_report(buf: &mut Vec<u8>, report: &ValidationReport) -> i32 {
    write_json(buf, &report.to_json())
}

/// Writes JSON text from the core at the start of the buffer, its carried lone surrogates
/// written back as escapes; answers minus its length.
pub fn write_json(buf: &mut Vec<u8>, json: &str) -> i32 {
    let json = crate::validate::surrogates::restore(json);
    // Written over the input; the buffer never shrinks (the wrapper knows its size), and it
    // moves only when the report is longer (the wrapper reads its address again).
    if buf.len() < json.len() {
        buf.resize(json.len(), 0);
    }
    if let Some(out) = buf.get_mut(..json.len()) {
        out.copy_from_slice(json.as_bytes());
    }
    -(json.len().min(i32::MAX as usize) as i32)
}

/// The bytes as text: encodeInto writes well-formed UTF-8, so this is the check alone (std's,
/// which reads ASCII a word at a time: `String::from_utf8_lossy` reads byte by byte).
pub fn utf8(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// What the byte boundary keeps from call to call (the bindings hold one, thread-local): the
/// context (its `inReplyTo` rebuilt only when it changed), the JSON text of the last "valid, no
/// issues" report of the fast path (written again, not serialised, while it is the answer), and
/// how the last call found its report.
#[derive(Debug, Default)]
pub struct Boundary {
    context: Context,
    last_valid: Option<(ValidationReport, String)>,
    /// How the last call found its report: 1 the typed fast path's "valid, no issues", 2 the
    /// typed fast path's report with issues, 3 the full validator, 0 none (the bindings'
    /// `validateMessage` sets it).
    pub route: u32,
}

/// One call of the byte boundary, as numbers: the `len` bytes of the buffer from `text_at`
/// (UTF-8 JSON text) with `inReplyTo` its first `reply_len` bytes (`u32::MAX`: none), `version` 0
/// (none), 1 (2025-11-25) or 2 (2026-07-28), `max_bytes` and `max_issues` (negative: default).
#[derive(Debug, Clone, Copy)]
pub struct BytesCall {
    pub text_at: u32,
    pub len: u32,
    pub reply_len: u32,
    pub version: u32,
    pub max_bytes: f64,
    pub max_issues: f64,
}

/// An optional option passed as a number: negative is absent.
fn optional(n: f64) -> Option<u32> {
    (n >= 0.0).then_some(n as u32)
}

impl Boundary {
    /// The context of `call` (the buffer holds its `inReplyTo`), kept for the next call.
    pub fn context(&mut self, buf: &[u8], call: &BytesCall) -> &Context {
        let ctx = &mut self.context;
        ctx.version = match call.version {
            1 => Some(ProtocolVersion::V2025),
            2 => Some(ProtocolVersion::V2026),
            _ => None,
        };
        ctx.max_issues = optional(call.max_issues).map(|m| m as usize);
        let reply = (call.reply_len != u32::MAX)
            .then(|| buf.get(..call.reply_len as usize))
            .flatten();
        if ctx.in_reply_to.as_deref().map(str::as_bytes) != reply {
            ctx.in_reply_to = reply.map(|b| String::from_utf8_lossy(b).into_owned());
        }
        &self.context
    }

    /// Validates the text `call` names in `buf` and writes the report as JSON text at the start
    /// of `buf`; answers minus its length.
    pub fn answer(&mut self, buf: &mut Vec<u8>, call: &BytesCall) -> i32 {
        self.context(buf, call);
        let at = call.text_at as usize;
        let max = optional(call.max_bytes).map_or(DEFAULT_MAX_BYTES, |m| m as usize);
        let bytes = buf
            .get(at..at.saturating_add(call.len as usize))
            .unwrap_or_default();
        let text = utf8(bytes);
        let ctx = &self.context;
        let verdict = super::validate_text_verdict(&text, max, ctx, false);
        self.route = match verdict {
            TextVerdict::Valid(_) => 1,
            TextVerdict::Fast(_) => 2,
            TextVerdict::Report(_) => 3,
        };
        let report = match verdict {
            TextVerdict::Valid(valid) => {
                let reply = ctx.in_reply_to.as_deref();
                if let Some((_, json)) = self
                    .last_valid
                    .as_ref()
                    .filter(|(r, _)| valid.is_report(r, reply))
                {
                    return write_json(buf, json);
                }
                let report = valid.report(ctx);
                let json = report.to_json();
                let n = write_json(buf, &json);
                self.last_valid = Some((report, json));
                return n;
            }
            TextVerdict::Fast(found) => found.report(ctx, &text),
            TextVerdict::Report(report) => report,
        };
        write_report(buf, &report)
    }

    /// Writes `report` (found before validation: the input itself is refused) as JSON text at
    /// the start of `buf`; answers minus its length.
    pub fn refuse(&mut self, buf: &mut Vec<u8>, report: &ValidationReport) -> i32 {
        self.route = 3;
        write_report(buf, report)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

    use super::*;
    use crate::validate::{validate_text, ValidateOptions};

    /// A call over `text` written at the start of a buffer, `inReplyTo` none.
    fn call(buf: &mut Vec<u8>, text: &str) -> BytesCall {
        buf.clear();
        buf.extend_from_slice(text.as_bytes());
        BytesCall {
            text_at: 0,
            len: text.len() as u32,
            reply_len: u32::MAX,
            version: 0,
            max_bytes: -1.0,
            max_issues: -1.0,
        }
    }

    fn answered(buf: &[u8], n: i32) -> String {
        assert!(n < 0, "{n}");
        String::from_utf8(buf[..n.unsigned_abs() as usize].to_vec()).unwrap()
    }

    #[test]
    fn every_answer_is_the_report_as_json_text() {
        let mut boundary = Boundary::default();
        let mut buf = Vec::new();
        let get = r#"{"jsonrpc":"2.0","id":1,"result":{"taskId":"t","status":"working","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":null}}"#;
        let bad = get.replace("working", "running");
        let deep = r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t"}}"#;
        for (text, route) in [(get, 1), (get, 1), (bad.as_str(), 2), (deep, 3), ("{", 3)] {
            let c = call(&mut buf, text);
            let n = boundary.answer(&mut buf, &c);
            let want = validate_text(text, &ValidateOptions::default()).to_json();
            assert_eq!(answered(&buf, n), want, "{text}");
            assert_eq!(boundary.route, route, "{text}");
        }
    }

    #[test]
    fn the_kept_valid_answer_follows_the_context() {
        let mut boundary = Boundary::default();
        let mut buf = Vec::new();
        let get = r#"{"jsonrpc":"2.0","id":1,"result":{"taskId":"t","status":"working","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":1}}"#;
        let mut c = call(&mut buf, get);
        let n = boundary.answer(&mut buf, &c);
        let plain = answered(&buf, n);
        assert!(plain.contains(r#""method":null"#), "{plain}");
        // The answer was written over the text: the next call writes its own.
        c = call(&mut buf, get);
        buf.splice(0..0, b"tasks/get".iter().copied());
        c.text_at = 9;
        c.reply_len = 9;
        c.version = 1;
        let n = boundary.answer(&mut buf, &c);
        let replied = answered(&buf, n);
        assert!(replied.contains(r#""method":"tasks/get""#), "{replied}");
        assert!(replied.contains(r#""versionSource":"option""#), "{replied}");
    }

    #[test]
    fn json_text_is_written_over_the_buffer_with_lone_surrogates_restored() {
        let (carried, _) = crate::validate::surrogates::carry(r#"{"m":"\udc00"}"#);
        let mut buf = vec![7u8; 4];
        let n = write_json(&mut buf, &carried);
        assert_eq!(n, -14);
        assert_eq!(&buf[..14], br#"{"m":"\udc00"}"#);
    }
}
