// The "## Size" section of BENCHMARKS.md, from size.json (bench/size.mjs) and, when present,
// size-profile.json (bench/size-profile.sh) and size-variants.json (bench/size-variants.sh). Used by
// bench/report.mjs and bench/size.mjs --markdown.
const int = (x) => Math.round(x).toLocaleString("en-US");
const kb = (b) => `${(b / 1000).toFixed(1)} KB`;

/** @returns {string[]} the section's lines, from its "## Size" heading on. */
export function sizeSection(size, profile, variants) {
  const L = [];
  L.push("## Size");
  L.push("");
  L.push("`node bench/size.mjs`: the files each entry point loads, raw and `gzip -9` (zlib level 9, per file, summed). KB = 1,000 bytes. Each entry loads its own module: `mcp-tasks-wasm` the client module `mcp_tasks_wasm_bg.wasm` (no task store; in browsers the browser module `browser/mcp_tasks_browser_bg.wasm`, the same without the conversation checker, and the client module only for an app that imports `Conversation`), `mcp-tasks-wasm/server` the server module `server/mcp_tasks_server_bg.wasm`; an app importing both loads both. Not counted: the JS helpers (TaskClient, TaskHost, …); a whole browser app with them and the SDK client: \"Browser app\" below.");
  L.push("");
  L.push("| file | raw bytes | gzip bytes |");
  L.push("|---|---:|---:|");
  for (const [f, s] of Object.entries(size.files)) L.push(`| \`${f}\` | ${int(s.raw)} | ${int(s.gzip)} |`);
  for (const [n, s] of Object.entries(size.entries)) L.push(`| **${n}**: ${s.files.map((f) => `\`${f}\``).join(" + ")} | ${int(s.raw)} | **${int(s.gzip)}** (${kb(s.gzip)}) |`);
  L.push("");
  L.push("For scale (from the peer survey, `docs/spec/PEERS.md` §5, esbuild-minified, not measured by this script): the SDK's six task zod schemas 31.8 KB gzip; one Task schema with `zod/mini` 5.3 KB gzip; the SDK `Client` bundle 80.3 KB gzip.");
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
    L.push("Where the rest goes: the exported shims are the bindings (`src/wasm`) with the core inlined into them (`Conversation.observe`, `TaskServer.restore` and `TaskServer.handle` are the largest: their bodies are the core's, not conversion code; marking the argument readers `#[inline(never)]` saved nothing, see below); `core` is mostly formatting and `str`/slice code; `char::escape_debug` and core's printable tables stay even with every `{:?}` of a string in our messages replaced (row below); `data` is the rule texts (`rules()`), the embedded schema JSON (37 KB raw, 3.5 KB gzip) and panic/format strings. `<f64 as Display>` and its flt2dec tables (14 KB raw) are linked by any typed serde_json request (`deserialize_str`, `deserialize_struct`, …: their \"invalid type\" error formats serde's `Unexpected`, floats included): the validator reads `Value` trees and the fast path (`src/validate/fast.rs`) hand-written visitors over `deserialize_any` only, each refusing every other kind of value itself (see the rows below), and the store's payload probe (`src/store/payload.rs`) does the same; `Value` trees are read by the crate's own visitor (`base::json::parse`), and serde_json's `raw_value` feature is off (its job, a stored result written into answers as its checked text, is `base::json::to_text`): that feature adds a typed request inside serde_json's own `Value` visitor (`BoxedFromString`, a `deserialize_str`), about 10 KB gzip (row below).");
    L.push("");
    L.push("Since the size work of 2026-12-01 (rows below): no sort code is left (the conversation's payload fingerprint walks the `Map` in its key order), the conversation's string-keyed tables share one hash table type, chrono is down to its calendar (RFC 3339 text is read and written by `src/base/time.rs`), and the JS glue and `validate.js` ship without their doc comments (the `.d.ts` files keep them).");
    L.push("");
  }
  if (variants) {
    L.push("### Why 90 KB is not met: what each part weighs");
    L.push("");
    L.push(`\`${variants.command}\`: the module built as the package's (release profile, wasm-bindgen, \`wasm-opt -Oz\`) from a copy of the crate with parts left out; gzip -9 of the .wasm and of the web glue.`);
    L.push("");
    L.push("| module | .wasm raw | .wasm gzip | code gzip | data gzip | glue gzip | wasm + glue gzip |");
    L.push("|---|---:|---:|---:|---:|---:|---:|");
    const what = {
      package: "the package's module (`store-js`: validator, model, `Conversation`, `TaskScheduler`, `TaskServerCore`)",
      "no-server": "without `store-js` (no `TaskServerCore`): what the main entry's API needs",
      validator: "without `store-js`, `Conversation` and `TaskScheduler`: `validateMessage`, `rules`, the converters",
      "validator-no-fast": "the same without the typed fast path (`src/validate/fast.rs`)",
      "validator-no-fast-z": "the same built with `opt-level = \"z\"`: the validator at its smallest (speed given up)",
      "no-server-z": "without `store-js`, `opt-level = \"z\"`",
      "package-z": "the package's module, `opt-level = \"z\"`",
      floor: "**the floor**: no rule at all (`bench/size-floor/lib.rs`, below)",
      "floor-z": "the floor, `opt-level = \"z\"`",
    };
    const sec = (v, k) => (v.sections?.[k] ? int(v.sections[k].gzip) : "");
    for (const v of variants.variants) L.push(`| ${what[v.name] ?? v.name} | ${int(v.wasm.raw)} | ${int(v.wasm.gzip)} | ${sec(v, "code")} | ${sec(v, "data")} | ${int(v.glue.gzip)} | **${kb(v.wasm.gzip + v.glue.gzip)}** |`);
    L.push("");
    const by = Object.fromEntries(variants.variants.map((v) => [v.name, v]));
    const total = (n) => by[n].wasm.gzip + by[n].glue.gzip;
    if (by.floor && by["validator-no-fast-z"] && by["no-server-z"] && by["package-z"]) {
      const f = total("floor"), v = total("validator-no-fast-z"), m = total("no-server-z"), p = total("package-z");
      const code = (n) => by[n].sections.code.gzip, data = (n) => by[n].sections.data.gzip;
      L.push(`**The budget.** The floor is a module built like the package's, from the same crates with the same features, the package's \`src/base/\` and a 65-line \`lib.rs\` (\`bench/size-floor/lib.rs\`) that does only what every call of the package does at the least: a JS string crosses into wasm, is read into a \`serde_json\` tree by the package's reader, is walked (JSON Pointers, one timestamp read through chrono's calendar), issues with formatted messages are collected and the report is written back as JSON text. It holds no rule of the spec and weighs **${kb(f)}** with its glue (code ${kb(code("floor"))}, data ${kb(data("floor"))} gzip: serde_json's parser and writer, \`core\`'s formatting and Unicode tables, the allocator, wasm-bindgen's glue). Under the 90 KB target that leaves ${kb(90000 - f)} for everything the main entry exports. What it exports weighs, built for size (\`opt-level = "z"\`, ruled out by the speed targets: the 100-task list takes 1.98× the time, row below):`);
      L.push("");
      L.push(`- the validator alone (\`validateMessage\`, \`rules\`, the converters), without its fast path: ${kb(v)}, that is ${kb(v - f)} above the floor (code ${kb(code("validator-no-fast-z") - code("floor"))}, data ${kb(data("validator-no-fast-z") - data("floor"))} gzip: the two checkers, the rule texts, the schema JSON, the messages);`);
      L.push(`- with \`Conversation\`, \`TaskScheduler\` and the fast path (the main entry's API): ${kb(m)}, ${kb(m - f)} above the floor, ${((m - f) / (90000 - f)).toFixed(1)}× the ${kb(90000 - f)} left;`);
      L.push(`- with the store and server (\`store-js\`): ${kb(p)}, ${kb(p - f)} above the floor against ${kb(130000 - f)} left under the 130 KB target for both entries (${((p - f) / (130000 - f)).toFixed(1)}×).`);
      L.push("");
      L.push("So the validator alone, at its smallest and slowed, is over 90 KB; a second, validator-only module for the main entry would miss the target too, and would load its bytes twice for an app that imports both entries. Meeting the targets with these crates means writing every part above the floor in less than half its present bytes: not a trim, since the profile above shows no part of that size (the largest owners are the validator's own code, the data, the store and the conversation, each 7–17 % of the module), and each of the parts is a feature of the package (the rule texts of `rules()`, the official schema checked by the schema interpreter for the deep structures, the conversation checker, the scheduler, the store). The rows below are what was tried and measured.");
    } else {
      L.push("Even the validator alone, without its fast path, weighs more than 90 KB with its glue: the bytes are the rules themselves (the hand-written V25/V26 checks, the schema interpreter and its JSON, the rule texts), serde_json, `alloc`/`core` and the allocator, each a few percent, none large enough to take out (the profile above).");
    }
    L.push("");
  }
  L.push("Measured options (2026-11-30 and 2026-12-01, by hand; `gzip -9` of the module with `store-js`, each against the module before it; speed: `validateMessage` of the bench messages, the two modules interleaved in one process):");
  L.push("");
  L.push("| option | module gzip | kept? |");
  L.push("|---|---:|---|");
  L.push("| the conversation's payload fingerprint walks an object's members in the `Map`'s own (key) order instead of sorting the keys (`serde_json::Map` is a `BTreeMap`; a test holds the order): the only stable sort of the module goes | −6.0 KB raw, −2.5 KB (239.4 → 236.9 KB) | yes |");
  L.push("| RFC 3339 read and written by `src/base/time.rs` instead of chrono's `parse_from_rfc3339` / `to_rfc3339` (exactly as they do: compared with chrono on generated input), chrono kept for its calendar (`NaiveDate::from_ymd_opt`) | −6.0 KB raw, −1.9 KB (236.9 → 235.0 KB) | yes (parsing as fast as chrono's natively; a first version with its own day arithmetic, −2.0 KB, parsed 1.2–1.6× slower) |");
  L.push("| issue paths clamped by the validator's own pointer lookup instead of `Value::pointer` (its `str::replace` goes) | −0.5 KB raw, −0.3 KB | yes |");
  L.push("| `wasm-opt --strip-producers --strip-target-features` (toolchain metadata) | −0.3 KB raw, −0.2 KB | yes |");
  L.push("| the conversation's two other string-keyed tables (task ids warned about, tools' task support) of the same type as its task index (`HashMap<String, usize>`) instead of a `HashSet<String>` and a `HashMap<String, TaskSupport>`: their hash table code is shared | −3.4 KB raw, −1.4 KB (234.7 → 233.4 KB) | yes |");
  L.push("| the doc comments out of the JS an entry loads at start (`scripts/strip-js-docs.mjs`, checked by esbuild to leave the code as it was; the `.d.ts` files keep them) | glue 10.8 → 5.9 KB, `validate.js` 6.1 → 3.8 KB, node ESM entry −7.3 KB | yes |");
  L.push("| no chrono at all: `base::time::Instant` its own type (seconds, nanoseconds, offset; ordered, elapsed ms and leap seconds as chrono's; compared with chrono in tests, chrono a dev-dependency) | −2.8 KB raw, −1.9 KB (234.4 → 232.4 KB); parsing as fast | no: chrono is one of the design card's crates (kept for the calendar; everything else it did is in `src/base/time.rs`) |");
  L.push("| the JS glue and `validate.js` also whitespace-minified (esbuild `minifyWhitespace`) | −0.5 KB and −0.4 KB | no: the shipped glue stays readable (stack traces, debugging) |");
  L.push("| serde_json without its `std` feature (`alloc` only) | −7.2 KB raw, −2.6 KB (239.4 → 236.8 KB) | yes: the one `serde_json::to_writer` (`src/wasm/store.rs`) became `to_vec` |");
  L.push("| `opt-level = \"z\"`, measured again on the current code | −24.4 KB (239.4 → 215.0 KB) | no: 1.03–1.98× the time (small `tasks/get` from text 1.55×, 100-task list 1.98×) |");
  L.push("| `opt-level = \"z\"` and `wasm-opt -O3` (to inline back) | −23.1 KB | no: still 1.29–1.44× the time |");
  L.push("| `-C llvm-args=-inline-threshold=40` (or `=10`) with `opt-level = \"s\"` | −1.7 KB (−2.7 KB) | no: small `tasks/get` from text 1.44× the time |");
  L.push("| the talc allocator (`talc::wasm::new_wasm_dynamic_allocator`) instead of std's dlmalloc | −2.0 KB | no: small messages 1.0–1.26× the time (64 KiB ones 0.7–0.8×) |");
  L.push("| `Value`'s `Display` out of the schema interpreter's messages (`serde_json::to_string` instead) | +0.1 KB: the serializer's monomorphs stay, one for `String` comes | no |");
  L.push("| `opt-level = \"z\"` instead of `\"s\"` | −24 KB (223 → 199 KB) | no: `validateMessage` took 0.94–1.46× the time on the bench messages (1.3–1.45× for most; the two modules interleaved in one process, 7 runs each, load 8) |");
  L.push("| `wasm-opt -Oz --converge`, or `--inlining-optimizing` | −0.1 KB | no |");
  L.push("| no typed serde_json deserialize in the module (`carried`, formerly `js_text`, parses a `Value`, not a `String`): serde's float error formatting and core's `f64` Display (flt2dec) drop out | −12.2 KB (223.4 → 211.2 KB) | yes |");
  L.push("| chrono with `alloc` only (no `std`, no `serde`) | −0.6 KB | yes |");
  L.push("| no serde-wasm-bindgen deserializer (the target version of `convert*` read like every other version) | −0.8 KB, glue −0.8 KB | yes |");
  L.push("| the fast path's typed structs read through a wrapper deserializer (`any_only`: serde_json asked for `deserialize_any` only, visitor errors that format nothing) instead of `serde_json::from_str` | −10.3 KB (231.5 → 221.3 KB); no `f64` Display left | no: the V25 fast path took 1.01–1.09× (valid `tasks/get`), 1.03–1.06× (bad status), 1.05–1.14× (100-task list) the CPU time (the two modules interleaved in one process, both orders; an error is re-made at every level of nesting) |");
  L.push("| the fast path read once by hand-written visitors over `deserialize_any` (no derive; valid and invalid answers alike, issues sent as template numbers, listed tasks read lightly; 2026-12-01) | −11.4 KB (241.4 → 230.0 KB; −14.1 KB before the light reading of listed tasks and the templates were added); no `f64` Display left | yes |");
  L.push("| `wasm-opt --one-caller-inline-max-function-size=200` (by default a function with one caller is inlined whatever its size; 2026-12-01) | −6.5 KB (238.3 → 231.8 KB); cold start: V8 compiles each function at its first call, and the fast path folded into one 21 KB function took the first `validateMessage` from 2.2 to 3.6 ms: 1.9 ms with the cap (15 fresh processes each, interleaved: import → first result 20.5 → 19.2 ms median) | yes: the bench messages 0.99–1.06× the time (valid `tasks/get` 1.03×, invalid 1.06×, 100-task list 0.99×; both modules interleaved in one process) |");
  L.push("| the same cap at 0, 50, 100 or 400 bytes | −11.9 / −11.6 / −8.6 / −1.4 KB | no: at 0 the 100-task list took 1.17× the time, at 50 and 100 every message 1.05–1.08× |");
  L.push("| serde_json's `raw_value` feature (the store keeps each result as its checked JSON text, `Box<RawValue>`, shared between revisions and written verbatim; 2026-12-01) | brings `f64` Display back (≈10 KB gzip: serde_json's own `Value` visitor gains a typed `deserialize_str` for raw values) | yes: `complete` 0.23× → 0.33× the SDK, `malloc` 42% → 4% of its profile |");
  L.push("| serde_json without `raw_value` (2026-12-01, later): a stored result written into an answer by `base::json::to_text` (the result serialized as a `u128` placeholder, then its text spliced in) and `Value` trees read by the crate's own visitor (`base::json::parse`); also mends a misreading of that feature (an object whose first member is named `$serde_json::private::RawValue` was read as the JSON text it held) | −12.6 KB (236.5 → 223.9 KB; `f64` Display and flt2dec gone) | yes: store `complete` / `get` / `resultOf` of small and 64 KiB results 0.85–1.21× the time in interleaved A/B runs, repeated at 0.94–1.11× (noise); `validateMessage` of the bench messages 0.97–1.01× |");
  L.push("| serde_json's `float_roundtrip` feature (floats read exactly: with serde_json's default parser about one in ten doubles such as `Math.random() * 1000`, and three in ten of arbitrary bits, came back one unit in the last place off wherever a number is read into a tree and written again: a stored result's `resultOf` / V25 `tasks/result`, snapshots and `restore`, `convertTask`, input requests and responses; tests in `store.test.mjs`, `hostile.test.mjs` and `tests/proptest_entry_points.rs`) | +10.5 KB (223.9 → 234.5 KB) | yes: correctness first; the bench messages hold no floats |");
  L.push("| the conversation's pending requests in a `VecDeque` (stale entries skipped and dropped) instead of a `BTreeMap<usize, _>`, and no `Map::remove` on `serde_json` maps (2026-12-01, later): `BTreeMap`'s removal code (merge, steal, fix) is generic, linked once per map type that removes; one is left, the store's keysets | −4.3 KB (234.5 → 230.1 KB) | yes: `tests/conversation_bounds.rs` holds the eviction order against a model; the hostile bench's `Conversation` memory unchanged (40.50 MiB) |");
  L.push("| wasm-bindgen without `enable-interning` (the string cache) | −2.1 KB (231.5 → 229.4 KB), glue +0.04 KB | yes |");
  L.push("| `[profile.release.package.\"*\"] opt-level = \"z\"` (dependencies `z`, the crate `s`) | +1.4 KB (231.5 → 232.9 KB): under fat LTO the crate's level decides | no |");
  L.push("| `wasm-opt -Oz --low-memory-unused --zero-filled-memory` | −1.1 KB (all of it from `--low-memory-unused`, which assumes the lowest 1 KB of memory unused: with the stack first it is the stack's deepest end) | no |");
  L.push("| `wasm-opt -Os` / `-O3` / `-Oz -tnh` / `-Oz --gufa-optimizing -Oz` / `-Oz --zero-filled-memory` | −0.6 / +0.6 / −0.2 / 0.0 / 0.0 KB | no |");
  L.push("| `#[inline(never)]` on the 29 argument readers and error builders of `src/wasm` (context, id, message, JSON arguments, `store_error`, …) | +0.1 KB | no: the shims' bytes are the inlined core operations |");
  L.push("| `-C target-feature=-reference-types,-multivalue` (no externref shims) | — | no: wasm-bindgen fails (`__wbindgen_externref_table_dealloc` missing: the prebuilt std has reference types) |");
  L.push("| strings in messages quoted as JSON (`serde_json`) instead of `{:?}` (to drop `char::escape_debug` and core's printable tables) | +0.2 KB: `escape_debug` stays (other `Debug` paths) | no |");
  L.push("| the embedded schema compacted or compiled at build time | at most −3.5 KB (the JSON's whole gzip size), minus the decoder it needs | not done |");
  L.push("| the scheduler's three argument types (`TaskSchedulerOptions`, `TrackParams`, `PollErrorInfo`) read by tsify's `Ts::to_rust` (serde-wasm-bindgen's deserializer, `#[derive(Deserialize)]`, keys spelled once) instead of `src/wasm/input.rs`'s `Members` reader (2026-12-01, third session, in a copy of the crate) | +17.8 KB (230.1 → 247.9 KB), glue +0.9 KB; `src/wasm/schedule.rs` 300 → 262 lines | no: the deserializer, serde's `Unexpected` formatting (floats included: core's `f64` Display) and `Value`'s typed `Deserialize` (for `TrackParams.task`) come back, and the messages become serde's (`invalid type: …, expected …`), not the package's |");
  L.push("| one module for both entries instead of two (wasm + web glue) | main entry 167.5 → 222.8 KB (+55.3 KB); main and server together 405.0 → 223.0 KB (−182 KB) | until 2026-12-01; since, two again (a browser client pays for no server code: [byte-boundary.md](docs/decisions/byte-boundary.md), \"Browser app\") |");
  L.push("");
  if (size.bindings) L.push(...bindingsSection(size.bindings));
  return L;
}

