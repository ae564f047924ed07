// The inspector's live mode: talks to a running MCP server over Streamable HTTP with the
// package's `TaskClient.connect` (2026-07-28 through `server/discover`, else a 2025-11-25
// session; or the version picked), lists its tools, calls one and shows its task as it runs:
// every task field (status, status message, timestamps, TTL, the poll interval the server asks
// for, the JSON), each poll (time, gap, answer, latency), input requests as forms, an honest
// Cancel (a cancel that never reached the server says so), the result (an `isError` result as a
// tool error). Every HTTP exchange goes through a logging `fetch`: the raw message log shows
// requests, responses and notifications with the HTTP status and latency, searchable, exported
// as JSONL that transcript mode opens; every message also goes through a `Conversation`, whose
// issues are shown on the message and on the card of its task. 2025-11-25 servers with
// `tasks/list` list their tasks, each followable. Connection failures are told apart, each naming
// the URL and what to try (www/connect-errors.js); tool forms follow each inputSchema (www/form.js).
// After every event the client's `serialize()`, the endpoint and the finished cards are saved in
// localStorage; a reload restores the client (a 2025-11-25 one in this tab's session, if the
// server still accepts it), follows the pending tasks again and redraws the finished cards. A
// card's header, fields and task JSON show the same server snapshot. Status changes are
// announced (the live status line); poll lines are not (no live region around the cards). Plain
// DOM; also switches between the two modes.
import { TaskClient, TaskCancelledError, HttpConnection, Conversation, rules } from "/pkg/browser.js";
import { ruleNode, setRules } from "./rules.js";
import { toolForm as schemaForm } from "./form.js";
import { endpointOf, explain } from "./connect-errors.js";
import { bridgeFetch, bridgeEndpoint } from "./bridge.js";

setRules(rules());

const V26 = "2026-07-28";
const V25 = "2025-11-25";
const STORE = "mcp-tasks-inspector/live/1";
const RELATED = "io.modelcontextprotocol/related-task";
/** Finished cards kept across a reload. */
const FINISHED_KEPT = 20;
/** Raw log entries kept (the oldest go first) and drawn at most. */
const LOG_KEPT = 20_000;
const LOG_DRAWN = 400;

const $ = (id) => document.getElementById(id);
const liveStatus = $("live-status");
const toolsBox = $("tools");
const tasksBox = $("live-tasks");

/** An HTML element with attributes and children (strings become text). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null && v !== false) el.setAttribute(k, v === true ? "" : String(v));
  el.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

const clock = (t) => new Date(t).toISOString().slice(11, 23);
/** The live status line (role=status): what is announced. */
const say = (text) => (liveStatus.textContent = text);
const errorText = (e) => (e instanceof Error ? e.message : typeof e === "object" && e && "message" in e ? String(e.message) : String(e));
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

// ---- modes ----------------------------------------------------------------------------------------

/** `#live`, or an anchor inside live mode (the skip link's `#live-results`). */
const isLiveHash = () => location.hash === "#live" || location.hash.startsWith("#live-");

function setMode(mode) {
  const live = mode === "live";
  $("transcript-mode").hidden = live;
  $("live-mode").hidden = !live;
  for (const [id, on] of [["mode-transcript", !live], ["mode-live", live]]) {
    $(id).setAttribute("aria-pressed", String(on));
    $(id).classList.toggle("current", on);
  }
  // The skip link leads to what this mode shows.
  const skip = document.querySelector("a.skip");
  if (skip) skip.setAttribute("href", live ? "#live-results" : "#results");
  if (live && !isLiveHash()) history.replaceState(null, "", "#live");
  if (!live && isLiveHash()) history.replaceState(null, "", location.pathname);
}
$("mode-transcript").addEventListener("click", () => setMode("transcript"));
$("mode-live").addEventListener("click", () => {
  setMode("live");
  $("endpoint").focus();
});

// ---- the raw message log (every HTTP exchange of the client) --------------------------------------

/** @type {{ n: number, at: number, from: string, kind: string, method: string | null, id: unknown, http: string, status: number | null, latencyMs: number | null, text: string | null, message: any, issues: any[], taskIds: string[] }[]} */
let entries = [];
let entryNo = 0;
/** A Conversation over the live traffic (new for each connection). */
let conv = null;
/** The time each client request was sent, and its method, by JSON-RPC id. */
const sent = new Map();
/** Cards by JSON-RPC id of the tools/call that made them; by task id. */
const callCards = new Map();
const cards = new Map();
/** Cards of calls not sent yet: the first tools/call of the same tool and arguments is theirs. */
let unsent = [];
/** The card an input request belongs to, by the JSON of its params. */
const inputOwner = new Map();
/** Polls per task. */
const polls = new Map();

function kindOf(m) {
  if (!isObject(m)) return "invalid";
  if (typeof m.method === "string") return "id" in m ? "request" : "notification";
  if ("error" in m) return "error";
  if ("result" in m) return "response";
  return "invalid";
}

/** Records one JSON-RPC message `from` "client" or "server", carried by HTTP exchange `x`. */
function record(from, message, text, x) {
  const kind = kindOf(message);
  let method = isObject(message) && typeof message.method === "string" ? message.method : null;
  let latencyMs = null;
  const key = isObject(message) ? JSON.stringify(message.id ?? null) : "null";
  if (from === "client" && kind === "request") sent.set(key, { at: performance.now(), method });
  if (from === "server" && (kind === "response" || kind === "error")) {
    const s = sent.get(key);
    if (s) {
      latencyMs = Math.round(performance.now() - s.at);
      method = s.method;
      sent.delete(key);
    }
  }
  let report = { issues: [], taskIds: [] };
  try {
    if (conv) report = conv.observe(text ?? JSON.stringify(message), { from });
  } catch (e) {
    report = { issues: [{ severity: "error", code: "inspector", path: "", message: errorText(e) }], taskIds: [] };
  }
  const e = {
    n: ++entryNo, at: Date.now(), from, kind, method, id: isObject(message) ? message.id : undefined,
    http: x.http, status: x.status ?? null, latencyMs, text: text ?? JSON.stringify(message), message,
    issues: report.issues, taskIds: report.taskIds,
  };
  addEntry(e);
  follow(e);
}

/** An HTTP-level line (no JSON-RPC message): a failure, a refused exchange. */
function recordHttp(x, what) {
  addEntry({ n: ++entryNo, at: Date.now(), from: "http", kind: "http", method: x.method, id: undefined, http: x.http, status: x.status ?? null, latencyMs: x.latencyMs ?? null, text: null, message: null, issues: [], taskIds: [], note: what });
}

function addEntry(e) {
  entries.push(e);
  if (entries.length > LOG_KEPT) entries.splice(0, entries.length - LOG_KEPT);
  const list = $("raw-log");
  if (!matches(e, logQuery())) return updateLogCount();
  list.append(logItem(e));
  while (list.children.length > LOG_DRAWN) list.firstElementChild.remove();
  updateLogCount();
}

