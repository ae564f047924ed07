//! The request handler (`mcp_tasks_wasm::server`): every `tasks/*` method × version × situation,
//! the `tools/call` helpers, with the exact response asserted AND every response the handler
//! emits checked by our own validator (valid, no issues at all) through one helper, [`H::check`].
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use mcp_tasks_wasm::model::{ProtocolVersion, TaskStatus};
use mcp_tasks_wasm::server::{
    check_input_capabilities, input_capability, request_protocol, sync_tool_response, Finished,
    Outcome, PendingResult, RequestContext, TaskEvent, TaskServer, TaskSupport, ToolCallDecision,
    ToolCallPlan, ToolOutcome, V25Declared,
};
use mcp_tasks_wasm::store::{Caller, DeterministicRandom, MemoryStorage, StoreConfig, StoreError};
use mcp_tasks_wasm::validate::{validate_value, Context};
use serde_json::{json, Value};

const V25: ProtocolVersion = ProtocolVersion::V2025;
const V26: ProtocolVersion = ProtocolVersion::V2026;
const T0: u64 = 1_764_066_600_000; // 2025-11-25T10:30:00.000Z
const EXT: &str = "io.modelcontextprotocol/tasks";

type Server = TaskServer<MemoryStorage, DeterministicRandom>;

/// Asserts that `response`, answering `request`, passes the validator of `version` with no issue.
#[track_caller]
fn assert_validates(response: &Value, version: ProtocolVersion, request: &Value) {
    let method = request["method"].as_str().map(str::to_string);
    let task_id = request["params"]["taskId"].as_str().map(str::to_string);
    let report = validate_value(
        response,
        &Context {
            version: Some(version),
            in_reply_to: method.clone(),
            request_task_id: task_id,
            headers: None,
            max_issues: None,
        },
    );
    assert!(
        report.valid && report.issues.is_empty(),
        "response to {method:?} under {} does not validate:\n{}\nissues: {:#?}",
        version.as_str(),
        serde_json::to_string_pretty(response).unwrap(),
        report.issues
    );
    assert_eq!(response["jsonrpc"], "2.0");
    if request["id"].is_string() || request["id"].is_i64() || request["id"].is_u64() {
        assert_eq!(response["id"], request["id"], "the response echoes the id");
    }
}

/// A test harness: a server, a clock, and request builders.
struct H {
    server: Server,
    now: u64,
    next_id: i64,
}

impl H {
    fn new() -> Self {
        Self::with(StoreConfig::default())
    }

    fn with(config: StoreConfig) -> Self {
        H {
            server: TaskServer::deterministic(config, 7),
            now: T0,
            next_id: 1,
        }
    }

    fn id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id
    }

    /// A 2025-11-25 request.
    fn v25(&mut self, method: &str, params: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": self.id(), "method": method, "params": params})
    }

    /// A 2026-07-28 request with the `_meta` envelope; `declaring`: the tasks extension.
    fn v26(&mut self, method: &str, mut params: Value, declaring: bool) -> Value {
        let caps = if declaring {
            json!({"elicitation": {}, "extensions": {EXT: {}}})
        } else {
            json!({"elicitation": {}})
        };
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": caps,
        });
        json!({"jsonrpc": "2.0", "id": format!("r-{}", self.id()), "method": method, "params": params})
    }

    fn req(&mut self, ctx: &RequestContext, method: &str, params: Value) -> Value {
        match ctx.version {
            V25 => self.v25(method, params),
            V26 => self.v26(method, params, true),
        }
    }

    /// Handles `request`; any response is validated.
    fn check(&mut self, ctx: &RequestContext, request: &Value) -> Outcome {
        let out = self.server.handle(request, ctx, self.now);
        if let Some(r) = out.response() {
            assert_validates(r, ctx.version, request);
        }
        out
    }

    /// Handles `request`, which must be answered now; returns the response.
    #[track_caller]
    fn send(&mut self, ctx: &RequestContext, request: &Value) -> Value {
        match self.check(ctx, request) {
            Outcome::Response { message, .. } => message,
            other => panic!("expected a response, got {other:?}"),
        }
    }

    /// `method` with `{taskId}` under `ctx`: the response.
    #[track_caller]
    fn task_call(&mut self, ctx: &RequestContext, method: &str, task_id: &str) -> Value {
        let r = self.req(ctx, method, json!({ "taskId": task_id }));
        self.send(ctx, &r)
    }

    /// `tools/call` of `tool`; any response is validated.
    fn begin(
        &mut self,
        ctx: &RequestContext,
        request: &Value,
        support: TaskSupport,
    ) -> ToolCallDecision {
        let d = self.server.begin_tool_call(request, ctx, support, self.now);
        if let Some(r) = d.response() {
            assert_validates(r, ctx.version, request);
        }
        d
    }

    /// A task made by a task-augmented `tools/call` under `ctx`; returns its id.
    #[track_caller]
    fn start(&mut self, ctx: &RequestContext) -> String {
        let request = match ctx.version {
            V25 => self.v25(
                "tools/call",
                json!({"name": "slow", "arguments": {}, "task": {"ttl": 60_000}}),
            ),
            V26 => self.v26("tools/call", json!({"name": "slow", "arguments": {}}), true),
        };
        match self.begin(ctx, &request, TaskSupport::Optional) {
            ToolCallDecision::Task { task_id, .. } => task_id,
            other => panic!("expected a task, got {other:?}"),
        }
    }

    fn finish(&mut self, task_id: &str, outcome: ToolOutcome) -> Finished {
        self.server
            .finish_tool_call(task_id, outcome, self.now)
            .unwrap()
    }

    /// The V25 `tasks/result` answer once ready: validated.
    fn settle(&mut self, pending: &PendingResult) -> Option<Value> {
        let r = self.server.settle(pending, self.now);
        if let Some(r) = &r {
            let request = json!({"jsonrpc": "2.0", "id": pending.request_id, "method": "tasks/result",
                                 "params": {"taskId": pending.task_id}});
            assert_validates(r, V25, &request);
        }
        r
    }
}

fn text_result(text: &str, is_error: bool) -> Value {
    json!({"content": [{"type": "text", "text": text}], "isError": is_error})
}

