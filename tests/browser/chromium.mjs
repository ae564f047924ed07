// What the browser tests share: launching Debian's Chromium through playwright-core with the
// flags that work on this machine, and the check that the scripts a page loaded are browser-only.
// Not a test file itself (no `.test.` in the name).
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { chromium } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Headless Chromium (`CHROMIUM` overrides the binary). */
export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

/**
 * Asserts that no script a page loaded (url → text) imports a `node:` module or calls
 * `require()`: the browser graph is Node-free.
 * @param {Map<string, string>} scripts
 */
export function assertBrowserOnly(scripts) {
  const nodeImport = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']node:/;
  for (const [url, text] of scripts) {
    assert.doesNotMatch(text, nodeImport, `${url} imports a node: module`);
    assert.doesNotMatch(text, /\brequire\s*\(/, `${url} calls require()`);
  }
}

/** A port on 127.0.0.1 that nothing listens on (bound, then closed): a connection there is refused. */
export function freePort() {
  const s = createServer();
  return new Promise((resolve) => s.listen(0, "127.0.0.1", () => {
    const { port } = s.address();
    s.close(() => resolve(port));
  }));
}
