// Where our TaskStore's time goes: a CPU profile (V8 sampling, node --cpu-prof) of get, create,
// complete and list by stage, and differential timings of the package itself (pkg/server):
// `create` with `crypto.getRandomValues` as is and with a JS pool in front of it (the wasm looks
// the method up on `globalThis.crypto` at every call), and JS-only costs of the answer (JSON.parse
// of a StoreTask's text, of its V25 Task alone, a spread copy of a task object as the SDK answers).
//
// The profile Needs function names in the .wasm: pkg/server/ is built with wasm-opt -Oz, which drops
// them, so this makes a names-kept copy from the raw cargo output of the server variant
// (target/variant-store_js/wasm32-unknown-unknown/release) with wasm-bindgen --target web +
// wasm-opt -Oz -g into bench/results/named-server/, next to copies of pkg/server/store.js and
// errors.js (the JS TaskStore over the wasm core). That is the code of pkg/server/ only if
// target/ was not rebuilt since pkg/server/ was: the script says which is newer. Optional: it is
// skipped (exit 0) when the raw build or wasm-bindgen is missing.
//
//   node bench/store-profile.mjs [--json bench/results/store-profile.json]
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { namedCopy, profiledChild, profileStacks } from "./named-profile.mjs";
import { OURS_OPTIONS, OURS_CREATE, OURS_CTX, RESULT, loadOurs, median } from "./store-setup.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "..");
const NAMED = resolve(HERE, "results/named-server");
// env STORE_PROFILE_OPS=complete,get-miss: profile only those (for iterations; the report wants all).
const OPS = process.env.STORE_PROFILE_OPS ? process.env.STORE_PROFILE_OPS.split(",") : ["get", "get-miss", "create", "complete", "list"];
const SECONDS = 3;

