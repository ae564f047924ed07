// node scripts/esm-to-cjs.mjs OUT_DIR FILE.js...
//
// Writes OUT_DIR/<name>.cjs, the CommonJS twin of each ES module helper of js/server/, so that one
// source serves `import` and `require`. The helpers keep to a subset that converts line by line,
// and anything outside it stops the build (never a silently wrong module):
//
//   import { a, b } from "./x.js";   →  const { a, b } = require("./x.cjs");
//   import { a as b } from "./x.js"; →  const { a: b } = require("./x.cjs");
//                                       ("./mcp_tasks_wasm.js", the web glue, → "./node.cjs")
//   export { a, b };                 →  module.exports = { a, b };   (once, at the end)
//
// No other `import`/`export` statement, no `import.meta`, no `import(...)`, no top-level await
// (comment lines, JSDoc `import("...")` types included, are copied as they are).
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

const [outDir, ...files] = process.argv.slice(2);
if (!outDir || files.length === 0) {
  console.error("usage: node scripts/esm-to-cjs.mjs OUT_DIR FILE.js...");
  process.exit(2);
}

const IMPORT = /^import \{([^}]*)\} from "\.\/([A-Za-z0-9_-]+)\.js";$/;
const EXPORT = /^export \{([^}]*)\};$/;

let failed = false;
for (const file of files) {
  const lines = readFileSync(file, "utf8").split("\n");
  let exported = false;
  const out = ['"use strict";'];
  lines.forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    const imp = IMPORT.exec(line);
    const exp = EXPORT.exec(line);
    if (imp) {
      const target = imp[2] === "mcp_tasks_wasm" ? "node" : imp[2];
      // `a as b` renames: `{ a: b }` when destructuring.
      out.push(`const {${imp[1].replace(/\b([A-Za-z0-9_$]+) as ([A-Za-z0-9_$]+)/g, "$1: $2")}} = require("./${target}.cjs");`);
    } else if (exp) {
      if (exported) {
        console.error(`${where}: a second export list`);
        failed = true;
      }
      exported = true;
      out.push(`module.exports = {${exp[1]}};`);
    } else if (!/^\s*(\*|\/\/|\/\*)/.test(line) && /^\s*(import|export)\b|import\.meta|\bimport\(|^await\b/.test(line)) {
      console.error(`${where}: outside the convertible subset: ${line.trim()}`);
      failed = true;
    } else {
      out.push(line);
    }
  });
  if (!exported) {
    console.error(`${file}: no \`export { ... };\` list`);
    failed = true;
  }
  writeFileSync(join(outDir, basename(file, ".js") + ".cjs"), out.join("\n"));
}
process.exit(failed ? 1 : 0);
