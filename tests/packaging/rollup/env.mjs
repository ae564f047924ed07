// Rollup 4: it resolves no bare import without @rollup/plugin-node-resolve, so that plugin is
// given on the command line (`-p node-resolve`), no config file; Rollup leaves
// `new URL("…", import.meta.url)` alone, so the .wasm is copied next to the bundle. Both lines are
// the ones of the "Bundlers" section of docs/guides/packaging.md.
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { browserProbe, exec, scratch, serveStatic, tool } from "../lib.mjs";

export const kind = "browser";

export async function run({ serverUrl, getBrowser }) {
  const dir = await scratch("rollup");
  // docs/guides/packaging.md "Bundlers", Rollup:
  //   rollup -p node-resolve -f es -o dist/main.js main.js
  //   cp node_modules/mcp-tasks-wasm/browser/mcp_tasks_browser_bg.wasm node_modules/mcp-tasks-wasm/mcp_tasks_wasm_bg.wasm dist/
  await exec(tool("rollup/dist/bin/rollup"), ["-p", "node-resolve", "-f", "es", "-o", "dist/main.js", "probe/browser-main.js"], { cwd: dir });
  await exec("cp", ["node_modules/mcp-tasks-wasm/browser/mcp_tasks_browser_bg.wasm", "node_modules/mcp-tasks-wasm/mcp_tasks_wasm_bg.wasm", "dist/"], { cwd: dir });
  copyFileSync(join(dir, "probe/index.html"), join(dir, "dist/index.html"));
  const site = await serveStatic(join(dir, "dist"));
  try {
    return await browserProbe(await getBrowser(), `${site.url}?server=${encodeURIComponent(serverUrl)}`);
  } finally {
    await site.close();
  }
}
