//! The bindings layer: `#[wasm_bindgen]` exports that convert JS values and delegate to the
//! core. No rule lives here.
//!
//! The npm package is ONE module built with the `store-js` feature (scripts/build.sh): both of
//! its entries load it, so `TaskStore`/`TaskServer` and the rest share one instance.

mod conversation;
mod input;
#[cfg(feature = "store-js")]
mod random;
#[cfg(feature = "store-js")]
mod rules;
mod schedule;
#[cfg(feature = "store-js")]
mod server;
#[cfg(feature = "store-js")]
mod store;
mod tool_schema;
mod validate;
