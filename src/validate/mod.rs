//! The single-message validator (TASKS-SPEC §D, every `[validator]` rule).
//!
//! * [`rules`]: the table of stable issue codes and the §D rules they enforce.
//! * [`report`]: reports, issues, JSON Pointers.
//! * [`envelope`]: JSON-RPC classification (request, notification, result, error).
//! * [`detect`]: protocol version and task kind.
//! * [`fields`]: member checks shared by both versions (timestamps, milliseconds, `_meta`).
//! * [`v2025`], [`v2026`]: the checks per message kind of each version.
//! * [`schema`]: a small JSON Schema interpreter over the official definitions that task
//!   messages embed (MRTR input requests and responses, capabilities, the request `_meta`).
//! * [`boundary`]: the byte boundary of `validateMessage` (text in, the report as JSON text
//!   out) for the JS wrapper.
//!
//! Entry points: [`validate_text`] (a JSON string) and [`validate_value`] (parsed JSON). Neither
//! panics nor fails: every input gives a [`ValidationReport`].

pub mod boundary;
pub mod detect;
pub mod envelope;
pub mod fast;
pub mod fields;
pub mod report;
pub mod rules;
pub mod schema;
pub mod surrogates;
pub mod v2025;
pub mod v2026;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tsify::Tsify;

use crate::model::ProtocolVersion;
pub use report::{
    Issue, Issues, Omitted, RpcKind, Severity, ValidationReport, VersionSource, DEFAULT_MAX_ISSUES,
};
pub use rules::{Code, Rule, RULES};

/// Default largest message accepted, in bytes of UTF-8 (16 MiB).
pub const DEFAULT_MAX_BYTES: usize = 16 * 1024 * 1024;

/// Options of [`validate_text`] / `validateMessage`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ValidateOptions {
    /// The protocol version to validate against; detected from the message when absent.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<ProtocolVersion>,
    /// For a response: the method of the request it answers (e.g. `"tasks/get"`).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_reply_to: Option<String>,
    /// Largest message accepted, in bytes (default 16 MiB).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_bytes: Option<u32>,
    /// Most issues listed (default 100); the rest are counted by one `issues-truncated` warning.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_issues: Option<u32>,
    /// HTTP headers the message came with (names case-insensitive), to check `Mcp-Method`,
    /// `Mcp-Name` and `MCP-Protocol-Version` against the body (§D 76, §B.f).
    #[tsify(optional, type = "Record<string, string>")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headers: Option<serde_json::Map<String, Value>>,
}

/// What a caller knows beyond the message itself (the conversation checker fills it in).
#[derive(Debug, Clone, Default)]
pub struct Context {
    pub version: Option<ProtocolVersion>,
    pub in_reply_to: Option<String>,
    /// The `params.taskId` of the request a response answers.
    pub request_task_id: Option<String>,
    pub headers: Option<serde_json::Map<String, Value>>,
    /// Most issues listed ([`DEFAULT_MAX_ISSUES`] when `None`).
    pub max_issues: Option<usize>,
}

impl Context {
    /// The cap on the issues of a report.
    pub fn max_issues(&self) -> usize {
        self.max_issues.unwrap_or(DEFAULT_MAX_ISSUES)
    }
}

impl From<&ValidateOptions> for Context {
    fn from(o: &ValidateOptions) -> Self {
        Context {
            version: o.version,
            in_reply_to: o.in_reply_to.clone(),
            request_task_id: None,
            headers: o.headers.clone(),
            max_issues: o.max_issues.map(|m| m as usize),
        }
    }
}

/// A report for input that never became a JSON value.
pub fn input_report(code: Code, message: impl Into<String>) -> ValidationReport {
    let mut issues = Issues::new();
    issues.push(code, "", message);
    ValidationReport {
        valid: false,
        version: None,
        version_source: VersionSource::None,
        kind: "Invalid".to_string(),
        rpc: RpcKind::Invalid,
        method: None,
        issues: issues.into_vec(),
        omitted: Omitted::default(),
    }
}