/** Reads one SSE stream (a copy of the client's) and records each message in it. */
async function readSse(body, x, wanted) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let data = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.search(/\r\n|\r|\n/)) !== -1) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
        if (line === "") {
          const text = data.join("\n");
          data = [];
          if (text === "") continue;
          let m;
          try {
            m = JSON.parse(text);
          } catch {
            m = null;
          }
          for (const one of Array.isArray(m) ? m : [m]) {
            record("server", one, Array.isArray(m) ? JSON.stringify(one) : text, x);
            if (isObject(one) && wanted.has(JSON.stringify(one.id ?? null)) && !("method" in one)) wanted.delete(JSON.stringify(one.id));
          }
          if (wanted.size === 0) return;
        } else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
    }
  } catch {
    // the client closed the stream: nothing more to log
  } finally {
    reader.cancel().catch(() => {});
  }
}

let exchangeNo = 0;

/** The `fetch` given to TaskClient.connect: the real one, each exchange logged. */
async function loggingFetch(input, init = {}) {
  const x = { n: ++exchangeNo, method: init.method ?? "GET", http: `${init.method ?? "GET"} #${exchangeNo}`, status: null, latencyMs: null };
  const started = performance.now();
  const wanted = new Set();
  if (typeof init.body === "string") {
    let body;
    try {
      body = JSON.parse(init.body);
    } catch {
      body = undefined;
    }
    for (const m of Array.isArray(body) ? body : [body]) {
      if (isObject(m) && typeof m.method === "string" && "id" in m) wanted.add(JSON.stringify(m.id));
      record("client", m, Array.isArray(body) ? JSON.stringify(m) : init.body, x);
    }
  }
  let res;
  try {
    res = await bridgeFetch(input, init);
  } catch (e) {
    x.latencyMs = Math.round(performance.now() - started);
    if (e?.name !== "AbortError") recordHttp(x, `failed: ${errorText(e)}`);
    throw e;
  }
  x.status = res.status;
  x.latencyMs = Math.round(performance.now() - started);
  const type = (res.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("text/event-stream") && res.body) {
    readSse(res.clone().body, x, wanted);
  } else {
    const text = await res.clone().text().catch(() => "");
    let body;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (body === undefined) recordHttp(x, text === "" ? "no body" : `not JSON: ${text.slice(0, 200)}`);
    else for (const m of Array.isArray(body) ? body : [body]) record("server", m, Array.isArray(body) ? JSON.stringify(m) : text, x);
  }
  return res;
}

// ---- the log's view: search, export ---------------------------------------------------------------

const logQuery = () => ($("log-search")?.value ?? "").trim().toLowerCase();
function matches(e, q) {
  if (!q) return true;
  return [e.method ?? "", e.kind, e.from, e.text ?? "", e.note ?? "", String(e.status ?? ""), ...e.issues.map((i) => i.code)].some((s) => s.toLowerCase().includes(q));
}

function logItem(e) {
  const arrow = e.from === "client" ? "→" : e.from === "server" ? "←" : "·";
  const who = e.from === "client" ? "sent" : e.from === "server" ? "received" : "HTTP";
  const errors = e.issues.filter((i) => i.severity === "error").length;
  return h("li", { class: `log-entry from-${e.from} kind-${e.kind}${e.issues.length ? " has-issues" : ""}`, "data-n": e.n, "data-kind": e.kind, "data-method": e.method ?? "" },
    h("div", { class: "log-head" },
      h("span", { class: "log-time" }, clock(e.at)), " ",
      h("span", { class: "log-dir", title: who }, arrow), h("span", { class: "visually-hidden" }, ` ${who} `), " ",
      h("span", { class: "log-kind" }, e.kind), " ",
      e.method ? h("code", { class: "log-method" }, e.method) : null, " ",
      e.id !== undefined ? h("span", { class: "log-id" }, `id ${JSON.stringify(e.id)}`) : null, " ",
      h("span", { class: "log-http" }, `${e.http}${e.status !== null ? ` · HTTP ${e.status}` : ""}`), " ",
      e.latencyMs !== null && e.kind !== "http" ? h("span", { class: "log-latency" }, `${e.latencyMs} ms`) : null,
      e.note ? h("span", { class: "log-note" }, ` ${e.note}`) : null,
      e.issues.length ? h("span", { class: `badge ${errors ? "bad" : "warn"}` }, `${e.issues.length} issue${e.issues.length === 1 ? "" : "s"}`) : null),
    e.issues.length ? h("ul", { class: "issues" }, e.issues.map(issueItem)) : null,
    e.text ? h("details", {}, h("summary", {}, "JSON"), h("pre", {}, e.text)) : null);
}

function issueItem(i) {
  return h("li", { class: `issue sev-${i.severity}` },
    h("span", { class: "sev" }, i.severity), " ",
    h("code", { class: "issue-code" }, i.code), " ", ruleNode(i.code), " at ",
    h("code", { class: "issue-path" }, i.path === "" ? '"" (whole message)' : i.path),
    h("span", { class: "issue-message" }, i.message));
}

function updateLogCount() {
  const q = logQuery();
  const shown = q ? entries.filter((e) => matches(e, q)).length : entries.length;
  const c = $("log-count");
  if (c) c.textContent = `${shown} of ${entries.length} entries${shown > LOG_DRAWN ? ` (the last ${LOG_DRAWN} drawn)` : ""}`;
  for (const id of ["log-export", "log-export-timed"]) {
    const ex = $(id);
    if (ex) ex.disabled = !entries.some((e) => e.message !== null);
  }
}

function redrawLog() {
  const q = logQuery();
  const list = $("raw-log");
  list.replaceChildren(...entries.filter((e) => matches(e, q)).slice(-LOG_DRAWN).map(logItem));
  updateLogCount();
}

/** The messages of the log, one JSON-RPC message per line: a transcript. */
export function exportJsonl() {
  return entries.filter((e) => e.message !== null && e.text !== null).map((e) => JSON.stringify(e.message)).join("\n") + "\n";
}

/**
 * The same messages, each with when it was recorded and who sent it: `{"at", "from", "message"}`
 * per line. Transcript mode reads it (and shows the time each answer took); `mcp-tasks check`
 * wants the plain form.
 */
export function exportTimedJsonl() {
  return entries.filter((e) => e.message !== null && e.text !== null).map((e) => JSON.stringify({ at: new Date(e.at).toISOString(), from: e.from, message: e.message })).join("\n") + "\n";
}

