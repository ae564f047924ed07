//! The conversation checker: healthy histories of both versions, one test per history rule
//! (code and JSON Pointer), and property tests (never panics, always a report).
//!
//! The history rules do not depend on the single-message validator: these tests look only at
//! `history-*` codes and `cancel-terminal`, never at the validator's own findings.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use mcp_tasks_wasm::conversation::{
    Conversation, ConversationOptions, ObserveReport, Sender, TaskEventSource,
};
use mcp_tasks_wasm::model::{ProtocolVersion, TaskStatus};
use mcp_tasks_wasm::validate::report::Issue;
use mcp_tasks_wasm::validate::Severity;
use proptest::prelude::*;
use serde_json::{json, Value};

const V25: &str = "2025-11-25";
const V26: &str = "2026-07-28";

/// The codes the conversation adds (history rules and the V25 cancel of a terminal task).
fn history(r: &ObserveReport) -> Vec<(String, String)> {
    r.issues
        .iter()
        .filter(|i| i.code.starts_with("history-") || i.code == "cancel-terminal")
        .map(|i| (i.code.clone(), i.path.clone()))
        .collect()
}

fn has(r: &ObserveReport, code: &str, path: &str) -> bool {
    r.issues.iter().any(|i| i.code == code && i.path == path)
}

fn issue_of<'a>(r: &'a ObserveReport, code: &str) -> &'a Issue {
    r.issues
        .iter()
        .find(|i| i.code == code)
        .unwrap_or_else(|| panic!("expected {code}, got {:#?}", r.issues))
}

fn assert_issue(r: &ObserveReport, code: &str, path: &str) {
    assert!(
        has(r, code, path),
        "expected {code} at {path:?}, got {:#?}",
        r.issues
    );
}

fn feed(c: &mut Conversation, messages: &[Value]) -> Vec<ObserveReport> {
    messages.iter().map(|m| c.observe(m)).collect()
}

fn no_history_issues(reports: &[ObserveReport]) {
    for r in reports {
        assert!(
            history(r).is_empty(),
            "message {} has history issues: {:#?}",
            r.index,
            r.issues
        );
    }
}

// ---- V25 messages --------------------------------------------------------------------------

fn req(id: Value, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn res(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn err(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn t25(id: &str, status: &str, at: &str) -> Value {
    json!({"taskId": id, "status": status, "createdAt": "2025-11-25T10:30:00Z",
           "lastUpdatedAt": at, "ttl": 60000, "pollInterval": 1000})
}

fn with(mut v: Value, key: &str, value: Value) -> Value {
    if let Some(m) = v.as_object_mut() {
        m.insert(key.to_string(), value);
    }
    v
}

fn v25_create(id: i64, task: &str) -> [Value; 2] {
    [
        req(
            json!(id),
            "tools/call",
            json!({"name": "build", "arguments": {}, "task": {"ttl": 60000}}),
        ),
        res(
            json!(id),
            json!({"task": t25(task, "working", "2025-11-25T10:30:00Z")}),
        ),
    ]
}

fn v25_get(id: i64, task: &str, result: Value) -> [Value; 2] {
    [
        req(json!(id), "tasks/get", json!({"taskId": task})),
        res(json!(id), result),
    ]
}

// ---- V26 messages --------------------------------------------------------------------------

fn meta26(declare: bool) -> Value {
    let caps = if declare {
        json!({"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}})
    } else {
        json!({"elicitation": {}})
    };
    json!({"io.modelcontextprotocol/protocolVersion": V26,
           "io.modelcontextprotocol/clientCapabilities": caps})
}

fn req26(id: i64, method: &str, params: Value) -> Value {
    req(json!(id), method, with(params, "_meta", meta26(true)))
}

fn t26(id: &str, status: &str, at: &str) -> Value {
    json!({"taskId": id, "status": status, "createdAt": "2026-07-28T10:30:00Z",
           "lastUpdatedAt": at, "ttlMs": 60000, "pollIntervalMs": 1000})
}

fn create26(id: &str) -> Value {
    with(
        t26(id, "working", "2026-07-28T10:30:00Z"),
        "resultType",
        json!("task"),
    )
}

fn get26(task: Value) -> Value {
    with(task, "resultType", json!("complete"))
}

fn v26_create(id: i64, task: &str) -> [Value; 2] {
    [
        req26(id, "tools/call", json!({"name": "build", "arguments": {}})),
        res(json!(id), create26(task)),
    ]
}

fn v26_get(id: i64, task: &str, result: Value) -> [Value; 2] {
    [
        req26(id, "tasks/get", json!({"taskId": task})),
        res(json!(id), get26(result)),
    ]
}

fn elicit(message: &str) -> Value {
    json!({"method": "elicitation/create", "params": {"mode": "form", "message": message,
           "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}})
}

fn input_required(id: &str, at: &str, key: &str, request: Value) -> Value {
    with(
        t26(id, "input_required", at),
        "inputRequests",
        json!({ key: request }),
    )
}

fn completed26(id: &str, at: &str, text: &str) -> Value {
    with(
        t26(id, "completed", at),
        "result",
        json!({"content": [{"type": "text", "text": text}], "isError": false}),
    )
}

// ---- healthy histories ---------------------------------------------------------------------

#[test]
fn healthy_v25_history() {
    let mut c = Conversation::default();
    let mut msgs = vec![
        req(
            json!(0),
            "initialize",
            json!({"protocolVersion": V25,
                   "capabilities": {"elicitation": {}, "tasks": {"list": {}, "cancel": {}}},
                   "clientInfo": {"name": "t", "version": "1"}}),
        ),
        res(
            json!(0),
            json!({"protocolVersion": V25,
                   "capabilities": {"tasks": {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}},
                   "serverInfo": {"name": "s", "version": "1"}}),
        ),
    ];
    msgs.extend(v25_create(1, "t1"));
    msgs.extend(v25_get(
        2,
        "t1",
        t25("t1", "working", "2025-11-25T10:30:01Z"),
    ));
    msgs.push(
        json!({"jsonrpc": "2.0", "method": "notifications/tasks/status",
                     "params": t25("t1", "input_required", "2025-11-25T10:30:02Z")}),
    );
    msgs.push(req(json!(3), "tasks/result", json!({"taskId": "t1"})));
    msgs.push(req(
        json!("s1"),
        "elicitation/create",
        json!({"mode": "form", "message": "Name?", "requestedSchema": {"type": "object", "properties": {}},
               "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t1"}}}),
    ));
    msgs.push(res(json!("s1"), json!({"action": "accept", "content": {}})));
    msgs.extend(v25_get(
        4,
        "t1",
        t25("t1", "completed", "2025-11-25T10:30:05Z"),
    ));
    msgs.push(res(
        json!(3),
        json!({"content": [{"type": "text", "text": "ok"}],
               "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t1"}}}),
    ));
    // A second task, cancelled.
    msgs.extend(v25_create(5, "t2"));
    msgs.push(req(json!(6), "tasks/cancel", json!({"taskId": "t2"})));
    msgs.push(res(
        json!(6),
        t25("t2", "cancelled", "2025-11-25T10:30:06Z"),
    ));
    msgs.push(req(json!(7), "tasks/list", json!({})));
    msgs.push(res(
        json!(7),
        json!({"tasks": [t25("t1", "completed", "2025-11-25T10:30:05Z"),
                         t25("t2", "cancelled", "2025-11-25T10:30:06Z")]}),
    ));
    let reports = feed(&mut c, &msgs);
    no_history_issues(&reports);
    assert_eq!(c.version(), Some(ProtocolVersion::V2025));
    assert_eq!(
        reports.get(3).map(|r| r.task_ids.clone()),
        Some(vec!["t1".to_string()])
    );
    // The related-task _meta of the elicitation ties it to t1.
    assert_eq!(
        reports.get(8).map(|r| r.task_ids.clone()),
        Some(vec!["t1".to_string()])
    );

    let tasks = c.tasks();
    assert_eq!(tasks.len(), 2);
    let t1 = &tasks[0];
    assert_eq!(t1.task_id, "t1");
    assert_eq!(t1.version, Some(ProtocolVersion::V2025));
    assert_eq!(t1.final_status, Some(TaskStatus::Completed));
    let statuses: Vec<_> = t1.events.iter().map(|e| (e.source, e.status)).collect();
    assert_eq!(
        statuses,
        vec![
            (TaskEventSource::Create, Some(TaskStatus::Working)),
            (TaskEventSource::Get, Some(TaskStatus::Working)),
            (
                TaskEventSource::Notification,
                Some(TaskStatus::InputRequired)
            ),
            (TaskEventSource::Get, Some(TaskStatus::Completed)),
            (TaskEventSource::Result, None),
            (TaskEventSource::List, Some(TaskStatus::Completed)),
        ]
    );
    assert!(t1.issues.is_empty());
    assert_eq!(tasks[1].final_status, Some(TaskStatus::Cancelled));
}

#[test]
fn healthy_v26_history() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v26_create(1, "t1"));
    msgs.extend(v26_get(
        2,
        "t1",
        t26("t1", "working", "2026-07-28T10:30:01Z"),
    ));
    let ask = input_required("t1", "2026-07-28T10:30:05Z", "name", elicit("Your name?"));
    msgs.extend(v26_get(3, "t1", ask.clone()));
    // The same outstanding request on the next poll is not a reuse.
    msgs.extend(v26_get(4, "t1", ask.clone()));
    msgs.push(req26(
        5,
        "tasks/update",
        json!({"taskId": "t1", "inputResponses": {"name": {"action": "accept", "content": {"name": "Luca"}}}}),
    ));
    msgs.push(res(json!(5), json!({"resultType": "complete"})));
    // Eventually consistent: a stale read right after the ack still shows the key.
    msgs.extend(v26_get(6, "t1", ask));
    msgs.extend(v26_get(
        7,
        "t1",
        t26("t1", "working", "2026-07-28T10:30:08Z"),
    ));
    msgs.push(json!({"jsonrpc": "2.0", "method": "notifications/tasks",
                     "params": completed26("t1", "2026-07-28T10:30:09Z", "done")}));
    msgs.extend(v26_get(
        8,
        "t1",
        completed26("t1", "2026-07-28T10:30:09Z", "done"),
    ));
    // A second task, cancelled cooperatively; a cancel after it ended is acknowledged.
    msgs.extend(v26_create(9, "t2"));
    msgs.push(req26(10, "tasks/cancel", json!({"taskId": "t2"})));
    msgs.push(res(json!(10), json!({"resultType": "complete"})));
    msgs.extend(v26_get(
        11,
        "t2",
        t26("t2", "cancelled", "2026-07-28T10:30:10Z"),
    ));
    msgs.push(req26(12, "tasks/cancel", json!({"taskId": "t2"})));
    msgs.push(res(json!(12), json!({"resultType": "complete"})));
    let reports = feed(&mut c, &msgs);
    no_history_issues(&reports);
    assert_eq!(c.version(), Some(ProtocolVersion::V2026));

    let tasks = c.tasks();
    assert_eq!(tasks.len(), 2);
    let t1 = &tasks[0];
    assert_eq!(t1.final_status, Some(TaskStatus::Completed));
    let statuses: Vec<_> = t1.events.iter().map(|e| e.status).collect();
    use TaskStatus::*;
    assert_eq!(
        statuses,
        vec![
            Some(Working),
            Some(Working),
            Some(InputRequired),
            Some(InputRequired),
            None, // tasks/update
            Some(InputRequired),
            Some(Working),
            Some(Completed),
            Some(Completed),
        ]
    );
    let update = t1
        .events
        .iter()
        .find(|e| e.source == TaskEventSource::Update);
    assert_eq!(
        update.and_then(|e| e.input_keys.clone()),
        Some(vec!["name".to_string()])
    );
    assert_eq!(tasks[1].final_status, Some(Cancelled));
    assert!(tasks[1]
        .events
        .iter()
        .any(|e| e.source == TaskEventSource::Cancel));
}

// ---- one test per history rule -------------------------------------------------------------

#[test]
fn leaves_terminal() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v25_create(1, "t1"));
    msgs.extend(v25_get(
        2,
        "t1",
        t25("t1", "completed", "2025-11-25T10:30:05Z"),
    ));
    msgs.extend(v25_get(
        3,
        "t1",
        t25("t1", "working", "2025-11-25T10:30:06Z"),
    ));
    let r = feed(&mut c, &msgs);
    assert_issue(&r[5], "history-leaves-terminal", "/result/status");
    let t = &c.tasks()[0];
    assert_eq!(t.issues.len(), 1);
    assert!(t.issues[0].message.starts_with("message 5:"));
}

