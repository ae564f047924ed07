//! What both versions share: protocol versions, task statuses, the state machine, JSON-RPC errors.

use serde::{Deserialize, Serialize};
use tsify::Tsify;

/// Declares a Rust type alias of a wire type and the same alias in the generated TypeScript, so a
/// name like `V25CancelTaskResult` exists on both sides without restating the type.
macro_rules! wire_alias {
    ($(#[$doc:meta])* $name:ident = $target:ident) => {
        $(#[$doc])*
        pub type $name = $target;

        #[allow(non_upper_case_globals, dead_code)]
        #[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
        const $name: &'static str = concat!(
            "export type ", stringify!($name), " = ", stringify!($target), ";"
        );
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

/// The two protocol versions this crate speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Tsify)]
pub enum ProtocolVersion {
    /// The experimental tasks utility of protocol 2025-11-25.
    #[serde(rename = "2025-11-25")]
    V2025,
    /// The extension `io.modelcontextprotocol/tasks` of protocol 2026-07-28.
    #[serde(rename = "2026-07-28")]
    V2026,
}

impl ProtocolVersion {
    /// The wire string of the version.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolVersion::V2025 => "2025-11-25",
            ProtocolVersion::V2026 => "2026-07-28",
        }
    }

    /// Parses the wire string; `None` for any other version.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "2025-11-25" => Some(ProtocolVersion::V2025),
            "2026-07-28" => Some(ProtocolVersion::V2026),
            _ => None,
        }
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
    fn status_strings_round_trip() {
        for s in TaskStatus::ALL {
            assert_eq!(TaskStatus::parse(s.as_str()), Some(s));
        }
        assert_eq!(TaskStatus::parse("submitted"), None);
    }
}
