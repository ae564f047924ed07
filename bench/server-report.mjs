// The "HTTP server" section of BENCHMARKS.md, from bench/results/server.json and
// server-storage.json (bench/server.mjs). Used by bench/report.mjs.
import { relative } from "node:path";
import { commandAndMachine, fixed, ratio, targetTable } from "./report-lib.mjs";

const env = (r, extra = {}) => Object.entries({ SERVER_ROUNDS: r.rounds !== 5 ? r.rounds : undefined, SERVER_SECONDS: r.seconds !== 3 ? r.seconds : undefined, ...extra }).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${v} `).join("");

export function serverSection({ server, storage }) {
  const L = ["## HTTP server: ours against the SDK's", ""];
  const rows = [];
  if (server) {
    const before = server.before ? ` --before ${server.before}` : "";
    L.push(
      "Closed loops of `tools/call` as a task → `tasks/get` → `tasks/result` (2025-11-25 sessions on keep-alive sockets; 2026-07-28 ours only, stateless), against `examples/conformance-server.mjs` (memory storage) and the SDK's McpServer with `InMemoryTaskStore` (`bench/sdk-server.mjs`).\n" +
        `Each measurement on a fresh server process, 1 s warm-up and ${server.seconds} s counted, rounds interleaved; medians of ${server.rounds} rounds; CPU is the server process's.`,
    );
    L.push("");
    L.push(...commandAndMachine({ command: `${env(server, { SERVER_BEFORE: server.before || undefined })}SERVER_STORAGE= bash bench/run.sh server`, runs: `\`node bench/server.mjs --rounds ${server.rounds} --seconds ${server.seconds}${before}\`, ${server.wallSeconds} s`, date: server.date, loads: [server.loadStart, server.loadEnd], node: server.node, nproc: server.nproc, cpu: server.cpu }));
    L.push(`- Peer: \`@modelcontextprotocol/sdk@${server.sdk}\`, \`StreamableHTTPServerTransport\` (${server.sdkAnswers === "sse" ? "its default SSE answers" : "JSON answers"}).`);
    L.push("");
    L.push("| server | era | loops | tasks/s | CPU ms / task | p50 ms | p99 ms | tasks/s ÷ SDK | CPU ÷ SDK | p99 ÷ SDK |");
    L.push("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const r of server.rows) {
      L.push(`| ${r.who} | ${r.era} | ${r.concurrency} | ${fixed(r.tasksPerSecond)} | ${fixed(r.cpuMsPerTask, 3)} | ${fixed(r.p50Ms, 2)} | ${fixed(r.p99Ms, 2)} | ${ratio(r.vsSdk.tasksPerSecond)} | ${ratio(r.vsSdk.cpuMsPerTask)} | ${ratio(r.vsSdk.p99Ms)} |`);
    }
    L.push("");
    L.push("- At 1 loop the SDK's `tasks/result` waits for its task store's next poll (1 s) when the task has not ended yet: its latency there is mostly that wait.");
    L.push("");
    const ours = server.rows.find((r) => r.who === "ours" && r.era === "2025-11-25" && r.concurrency === 16);
    if (ours) {
      const v = ours.vsSdk;
      rows.push(["HTTP server, 2025-11-25, 16 loops: tasks/s ≥ 1× the SDK's, CPU per task ≤ 1×, p99 ≤ 1×", v.tasksPerSecond >= 1 && v.cpuMsPerTask <= 1 && v.p99Ms <= 1, `${ratio(v.tasksPerSecond)}, ${ratio(v.cpuMsPerTask)}, ${ratio(v.p99Ms)}`]);
    }
  }
  if (storage) {
    const axis = [...new Set(storage.storageRows.map((r) => r.storage).filter((s) => s !== "memory"))].join(",");
    const before = storage.before ? relative(process.cwd(), storage.before) : null;
    const floors = storage.storageRows.some((r) => r.who === "floor" || r.who === "adapter");
    L.push("### Our server on shared storage");
    L.push("");
    const sqliteText = storage.sqliteOnTmpfs ? "a throwaway SQLite file on tmpfs (`sqlite`, /dev/shm: its syncs cost nothing, as Postgres runs with fsync off; `sqlite-disk`: the same file in the temp dir, every commit synced to disk)" : "a throwaway SQLite file in the temp dir";
    L.push(`The same server and load (2025-11-25, ${storage.storageRows[0]?.concurrency} loops) on each \`--storage\`: ${sqliteText}, Postgres 15 and Redis on 127.0.0.1 (fsync off), memory in the same rounds. Server CPU is the server process's (its threads too); machine CPU is every process's on the machine (/proc/stat), of which the load generator (the benchmark's own process) and the rest: the database, and anything else that ran meanwhile.`);
    L.push("");
    L.push(...commandAndMachine({ command: `${env(storage, { SERVER_STORAGE_BEFORE: before || undefined })}SERVER_STORAGE=${axis} bash bench/run.sh server`, runs: `\`node bench/server.mjs --storage ${axis}${floors ? " --floor --floor-adapter" : ""} --rounds ${storage.rounds} --seconds ${storage.seconds}${before ? ` --before ${before}` : ""}\`, ${storage.wallSeconds} s`, date: storage.date, loads: [storage.loadStart, storage.loadEnd], node: storage.node, nproc: storage.nproc, cpu: storage.cpu }));
    L.push("");
    L.push("÷ memory: each round's tasks/s over memory's of the same build and round, the median of the rounds (their range beside it); every other round runs its servers in the reverse order. tasks/s, CPU and latencies: medians of the rounds.");
    L.push("");
    const machine = storage.storageRows.some((r) => Number.isFinite(r.machineMsPerTask));
    L.push(`| build | storage | tasks/s | ÷ memory (rounds) | server CPU ms / task |${machine ? " machine CPU ms / task | load generator | rest (database) |" : ""} p50 ms | p99 ms |`);
    L.push(`|---|---|---:|---:|---:|${machine ? "---:|---:|---:|" : ""}---:|---:|`);
    const range = (r) => (Array.isArray(r.vsMemoryRange) && r.storage !== "memory" ? ` (${fixed(r.vsMemoryRange[0], 2)}–${fixed(r.vsMemoryRange[1], 2)})` : "");
    const cpus = (r) => (machine ? ` ${fixed(r.machineMsPerTask, 3)} | ${fixed(r.loadMsPerTask, 3)} | ${fixed(r.restMsPerTask, 3)} |` : "");
    for (const r of storage.storageRows) L.push(`| ${r.who ?? "ours"} | ${r.storage} | ${fixed(r.tasksPerSecond)} | ${ratio(r.vsMemory)}${range(r)} | ${fixed(r.cpuMsPerTask, 3)} |${cpus(r)} ${fixed(r.p50Ms, 2)} | ${fixed(r.p99Ms, 2)} |`);
    L.push("");
    /** The row of build `who` on storage `name` (rows written before builds were named are ours). */
    const find = (who, name) => storage.storageRows.find((r) => (r.who ?? "ours") === who && r.storage === name);
    const shared = find("ours", "shared-memory");
    L.push("- Per task a shared storage makes two writes (the create, the outcome) and reads only for a `tasks/get` of a live task with no write of this replica under way (one racing the outcome waits for that write and answers from it); the server runs the core over the records it read or wrote.");
    if (floors) {
      L.push("- `floor` is `bench/floor-server.mjs`: the in-memory server, each task's create and outcome stored before they are answered (grouped writes, the cheapest driver call, a table with its primary key only), nothing else of the storage contract: no design that stores each task's create and outcome before answering them beats it on this machine. `adapter` is the same with the two writes through our adapter (`insertNew`, `putIfVersion`: the schema, indexes, change feed and SQLite writer thread), still without `SharedTaskServer`. Between them and `ours` lies what each layer costs.");
    }
    const mem = find("ours", "memory");
    if (machine && mem && Number.isFinite(mem.machineMsPerTask)) {
      // Every server keeps the machine about as busy (its loops wait on the same cores), so a
      // storage's tasks/s over memory's follows memory's machine CPU per task over its own.
      const told = storage.storageRows.filter((r) => r.storage !== "memory" && Number.isFinite(r.machineMsPerTask) && Number.isFinite(find(r.who ?? "ours", "memory")?.machineMsPerTask));
      const predicted = (r) => (find(r.who ?? "ours", "memory")?.machineMsPerTask ?? NaN) / r.machineMsPerTask;
      const busy = storage.storageRows.filter((r) => Number.isFinite(r.machineMsPerTask)).map((r) => (r.machineMsPerTask * r.tasksPerSecond) / 10 / (storage.nproc || 1));
      const floorPg = find("floor", "postgres");
      const adapterLite = find("adapter", "sqlite");
      L.push(
        `- Memory's machine CPU per task over each storage's predicts its ratio: ${told.map((r) => `${r.who ?? "ours"} ${r.storage} ${ratio(predicted(r))} (measured ${ratio(r.vsMemory)})`).join(", ")}. ` +
          `Every run keeps the ${storage.nproc || 1} cores about as busy (${fixed(Math.min(...busy))}–${fixed(Math.max(...busy))} %), so tasks/s follow the machine's CPU per task, wherever it is spent. ` +
          `0.6× of memory's tasks/s thus allows about ${fixed(mem.machineMsPerTask / 0.6, 3)} ms of the machine's CPU per task, and 0.8× ${fixed(mem.machineMsPerTask / 0.8, 3)} ms` +
          (floorPg && adapterLite ? `: Postgres's floor alone takes ${fixed(floorPg.machineMsPerTask, 3)} ms, SQLite's adapter alone ${fixed(adapterLite.machineMsPerTask, 3)} ms.` : ".") +
          " Rest (database) is the machine's CPU less the server's and the load generator's; the rows with no database show its error (a few hundredths of a ms either way: the kernel counts the machine's and a process's time differently).",
      );
    }
    if (shared) L.push(`- \`shared-memory\` is the same shared server over the in-memory \`TaskStorage\` (no database; without \`insertNew\`, a create takes its number first): ${ratio(shared.vsMemory)} of memory, ${fixed(shared.cpuMsPerTask, 3)} ms CPU per task. The machinery of the replicas (reads, compare-and-set writes, the change feed heard back) costs that much before any engine does.`);
    L.push("");
    const [pg, lite] = [find("ours", "postgres"), find("ours", "sqlite")];
    if (pg && lite) rows.push(["Shared storage: Postgres ≥ 0.6× and SQLite ≥ 0.8× of memory's tasks/s", pg.vsMemory >= 0.6 && lite.vsMemory >= 0.8, `Postgres ${ratio(pg.vsMemory)}, SQLite ${ratio(lite.vsMemory)}`]);
  }
  L.push(...targetTable(rows));
  return L;
}
