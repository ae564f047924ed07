//! The store's randomness in wasm: Web Crypto's `crypto.getRandomValues` (Node >= 20, Deno and
//! browsers all have `globalThis.crypto`). No fallback: without it a `TaskStore` cannot be made.

use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

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

/// Bytes drawn per `getRandomValues` call for small requests (256 task ids). A call costs about
/// the same (≈1.8 µs in Node) for 16 bytes as for 4 KiB, so small draws are served from a pool,
/// as Node's `crypto.randomUUID` does. Every byte is handed out once and then forgotten.
const POOL: usize = 4096;

/// [`RandomSource`] over `crypto.getRandomValues`, pooled for small draws.
pub struct CryptoRandom {
    crypto: Crypto,
    /// Unused random bytes: `pool[used..]`.
    pool: Vec<u8>,
    used: usize,
}

impl CryptoRandom {
    /// The runtime's Web Crypto source, checked by one draw. A runtime without
    /// `globalThis.crypto.getRandomValues`, or one whose draw throws, gives an `Error`.
    pub fn new() -> Result<CryptoRandom, JsValue> {
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
        let source = CryptoRandom {
            crypto: crypto.unchecked_into(),
            pool: Vec::new(),
            used: 0,
        };
        source
            .try_fill(&mut [0u8; 16])
            .map_err(|why| JsValue::from(js_sys::Error::new(&why)))?;
        Ok(source)
    }

    fn try_fill(&self, buf: &mut [u8]) -> Result<(), String> {
        for chunk in buf.chunks_mut(MAX_CHUNK) {
            // A chunk is at most MAX_CHUNK bytes: the length fits in u32.
            let array = Uint8Array::new_with_length(chunk.len() as u32);
            self.crypto.get_random_values(&array).map_err(|e| {
                let why = Reflect::get(&e, &JsValue::from_str("message"))
                    .ok()
                    .and_then(|m| m.as_string())
                    .unwrap_or_else(|| "it threw".to_string());
                format!("crypto.getRandomValues failed: {why}")
            })?;
            array.copy_to(chunk);
        }
        Ok(())
    }
}

impl RandomSource for CryptoRandom {
    fn fill(&mut self, buf: &mut [u8]) -> Result<(), RandomUnavailable> {
        if buf.len() > POOL / 4 {
            return self.try_fill(buf).map_err(RandomUnavailable);
        }
        if self.pool.len() - self.used < buf.len() {
            let mut fresh = vec![0u8; POOL];
            self.try_fill(&mut fresh).map_err(RandomUnavailable)?;
            self.pool = fresh;
            self.used = 0;
        }
        let end = self.used + buf.len();
        let Some(bytes) = self.pool.get_mut(self.used..end) else {
            return Err(RandomUnavailable("random pool out of step".into()));
        };
        buf.copy_from_slice(bytes);
        bytes.fill(0); // handed out once
        self.used = end;
        Ok(())
    }
}
