//! One test per rule of the validator: a valid message passes, a broken one gives the code
//! (TASKS-SPEC §D) at the right JSON Pointer.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use mcp_tasks_wasm::model::ProtocolVersion;
use mcp_tasks_wasm::validate::{
    validate_text, validate_value, Context, ValidateOptions, ValidationReport,
};
use serde_json::{json, Value};

const V25: ProtocolVersion = ProtocolVersion::V2025;
const V26: ProtocolVersion = ProtocolVersion::V2026;

fn check(
    msg: &Value,
    version: Option<ProtocolVersion>,
    in_reply_to: Option<&str>,
) -> ValidationReport {
    validate_value(
        msg,
        &Context {
            version,
            in_reply_to: in_reply_to.map(str::to_string),
            ..Context::default()
        },
    )
}

fn codes(r: &ValidationReport) -> Vec<(String, String)> {
    r.issues
        .iter()
        .map(|i| (i.code.clone(), i.path.clone()))
        .collect()
}

#[track_caller]
fn assert_valid(r: &ValidationReport) {
    assert!(r.valid, "expected valid, got {:#?}", r.issues);
    assert!(
        r.issues.is_empty(),
        "expected no issues, got {:#?}",
        r.issues
    );
}

#[track_caller]
fn assert_issue(r: &ValidationReport, code: &str, path: &str) {
    assert!(
        r.issues.iter().any(|i| i.code == code && i.path == path),
        "expected {code} at {path:?}, got {:#?}",
        codes(r)
    );
}

fn v25_task() -> Value {
    json!({"taskId":"t-1","status":"working","createdAt":"2025-11-25T10:30:00Z",
           "lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":60000,"pollInterval":5000})
}

fn v26_task(status: &str) -> Value {
    json!({"taskId":"t-1","status":status,"createdAt":"2026-07-28T10:30:00Z",
           "lastUpdatedAt":"2026-07-28T10:31:00Z","ttlMs":60000,"pollIntervalMs":5000})
}

fn result(id: u32, r: Value) -> Value {
    json!({"jsonrpc":"2.0","id":id,"result":r})
}

fn with(mut v: Value, key: &str, val: Value) -> Value {
    v.as_object_mut().unwrap().insert(key.into(), val);
    v
}

fn without(mut v: Value, key: &str) -> Value {
    v.as_object_mut().unwrap().remove(key);
    v
}

fn v26_meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion":"2026-07-28",
           "io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}})
}

// ---- input ---------------------------------------------------------------------------------

#[test]
fn input_never_fails() {
    let o = ValidateOptions::default();
    assert_eq!(validate_text("not json", &o).issues[0].code, "not-json");
    assert_eq!(
        validate_text(&"[".repeat(10_000), &o).issues[0].code,
        "too-deep"
    );
    let big = "x".repeat(10 * 1024 * 1024);
    assert_eq!(validate_text(&big, &o).issues[0].code, "not-json");
    let small = ValidateOptions {
        max_bytes: Some(10),
        ..ValidateOptions::default()
    };
    assert_eq!(
        validate_text("{\"jsonrpc\":\"2.0\"}", &small).issues[0].code,
        "too-large"
    );
    assert_eq!(validate_text("42", &o).issues[0].code, "not-object");
    assert_eq!(validate_text("[]", &o).issues[0].code, "not-object");
    let r = validate_text("{}", &o);
    assert!(!r.valid);
    assert_eq!(r.kind, "Invalid");
}

#[test]
fn envelope_rules() {
    let r = check(&json!({"jsonrpc":"1.0","id":1,"method":"ping"}), None, None);
    assert_issue(&r, "jsonrpc-version", "/jsonrpc");
    let r = check(
        &json!({"jsonrpc":"2.0","id":null,"method":"ping"}),
        None,
        None,
    );
    assert_issue(&r, "jsonrpc-id", "/id");
    let r = check(
        &json!({"jsonrpc":"2.0","id":1,"method":"ping","params":[]}),
        None,
        None,
    );
    assert_issue(&r, "jsonrpc-params", "/params");
    let r = check(&json!({"jsonrpc":"2.0","id":1,"result":[]}), None, None);
    assert_issue(&r, "jsonrpc-result", "/result");
    let r = check(
        &json!({"jsonrpc":"2.0","id":1,"error":{"code":"x","message":1}}),
        None,
        None,
    );
    assert_issue(&r, "jsonrpc-error", "/error/code");
    assert_issue(&r, "jsonrpc-error", "/error/message");
    let r = check(
        &json!({"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":""}}),
        None,
        None,
    );
    assert_issue(&r, "jsonrpc-shape", "");
    let r = check(&json!({"jsonrpc":"2.0","id":1,"method":"ping"}), None, None);
    assert_valid(&r);
    assert_eq!(r.kind, "Other");
    assert_eq!(r.version, None);
}