if (process.argv[2] === "--child") {
  const { initSync } = await import(pathToFileURL(resolve(NAMED, "mcp_tasks_wasm.js")).href);
  initSync({ module: readFileSync(resolve(NAMED, "mcp_tasks_wasm_bg.wasm")) });
  const { TaskStore } = await import(pathToFileURL(resolve(NAMED, "store.js")).href);
  const op = process.argv[3];
  let store = new TaskStore(OURS_OPTIONS);
  const ids = [];
  for (let i = 0; i < 10_000; i++) ids.push(store.create(OURS_CREATE, OURS_CTX).taskId);
  let fresh = [];
  const refill = () => {
    // complete needs working tasks: made outside the profiled function
    fresh = [];
    for (let i = 0; i < 200; i++) fresh.push(store.create(OURS_CREATE, OURS_CTX).taskId);
  };
  const impl = {
    // get answers the kept answer while nothing was written: "get" measures that path,
    // "get-miss" the read after a write to another task (a status message written between
    // rounds): the kept answer after a check of the task's revision.
    get(k) {
      for (let i = 0; i < 200; i++) store.get(ids[(k + i) % ids.length], OURS_CTX);
      return 200;
    },
    "get-miss"(k) {
      for (let i = 0; i < 200; i++) store.get(ids[(k + i) % ids.length], OURS_CTX);
      return 200;
    },
    create() {
      for (let i = 0; i < 200; i++) store.create(OURS_CREATE, OURS_CTX);
      return 200;
    },
    complete() {
      for (const id of fresh) store.complete(id, RESULT, null, OURS_CTX);
      return fresh.length;
    },
    list() {
      let cursor;
      let n = 0;
      do {
        const page = store.list(cursor === undefined ? undefined : { cursor }, OURS_CTX);
        n += page.tasks.length;
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return n;
    },
  }[op];
  // Only samples under `store_op` count.
  function store_op(k) {
    return impl(k);
  }
  let n = 0;
  let t = 0;
  const end = Date.now() + SECONDS * 1000;
  while (Date.now() < end) {
    if (op === "complete") refill();
    if (op === "get-miss") store.setStatus(ids[0], "working", `round ${n}`, OURS_CTX);
    const t0 = process.hrtime.bigint();
    n += store_op(n);
    t += Number(process.hrtime.bigint() - t0);
    if (op === "create" && n % 20_000 === 0) {
      store.free();
      store = new TaskStore(OURS_OPTIONS);
    }
  }
  process.stdout.write(JSON.stringify({ n, ns: t }));
  process.exit(0);
}

const named = namedCopy({
  repo: REPO,
  raw: resolve(REPO, "target/variant-store_js/wasm32-unknown-unknown/release/mcp_tasks_wasm.wasm"),
  pkgWasm: resolve(REPO, "pkg/mcp_tasks_wasm_bg.wasm"),
  dir: NAMED,
  label: "store-profile",
});
if (!named) process.exit(0);
for (const f of ["store.js", "errors.js"]) copyFileSync(resolve(REPO, "pkg/server", f), resolve(NAMED, f)); // compiled from js/server/*.ts
const rawNewer = named.rawNewer;

// Stages by priority: a sample is charged to the first stage any frame of its stack (inside the
// profiled operation) matches. Names are Rust/JS function names as V8 reports them (JSON.parse is
// inlined into the JS methods that call it: its time is theirs).
const STAGES = [
  ["task id: crypto.getRandomValues (pooled, one call per 256 ids)", /CryptoRandom|getRandomValues|randomFillSync/],
  ["payload in JS (complete): one walk makes the frozen copy of the result for the answer and writes its JSON text as UTF-8 into wasm memory (frozenCopy, store.ts)", /^frozenCopy$|^putString$|^putAscii$|^putChar$|^putEscape$/],
  ["answer in JS: JSON.parse of the StoreTask text, deep freeze, kept (complete: the result's frozen copy put in, store.ts)", /^#task$|^#outcome$|^#keep$|^#terminalAnswer$|^attach$|^deepFreeze$/],
  ["answer: UTF-8 decode of the text (glue)", /^getStringFromWasm0$|^decode$/],
  ["answer: serde_json::to_string of the task(s), V25 and V26 (4 RFC 3339 timestamps)", /TaskView|V26Of|V26View|V26Shell|V25Task|to_v25|WirePage|Revised|serde_json::ser::|record::timestamp|wasm::store::text|answer::(task|written)_text/],
  ["arguments → Rust (id, session, message: complete writes them as UTF-8 into the core's input buffer; the result's JSON text checked without a tree)", /^jsonText$|^readId$|^#openInput$|^putText$|read_id|read_create|read_list|read_object|read_json|read_text|read_message|take_input|js_to_json|payload::|Members::|passStringToWasm0|__wbindgen_string_get/],
  ["context read in JS (store.ts)", /^readContext$/],
  ["store core: record clones (storage get / range_after)", /TaskRecord as core::clone::Clone|Cloned<I>/],
  ["store core: the rest (hash lookups, state machine, indexes, cursor MAC)", /store::ops::Store|store::storage|store::cursor/],
];
const OTHER = "other (call boundary, shims, allocator, the kept-answer lookup, Date.now)";

const frameName = (f) => f.functionName || "";

function analyse(file) {
  const stage = Object.fromEntries([...STAGES.map(([k]) => [k, 0]), [OTHER, 0]]);
  let inside = 0;
  for (const { d, chain } of profileStacks(file, frameName)) {
    const top = chain.indexOf("store_op");
    if (top < 0) continue;
    inside += d;
    const frames = chain.slice(top + 1);
    const hit = STAGES.find(([, re]) => frames.some((f) => re.test(f)));
    stage[hit ? hit[0] : OTHER] += d;
  }
  return Object.fromEntries(Object.entries(stage).map(([k, v]) => [k, (100 * v) / inside]));
}

const out = { rawNewerThanPkg: rawNewer, seconds: SECONDS, ops: {} };
console.log(`# store-profile of TaskStore (names-kept copy of the target/ build${rawNewer ? "; WARNING: target/ is newer than pkg/server/" : ""})`);
for (const op of OPS) {
  const { stdout, file } = profiledChild({ repo: REPO, script: fileURLToPath(import.meta.url), dir: resolve(NAMED, `prof-${op}`), args: [op] });
  const { n, ns } = JSON.parse(stdout);
  const stages = analyse(file);
  out.ops[op] = { nsPerOp: ns / n, unit: op === "list" ? "task listed (pages of 50)" : "call", stages };
  console.log(`  ${op} (${(ns / n).toFixed(0)} ns per ${out.ops[op].unit}, under the profiler):`);
  for (const [k, v] of Object.entries(stages)) if (v >= 0.5) console.log(`    ${v.toFixed(1).padStart(5)}%  ${k}`);
}
// ---- differential timings on pkg/server (no profiler) ----
async function differential() {
  const { TaskStore, TaskServerCore } = await loadOurs();
  const time = (f, n, runs = 7) => {
    const xs = [];
    for (let r = 0; r < runs; r++) {
      const t0 = process.hrtime.bigint();
      f(n);
      xs.push(Number(process.hrtime.bigint() - t0) / n);
    }
    return median(xs);
  };
  const creates = (n) => {
    const store = new TaskStore(OURS_OPTIONS);
    for (let i = 0; i < n; i++) store.create(OURS_CREATE, OURS_CTX);
    store.free();
  };
  const original = globalThis.crypto.getRandomValues;
  const pool = new Uint8Array(4096);
  let pos = pool.length;
  const pooled = function getRandomValues(a) {
    if (a.byteLength > 256) return original.call(globalThis.crypto, a);
    if (pos + a.byteLength > pool.length) {
      original.call(globalThis.crypto, pool);
      pos = 0;
    }
    new Uint8Array(a.buffer, a.byteOffset, a.byteLength).set(pool.subarray(pos, pos + a.byteLength));
    pos += a.byteLength;
    return a;
  };
  const out = {};
  creates(20_000); // warm-up
  const asIs = [];
  const withPool = [];
  for (let k = 0; k < 3; k++) {
    globalThis.crypto.getRandomValues = original;
    asIs.push(time(creates, 10_000, 3));
    globalThis.crypto.getRandomValues = pooled;
    withPool.push(time(creates, 10_000, 3));
  }
  globalThis.crypto.getRandomValues = original;
  out["ours: create, as shipped (ids from a 4 KiB pool)"] = median(asIs);
  out["ours: create, a 4 KiB JS pool in front of crypto.getRandomValues"] = median(withPool);
  const g16 = (n) => {
    for (let i = 0; i < n; i++) globalThis.crypto.getRandomValues(new Uint8Array(16));
  };
  g16(20_000);
  out["JS: crypto.getRandomValues(new Uint8Array(16))"] = time(g16, 100_000);
  const big = new Uint8Array(4096);
  const g4k = (n) => {
    for (let i = 0; i < n; i++) globalThis.crypto.getRandomValues(big);
  };
  g4k(2_000);
  out["JS: crypto.getRandomValues of a 4 KiB array (256 ids)"] = time(g4k, 20_000);
  const store = new TaskStore(OURS_OPTIONS);
  const task = store.create(OURS_CREATE, OURS_CTX);
  const text = JSON.stringify(task);
  const v25 = JSON.stringify(task.v25);
  const core = new TaskServerCore(OURS_OPTIONS);
  const wire = core.create(OURS_CREATE.protocolVersion, OURS_CREATE.ttl, undefined, undefined, OURS_CTX.session, false, Date.now());
  core.free();
  const parse = (t) => (n) => {
    for (let i = 0; i < n; i++) JSON.parse(t);
  };
  parse(wire)(50_000);
  parse(v25)(50_000);
  out[`JS: JSON.parse of the text that crosses (${wire.length} bytes: the StoreTask, both shapes, and its revision)`] = time(parse(wire), 100_000);
  out[`JS: JSON.parse of its V25 Task alone (${v25.length} bytes)`] = time(parse(v25), 100_000);
  const obj = task.v25;
  let sink = 0;
  const spread = (n) => {
    for (let i = 0; i < n; i++) sink += { ...obj }.ttl;
  };
  spread(100_000);
  out["JS: spread copy of a V25 Task object (the SDK's getTask answer)"] = time(spread, 1_000_000);
  const gets = (n) => {
    for (let i = 0; i < n; i++) store.get(task.taskId, OURS_CTX);
  };
  gets(20_000);
  out["ours: get (same task, for scale: the kept answer)"] = time(gets, 50_000);
  store.free();
  return { results: out, answerBytes: { storeTask: text.length, v25Task: v25.length, crossing: wire.length }, sink };
}
const diff = await differential();
out.differential = diff.results;
out.answerBytes = diff.answerBytes;
console.log("  differential timings (pkg/server, no profiler), ns:");
for (const [k, v] of Object.entries(diff.results)) console.log(`    ${v.toFixed(0).padStart(7)}  ${k}`);

const i = process.argv.indexOf("--json");
if (i > 0) writeFileSync(process.argv[i + 1], JSON.stringify(out, null, 2));
