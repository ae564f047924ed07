// Every ```js and ```ts example of the README and its guides (docs/guides/*.md) type-checks, as a TypeScript user would write it:
// each block is compiled as an `.mts` module by `tsc --strict` against the packed, installed
// package's own declarations (tests/js/.tmp/install, scripts/pack.sh), with Node's types
// (tools/dx, pinned to Node 20: the examples import node:assert, node:http) and no DOM lib. A
// block that fails for a reason in the package's types is fixed in the types (the Rust source
// through tsify, or the JSDoc in js/), not in the example. readme.test.mjs runs the js blocks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const install = join(here, ".tmp", "install");
const dir = join(install, "readme-types");
const tsc = join(root, "node_modules", ".bin", "tsc");
const typeRoots = join(root, "tools", "dx", "node_modules", "@types");
/** README.md and each guide of docs/guides. */
const docs = ["README.md", ...readdirSync(join(root, "docs", "guides")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/guides/${f}`)];

/** Each ```js / ```ts block: its language, its first line (a title), its file and its line there. */
const blocks = docs.flatMap((doc) => {
  const text = readFileSync(join(root, doc), "utf8");
  return [...text.matchAll(/^```(js|ts)\n([\s\S]*?)^```/gm)].map((m) => ({
    doc,
    lang: m[1],
    code: m[2],
    line: text.slice(0, m.index).split("\n").length + 1,
    title: m[2].split("\n")[0].replace(/^\/\/\s*/, "").slice(0, 80),
  }));
});

test("the README and its guides have js and ts examples to type-check", () => {
  assert.ok(blocks.length >= 10, `found ${blocks.length}`);
  assert.ok(blocks.some((b) => b.lang === "ts"));
});

/**
 * The SDK v2 packages (tools/sdk2) next to the installed package, as an app would have them: the
 * README's v2 examples import `@modelcontextprotocol/client` and `@modelcontextprotocol/server`.
 */
function linkSdk2() {
  const from = join(root, "tools", "sdk2", "node_modules", "@modelcontextprotocol");
  const to = join(install, "node_modules", "@modelcontextprotocol");
  mkdirSync(to, { recursive: true });
  for (const p of ["client", "core", "server"]) {
    rmSync(join(to, p), { recursive: true, force: true });
    symlinkSync(join(from, p), join(to, p));
  }
}

/** tsc's diagnostics by example file name (one run for every example). */
const diagnostics = (async () => {
  assert.ok(existsSync(join(install, "node_modules", "mcp-tasks-wasm")), "run `bash scripts/build.sh && bash scripts/pack.sh` first");
  assert.ok(existsSync(join(typeRoots, "node", "package.json")), "tools/dx is not installed: run scripts/setup.sh");
  linkSdk2();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = blocks.map((b, i) => {
    const name = `example-${i + 1}.mts`;
    writeFileSync(join(dir, name), b.code);
    return name;
  });
  const config = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: "es2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      lib: ["es2022"],
      types: ["node"],
      typeRoots: [typeRoots],
      // The package's own declarations are checked by package-types.test.mjs; this test is
      // about what the examples do with them.
      skipLibCheck: true,
    },
    files,
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config, null, 2));
  const out = await promisify(execFile)(tsc, ["-p", join(dir, "tsconfig.json"), "--pretty", "false"], { cwd: dir, maxBuffer: 1 << 24 }).then(
    (r) => r.stdout,
    (e) => `${e.stdout ?? ""}${e.stderr ?? ""}`,
  );
  /** @type {Map<string, string[]>} */
  const byFile = new Map();
  for (const line of out.split("\n")) {
    const m = line.match(/^(example-\d+\.mts)\((\d+),\d+\): (error .*)$/);
    if (m) byFile.set(m[1], [...(byFile.get(m[1]) ?? []), `line ${m[2]}: ${m[3]}`]);
    else if (/error TS/.test(line)) byFile.set("*", [...(byFile.get("*") ?? []), line]);
  }
  return byFile;
})();
diagnostics.catch(() => {});

test("tsc reports nothing outside the examples (configuration, missing types)", async () => {
  assert.deepEqual((await diagnostics).get("*") ?? [], []);
});

blocks.forEach((b, i) => {
  test(`${b.lang} example ${i + 1} (${b.doc} line ${b.line}): ${b.title}`, async () => {
    const errors = (await diagnostics).get(`example-${i + 1}.mts`) ?? [];
    assert.deepEqual(errors, [], `tsc --strict on ${b.doc} line ${b.line}:\n${errors.join("\n")}`);
  });
});
