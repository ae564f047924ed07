//! `MemoryStorageCore`: the in-memory storage ([`crate::store::MemoryStorage`]) under the JS
//! `MemoryStorage` of the storage entry (js/server/storage/memory.ts), which keeps the change
//! feed and the argument checks of every adapter (`types.ts`) and delegates the rest here. A
//! record crosses as the stored JSON text the JS adapters keep (`JSON.stringify` of a
//! `StoredTask`) with the index fields `recordKeys` read from it; listings come back as the JSON
//! text of an array of those texts (one `JSON.parse` in JS). No rule lives here.
//!
//! A malformed number (not a non-negative safe integer) throws a `TypeError` naming it; the JS
//! class has refused those before (a `StorageError` of kind `invalid`).

use wasm_bindgen::prelude::*;

use super::input::{bad, safe_u64};
use crate::store::{MemoryStorage, Scope, StoredText, MAX_SAFE_INTEGER};

/// The most ids one `getMany` reads (clause 11).
const MAX_IDS: u32 = 1000;

/// `Ok` while clause 7 has a next number a JS number carries exactly; a `RangeError` once a
/// record was stored with `seq` 2^53 - 1 (the store's own create refuses there too:
/// `StoreError::SequenceExhausted`), the sequence left where it is.
fn sequence_left(inner: &MemoryStorage<StoredText>) -> Result<(), JsValue> {
    if inner.last_sequence() >= MAX_SAFE_INTEGER {
        return Err(js_sys::RangeError::new(
            "the sequence is exhausted: a stored record has `seq` 2^53 - 1, the largest safe integer",
        )
        .into());
    }
    Ok(())
}

/// A count argument (a non-negative safe integer), or a `TypeError` naming `what`.
fn count(x: f64, what: &str) -> Result<u64, JsValue> {
    safe_u64(x).ok_or_else(|| bad(format!("`{what}` must be a non-negative safe integer")))
}

/// A limit as a length (a safe integer beyond `usize` is as good as no limit).
fn limit(x: f64) -> Result<usize, JsValue> {
    count(x, "limit").map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// The JSON text of an array of stored texts (`null` for a missing one).
fn array<'a>(items: impl IntoIterator<Item = Option<&'a StoredText>>) -> String {
    let mut out = String::from("[");
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(item.map_or("null", |r| r.text.as_str()));
    }
    out.push(']');
    out
}

/// The in-memory storage of the JS `MemoryStorage` (src/store/storage.rs has the contract).
#[wasm_bindgen]
pub struct MemoryStorageCore {
    inner: MemoryStorage<StoredText>,
}

impl Default for MemoryStorageCore {
    fn default() -> Self {
        Self::new()
    }
}

#[wasm_bindgen]
impl MemoryStorageCore {
    #[wasm_bindgen(constructor)]
    pub fn new() -> MemoryStorageCore {
        MemoryStorageCore {
            inner: MemoryStorage::default(),
        }
    }

    /// Clause 1: the stored JSON text of `id`, or `undefined`.
    pub fn get(&self, id: &str) -> Option<String> {
        self.inner.get_ref(id).map(|r| r.text.clone())
    }

    /// Clause 11: the JSON text of the array of the stored records of `ids` (`null` where none).
    /// `ids` crosses as one JS value and is read here: at most [`MAX_IDS`] strings (a long
    /// array-like value would otherwise be copied whole into the bindings' table first).
    #[wasm_bindgen(js_name = getMany)]
    pub fn get_many(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string[]")] ids: &JsValue,
    ) -> Result<String, JsValue> {
        if !js_sys::Array::is_array(ids) {
            return Err(bad("`ids` must be an array of strings".into()));
        }
        let ids: &js_sys::Array = ids.unchecked_ref();
        if ids.length() > MAX_IDS {
            return Err(bad(format!("`ids` holds more than {MAX_IDS} ids")));
        }
        let ids = ids
            .iter()
            .map(|id| {
                id.as_string()
                    .ok_or_else(|| bad("`ids` must be strings".into()))
            })
            .collect::<Result<Vec<String>, JsValue>>()?;
        Ok(array(self.inner.get_many(ids.iter().map(String::as_str))))
    }

