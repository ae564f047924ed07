// The README is the front door: every ```js example in it and in its guides (docs/guides/*.md) runs against the packed, installed
// package (each example asserts what it shows), and its rules table is the one the package's
// own rules() gives.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const install = join(here, ".tmp", "install");
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

test("the README and its guides have runnable examples", () => {
  assert.ok(examples.length >= 4, `found ${examples.length} js examples`);
  assert.ok(examples.some((e) => e.doc === "README.md"), "the README's quick start has js examples");
});

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
    const file = join(install, `readme-example-${i + 1}.mjs`);
    writeFileSync(file, code);
    try {
      execFileSync(process.execPath, [file], { cwd: install, encoding: "utf8", stdio: "pipe" });
    } catch (e) {
      assert.fail(`${doc} example ${i + 1} failed:\n${code}\n--- output\n${e.stdout}${e.stderr}`);
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
