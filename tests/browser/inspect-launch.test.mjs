// `mcp-tasks-wasm inspect` (js/inspect.mts) from the installed package, as npx runs its bin, with
// headless Chromium opening the URL it prints:
// - `inspect -- node examples/stdio-server.mjs`: the page connects through the launcher's bridge
//   by itself, lists the stdio server's tools, calls slow_compute and follows its task to
//   completed; the token leaves the address bar and a reload stays connected;
// - `inspect URL --bearer T`: a server that allows no browser origin (no CORS) and wants a bearer
//   token is reached through the bridge (the page itself cannot reach it);
// - a page on another port that posts to the bridge (even with a guessed token) starts nothing.
// Every process is stopped by its PID. WRITE_SCREENSHOTS=1 rewrites docs/inspector-launch.png.
// Needs the package built and installed:
//   bash scripts/build.sh && bash scripts/pack.sh && node --test tests/browser/inspect-launch.test.mjs
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchChromium } from "./chromium.mjs";
import { livePage } from "./live-page.mjs";
import { startServer } from "../../scripts/serve.mjs";
import { ROOT, STDIO_SERVER, bearerServer, launch, stop, stopAll } from "../js/inspect/lib.mjs";

const SHOT = join(ROOT, "docs", "inspector-launch.png");

describe("mcp-tasks-wasm inspect in Chromium", () => {
  let browser;
  const dir = mkdtempSync(join(tmpdir(), "mcp-inspect-browser-"));
  const errors = [];

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await stopAll();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A new page on `url`, in live mode (its driver). */
  async function open(url) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("pageerror", (e) => errors.push(String(e)));
    const live = livePage(page);
    await live.open(url);
    return live;
  }

  /** Calls `tool` and waits until its card shows it completed. */
  async function callAndFollow(live, tool, args) {
    const card = await live.callTool(tool, args);
    await live.waitStatus(tool, "completed", 20_000);
    return card;
  }

  test("inspect -- node examples/stdio-server.mjs: the page follows a stdio server's task to completed", async () => {
    const l = await launch(["--", process.execPath, STDIO_SERVER]);
    try {
      const live = await open(l.url);
      const { page } = live;
      await page.waitForSelector("#tools[data-ready=true]", { timeout: 20_000 });
      assert.equal(await page.inputValue("#endpoint"), `${l.base}/bridge/mcp`);
      assert.equal(new URL(page.url()).hash, "#live", "the token left the address bar");
      assert.match(await page.textContent("#bridge-note"), /stdio server .*stdio-server\.mjs/);
      assert.equal(await page.isVisible("#live-mode"), true);
      const card = await callAndFollow(live, "slow_compute", { seconds: 1, label: "launched" });
      assert.match(await card.getAttribute("data-statuses"), /working.*completed/);
      assert.ok(await card.getAttribute("data-task-id"), "a task");
      assert.match(await card.locator(".result").textContent(), /launched: done after 1 s/);
      assert.match(l.child.stderrText, /stdio server started \(pid \d+\)/);
      if (process.env.WRITE_SCREENSHOTS === "1") {
        await page.evaluate(() => document.getElementById("live-heading").scrollIntoView());
        await page.screenshot({ path: SHOT });
      }
      // A reload: the token is kept in this tab, the page connects again to the same process.
      await live.reload();
      await page.waitForSelector("#tools[data-ready=true]", { timeout: 20_000 });
      assert.equal(l.child.stderrText.match(/stdio server started/g).length, 1);
      await page.close();
    } finally {
      await stop(l.child);
    }
    assert.deepEqual(errors, []);
  });

  test("inspect URL --bearer: a server without CORS that wants a token, reached through the bridge", async () => {
    const server = await bearerServer("br0wser");
    const l = await launch([server.url, "--bearer", "br0wser"]);
    try {
      const live = await open(l.url);
      const { page } = live;
      await page.waitForSelector("#tools[data-ready=true]", { timeout: 20_000 });
      assert.match(await page.textContent("#bridge-note"), new RegExp(`${server.url.replace(/[./]/g, "\\$&")} \\(with authorization\\)`));
      // The page alone cannot reach it (no CORS; a browser origin is refused).
      const direct = await page.evaluate((u) => fetch(u, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }).then((r) => r.status, (e) => e.name), server.url);
      assert.equal(direct, "TypeError");
      const card = await callAndFollow(live, "slow_compute", { seconds: 1, label: "bearer" });
      assert.match(await card.locator(".result").textContent(), /bearer: done after 1 s/);
      assert.match(server.child.stdoutText, /seen POST Bearer br0wser - -/);
      await page.close();
    } finally {
      await stop(l.child);
      await stop(server.child);
    }
    assert.deepEqual(errors, []);
  });

  test("a page on another port posting to the bridge starts no process", async () => {
    const marker = join(dir, "started");
    const l = await launch(["--", process.execPath, "-e", "require('fs').writeFileSync(process.argv[1], 'x'); process.stdin.resume()", marker]);
    const web = await startServer({ port: 0 });
    try {
      const page = await browser.newPage();
      await page.goto(`${web.url}www/smoke.html`);
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
      const outcomes = await page.evaluate(async ([mcp, token, b]) => {
        const tries = [
          // a simple request: no preflight, the answer opaque
          () => fetch(mcp, { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body: b }),
          // with the right token (as if leaked): the preflight is refused
          () => fetch(mcp, { method: "POST", headers: { "content-type": "application/json", "x-mcp-bridge-token": token }, body: b }),
          () => fetch(`${mcp}?token=${token}`, { method: "POST", mode: "no-cors", body: b }),
        ];
        const out = [];
        for (const t of tries) out.push(await t().then((r) => r.type, (e) => e.name));
        return out;
      }, [`${l.base}/bridge/mcp`, l.token, body]);
      assert.deepEqual(outcomes, ["opaque", "TypeError", "opaque"]);
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(!existsSync(marker), "no process started");
      assert.doesNotMatch(l.child.stderrText, /started/);
      await page.close();
    } finally {
      await web.close();
      await stop(l.child);
    }
  });
});
