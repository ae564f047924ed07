// www/index.html with a large transcript (docs/decisions/inspector-large-transcripts.md), in
// headless Chromium: a seeded
// 3 MB 2025-11-25 transcript (bench/inspector-transcript.mjs, ~1,500 tasks, ~1 % of them with a
// violation) chosen as a file is read in a Web Worker with progress shown as it goes; the task
// table renders only the rows in view (aria-rowcount says how many there are); the filters
// (version, status, "has issues", task id) and "next error" give exactly the tasks that
// `Conversation` of the installed package gives in Node; the selected task's card shows its
// issues; keyboard: the table is a WAI-ARIA grid with one Tab stop whose arrows, Home/End and
// PageUp/PageDown move between rows (the active row survives redraws, scrolling and the filters),
// and "next error" focuses the error itself; 390 px. Times are measured by bench/inspector.mjs,
// not asserted here.
// WRITE_SCREENSHOTS=1 rewrites docs/inspector-large.png.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { assertBrowserOnly, launchChromium } from "./chromium.mjs";
import { transcript } from "../../bench/inspector-transcript.mjs";
import { startServer, ROOT } from "../../scripts/serve.mjs";

const INSTALLED = new URL("../js/.tmp/install/esm.mjs", import.meta.url);
const SHOT = new URL("docs/inspector-large.png", `file://${ROOT}`);
const WRITE = process.env.WRITE_SCREENSHOTS === "1";
if (!existsSync(new URL("pkg/browser.js", `file://${ROOT}`))) throw new Error("pkg/ is not built: run `bash scripts/build.sh`");
if (!existsSync(INSTALLED)) throw new Error("the package is not installed: run `bash scripts/pack.sh`");
const { Conversation } = await import(INSTALLED.href);

const TEXT = transcript({ bytes: 3_000_000, seed: 14 });
const NAME = "large-3mb.jsonl";

/** Task rows as the page should show them, from the installed package in Node. */
function expected(text) {
  const conv = new Conversation({ maxTasks: 1_000_000 });
  const per = new Map();
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const r = conv.observe(line);
    for (const id of r.taskIds) {
      const p = per.get(id) ?? per.set(id, { errors: 0, warnings: 0, codes: [] }).get(id);
      for (const i of r.issues) {
        i.severity === "error" ? p.errors++ : p.warnings++;
        p.codes.push(`${i.code} ${i.path}`);
        if (i.severity === "error") p.firstError ??= `${i.code} ${i.path}`;
      }
    }
  }
  const rows = conv.tasks().map((t) => ({ taskId: t.taskId, version: t.version, final: t.finalStatus ?? "none", ...(per.get(t.taskId) ?? { errors: 0, warnings: 0, codes: [] }) }));
  conv.free();
  return rows;
}

