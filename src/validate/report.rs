//! What the validator answers: a [`ValidationReport`] of [`Issue`]s, each with a stable code, a JSON
//! Pointer into the message and a message for people.

use serde::{Deserialize, Serialize};
use tsify::Tsify;

use crate::model::ProtocolVersion;

use super::rules::Code;
pub use super::rules::Severity;

/// One finding about a message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
pub struct Issue {
    pub severity: Severity,
    /// A stable rule id (see the rules table in the README and [`super::rules::RULES`]).
    pub code: String,
    /// A JSON Pointer (RFC 6901) into the message; `""` is the whole message.
    pub path: String,
    pub message: String,
}

/// The JSON-RPC kind of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "lowercase")]
pub enum RpcKind {
    Request,
    Notification,
    Result,
    Error,
    /// Not a JSON-RPC message at all (not JSON, not an object, no recognisable members).
    Invalid,
}

/// Where the version of a report came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "lowercase")]
pub enum VersionSource {
    /// `options.version`.
    Option,
    /// `params._meta["io.modelcontextprotocol/protocolVersion"]` of the message.
    Meta,
    /// The method or the members of the message.
    Shape,
    /// Nothing told: the version is `null`.
    None,
}

/// The validator's answer for one message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
#[tsify(missing_as_null)]
pub struct ValidationReport {
    /// `true` when no issue is an error (warnings may remain).
    pub valid: bool,
    /// `"2025-11-25"`, `"2026-07-28"`, or `null` when it could not be told.
    pub version: Option<ProtocolVersion>,
    /// How `version` was found.
    pub version_source: VersionSource,
    /// The task kind of the message (`"GetTaskResult"`, `"CreateTaskResult"`, …); `"Other"` for
    /// a well-formed message that is not about tasks, `"Invalid"` for one that is not a message.
    pub kind: String,
    /// The JSON-RPC kind.
    pub rpc: RpcKind,
    /// The method of a request or notification, or the method a response answers when known.
    pub method: Option<String>,
    /// At most `maxIssues` issues (default 100), then one `issues-truncated` warning that
    /// counts the rest.
    pub issues: Vec<Issue>,
    /// The issues found beyond the cap (not serialised: the `issues-truncated` issue tells).
    #[serde(skip)]
    #[tsify(type = "never")]
    pub omitted: Omitted,
}

/// Default cap on the issues of one report (`maxIssues`).
pub const DEFAULT_MAX_ISSUES: usize = 100;

/// Issues found beyond a report's cap.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Omitted {
    /// How many issues were left out.
    pub issues: usize,
    /// How many of them are errors.
    pub errors: usize,
}

/// Collects issues while a message is checked: the first `limit` are kept, the rest only
/// counted ([`Omitted`]), so a hostile message cannot grow a report without bound.
#[derive(Debug)]
pub struct Issues {
    list: Vec<Issue>,
    limit: usize,
    omitted: Omitted,
}

impl Default for Issues {
    fn default() -> Self {
        Issues::new()
    }
}

impl Issues {
    /// Issues capped at [`DEFAULT_MAX_ISSUES`].
    pub fn new() -> Self {
        Issues::with_limit(DEFAULT_MAX_ISSUES)
    }

    /// Issues capped at `limit` (at least 1).
    pub fn with_limit(limit: usize) -> Self {
        Issues {
            list: Vec::new(),
            limit: limit.max(1),
            omitted: Omitted::default(),
        }
    }

    /// The issues of a finished report, to add more under the same cap.
    pub fn resume(report_issues: Vec<Issue>, omitted: Omitted, limit: usize) -> Self {
        let mut issues = Issues::with_limit(limit);
        for issue in report_issues {
            if issue.code != Code::IssuesTruncated.as_str() {
                issues.add(issue);
            }
        }
        issues.omitted.issues += omitted.issues;
        issues.omitted.errors += omitted.errors;
        issues
    }

    /// Adds an issue, or counts it once the cap is reached.
    pub fn add(&mut self, issue: Issue) {
        if self.list.len() < self.limit {
            self.list.push(issue);
        } else {
            self.omitted.issues += 1;
            if issue.severity == Severity::Error {
                self.omitted.errors += 1;
            }
        }
    }

    /// Adds an issue with the severity the rules table gives `code`.
    pub fn push(&mut self, code: Code, path: &str, message: impl Into<String>) {
        self.push_with(code.severity(), code, path, message);
    }

    /// Adds an issue with an explicit severity (for rules whose strength depends on context).
    pub fn push_with(
        &mut self,
        severity: Severity,
        code: Code,
        path: &str,
        message: impl Into<String>,
    ) {
        if self.list.len() >= self.limit {
            self.omitted.issues += 1;
            if severity == Severity::Error {
                self.omitted.errors += 1;
            }
            return;
        }
        self.list.push(Issue {
            severity,
            code: code.as_str().to_string(),
            path: path.to_string(),
            message: message.into(),
        });
    }

    /// Whether an error was found (kept or counted).
    pub fn has_errors(&self) -> bool {
        self.omitted.errors > 0 || self.list.iter().any(|i| i.severity == Severity::Error)
    }

    /// How many errors were found (kept or counted).
    pub fn error_count(&self) -> usize {
        self.list
            .iter()
            .filter(|i| i.severity == Severity::Error)
            .count()
            + self.omitted.errors
    }