#[test]
fn leaves_terminal_after_tasks_result() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v25_create(1, "t1"));
    msgs.push(req(json!(2), "tasks/result", json!({"taskId": "t1"})));
    msgs.push(res(
        json!(2),
        json!({"content": [], "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t1"}}}),
    ));
    // A notification sent before the task ended may arrive after the tasks/result answer (it
    // travels on another stream): no finding.
    msgs.push(
        json!({"jsonrpc": "2.0", "method": "notifications/tasks/status",
                     "params": t25("t1", "working", "2025-11-25T10:30:06Z")}),
    );
    // The answer to a tasks/get sent after the tasks/result answer cannot have been overtaken.
    msgs.extend(v25_get(
        3,
        "t1",
        t25("t1", "working", "2025-11-25T10:30:06Z"),
    ));
    let r = feed(&mut c, &msgs);
    assert!(history(&r[4]).is_empty(), "{:#?}", r[4].issues);
    assert_issue(&r[6], "history-leaves-terminal", "/result/status");
}

#[test]
fn created_at_changed() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v26_create(1, "t1"));
    let moved = with(
        t26("t1", "working", "2026-07-28T10:30:01Z"),
        "createdAt",
        json!("2026-07-28T10:29:00Z"),
    );
    msgs.extend(v26_get(2, "t1", moved));
    // The same instant written with another offset is no change.
    let same = with(
        t26("t1", "working", "2026-07-28T10:30:02Z"),
        "createdAt",
        json!("2026-07-28T12:30:00+02:00"),
    );
    msgs.extend(v26_get(3, "t1", same));
    let r = feed(&mut c, &msgs);
    assert_issue(&r[3], "history-created-at-changed", "/result/createdAt");
    assert!(history(&r[5]).is_empty(), "{:#?}", r[5].issues);
}

#[test]
fn last_updated_backwards_compares_instants() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v25_create(1, "t1"));
    msgs.extend(v25_get(
        2,
        "t1",
        t25("t1", "working", "2025-11-25T10:30:10Z"),
    ));
    // 11:30:05+01:00 is 10:30:05Z: earlier, although the string sorts later.
    msgs.extend(v25_get(
        3,
        "t1",
        t25("t1", "working", "2025-11-25T11:30:05+01:00"),
    ));
    // 09:30:20-01:00 is 10:30:20Z: later, although the string sorts earlier.
    msgs.extend(v25_get(
        4,
        "t1",
        t25("t1", "working", "2025-11-25T09:30:20-01:00"),
    ));
    let r = feed(&mut c, &msgs);
    assert_issue(
        &r[5],
        "history-last-updated-backwards",
        "/result/lastUpdatedAt",
    );
    // Never stated by the spec: a warning that names its §E entry.
    let issue = issue_of(&r[5], "history-last-updated-backwards");
    assert_eq!(issue.severity, Severity::Warning);
    assert!(issue.message.contains("(§E 18: "), "{}", issue.message);
    assert!(r[5].valid);
    assert!(history(&r[7]).is_empty(), "{:#?}", r[7].issues);
}

#[test]
fn terminal_result_changed() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v26_create(1, "t1"));
    msgs.extend(v26_get(
        2,
        "t1",
        completed26("t1", "2026-07-28T10:30:05Z", "42"),
    ));
    msgs.extend(v26_get(
        3,
        "t1",
        completed26("t1", "2026-07-28T10:30:05Z", "43"),
    ));
    let r = feed(&mut c, &msgs);
    assert_issue(&r[5], "history-terminal-payload-changed", "/result/result");
}

#[test]
fn terminal_error_and_status_message_changed() {
    let mut c = Conversation::default();
    let failed = |code: i64, msg: &str| {
        let t = with(
            t26("t1", "failed", "2026-07-28T10:30:05Z"),
            "error",
            json!({"code": code, "message": "boom"}),
        );
        with(t, "statusMessage", json!(msg))
    };
    let mut msgs = Vec::new();
    msgs.extend(v26_create(1, "t1"));
    msgs.extend(v26_get(2, "t1", failed(-32603, "rate limited")));
    msgs.extend(v26_get(3, "t1", failed(-32000, "rate limited")));
    msgs.push(json!({"jsonrpc": "2.0", "method": "notifications/tasks", "params": failed(-32603, "other")}));
    let r = feed(&mut c, &msgs);
    assert_issue(&r[5], "history-terminal-payload-changed", "/result/error");
    assert_issue(
        &r[6],
        "history-terminal-payload-changed",
        "/params/statusMessage",
    );
}

#[test]
fn v25_tasks_result_payload_changed() {
    let mut c = Conversation::default();
    let meta = json!({"io.modelcontextprotocol/related-task": {"taskId": "t1"}});
    let mut msgs = Vec::new();
    msgs.extend(v25_create(1, "t1"));
    msgs.push(req(json!(2), "tasks/result", json!({"taskId": "t1"})));
    msgs.push(res(
        json!(2),
        json!({"content": [{"type": "text", "text": "a"}], "_meta": meta}),
    ));
    msgs.push(req(json!(3), "tasks/result", json!({"taskId": "t1"})));
    msgs.push(res(
        json!(3),
        json!({"content": [{"type": "text", "text": "b"}], "_meta": meta}),
    ));
    msgs.push(req(json!(4), "tasks/result", json!({"taskId": "t1"})));
    msgs.push(err(json!(4), -32603, "tool crashed"));
    // An expired task (-32602) is not a new outcome.
    msgs.push(req(json!(5), "tasks/result", json!({"taskId": "t1"})));
    msgs.push(err(json!(5), -32602, "Task has expired"));
    let r = feed(&mut c, &msgs);
    assert!(history(&r[3]).is_empty());
    assert_issue(&r[5], "history-terminal-payload-changed", "/result");
    assert_issue(&r[7], "history-terminal-payload-changed", "/error");
    assert!(history(&r[9]).is_empty());
}

#[test]
fn input_key_reused_for_another_request() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v26_create(1, "t1"));
    msgs.extend(v26_get(
        2,
        "t1",
        input_required("t1", "2026-07-28T10:30:05Z", "q", elicit("Name?")),
    ));
    msgs.extend(v26_get(
        3,
        "t1",
        input_required("t1", "2026-07-28T10:30:06Z", "q", elicit("Age?")),
    ));
    let r = feed(&mut c, &msgs);
    assert_issue(&r[5], "history-input-key-reused", "/result/inputRequests/q");
}

#[test]
fn input_key_reissued_after_answer() {
    let mut c = Conversation::default();
    let ask = |at: &str| input_required("t1", at, "a/b", elicit("Name?"));
    let mut msgs = Vec::new();
    msgs.extend(v26_create(1, "t1"));
    msgs.extend(v26_get(2, "t1", ask("2026-07-28T10:30:05Z")));
    msgs.push(req26(
        3,
        "tasks/update",
        json!({"taskId": "t1", "inputResponses": {"a/b": {"action": "decline"}}}),
    ));
    msgs.push(res(json!(3), json!({"resultType": "complete"})));
    msgs.extend(v26_get(4, "t1", ask("2026-07-28T10:30:05Z"))); // stale read: fine
    msgs.extend(v26_get(5, "t1", ask("2026-07-28T10:30:09Z"))); // re-issued later: reuse
    let r = feed(&mut c, &msgs);
    assert!(history(&r[7]).is_empty(), "{:#?}", r[7].issues);
    assert_issue(
        &r[9],
        "history-input-key-reused",
        "/result/inputRequests/a~1b",
    );
}

#[test]
fn failed_update_does_not_count_as_answer() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v26_create(1, "t1"));
    msgs.extend(v26_get(
        2,
        "t1",
        input_required("t1", "2026-07-28T10:30:05Z", "q", elicit("Name?")),
    ));
    msgs.push(req26(
        3,
        "tasks/update",
        json!({"taskId": "t1", "inputResponses": {"q": {"action": "cancel"}}}),
    ));
    msgs.push(err(json!(3), -32603, "store unavailable"));
    msgs.extend(v26_get(
        4,
        "t1",
        input_required("t1", "2026-07-28T10:30:09Z", "q", elicit("Name?")),
    ));
    let r = feed(&mut c, &msgs);
    assert!(history(&r[7]).is_empty(), "{:#?}", r[7].issues);
}