describe("www/ inspector, a large transcript, in Chromium", () => {
  const want = expected(TEXT);
  let server;
  let browser;
  let page;
  const seen = { errors: [], console: [], scripts: new Map(), requests: [] };
  const rowsShown = () => page.$$eval("#task-grid .vt-space .vt-row", (rs) => rs.map((r) => r.dataset.taskId));
  const count = () => page.$eval("#task-grid", (g) => Number(g.dataset.rows));

  before(async () => {
    server = await startServer({ port: 0 });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("pageerror", (e) => seen.errors.push(String(e)));
    page.on("console", (m) => seen.console.push(`${m.type()}: ${m.text()}`));
    page.on("request", (r) => seen.requests.push(r.url()));
    page.on("response", async (r) => {
      if ((r.headers()["content-type"] ?? "").startsWith("text/javascript")) seen.scripts.set(r.url(), await r.text().catch(() => ""));
    });
    await page.goto(`${server.url}www/`);
    await page.waitForSelector("#app[data-ready=true]", { timeout: 30_000 });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test("the file is read in a worker with progress; first rows before the end; every task in the table, only the visible rows drawn", async () => {
    assert.ok(want.length > 1000, `${want.length} tasks`);
    assert.ok(want.filter((r) => r.errors > 0).length >= 5, "the generator put violations in");
    // Record what the progress bar and the table show while the file is read.
    await page.evaluate(() => {
      window.__seen = { progress: [], rowsBeforeDone: 0 };
      new MutationObserver(() => {
        const bar = document.getElementById("read-progress");
        const res = document.getElementById("results");
        if (bar) window.__seen.progress.push(Number(bar.value));
        if (res.dataset.done !== "true") window.__seen.rowsBeforeDone = Math.max(window.__seen.rowsBeforeDone, Number(document.getElementById("task-grid")?.dataset.rows ?? 0));
      }).observe(document.getElementById("results"), { subtree: true, childList: true, attributes: true });
    });
    await page.setInputFiles("#file", { name: NAME, mimeType: "application/jsonl", buffer: Buffer.from(TEXT) });
    await page.waitForSelector(`#results[data-done=true][data-source="${NAME}"]`, { timeout: 120_000 });
    const s = await page.evaluate(() => window.__seen);
    assert.ok(s.progress.some((p) => p > 0 && p < 100), `progress shown while reading: ${[...new Set(s.progress)].join(" ")}`);
    assert.equal(s.progress.at(-1), 100);
    assert.ok(s.rowsBeforeDone > 0, "task rows were on screen before the whole file was read");
    const [first, done] = await page.evaluate(() => [document.getElementById("results").dataset.firstMs, document.getElementById("results").dataset.doneMs].map(Number));
    assert.ok(first <= done, `first results (${first} ms) no later than the end (${done} ms)`);

    assert.equal(await count(), want.length);
    assert.equal(await page.getAttribute("#task-grid", "aria-rowcount"), String(want.length + 1));
    const drawn = await rowsShown();
    assert.ok(drawn.length > 0 && drawn.length < 40, `${drawn.length} rows drawn of ${want.length}`);
    assert.deepEqual(drawn.slice(0, 5), want.slice(0, 5).map((r) => r.taskId), "first seen first");
    // Scrolled to the end: the last tasks are drawn (and still only a few rows).
    await page.$eval("#task-grid .vt-body", (b) => (b.scrollTop = b.scrollHeight));
    await page.waitForFunction((id) => !!document.querySelector(`#task-grid .vt-row[data-task-id="${id}"]`), want.at(-1).taskId);
    assert.ok((await rowsShown()).length < 40);
    // No card per task: only the summary, the table and the conversation card.
    assert.equal(await page.locator(".task-card").count(), 0);
    const status = await page.textContent("#status");
    assert.match(status, new RegExp(`${want.length.toLocaleString("en-US")} tasks`));
  });

  test("a row shows its version, last status and issue counts as Conversation gives them", async () => {
    await page.$eval("#task-grid .vt-body", (b) => (b.scrollTop = 0));
    // Rows 1-8 by their aria-rowindex (2-9): the virtual table redraws after the scroll, and the
    // order of its row elements in the DOM is not the rows' order.
    const first = want.slice(0, 8).map((r) => r.taskId);
    await page.waitForFunction((ids) => ids.every((id, k) => document.querySelector(`#task-grid .vt-space .vt-row[aria-rowindex="${k + 2}"]`)?.dataset.taskId === id), first);
    const cells = await page.$$eval("#task-grid .vt-space .vt-row", (rs) =>
      Array.from({ length: 8 }, (_, k) => rs.find((r) => r.getAttribute("aria-rowindex") === String(k + 2))).map((r) => [...r.querySelectorAll("[role=gridcell]")].map((c) => c.textContent)));
    cells.forEach((c, i) => assert.deepEqual(c, [want[i].taskId, want[i].version, want[i].final, String(want[i].errors), String(want[i].warnings), c[5]]));
  });

  test("filters: version, status, has issues, task id", async () => {
    await page.selectOption("#f-version", "2026-07-28");
    assert.equal(await count(), 0);
    await page.selectOption("#f-version", "2025-11-25");
    assert.equal(await count(), want.length);
    for (const st of ["failed", "cancelled", "completed"]) {
      await page.selectOption("#f-status", st);
      assert.equal(await count(), want.filter((r) => r.final === st).length, st);
      const drawn = await rowsShown();
      assert.deepEqual(drawn, want.filter((r) => r.final === st).slice(0, drawn.length).map((r) => r.taskId));
    }
    await page.selectOption("#f-status", "");
    await page.check("#f-issues");
    const withIssues = want.filter((r) => r.errors + r.warnings > 0);
    assert.equal(await count(), withIssues.length);
    assert.deepEqual(await rowsShown(), withIssues.map((r) => r.taskId).slice(0, (await rowsShown()).length));
    await page.uncheck("#f-issues");
    const target = want[Math.floor(want.length / 2)].taskId;
    await page.fill("#f-search", target.slice(0, 13));
    assert.deepEqual(await rowsShown(), want.filter((r) => r.taskId.includes(target.slice(0, 13))).map((r) => r.taskId));
    await page.fill("#f-search", "");
    assert.equal(await count(), want.length);
  });

  test("keyboard grid: one Tab stop; Tab once then ArrowDown 300 times reaches row 301; Home/End, PageUp/PageDown, Left/Right, Enter", async () => {
    const grid = "#task-grid";
    const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    /** The focused row's task id and row index, and whether focus is in the grid at all. */
    const focused = () => page.evaluate(() => {
      const a = document.activeElement;
      const row = a?.closest("#task-grid .vt-row");
      return { taskId: row?.dataset.taskId ?? null, rowindex: row?.getAttribute("aria-rowindex") ?? null, cell: a?.closest("[role=gridcell]")?.className.split(" ")[0] ?? null, button: a?.tagName === "BUTTON" };
    });
    const tabStops = () => page.$$eval(`${grid} [tabindex="0"]`, (els) => els.map((e) => e.closest(".vt-row")?.dataset.taskId));
    assert.equal(await count(), want.length, "no filter on");
    await page.$eval(`${grid} .vt-body`, (b) => (b.scrollTop = 0));
    await frame();
    // One Tab from the control before the table: its first row (the task id), the only Tab stop.
    await page.focus("#next-error");
    await page.keyboard.press("Tab");
    assert.deepEqual(await focused(), { taskId: want[0].taskId, rowindex: "2", cell: "c0", button: true });
    for (let i = 0; i < 300; i++) await page.keyboard.press("ArrowDown");
    assert.deepEqual(await focused(), { taskId: want[300].taskId, rowindex: "302", cell: "c0", button: true }, "row 301 is focused");
    assert.equal(await page.getAttribute(`${grid} .vt-row[aria-rowindex="302"]`, "class").then((c) => c.split(" ").includes("active")), true, "row 301 is the active row");
    assert.deepEqual(await tabStops(), [want[300].taskId], "and it is the grid's one Tab stop");
    assert.ok((await rowsShown()).length < 40, "still only the rows in view drawn");
    // Tab leaves the grid; Shift+Tab comes back to the same row.
    await page.keyboard.press("Tab");
    assert.equal((await focused()).taskId, null, "Tab leaves the grid");
    await page.keyboard.press("Shift+Tab");
    assert.equal((await focused()).taskId, want[300].taskId);
    // Scrolled away (the mouse wheel): the active row is still drawn and is still the Tab stop.
    await page.$eval(`${grid} .vt-body`, (b) => (b.scrollTop = 0));
    await frame();
    assert.deepEqual(await tabStops(), [want[300].taskId]);
    await page.focus("#next-error");
    await page.keyboard.press("Tab");
    assert.equal((await focused()).taskId, want[300].taskId, "Tab after scrolling away returns to row 301");
    // End, Home, PageDown, PageUp.
    await page.keyboard.press("End");
    assert.equal((await focused()).taskId, want.at(-1).taskId);
    await page.keyboard.press("Home");
    assert.equal((await focused()).taskId, want[0].taskId);
    const pageRows = await page.$eval(`${grid} .vt-body`, (b) => Math.max(1, Math.floor(b.clientHeight / 36) - 1));
    await page.keyboard.press("PageDown");
    assert.equal((await focused()).taskId, want[pageRows].taskId);
    await page.keyboard.press("PageDown");
    assert.equal((await focused()).taskId, want[2 * pageRows].taskId);
    await page.keyboard.press("PageUp");
    await page.keyboard.press("PageUp");
    await page.keyboard.press("ArrowUp");
    assert.equal((await focused()).taskId, want[0].taskId, "no row above the first");
    // Left/Right move between the cells of a row, Up/Down keep the column; Enter opens the card.
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    assert.deepEqual(await focused(), { taskId: want[0].taskId, rowindex: "2", cell: "c2", button: false });
    await page.keyboard.press("ArrowDown");
    assert.deepEqual(await focused(), { taskId: want[1].taskId, rowindex: "3", cell: "c2", button: false });
    await page.keyboard.press("Enter");
    await page.waitForSelector(`#task-detail .task-card[data-task-id="${want[1].taskId}"]`);
    await page.focus("#next-error");
    await page.keyboard.press("Tab");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    assert.deepEqual(await focused(), { taskId: want[1].taskId, rowindex: "3", cell: "c0", button: true });
  });

  test("keyboard grid: the active row survives the filters (a row filtered out hands the Tab stop over and takes it back)", async () => {
    const bad = want.findIndex((r, i) => i > 5 && r.errors > 0);
    await page.focus("#next-error");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Home");
    for (let i = 0; i < bad; i++) await page.keyboard.press("ArrowDown");
    const stop = () => page.$$eval("#task-grid [tabindex=\"0\"]", (els) => els.map((e) => e.closest(".vt-row")?.dataset.taskId));
    assert.deepEqual(await stop(), [want[bad].taskId]);
    await page.check("#f-issues");
    assert.deepEqual(await stop(), [want[bad].taskId], "still the Tab stop with \"has issues\"");
    await page.focus("#next-error");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.closest(".vt-row")?.dataset.taskId), want[bad].taskId);
    await page.keyboard.press("ArrowDown");
    const nextBad = want.filter((r) => r.errors + r.warnings > 0).findIndex((r) => r.taskId === want[bad].taskId) + 1;
    assert.equal(await page.evaluate(() => document.activeElement?.closest(".vt-row")?.dataset.taskId), want.filter((r) => r.errors + r.warnings > 0)[nextBad].taskId, "ArrowDown moves among the filtered rows");
    await page.keyboard.press("ArrowUp");
    await page.uncheck("#f-issues");
    assert.deepEqual(await stop(), [want[bad].taskId], "and after the filter is cleared");
    // Filtered out: the row now at its place is the Tab stop; the filter cleared, it is back.
    await page.fill("#f-search", want[0].taskId);
    assert.deepEqual(await stop(), [want[0].taskId]);
    await page.fill("#f-search", "");
    assert.deepEqual(await stop(), [want[bad].taskId]);
  });

  test("next error walks the tasks with errors in order; the card shows that task's issues", async () => {
    const bad = want.filter((r) => r.errors > 0);
    for (const w of bad.slice(0, 4)) {
      await page.click("#next-error");
      await page.waitForSelector(`#task-detail .task-card[data-task-id="${w.taskId}"]`);
      const codes = await page.$$eval(`#task-detail .task-card .issue`, (is) => is.map((i) => `${i.querySelector(".issue-code").textContent} ${i.querySelector(".issue-path").textContent.replace(/^"" \(whole message\)$/, "")}`));
      assert.deepEqual(codes, w.codes);
      assert.equal(await page.getAttribute(`#task-grid .vt-row[data-task-id="${w.taskId}"]`, "aria-selected"), "true");
      assert.equal(await page.evaluate(() => document.activeElement?.closest(".task-card")?.dataset.taskId), w.taskId, "focus in the card");
      // Focus on the error itself: the first error line of the card, not its heading.
      assert.deepEqual(await page.evaluate(() => {
        const a = document.activeElement;
        return { error: a?.matches("li.issue.sev-error") ?? false, code: `${a?.querySelector(".issue-code")?.textContent} ${a?.querySelector(".issue-path")?.textContent.replace(/^"" \(whole message\)$/, "")}` };
      }), { error: true, code: w.firstError }, "focus on the task's first error");
      assert.match(await page.textContent("#status"), new RegExp(`${w.taskId}: \\d+ errors?`));
    }
    // After the last it wraps to the first.
    for (let i = 4; i < bad.length; i++) await page.click("#next-error");
    await page.click("#next-error");
    await page.waitForSelector(`#task-detail .task-card[data-task-id="${bad[0].taskId}"]`);
  });

  test("keyboard: a task id in the table opens its card with Enter", async () => {
    const id = want[1].taskId;
    await page.$eval("#task-grid .vt-body", (b) => (b.scrollTop = 0));
    await page.waitForSelector(`#task-grid button.open-task[data-task-id="${id}"]`);
    await page.focus(`#task-grid button.open-task[data-task-id="${id}"]`);
    await page.keyboard.press("Enter");
    await page.waitForSelector(`#task-detail .task-card[data-task-id="${id}"]`);
    const unlabelled = await page.evaluate(() => [...document.querySelectorAll("input, select, textarea")].filter((e) => !e.labels?.length).map((e) => e.id));
    assert.deepEqual(unlabelled, []);
    if (WRITE) {
      await page.$eval("#task-grid .vt-body", (b) => (b.scrollTop = 0));
      await page.click("#next-error");
      await page.waitForSelector("#task-detail .task-card");
      const top = await page.evaluate(() => document.getElementById("results").offsetTop);
      await page.screenshot({ path: SHOT.pathname, fullPage: true, clip: { x: 0, y: top - 10, width: 1280, height: 1300 } });
    }
    assert.ok(existsSync(SHOT), "docs/inspector-large.png exists (WRITE_SCREENSHOTS=1 writes it)");
  });

  test("at 390 px nothing overflows horizontally", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const [scrollWidth, innerWidth] = await page.evaluate(() => [document.scrollingElement.scrollWidth, window.innerWidth]);
    assert.ok(scrollWidth <= innerWidth, `scrollWidth ${scrollWidth} > innerWidth ${innerWidth}`);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test("no page errors, nothing fetched outside the server, no node: imports in the page or the worker", () => {
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.console.filter((m) => m.startsWith("error") || m.startsWith("warning")), []);
    for (const url of seen.requests) assert.ok(url.startsWith(server.url), `request outside the test server: ${url}`);
    const urls = [...seen.scripts.keys()];
    assert.ok(urls.some((u) => u.endsWith("/www/transcript-worker.js")), urls.join(", "));
    assertBrowserOnly(seen.scripts);
  });
});
