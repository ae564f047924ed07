// A worker process of the multi-process storage tests (see contract.mjs): opens the storage of
// argv's spec, prints "ready", waits for "go" on stdin, runs the job, prints its JSON answer and
// closes the storage.
//
//   finish  { ids, status }   ends each task with `status` by compare-and-set (read, write
//                             version + 1 if not terminal, retry on conflict); answers the ids it won
//   insert  { count, prefix } inserts `count` tasks with nextSequence; answers their ids
//   expire  { until }         deletes expired tasks (expired(now) then delete) until `until` are gone
import { openSpec } from "./lib.mjs";

const { spec, job } = JSON.parse(process.argv[2]);
const s = await openSpec(spec);
process.stdout.write("ready\n");
await new Promise((resolve) => {
  let buf = "";
  process.stdin.setEncoding("utf8").on("data", (d) => {
    buf += d;
    if (buf.includes("go\n")) resolve(undefined);
  });
});

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
let answer;
if (job.job === "finish") {
  const won = [];
  for (const id of job.ids) {
    for (;;) {
      const r = await s.get(id);
      if (!r || TERMINAL.has(r.status)) break;
      const next = { ...r, version: r.version + 1, status: job.status, lastUpdatedAtMs: Date.now() };
      if (job.status === "completed") next.result = { content: [{ type: "text", text: "done" }] };
      if (await s.putIfVersion(next, r.version)) {
        won.push(id);
        break;
      }
    }
  }
  answer = { won };
} else if (job.job === "insert") {
  const inserted = [];
  for (let i = 0; i < job.count; i++) {
    const seq = await s.nextSequence();
    const id = `${job.prefix}-${i}`;
    const now = Date.now();
    const ok = await s.putIfVersion({ id, version: 1, seq, protocol: "2026-07-28", status: "working", createdAtMs: now, lastUpdatedAtMs: now, ttlMs: null }, null);
    if (!ok) throw new Error(`insert of ${id} conflicted`);
    inserted.push(id);
  }
  answer = { inserted };
} else if (job.job === "expire") {
  const deleted = [];
  while (deleted.length < job.until) {
    const ids = await s.expired(Date.now(), 10);
    for (const id of ids) if (await s.delete(id)) deleted.push(id);
    if (ids.length === 0) await new Promise((r) => setTimeout(r, 5));
  }
  answer = { deleted };
} else {
  throw new Error(`unknown job ${job.job}`);
}
await s.close();
process.stdout.write(`${JSON.stringify(answer)}\n`);
