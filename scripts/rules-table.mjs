// Prints the rules table of README.md from the package's own `rules()` export (one source of
// truth: src/validate/rules.rs). `node scripts/rules-table.mjs --write` rewrites README.md
// between the `<!-- rules:begin -->` and `<!-- rules:end -->` markers.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const pkg = process.env.MCP_TASKS_PKG ?? new URL("../pkg/node.mjs", import.meta.url).href;
const { rules } = await import(pkg);

export function rulesTable() {
  const esc = (s) => s.replace(/\|/g, "\\|");
  const lines = ["| code | severity | TASKS-SPEC | rule |", "|---|---|---|---|"];
  for (const r of rules()) {
    lines.push(`| \`${r.code}\` | ${r.severity} | ${esc(r.spec)} | ${esc(r.summary)} |`);
  }
  return lines.join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const table = rulesTable();
  if (process.argv.includes("--write")) {
    const readme = new URL("../README.md", import.meta.url);
    const text = readFileSync(readme, "utf8");
    const re = /(<!-- rules:begin -->\n)[\s\S]*?(\n<!-- rules:end -->)/;
    if (!re.test(text)) throw new Error("README.md has no rules markers");
    writeFileSync(readme, text.replace(re, `$1${table}$2`));
  } else {
    console.log(table);
  }
}
