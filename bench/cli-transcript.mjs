// A large, healthy 2025-11-25 transcript for the CLI's benchmark (bench/cli.mjs) and its memory
// test (tests/js/cli.test.mjs): the traffic of a client that follows many long-running tasks.
//
//   node bench/cli-transcript.mjs OUT.jsonl [BYTES] [TASKS]     (default 50,000,000 bytes, 100 tasks)
//
// initialize / result / notifications/initialized, then TASKS tools/call requests with a task,
// each answered by a CreateTaskResult (working); then rounds of polls: for every task a tasks/get
// request and its GetTaskResult (working, lastUpdatedAt one second later each round, a status
// message) until the file holds about BYTES bytes; then every task's last poll (completed), its
// tasks/result request and the CallToolResult answering it (with the related-task _meta). Every
// line is one JSON-RPC message; ids count up from 1. Deterministic: the same arguments give the
// same bytes. Written in chunks of about 1 MB, so generating it needs little memory.
import { openSync, writeSync, closeSync } from "node:fs";
import { fileURLToPath } from "node:url";

const T0 = Date.UTC(2025, 10, 25, 10, 30, 0);
const iso = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const taskId = (k) => `${(0x7d1c2e4a + k).toString(16).padStart(8, "0")}-5b6f-4c3d-9e8f-0a1b2c3d4e5f`;

/**
 * Writes the transcript to `path`; answers { bytes, lines, tasks, polls }.
 * @param {string} path
 * @param {{ bytes?: number, tasks?: number }} [options]
 */
export function writeTranscript(path, { bytes: target = 50_000_000, tasks = 100 } = {}) {
  const fd = openSync(path, "w");
  let chunk = [];
  let chunkBytes = 0;
  let bytes = 0;
  let lines = 0;
  const emit = (msg) => {
    const line = `${JSON.stringify(msg)}\n`;
    chunk.push(line);
    chunkBytes += line.length; // ASCII only: characters = bytes
    lines++;
    if (chunkBytes >= 1 << 20) flush();
  };
  const flush = () => {
    writeSync(fd, chunk.join(""));
    bytes += chunkBytes;
    chunk = [];
    chunkBytes = 0;
  };
  const task = (k, status, at, extra = {}) => ({
    taskId: taskId(k),
    status,
    createdAt: iso(T0),
    lastUpdatedAt: iso(at),
    ttl: 86_400_000,
    pollInterval: 1000,
    ...extra,
  });
  try {
    let id = 0;
    emit({
      jsonrpc: "2.0",
      id,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: { tasks: { list: {}, cancel: {} } }, clientInfo: { name: "bench", version: "1.0.0" } },
    });
    emit({
      jsonrpc: "2.0",
      id,
      result: {
        protocolVersion: "2025-11-25",
        capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
        serverInfo: { name: "build-farm", version: "1.0.0" },
      },
    });
    emit({ jsonrpc: "2.0", method: "notifications/initialized" });
    for (let k = 0; k < tasks; k++) {
      id++;
      emit({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "build", arguments: { target: `crate-${k}` }, task: { ttl: 86_400_000 } } });
      emit({ jsonrpc: "2.0", id, result: { task: task(k, "working", T0) } });
    }
    // The closing messages take about 1 KB per task: leave room for them.
    const stopAt = target - tasks * 1100;
    let round = 0;
    let polls = 0;
    while (bytes + chunkBytes < stopAt) {
      round++;
      for (let k = 0; k < tasks && bytes + chunkBytes < stopAt; k++) {
        id++;
        emit({ jsonrpc: "2.0", id, method: "tasks/get", params: { taskId: taskId(k) } });
        emit({ jsonrpc: "2.0", id, result: task(k, "working", T0 + round * 1000, { statusMessage: `compiling ${round} of many units` }) });
        polls++;
      }
    }
    round++;
    for (let k = 0; k < tasks; k++) {
      id++;
      emit({ jsonrpc: "2.0", id, method: "tasks/get", params: { taskId: taskId(k) } });
      emit({ jsonrpc: "2.0", id, result: task(k, "completed", T0 + round * 1000, { statusMessage: "built" }) });
      id++;
      emit({ jsonrpc: "2.0", id, method: "tasks/result", params: { taskId: taskId(k) } });
      emit({
        jsonrpc: "2.0",
        id,
        result: {
          content: [{ type: "text", text: `crate-${k}: build OK` }],
          isError: false,
          _meta: { "io.modelcontextprotocol/related-task": { taskId: taskId(k) } },
        },
      });
      polls++;
    }
    flush();
    return { bytes, lines, tasks, polls };
  } finally {
    closeSync(fd);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [out, bytes, tasks] = process.argv.slice(2);
  if (!out) {
    process.stderr.write("usage: node bench/cli-transcript.mjs OUT.jsonl [BYTES] [TASKS]\n");
    process.exit(2);
  }
  const r = writeTranscript(out, { bytes: bytes ? Number(bytes) : undefined, tasks: tasks ? Number(tasks) : undefined });
  process.stdout.write(`${JSON.stringify(r)}\n`);
}
