//! The rules a store over a shared asynchronous storage needs from JS (js/server/shared.ts,
//! `SharedTaskServer`) besides the operations themselves, which it runs through the one core
//! class (`TaskServerCore`) over the records it read: what a `tasks/list` cursor resumes after,
//! for which scope (§D 35–38). No rule lives here: each function converts its arguments and
//! delegates to [`crate::store::answer::list_position`].

use wasm_bindgen::prelude::*;

use crate::base::hex::unhex;
use crate::store::answer;
use crate::store::rules::Caller;
use crate::store::DEFAULT_MAX_REQUEST_BYTES;

use super::input::bad;
use super::store::{internal, store_error, within};

/// Where a `tasks/list` page of `session` (`host`: the host, which sees every task) starts, as
/// the JSON text `{"scope":{"kind":"all"}|{"kind":"session","session":…},"after":N}`: the scope
/// to read (`rangeAfter` of the storage contract) and the creation sequence the page follows
/// (0 without a cursor). `cursorKey` is the store's cursor key (32 lowercase hex digits, the
/// same on every replica). A cursor not issued for this scope with this key throws the store
/// error `invalid_cursor` (-32602); `cursor` and `session` are strings or absent (`null`),
/// `host` and `shareAcrossSessions` booleans, else a `TypeError`; a cursor or session longer than
/// the default `maxRequestBytes` throws the store error `too_large`. `owner` (a string, or absent
/// / `null`: none) is the caller's owner: a cursor is good for the owner it was issued to only.
#[wasm_bindgen(js_name = listPosition)]
pub fn list_position(
    cursor_key: JsValue,
    cursor: JsValue,
    session: JsValue,
    host: JsValue,
    share_across_sessions: JsValue,
    owner: JsValue,
) -> Result<String, JsValue> {
    let key = cursor_key
        .as_string()
        .filter(|k| k.len() == 32)
        .and_then(|k| unhex::<16>(&k))
        .ok_or_else(|| bad("cursorKey: must be 32 lowercase hex digits".to_string()))?;
    within(Some(&cursor), "cursor", MAX)?;
    let cursor = optional_string(&cursor, "cursor")?;
    within(Some(&session), "session", MAX)?;
    let session = optional_string(&session, "session")?;
    let host = host
        .as_bool()
        .ok_or_else(|| bad("host: must be a boolean".to_string()))?;
    let share = share_across_sessions
        .as_bool()
        .ok_or_else(|| bad("shareAcrossSessions: must be a boolean".to_string()))?;
    within(Some(&owner), "owner", MAX)?;
    let owner = optional_string(&owner, "owner")?;
    let caller = if host {
        Caller::Host
    } else {
        Caller::request(session.as_deref(), owner.as_deref())
    };
    let position =
        answer::list_position(&key, cursor.as_deref(), caller, share).map_err(store_error)?;
    // Not `text`: the session was read as it is, with no lone surrogate carried.
    serde_json::to_string(&position).map_err(internal)
}

/// The largest session read (the default `maxRequestBytes`).
const MAX: usize = DEFAULT_MAX_REQUEST_BYTES as usize;

/// A string, or `None` for `undefined` / `null`; anything else is a `TypeError` naming `what`.
fn optional_string(v: &JsValue, what: &str) -> Result<Option<String>, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    v.as_string()
        .map(Some)
        .ok_or_else(|| bad(format!("{what}: must be a string or null")))
}
