// A large transcript for the inspector's benchmark (bench/inspector.mjs) and its Chromium test
// (tests/browser/inspector-large.test.mjs): the traffic of a client that runs many tasks at once
// (up to 8), in 2025-11-25 (initialize, CreateTaskResult, tasks/get, tasks/result, tasks/cancel)
// or in 2026-07-28 (server/discover, flat task answers, tasks/update with input, tasks/cancel).
// One conversation speaks one version (Conversation flags a switch), so one file is one version.
// About 1 task in 100 carries a violation (a 2025 status "running", a 2026 `ttlMs` as a string),
// so "has issues" and "next error" have something to find.
//
//   node bench/inspector-transcript.mjs OUT.jsonl [BYTES] [SEED] [VERSION]
//   (default 5,000,000 bytes, seed 1, 2025-11-25)
//
// Deterministic: the same bytes and seed give the same file (mulberry32). `lines()` yields the
// lines without touching the file system, so a page could generate one too.

const V26 = "2026-07-28";
const V25 = "2025-11-25";
const META = {
  "io.modelcontextprotocol/protocolVersion": V26,
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } },
};
const T0 = Date.UTC(2026, 6, 28, 10, 0, 0);
const iso = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const TOOLS = [
  ["build", (r) => ({ target: `crate-${Math.floor(r() * 500)}` })],
  ["deploy", (r) => ({ env: r() < 0.5 ? "staging" : "production" })],
  ["reindex", (r) => ({ index: `docs-${Math.floor(r() * 40)}` })],
  ["migrate", (r) => ({ schema: `v${1 + Math.floor(r() * 9)}` })],
];

/** A seeded random source in [0, 1) (mulberry32). @param {number} seed */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The transcript's lines (without "\n"), about `bytes` in all, in one protocol version.
 * @param {{ bytes?: number, seed?: number, version?: string }} [options]
 * @returns {Generator<string>}
 */