function download(text, name, what) {
  const blob = new Blob([text], { type: "application/jsonl" });
  const a = h("a", { href: URL.createObjectURL(blob), download: `${name}-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  say(`Exported ${entries.filter((e) => e.message !== null).length} messages as ${what} (open the file in transcript mode).`);
}

$("log-search").addEventListener("input", redrawLog);
$("log-export").addEventListener("click", () => download(exportJsonl(), "mcp-live", "JSONL"));
$("log-export-timed").addEventListener("click", () => download(exportTimedJsonl(), "mcp-live-timed", "JSONL with times"));
$("log-clear").addEventListener("click", () => {
  entries = [];
  redrawLog();
});

// ---- what the log tells the cards ------------------------------------------------------------------

/** A task snapshot inside a message (a CreateTaskResult, a tasks/get answer, a notification), if any. */
function snapshotOf(e) {
  const m = e.message;
  if (!isObject(m)) return null;
  const r = isObject(m.result) ? m.result : isObject(m.params) && e.kind === "notification" ? m.params : null;
  if (!r) return null;
  const t = isObject(r.task) ? r.task : r;
  return typeof t.taskId === "string" && typeof t.status === "string" ? t : null;
}

function follow(e) {
  const m = e.message;
  if (!isObject(m)) return;
  // Issues go on the card of every task the message is about (and on its call's card).
  const owners = new Set(e.taskIds.map((id) => cards.get(id)).filter(Boolean));
  if (e.from === "client" && e.kind === "request" && m.method === "tools/call" && isObject(m.params)) {
    const key = `${m.params.name} ${JSON.stringify(m.params.arguments ?? {})}`;
    const k = unsent.findIndex((u) => u.key === key);
    const card = k >= 0 ? unsent[k].card : [...callCards.values()].find((c) => c.dataset.key === key && !c.dataset.taskId && !c.dataset.done);
    if (k >= 0) unsent.splice(k, 1);
    if (card) callCards.set(JSON.stringify(m.id), card);
  }
  if (e.from === "server" && (e.kind === "response" || e.kind === "error") && e.method === "tools/call") {
    const card = callCards.get(JSON.stringify(m.id));
    if (card) {
      owners.add(card);
      const r = isObject(m.result) ? m.result : {};
      const taskId = isObject(r.task) ? r.task.taskId : r.resultType === "task" ? r.taskId : undefined;
      if (typeof taskId === "string") bindTask(card, taskId);
      else if (r.resultType === "input_required") noteInputs(card, r.inputRequests);
      else logTo(card, "result", `answered without a task in ${e.latencyMs ?? "?"} ms`);
    }
  }
  const snap = snapshotOf(e);
  if (snap) {
    const card = cards.get(snap.taskId);
    if (card) {
      showFields(card, snap, e);
      noteInputs(card, snap.inputRequests);
    }
  }
  if (e.method === "tasks/get" && isObject(m.params) && typeof m.params.taskId === "string" && e.from === "client") notePoll(m.params.taskId);
  if (e.method === "tasks/get" && e.from === "server" && snap) notePollAnswer(snap, e);
  if (e.from === "client" && m.method === "tasks/update" && isObject(m.params)) logTo(cards.get(m.params.taskId), "update", `tasks/update sent: ${Object.keys(m.params.inputResponses ?? {}).join(", ")}`);
  if (e.from === "client" && m.method === "tasks/cancel" && isObject(m.params)) logTo(cards.get(m.params.taskId), "cancel", "tasks/cancel sent");
  // 2025-11-25: a server request (elicitation) about a task names it in its _meta.
  if (e.from === "server" && e.kind === "request" && isObject(m.params)) {
    const rel = isObject(m.params._meta) && isObject(m.params._meta[RELATED]) ? m.params._meta[RELATED].taskId : undefined;
    const card = typeof rel === "string" ? cards.get(rel) : undefined;
    if (card) inputOwner.set(JSON.stringify(m.params), card);
  }
  for (const card of owners) if (e.issues.length) addIssues(card, e);
}

function noteInputs(card, requests) {
  if (!isObject(requests)) return;
  for (const req of Object.values(requests)) if (isObject(req) && isObject(req.params)) inputOwner.set(JSON.stringify(req.params), card);
}

function notePoll(taskId) {
  const at = Date.now();
  const p = polls.get(taskId) ?? { n: 0, last: null };
  p.n++;
  const gap = p.last === null ? null : at - p.last;
  p.last = at;
  polls.set(taskId, p);
  const card = cards.get(taskId);
  if (!card) return;
  card.dataset.polls = String(p.n);
  logTo(card, "poll", `poll ${p.n} at ${clock(at)}${gap === null ? "" : ` (+${(gap / 1000).toFixed(2)} s)`}`);
}

function notePollAnswer(task, e) {
  const card = cards.get(task.taskId);
  if (!card) return;
  const interval = pollIntervalOf(task);
  const hint = interval ? `, server asks ${interval.ms} ms (${interval.field})` : "";
  const last = card.querySelector(".events li.ev-poll:last-child .ev-text");
  if (last) last.textContent += ` → ${task.status} in ${e.latencyMs ?? "?"} ms${hint}`;
}

/** The poll interval a snapshot asks for, and the field that says it (it differs by version). */
function pollIntervalOf(t) {
  if (typeof t.pollIntervalMs === "number") return { ms: t.pollIntervalMs, field: "pollIntervalMs" };
  if (typeof t.pollInterval === "number") return { ms: t.pollInterval, field: "pollInterval" };
  return null;
}
function ttlOf(t) {
  if ("ttlMs" in t) return { value: t.ttlMs, field: "ttlMs" };
  if ("ttl" in t) return { value: t.ttl, field: "ttl" };
  return null;
}

/** The task's fields as last seen. */
function showFields(card, t, e) {
  const interval = pollIntervalOf(t);
  const ttl = ttlOf(t);
  const rows = [
    ["task id", t.taskId],
    ["status", t.status],
    ["status message", t.statusMessage ?? "—"],
    ["created", t.createdAt ?? "—"],
    ["last updated", t.lastUpdatedAt ?? "—"],
    [ttl ? `TTL (${ttl.field})` : "TTL", ttl ? (ttl.value === null ? "unlimited (null)" : `${ttl.value} ms`) : "—"],
    [interval ? `poll interval (${interval.field})` : "poll interval", interval ? `${interval.ms} ms` : "not given"],
  ];
  card.querySelector(".fields").replaceChildren(...rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", { "data-field": k.split(" (")[0] }, String(v))]));
  card.querySelector(".task-json").textContent = JSON.stringify(t, null, 2);
  card.querySelector(".task-json-when").textContent = ` (from message ${e.n}, ${clock(e.at)})`;
  if (interval) card.dataset.pollInterval = String(interval.ms);
  meta.tasks[t.taskId] = { ...(meta.tasks[t.taskId] ?? {}), status: t.status };
  showSnapshotStatus(card, t, e);
}

function addIssues(card, e) {
  const box = card.querySelector(".card-issues");
  box.hidden = false;
  const list = box.querySelector("ul");
  for (const i of e.issues) {
    const li = issueItem(i);
    li.prepend(h("span", { class: "issue-where" }, `message ${e.n} (${e.kind}${e.method ? ` ${e.method}` : ""}): `));
    list.append(li);
  }
  const n = list.children.length;
  box.querySelector("h5").textContent = `Issues in its messages (${n})`;
  card.dataset.issues = String(n);
}

// ---- one source of truth per card ------------------------------------------------------------------
// The header's status, the fields and the task JSON all show the newest server snapshot seen
// (a CreateTaskResult, a tasks/get or tasks/cancel answer, a notification), and say which message
// it was. The page's own conclusions that are not a server status (calling, a cancel that never
// arrived, a task of a previous session, …) are shown as such. A call that ended while the last
// snapshot was not terminal (a 2026-07-28 cancel is only acknowledged, §D 90; a 2025-11-25
// tasks/result answer carries the result, not the task) is confirmed by reading the task again.

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
/** Reads of a task, at its poll interval, to confirm how it ended (about 5 minutes at 1 s). */
const CONFIRM_READS = 300;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The note after the header's status saying where it comes from. */
function statusSource(card, text) {
  let note = card.querySelector(".status-source");
  if (!note) {
    note = h("span", { class: "status-source hint" });
    card.querySelector(".live-status").after(note);
  }
  note.textContent = text;
}

/** A server snapshot of the card's task: the header shows its status, as the fields do. */
function showSnapshotStatus(card, t, e) {
  card.dataset.snapshot = String(e.n);
  card.dataset.snapshotStatus = t.status;
  // A conclusion of the page's own (no server status) stays; the fields say what the server showed.
  if (card.dataset.pageOutcome) return;
  setStatus(card, t.status, { announce: !card.dataset.done || TERMINAL.has(t.status) });
  const via = e.method ?? (e.kind === "notification" ? "notification" : e.kind);
  statusSource(card, ` (message ${e.n}, ${via}, ${clock(e.at)})`);
}

/**
 * The call of `card` ended the server's way (a result, a failure, a delivered cancel) but its
 * last snapshot is not terminal: reads the task (tasks/get, logged, so the fields, the task JSON
 * and the header show each answer) until the server shows a terminal status, at most
 * CONFIRM_READS times. Resolves when done.
 */
async function confirmByRead(card, why) {
  const taskId = card.dataset.taskId;
  const c = client;
  card.dataset.confirming = "true";
  statusSource(card, ` (as of message ${card.dataset.snapshot ?? "?"}; ${why}: confirming with tasks/get)`);
  logTo(card, "confirm", `${why}: reading the task (tasks/get) until the server shows a terminal status`);
  let status = card.dataset.snapshotStatus ?? "";
  let reads = 0;
  while (!TERMINAL.has(status) && reads < CONFIRM_READS && c === client && !c.connection.closed) {
    if (reads > 0) await sleep(Math.min(Math.max(Number(card.dataset.pollInterval) || 1000, 250), 5000));
    reads++;
    try {
      const t = await c.connection.request("tasks/get", { taskId });
      if (isObject(t) && typeof t.status === "string") status = t.status;
    } catch (e) {
      if (e?.code === -32602) {
        // The server may delete an ended task (§D 24, 94): nothing left to read.
        card.dataset.pageOutcome = card.dataset.outcome;
        setStatus(card, card.dataset.outcome);
        statusSource(card, ` (the call's outcome: the server no longer knows the task, tasks/get answered ${e.code}; its last snapshot, message ${card.dataset.snapshot ?? "?"}, said ${card.dataset.snapshotStatus ?? "?"})`);
        logTo(card, "confirm", `tasks/get answered ${e.code} (${errorText(e)}): the server no longer knows the task`);
        break;
      }
      logTo(card, "error", `confirming read failed: ${errorText(e)}`);
    }
  }
  if (!TERMINAL.has(status) && !card.dataset.pageOutcome) {
    logTo(card, "confirm", `stopped after ${reads} reads: the server still shows ${status}`);
    statusSource(card, ` (as of message ${card.dataset.snapshot ?? "?"}; not confirmed: ${reads} reads found no terminal status)`);
  }
  else if (TERMINAL.has(status)) logTo(card, "confirm", `confirmed by tasks/get: ${status}`);
  delete card.dataset.confirming;
}