fn elicit(message: &str) -> Value {
    json!({"method": "elicitation/create", "params": {"mode": "form", "message": message,
        "requestedSchema": {"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]}}})
}

fn ctx25() -> RequestContext {
    RequestContext::v25()
}

fn ctx26() -> RequestContext {
    RequestContext::v26()
}

#[track_caller]
fn assert_error(response: &Value, code: i64, message: &str) {
    assert_eq!(
        response["error"],
        json!({"code": code, "message": message}),
        "in {response}"
    );
    assert!(response.get("result").is_none());
}

fn created_at() -> &'static str {
    "2025-11-25T10:30:00.000Z"
}

// ------------------------------------------------------------------------------------------------
// 2026-07-28
// ------------------------------------------------------------------------------------------------

// §D 82, 59, 63: a declaring call of a task-supporting tool answers a flat CreateTaskResult; the
// task is stored first (an immediate tasks/get resolves).
#[test]
fn v26_tool_call_creates_a_task_and_get_resolves_at_once() {
    let mut h = H::new();
    let ctx = ctx26();
    let call = h.v26("tools/call", json!({"name": "slow", "arguments": {}}), true);
    let ToolCallDecision::Task { task_id, response } = h.begin(&ctx, &call, TaskSupport::Optional)
    else {
        panic!("expected a task")
    };
    assert_eq!(task_id.len(), 32);
    assert_eq!(
        response,
        json!({"jsonrpc": "2.0", "id": call["id"], "result": {
            "resultType": "task", "taskId": task_id, "status": "working",
            "createdAt": created_at(), "lastUpdatedAt": created_at(),
            "ttlMs": 3_600_000, "pollIntervalMs": 1000}})
    );
    let get = h.v26("tasks/get", json!({"taskId": task_id}), true);
    assert_eq!(
        h.send(&ctx, &get),
        json!({"jsonrpc": "2.0", "id": get["id"], "result": {
            "resultType": "complete", "taskId": task_id, "status": "working",
            "createdAt": created_at(), "lastUpdatedAt": created_at(),
            "ttlMs": 3_600_000, "pollIntervalMs": 1000}})
    );
}

// §D 91, 92: completed inlines the result; a thrown JSON-RPC error fails with that error and a
// statusMessage; isError stays completed (conformance sep-2663-tool-error-uses-completed-status).
#[test]
fn v26_get_inlines_each_terminal_payload() {
    let mut h = H::new();
    let ctx = ctx26();
    let ok = h.start(&ctx);
    let tool_err = h.start(&ctx);
    let rpc_err = h.start(&ctx);
    h.now += 250;
    assert!(matches!(
        h.finish(&ok, ToolOutcome::Result(text_result("done", false))),
        Finished::Stored(_)
    ));
    h.finish(
        &tool_err,
        ToolOutcome::Result(text_result("bad input", true)),
    );
    h.finish(
        &rpc_err,
        ToolOutcome::RpcError {
            code: -32603,
            message: "API rate limit exceeded".into(),
            data: None,
        },
    );
    let r = h.task_call(&ctx, "tasks/get", &ok);
    assert_eq!(
        r["result"],
        json!({"resultType": "complete", "taskId": ok, "status": "completed",
               "createdAt": created_at(), "lastUpdatedAt": "2025-11-25T10:30:00.250Z",
               "ttlMs": 3_600_000, "pollIntervalMs": 1000, "result": text_result("done", false)})
    );
    let r = h.task_call(&ctx, "tasks/get", &tool_err);
    assert_eq!(r["result"]["status"], "completed");
    assert_eq!(r["result"]["result"], text_result("bad input", true));
    let r = h.task_call(&ctx, "tasks/get", &rpc_err);
    assert_eq!(r["result"]["status"], "failed");
    assert_eq!(
        r["result"]["error"],
        json!({"code": -32603, "message": "API rate limit exceeded"})
    );
    assert_eq!(r["result"]["statusMessage"], "API rate limit exceeded");
    assert!(r["result"].get("result").is_none());
}

// §D 86: unknown, expired (strictly after createdAt + ttl) and other-session ids answer -32602.
#[test]
fn v26_unknown_expired_and_foreign_ids_are_not_found() {
    let mut h = H::with(StoreConfig {
        default_ttl_ms: Some(1000),
        ..StoreConfig::default()
    });
    let alice = ctx26().session("alice");
    let bob = ctx26().session("bob");
    let id = h.start(&alice);
    for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
        let params = if method == "tasks/update" {
            json!({"taskId": "tasks-conformance-nonexistent-12345", "inputResponses": {}})
        } else {
            json!({"taskId": "tasks-conformance-nonexistent-12345"})
        };
        let r = h.v26(method, params, true);
        let prefix = match method {
            "tasks/get" => "Failed to retrieve task",
            "tasks/update" => "Failed to update task",
            _ => "Failed to cancel task",
        };
        assert_error(
            &h.send(&alice, &r),
            -32602,
            &format!("{prefix}: Task not found"),
        );
    }
    // Another session sees nothing, not even "forbidden"; none session neither.
    for ctx in [&bob, &ctx26()] {
        let r = h.task_call(ctx, "tasks/get", &id);
        assert_error(&r, -32602, "Failed to retrieve task: Task not found");
        let r = h.task_call(ctx, "tasks/cancel", &id);
        assert_error(&r, -32602, "Failed to cancel task: Task not found");
    }
    // The owner still sees it, at the TTL boundary too (no early expiry).
    h.now = T0 + 1000;
    assert_eq!(
        h.task_call(&alice, "tasks/get", &id)["result"]["taskId"],
        id.as_str()
    );
    h.now = T0 + 1001;
    let r = h.task_call(&alice, "tasks/get", &id);
    assert_error(&r, -32602, "Failed to retrieve task: Task not found");
}

// §D 79, 80: a tasks/* request whose own _meta does not declare the extension answers -32021
// with data, before any lookup; legacy V25 capabilities.tasks counts as non-declaring.
#[test]
fn v26_non_declaring_task_requests_get_32021_with_data() {
    let mut h = H::new();
    let ctx = ctx26();
    let id = h.start(&ctx);
    let expected_data = json!({"requiredCapabilities": {"extensions": {EXT: {}}}});
    for task_id in ["gate-test", id.as_str()] {
        for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
            let r = h.v26(
                method,
                json!({"taskId": task_id, "inputResponses": {}}),
                false,
            );
            let resp = h.send(&ctx, &r);
            assert_eq!(resp["error"]["code"], -32021);
            assert_eq!(resp["error"]["data"], expected_data);
            assert!(resp["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("Missing required client capability"));
        }
    }
    // Legacy-only declaration, and no _meta at all.
    let mut legacy = h.v26("tasks/get", json!({"taskId": id}), false);
    legacy["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] =
        json!({"tasks": {"list": {}, "cancel": {}}});
    assert_eq!(h.send(&ctx, &legacy)["error"]["code"], -32021);
    let bare =
        json!({"jsonrpc": "2.0", "id": 9, "method": "tasks/cancel", "params": {"taskId": id}});
    assert_eq!(h.send(&ctx, &bare)["error"]["code"], -32021);
    // Nothing was cancelled by the refused requests.
    assert_eq!(
        h.task_call(&ctx, "tasks/get", &id)["result"]["status"],
        "working"
    );
}

// §D 81, §E 5: tasks/result and tasks/list were removed (-32601), declaring or not; so is any
// other tasks/* method.
#[test]
fn v26_removed_and_unknown_methods_are_method_not_found() {
    let mut h = H::new();
    let ctx = ctx26();
    for declaring in [true, false] {
        let r = h.v26(
            "tasks/result",
            json!({"taskId": "tasks-conformance-isolation-probe"}),
            declaring,
        );
        assert_error(
            &h.send(&ctx, &r),
            -32601,
            "Method not found: tasks/result (removed in 2026-07-28: task results are inlined in tasks/get)",
        );
        let r = h.v26("tasks/list", json!({}), declaring);
        assert_error(
            &h.send(&ctx, &r),
            -32601,
            "Method not found: tasks/list (removed in 2026-07-28: task results are inlined in tasks/get)",
        );
        let r = h.v26("tasks/frobnicate", json!({}), declaring);
        assert_error(
            &h.send(&ctx, &r),
            -32601,
            "Method not found: tasks/frobnicate",
        );
    }
}

// §D 85, 88, 89 and conformance tasks-mrtr-partial-fulfillment: a partial tasks/update is applied
// before the ack; the task resumes `working` once every key is answered; unknown keys (with any
// value) are ignored and still acked.
#[test]
fn v26_input_required_partial_then_complete_update_resumes_working() {
    let mut h = H::new();
    let ctx = ctx26();
    let id = h.start(&ctx);
    let mut requests = serde_json::Map::new();
    requests.insert("name".into(), elicit("Your name?"));
    requests.insert("confirm".into(), elicit("Sure?"));
    h.server
        .store_mut()
        .raise_input(
            Caller::Host,
            &id,
            requests,
            Some("Need input".into()),
            h.now,
        )
        .unwrap();
    let r = h.task_call(&ctx, "tasks/get", &id);
    assert_eq!(r["result"]["status"], "input_required");
    assert_eq!(r["result"]["statusMessage"], "Need input");
    assert_eq!(
        r["result"]["inputRequests"],
        json!({"confirm": elicit("Sure?"), "name": elicit("Your name?")})
    );

    let answer = json!({"action": "accept", "content": {"confirm": true}});
    let upd = h.v26(
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"name": answer, "unknown-key": {"ignored": true}}}),
        true,
    );
    let out = h.check(&ctx, &upd);
    assert_eq!(
        out,
        Outcome::Response {
            message: json!({"jsonrpc": "2.0", "id": upd["id"], "result": {"resultType": "complete"}}),
            event: Some(TaskEvent::InputTaken {
                task_id: id.clone(),
                accepted: vec!["name".into()]
            }),
        }
    );
    let r = h.task_call(&ctx, "tasks/get", &id);
    assert_eq!(r["result"]["status"], "input_required");
    assert_eq!(
        r["result"]["inputRequests"],
        json!({"confirm": elicit("Sure?")})
    );

    // Only ignored keys: an ack, no event.
    let upd = h.v26(
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"name": answer}}),
        true,
    );
    let out = h.check(&ctx, &upd);
    assert!(matches!(out, Outcome::Response { event: None, .. }));
    assert_eq!(
        out.response().unwrap()["result"],
        json!({"resultType": "complete"})
    );

    let upd = h.v26(
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"confirm": answer}}),
        true,
    );
    assert_eq!(
        h.send(&ctx, &upd)["result"],
        json!({"resultType": "complete"})
    );
    let r = h.task_call(&ctx, "tasks/get", &id);
    assert_eq!(r["result"]["status"], "working");
    assert!(r["result"].get("inputRequests").is_none());

    // Missing or non-object inputResponses: -32602.
    for params in [
        json!({"taskId": id}),
        json!({"taskId": id, "inputResponses": []}),
    ] {
        let upd = h.v26("tasks/update", params, true);
        assert_error(
            &h.send(&ctx, &upd),
            -32602,
            "Invalid params: `params.inputResponses` must be an object",
        );
    }
    // An update of a terminal task is an ack (its requests were superseded).
    h.finish(&id, ToolOutcome::Result(text_result("ok", false)));
    let upd = h.v26(
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"confirm": answer}}),
        true,
    );
    assert_eq!(
        h.send(&ctx, &upd)["result"],
        json!({"resultType": "complete"})
    );
}

