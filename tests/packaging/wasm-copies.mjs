// The .wasm files a bundler that leaves `new URL("…", import.meta.url)` alone (esbuild, Rollup)
// needs copied next to a bundle that takes both entries: [path in the project, name in dist/].
// Each entry has its own module (in browsers the main entry's browser module, and its client
// module for Conversation; the server entry's with the task store), under its own file name; the
// "Bundlers" section of docs/guides/packaging.md shows the same cp lines.
export const WASM_COPIES = [
  ["node_modules/mcp-tasks-wasm/browser/mcp_tasks_browser_bg.wasm", "mcp_tasks_browser_bg.wasm"],
  ["node_modules/mcp-tasks-wasm/mcp_tasks_wasm_bg.wasm", "mcp_tasks_wasm_bg.wasm"],
  ["node_modules/mcp-tasks-wasm/server/mcp_tasks_server_bg.wasm", "mcp_tasks_server_bg.wasm"],
];
