//! What the validator answers: a [`ValidationReport`] of [`Issue`]s, each with a stable code, a JSON
//! Pointer into the message and a message for people.

use serde::{Deserialize, Serialize};
use tsify::Tsify;

use crate::model::ProtocolVersion;

use super::rules::Code;

/// How bad an issue is: MUST-level rules give errors, SHOULD-level rules warnings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

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
    pub issues: Vec<Issue>,
}

/// Collects issues while a message is checked.
#[derive(Debug, Default)]
pub struct Issues {
    list: Vec<Issue>,
}

impl Issues {
    pub fn new() -> Self {
        Issues { list: Vec::new() }
    }

    /// Adds an issue with the severity the rules table gives `code`.
    pub fn push(&mut self, code: Code, path: &str, message: impl Into<String>) {
        self.list.push(Issue {
            severity: code.severity(),
            code: code.as_str().to_string(),
            path: path.to_string(),
            message: message.into(),
        });
    }

    /// Adds an issue with an explicit severity (for rules whose strength depends on context).
    pub fn push_with(
        &mut self,
        severity: Severity,
        code: Code,
        path: &str,
        message: impl Into<String>,
    ) {
        self.list.push(Issue {
            severity,
            code: code.as_str().to_string(),
            path: path.to_string(),
            message: message.into(),
        });
    }

    pub fn has_errors(&self) -> bool {
        self.list.iter().any(|i| i.severity == Severity::Error)
    }

    pub fn error_count(&self) -> usize {
        self.list
            .iter()
            .filter(|i| i.severity == Severity::Error)
            .count()
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn into_vec(self) -> Vec<Issue> {
        self.list
    }

    pub fn extend(&mut self, other: Issues) {
        self.list.extend(other.list);
    }
}

/// Builds JSON Pointers (RFC 6901): `~` becomes `~0`, `/` becomes `~1`.
pub fn pointer(base: &str, token: &str) -> String {
    let mut s = String::with_capacity(base.len() + token.len() + 1);
    s.push_str(base);
    s.push('/');
    for c in token.chars() {
        match c {
            '~' => s.push_str("~0"),
            '/' => s.push_str("~1"),
            c => s.push(c),
        }
    }
    s
}

/// A JSON Pointer to an array element.
pub fn pointer_index(base: &str, index: usize) -> String {
    format!("{base}/{index}")
}
