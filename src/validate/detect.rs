//! Version and kind detection, and dispatch to the per-version checks.

use serde_json::Value;

use super::report::{ValidationReport, RpcKind, VersionSource};
use super::Context;

pub fn dispatch(_message: &Value, ctx: &Context) -> ValidationReport {
    ValidationReport {
        valid: true,
        version: ctx.version,
        version_source: VersionSource::None,
        kind: "Other".into(),
        rpc: RpcKind::Invalid,
        method: None,
        issues: vec![],
    }
}
