// Vite (current) dev server, no configuration: `vite --host 127.0.0.1` over the project of
// tests/packaging/vite (dependency pre-bundling included), the page opened in headless Chromium.
import { browserProbe, freePort, scratch, start, tool } from "../lib.mjs";

export const kind = "browser";

export function run(options) {
  return runViteDev("vite-dev", "vite/bin/vite.js", {}, options);
}

/** @param {string} name @param {string} bin @param {{ entry?: string, project?: string }} scratchOptions */
export async function runViteDev(name, bin, scratchOptions, { serverUrl, getBrowser }) {
  const dir = await scratch(name, { project: "vite", ...scratchOptions });
  const port = await freePort();
  const server = start(process.execPath, [tool(bin), "--host", "127.0.0.1", "--port", String(port), "--strictPort"],
    { cwd: dir, ready: /ready in/i });
  try {
    await server.ready;
    return await browserProbe(await getBrowser(), `http://127.0.0.1:${port}/?server=${encodeURIComponent(serverUrl)}`);
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : e}\n--- vite\n${server.output()}`);
  } finally {
    await server.stop();
  }
}
