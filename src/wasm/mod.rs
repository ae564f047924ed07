//! The bindings layer: `#[wasm_bindgen]` exports that convert JS values and delegate to the
//! core. No rule lives here.

mod conversation;
mod input;
mod random;
mod store;
mod validate;
