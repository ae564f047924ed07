//! The bindings layer: `#[wasm_bindgen]` exports that convert JS values and delegate to the
//! core. No rule lives here.
//!
//! The npm package has three modules (scripts/build.sh): the main entry's with
//! `conversation-js` (model, validator, conversations, scheduler: what a client runs), the
//! browser entry's without features (the same without `Conversation`: a browser app that does
//! not import it never downloads the conversation checker; docs/decisions/browser-module.md),
//! and the server entry's with `store-js` (plus the task store, the request handler and the
//! `inputSchema` checker, which only servers use), so a browser app pays only for the client.

#[cfg(feature = "conversation-js")]
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
