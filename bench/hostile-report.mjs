// The "Hostile input" section of BENCHMARKS.md, from bench/results/hostile-meta.json and
// hostile.json. Used by bench/report.mjs.

import { commandAndMachine, int, runCommand } from "./report-lib.mjs";

const mib = (b) => `${(b / 2 ** 20).toFixed(2)} MiB`;

const BOUNDS = {
  conversation: "maxTasks 10 000, maxPending 10 000, maxEventsPerTask 1000, maxIdBytes 1024, maxKeptBytes 64 MiB",
  server: "maxLiveTasksPerSession 100 (the driver's; default 10,000), maxRequestBytes 16 MiB (default)",
  scheduler: "the tracked keys only (1000 here); defaults",
};
const NAMES = { conversation: "`Conversation` (main entry)", server: "`TaskServer` (server entry: `handle`, `beginToolCall`)", scheduler: "`TaskScheduler` (main entry)" };
const counts = (c) =>
  c.which === "conversation"
    ? `${int(c.counts.tasks)} tasks kept; the polled task: ${int(c.counts.hotEvents)} events kept, ${int(c.counts.hotOmitted)} omitted; ${int(c.counts.bounded)} reports with a \`history-bound\` warning`
    : c.which === "server"
      ? `${int(c.counts.tasks)} tasks stored (${c.counts.sessions} sessions × 100 live); ${int(c.counts.refused)} task creations refused with -32010`
      : `${int(c.counts.size)} tasks tracked; ${int(c.counts.events)} events`;

export function hostileSection({ meta, hostile }) {
  const L = ["## Hostile input: bounded memory, refusals before any copy", ""];
  L.push(`Each component in a fresh child process takes ${int(hostile.n)} hostile messages (\`tests/js/hostile-drivers.mjs\`, the traffic of the soak test) under its default bounds; then a 500 MB string is refused. Wasm memory never shrinks: "after" is the high-water mark.`);
  L.push("");
  L.push(...commandAndMachine({ command: runCommand("hostile", { HOSTILE_N: hostile.n !== 1_000_000 ? hostile.n : undefined, HOSTILE_RUNS: hostile.refuse.cases[0].runs !== 7 ? hostile.refuse.cases[0].runs : undefined }), runs: "`node bench/hostile.mjs`", date: hostile.date, loads: [hostile.loadStart, hostile.loadEnd], node: hostile.node, nproc: meta.nproc, cpu: meta.cpu }));
  L.push(`- Package: \`pkg/\` and \`pkg/server/\` at ${meta.gitHead}${meta.srcDirty ? " (uncommitted changes in src/)" : ""}, wasm sha256 ${meta.wasmSha256}…${meta.srcNewerThanPkg ? " **src/ was newer than pkg/.**" : ""}`);
  L.push("");
  L.push("| component | bounds in force | time | wasm memory before → after | what it holds at the end |");
  L.push("|---|---|---:|---:|---|");
  for (const c of hostile.components) {
    L.push(`| ${NAMES[c.which]} | ${BOUNDS[c.which]} | ${(c.ms / 1000).toFixed(1)} s | ${mib(c.wasmStart)} → **${mib(c.wasmEnd)}** | ${counts(c)} |`);
  }
  L.push("");
  L.push(`A string of ${int(hostile.refuse.units)} UTF-16 units (for \`handle\`, a \`tasks/get\` request holding it), ${hostile.refuse.cases[0].runs} calls per case, median: the size is checked on the UTF-16 length before any copy into wasm memory.`);
  L.push("");
  L.push("| call | limit | answer | median | min – max | wasm memory grew |");
  L.push("|---|---|---|---:|---:|---:|");
  for (const c of hostile.refuse.cases) {
    const answer = c.name.includes("TaskServer") ? "JSON-RPC error -32600, `id: null`" : "`too-large` report";
    L.push(`| \`${c.name}\` | ${c.limit} | ${answer} | ${c.medianMs.toFixed(3)} ms | ${c.minMs.toFixed(3)} – ${c.maxMs.toFixed(3)} ms | ${c.memoryGrew} B |`);
  }
  L.push("");
  return L;
}