/** The card of a task, live or finished (one restored after a reload included). */
function cardFor(taskId) {
  return cards.get(taskId) ?? [...tasksBox.querySelectorAll(".live-card[data-task-id]")].find((c) => c.dataset.taskId === taskId) ?? null;
}

/**
 * "Follow" on a task that has a card already: that card is brought into view and focused, and a
 * finished one is read again (tasks/get) so that it shows what the server says now.
 */
/** "Follow" on a task that already has a card: that card is shown (and a finished one read again). */
function showExistingCard(card) {
  const taskId = card.dataset.taskId;
  showCard(card);
  if (card.dataset.done && client) {
    cards.set(taskId, card);
    logTo(card, "follow", `read again from tasks/list at ${clock(Date.now())}`);
    client.connection.request("tasks/get", { taskId }).catch((e) => logTo(card, "error", `tasks/get: ${errorText(e)}`));
  }
  say(`Task ${taskId} already has a card: shown${card.dataset.done ? " and read again" : ""}.`);
}

// ---- 2025-11-25 sessions across a reload ------------------------------------------------------------
// A 2025-11-25 server may show a task only to the session that created it: after a reload the
// page reuses this tab's session (kept in sessionStorage) if the server still accepts it; if it
// cannot, a resumed task the server does not show is said to belong to a previous session, not
// to have expired.

const SESSION = "mcp-tasks-inspector/live/session/1";
/** How the session in use came about after a reload (shown with the version). */
let sessionNote = "";

function saveSession() {
  const conn = client?.connection;
  if (!conn || conn.protocolVersion === V26 || typeof conn.sessionId !== "string") return;
  try {
    sessionStorage.setItem(SESSION, JSON.stringify({ endpoint, protocolVersion: conn.protocolVersion, sessionId: conn.sessionId, serverCapabilities: conn.serverCapabilities, serverInfo: conn.serverInfo }));
  } catch {
    // storage blocked: a reload opens a new session
  }
}

/** Opens the connection of a restored client: this tab's 2025-11-25 session again if the server accepts it. */
async function openRestored(connection, url, state) {
  let kept = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(SESSION) ?? "null");
  } catch {
    kept = null;
  }
  sessionNote = "";
  const reusable = state.protocolVersion !== V26 && isObject(kept) && kept.endpoint === url && kept.protocolVersion === state.protocolVersion && typeof kept.sessionId === "string";
  if (!reusable) {
    await connection.connect();
    if (connection.sessionId !== null) sessionNote = ", new after the reload: this tab kept no session";
    return;
  }
  Object.assign(connection, { protocolVersion: kept.protocolVersion, sessionId: kept.sessionId, serverCapabilities: isObject(kept.serverCapabilities) ? kept.serverCapabilities : {}, serverInfo: isObject(kept.serverInfo) ? kept.serverInfo : null });
  try {
    await connection.request("ping", {});
    sessionNote = ", reused after the reload";
    return;
  } catch (e) {
    // Not accepted: after a 404 the connection opens a new session itself at the next request;
    // otherwise it starts again from initialize.
    if (e?.kind !== "session_lost") Object.assign(connection, { protocolVersion: null, sessionId: null, serverCapabilities: null, serverInfo: null });
  }
  if (connection.protocolVersion === null) await connection.connect();
  else await connection.request("ping", {});
  sessionNote = `, new after the reload: the server no longer accepts session ${kept.sessionId}`;
}

