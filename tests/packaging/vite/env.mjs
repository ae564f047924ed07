// Vite (current), no configuration: `vite build` of index.html (the browser probe), dist/ served
// on 127.0.0.1 and opened in headless Chromium. Vite follows `new URL("…", import.meta.url)` and
// emits the .wasm itself.
import { join } from "node:path";
import { browserProbe, exec, scratch, serveStatic, tool } from "../lib.mjs";

export const kind = "browser";

export function run(options) {
  return runVite("vite", "vite/bin/vite.js", {}, options);
}

/** @param {string} name @param {string} bin @param {{ entry?: string }} scratchOptions */
export async function runVite(name, bin, scratchOptions, { serverUrl, getBrowser }) {
  const dir = await scratch(name, scratchOptions);
  await exec(process.execPath, [tool(bin), "build"], { cwd: dir });
  const site = await serveStatic(join(dir, "dist"));
  try {
    return await browserProbe(await getBrowser(), `${site.url}?server=${encodeURIComponent(serverUrl)}`);
  } finally {
    await site.close();
  }
}