#[test]
fn v25_cancel_of_terminal_task() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v25_create(1, "t1"));
    msgs.extend(v25_get(
        2,
        "t1",
        t25("t1", "completed", "2025-11-25T10:30:05Z"),
    ));
    msgs.push(req(json!(3), "tasks/cancel", json!({"taskId": "t1"})));
    msgs.push(res(
        json!(3),
        t25("t1", "cancelled", "2025-11-25T10:30:06Z"),
    ));
    let r = feed(&mut c, &msgs);
    assert_issue(&r[5], "cancel-terminal", "/result");
    // One finding, not two: leaving the terminal status is the same fact.
    assert!(!r[5]
        .issues
        .iter()
        .any(|i| i.code == "history-leaves-terminal"));
    // The non-cancelled status of a cancel answer is the validator's `cancel-status`.
    assert!(!r[5].issues.iter().any(|i| i.code.starts_with("history-")));
}

#[test]
fn v26_cancel_of_terminal_task_is_acknowledged() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v26_create(1, "t1"));
    msgs.extend(v26_get(
        2,
        "t1",
        completed26("t1", "2026-07-28T10:30:05Z", "ok"),
    ));
    msgs.push(req26(3, "tasks/cancel", json!({"taskId": "t1"})));
    msgs.push(res(json!(3), json!({"resultType": "complete"})));
    no_history_issues(&feed(&mut c, &msgs));
}

#[test]
fn version_switch() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v26_create(1, "t1"));
    msgs.push(req26(
        2,
        "tools/call",
        json!({"name": "build", "arguments": {}}),
    ));
    msgs.push(res(
        json!(2),
        json!({"task": t25("t2", "working", "2025-11-25T10:30:00Z")}),
    ));
    let r = feed(&mut c, &msgs);
    assert_issue(&r[3], "history-version-switch", "/result/task");
    // The task is still followed.
    assert_eq!(c.tasks().len(), 2);
}

#[test]
fn initialize_after_a_refused_discover_negotiates_2025() {
    // TaskClient.connect against a 2025-11-25-only server (Python mcp 1.30, SDK 1.32.2): it probes
    // 2026-07-28 with server/discover, is refused (here with an id the server made up), and
    // falls back to initialize. No version switch: the conversation speaks 2025-11-25 from then.
    let mut c = Conversation::default();
    let mut msgs = vec![
        req26(1, "server/discover", json!({})),
        err(
            json!("server-error"),
            -32600,
            "Bad Request: Missing session ID",
        ),
        req(
            json!(2),
            "initialize",
            json!({"protocolVersion": V25, "capabilities": {"tasks": {}}, "clientInfo": {"name": "c", "version": "1"}}),
        ),
        res(
            json!(2),
            json!({"protocolVersion": V25, "capabilities": {"tasks": {"requests": {"tools": {"call": {}}}}}, "serverInfo": {"name": "s", "version": "1"}}),
        ),
    ];
    msgs.extend(v25_create(3, "t1"));
    let reports = feed(&mut c, &msgs);
    // The made-up id pairs with nothing: a warning, no more.
    assert_eq!(
        issue_of(&reports[1], "history-unmatched-response").severity,
        Severity::Warning
    );
    no_history_issues(&reports[2..]);
    assert_eq!(c.version(), Some(ProtocolVersion::V2025));
    for r in &reports[2..] {
        assert!(
            r.issues.iter().all(|i| i.severity != Severity::Error),
            "{:#?}",
            r.issues
        );
    }
    // A version the options fix is not renegotiated.
    let mut fixed = Conversation::new(ConversationOptions {
        version: Some(ProtocolVersion::V2026),
        ..ConversationOptions::default()
    });
    let r = fixed.observe(&msgs[2]);
    assert_issue(&r, "history-version-switch", "/params/protocolVersion");
}

#[test]
fn fixed_version_switch_on_first_message() {
    let mut c = Conversation::new(ConversationOptions {
        version: Some(ProtocolVersion::V2026),
        ..ConversationOptions::default()
    });
    let r = c.observe(&req(json!(1), "tasks/list", json!({})));
    assert_issue(&r, "history-version-switch", "/method");
}

/// §C negotiation: a client that does not know the server probes with `server/discover`
/// (2026-07-28) and, refused, falls back to `initialize` (2025-11-25), as `TaskClient.connect`
/// does with a 2025-11-25 server (server-everything answers the probe with an error whose id is
/// null): the conversation is 2025-11-25, no switch and no 2026-07-28 findings after it.
#[test]
fn discover_probe_then_initialize_is_2025() {
    for refusal in [
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32000, "message": "Bad Request: Server not initialized"}}),
        err(json!(1), -32022, "Unsupported protocol version"),
    ] {
        let mut c = Conversation::default();
        let mut msgs = vec![
            req26(1, "server/discover", json!({})),
            refusal,
            req(
                json!(2),
                "initialize",
                json!({"protocolVersion": V25, "capabilities": {"tasks": {}},
                       "clientInfo": {"name": "c", "version": "1"}}),
            ),
            res(
                json!(2),
                json!({"protocolVersion": V25, "capabilities": {"tasks": {"requests": {"tools": {"call": {}}}}},
                       "serverInfo": {"name": "s", "version": "1"}}),
            ),
        ];
        msgs.extend(v25_create(3, "t1"));
        msgs.extend(v25_get(
            4,
            "t1",
            t25("t1", "completed", "2025-11-25T10:31:00Z"),
        ));
        let r = feed(&mut c, &msgs);
        no_history_issues(&r);
        for report in &r[2..] {
            assert!(
                report.issues.iter().all(|i| i.severity != Severity::Error),
                "message {}: {:#?}",
                report.index,
                report.issues
            );
        }
        assert_eq!(c.version(), Some(ProtocolVersion::V2025));
    }
}

/// Once 2026-07-28 is confirmed (the probe answered, or a 2026-07-28 request after it), an
/// `initialize` is a switch.
#[test]
fn discover_confirmed_then_initialize_switches() {
    let init = req(
        json!(9),
        "initialize",
        json!({"protocolVersion": V25, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}),
    );
    let answered = [
        req26(1, "server/discover", json!({})),
        res(
            json!(1),
            json!({"resultType": "complete", "supportedVersions": [V26],
                   "capabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}},
                   "serverInfo": {"name": "s", "version": "1"}}),
        ),
        init.clone(),
    ];
    let r = feed(&mut Conversation::default(), &answered);
    assert_issue(&r[2], "history-version-switch", "/params/protocolVersion");
    let mut followed = vec![req26(1, "server/discover", json!({}))];
    followed.extend(v26_create(2, "t1"));
    followed.push(init);
    let r = feed(&mut Conversation::default(), &followed);
    assert_issue(&r[3], "history-version-switch", "/params/protocolVersion");
}

#[test]
fn create_task_undeclared() {
    let mut c = Conversation::default();
    let call = req(
        json!(1),
        "tools/call",
        json!({"name": "build", "arguments": {}, "_meta": meta26(false)}),
    );
    let r = feed(&mut c, &[call, res(json!(1), create26("t1"))]);
    assert_issue(
        &r[1],
        "history-create-task-undeclared",
        "/result/resultType",
    );
    // An earlier declaration counts for nothing (§B.e).
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v26_create(1, "t1"));
    msgs.push(req(
        json!(2),
        "tools/call",
        json!({"name": "b", "arguments": {}, "_meta": meta26(false)}),
    ));
    msgs.push(res(json!(2), create26("t2")));
    let r = feed(&mut c, &msgs);
    assert!(history(&r[1]).is_empty());
    assert_issue(
        &r[3],
        "history-create-task-undeclared",
        "/result/resultType",
    );
}

#[test]
fn task_id_mismatch() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v25_create(1, "t1"));
    msgs.extend(v25_create(2, "t2"));
    msgs.extend(v25_get(
        3,
        "t1",
        t25("t2", "working", "2025-11-25T10:30:01Z"),
    ));
    let r = feed(&mut c, &msgs);
    assert_issue(&r[5], "history-task-id-mismatch", "/result/taskId");
}

#[test]
fn unknown_task() {
    let mut c = Conversation::default();
    let r = feed(
        &mut c,
        &[
            req(json!(1), "tasks/get", json!({"taskId": "ghost"})),
            err(json!(1), -32602, "Task not found"),
            req(json!(2), "tasks/get", json!({"taskId": "ghost"})),
        ],
    );
    assert_issue(&r[0], "history-unknown-task", "/params/taskId");
    assert_eq!(
        r[0].issues
            .iter()
            .find(|i| i.code == "history-unknown-task")
            .map(|i| i.severity),
        Some(Severity::Warning)
    );
    // Once per task id.
    assert!(history(&r[2]).is_empty());
    assert_eq!(r[1].task_ids, vec!["ghost".to_string()]);
}

// A client that follows again, after a restart, a task created before the conversation began
// (§D 104) says so with `known_task`: its requests and the notifications about it are then not
// `history-unknown-task`, in both versions; the rules about the task still apply.
#[test]
fn known_task_created_before_the_conversation() {
    let mut c = Conversation::default();
    assert!(c.known_task("old"));
    let r = feed(
        &mut c,
        &v25_get(1, "old", t25("old", "working", "2025-11-25T10:30:02Z")),
    );
    no_history_issues(&r);
    let r = c.observe(&status25(t25("old", "completed", "2025-11-25T10:30:03Z")));
    assert!(history(&r).is_empty(), "{:#?}", r.issues);
    let t = &c.tasks()[0];
    assert_eq!(t.task_id, "old");
    assert!(t.issues.is_empty(), "{:#?}", t.issues);
    assert_eq!(t.final_status, Some(TaskStatus::Completed));
    // The history rules still hold for it: a terminal task does not leave its status.
    let r = feed(
        &mut c,
        &v25_get(2, "old", t25("old", "working", "2025-11-25T10:30:04Z")),
    );
    assert!(
        r[1].issues
            .iter()
            .any(|i| i.code == "history-leaves-terminal"),
        "{:#?}",
        r[1].issues
    );
    // Any other id is still unknown; telling twice changes nothing.
    assert!(c.known_task("old"));
    let r = feed(
        &mut c,
        &v25_get(3, "ghost", t25("ghost", "working", "2025-11-25T10:30:05Z")),
    );
    assert_issue(&r[0], "history-unknown-task", "/params/taskId");

    let mut c = Conversation::default();
    assert!(c.known_task("t26"));
    let r = feed(
        &mut c,
        &v26_get(1, "t26", t26("t26", "working", "2026-07-28T10:30:02Z")),
    );
    no_history_issues(&r);

    // An id over maxIdBytes is not remembered; maxTasks bounds them like any task.
    let mut c = Conversation::new(ConversationOptions {
        max_id_bytes: Some(8),
        max_tasks: Some(2),
        ..ConversationOptions::default()
    });
    assert!(!c.known_task("longer-than-eight"));
    assert!(c.tasks().is_empty());
    for id in ["a", "b", "c"] {
        assert!(c.known_task(id));
    }
    let ids: Vec<_> = c.tasks().into_iter().map(|t| t.task_id).collect();
    assert_eq!(ids, vec!["b".to_string(), "c".to_string()]);
    let r = c.observe(&req(json!(1), "ping", json!({})));
    assert!(
        r.issues.iter().any(|i| i.code == "history-bound"),
        "{:#?}",
        r.issues
    );
}

