//! The settings a JS host gives a store (`TaskStoreOptions`, `RestoreOptions`) and the other
//! arguments of its methods (`TaskContext`, `CreateTaskParams`, `ListParams`), declared once
//! here, for the .d.ts too, and how they resolve into a [`StoreConfig`]: every member left out
//! takes the default, `null` means "none". The bindings read the members; this module decides.

use tsify::Tsify;

use super::ops::StoreConfig;
use crate::model::ProtocolVersion;

/// Settings of a `TaskStore`. Every member is optional; where `null` is allowed it means
/// "none" (no cap, no default), which differs from leaving the member out (the default).
#[derive(Debug, Default, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct TaskStoreOptions {
    /// The largest TTL granted, in ms (default 86 400 000 = 24 h); `null` = unlimited retention.
    #[tsify(optional, type = "number | null")]
    pub max_ttl_ms: Option<Option<u64>>,
    /// The TTL of tasks created without one (every V26 task), in ms (default 3 600 000 = 1 h);
    /// `null` = no default (the maximum applies).
    #[tsify(optional, type = "number | null")]
    pub default_ttl_ms: Option<Option<u64>>,
    /// The poll interval suggested to pollers, in ms (default 1000); `null` = none.
    #[tsify(optional, type = "number | null")]
    pub poll_interval_ms: Option<Option<u64>>,
    /// The most live (non-terminal) tasks one session may hold (default 10,000); `null` = no cap.
    /// Over it `create` throws code -32010. Tasks created without a session (a stdio server, a
    /// host that does not authenticate) are not capped: bound them to a session to cap them.
    #[tsify(optional, type = "number | null")]
    pub max_live_tasks_per_session: Option<Option<usize>>,
    /// Tasks per `list` page (default 50, at most 1000).
    #[tsify(optional)]
    pub page_size: Option<usize>,
    /// Every caller sees every task (opts out of session isolation; default `false`).
    #[tsify(optional)]
    pub share_across_sessions: Option<bool>,
    /// Record every write for `takeChanges()` (default `false`).
    #[tsify(optional)]
    pub record_changes: Option<bool>,
    /// The largest argument accepted, in bytes of UTF-8 (default 16 777 216 = 16 MiB); `null` =
    /// no limit. Every argument is measured before it is copied into wasm memory (a string of
    /// more UTF-16 units than this is refused at once; an object by its JSON text): a request
    /// to `handle`, a result, input requests or responses, an error, an id, a status message,
    /// a session, a cursor. Over it, `TaskServer.handle` answers a JSON-RPC error -32600 (and
    /// `beginToolCall` / `planToolCall` reject with it); every other method throws a
    /// `TaskStoreError` (code -32602, kind `too_large`) naming the argument. Kept in snapshots.
    #[tsify(optional, type = "number | null")]
    pub max_request_bytes: Option<Option<u64>>,
}

/// The second, optional argument of `TaskStore.restore` and `TaskServer.restore`.
#[derive(Debug, Default, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct RestoreOptions {
    /// The largest snapshot accepted, in bytes of UTF-8 of its JSON text (default 268 435 456 =
    /// 256 MiB); `null` = no limit. Measured before it is copied into wasm memory; over it
    /// `restore` throws a `TaskStoreError` (kind `too_large`) naming `snapshot`. A snapshot is
    /// the host's own data, so the default is well above `maxRequestBytes`: a store of 10 000
    /// tasks with 10 KB results makes a snapshot of about 100 MB.
    #[tsify(optional, type = "number | null")]
    pub max_snapshot_bytes: Option<Option<u64>>,
}

/// The default `RestoreOptions.maxSnapshotBytes`: 256 MiB.
pub const DEFAULT_MAX_SNAPSHOT_BYTES: u64 = 256 * 1024 * 1024;

/// Who calls and when: the last, optional argument of every task operation.
#[derive(Debug, Default, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct TaskContext {
    /// The session (authorization context) of the request. Absent or `null`: a request without
    /// a session, which sees only tasks created without one. `create` binds the task to it.
    #[tsify(optional, type = "string | null")]
    pub session: Option<String>,
    /// `true`: the host itself (the work running a task, an admin view), which sees every task
    /// whatever its session. Not with `session`, not for `create`.
    #[tsify(optional)]
    pub host: Option<bool>,
    /// The current time in Unix milliseconds (default `Date.now()`): pass it to run in virtual
    /// time.
    #[tsify(optional)]
    pub now: Option<u64>,
}

