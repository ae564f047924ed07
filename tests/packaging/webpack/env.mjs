// webpack 5, no configuration: `webpack --mode production` (entry ./src/index.js → dist/main.js;
// webpack follows `new URL("…", import.meta.url)` and emits the .wasm, top-level await included),
// a page with a classic <script> for dist/main.js, opened in headless Chromium.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { browserProbe, exec, scratch, serveStatic, tool } from "../lib.mjs";

export const kind = "browser";

export async function run({ serverUrl, getBrowser }) {
  const dir = await scratch("webpack");
  await exec(process.execPath, [tool("webpack-cli/bin/cli.js"), "--mode", "production"], { cwd: dir });
  writeFileSync(join(dir, "dist/index.html"), '<!doctype html>\n<meta charset="utf-8">\n<script src="./main.js"></script>\n');
  const site = await serveStatic(join(dir, "dist"));
  try {
    return await browserProbe(await getBrowser(), `${site.url}?server=${encodeURIComponent(serverUrl)}`);
  } finally {
    await site.close();
  }
}
