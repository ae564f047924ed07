// Size of what an import of the package loads: the .wasm and the JS glue, raw and gzip -9 (zlib).
//   node bench/size.mjs [--json bench/results/size.json] [--markdown BENCHMARKS.md]
// --markdown rewrites the "## Size" section of that file in place (the rest is left alone),
// with bench/results/size-profile.json (bash bench/size-profile.sh) when present.
import { readFileSync, writeFileSync, mkdirSync, existsSync, readdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { sizeSection } from "./size-section.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const PKG = resolve(HERE, "../pkg");
const WASM = "mcp_tasks_wasm_bg.wasm";
const SERVER_WASM = "server/mcp_tasks_server_bg.wasm";
const BROWSER_WASM = "browser/mcp_tasks_browser_bg.wasm";
// Files each entry point loads (see pkg/package.json "exports"): the module, the glue,
// validate.js/.cjs (validateMessage over the byte boundary, js/core/) and observe.js/.cjs
// (Conversation.observe over it). Each entry loads its own module: the main entry the client
// module, the server entry the server module (with the task store); an app importing both loads
// both. In browsers, the main entry loads the browser module (the client module without the
// conversation checker), and the client module only for an app that imports Conversation
// (conversation.js; a bundler drops it otherwise, an unbundled page loads it).
const BROWSER = ["browser.js", "browser/load.js", "browser/mcp_tasks_wasm.js", "browser/validate.js", BROWSER_WASM];
const CONVERSATION = ["conversation.js", "mcp_tasks_wasm.js", "validate.js", "observe.js", WASM];
const ENTRIES = {
  "node ESM (node.mjs)": ["node.mjs", "mcp_tasks_wasm.js", "validate.js", "observe.js", WASM],
  "node CJS (node.cjs)": ["node.cjs", "validate.cjs", "observe.cjs", WASM],
  "browser, bundled, no Conversation (browser.js)": BROWSER,
  "browser, with Conversation (browser.js + conversation.js)": [...BROWSER, ...CONVERSATION],
  "deno (deno.js)": ["deno.js", "mcp_tasks_wasm.js", "validate.js", "observe.js", WASM],
  "server, browser (server/browser.js)": ["server/browser.js", "server/mcp_tasks_wasm.js", "server/validate.js", "server/observe.js", SERVER_WASM],
  "main + server, browser, bundled (browser.js + server/browser.js)": [
    ...BROWSER, "server/browser.js", "server/mcp_tasks_wasm.js", "server/validate.js", "server/observe.js", SERVER_WASM],
};

const files = {};
for (const f of new Set(Object.values(ENTRIES).flat())) {
  const buf = readFileSync(resolve(PKG, f));
  files[f] = { raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
}
const entries = {};
for (const [name, list] of Object.entries(ENTRIES)) {
  entries[name] = {
    files: list,
    raw: list.reduce((a, f) => a + files[f].raw, 0),
    gzip: list.reduce((a, f) => a + files[f].gzip, 0),
  };
}
console.log("# size (bytes; gzip -9 per file, summed)");
for (const [f, s] of Object.entries(files)) console.log(`  ${f.padEnd(26)} raw ${String(s.raw).padStart(8)}  gzip ${String(s.gzip).padStart(7)}`);
for (const [n, s] of Object.entries(entries)) console.log(`  = ${n.padEnd(56)} raw ${String(s.raw).padStart(8)}  gzip ${String(s.gzip).padStart(7)}`);
// The bindings layer (src/wasm: docs/decisions/byte-boundary.md): lines per file, by kind (doc or
// comment, blank,
// attribute, code), the exported functions and the TypeScript annotations written as strings.
const WASM_SRC = resolve(HERE, "../src/wasm");
const bindings = readdirSync(WASM_SRC).filter((f) => f.endsWith(".rs")).sort().map((f) => {
  const lines = readFileSync(resolve(WASM_SRC, f), "utf8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  const t = lines.map((l) => l.trim());
  return {
    file: `src/wasm/${f}`,
    lines: lines.length,
    comments: t.filter((l) => l.startsWith("//")).length,
    blank: t.filter((l) => l === "").length,
    attributes: t.filter((l) => l.startsWith("#[")).length,
    exported: t.filter((l) => /^pub fn /.test(l)).length,
    tsStrings: t.filter((l) => /unchecked_(return|param|optional_param)_type|typescript_type/.test(l)).length,
  };
});
const size = { files, entries, bindings };

const arg = (name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const json = arg("--json");
if (json) {
  mkdirSync(dirname(resolve(json)), { recursive: true });
  writeFileSync(json, JSON.stringify(size, null, 2));
}
const md = arg("--markdown");
if (md) {
  const profilePath = resolve(HERE, "results/size-profile.json");
  const profile = existsSync(profilePath) ? JSON.parse(readFileSync(profilePath, "utf8")) : null;
  const variantsPath = resolve(HERE, "results/size-variants.json");
  const variants = existsSync(variantsPath) ? JSON.parse(readFileSync(variantsPath, "utf8")) : null;
  const text = readFileSync(md, "utf8");
  const start = text.indexOf("\n## Size\n");
  // Size is the last section: it runs to the next section's mark, or to the end of the file.
  const next = text.indexOf("\n<!-- ", start + 1);
  const end = next < 0 ? text.length : next;
  if (start < 0) throw new Error(`${md} has no "## Size" section`);
  writeFileSync(md, `${text.slice(0, start + 1)}${sizeSection(size, profile, variants).join("\n")}\n${text.slice(end)}`);
  console.log(`wrote the Size section of ${md}`);
}
