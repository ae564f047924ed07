// The inspector's transcript reader, in a Web Worker so that the page stays responsive: reads a
// transcript (a File, streamed, or a string) line by line through one `Conversation` of the
// package's browser entry, and posts progress (bytes, messages), the task rows so far (id,
// version, last status, errors, warnings, messages) and, at the end, the summary and the messages
// with issues that are about no task. It keeps every message and its report, and answers the
// page's questions about one task (its timeline and messages) or about all of them (small
// transcripts). Module worker; no DOM.
import { Conversation, rules } from "/pkg/browser.js";

/** Every task the Conversation remembers at most (its default is 10,000). */
const MAX_TASKS = 1_000_000;
/** Progress at most this often (ms); task rows at least this often, slower when tasks() costs more. */
const PROGRESS_MS = 100;
const ROWS_MS = 1000;
/** Messages with issues about no task sent with the result (the rest are counted). */
const LOOSE_KEPT = 500;

/** The current job, or null. */
let job = null;

function newJob(id, source, total) {
  return {
    id,
    source,
    total,
    bytes: 0,
    conv: new Conversation({ maxTasks: MAX_TASKS }),
    /** Per message: its line number, its text and its report. */
    lines: [],
    texts: [],
    reports: [],
    /** When each message was recorded (ms), from a record's `at`; NaN without a valid one. */
    times: [],
    /** The message a request or response is paired with (by id and method), or -1. */
    pairs: [],
    /** Requests not answered yet: JSON of the id → indexes, newest last. */
    open: new Map(),
    /** taskId → { errors, warnings, messages: index[] } */
    perTask: new Map(),
    versions: {},
    errors: 0,
    warnings: 0,
    timelines: [],
    /** What the page has of each row (rowsDiff). */
    sent: [],
    sentIds: [],
    timelinesAt: 0,
    timelinesCost: 0,
    lastProgress: 0,
    firstRowsSent: false,
    cancelled: false,
    lineNo: 0,
  };
}

