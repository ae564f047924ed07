// package.json's "files", "exports", "sideEffects" and "typesVersions" are derived from what the
// build produced (scripts/pkg-manifest.mjs, run by scripts/build.sh), never a hand list:
// - pkg/package.json as built is what the derivation gives over pkg/ (the build ran it last;
//   commit pkg/package.json after a build that changed it);
// - every path it names exists in pkg/, and every file in pkg/ is in "files";
// - a file the build adds appears in "files", an entry it drops leaves "exports".
//   bash scripts/build.sh && node --test tests/js/pkg-manifest.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pkg = join(root, "pkg");
const script = join(root, "scripts", "pkg-manifest.mjs");
const read = (dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));

/** A copy of the built pkg/, changed by `change`, and its derived manifest. */
function derive(change = () => {}) {
  const dir = mkdtempSync(join(tmpdir(), "pkg-manifest-"));
  try {
    cpSync(pkg, dir, { recursive: true });
    change(dir);
    execFileSync(process.execPath, [script, dir], { encoding: "utf8" });
    return read(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every path the manifest's exports/sideEffects/typesVersions name (wildcards aside). */
function named(m) {
  const out = [];
  const walk = (v) => {
    if (typeof v === "string") out.push(v);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(m.exports);
  walk(m.sideEffects);
  walk(m.typesVersions);
  return out.filter((p) => !p.includes("*"));
}

test("pkg/package.json as built is the derivation over pkg/ (the build ran it last)", () => {
  assert.ok(existsSync(join(pkg, "browser.js")), "build the package first: bash scripts/build.sh");
  assert.deepEqual(read(pkg), derive(), "run bash scripts/build.sh and commit pkg/package.json");
});

test("every path named exists, every built file is in files", () => {
  const m = read(pkg);
  for (const p of [...named(m), m.main, m.module, m.types]) assert.ok(existsSync(join(pkg, p)), `${p} is named but not built`);
  for (const f of m.files) assert.ok(existsSync(join(pkg, f)), `files: ${f} is not built`);
  assert.ok(m.files.includes("server/") && m.files.includes("storage/") && m.files.includes("mcp_tasks_wasm_bg.wasm"));
  assert.deepEqual(Object.keys(m.exports["."]), ["deno", "workerd", "node", "browser", "default"]);
  assert.equal(m.exports["./storage/memory"], undefined, "storage/memory.js is imported by storage/index.js: not an entry");
  assert.deepEqual(m.exports["./storage/sqlite"], { types: "./storage/sqlite.d.ts", default: "./storage/sqlite.js" });
});

test("the manifest follows the build: an added file and storage entry appear, a dropped entry goes", () => {
  const m = derive((dir) => {
    writeFileSync(join(dir, "extra.js"), "export {};\n");
    writeFileSync(join(dir, "storage", "mysql.js"), 'import { StorageError } from "./types.js";\nexport { StorageError };\n');
    writeFileSync(join(dir, "storage", "mysql.d.ts"), "export {};\n");
    rmSync(join(dir, "server"), { recursive: true });
  });
  assert.ok(m.files.includes("extra.js"));
  assert.deepEqual(m.exports["./storage/mysql"], { types: "./storage/mysql.d.ts", default: "./storage/mysql.js" });
  assert.ok(!m.files.includes("server/"));
  assert.equal(m.exports["./server"], undefined);
  assert.ok(!m.sideEffects.some((f) => f.startsWith("./server/")));
  assert.equal(m.typesVersions["*"].server, undefined);
});

test("a declaration the build did not produce stops the derivation", () => {
  assert.throws(() => derive((dir) => rmSync(join(dir, "server", "node.d.mts"))), /server\/node\.d\.mts is missing/);
});
