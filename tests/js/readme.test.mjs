// The README is the front door: every ```js example in it and in its guides (docs/guides/*.md) runs against the packed, installed
// package (each example asserts what it shows), and its rules table is the one the package's
// own rules() gives. A js example whose first line names a file (`// server.mjs: …`) is also
// written under that name first, for the examples that use it (`node server.mjs`), all in
// `.tmp/install/readme`; a ```sh
// example whose first line is a `#` comment runs with bash -e in the install directory, as in an app's folder (the
// others are commands of a checkout, or start servers).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const install = join(here, ".tmp", "install");
/**
 * Where the examples are written and run: a folder of its own inside the install directory (its
 * node_modules found above it), so that a file an example names (`server.mjs`) never replaces a
 * module the other suites import from the install directory, which run at the same time.
 */
const work = join(install, "readme");
const readme = readFileSync(join(root, "README.md"), "utf8");

/** README.md, then each guide of docs/guides, with their text. */
const docs = [
  { name: "README.md", text: readme },
  ...readdirSync(join(root, "docs", "guides"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => ({ name: `docs/guides/${f}`, text: readFileSync(join(root, "docs", "guides", f), "utf8") })),
];
const examples = docs.flatMap((d) => [...d.text.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => ({ doc: d.name, code: m[1] })));
/** The ```sh blocks that run: those whose first line is a `#` comment. */
const shells = docs.flatMap((d) => [...d.text.matchAll(/```sh\n(#[^\n]*\n[\s\S]*?)```/g)].map((m) => ({ doc: d.name, code: m[1] })));
/** The js examples that name their file (`// server.mjs: …`), by that name. */
const named = examples.flatMap(({ code }) => {
  const m = code.match(/^\/\/ ([\w.-]+\.m?js):/);
  return m ? [{ file: m[1], code }] : [];
});

test("the README and its guides have runnable examples", () => {
  assert.ok(examples.length >= 4, `found ${examples.length} js examples`);
  assert.ok(examples.some((e) => e.doc === "README.md"), "the README's quick start has js examples");
  assert.ok(shells.some((e) => e.doc === "README.md"), "the README's quick start has a shell example");
});

test("the README's quick start is on its first screen: a task tool on HTTP and stdio, a server, a check", () => {
  const lines = readme.split("\n");
  const at = (re) => lines.findIndex((l) => re.test(l)) + 1;
  assert.ok(at(/^bash scripts\/run\.sh/) > 0 && at(/^bash scripts\/run\.sh/) <= 5, "the main command comes first");
  assert.ok(at(/^bash scripts\/test\.sh/) > 0 && at(/^bash scripts\/test\.sh/) <= 5, "then the command running every test");
  const quick = at(/^## Quick start$/);
  assert.ok(quick > 0 && quick <= 15, `## Quick start at line ${quick}`);
  for (const [job, re] of [
    ["a task tool called on HTTP", /TaskClient\.connect\(/],
    ["a task tool called on stdio", /TaskClient\.over\(/],
    ["tasks added to a server", /\.tool\(/],
    ["a transcript checked", /^npx mcp-tasks check /],
  ]) {
    const line = at(re);
    assert.ok(line > quick && line <= 75, `${job}: line ${line} (the quick start ends by line 75)`);
  }
});

/** Writes the examples that name their file into their folder. */
function writeNamed() {
  mkdirSync(work, { recursive: true });
  for (const { file, code } of named) writeFileSync(join(work, file), code);
}

/**
 * The SDK v2 packages (tools/sdk2) next to the installed package, as an app would have them: the
 * README's v2 example imports `@modelcontextprotocol/client`.
 */
function linkSdk2() {
  const from = join(root, "tools", "sdk2", "node_modules", "@modelcontextprotocol");
  const to = join(install, "node_modules", "@modelcontextprotocol");
  mkdirSync(to, { recursive: true });
  for (const p of ["client", "core"]) {
    rmSync(join(to, p), { recursive: true, force: true });
    symlinkSync(join(from, p), join(to, p));
  }
}

examples.forEach(({ doc, code }, i) => {
  const title = code.split("\n")[0].replace(/^\/\/\s*/, "");
  test(`${doc} example ${i + 1}: ${title}`, () => {
    assert.ok(existsSync(join(install, "node_modules", "mcp-tasks-wasm")), "run scripts/pack.sh first");
    if (!existsSync(join(install, "node_modules", "@modelcontextprotocol", "client"))) linkSdk2();
    writeNamed();
    const file = join(work, `readme-example-${i + 1}.mjs`);
    writeFileSync(file, code);
    try {
      execFileSync(process.execPath, [file], { cwd: work, encoding: "utf8", stdio: "pipe" });
    } catch (e) {
      assert.fail(`${doc} example ${i + 1} failed:\n${code}\n--- output\n${e.stdout}${e.stderr}`);
    }
  });
});

shells.forEach(({ doc, code }, i) => {
  const title = code.split("\n")[0].replace(/^#\s*/, "");
  test(`${doc} shell example ${i + 1}: ${title}`, () => {
    assert.ok(existsSync(join(install, "node_modules", "mcp-tasks-wasm")), "run scripts/pack.sh first");
    writeNamed();
    try {
      execFileSync("bash", ["-e", "-c", code], { cwd: install, encoding: "utf8", stdio: "pipe" });
    } catch (e) {
      assert.fail(`${doc} shell example ${i + 1} failed:\n${code}\n--- output\n${e.stdout}${e.stderr}`);
    }
  });
});

test("the README rules table is generated from rules()", async () => {
  process.env.MCP_TASKS_PKG = join(install, "node_modules", "mcp-tasks-wasm", "node.mjs");
  const { rulesTable } = await import("../../scripts/rules-table.mjs");
  const m = readme.match(/<!-- rules:begin -->\n([\s\S]*?)\n<!-- rules:end -->/);
  assert.ok(m, "README has the rules markers");
  assert.equal(m[1], rulesTable(), "run: node scripts/rules-table.mjs --write");
});
