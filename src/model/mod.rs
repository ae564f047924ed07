//! Wire types of both versions and what they share.
//!
//! * [`common`]: protocol versions, [`TaskStatus`] and the state machine
//!   (TASKS-SPEC §A.c, §B.c), JSON-RPC error objects.
//! * [`v2025`]: the experimental tasks utility of protocol 2025-11-25 (TASKS-SPEC §A.a).
//! * [`v2026`]: the extension `io.modelcontextprotocol/tasks` of protocol 2026-07-28 (§B.a).
//!
//! Conversion between the two is [`crate::convert`] (above the validator, whose issues it reports).

pub mod common;
pub mod v2025;
pub mod v2026;

pub use common::{JsonRpcError, ProtocolVersion, TaskStatus};
