// The "## Size" section of BENCHMARKS.md, from size.json (bench/size.mjs) and, when present,
// size-profile.json (bench/size-profile.sh). Used by bench/report.mjs and bench/size.mjs --markdown.
const int = (x) => Math.round(x).toLocaleString("en-US");
const kb = (b) => `${(b / 1000).toFixed(1)} KB`;

/** @returns {string[]} the section's lines, from its "## Size" heading on. */
export function sizeSection(size, profile) {
  const L = [];
  L.push("## Size");
  L.push("");
  L.push("`node bench/size.mjs`: the files each entry point loads, raw and `gzip -9` (zlib level 9, per file, summed). KB = 1,000 bytes. Both entries (`mcp-tasks-wasm`, `mcp-tasks-wasm/server`) load ONE module, `mcp_tasks_wasm_bg.wasm`, through one glue (`server/mcp_tasks_wasm.js` only re-exports `../mcp_tasks_wasm.js`), so an app importing both loads and instantiates it once. Not counted: the JS helpers (TaskClient, TaskHost, …).");
  L.push("");
  L.push("| file | raw bytes | gzip bytes |");
  L.push("|---|---:|---:|");
  for (const [f, s] of Object.entries(size.files)) L.push(`| \`${f}\` | ${int(s.raw)} | ${int(s.gzip)} |`);
  for (const [n, s] of Object.entries(size.entries)) L.push(`| **${n}**: ${s.files.map((f) => `\`${f}\``).join(" + ")} | ${int(s.raw)} | **${int(s.gzip)}** (${kb(s.gzip)}) |`);
  L.push("");
  L.push("For scale (from the peer survey, `/work/shared/spec/PEERS.md` §5, esbuild-minified, not measured by this script): the SDK's six task zod schemas 31.8 KB gzip; one Task schema with `zod/mini` 5.3 KB gzip; the SDK `Client` bundle 80.3 KB gzip.");
  L.push("");
  if (profile) {
    L.push("### Where the bytes go");
    L.push("");
    L.push(`\`${profile.command}\` (twiggy 0.8.0 over the module built with its names kept and \`wasm-opt -Oz\` as the package's). Sections of that module: code ${int(profile.sections.code.raw)} bytes (${int(profile.sections.code.gzip)} gzip), data ${int(profile.sections.data.raw)} bytes (${int(profile.sections.data.gzip)} gzip). Raw bytes by owner (a generic function is charged to the crate of its type):`);
    L.push("");
    L.push("| owner | raw bytes | share | items |");
    L.push("|---|---:|---:|---:|");
    for (const g of profile.groups.slice(0, 22)) L.push(`| ${g.name} | ${int(g.bytes)} | ${(100 * g.bytes / profile.total).toFixed(1)} % | ${g.items} |`);
    const rest = profile.groups.slice(22);
    if (rest.length) L.push(`| (${rest.length} more owners) | ${int(rest.reduce((a, g) => a + g.bytes, 0))} | | |`);
    L.push("");
    L.push("The largest items:");
    L.push("");
    L.push("| item | raw bytes |");
    L.push("|---|---:|");
    for (const t of profile.top.slice(0, 15)) L.push(`| \`${t.name.replace(/\|/g, "\\|").slice(0, 110)}\` | ${int(t.bytes)} |`);
    L.push("");
    L.push("Where the rest goes: the exported shims are the bindings (`src/wasm`) with the core inlined into them (`Conversation.observe`, `TaskServer.restore` and `TaskServer.handle` are the largest); `core` is mostly formatting and `str`/slice code (`<f64 as Display>` and its flt2dec tables, 28 KB raw, were reached only through serde's `Unexpected::Float`, the error of a typed serde_json deserialize: keep every deserialize in the module to `Value`); `char::escape_debug` comes through `{:?}` of strings; `data` is the rule texts, the embedded schema JSON (37 KB raw, 3.5 KB gzip) and panic/format strings.");
    L.push("");
  }
  L.push("Measured options (2026-11-30, by hand; gzip of the module with `store-js`):");
  L.push("");
  L.push("| option | module gzip | kept? |");
  L.push("|---|---:|---|");
  L.push("| `opt-level = \"z\"` instead of `\"s\"` | −24 KB (223 → 199 KB) | no: `validateMessage` took 0.94–1.46× the time on the bench messages (1.3–1.45× for most; the two modules interleaved in one process, 7 runs each, load 8) |");
  L.push("| `wasm-opt -Oz --converge`, or `--inlining-optimizing` | −0.1 KB | no |");
  L.push("| no typed serde_json deserialize in the module (`js_text` parses a `Value`, not a `String`): serde's float error formatting and core's `f64` Display (flt2dec) drop out | −12.2 KB (223.4 → 211.2 KB) | yes |");
  L.push("| chrono with `alloc` only (no `std`, no `serde`) | −0.6 KB | yes |");
  L.push("| no serde-wasm-bindgen deserializer (the target version of `convert*` read like every other version) | −0.8 KB, glue −0.8 KB | yes |");
  L.push("| one module for both entries instead of two (wasm + web glue) | main entry 167.5 → 222.8 KB (+55.3 KB); main and server together 405.0 → 223.0 KB (−182 KB) | yes (issue 11: each byte loaded once) |");
  L.push("");
  return L;
}
