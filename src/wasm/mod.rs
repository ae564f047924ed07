//! The bindings layer: `#[wasm_bindgen]` exports that convert JS values and delegate to the
//! core. No rule lives here.
//!
//! The npm package has two modules (scripts/build.sh): the main entry's is built without
//! features (model, validator, conversations, scheduler: what a client runs), the server
//! entry's with `store-js` (plus the task store, the request handler and the `inputSchema`
//! checker, which only servers use), so a browser app pays only for the client.

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
mod storage;
#[cfg(feature = "store-js")]
mod store;
#[cfg(feature = "store-js")]
mod tool_schema;
mod validate;
