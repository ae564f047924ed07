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

// The polling scheduler core in wasm: exact virtual-time scheduling, the same as natively.
#[wasm_bindgen_test]
fn scheduler_paces_polls_in_wasm() {
    use mcp_tasks_wasm::schedule::{Scheduler, SchedulerConfig, SchedulerEvent, TrackOptions};
    let t0 = 1_764_066_600_000u64;
    let config = SchedulerConfig {
        jitter_ppm: 0,
        ..SchedulerConfig::default()
    };
    let mut s = Scheduler::new(config, 1).unwrap();
    let task: serde_json::Value = serde_json::from_str(V25_GET_RESULT).unwrap();
    let events = s
        .track("a", TrackOptions::default(), Some(&task["result"]), t0)
        .unwrap();
    assert_eq!(events.len(), 1);
    // pollInterval 5000 from the snapshot.
    assert_eq!(s.next_wake_at(), Some(t0 + 5000));
    assert_eq!(
        s.next_due(t0 + 5000, usize::MAX),
        [SchedulerEvent::Poll { key: "a".into() }]
    );
}

// 10,000 tasks, serialized and restored, in wasm.
#[wasm_bindgen_test]
fn scheduler_tracks_many_tasks_in_wasm() {
    use mcp_tasks_wasm::schedule::{Scheduler, SchedulerConfig, TrackOptions};
    let mut s = Scheduler::new(SchedulerConfig::default(), 7).unwrap();
    for i in 0..10_000 {
        s.track(&format!("t{i}"), TrackOptions::default(), None, 1000)
            .unwrap();
    }
    assert_eq!(s.next_due(1000, usize::MAX).len(), 10_000);
    let restored = Scheduler::restore(&s.serialize()).unwrap();
    restored.check_invariants().unwrap();
    assert_eq!(restored.len(), 10_000);
}