/** Whether `card`'s task was created in another 2025-11-25 session than the one in use. */
function fromPreviousSession(card) {
  const session = meta.tasks[card.dataset.taskId]?.session ?? card.dataset.session;
  const conn = client?.connection;
  return Boolean(card.dataset.resumed) && conn?.protocolVersion !== V26 && typeof session === "string" && session !== conn?.sessionId;
}

/** Tasks a restored client follows were created before this page's Conversation began (§D 104). */
function knowResumed(state) {
  for (const t of Array.isArray(state?.tasks) ? state.tasks : []) if (isObject(t) && typeof t.taskId === "string") conv.knownTask(t.taskId);
}

// ---- cards ---------------------------------------------------------------------------------------

let cardNo = 0;

function makeCard(tool, args, note) {
  const n = ++cardNo;
  const card = h("article", { class: "card live-card", "data-status": "calling", "data-statuses": "", "data-tool": tool, "data-key": `${tool} ${JSON.stringify(args)}`, "aria-labelledby": `live-card-${n}-h` });
  card.append(
    h("h4", { id: `live-card-${n}-h` }, h("code", {}, tool), " ", h("span", { class: "task-id" }, note ?? "calling…")),
    h("p", { class: "live-line" }, "Status: ", h("strong", { class: "live-status" }, "calling"), h("span", { class: "resumed" }), h("span", { class: "tool-error-badge" })),
    h("p", { class: "hint args" }, `arguments: ${JSON.stringify(args)}`),
    h("dl", { class: "fields" }),
    h("details", { class: "task-json-box" }, h("summary", {}, "Task JSON", h("span", { class: "task-json-when" })), h("pre", { class: "task-json" }, "no task yet")),
    h("div", { class: "input-area" }),
    h("div", { class: "card-actions" }, h("button", { type: "button", class: "cancel secondary" }, "Cancel")),
    h("div", { class: "card-issues", hidden: true }, h("h5", {}, "Issues in its messages"), h("ul", { class: "issues" })),
    h("details", { class: "log", open: true }, h("summary", {}, "Events"), h("ol", { class: "events", tabindex: "0", "aria-label": "Events" })),
    h("div", { class: "outcome" }),
  );
  tasksBox.prepend(card);
  return card;
}

/** Client events about a task no card knows yet (an SSE answer read after the client's). */
const early = new Map();

function bindTask(card, taskId) {
  if (card.dataset.taskId === taskId) return;
  card.dataset.taskId = taskId;
  cards.set(taskId, card);
  const ev = early.get(taskId);
  if (ev) {
    early.delete(taskId);
    if (ev.status) setStatus(card, ev.status);
  }
  card.querySelector(".task-id").textContent = `task ${taskId}`;
  meta.tasks[taskId] = { ...(meta.tasks[taskId] ?? {}), tool: card.dataset.tool, args: card.querySelector(".args").textContent };
  const conn = client?.connection;
  if (conn && conn.protocolVersion !== V26 && typeof conn.sessionId === "string") meta.tasks[taskId].session ??= conn.sessionId;
  if (meta.tasks[taskId].session) card.dataset.session = meta.tasks[taskId].session;
}

function logTo(card, kind, text) {
  if (!card) return;
  const list = card.querySelector(".events");
  list.append(h("li", { class: `ev-${kind}` }, h("span", { class: "ev-kind" }, kind), " ", h("span", { class: "ev-text" }, text)));
  if (list.children.length > 200) list.firstElementChild.remove();
}

/** Sets the card's status; a change is announced (the live status line), polls are not. */
function setStatus(card, status, { announce = true } = {}) {
  if (!card) return;
  const before = card.dataset.status;
  card.dataset.status = status;
  card.querySelector(".live-status").textContent = status;
  const seen = card.dataset.statuses ? card.dataset.statuses.split(" ") : [];
  if (seen.at(-1) !== status) card.dataset.statuses = [...seen, status].join(" ");
  if (announce && before !== status) say(`${card.dataset.tool}${card.dataset.taskId ? ` (task ${card.dataset.taskId.slice(0, 8)})` : ""}: ${status}.`);
}

/**
 * Shows how a call ended. `server` (a result, a failure, a delivered cancel): the server's own
 * outcome, so the header keeps showing the server's snapshots, confirmed by a read when the last
 * one is not terminal (the card is done once confirmed); otherwise `status` is the page's
 * conclusion (no task, a cancel not delivered, a task of a previous session, …).
 */
function finishCard(card, status, body, { toolError = false, server = false } = {}) {
  if (toolError) {
    card.dataset.toolError = "true";
    card.querySelector(".tool-error-badge").textContent = " — the tool reported an error (isError)";
  }
  card.dataset.outcome = status;
  const confirm = server && card.dataset.taskId && client && !TERMINAL.has(card.dataset.snapshotStatus ?? "");
  if (!server || !card.dataset.taskId) {
    card.dataset.pageOutcome = status;
    setStatus(card, status);
    if (card.dataset.snapshot) statusSource(card, ` (the page's conclusion; the server's last snapshot, message ${card.dataset.snapshot}, said ${card.dataset.snapshotStatus})`);
  }
  if (!card.dataset.taskId) card.querySelector(".task-id").textContent = status === "completed" ? "no task: answered at once" : "no task";
  card.querySelector(".cancel").disabled = true;
  card.querySelector(".input-area").replaceChildren();
  const heading = toolError ? "Tool error" : status === "completed" ? "Result" : "Outcome";
  card.querySelector(".outcome").replaceChildren(h("h5", {}, heading), h("pre", { class: `result${toolError || status !== "completed" ? " is-error" : ""}` }, body));
  if (card.dataset.taskId) delete meta.tasks[card.dataset.taskId];
  const end = () => {
    card.dataset.done = "true";
    keepFinished(card);
    save();
  };
  if (confirm) confirmByRead(card, status === "cancelled" ? "the cancel was acknowledged" : status === "failed" ? "the call failed" : "the result arrived").finally(end);
  else end();
}

function resultText(result) {
  const texts = Array.isArray(result?.content) ? result.content.filter((c) => c?.type === "text").map((c) => c.text) : [];
  return texts.join("\n") || JSON.stringify(result, null, 2);
}