// §D 90, §E 4: cancel acks with an empty result; the task is cancelled and the host told; a
// terminal task gets the same ack, unchanged, and no event.
#[test]
fn v26_cancel_acks_and_terminal_cancel_is_an_idempotent_ack() {
    let mut h = H::new();
    let ctx = ctx26();
    let id = h.start(&ctx);
    let c = h.v26("tasks/cancel", json!({"taskId": id}), true);
    assert_eq!(
        h.check(&ctx, &c),
        Outcome::Response {
            message: json!({"jsonrpc": "2.0", "id": c["id"], "result": {"resultType": "complete"}}),
            event: Some(TaskEvent::Cancelled {
                task_id: id.clone()
            }),
        }
    );
    let r = h.task_call(&ctx, "tasks/get", &id);
    assert_eq!(r["result"]["status"], "cancelled");
    assert_eq!(r["result"]["statusMessage"], "Cancelled by the requestor");
    let c = h.v26("tasks/cancel", json!({"taskId": id}), true);
    let out = h.check(&ctx, &c);
    assert!(matches!(out, Outcome::Response { event: None, .. }));
    assert_eq!(
        out.response().unwrap()["result"],
        json!({"resultType": "complete"})
    );

    let done = h.start(&ctx);
    h.finish(&done, ToolOutcome::Result(text_result("ok", false)));
    let r = h.task_call(&ctx, "tasks/cancel", &done);
    assert_eq!(r["result"], json!({"resultType": "complete"}));
    assert_eq!(
        h.task_call(&ctx, "tasks/get", &done)["result"]["status"],
        "completed"
    );
}

// §D 21, 93: cancel racing completion; the first terminal outcome wins either way.
#[test]
fn v26_cancel_racing_completion_first_terminal_wins() {
    let mut h = H::new();
    let ctx = ctx26();
    let a = h.start(&ctx);
    h.task_call(&ctx, "tasks/cancel", &a);
    assert_eq!(
        h.finish(&a, ToolOutcome::Result(text_result("late", false))),
        Finished::AlreadyTerminal {
            status: TaskStatus::Cancelled
        }
    );
    assert_eq!(
        h.finish(
            &a,
            ToolOutcome::RpcError {
                code: -32603,
                message: "late".into(),
                data: None
            }
        ),
        Finished::AlreadyTerminal {
            status: TaskStatus::Cancelled
        }
    );
    let r = h.task_call(&ctx, "tasks/get", &a);
    assert_eq!(r["result"]["status"], "cancelled");
    assert!(r["result"].get("result").is_none());

    let b = h.start(&ctx);
    h.finish(&b, ToolOutcome::Result(text_result("first", false)));
    assert_eq!(
        h.task_call(&ctx, "tasks/cancel", &b)["result"],
        json!({"resultType": "complete"})
    );
    let r = h.task_call(&ctx, "tasks/get", &b);
    assert_eq!(r["result"]["result"], text_result("first", false));

    // An expired task's late outcome is dropped.
    h.now += 3_600_001;
    assert_eq!(
        h.finish(&b, ToolOutcome::Result(text_result("x", false))),
        Finished::Gone
    );
}

// §B.e, §D 77, 78, 80: the decision matrix of a V26 tools/call.
#[test]
fn v26_tool_call_sync_task_or_32021() {
    let mut h = H::new();
    let ctx = ctx26();
    let cases = [
        (TaskSupport::Forbidden, true, "sync"),
        (TaskSupport::Forbidden, false, "sync"),
        (TaskSupport::Optional, true, "task"),
        (TaskSupport::Optional, false, "sync"),
        (TaskSupport::Required, true, "task"),
        (TaskSupport::Required, false, "-32021"),
    ];
    for (support, declaring, expect) in cases {
        for leftover_hint in [false, true] {
            let mut params = json!({"name": "greet", "arguments": {"name": "legacy-hint"}});
            if leftover_hint {
                // §D 80: ignored, neither an error nor an opt-in.
                params["task"] = json!({"ttl": 60_000, "pollInterval": 100});
            }
            let call = h.v26("tools/call", params, declaring);
            let d = h.begin(&ctx, &call, support);
            let got = match &d {
                ToolCallDecision::Sync => "sync",
                ToolCallDecision::Task { response, .. } => {
                    assert_eq!(response["result"]["resultType"], "task");
                    "task"
                }
                ToolCallDecision::Reject { response } => {
                    assert_eq!(
                        response["error"]["data"],
                        json!({"requiredCapabilities": {"extensions": {EXT: {}}}})
                    );
                    "-32021"
                }
            };
            assert_eq!(got, expect, "{support:?} declaring={declaring}");
            if let ToolCallDecision::Reject { response } = &d {
                assert_eq!(response["error"]["code"], -32021);
            }
        }
    }
}

// §D 78, 83: plan_tool_call says what begin_tool_call will decide (the same refusal, byte for
// byte) and stores nothing, so a host can refuse before asking for any input.
#[test]
fn plan_tool_call_predicts_begin_tool_call_and_creates_nothing() {
    let mut h = H::new();
    let supports = [
        TaskSupport::Forbidden,
        TaskSupport::Optional,
        TaskSupport::Required,
    ];
    for support in supports {
        let mut calls = Vec::new();
        for declaring in [false, true] {
            let c = h.v26(
                "tools/call",
                json!({"name": "t", "arguments": {}}),
                declaring,
            );
            calls.push((ctx26(), c));
        }
        for task in [None, Some(json!({"ttl": 1000})), Some(json!({"ttl": -1}))] {
            let mut params = json!({"name": "t", "arguments": {}});
            if let Some(t) = task {
                params["task"] = t;
            }
            calls.push((ctx25().session("s"), h.v25("tools/call", params)));
        }
        for (ctx, call) in calls {
            let plan = h.server.plan_tool_call(&call, &ctx, support);
            // Nothing stored: the session still lists no task.
            let list = h.v25("tasks/list", json!({}));
            let listed = h.send(&ctx25().session("s"), &list);
            assert_eq!(listed["result"]["tasks"], json!([]), "{plan:?}");
            let decision = h.begin(&ctx, &call, support);
            match (&plan, &decision) {
                (ToolCallPlan::Sync, ToolCallDecision::Sync)
                | (ToolCallPlan::Task, ToolCallDecision::Task { .. }) => {}
                (
                    ToolCallPlan::Reject { response: a },
                    ToolCallDecision::Reject { response: b },
                ) => {
                    assert_eq!(a, b)
                }
                other => panic!("plan and decision differ: {other:?} for {call}"),
            }
            if let ToolCallDecision::Task { task_id, .. } = decision {
                h.server
                    .store_mut()
                    .remove(Caller::Host, &task_id, h.now)
                    .unwrap();
            }
        }
    }
}

// §D 58: a synchronous answer carries resultType "complete" in V26, nothing added in V25.
#[test]
fn sync_tool_responses_of_both_versions() {
    let mut h = H::new();
    let call = h.v26(
        "tools/call",
        json!({"name": "greet", "arguments": {}}),
        false,
    );
    let r = sync_tool_response(
        &call,
        &ctx26(),
        ToolOutcome::Result(text_result("Hello, World!", false)),
    );
    assert_validates(&r, V26, &call);
    assert_eq!(
        r["result"],
        json!({"resultType": "complete", "content": [{"type": "text", "text": "Hello, World!"}], "isError": false})
    );
    let call = h.v25("tools/call", json!({"name": "greet", "arguments": {}}));
    let r = sync_tool_response(
        &call,
        &ctx25(),
        ToolOutcome::Result(text_result("hi", true)),
    );
    assert_validates(&r, V25, &call);
    assert_eq!(r["result"], text_result("hi", true));
    for (ctx, call) in [
        (ctx25(), call.clone()),
        (ctx26(), h.v26("tools/call", json!({"name": "x"}), true)),
    ] {
        let r = sync_tool_response(
            &call,
            &ctx,
            ToolOutcome::RpcError {
                code: -32602,
                message: "Unknown tool: x".into(),
                data: Some(json!({"tool": "x"})),
            },
        );
        assert_validates(&r, ctx.version, &call);
        assert_eq!(
            r["error"],
            json!({"code": -32602, "message": "Unknown tool: x", "data": {"tool": "x"}})
        );
        let r = sync_tool_response(&call, &ctx, ToolOutcome::Result(json!("not an object")));
        assert_validates(&r, ctx.version, &call);
        assert_eq!(r["error"]["code"], -32603);
    }
}

// A V26 task whose result is not an object fails with -32603 rather than storing garbage.
#[test]
fn v26_non_object_tool_result_fails_the_task() {
    let mut h = H::new();
    let ctx = ctx26();
    let id = h.start(&ctx);
    h.finish(&id, ToolOutcome::Result(json!([1, 2])));
    let r = h.task_call(&ctx, "tasks/get", &id);
    assert_eq!(r["result"]["status"], "failed");
    assert_eq!(r["result"]["error"]["code"], -32603);
}

