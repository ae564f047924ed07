//! What both versions share: protocol versions, task statuses, the state machine, JSON-RPC errors.

use serde::{Deserialize, Serialize};
use tsify::Tsify;

/// Declares a wire type that has exactly the shape of another (`V25CancelTaskResult` is a
/// `V25GetTaskResult`): a transparent newtype, whose TypeScript tsify generates as
/// `export type V25CancelTaskResult = V25GetTaskResult;`.
macro_rules! wire_alias {
    ($(#[$doc:meta])* $name:ident = $target:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, tsify::Tsify)]
        #[serde(transparent)]
        pub struct $name(pub $target);
    };
}
pub(crate) use wire_alias;

/// A JSON object (`Record<string, unknown>` in TypeScript).
pub type JsonObject = serde_json::Map<String, serde_json::Value>;

/// The `_meta` key of the V25 related-task metadata (§A.h).
pub const RELATED_TASK_META_KEY: &str = "io.modelcontextprotocol/related-task";
/// The identifier of the V26 tasks extension (§B).
pub const TASKS_EXTENSION_ID: &str = "io.modelcontextprotocol/tasks";
/// The `_meta` key carrying the protocol version of a V26 request (§B.a).
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The `_meta` key carrying the client capabilities of a V26 request (§B.a).
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// JSON-RPC "Missing required client capability" (§B.f).
pub const MISSING_CAPABILITY_CODE: i64 = -32021;

/// The two protocol versions this crate speaks. Their wire strings are written once, in
/// [`ProtocolVersion::as_str`]; [`ProtocolVersion::parse`] is the one parser (serde, `FromStr`
/// and the bindings' readers all go through it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Tsify)]
pub enum ProtocolVersion {
    /// The experimental tasks utility of protocol 2025-11-25.
    #[serde(rename = "2025-11-25")]
    V2025,
    /// The extension `io.modelcontextprotocol/tasks` of protocol 2026-07-28.
    #[serde(rename = "2026-07-28")]
    V2026,
}

impl ProtocolVersion {
    /// Both versions, oldest first.
    pub const ALL: [ProtocolVersion; 2] = [ProtocolVersion::V2025, ProtocolVersion::V2026];

    /// What a version must be, for messages about a malformed one.
    pub const EXPECTED: &'static str = "\"2025-11-25\" or \"2026-07-28\"";

    /// The wire string of the version.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolVersion::V2025 => "2025-11-25",
            ProtocolVersion::V2026 => "2026-07-28",
        }
    }

    /// Parses the wire string; `None` for any other version.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

impl std::str::FromStr for ProtocolVersion {
    type Err = UnknownVersion;

    fn from_str(s: &str) -> Result<Self, UnknownVersion> {
        ProtocolVersion::parse(s).ok_or(UnknownVersion)
    }
}

/// A string that is neither protocol version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnknownVersion;

impl std::fmt::Display for UnknownVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the protocol version must be {}",
            ProtocolVersion::EXPECTED
        )
    }
}

impl std::error::Error for UnknownVersion {}

impl Serialize for ProtocolVersion {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ProtocolVersion {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = ProtocolVersion;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(ProtocolVersion::EXPECTED)
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<ProtocolVersion, E> {
                ProtocolVersion::parse(s)
                    .ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(s), &self))
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

/// The status of a task: the same five strings in both versions (§A.a, §B.a).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    Working,
    InputRequired,
    Completed,
    Failed,
    Cancelled,
}

impl TaskStatus {
    /// Every status, in state-machine order.
    pub const ALL: [TaskStatus; 5] = [
        TaskStatus::Working,
        TaskStatus::InputRequired,
        TaskStatus::Completed,
        TaskStatus::Failed,
        TaskStatus::Cancelled,
    ];

    /// The wire string.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Working => "working",
            TaskStatus::InputRequired => "input_required",
            TaskStatus::Completed => "completed",
            TaskStatus::Failed => "failed",
            TaskStatus::Cancelled => "cancelled",
        }
    }

    /// Parses a wire string; `None` for anything outside the enum (§D 3, 63).
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "working" => Some(TaskStatus::Working),
            "input_required" => Some(TaskStatus::InputRequired),
            "completed" => Some(TaskStatus::Completed),
            "failed" => Some(TaskStatus::Failed),
            "cancelled" => Some(TaskStatus::Cancelled),
            _ => None,
        }
    }

    /// `completed`, `failed` and `cancelled` are terminal: they have no outgoing edges.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }
}

/// What moving a task from one status to another is, under the state machine of both
/// versions (§A.c, §B.c; §D 20, 93).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transition {
    /// Same status again (a new `statusMessage` or `lastUpdatedAt`): an ordinary update.
    Update,
    /// An edge of the state machine.
    Edge,
    /// Leaving a terminal status: never allowed.
    LeavesTerminal,
}

/// Classifies `from → to`. Every non-terminal status may go to every other status, so the
/// only illegal moves are those out of a terminal status.
pub fn transition(from: TaskStatus, to: TaskStatus) -> Transition {
    if from == to {
        Transition::Update
    } else if from.is_terminal() {
        Transition::LeavesTerminal
    } else {
        Transition::Edge
    }
}

/// A JSON-RPC error object `{ code, message, data? }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Tsify)]
pub struct JsonRpcError {
    pub code: i64,
    pub message: String,
    #[tsify(optional, type = "unknown")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Value>,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn only_terminal_statuses_are_absorbing() {
        for from in TaskStatus::ALL {
            for to in TaskStatus::ALL {
                let t = transition(from, to);
                if from == to {
                    assert_eq!(t, Transition::Update);
                } else if from.is_terminal() {
                    assert_eq!(t, Transition::LeavesTerminal);
                } else {
                    assert_eq!(t, Transition::Edge);
                }
            }
        }
    }

    #[test]
    fn versions_parse_in_one_place() {
        for v in ProtocolVersion::ALL {
            assert_eq!(ProtocolVersion::parse(v.as_str()), Some(v));
            assert_eq!(v.as_str().parse(), Ok(v));
            let json = serde_json::to_value(v).unwrap();
            assert_eq!(json, serde_json::json!(v.as_str()));
            assert_eq!(serde_json::from_value::<ProtocolVersion>(json).unwrap(), v);
        }
        assert_eq!(ProtocolVersion::parse("2025-06-18"), None);
        assert_eq!(
            "2026-07-28 ".parse::<ProtocolVersion>(),
            Err(UnknownVersion)
        );
        let err = serde_json::from_value::<ProtocolVersion>(serde_json::json!("2024-11-05"));
        assert!(err
            .unwrap_err()
            .to_string()
            .contains(ProtocolVersion::EXPECTED));
        assert!(serde_json::from_value::<ProtocolVersion>(serde_json::json!(2025)).is_err());
    }

    #[test]
    fn status_strings_round_trip() {
        for s in TaskStatus::ALL {
            assert_eq!(TaskStatus::parse(s.as_str()), Some(s));
        }
        assert_eq!(TaskStatus::parse("submitted"), None);
    }
}
