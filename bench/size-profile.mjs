// Groups twiggy's `top` (CSV) of the names-kept module by owner (our modules, each crate,
// data, the exported shims) and writes the groups and the largest items as JSON. Run by
// bench/size-profile.sh, which explains the build.
//   node bench/size-profile.mjs TOP.csv NAMED.wasm OUT.json
import { readFileSync, writeFileSync } from "node:fs";
import { wasmSections } from "./wasm-sections.mjs";

const [csvPath, wasmPath, out] = process.argv.slice(2);
const rows = readFileSync(csvPath, "utf8").trim().split("\n").slice(1).map((line) => {
  // Name may hold commas (quoted by twiggy); the four numbers are the last fields.
  const parts = line.split(",");
  const nums = parts.slice(-4);
  let name = parts.slice(0, -4).join(",");
  if (name.startsWith('"') && name.endsWith('"')) name = name.slice(1, -1).replace(/""/g, '"');
  return { name, bytes: Number(nums[0]) };
});

/** The owner of an item: `ours::<module>`, a crate name, `data`, `exports (shims)`, `drop glue`. */
function owner(name) {
  if (name.startsWith("data segment")) return "data (strings, tables, the schema JSON)";
  if (name.includes(" shim")) return "exports: wasm-bindgen shims (inlined bodies)";
  if (name.includes("drop_in_place")) return "drop glue (drop_in_place)";
  if (name.startsWith("import ")) return "imports";
  // `<T as Trait>::f`: the type's crate, else the trait's.
  const m = name.match(/^<&?(?:mut )?(?:\[)?([a-z_][a-z0-9_]*)/) ?? name.match(/^([a-z_][a-z0-9_]*)/);
  let c = m ? m[1].replace(/\[[0-9a-f]+\]$/, "") : "other";
  if (c === "mcp_tasks_wasm") {
    const mod = name.replace(/^<&?(?:mut )?/, "").split("::")[1] ?? "";
    return `ours: ${mod === "wasm" ? `wasm::${name.replace(/^<&?(?:mut )?/, "").split("::")[2]}` : mod}`;
  }
  if (["f64", "f32", "u8", "u16", "u32", "u64", "usize", "i32", "i64", "isize", "str", "char", "bool"].includes(c)) c = "core";
  return c;
}

const skip = (n) => n.startsWith("custom section") || n.includes("names\" subsection") || n.includes(" subsection");
const items = rows.filter((r) => !skip(r.name));
const groups = {};
for (const r of items) {
  const g = owner(r.name);
  (groups[g] ??= { bytes: 0, items: 0 }).bytes += r.bytes;
  groups[g].items += 1;
}
const total = items.reduce((a, r) => a + r.bytes, 0);

// The gzip share of code vs data: the sections of the module as shipped (names stripped).
const sections = wasmSections(readFileSync(wasmPath));

const top = [...items].sort((a, b) => b.bytes - a.bytes).slice(0, 25)
  .map((r) => ({ name: r.name.replace(/::h[0-9a-f]{16}$/, "").replace(/\[[0-9a-f]{16}\]/g, ""), bytes: r.bytes }));
const result = {
  command: "bash bench/size-profile.sh",
  total,
  sections,
  groups: Object.entries(groups).sort((a, b) => b[1].bytes - a[1].bytes).map(([name, g]) => ({ name, ...g })),
  top,
};
writeFileSync(out, JSON.stringify(result, null, 2));
console.log(`# size profile: ${total} bytes of code and data in ${items.length} items`);
for (const g of result.groups.slice(0, 25)) console.log(`  ${String(g.bytes).padStart(7)}  ${g.name} (${g.items})`);
console.log("  largest:");
for (const t of top.slice(0, 15)) console.log(`  ${String(t.bytes).padStart(7)}  ${t.name}`);