// §D 71: a request without a string taskId answers -32602 (after the capability gate).
#[test]
fn missing_or_non_string_task_id_is_invalid_params() {
    let mut h = H::new();
    for ctx in [ctx25(), ctx26()] {
        for method in ["tasks/get", "tasks/cancel"] {
            for params in [json!({}), json!({"taskId": 7}), json!({"taskId": null})] {
                let r = h.req(&ctx, method, params);
                assert_error(
                    &h.send(&ctx, &r),
                    -32602,
                    "Invalid params: `params.taskId` must be a string",
                );
            }
        }
    }
    let r = json!({"jsonrpc": "2.0", "id": 3, "method": "tasks/result"});
    assert_error(
        &h.send(&ctx25(), &r),
        -32602,
        "Invalid params: `params.taskId` must be a string",
    );
}

// Envelopes: notifications get no answer, non-task messages are the host's, broken task
// requests get -32600.
#[test]
fn envelopes_notifications_and_foreign_messages() {
    let mut h = H::new();
    for ctx in [ctx25(), ctx26()] {
        let n = json!({"jsonrpc": "2.0", "method": "tasks/get", "params": {"taskId": "x"}});
        assert_eq!(h.check(&ctx, &n), Outcome::NoResponse);
        for m in [
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
            json!([1, 2]),
            json!("tasks/get"),
            json!({"jsonrpc": "2.0", "method": "notifications/tasks/status", "params": {}}),
        ] {
            assert_eq!(h.check(&ctx, &m), Outcome::NotHandled);
        }
        let bad_id = json!({"jsonrpc": "2.0", "id": {"x": 1}, "method": "tasks/get", "params": {"taskId": "x"}});
        let r = h.send(&ctx, &bad_id);
        assert_eq!(r["id"], Value::Null);
        assert_error(
            &r,
            -32600,
            "Invalid Request: `id` must be a string or an integer",
        );
        let bad_version =
            json!({"jsonrpc": "1.0", "id": 5, "method": "tasks/get", "params": {"taskId": "x"}});
        let r = h.send(&ctx, &bad_version);
        assert_eq!(r["id"], 5);
        assert_error(&r, -32600, "Invalid Request: `jsonrpc` must be \"2.0\"");
    }
}

// §D 42: over the session cap, a tools/call that would create a task is refused (-32010, data).
#[test]
fn session_cap_refuses_task_creation() {
    let mut h = H::with(StoreConfig {
        max_live_tasks_per_session: Some(1),
        ..StoreConfig::default()
    });
    for ctx in [ctx26().session("s"), ctx25().session("s")] {
        let mut h2 = H::with(h.server.store().config().clone());
        h2.start(&ctx);
        let call = match ctx.version {
            V25 => h2.v25("tools/call", json!({"name": "slow", "task": {}})),
            V26 => h2.v26("tools/call", json!({"name": "slow"}), true),
        };
        let ToolCallDecision::Reject { response } = h2.begin(&ctx, &call, TaskSupport::Optional)
        else {
            panic!("expected a refusal")
        };
        assert_eq!(response["error"]["code"], -32010);
        assert_eq!(response["error"]["data"], json!({"limit": 1}));
    }
    h.start(&ctx26().session("t"));
}

// §D 99: a V26 tasks/get and tasks/cancel work on a task created through the V25 flow.
#[test]
fn v26_reads_and_cancels_tasks_of_the_v25_flow() {
    let mut h = H::new();
    let id = h.start(&ctx25());
    let r = h.task_call(&ctx26(), "tasks/get", &id);
    assert_eq!(r["result"]["status"], "working");
    assert_eq!(r["result"]["ttlMs"], 60_000);
    assert_eq!(
        h.task_call(&ctx26(), "tasks/cancel", &id)["result"],
        json!({"resultType": "complete"})
    );
    assert_eq!(
        h.task_call(&ctx25(), "tasks/get", &id)["result"]["status"],
        "cancelled"
    );
}

#[test]
fn request_protocol_reads_the_meta_envelope() {
    let mut h = H::new();
    assert_eq!(
        request_protocol(&h.v26("tasks/get", json!({}), true)),
        Some(V26)
    );
    assert_eq!(request_protocol(&h.v25("tasks/get", json!({}))), None);
    assert_eq!(
        V25Declared::ALL.capabilities(),
        Some(json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}))
    );
    assert_eq!(
        V25Declared {
            list: false,
            cancel: false,
            tool_calls: false
        }
        .capabilities(),
        None
    );
}

// ------------------------------------------------------------------------------------------------
// 2025-11-25
// ------------------------------------------------------------------------------------------------

// §D 6, 7, 25, 29: an augmented call of an optional/required tool answers the nested
// CreateTaskResult with the effective TTL; tasks/get answers the flat Task.
#[test]
fn v25_augmented_call_creates_a_task_and_get_answers_the_flat_task() {
    let mut h = H::with(StoreConfig {
        max_ttl_ms: Some(120_000),
        ..StoreConfig::default()
    });
    let ctx = ctx25();
    for (support, ttl, effective) in [
        (TaskSupport::Optional, json!(60_000), json!(60_000)),
        (TaskSupport::Required, json!(999_999_999), json!(120_000)),
        (TaskSupport::Optional, Value::Null, json!(120_000)),
    ] {
        let call = h.v25(
            "tools/call",
            json!({"name": "slow", "arguments": {}, "task": {"ttl": ttl}}),
        );
        let ToolCallDecision::Task { task_id, response } = h.begin(&ctx, &call, support) else {
            panic!("expected a task")
        };
        let task = json!({"taskId": task_id, "status": "working", "createdAt": created_at(),
                          "lastUpdatedAt": created_at(), "ttl": effective, "pollInterval": 1000});
        assert_eq!(
            response,
            json!({"jsonrpc": "2.0", "id": call["id"], "result": {"task": task}})
        );
        let get = h.v25("tasks/get", json!({"taskId": task_id}));
        assert_eq!(
            h.send(&ctx, &get),
            json!({"jsonrpc": "2.0", "id": get["id"], "result": task})
        );
    }
}

// §D 40, 41: the decision matrix of a V25 tools/call.
#[test]
fn v25_tool_call_sync_task_or_32601() {
    let mut h = H::new();
    let all = ctx25();
    let undeclared = ctx25().declared(V25Declared {
        tool_calls: false,
        ..V25Declared::ALL
    });
    let cases = [
        (&all, TaskSupport::Forbidden, false, Ok("sync")),
        (
            &all,
            TaskSupport::Forbidden,
            true,
            Err("Method not found: tool 'slow' does not support task-augmented calls"),
        ),
        (&all, TaskSupport::Optional, false, Ok("sync")),
        (&all, TaskSupport::Optional, true, Ok("task")),
        (
            &all,
            TaskSupport::Required,
            false,
            Err("Method not found: tool 'slow' can only be called as a task (add params.task)"),
        ),
        (&all, TaskSupport::Required, true, Ok("task")),
        (&undeclared, TaskSupport::Optional, true, Ok("sync")),
        (&undeclared, TaskSupport::Forbidden, true, Ok("sync")),
    ];
    for (ctx, support, augmented, expect) in cases {
        let mut params = json!({"name": "slow", "arguments": {}});
        if augmented {
            params["task"] = json!({});
        }
        let call = h.v25("tools/call", params);
        let got = match h.begin(ctx, &call, support) {
            ToolCallDecision::Sync => Ok("sync"),
            ToolCallDecision::Task { .. } => Ok("task"),
            ToolCallDecision::Reject { response } => {
                assert_eq!(response["error"]["code"], -32601);
                Err(response["error"]["message"].as_str().unwrap().to_string())
            }
        };
        assert_eq!(
            got,
            expect.map_err(str::to_string),
            "{support:?} augmented={augmented}"
        );
    }
    // A malformed params.task: -32602.
    for task in [
        json!(5),
        json!({"ttl": -1}),
        json!({"ttl": 1.5}),
        json!({"ttl": "60"}),
    ] {
        let call = h.v25("tools/call", json!({"name": "slow", "task": task}));
        let ToolCallDecision::Reject { response } = h.begin(&all, &call, TaskSupport::Optional)
        else {
            panic!("expected a refusal for {task}")
        };
        assert_eq!(response["error"]["code"], -32602);
    }
    // Other requests are not augmentable here: run normally.
    let other = h.v25("prompts/get", json!({"name": "p", "task": {}}));
    assert_eq!(
        h.begin(&all, &other, TaskSupport::Required),
        ToolCallDecision::Sync
    );
}

// §D 26, 35, 38: unknown, expired and other-session ids answer -32602 on get, result, cancel.
#[test]
fn v25_unknown_expired_and_foreign_ids_are_not_found() {
    let mut h = H::new();
    let alice = ctx25().session("alice");
    let bob = ctx25().session("bob");
    let id = h.start(&alice); // ttl 60 s
    for (method, prefix) in [
        ("tasks/get", "Failed to retrieve task"),
        ("tasks/result", "Failed to retrieve task result"),
        ("tasks/cancel", "Failed to cancel task"),
    ] {
        let r = h.task_call(&alice, method, "nope");
        assert_error(&r, -32602, &format!("{prefix}: Task not found"));
        let r = h.task_call(&bob, method, &id);
        assert_error(&r, -32602, &format!("{prefix}: Task not found"));
    }
    h.now = T0 + 60_000;
    assert_eq!(
        h.task_call(&alice, "tasks/get", &id)["result"]["status"],
        "working"
    );
    h.now = T0 + 60_001;
    let r = h.task_call(&alice, "tasks/get", &id);
    assert_error(&r, -32602, "Failed to retrieve task: Task not found");
}

