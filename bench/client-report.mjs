// The "Task client: politeness" and "Task scheduler" sections of BENCHMARKS.md, from
// bench/results/client-meta.json, scheduler.json and politeness.json (bench/run.sh client).
// Used by bench/report.mjs.
import { commandAndMachine, int, ratio, runCommand, targetTable } from "./report-lib.mjs";

const opsStr = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M/s` : `${int(x / 1e3)} k/s`);
const MODE_LABEL = {
  "no-interval": "(a) no poll interval given",
  "interval-0": "(b) `pollInterval: 0`",
  "fail-rpc": "(c) every tasks/get fails: JSON-RPC -32603",
  "fail-transport": "(c) every tasks/get fails: transport error",
};

function clientEnv(sched, pol) {
  return {
    SCHED_TASKS: sched && sched.tasks !== 100_000 ? sched.tasks : undefined,
    SCHED_RUNS: sched && sched.runs !== 5 ? sched.runs : undefined,
    POLITENESS_SECONDS: pol && pol.seconds !== 60 ? pol.seconds : undefined,
    POLITENESS_SEEDS: pol && pol.seeds.join(",") !== "1,2,3,4,5" ? pol.seeds.join(",") : undefined,
  };
}

export function politenessSection({ meta, sched, pol }) {
  const L = ["## Task client: politeness against the SDK", ""];
  L.push(
    `One scripted 2025-11-25 server answers every \`tasks/get\` "still working" for ${pol.seconds} s of virtual time (\`mock.timers\`, a ${pol.latencyMs} ms round trip per request); we count the requests of our \`TaskClient.callTool\` (default scheduler: 250 ms floor, 1 s default interval, backoff to 60 s, jitter, seeds ${pol.seeds.join(", ")}) and of the SDK's \`client.experimental.tasks.callToolStream\`.\n` +
      '"SDK, resumed" is a caller that keeps polling with `getTask` at the SDK\'s pace after its stream ends (hypothetical).',
  );
  L.push("");
  L.push(...commandAndMachine({ command: runCommand("client", clientEnv(sched, pol)), runs: "`node bench/scheduler.mjs` and `node bench/politeness.mjs`", date: pol.date ?? meta.date, loads: [pol.loadStart, pol.loadEnd], node: pol.node ?? meta.node, nproc: meta.nproc, cpu: meta.cpu }));
  L.push(`- Peer: \`@modelcontextprotocol/sdk@${pol.sdk}\`. Counts are in virtual time: they do not depend on the load.`);
  L.push("");
  L.push(`| mode | client | requests in ${pol.seconds} s | of which tasks/get | first tasks/get | min gap between tasks/get | most requests in any ${pol.floorMs} ms | how it ended |`);
  L.push("|---|---|---:|---:|---:|---:|---:|---|");
  const row = (mode, who, r, o) =>
    `| ${MODE_LABEL[mode]} | ${who} | ${o.total} | ${o.gets} | ${r.firstPollAt ?? r.minFirstPollAt ?? "—"} ms | ${r.minGetGap == null ? "— (one poll)" : `${r.minGetGap} ms`} | ${r.maxPerFloorWindow} | ${o.ended} |`;
  for (const [mode, m] of Object.entries(pol.modes)) {
    const o = m.ours;
    const oEnd = o.runs[0].outcome === "still following at the end" ? `still following${o.runs[0].events.pollError ? ` (${o.runs[0].events.pollError} pollError events)` : ""}` : o.runs[0].outcome;
    L.push(row(mode, "**ours**", o, { total: `${o.totalMedian}${o.totalMin !== o.totalMax ? ` (${o.totalMin}–${o.totalMax})` : ""}`, gets: o.getsMedian, ended: oEnd }));
    const s = m.sdk;
    const sEnd = s.outcome.startsWith("the stream yielded an error") ? `**stream ended with an error at ${s.streamEndedAt} ms**; the task left running` : s.outcome;
    L.push(row(mode, "SDK", s, { total: s.total, gets: s.requests["tasks/get"] ?? 0, ended: sEnd }));
    if (m.sdkResumed) {
      const r = m.sdkResumed;
      L.push(row(mode, "SDK, resumed", r, { total: r.total, gets: r.requests["tasks/get"] ?? 0, ended: "still following" }));
    }
  }
  L.push("");
  const z = pol.modes["interval-0"];
  const fail = ["fail-rpc", "fail-transport"].map((k) => [k, pol.modes[k]]);
  L.push(`- The SDK's stream ends at the first failed \`tasks/get\` and leaves the task running; ours keeps following with backoff (${(pol.modes["fail-rpc"].ours.runs[0].getTimes ?? []).join(", ")} ms).`);
  L.push(`- With \`pollInterval: 0\` the SDK polls once per round trip (${z.sdk.requests["tasks/get"]} \`tasks/get\`); ours holds the 250 ms floor (${z.ours.getsMedian}).`);
  L.push("");
  const oursRuns = Object.values(pol.modes).flatMap((m) => m.ours.runs);
  const floorOk = oursRuns.every((r) => r.maxPerFloorWindow <= 1 && (r.minGetGap === null || r.minGetGap >= pol.floorMs) && (r.firstPollAt === null || r.firstPollAt >= pol.floorMs));
  const minGap = Math.min(...oursRuns.map((r) => r.minGetGap ?? Infinity));
  const asShipped = fail.map(([, m]) => m.sdk.total / m.ours.totalMedian);
  L.push(
    ...targetTable([
      ["Client: at most one request per task per 250 ms", floorOk, `at most ${Math.max(...oursRuns.map((r) => r.maxPerFloorWindow))} in any 250 ms; smallest gap ${minGap} ms`],
      [
        "Client: ≥ 10× fewer requests than the SDK while the server fails",
        asShipped.every((x) => x >= 10),
        `SDK ÷ ours: ${fail.map(([k, m], i) => `${k} ${ratio(asShipped[i])} as shipped (its stream ends), ${ratio(m.sdkResumed.total / m.ours.totalMedian)} resumed`).join("; ")}`,
      ],
    ]),
  );
  return L;
}

