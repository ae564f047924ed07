// Strips the documentation comments of shipped JavaScript files in place: whole-line JSDoc
// blocks (`/** … */`) and whole-line `//` comments (not `//#` / `//@` pragmas). The .d.ts files
// keep the documentation (editors read it there); the code the runtime loads is smaller (the
// wasm-bindgen glue carries every Rust doc comment: about half its gzip size).
//
//   node scripts/strip-js-docs.mjs FILE...
//
// Each file is checked: esbuild (tools/ts; whitespace minified, which drops comments) must print
// the same code before and after, so that only comments went; otherwise the file is left as it
// was and the script fails.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const esbuild = createRequire(join(ROOT, "tools", "ts", "node_modules", "esbuild", "package.json"))("esbuild");

const JSDOC_LINES = /^[ \t]*\/\*\*(?:(?!\*\/)[\s\S])*\*\/[ \t]*\r?\n/gm;
const COMMENT_LINES = /^[ \t]*\/\/(?![#@])[^\n]*\n/gm;

let failed = false;
for (const file of process.argv.slice(2)) {
  const before = readFileSync(file, "utf8");
  const after = before.replace(JSDOC_LINES, "").replace(COMMENT_LINES, "");
  const loader = "js";
  const format = file.endsWith(".cjs") ? "cjs" : "esm";
  const print = (code) => esbuild.transformSync(code, { loader, format, legalComments: "none", minifyWhitespace: true }).code;
  if (print(before) !== print(after)) {
    console.error(`strip-js-docs: ${file}: stripping would change the code; left as it was`);
    failed = true;
    continue;
  }
  writeFileSync(file, after);
}
process.exit(failed ? 1 : 0);
