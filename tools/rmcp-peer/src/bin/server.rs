//! An rmcp 3.11 (the official Rust SDK) MCP server over Streamable HTTP, with tasks on rmcp's own
//! runtime (`TaskManager`, SEP-2663: 2026-07-28 tasks), for the real-peer matrix.
//!
//!     tools/rmcp-peer/target/release/rmcp-task-server [PORT]   (0 or none: a free port)
//!
//! Binds 127.0.0.1 only and prints ONE line once it listens:
//! `rmcp-task-server listening on http://127.0.0.1:PORT/mcp`. Tools:
//!   add        sync: text `<a + b>`.
//!   slow_sum   a client that declared io.modelcontextprotocol/tasks: a task that completes after
//!              `ms` (default 300) with text `sum: <a + b>` (cancellable); any other: the same
//!              answer synchronously.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::*,
    service::{RequestContext, RoleServer},
    task_manager::{TaskExit, TaskManager, TaskOptions},
    tool, tool_router,
    transport::streamable_http_server::{
        session::local::LocalSessionManager, StreamableHttpServerConfig, StreamableHttpService,
    },
    ErrorData as McpError, ServerHandler,
};

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct AddArgs {
    a: i64,
    b: i64,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct SlowArgs {
    a: i64,
    b: i64,
    ms: Option<u64>,
}

#[derive(Clone)]
struct Peer {
    tool_router: ToolRouter<Peer>,
    tasks: TaskManager,
}

#[tool_router]
impl Peer {
    fn new(tasks: TaskManager) -> Self {
        Self {
            tool_router: Self::tool_router(),
            tasks,
        }
    }

    #[tool(description = "Adds two numbers")]
    async fn add(
        &self,
        Parameters(AddArgs { a, b }): Parameters<AddArgs>,
    ) -> Result<CallToolResult, McpError> {
        Ok(CallToolResult::success(vec![ContentBlock::text(
            (a + b).to_string(),
        )]))
    }

    #[tool(
        description = "Adds two numbers slowly: a task when the client declared the tasks extension"
    )]
    async fn slow_sum(
        &self,
        Parameters(SlowArgs { a, b, ms }): Parameters<SlowArgs>,
    ) -> Result<CallToolResult, McpError> {
        tokio::time::sleep(std::time::Duration::from_millis(ms.unwrap_or(300))).await;
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "sum: {}",
            a + b
        ))]))
    }
}

impl ServerHandler for Peer {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let tasks_declared = context
            .client_capabilities()
            .is_some_and(|caps| caps.supports_tasks());
        if request.name == "slow_sum" && tasks_declared {
            let args: SlowArgs = serde_json::from_value(serde_json::Value::Object(
                request.arguments.clone().unwrap_or_default(),
            ))
            .map_err(|e| McpError::invalid_params(e.to_string(), None))?;
            let task = self.tasks.spawn(TaskOptions::new().with_poll_interval_ms(100), move |ctx| {
                Box::pin(async move {
                    tokio::select! {
                        _ = ctx.cancelled() => Err(TaskExit::Cancelled),
                        _ = tokio::time::sleep(std::time::Duration::from_millis(args.ms.unwrap_or(300))) => {
                            Ok(CallToolResult::success(vec![ContentBlock::text(format!("sum: {}", args.a + args.b))]))
                        }
                    }
                })
            });
            return Ok(CallToolResponse::Task(CreateTaskResult::new(task)));
        }
        let call = rmcp::handler::server::tool::ToolCallContext::new(self, request, context);
        self.tool_router.call(call).await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        Ok(GetTaskResult::new(self.tasks.get_task(&request.task_id)?))
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.tasks
            .update_task(&request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.tasks.cancel_task(&request.task_id)
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tasks()
                .build(),
        )
        .with_server_info(Implementation::new("rmcp-task-server", "3.11.0"))
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port: u16 = std::env::args()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    // One task store for every request: 2026-07-28 requests are stateless (one handler each).
    let tasks = TaskManager::new();
    let service: StreamableHttpService<Peer, LocalSessionManager> = StreamableHttpService::new(
        move || Ok(Peer::new(tasks.clone())),
        Default::default(),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    let address = listener.local_addr()?;
    println!("rmcp-task-server listening on http://{address}/mcp");
    axum::serve(listener, router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}