#[test]
fn unmatched_response() {
    let mut c = Conversation::default();
    let r = c.observe(&res(json!(99), json!({"content": []})));
    assert_issue(&r, "history-unmatched-response", "/id");
    // A null id (an error about an unreadable request) is not unmatched.
    let r = c.observe(
        &json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}}),
    );
    assert!(history(&r).is_empty());
}

#[test]
fn duplicate_request_id_and_distinct_id_types() {
    let mut c = Conversation::default();
    let r = feed(
        &mut c,
        &[
            req(json!(1), "tools/list", json!({})),
            req(json!("1"), "tools/list", json!({})),
            req(json!(1), "tools/list", json!({})),
            res(json!("1"), json!({"tools": []})),
            res(json!(1), json!({"tools": []})),
            res(json!(1), json!({"tools": []})),
        ],
    );
    assert!(
        history(&r[1]).is_empty(),
        "string and number ids are distinct"
    );
    assert_issue(&r[2], "history-duplicate-request-id", "/id");
    assert!(history(&r[3]).is_empty());
    assert!(history(&r[4]).is_empty());
    assert_issue(&r[5], "history-unmatched-response", "/id");
}

#[test]
fn responses_carry_the_method_they_answer() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v26_get(
        1,
        "t1",
        t26("t1", "working", "2026-07-28T10:30:01Z"),
    ));
    let r = feed(&mut c, &msgs);
    assert_eq!(r[1].method.as_deref(), Some("tasks/get"));
    assert_eq!(r[1].index, 1);
}

#[test]
fn observe_text_reports_bad_json() {
    let mut c = Conversation::default();
    let r = c.observe_text("{not json");
    assert!(!r.valid);
    assert_eq!(r.index, 0);
    assert!(r.issues.iter().any(|i| i.code == "not-json"));
    let r =
        c.observe_text(r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"x"}}"#);
    assert_eq!(r.index, 1);
}

#[test]
fn reports_serialize_camel_case() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v26_create(1, "t1"));
    let r = feed(&mut c, &msgs);
    let v = serde_json::to_value(&r[1]).unwrap();
    assert!(v.get("taskIds").is_some() && v.get("versionSource").is_some());
    let t = serde_json::to_value(c.tasks()).unwrap();
    assert_eq!(t[0]["taskId"], json!("t1"));
    assert_eq!(t[0]["finalStatus"], json!("working"));
    assert_eq!(t[0]["events"][0]["source"], json!("create"));
    assert_eq!(t[0]["events"][0]["at"], json!("2026-07-28T10:30:00Z"));
}

// ---- messages overtake each other ----------------------------------------------------------

fn status25(task: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/tasks/status", "params": task})
}

fn status26(task: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/tasks", "params": task})
}

fn call25(id: i64) -> Value {
    req(
        json!(id),
        "tools/call",
        json!({"name": "build", "arguments": {}, "task": {"ttl": 60000}}),
    )
}

fn statuses(t: &mcp_tasks_wasm::conversation::TaskTimeline) -> Vec<Option<TaskStatus>> {
    t.events.iter().map(|e| e.status).collect()
}

// The TypeScript SDK's HTTP transport: the status notification of a new task can arrive before
// the CreateTaskResult that names it; even a fast task's `completed` can.
#[test]
fn v25_status_notification_overtakes_create_task_result() {
    use TaskStatus::*;
    for (seen_first, at) in [
        (Working, "2025-11-25T10:30:00Z"), // same instant as the creation
        (Working, "2025-11-25T10:30:01Z"),
        (Completed, "2025-11-25T10:30:02Z"),
        // A fast task ends within the millisecond of its creation: only the order of the
        // task's life tells the creation came first.
        (Completed, "2025-11-25T10:30:00Z"),
    ] {
        let mut c = Conversation::default();
        let mut msgs = vec![
            call25(1),
            status25(t25("t1", seen_first.as_str(), at)),
            res(
                json!(1),
                json!({"task": t25("t1", "working", "2025-11-25T10:30:00Z")}),
            ),
        ];
        msgs.extend(v25_get(
            2,
            "t1",
            t25("t1", "completed", "2025-11-25T10:30:03Z"),
        ));
        let r = feed(&mut c, &msgs);
        no_history_issues(&r);
        assert!(r.iter().all(|r| r.valid), "{seen_first:?}: {r:#?}");
        let t = &c.tasks()[0];
        assert!(t.issues.is_empty(), "{:#?}", t.issues);
        assert_eq!(
            statuses(t),
            vec![Some(seen_first), Some(Working), Some(Completed)]
        );
        assert_eq!(t.events[1].source, TaskEventSource::Create);
        assert_eq!(t.final_status, Some(Completed));
    }
}

#[test]
fn v26_status_notification_overtakes_create_task_result() {
    let mut c = Conversation::default();
    let mut msgs = vec![
        req26(1, "tools/call", json!({"name": "build", "arguments": {}})),
        status26(completed26("t1", "2026-07-28T10:30:01Z", "done")),
        res(json!(1), create26("t1")),
    ];
    msgs.extend(v26_get(
        2,
        "t1",
        completed26("t1", "2026-07-28T10:30:01Z", "done"),
    ));
    let r = feed(&mut c, &msgs);
    no_history_issues(&r);
    let t = &c.tasks()[0];
    assert!(t.issues.is_empty(), "{:#?}", t.issues);
    // The overtaken creation is on the timeline but is not the current status.
    assert_eq!(t.final_status, Some(TaskStatus::Completed));
}

// A tasks/get answered before the task ended arrives after the notification of its end.
#[test]
fn overtaken_snapshot_is_not_current_and_does_not_leave_terminal() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v25_create(1, "t1"));
    msgs.push(req(json!(2), "tasks/get", json!({"taskId": "t1"})));
    msgs.push(status25(t25("t1", "completed", "2025-11-25T10:30:05Z")));
    msgs.push(res(json!(2), t25("t1", "working", "2025-11-25T10:30:03Z")));
    let r = feed(&mut c, &msgs);
    no_history_issues(&r);
    assert_eq!(c.tasks()[0].final_status, Some(TaskStatus::Completed));
}

// The answer to a request sent after `completed` was seen cannot have been overtaken: an older
// stamp is a stale read (a warning naming §E 18), not a task leaving its terminal status.
#[test]
fn stale_read_after_terminal_is_a_warning() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v25_create(1, "t1"));
    msgs.push(status25(t25("t1", "completed", "2025-11-25T10:30:05Z")));
    msgs.extend(v25_get(
        2,
        "t1",
        t25("t1", "working", "2025-11-25T10:30:03Z"),
    ));
    let r = feed(&mut c, &msgs);
    assert_eq!(
        history(&r[4]),
        vec![(
            "history-last-updated-backwards".to_string(),
            "/result/lastUpdatedAt".to_string()
        )]
    );
    assert!(r[4].valid);
    assert!(issue_of(&r[4], "history-last-updated-backwards")
        .message
        .contains("§E 18"));
    assert_eq!(c.tasks()[0].final_status, Some(TaskStatus::Completed));
}

// Stamped at the same instant as the terminal snapshot or later: the task left it, in whichever
// order the two arrived.
#[test]
fn leaving_terminal_is_judged_on_the_task_clock() {
    // Same instant, arriving after: leaves.
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v25_create(1, "t1"));
    msgs.push(req(json!(2), "tasks/get", json!({"taskId": "t1"})));
    msgs.push(status25(t25("t1", "completed", "2025-11-25T10:30:05Z")));
    msgs.push(res(json!(2), t25("t1", "working", "2025-11-25T10:30:05Z")));
    let r = feed(&mut c, &msgs);
    assert_issue(&r[4], "history-leaves-terminal", "/result/status");

    // A later working arrived first, the earlier completed second: leaves, reported on the
    // terminal snapshot, naming the message that showed the later status.
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v25_create(1, "t1"));
    msgs.push(req(json!(2), "tasks/get", json!({"taskId": "t1"})));
    msgs.push(status25(t25("t1", "working", "2025-11-25T10:30:07Z")));
    msgs.push(res(
        json!(2),
        t25("t1", "completed", "2025-11-25T10:30:05Z"),
    ));
    let r = feed(&mut c, &msgs);
    assert_issue(&r[4], "history-leaves-terminal", "/result/status");
    let m = &issue_of(&r[4], "history-leaves-terminal").message;
    assert!(m.contains("message 3"), "{m}");
    // Two different terminal statuses never both hold, whatever their stamps.
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v25_create(1, "t1"));
    msgs.push(req(json!(2), "tasks/get", json!({"taskId": "t1"})));
    msgs.push(status25(t25("t1", "failed", "2025-11-25T10:30:07Z")));
    msgs.push(res(
        json!(2),
        t25("t1", "completed", "2025-11-25T10:30:05Z"),
    ));
    let r = feed(&mut c, &msgs);
    assert_issue(&r[4], "history-leaves-terminal", "/result/status");
}

// A CreateTaskResult answering a request sent after its task id was seen was not overtaken: a
// server reusing the id of a completed task shows the task leaving `completed`.
#[test]
fn create_task_result_after_the_task_was_seen_is_judged() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v25_create(1, "t1"));
    msgs.extend(v25_get(
        2,
        "t1",
        t25("t1", "completed", "2025-11-25T10:30:05Z"),
    ));
    msgs.push(call25(3));
    msgs.push(res(
        json!(3),
        json!({"task": t25("t1", "working", "2025-11-25T10:30:06Z")}),
    ));
    let r = feed(&mut c, &msgs);
    assert_issue(&r[5], "history-leaves-terminal", "/result/task/status");
}

