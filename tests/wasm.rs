//! The core compiled to WebAssembly: `#[wasm_bindgen_test]` tests run by wasm-bindgen-test-runner
//! in Node and in headless Chromium (`scripts/test.sh`). They call the public core API
//! (`validate::validate_text`), proving the validator runs in wasm: JSON parsing, the recursion
//! limit and the rules table included. Compiled out on native targets.
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use mcp_tasks_wasm::model::ProtocolVersion;
use mcp_tasks_wasm::validate::{validate_text, ValidateOptions, RULES};
use wasm_bindgen_test::wasm_bindgen_test;

const V25_GET_RESULT: &str = r#"{"jsonrpc":"2.0","id":7,"result":{
    "taskId":"786512e2-9e0d-44bd-8f29-789f320fe840","status":"working",
    "createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:40:00Z",
    "ttl":60000,"pollInterval":5000}}"#;

fn codes(report: &mcp_tasks_wasm::validate::ValidationReport) -> Vec<&str> {
    report.issues.iter().map(|i| i.code.as_str()).collect()
}

fn in_reply_to_get() -> ValidateOptions {
    ValidateOptions {
        in_reply_to: Some("tasks/get".to_string()),
        ..ValidateOptions::default()
    }
}

#[wasm_bindgen_test]
fn not_json_gives_a_report() {
    let r = validate_text("{\"jsonrpc\": ", &ValidateOptions::default());
    assert!(!r.valid);
    assert_eq!(codes(&r), ["not-json"]);
}

#[wasm_bindgen_test]
fn deep_nesting_gives_too_deep() {
    let r = validate_text(&"[".repeat(10_000), &ValidateOptions::default());
    assert!(!r.valid);
    assert_eq!(codes(&r), ["too-deep"]);
}

#[wasm_bindgen_test]
fn max_bytes_gives_too_large() {
    let options = ValidateOptions {
        max_bytes: Some(16),
        ..ValidateOptions::default()
    };
    let r = validate_text(V25_GET_RESULT, &options);
    assert_eq!(codes(&r), ["too-large"]);
}

#[wasm_bindgen_test]
fn valid_v25_get_result() {
    let r = validate_text(V25_GET_RESULT, &in_reply_to_get());
    assert!(r.valid, "{:?}", r.issues);
    assert_eq!(r.version, Some(ProtocolVersion::V2025));
}

#[wasm_bindgen_test]
fn negative_ttl_is_an_error() {
    let text = V25_GET_RESULT.replace("\"ttl\":60000", "\"ttl\":-5");
    let r = validate_text(&text, &in_reply_to_get());
    assert!(!r.valid, "{:?}", r.issues);
    assert!(
        r.issues.iter().any(|i| i.path.ends_with("/ttl")),
        "{:?}",
        r.issues
    );
}

#[wasm_bindgen_test]
fn rules_table_is_not_empty() {
    assert!(!RULES.is_empty());
    assert!(RULES.iter().any(|r| r.code == "not-json"));
}
