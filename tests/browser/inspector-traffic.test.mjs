// www/index.html, live mode for real traffic, in headless Chromium
// against examples/conformance-server.mjs (cross-origin, both eras) and a small HTTP server of
// this test (127.0.0.1) that answers 404 and 403 with CORS headers, and 200 without them:
//   - TaskClient.connect negotiates 2026-07-28, or speaks 2025-11-25 when picked; the poll
//     interval is shown under the field name of each era (pollIntervalMs / pollInterval);
//   - a call without a task ends (never "calling…"); an isError result is a tool error;
//   - the raw message log: requests, responses, HTTP status, latency; search; export to JSONL,
//     whose Conversation issues (in Node, the installed package) are the ones the page shows,
//     and which transcript mode opens with the same tasks;
//   - 2025-11-25 tasks/list lists the page's tasks, and Follow shows the card a task has;
//   - connection errors told apart: nothing listening, CORS (origin and headers named), 404, 403;
//   - finished cards survive a reload; status changes are announced in #live-status, and no
//     live region holds the cards; the skip link leads to a visible target in both modes.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { existsSync, readFileSync } from "node:fs";
import { assertBrowserOnly, freePort, launchChromium } from "./chromium.mjs";
import { LIVE_STORE, livePage } from "./live-page.mjs";
import { startExample } from "../js/example-server.mjs";
import { startServer, ROOT } from "../../scripts/serve.mjs";

const INSTALLED = new URL("../js/.tmp/install/esm.mjs", import.meta.url);
const SHOT_LOG = new URL("docs/inspector-live-log.png", `file://${ROOT}`);
const SHOT_ERROR = new URL("docs/inspector-live-error.png", `file://${ROOT}`);
const WRITE = process.env.WRITE_SCREENSHOTS === "1";
if (!existsSync(new URL("pkg/browser.js", `file://${ROOT}`))) throw new Error("pkg/ is not built: run `bash scripts/build.sh`");
if (!existsSync(INSTALLED)) throw new Error("the package is not installed: run `bash scripts/pack.sh`");
const { Conversation } = await import(INSTALLED.href);

/** 404 and 403 with CORS headers (a proxy that adds them), 200 JSON without any. */
function startOddServer() {
  const cors = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "*", "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS" };
  const server = createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    if (req.method === "OPTIONS" && path !== "/nocors") {
      res.writeHead(204, cors);
      return res.end();
    }
    if (path === "/cors-404") res.writeHead(404, { ...cors, "content-type": "text/plain" }).end("not found");
    else if (path === "/cors-403") res.writeHead(403, { ...cors, "content-type": "text/plain" }).end("forbidden");
    else res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) })));
}

