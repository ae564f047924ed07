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
//! | [`base`] | the bottom layer: RFC 3339 timestamps, JSON Pointers, the deterministic PRNG, hex |
//! | [`model`] | every wire type of both versions, the status state machine |
//! | [`validate`] | the single-message validator: rules table, per-kind checks, reports |
//! | [`convert`] | conversion between the versions, every lossy step reported |
//! | [`conversation`] | the history checker over a stream of messages |
//! | [`store`] | the task store core: records, rules, storage adapter, cursors, TTL, sessions, snapshots |
//! | [`server`] | the request handler of both versions: `tasks/*` answers, task-augmented `tools/call` |
//! | [`schedule`] | the polling scheduler core: due-queue, intervals, floor, backoff, jitter, budgets, TTL backstop |
//! | `wasm` | `#[wasm_bindgen]` exports only: converts and delegates (wasm32 builds) |
//!
//! The modules form a DAG: `base` → `model` → `validate` → `convert`, `conversation`, `schedule`
//! → `store` → `server` → `wasm` (each uses only modules to its left).
//!
//! Rule numbers in comments (`§D n`) refer to `docs/spec/TASKS-SPEC.md` §D (the requirements digest, kept in the repo as the one source).

pub mod base;
pub mod conversation;
pub mod convert;
pub mod model;
pub mod schedule;
pub mod server;
pub mod store;
pub mod validate;

#[cfg(target_arch = "wasm32")]
mod wasm;
