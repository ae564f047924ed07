// www/index.html, accessibility, in headless Chromium: axe-core (pinned in
// tools/axe, installed by scripts/setup.sh) finds no WCAG 2.1 A/AA violation in transcript mode
// (a sample with violations: every card; a generated transcript of 150 tasks: the task table
// and one card) nor in live mode against examples/conformance-server.mjs (tools, a finished
// task, an input form, the message log, an error box), each in the light and the dark theme;
// the theme follows prefers-color-scheme until the toggle picks one, which a reload keeps;
// status changes go to a live region, poll lines and the message log do not; the skip link
// leads to a visible, focusable target in both modes.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { launchChromium } from "./chromium.mjs";
import { livePage } from "./live-page.mjs";
import { startExample } from "../js/example-server.mjs";
import { transcript } from "../../bench/inspector-transcript.mjs";
import { startServer, ROOT } from "../../scripts/serve.mjs";

const AXE = new URL("tools/axe/node_modules/axe-core/axe.min.js", `file://${ROOT}`);
if (!existsSync(AXE)) throw new Error("axe-core is not installed: run `bash scripts/setup.sh` (tools/axe)");
if (!existsSync(new URL("pkg/browser.js", `file://${ROOT}`))) throw new Error("pkg/ is not built: run `bash scripts/build.sh`");

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

