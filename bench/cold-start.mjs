// Cold start: fresh `node` processes, each timing (performance.now) from before the import to
// after the first validation returns. Contenders:
//   ours  await import(pkg/node.mjs) + validateMessage(text, {inReplyTo})
//   zod   await import("@modelcontextprotocol/sdk/types.js") + GetTaskResultSchema.safeParse(JSON.parse(text).result)
//   ajv   await import("ajv/dist/2020.js") + read/parse the official V25 schema + compile
//         GetTaskResult + validate(JSON.parse(text).result)
//
//   node bench/cold-start.mjs [--json bench/results/cold-start.json]   env COLD_RUNS (default 15, >= 10)
import { spawnSync } from "node:child_process";
import { writeFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import os from "node:os";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "..");

if (process.argv[2] === "--child") {
  const which = process.argv[3];
  const text = process.argv[4];
  const t0 = performance.now();
  let tImport, valid;
  if (which === "ours") {
    const { validateMessage } = await import(pathToFileURL(resolve(REPO, "pkg/node.mjs")).href);
    tImport = performance.now();
    valid = validateMessage(text, { inReplyTo: "tasks/get" }).valid;
  } else if (which === "zod") {
    const { GetTaskResultSchema } = await import("@modelcontextprotocol/sdk/types.js");
    tImport = performance.now();
    valid = GetTaskResultSchema.safeParse(JSON.parse(text).result).success;
  } else if (which === "ajv") {
    const { default: Ajv2020 } = await import("ajv/dist/2020.js");
    tImport = performance.now();
    const { schemaPath } = await import("./contenders.mjs");
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(JSON.parse(readFileSync(schemaPath("v25"), "utf8")), "urn:bench:v25");
    const validate = ajv.getSchema("urn:bench:v25#/$defs/GetTaskResult");
    valid = validate(JSON.parse(text).result);
  }
  const t1 = performance.now();
  process.stdout.write(JSON.stringify({ which, total: t1 - t0, import: tImport - t0, first: t1 - tImport, sinceProcessStart: t1, valid }));
  process.exit(0);
}

const { buildMessages } = await import("./messages.mjs");
const msg = buildMessages().find((m) => m.id === "v25-get-valid");
const RUNS = Math.max(10, Number(process.env.COLD_RUNS ?? 15));
const jsonOut = process.argv.includes("--json") ? process.argv[process.argv.indexOf("--json") + 1] : undefined;
const whichAll = ["ours", "zod", "ajv"];
const samples = Object.fromEntries(whichAll.map((w) => [w, []]));
const load0 = os.loadavg();

// Interleave the contenders so that load changes hit all of them alike.
for (let r = 0; r < RUNS; r++) {
  for (const w of whichAll) {
    const t0 = performance.now();
    const p = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", w, msg.text], { cwd: REPO, encoding: "utf8" });
    const wall = performance.now() - t0;
    if (p.status !== 0) throw new Error(`${w} child failed: ${p.stderr}`);
    const s = JSON.parse(p.stdout);
    if (s.valid !== true) throw new Error(`${w}: first validation said invalid`);
    s.wall = wall;
    samples[w].push(s);
  }
}

const q = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * p;
  const lo = Math.floor(i), hi = Math.ceil(i);
  return s[lo] + (s[hi] - s[lo]) * (i - lo);
};
const out = { node: process.version, runs: RUNS, loadStart: load0, loadEnd: os.loadavg(), contenders: {} };
console.log(`# cold start: ${RUNS} fresh node processes per contender, load ${load0.map((x) => x.toFixed(2)).join(" ")}`);
for (const w of whichAll) {
  const col = (k) => samples[w].map((s) => s[k]);
  const o = {};
  for (const k of ["total", "import", "first", "wall"]) o[k] = { median: q(col(k), 0.5), p90: q(col(k), 0.9) };
  out.contenders[w] = o;
  console.log(
    `  ${w.padEnd(5)} import→first result: median ${o.total.median.toFixed(1)} ms, p90 ${o.total.p90.toFixed(1)} ms` +
      `  (import ${o.import.median.toFixed(1)} ms, first call ${o.first.median.toFixed(1)} ms; whole process ${o.wall.median.toFixed(0)} ms)`,
  );
}
if (jsonOut) {
  mkdirSync(dirname(resolve(jsonOut)), { recursive: true });
  writeFileSync(jsonOut, JSON.stringify(out, null, 2));
}
