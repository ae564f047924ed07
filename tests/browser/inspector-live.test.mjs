// www/index.html, the inspector's live mode, in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core) against examples/conformance-server.mjs started here on its own port
// (cross-origin: the page is served by scripts/serve.mjs on another one; TaskClient.connect
// negotiates 2026-07-28 with it). Lists the tools, calls slow_compute (working, then completed
// with its result), answers confirm_delete's input request with the form, cancels a long call
// (and one whose cancel cannot reach the server: shown as not delivered), reloads the page in the
// middle of a task and sees it resumed and completed. Also: labels, keyboard, 390 px without
// overflow, no page errors, no node: imports. WRITE_SCREENSHOTS=1 rewrites docs/inspector-live.png.
// The traffic views (message log, export, both eras, tasks/list, connection errors) are in
// inspector-traffic.test.mjs. Needs pkg/ built.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { assertBrowserOnly, launchChromium } from "./chromium.mjs";
import { LIVE_STORE, livePage } from "./live-page.mjs";
import { startExample } from "../js/example-server.mjs";

import { startServer, ROOT } from "../../scripts/serve.mjs";

const SHOT = new URL("docs/inspector-live.png", `file://${ROOT}`);
const WRITE = process.env.WRITE_SCREENSHOTS === "1";

if (!existsSync(new URL("pkg/browser.js", `file://${ROOT}`))) throw new Error("pkg/ is not built: run `bash scripts/build.sh`");

