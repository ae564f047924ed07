//! Version detection (options, then `_meta`, then shape: §C) and dispatch to the checks of the
//! version found.

use serde_json::{Map, Value};

use super::envelope::{self, Envelope};
use super::fields::{obj, str_of};
use super::report::{Issues, RpcKind, ValidationReport, VersionSource};
use super::rules::Code;
use super::{v2025, v2026, Context};
use crate::model::common::{META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION};
use crate::model::ProtocolVersion;

/// Methods that exist in one version only.
fn version_of_method(method: &str) -> Option<ProtocolVersion> {
    match method {
        "tasks/update"
        | "notifications/tasks"
        | "subscriptions/listen"
        | "notifications/subscriptions/acknowledged"
        | "server/discover" => Some(ProtocolVersion::V2026),
        "tasks/result"
        | "tasks/list"
        | "notifications/tasks/status"
        | "initialize"
        | "notifications/initialized" => Some(ProtocolVersion::V2025),
        _ => None,
    }
}

/// What the members of a result say about its version.
fn version_of_result(result: &Map<String, Value>) -> Option<ProtocolVersion> {
    if result.contains_key("resultType")
        || result.contains_key("ttlMs")
        || result.contains_key("pollIntervalMs")
        || result.contains_key("inputRequests")
    {
        return Some(ProtocolVersion::V2026);
    }
    if result.get("task").is_some_and(Value::is_object)
        || result.contains_key("ttl")
        || result.contains_key("pollInterval")
        || result.get("tasks").is_some_and(Value::is_array)
    {
        return Some(ProtocolVersion::V2025);
    }
    None
}

/// Finds the version of a message and says where it came from.
pub fn detect_version(
    env: &Envelope<'_>,
    ctx: &Context,
    issues: &mut Issues,
) -> (Option<ProtocolVersion>, VersionSource) {
    if let Some(v) = ctx.version {
        return (Some(v), VersionSource::Option);
    }
    if let Some(meta) = env.params.and_then(|p| obj(p, "_meta")) {
        if let Some(pv) = meta.get(META_PROTOCOL_VERSION) {
            match pv.as_str().and_then(ProtocolVersion::parse) {
                Some(v) => return (Some(v), VersionSource::Meta),
                None => issues.push(
                    Code::UnsupportedProtocolVersion,
                    "/params/_meta/io.modelcontextprotocol~1protocolVersion",
                    format!("protocol version {pv} is neither 2025-11-25 nor 2026-07-28"),
                ),
            }
        }
        if meta.contains_key(META_CLIENT_CAPABILITIES) {
            return (Some(ProtocolVersion::V2026), VersionSource::Shape);
        }
    }
    let method = env.method.or(ctx.in_reply_to.as_deref());
    if let Some(v) = method.and_then(version_of_method) {
        return (Some(v), VersionSource::Shape);
    }
    match env.rpc {
        RpcKind::Result => {
            if let Some(v) = env.result.and_then(version_of_result) {
                return (Some(v), VersionSource::Shape);
            }
        }
        RpcKind::Error => {
            if let Some(code) = env
                .error
                .and_then(|e| e.get("code"))
                .and_then(Value::as_i64)
            {
                if (-32022..=-32020).contains(&code) {
                    return (Some(ProtocolVersion::V2026), VersionSource::Shape);
                }
            }
        }
        RpcKind::Request => {
            // 2026-07-28 requires the `_meta` envelope on every request (§B.a): a request
            // without it is 2025-11-25 shaped.
            let has_envelope = env
                .params
                .and_then(|p| obj(p, "_meta"))
                .is_some_and(|m| m.contains_key(META_PROTOCOL_VERSION));
            if !has_envelope && is_task_request(env) {
                return (Some(ProtocolVersion::V2025), VersionSource::Shape);
            }
        }
        RpcKind::Notification => {
            if let Some(p) = env.params {
                if let Some(v) = version_of_result(p) {
                    return (Some(v), VersionSource::Shape);
                }
            }
        }
        RpcKind::Invalid => {}
    }
    (None, VersionSource::None)
}

fn is_task_request(env: &Envelope<'_>) -> bool {
    env.method.is_some_and(|m| m.starts_with("tasks/"))
        || env.params.is_some_and(|p| p.contains_key("task"))
}

/// Whether the message concerns tasks at all (so a version must be chosen).
fn is_task_related(env: &Envelope<'_>, ctx: &Context) -> bool {
    let method = env.method.or(ctx.in_reply_to.as_deref());
    if method.is_some_and(|m| m.starts_with("tasks/") || m.starts_with("notifications/tasks")) {
        return true;
    }
    if is_task_request(env) {
        return true;
    }
    let container = env.result.or(if env.rpc == RpcKind::Notification {
        env.params
    } else {
        None
    });
    container.is_some_and(|r| {
        r.contains_key("taskId")
            || r.contains_key("task")
            || str_of(r, "resultType") == Some("task")
    })
}

