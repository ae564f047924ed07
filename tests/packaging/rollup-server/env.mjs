// Rollup 4, both entries in one browser bundle (the main entry and mcp-tasks-wasm/server):
// `-p node-resolve` on the command line, each entry's .wasm copied next to the bundle.
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { browserProbe, exec, scratch, serveStatic, tool } from "../lib.mjs";
import { WASM_COPIES } from "../wasm-copies.mjs";

export const kind = "server";

export async function run({ serverUrl, getBrowser }) {
  const dir = await scratch("rollup-server");
  await exec(tool("rollup/dist/bin/rollup"), ["-p", "node-resolve", "-f", "es", "-o", "dist/main.js", "probe/browser-server-main.js"], { cwd: dir });
  writeFileSync(join(dir, "dist/index.html"), '<!doctype html>\n<meta charset="utf-8">\n<script type="module" src="./main.js"></script>\n');
  for (const [from, to] of WASM_COPIES) copyFileSync(join(dir, from), join(dir, "dist", to));
  const site = await serveStatic(join(dir, "dist"));
  try {
    return await browserProbe(await getBrowser(), `${site.url}?server=${encodeURIComponent(serverUrl)}`);
  } finally {
    await site.close();
  }
}