// ---- version detection ---------------------------------------------------------------------

#[test]
fn version_detection() {
    let r = check(&result(1, v25_task()), None, Some("tasks/get"));
    assert_eq!(r.version, Some(V25));
    assert_valid(&r);
    let r = check(
        &json!({"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t","_meta":v26_meta()}}),
        None,
        None,
    );
    assert_eq!(r.version, Some(V26));
    assert_eq!(
        r.version_source,
        mcp_tasks_wasm::validate::VersionSource::Meta
    );
    assert_valid(&r);
    let r = check(
        &result(
            1,
            with(v26_task("working"), "resultType", json!("complete")),
        ),
        None,
        None,
    );
    assert_eq!(r.version, Some(V26));
    assert_eq!(r.kind, "GetTaskResult");
    assert_valid(&r);
    let r = check(
        &json!({"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t"}}),
        None,
        None,
    );
    assert_eq!(r.version, Some(V25));
    assert_valid(&r);
    let r = check(&result(1, v25_task()), Some(V26), Some("tasks/get"));
    assert_eq!(
        r.version_source,
        mcp_tasks_wasm::validate::VersionSource::Option
    );
    assert_issue(&r, "result-type-missing", "/result");
    assert_issue(&r, "legacy-member", "/result/ttl");
}

// ---- V25 -------------------------------------------------------------------------------------

