// www/index.html, the inspector's transcript mode, in headless Chromium (Debian's
// /usr/bin/chromium, driven by playwright-core): for each bundled sample the page shows one card
// per task, the statuses of its timeline and the issue codes of its messages, all compared with
// what `Conversation` of the installed package gives for the same file in Node. Also: pasting,
// keyboard use, each issue with the rule it enforces (rules()), no network beyond the server, no
// node: imports, no horizontal overflow at a phone width. WRITE_SCREENSHOTS=1 rewrites
// docs/inspector-transcript*.png and docs/inspector-dark.png. Needs pkg/ built and packed
// (scripts/build.sh, scripts/pack.sh).
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, mkdirSync } from "node:fs";
import { assertBrowserOnly, launchChromium } from "./chromium.mjs";

import { startServer, ROOT } from "../../scripts/serve.mjs";

const SAMPLES = ["v2025-healthy.jsonl", "v2025-violations.jsonl", "v2026-healthy.jsonl", "v2026-violations.jsonl"];
const INSTALLED = new URL("../js/.tmp/install/esm.mjs", import.meta.url);
const SHOT = new URL("docs/inspector-transcript.png", `file://${ROOT}`);
const SHOT_PHONE = new URL("docs/inspector-transcript-phone.png", `file://${ROOT}`);
const SHOT_DARK = new URL("docs/inspector-dark.png", `file://${ROOT}`);
const WRITE = process.env.WRITE_SCREENSHOTS === "1";

if (!existsSync(new URL("pkg/browser.js", `file://${ROOT}`))) {
  throw new Error("pkg/ is not built: run `bash scripts/build.sh`");
}
if (!existsSync(INSTALLED)) throw new Error("the package is not installed: run `bash scripts/pack.sh`");
const { Conversation, rules } = await import(INSTALLED.href);

/** What the page should show for a transcript, computed with the installed package. */
function expected(text) {
  const conv = new Conversation();
  const reports = text.split(/\r?\n/).filter((l) => l.trim() !== "").map((l) => conv.observe(l));
  const tasks = conv.tasks();
  conv.free();
  const known = new Set(tasks.map((t) => t.taskId));
  const codes = (rs) => rs.flatMap((r) => r.issues.map((i) => `${i.code} ${i.path}`));
  const versions = {};
  for (const r of reports) {
    const v = (versions[r.version ?? "unknown"] ??= { messages: 0, tasks: 0, errors: 0, warnings: 0 });
    v.messages++;
    for (const i of r.issues) i.severity === "error" ? v.errors++ : v.warnings++;
  }
  for (const t of tasks) versions[t.version ?? "unknown"].tasks++;
  return {
    cards: tasks.map((t) => ({
      id: t.taskId,
      final: t.finalStatus ?? "none",
      // consecutive equal statuses are one segment of the timeline
      statuses: t.events.map((e) => e.status).filter((s, i, all) => s !== null && s !== all.slice(0, i).filter((x) => x !== null).at(-1)),
      codes: codes(reports.filter((r) => r.taskIds.includes(t.taskId))),
    })),
    conversation: codes(reports.filter((r) => r.issues.length && !r.taskIds.some((id) => known.has(id)))),
    versions,
    allCodes: reports.flatMap((r) => r.issues.map((i) => i.code)),
  };
}

/** What the page shows. */
const shown = (page) => page.evaluate(() => {
  const texts = (root, sel) => [...root.querySelectorAll(sel)].map((e) => e.textContent.trim());
  const conv = document.querySelector(".conversation-card");
  return {
    status: document.getElementById("status").textContent,
    cards: [...document.querySelectorAll(".task-card")].map((c) => ({
      id: c.dataset.taskId,
      final: c.querySelector(".final-status").textContent,
      statuses: texts(c, "svg.timeline .run-status"),
      dataStatuses: c.querySelector("svg.timeline").dataset.statuses,
      label: c.querySelector("svg.timeline > title").textContent,
      codes: [...c.querySelectorAll(".issue")].map((i) => `${i.querySelector(".issue-code").textContent} ${i.querySelector(".issue-path").textContent.replace(/^"" \(whole message\)$/, "")}`),
    })),
    conversation: conv ? [...conv.querySelectorAll(".issue")].map((i) => `${i.querySelector(".issue-code").textContent} ${i.querySelector(".issue-path").textContent.replace(/^"" \(whole message\)$/, "")}`) : [],
    versions: Object.fromEntries([...document.querySelectorAll("table.summary tbody tr")].map((tr) => [
      tr.dataset.version,
      Object.fromEntries([...tr.querySelectorAll("td")].map((td) => [td.dataset.col, Number(td.textContent)])),
    ])),
  };
});