// A V25 cancel answered while the task's `completed` was on its way, stamped before it: the
// task was cancelled first and then shown completed, which is leaving `cancelled`.
#[test]
fn v25_cancel_overtaken_by_the_end_of_the_task() {
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v25_create(1, "t1"));
    msgs.push(req(json!(2), "tasks/cancel", json!({"taskId": "t1"})));
    msgs.push(status25(t25("t1", "completed", "2025-11-25T10:30:06Z")));
    msgs.push(res(
        json!(2),
        t25("t1", "cancelled", "2025-11-25T10:30:05Z"),
    ));
    let r = feed(&mut c, &msgs);
    assert!(
        !has(&r[4], "cancel-terminal", "/result"),
        "{:#?}",
        r[4].issues
    );
    assert_issue(&r[4], "history-leaves-terminal", "/result/status");
}

// A notification about a task no CreateTaskResult named yet: the judgement is held on the
// timeline, never put in the notification's report, and dropped once a CreateTaskResult names
// the task. A request about a task nothing named is reported at once.
#[test]
fn unknown_task_from_a_notification_is_held_on_the_timeline() {
    let mut c = Conversation::default();
    c.observe(&call25(1));
    let r = c.observe(&status25(t25("t9", "working", "2025-11-25T10:30:01Z")));
    assert!(history(&r).is_empty(), "{:#?}", r.issues);
    let held = |c: &Conversation| {
        c.tasks()[0]
            .issues
            .iter()
            .filter(|i| i.code == "history-unknown-task")
            .map(|i| (i.severity, i.path.clone(), i.message.clone()))
            .collect::<Vec<_>>()
    };
    let h = held(&c);
    assert_eq!(h.len(), 1);
    assert_eq!(h[0].0, Severity::Warning);
    assert_eq!(h[0].1, "/params/taskId");
    assert!(h[0].2.starts_with("message 1:"), "{}", h[0].2);
    // A tasks/get of the id the client learned from the notification is not unknown.
    let r = feed(
        &mut c,
        &v25_get(2, "t9", t25("t9", "working", "2025-11-25T10:30:02Z")),
    );
    no_history_issues(&r);
    assert_eq!(held(&c).len(), 1);
    // The CreateTaskResult that was overtaken.
    let r = c.observe(&res(
        json!(1),
        json!({"task": t25("t9", "working", "2025-11-25T10:30:00Z")}),
    ));
    assert!(history(&r).is_empty(), "{:#?}", r.issues);
    assert!(held(&c).is_empty());
    assert!(c.tasks()[0].issues.is_empty());
}

// ---- rules across messages: §D 30, 41, 90 ---------------------------------------------------

fn related(task: &str) -> Value {
    json!({"io.modelcontextprotocol/related-task": {"taskId": task}})
}

fn v25_result(id: i64, task: &str, result: Value) -> [Value; 2] {
    [
        req(json!(id), "tasks/result", json!({"taskId": task})),
        res(json!(id), with(result, "_meta", related(task))),
    ]
}

// Python mcp 1.30 answers tasks/result of a failed tool task with `_meta` alone.
#[test]
fn empty_task_result() {
    let failed = t25("t1", "failed", "2025-11-25T10:30:05Z");
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v25_create(1, "t1"));
    msgs.extend(v25_get(2, "t1", failed.clone()));
    msgs.extend(v25_result(3, "t1", json!({})));
    let r = feed(&mut c, &msgs);
    assert_issue(&r[5], "history-empty-task-result", "/result");
    assert!(!r[5].valid);
    assert_eq!(c.tasks()[0].issues.len(), 1);

    // A tools/call task: a result without `content` is no CallToolResult, whatever the status.
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v25_create(1, "t1"));
    msgs.extend(v25_result(2, "t1", json!({"structuredContent": {"x": 1}})));
    let r = feed(&mut c, &msgs);
    assert_issue(&r[3], "history-empty-task-result", "/result");

    // Legal answers: a CallToolResult (isError or not), the JSON-RPC error.
    for answer in [
        json!({"content": [{"type": "text", "text": "boom"}], "isError": true}),
        json!({"content": []}),
    ] {
        let mut c = Conversation::default();
        let mut msgs = Vec::new();
        msgs.extend(v25_create(1, "t1"));
        msgs.extend(v25_get(2, "t1", failed.clone()));
        msgs.extend(v25_result(3, "t1", answer));
        no_history_issues(&feed(&mut c, &msgs));
    }
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v25_create(1, "t1"));
    msgs.extend(v25_get(2, "t1", failed.clone()));
    msgs.push(req(json!(3), "tasks/result", json!({"taskId": "t1"})));
    msgs.push(err(json!(3), -32603, "tool crashed"));
    no_history_issues(&feed(&mut c, &msgs));

    // A task whose request the conversation did not see (its notification came first): only a
    // failed task's answer with neither content nor isError is judged, when the failure is seen
    // before or after the answer.
    let mut c = Conversation::default();
    let mut msgs = vec![status25(failed.clone())];
    msgs.extend(v25_result(1, "t1", json!({})));
    let r = feed(&mut c, &msgs);
    assert_issue(&r[2], "history-empty-task-result", "/result");
    let mut c = Conversation::default();
    let mut msgs = vec![status25(t25("t1", "working", "2025-11-25T10:30:01Z"))];
    msgs.extend(v25_result(1, "t1", json!({})));
    msgs.extend(v25_get(2, "t1", failed.clone()));
    let r = feed(&mut c, &msgs);
    assert!(history(&r[2]).is_empty(), "{:#?}", r[2].issues);
    assert_issue(&r[4], "history-empty-task-result", "/result/status");
    let mut c = Conversation::default();
    let mut msgs = vec![status25(t25("t1", "completed", "2025-11-25T10:30:05Z"))];
    msgs.extend(v25_result(1, "t1", json!({"action": "accept"})));
    no_history_issues(&feed(&mut c, &msgs));

    // A cancelled task's tasks/result is undefined (§E 16): not judged.
    let mut c = Conversation::default();
    let mut msgs = Vec::new();
    msgs.extend(v25_create(1, "t1"));
    msgs.push(req(json!(2), "tasks/cancel", json!({"taskId": "t1"})));
    msgs.push(res(
        json!(2),
        t25("t1", "cancelled", "2025-11-25T10:30:05Z"),
    ));
    msgs.extend(v25_result(3, "t1", json!({})));
    no_history_issues(&feed(&mut c, &msgs));
}

fn tools_list(id: i64) -> [Value; 2] {
    [
        req(json!(id), "tools/list", json!({})),
        res(
            json!(id),
            json!({"tools": [
                {"name": "research", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "required"}},
                {"name": "echo", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "forbidden"}},
                {"name": "add", "inputSchema": {"type": "object"}},
                {"name": "slow", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}}
            ]}),
        ),
    ]
}

fn plain_call(id: i64, tool: &str) -> Value {
    req(
        json!(id),
        "tools/call",
        json!({"name": tool, "arguments": {}}),
    )
}

fn task_call(id: i64, tool: &str) -> Value {
    req(
        json!(id),
        "tools/call",
        json!({"name": tool, "arguments": {}, "task": {"ttl": 60000}}),
    )
}

fn with_tools(more: &[Value]) -> Vec<ObserveReport> {
    let mut c = Conversation::default();
    let mut msgs = tools_list(0).to_vec();
    msgs.extend_from_slice(more);
    feed(&mut c, &msgs)
}

#[test]
fn required_tool_called_without_a_task() {
    // SDK 1.32.2 answers an isError result "requires task augmentation".
    let r = with_tools(&[
        plain_call(1, "research"),
        res(
            json!(1),
            json!({"content": [{"type": "text", "text": "Tool research requires task augmentation"}], "isError": true}),
        ),
        plain_call(2, "research"),
        err(json!(2), -32602, "requires task augmentation"),
    ]);
    assert_issue(&r[3], "history-required-tool-answered", "/result");
    assert_eq!(
        issue_of(&r[3], "history-required-tool-answered").severity,
        Severity::Error
    );
    assert_issue(&r[5], "history-required-tool-answered", "/error/code");
    // -32601 (and -32600, §E 11) are the answers; other tools and task calls are not judged.
    let r = with_tools(&[
        plain_call(1, "research"),
        err(json!(1), -32601, "Method not found"),
        plain_call(2, "research"),
        err(json!(2), -32600, "Invalid request"),
        plain_call(3, "slow"),
        res(json!(3), json!({"content": []})),
        plain_call(4, "unlisted"),
        res(json!(4), json!({"content": [], "isError": true})),
        task_call(5, "research"),
        res(
            json!(5),
            json!({"task": t25("t1", "working", "2025-11-25T10:30:00Z")}),
        ),
    ]);
    no_history_issues(&r);
    // Without the tools/list answer there is nothing to go by.
    let mut c = Conversation::default();
    let r = feed(
        &mut c,
        &[
            plain_call(1, "research"),
            res(json!(1), json!({"content": [], "isError": true})),
        ],
    );
    no_history_issues(&r);
}

#[test]
fn forbidden_tool_called_with_a_task() {
    for tool in ["echo", "add"] {
        let r = with_tools(&[
            task_call(1, tool),
            res(
                json!(1),
                json!({"task": t25("t1", "working", "2025-11-25T10:30:00Z")}),
            ),
            task_call(2, tool),
            err(json!(2), -32602, "Tool does not support task augmentation"),
            task_call(3, tool),
            err(json!(3), -32601, "Method not found"),
        ]);
        // §D 41 says the server SHOULD answer -32601: a task is a warning, not an error.
        assert_issue(&r[3], "history-forbidden-tool-task", "/result/task");
        assert_eq!(
            issue_of(&r[3], "history-forbidden-tool-task").severity,
            Severity::Warning
        );
        // SHOULD -32601: a warning.
        assert_issue(&r[5], "history-forbidden-tool-code", "/error/code");
        assert_eq!(
            issue_of(&r[5], "history-forbidden-tool-code").severity,
            Severity::Warning
        );
        assert!(history(&r[7]).is_empty(), "{:#?}", r[7].issues);
    }
    // The list changed: the old entries no longer count.
    let r = with_tools(&[
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}),
        task_call(1, "echo"),
        res(
            json!(1),
            json!({"task": t25("t1", "working", "2025-11-25T10:30:00Z")}),
        ),
    ]);
    no_history_issues(&r);
}

