//! `validateMessage` and the rules table.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use crate::validate::{
    self, input_report, Code, Context, ValidationReport, ValidateOptions, DEFAULT_MAX_BYTES,
};

use super::input::{find_lossy_nulls, message_text};

/// Reads the options object; bad options are a typed JS error, never a panic.
pub(crate) fn read_options(options: Option<Ts<ValidateOptions>>) -> Result<ValidateOptions, JsError> {
    match options {
        None => Ok(ValidateOptions::default()),
        Some(o) => {
            let v: JsValue = o.into();
            if v.is_undefined() || v.is_null() {
                return Ok(ValidateOptions::default());
            }
            serde_wasm_bindgen::from_value(v)
                .map_err(|e| JsError::new(&format!("invalid options: {e}")))
        }
    }
}

/// Validates one JS value or JSON string against the core with the given context.
pub(crate) fn validate_js(message: &JsValue, options: &ValidateOptions, ctx: &Context) -> (ValidationReport, Option<serde_json::Value>) {
    let max = options.max_bytes.map(|m| m as usize).unwrap_or(DEFAULT_MAX_BYTES);
    let text = match message_text(message) {
        Ok(t) => t,
        Err(r) => return (r, None),
    };
    let value = match validate::parse(&text, max) {
        Ok(v) => v,
        Err(r) => return (r, None),
    };
    if !message.is_string() {
        if let Some(path) = find_lossy_nulls(message, &value) {
            let mut r = input_report(
                Code::NotJsonValue,
                "NaN, Infinity or undefined: JSON would send null here",
            );
            if let Some(issue) = r.issues.first_mut() {
                issue.path = path;
            }
            return (r, Some(value));
        }
    }
    (validate::validate_value(&value, ctx), Some(value))
}

/// Validates one MCP message of protocol 2025-11-25 or 2026-07-28: a JS value or a JSON
/// string. Never throws on a bad message: the report says what is wrong. Throws a `TypeError`-like
/// `Error` only when `options` itself is malformed.
#[wasm_bindgen(js_name = validateMessage, unchecked_return_type = "ValidationReport")]
pub fn validate_message(
    #[wasm_bindgen(unchecked_param_type = "unknown")] message: JsValue,
    options: Option<Ts<ValidateOptions>>,
) -> Result<JsValue, JsError> {
    let options = read_options(options)?;
    let (report, _) = validate_js(&message, &options, &Context::from(&options));
    to_js(&report)
}

/// The rules table: every issue code with the TASKS-SPEC rules it enforces.
#[wasm_bindgen(unchecked_return_type = "Array<{ code: string; severity: Severity; spec: string; summary: string }>")]
pub fn rules() -> Result<JsValue, JsError> {
    to_js(&validate::RULES)
}

/// Serialises a core value to a plain JS object (`null` for `None`, objects not `Map`s).
pub(crate) fn to_js<T: serde::Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    let ser = serde_wasm_bindgen::Serializer::json_compatible();
    value
        .serialize(&ser)
        .map_err(|e| JsError::new(&format!("internal: cannot convert the result: {e}")))
}