export function* lines({ bytes = 5_000_000, seed = 1, version = V25 } = {}) {
  const r = random(seed);
  let written = 0;
  let id = 0;
  let clock = T0;
  let taskNo = 0;
  /** @param {object} m */
  const out = (m) => {
    const line = JSON.stringify(m);
    written += line.length + 1;
    return line;
  };
  const hex = () => Math.floor(r() * 0xffffffff).toString(16).padStart(8, "0");

  {
    const stop = bytes;
    id++;
    if (version === V26) {
      yield out({ jsonrpc: "2.0", id, method: "server/discover", params: { _meta: META } });
      yield out({ jsonrpc: "2.0", id, result: { resultType: "complete", supportedVersions: [V26], capabilities: { tools: {}, extensions: { "io.modelcontextprotocol/tasks": {} } }, serverInfo: { name: "farm", version: "2.0.0" } } });
    } else {
      yield out({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: V25, capabilities: { elicitation: {}, tasks: { list: {}, cancel: {}, requests: { elicitation: { create: {} } } } }, clientInfo: { name: "bench", version: "1.0.0" } } });
      yield out({ jsonrpc: "2.0", id, result: { protocolVersion: V25, capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, serverInfo: { name: "farm", version: "1.0.0" } } });
      yield out({ jsonrpc: "2.0", method: "notifications/initialized" });
    }
    /** @type {{ taskId: string, created: number, steps: string[], ttl: number, poll: number, bad: boolean }[]} */
    const active = [];
    const v26 = version === V26;
    const params = (p) => (v26 ? { ...p, _meta: META } : p);
    const snapshot = (t, status, extra = {}) =>
      v26
        ? { taskId: t.taskId, status, createdAt: iso(t.created), lastUpdatedAt: iso(clock), ttlMs: t.ttl, pollIntervalMs: t.poll, ...extra }
        : { taskId: t.taskId, status, createdAt: iso(t.created), lastUpdatedAt: iso(clock), ttl: t.ttl, pollInterval: t.poll, ...extra };
    const drained = () => written >= stop && active.length === 0;
    while (!drained()) {
      clock += 200 + Math.floor(r() * 800);
      // Start a task while there is room (up to 8 at once) and bytes left.
      if (written < stop && (active.length === 0 || (active.length < 8 && r() < 0.35))) {
        const [tool, args] = TOOLS[Math.floor(r() * TOOLS.length)];
        taskNo++;
        const t = {
          taskId: `${hex()}-${(taskNo & 0xffff).toString(16).padStart(4, "0")}-4${hex().slice(0, 3)}-8${hex().slice(0, 3)}-${hex()}${hex().slice(0, 4)}`,
          created: clock,
          ttl: 3_600_000,
          poll: [1000, 2000, 5000][Math.floor(r() * 3)],
          bad: r() < 0.01,
          steps: [],
        };
        const polls = 1 + Math.floor(r() * 5);
        for (let k = 0; k < polls; k++) t.steps.push("working");
        if (v26 && r() < 0.15) t.steps.splice(1, 0, "input", "update");
        const end = r();
        t.steps.push(end < 0.75 ? "completed" : end < 0.9 ? "failed" : "cancel");
        id++;
        yield out({ jsonrpc: "2.0", id, method: "tools/call", params: params(v26 ? { name: tool, arguments: args(r) } : { name: tool, arguments: args(r), task: { ttl: t.ttl } }) });
        yield out({ jsonrpc: "2.0", id, result: v26 ? { resultType: "task", ...snapshot(t, "working") } : { task: snapshot(t, "working") } });
        active.push(t);
        continue;
      }
      const k = Math.floor(r() * active.length);
      const t = active[k];
      const step = t.steps.shift();
      id++;
      const get = () => out({ jsonrpc: "2.0", id, method: "tasks/get", params: params({ taskId: t.taskId }) });
      const answer = (result) => out({ jsonrpc: "2.0", id, result: v26 ? { resultType: "complete", ...result } : result });
      if (step === "working") {
        yield get();
        const s = snapshot(t, "working", { statusMessage: `step ${Math.floor(r() * 100)} of 100` });
        if (t.bad && t.steps.length === 1) {
          // The violation: a status no version has (2025), a ttlMs that is a string (2026).
          if (v26) s.ttlMs = String(t.ttl);
          else s.status = "running";
        }
        yield answer(s);
      } else if (step === "input") {
        yield get();
        yield answer(snapshot(t, "input_required", { inputRequests: { approver: { method: "elicitation/create", params: { mode: "form", message: "Who approves?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } } } } }));
      } else if (step === "update") {
        yield out({ jsonrpc: "2.0", id, method: "tasks/update", params: params({ taskId: t.taskId, inputResponses: { approver: { action: "accept", content: { name: "Ada" } } } }) });
        yield out({ jsonrpc: "2.0", id, result: { resultType: "complete" } });
      } else if (step === "completed") {
        yield get();
        const text = `${t.taskId.slice(0, 8)}: done`;
        if (v26) {
          yield answer(snapshot(t, "completed", { result: { content: [{ type: "text", text }], isError: false } }));
        } else {
          yield answer(snapshot(t, "completed"));
          id++;
          yield out({ jsonrpc: "2.0", id, method: "tasks/result", params: { taskId: t.taskId } });
          yield out({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }], isError: false, _meta: { "io.modelcontextprotocol/related-task": { taskId: t.taskId } } } });
        }
      } else if (step === "failed") {
        yield get();
        yield answer(snapshot(t, "failed", v26 ? { statusMessage: "the worker crashed", error: { code: -32603, message: "worker crashed" } } : { statusMessage: "the worker crashed" }));
      } else {
        yield out({ jsonrpc: "2.0", id, method: "tasks/cancel", params: params({ taskId: t.taskId }) });
        if (v26) {
          yield out({ jsonrpc: "2.0", id, result: { resultType: "complete" } });
          id++;
          yield get();
          yield answer(snapshot(t, "cancelled", { statusMessage: "cancelled at the client's request" }));
        } else {
          yield out({ jsonrpc: "2.0", id, result: snapshot(t, "cancelled", { statusMessage: "cancelled at the client's request" }) });
        }
      }
      if (t.steps.length === 0) active.splice(k, 1);
    }
  }
}

/** The whole transcript as one string. @param {{ bytes?: number, seed?: number, version?: string }} [options] */
export function transcript(options) {
  return `${[...lines(options)].join("\n")}\n`;
}

if (typeof process !== "undefined" && process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop() ?? "")) {
  const { openSync, writeSync, closeSync } = await import("node:fs");
  const [file, bytes, seed, version] = process.argv.slice(2);
  if (!file) {
    process.stderr.write("usage: node bench/inspector-transcript.mjs OUT.jsonl [BYTES] [SEED]\n");
    process.exit(2);
  }
  const fd = openSync(file, "w");
  let n = 0;
  let size = 0;
  let chunk = [];
  for (const line of lines({ bytes: bytes ? Number(bytes) : undefined, seed: seed ? Number(seed) : undefined, version })) {
    chunk.push(line);
    n++;
    size += line.length + 1;
    if (chunk.length >= 4096) {
      writeSync(fd, `${chunk.join("\n")}\n`);
      chunk = [];
    }
  }
  if (chunk.length) writeSync(fd, `${chunk.join("\n")}\n`);
  closeSync(fd);
  process.stdout.write(`${JSON.stringify({ file, bytes: size, lines: n })}\n`);
}