#[test]
fn v26_cancel_of_terminal_task_refused() {
    let cancel_after = |answer: Value, task: Value| {
        let mut c = Conversation::default();
        let mut msgs = Vec::new();
        msgs.extend(v26_create(1, "t1"));
        msgs.extend(v26_get(2, "t1", task));
        msgs.push(req26(3, "tasks/cancel", json!({"taskId": "t1"})));
        msgs.push(answer);
        feed(&mut c, &msgs)
    };
    let done = completed26("t1", "2026-07-28T10:30:05Z", "ok");
    let r = cancel_after(
        err(json!(3), -32602, "Task already completed"),
        done.clone(),
    );
    assert_issue(&r[5], "history-cancel-terminal-refused", "/error");
    assert!(!r[5].valid);
    let r = cancel_after(err(json!(3), -32603, "cannot cancel"), done.clone());
    assert_issue(&r[5], "history-cancel-terminal-refused", "/error");
    // The ack; refusals of the request itself; a task not seen terminal.
    no_history_issues(&cancel_after(
        res(json!(3), json!({"resultType": "complete"})),
        done.clone(),
    ));
    no_history_issues(&cancel_after(
        err(json!(3), -32021, "Missing required client capability"),
        done.clone(),
    ));
    no_history_issues(&cancel_after(
        err(json!(3), -32602, "Task not found"),
        t26("t1", "working", "2026-07-28T10:30:01Z"),
    ));
    // -32602 once the task's ttlMs had certainly run out: it may have been forgotten.
    let expired = with(done, "ttlMs", json!(1000));
    no_history_issues(&cancel_after(
        err(json!(3), -32602, "Task not found"),
        expired,
    ));
}

// ---- the bundled samples ---------------------------------------------------------------------

fn run_sample(text: &str) -> (Vec<ObserveReport>, Conversation) {
    let mut c = Conversation::default();
    let reports = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| c.observe_text(l))
        .collect();
    (reports, c)
}

// Traffic shaped like the TypeScript SDK's over HTTP: notifications overtake the
// CreateTaskResult and a poll's answer; not one issue, and no task timeline holds one.
#[test]
fn sample_reordered_healthy_has_no_issue() {
    let (reports, c) = run_sample(include_str!("../samples/v2025-reordered-healthy.jsonl"));
    for r in &reports {
        assert!(r.issues.is_empty(), "message {}: {:#?}", r.index, r.issues);
    }
    let tasks = c.tasks();
    assert_eq!(tasks.len(), 2);
    for t in &tasks {
        assert!(t.issues.is_empty(), "{}: {:#?}", t.task_id, t.issues);
        assert_eq!(t.final_status, Some(TaskStatus::Completed));
    }
}

// The peers' bugs of PEERS.md §7 and the §D 65 / §D 90 findings, in the violation samples.
#[test]
fn violation_samples_show_the_cross_message_rules() {
    let found = |text: &str| -> Vec<(String, Severity)> {
        run_sample(text)
            .0
            .iter()
            .flat_map(|r| r.issues.iter().map(|i| (i.code.clone(), i.severity)))
            .collect()
    };
    let v25 = found(include_str!("../samples/v2025-violations.jsonl"));
    for code in [
        "history-required-tool-answered",
        "history-empty-task-result",
        "history-leaves-terminal",
    ] {
        assert!(v25.contains(&(code.to_string(), Severity::Error)), "{code}");
    }
    assert!(v25.contains(&(
        "history-last-updated-backwards".to_string(),
        Severity::Warning
    )));
    let v26 = found(include_str!("../samples/v2026-violations.jsonl"));
    for code in ["history-cancel-terminal-refused", "task-zero-ms"] {
        assert!(v26.contains(&(code.to_string(), Severity::Error)), "{code}");
    }
}

// ---- properties ----------------------------------------------------------------------------

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|n| json!(n)),
        prop_oneof![
            Just("working".to_string()),
            Just("completed".to_string()),
            Just("input_required".to_string()),
            Just("task".to_string()),
            Just("t1".to_string()),
            Just("2026-07-28T10:30:00Z".to_string()),
            ".{0,12}",
        ]
        .prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("taskId".to_string()),
                        Just("status".to_string()),
                        Just("result".to_string()),
                        Just("error".to_string()),
                        Just("task".to_string()),
                        Just("resultType".to_string()),
                        Just("inputRequests".to_string()),
                        Just("inputResponses".to_string()),
                        Just("lastUpdatedAt".to_string()),
                        Just("createdAt".to_string()),
                        Just("tasks".to_string()),
                        Just("_meta".to_string()),
                        "[a-z]{1,6}",
                    ],
                    inner,
                ),
                0..5
            )
            .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Message-shaped values, so pairing and task following are exercised.
fn message() -> impl Strategy<Value = Value> {
    let method = prop_oneof![
        Just("tools/call"),
        Just("tasks/get"),
        Just("tasks/result"),
        Just("tasks/cancel"),
        Just("tasks/update"),
        Just("tasks/list"),
        Just("notifications/tasks"),
        Just("notifications/tasks/status"),
    ];
    let id = prop_oneof![
        Just(json!(1)),
        Just(json!(2)),
        Just(json!("1")),
        Just(Value::Null)
    ];
    prop_oneof![
        (id.clone(), method.clone(), json_value())
            .prop_map(|(id, m, p)| json!({"jsonrpc": "2.0", "id": id, "method": m, "params": p})),
        (method, json_value())
            .prop_map(|(m, p)| json!({"jsonrpc": "2.0", "method": m, "params": p})),
        (id.clone(), json_value())
            .prop_map(|(id, r)| json!({"jsonrpc": "2.0", "id": id, "result": r})),
        (id, json_value()).prop_map(|(id, e)| json!({"jsonrpc": "2.0", "id": id, "error": e})),
        json_value(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_values_always_give_a_report(msgs in prop::collection::vec(message(), 0..24)) {
        let mut c = Conversation::default();
        for (i, m) in msgs.iter().enumerate() {
            let r = c.observe(m);
            prop_assert_eq!(r.index, i);
            prop_assert_eq!(r.valid, !r.issues.iter().any(|i| i.severity == mcp_tasks_wasm::validate::Severity::Error));
        }
        let _ = c.tasks();
    }

    #[test]
    fn arbitrary_text_always_gives_a_report(lines in prop::collection::vec(".{0,64}", 0..16)) {
        let mut c = Conversation::default();
        for (i, l) in lines.iter().enumerate() {
            let r = c.observe_text(l);
            prop_assert_eq!(r.index, i);
        }
    }

    #[test]
    fn serialized_messages_as_text(msgs in prop::collection::vec(message(), 0..12)) {
        let mut c = Conversation::default();
        for m in &msgs {
            let text = m.to_string();
            let _ = c.observe_text(&text);
        }
        let _ = serde_json::to_string(&c.tasks());
    }
}

/// Both sides number their own requests: with the sender given, the client's answer to the
/// server's `elicitation/create` (id 3) is not taken for the answer to the client's pending
/// `tasks/result` (also id 3), which is answered later by the server.
#[test]
fn sender_keeps_the_two_id_spaces_apart() {
    use mcp_tasks_wasm::conversation::Sender::{Client, Server};
    let mut c = Conversation::default();
    let [create_req, create_res] = v25_create(1, "t1");
    let msgs: Vec<(Value, Sender)> = vec![
        (create_req, Client),
        (create_res, Server),
        (
            req(json!(3), "tasks/result", json!({"taskId": "t1"})),
            Client,
        ),
        (
            req(
                json!(3),
                "elicitation/create",
                json!({"message": "Name?", "requestedSchema": {"type": "object", "properties": {}},
                       "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t1"}}}),
            ),
            Server,
        ),
        (
            res(json!(3), json!({"action": "accept", "content": {}})),
            Client,
        ),
        (
            res(
                json!(3),
                json!({"content": [{"type": "text", "text": "done"}],
                       "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t1"}}}),
            ),
            Server,
        ),
    ];
    let reports: Vec<ObserveReport> = msgs
        .iter()
        .map(|(m, from)| c.observe_from(m, Some(*from)))
        .collect();
    for (i, r) in reports.iter().enumerate() {
        assert!(
            r.issues.iter().all(|i| i.severity != Severity::Error),
            "message {i}: {:#?}",
            r.issues
        );
        assert!(!has(r, "history-unmatched-response", "/id"), "message {i}");
        assert!(
            !has(r, "history-duplicate-request-id", "/id"),
            "message {i}"
        );
    }

    // Without senders the same traffic looks like a reused id and an answer nobody asked for.
    let mut bare = Conversation::default();
    let reports: Vec<ObserveReport> = msgs.iter().map(|(m, _)| bare.observe(m)).collect();
    assert!(has(&reports[3], "history-duplicate-request-id", "/id"));
}

fn v25_task(id: &str, created: &str) -> Value {
    json!({
        "taskId": id, "status": "working", "createdAt": created,
        "lastUpdatedAt": created, "ttl": 60000, "pollInterval": 1000
    })
}

/// One message's report (validator issues and history findings together)
/// lists at most `maxIssues` issues, then `issues-truncated`; errors left out keep it invalid.
#[test]
fn report_issues_are_capped_with_history_findings() {
    let mut c = Conversation::new(ConversationOptions {
        version: Some(ProtocolVersion::V2025),
        max_issues: Some(10),
        ..ConversationOptions::default()
    });
    let t0 = "2025-11-25T10:00:00Z";
    for i in 0..50 {
        let call = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call",
            "params": {"name": "t", "arguments": {}, "task": {"ttl": 60000}}});
        c.observe(&call);
        let r = c.observe(&json!({"jsonrpc": "2.0", "id": i,
            "result": {"task": v25_task(&format!("t{i}"), t0)}}));
        assert!(r.valid, "{:#?}", r.issues);
    }
    c.observe(&json!({"jsonrpc": "2.0", "id": "l", "method": "tasks/list", "params": {}}));
    let tasks: Vec<Value> = (0..50)
        .map(|i| v25_task(&format!("t{i}"), "2025-11-25T11:00:00Z"))
        .collect();
    let r = c.observe(&json!({"jsonrpc": "2.0", "id": "l", "result": {"tasks": tasks}}));
    assert!(!r.valid);
    assert_eq!(r.issues.len(), 11, "{:#?}", r.issues);
    assert!(r.issues[..10]
        .iter()
        .all(|i| i.code == "history-created-at-changed"));
    assert_eq!(r.issues[10].code, "issues-truncated");
    assert!(r.issues[10]
        .message
        .starts_with("40 more issue(s) (40 error(s))"));
    // The timelines still carry each task's own finding.
    assert!(c.tasks().iter().all(|t| t
        .issues
        .iter()
        .any(|i| i.code == "history-created-at-changed")));
}