describe("www/ inspector, transcript mode, in Chromium", () => {
  let server;
  let browser;
  let page;
  const seen = { requests: [], failed: [], scripts: new Map(), wasmTypes: [], console: [], errors: [] };

  async function openPage() {
    await page.goto(`${server.url}www/`);
    await page.waitForSelector("#app[data-ready=true]", { timeout: 30_000 });
  }
  async function run(action, source) {
    await page.evaluate(() => delete document.getElementById("results").dataset.source);
    await action();
    await page.waitForSelector(`#results[data-done=true][data-source="${source}"]`, { timeout: 10_000 });
  }
  const loadSample = (name) => run(async () => {
    await page.selectOption("#sample", name);
    await page.click("#load-sample");
  }, name);

  before(async () => {
    server = await startServer({ port: 0 });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("request", (r) => seen.requests.push(r.url()));
    page.on("requestfailed", (r) => seen.failed.push(`${r.url()}: ${r.failure()?.errorText}`));
    page.on("console", (m) => seen.console.push(`${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => seen.errors.push(String(e)));
    page.on("response", async (r) => {
      const type = r.headers()["content-type"] ?? "";
      if (r.url().endsWith(".wasm")) seen.wasmTypes.push(type);
      if (type.startsWith("text/javascript")) seen.scripts.set(r.url(), await r.text().catch(() => ""));
    });
    await openPage();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const name of SAMPLES) {
    test(`${name}: task cards, timeline statuses, issue codes and the summary match Conversation`, async () => {
      const want = expected(readFileSync(new URL(`samples/${name}`, `file://${ROOT}`), "utf8"));
      await loadSample(name);
      const got = await shown(page);
      assert.equal(got.cards.length, want.cards.length, "number of task cards");
      assert.ok(want.cards.length >= 2, "every sample has tasks");
      want.cards.forEach((w, i) => {
        const g = got.cards[i];
        assert.equal(g.id, w.id);
        assert.equal(g.final, w.final, `final status of ${w.id}`);
        assert.deepEqual(g.statuses, w.statuses, `statuses drawn on the timeline of ${w.id}`);
        assert.equal(g.dataStatuses, w.statuses.join(" "));
        for (const s of w.statuses) assert.ok(g.label.includes(s), `the timeline's label names ${s}: ${g.label}`);
        assert.deepEqual(g.codes, w.codes, `issues shown on the card of ${w.id}`);
      });
      assert.deepEqual(got.conversation, want.conversation, "issues of the conversation card");
      assert.deepEqual(got.versions, want.versions, "summary per version");
      if (name.includes("violations")) assert.ok(want.allCodes.length > 5, "the violations samples have issues");
      else assert.deepEqual(want.allCodes, [], "the healthy samples have none");
      assert.match(got.status, new RegExp(`^${name.replace(".", "\\.")}: \\d+ messages`));
    });
  }

  test("cards show the creating tools/call (tool and arguments), request/response pairs, and each message with issues marked on the timeline", async () => {
    for (const name of SAMPLES) {
      const lines = readFileSync(new URL(`samples/${name}`, `file://${ROOT}`), "utf8").split("\n").filter((l) => l.trim() !== "");
      const conv = new Conversation();
      const reports = lines.map((l) => conv.observe(l));
      const tasks = conv.tasks();
      conv.free();
      // In Node: each answer paired with the newest earlier request of its id and method.
      const partner = new Map();
      const open = [];
      reports.forEach((r, i) => {
        let id;
        try {
          id = JSON.stringify(JSON.parse(lines[i]).id ?? null);
        } catch {
          return;
        }
        if (r.rpc === "request") open.push({ i, id, method: r.method });
        else if (r.rpc === "result" || r.rpc === "error") {
          const k = open.findLastIndex((o) => o.id === id && o.method === r.method);
          if (k >= 0) {
            partner.set(i, open[k].i);
            partner.set(open[k].i, i);
            open.splice(k, 1);
          }
        }
      });
      await loadSample(name);
      for (const t of tasks) {
        const c = page.locator(`.task-card[data-task-id="${t.taskId}"]`);
        const created = reports.findIndex((r, i) => r.rpc === "result" && r.method === "tools/call" && r.taskIds.includes(t.taskId) && partner.has(i));
        if (created >= 0) {
          const params = JSON.parse(lines[partner.get(created)]).params;
          assert.equal(await c.locator(".creator-tool").textContent(), params.name, `${name} ${t.taskId}`);
          assert.equal(await c.locator(".creator-args").textContent(), JSON.stringify(params.arguments ?? {}));
        } else {
          assert.match(await c.locator(".creator").textContent(), /not in the transcript/);
        }
        const mine = reports.map((r, i) => [r, i]).filter(([r]) => r.taskIds.includes(t.taskId));
        const pairs = await c.locator(".message").evaluateAll((ms) => ms.map((m) => m.querySelector(".msg-pair")?.textContent ?? null));
        assert.deepEqual(pairs, mine.map(([r, i]) => r.rpc === "request"
          ? (partner.has(i) ? `answered by #${partner.get(i)} (line ${partner.get(i) + 1})` : "no answer in the transcript")
          : r.rpc === "result" || r.rpc === "error"
            ? (partner.has(i) ? `answers #${partner.get(i)} (line ${partner.get(i) + 1})` : "answers no request seen")
            : null), `pairs of ${name} ${t.taskId}`);
        const flagged = mine.filter(([r]) => r.issues.length).map(([r]) => String(r.index));
        assert.deepEqual(await c.locator("svg.timeline svg.violation").evaluateAll((vs) => vs.map((v) => v.dataset.index)), flagged, `violations marked for ${t.taskId}`);
      }
    }
  });

  test("a pasted transcript is checked, a line that is not JSON included", async () => {
    const lines = readFileSync(new URL("samples/v2026-violations.jsonl", `file://${ROOT}`), "utf8").split("\n").slice(0, 12);
    const text = [...lines, "{oops"].join("\n");
    const want = expected(text);
    await page.fill("#paste", text);
    await run(() => page.click("#check-paste"), "pasted transcript");
    const got = await shown(page);
    assert.deepEqual(got.cards.map((c) => [c.id, c.statuses, c.codes]), want.cards.map((c) => [c.id, c.statuses, c.codes]));
    assert.deepEqual(got.conversation, want.conversation);
    assert.ok(got.conversation.some((c) => c.startsWith("not-json")), JSON.stringify(got.conversation));
  });

  test("a timed transcript (records of when each message was seen): read by Conversation, the record's time shown, a bad one warned", async () => {
    // Each message as a record, `{at, message}`, 250 ms apart; one answer's `at` has no time zone
    // (Date.parse reads it, RFC 3339 does not): Conversation warns `record-time` and it counts no time.
    const plain = readFileSync(new URL("samples/v2026-healthy.jsonl", `file://${ROOT}`), "utf8").split("\n").filter((l) => l.trim() !== "");
    const plainConv = new Conversation();
    const plainReports = plain.map((l) => plainConv.observe(l));
    plainConv.free();
    const bad = plainReports.findIndex((r) => r.rpc === "result" && r.method === "tasks/get");
    assert.ok(bad > 0, "the sample answers a tasks/get");
    const at = (i) => new Date(Date.UTC(2026, 0, 2, 10) + i * 250).toISOString();
    const atOf = (i) => (i === bad ? at(i).slice(0, 19) : at(i));
    const lines = plain.map((l, i) => JSON.stringify({ at: atOf(i), message: JSON.parse(l) }));
    const text = `${lines.join("\n")}\n`;
    const want = expected(text);
    const name = "timed.jsonl";
    await run(() => page.setInputFiles("#file", { name, mimeType: "application/jsonl", buffer: Buffer.from(text) }), name);
    const got = await shown(page);
    assert.deepEqual(got.cards.map((c) => [c.id, c.statuses, c.codes]), want.cards.map((c) => [c.id, c.statuses, c.codes]));
    assert.deepEqual(got.conversation, want.conversation);
    assert.deepEqual(got.versions, want.versions);
    const badCard = want.cards.find((c) => c.codes.some((k) => k.startsWith("record-time")));
    assert.ok(badCard, JSON.stringify(want.cards.map((c) => c.codes)));
    // The time of each status event is the record's (`seenAt`), as Conversation gives it.
    const conv = new Conversation();
    const reports = lines.map((l) => conv.observe(l));
    const tasks = conv.tasks();
    conv.free();
    for (const t of tasks) {
      const c = page.locator(`.task-card[data-task-id="${t.taskId}"]`);
      const seen = await c.locator("svg.timeline circle.mark > title").evaluateAll((ts) => ts.map((e) => /, recorded (\S+?)(?=:\s|\s|$)/.exec(e.textContent)?.[1] ?? null));
      const statusEvents = t.events.filter((e) => e.status !== null);
      assert.deepEqual(seen, statusEvents.map((e) => e.seenAt ?? null), `recorded times of ${t.taskId}`);
      assert.ok(seen.some((x) => x !== null), `${t.taskId} has recorded times`);
      // How long an answer took: the two records' times apart, none where one is not RFC 3339.
      const mine = reports.map((r, i) => [r, i]).filter(([r]) => r.taskIds.includes(t.taskId) && (r.rpc === "result" || r.rpc === "error"));
      for (const [, i] of mine) {
        const shownPair = await c.locator(`.message`).nth(reports.filter((r, k) => k < i && r.taskIds.includes(t.taskId)).length).locator(".msg-pair").textContent();
        const m = /^answers #(\d+) \(line \d+\)(?: after (\d+) ms)?$/.exec(shownPair);
        assert.ok(m, shownPair);
        const p = Number(m[1]);
        assert.equal(m[2] === undefined ? null : Number(m[2]), i === bad || p === bad ? null : Math.abs(i - p) * 250, `line ${i + 1}: ${shownPair}`);
      }
    }
  });

  test("keyboard: the sample picker and the load button are reachable with Tab and work with Enter and Space", async () => {
    await openPage();
    let active = "";
    for (let i = 0; i < 20 && active !== "sample"; i++) {
      await page.keyboard.press("Tab");
      active = await page.evaluate(() => document.activeElement?.id ?? "");
    }
    assert.equal(active, "sample", "Tab reaches the sample picker");
    await page.keyboard.press("ArrowDown");
    const picked = await page.inputValue("#sample");
    assert.equal(picked, SAMPLES[1]);
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "load-sample", "Tab reaches the load button");
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(outline, "none", "the focused button shows its focus");
    await run(() => page.keyboard.press("Enter"), picked);

    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("ArrowDown");
    const next = await page.inputValue("#sample");
    assert.equal(next, SAMPLES[2]);
    await page.keyboard.press("Tab");
    await run(() => page.keyboard.press("Space"), next);
    assert.equal((await shown(page)).cards.length, expected(readFileSync(new URL(`samples/${next}`, `file://${ROOT}`), "utf8")).cards.length);
  });

  test("each issue names the rule it enforces, from rules(): \"§D n\" shown, the rule's text its tooltip and read with the line", async () => {
    const table = new Map(rules().map((r) => [r.code, r]));
    for (const name of ["v2025-violations.jsonl", "v2026-violations.jsonl"]) {
      await loadSample(name);
      const lines = await page.$$eval(".issue", (is) => is.map((i) => {
        const rule = i.querySelector(".issue-rule");
        const hidden = rule?.querySelector(".visually-hidden");
        return {
          code: i.querySelector(".issue-code").textContent,
          shown: rule ? rule.firstChild.textContent : null,
          title: rule?.getAttribute("title") ?? null,
          read: hidden ? hidden.textContent : null,
          hiddenFromReaders: !!rule?.closest("[aria-hidden=true]"),
        };
      }));
      assert.ok(lines.length > 5, `${name}: issues shown`);
      assert.ok(lines.some((l) => /^§D \d/.test(l.shown ?? "")), `${name}: some issue cites a §D rule`);
      for (const l of lines) {
        const r = table.get(l.code);
        assert.ok(r, `${l.code} is in rules()`);
        assert.deepEqual(l, { code: l.code, shown: /^\d/.test(r.spec) ? `§D ${r.spec}` : r.spec, title: r.summary, read: `: ${r.summary}`, hiddenFromReaders: false }, l.code);
      }
    }
  });

  test("every control has a label; results are announced (aria-live)", async () => {
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll("input, select, textarea")].filter((e) => !e.labels?.length).map((e) => e.id));
    assert.deepEqual(unlabelled, []);
    assert.equal(await page.getAttribute("#status", "aria-live"), "polite");
  });

  test("at 1280 px: the screenshot in docs/", async () => {
    await loadSample("v2026-violations.jsonl");
    if (WRITE) {
      mkdirSync(new URL("docs/", `file://${ROOT}`), { recursive: true });
      const height = await page.evaluate(() => document.scrollingElement.scrollHeight);
      await page.screenshot({ path: SHOT.pathname, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: Math.min(height, 1500) } });
    }
    assert.ok(existsSync(SHOT), "docs/inspector-transcript.png exists (WRITE_SCREENSHOTS=1 writes it)");
  });

  test("at 1280 px, the dark theme: the screenshot in docs/", async () => {
    await loadSample("v2025-violations.jsonl");
    await page.click("#theme-toggle");
    try {
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
      if (WRITE) {
        // From the results down: the summary and the first cards, with their issues and rules.
        const top = await page.evaluate(() => document.getElementById("status").offsetTop);
        await page.screenshot({ path: SHOT_DARK.pathname, fullPage: true, clip: { x: 0, y: top - 10, width: 1280, height: 1300 } });
      }
    } finally {
      await page.click("#theme-toggle");
      await page.evaluate(() => localStorage.removeItem("mcp-tasks-inspector/theme"));
    }
    assert.ok(existsSync(SHOT_DARK), "docs/inspector-dark.png exists (WRITE_SCREENSHOTS=1 writes it)");
  });

  test("at 390 px nothing overflows horizontally", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const name of SAMPLES) {
      await loadSample(name);
      const [scrollWidth, innerWidth] = await page.evaluate(() => [document.scrollingElement.scrollWidth, window.innerWidth]);
      assert.ok(scrollWidth <= innerWidth, `${name}: scrollWidth ${scrollWidth} > innerWidth ${innerWidth}`);
    }
    if (WRITE) {
      await loadSample("v2026-violations.jsonl");
      const top = await page.evaluate(() => document.getElementById("results").offsetTop);
      await page.screenshot({ path: SHOT_PHONE.pathname, fullPage: true, clip: { x: 0, y: top, width: 390, height: 1400 } });
    }
    assert.ok(existsSync(SHOT_PHONE), "docs/inspector-transcript-phone.png exists");
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test("no errors, no failed requests, nothing fetched outside the server, the .wasm as application/wasm", () => {
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    assert.deepEqual(seen.console.filter((m) => m.startsWith("error") || m.startsWith("warning")), []);
    assert.ok(seen.requests.length > 0);
    for (const url of seen.requests) assert.ok(url.startsWith(server.url), `request outside the test server: ${url}`);
    assert.ok(seen.wasmTypes.length >= 1);
    for (const t of seen.wasmTypes) assert.equal(t, "application/wasm");
    for (const name of SAMPLES) assert.ok(seen.requests.includes(`${server.url}pkg/samples/${name}`), `${name} fetched from pkg/samples`);
  });

  test("the scripts the page loaded import nothing from node: and call no require()", () => {
    const urls = [...seen.scripts.keys()];
    assert.ok(urls.some((u) => u.endsWith("/www/transcript.js")), urls.join(", "));
    assert.ok(urls.some((u) => u.endsWith("/pkg/browser.js")), urls.join(", "));
    assertBrowserOnly(seen.scripts);
  });
});
