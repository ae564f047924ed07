//! An rmcp 3.11 (the official Rust SDK) client over Streamable HTTP that drives 2026-07-28 tasks
//! with rmcp's own calls (`call_tool_once` → `CreateTaskResult`, `get_task`, `cancel_task`), for
//! the real-peer matrix.
//!
//!     tools/rmcp-peer/target/release/rmcp-task-client URL TOOL ARGS_JSON
//!
//! Negotiates like rmcp's auto mode (`server/discover`, 2026-07-28 preferred) and declares the
//! tasks extension, then: 1. calls TOOL with ARGS and polls `tasks/get` (at the
//! task's `pollIntervalMs`) to a terminal status; 2. calls TOOL with ARGS and `seconds: 30`,
//! sends `tasks/cancel`, and polls to a terminal status. Prints ONE JSON line on stdout:
//! {"protocolVersion", "taskId", "status", "text", "cancelled": {"taskId", "status"}}, or
//! {"error": "..."} (exit 1). Every poll loop is bounded (600 polls).
use rmcp::{
    model::*,
    service::{ClientLifecycleMode, ClientServiceExt},
    transport::StreamableHttpClientTransport,
};
use serde_json::{json, Value};

const MAX_POLLS: usize = 600;

async fn poll(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ClientConfig>,
    task: &Task,
) -> Result<DetailedTask, String> {
    let wait =
        std::time::Duration::from_millis(task.poll_interval_ms.unwrap_or(100).clamp(10, 1000));
    for _ in 0..MAX_POLLS {
        let got = client
            .peer()
            .get_task(GetTaskParams::new(task.task_id.clone()))
            .await
            .map_err(|e| format!("tasks/get: {e}"))?;
        if got.task.status().is_terminal() {
            return Ok(got.task);
        }
        tokio::time::sleep(wait).await;
    }
    Err(format!(
        "task {} not terminal after {MAX_POLLS} polls",
        task.task_id
    ))
}

fn status_name(status: TaskStatus) -> Value {
    serde_json::to_value(status).unwrap_or(Value::Null)
}

async fn run(url: String, tool: String, args: JsonObject) -> Result<Value, String> {
    let config = ClientConfig::new(
        ClientCapabilities::builder().enable_tasks().build(),
        Implementation::new("rmcp-task-client", "3.11.0"),
    );
    // `server/discover` first (2026-07-28: rmcp's tasks are of that version), `initialize` if refused.
    let lifecycle = ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: None,
    };
    let client = config
        .serve_with_lifecycle(StreamableHttpClientTransport::from_uri(url), lifecycle)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let version = client
        .peer()
        .peer_info()
        .map(|info| info.protocol_version.to_string());

    let call = |args: JsonObject| CallToolRequestParams::new(tool.clone()).with_arguments(args);
    let created = match client
        .call_tool_once(call(args.clone()))
        .await
        .map_err(|e| format!("tools/call: {e}"))?
    {
        CallToolResponse::Task(created) => created,
        other => return Err(format!("tools/call: not a task: {other:?}")),
    };
    let done = poll(&client, &created.task).await?;
    let text = match &done.payload {
        TaskPayload::Completed { result } => {
            let result: CallToolResult = serde_json::from_value(Value::Object(result.clone()))
                .map_err(|e| format!("result: {e}"))?;
            result
                .content
                .first()
                .and_then(|c| c.as_text())
                .map(|t| t.text.clone())
        }
        _ => None,
    };

    let mut slow = args;
    slow.insert("seconds".into(), json!(30));
    let running = match client
        .call_tool_once(call(slow))
        .await
        .map_err(|e| format!("tools/call: {e}"))?
    {
        CallToolResponse::Task(created) => created,
        other => return Err(format!("tools/call: not a task: {other:?}")),
    };
    client
        .peer()
        .cancel_task(CancelTaskParams::new(running.task.task_id.clone()))
        .await
        .map_err(|e| format!("tasks/cancel: {e}"))?;
    let cancelled = poll(&client, &running.task).await?;
    let _ = client.cancel().await;
    Ok(json!({
        "protocolVersion": version,
        "taskId": created.task.task_id,
        "status": status_name(done.status()),
        "text": text,
        "cancelled": { "taskId": running.task.task_id, "status": status_name(cancelled.status()) },
    }))
}

#[tokio::main]
async fn main() {
    let mut argv = std::env::args().skip(1);
    let (Some(url), Some(tool)) = (argv.next(), argv.next()) else {
        eprintln!("usage: rmcp-task-client URL TOOL [ARGS_JSON]");
        std::process::exit(2);
    };
    let args: JsonObject = argv
        .next()
        .and_then(|a| serde_json::from_str(&a).ok())
        .unwrap_or_default();
    match run(url, tool, args).await {
        Ok(out) => println!("{out}"),
        Err(error) => {
            println!("{}", json!({ "error": error }));
            std::process::exit(1);
        }
    }
}
