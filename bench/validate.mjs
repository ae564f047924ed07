// Throughput: ours (mcp-tasks-wasm) vs JSON.parse + the SDK's zod schemas vs JSON.parse + ajv
// compiled from the official JSON Schemas, on the same JSON-RPC responses.
//
//   node bench/validate.mjs [--json bench/results/validate.json] [--only ID[,ID]]
//   env BENCH_RUNS (default 7, at least 5), BENCH_MS (target ms per timed run, default 150)
//
// Contenders (string input = the message as received on the wire):
//   ours-str  validateMessage(text, {inReplyTo})
//   zod-str   SDKSchema.safeParse(JSON.parse(text).result)
//   ajv-str   validate(JSON.parse(text).result)     (ajv compiled once, before timing)
// and with the message already parsed (obj = JSON.parse(text), done once):
//   ours-obj  validateMessage(obj, {inReplyTo})
//   zod-obj   SDKSchema.safeParse(obj.result)
//   ajv-obj   validate(obj.result)
// zod and ajv check the `result` part only; ours checks the whole envelope, the version, the
// result shape for the method and the semantic rules (it does strictly more work).
// The SDK speaks 2025-11-25 only: V26 messages are ours vs ajv.
//
// Before timing, every contender's verdict on every message is checked against the expected one
// and printed; a contender that gives the wrong verdict is not timed (reported as such).
import { writeFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import os from "node:os";
import { buildMessages } from "./messages.mjs";
import { makeAjv, makeZod, makeOurs } from "./contenders.mjs";
import { argVal, RUNS, RUN_MS, WARM_MS } from "./settings.mjs";

const only = argVal("--only")?.split(",");
const jsonOut = argVal("--json");

const validateMessage = await makeOurs();
const zodSchema = await makeZod();
const ajvFor = await makeAjv();

// One loop function per contender (distinct function literals: no shared type feedback).
// Each returns how many ops said "valid", which is checked, so nothing is optimised away.
const LOOPS = {
  "ours-str"(m, n) {
    const text = m.text, opts = m.opts;
    let ok = 0;
    for (let i = 0; i < n; i++) if (validateMessage(text, opts).valid) ok++;
    return ok;
  },
  "zod-str"(m, n) {
    const text = m.text, schema = m.zodSchema;
    let ok = 0;
    for (let i = 0; i < n; i++) if (schema.safeParse(JSON.parse(text).result).success) ok++;
    return ok;
  },
  "ajv-str"(m, n) {
    const text = m.text, validate = m.ajvValidate;
    let ok = 0;
    for (let i = 0; i < n; i++) if (validate(JSON.parse(text).result)) ok++;
    return ok;
  },
  "ours-obj"(m, n) {
    const obj = m.obj, opts = m.opts;
    let ok = 0;
    for (let i = 0; i < n; i++) if (validateMessage(obj, opts).valid) ok++;
    return ok;
  },
  "zod-obj"(m, n) {
    const obj = m.obj, schema = m.zodSchema;
    let ok = 0;
    for (let i = 0; i < n; i++) if (schema.safeParse(obj.result).success) ok++;
    return ok;
  },
  "ajv-obj"(m, n) {
    const obj = m.obj, validate = m.ajvValidate;
    let ok = 0;
    for (let i = 0; i < n; i++) if (validate(obj.result)) ok++;
    return ok;
  },
};

// Verdict of one call, for the pre-flight check.
function verdict(name, m) {
  switch (name) {
    case "ours-str": {
      const r = validateMessage(m.text, m.opts);
      return { valid: r.valid, detail: r.issues.filter((i) => i.severity === "error").map((i) => i.code).join(",") };
    }
    case "ours-obj": {
      const r = validateMessage(m.obj, m.opts);
      return { valid: r.valid, detail: r.issues.filter((i) => i.severity === "error").map((i) => i.code).join(",") };
    }
    case "zod-str":
    case "zod-obj": {
      const r = m.zodSchema.safeParse(name === "zod-str" ? JSON.parse(m.text).result : m.obj.result);
      return { valid: r.success, detail: r.success ? "" : r.error.issues.map((i) => `${i.code}@/${i.path.join("/")}`).join(",") };
    }
    case "ajv-str":
    case "ajv-obj": {
      const v = m.ajvValidate;
      const ok = v(name === "ajv-str" ? JSON.parse(m.text).result : m.obj.result);
      return { valid: ok, detail: ok ? "" : (v.errors ?? []).map((e) => `${e.keyword}@${e.instancePath}`).join(",") };
    }
  }
}

function timeOnce(loop, m, n) {
  const t0 = process.hrtime.bigint();
  const ok = loop(m, n);
  const ns = Number(process.hrtime.bigint() - t0);
  if (ok !== (m.expectValid ? n : 0)) throw new Error(`verdict changed during timing: ${ok}/${n}`);
  return ns;
}

// Find n so that one timed run takes about RUN_MS, warming up on the way.
function calibrate(loop, m) {
  let n = 1;
  let ns = 0;
  const t0 = Date.now();
  for (;;) {
    ns = timeOnce(loop, m, n);
    if (ns > 20e6 && Date.now() - t0 >= WARM_MS) break;
    if (ns < 20e6) n *= 2;
  }
  return Math.max(1, Math.round((n * RUN_MS * 1e6) / ns));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const messages = buildMessages().filter((m) => !only || only.includes(m.id));
const load0 = os.loadavg();
console.log(`# validate: node ${process.version}, ${os.cpus().length} cpus, load ${load0.map((x) => x.toFixed(2)).join(" ")}, ${RUNS} runs x ~${RUN_MS} ms, warm-up >= ${WARM_MS} ms`);

const results = [];
for (const m of messages) {
  m.obj = JSON.parse(m.text);
  m.opts = { inReplyTo: m.inReplyTo };
  m.zodSchema = m.zod ? zodSchema(m.zod) : null;
  m.ajvValidate = ajvFor(m.ajv);
  const names = Object.keys(LOOPS).filter((n) => !n.startsWith("zod") || m.zodSchema);

  console.log(`\n## ${m.id}: ${m.title} (${m.text.length} bytes, expected ${m.expectValid ? "valid" : "invalid"})`);
  const entry = { id: m.id, title: m.title, bytes: Buffer.byteLength(m.text), expectValid: m.expectValid, contenders: {} };
  const timed = [];
  for (const name of names) {
    const v = verdict(name, m);
    const good = v.valid === m.expectValid;
    console.log(`  verdict ${name.padEnd(8)} ${v.valid ? "valid  " : "invalid"} ${good ? "ok" : "WRONG: not timed"}${v.detail ? `  (${v.detail})` : ""}`);
    entry.contenders[name] = { verdict: v.valid, verdictOk: good, detail: v.detail };
    if (good) timed.push(name);
  }
  const n = {};
  for (const name of timed) n[name] = calibrate(LOOPS[name], m);
  const samples = Object.fromEntries(timed.map((k) => [k, []]));
  for (let r = 0; r < RUNS; r++) {
    for (const name of timed) samples[name].push(timeOnce(LOOPS[name], m, n[name]) / n[name]);
  }
  for (const name of timed) {
    const nsOp = median(samples[name]);
    const c = entry.contenders[name];
    c.nsPerOp = nsOp;
    c.opsPerSec = 1e9 / nsOp;
    c.minNs = Math.min(...samples[name]);
    c.maxNs = Math.max(...samples[name]);
    c.iterations = n[name];
    console.log(`  ${name.padEnd(8)} ${c.opsPerSec.toFixed(0).padStart(10)} ops/s ${nsOp.toFixed(0).padStart(9)} ns/op  (runs ${c.minNs.toFixed(0)}..${c.maxNs.toFixed(0)} ns)`);
  }
  const ratio = (a, b) => (entry.contenders[a]?.opsPerSec && entry.contenders[b]?.opsPerSec ? entry.contenders[a].opsPerSec / entry.contenders[b].opsPerSec : null);
  entry.ratios = {
    strVsZod: ratio("ours-str", "zod-str"),
    strVsAjv: ratio("ours-str", "ajv-str"),
    objVsZod: ratio("ours-obj", "zod-obj"),
    objVsAjv: ratio("ours-obj", "ajv-obj"),
  };
  const f = (x) => (x == null ? "n/a" : `${x.toFixed(2)}x`);
  console.log(`  ours/zod: string ${f(entry.ratios.strVsZod)}, object ${f(entry.ratios.objVsZod)};  ours/ajv: string ${f(entry.ratios.strVsAjv)}, object ${f(entry.ratios.objVsAjv)}`);
  results.push(entry);
}
const load1 = os.loadavg();
console.log(`\n# load at end: ${load1.map((x) => x.toFixed(2)).join(" ")}`);

if (jsonOut) {
  mkdirSync(dirname(jsonOut), { recursive: true });
  writeFileSync(
    jsonOut,
    JSON.stringify({ node: process.version, cpus: os.cpus().length, runs: RUNS, runMs: RUN_MS, loadStart: load0, loadEnd: load1, results }, null, 2),
  );
}
