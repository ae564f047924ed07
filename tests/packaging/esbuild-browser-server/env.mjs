// esbuild, browser ESM, both entries in one bundle (the main entry and mcp-tasks-wasm/server,
// e.g. a TaskHost in the page): each entry's .wasm copied next to the bundle, as docs/guides/packaging.md's
// "Bundlers" section shows.
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { browserProbe, exec, scratch, serveStatic, tool } from "../lib.mjs";
import { WASM_COPIES } from "../wasm-copies.mjs";

export const kind = "server";

export async function run({ serverUrl, getBrowser }) {
  const dir = await scratch("esbuild-browser-server");
  await exec(tool("esbuild/bin/esbuild"), ["probe/browser-server-main.js", "--bundle", "--format=esm", "--outfile=dist/main.js"], { cwd: dir });
  writeFileSync(join(dir, "dist/index.html"), '<!doctype html>\n<meta charset="utf-8">\n<script type="module" src="./main.js"></script>\n');
  for (const [from, to] of WASM_COPIES) copyFileSync(join(dir, from), join(dir, "dist", to));
  const site = await serveStatic(join(dir, "dist"));
  try {
    return await browserProbe(await getBrowser(), `${site.url}?server=${encodeURIComponent(serverUrl)}`);
  } finally {
    await site.close();
  }
}
