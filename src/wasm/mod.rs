//! The bindings layer: `#[wasm_bindgen]` exports that convert JS values and delegate to the
//! core. No rule lives here.

mod conversation;
mod input;
#[cfg(feature = "store-js")]
mod random;
mod schedule;
#[cfg(feature = "store-js")]
mod server;
#[cfg(feature = "store-js")]
mod store;
mod validate;