/// Parses JSON text. serde_json stops at 128 levels of nesting, so deep input cannot exhaust
/// the stack; size is checked before parsing. Lone UTF-16 surrogate escapes are accepted, as
/// `JSON.parse` accepts them, and carried through the strings of the value ([`surrogates`]).
pub fn parse(text: &str, max_bytes: usize) -> Result<Value, ValidationReport> {
    if text.len() > max_bytes {
        return Err(input_report(
            Code::TooLarge,
            format!(
                "the message has {} bytes, more than the limit of {max_bytes}",
                text.len()
            ),
        ));
    }
    // Lone surrogates (`"\ud83d"`) are JSON that serde_json refuses: carry them (see
    // [`surrogates`]).
    let (text, _) = surrogates::carry(text);
    parse_carried(&text)
}

/// Parses JSON text whose lone surrogates are carried already ([`surrogates::carry`]).
fn parse_carried(text: &str) -> Result<Value, ValidationReport> {
    crate::base::json::parse(text).map_err(|e| {
        let msg = e.to_string();
        if msg.contains("recursion limit") {
            input_report(
                Code::TooDeep,
                "the JSON nests deeper than 128 levels".to_string(),
            )
        } else {
            input_report(Code::NotJson, format!("not JSON: {msg}"))
        }
    })
}

/// Validates a message given as JSON text.
pub fn validate_text(text: &str, options: &ValidateOptions) -> ValidationReport {
    let max = options
        .max_bytes
        .map(|m| m as usize)
        .unwrap_or(DEFAULT_MAX_BYTES);
    validate_text_with(text, max, &Context::from(options), false)
}

/// Validates a message given as JSON text, with a context: the common valid answers take the
/// typed fast path ([`fast`]), everything else the full validator over the parsed value.
/// `plain`: the caller knows the text holds no `\u` escape and no U+FDD0, so it has no lone
/// surrogate to carry ([`surrogates`]) and is not scanned for one.
pub fn validate_text_with(
    text: &str,
    max_bytes: usize,
    ctx: &Context,
    plain: bool,
) -> ValidationReport {
    match validate_text_verdict(text, max_bytes, ctx, plain) {
        TextVerdict::Valid(valid) => valid.report(ctx),
        TextVerdict::Fast(found) => found.report(ctx, text),
        TextVerdict::Report(report) => report,
    }
}

/// What [`validate_text_verdict`] answers.
#[derive(Debug)]
pub enum TextVerdict {
    /// The fast path's "valid, no issues" (the report is not built).
    Valid(fast::Valid),
    /// The fast path's issues of a message's task members, unformatted (their values are
    /// spans of the text given to [`validate_text_verdict`]; [`fast::Findings::report`] builds
    /// the report the full validator gives, without a `serde_json::Value` tree).
    Fast(fast::Findings),
    /// Any other report (the full validator's).
    Report(ValidationReport),
}

/// [`validate_text_with`], answering the fast path's verdict without building its report.
pub fn validate_text_verdict(
    text: &str,
    max_bytes: usize,
    ctx: &Context,
    plain: bool,
) -> TextVerdict {
    if text.len() > max_bytes {
        return TextVerdict::Report(match parse(text, max_bytes) {
            Ok(value) => validate_value(&value, ctx),
            Err(report) => report,
        });
    }
    let carried = if plain {
        std::borrow::Cow::Borrowed(text)
    } else {
        surrogates::carry(text).0
    };
    match fast::check(&carried, ctx) {
        Some(fast::Verdict::Valid(valid)) => return TextVerdict::Valid(valid),
        Some(fast::Verdict::Issues(mut found)) => {
            // Spans of a text with carried surrogates are not spans of `text`: copied out.
            if let std::borrow::Cow::Owned(carried) = &carried {
                found.detach(carried);
            }
            return TextVerdict::Fast(found);
        }
        None => {}
    }
    TextVerdict::Report(match parse_carried(&carried) {
        Ok(value) => validate_value(&value, ctx),
        Err(report) => report,
    })
}

/// Validates a parsed message.
pub fn validate_value(message: &Value, ctx: &Context) -> ValidationReport {
    detect::dispatch(message, ctx)
}