export function schedulerSection({ meta, sched, pol }) {
  const N = sched.tasks;
  const t = sched.throughput;
  const L = ["## Task scheduler", ""];
  L.push(
    `\`TaskScheduler\` through its public JS API with ${int(N)} tracked tasks (42-character keys, V25 tasks with \`pollInterval\` 2000): each operation over every task in a fresh scheduler, median of ${sched.runs} runs; memory is the wasm linear memory's growth ÷ tasks, in fresh processes (64 KiB pages, never shrinks).`,
  );
  L.push("");
  L.push(...commandAndMachine({ command: runCommand("client", clientEnv(sched, pol)), runs: "`node bench/scheduler.mjs` and `node bench/politeness.mjs`", date: sched.date, loads: [sched.loadStart, sched.loadEnd], node: sched.node, nproc: meta.nproc, cpu: meta.cpu }));
  L.push(`- Package: \`pkg/\` at ${meta.gitHead}${meta.srcDirty ? " (uncommitted changes)" : ""}, wasm sha256 ${meta.wasmSha256}…${meta.srcNewerThanPkg ? " **src/ or js/client/ was newer than pkg/.**" : ""}`);
  L.push("");
  L.push(`| operation | median for ${int(N)} | per task | throughput | runs |`);
  L.push("|---|---:|---:|---:|---:|");
  for (const p of Object.values(t)) {
    L.push(`| \`${p.label.replace(/^\(no snapshot\) /, "")}\`${p.diagnostic ? " (no snapshot)" : ""} | ${p.msMedian.toFixed(1)} ms | ${(p.nsPerOp / 1000).toFixed(2)} µs | ${opsStr(p.opsPerSec)} | ${p.msMin.toFixed(0)}–${p.msMax.toFixed(0)} ms |`);
  }
  L.push("");
  const mAll = sched.memory.all.points;
  const mBatched = sched.memory.batched.points;
  const tracked = mAll.filter((p) => p.phase === "tracked");
  const big = tracked.at(-1);
  const roundAll = mAll.find((p) => p.phase !== "tracked");
  const roundAll2 = mAll.find((p) => p.phase.startsWith("after a second round"));
  const roundBatched = mBatched.find((p) => p.phase !== "tracked");
  L.push(`| tasks | when | wasm memory growth | per task | < ${sched.targetBytesPerTask} B |`);
  L.push("|---:|---|---:|---:|---|");
  for (const p of [...tracked, roundBatched, roundAll, ...(roundAll2 ? [roundAll2] : [])]) {
    L.push(`| ${int(p.tasks)} | ${p.phase} | ${int(p.wasmBytes)} B | ${p.perTask.toFixed(1)} B | ${p.perTask < sched.targetBytesPerTask ? "yes" : "no"} |`);
  }
  L.push("");
  L.push(`- Most of the cost is the JS ↔ wasm crossing: snapshots cross as JSON text; one poll cycle (\`nextDue\` + \`observe\`) is ≈${((t.observe.nsPerOp + t.nextDue100.nsPerOp) / 1000).toFixed(1)} µs.`);
  L.push("- One `nextDue` for every due task builds the whole answer in wasm memory, which keeps that peak; `TaskClient` takes due polls in batches of 256.");
  L.push("- Below 100,000 tasks the per-task figure is dominated by 64 KiB page rounding; `tests/schedule_memory.rs` counts the bytes held natively, without it.");
  L.push("");
  L.push(...targetTable([[`Scheduler: memory per tracked task < 256 B (${int(big.tasks)} tasks)`, big.perTask < 256, `${big.perTask.toFixed(1)} B tracked, ${roundBatched.perTask.toFixed(1)} B after a round of polls in batches of 1000`]]));
  return L;
}
