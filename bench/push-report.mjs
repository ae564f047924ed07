// The "Push against polling" section of BENCHMARKS.md, from bench/results/push.json
// (bench/push.mjs). Used by bench/report.mjs.
import { commandAndMachine, int } from "./report-lib.mjs";

export function pushSection({ push }) {
  const L = [`## Push against polling: requests for ${int(push.tasks)} tasks`, ""];
  L.push(
    `${int(push.tasks)} tasks at once on an McpHttpServer in the benchmark's process (each works ${push.stepMs / 1000} s, asks for input, works ${push.stepMs / 1000} s more and completes), followed by one \`TaskClient.connect\` client over HTTP on 127.0.0.1; every HTTP request the client sends is counted. ` +
      '"polling": `push: false`; "push": the default (2026-07-28 `subscriptions/listen`, 2025-11-25 the session\'s GET stream), with a 30 s backstop poll.',
  );
  L.push("");
  L.push(...commandAndMachine({ command: `${push.tasks !== 1000 ? `PUSH_TASKS=${push.tasks} ` : ""}bash bench/run.sh push`, runs: "`node bench/push.mjs` on the installed package", date: push.date, loads: [push.loadStart, push.loadEnd], node: push.node, nproc: push.nproc, cpu: push.cpu }));
  L.push("");
  L.push("| era | mode | HTTP requests | of which `tasks/get` | per task | saved by push | other requests | wall time |");
  L.push("|---|---|---:|---:|---:|---:|---|---:|");
  for (const r of push.runs) {
    const other = Object.entries(r.byMethod)
      .filter(([m]) => m !== "tasks/get")
      .map(([m, n]) => `${m} ${int(n)}`)
      .join(", ");
    const polled = push.runs.find((p) => p.version === r.version && !p.push);
    const saved = r.push && polled ? `${(((polled.requests - r.requests) / polled.requests) * 100).toFixed(0)} %` : "";
    L.push(`| ${r.version} | ${r.push ? "push" : "polling"} | ${int(r.requests)} | ${int(r.tasksGet)} | ${(r.requests / r.tasks).toFixed(2)} | ${saved} | ${other} | ${(r.wallMs / 1000).toFixed(1)} s |`);
  }
  L.push("");
  L.push("- The `tasks/get` left with push are first polls (due 1 s after creation) of tasks whose push began later: under 2025-11-25 a task counts as pushed only from its first status notification.");
  L.push("- \"(answer)\" is the client's answer to a 2025-11-25 elicitation request. Wall times follow the machine's load more than the mode.");
  L.push("");
  return L;
}