describe("www/ inspector, live mode with real traffic, in Chromium", () => {
  let web;
  let mcp;
  let odd;
  let endpoint = "";
  let browser;
  let page;
  const seen = { errors: [], console: [], scripts: new Map() };

  let live;
  const logShown = () => page.$$eval("#raw-log li.log-entry", (ls) => ls.map((l) => ({
    kind: l.dataset.kind, method: l.dataset.method, text: l.textContent,
    codes: [...l.querySelectorAll(".issue-code")].map((c) => c.textContent),
  })));

  before(async () => {
    ({ url: endpoint, process: mcp } = await startExample());
    odd = await startOddServer();
    web = await startServer({ port: 0 });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    live = livePage(page, { skipRestored: true });
    page.on("console", (m) => seen.console.push(`${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => seen.errors.push(String(e)));
    page.on("response", async (r) => {
      if ((r.headers()["content-type"] ?? "").startsWith("text/javascript")) seen.scripts.set(r.url(), await r.text().catch(() => ""));
    });
    await live.open(`${web.url}www/#live`);
  });

  after(async () => {
    await browser?.close();
    await web?.close();
    await odd?.close();
    mcp?.kill();
  });

  test("2026-07-28 negotiated: the version shown, the poll interval as pollIntervalMs, polls with their answer", async () => {
    await live.connect(endpoint, { listed: true });
    assert.match(await page.textContent("#live-version"), /^2026-07-28/);
    const c = await live.callTool("slow_compute", { seconds: 1, label: "v26" });
    await live.waitDone("slow_compute");
    assert.equal(await c.getAttribute("data-status"), "completed");
    assert.match(await c.locator(".fields").textContent(), /poll interval \(pollIntervalMs\)\d+ ms/);
    assert.ok(Number(await c.getAttribute("data-poll-interval")) > 0);
    assert.match(await c.locator(".events li.ev-poll").first().textContent(), /poll 1 at .* → (working|completed) in \d+ ms, server asks \d+ ms \(pollIntervalMs\)/);
    assert.match(await c.locator(".fields").textContent(), /TTL \(ttlMs\)/);
    assert.match(await c.locator(".task-json").textContent(), /"pollIntervalMs"/);
    // Announced: the status change, in the live status line.
    assert.match(await page.textContent("#live-status"), /slow_compute \(task [0-9a-f-]{8}\): completed\./);
  });

  test("a call answered without a task ends at once; an isError result is a tool error", async () => {
    const g = await live.callTool("greet", { name: "plain" });
    await live.waitDone("greet");
    assert.equal(await g.getAttribute("data-status"), "completed");
    assert.equal(await g.locator(".task-id").textContent(), "no task: answered at once");
    assert.match(await g.locator(".events").textContent(), /answered without a task in \d+ ms/);
    const f = await live.callTool("failing_job", {});
    await live.waitDone("failing_job");
    assert.equal(await f.getAttribute("data-tool-error"), "true");
    assert.equal(await f.locator(".outcome h5").textContent(), "Tool error");
    assert.ok(await f.locator(".outcome pre.is-error").count());
    assert.match(await f.textContent(), /the tool reported an error \(isError\)/);
  });

  test("the raw log: requests and responses with HTTP status and latency; search", async () => {
    const log = await logShown();
    const methods = log.map((l) => `${l.kind} ${l.method}`);
    for (const m of ["request server/discover", "response server/discover", "request tools/list", "request tools/call", "response tools/call", "request tasks/get", "response tasks/get"]) {
      assert.ok(methods.includes(m), `${m} in the log: ${[...new Set(methods)].join(", ")}`);
    }
    const resp = log.find((l) => l.kind === "response" && l.method === "tools/call");
    assert.match(resp.text, /HTTP 200/);
    assert.match(resp.text, /\d+ ms/);
    await page.fill("#log-search", "tasks/get");
    const found = await logShown();
    assert.ok(found.length > 0);
    for (const l of found) assert.match(l.text, /tasks\/get/);
    assert.match(await page.textContent("#log-count"), new RegExp(`^${found.length} of \\d+ entries`));
    await page.fill("#log-search", "");
    assert.equal(await page.locator("#live-tasks").evaluate((e) => e.closest("[aria-live]")), null, "no live region around the cards");
  });

  test("export: JSONL whose issues (Conversation in Node) are those shown, opened by transcript mode with the same tasks", async () => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#log-export")]);
    const text = readFileSync(await download.path(), "utf8");
    const lines = text.split("\n").filter((l) => l !== "");
    assert.ok(lines.length >= 10);
    const conv = new Conversation({ maxTasks: 100_000 });
    const log = (await logShown()).filter((l) => l.kind !== "http");
    const codes = [];
    const tasks = new Set();
    for (const line of lines) {
      const m = JSON.parse(line);
      const from = "method" in m ? ("id" in m && ["elicitation/create"].includes(m.method) ? "server" : "client") : "server";
      const r = conv.observe(line, { from });
      codes.push(...r.issues.map((i) => i.code));
    }
    for (const t of conv.tasks()) tasks.add(t.taskId);
    conv.free();
    assert.deepEqual(log.flatMap((l) => l.codes), codes, "the page shows Conversation's issues");
    const liveTasks = new Set(await page.$$eval(".live-card[data-task-id]:not([data-restored-finished])", (cs) => cs.map((c) => c.dataset.taskId)));
    assert.deepEqual([...tasks].sort(), [...liveTasks].sort());
    // Transcript mode reads it.
    await page.click("#mode-transcript");
    await page.setInputFiles("#file", { name: "live.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(text) });
    await page.waitForSelector('#results[data-done=true][data-source="live.jsonl"]', { timeout: 20_000 });
    const shown = await page.$$eval("#all-cards .task-card", (cs) => cs.map((c) => c.dataset.taskId));
    assert.deepEqual(shown.sort(), [...tasks].sort());
    // The timed export: the same tasks, and every answer paired with its request shows how long it took.
    await page.click("#mode-live");
    const [timedDownload] = await Promise.all([page.waitForEvent("download"), page.click("#log-export-timed")]);
    const timed = readFileSync(await timedDownload.path(), "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
    assert.ok(timed.length >= lines.length);
    assert.deepEqual(timed.slice(0, lines.length).map((t) => JSON.stringify(t.message)), lines, "the same messages as the plain export, in order");
    for (const t of timed) {
      assert.ok(["client", "server"].includes(t.from), JSON.stringify(t));
      assert.ok(Number.isFinite(Date.parse(t.at)));
    }
    await page.click("#mode-transcript");
    await page.setInputFiles("#file", { name: "live-timed.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(`${timed.map((t) => JSON.stringify(t)).join("\n")}\n`) });
    await page.waitForSelector('#results[data-done=true][data-source="live-timed.jsonl"]', { timeout: 20_000 });
    assert.deepEqual((await page.$$eval("#all-cards .task-card", (cs) => cs.map((c) => c.dataset.taskId))).sort(), [...tasks].sort());
    const pairs = await page.$$eval("#all-cards .task-card .msg-pair", (ps) => ps.map((p) => p.textContent));
    assert.ok(pairs.length > 0);
    const answered = pairs.filter((p) => p.startsWith("answers #"));
    assert.ok(answered.length > 0);
    for (const p of answered) assert.match(p, /^answers #\d+ \(line \d+\) after \d+ ms$/);
    // The skip link leads to a visible target in both modes.
    assert.equal(await page.getAttribute("a.skip", "href"), "#results");
    assert.ok(await page.isVisible("#results"));
    await page.click("#mode-live");
    assert.equal(await page.getAttribute("a.skip", "href"), "#live-results");
    assert.ok(await page.isVisible("#live-results"));
    await page.focus("a.skip");
    await page.keyboard.press("Enter");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "live-results");
  });

  test("2025-11-25 picked: a session, the poll interval as pollInterval, tasks/list lists the task, Follow shows its card", async () => {
    await live.connect(endpoint, { version: "2025-11-25", listed: true });
    assert.match(await page.textContent("#live-version"), /^2025-11-25 \(session [^)]+\)/);
    const c = await live.callTool("slow_compute", { seconds: 1, label: "v25" });
    await live.waitDone("slow_compute");
    assert.equal(await c.getAttribute("data-status"), "completed");
    assert.match(await c.locator(".fields").textContent(), /poll interval \(pollInterval\)\d+ ms/);
    assert.match(await c.locator(".fields").textContent(), /TTL \(ttl\)/);
    assert.match(await c.locator(".result").textContent(), /v25: done after 1 s/);
    const taskId = await c.getAttribute("data-task-id");
    assert.ok(await page.isEnabled("#list-tasks"));
    await page.click("#list-tasks");
    const row = page.locator(`#server-task-list li[data-task-id="${taskId}"]`);
    await row.waitFor();
    assert.match(await row.textContent(), /completed/);
    // The task has a card: Follow shows that one (focused) rather than a second card
    // (following a task without a card: inspector-state.test.mjs).
    assert.equal(await row.locator("button.follow").textContent(), "Show card");
    await row.locator("button.follow").click();
    await page.waitForFunction((id) => document.activeElement?.closest(".live-card")?.dataset.taskId === id, taskId);
    assert.equal(await page.locator(`.live-card[data-task-id="${taskId}"]:not([data-restored-finished])`).count(), 1);
    assert.equal(await c.getAttribute("data-status"), "completed");
    assert.match(await c.locator(".result").textContent(), /v25: done after 1 s/);
  });

  test("connection errors: nothing listening, an answer hidden by CORS (the origin and the headers named), HTTP 404, HTTP 403", async () => {
    const before = seen.console.length;
    const origin = new URL(web.url).origin;
    const cases = [
      [`http://127.0.0.1:${await freePort()}/mcp`, "refused", /Nothing answers at http:\/\/127\.0\.0\.1:\d+/],
      [`${odd.url}/nocors`, "hidden", /answered, but the browser hid the answer from this page/],
      [`${odd.url}/cors-404`, "http-404", /HTTP 404 from .*: no MCP endpoint at this path/],
      [`${odd.url}/cors-403`, "http-403", /HTTP 403 from .*: the server refused this page/],
    ];
    for (const [url, kind, title] of cases) {
      await live.connect(url);
      await page.waitForSelector(`#live-error:not([hidden])[data-kind="${kind}"]`, { timeout: 20_000 });
      assert.match(await page.textContent("#live-error h3"), title);
      assert.equal(await page.textContent("#live-version"), "not connected");
      assert.equal(await page.getAttribute("#live-error", "role"), "alert");
      if (kind === "hidden") {
        const headers = await page.textContent("#live-error pre");
        assert.match(headers, new RegExp(`Access-Control-Allow-Origin: ${origin}`));
        assert.match(headers, /Access-Control-Allow-Headers: .*MCP-Protocol-Version.*Mcp-Session-Id/);
        assert.match(headers, /Access-Control-Expose-Headers: Mcp-Session-Id/);
      }
      if (kind === "http-403") assert.match(await page.textContent("#live-error"), new RegExp(`allow ${origin}`));
      if (kind === "hidden" && WRITE) {
        const clip = await page.evaluate(() => {
          const a = document.getElementById("endpoint-form").getBoundingClientRect();
          const b = document.getElementById("live-status").getBoundingClientRect();
          return { x: a.left - 10, y: a.top + window.scrollY - 10, width: a.width + 20, height: b.bottom - a.top + 20 };
        });
        await page.screenshot({ path: SHOT_ERROR.pathname, fullPage: true, clip });
      }
      await page.evaluate(() => (document.getElementById("live-error").hidden = true));
    }
    assert.ok(existsSync(SHOT_ERROR), "docs/inspector-live-error.png exists (WRITE_SCREENSHOTS=1 writes it)");
    // The browser logs the failed fetches (refused, CORS, 404, 403): those, and only those, are expected.
    const logged = seen.console.splice(before);
    seen.console.push(...logged.filter((m) => !/ERR_CONNECTION_REFUSED|CORS policy|Failed to load resource|status of 40[34]/.test(m)));
  });

  test("a message with issues: shown in the log and on its task's card (a tasks/get answer altered on the way)", async () => {
    await live.connect(endpoint, { listed: true });
    let altered = 0;
    const alter = async (route) => {
      if (route.request().headers()["mcp-method"] !== "tasks/get" || altered > 0) return route.continue();
      const res = await route.fetch();
      const body = await res.json();
      if (body?.result && typeof body.result.ttlMs === "number") {
        body.result.ttlMs = String(body.result.ttlMs);
        altered++;
      }
      return route.fulfill({ response: res, json: body });
    };
    await page.route((u) => u.href === endpoint, alter);
    try {
      const c = await live.callTool("slow_compute", { seconds: 2, label: "altered" });
      await page.waitForFunction(() => Number(document.querySelector('.live-card[data-tool="slow_compute"]')?.dataset.issues ?? 0) > 0, null, { timeout: 20_000 });
      assert.equal(altered, 1);
      assert.match(await c.locator(".card-issues").textContent(), /task-ttl-type/);
      assert.match(await c.locator(".card-issues").textContent(), /message \d+ \(response tasks\/get\)/);
      // The code comes with the rule it enforces (rules()): "§D 4, 63", its text for screen readers.
      const rule = (await import(INSTALLED.href)).rules().find((r) => r.code === "task-ttl-type");
      const shown = await c.locator(".card-issues .issue-rule").first().evaluate((e) => [e.firstChild.textContent, e.title, e.querySelector(".visually-hidden")?.textContent]);
      assert.deepEqual(shown, [`§D ${rule.spec}`, rule.summary, `: ${rule.summary}`]);
      await live.waitDone("slow_compute");
    } finally {
      await page.unroute((u) => u.href === endpoint, alter);
    }
    const log = await logShown();
    assert.ok(log.some((l) => l.method === "tasks/get" && l.codes.includes("task-ttl-type")), "the log entry shows the issue");
    if (WRITE) {
      await page.fill("#log-search", "tasks/get");
      await page.locator("#raw-log li.has-issues").first().scrollIntoViewIfNeeded();
      await page.locator("#raw").screenshot({ path: SHOT_LOG.pathname });
      await page.fill("#log-search", "");
    }
    assert.ok(existsSync(SHOT_LOG), "docs/inspector-live-log.png exists (WRITE_SCREENSHOTS=1 writes it)");
  });

  test("a task waiting for input, restored after a reload: its status is input_required and its form is back", async () => {
    const c = await live.callTool("confirm_delete", { filename: "restored.txt" });
    await c.locator("form.input-form").waitFor({ timeout: 15_000 });
    const taskId = await c.getAttribute("data-task-id");
    await page.waitForFunction(([key, id]) => JSON.parse(localStorage.getItem(key) ?? "{}")?.tasks?.[id]?.status === "input_required", [LIVE_STORE, taskId]);
    await live.reload();
    const r = live.byTask(taskId);
    await r.waitFor();
    assert.equal(await r.getAttribute("data-resumed"), "true");
    assert.equal(await r.getAttribute("data-status"), "input_required", "the last status known, not 'resumed'");
    await r.locator("form.input-form").waitFor({ timeout: 15_000 });
    assert.equal(await r.getAttribute("data-status"), "input_required");
    await r.locator("form.input-form input[type=checkbox]").check();
    await r.locator("form.input-form button.accept").click();
    await live.waitTaskDone(taskId, 15_000);
    assert.match(await r.locator(".result").textContent(), /Deleted restored\.txt/);
  });

  test("finished cards survive a reload", async () => {
    await live.connect(endpoint, { listed: true });
    const g = await live.callTool("greet", { name: "kept" });
    await live.waitDone("greet");
    assert.match(await g.locator(".result").textContent(), /Hello, kept!/);
    await live.reload();
    const kept = page.locator('.live-card[data-restored-finished][data-tool="greet"]').first();
    await kept.waitFor({ timeout: 5000 }).catch(async (e) => {
      throw new Error(`${e.message}: ${await page.evaluate((key) => JSON.stringify([location.href, document.getElementById("live-mode").hidden, [...document.querySelectorAll(".live-card")].map((c) => ({ ...c.dataset })), localStorage.getItem(key)?.slice(0, 3000)]), LIVE_STORE)} ${seen.errors}`);
    });
    assert.equal(await kept.getAttribute("data-status"), "completed");
    assert.match(await kept.locator(".result").textContent(), /Hello, kept!/);
    assert.match(await kept.textContent(), /before a reload/);
    const tool = page.locator('.live-card[data-restored-finished][data-tool="failing_job"]').first();
    if (!(await tool.count())) assert.fail(`no failing_job card: ${JSON.stringify([await page.evaluate((key) => JSON.parse(localStorage.getItem(key)).finished.map((f) => f.tool), LIVE_STORE), seen.errors])}`);
    assert.equal(await tool.getAttribute("data-tool-error"), "true");
  });

  test("at 390 px nothing overflows; no page errors; no node: imports", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const [scrollWidth, innerWidth] = await page.evaluate(() => [document.scrollingElement.scrollWidth, window.innerWidth]);
    assert.ok(scrollWidth <= innerWidth, `scrollWidth ${scrollWidth} > innerWidth ${innerWidth}`);
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.console.filter((m) => m.startsWith("error")), []);
    assertBrowserOnly(seen.scripts);
  });
});
