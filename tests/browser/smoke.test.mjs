// www/smoke.html in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core):
// the package's browser entry loads from pkg/ through a plain <script type=module>, validates a
// message and writes the report into the page. Needs pkg/ built (scripts/build.sh).
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { assertBrowserOnly, launchChromium } from "./chromium.mjs";

import { startServer, ROOT } from "../../scripts/serve.mjs";


if (!existsSync(new URL("pkg/browser.js", `file://${ROOT}`))) {
  throw new Error("pkg/ is not built: run `bash scripts/build.sh`");
}

describe("www/smoke.html in Chromium", () => {
  let server;
  let browser;
  /** Everything the page did. */
  const seen = { requests: [], failed: [], scripts: new Map(), wasmTypes: [], console: [], errors: [] };
  let status;
  let report;
  let reportNotJson;
  let serverRun;
  let clientRun;

  before(async () => {
    server = await startServer({ port: 0 });
    browser = await launchChromium();
    const page = await browser.newPage();
    page.on("request", (r) => seen.requests.push(r.url()));
    page.on("requestfailed", (r) => seen.failed.push(`${r.url()}: ${r.failure()?.errorText}`));
    page.on("console", (m) => seen.console.push(`${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => seen.errors.push(String(e)));
    page.on("response", async (r) => {
      const type = r.headers()["content-type"] ?? "";
      if (r.url().endsWith(".wasm")) seen.wasmTypes.push(`${r.url().slice(r.url().indexOf("/pkg/"))} ${type}`);
      if (type.startsWith("text/javascript")) seen.scripts.set(r.url(), await r.text().catch(() => ""));
    });
    await page.goto(`${server.url}www/smoke.html`);
    await page.waitForSelector("#status[data-done=true]", { timeout: 30_000 });
    status = await page.textContent("#status");
    report = JSON.parse((await page.textContent("#report")) || "null");
    reportNotJson = JSON.parse((await page.textContent("#report-not-json")) || "null");
    await page.close();

    // The server entry in the same browser: a page imports pkg/server/browser.js and runs a
    // tool as a 2026-07-28 task with TaskHost (Web Crypto ids, no Node APIs).
    const serverPage = await browser.newPage();
    serverPage.on("pageerror", (e) => seen.errors.push(String(e)));
    serverPage.on("request", (r) => seen.requests.push(r.url()));
    serverPage.on("response", async (r) => {
      const type = r.headers()["content-type"] ?? "";
      if (type.startsWith("text/javascript")) seen.scripts.set(r.url(), await r.text().catch(() => ""));
    });
    await serverPage.goto(`${server.url}www/smoke.html`);
    serverRun = await serverPage.evaluate(async () => {
      const { TaskHost, validateMessage } = await import("/pkg/server/browser.js");
      const host = new TaskHost();
      host.tool("double", { taskSupport: "optional" }, ({ n }) => ({ content: [{ type: "text", text: String(2 * n) }] }));
      const _meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
      };
      const ctx = { protocolVersion: "2026-07-28" };
      const created = await host.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "double", arguments: { n: 21 }, _meta } }, ctx);
      await host.idle();
      const got = await host.handle({ jsonrpc: "2.0", id: 2, method: "tasks/get", params: { taskId: created.result.taskId, _meta } }, ctx);
      // McpHttpServer's fetch handler in the page (as in a service worker): both eras.
      const { McpHttpServer } = await import("/pkg/server/browser.js");
      const app = new McpHttpServer({ name: "in-browser", version: "1" });
      const post = (body, headers) =>
        app.fetch(new Request("http://127.0.0.1/mcp", { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) }));
      const discover = await (await post({ jsonrpc: "2.0", id: 3, method: "server/discover", params: { _meta } }, { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover" })).json();
      const init = await post({ jsonrpc: "2.0", id: 4, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {} } }, {});
      const initialized = { session: init.headers.get("mcp-session-id"), body: await init.json() };
      await app.close();
      return { created, got, report: validateMessage(got, { inReplyTo: "tasks/get" }), discover, initialized };
    });
    // The main entry's TaskClient in the same page: a scripted 2026-07-28 server answers a task,
    // an input request and the final result; real time, the server asks for 250 ms polls.
    clientRun = await serverPage.evaluate(async () => {
      const { TaskClient } = await import("/pkg/browser.js");
      const iso = () => new Date().toISOString();
      const created = iso();
      const task = (status, extra = {}) => ({ resultType: "complete", taskId: "t1", status, createdAt: created, lastUpdatedAt: iso(), ttlMs: 60000, pollIntervalMs: 250, ...extra });
      const sent = [];
      let answered = false;
      const request = async (method, params) => {
        sent.push(method);
        if (method === "tools/call") return { ...task("working"), resultType: "task" };
        if (method === "tasks/update") {
          answered = params.inputResponses.q.content.ok === true;
          return { resultType: "complete" };
        }
        if (!answered) return task("input_required", { inputRequests: { q: { method: "elicitation/create", params: { message: "OK?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } } } } });
        return task("completed", { result: { content: [{ type: "text", text: "done in the browser" }] } });
      };
      const client = new TaskClient({ request, handlers: { elicitation: async () => ({ action: "accept", content: { ok: true } }) } });
      const result = await client.callTool("t", {});
      client.close();
      return { text: result.content[0].text, sent };
    });
    await serverPage.close();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test("the page loaded the package without errors", () => {
    assert.ok(!status.startsWith("error"), status);
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    assert.deepEqual(seen.console.filter((m) => m.startsWith("error") || m.startsWith("warning")), []);
  });

  test("each .wasm came once, as application/wasm (streaming compilation)", () => {
    // Unbundled, the page loads every module the entry names: the browser module and the main
    // module (which conversation.js fetches for Conversation; a bundler drops it when unused).
    assert.deepEqual(seen.wasmTypes.sort(), ["/pkg/browser/mcp_tasks_browser_bg.wasm application/wasm", "/pkg/mcp_tasks_wasm_bg.wasm application/wasm"]);
  });

  test("the page shows the report of the valid V25 tasks/get result", () => {
    assert.equal(status, "valid", JSON.stringify(report?.issues));
    assert.equal(report.valid, true);
    assert.equal(report.version, "2025-11-25");
    assert.equal(report.rpc, "result");
  });

  test("the page shows not-json for text that is not JSON", () => {
    assert.equal(reportNotJson.valid, false);
    assert.ok(reportNotJson.issues.some((i) => i.code === "not-json"), JSON.stringify(reportNotJson));
  });

  test("the page graph imports nothing from node: and fetches only from the server", () => {
    assert.ok(seen.scripts.size >= 3, `scripts seen: ${[...seen.scripts.keys()]}`);
    for (const url of seen.requests) {
      assert.ok(url.startsWith(server.url), `request outside the test server: ${url}`);
    }
    assertBrowserOnly(seen.scripts);
    assert.ok([...seen.scripts.keys()].some((u) => u.endsWith("/pkg/browser.js")), "browser.js was loaded");
    for (const f of ["browser.js", "index.js", "host.js", "sdk.js", "http-server.js", "mrtr.js"]) {
      assert.ok([...seen.scripts.keys()].some((u) => u.endsWith(`/pkg/server/${f}`)), `server/${f} was loaded`);
    }
  });

  test("the server entry runs a task with TaskHost in the browser", () => {
    assert.equal(serverRun.created.result.resultType, "task");
    assert.match(serverRun.created.result.taskId, /^[0-9a-f]{32}$/);
    assert.equal(serverRun.got.result.status, "completed");
    assert.equal(serverRun.got.result.result.content[0].text, "42");
    assert.deepEqual(serverRun.report.issues, []);
  });

  test("the server entry's McpHttpServer answers both eras through fetch in the browser", () => {
    assert.deepEqual(serverRun.discover.result.supportedVersions, ["2026-07-28", "2025-11-25"]);
    assert.deepEqual(serverRun.discover.result.serverInfo, { name: "in-browser", version: "1" });
    assert.equal(serverRun.initialized.body.result.protocolVersion, "2025-11-25");
    assert.match(serverRun.initialized.session, /^[0-9a-f-]{36}$/);
  });

  test("the main entry's TaskClient polls, answers input and gets the result in the browser", () => {
    assert.equal(clientRun.text, "done in the browser");
    assert.deepEqual(clientRun.sent, ["tools/call", "tasks/get", "tasks/update", "tasks/get"]);
  });
});
