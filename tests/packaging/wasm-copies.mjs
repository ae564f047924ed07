// The .wasm files a bundler that leaves `new URL("…", import.meta.url)` alone (esbuild, Rollup)
// needs copied next to a bundle that takes both entries: [path in the project, name in dist/].
// Both entries share the package's one module (pkg/server/'s entry files import the main
// entry's), so one file is copied; the README's "Bundlers" section shows the same cp line.
export const WASM_COPIES = [
  ["node_modules/mcp-tasks-wasm/mcp_tasks_wasm_bg.wasm", "mcp_tasks_wasm_bg.wasm"],
];
