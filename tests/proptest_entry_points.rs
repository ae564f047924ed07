//! Property tests: arbitrary input to every core entry point never panics, always gives a
//! report, and every issue path is a JSON Pointer that resolves inside the message.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use mcp_tasks_wasm::base::json::{parse, to_text};
use mcp_tasks_wasm::convert::{convert_create_task_result, convert_task};
use mcp_tasks_wasm::model::ProtocolVersion;
use mcp_tasks_wasm::store::payload::Payload;
use mcp_tasks_wasm::validate::{
    validate_text, validate_value, Context, Severity, ValidateOptions, ValidationReport,
};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

const KEYS: &[&str] = &[
    "jsonrpc",
    "id",
    "method",
    "params",
    "result",
    "error",
    "taskId",
    "status",
    "statusMessage",
    "createdAt",
    "lastUpdatedAt",
    "ttl",
    "ttlMs",
    "pollInterval",
    "pollIntervalMs",
    "task",
    "tasks",
    "nextCursor",
    "cursor",
    "resultType",
    "inputRequests",
    "inputResponses",
    "requestState",
    "_meta",
    "code",
    "message",
    "data",
    "requiredCapabilities",
    "capabilities",
    "extensions",
    "isError",
    "content",
    "io.modelcontextprotocol/related-task",
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/clientCapabilities",
    "io.modelcontextprotocol/tasks",
    "notifications",
    "taskIds",
    "execution",
    "taskSupport",
    "tools",
    "a/b~c",
];

const STRINGS: &[&str] = &[
    "2.0",
    "tasks/get",
    "tasks/result",
    "tasks/list",
    "tasks/cancel",
    "tasks/update",
    "tools/call",
    "notifications/tasks",
    "notifications/tasks/status",
    "subscriptions/listen",
    "server/discover",
    "initialize",
    "working",
    "input_required",
    "completed",
    "failed",
    "cancelled",
    "task",
    "complete",
    "2025-11-25",
    "2026-07-28",
    "2025-11-25T10:30:00Z",
    "2026-07-28T10:29:00+02:00",
    "not-a-date",
    "elicitation/create",
    "sampling/createMessage",
    "roots/list",
    "accept",
    "",
    "=?base64?dA==?=",
];

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (-1e6f64..1e6).prop_map(|f| json!(f)),
        Just(json!(0)),
        Just(json!(-5)),
        Just(json!(1.5)),
        prop::sample::select(STRINGS).prop_map(|s| Value::String(s.to_string())),
        ".{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 96, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..8).prop_map(|kvs| {
                let mut m = Map::new();
                for (k, v) in kvs {
                    m.insert(k.to_string(), v);
                }
                Value::Object(m)
            }),
        ]
    })
}

fn arb_version() -> impl Strategy<Value = Option<ProtocolVersion>> {
    prop_oneof![
        Just(None),
        Just(Some(ProtocolVersion::V2025)),
        Just(Some(ProtocolVersion::V2026))
    ]
}

fn arb_reply() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(None),
        prop::sample::select(STRINGS).prop_map(|s| Some(s.to_string())),
    ]
}

fn check_report(msg: Option<&Value>, r: &ValidationReport) {
    assert_eq!(
        r.valid,
        !r.issues.iter().any(|i| i.severity == Severity::Error)
    );
    for i in &r.issues {
        assert!(!i.code.is_empty() && !i.message.is_empty());
        assert!(
            i.path.is_empty() || i.path.starts_with('/'),
            "bad pointer {:?}",
            i.path
        );
        if let Some(m) = msg {
            assert!(
                m.pointer(&i.path).is_some(),
                "issue {} path {:?} does not resolve in {m}",
                i.code,
                i.path
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, .. ProptestConfig::default() })]

    #[test]
    fn any_json_value_gives_a_report(msg in arb_json(), version in arb_version(), reply in arb_reply()) {
        let ctx = Context { version, in_reply_to: reply, ..Context::default() };
        let r = validate_value(&msg, &ctx);
        check_report(Some(&msg), &r);
    }

    #[test]
    fn envelope_shaped_values_give_a_report(
        params in arb_json(), result in arb_json(), method in prop::sample::select(STRINGS),
        version in arb_version(), reply in arb_reply(), which in 0u8..4,
    ) {
        let msg = match which {
            0 => json!({"jsonrpc":"2.0","id":1,"method":method,"params":params}),
            1 => json!({"jsonrpc":"2.0","method":method,"params":params}),
            2 => json!({"jsonrpc":"2.0","id":"a","result":result}),
            _ => json!({"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"m","data":result}}),
        };
        let ctx = Context { version, in_reply_to: reply, ..Context::default() };
        let r = validate_value(&msg, &ctx);
        check_report(Some(&msg), &r);
    }

    #[test]
    fn any_text_gives_a_report(text in ".{0,200}") {
        let r = validate_text(&text, &ValidateOptions::default());
        check_report(None, &r);
    }

    #[test]
    fn json_parse_builds_serde_jsons_tree(v in arb_json(), text in ".{0,80}", cut in 0usize..200) {
        // base::json::parse (the crate's own visitor, deserialize_any only) against serde_json's
        // own `Value` reading: the same tree or the same error, for JSON and for any text.
        let written = v.to_string();
        let prefix: String = written.chars().take(cut).collect();
        for t in [written.as_str(), prefix.as_str(), text.as_str()] {
            prop_assert_eq!(
                parse(t).map_err(|e| e.to_string()),
                serde_json::from_str::<Value>(t).map_err(|e| e.to_string()),
                "{:?}", t
            );
        }
    }

    #[test]
    fn stored_results_are_written_as_serde_json_writes_them(v in arb_json(), padding in "[ \t\r\n]{0,3}") {
        // A result kept as its text (Payload) and written into an answer by to_text: the text
        // serde_json writes for the same object, whitespace around it dropped; elsewhere the tree.
        let mut o = Map::new();
        o.insert("content".to_string(), v);
        let expected = serde_json::to_string(&o).unwrap();
        let from_text =
            Payload::from_carried_text(format!("{padding}{expected}{padding}")).unwrap();
        let from_object = Payload::from_object(&o);
        for p in [&from_text, &from_object] {
            prop_assert_eq!(to_text(&[p, p]).unwrap(), format!("[{expected},{expected}]"));
            prop_assert_eq!(serde_json::to_value(p).unwrap(), Value::Object(o.clone()));
            prop_assert_eq!(p.object(), o.clone());
        }
    }

    #[test]
    fn conversions_never_panic(v in arb_json(), to in prop_oneof![Just(ProtocolVersion::V2025), Just(ProtocolVersion::V2026)]) {
        let r = convert_task(&v, None, to);
        prop_assert_eq!(r.ok, r.value.is_some());
        let r = convert_create_task_result(&v, to);
        prop_assert_eq!(r.ok, r.value.is_some());
    }
}

#[test]
fn deep_and_large_text() {
    let o = ValidateOptions::default();
    for text in [
        "[".repeat(10_000),
        "{\"a\":".repeat(10_000),
        "x".repeat(10 << 20),
    ] {
        let r = validate_text(&text, &o);
        assert!(!r.valid);
        assert_eq!(r.issues.len(), 1);
    }
}