describe("www/ inspector, accessibility, in Chromium", () => {
  let web;
  let mcp;
  let endpoint = "";
  let browser;
  let page;

  /** The axe violations of the page as it is (rule id: the elements). */
  async function axeNow() {
    if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.addScriptTag({ path: AXE.pathname });
    const violations = await page.evaluate((tags) => window.axe.run(document, { runOnly: { type: "tag", values: tags } }).then((r) => r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).slice(0, 5).join(", ")}`)), TAGS);
    return violations;
  }

  /** The axe violations of the page in the light theme, then in the dark one (each named). */
  async function axe() {
    const was = await page.evaluate(() => document.documentElement.dataset.theme);
    const found = [];
    for (const theme of ["light", "dark"]) {
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      found.push(...(await axeNow()).map((v) => `${theme}: ${v}`));
    }
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), was);
    return found;
  }

  before(async () => {
    ({ url: endpoint, process: mcp } = await startExample());
    web = await startServer({ port: 0 });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${web.url}www/`);
    await page.waitForSelector("#app[data-ready=true]", { timeout: 30_000 });
  });

  after(async () => {
    await browser?.close();
    await web?.close();
    mcp?.kill();
  });

  test("the theme: the system's (prefers-color-scheme) until the toggle picks one, which a reload keeps", async () => {
    const theme = () => page.evaluate(() => ({
      theme: document.documentElement.dataset.theme,
      pressed: document.getElementById("theme-toggle")?.getAttribute("aria-pressed") ?? null,
      paper: getComputedStyle(document.body).backgroundColor,
    }));
    await page.evaluate(() => localStorage.removeItem("mcp-tasks-inspector/theme"));
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await page.waitForSelector("#app[data-ready=true]", { timeout: 30_000 });
    const dark = await theme();
    assert.deepEqual([dark.theme, dark.pressed], ["dark", "true"], "a dark system gives the dark theme");
    await page.emulateMedia({ colorScheme: "light" });
    await page.waitForFunction(() => document.documentElement.dataset.theme === "light", null, { timeout: 5000 }).catch(() => {});
    const light = await theme();
    assert.deepEqual([light.theme, light.pressed], ["light", "false"], "and follows the system while nothing is picked");
    assert.notEqual(light.paper, dark.paper, "the page's background changes");
    // The toggle: a button with a name and a pressed state; the choice outlives a reload and the system.
    assert.equal(await page.getAttribute("#theme-toggle", "type"), "button");
    assert.equal((await page.textContent("#theme-toggle")).trim(), "Dark theme");
    await page.focus("#theme-toggle");
    await page.keyboard.press("Enter");
    assert.deepEqual(await theme(), dark);
    await page.reload();
    await page.waitForSelector("#app[data-ready=true]", { timeout: 30_000 });
    assert.deepEqual((await theme()).theme, "dark", "remembered after a reload, on a light system");
    await page.click("#theme-toggle");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.deepEqual((await theme()).theme, "light", "a light choice is kept on a dark system");
    await page.evaluate(() => localStorage.removeItem("mcp-tasks-inspector/theme"));
    await page.emulateMedia({ colorScheme: "light" });
    await page.reload();
    await page.waitForSelector("#app[data-ready=true]", { timeout: 30_000 });
  });

  test("axe runs: a planted unlabelled input is found", async () => {
    await page.evaluate(() => document.getElementById("results").append(Object.assign(document.createElement("input"), { id: "planted" })));
    const found = await axe();
    await page.evaluate(() => document.getElementById("planted").remove());
    for (const theme of ["light", "dark"]) assert.ok(found.some((v) => v.startsWith(`${theme}: label `) && v.includes("#planted")), found.join("; "));
    // And low contrast in the dark theme is found: dark grey text planted on the dark page.
    await page.evaluate(() => document.getElementById("results").append(Object.assign(document.createElement("p"), { id: "planted-dim", textContent: "dim text", style: "color: #333" })));
    const dim = await axe();
    await page.evaluate(() => document.getElementById("planted-dim").remove());
    assert.ok(dim.some((v) => v.startsWith("dark: color-contrast ") && v.includes("#planted-dim")), dim.join("; "));
    assert.ok(!dim.some((v) => v.startsWith("light: color-contrast ") && v.includes("#planted-dim")), dim.join("; "));
  });

  test("transcript mode, a sample with violations (every card): axe finds nothing", async () => {
    await page.selectOption("#sample", "v2025-violations.jsonl");
    await page.click("#load-sample");
    await page.waitForSelector('#results[data-done=true][data-source="v2025-violations.jsonl"]');
    assert.ok(await page.locator(".task-card").count() > 1);
    assert.deepEqual(await axe(), []);
  });

  test("transcript mode, 150 tasks (the task table, one card): axe finds nothing", async () => {
    const text = transcript({ bytes: 300_000, seed: 3, version: "2026-07-28" });
    await page.setInputFiles("#file", { name: "t.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(text) });
    await page.waitForSelector('#results[data-done=true][data-source="t.jsonl"]', { timeout: 60_000 });
    assert.ok(Number(await page.getAttribute("#task-grid", "data-rows")) > 60);
    await page.click("#next-error");
    await page.waitForSelector("#task-detail .task-card");
    assert.deepEqual(await axe(), []);
  });

  test("the skip link leads to a visible, focusable target in both modes", async () => {
    for (const [mode, target] of [["transcript", "results"], ["live", "live-results"]]) {
      await page.click(`#mode-${mode}`);
      assert.equal(await page.getAttribute("a.skip", "href"), `#${target}`);
      assert.ok(await page.isVisible(`#${target}`), `#${target} visible in ${mode} mode`);
      await page.focus("a.skip");
      assert.ok(await page.isVisible("a.skip"), "the skip link shows when focused");
      await page.keyboard.press("Enter");
      assert.equal(await page.evaluate(() => document.activeElement?.id), target);
    }
  });

  test("live mode: tools, a finished task, an input form, the message log: axe finds nothing; statuses announced, polls and the log not", async () => {
    const live = livePage(page);
    await live.connect(endpoint, { listed: true });
    await live.callTool("slow_compute", { seconds: 1 });
    await live.waitDone("slow_compute");
    assert.ok(await page.locator('.live-card[data-tool="slow_compute"] .events li.ev-poll').count() >= 1);
    await live.callTool("confirm_delete", { filename: "a.txt" });
    await live.card("confirm_delete").locator("form.input-form").waitFor({ timeout: 20_000 });
    assert.deepEqual(await axe(), []);
    // What a screen reader hears: the status line is a live region; the cards (poll lines) and the log are not in one.
    assert.equal(await page.getAttribute("#live-status", "role"), "status");
    for (const sel of ["#live-tasks", ".events", "#raw-log"]) {
      assert.equal(await page.locator(sel).first().evaluate((e) => e.closest("[aria-live], [role=status], [role=log], [role=alert]")?.id ?? null), null, `${sel} is in no live region`);
    }
    assert.match(await page.textContent("#live-status"), /confirm_delete asks: Delete a\.txt\?|confirm_delete .*: input_required/);
    await live.card("confirm_delete").locator("button.decline").click();
    await live.waitDone("confirm_delete");
    assert.match(await page.textContent("#live-status"), /confirm_delete \(task [0-9a-f-]{8}\): completed\./);
  });

  test("live mode, an error box: axe finds nothing", async () => {
    await livePage(page).connect(`${new URL(endpoint).origin}/wrong`);
    await page.waitForSelector("#live-error:not([hidden])", { timeout: 20_000 });
    assert.deepEqual(await axe(), []);
  });
});
