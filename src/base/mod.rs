//! The bottom layer: small helpers every other module may use and which use none of them
//! (no `crate::` imports here). Keeping them here is what keeps the module graph acyclic:
//!
//! * [`time`]: RFC 3339 timestamps (parse, format) and millisecond numbers;
//! * [`pointer`](mod@pointer): JSON Pointers (RFC 6901);
//! * [`random`]: the deterministic PRNG (SplitMix64) of tests, simulations and the scheduler's
//!   jitter;
//! * [`hex`]: lowercase hex;
//! * [`json`]: JSON text into a `serde_json::Value` tree (`deserialize_any` only);
//! * [`visit`]: the refusing visitor methods of `deserialize_any`-only serde visitors.
//!
//! The layers above, lowest first: `base` → `model` → `validate` → `convert`, `conversation`,
//! `schedule` → `store` → `server` → the bindings (`wasm`).

pub mod hex;
pub mod json;
pub mod pointer;
pub mod random;
pub mod time;
pub mod visit;
