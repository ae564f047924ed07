// The "## Size" section of BENCHMARKS.md, from size.json (bench/size.mjs) and, when present,
// size-profile.json (bench/size-profile.sh) and size-variants.json (bench/size-variants.sh). Used by
// bench/report.mjs and bench/size.mjs --markdown.
import { TARGET_HEADER } from "./report-lib.mjs";
const int = (x) => Math.round(x).toLocaleString("en-US");
const kb = (b) => `${(b / 1000).toFixed(1)} KB`;

/** @returns {string[]} the section's lines, from its "## Size" heading on. */
export function sizeSection(size, profile, variants, machine = []) {
  const L = [];
  L.push("## Size");
  L.push("");
  L.push("The files each entry point loads, raw and `gzip -9` per file, summed (KB = 1,000 bytes). The main entry loads the client module (in browsers the browser module, and the client module only for an app that imports `Conversation`); the server entry loads the server module.");
  L.push("");
  L.push(...machine);
  if (machine.length) L.push("");
  L.push("| file or entry | raw bytes | gzip bytes |");
  L.push("|---|---:|---:|");
  for (const [f, s] of Object.entries(size.files)) L.push(`| \`${f}\` | ${int(s.raw)} | ${int(s.gzip)} |`);
  for (const [n, s] of Object.entries(size.entries)) L.push(`| **${n}** (${s.files.length} files) | ${int(s.raw)} | **${int(s.gzip)}** (${kb(s.gzip)}) |`);
  L.push("");
  const entry = (prefix) => Object.entries(size.entries).find(([n]) => n.startsWith(prefix))?.[1];
  const esm = entry("node ESM");
  const br = entry("browser, bundled");
  const both = entry("main + server");
  const rows = [];
  if (esm && br) rows.push(["Main entry, wasm + glue ≤ 90 KB gzip", Math.max(esm.gzip, br.gzip) <= 90_000, `${kb(esm.gzip)} node ESM, ${kb(br.gzip)} browser, bundled`]);
  if (both) rows.push(["Main and server entries together ≤ 130 KB gzip", both.gzip <= 130_000, `${kb(both.gzip)} (browser, bundled)`]);
  if (rows.length) {
    L.push(TARGET_HEADER);
    L.push("|---|---|---|");
    for (const [t, ok, f] of rows) L.push(`| ${t} | ${ok ? "**met**" : "**not met**"} | ${f} |`);
    L.push("");
  }
  if (profile) {
    L.push("### Where the bytes go");
    L.push("");
    L.push(`\`${profile.command}\` (twiggy over the module built with its names kept, \`wasm-opt -Oz\` as the package's): code ${int(profile.sections.code.raw)} bytes (${int(profile.sections.code.gzip)} gzip), data ${int(profile.sections.data.raw)} bytes (${int(profile.sections.data.gzip)} gzip). A generic function is charged to the crate of its type.`);
    L.push("");
    L.push("| owner | raw bytes | share | items |");
    L.push("|---|---:|---:|---:|");
    for (const g of profile.groups.slice(0, 22)) L.push(`| ${g.name} | ${int(g.bytes)} | ${(100 * g.bytes / profile.total).toFixed(1)} % | ${g.items} |`);
    const rest = profile.groups.slice(22);
    if (rest.length) L.push(`| (${rest.length} more owners) | ${int(rest.reduce((a, g) => a + g.bytes, 0))} | | |`);
    L.push("");
    L.push("| largest item | raw bytes |");
    L.push("|---|---:|");
    for (const t of profile.top.slice(0, 15)) L.push(`| \`${t.name.replace(/\|/g, "\\|").slice(0, 110)}\` | ${int(t.bytes)} |`);
    L.push("");
  }
  if (variants) {
    L.push("### What each part weighs");
    L.push("");
    L.push(`\`${variants.command}\`: the module built as the package's from a copy of the crate with parts left out; gzip -9 of the .wasm and of the web glue. The floor (\`bench/size-floor/lib.rs\`) holds no rule: a string in, a \`serde_json\` tree, a report out.`);
    L.push("");
    L.push("| module | .wasm raw | .wasm gzip | code gzip | data gzip | glue gzip | wasm + glue gzip |");
    L.push("|---|---:|---:|---:|---:|---:|---:|");
    const what = {
      package: "the package's module (`store-js`: validator, model, `Conversation`, `TaskScheduler`, `TaskServerCore`)",
      "no-server": "without `store-js`: what the main entry's API needs",
      validator: "without `store-js`, `Conversation` and `TaskScheduler`",
      "validator-no-fast": "the same without the typed fast path (`src/validate/fast.rs`)",
      "validator-no-fast-z": "the same, `opt-level = \"z\"` (the validator at its smallest)",
      "no-server-z": "without `store-js`, `opt-level = \"z\"`",
      "package-z": "the package's module, `opt-level = \"z\"`",
      floor: "**the floor**: no rule at all",
      "floor-z": "the floor, `opt-level = \"z\"`",
    };
    const sec = (v, k) => (v.sections?.[k] ? int(v.sections[k].gzip) : "");
    for (const v of variants.variants) L.push(`| ${what[v.name] ?? v.name} | ${int(v.wasm.raw)} | ${int(v.wasm.gzip)} | ${sec(v, "code")} | ${sec(v, "data")} | ${int(v.glue.gzip)} | **${kb(v.wasm.gzip + v.glue.gzip)}** |`);
    L.push("");
    const by = Object.fromEntries(variants.variants.map((v) => [v.name, v]));
    const total = (n) => by[n].wasm.gzip + by[n].glue.gzip;
    if (by.floor && by["validator-no-fast-z"]) {
      const f = total("floor"), v = total("validator-no-fast-z");
      L.push(`- The floor alone is ${kb(f)}; the validator at its smallest is ${kb(v)}, ${kb(v - f)} above the floor, against ${kb(90_000 - f)} left under the 90 KB target.`);
      L.push("");
    }
  }
  if (size.bindings) L.push(...bindingsSection(size.bindings));
  return L;
}

/** The "bindings layer" subsection: the lines of src/wasm. */
function bindingsSection(b) {
  const L = [];
  const sum = (k) => b.reduce((a, f) => a + f[k], 0);
  L.push("### The bindings layer (`src/wasm`): lines");
  L.push("");
  L.push("`node bench/size.mjs` counts the lines of `src/wasm/*.rs`: comments (`//`), attributes (`#[…]`), exported (`pub fn`), TS strings (`unchecked_*_type` and `typescript_type` annotations).");
  L.push("");
  L.push("| file | lines | comments | blank | attributes | code | exported | TS strings |");
  L.push("|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const f of b) L.push(`| \`${f.file}\` | ${int(f.lines)} | ${int(f.comments)} | ${int(f.blank)} | ${int(f.attributes)} | ${int(f.lines - f.comments - f.blank - f.attributes)} | ${f.exported} | ${f.tsStrings} |`);
  L.push(`| **total** | **${int(sum("lines"))}** | ${int(sum("comments"))} | ${int(sum("blank"))} | ${int(sum("attributes"))} | ${int(sum("lines") - sum("comments") - sum("blank") - sum("attributes"))} | ${sum("exported")} | ${sum("tsStrings")} |`);
  L.push("");
  L.push("- What is left converts or delegates: one short delegation per export, the argument readers (`src/wasm/input.rs`, with the package's own messages and `maxRequestBytes` checked before any copy) and the text boundary.");
  L.push("");
  return L;
}
