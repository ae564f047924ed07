// Vite 5 dev server, no configuration: the project of tests/packaging/vite5 ("mcp-tasks-wasm/bytes"
// and `await init()`), dependency pre-bundling included, the page opened in headless Chromium.
import { runViteDev } from "../vite-dev/env.mjs";

export const kind = "browser";

export function run(options) {
  return runViteDev("vite5-dev", "vite5/bin/vite.js", { project: "vite5", entry: "mcp-tasks-wasm/bytes" }, options);
}
