// CPU profile (V8 sampling, node --cpu-prof) of validateMessage on the small valid message, by
// stage. Needs function names in the .wasm: pkg/ is built with wasm-opt -Oz, which drops them, so
// this makes a names-kept copy from the raw cargo output (target/wasm32-unknown-unknown/release)
// with wasm-bindgen --target web + wasm-opt -Oz -g into bench/results/named/. That is the same
// code as pkg/ only if target/ was not rebuilt since pkg/ was: the script says which is newer.
//
//   node bench/cpu-profile.mjs [--json bench/results/cpu-profile.json]
import { copyFileSync, existsSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { namedCopy, profiledChild, profileStacks } from "./named-profile.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "..");
const NAMED = resolve(HERE, "results/named");

if (process.argv[2] === "--child") {
  const { validateMessage } = await import(pathToFileURL(resolve(NAMED, "node.mjs")).href);
  const { buildMessages } = await import("./messages.mjs");
  const m = buildMessages().find((x) => x.id === "v25-get-valid");
  const which = process.argv[3];
  const bad = buildMessages().find((x) => x.id === "v25-get-bad-status");
  const input = which === "object" ? JSON.parse(m.text) : which === "not-json" ? "x" : which === "invalid" ? bad.text : m.text;
  const opts = which === "not-json" ? undefined : { inReplyTo: "tasks/get" };
  const expect = which !== "not-json" && which !== "invalid";
  const end = Date.now() + 3000;
  let n = 0;
  while (Date.now() < end) {
    for (let i = 0; i < 200; i++) if (validateMessage(input, opts).valid === expect) n++;
  }
  process.stdout.write(String(n));
  process.exit(0);
}

const named = namedCopy({
  repo: REPO,
  // pkg/ is built from the store-js variant when both entries share one module (SERVER=1), else
  // from the default target: the newer of the two raw outputs is the one pkg/ was made from.
  raw: ["target/wasm32-unknown-unknown/release/mcp_tasks_wasm.wasm", "target/variant-store_js/wasm32-unknown-unknown/release/mcp_tasks_wasm.wasm"]
    .map((f) => resolve(REPO, f))
    .filter((f) => existsSync(f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0] ?? resolve(REPO, "target/wasm32-unknown-unknown/release/mcp_tasks_wasm.wasm"),
  pkgWasm: resolve(REPO, "pkg/mcp_tasks_wasm_bg.wasm"),
  dir: NAMED,
  label: "cpu-profile",
});
if (!named) process.exit(0);
const rawNewer = named.rawNewer;
// The entry as the package has it: the glue, and validateMessage over it (pkg/validate.js, compiled from js/core/validate.ts).
copyFileSync(resolve(REPO, "pkg/validate.js"), resolve(NAMED, "validate.js"));
writeFileSync(
  resolve(NAMED, "node.mjs"),
  'import { readFileSync } from "node:fs";\nimport { initSync } from "./mcp_tasks_wasm.js";\n' +
    'initSync({ module: readFileSync(new URL("./mcp_tasks_wasm_bg.wasm", import.meta.url)) });\nexport * from "./mcp_tasks_wasm.js";\n' +
    'export { validateMessage } from "./validate.js";\n',
);

// Stages, outermost match wins (a sample is charged to the first stage found walking from the
// root of its stack). Names are Rust/JS function names as V8 reports them.
const STAGES = [
  ["options → Rust (reading the options object)", /read_options|JsOptions|serde_wasm_bindgen::de::/],
  ["JSON.stringify of the object (object input only)", /__wbg_stringify|^stringify$|^jsonText$|^nullsAreNull$/],
  ["string copy JS → wasm (glue charCodeAt loop)", /__wbindgen_string_get|passStringToWasm0/],
  ["text → wasm memory (TextEncoder.encodeInto)", /^encodeInto$/],
  ["typed fast path (V25 get/list read once and checked, no Value; its issues unformatted)", /validate::fast::|validate::validate_text_verdict/],
  ["serde_json parse into Value", /serde_json::de::from_str/],
  ["NaN/undefined null walk (object input only)", /find_lossy_nulls/],
  ["validation proper (detect::dispatch)", /validate::detect::dispatch|validate::validate_value/],
  ["drop of the parsed Value", /drop_in_place<.*serde_json::value::Value/],
  ["report → JSON text (Rust)", /ValidationReport::to_json|surrogates::restore|serde_json::ser/],
  ["report JSON → JS object (TextDecoder + JSON.parse)", /^readJson$|^decode$|js_sys::JSON::parse|__wbg_parse|^parse$/],
  ["report → JS object (serde-wasm-bindgen)", /serde_wasm_bindgen::ser|ObjectSerializer|wasm::validate::to_js|report_to_js/],
];
const INCLUSIVE = [["IndexMap insert/lookup + SipHash (serde_json preserve_order)", /indexmap::map::IndexMap/]];

function analyse(file) {
  const stage = Object.fromEntries([...STAGES.map(([k]) => [k, 0]), ["other (call boundary, shims, allocator, externref table)", 0]]);
  const incl = Object.fromEntries(INCLUSIVE.map(([k]) => [k, 0]));
  let inside = 0;
  for (const { d, chain } of profileStacks(file)) {
    const top = chain.findIndex((f) => f === "validateMessage");
    if (top < 0) continue;
    inside += d;
    const frames = chain.slice(top + 1);
    let hit = null;
    for (const f of frames) {
      const s = STAGES.find(([, re]) => re.test(f));
      if (s) {
        hit = s[0];
        break;
      }
    }
    stage[hit ?? "other (call boundary, shims, allocator, externref table)"] += d;
    for (const [k, re] of INCLUSIVE) if (frames.some((f) => re.test(f))) incl[k] += d;
  }
  const pct = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, (100 * v) / inside]));
  return { stages: pct(stage), inclusive: pct(incl) };
}

const out = { rawNewerThanPkg: rawNewer, inputs: {} };
console.log(`# cpu-profile of validateMessage, small valid V25 message (names-kept copy of target/ build${rawNewer ? "; WARNING: target/ is newer than pkg/" : ""})`);
for (const input of ["string", "object", "not-json", "invalid"]) {
  const { stdout, file } = profiledChild({ repo: REPO, script: fileURLToPath(import.meta.url), dir: resolve(NAMED, `prof-${input}`), args: [input] });
  const a = analyse(file);
  a.nsPerOp = 3e9 / Number(stdout);
  out.inputs[input] = a;
  console.log(`  ${input === "not-json" ? "'x' (not JSON, no options)" : input === "invalid" ? "invalid (status \"running\"), string" : `${input} input`} (${a.nsPerOp.toFixed(0)} ns/op under the profiler):`);
  for (const [k, v] of Object.entries(a.stages)) if (v >= 0.5) console.log(`    ${v.toFixed(1).padStart(5)}%  ${k}`);
  for (const [k, v] of Object.entries(a.inclusive)) console.log(`    (${v.toFixed(1)}% inclusive: ${k})`);
}
const i = process.argv.indexOf("--json");
if (i > 0) writeFileSync(process.argv[i + 1], JSON.stringify(out, null, 2));
