// The browser app's bytes (BENCHMARKS.md "Browser app"): bench/browser-app.mjs bundles the app of
// bench/browser-app/ for the browser with esbuild and counts gzip bytes of JS + wasm. Here: the
// figures are computed (no threshold: the numbers go in BENCHMARKS.md), the first row is the app
// that uses TaskClient alone (no SDK in its bundle), and an app importing only the main entry
// loads only the browser module (no conversation checker), with no task store code in its bundle;
// an app that imports Conversation loads the main module too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");

test("bench/browser-app.mjs measures the browser app: JS + wasm gzip bytes, the client module only for the main entry", async () => {
  const dir = mkdtempSync(join(tmpdir(), "browser-app-size-"));
  try {
    const json = join(dir, "browser-app.json");
    const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, "bench/browser-app.mjs"), "--json", json], { cwd: ROOT, timeout: 120_000 });
    assert.match(stdout, /KB gzip/);
    const { results } = JSON.parse(readFileSync(json, "utf8"));
    assert.equal(Object.keys(results).length, 4);
    const [alone, main, both, conversation] = Object.values(results);
    for (const r of [alone, main, both, conversation]) {
      assert.ok(Number.isSafeInteger(r.js.gzip) && r.js.gzip > 0, JSON.stringify(r.js));
      assert.ok(r.inputs.package > 0, "the bundle holds the package");
      const wasm = Object.values(r.wasm).reduce((a, s) => a + s.gzip, 0);
      assert.equal(r.total.gzip, r.js.gzip + wasm);
    }
    // The first row: TaskClient alone, no SDK; the others next to the SDK client, for scale.
    assert.equal(alone.app, "client.js");
    assert.equal(alone.inputs.sdk, 0, "the TaskClient-only app bundles the SDK");
    assert.ok(main.inputs.sdk > 0 && both.inputs.sdk > 0, "the bundle holds the SDK client");
    assert.ok(alone.total.gzip < main.total.gzip);
    // The main entry without Conversation: the browser module alone, no task store and no
    // conversation checker in the bundle.
    for (const r of [alone, main]) {
      assert.deepEqual(Object.keys(r.wasm), ["browser/mcp_tasks_browser_bg.wasm"]);
      assert.equal(r.storeGlue, false, "the task store core's glue is in the bundle");
      assert.equal(r.conversationGlue, false, "the conversation checker's glue is in the bundle");
    }
    assert.equal(both.storeGlue, true);
    // Both entries: both modules.
    assert.deepEqual(Object.keys(both.wasm).sort(), ["browser/mcp_tasks_browser_bg.wasm", "server/mcp_tasks_server_bg.wasm"]);
    // Conversation imported: the main module (with the checker) too.
    assert.equal(conversation.conversationGlue, true);
    assert.deepEqual(Object.keys(conversation.wasm).sort(), ["browser/mcp_tasks_browser_bg.wasm", "mcp_tasks_wasm_bg.wasm"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
