//! The store's randomness in wasm: Web Crypto's `crypto.getRandomValues` (Node >= 20, Deno and
//! browsers all have `globalThis.crypto`). No fallback: without it a `TaskStore` cannot be made.

use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::store::pool::Pooled;
use crate::store::random::RandomUnavailable;
use crate::store::RandomSource;

#[wasm_bindgen]
extern "C" {
    /// The Web Crypto object (`globalThis.crypto`).
    type Crypto;
    #[wasm_bindgen(method, catch, js_name = getRandomValues)]
    fn get_random_values(this: &Crypto, array: &Uint8Array) -> Result<JsValue, JsValue>;
}

/// `getRandomValues` fills at most this many bytes per call.
const MAX_CHUNK: usize = 65_536;

/// [`RandomSource`] over `crypto.getRandomValues`, pooled for small draws ([`Pooled`]).
pub type CryptoRandom = Pooled<WebCrypto>;

/// `crypto.getRandomValues`, in chunks of at most [`MAX_CHUNK`] bytes.
pub struct WebCrypto(Crypto);

/// The runtime's Web Crypto source, checked by one draw. A runtime without
/// `globalThis.crypto.getRandomValues`, or one whose draw throws, gives an `Error`.
pub fn crypto_random() -> Result<CryptoRandom, JsValue> {
    let missing = || {
        JsValue::from(js_sys::Error::new(
            "TaskStore needs globalThis.crypto.getRandomValues (Web Crypto: Node >= 20, Deno, \
             browsers) for task ids and cursor keys; this runtime has none",
        ))
    };
    let crypto =
        Reflect::get(&js_sys::global(), &JsValue::from_str("crypto")).map_err(|_| missing())?;
    if !crypto.is_object() {
        return Err(missing());
    }
    let method =
        Reflect::get(&crypto, &JsValue::from_str("getRandomValues")).map_err(|_| missing())?;
    if !method.is_function() {
        return Err(missing());
    }
    let mut source = WebCrypto(crypto.unchecked_into());
    source
        .fill(&mut [0u8; 16])
        .map_err(|why| JsValue::from(js_sys::Error::new(&why.0)))?;
    Ok(Pooled::new(source))
}

impl RandomSource for WebCrypto {
    fn fill(&mut self, buf: &mut [u8]) -> Result<(), RandomUnavailable> {
        for chunk in buf.chunks_mut(MAX_CHUNK) {
            // A chunk is at most MAX_CHUNK bytes: the length fits in u32.
            let array = Uint8Array::new_with_length(chunk.len() as u32);
            self.0.get_random_values(&array).map_err(|e| {
                let why = Reflect::get(&e, &JsValue::from_str("message"))
                    .ok()
                    .and_then(|m| m.as_string())
                    .unwrap_or_else(|| "it threw".to_string());
                RandomUnavailable(format!("crypto.getRandomValues failed: {why}"))
            })?;
            array.copy_to(chunk);
        }
        Ok(())
    }
}