describe("www/ inspector, live mode, in Chromium against the example server", () => {
  let web;
  let mcp;
  let endpoint = "";
  let browser;
  let page;
  let live;
  const seen = { requests: [], errors: [], console: [], scripts: new Map() };

  before(async () => {
    ({ url: endpoint, process: mcp } = await startExample());
    web = await startServer({ port: 0 });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    live = livePage(page);
    page.on("request", (r) => seen.requests.push(r.url()));
    page.on("console", (m) => seen.console.push(`${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => seen.errors.push(String(e)));
    page.on("response", async (r) => {
      if ((r.headers()["content-type"] ?? "").startsWith("text/javascript")) seen.scripts.set(r.url(), await r.text().catch(() => ""));
    });
    await page.goto(`${web.url}www/`);
    await page.waitForSelector("#app[data-ready=true]", { timeout: 30_000 });
    await live.ready();
  });

  after(async () => {
    await browser?.close();
    await web?.close();
    mcp?.kill();
  });

  test("the Live tab shows live mode (keyboard), the endpoint lists the tools cross-origin", async () => {
    assert.equal(await page.isVisible("#live-mode"), false);
    await page.focus("#mode-live");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#live-mode:not([hidden])");
    assert.equal(await page.isVisible("#transcript-mode"), false);
    assert.equal(await page.getAttribute("#mode-live", "aria-pressed"), "true");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "endpoint");
    await page.keyboard.type(endpoint);
    await page.keyboard.press("Enter");
    await page.waitForSelector("#tools[data-ready=true]", { timeout: 10_000 });
    const tools = await page.$$eval("form.tool", (fs) => fs.map((f) => f.dataset.tool));
    for (const t of ["greet", "slow_compute", "confirm_delete"]) assert.ok(tools.includes(t), tools.join(", "));
    assert.match(await page.textContent("#live-status"), /\d+ tools at /);
  });

  test("a synchronous tool: the result at once", async () => {
    await live.callTool("greet", { name: "live" });
    await live.waitStatus("greet", "completed");
    assert.match(await live.card("greet").locator(".result").textContent(), /Hello, live!/);
  });

  test("slow_compute 1 s: working, polls shown, then completed with its result", async () => {
    const c = await live.callTool("slow_compute", { seconds: 1, label: "one" });
    await live.waitStatus("slow_compute", "completed");
    assert.match(await c.getAttribute("data-statuses"), /^working( .*)? completed$/);
    assert.ok(Number(await c.getAttribute("data-polls")) >= 1, "at least one poll shown");
    assert.ok(await c.locator(".events li.ev-poll").count() >= 1);
    assert.match(await c.locator(".events li.ev-poll").first().textContent(), /poll 1 at \d\d:\d\d:\d\d\.\d{3}/);
    assert.match(await c.locator(".result").textContent(), /one: done after 1 s/);
    assert.ok(await c.locator(".cancel").isDisabled());
  });

  test("confirm_delete: the input request is a labelled form; answering it completes the task", async () => {
    const c = await live.callTool("confirm_delete", { filename: "notes.txt" });
    await c.locator("form.input-form").waitFor({ timeout: 15_000 });
    assert.match(await c.getAttribute("data-statuses"), /input_required/);
    assert.match(await c.locator(".input-message").textContent(), /Delete notes\.txt\?/);
    const box = c.locator("form.input-form input[type=checkbox]");
    const unlabelled = await c.locator("form.input-form").evaluate((f) => [...f.querySelectorAll("input, select, textarea")].filter((e) => !e.labels?.length).length);
    assert.equal(unlabelled, 0);
    await box.check();
    await c.locator("form.input-form button.accept").click();
    await live.waitStatus("confirm_delete", "completed");
    assert.match(await c.locator(".result").textContent(), /Deleted notes\.txt/);
    assert.ok(await c.locator(".events li.ev-update").count() >= 1, "tasks/update shown");
  });

  test("slow_compute 60 s: Cancel ends it cancelled", async () => {
    const c = await live.callTool("slow_compute", { seconds: 60, label: "long" });
    await live.waitStatus("slow_compute", "working", 10_000);
    await c.locator("button.cancel").click();
    await live.waitStatus("slow_compute", "cancelled");
    assert.ok(await c.locator(".events li.ev-cancel").count() >= 1);
  });

  test("slow_compute 60 s: a Cancel that cannot reach the server says so (not delivered), never 'was cancelled'", async () => {
    const c = await live.callTool("slow_compute", { seconds: 60, label: "unreachable" });
    await live.waitStatus("slow_compute", "working", 10_000);
    // The server is unreachable for tasks/cancel only (the connection is refused).
    let refused = 0;
    const onlyCancel = (route) => {
      if (route.request().headers()["mcp-method"] === "tasks/cancel") {
        refused++;
        return route.abort("connectionrefused");
      }
      return route.continue();
    };
    const consoleBefore = seen.console.length;
    await page.route((u) => u.href === endpoint, onlyCancel);
    try {
      await c.locator("button.cancel").click();
      await live.waitStatus("slow_compute", "cancel-failed");
    } finally {
      await page.unroute((u) => u.href === endpoint, onlyCancel);
    }
    assert.equal(refused, 3, "the cancel was tried 3 times");
    // The browser logs each refused connection: those (and only those) are expected here.
    const logged = seen.console.splice(consoleBefore);
    assert.equal(logged.filter((m) => /ERR_CONNECTION_REFUSED/.test(m)).length, refused);
    seen.console.push(...logged.filter((m) => !/ERR_CONNECTION_REFUSED/.test(m)));
    const outcome = await c.locator(".outcome").textContent();
    assert.match(outcome, /did not reach the server/);
    assert.doesNotMatch(outcome, /was cancelled/);
    assert.ok(await c.locator(".events li.ev-cancel-failed").count() >= 1);
    assert.doesNotMatch(await c.getAttribute("data-statuses"), /(^| )cancelled( |$)/);
  });

  test("slow_compute 3 s: a reload in the middle, the task is resumed and completes", async () => {
    const taskId = await (await live.callTool("slow_compute", { seconds: 3, label: "reloaded" }, { task: true })).getAttribute("data-task-id");
    await live.reloadWhenSaved(taskId);
    assert.equal(await page.isVisible("#live-mode"), true, "live mode shown after the reload");
    const c = live.byTask(taskId);
    await c.waitFor();
    assert.equal(await c.getAttribute("data-resumed"), "true");
    assert.match(await c.textContent(), /resumed after a reload/);
    await page.waitForSelector(`.live-card[data-task-id="${taskId}"][data-status=completed]`, { timeout: 15_000 });
    assert.match(await c.locator(".result").textContent(), /reloaded: done after 3 s/);
    const left = await page.evaluate((key) => JSON.parse(localStorage.getItem(key)).client.tasks.length, LIVE_STORE);
    assert.equal(left, 0, "nothing pending is left in storage");
  });

  test("every control has a label; the live status is announced", async () => {
    await page.waitForSelector("#tools[data-ready=true]");
    const unlabelled = await page.evaluate(() => [...document.querySelectorAll("input, select, textarea")].filter((e) => !e.labels?.length).map((e) => e.id));
    assert.deepEqual(unlabelled, []);
    assert.equal(await page.getAttribute("#live-status", "aria-live"), "polite");
  });

  test("screenshot, then 390 px without horizontal overflow", async () => {
    await live.callTool("confirm_delete", { filename: "report.pdf" });
    await live.card("confirm_delete").locator("form.input-form").waitFor({ timeout: 15_000 });
    if (WRITE) {
      mkdirSync(new URL("docs/", `file://${ROOT}`), { recursive: true });
      const height = await page.evaluate(() => document.scrollingElement.scrollHeight);
      await page.screenshot({ path: SHOT.pathname, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: Math.min(height, 1600) } });
    }
    assert.ok(existsSync(SHOT), "docs/inspector-live.png exists (WRITE_SCREENSHOTS=1 writes it)");
    await page.setViewportSize({ width: 390, height: 844 });
    const [scrollWidth, innerWidth] = await page.evaluate(() => [document.scrollingElement.scrollWidth, window.innerWidth]);
    assert.ok(scrollWidth <= innerWidth, `scrollWidth ${scrollWidth} > innerWidth ${innerWidth}`);
    await live.card("confirm_delete").locator("form.input-form button.decline").click();
    await live.waitStatus("confirm_delete", "completed");
    assert.match(await live.card("confirm_delete").locator(".result").textContent(), /Kept report\.pdf/);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test("no page errors, requests only to the two servers, no node: imports", () => {
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.console.filter((m) => m.startsWith("error")), []);
    const mcpOrigin = new URL(endpoint).origin;
    for (const url of seen.requests) assert.ok(url.startsWith(web.url) || url.startsWith(mcpOrigin), `request elsewhere: ${url}`);
    assert.ok(seen.requests.some((u) => u.startsWith(mcpOrigin)));
    const urls = [...seen.scripts.keys()];
    assert.ok(urls.some((u) => u.endsWith("/www/live.js")), urls.join(", "));
    assertBrowserOnly(seen.scripts);
  });
});