/** The "bindings layer" subsection: the lines of src/wasm, and why they are not half of 2,400. */
function bindingsSection(b) {
  const L = [];
  const sum = (k) => b.reduce((a, f) => a + f[k], 0);
  L.push("### The bindings layer (`src/wasm`): lines");
  L.push("");
  L.push("`node bench/size.mjs` counts the lines of `src/wasm/*.rs` (2,400 lines before the byte boundary was redesigned; the target was half, with no TypeScript written as strings). Comments are `//` lines (doc comments become the `.d.ts` documentation); attributes are `#[…]` lines; exported are `pub fn` lines (the JS-facing methods and functions); TS strings are `unchecked_return_type` / `unchecked_param_type` / `unchecked_optional_param_type` / `typescript_type` annotations (before 2026-12-01 (later) the count missed the optional ones: 26, not 19).");
  L.push("");
  L.push("| file | lines | comments | blank | attributes | code | exported | TS strings |");
  L.push("|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const f of b) L.push(`| \`${f.file}\` | ${int(f.lines)} | ${int(f.comments)} | ${int(f.blank)} | ${int(f.attributes)} | ${int(f.lines - f.comments - f.blank - f.attributes)} | ${f.exported} | ${f.tsStrings} |`);
  L.push(`| **total** | **${int(sum("lines"))}** | ${int(sum("comments"))} | ${int(sum("blank"))} | ${int(sum("attributes"))} | ${int(sum("lines") - sum("comments") - sum("blank") - sum("attributes"))} | ${sum("exported")} | ${sum("tsStrings")} |`);
  L.push("");
  L.push("What changed (2026-12-01): everything in `src/wasm` that computed rather than converted moved into the core, with native tests: the store's answer shapes and `Written` (`src/store/answer.rs`), the options and their defaults (`src/store/options.rs`, `src/schedule/options.rs`, `src/server/context.rs`), the random pool (`src/store/pool.rs`), the byte boundary's state and report writers (`src/validate/compact.rs`), the conversation's byte path (`Conversation::observe_bytes`), `listPosition`'s rule, the too-large JSON-RPC answer; five mirror enums are the core's own types, declared by tsify under their old names; one safe-integer reader, one protocol-version reader, one store-error conversion, one `Who::run` for the store methods. The `.d.ts` stayed byte for byte the same, the module 0.4 KB smaller (3,485 → 2,423 lines for that step; the terminal writes' input buffer, `inputAt` and `terminalInput`, added 143 since). Later that day: `complete`, `fail` and `failWithToolResult` became one `terminal(kind, …)` (the kind table shared with `terminalInput`), `beginToolCall` and `planToolCall` one argument reader, and the last mirror enum, `HandleOutcome`, the core's `server::Outcome` (its pending variant now an intersection with a declared `PendingRequest`); the exact reading of sessions, task ids and scheduler keys (lone surrogates, U+FDD0) added about 40 lines. Later still: scheduler keys are typed `JsString` (declared `string`, checked at run time as before) and `validateMessage`, `convertTask` and `convertCreateTaskResult` return `Ts<…>` of their declared report types, so 8 TS strings went with the `.d.ts` unchanged byte for byte; the count now includes `unchecked_optional_param_type` (it missed 7: 26 before, 18 after). `Rule[]` and `TaskTimeline[]` keep their annotations: returning `Vec<Ts<T>>` instead measured +1.6 KB gzip (wasm-bindgen's vector glue). Later (2026-12-01, third session): the scheduler's optional arguments are typed `Option<js_sys::Number>` and `Option<Ts<TrackParams>>` / `Option<Ts<PollErrorInfo>>` instead of `Option<JsValue>` with a TS string: wasm-bindgen declares them `now?: number | null` and `params?: TrackParams | null` itself (a trailing `Option<JsValue>` is not declared optional and ended the run of optional parameters before it, which is why the strings were there), and the glue passes an imported JS type as it is, so a numeric string is still refused in wasm with the package's `TypeError` (tests in `scheduler.test.mjs`); the `.d.ts` is byte for byte the same, 7 TS strings fewer (18 → 11). What is left: the `number | null` / `TrackedTask | null` returns (typed `Option<…>` they would return `undefined`, not `null`), the `unknown` message parameters (a `JsValue` is declared `any`), the scheduler's task argument and snapshot (`Record<string, unknown>`) and the `Rule[]` / `TaskTimeline[]` returns.");
  L.push("");
  L.push("Why not half: what is left converts or delegates. About a sixth is comments (the doc comments are the `.d.ts` documentation of every export). The code is (a) the exported methods themselves, one short delegation each, with positional arguments (the JS classes read the context once and pass plain values, which measured faster than an options object per call); (b) the argument readers (`input.rs`'s `Members`: a JS object read member by member into the core's declared types, with the package's own error messages and the `maxRequestBytes` limit checked before anything is copied into wasm memory); (c) the text boundary (`encodeInto` into a reused buffer, lone surrogates, `JSON.stringify` with its lossy-null walk). Replacing (b) by typed reading (tsify `Ts::to_rust` / `from_wasm_abi`, i.e. serde-wasm-bindgen's deserializer) would remove most of its lines, but it brings the deserializer and serde's error formatting back into the module: measured on the scheduler's three argument types alone, −38 lines for +18.7 KB gzip (row above), it cannot refuse a string over `maxRequestBytes` before copying it, and its messages are serde's, not the ones the tests and the README promise; the hot calls (`get`, `complete`, `validateMessage`) do not read objects at all any more. The remaining TS strings are short annotations (`unknown`, `Record<string, unknown>`, `number | null` or a declared type's name) where wasm-bindgen has no Rust type that declares them: `JsValue` is declared `any`, and an `Option` return is `undefined`, not the `null` the API documents.");
  L.push("");
  return L;
}