// §D 22, 23: cancel answers the task already cancelled; a terminal task answers -32602.
#[test]
fn v25_cancel_answers_the_cancelled_task_and_rejects_terminal_ones() {
    let mut h = H::new();
    let ctx = ctx25();
    let id = h.start(&ctx);
    h.now += 10;
    let c = h.v25("tasks/cancel", json!({"taskId": id}));
    let out = h.check(&ctx, &c);
    let Outcome::Response { message, event } = out else {
        panic!()
    };
    assert_eq!(
        event,
        Some(TaskEvent::Cancelled {
            task_id: id.clone()
        })
    );
    assert_eq!(
        message["result"],
        json!({"taskId": id, "status": "cancelled", "statusMessage": "Cancelled by the requestor",
               "createdAt": created_at(), "lastUpdatedAt": "2025-11-25T10:30:00.010Z",
               "ttl": 60_000, "pollInterval": 1000})
    );
    let r = h.task_call(&ctx, "tasks/cancel", &id);
    assert_error(
        &r,
        -32602,
        "Cannot cancel task: already in terminal status 'cancelled'",
    );
    let done = h.start(&ctx);
    h.finish(&done, ToolOutcome::Result(text_result("ok", false)));
    let r = h.task_call(&ctx, "tasks/cancel", &done);
    assert_error(
        &r,
        -32602,
        "Cannot cancel task: already in terminal status 'completed'",
    );
    assert_eq!(
        h.task_call(&ctx, "tasks/get", &done)["result"]["status"],
        "completed"
    );
}

// §D 30, 31, 14: tasks/result blocks while not terminal, then answers the original result with
// the related-task _meta (merged into the result's own _meta).
#[test]
fn v25_result_is_pending_then_the_original_result_with_related_task() {
    let mut h = H::new();
    let ctx = ctx25().session("s");
    let id = h.start(&ctx);
    let req = h.v25("tasks/result", json!({"taskId": id}));
    let Outcome::Pending(pending) = h.check(&ctx, &req) else {
        panic!("expected pending")
    };
    assert_eq!(
        pending,
        PendingResult {
            request_id: req["id"].clone(),
            task_id: id.clone(),
            session: Some("s".into()),
            owner: None,
        }
    );
    assert_eq!(h.settle(&pending), None);
    h.server
        .store_mut()
        .set_status(Caller::Host, &id, TaskStatus::InputRequired, None, h.now)
        .unwrap();
    assert_eq!(h.settle(&pending), None);
    let mut result = text_result("done", false);
    result["_meta"] = json!({"progressToken": 3});
    h.finish(&id, ToolOutcome::Result(result));
    let expected = json!({"jsonrpc": "2.0", "id": req["id"], "result": {
        "content": [{"type": "text", "text": "done"}], "isError": false,
        "_meta": {"progressToken": 3, "io.modelcontextprotocol/related-task": {"taskId": id}}}});
    assert_eq!(h.settle(&pending), Some(expected.clone()));
    // Once terminal, tasks/result answers at once.
    let again = h.v25("tasks/result", json!({"taskId": id}));
    let mut expected_again = expected;
    expected_again["id"] = again["id"].clone();
    assert_eq!(h.send(&ctx, &again), expected_again);
}

// §D 30, 44, §E 16: a failed task answers its JSON-RPC error; an isError tool result fails the V25
// task (with a diagnostic statusMessage) yet tasks/result answers that result; a cancelled task has
// no result (-32602).
#[test]
fn v25_result_of_failed_iserror_and_cancelled_tasks() {
    let mut h = H::new();
    let ctx = ctx25();
    let rpc_err = h.start(&ctx);
    h.finish(
        &rpc_err,
        ToolOutcome::RpcError {
            code: -32603,
            message: "API rate limit exceeded".into(),
            data: Some(json!({"retryAfter": 3})),
        },
    );
    let r = h.task_call(&ctx, "tasks/result", &rpc_err);
    assert_eq!(
        r["error"],
        json!({"code": -32603, "message": "API rate limit exceeded", "data": {"retryAfter": 3}})
    );
    assert_eq!(
        h.task_call(&ctx, "tasks/get", &rpc_err)["result"]["status"],
        "failed"
    );

    let tool_err = h.start(&ctx);
    h.finish(
        &tool_err,
        ToolOutcome::Result(text_result("disk full", true)),
    );
    let g = h.task_call(&ctx, "tasks/get", &tool_err);
    assert_eq!(g["result"]["status"], "failed");
    assert_eq!(
        g["result"]["statusMessage"],
        "Tool reported an error: disk full"
    );
    let r = h.task_call(&ctx, "tasks/result", &tool_err);
    assert_eq!(
        r["result"],
        json!({"content": [{"type": "text", "text": "disk full"}], "isError": true,
               "_meta": {"io.modelcontextprotocol/related-task": {"taskId": tool_err}}})
    );
    // Read under V26 (§D 99), that task shows a valid JSON-RPC error (derived for that view:
    // the tool result in `data.toolResult`) and no result.
    let g = h.task_call(&ctx26(), "tasks/get", &tool_err);
    assert_eq!(g["result"]["status"], "failed");
    assert_eq!(g["result"]["error"]["code"], -32603);
    assert_eq!(
        g["result"]["error"]["data"]["toolResult"],
        text_result("disk full", true)
    );
    assert!(g["result"].get("result").is_none());

    let cancelled = h.start(&ctx);
    h.task_call(&ctx, "tasks/cancel", &cancelled);
    let r = h.task_call(&ctx, "tasks/result", &cancelled);
    assert_error(
        &r,
        -32602,
        &format!(
            "Failed to retrieve task result: task {cancelled} was cancelled and has no result"
        ),
    );
}

// A pending tasks/result whose task is cancelled or expires settles with the matching answer.
#[test]
fn v25_pending_result_settles_on_cancel_and_on_expiry() {
    let mut h = H::new();
    let ctx = ctx25();
    let a = h.start(&ctx);
    let req = h.v25("tasks/result", json!({"taskId": a}));
    let Outcome::Pending(pa) = h.check(&ctx, &req) else {
        panic!()
    };
    h.task_call(&ctx, "tasks/cancel", &a);
    assert_eq!(h.settle(&pa).unwrap()["error"]["code"], -32602);
    let b = h.start(&ctx);
    let req = h.v25("tasks/result", json!({"taskId": b}));
    let Outcome::Pending(pb) = h.check(&ctx, &req) else {
        panic!()
    };
    h.now += 60_001;
    let r = h.settle(&pb).unwrap();
    assert_error(&r, -32602, "Failed to retrieve task result: Task not found");
}

