// The "Cold start" and "Validator" sections of BENCHMARKS.md, from bench/results/meta.json,
// validate.json, cold-start.json, profile.json and cpu-profile.json (bench/run.sh validator).
// Used by bench/report.mjs.
import { commandAndMachine, int, ratio, runCommand, targetTable } from "./report-lib.mjs";

const ops = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M` : x >= 1e4 ? `${(x / 1e3).toFixed(1)} k` : `${(x / 1e3).toFixed(2)} k`);

function machine(meta, loads, runs, env) {
  return commandAndMachine({ command: runCommand("validator", env), runs, date: meta.date, loads, node: meta.node, nproc: meta.nproc, cpu: meta.cpu });
}

function packageLine(meta) {
  return (
    `- Package: \`pkg/\` at ${meta.gitHead}${meta.srcDirty ? " (uncommitted changes in src/)" : ""}, wasm sha256 ${meta.wasmSha256}…` +
    (meta.srcNewerThanPkg ? " **src/ was newer than pkg/: the figures are of the package as built.**" : "") +
    `; peers \`@modelcontextprotocol/sdk@${meta.sdk}\` (zod ${meta.zod}), \`ajv@${meta.ajv}\`.`
  );
}

export function coldStartSection({ meta, cold }) {
  const L = ["## Cold start (Node)", ""];
  L.push(`Time from before \`await import(…)\` to the first validation of a small V25 \`tasks/get\` answer, in ${cold.runs} fresh \`node\` processes per contender (interleaved).`);
  L.push("");
  L.push(...machine(meta, [cold.loadStart, cold.loadEnd], "`node bench/cold-start.mjs` among the validator benchmarks", { COLD_RUNS: cold.runs !== 15 ? cold.runs : undefined }));
  L.push("");
  L.push("| contender | import → first result, median | p90 | import | first call | whole process, median |");
  L.push("|---|---:|---:|---:|---:|---:|");
  const label = {
    ours: "**ours**: `import(pkg/node.mjs)` + `validateMessage`",
    zod: "SDK: `import(\"@modelcontextprotocol/sdk/types.js\")` + `GetTaskResultSchema.safeParse`",
    ajv: "ajv: `import(\"ajv/dist/2020.js\")` + compile the V25 schema + validate",
  };
  for (const [w, c] of Object.entries(cold.contenders)) {
    L.push(`| ${label[w] ?? w} | ${c.total.median.toFixed(1)} ms | ${c.total.p90.toFixed(1)} ms | ${c.import.median.toFixed(1)} ms | ${c.first.median.toFixed(1)} ms | ${c.wall.median.toFixed(0)} ms |`);
  }
  L.push("");
  const oc = cold.contenders.ours;
  L.push(...targetTable([["Cold start in Node < 20 ms (import → first result)", oc.total.median < 20, `median ${oc.total.median.toFixed(1)} ms, p90 ${oc.total.p90.toFixed(1)} ms`]]));
  return L;
}