/// What `create` needs besides the context.
#[derive(Debug, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct CreateTaskParams {
    /// The protocol version of the creating request.
    pub protocol_version: ProtocolVersion,
    /// The TTL the requestor asked for (V25 `params.task.ttl`), in ms; capped by `maxTtlMs`.
    #[tsify(optional, type = "number | null")]
    pub ttl: Option<u64>,
    /// Overrides the store's poll interval for this task, in ms.
    #[tsify(optional)]
    pub poll_interval_ms: Option<u64>,
    /// The first `statusMessage`.
    #[tsify(optional)]
    pub status_message: Option<String>,
}

/// Which `list` page.
#[derive(Debug, Default, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ListParams {
    /// The `nextCursor` of the previous page (V25 `params.cursor`).
    #[tsify(optional)]
    pub cursor: Option<String>,
    /// At most this many tasks (it can only shrink the store's `pageSize`).
    #[tsify(optional)]
    pub limit: Option<usize>,
}

impl TaskStoreOptions {
    /// The store's settings: each member given, else its default ([`StoreConfig::default`]).
    pub fn into_config(self) -> StoreConfig {
        let d = StoreConfig::default();
        StoreConfig {
            max_ttl_ms: self.max_ttl_ms.unwrap_or(d.max_ttl_ms),
            default_ttl_ms: self.default_ttl_ms.unwrap_or(d.default_ttl_ms),
            poll_interval_ms: self.poll_interval_ms.unwrap_or(d.poll_interval_ms),
            max_live_tasks_per_session: self
                .max_live_tasks_per_session
                .unwrap_or(d.max_live_tasks_per_session),
            share_across_sessions: self
                .share_across_sessions
                .unwrap_or(d.share_across_sessions),
            page_size: self.page_size.unwrap_or(d.page_size),
            record_changes: self.record_changes.unwrap_or(d.record_changes),
            max_request_bytes: self.max_request_bytes.unwrap_or(d.max_request_bytes),
        }
    }
}

impl RestoreOptions {
    /// The largest snapshot read, in bytes (`usize::MAX`: no limit).
    pub fn snapshot_limit(&self) -> usize {
        bytes_limit(
            self.max_snapshot_bytes
                .unwrap_or(Some(DEFAULT_MAX_SNAPSHOT_BYTES)),
        )
    }
}

/// A limit in bytes as a length: `None` (no limit) and what `usize` cannot hold are `usize::MAX`.
pub fn bytes_limit(limit: Option<u64>) -> usize {
    limit.map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// The largest argument `config` lets the bindings read, in bytes (`usize::MAX`: no limit).
pub fn request_limit(config: &StoreConfig) -> usize {
    bytes_limit(config.max_request_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_left_out_take_the_defaults_and_null_means_none() {
        assert_eq!(
            TaskStoreOptions::default().into_config(),
            StoreConfig::default()
        );
        let config = TaskStoreOptions {
            max_ttl_ms: Some(None),
            default_ttl_ms: Some(Some(5)),
            max_live_tasks_per_session: Some(None),
            page_size: Some(7),
            record_changes: Some(true),
            max_request_bytes: Some(None),
            ..TaskStoreOptions::default()
        }
        .into_config();
        let d = StoreConfig::default();
        assert_eq!(
            (
                config.max_ttl_ms,
                config.default_ttl_ms,
                config.poll_interval_ms
            ),
            (None, Some(5), d.poll_interval_ms)
        );
        assert_eq!(config.max_live_tasks_per_session, None);
        assert_eq!((config.page_size, config.record_changes), (7, true));
        assert_eq!(request_limit(&config), usize::MAX);
        assert_eq!(request_limit(&d), 16 * 1024 * 1024);
    }

    #[test]
    fn a_snapshot_is_limited_to_256_mib_unless_told() {
        let limit = |max_snapshot_bytes| RestoreOptions { max_snapshot_bytes }.snapshot_limit();
        assert_eq!(limit(None), 256 * 1024 * 1024);
        assert_eq!(limit(Some(None)), usize::MAX);
        assert_eq!(limit(Some(Some(10))), 10);
        assert_eq!(bytes_limit(Some(u64::MAX)), usize::MAX);
    }
}
