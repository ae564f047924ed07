// esbuild, browser ESM: one bundle of the browser probe, no configuration. esbuild does not copy
// assets named by `new URL("…", import.meta.url)`: the .wasm is copied next to the bundle with
// the one command the "Bundlers" section of docs/guides/packaging.md shows.
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { browserProbe, exec, scratch, serveStatic, tool } from "../lib.mjs";

export const kind = "browser";

export async function run({ serverUrl, getBrowser }) {
  const dir = await scratch("esbuild-browser-esm");
  await exec(tool("esbuild/bin/esbuild"), ["probe/browser-main.js", "--bundle", "--format=esm", "--outfile=dist/main.js"], { cwd: dir });
  copyFileSync(join(dir, "probe/index.html"), join(dir, "dist/index.html"));
  // docs/guides/packaging.md "Bundlers", esbuild: cp node_modules/mcp-tasks-wasm/browser/mcp_tasks_browser_bg.wasm node_modules/mcp-tasks-wasm/mcp_tasks_wasm_bg.wasm dist/
  await exec("cp", ["node_modules/mcp-tasks-wasm/browser/mcp_tasks_browser_bg.wasm", "node_modules/mcp-tasks-wasm/mcp_tasks_wasm_bg.wasm", "dist/"], { cwd: dir });
  const site = await serveStatic(join(dir, "dist"));
  try {
    return await browserProbe(await getBrowser(), `${site.url}?server=${encodeURIComponent(serverUrl)}`);
  } finally {
    await site.close();
  }
}
