//! Turning a JS value (a JSON string or an already-parsed object) into JSON text, without
//! losing what JSON cannot carry.

use js_sys::{JsString, Reflect, JSON};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};

use crate::validate::{self, input_report, Code, ValidationReport};

/// The message as JSON text: a string is taken as it is; any other value goes through
/// `JSON.stringify` (what would be sent on the wire). Values JSON cannot carry give a report.
pub fn message_text(message: &JsValue) -> Result<String, ValidationReport> {
    if let Some(s) = message.as_string() {
        return Ok(s);
    }
    if message.is_undefined() {
        return Err(input_report(Code::NotJsonValue, "the message is undefined"));
    }
    match JSON::stringify(message) {
        Ok(s) => match s.dyn_into::<JsString>() {
            Ok(s) => Ok(String::from(s)),
            Err(_) => Err(input_report(
                Code::NotJsonValue,
                "the value has no JSON form (a function or a symbol)",
            )),
        },
        Err(e) => {
            let why = Reflect::get(&e, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_else(|| "JSON.stringify failed".to_string());
            Err(input_report(
                Code::NotJsonValue,
                format!("the value cannot be turned into JSON: {why}"),
            ))
        }
    }
}

/// `JSON.stringify` turns `NaN`, `±Infinity` and `undefined` array elements into `null`.
/// Every `null` of the parsed text is looked up in the original value; one that was not a
/// real `null` there gives a `not-json-value` issue path.
pub fn find_lossy_nulls(original: &JsValue, parsed: &Value) -> Option<String> {
    fn walk(orig: &JsValue, v: &Value, path: &mut String) -> bool {
        match v {
            Value::Null => !orig.is_null(),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if !contains_null(item) {
                        continue;
                    }
                    let child = Reflect::get_u32(orig, i as u32).unwrap_or(JsValue::UNDEFINED);
                    let len = path.len();
                    path.push_str(&format!("/{i}"));
                    if walk(&child, item, path) {
                        return true;
                    }
                    path.truncate(len);
                }
                false
            }
            Value::Object(map) => {
                // Objects with toJSON (Date, …) were transformed: their JSON is authoritative.
                if Reflect::has(orig, &JsValue::from_str("toJSON")).unwrap_or(false) {
                    return false;
                }
                for (k, item) in map {
                    if !contains_null(item) {
                        continue;
                    }
                    let child =
                        Reflect::get(orig, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED);
                    let len = path.len();
                    path.push_str(&crate::validate::report::pointer("", k));
                    if walk(&child, item, path) {
                        return true;
                    }
                    path.truncate(len);
                }
                false
            }
            _ => false,
        }
    }
    fn contains_null(v: &Value) -> bool {
        match v {
            Value::Null => true,
            Value::Array(a) => a.iter().any(contains_null),
            Value::Object(m) => m.values().any(contains_null),
            _ => false,
        }
    }
    if !contains_null(parsed) {
        return None;
    }
    let mut path = String::new();
    if walk(original, parsed, &mut path) {
        Some(path)
    } else {
        None
    }
}

/// A JS value (or JSON string) as parsed JSON: the one way JS input enters the core. Input that
/// is not JSON, too large, too deep, or carries what JSON cannot gives a report instead.
pub fn js_to_json(message: &JsValue, max_bytes: usize) -> Result<Value, ValidationReport> {
    let text = message_text(message)?;
    let value = validate::parse(&text, max_bytes)?;
    if !message.is_string() {
        if let Some(path) = find_lossy_nulls(message, &value) {
            let mut r = input_report(
                Code::NotJsonValue,
                "NaN, Infinity or undefined: JSON would send null here",
            );
            if let Some(issue) = r.issues.first_mut() {
                issue.path = path;
            }
            return Err(r);
        }
    }
    Ok(value)
}

/// Reads a small JS options object into its Rust type through its JSON form (`undefined` and
/// `null` give the default). A malformed object is a typed JS error naming what is wrong.
pub fn options_from_js<T: serde::de::DeserializeOwned + Default>(
    value: JsValue,
    what: &str,
) -> Result<T, wasm_bindgen::JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    let text = message_text(&value)
        .map_err(|_| wasm_bindgen::JsError::new(&format!("invalid {what}: not a JSON object")))?;
    serde_json::from_str(&text)
        .map_err(|e| wasm_bindgen::JsError::new(&format!("invalid {what}: {e}")))
}

/// A core value as a plain JS object: serialised to JSON text in Rust and parsed once by
/// `JSON.parse` (one boundary crossing, instead of one per member).
pub fn to_js<T: serde::Serialize + ?Sized>(value: &T) -> Result<JsValue, wasm_bindgen::JsError> {
    let text = serde_json::to_string(value).map_err(|e| {
        wasm_bindgen::JsError::new(&format!("internal: cannot convert the result: {e}"))
    })?;
    JSON::parse(&text)
        .map_err(|_| wasm_bindgen::JsError::new("internal: JSON.parse refused the result"))
}
