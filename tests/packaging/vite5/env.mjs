// Vite 5, no configuration: its default build targets have no top-level await, so the project
// imports "mcp-tasks-wasm/bytes" (no top-level await) and calls init() with the .wasm's `?url`
// before the first use (project/main.js).
import { runVite } from "../vite/env.mjs";

export const kind = "browser";

export function run(options) {
  return runVite("vite5", "vite5/bin/vite.js", { entry: "mcp-tasks-wasm/bytes" }, options);
}
