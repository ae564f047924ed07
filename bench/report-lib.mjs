// Shared pieces of the BENCHMARKS.md section generators (bench/*-report.mjs, bench/report.mjs):
// number formats, the machine line every section carries, and the per-section targets table that
// bench/report.mjs gathers into the "Targets" table at the top.

export const LOAD_LIMIT = 1.5;
export const int = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString("en-US") : "—");
export const fixed = (x, d = 0) => (Number.isFinite(x) ? x.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d }) : "—");
export const ratio = (x) => (x == null || !Number.isFinite(x) ? "—" : x >= 10 ? `${x.toFixed(1)}×` : x >= 0.1 ? `${x.toFixed(2)}×` : `${x.toFixed(3)}×`);
export const kb = (b) => `${(b / 1000).toFixed(1)} KB`;
export const loadStr = (l) => (Array.isArray(l) ? l[0].toFixed(2) : "?");

/**
 * The command line and the machine line of a section.
 * @param {{ command: string, runs?: string, date: string, loads: number[][], node: string, nproc: number, cpu?: string, extra?: string }} m
 *   command: what to type (`bash bench/run.sh MODE`); runs: what it runs; loads: [start, …, end]
 *   1/5/15-minute load averages; extra: more machine facts (a browser version).
 */
export function commandAndMachine({ command, runs, date, loads, node, nproc, cpu, extra }) {
  const ls = loads.filter(Array.isArray);
  const high = ls.some((l) => l[0] >= LOAD_LIMIT);
  return [
    `- Command: \`${command}\`${runs ? ` (runs ${runs})` : ""}.`,
    `- Machine: ${date.slice(0, 16).replace("T", " ")} UTC; 1-minute load ${loadStr(ls[0])} at the start, ${loadStr(ls.at(-1))} at the end; Node ${node}; ${nproc} cores${cpu ? ` (${cpu})` : ""}${extra ? `; ${extra}` : ""}.` +
      (high ? ` **Load ${LOAD_LIMIT} or more: absolute times are pessimistic.**` : ""),
  ];
}

/** `bash bench/run.sh MODE` with the settings that differ from the defaults, as run. */
export function runCommand(mode, env = {}) {
  const set = Object.entries(env).filter(([, v]) => v !== undefined && v !== null && v !== "");
  return `${set.map(([k, v]) => `${k}=${v} `).join("")}bash bench/run.sh ${mode}`;
}

export const TARGET_HEADER = "| target | status | current figure |";
const status = (s) => (s === true ? "**met**" : s === false ? "**not met**" : s);

/** A section's targets table: rows of [target, status (true, false or a word), current figure]. */
export function targetTable(rows) {
  if (!rows.length) return [];
  return [TARGET_HEADER, "|---|---|---|", ...rows.map(([t, s, f]) => `| ${t} | ${status(s)} | ${f} |`), ""];
}