// The byte boundary of `Conversation.observe` (the bindings' `__observeBytes`): the same report
// as `observe_text`, written as JSON text over the buffer; nothing observed over `maxBytes`.
#[test]
fn observed_bytes_answer_the_report_as_json_text() {
    let text = r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t"}}"#;
    let mut by_text = Conversation::new(ConversationOptions::default());
    let expected = serde_json::to_string(&by_text.observe_text(text)).unwrap();
    let mut c = Conversation::new(ConversationOptions::default());
    let mut buf = [b"xx".as_slice(), text.as_bytes()].concat();
    let n = c.observe_bytes(&mut buf, 2, text.len() as u32, 1);
    assert_eq!(-n as usize, expected.len());
    assert_eq!(&buf[..expected.len()], expected.as_bytes());
    let mut small = Conversation::new(ConversationOptions {
        max_bytes: Some(4),
        ..ConversationOptions::default()
    });
    assert_eq!(small.observe_bytes(&mut buf, 0, 5, 0), 0);
}

// ---- negotiation and what the client declared (recorded traffic) -----------------------------

/// Every issue of a transcript, with the number of its line (1-based), and the conversation.
fn issues_of(text: &str) -> (Vec<(usize, Issue)>, Conversation) {
    let (reports, c) = run_sample(text);
    let issues = reports
        .iter()
        .flat_map(|r| r.issues.iter().map(|i| (r.index + 1, i.clone())))
        .collect();
    (issues, c)
}

/// §C: a client offering 2026-07-28 in `initialize` answered 2025-11-25 (the default of the
/// TypeScript SDK v2 against a 2025-11-25 server) speaks 2025-11-25: the agreed version, not
/// the offered one, governs the task flow that follows.
#[test]
fn offer_2026_answered_2025_speaks_2025() {
    let (issues, c) = issues_of(include_str!(
        "../samples/v2025-negotiated-from-2026-offer.jsonl"
    ));
    assert!(issues.is_empty(), "{issues:#?}");
    assert_eq!(c.version(), Some(ProtocolVersion::V2025));
    let tasks = c.tasks();
    assert_eq!(tasks.len(), 2);
    assert!(tasks
        .iter()
        .all(|t| t.version == Some(ProtocolVersion::V2025)));
}

/// The same offer answered 2026-07-28: the conversation speaks 2026-07-28, its per-request
/// `_meta` envelopes agree, and nothing is flagged.
#[test]
fn offer_2026_answered_2026_speaks_2026() {
    let (issues, c) = issues_of(include_str!(
        "../samples/v2026-negotiated-by-initialize.jsonl"
    ));
    assert!(issues.is_empty(), "{issues:#?}");
    assert_eq!(c.version(), Some(ProtocolVersion::V2026));
    assert!(c
        .tasks()
        .iter()
        .all(|t| t.version == Some(ProtocolVersion::V2026)));
}

/// Until the answer arrives nothing is fixed: a 2025-11-25 offer answered 2026-07-28 is not a
/// switch either, and a message between offer and answer is judged by what it shows itself.
#[test]
fn the_initialize_answer_decides() {
    let init = |v: &str| {
        req(
            json!(0),
            "initialize",
            json!({"protocolVersion": v, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}),
        )
    };
    let answer = |v: &str| {
        res(
            json!(0),
            json!({"protocolVersion": v, "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}),
        )
    };
    let mut c = Conversation::default();
    let r = feed(
        &mut c,
        &[
            init(V26),
            json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "x"}}),
            answer(V25),
        ],
    );
    no_history_issues(&r);
    assert_eq!(c.version(), Some(ProtocolVersion::V2025));
    let mut c = Conversation::default();
    let mut msgs = vec![init(V25), answer(V26)];
    msgs.extend(v26_create(1, "t1"));
    let r = feed(&mut c, &msgs);
    no_history_issues(&r);
    assert_eq!(c.version(), Some(ProtocolVersion::V2026));
    // An error answer agrees on nothing: what follows tells.
    let mut c = Conversation::default();
    let mut msgs = vec![
        init(V26),
        err(json!(0), -32602, "Unsupported protocol version"),
    ];
    msgs.extend(v25_create(1, "t1"));
    no_history_issues(&feed(&mut c, &msgs));
    assert_eq!(c.version(), Some(ProtocolVersion::V2025));
}

/// §D 98, 2025-11-25: `elicitation/create` to a client whose `initialize` did not declare
/// `elicitation` is flagged, on the task it is about; declared (the healthy sample), it is not.
#[test]
fn v25_elicitation_to_a_client_that_did_not_declare_it() {
    let (issues, c) = issues_of(include_str!(
        "../tests/fixtures/transcripts/v2025-input-undeclared.jsonl"
    ));
    let found: Vec<_> = issues
        .iter()
        .filter(|(_, i)| i.code == "history-input-undeclared")
        .collect();
    assert_eq!(found.len(), 1, "{issues:#?}");
    assert_eq!(found[0].0, 12);
    assert_eq!(found[0].1.path, "/method");
    assert_eq!(found[0].1.severity, Severity::Warning);
    assert!(c.tasks()[0]
        .issues
        .iter()
        .any(|i| i.code == "history-input-undeclared"));
    let (issues, _) = issues_of(include_str!("../samples/v2025-healthy.jsonl"));
    assert!(issues.is_empty(), "{issues:#?}");
    // Sampling and roots, and url-mode elicitation, each need their own declaration.
    let mut c = Conversation::default();
    let r = feed(
        &mut c,
        &[
            req(
                json!(0),
                "initialize",
                json!({"protocolVersion": V25, "capabilities": {"elicitation": {}, "sampling": {}},
                       "clientInfo": {"name": "c", "version": "1"}}),
            ),
            req(
                json!("s1"),
                "sampling/createMessage",
                json!({"messages": [], "maxTokens": 10}),
            ),
            req(json!("s2"), "roots/list", json!({})),
            req(
                json!("s3"),
                "elicitation/create",
                json!({"mode": "url", "message": "m", "url": "https://example.com", "elicitationId": "e"}),
            ),
        ],
    );
    assert!(!has(&r[1], "history-input-undeclared", "/method"));
    assert_issue(&r[2], "history-input-undeclared", "/method");
    assert_issue(&r[3], "history-input-undeclared", "/method");
}

/// §D 98, 2026-07-28: `inputRequests` for elicitation answering `tasks/get` requests whose own
/// `_meta` clientCapabilities lack `elicitation` are flagged; declared (the healthy sample), not.
#[test]
fn v26_input_requests_the_request_did_not_declare() {
    let (issues, _) = issues_of(include_str!(
        "../tests/fixtures/transcripts/v2026-input-undeclared.jsonl"
    ));
    let found: Vec<_> = issues
        .iter()
        .filter(|(_, i)| i.code == "history-input-undeclared")
        .map(|(line, i)| (*line, i.path.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (8, "/result/inputRequests/approver/method"),
            (10, "/result/inputRequests/approver/method")
        ],
        "{issues:#?}"
    );
    let (issues, _) = issues_of(include_str!("../samples/v2026-healthy.jsonl"));
    assert!(issues.is_empty(), "{issues:#?}");
    // An earlier request's declaration counts for nothing: only the request answered.
    let get = |id: i64, elicitation: bool| {
        let mut meta = meta26(true);
        if !elicitation {
            meta["io.modelcontextprotocol/clientCapabilities"] =
                json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
        }
        req(
            json!(id),
            "tasks/get",
            json!({"taskId": "t1", "_meta": meta}),
        )
    };
    let mut waiting = t26("t1", "input_required", "2026-07-28T10:30:05Z");
    waiting["resultType"] = json!("complete");
    waiting["inputRequests"] = json!({"k": {"method": "elicitation/create",
        "params": {"mode": "form", "message": "m", "requestedSchema": {"type": "object", "properties": {}}}}});
    let mut c = Conversation::default();
    let mut msgs = v26_create(1, "t1").to_vec();
    msgs.extend([
        get(2, true),
        res(json!(2), waiting.clone()),
        get(3, false),
        res(json!(3), waiting),
    ]);
    let r = feed(&mut c, &msgs);
    assert!(!has(
        &r[3],
        "history-input-undeclared",
        "/result/inputRequests/k/method"
    ));
    assert_issue(
        &r[5],
        "history-input-undeclared",
        "/result/inputRequests/k/method",
    );
}

/// A transcript line may be a record with the HTTP headers the request came with: a
/// `tasks/get|cancel` without `Mcp-Name` (as a popular Python task client sends them) is named
/// as the requestor's omission (`header-missing`, §D 97, 111), a wrong one `header-mismatch`,
/// and the rest of the conversation is judged as with bare messages.
#[test]
fn transcript_records_carry_http_headers() {
    let text = include_str!("../tests/fixtures/transcripts/v2026-http-headers.jsonl");
    let (issues, c) = issues_of(text);
    let found: Vec<_> = issues
        .iter()
        .map(|(line, i)| (*line, i.code.as_str(), i.path.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (7, "header-missing", "/params/taskId"),
            (9, "header-mismatch", "/params/taskId"),
            (22, "header-missing", "/params/taskId"),
        ],
        "{issues:#?}"
    );
    assert_eq!(c.tasks().len(), 3);
    // The record's sender pairs answers as `from` does; an explicit `from` wins.
    let (bare, _) = issues_of(include_str!("../samples/v2026-healthy.jsonl"));
    assert!(bare.is_empty());
    let line: Value = serde_json::from_str(text.lines().nth(6).unwrap()).unwrap();
    let mut c = Conversation::default();
    let r = c.observe_from(&line, Some(Sender::Client));
    assert_issue(&r, "header-missing", "/params/taskId");
    assert_eq!(r.method.as_deref(), Some("tasks/get"));
}

