//! # mcp-tasks-wasm
//!
//! One implementation of the Model Context Protocol *Tasks* feature for both wire versions:
//! the experimental tasks utility of protocol `2025-11-25` ("V25") and the extension
//! `io.modelcontextprotocol/tasks` of protocol `2026-07-28` ("V26").
//!
//! The crate is a pure-Rust core with no `JsValue` in it, plus a thin bindings layer:
//!
//! | module | what it holds |
//! |---|---|
//! | [`model`] | every wire type of both versions, the status state machine, cross-version conversion |
//! | [`validate`] | the single-message validator: rules table, per-kind checks, reports |
//! | [`conversation`] | the history checker over a stream of messages |
//! | [`store`] | the task store core: records, rules, storage adapter, cursors, TTL, sessions, snapshots |
//! | [`server`] | the request handler of both versions: `tasks/*` answers, task-augmented `tools/call` |
//! | [`schedule`] | the polling scheduler core: due-queue, intervals, floor, backoff, jitter, budgets, TTL backstop |
//! | `wasm` | `#[wasm_bindgen]` exports only: converts and delegates (wasm32 builds) |
//!
//! Rule numbers in comments (`§D n`) refer to `TASKS-SPEC.md` §D.

pub mod conversation;
pub mod model;
pub mod schedule;
pub mod server;
pub mod store;
pub mod validate;

#[cfg(target_arch = "wasm32")]
mod wasm;
