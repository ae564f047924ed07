// How the browser tests drive the inspector's live mode (www/index.html#live, www/live.js): wait
// for it, connect to an endpoint, call a tool from its form, find the card of a call and wait for
// its status, reload. One place for the page's selectors, so that the tests say only what they
// check. Not a test file itself (no `.test.` in the name).

/** Where live mode's state is kept between reloads (www/live.js). */
export const LIVE_STORE = "mcp-tasks-inspector/live/1";

/**
 * The live-mode driver of `page`. With `skipRestored`, `card`, `byTask`, `waitStatus` and
 * `waitDone` leave out the cards of calls finished before a reload (`data-restored-finished`).
 * @param {import("playwright-core").Page} page
 * @param {{ skipRestored?: boolean }} [options]
 */
export function livePage(page, { skipRestored = false } = {}) {
  const only = skipRestored ? ":not([data-restored-finished])" : "";
  /** The selector of the cards of `tool` (the newest first: cards are prepended). */
  const cards = (tool) => `.live-card[data-tool="${tool}"]${only}`;
  const ready = () => page.waitForSelector("#live-mode[data-ready=true]", { state: "attached", timeout: 30_000 });
  const lp = {
    page,
    /** Waits until live mode has started (it is attached, shown or not). */
    ready,
    /** Opens `url` and waits for live mode. */
    async open(url) {
      await page.goto(url);
      await ready();
    },
    /** Reloads the page and waits for live mode again. */
    async reload() {
      await page.reload();
      await ready();
    },
    /** The newest card of a tool. */
    card: (tool) => page.locator(cards(tool)).first(),
    /** How many cards `tool` has (restored ones too). */
    cardCount: (tool) => page.locator(`.live-card[data-tool="${tool}"]`).count(),
    /** Waits until `tool` has more than `before` cards. */
    waitNewCard: (tool, before) =>
      page.waitForFunction(([t, n]) => document.querySelectorAll(`.live-card[data-tool="${t}"]`).length > n, [tool, before]),
    /** The card of a task. */
    byTask: (taskId) => page.locator(`.live-card[data-task-id="${taskId}"]${only}`),
    /** Waits until the newest card of `tool` has `status` (its `data-status`). */
    waitStatus: (tool, status, timeout = 15_000) =>
      page.waitForFunction(([sel, st]) => document.querySelector(sel)?.dataset.status === st, [cards(tool), status], { timeout }),
    /** Waits until the newest card of `tool` is done. */
    waitDone: (tool, timeout = 20_000) =>
      page.waitForFunction((sel) => document.querySelector(sel)?.dataset.done === "true", cards(tool), { timeout }),
    /** Waits until the card of task `taskId` is done. */
    waitTaskDone: (taskId, timeout = 20_000) =>
      page.waitForSelector(`.live-card[data-task-id="${taskId}"][data-done=true]${only}`, { timeout }),
    /**
     * Connects to `url` as a user does: picks `version` ("" lets the client negotiate), types
     * the endpoint, clicks "List tools"; with `listed`, waits until the tools are listed.
     * Clears what the last connection showed first (the tools' ready flag, the error box), so
     * that a wait after it sees this connection's outcome.
     */
    async connect(url, { version = "", listed = false } = {}) {
      await page.selectOption("#version", version);
      await page.fill("#endpoint", url);
      await page.evaluate(() => {
        document.getElementById("tools").dataset.ready = "false";
        document.getElementById("live-error").hidden = true;
      });
      await page.click("#list-tools");
      if (listed) await page.waitForSelector("#tools[data-ready=true]", { timeout: 15_000 });
    },
    /**
     * Fills the form of `tool` with `args` (by field id), clicks Call and waits for the new card
     * (with `task`, until the server has named its task too); answers that card.
     */
    async callTool(tool, args = {}, { task = false } = {}) {
      const form = page.locator(`form.tool[data-tool="${tool}"]`);
      for (const [k, v] of Object.entries(args)) await form.locator(`#arg-${tool}-${k}`).fill(String(v));
      const before = await lp.cardCount(tool);
      await form.locator("button.call").click();
      await lp.waitNewCard(tool, before);
      if (task) await page.waitForFunction((t) => document.querySelector(`.live-card[data-tool="${t}"]`)?.dataset.taskId, tool, { timeout: 15_000 });
      return lp.card(tool);
    },
    /** Reloads once live mode has saved `taskId` as pending (so that the reload resumes it). */
    async reloadWhenSaved(taskId) {
      await page.waitForFunction(([key, id]) => JSON.parse(localStorage.getItem(key) ?? "{}")?.client?.tasks?.some((t) => t.taskId === id), [LIVE_STORE, taskId]);
      await lp.reload();
    },
  };
  return lp;
}
