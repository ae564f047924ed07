// A/B of two builds of the package: validateMessage(text, {inReplyTo}) of each, and JSON.parse +
// the SDK's zod schema as the yardstick, interleaved run by run in one process (the machine is
// shared: two processes run minutes apart see different loads).
//
//   node bench/ab-validate.mjs DIR_A DIR_B [--only ID[,ID]]   (DIR: a built pkg/, or a copy)
//   env BENCH_RUNS (default 9), BENCH_MS (ms per timed run, default 150), AB_SAME=0 (experiments:
//   do not require the same reports of A and B), AB_INPUT=object (the parsed message, parsed
//   once outside the loop, instead of its text; zod then takes the parsed `result` alone)
//
// Prints per message the median ns/op of each (and the fastest–slowest run), and each build's
// ratio to zod (zod's ns ÷ ours: > 1, we are faster), computed run by run then the median.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import os from "node:os";
import { buildMessages } from "./messages.mjs";
import { makeZod } from "./contenders.mjs";

const args = process.argv.slice(2);
const at = args.indexOf("--only");
const only = at >= 0 ? args.splice(at, 2)[1].split(",") : null;
const [dirA, dirB] = args;
if (!dirA || !dirB) throw new Error("usage: node bench/ab-validate.mjs DIR_A DIR_B [--only ID,ID]");
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const RUN_MS = Number(process.env.BENCH_MS ?? 150);
const OBJECT = process.env.AB_INPUT === "object";

const load = async (dir) => (await import(pathToFileURL(resolve(dir, "node.mjs")).href)).validateMessage;
const A = await load(dirA);
const B = await load(dirB);
const zod = await makeZod();

// Distinct function literals: no shared type feedback.
const loops = {
  A(m, n) {
    let ok = 0;
    for (let i = 0; i < n; i++) if (A(m.input, m.opts).valid) ok++;
    return ok;
  },
  B(m, n) {
    let ok = 0;
    for (let i = 0; i < n; i++) if (B(m.input, m.opts).valid) ok++;
    return ok;
  },
  zod(m, n) {
    let ok = 0;
    for (let i = 0; i < n; i++) if (m.schema.safeParse(OBJECT ? m.input.result : JSON.parse(m.input).result).success) ok++;
    return ok;
  },
};

function time(loop, m, n) {
  const t0 = process.hrtime.bigint();
  const ok = loop(m, n);
  const ns = Number(process.hrtime.bigint() - t0);
  if (ok !== (m.expectValid ? n : 0)) throw new Error(`wrong verdict: ${ok}/${n}`);
  return ns / n;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (x) => Math.round(x).toLocaleString("en-US");

console.log(`# A ${dirA}  B ${dirB}; ${OBJECT ? "object" : "string"} input; node ${process.version}, load ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}, ${RUNS} runs x ~${RUN_MS} ms`);
for (const m of buildMessages()) {
  if (!m.zod || (only && !only.includes(m.id))) continue;
  m.schema = zod(m.zod);
  m.opts = { inReplyTo: m.inReplyTo };
  m.input = OBJECT ? JSON.parse(m.text) : m.text;
  // Same reports from both builds.
  if (process.env.AB_SAME !== "0" && JSON.stringify(A(m.input, m.opts)) !== JSON.stringify(B(m.input, m.opts))) throw new Error(`${m.id}: A and B differ`);
  const n = {};
  for (const k of Object.keys(loops)) {
    let c = 1;
    const t0 = Date.now();
    while (Date.now() - t0 < 300) c = Math.min(c * 2, 1 << 22), time(loops[k], m, c);
    n[k] = Math.max(1, Math.round((RUN_MS * 1e6) / time(loops[k], m, c)));
  }
  const ns = { A: [], B: [], zod: [] };
  for (let r = 0; r < RUNS; r++) for (const k of Object.keys(loops)) ns[k].push(time(loops[k], m, n[k]));
  const ratio = (k) => median(ns[k].map((x, i) => ns.zod[i] / x)).toFixed(2);
  const col = (k) => `${k} ${fmt(median(ns[k]))} ns (${fmt(Math.min(...ns[k]))}–${fmt(Math.max(...ns[k]))})`;
  console.log(`${m.id}: ${col("A")}, ${col("B")}, ${col("zod")}; vs zod A ${ratio("A")}x B ${ratio("B")}x`);
}
