// Size of what an import of the package loads: the .wasm and the JS glue, raw and gzip -9 (zlib).
//   node bench/size.mjs [--json bench/results/size.json]
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const PKG = resolve(dirname(fileURLToPath(import.meta.url)), "../pkg");
const WASM = "mcp_tasks_wasm_bg.wasm";
// Files each entry point loads (see pkg/package.json "exports").
// validate.js/.cjs: validateMessage and Conversation.observe over the byte boundary (js/core/).
const ENTRIES = {
  "node ESM (node.mjs)": ["node.mjs", "mcp_tasks_wasm.js", "validate.js", WASM],
  "node CJS (node.cjs)": ["node.cjs", "validate.cjs", WASM],
  "browser (browser.js)": ["browser.js", "mcp_tasks_wasm.js", "validate.js", WASM],
  "deno (deno.js)": ["deno.js", "mcp_tasks_wasm.js", "validate.js", WASM],
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
for (const [f, s] of Object.entries(files)) console.log(`  ${f.padEnd(24)} raw ${String(s.raw).padStart(8)}  gzip ${String(s.gzip).padStart(7)}`);
for (const [n, s] of Object.entries(entries)) console.log(`  = ${n.padEnd(22)} raw ${String(s.raw).padStart(8)}  gzip ${String(s.gzip).padStart(7)}`);

const i = process.argv.indexOf("--json");
if (i > 0) {
  mkdirSync(dirname(resolve(process.argv[i + 1])), { recursive: true });
  writeFileSync(process.argv[i + 1], JSON.stringify({ files, entries }, null, 2));
}