// §D 35, 36, 37, 38: tasks/list pages in creation order over the caller's tasks only; forged and
// foreign cursors answer -32602.
#[test]
fn v25_list_pages_per_session_and_rejects_forged_cursors() {
    let mut h = H::with(StoreConfig {
        page_size: 2,
        ..StoreConfig::default()
    });
    let alice = ctx25().session("alice");
    let bob = ctx25().session("bob");
    let mine: Vec<String> = (0..5)
        .map(|i| {
            if i == 2 {
                h.start(&bob);
            }
            h.start(&alice)
        })
        .collect();
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let params = match &cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        let r = h.v25("tasks/list", params);
        let resp = h.send(&alice, &r);
        pages += 1;
        for t in resp["result"]["tasks"].as_array().unwrap() {
            assert_eq!(t["status"], "working");
            seen.push(t["taskId"].as_str().unwrap().to_string());
        }
        match resp["result"].get("nextCursor") {
            Some(c) => cursor = Some(c.as_str().unwrap().to_string()),
            None => break,
        }
        // A cursor of alice's is worthless to bob.
        let r = h.v25("tasks/list", json!({"cursor": cursor}));
        assert_error(
            &h.send(&bob, &r),
            -32602,
            "Failed to list tasks: Invalid cursor",
        );
    }
    assert_eq!((seen, pages), (mine, 3));
    let r = h.v25("tasks/list", json!({}));
    assert_eq!(
        h.send(&bob, &r)["result"]["tasks"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // No params at all is fine.
    let r = json!({"jsonrpc": "2.0", "id": 77, "method": "tasks/list"});
    assert_eq!(
        h.send(&bob, &r)["result"]["tasks"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    for bad in [json!({"cursor": "forged"}), json!({"cursor": ""})] {
        let r = h.v25("tasks/list", bad);
        assert_error(
            &h.send(&alice, &r),
            -32602,
            "Failed to list tasks: Invalid cursor",
        );
    }
    let r = h.v25("tasks/list", json!({"cursor": 3}));
    assert_error(
        &h.send(&alice, &r),
        -32602,
        "Invalid params: `params.cursor` must be a string",
    );
}

// A.e, A.f: tasks/list and tasks/cancel that the server did not declare, tasks/update (V26 only)
// and unknown tasks/* methods answer -32601.
#[test]
fn v25_undeclared_and_foreign_methods_are_method_not_found() {
    let mut h = H::new();
    let none = ctx25().declared(V25Declared {
        list: false,
        cancel: false,
        tool_calls: true,
    });
    let id = h.start(&none);
    let r = h.v25("tasks/list", json!({}));
    assert_error(
        &h.send(&none, &r),
        -32601,
        "Method not found: tasks/list (not declared in capabilities.tasks)",
    );
    let r = h.task_call(&none, "tasks/cancel", &id);
    assert_error(
        &r,
        -32601,
        "Method not found: tasks/cancel (not declared in capabilities.tasks)",
    );
    assert_eq!(
        h.task_call(&none, "tasks/get", &id)["result"]["status"],
        "working"
    );
    let r = h.v25("tasks/update", json!({"taskId": id, "inputResponses": {}}));
    assert_error(
        &h.send(&ctx25(), &r),
        -32601,
        "Method not found: tasks/update (not part of 2025-11-25)",
    );
    let r = h.v25("tasks/subscribe", json!({}));
    assert_error(
        &h.send(&ctx25(), &r),
        -32601,
        "Method not found: tasks/subscribe",
    );
}

// §D 34: a related-task _meta on tasks/get|result|cancel is ignored; params.taskId decides.
#[test]
fn v25_related_task_meta_on_requests_is_ignored() {
    let mut h = H::new();
    let ctx = ctx25();
    let a = h.start(&ctx);
    let b = h.start(&ctx);
    let r = h.v25(
        "tasks/get",
        json!({"taskId": a, "_meta": {"io.modelcontextprotocol/related-task": {"taskId": b}}}),
    );
    let out = h.server.handle(&r, &ctx, h.now);
    assert_eq!(out.response().unwrap()["result"]["taskId"], a.as_str());
}

// §D 44 with V26 reading the V25 flow: the cross-version answers all validate, and cancel racing
// completion in V25 keeps the first terminal outcome.
#[test]
fn v25_cancel_racing_completion_first_terminal_wins() {
    let mut h = H::new();
    let ctx = ctx25();
    let a = h.start(&ctx);
    h.task_call(&ctx, "tasks/cancel", &a);
    assert_eq!(
        h.finish(&a, ToolOutcome::Result(text_result("late", true))),
        Finished::AlreadyTerminal {
            status: TaskStatus::Cancelled
        }
    );
    assert_eq!(
        h.task_call(&ctx, "tasks/get", &a)["result"]["status"],
        "cancelled"
    );
    let b = h.start(&ctx);
    h.finish(&b, ToolOutcome::Result(text_result("first", false)));
    let r = h.task_call(&ctx, "tasks/cancel", &b);
    assert_eq!(r["error"]["code"], -32602);
    assert_eq!(
        h.task_call(&ctx, "tasks/result", &b)["result"]["content"][0]["text"],
        "first"
    );
}

// The sweep removes expired tasks; their ids then answer -32602 in both versions.
#[test]
fn swept_tasks_are_not_found() {
    let mut h = H::new();
    let a = h.start(&ctx25());
    let b = h.start(&ctx26());
    h.now += 3_600_001;
    assert_eq!(h.server.store_mut().sweep(h.now, 10), 2);
    assert_eq!(
        h.task_call(&ctx25(), "tasks/get", &a)["error"]["code"],
        -32602
    );
    assert_eq!(
        h.task_call(&ctx26(), "tasks/get", &b)["error"]["code"],
        -32602
    );
}

// The helper is not vacuous: a V26 tasks/get answer without resultType is refused.
#[test]
#[should_panic(expected = "does not validate")]
fn the_validation_helper_rejects_a_wrong_response() {
    let req = json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"taskId": "a"}});
    let resp = json!({"jsonrpc": "2.0", "id": 1, "result": {"taskId": "a", "status": "working",
        "createdAt": created_at(), "lastUpdatedAt": created_at(), "ttlMs": null}});
    assert_validates(&resp, V26, &req);
}

// ------------------------------------------------------------------------------------------------
// Random request sequences: no panic, and every response validates.
// ------------------------------------------------------------------------------------------------

mod random_sequences {
    use super::*;
    use proptest::prelude::*;

    const METHODS: &[&str] = &[
        "tasks/get",
        "tasks/update",
        "tasks/cancel",
        "tasks/result",
        "tasks/list",
        "tasks/nope",
        "tools/call",
        "ping",
    ];
    const SESSIONS: &[Option<&str>] = &[None, Some("a"), Some("b")];

    #[derive(Debug, Clone)]
    enum TaskRef {
        Known(usize),
        Unknown(String),
        NotAString(Value),
        Missing,
    }

    #[derive(Debug, Clone)]
    enum Op {
        Request {
            v26: bool,
            session: usize,
            declaring: bool,
            method: usize,
            task: TaskRef,
            /// 0: ordinary params, 1: no params, 2: params an array, 3: extra garbage member,
            /// 4: a saved cursor / input keys.
            shape: u8,
            string_id: bool,
            /// Send a known task's request from the session that owns it.
            own: bool,
        },
        ToolCall {
            v26: bool,
            session: usize,
            declaring: bool,
            support: u8,
            hint: Option<Value>,
            declared: bool,
        },
        Finish {
            task: usize,
            outcome: u8,
            text: String,
        },
        RaiseInput {
            task: usize,
            fresh: bool,
        },
        Advance(u64),
        Sweep,
        Garbage {
            v26: bool,
            message: Value,
        },
    }

