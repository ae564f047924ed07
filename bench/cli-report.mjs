// The "CLI" section of BENCHMARKS.md, from bench/results/cli.json (bench/cli.mjs). Used by
// bench/report.mjs.

import { commandAndMachine, int, runCommand } from "./report-lib.mjs";

const mib = (kb) => `${(kb / 1024).toFixed(0)} MiB`;

export function cliSection({ cli }) {
  const L = [];
  const t = cli.transcript;
  const r = cli.results;
  L.push(`## CLI: \`mcp-tasks check\` on a ${(t.bytes / 1e6).toFixed(0)} MB transcript`);
  L.push("");
  L.push(`Each command a fresh \`node\` process on a generated transcript (\`${t.command}\`: ${int(t.lines)} lines, ${t.tasks} tasks polled ${int(t.polls)} times), stdout to a file; ${cli.runs} runs per command, interleaved, median. Peak memory: the process's maximum resident set size.`);
  L.push("");
  L.push(...commandAndMachine({ command: runCommand("cli", { CLI_BYTES: t.bytes < 49_000_000 || t.bytes > 51_000_000 ? cli.bytes ?? Math.round(t.bytes / 1e6) * 1e6 : undefined, CLI_RUNS: cli.runs !== 3 ? cli.runs : undefined }), runs: "`node bench/cli.mjs`", date: cli.date, loads: [cli.loadStart, cli.loadEnd], node: cli.node, nproc: cli.nproc, cpu: cli.cpu }));
  L.push("");
  L.push("| command | exit | time (median) | runs | peak RSS (median) | output | longest output line |");
  L.push("|---|---:|---:|---:|---:|---:|---:|");
  for (const x of Object.values(r)) {
    L.push(
      `| \`${x.shown}\` | ${[...new Set(x.codes)].join("/")} | ${(x.medianMs / 1000).toFixed(2)} s | ${x.ms.map((m) => (m / 1000).toFixed(2)).join(", ")} s | **${mib(x.medianRssKB)}** | ${int(x.outBytes)} bytes, ${int(x.outLines)} line${x.outLines === 1 ? "" : "s"} | ${int(x.longestLine)} bytes |`,
    );
  }
  L.push("");
  L.push("- The input is read in 256 KiB pieces and split into lines: the peak is Node, the wasm module and the `Conversation`'s bounded state (at most 1000 events per task), not the file. `tests/js/cli.test.mjs` holds it.");
  L.push("- `--json` is NDJSON: one line per message with issues, one per task, a summary per file; the longest line is a task's timeline.");
  L.push("");
  return L;
}