/** Waits for a call (or a followed task) and shows how it ended. */
async function settle(card, promise) {
  try {
    const result = await promise;
    finishCard(card, "completed", resultText(result), { toolError: result?.isError === true, server: true });
  } catch (e) {
    // A cancel that never reached the server is not a cancelled task: the task may still run.
    if ((e instanceof TaskCancelledError || e?.name === "TaskCancelledError") && e.delivered === false) {
      finishCard(card, "cancel-failed", `The cancel did not reach the server: the task may still be running there. (${errorText(e)})`);
    } else if (e instanceof TaskCancelledError || e?.name === "TaskCancelledError") finishCard(card, "cancelled", errorText(e), { server: true });
    else if (e?.name === "AbortError" && !card.dataset.taskId) finishCard(card, "cancelled", "cancelled before a task existed");
    else if ((e?.name === "TaskExpiredError" || e?.kind === "session_lost") && fromPreviousSession(card)) finishCard(card, "previous-session", previousSessionText(card));
    else if (e?.name === "TaskFailedError") finishCard(card, "failed", errorText(e), { server: true });
    else if (e?.name === "TaskExpiredError") finishCard(card, "expired", errorText(e));
    else finishCard(card, "failed", errorText(e));
  }
}

/** A resumed 2025-11-25 task the server does not show to the session in use. */
function previousSessionText(card) {
  const was = meta.tasks[card.dataset.taskId]?.session ?? card.dataset.session;
  const now = client?.connection.sessionId ?? "none";
  return `This task belongs to a previous session (${was}), not to this page's session (${now}): after the reload the server did not accept that session again, and it shows a task only to the session that created it. Nothing says it ended: it may still be running in its own session.`;
}

function wireCancel(card, ac) {
  card.querySelector(".cancel").addEventListener("click", () => {
    logTo(card, "cancel", "cancel requested");
    card.querySelector(".cancel").disabled = true;
    ac.abort();
  });
}

/** A finished card kept (as its text) for the next reload. */
function keepFinished(card) {
  if (card.dataset.restoredFinished) return;
  meta.finished.unshift({
    tool: card.dataset.tool,
    args: card.querySelector(".args").textContent,
    taskId: card.dataset.taskId ?? null,
    status: card.dataset.status,
    statuses: card.dataset.statuses,
    toolError: card.dataset.toolError === "true",
    outcome: card.querySelector(".outcome pre")?.textContent ?? "",
    fields: card.querySelector(".task-json").textContent,
    at: Date.now(),
  });
  meta.finished.length = Math.min(meta.finished.length, FINISHED_KEPT);
}

function drawFinished(f) {
  const card = makeCard(f.tool, {}, f.taskId ? `task ${f.taskId}` : "no task");
  tasksBox.append(card); // oldest last: below the live ones
  card.querySelector(".args").textContent = f.args;
  card.dataset.restoredFinished = "true";
  card.dataset.done = "true";
  if (f.taskId) card.dataset.taskId = f.taskId;
  card.dataset.statuses = f.statuses ?? "";
  card.dataset.status = f.status;
  card.querySelector(".live-status").textContent = f.status;
  if (f.toolError) {
    card.dataset.toolError = "true";
    card.querySelector(".tool-error-badge").textContent = " — the tool reported an error (isError)";
  }
  card.querySelector(".resumed").textContent = ` (finished ${clock(f.at)}, before a reload)`;
  card.querySelector(".task-json").textContent = f.fields;
  card.querySelector(".cancel").disabled = true;
  card.querySelector(".log").open = false;
  card.querySelector(".outcome").replaceChildren(h("h5", {}, f.toolError ? "Tool error" : f.status === "completed" ? "Result" : "Outcome"), h("pre", { class: `result${f.toolError || f.status !== "completed" ? " is-error" : ""}` }, f.outcome));
}

// ---- input requests --------------------------------------------------------------------------------

let formNo = 0;

/** An accessible form for an elicitation's `requestedSchema`; resolves with the ElicitResult. */
function askUser(params) {
  const card = inputOwner.get(JSON.stringify(params)) ?? [...tasksBox.querySelectorAll(".live-card")].find((c) => c.dataset.status === "input_required") ?? tasksBox.querySelector(".live-card:not([data-done])");
  const area = card ? card.querySelector(".input-area") : tasksBox;
  const n = ++formNo;
  const props = params.requestedSchema?.properties ?? {};
  const required = new Set(params.requestedSchema?.required ?? []);
  const form = h("form", { class: "input-form panel", "aria-labelledby": `input-${n}-msg` });
  form.append(h("p", { id: `input-${n}-msg`, class: "input-message" }, h("strong", {}, "The server asks: "), String(params.message ?? "")));
  const fields = [];
  for (const [name, schema] of Object.entries(props)) {
    const id = `input-${n}-${name}`;
    const label = schema.title ?? name;
    const desc = schema.description ? h("span", { class: "hint", id: `${id}-d` }, schema.description) : null;
    let input;
    if (schema.type === "boolean") {
      input = h("input", { type: "checkbox", id, name, "aria-describedby": desc ? `${id}-d` : null });
      if (schema.default === true) input.checked = true;
      form.append(h("div", { class: "check" }, input, h("label", { for: id }, label), desc));
    } else {
      const options = Array.isArray(schema.enum) ? schema.enum : Array.isArray(schema.oneOf) ? schema.oneOf.map((o) => o.const) : null;
      if (options) {
        input = h("select", { id, name, required: required.has(name) }, options.map((o) => h("option", { value: String(o) }, String(o))));
      } else if (schema.type === "number" || schema.type === "integer") {
        input = h("input", { type: "number", id, name, required: required.has(name), step: schema.type === "integer" ? "1" : "any", min: schema.minimum, max: schema.maximum });
      } else {
        input = h("input", { type: "text", id, name, required: required.has(name) });
      }
      if (schema.default !== undefined) input.value = String(schema.default);
      form.append(h("div", { class: "field" }, h("label", { for: id }, label, required.has(name) ? " (required)" : ""), desc, input));
    }
    fields.push({ name, schema, input });
  }
  const accept = h("button", { type: "submit", class: "accept" }, "Send answer");
  const decline = h("button", { type: "button", class: "decline secondary" }, "Decline");
  form.append(h("div", { class: "card-actions" }, accept, decline));
  area.append(form);
  // The next question of a card whose previous answer was just sent takes focus (it sits on the
  // card's status line then); any other new form is announced, not focused.
  if (card && document.activeElement === card.querySelector(".live-line")) form.querySelector("input, select, textarea, button")?.focus();
  if (card) {
    logTo(card, "input", `input requested: ${params.message ?? ""}`);
    if (card.dataset.status !== "input_required") setStatus(card, "input_required", { announce: false });
  }
  return new Promise((resolve) => {
    const done = (answer, note) => {
      const focused = form.contains(document.activeElement);
      form.replaceWith(h("p", { class: "hint answered" }, note));
      if (card) logTo(card, "input", note);
      if (focused) focusAfterAnswer(card, area);
      resolve(answer);
    };
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const content = {};
      for (const { name, schema, input } of fields) {
        if (schema.type === "boolean") content[name] = input.checked;
        else if (schema.type === "number" || schema.type === "integer") {
          if (input.value !== "") content[name] = Number(input.value);
        } else if (input.value !== "" || required.has(name)) content[name] = input.value;
      }
      done({ action: "accept", content }, `answered: ${JSON.stringify(content)}`);
    });
    decline.addEventListener("click", () => done({ action: "decline" }, "declined"));
    // Announced rather than focused: focus stays where the user is.
    say(`${card?.dataset.tool ?? "A tool"} asks: ${params.message ?? "input"} (a form in its card)`);
  });
}