    fn json_leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            (-1e6f64..1e6).prop_map(Value::from),
            "[a-z/]{0,12}".prop_map(Value::String),
            Just(json!("tasks/get")),
            Just(json!("2.0")),
        ]
    }

    fn json_value() -> impl Strategy<Value = Value> {
        json_leaf().prop_recursive(3, 24, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec(
                    (
                        prop::sample::select(vec![
                            "jsonrpc",
                            "id",
                            "method",
                            "params",
                            "taskId",
                            "cursor",
                            "_meta",
                            "inputResponses",
                            "task",
                            "ttl",
                            "result",
                            "error",
                        ]),
                        inner
                    ),
                    0..5
                )
                .prop_map(|kv| Value::Object(
                    kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
                )),
            ]
        })
    }

    fn task_ref() -> impl Strategy<Value = TaskRef> {
        prop_oneof![
            6 => (0usize..64).prop_map(TaskRef::Known),
            1 => "[a-z0-9-]{0,20}".prop_map(TaskRef::Unknown),
            1 => json_leaf().prop_map(TaskRef::NotAString),
            1 => Just(TaskRef::Missing),
        ]
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            8 => (any::<bool>(), 0..SESSIONS.len(), prop::bool::weighted(0.85), 0..METHODS.len(),
                  task_ref(), prop::sample::select(vec![0u8, 0, 0, 1, 2, 3, 4, 4]), any::<bool>(),
                  prop::bool::weighted(0.8))
                .prop_map(|(v26, session, declaring, method, task, shape, string_id, own)| Op::Request {
                    v26, session, declaring, method, task, shape, string_id, own
                }),
            5 => (any::<bool>(), 0..SESSIONS.len(), prop::bool::weighted(0.8), 0u8..3,
                  prop::option::weighted(0.7, prop_oneof![
                      4 => (0u64..30_000).prop_map(|t| json!({"ttl": t})),
                      1 => Just(json!({})),
                      1 => json_value(),
                  ]),
                  prop::bool::weighted(0.9))
                .prop_map(|(v26, session, declaring, support, hint, declared)| Op::ToolCall {
                    v26, session, declaring, support, hint, declared
                }),
            3 => (0usize..64, 0u8..5, "[ -~]{0,30}").prop_map(|(task, outcome, text)| Op::Finish { task, outcome, text }),
            2 => (0usize..64, any::<bool>()).prop_map(|(task, fresh)| Op::RaiseInput { task, fresh }),
            1 => (0u64..4000).prop_map(Op::Advance),
            1 => Just(Op::Sweep),
            1 => (any::<bool>(), json_value()).prop_map(|(v26, message)| Op::Garbage { v26, message }),
        ]
    }

    fn context(v26: bool, session: usize, declared: bool) -> RequestContext {
        let ctx = if v26 { ctx26() } else { ctx25() };
        let ctx = ctx.declared(V25Declared {
            list: declared,
            cancel: declared,
            tool_calls: declared,
        });
        match SESSIONS.get(session).copied().flatten() {
            Some(s) => ctx.session(s),
            None => ctx,
        }
    }

    struct World {
        h: H,
        /// Task ids with the session index that owns them.
        tasks: Vec<(String, usize)>,
        pending: Vec<PendingResult>,
        cursors: Vec<String>,
        keys: u64,
    }

    impl World {
        fn pick_owned(&self, i: usize) -> Option<(String, usize)> {
            if self.tasks.is_empty() {
                None
            } else {
                self.tasks.get(i % self.tasks.len()).cloned()
            }
        }

        fn pick(&self, i: usize) -> Option<String> {
            self.pick_owned(i).map(|(id, _)| id)
        }

        fn run(&mut self, op: Op) {
            match op {
                Op::Request {
                    v26,
                    session,
                    declaring,
                    method,
                    task,
                    shape,
                    string_id,
                    own,
                } => {
                    let session = match (&task, own) {
                        (TaskRef::Known(i), true) => {
                            self.pick_owned(*i).map_or(session, |(_, s)| s)
                        }
                        _ => session,
                    };
                    self.request(v26, session, declaring, method, task, shape, string_id)
                }
                Op::ToolCall {
                    v26,
                    session,
                    declaring,
                    support,
                    hint,
                    declared,
                } => {
                    let ctx = context(v26, session, declared);
                    let mut params = json!({"name": "slow", "arguments": {}});
                    if let Some(h) = hint {
                        params["task"] = h;
                    }
                    let call = if v26 {
                        self.h.v26("tools/call", params, declaring)
                    } else {
                        self.h.v25("tools/call", params)
                    };
                    let support = [
                        TaskSupport::Forbidden,
                        TaskSupport::Optional,
                        TaskSupport::Required,
                    ][usize::from(support % 3)];
                    match self.h.begin(&ctx, &call, support) {
                        ToolCallDecision::Task { task_id, .. } => {
                            self.tasks.push((task_id, session))
                        }
                        ToolCallDecision::Sync => {
                            let r = sync_tool_response(
                                &call,
                                &ctx,
                                ToolOutcome::Result(text_result("sync", false)),
                            );
                            assert_validates(&r, ctx.version, &call);
                        }
                        ToolCallDecision::Reject { response } => {
                            let code = response["error"]["code"].as_i64().unwrap();
                            assert!(
                                [-32601, -32602, -32021, -32010].contains(&code),
                                "{response}"
                            );
                        }
                    }
                }
                Op::Finish {
                    task,
                    outcome,
                    text,
                } => {
                    let Some(id) = self.pick(task) else { return };
                    let outcome = match outcome {
                        0 | 1 => ToolOutcome::Result(text_result(&text, outcome == 1)),
                        2 => ToolOutcome::RpcError {
                            code: -32603,
                            message: text,
                            data: None,
                        },
                        3 => ToolOutcome::RpcError {
                            code: 42,
                            message: text.clone(),
                            data: Some(json!({"why": text})),
                        },
                        _ => ToolOutcome::Result(json!(text)),
                    };
                    let before = self.h.server.store_mut().get(Caller::Host, &id, self.h.now);
                    let done = self.h.finish(&id, outcome);
                    match (before, done) {
                        (Err(_), d) => assert_eq!(d, Finished::Gone),
                        (Ok(r), Finished::AlreadyTerminal { status }) => {
                            assert!(r.status().is_terminal());
                            assert_eq!(status, r.status());
                        }
                        (Ok(r), Finished::Stored(s)) => {
                            assert!(!r.status().is_terminal());
                            assert!(s.status().is_terminal());
                        }
                        (Ok(_), Finished::Gone) => panic!("a visible task vanished"),
                    }
                }
                Op::RaiseInput { task, fresh } => {
                    let Some(id) = self.pick(task) else { return };
                    if fresh {
                        self.keys += 1;
                    }
                    let mut requests = serde_json::Map::new();
                    requests.insert(format!("k{}", self.keys), elicit("Go on?"));
                    // Terminal or gone tasks, reused keys: refused by the store, never a panic.
                    let _ = self.h.server.store_mut().raise_input(
                        Caller::Host,
                        &id,
                        requests,
                        None,
                        self.h.now,
                    );
                }
                Op::Advance(ms) => {
                    self.h.now += ms;
                    self.settle();
                }
                Op::Sweep => {
                    self.h.server.store_mut().sweep(self.h.now, 100);
                    self.settle();
                }
                Op::Garbage { v26, message } => {
                    let ctx = if v26 { ctx26() } else { ctx25() };
                    let _ = self.h.check(&ctx, &message);
                    let _ = self.h.begin(&ctx, &message, TaskSupport::Required);
                }
            }
        }

        fn settle(&mut self) {
            let pending = std::mem::take(&mut self.pending);
            for p in pending {
                if self.h.settle(&p).is_none() {
                    self.pending.push(p);
                }
            }
        }

        #[allow(clippy::too_many_arguments)]
        fn request(
            &mut self,
            v26: bool,
            session: usize,
            declaring: bool,
            method: usize,
            task: TaskRef,
            shape: u8,
            string_id: bool,
        ) {
            let ctx = context(v26, session, shape != 3);
            let method = METHODS[method % METHODS.len()];
            let mut params = json!({});
            match task {
                TaskRef::Known(i) => {
                    if let Some(id) = self.pick(i) {
                        params["taskId"] = json!(id);
                    }
                }
                TaskRef::Unknown(s) => params["taskId"] = json!(s),
                TaskRef::NotAString(v) => params["taskId"] = v,
                TaskRef::Missing => {}
            }
            if method == "tasks/update" {
                let mut responses = serde_json::Map::new();
                let key = if shape == 4 {
                    format!("k{}", self.keys)
                } else {
                    "unknown-key".into()
                };
                responses.insert(
                    key,
                    json!({"action": "accept", "content": {"confirm": true}}),
                );
                params["inputResponses"] = Value::Object(responses);
            }
            if method == "tasks/list" && shape == 4 {
                if let Some(c) = self.cursors.last() {
                    params["cursor"] = json!(c);
                }
            }
            if shape == 3 {
                params["extra"] = json!({"x": [1, 2]});
            }
            let mut request = if v26 {
                self.h.v26(method, params, declaring)
            } else {
                self.h.v25(method, params)
            };
            match shape {
                1 => {
                    request.as_object_mut().unwrap().remove("params");
                }
                2 => request["params"] = json!([1]),
                _ => {}
            }
            if string_id {
                request["id"] = json!(format!("s{}", self.h.next_id));
            }
            let out = self.h.check(&ctx, &request);
            match &out {
                Outcome::Response { message, event } => {
                    if let Some(c) = message["result"]["nextCursor"].as_str() {
                        self.cursors.push(c.to_string());
                    }
                    let code = message["error"]["code"].as_i64();
                    if v26 && (method == "tasks/result" || method == "tasks/list") {
                        assert_eq!(code, Some(-32601));
                    }
                    if v26
                        && !declaring
                        && ["tasks/get", "tasks/update", "tasks/cancel"].contains(&method)
                    {
                        assert_eq!(code, Some(-32021));
                    }
                    if event.is_some() {
                        assert!(["tasks/cancel", "tasks/update"].contains(&method));
                    }
                }
                Outcome::Pending(p) => {
                    assert!(!v26 && method == "tasks/result");
                    self.pending.push(p.clone());
                }
                Outcome::NotHandled => assert!(!method.starts_with("tasks/")),
                Outcome::NoResponse => panic!("requests have ids"),
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn random_sequences_never_panic_and_every_response_validates(
            ops in prop::collection::vec(op(), 1..60)
        ) {
            let mut w = World {
                h: H::with(StoreConfig {
                    page_size: 3,
                    default_ttl_ms: Some(20_000),
                    max_live_tasks_per_session: Some(8),
                    ..StoreConfig::default()
                }),
                tasks: Vec::new(),
                pending: Vec::new(),
                cursors: Vec::new(),
                keys: 0,
            };
            for op in ops {
                w.run(op);
            }
            // Everything still pending settles once its task is gone: past the longest TTL a
            // task can have (the default maximum; a task lives through its last millisecond).
            let max_ttl = StoreConfig::default().max_ttl_ms.unwrap_or(86_400_000);
            w.h.now += max_ttl + 1;
            w.settle();
            prop_assert!(w.pending.is_empty());
        }
    }
}

/// §D 98: input requests only for capabilities the creating request declared in its `_meta`.
#[test]
fn input_requests_need_the_capabilities_the_request_declared() {
    let with = |caps: Value| {
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": caps,
        }}})
    };
    let inputs = |method: &str| {
        let mut m = serde_json::Map::new();
        m.insert("k".into(), json!({"method": method, "params": {}}));
        m
    };
    let full = with(json!({"elicitation": {}, "sampling": {}, "roots": {}, "extensions": {}}));
    for method in ["elicitation/create", "sampling/createMessage", "roots/list"] {
        assert_eq!(
            check_input_capabilities(&full, &inputs(method)),
            Ok(()),
            "{method}"
        );
    }
    let only_sampling = with(json!({"sampling": {}}));
    assert!(check_input_capabilities(&only_sampling, &inputs("sampling/createMessage")).is_ok());
    for (request, method, capability) in [
        (&only_sampling, "elicitation/create", "elicitation"),
        (&only_sampling, "roots/list", "roots"),
        (&with(json!({})), "sampling/createMessage", "sampling"),
    ] {
        let err = check_input_capabilities(request, &inputs(method)).err();
        let Some(StoreError::InvalidInputRequest { key, reason }) = err else {
            panic!("{method}: expected InvalidInputRequest, got {err:?}");
        };
        assert_eq!(key.as_deref(), Some("k"));
        assert!(reason.contains(capability), "{reason}");
        assert_eq!(
            StoreError::InvalidInputRequest { key, reason }.code(),
            -32603
        );
    }
    // No _meta at all, or a method that is not an input request: refused.
    let bare = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t"}});
    assert!(check_input_capabilities(&bare, &inputs("elicitation/create")).is_err());
    assert!(check_input_capabilities(&full, &inputs("tools/call")).is_err());
    assert_eq!(input_capability("roots/list"), Some("roots"));
}

