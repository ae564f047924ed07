// The .wasm files a bundler that leaves `new URL("…", import.meta.url)` alone (esbuild, Rollup)
// needs copied next to a bundle that takes both entries: [path in the project, name in dist/].
// Today both entries ask for the same name, mcp_tasks_wasm_bg.wasm, so the second copy replaces
// the first and one entry gets the other's module (see expected-failures.mjs). When the entries
// get distinct file names, this list names them, and the README's "Bundlers" section shows the
// same cp lines.
export const WASM_COPIES = [
  ["node_modules/mcp-tasks-wasm/mcp_tasks_wasm_bg.wasm", "mcp_tasks_wasm_bg.wasm"],
  ["node_modules/mcp-tasks-wasm/server/mcp_tasks_wasm_bg.wasm", "mcp_tasks_wasm_bg.wasm"],
];
