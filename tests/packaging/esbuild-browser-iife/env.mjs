// esbuild, browser IIFE (a classic <script>): the entry without top-level await,
// "mcp-tasks-wasm/bytes", and `await init({ module_or_path })` with the URL of the .wasm, copied
// next to the page. No configuration.
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { browserProbe, exec, scratch, serveStatic, tool } from "../lib.mjs";

export const kind = "browser";

export async function run({ serverUrl, getBrowser }) {
  const dir = await scratch("esbuild-browser-iife", { entry: "mcp-tasks-wasm/bytes" });
  await exec(tool("esbuild/bin/esbuild"), ["main.js", "--bundle", "--format=iife", "--outfile=dist/main.js"], { cwd: dir });
  writeFileSync(join(dir, "dist/index.html"), '<!doctype html>\n<meta charset="utf-8">\n<script src="./main.js"></script>\n');
  await exec("cp", ["node_modules/mcp-tasks-wasm/mcp_tasks_wasm_bg.wasm", "dist/"], { cwd: dir });
  const site = await serveStatic(join(dir, "dist"));
  try {
    return await browserProbe(await getBrowser(), `${site.url}?server=${encodeURIComponent(serverUrl)}`);
  } finally {
    await site.close();
  }
}
