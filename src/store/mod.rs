//! The task store core: records, rules, storage adapter, cursors, snapshots (why this shape:
//! `docs/decisions/task-store.md`).
//!
//! Pure Rust with no `JsValue`: time (`now_ms`, Unix milliseconds) and randomness
//! ([`RandomSource`]) are injected into every operation, so the whole store runs in virtual time
//! natively. The wasm bindings pass `Date.now()` and `crypto.getRandomValues`.
//!
//! | module | what it holds |
//! |---|---|
//! | [`record`] | [`TaskRecord`] (status with its payload, input ledger, revision `version`, creation `seq`) and its V25/V26 wire shapes |
//! | [`rules`] | pure functions: visibility, TTL, expiry, the state machine ([`rules::enter`]), input keys |
//! | [`storage`] | the [`Storage`] adapter contract and the built-in [`MemoryStorage`] |
//! | [`ops`] | [`Store`]: the operations, compare-and-swap writes, sweep, snapshot/restore, change log |
//! | [`cursor`] | opaque `tasks/list` cursors: encrypted position, SipHash-2-4 MAC |
//! | [`pool`] | small random draws served from a pool ([`pool::Pooled`]: the wasm build's Web Crypto source) |
//! | [`random`] | [`RandomSource`] (fallible), task ids, `OsRandom` for native hosts, a deterministic source for tests |
//! | [`error`] | [`StoreError`] and the JSON-RPC code of each |
//! | [`options`] | the JS host's settings (`TaskStoreOptions`, `RestoreOptions`) and their defaults |
//! | [`answer`] | the answers as JSON text for the JS classes (tasks, pages, changes) |
//! | `contract` | the reusable storage contract test (doc-hidden) |
//!
//! # Rules, per TASKS-SPEC §D
//!
//! * **Ids** (§D 18, 39, 84): 128 random bits from the injected source, 32 lowercase hex
//!   characters; never derived from request ids; a collision draws again; a failing source
//!   refuses the operation ([`StoreError::RandomUnavailable`], -32603) rather than a weak id.
//! * **State machine** (§D 19–21, 28, 93): tasks start `working`; `working ⇄ input_required`;
//!   either → `completed | failed | cancelled`; terminal statuses and their payloads never
//!   change, so the first terminal outcome wins a cancel/complete race and a late `complete` or
//!   `fail` answers [`StoreError::AlreadyTerminal`] (ignorable). Cancel of a terminal task:
//!   V25 → `AlreadyTerminal` (-32602, §D 22); V26 → an unchanged ack (§D 90). One function
//!   enforces it: [`rules::enter`].
//! * **Failed** (§D 30, 44, 91): `failed` carries exactly one of a JSON-RPC error
//!   ([`TaskState::Failed`], [`Store::fail`]) and, for a task created under 2025-11-25 only, the
//!   tool result with `isError: true` that failed it ([`TaskState::ToolFailed`],
//!   [`Store::fail_with_tool_result`]; V25 `tasks/result` answers that result). 2026-07-28 keeps
//!   such a result `completed` (§D 91). A V26 view of a tool-failed task (a V25 task read under
//!   V26, §D 99) shows `failed` with a derived error, -32603 with the result in
//!   `data.toolResult` ([`record::tool_failure_error`]), since a V26 `failed` must carry a
//!   JSON-RPC error; that error is never stored.
//! * **TTL** (§D 25, 26, 42, 94): the requested TTL (else the configured default) capped by the
//!   configured maximum is the effective TTL reported as `ttl`/`ttlMs`. A task is purged only
//!   strictly after `createdAt + ttl`, whatever its status: lazily when a read meets it, and by
//!   [`Store::sweep`], which the host calls when it likes. No timers, nothing kept alive.
//! * **What an expired id answers**: it is gone. V25 `tasks/get|result|cancel` and V26
//!   `tasks/get|update|cancel` all answer -32602 ([`StoreError::NotFound`], "Task not found
//!   (unknown, expired or purged)"): unknown, expired and purged ids are indistinguishable, which
//!   also keeps a foreign session's ids indistinguishable from unknown ones.
//!   An expired task is deleted, never turned into `failed` (the cleaner reading of §E 6: V26
//!   `failed` must carry a JSON-RPC error of the underlying request, and expiry is not one).
//! * **Sessions** (§D 38): a task bound to a session is visible to that session only; a task
//!   bound to none is visible only to calls without a session; anything else answers
//!   `NotFound`, never "forbidden". [`StoreConfig::share_across_sessions`] opts out.
//!   [`Caller::Host`] (the work itself) sees everything.
//! * **Owners** (§D 38, §B.h security): a task created with an owner (the authenticated
//!   principal, [`Caller::Owner`]) is visible to that owner only, on top of the session rule
//!   (sharing across sessions never shares across owners); a task without one keeps the session
//!   rule alone ([`rules::owns`]).
//! * **Session cap** (§D 42): [`StoreConfig::max_live_tasks_per_session`] counts *live*
//!   (non-terminal, unexpired) tasks bound to the session: it caps concurrent work, as the spec
//!   asks; finished tasks are bounded by the TTL cap instead. Over the cap `create` answers
//!   [`StoreError::SessionCapReached`] (-32010).
//! * **Listing** (§D 35–37): creation order, keyset on `seq` (stable under inserts and
//!   deletes, O(page) per page), over exactly the caller's visibility scope, so every task
//!   `get` shows is listed once. Cursors hold the position encrypted (the store-wide creation
//!   count is never shown) and MACed with the caller's scope ([`cursor`]), in one lowercase
//!   form; a forged, altered, upper-cased, empty or foreign cursor answers
//!   [`StoreError::InvalidCursor`] (-32602).
//! * **Input** (§D 85, 87, 88): keys are unique over a task's life (answered and superseded
//!   entries are kept); re-raising an outstanding key with the same request is a no-op;
//!   responses for keys not outstanding are ignored and reported; the task returns to `working`
//!   when nothing is outstanding. Leaving `input_required` any other way supersedes what was
//!   outstanding.
//! * **Durability**: [`Store::snapshot`] / [`Store::restore`] (cursor key and sequence
//!   included; format `mcp-tasks-wasm/store/1`, written and read by hand, see [`TaskRecord`]); with [`StoreConfig::record_changes`] every write leaves a [`Change`] for
//!   [`Store::take_changes`], so a host can persist each transition.

pub mod answer;
pub mod cursor;
pub mod error;
pub mod ops;
pub mod options;
pub mod payload;
pub mod pool;
pub mod random;
pub mod record;
pub mod rules;
pub mod storage;

#[doc(hidden)]
pub mod contract;

pub use error::StoreError;
pub use ops::{
    Cancelled, Change, DeleteReason, InputTaken, ListPage, NewTask, Store, StoreConfig,
    DEFAULT_MAX_REQUEST_BYTES, MAX_SAFE_INTEGER,
};
pub use payload::{Payload, PayloadError};
pub use random::{DeterministicRandom, RandomSource};
pub use record::{InputEntry, InputState, Inputs, TaskRecord, TaskState};
pub use rules::Caller;
pub use storage::{Conflict, Indexed, MemoryStorage, Scope, Storage, StoredText};

#[cfg(test)]
mod tests;
