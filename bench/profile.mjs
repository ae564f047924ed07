// Where our time goes on the small valid message (V25 tasks/get): differential timings of
// validateMessage on inputs that stop at different stages (the typed fast path, the full
// validator, a rejected text), plus the JS-side costs for scale.
//   node bench/profile.mjs [--json bench/results/profile.json]   env BENCH_RUNS (default 7, >= 5)
import { writeFileSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import os from "node:os";
import { buildMessages } from "./messages.mjs";
import { makeOurs } from "./contenders.mjs";

const validateMessage = await makeOurs();
const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 7));
const RUN_MS = Number(process.env.BENCH_MS ?? 100);
const all = buildMessages();
const small = all.find((m) => m.id === "v25-get-valid");
const bad = all.find((m) => m.id === "v25-get-bad-status");
const badTtl = all.find((m) => m.id === "v25-get-bad-ttl");
const v26 = all.find((m) => m.id === "v26-get-valid");
const badObj = JSON.parse(bad.text);
const big = all.find((m) => m.id === "v25-result-64k");
const smallObj = JSON.parse(small.text);
const bigObj = JSON.parse(big.text);
const opts = { inReplyTo: "tasks/get" };
const optsVersion = { inReplyTo: "tasks/get", version: "2025-11-25" };
const optsHeaders = { inReplyTo: "tasks/get", headers: {} }; // the wrapper hands it to the export
const notJsonSmall = "x".repeat(small.text.length); // same length, rejected at the first byte
const notJsonBig = "x".repeat(big.text.length);
const validMin = '{"jsonrpc":"2.0","id":1,"result":{}}'; // valid, no inReplyTo: smallest accepted

// The copy wasm-bindgen's glue did for every string before (ASCII fast path), vs
// TextEncoder.encodeInto (what js/core/validate.ts does now), both into a WebAssembly.Memory.
const mem = new Uint8Array(new WebAssembly.Memory({ initial: 4 }).buffer);
function glueCopy(arg) {
  const len = arg.length;
  let offset = 0;
  for (; offset < len; offset++) {
    const code = arg.charCodeAt(offset);
    if (code > 0x7f) break;
    mem[64 + offset] = code;
  }
  return offset;
}
const enc = new TextEncoder();
const dec = new TextDecoder();
const badReport = new TextEncoder().encode(JSON.stringify(validateMessage(bad.text, opts)));
const REPORT_AT = 192 * 1024; // clear of the texts written at 64
mem.set(badReport, REPORT_AT);

let sink = 0;
const CASES = [
  ["ours: small valid, string, {inReplyTo}", () => validateMessage(small.text, opts).valid],
  ["ours: small valid, string, no options", () => validateMessage(small.text).valid],
  ["ours: small valid, string, {inReplyTo, version}", () => validateMessage(small.text, optsVersion).valid],
  ["ours: small valid, parsed object, {inReplyTo}", () => validateMessage(smallObj, opts).valid],
  ["ours: small invalid (status \"running\"), string, {inReplyTo}", () => !validateMessage(bad.text, opts).valid],
  ["ours: small invalid (`ttl` a string), string, {inReplyTo}", () => !validateMessage(badTtl.text, opts).valid],
  ["ours: small invalid (status \"running\"), string, through the export (full validator: Value tree, report as JSON text + JSON.parse; `headers: {}`)", () => !validateMessage(bad.text, optsHeaders).valid],
  ["ours: small invalid (status \"running\"), parsed object, {inReplyTo}", () => !validateMessage(badObj, opts).valid],
  ["ours: small valid V26 tasks/get (full validator, no fast path), string", () => validateMessage(v26.text, opts).valid],
  ["ours: smallest valid message (36 B, no options)", () => validateMessage(validMin).valid],
  ["ours: not JSON, 1 byte ('x'): boundary + 1-issue report", () => validateMessage("x").valid],
  [`ours: not JSON, ${notJsonSmall.length} bytes (string passing)`, () => validateMessage(notJsonSmall).valid],
  [`ours: not JSON, ${notJsonBig.length} bytes (string passing)`, () => validateMessage(notJsonBig).valid],
  ["ours: 64 KiB tasks/result, string", () => validateMessage(big.text, { inReplyTo: "tasks/result" }).valid],
  ["ours: 64 KiB tasks/result, parsed object", () => validateMessage(bigObj, { inReplyTo: "tasks/result" }).valid],
  ["JS: JSON.parse(small text)", () => JSON.parse(small.text) !== null],
  ["JS: JSON.stringify(small object)", () => JSON.stringify(smallObj).length > 0],
  ["JS: JSON.stringify(64 KiB object)", () => JSON.stringify(bigObj).length > 0],
  [`JS: TextEncoder.encodeInto ${small.text.length} chars into wasm memory`, () => enc.encodeInto(small.text, mem.subarray(64)).written > 0],
  [`JS: TextDecoder + JSON.parse of the invalid message's report (${badReport.length} bytes)`, () => JSON.parse(dec.decode(mem.subarray(REPORT_AT, REPORT_AT + badReport.length))).valid === false],
  [`before: glue charCodeAt copy of ${small.text.length} chars into wasm memory`, () => glueCopy(small.text) > 0],
  [`before: glue charCodeAt copy of ${big.text.length} chars into wasm memory`, () => glueCopy(big.text) > 0],
  [`JS: TextEncoder.encodeInto ${big.text.length} chars into wasm memory`, () => enc.encodeInto(big.text, mem.subarray(64)).written > 0],
];

function timeOnce(f, n) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) if (f()) sink++;
  return Number(process.hrtime.bigint() - t0) / n;
}
function calibrate(f) {
  let n = 1;
  const end = Date.now() + 250; // warm-up
  for (;;) {
    const ns = timeOnce(f, n);
    if (ns * n > 20e6 && Date.now() > end) return Math.max(1, Math.round((RUN_MS * 1e6) / ns));
    if (ns * n < 20e6) n *= 2;
  }
}

const load0 = os.loadavg();
console.log(`# profile (median of ${RUNS} runs, cases interleaved run by run; load ${load0.map((x) => x.toFixed(2)).join(" ")})`);
// Calibrate (and warm up) every case, then time the cases round-robin so that load changes hit
// all of them alike.
const iters = CASES.map(([, f]) => calibrate(f));
const samples = CASES.map(() => []);
for (let r = 0; r < RUNS; r++) CASES.forEach(([, f], i) => samples[i].push(timeOnce(f, iters[i])));
const results = {};
CASES.forEach(([name], i) => {
  const xs = samples[i].sort((a, b) => a - b);
  const ns = xs[Math.floor(xs.length / 2)];
  results[name] = ns;
  console.log(`  ${ns.toFixed(0).padStart(9)} ns  ${name}  (runs ${xs[0].toFixed(0)}..${xs[xs.length - 1].toFixed(0)})`);
});
if (sink < 0) console.log(sink);

const i = process.argv.indexOf("--json");
if (i > 0) {
  mkdirSync(dirname(resolve(process.argv[i + 1])), { recursive: true });
  writeFileSync(
    process.argv[i + 1],
    JSON.stringify({ loadStart: load0, loadEnd: os.loadavg(), smallBytes: small.text.length, bigBytes: big.text.length, results }, null, 2),
  );
}