/** The head of a bare JSON-RPC message: a line that is surely no record (no parse needed). */
const BARE = /^\s*\{\s*"jsonrpc"\s*:/;

/**
 * The message a record carries and its `at`, or null for a bare message. Conversation reads the
 * line itself, records included (`{message, from?, headers?, at?}`, as live mode's "Export with
 * times" writes them): it takes the sender, checks the headers, and makes a valid `at` the
 * `seenAt` of the task events the message adds (else a `record-time` warning). The worker only
 * shows the message and pairs it by id, so it needs the message's own text.
 */
function record(line) {
  if (BARE.test(line)) return null;
  try {
    const w = JSON.parse(line);
    // A record as Conversation takes it: an object with a `message` object and no `jsonrpc`.
    if (typeof w !== "object" || w === null || Array.isArray(w) || "jsonrpc" in w) return null;
    if (typeof w.message !== "object" || w.message === null || Array.isArray(w.message)) return null;
    return { text: JSON.stringify(w.message), at: w.at };
  } catch {
    return null;
  }
}

function observe(j, line) {
  j.lineNo++;
  if (line.trim() === "") return;
  const report = j.conv.observe(line);
  const r = record(line);
  const text = r ? r.text : line;
  // How long an answer took counts only times Conversation took (no `record-time` warning).
  const timeOk = r && typeof r.at === "string" && !report.issues.some((i) => i.code === "record-time");
  j.lines.push(j.lineNo);
  j.texts.push(text);
  j.times.push(timeOk ? Date.parse(r.at) : NaN);
  j.reports.push(report);
  pair(j, text, report);
  const v = (j.versions[report.version ?? "unknown"] ??= { messages: 0, tasks: 0, errors: 0, warnings: 0 });
  v.messages++;
  let e = 0;
  let w = 0;
  for (const i of report.issues) i.severity === "error" ? e++ : w++;
  v.errors += e;
  v.warnings += w;
  j.errors += e;
  j.warnings += w;
  for (const id of report.taskIds) {
    let t = j.perTask.get(id);
    if (!t) j.perTask.set(id, (t = { errors: 0, warnings: 0, messages: [] }));
    t.errors += e;
    t.warnings += w;
    t.messages.push(j.reports.length - 1);
  }
}

/**
 * The usual head of a message: `{"jsonrpc":"2.0","id":…` or `{"id":…` (then no parse is needed;
 * a duplicate "id" later in the line, which JSON.parse would take, is not seen: pairing is a
 * reading aid, Conversation judges the message).
 */
const HEAD = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*"|null)\s*[,}]/;

/** The message's id as JSON (`undefined` when the line is not JSON). */
function idOf(text) {
  const m = HEAD.exec(text);
  try {
    return JSON.stringify((m ? JSON.parse(m[1]) : JSON.parse(text).id) ?? null);
  } catch {
    return undefined;
  }
}

/**
 * Pairs a response with the newest open request of the same id whose method Conversation says
 * it answers (both sides number their own requests, so the method tells them apart).
 */
function pair(j, text, report) {
  const i = j.reports.length - 1;
  j.pairs.push(-1);
  if (report.rpc !== "request" && report.rpc !== "result" && report.rpc !== "error") return;
  const id = idOf(text);
  if (id === undefined) return;
  if (report.rpc === "request") {
    (j.open.get(id) ?? j.open.set(id, []).get(id)).push(i);
    return;
  }
  const waiting = j.open.get(id);
  if (!waiting) return;
  for (let k = waiting.length - 1; k >= 0; k--) {
    if (j.reports[waiting[k]].method === report.method) {
      const req = waiting[k];
      waiting.splice(k, 1);
      if (waiting.length === 0) j.open.delete(id);
      j.pairs[i] = req;
      j.pairs[req] = i;
      return;
    }
  }
}

/** The task rows (from a fresh `tasks()`), in the order first seen. */
function rows(j) {
  const t0 = performance.now();
  j.timelines = j.conv.tasks();
  j.timelinesCost = performance.now() - t0;
  j.timelinesAt = performance.now();
  return j.timelines.map((t) => {
    const p = j.perTask.get(t.taskId) ?? { errors: 0, warnings: 0, messages: [] };
    return { taskId: t.taskId, version: t.version ?? "unknown", final: t.finalStatus ?? "none", errors: p.errors, warnings: p.warnings, messages: p.messages.length };
  });
}

/**
 * The rows that changed since the last call (each with its index), and how many there are: the
 * page keeps the others, so a 50 MB file does not send 25,000 rows every second. `reset` when
 * the order itself changed (a task forgotten): then every row is sent.
 */
function rowsDiff(j) {
  const all = rows(j);
  const reset = all.length < j.sent.length || all.some((r, i) => i < j.sent.length && j.sentIds[i] !== r.taskId);
  if (reset) {
    j.sent = [];
    j.sentIds = [];
  }
  const changed = [];
  all.forEach((r, i) => {
    const sig = `${r.version}|${r.final}|${r.errors}|${r.warnings}|${r.messages}`;
    if (j.sent[i] !== sig) {
      j.sent[i] = sig;
      j.sentIds[i] = r.taskId;
      changed.push([i, r]);
    }
  });
  return { rowsChanged: changed, rowsTotal: all.length, rowsReset: reset };
}

function versionsWithTasks(j) {
  const out = structuredClone(j.versions);
  for (const v of Object.values(out)) v.tasks = 0;
  for (const t of j.timelines) (out[t.version ?? "unknown"] ??= { messages: 0, tasks: 0, errors: 0, warnings: 0 }).tasks++;
  return out;
}

function progress(j, force) {
  const now = performance.now();
  if (!force && now - j.lastProgress < PROGRESS_MS) return;
  j.lastProgress = now;
  const msg = { type: "progress", job: j.id, bytes: j.bytes, total: j.total, messages: j.reports.length, errors: j.errors, warnings: j.warnings };
  // Rows: at once the first time, then at most every ROWS_MS (or 5 × what tasks() costs).
  if (!j.firstRowsSent || now - j.timelinesAt >= Math.max(ROWS_MS, 5 * j.timelinesCost)) {
    Object.assign(msg, rowsDiff(j));
    msg.versions = versionsWithTasks(j);
    j.firstRowsSent = true;
  }
  postMessage(msg);
}

/** One message for the page: its line, text, report, and the message it is paired with. */
const message = (j, i) => {
  const p = j.pairs[i];
  const ms = p >= 0 ? Math.abs(j.times[i] - j.times[p]) : NaN;
  return { line: j.lines[i], text: j.texts[i], report: j.reports[i], pair: p >= 0 ? { index: p, line: j.lines[p], rpc: j.reports[p].rpc, ms: Number.isFinite(ms) ? ms : null } : null };
};

/** The tools/call request that created task `taskId` (paired with the first answer naming it). */
function creator(j, messages) {
  for (const i of messages) {
    const r = j.reports[i];
    if (r.rpc === "result" && r.method === "tools/call" && j.pairs[i] >= 0) return message(j, j.pairs[i]);
  }
  return null;
}

function finish(j) {
  const diff = rowsDiff(j);
  const known = new Set(j.timelines.map((t) => t.taskId));
  const loose = [];
  let looseCount = 0;
  j.reports.forEach((r, i) => {
    if (r.issues.length && !r.taskIds.some((id) => known.has(id))) {
      looseCount++;
      if (loose.length < LOOSE_KEPT) loose.push(message(j, i));
    }
  });
  postMessage({
    type: "done", job: j.id, bytes: j.bytes, total: j.total, messages: j.reports.length, errors: j.errors, warnings: j.warnings,
    ...diff, versions: versionsWithTasks(j), loose, looseCount,
  });
}

/** Splits `chunk` (after what was left of the last one) into lines; returns the unfinished rest. */
function feed(j, rest, chunk) {
  const text = rest + chunk;
  let start = 0;
  for (;;) {
    const nl = text.indexOf("\n", start);
    if (nl === -1) break;
    const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    observe(j, text.slice(start, end));
    start = nl + 1;
    if ((j.lineNo & 255) === 0) progress(j, false);
  }
  return text.slice(start);
}

async function readFile(j, file) {
  const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
  let rest = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (j.cancelled) return reader.cancel();
    if (done) break;
    j.bytes += value.length; // characters: the same as bytes for ASCII traffic, close otherwise
    rest = feed(j, rest, value);
    progress(j, false);
  }
  if (rest !== "") observe(j, rest.replace(/\r$/, ""));
  j.bytes = j.total;
}

