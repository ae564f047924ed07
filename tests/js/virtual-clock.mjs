// A virtual clock for TaskClient tests (its `clock` option): time moves only when the test says,
// and every timer fires at its own time. Not a test file itself (no `.test.` in the name).

/** Lets every pending promise callback run. */
export async function flush() {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

/**
 * A clock starting at `start` (Unix ms): `sleep` resolves when `advance` passes its time, or when
 * its signal aborts (at once if it already has); `to(ms)` moves to `origin + ms`.
 */
export function virtualClock(start, origin = start) {
  let now = start;
  /** @type {{ at: number, resolve: () => void }[]} */
  let timers = [];
  return {
    now: () => now,
    sleep(ms, signal) {
      return new Promise((resolve) => {
        if (signal.aborted) return resolve();
        const t = { at: now + Math.max(0, ms), resolve };
        timers.push(t);
        signal.addEventListener("abort", () => {
          timers = timers.filter((x) => x !== t);
          resolve();
        }, { once: true });
      });
    },
    /** Moves time forward by `ms`, firing each timer at its own time. */
    async advance(ms) {
      const end = now + ms;
      await flush();
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > end) break;
        timers.shift();
        now = next.at;
        next.resolve();
        await flush();
      }
      now = end;
      await flush();
    },
    /** Moves time to `ms` after the origin. */
    to(ms) {
      return this.advance(origin + ms - now);
    },
  };
}
