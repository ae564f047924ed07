// The browser app's bytes (BENCHMARKS.md "Browser app"): bench/browser-app.mjs bundles the app of
// bench/browser-app/ for the browser with esbuild and counts gzip bytes of JS + wasm. Here: the
// figures are computed (no threshold: the numbers go in BENCHMARKS.md), the first row is the app
// that uses TaskClient alone (no SDK in its bundle), and an app importing only the main entry
// loads only the client module, with no task store code in its bundle.
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
    assert.equal(Object.keys(results).length, 3);
    const [alone, main, both] = Object.values(results);
    for (const r of [alone, main, both]) {
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
    // The main entry: the client module alone, no task store in the bundle.
    for (const r of [alone, main]) {
      assert.deepEqual(Object.keys(r.wasm), ["mcp_tasks_wasm_bg.wasm"]);
      assert.equal(r.storeGlue, false, "the task store core's glue is in the bundle");
    }
    assert.equal(both.storeGlue, true);
    // Both entries: both modules.
    assert.deepEqual(Object.keys(both.wasm).sort(), ["mcp_tasks_wasm_bg.wasm", "server/mcp_tasks_server_bg.wasm"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