async function readText(j, text) {
  let rest = "";
  const STEP = 256 * 1024;
  for (let at = 0; at < text.length; at += STEP) {
    const piece = text.slice(at, at + STEP);
    j.bytes += piece.length;
    rest = feed(j, rest, piece);
    progress(j, false);
    // Let the page's questions in (a task asked for while reading).
    await new Promise((r) => setTimeout(r, 0));
    if (j.cancelled) return;
  }
  if (rest !== "") observe(j, rest.replace(/\r$/, ""));
}

onmessage = async ({ data }) => {
  try {
    if (data.type === "open") {
      if (job) {
        job.cancelled = true;
        job.conv.free();
      }
      const total = data.file ? data.file.size : data.text.length;
      const j = (job = newJob(data.job, data.source, total));
      postMessage({ type: "started", job: j.id, total });
      if (data.file) await readFile(j, data.file);
      else await readText(j, data.text);
      if (j.cancelled) return;
      progress(j, true);
      finish(j);
      return;
    }
    const j = job;
    if (!j || j.id !== data.job) return postMessage({ type: data.type, job: data.job, req: data.req, error: "no such transcript" });
    if (data.type === "task") {
      if (performance.now() - j.timelinesAt > 250) rows(j);
      const timeline = j.timelines.find((t) => t.taskId === data.taskId) ?? null;
      const p = j.perTask.get(data.taskId);
      postMessage({ type: "task", job: j.id, req: data.req, timeline, messages: p ? p.messages.map((i) => message(j, i)) : [], creator: p ? creator(j, p.messages) : null });
    } else if (data.type === "all") {
      const creators = {};
      for (const t of j.timelines) {
        const p = j.perTask.get(t.taskId);
        const c = p ? creator(j, p.messages) : null;
        if (c) creators[t.taskId] = c;
      }
      postMessage({ type: "all", job: j.id, req: data.req, tasks: j.timelines, messages: j.reports.map((_, i) => message(j, i)), creators });
    }
  } catch (e) {
    postMessage({ type: "error", job: data.job, req: data.req, message: e instanceof Error ? e.message : String(e) });
  }
};

// With the rules table: the page names the rule of each issue code it shows.
postMessage({ type: "ready", rules: rules() });
