// TaskClient.connect in headless Chromium: a page on one local port imports the browser entry
// (pkg/browser.js) and connects, with the browser's own fetch (CORS), to
// examples/conformance-server.mjs on another; no version is named. Needs pkg/ built.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { assertBrowserOnly, launchChromium } from "./chromium.mjs";
import { startExample } from "../js/example-server.mjs";

import { startServer, ROOT } from "../../scripts/serve.mjs";

if (!existsSync(new URL("pkg/browser.js", `file://${ROOT}`))) {
  throw new Error("pkg/ is not built: run `bash scripts/build.sh`");
}

let web;
let mcp;
let browser;
let run;
const scripts = new Map();
const errors = [];

before(async () => {
  web = await startServer({ port: 0 });
  const example = await startExample();
  mcp = example.process;
  browser = await launchChromium();
  const page = await browser.newPage();
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("response", async (r) => {
    if ((r.headers()["content-type"] ?? "").startsWith("text/javascript")) scripts.set(r.url(), await r.text().catch(() => ""));
  });
  await page.goto(`${web.url}www/smoke.html`);
  run = await page.evaluate(async (url) => {
    const { TaskClient } = await import("/pkg/browser.js");
    const client = await TaskClient.connect(url, { handlers: { elicitation: async () => ({ action: "accept", content: { confirm: true } }) } });
    try {
      const slow = await client.callTool("slow_compute", { seconds: 1, label: "browser" });
      const deleted = await client.callTool("confirm_delete", { filename: "b.txt" });
      return { version: client.protocolVersion, slow: slow.content[0].text, deleted: deleted.content[0].text };
    } finally {
      await client.close();
    }
  }, example.url);
  await page.close();
});

after(async () => {
  await browser?.close();
  mcp?.kill();
  await web?.close();
});

test("in the browser, TaskClient.connect(url) discovers 2026-07-28 and returns a task's final result and an answered input", () => {
  assert.deepEqual(errors, []);
  assert.deepEqual(run, { version: "2026-07-28", slow: "browser: done after 1 s", deleted: "Deleted b.txt" });
});

test("the page graph of the connecting client is Node-free (http.js included)", () => {
  assert.ok([...scripts.keys()].some((u) => u.endsWith("/pkg/http.js")), `scripts: ${[...scripts.keys()]}`);
  assertBrowserOnly(scripts);
});