/**
 * Where focus goes once an input form is answered (the form is gone): the next question of the
 * same card, else the card's status line, which the answer changes.
 */
function focusAfterAnswer(card, area) {
  const next = area.querySelector("form.input-form input, form.input-form select, form.input-form textarea, form.input-form button");
  if (next) return next.focus();
  const line = card?.querySelector(".live-line");
  if (!line) return;
  line.tabIndex = -1;
  line.focus();
}

// ---- the client, its events and persistence ------------------------------------------------------------

let client = null;
let endpoint = "";
/** What the page knows of each pending task (tool, arguments, last status) and the finished cards. */
const meta = { tasks: {}, finished: [] };
const HANDLERS = { elicitation: askUser };

function save() {
  if (!client) return;
  try {
    localStorage.setItem(STORE, JSON.stringify({ endpoint, pin: $("version").value, client: client.serialize(), tasks: meta.tasks, finished: meta.finished }));
    saveSession();
  } catch {
    // storage full or blocked: live mode still works, it just won't survive a reload
  }
}

async function pump(c) {
  for await (const ev of c.events()) {
    if (c !== client) return;
    const card = cards.get(ev.taskId);
    if (!card) early.set(ev.taskId, ev);
    switch (ev.type) {
      case "taskCreated": {
        if (!card?.dataset.snapshot) setStatus(card, ev.status ?? "working");
        const interval = isObject(ev.task) ? pollIntervalOf(ev.task) : null;
        logTo(card, "created", `task created (${ev.status})${interval ? `, ${interval.field} ${interval.ms} ms` : ""}`);
        break;
      }
      case "taskStatus":
        if (!card?.dataset.snapshot) setStatus(card, ev.status);
        logTo(card, "status", `status: ${ev.status}${ev.task?.statusMessage ? ` (${ev.task.statusMessage})` : ""}`);
        break;
      case "inputRequired":
        break; // the handler draws the form
      case "pollError":
        logTo(card, "error", `poll error: ${errorText(ev.error)} (the next poll backs off)`);
        break;
      case "stuck":
        logTo(card, "stuck", `no change for a long time (still ${ev.status})`);
        break;
      case "error":
        // A cancel that never reached the server: the task may still be running there.
        if (ev.error?.delivered === false) logTo(card, "cancel-failed", "cancel not delivered: the server could not be reached after retries; no longer followed");
        else if ((ev.error?.name === "TaskExpiredError" || ev.error?.kind === "session_lost") && card && fromPreviousSession(card)) logTo(card, "previous-session", "the server does not show the task to this session: it belongs to the session that created it");
        else logTo(card, "ended", `${ev.error?.name ?? "error"}${ev.task ? ` (status ${ev.task.status})` : ""}: ${errorText(ev.error)}`);
        break;
      case "result":
        // Its status is in the snapshots (the fields): a 2025-11-25 result carries no task.
        logTo(card, "result", `result received${ev.task ? ` (status ${ev.task.status})` : ""}`);
        break;
      default:
        logTo(card, ev.type, `${ev.type}${ev.status ? ` (${ev.status})` : ""}`);
    }
    save();
  }
}

const CAPS = (version) => (version === V26 ? { extensions: { "io.modelcontextprotocol/tasks": {} }, elicitation: {} } : { tasks: {}, elicitation: {} });

/** Connects (negotiating the version, or the one picked) and starts following the client's events. */
async function connect(url, pin, state) {
  if (client) {
    const old = client;
    client = null;
    old.close().catch(() => {});
  }
  $("live-version").textContent = "not connected";
  delete $("live-mode").dataset.version;
  showServerTasks();
  conv?.free();
  conv = new Conversation({ maxTasks: 100_000, ...(state && [V25, V26].includes(state.protocolVersion) ? { version: state.protocolVersion } : {}) });
  if (state) knowResumed(state);
  sent.clear();
  endpoint = url;
  let c;
  if (state) {
    // A restored client speaks the version it had: the connection is pinned to it.
    const connection = new HttpConnection(url, { protocolVersion: state.protocolVersion, fetch: loggingFetch, capabilities: CAPS });
    await openRestored(connection, url, state);
    c = TaskClient.restore(state, { request: connection.request, handlers: HANDLERS, server: new URL(url).host });
    c.connection = connection;
  } else {
    // push: false keeps the view's polls (the live mode shows each one as it happens).
    c = await TaskClient.connect(url, { fetch: loggingFetch, handlers: HANDLERS, server: new URL(url).host, push: false, ...(pin ? { protocolVersion: pin } : {}) });
  }
  client = c;
  pump(c);
  const conn = c.connection;
  $("live-version").textContent = `${conn.protocolVersion}${conn.protocolVersion === V25 ? ` (session ${conn.sessionId ?? "none"}${state ? sessionNote : ""})` : ""}${conn.serverInfo?.name ? `, server ${conn.serverInfo.name} ${conn.serverInfo.version ?? ""}` : ""}`;
  $("live-mode").dataset.version = conn.protocolVersion;
  showServerTasks();
  return c;
}

// ---- connection errors: told apart ----------------------------------------------------------------------

// What went wrong, worded from what a page can know (www/connect-errors.js): `explain`.

async function showError(e, url, what) {
  showExplained(await explain(e, url), what);
}

function showExplained(x, what) {
  const box = $("live-error");
  box.dataset.kind = x.kind;
  box.replaceChildren(...[h("h3", {}, x.title), h("p", {}, x.detail), h("p", { class: "try" }, h("strong", {}, "What to try: "), x.tryThis.split("`").map((part, i) => (i % 2 ? h("code", {}, part) : part))), x.headers ? h("pre", { class: "cors-headers" }, x.headers) : null].filter(Boolean));
  box.hidden = false;
  say(`Could not ${what}: ${x.title}.`);
}

// ---- tools ------------------------------------------------------------------------------------------

async function listTools() {
  toolsBox.dataset.ready = "false";
  const result = await client.connection.request("tools/list", {});
  const tools = Array.isArray(result.tools) ? result.tools : [];
  toolsBox.replaceChildren(...tools.map(toolForm));
  toolsBox.dataset.ready = "true";
  say(`${tools.length} tools at ${endpoint} (${client.connection.protocolVersion}).`);
}

/** A tool's form, built from its inputSchema (www/form.js). */
function toolForm(tool) {
  return schemaForm(tool, { onCall: (args) => call(String(tool.name), args), say });
}

function call(name, args) {
  const card = makeCard(name, args);
  showCard(card);
  unsent.push({ key: card.dataset.key, card });
  const ac = new AbortController();
  wireCancel(card, ac);
  say(`Calling ${name}…`);
  // 2025-11-25: ask for a task (a `required` or `optional` tool gets one, a `forbidden` one not).
  settle(card, client.callTool(name, args, { signal: ac.signal, task: {} }));
}