export function validatorSection({ meta, val, prof, cpu }) {
  const L = ["## Validator: `validateMessage` against zod and ajv", ""];
  L.push(
    "Each contender gets the same JSON-RPC answer: ours `validateMessage(text, {inReplyTo})` (envelope, version, result shape and the semantic rules), zod `Schema.safeParse(JSON.parse(text).result)`, ajv `validate(JSON.parse(text).result)` (formats not checked); object input: the same on the parsed object.\n" +
      `Warm-up, then ${val.runs} runs of ≈${val.runMs} ms per contender, interleaved; median ns per call.`,
  );
  L.push("");
  L.push(...machine(meta, [val.loadStart, val.loadEnd], "`node bench/validate.mjs`, `bench/profile.mjs`, `bench/cpu-profile.mjs`", { BENCH_RUNS: val.runs !== 7 ? val.runs : undefined, BENCH_MS: val.runMs !== 150 ? val.runMs : undefined }));
  L.push(packageLine(meta));
  L.push("");
  L.push("| message | bytes | input | ours ns | zod ns | ajv ns | ours ÷ zod | ours ÷ ajv |");
  L.push("|---|---:|---|---:|---:|---:|---:|---:|");
  const ns = (c) => (c?.nsPerOp ? int(c.nsPerOp) : "—");
  for (const r of val.results) {
    for (const input of ["str", "obj"]) {
      const c = (w) => r.contenders[`${w}-${input}`];
      if (!c("ours")) continue;
      const wrong = ["ours", "zod", "ajv"].some((w) => c(w) && !c(w).verdictOk) ? " **a verdict was wrong: not timed**" : "";
      const rz = input === "str" ? r.ratios.strVsZod : r.ratios.objVsZod;
      const ra = input === "str" ? r.ratios.strVsAjv : r.ratios.objVsAjv;
      L.push(`| ${r.title}${wrong} | ${int(r.bytes)} | ${input === "str" ? "text" : "object"} | ${ns(c("ours"))} | ${ns(c("zod"))} | ${ns(c("ajv"))} | ${ratio(rz)} | ${ratio(ra)} |`);
    }
  }
  L.push("");
  L.push("Ratio = our calls per second ÷ theirs (> 1: ours is faster); V26 has no zod schema in the SDK.");
  L.push("");

  const by = Object.fromEntries(val.results.map((r) => [r.id, r]));
  const drop = "dropped: end to end instead ([validator-boundary.md](docs/decisions/validator-boundary.md))";
  const rows = [];
  const r25 = by["v25-get-valid"];
  if (r25) rows.push(["Valid small V25 `tasks/get`, text: ≥ 1× JSON.parse + zod", drop, ratio(r25.ratios.strVsZod)]);
  const inv = ["v25-get-bad-status", "v25-get-bad-ttl"].map((k) => by[k]).filter(Boolean);
  if (inv.length) rows.push(["Invalid V25 `tasks/get`, text: ≥ 2× JSON.parse + zod", drop, inv.map((r) => `${r.id} ${ratio(r.ratios.strVsZod)}`).join(", ")]);
  const lst = by["v25-list-100"];
  if (lst) rows.push(["100-task `tasks/list`, text: ≥ 1.5× JSON.parse + zod", lst.ratios.strVsZod >= 1.5, ratio(lst.ratios.strVsZod)]);
  const objRows = val.results.filter((r) => r.ratios.objVsZod != null);
  if (objRows.length) rows.push(["Parsed object: ≥ 1× zod", drop, objRows.map((r) => `${r.id} ${ratio(r.ratios.objVsZod)}`).join(", ")]);
  L.push(...targetTable(rows));

  if (prof) {
    const p = prof.results;
    L.push(`### Where the time goes (small V25 \`tasks/get\`, ${prof.smallBytes} bytes)`);
    L.push("");
    L.push(`Differential timings (\`bench/profile.mjs\`, median of runs)${cpu ? " and the share of each stage in a V8 sampling profile of a names-kept build (`bench/cpu-profile.mjs`)" : ""}.`);
    L.push("");
    L.push("| measurement | ns per call |");
    L.push("|---|---:|");
    for (const [k, v] of Object.entries(p)) L.push(`| ${k.replace(/^before: /, "for comparison: ")} | ${int(v)} |`);
    L.push("");
    if (cpu) {
      const cols = [["string", "valid, text"], ["object", "valid, object"], ["invalid", "invalid, text"], ["not-json", '`"x"`']].filter(([k]) => cpu.inputs[k]);
      const keys = Object.keys(cpu.inputs.string.stages).filter((k) => cols.some(([c]) => (cpu.inputs[c]?.stages[k] ?? 0) >= 0.05));
      L.push(`| stage (share of time in \`validateMessage\`) | ${cols.map(([, t]) => t).join(" | ")} |`);
      L.push(`|---|${cols.map(() => "---:").join("|")}|`);
      for (const k of keys) L.push(`| ${k} | ${cols.map(([c]) => (cpu.inputs[c]?.stages[k] !== undefined ? `${cpu.inputs[c].stages[k].toFixed(1)}%` : "—")).join(" | ")} |`);
      L.push("");
    }
    const g = (prefix) => p[Object.keys(p).find((x) => x.startsWith(prefix))];
    const text = g("ours: small valid, string, {inReplyTo}");
    const obj = g("ours: small valid, parsed object");
    const big = g("ours: 64 KiB tasks/result, string");
    const bigObj = g("ours: 64 KiB tasks/result, parsed object");
    L.push(`- Pass the text when you have it: a parsed object crosses as its \`JSON.stringify\` text (small answer ${int(obj)} ns against ${int(text)} ns from text; 64 KiB result ${int(bigObj)} against ${int(big)} ns).`);
    L.push("- V25 `tasks/get` and `tasks/list` answers are read by a byte scanner with no `Value` tree; other messages (V26, requests, the 64 KiB result) go through the full validator.");
    L.push("- The wrapper holds no rule: one byte path, reports as JSON text parsed once ([validator-boundary.md](docs/decisions/validator-boundary.md)).");
    L.push("");
  }
  return L;
}