    /// Clause 2: stores `text`, the JSON of the record whose index fields follow (`expiresAtMs`
    /// and `expected` `undefined` for none); `false` on a conflict.
    #[wasm_bindgen(js_name = putIfVersion)]
    #[allow(clippy::too_many_arguments)]
    pub fn put_if_version(
        &mut self,
        text: String,
        id: String,
        version: f64,
        seq: f64,
        session: Option<String>,
        live: bool,
        expires_at_ms: Option<f64>,
        expected: Option<f64>,
    ) -> Result<bool, JsValue> {
        let record = StoredText {
            text,
            id,
            version: count(version, "version")?,
            seq: count(seq, "seq")?,
            session,
            live,
            expires_at_ms: expires_at_ms.map(|t| count(t, "expiresAtMs")).transpose()?,
        };
        let expected = expected.map(|v| count(v, "expected")).transpose()?;
        Ok(self.inner.put_if_version(record, expected).is_ok())
    }

    /// Clause 3: removes `id`, answering its stored JSON text (`undefined`: none).
    pub fn delete(&mut self, id: &str) -> Option<String> {
        self.inner.delete(id).map(|r| r.text)
    }

    /// Clause 4: the JSON text of the array of the records of the scope (every record when
    /// `all`, else those bound to exactly `session`) after `after`, at most `limit`.
    #[wasm_bindgen(js_name = rangeAfter)]
    pub fn range_after(
        &self,
        all: bool,
        session: Option<String>,
        after: f64,
        limit_: f64,
    ) -> Result<String, JsValue> {
        let scope = if all {
            Scope::All
        } else {
            Scope::Session(session.as_deref())
        };
        let after = count(after, "after")?;
        Ok(array(
            self.inner
                .range_refs(scope, after, limit(limit_)?)
                .into_iter()
                .map(Some),
        ))
    }

    /// Clause 10: the JSON text of the array of the live records after `after`, at most `limit`.
    #[wasm_bindgen(js_name = rangeLive)]
    pub fn range_live(&self, after: f64, limit_: f64) -> Result<String, JsValue> {
        let after = count(after, "after")?;
        Ok(array(
            self.inner
                .range_live(after, limit(limit_)?)
                .into_iter()
                .map(Some),
        ))
    }

    /// Clause 5: the ids of the records expired before `nowMs`, earliest first, at most `limit`.
    pub fn expired(&self, now_ms: f64, limit_: f64) -> Result<Vec<String>, JsValue> {
        Ok(self.inner.expired(count(now_ms, "nowMs")?, limit(limit_)?))
    }

    /// Clause 6.
    #[wasm_bindgen(js_name = countLive)]
    pub fn count_live(&self, session: Option<String>) -> f64 {
        self.inner.count_live(session.as_deref()) as f64
    }

    /// Clause 7; a `RangeError` once no safe integer is left (see `sequence_left`).
    #[wasm_bindgen(js_name = nextSequence)]
    pub fn next_sequence(&mut self) -> Result<f64, JsValue> {
        sequence_left(&self.inner)?;
        Ok(self.inner.next_sequence() as f64)
    }

    /// Clause 7.
    #[wasm_bindgen(js_name = lastSequence)]
    pub fn last_sequence(&self) -> f64 {
        self.inner.last_sequence() as f64
    }

    /// Clause 13: `[sequence, live]`; a `RangeError` once no safe integer is left (see
    /// `sequence_left`).
    #[wasm_bindgen(js_name = nextSequenceWithLive)]
    pub fn next_sequence_with_live(
        &mut self,
        session: Option<String>,
    ) -> Result<Vec<f64>, JsValue> {
        sequence_left(&self.inner)?;
        let (sequence, live) = self.inner.next_sequence_with_live(session.as_deref());
        Ok(vec![sequence as f64, live as f64])
    }
}