// §D 30, 92: the answer is exactly the tool's result, so a result that is not a CallToolResult
// (no `content`, `content` not an array, `isError` not a boolean) makes the call an internal
// error (-32603) in both versions, synchronous or as a task: never an invalid answer.
#[test]
fn invalid_tool_results_become_internal_errors() {
    let bad = [
        json!({"structuredContent": {"x": 1}}),
        json!({"content": "text"}),
        json!({"content": [], "isError": "yes"}),
    ];
    for ctx in [ctx25(), ctx26()] {
        for result in &bad {
            let mut h = H::new();
            let call = match ctx.version {
                ProtocolVersion::V2025 => h.v25("tools/call", json!({"name": "t"})),
                ProtocolVersion::V2026 => h.v26("tools/call", json!({"name": "t"}), true),
            };
            let r = sync_tool_response(&call, &ctx, ToolOutcome::Result(result.clone()));
            assert_validates(&r, ctx.version, &call);
            assert_eq!(r["error"]["code"], -32603, "{result}");
            let message = r["error"]["message"].as_str().unwrap_or("");
            assert!(message.contains("invalid CallToolResult"), "{message}");

            let id = h.start(&ctx);
            h.finish(&id, ToolOutcome::Result(result.clone()));
            let r = h.task_call(&ctx, "tasks/get", &id);
            assert_eq!(r["result"]["status"], "failed", "{result}");
        }
    }
    // A valid result with extra members and `_meta` passes as it is (V26: no resultType added
    // to what a task stores).
    let mut h = H::new();
    let ctx = ctx26();
    let id = h.start(&ctx);
    let ok =
        json!({"content": [], "structuredContent": {"n": 1}, "_meta": {"k": "v"}, "extra": true});
    h.finish(&id, ToolOutcome::Result(ok.clone()));
    let r = h.task_call(&ctx, "tasks/get", &id);
    assert_eq!(r["result"]["status"], "completed");
    assert_eq!(r["result"]["result"], ok);
}

// ------------------------------------------------------------------------------------------------
// Owners (the authenticated principal of the request)
// ------------------------------------------------------------------------------------------------

/// The response of `method` on `task_id` as an unknown id would get it (-32602, no oracle).
#[track_caller]
fn assert_as_unknown(h: &mut H, ctx: &RequestContext, method: &str, task_id: &str) {
    let params = if method == "tasks/update" {
        json!({"taskId": task_id, "inputResponses": {"k": {"action": "accept", "content": {"confirm": true}}}})
    } else {
        json!({"taskId": task_id})
    };
    let foreign = h.req(ctx, method, params.clone());
    let foreign = h.send(ctx, &foreign);
    let mut unknown_params = params;
    unknown_params["taskId"] = json!("0123456789abcdef0123456789abcdef");
    let unknown = h.req(ctx, method, unknown_params);
    let unknown = h.send(ctx, &unknown);
    assert_eq!(foreign["error"]["code"], -32602, "{method}: {foreign}");
    assert_eq!(foreign["error"], unknown["error"], "{method}");
}

// §D 38, §B.h security: a 2026-07-28 task created with an owner is invisible to every other
// owner and to callers without one: get, update, cancel answer as for an unknown id; the owner
// reads, answers and cancels it.
#[test]
fn v26_a_task_is_bound_to_its_owner() {
    let mut h = H::new();
    let alice = ctx26().owner("alice");
    let bob = ctx26().owner("bob");
    let id = h.start(&alice);
    let mut requests = serde_json::Map::new();
    requests.insert("k".into(), elicit("ok?"));
    h.server
        .store_mut()
        .raise_input(Caller::Host, &id, requests, None, h.now)
        .unwrap();
    for ctx in [&bob, &ctx26()] {
        for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
            assert_as_unknown(&mut h, ctx, method, &id);
        }
    }
    assert_eq!(h.task_call(&bob, "tasks/get", &id)["error"]["code"], -32602);
    let got = h.task_call(&alice, "tasks/get", &id);
    assert_eq!(got["result"]["status"], "input_required");
    let r = h.task_call(&alice, "tasks/cancel", &id);
    assert!(r.get("result").is_some(), "{r}");
}

// 2025-11-25: owner and session both bind: another owner in the same session (a session id
// used by someone else) sees none of the task: get, result, cancel as unknown, list empty.
#[test]
fn v25_owner_and_session_both_bind() {
    let mut h = H::new();
    let alice = ctx25().session("s").owner("alice");
    let mallory = ctx25().session("s").owner("mallory");
    let id = h.start(&alice);
    let other = h.start(&mallory);
    for ctx in [&mallory, &ctx25().session("s"), &ctx25().owner("alice")] {
        for method in ["tasks/get", "tasks/result", "tasks/cancel"] {
            assert_as_unknown(&mut h, ctx, method, &id);
        }
    }
    let list = |h: &mut H, ctx: &RequestContext| {
        let r = h.v25("tasks/list", json!({}));
        let r = h.send(ctx, &r);
        r["result"]["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["taskId"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(list(&mut h, &alice), vec![id.clone()]);
    assert_eq!(list(&mut h, &mallory), vec![other]);
    assert!(list(&mut h, &ctx25().session("s")).is_empty());
    assert_eq!(
        h.task_call(&alice, "tasks/get", &id)["result"]["status"],
        "working"
    );
}

// A list cursor is good for the owner it was issued to: another owner of the session gets
// -32602 with it.
#[test]
fn v25_list_cursors_are_the_owners() {
    let mut h = H::with(StoreConfig {
        page_size: 1,
        ..StoreConfig::default()
    });
    let alice = ctx25().session("s").owner("alice");
    let mallory = ctx25().session("s").owner("mallory");
    h.start(&alice);
    h.start(&alice);
    let r = h.v25("tasks/list", json!({}));
    let page = h.send(&alice, &r);
    let cursor = page["result"]["nextCursor"].as_str().unwrap().to_owned();
    let r = h.v25("tasks/list", json!({ "cursor": cursor }));
    assert_eq!(
        h.send(&alice, &r)["result"]["tasks"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let r = h.v25("tasks/list", json!({ "cursor": cursor }));
    assert_eq!(h.send(&mallory, &r)["error"]["code"], -32602);
}

// Tasks stored before owners existed (no owner) stay readable as before: by their session.
#[test]
fn tasks_without_owner_stay_readable_by_their_session() {
    let mut h = H::new();
    let id = h.start(&ctx26());
    let r = h.task_call(&ctx26().owner("alice"), "tasks/get", &id);
    assert_eq!(r["result"]["taskId"], id.as_str());
    let r = h.task_call(&ctx26(), "tasks/get", &id);
    assert_eq!(r["result"]["taskId"], id.as_str());
}

// A tool's own poll interval and TTL bounds apply to the tasks of its calls, in both eras.
#[test]
fn a_tools_task_settings_override_the_stores() {
    use mcp_tasks_wasm::server::TaskSettings;
    let mut h = H::new();
    let settings = TaskSettings {
        poll_interval_ms: Some(250),
        default_ttl_ms: Some(5_000),
        max_ttl_ms: Some(30_000),
    };
    let mut v26 = ctx26();
    v26.task = settings;
    let id = h.start(&v26);
    let got = h.task_call(&v26, "tasks/get", &id);
    assert_eq!(got["result"]["pollIntervalMs"], 250);
    assert_eq!(got["result"]["ttlMs"], 5_000);
    let mut v25 = ctx25();
    v25.task = settings;
    let id = h.start(&v25); // asks for 60 s: capped by the tool's 30 s
    let got = h.task_call(&v25, "tasks/get", &id);
    assert_eq!(got["result"]["pollInterval"], 250);
    assert_eq!(got["result"]["ttl"], 30_000);
    // Without settings: the store's.
    let id = h.start(&ctx26());
    let got = h.task_call(&ctx26(), "tasks/get", &id);
    assert_eq!(got["result"]["pollIntervalMs"], 1000);
    assert_eq!(got["result"]["ttlMs"], 3_600_000);
}