/// §D 47 and §D 40 (2025-11-25): task augmentation depends on what the receiver listed in its
/// `initialize` capabilities' `tasks.requests`. Augmenting an unlisted type is a warning; a
/// receiver creating a task for it (instead of ignoring `params.task`) an error; a plain answer
/// is what it should do. Listed, neither.
#[test]
fn v25_augmentation_of_types_the_receiver_did_not_declare() {
    let session = |client: Value, server: Value| {
        vec![
            req(
                json!(0),
                "initialize",
                json!({"protocolVersion": V25, "capabilities": client,
                       "clientInfo": {"name": "c", "version": "1"}}),
            ),
            res(
                json!(0),
                json!({"protocolVersion": V25, "capabilities": server,
                       "serverInfo": {"name": "s", "version": "1"}}),
            ),
        ]
    };
    let none = json!({"elicitation": {}, "tasks": {"list": {}, "cancel": {}}});
    let augmented_elicit = req(
        json!("s1"),
        "elicitation/create",
        json!({"mode": "form", "message": "m", "requestedSchema": {"type": "object", "properties": {}},
               "task": {"ttl": 60000}}),
    );
    let elicit_task = res(
        json!("s1"),
        json!({"task": t25("e1", "working", "2025-11-25T10:30:00Z")}),
    );

    // Neither side listed anything: the client's tools/call and the server's elicitation.
    let mut msgs = session(none.clone(), json!({"tools": {}, "tasks": {"list": {}}}));
    msgs.extend(v25_create(1, "t1"));
    msgs.extend([augmented_elicit.clone(), elicit_task.clone()]);
    let r = feed(&mut Conversation::default(), &msgs);
    assert_issue(&r[2], "history-augment-undeclared", "/params/task");
    assert_eq!(
        issue_of(&r[2], "history-augment-undeclared").severity,
        Severity::Warning
    );
    assert_issue(&r[3], "history-task-undeclared", "/result/task");
    assert_eq!(
        issue_of(&r[3], "history-task-undeclared").severity,
        Severity::Error
    );
    assert_issue(&r[4], "history-augment-undeclared", "/params/task");
    assert_issue(&r[5], "history-task-undeclared", "/result/task");

    // The receiver ignored params.task and answered normally: only the requestor is told.
    let mut msgs = session(none, json!({"tools": {}}));
    msgs.push(v25_create(1, "t1")[0].clone());
    msgs.push(res(json!(1), json!({"content": [], "isError": false})));
    let r = feed(&mut Conversation::default(), &msgs);
    assert_issue(&r[2], "history-augment-undeclared", "/params/task");
    assert!(history(&r[3]).is_empty(), "{:#?}", r[3].issues);

    // Both listed: nothing.
    let mut msgs = session(
        json!({"elicitation": {}, "tasks": {"requests": {"elicitation": {"create": {}}}}}),
        json!({"tools": {}, "tasks": {"requests": {"tools": {"call": {}}}}}),
    );
    msgs.extend(v25_create(1, "t1"));
    msgs.extend([augmented_elicit.clone(), elicit_task.clone()]);
    no_history_issues(&feed(&mut Conversation::default(), &msgs));

    // Before any initialize nothing is known, so nothing is judged.
    let mut msgs = v25_create(1, "t1").to_vec();
    msgs.extend([augmented_elicit, elicit_task]);
    no_history_issues(&feed(&mut Conversation::default(), &msgs));
}

// ---- §D 50: a 2025-11-25 poller fetches input_required through tasks/result ---------------------

/// A V25 task that went input_required at message 4 (a `tasks/get` answer), polled by `gets`
/// more `tasks/get` answered input_required, the request ids from 10.
fn polled_through_input_required(gets: i64, result_first: bool) -> Vec<Value> {
    let mut msgs = v25_create(1, "t1").to_vec();
    msgs.extend(v25_get(
        2,
        "t1",
        t25("t1", "input_required", "2025-11-25T10:30:01Z"),
    ));
    if result_first {
        msgs.push(req(json!(3), "tasks/result", json!({"taskId": "t1"})));
    }
    for i in 0..gets {
        msgs.extend(v25_get(
            10 + i,
            "t1",
            t25("t1", "input_required", "2025-11-25T10:30:01Z"),
        ));
    }
    msgs
}

/// §D 50: on `input_required` a 2025-11-25 poller should call `tasks/result` at once. The
/// Inspector 2.12 polls `tasks/get` about ten times through `input_required` and never calls
/// it: one warning, on the second `tasks/get` sent after the task showed `input_required`, and
/// no more for the task however long it polls.
#[test]
fn v25_polling_through_input_required_without_tasks_result() {
    let msgs = polled_through_input_required(10, false);
    let r = feed(&mut Conversation::default(), &msgs);
    let flagged: Vec<usize> = r
        .iter()
        .filter(|r| has(r, "history-input-required-not-fetched", "/method"))
        .map(|r| r.index)
        .collect();
    // Messages: 0-1 create, 2-3 the get that showed input_required, then request/answer pairs:
    // the first poll (4) passes, the second (6) is flagged.
    assert_eq!(flagged, vec![6]);
    let i = issue_of(&r[6], "history-input-required-not-fetched");
    assert_eq!(i.severity, Severity::Warning);
    assert!(i.message.contains("since message 3"), "{}", i.message);
    assert!(i.message.contains("§D 50"), "{}", i.message);
    assert_eq!(r[6].task_ids, vec!["t1".to_string()]);
    // On the task's timeline too.
    let mut c = Conversation::default();
    feed(&mut c, &msgs);
    let issues: Vec<_> = c.tasks()[0].issues.iter().map(|i| i.code.clone()).collect();
    assert_eq!(
        issues,
        vec!["history-input-required-not-fetched".to_string()]
    );
}

/// Not flagged: one `tasks/get` beside the `tasks/result` (§D 50: keep polling while not
/// blocked), a `tasks/result` called at once, a task that went back to `working` between
/// polls, a 2026-07-28 conversation (no `tasks/result`).
#[test]
fn v25_input_required_fetched_or_polled_once_is_no_issue() {
    let quiet = |msgs: &[Value]| {
        let r = feed(&mut Conversation::default(), msgs);
        assert!(
            !r.iter().any(|r| r
                .issues
                .iter()
                .any(|i| i.code == "history-input-required-not-fetched")),
            "{r:#?}"
        );
    };
    quiet(&polled_through_input_required(1, false));
    quiet(&polled_through_input_required(10, true));
    // tasks/result sent after the first poll: the second poll is no longer "without" it.
    let mut msgs = polled_through_input_required(1, false);
    msgs.push(req(json!(3), "tasks/result", json!({"taskId": "t1"})));
    msgs.extend(v25_get(
        20,
        "t1",
        t25("t1", "input_required", "2025-11-25T10:30:01Z"),
    ));
    quiet(&msgs);
    // input_required; a poll answered working; input_required again; a poll: one poll per
    // sighting.
    let mut msgs = polled_through_input_required(0, false);
    msgs.extend(v25_get(
        20,
        "t1",
        t25("t1", "working", "2025-11-25T10:30:02Z"),
    ));
    msgs.extend(v25_get(
        21,
        "t1",
        t25("t1", "input_required", "2025-11-25T10:30:03Z"),
    ));
    msgs.extend(v25_get(
        22,
        "t1",
        t25("t1", "input_required", "2025-11-25T10:30:03Z"),
    ));
    let r = feed(&mut Conversation::default(), &msgs);
    let flagged: Vec<usize> = r
        .iter()
        .filter(|r| {
            r.issues
                .iter()
                .any(|i| i.code == "history-input-required-not-fetched")
        })
        .map(|r| r.index)
        .collect();
    // 4-5 the first poll (working), 6-7 input_required again (its request was sent while the
    // task showed working), 8 the first poll since: none is a second poll.
    assert!(flagged.is_empty(), "{flagged:?}");
    // 2026-07-28: input is answered with tasks/update, there is no tasks/result.
    let mut msgs = v26_create(1, "t1").to_vec();
    for i in 0..5 {
        msgs.extend(v26_get(
            10 + i,
            "t1",
            input_required("t1", "2025-11-25T10:30:01Z", "k", elicit("Name?")),
        ));
    }
    quiet(&msgs);
}

/// A transcript record may say when the message was recorded: `at`, RFC 3339. It is the
/// `seenAt` of the task events the message adds; anything else is `record-time` (a warning),
/// and the message is judged as without it.
#[test]
fn transcript_records_carry_the_time_they_were_recorded() {
    let rec =
        |at: Value, from: &str, message: Value| json!({"at": at, "from": from, "message": message});
    let [call, created] = v25_create(1, "t1");
    let msgs = vec![
        rec(json!("2026-12-01T10:00:00.000Z"), "client", call),
        rec(json!("2026-12-01T10:00:00.250+01:00"), "server", created),
        rec(
            json!("yesterday"),
            "client",
            req(json!(2), "tasks/get", json!({"taskId": "t1"})),
        ),
        rec(
            json!(1733047200000_i64),
            "server",
            res(json!(2), t25("t1", "working", "2025-11-25T10:30:01Z")),
        ),
    ];
    let mut c = Conversation::default();
    let r = feed(&mut c, &msgs);
    assert!(r[0].issues.is_empty() && r[1].issues.is_empty(), "{r:#?}");
    for k in [2, 3] {
        let i = issue_of(&r[k], "record-time");
        assert_eq!(i.severity, Severity::Warning);
        assert_eq!(i.path, "");
        assert_eq!(r[k].issues.len(), 1, "{:#?}", r[k].issues);
    }
    // The answers were paired (from), and the record's time is on the events.
    assert_eq!(r[3].method.as_deref(), Some("tasks/get"));
    let t = &c.tasks()[0];
    let seen: Vec<_> = t.events.iter().map(|e| e.seen_at.as_deref()).collect();
    assert_eq!(seen, vec![Some("2026-12-01T10:00:00.250+01:00"), None]);
    // Parsed from text as well (the CLI's and the page's way in).
    let mut c = Conversation::default();
    let r = c.observe_text(r#"{"at":"2026-12-01T10:00:00Z","from":"client","message":{"jsonrpc":"2.0","id":1,"method":"ping"}}"#);
    assert!(r.issues.is_empty(), "{:#?}", r.issues);
    assert_eq!(r.method.as_deref(), Some("ping"));
}