fn check_version(
    version: ProtocolVersion,
    env: &Envelope<'_>,
    ctx: &Context,
    issues: &mut Issues,
) -> &'static str {
    match version {
        ProtocolVersion::V2025 => v2025::check(env, ctx, issues),
        ProtocolVersion::V2026 => v2026::check(env, ctx, issues),
    }
}

/// Validates a parsed message.
pub fn dispatch(message: &Value, ctx: &Context) -> ValidationReport {
    let limit = ctx.max_issues();
    let mut issues = Issues::with_limit(limit);
    let Some(env) = envelope::classify(message, &mut issues) else {
        return finish(
            message,
            issues,
            None,
            VersionSource::None,
            "Invalid",
            RpcKind::Invalid,
            None,
        );
    };
    let method = env.method.map(str::to_string).or_else(|| match env.rpc {
        RpcKind::Result | RpcKind::Error => ctx.in_reply_to.clone(),
        _ => None,
    });
    if env.rpc == RpcKind::Invalid {
        return finish(
            message,
            issues,
            None,
            VersionSource::None,
            "Invalid",
            env.rpc,
            method,
        );
    }
    let (version, source) = detect_version(&env, ctx, &mut issues);
    let (version, source, kind) = match version {
        Some(v) => (Some(v), source, check_version(v, &env, ctx, &mut issues)),
        None if is_task_related(&env, ctx) => {
            // Nothing told the version: check against both, keep the closer fit (§C).
            let mut i25 = Issues::with_limit(limit);
            let k25 = v2025::check(&env, ctx, &mut i25);
            let mut i26 = Issues::with_limit(limit);
            let k26 = v2026::check(&env, ctx, &mut i26);
            let (v, k, chosen) = if i26.error_count() <= i25.error_count() {
                (ProtocolVersion::V2026, k26, i26)
            } else {
                (ProtocolVersion::V2025, k25, i25)
            };
            issues.push(
                Code::VersionUnknown,
                "",
                format!(
                    "nothing in options, `_meta` or shape tells the protocol version; checked as {}, the closer fit",
                    v.as_str()
                ),
            );
            issues.extend(chosen);
            (Some(v), VersionSource::Shape, k)
        }
        None => (None, VersionSource::None, "Other"),
    };
    finish(message, issues, version, source, kind, env.rpc, method)
}

/// The longest prefix of `path` that resolves in `message`: an issue about a member that is
/// missing, or inside a value of the wrong type, points at the deepest part that exists.
fn clamp_pointer(message: &Value, path: &mut String) {
    while !path.is_empty() && !resolves(message, path) {
        match path.rfind('/') {
            Some(i) => path.truncate(i),
            None => path.clear(),
        }
    }
}

/// `message.pointer(path).is_some()`, without `Value::pointer` (see [`crate::base::pointer::resolve`]).
fn resolves(message: &Value, path: &str) -> bool {
    crate::base::pointer::resolve(message, path).is_some()
}

fn finish(
    message: &Value,
    issues: Issues,
    version: Option<ProtocolVersion>,
    version_source: VersionSource,
    kind: &str,
    rpc: RpcKind,
    method: Option<String>,
) -> ValidationReport {
    let valid = !issues.has_errors();
    let (mut issues, omitted) = issues.into_parts();
    for issue in &mut issues {
        clamp_pointer(message, &mut issue.path);
    }
    ValidationReport {
        valid,
        version,
        version_source,
        kind: kind.to_string(),
        rpc,
        method,
        issues,
        omitted,
    }
}

#[cfg(test)]
mod tests {
    use super::resolves;

    #[test]
    fn resolves_as_value_pointer() {
        let v = serde_json::json!({
            "a": {"b/c": [1, {"~x": true, "~1": 2, "~/": 3}], "": {"": 0}},
            "0": [[], [5]],
        });
        let paths = [
            "",
            "/",
            "//",
            "/a",
            "/a/",
            "/a/b~1c",
            "/a/b/c",
            "/a/b~1c/0",
            "/a/b~1c/1/~0x",
            "/a/b~1c/1/~01",
            "/a/b~1c/1/~0~1",
            "/a/b~1c/01",
            "/a/b~1c/+1",
            "/a/b~1c/1/",
            "/a/b~1c/2",
            "/a/b~1c/-1",
            "/a/b~1c/ 1",
            "/0/1/0",
            "/0/00",
            "/0/1/0/x",
            "a",
            "~1",
            "/a/~",
            "/a//",
            "/a/b~1c/1/~~1",
            "/a/b~1c/18446744073709551616",
        ];
        for p in paths {
            assert_eq!(resolves(&v, p), v.pointer(p).is_some(), "{p}");
        }
    }
}
