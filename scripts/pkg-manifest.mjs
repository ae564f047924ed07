// node scripts/pkg-manifest.mjs PKG
//
// Derives the fields of PKG/package.json that name the package's files from the files the build
// produced (called last by scripts/build.sh; no hand list that can drift): "files", "exports",
// "main"/"module"/"types", "sideEffects" and "typesVersions". Every other field (name, version,
// description, bin, dependencies, …) stays as written in the committed pkg/package.json, which
// the build rewrites in place: after a build, `git diff pkg/package.json` shows what changed.
//
//   entries        a directory with browser.js is an entry: "." (PKG) and "./server"; its
//                  conditions are those of the entry files present: deno.js, workerd.js,
//                  node (main.cjs for require, node.mjs for import), browser.js, default; plus
//                  "<entry>/bytes" (bytes.js) and "<entry>/<its *_bg.wasm>" (each entry's own
//                  module: mcp_tasks_wasm_bg.wasm, server/mcp_tasks_server_bg.wasm) for bundles
//                  that locate it by name; also browser/'s module (the browser entry's)
//   storage/       every module of storage/ that no other module there imports is an entry
//                  (./storage for index.js, ./storage/<name> for the others), read by the
//                  TypeScript parser (ts.preProcessFile)
//   files          every file and directory the build put in PKG (package.json aside)
//   sideEffects    the entry files that load the module at import, browser/load.js and
//                  observe.js; not conversation.js (docs/decisions/browser-module.md)
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const PKG = resolve(process.argv[2] ?? join(ROOT, "pkg"));
const ts = createRequire(join(ROOT, "node_modules", "typescript", "package.json"))("typescript");
const WASM = "mcp_tasks_wasm_bg.wasm";

const has = (rel) => existsSync(join(PKG, rel));
const fail = (why) => {
  console.error(`pkg-manifest: ERROR: ${why}`);
  process.exit(1);
};
/** `{ types, default }` for a module and its declarations (both must exist). */
const pair = (js, dts) => {
  if (!has(js) || !has(dts)) fail(`${js} or ${dts} is missing`);
  return { types: `./${dts}`, default: `./${js}` };
};

const manifest = JSON.parse(readFileSync(join(PKG, "package.json"), "utf8"));

// ---- the entries -----------------------------------------------------------------------------------
const entryDirs = ["", ...readdirSync(PKG).filter((d) => statSync(join(PKG, d)).isDirectory()).sort()]
  .filter((d) => has(join(d, "browser.js")));
if (!entryDirs.includes("")) fail("PKG/browser.js is missing: is the package built?");
if (!has(WASM)) fail(`${WASM} is missing`);

const exportsMap = {};
const sideEffects = [];
const typesVersions = {};
for (const d of entryDirs) {
  const at = (f) => (d ? `${d}/${f}` : f);
  const key = d ? `./${d}` : ".";
  const conditions = {};
  for (const runtime of ["deno", "workerd"]) {
    if (has(at(`${runtime}.js`))) conditions[runtime] = pair(at(`${runtime}.js`), at(`${runtime}.d.ts`));
  }
  conditions.node = { require: pair(at("main.cjs"), at("main.d.cts")), default: pair(at("node.mjs"), at("node.d.mts")) };
  conditions.browser = pair(at("browser.js"), at("browser.d.ts"));
  conditions.default = pair(at("browser.js"), at("browser.d.ts"));
  exportsMap[key] = conditions;
  if (has(at("bytes.js"))) exportsMap[`${key}/bytes`] = pair(at("bytes.js"), at("bytes.d.ts"));
  // observe.js: imported for its effect (Conversation.observe over the byte boundary);
  // browser/load.js: loads the browser module. conversation.js is not listed: a bundler drops it
  // (and the module it loads) from an app that does not import Conversation.
  for (const f of ["node.mjs", "node.cjs", "main.cjs", "browser.js", "deno.js", "workerd.js", "observe.js", "observe.cjs", "browser/load.js"]) {
    if (has(at(f))) sideEffects.push(`./${at(f)}`);
  }
  // node10 resolution (no "exports"): the CommonJS declarations of a subpath entry.
  if (d) typesVersions[d] = [`./${at("main.d.cts")}`];
}

// storage/: the modules no other module there imports.
if (has("storage")) {
  const modules = readdirSync(join(PKG, "storage")).filter((f) => f.endsWith(".js")).sort();
  const imported = new Set();
  for (const m of modules) {
    for (const ref of ts.preProcessFile(readFileSync(join(PKG, "storage", m), "utf8"), true, true).importedFiles) {
      if (ref.fileName.startsWith("./")) imported.add(ref.fileName.slice(2));
    }
  }
  const entries = modules.filter((m) => !imported.has(m));
  if (!entries.includes("index.js")) fail("storage/index.js is not an entry of storage/");
  for (const m of entries) {
    const name = m.replace(/\.js$/, "");
    exportsMap[name === "index" ? "./storage" : `./storage/${name}`] = pair(`storage/${m}`, `storage/${name}.d.ts`);
  }
  typesVersions.storage = ["./storage/index.d.ts"];
  typesVersions["storage/*"] = ["./storage/*.d.ts"];
}

// Each entry's module by name, for bundles that locate it (node.cjs and node.mjs resolve
// "<entry>/<wasm>"): the one *_bg.wasm in the entry's directory.
for (const d of entryDirs) {
  const modules = readdirSync(join(PKG, d)).filter((f) => f.endsWith("_bg.wasm"));
  if (modules.length !== 1) fail(`${d || "."}: expected one *_bg.wasm, found ${modules.length}`);
  const rel = d ? `./${d}/${modules[0]}` : `./${modules[0]}`;
  exportsMap[rel] = rel;
}
// The browser entry's module (browser/, not an entry of its own).
for (const f of has("browser") ? readdirSync(join(PKG, "browser")).filter((f) => f.endsWith("_bg.wasm")) : []) {
  exportsMap[`./browser/${f}`] = `./browser/${f}`;
}
exportsMap["./package.json"] = "./package.json";

// The CLI (bin) loads the module too.
for (const bin of Object.values(typeof manifest.bin === "string" ? { _: manifest.bin } : manifest.bin ?? {})) {
  const f = bin.replace(/^\.\//, "");
  if (!has(f)) fail(`bin ${bin} is missing`);
  sideEffects.push(`./${f}`);
}

// ---- files: what the build produced ------------------------------------------------------------------
const files = readdirSync(PKG)
  .filter((f) => f !== "package.json" && !f.startsWith("."))
  .map((f) => (statSync(join(PKG, f)).isDirectory() ? `${f}/` : f))
  .sort((a, b) => Number(b === WASM) - Number(a === WASM) || a.localeCompare(b));

// ---- write, keeping the other fields where they are ------------------------------------------------------
const derived = {
  main: "./main.cjs",
  module: "./browser.js",
  types: "./main.d.cts",
  exports: exportsMap,
  sideEffects,
  files,
  typesVersions: { "*": typesVersions },
};
for (const [k, v] of Object.entries(derived)) manifest[k] = v;
writeFileSync(join(PKG, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`pkg-manifest: ${Object.keys(exportsMap).length} exports, ${files.length} files entries, ${sideEffects.length} sideEffects`);
