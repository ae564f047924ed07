// The "Inspector" section of BENCHMARKS.md, from bench/results/inspector.json (bench/inspector.mjs).
// Used by bench/report.mjs.

import { commandAndMachine, int, runCommand } from "./report-lib.mjs";

const ms = (x) => `${int(x)} ms`;

export function inspectorSection({ inspector: b }) {
  const L = ["## Inspector: large transcripts in Chromium", ""];
  L.push(
    `A fresh page of \`www/\` per run (served by \`scripts/serve.mjs\`, headless Chromium), a generated 2025-11-25 transcript chosen in the file input (\`bench/inspector-transcript.mjs\`, seed ${b.seed}); ${b.runs} runs per size, median. ` +
      '"First rows": change event → first task rows drawn; "all": → the whole file read in the worker and drawn. Long tasks: the longest main-thread task over 50 ms (0: none).',
  );
  L.push("");
  const sizes = b.results.map((r) => r.bytes).join(",");
  L.push(...commandAndMachine({ command: runCommand("inspector", { INSPECTOR_SIZES: sizes !== "5000000,50000000" ? sizes : undefined, INSPECTOR_RUNS: b.runs !== 3 ? b.runs : undefined }), runs: "`node bench/inspector.mjs`", date: b.date, loads: [b.loadStart, b.loadEnd], node: b.node, nproc: b.nproc, cpu: b.cpu, extra: `Chromium ${b.chromium}, commit ${b.gitHead}` }));
  L.push("");
  L.push("| transcript | messages | tasks | first rows (median) | all (median) | runs: first / all | longest main-thread task: all / after the first rows | elements in the page |");
  L.push("|---|---:|---:|---:|---:|---|---:|---:|");
  for (const r of b.results) {
    L.push(`| ${(r.bytes / 1e6).toFixed(1)} MB | ${int(r.lines)} | ${int(r.tasks)} | **${ms(r.medianFirstMs)}** | **${ms(r.medianDoneMs)}** | ${r.firstMs.map(int).join(", ")} / ${r.doneMs.map(int).join(", ")} ms | ${ms(r.medianLongestTaskMs)} / ${r.medianLongestAfterFirstMs === undefined ? "?" : ms(r.medianLongestAfterFirstMs)} | ${int(r.elements)} |`);
  }
  L.push("");
  L.push("- The page draws only the task rows in view, one card and the summary: the element count does not follow the file ([why](docs/decisions/inspector-large-transcripts.md)).");
  L.push("- The reading runs in a Web Worker on a stream of the file; the time to the whole file follows `Conversation.observe` of every message and the machine's load.");
  L.push("");
  return L;
}
