// The "Task store" section of BENCHMARKS.md, from bench/results/store-meta.json, store.json,
// store-memory.json and store-profile.json (bench/run.sh store). Used by bench/report.mjs.
import { commandAndMachine, int, ratio, runCommand, targetTable } from "./report-lib.mjs";

const ops = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M` : x >= 1e4 ? `${(x / 1e3).toFixed(1)} k` : `${(x / 1e3).toFixed(2)} k`);
const us = (ns) => (ns >= 10_000 ? (ns / 1000).toFixed(1) : (ns / 1000).toFixed(2));
const ms = (x) => (x >= 10_000 ? int(x) : x >= 100 ? x.toFixed(0) : x.toFixed(1));

export function storeSection({ meta, store, mem, prof }) {
  const L = ["## Task store: our `TaskStore` against the SDK's `InMemoryTaskStore`", ""];
  const o = store.ops;
  const list = store.list ?? [];
  L.push(
    `Both stores in one process, with the same 2025-11-25 task (ttl 1 h, one session): single operations (warm-up, then ${o?.runs ?? "?"} interleaved runs of ≈${o?.runMs ?? "?"} ms, median), paging through every task, and memory per live task. ` +
      "The SDK's methods are async: its figures include one `await` per call, as its callers pay.",
  );
  L.push("");
  const env = {
    STORE_LIST_SIZES: list.length && list.map((e) => e.tasks).join(",") !== "10000,100000" ? list.map((e) => e.tasks).join(",") : undefined,
    STORE_MEMORY_SIZES: mem.contenders.ours.points.map((p) => p.tasks).join(",") !== "1000,10000,100000" ? mem.contenders.ours.points.map((p) => p.tasks).join(",") : undefined,
  };
  const loads = [meta.loadStart, meta.loadEnd ?? mem.loadEnd];
  L.push(...commandAndMachine({ command: runCommand("store", env), runs: "`node bench/store.mjs`, `bench/store-memory.mjs`, `bench/store-profile.mjs`", date: store.date, loads, node: store.node, nproc: meta.nproc, cpu: meta.cpu }));
  L.push(`- Package: \`pkg/server/\` at ${meta.gitHead}${meta.srcDirty ? " (uncommitted changes)" : ""}, wasm sha256 ${meta.wasmSha256}…${meta.srcNewerThanPkg ? " **src/ or js/server/ was newer than pkg/server/.**" : ""}; peer \`@modelcontextprotocol/sdk@${store.sdk}\`; ours \`new TaskStore(${JSON.stringify(store.workload.oursOptions)})\`.`);
  L.push("");

  if (o) {
    L.push(`| operation | ours ops/s | ours µs/op (runs) | SDK ops/s | SDK µs/op (runs) | ours ÷ SDK |`);
    L.push("|---|---:|---:|---:|---:|---:|");
    for (const [op, e] of Object.entries(o.results)) {
      L.push(`| ${op === "get-miss" ? "get after another task's write" : op} | ${ops(e.ours.opsPerSec)} | ${us(e.ours.nsPerOp)} (${us(e.ours.minNs)}–${us(e.ours.maxNs)}) | ${ops(e.sdk.opsPerSec)} | ${us(e.sdk.nsPerOp)} (${us(e.sdk.minNs)}–${us(e.sdk.maxNs)}) | ${ratio(e.ratio)} |`);
    }
    L.push("");
  }
  if (list.length) {
    L.push(`Paging every task of the session from no cursor (ours: page ${store.oursDefaultPageSize} by default, and the SDK's fixed ${store.sdkPageSize}):`);
    L.push("");
    L.push("| tasks | contender | page size | pages | total, median | runs | per task | SDK time ÷ this |");
    L.push("|---:|---|---:|---:|---:|---|---:|---:|");
    for (const e of list) {
      for (const [name, c] of Object.entries(e.contenders)) {
        const label = name === "sdk" ? "SDK `listTasks`" : `**ours** \`list\`${name === "ours-10" ? ` with \`limit: ${c.pageSize}\`` : ""}`;
        const r = name === "sdk" ? "" : ratio(name === "ours-10" ? e.ratioSamePage : e.ratioDefault);
        L.push(`| ${int(e.tasks)} | ${label} | ${c.pageSize} | ${int(c.pages)} | ${ms(c.ms)} ms | ${c.runs}: ${ms(c.minMs)}–${ms(c.maxMs)} ms | ${c.usPerTask.toFixed(2)} µs | ${r} |`);
      }
    }
    L.push("");
  }
  const mo = mem.contenders.ours.points;
  const mOwn = mem.contenders["sdk-own-request"].points;
  const mShared = mem.contenders["sdk-shared-request"].points;
  L.push("Memory per live task (ours: wasm memory growth, 64 KiB pages; SDK: JS heap after `gc()`, each task with its own request object, or all sharing one):");
  L.push("");
  L.push("| tasks | **ours** per task | ours JS heap per task | SDK, own request | SDK, shared request |");
  L.push("|---:|---:|---:|---:|---:|");
  mo.forEach((p, i) => L.push(`| ${int(p.tasks)} | **${int(p.wasmPerTask)} B** | ${int(p.heapPerTask)} B | ${int(mOwn[i].heapPerTask)} B | ${int(mShared[i].heapPerTask)} B |`));
  L.push("");

  if (prof) {
    const names = Object.keys(prof.ops);
    L.push("### Where our time goes");
    L.push("");
    L.push(`V8 sampling profile (\`node --cpu-prof\`, ${prof.seconds} s per operation) of a names-kept build: share of each stage in the operation; ns under the profiler.`);
    L.push("");
    L.push(`| stage | ${names.map((n) => `${n} (${int(prof.ops[n].nsPerOp)} ns/${n === "list" ? "task" : "call"})`).join(" | ")} |`);
    L.push(`|---|${names.map(() => "---:").join("|")}|`);
    for (const k of Object.keys(prof.ops[names[0]].stages)) L.push(`| ${k} | ${names.map((n) => `${prof.ops[n].stages[k].toFixed(1)}%`).join(" | ")} |`);
    L.push("");
    if (prof.differential) {
      L.push("| differential timing on `pkg/server/` (no profiler) | ns/op |");
      L.push("|---|---:|");
      for (const [k, v] of Object.entries(prof.differential)) L.push(`| ${k} | ${int(v)} |`);
      L.push("");
    }
  }
  L.push("- `get` answers the task's kept answer when no write happened since; after a write to another task it checks the task's revision in wasm first (\"get after another task's write\").");
  L.push("- `create` and `complete` pay the crossing: the answer's JSON text parsed once in JS, the result's text checked once in the core.");
  L.push("- Paging is O(page) for ours (a keyset seek by the cursor) and O(N) per page for the SDK, so its ratio grows with the task count.");
  L.push("");
  const rows = [];
  if (o) {
    const r = Object.entries(o.results).filter(([k]) => k !== "get-miss");
    // Met, or dropped for the end-to-end figure: the task shapes have one owner, the core, whose
    // answer `create` and `complete` parse (docs/decisions/store-boundary.md).
    const met = r.every(([, e]) => e.ratio >= 0.5);
    rows.push(["Store: create, get, complete ≥ 0.5× the SDK's throughput", met || "dropped: end to end instead ([store-boundary.md](docs/decisions/store-boundary.md))", r.map(([k, e]) => `${k} ${ratio(e.ratio)}`).join(", ")]);
  }
  const big = list.find((e) => e.tasks === 100_000) ?? list.at(-1);
  if (big) rows.push([`Store: paging all ${int(big.tasks)} tasks ≥ 100× faster than the SDK`, big.ratioDefault >= 100 && big.ratioSamePage >= 100, `${ratio(big.ratioDefault)} at the default page sizes, ${ratio(big.ratioSamePage)} at page size ${store.sdkPageSize}`]);
  const last = mo.at(-1);
  rows.push([`Store: < 1 KB of wasm memory per working task`, last.wasmPerTask < 1000, `${int(last.wasmPerTask)} B at ${int(last.tasks)} tasks`]);
  L.push(...targetTable(rows));
  return L;
}