#[test]
fn v25_valid_messages() {
    assert_valid(&check(
        &result(1, json!({"task": v25_task()})),
        Some(V25),
        Some("tools/call"),
    ));
    assert_valid(&check(&result(1, v25_task()), Some(V25), Some("tasks/get")));
    let mut cancelled = v25_task();
    cancelled["status"] = json!("cancelled");
    assert_valid(&check(
        &result(1, cancelled),
        Some(V25),
        Some("tasks/cancel"),
    ));
    assert_valid(&check(
        &result(
            1,
            json!({"tasks":[v25_task(), v25_task()],"nextCursor":"c"}),
        ),
        Some(V25),
        Some("tasks/list"),
    ));
    assert_valid(&check(
        &result(
            1,
            json!({"content":[],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t-1"}}}),
        ),
        Some(V25),
        Some("tasks/result"),
    ));
    assert_valid(&check(
        &json!({"jsonrpc":"2.0","method":"notifications/tasks/status","params":v25_task()}),
        None,
        None,
    ));
    assert_valid(&check(
        &json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","task":{"ttl":1000}}}),
        None,
        None,
    ));
    assert_valid(&check(
        &json!({"jsonrpc":"2.0","id":1,"method":"tasks/list","params":{"cursor":"abc"}}),
        None,
        None,
    ));
    assert_valid(&check(
        &json!({"jsonrpc":"2.0","id":1,"method":"tasks/list"}),
        None,
        None,
    ));
    let mut null_ttl = v25_task();
    null_ttl["ttl"] = Value::Null;
    assert_valid(&check(&result(1, null_ttl), Some(V25), Some("tasks/get")));
}

#[test]
fn v25_task_members() {
    let r = check(
        &result(1, with(v25_task(), "taskId", json!(5))),
        Some(V25),
        Some("tasks/get"),
    );
    assert_issue(&r, "task-id-type", "/result/taskId"); // rule 1
    let r = check(
        &result(1, without(v25_task(), "createdAt")),
        Some(V25),
        Some("tasks/get"),
    );
    assert_issue(&r, "task-required-member", "/result"); // rule 2
    let r = check(
        &result(1, without(v25_task(), "ttl")),
        Some(V25),
        Some("tasks/get"),
    );
    assert_issue(&r, "task-ttl-missing", "/result"); // rule 2
    let r = check(
        &result(1, with(v25_task(), "status", json!("submitted"))),
        Some(V25),
        Some("tasks/get"),
    );
    assert_issue(&r, "task-status-enum", "/result/status"); // rule 3
    let r = check(
        &result(1, with(v25_task(), "ttl", json!("60"))),
        Some(V25),
        Some("tasks/get"),
    );
    assert_issue(&r, "task-ttl-type", "/result/ttl"); // rule 4
    let r = check(
        &result(1, with(v25_task(), "ttl", json!(-5))),
        Some(V25),
        Some("tasks/get"),
    );
    assert_issue(&r, "task-negative-ms", "/result/ttl");
    let r = check(
        &result(1, with(v25_task(), "pollInterval", json!(-1.5))),
        Some(V25),
        Some("tasks/get"),
    );
    assert_issue(&r, "task-poll-interval-type", "/result/pollInterval");
    let r = check(
        &result(1, with(v25_task(), "statusMessage", json!(3))),
        Some(V25),
        Some("tasks/get"),
    );
    assert_issue(&r, "task-status-message-type", "/result/statusMessage");
    let r = check(
        &result(1, with(v25_task(), "createdAt", json!("not-a-date"))),
        Some(V25),
        Some("tasks/get"),
    );
    assert_issue(&r, "timestamp-format", "/result/createdAt"); // rule 5
    let r = check(
        &result(
            1,
            with(v25_task(), "lastUpdatedAt", json!("2025-11-25T10:29:59Z")),
        ),
        Some(V25),
        Some("tasks/get"),
    );
    assert_issue(&r, "timestamp-order", "/result/lastUpdatedAt");
    let r = check(
        &result(1, with(without(v25_task(), "ttl"), "ttlMs", json!(5))),
        Some(V25),
        Some("tasks/get"),
    );
    assert_issue(&r, "version-mismatch", "/result/ttlMs");
}

#[test]
fn v25_kinds() {
    // A tools/call answer without `task` is the synchronous CallToolResult: it needs `content`.
    let r = check(&result(1, v25_task()), Some(V25), Some("tools/call"));
    assert_eq!(r.kind, "CallToolResult");
    assert_issue(&r, "call-tool-result", "/result");
    let r = check(
        &result(1, json!({"content":[{"type":"text","text":"hi"}]})),
        Some(V25),
        Some("tools/call"),
    );
    assert_valid(&r);
    let r = check(
        &json!({"jsonrpc":"2.0","method":"tasks/get","params":{"taskId":"t"}}),
        Some(V25),
        None,
    );
    assert_issue(&r, "jsonrpc-id", "");
    let r = check(
        &json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":[]}}),
        Some(V25),
        None,
    );
    assert_issue(&r, "tool-call-params", "/params");
    assert_issue(&r, "tool-call-params", "/params/arguments");
    let r = check(
        &result(1, json!({"task": "t"})),
        Some(V25),
        Some("tools/call"),
    );
    assert_issue(&r, "create-task-nested", "/result/task"); // rule 6
    let r = check(
        &result(
            1,
            json!({"task": with(v25_task(), "status", json!("completed"))}),
        ),
        Some(V25),
        Some("tools/call"),
    );
    assert_issue(&r, "create-task-status", "/result/task/status"); // rule 7
    let r = check(
        &json!({"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{}}),
        Some(V25),
        None,
    );
    assert_issue(&r, "params-task-id", "/params"); // rule 8
    let r = check(
        &json!({"jsonrpc":"2.0","id":1,"method":"tasks/cancel","params":{"taskId":1}}),
        Some(V25),
        None,
    );
    assert_issue(&r, "params-task-id", "/params/taskId");
    let r = check(
        &json!({"jsonrpc":"2.0","id":1,"method":"tasks/list","params":{"cursor":1}}),
        Some(V25),
        None,
    );
    assert_issue(&r, "list-params", "/params/cursor"); // rule 9
    let r = check(
        &result(1, json!({"tasks":{}})),
        Some(V25),
        Some("tasks/list"),
    );
    assert_issue(&r, "list-result", "/result/tasks");
    let r = check(
        &result(1, json!({"tasks":[], "nextCursor": 3})),
        Some(V25),
        Some("tasks/list"),
    );
    assert_issue(&r, "list-result", "/result/nextCursor");
    let r = check(
        &json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","task":{"ttl":"1"}}}),
        Some(V25),
        None,
    );
    assert_issue(&r, "task-metadata", "/params/task/ttl"); // rule 10
    let r = check(
        &json!({"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"x","task":{}}}),
        Some(V25),
        None,
    );
    assert_issue(&r, "task-metadata-method", "/params/task");
    let r = check(
        &result(
            1,
            json!({"tools":[{"name":"a","inputSchema":{"type":"object"},"execution":{"taskSupport":"always"}}]}),
        ),
        Some(V25),
        Some("tools/list"),
    );
    assert_issue(
        &r,
        "tool-task-support",
        "/result/tools/0/execution/taskSupport",
    ); // rule 11
    let r = check(
        &result(
            1,
            json!({"protocolVersion":"2025-11-25","capabilities":{"tasks":{"list":true,"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"s","version":"1"}}),
        ),
        Some(V25),
        Some("initialize"),
    );
    assert_issue(&r, "capability-leaf", "/result/capabilities/tasks/list"); // rule 12
    let r = check(
        &result(
            1,
            json!({"content":[],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":5}}}),
        ),
        Some(V25),
        Some("tasks/result"),
    );
    assert_issue(
        &r,
        "related-task-shape",
        "/result/_meta/io.modelcontextprotocol~1related-task/taskId",
    ); // rule 13
    let r = check(
        &result(1, json!({"content":[]})),
        Some(V25),
        Some("tasks/result"),
    );
    assert_issue(&r, "related-task-missing", "/result"); // rule 14
    let r = check(
        &json!({"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t","_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t"}}}}),
        Some(V25),
        None,
    );
    assert_issue(
        &r,
        "related-task-discouraged",
        "/params/_meta/io.modelcontextprotocol~1related-task",
    ); // rule 15
    assert!(r.valid, "a warning does not make a message invalid");
    let r = check(&result(1, v25_task()), Some(V25), Some("tasks/cancel"));
    assert_issue(&r, "cancel-status", "/result/status"); // rule 16
    let r = check(
        &json!({"jsonrpc":"2.0","id":1,"method":"tasks/update","params":{"taskId":"t"}}),
        Some(V25),
        None,
    );
    assert_issue(&r, "version-mismatch", "/method");
}

// ---- V26 -------------------------------------------------------------------------------------

fn v26_get(status: &str, extra: &[(&str, Value)]) -> Value {
    let mut t = with(v26_task(status), "resultType", json!("complete"));
    for (k, v) in extra {
        t = with(t, k, v.clone());
    }
    result(1, t)
}

fn elicit() -> Value {
    json!({"method":"elicitation/create","params":{"mode":"form","message":"Name?",
        "requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}})
}

#[test]
fn v26_valid_messages() {
    assert_valid(&check(
        &result(1, with(v26_task("working"), "resultType", json!("task"))),
        Some(V26),
        Some("tools/call"),
    ));
    assert_valid(&check(
        &v26_get("working", &[]),
        Some(V26),
        Some("tasks/get"),
    ));
    assert_valid(&check(
        &v26_get(
            "input_required",
            &[("inputRequests", json!({"name": elicit()}))],
        ),
        Some(V26),
        Some("tasks/get"),
    ));
    assert_valid(&check(
        &v26_get(
            "completed",
            &[(
                "result",
                json!({"content":[{"type":"text","text":"hi"}],"isError":true}),
            )],
        ),
        Some(V26),
        Some("tasks/get"),
    ));
    assert_valid(&check(
        &v26_get(
            "failed",
            &[
                ("error", json!({"code":-32603,"message":"boom"})),
                ("statusMessage", json!("boom")),
            ],
        ),
        Some(V26),
        Some("tasks/get"),
    ));
    assert_valid(&check(
        &v26_get("cancelled", &[]),
        Some(V26),
        Some("tasks/get"),
    ));
    assert_valid(&check(
        &result(1, json!({"resultType":"complete"})),
        Some(V26),
        Some("tasks/update"),
    ));
    assert_valid(&check(
        &result(1, json!({"resultType":"complete"})),
        Some(V26),
        Some("tasks/cancel"),
    ));
    assert_valid(&check(
        &json!({"jsonrpc":"2.0","id":2,"method":"tasks/update","params":{"taskId":"t","inputResponses":{"name":{"action":"accept","content":{"name":"Luca"}}},"_meta":v26_meta()}}),
        None,
        None,
    ));
    let mut n = with(v26_task("completed"), "result", json!({"content":[]}));
    n = with(
        n,
        "_meta",
        json!({"io.modelcontextprotocol/subscriptionId":"s"}),
    );
    assert_valid(&check(
        &json!({"jsonrpc":"2.0","method":"notifications/tasks","params":n}),
        None,
        None,
    ));
    let mut null_ttl = v26_task("working");
    null_ttl["ttlMs"] = Value::Null;
    assert_valid(&check(
        &result(1, with(null_ttl, "resultType", json!("task"))),
        Some(V26),
        Some("tools/call"),
    ));
    assert_valid(&check(
        &result(1, json!({"resultType":"complete","content":[]})),
        Some(V26),
        Some("tools/call"),
    ));
    assert_valid(&check(
        &json!({"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"missing","data":{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}),
        Some(V26),
        Some("tasks/get"),
    ));
}

#[test]
fn v26_result_type() {
    let r = check(
        &result(1, v26_task("working")),
        Some(V26),
        Some("tasks/get"),
    );
    assert_issue(&r, "result-type-missing", "/result"); // rule 58
    let r = check(
        &v26_get("working", &[("resultType", json!("task"))]),
        Some(V26),
        Some("tasks/get"),
    );
    assert_issue(&r, "result-type-task", "/result/resultType"); // rule 59 (§E 1)
    let r = check(
        &result(1, json!({"resultType":"input_required"})),
        Some(V26),
        Some("tasks/cancel"),
    );
    assert_issue(&r, "result-type-complete", "/result/resultType"); // rule 60
    let r = check(
        &result(1, json!({"resultType":"done"})),
        Some(V26),
        Some("tasks/update"),
    );
    assert_issue(&r, "result-type-unknown", "/result/resultType"); // rule 61
    let r = check(
        &result(1, with(v26_task("working"), "resultType", json!("task"))),
        Some(V26),
        Some("prompts/get"),
    );
    assert_issue(&r, "create-task-method", "/result/resultType"); // rule 62
}

#[test]
fn v26_task_members() {
    let t = |k: &str, v: Value| {
        check(
            &result(
                1,
                with(with(v26_task("working"), "resultType", json!("task")), k, v),
            ),
            Some(V26),
            Some("tools/call"),
        )
    };
    assert_issue(&t("ttlMs", json!(1.5)), "task-ttl-type", "/result/ttlMs"); // rule 63
    assert_issue(
        &t("pollIntervalMs", json!("5")),
        "task-poll-interval-type",
        "/result/pollIntervalMs",
    );
    assert_issue(
        &t("createdAt", json!("yesterday")),
        "timestamp-format",
        "/result/createdAt",
    ); // rule 64
    assert_issue(&t("ttlMs", json!(-1)), "task-negative-ms", "/result/ttlMs"); // rule 65
                                                                               // rule 65: `ttlMs` null or positive, `pollIntervalMs` positive (conformance).
    let zero = t("pollIntervalMs", json!(0));
    assert_issue(&zero, "task-zero-ms", "/result/pollIntervalMs");
    assert!(!zero.valid);
    let zero = t("ttlMs", json!(0));
    assert_issue(&zero, "task-zero-ms", "/result/ttlMs");
    assert!(!zero.valid);
    assert_valid(&t("ttlMs", json!(null)));
    assert_valid(&t("ttlMs", json!(1)));
    assert_valid(&t("pollIntervalMs", json!(1)));
    // A tasks/get answer and a notification are held to the same rule.
    let get = check(
        &result(
            1,
            with(
                with(v26_task("working"), "resultType", json!("complete")),
                "ttlMs",
                json!(0),
            ),
        ),
        Some(V26),
        Some("tasks/get"),
    );
    assert_issue(&get, "task-zero-ms", "/result/ttlMs");
    let note = check(
        &json!({"jsonrpc":"2.0","method":"notifications/tasks",
                "params": with(v26_task("working"), "pollIntervalMs", json!(0))}),
        Some(V26),
        None,
    );
    assert_issue(&note, "task-zero-ms", "/params/pollIntervalMs");
    // 2025-11-25 only asks for non-negative milliseconds.
    let v25 = check(
        &result(
            1,
            with(with(v25_task(), "ttl", json!(0)), "pollInterval", json!(0)),
        ),
        Some(V25),
        Some("tasks/get"),
    );
    assert!(!v25.issues.iter().any(|i| i.code == "task-zero-ms"));
    assert_issue(&t("ttl", json!(5)), "legacy-member", "/result/ttl"); // rule 66
    assert_issue(
        &t("result", json!({})),
        "task-payload-forbidden",
        "/result/result",
    ); // rule 68
    assert_issue(
        &t("requestState", json!("s")),
        "task-payload-forbidden",
        "/result/requestState",
    );
    let r = check(
        &result(1, json!({"resultType":"task","task":v26_task("working")})),
        Some(V26),
        Some("tools/call"),
    );
    assert_issue(&r, "legacy-member", "/result/task");
    let r = check(
        &result(
            1,
            with(
                without(v26_task("working"), "ttlMs"),
                "resultType",
                json!("task"),
            ),
        ),
        Some(V26),
        Some("tools/call"),
    );
    assert_issue(&r, "task-ttl-missing", "/result");
}

#[test]
fn v26_payloads() {
    let r = check(
        &v26_get("input_required", &[]),
        Some(V26),
        Some("tasks/get"),
    );
    assert_issue(&r, "task-payload", "/result"); // rule 67
    let r = check(&v26_get("completed", &[]), Some(V26), Some("tasks/get"));
    assert_issue(&r, "task-payload", "/result");
    let r = check(
        &v26_get("failed", &[("error", json!({"code":"x","message":"m"}))]),
        Some(V26),
        Some("tasks/get"),
    );
    assert_issue(&r, "task-payload", "/result/error/code");
    let r = check(
        &v26_get(
            "failed",
            &[
                ("error", json!({"code":1,"message":"m"})),
                ("result", json!({})),
            ],
        ),
        Some(V26),
        Some("tasks/get"),
    );
    assert_issue(&r, "task-payload-forbidden", "/result/result"); // rule 68
    let r = check(
        &v26_get(
            "failed",
            &[("result", json!({"content":[],"isError":true}))],
        ),
        Some(V26),
        Some("tasks/get"),
    );
    assert_issue(&r, "failed-not-rpc-error", "/result"); // rule 69
    let r = check(
        &v26_get("working", &[("result", json!({}))]),
        Some(V26),
        Some("tasks/get"),
    );
    assert_issue(&r, "task-payload-unexpected", "/result/result");
    assert!(r.valid);
    let r = check(
        &v26_get(
            "completed",
            &[("result", json!({"resultType":"input_required"}))],
        ),
        Some(V26),
        Some("tasks/get"),
    );
    assert_issue(&r, "inner-result-type", "/result/result/resultType");
    let r = check(
        &v26_get("input_required", &[("inputRequests", json!([]))]),
        Some(V26),
        Some("tasks/get"),
    );
    assert_issue(&r, "task-payload", "/result/inputRequests"); // rule 70
    let r = check(
        &result(1, json!({"resultType":"complete","taskId":"t"})),
        Some(V26),
        Some("tasks/cancel"),
    );
    assert_issue(&r, "task-payload-forbidden", "/result/taskId"); // rule 68 (acks)
}

#[test]
fn v26_requests() {
    let r = check(
        &json!({"jsonrpc":"2.0","id":2,"method":"tasks/update","params":{"taskId":"t","_meta":v26_meta()}}),
        None,
        None,
    );
    assert_issue(&r, "input-responses", "/params"); // rule 71
    let r = check(
        &json!({"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"t"}}),
        Some(V26),
        None,
    );
    assert_issue(&r, "request-meta", "/params"); // rule 72
    let r = check(
        &json!({"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}),
        None,
        None,
    );
    assert_issue(&r, "request-meta", "/params/_meta");
    let meta_no_ext = json!({"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}});
    let r = check(
        &json!({"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"t","_meta":meta_no_ext}}),
        None,
        None,
    );
    assert_issue(&r, "extension-not-declared", "/params/_meta"); // rule 100
    let r = check(
        &json!({"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"missing"}}),
        Some(V26),
        Some("tasks/get"),
    );
    assert_issue(&r, "missing-capability-data", "/error"); // rule 73
    let r = check(
        &json!({"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"m","data":{"requiredCapabilities":{}}}}),
        Some(V26),
        Some("tools/call"),
    );
    assert_issue(
        &r,
        "missing-capability-data",
        "/error/data/requiredCapabilities",
    );
    let r = check(
        &json!({"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{"taskIds":[1]},"_meta":v26_meta()}}),
        None,
        None,
    );
    assert_issue(
        &r,
        "subscription-task-ids",
        "/params/notifications/taskIds/0",
    ); // rule 74
    let r = check(
        &result(
            1,
            json!({"resultType":"complete","capabilities":{"tasks":{"list":{}}}}),
        ),
        Some(V26),
        Some("server/discover"),
    );
    assert_issue(&r, "legacy-capability", "/result/capabilities/tasks"); // rule 75
    let r = check(
        &result(
            1,
            json!({"resultType":"complete","capabilities":{"extensions":{"io.modelcontextprotocol/tasks":{"x":1}}}}),
        ),
        Some(V26),
        Some("server/discover"),
    );
    assert_issue(
        &r,
        "legacy-capability",
        "/result/capabilities/extensions/io.modelcontextprotocol~1tasks",
    );
    let r = check(
        &json!({"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"t","_meta":v26_meta()}}),
        None,
        None,
    );
    assert_issue(&r, "version-mismatch", "/method"); // rule 81
    let r = check(
        &json!({"jsonrpc":"2.0","id":1,"error":{"code":-32003,"message":"old"}}),
        Some(V26),
        Some("tasks/get"),
    );
    assert_issue(&r, "retired-error-code", "/error/code");
}

#[test]
fn v26_headers() {
    let msg = json!({"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"task-1","_meta":v26_meta()}});
    let ctx = |h: Value| Context {
        headers: h.as_object().cloned(),
        ..Context::default()
    };
    const PV: &str = "2026-07-28";
    assert_valid(&validate_value(
        &msg,
        &ctx(json!({"Mcp-Method":"tasks/get","Mcp-Name":"task-1","MCP-Protocol-Version":PV})),
    ));
    assert_valid(&validate_value(
        &msg,
        &ctx(
            json!({"mcp-method":"tasks/get","mcp-name":"=?base64?dGFzay0x?=","mcp-protocol-version":PV}),
        ),
    ));
    let r = validate_value(
        &msg,
        &ctx(json!({"Mcp-Method":"tasks/get","Mcp-Name":"task-2","MCP-Protocol-Version":PV})),
    );
    assert_issue(&r, "header-mismatch", "/params/taskId"); // rule 76
    let r = validate_value(
        &msg,
        &ctx(json!({"Mcp-Method":"tasks/cancel","Mcp-Name":"task-1","MCP-Protocol-Version":PV})),
    );
    assert_issue(&r, "header-mismatch", "/method");
    // §B.f: MCP-Protocol-Version missing, or not the version `_meta` names.
    let r = validate_value(
        &msg,
        &ctx(json!({"Mcp-Method":"tasks/get","Mcp-Name":"task-1"})),
    );
    assert_issue(&r, "header-missing", "/params/_meta");
    // A missing header is the requestor's omission, named as such (§D 97, 111).
    let r = validate_value(
        &msg,
        &ctx(json!({"Mcp-Method":"tasks/get","MCP-Protocol-Version":PV})),
    );
    assert_issue(&r, "header-missing", "/params/taskId");
    assert!(
        !r.issues.iter().any(|i| i.code == "header-mismatch"),
        "{:#?}",
        r.issues
    );
    let r = validate_value(
        &msg,
        &ctx(json!({"Mcp-Name":"task-1","MCP-Protocol-Version":PV})),
    );
    assert_issue(&r, "header-missing", "/method");
    let r = validate_value(
        &msg,
        &ctx(
            json!({"Mcp-Method":"tasks/get","Mcp-Name":"task-1","MCP-Protocol-Version":"2025-11-25"}),
        ),
    );
    assert_issue(&r, "header-mismatch", "/params/_meta");
    // SEP-2243: an Mcp-Name sent on tools/call must be the tool's name; none is fine.
    let call = json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"greet","arguments":{},"_meta":v26_meta()}});
    assert_valid(&validate_value(
        &call,
        &ctx(json!({"Mcp-Method":"tools/call","Mcp-Name":"greet","MCP-Protocol-Version":PV})),
    ));
    assert_valid(&validate_value(
        &call,
        &ctx(json!({"Mcp-Method":"tools/call","MCP-Protocol-Version":PV})),
    ));
    let r = validate_value(
        &call,
        &ctx(json!({"Mcp-Method":"tools/call","Mcp-Name":"rm_rf","MCP-Protocol-Version":PV})),
    );
    assert_issue(&r, "header-mismatch", "/params/name");
}

#[test]
fn unknown_version_picks_closer_fit() {
    let r = check(
        &json!({"jsonrpc":"2.0","method":"notifications/whatever","params":{"taskId":"t"}}),
        None,
        None,
    );
    assert!(
        r.issues.iter().any(|i| i.code == "version-unknown"),
        "{:?}",
        codes(&r)
    );
}

/// A report lists at most `maxIssues` issues (default 100), then one
/// `issues-truncated` warning counting the rest; `valid` still counts the errors left out.
#[test]
fn issues_per_report_are_capped() {
    let bad_task = json!({"taskId": 1, "status": "nope", "createdAt": "x", "lastUpdatedAt": "y"});
    let list = |n: usize| {
        json!({"jsonrpc": "2.0", "id": 1, "result": {"tasks": vec![bad_task.clone(); n]}})
            .to_string()
    };
    let options = ValidateOptions {
        version: Some(V25),
        in_reply_to: Some("tasks/list".to_string()),
        ..ValidateOptions::default()
    };
    // A few bad tasks: every issue listed, no truncation.
    let few = validate_text(&list(3), &options);
    assert!(!few.valid);
    assert!(few.issues.len() > 3 && few.issues.len() < 100);
    assert!(few.issues.iter().all(|i| i.code != "issues-truncated"));
    let per_task = few.issues.len() / 3;
    // 10,000 bad tasks: the first 100, then the count of the rest.
    let many = validate_text(&list(10_000), &options);
    assert!(!many.valid);
    assert_eq!(many.issues.len(), 101);
    let last = many.issues.last().unwrap();
    assert_eq!(last.code, "issues-truncated");
    assert_eq!(last.severity, mcp_tasks_wasm::validate::Severity::Warning);
    let omitted = 10_000 * per_task - 100;
    assert!(
        last.message
            .starts_with(&format!("{omitted} more issue(s) ({omitted} error(s))")),
        "{}",
        last.message
    );
    assert_eq!(
        many.issues[..100],
        {
            let mut first = validate_text(&list(10_000), &options).issues;
            first.truncate(100);
            first
        }[..]
    );
    // The option lowers (or raises) the cap.
    let five = ValidateOptions {
        max_issues: Some(5),
        ..options.clone()
    };
    let r = validate_text(&list(10_000), &five);
    assert_eq!(r.issues.len(), 6);
    assert_eq!(r.issues[5].code, "issues-truncated");
    let all = ValidateOptions {
        max_issues: Some(1_000_000),
        ..options
    };
    assert_eq!(
        validate_text(&list(1000), &all).issues.len(),
        1000 * per_task
    );
}

/// When the cap is reached by warnings only, errors found later still make
/// the report invalid.
#[test]
fn omitted_errors_still_make_the_report_invalid() {
    let options = ValidateOptions {
        max_issues: Some(1),
        ..ValidateOptions::default()
    };
    // No version told: a version-unknown warning comes first, then the errors.
    let msg = json!({"jsonrpc": "2.0", "id": 1, "result": {"taskId": 5, "status": "working"}});
    let r = validate_text(&msg.to_string(), &options);
    assert_eq!(r.issues.len(), 2, "{:#?}", r.issues);
    assert_eq!(r.issues[0].code, "version-unknown");
    assert_eq!(r.issues[1].code, "issues-truncated");
    assert!(!r.valid);
}

/// A 2025-11-25 request's `params._meta.progressToken` is a string or an
/// integer (schema `ProgressToken`): `{}`, `1.5` and `null` are refused on `tools/call`,
/// `tasks/list` and `sampling/createMessage`.
#[test]
fn v25_progress_token_is_a_string_or_an_integer() {
    let params = |method: &str, token: Value| -> Value {
        let mut p = match method {
            "tools/call" => json!({"name": "t", "arguments": {}}),
            "sampling/createMessage" => json!({"messages": [], "maxTokens": 10}),
            _ => json!({}),
        };
        p["_meta"] = json!({ "progressToken": token });
        json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": p})
    };
    for method in [
        "tools/call",
        "tasks/list",
        "sampling/createMessage",
        "tasks/get",
    ] {
        for bad in [json!({}), json!(1.5), Value::Null, json!([1]), json!(true)] {
            let r = check(&params(method, bad.clone()), Some(V25), None);
            assert_issue(&r, "progress-token", "/params/_meta/progressToken");
            assert!(!r.valid, "{method} {bad}");
        }
        for good in [
            json!("tok"),
            json!(7),
            json!(-3),
            json!(0),
            json!(9_007_199_254_740_993u64),
        ] {
            let r = check(&params(method, good.clone()), Some(V25), None);
            assert!(
                r.issues.iter().all(|i| i.code != "progress-token"),
                "{method} {good}: {:#?}",
                r.issues
            );
        }
    }
    // Detected as 2025-11-25 by its shape (params.task), without options.
    let mut shaped = params("tools/call", json!({}));
    shaped["params"]["task"] = json!({"ttl": 1000});
    let r = check(&shaped, None, None);
    assert_issue(&r, "progress-token", "/params/_meta/progressToken");
}

/// Lone UTF-16 surrogate escapes are JSON (`JSON.parse` and the official schema
/// accept them): never `not-json`.
#[test]
fn lone_surrogates_are_json() {
    let options = ValidateOptions {
        version: Some(V25),
        in_reply_to: Some("tools/call".to_string()),
        ..ValidateOptions::default()
    };
    for text in [
        r"cut \ud83d",
        r"\ude00 alone",
        r"\ud83d\ud83d",
        r"pair \ud83d\ude00",
    ] {
        let msg = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[{{"type":"text","text":"{text}"}}]}}}}"#
        );
        let r = validate_text(&msg, &options);
        assert!(r.valid && r.issues.is_empty(), "{msg}: {:#?}", r.issues);
    }
    // A truncated escape is still not JSON.
    assert_eq!(
        validate_text(r#"{"a":"\ud8"}"#, &options).issues[0].code,
        "not-json"
    );
}