    /// How many issues were found (kept or counted).
    pub fn len(&self) -> usize {
        self.list.len() + self.omitted.issues
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What was counted beyond the cap.
    pub fn omitted(&self) -> Omitted {
        self.omitted
    }

    /// The kept issues, then, when some were left out, one `issues-truncated` warning that
    /// counts them.
    pub fn into_vec(self) -> Vec<Issue> {
        self.into_parts().0
    }

    /// [`into_vec`](Self::into_vec) and what was left out.
    pub fn into_parts(self) -> (Vec<Issue>, Omitted) {
        let mut list = self.list;
        let o = self.omitted;
        if o.issues > 0 {
            list.push(Issue {
                severity: Code::IssuesTruncated.severity(),
                code: Code::IssuesTruncated.as_str().to_string(),
                path: String::new(),
                message: format!(
                    "{} more issue(s) ({} error(s)) were found and not listed: a report lists at most {} (option maxIssues)",
                    o.issues, o.errors, self.limit
                ),
            });
        }
        (list, o)
    }

    /// Adds the issues of `other` (kept and counted) under this cap.
    pub fn extend(&mut self, other: Issues) {
        for issue in other.list {
            self.add(issue);
        }
        self.omitted.issues += other.omitted.issues;
        self.omitted.errors += other.omitted.errors;
    }
}

pub use crate::base::pointer::{pointer, pointer_index};

/// Appends `s` as a JSON string literal.
pub fn write_json_str(out: &mut String, s: &str) {
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc: Option<&str> = match b {
            b'"' => Some("\\\""),
            b'\\' => Some("\\\\"),
            b'\n' => Some("\\n"),
            b'\r' => Some("\\r"),
            b'\t' => Some("\\t"),
            0x00..=0x1f => None,
            _ => continue,
        };
        out.push_str(s.get(start..i).unwrap_or(""));
        match esc {
            Some(e) => out.push_str(e),
            None => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(char::from(
                    HEX.get(usize::from(b >> 4)).copied().unwrap_or(b'0'),
                ));
                out.push(char::from(
                    HEX.get(usize::from(b & 0xf)).copied().unwrap_or(b'0'),
                ));
            }
        }
        start = i + 1;
    }
    out.push_str(s.get(start..).unwrap_or(""));
    out.push('"');
}

impl Issue {
    /// Appends the issue as JSON (the same text `serde_json` writes, faster).
    pub fn write_json(&self, out: &mut String) {
        out.push_str("{\"severity\":");
        out.push_str(match self.severity {
            Severity::Error => "\"error\"",
            Severity::Warning => "\"warning\"",
        });
        out.push_str(",\"code\":");
        write_json_str(out, &self.code);
        out.push_str(",\"path\":");
        write_json_str(out, &self.path);
        out.push_str(",\"message\":");
        write_json_str(out, &self.message);
        out.push('}');
    }
}

impl ValidationReport {
    /// The report as JSON text (the same text `serde_json` writes). Reports cross into
    /// JavaScript as text parsed once by `JSON.parse`; this writer keeps that cheap.
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(160 + self.issues.len() * 120);
        out.push_str(if self.valid {
            "{\"valid\":true"
        } else {
            "{\"valid\":false"
        });
        out.push_str(",\"version\":");
        out.push_str(match self.version {
            Some(ProtocolVersion::V2025) => "\"2025-11-25\"",
            Some(ProtocolVersion::V2026) => "\"2026-07-28\"",
            None => "null",
        });
        out.push_str(",\"versionSource\":");
        out.push_str(match self.version_source {
            VersionSource::Option => "\"option\"",
            VersionSource::Meta => "\"meta\"",
            VersionSource::Shape => "\"shape\"",
            VersionSource::None => "\"none\"",
        });
        out.push_str(",\"kind\":");
        write_json_str(&mut out, &self.kind);
        out.push_str(",\"rpc\":");
        out.push_str(match self.rpc {
            RpcKind::Request => "\"request\"",
            RpcKind::Notification => "\"notification\"",
            RpcKind::Result => "\"result\"",
            RpcKind::Error => "\"error\"",
            RpcKind::Invalid => "\"invalid\"",
        });
        out.push_str(",\"method\":");
        match &self.method {
            Some(m) => write_json_str(&mut out, m),
            None => out.push_str("null"),
        }
        out.push_str(",\"issues\":[");
        for (i, issue) in self.issues.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            issue.write_json(&mut out);
        }
        out.push_str("]}");
        out
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn hand_written_json_equals_serde() {
        let mut issues = Issues::new();
        issues.push(
            Code::NotJson,
            "/a~1b/0",
            "quote \" backslash \\ newline \n tab \t ctrl \u{1} é ✓",
        );
        issues.push(Code::RetiredErrorCode, "", "w");
        for (version, source, rpc, method) in [
            (None, VersionSource::None, RpcKind::Invalid, None),
            (
                Some(ProtocolVersion::V2025),
                VersionSource::Shape,
                RpcKind::Result,
                Some("tasks/get".to_string()),
            ),
            (
                Some(ProtocolVersion::V2026),
                VersionSource::Meta,
                RpcKind::Request,
                Some("a\"b".to_string()),
            ),
            (
                Some(ProtocolVersion::V2026),
                VersionSource::Option,
                RpcKind::Notification,
                None,
            ),
            (None, VersionSource::None, RpcKind::Error, None),
        ] {
            for with_issues in [false, true] {
                let r = ValidationReport {
                    valid: !with_issues,
                    version,
                    version_source: source,
                    kind: "GetTaskResult".into(),
                    rpc,
                    method: method.clone(),
                    issues: if with_issues {
                        issues_clone(&issues)
                    } else {
                        vec![]
                    },
                    omitted: Omitted::default(),
                };
                assert_eq!(r.to_json(), serde_json::to_string(&r).unwrap());
            }
        }
    }

    fn issues_clone(i: &Issues) -> Vec<Issue> {
        i.list.clone()
    }
}
