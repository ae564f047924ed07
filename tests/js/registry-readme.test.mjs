// The README the registry shows is the packed one (scripts/registry-readme.mjs writes it at
// build time): it reads right on npmjs.com, where there is no repository to resolve a relative
// link against (the project has no public URL, so package.json names no repository, homepage or
// bugs). Checked on the README inside the packed, installed tarball (scripts/pack.sh).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const installed = join(here, ".tmp", "install", "node_modules", "mcp-tasks-wasm");
if (!existsSync(installed)) throw new Error("run `bash scripts/build.sh && bash scripts/pack.sh` first");
const readme = readFileSync(join(installed, "README.md"), "utf8");
const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
const source = readFileSync(join(root, "README.md"), "utf8");

/** The prose of a README: fenced code blocks and code spans removed. @param {string} text */
function prose(text) {
  return text.replace(/^(```+|~~~+)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`+[^`\n]*`+/g, "");
}

/** Every link target of the prose: markdown links and pictures, reference definitions, HTML href/src. @param {string} text */
function targets(text) {
  const p = prose(text);
  return [
    ...[...p.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
    ...[...p.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]),
    ...[...p.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/g)].map((m) => m[1]),
  ];
}

/** GitHub's (and npm's) heading anchor. @param {string} heading */
const slug = (heading) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");

test("the link finder sees the kinds of links a README has (so the checks below can fail)", () => {
  const sample = "[a](docs/x.md) ![b](pic.png) <img src=\"y.png\"> <a href='z.html'>z</a>\n[ref]: ./w.md\n`[c](in-code.md)`\n```\n[d](in-block.md)\n```\n";
  assert.deepEqual(targets(sample).sort(), ["./w.md", "docs/x.md", "pic.png", "y.png", "z.html"]);
  assert.ok(targets(source).length > 0, "the repository's README has links to check");
});

test("the packed README has no relative link: each is https:, or an anchor of the page", () => {
  const found = targets(readme);
  assert.ok(found.length > 0);
  const relative = found.filter((t) => !/^https:\/\//.test(t) && !t.startsWith("#"));
  assert.deepEqual(relative, [], "relative links break on the registry page");
});

test("every anchor names a heading of the packed README", () => {
  const headings = new Set([...prose(readme).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1].replace(/`/g, ""))));
  for (const t of targets(readme).filter((x) => x.startsWith("#"))) {
    assert.ok(headings.has(t.slice(1)), `${t}: no such heading`);
  }
});

test("links into the package point at this version's own files on unpkg", () => {
  const base = `https://unpkg.com/${manifest.name}@${manifest.version}/`;
  const unpkg = targets(readme).filter((t) => t.startsWith("https://unpkg.com/"));
  for (const t of unpkg) {
    assert.ok(t.startsWith(base), `${t} is not ${base}…`);
    const file = decodeURI(t.slice(base.length).split("#")[0]);
    assert.ok(existsSync(join(installed, file)), `${t}: ${file} is not in the package`);
  }
});

test("every relative link of the repository's README into docs/ stays a link: to this version's copy, in the package", () => {
  const base = `https://unpkg.com/${manifest.name}@${manifest.version}/`;
  const docs = targets(source).filter((t) => /^(\.\/)?docs\//.test(t));
  assert.ok(docs.length > 0, "the README links to its guides");
  const packed = new Set(targets(readme));
  for (const t of docs) {
    const path = t.replace(/^\.\//, "");
    assert.ok(packed.has(`${base}${path}`), `${t} is not a link on the registry page (a file the package does not ship?)`);
    assert.ok(existsSync(join(installed, decodeURI(path.split("#")[0]))), `${t}: not in the packed package`);
  }
});

test("install comes first: the first section after the title is `Quick start`, its first block `npm install`", () => {
  const lines = readme.split("\n");
  assert.match(lines[0], /^# mcp-tasks-wasm$/);
  const firstSection = lines.find((l) => l.startsWith("## "));
  assert.equal(firstSection, "## Quick start");
  const firstBlock = readme.match(/^```\w*\n([^\n]*)/m)?.[1] ?? "";
  assert.match(firstBlock, /^npm install mcp-tasks-wasm\b/);
});

test("only links change: every code block of the repository's README is in the packed one, unchanged", () => {
  const blocks = (text) => [...text.matchAll(/^```[^\n]*\n[\s\S]*?^```$/gm)].map((m) => m[0]);
  assert.deepEqual(blocks(readme).sort(), blocks(source).sort());
  for (const heading of source.match(/^## .+$/gm) ?? []) assert.ok(readme.includes(`\n${heading}\n`), `${heading} kept`);
});

test("scripts/registry-readme.mjs: a shipped file becomes its unpkg URL, others their text; anchors, code and absolute links stay", () => {
  const dir = join(here, ".tmp", "registry-readme");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "pkg", "samples"), { recursive: true });
  writeFileSync(join(dir, "pkg", "package.json"), JSON.stringify({ name: "demo-pkg", version: "1.2.3", files: ["samples/", "cli.mjs"] }));
  writeFileSync(join(dir, "pkg", "samples", "a.jsonl"), "{}\n");
  writeFileSync(join(dir, "pkg", "LICENSE-MIT"), "MIT\n");
  writeFileSync(join(dir, "pkg", "stray.txt"), "in PKG, not in files\n");
  const src = [
    "# demo-pkg", "", "Intro [sample](samples/a.jsonl).", "", "```sh", "make [x](y.md)", "```", "",
    "## What", "", "See [the licence](LICENSE-MIT), [`stray.txt`](stray.txt), [docs](docs/x.md#part), [up](#use-it),",
    "[web](https://example.org/) and `[code](z.md)`.", "", "![Shot](docs/p.png)", "", '<img src="docs/q.png" alt="Phone" width="9">', "",
    "## Quick start", "", "```sh", "npm install demo-pkg", "```", "",
  ].join("\n");
  writeFileSync(join(dir, "README.md"), src);
  execFileSync(process.execPath, [join(root, "scripts", "registry-readme.mjs"), join(dir, "README.md"), join(dir, "pkg")]);
  const out = readFileSync(join(dir, "pkg", "README.md"), "utf8");
  assert.equal(out, [
    "# demo-pkg", "", "## Quick start", "", "```sh", "npm install demo-pkg", "```", "",
    "## From a checkout of the repository", "", "Intro [sample](https://unpkg.com/demo-pkg@1.2.3/samples/a.jsonl).", "", "```sh", "make [x](y.md)", "```", "",
    "## What", "", "See [the licence](https://unpkg.com/demo-pkg@1.2.3/LICENSE-MIT), `stray.txt`, docs, [up](#use-it),",
    "[web](https://example.org/) and `[code](z.md)`.", "", "*(Picture in the repository, not in the package: Shot.)*", "",
    "*(Picture in the repository, not in the package: Phone.)*", "",
  ].join("\n"));
  rmSync(dir, { recursive: true, force: true });
});
