//! The floor of the module's size (`bash bench/size-variants.sh`, variant `floor`): a module that
//! does, with the package's crates, features, profile and build, only what every call of the
//! package does at the least, and no rule of the spec:
//!
//! * a JS string crosses into wasm (wasm-bindgen's glue);
//! * it is read into a `serde_json::Value` tree (`base::json::parse`, the package's reader);
//! * the tree is walked, JSON Pointers built (`base::pointer`) and timestamps read
//!   (`base::time`, chrono's calendar);
//! * issues with formatted messages are collected (one `format!` with a `{:?}` string, one
//!   `Display` of serde_json's error);
//! * the report is written as JSON text (`serde_json::to_string`) and crosses back.
//!
//! The script builds it in a copy of the crate whose `src/` holds this file as `lib.rs` and the
//! package's `src/base/` beside it, so nothing here is shipped or tested: it is a measurement.

mod base;

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::wasm_bindgen;

#[derive(Serialize)]
struct Issue {
    code: &'static str,
    path: String,
    message: String,
}

/// The issues of one JSON text, as JSON text.
#[wasm_bindgen(js_name = validateMessage)]
pub fn validate_message(text: &str) -> String {
    let mut issues = Vec::new();
    match base::json::parse(text) {
        Ok(value) => walk(&value, "", &mut issues),
        Err(e) => issues.push(Issue {
            code: "not-json",
            path: String::new(),
            message: e.to_string(),
        }),
    }
    serde_json::to_string(&issues).unwrap_or_default()
}

fn walk(value: &Value, path: &str, issues: &mut Vec<Issue>) {
    match value {
        Value::Object(members) => {
            for (name, member) in members {
                walk(member, &base::pointer::pointer(path, name), issues);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(item, &base::pointer::pointer_index(path, i), issues);
            }
        }
        Value::String(s) if s.ends_with('Z') && base::time::parse(s).is_none() => {
            issues.push(Issue {
                code: "bad-timestamp",
                path: path.to_owned(),
                message: format!("{s:?} is not an RFC 3339 timestamp"),
            })
        }
        _ => {}
    }
}