/**
 * Brings a new card into view and focuses its heading (named by the tool and the task): the
 * call's status and result appear there, however far the tool's form is from the cards.
 */
function showCard(card) {
  const heading = card.querySelector("h4");
  heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
  card.scrollIntoView({ block: "nearest" });
}

// ---- the server's tasks (2025-11-25 tasks/list) ---------------------------------------------------------

function showServerTasks() {
  const box = $("server-tasks");
  const v = client?.connection.protocolVersion;
  const caps = client?.connection.serverCapabilities ?? {};
  const can = v === V25 && isObject(caps.tasks) && isObject(caps.tasks.list);
  $("list-tasks").disabled = !can;
  box.querySelector(".hint").textContent = !client ? "Connect first." : v === V26
    ? "2026-07-28 has no tasks/list: only the tasks this page started (or restored) are shown."
    : can ? "The server lists its tasks (2025-11-25 tasks/list): follow one to watch it here." : "This server does not declare tasks.list.";
}

async function listServerTasks(cursor) {
  const result = await client.connection.request("tasks/list", cursor ? { cursor } : {});
  const tasks = Array.isArray(result.tasks) ? result.tasks : [];
  const table = $("server-task-list");
  if (!cursor) table.replaceChildren();
  for (const t of tasks) {
    if (!isObject(t) || typeof t.taskId !== "string") continue;
    const carded = cardFor(t.taskId) !== null;
    table.append(h("li", { class: "server-task", "data-task-id": t.taskId },
      h("code", {}, t.taskId), " ", h("span", { class: `st-text st-${t.status}` }, String(t.status)), " ",
      h("span", { class: "hint" }, `created ${t.createdAt ?? "?"}${t.statusMessage ? `, ${t.statusMessage}` : ""}`), " ",
      h("button", { type: "button", class: "follow secondary", "data-task-id": t.taskId, "aria-label": `${carded ? "Show the card of" : "Follow"} task ${t.taskId}` }, carded ? "Show card" : "Follow")));
  }
  if (!cursor && tasks.length === 0) table.append(h("li", { class: "server-task-empty hint" }, "No tasks: the server's tasks/list answered an empty list."));
  const more = $("more-tasks");
  more.hidden = typeof result.nextCursor !== "string";
  more.dataset.cursor = result.nextCursor ?? "";
  say(`The server lists ${tasks.length} task${tasks.length === 1 ? "" : "s"}${typeof result.nextCursor === "string" ? " (more on the next page)" : ""}.`);
}

function followListed(taskId) {
  const existing = cardFor(taskId);
  if (existing) return showExistingCard(existing);
  const card = makeCard("(listed)", {}, `task ${taskId}`);
  bindTask(card, taskId);
  setStatus(card, "following", { announce: false });
  logTo(card, "follow", `followed from tasks/list at ${clock(Date.now())}`);
  const ac = new AbortController();
  wireCancel(card, ac);
  settle(card, client.follow(taskId, { signal: ac.signal }));
}

$("list-tasks").addEventListener("click", () => listServerTasks(null).catch((e) => showError(e, endpoint, "list the tasks")));
$("more-tasks").addEventListener("click", (ev) => listServerTasks(ev.target.dataset.cursor).catch((e) => showError(e, endpoint, "list the tasks")));
$("server-task-list").addEventListener("click", (ev) => {
  const b = ev.target.closest("button.follow");
  if (!b) return;
  followListed(b.dataset.taskId);
  b.textContent = "Show card";
  b.setAttribute("aria-label", `Show the card of task ${b.dataset.taskId}`);
});

$("endpoint-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const typed = endpointOf($("endpoint").value);
  if (typed.error) {
    showExplained(typed.error, "connect");
    return;
  }
  const url = typed.url;
  $("live-error").hidden = true;
  if (typed.completed) $("endpoint").value = url;
  say(typed.completed ? `No scheme given: connecting to ${url}…` : `Connecting to ${url}…`);
  try {
    const pin = $("version").value;
    if (!client || url !== endpoint || (pin && pin !== client.connection.protocolVersion)) await connect(url, pin, null);
    await listTools();
    save();
  } catch (e) {
    await showError(e, url, "list the tools");
  }
});

// ---- start: restore a saved client, follow its tasks ---------------------------------------------------

async function start() {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(STORE) ?? "null");
  } catch {
    saved = null;
  }
  // Opened by `mcp-tasks-wasm inspect`: its bridge is the endpoint (www/bridge.js),
  // connected below (the fragment reads #live).
  if (bridgeEndpoint && saved?.endpoint !== bridgeEndpoint) saved = { pin: saved?.pin, finished: saved?.finished, endpoint: bridgeEndpoint };
  const resume = Array.isArray(saved?.client?.tasks) && saved.client.tasks.length > 0;
  if (isLiveHash() || resume) setMode("live");
  else setMode("transcript");
  if (saved && typeof saved.endpoint === "string" && saved.endpoint) $("endpoint").value = saved.endpoint;
  if (saved && typeof saved.pin === "string") $("version").value = saved.pin;
  if (Array.isArray(saved?.finished)) meta.finished = saved.finished.filter(isObject).slice(0, FINISHED_KEPT);
  for (const f of meta.finished) drawFinished(f);
  // Nothing is sent unless live mode is open or a task is pending: transcript mode stays offline.
  if (saved && typeof saved.endpoint === "string" && saved.endpoint && (resume || isLiveHash())) {
    try {
      await connect(saved.endpoint, saved.pin ?? "", resume ? saved.client : null);
      Object.assign(meta.tasks, saved.tasks ?? {});
      const pending = client.pending();
      for (const taskId of pending) {
        const info = meta.tasks[taskId] ?? { tool: "?", args: "" };
        const card = makeCard(info.tool ?? "?", {}, `task ${taskId}`);
        card.querySelector(".args").textContent = info.args ?? "";
        bindTask(card, taskId);
        card.querySelector(".resumed").textContent = " (resumed after a reload)";
        card.dataset.resumed = "true";
        // Its last known status until the first poll tells the current one.
        setStatus(card, info.status ?? "working", { announce: false });
        statusSource(card, " (last known before the reload)");
        logTo(card, "resumed", `restored from this browser's storage at ${clock(Date.now())}; following again`);
        const ac = new AbortController();
        wireCancel(card, ac);
        settle(card, client.follow(taskId, { signal: ac.signal }));
      }
      await listTools().catch((e) => showError(e, saved.endpoint, "list the tools"));
      if (pending.length) say(`Resumed ${pending.length} task${pending.length === 1 ? "" : "s"} at ${saved.endpoint}.`);
    } catch (e) {
      await showError(e, saved.endpoint, "restore the saved session");
      localStorage.removeItem(STORE);
    }
  }
  $("live-mode").dataset.ready = "true";
}

start();
