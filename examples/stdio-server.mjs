#!/usr/bin/env node
// An MCP server that hosts tasks with mcp-tasks-wasm, over stdio (newline-delimited JSON-RPC on
// stdin/stdout; nothing else is ever written to stdout, logs go to stderr).
//
//   bash scripts/build.sh                       # builds pkg/ (the package)
//   node examples/stdio-server.mjs              # a client starts it as its child process
//
// Both protocol eras on the same pipe, through the package's McpStdioServer: 2025-11-25
// (`initialize` opens the process's one session; task-augmented `tools/call`, `tasks/*`,
// elicitation requests and `notifications/tasks/status` on stdout) and 2026-07-28 (per-request
// `_meta`, `server/discover`, the tasks extension). The tools are examples/conformance-server.mjs's
// (examples/tools.mjs). The input ending (the client closed it) stops the server.

// Users of the published package write:
//   import { McpStdioServer } from "mcp-tasks-wasm/server";
import { McpStdioServer } from "../pkg/server/node.mjs";
import { TOOLS } from "./tools.mjs";

const app = new McpStdioServer({ name: "mcp-tasks-wasm-stdio-server", version: "0.1.0" });
for (const { name, handler, ...options } of TOOLS) app.tool(name, options, handler);

await app.serve({ readable: process.stdin, write: (bytes) => process.stdout.write(bytes) });
process.exit(0);
