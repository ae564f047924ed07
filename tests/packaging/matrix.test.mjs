// The packaging matrix (docs/decisions/packaging.md): the packed tarball (scripts/pack.sh)
// installed into a scratch
// project per environment, built with the pinned bundler of tools/bundlers, and RUN:
// tests/packaging/<name>/env.mjs says how. Every environment runs a validation and a TaskClient
// call to a reference server started here on 127.0.0.1 (McpHttpServer of the installed package);
// those that can host a server also run a TaskHost task and a TaskClient against it in process
// (kind "server"). Browser bundles run in headless Chromium.
//
//   node --test tests/packaging/matrix.test.mjs                       every environment
//   node --test --test-name-pattern=vite tests/packaging/matrix.test.mjs   some
//
// Rows expected to fail (with the reason) are listed in tests/packaging/expected-failures.mjs.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { launchChromium } from "../browser/chromium.mjs";
import { HERE, checkTools, startReferenceServer, tarball } from "./lib.mjs";
import { EXPECTED_FAILURES } from "./expected-failures.mjs";

const ENVS = readdirSync(HERE, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(HERE, d.name, "env.mjs")))
  .map((d) => d.name)
  .sort();

for (const name of Object.keys(EXPECTED_FAILURES)) {
  if (!ENVS.includes(name)) throw new Error(`expected-failures.mjs names ${name}, which is no environment`);
}

/** @type {{ url: string, close(): Promise<void> }} */
let reference;
/** @type {import("playwright-core").Browser | undefined} */
let browser;

before(async () => {
  checkTools();
  tarball();
  reference = await startReferenceServer();
});
after(async () => {
  await browser?.close();
  await reference?.close();
});

/** Headless Chromium, launched once when a browser environment first needs it. */
async function getBrowser() {
  browser ??= await launchChromium();
  return browser;
}

/** What every probe must have found. */
function assertClient(r) {
  assert.equal(r.valid, true, "a valid tasks/get answer is valid");
  assert.equal(r.kind, "GetTaskResult");
  assert.ok(r.badIssues.includes("task-negative-ms"), `a negative ttl is reported (got ${r.badIssues})`);
  assert.equal(r.remote, "n² = 49", "TaskClient.connect + callTool against the reference server");
}
function assertServer(r) {
  assert.equal(r.hostCreated, "task", "TaskHost answered tools/call with a task");
  assert.equal(r.hostStatus, "completed");
  assert.equal(r.hostText, "n² = 25");
  assert.equal(r.hostAnswerValid, true, "the host's tasks/get answer validates");
  assert.equal(r.local, "n² = 36", "TaskClient against the TaskHost in process");
  assert.ok(r.localMethods.includes("tasks/get"), `the in-process call ran as a task (methods: ${r.localMethods})`);
}

for (const name of ENVS) {
  test(name, async () => {
    const env = await import(pathToFileURL(join(HERE, name, "env.mjs")).href);
    const expected = EXPECTED_FAILURES[name];
    const attempt = async () => {
      const result = await env.run({ serverUrl: reference.url, getBrowser });
      assertClient(result);
      if (env.kind === "server") assertServer(result);
      else assert.equal(env.kind, "browser", `${name}/env.mjs: kind must be "server" or "browser"`);
    };
    if (!expected) return attempt();
    let error;
    try {
      await attempt();
    } catch (e) {
      error = e;
    }
    assert.ok(error, `${name} passes now: remove its entry from tests/packaging/expected-failures.mjs (${expected.reason})`);
    assert.match(String(error?.stack ?? error), expected.match,
      `${name} is expected to fail (${expected.reason}) but failed otherwise:\n${error?.stack ?? error}`);
  });
}
