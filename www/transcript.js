// The inspector's transcript mode: a Web Worker (transcript-worker.js) runs a `Conversation` of
// the package's browser entry over a JSONL transcript (a bundled sample, a file, read as a
// stream, or pasted text) and posts its progress and the task rows as it goes; the page draws a
// summary per version, a task table that renders only the rows in view (filters by version,
// status, "has issues", a search by task id, "next error"), and cards: one per task, with an SVG
// timeline of its statuses and the messages about it with their issues (every card for up to
// CARDS_ALL tasks, else the selected task's). A line may also be a timed message as live mode's
// "Export with times" writes it ({"at", "from", "message"}): then answers show their latency. Plain DOM and inline SVG; everything happens in the
// page: nothing is sent anywhere.

import { ruleNode, setRules } from "./rules.js";

const SVG = "http://www.w3.org/2000/svg";
const STATUSES = ["working", "input_required", "completed", "failed", "cancelled"];

const $ = (id) => document.getElementById(id);
const status = $("status");
const results = $("results");

/** An HTML element with attributes and children (strings become text). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, v);
  el.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

/** An SVG element with attributes and children. */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  el.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

// ---- timeline ------------------------------------------------------------------------------

const pct = (x) => `${Math.round(x * 100) / 100}%`;

function timeLabel(at, t, t0) {
  if (!Number.isFinite(t)) return at ?? "no time";
  const clock = new Date(t).toISOString().slice(11, 19);
  return Number.isFinite(t0) && t !== t0 ? `${clock} (+${Math.round((t - t0) / 1000)} s)` : clock;
}

/**
 * The statuses of a task as runs (consecutive equal statuses merged), placed on a time axis when
 * every time is readable and in order, else in message order.
 */
export function layout(timeline) {
  const events = timeline.events.filter((e) => e.status !== null);
  const times = events.map((e) => (e.at === null ? NaN : Date.parse(e.at)));
  const ordered = times.every((t, i) => Number.isFinite(t) && (i === 0 || t >= times[i - 1]));
  const t0 = times[0];
  const span = ordered ? times[times.length - 1] - t0 : 0;
  const byTime = ordered && span > 0;
  // Positions on 0..88 %: the last run extends to 100 % (the status as last seen).
  const pos = (k) => (byTime ? ((times[k] - t0) / span) * 88 : (k / Math.max(events.length, 1)) * 100);
  const runs = [];
  events.forEach((e, k) => {
    const last = runs[runs.length - 1];
    if (last && last.status === e.status) last.events.push({ ...e, k });
    else runs.push({ status: e.status, start: pos(k), events: [{ ...e, k }] });
  });
  runs.forEach((r, i) => (r.end = i + 1 < runs.length ? runs[i + 1].start : 100));
  return { events, times, runs, byTime, t0, pos };
}

/**
 * The SVG timeline of a task; `flagged` (messages about it with issues) are marked as red
 * triangles on the axis, where they fall among the status events (and their dots are red).
 */
function timelineSvg(timeline, reportsByIndex, flagged = []) {
  const { runs, times, byTime, t0, pos, events } = layout(timeline);
  const ROW = 40;
  const height = Math.max(runs.length, 1) * ROW + 34 + (flagged.length ? 16 : 0);
  const flaggedIdx = new Set(flagged.map((m) => m.report.index));
  const summary = (runs.length
    ? runs.map((r) => `${r.status} from ${timeLabel(r.events[0].at, times[r.events[0].k], t0)}`).join(", then ")
    : "no status shown") + (flagged.length ? `; ${flagged.length} message${flagged.length === 1 ? "" : "s"} with issues marked` : "");
  const titleId = `tl-${Math.random().toString(36).slice(2)}`;
  const svg = s("svg", {
    class: "timeline", width: "100%", height, role: "img", "aria-labelledby": titleId,
    "data-statuses": runs.map((r) => r.status).join(" "),
  }, s("title", { id: titleId }, `Status timeline of task ${timeline.taskId}: ${summary}.`));
  runs.forEach((r, i) => {
    const y = i * ROW;
    const first = r.events[0];
    const width = Math.max(r.end - r.start, 1.5);
    const known = STATUSES.includes(r.status) ? r.status : "unknown";
    const g = s("g", { class: `run st-${known}`, "data-status": r.status },
      s("text", { x: r.start > 60 ? pct(r.end) : pct(r.start), y: y + 14, "text-anchor": r.start > 60 ? "end" : "start", class: "run-label" },
        s("tspan", { class: "run-status" }, r.status),
        s("tspan", { class: "run-time" }, ` ${timeLabel(first.at, times[first.k], t0)}`)),
      s("rect", { x: 0, y: y + 20, width: "100%", height: 12, class: "track", rx: 2 }),
      s("rect", { x: pct(r.start), y: y + 20, width: pct(width), height: 12, class: "bar", rx: 2 }),
      s("rect", { x: pct(r.start), y: y + 20, width: pct(width), height: 12, fill: `url(#pat-${known})`, rx: 2 }),
    );
    for (const e of r.events) {
      const rep = reportsByIndex.get(e.index);
      const what = rep ? `${rep.rpc}${rep.method ? ` ${rep.method}` : ""}` : e.source;
      const bad = flaggedIdx.has(e.index);
      g.append(s("circle", { cx: pct(Math.min(pos(e.k), 99.3)), cy: y + 26, r: bad ? 5 : 4, class: bad ? "mark violation" : "mark" },
        s("title", {}, `message #${e.index} (${what}): ${e.status} at ${e.at ?? "no time"}${e.seenAt ? `, recorded ${e.seenAt}` : ""}${e.statusMessage ? `: ${e.statusMessage}` : ""}${bad ? ` (${rep.issues.map((i) => i.code).join(", ")})` : ""}`)));
    }
    svg.append(g);
  });
  const axisY = runs.length * ROW + 8;
  // Violations: each message with issues, placed after the last status event before it.
  if (flagged.length) {
    const marks = s("g", { class: "violations" });
    for (const m of flagged) {
      let k = -1;
      events.forEach((e, i) => {
        if (e.index <= m.report.index) k = i;
      });
      const x = Math.min(Math.max(k >= 0 ? pos(k) : 0, 0.8), 99.2);
      // An SVG path cannot be placed in %: a nested svg at x% holds the triangle.
      marks.append(s("svg", { x: pct(x), y: axisY - 5, overflow: "visible", class: "violation", "data-index": m.report.index },
        s("path", { d: "M0,0 l-6,11 h12 z", class: "violation-mark" }),
        s("title", {}, `message #${m.report.index} (line ${m.line}, ${m.report.rpc}${m.report.method ? ` ${m.report.method}` : ""}): ${m.report.issues.map((i) => `${i.severity} ${i.code}`).join(", ")}`)));
    }
    svg.append(marks);
  }
  svg.append(s("g", { class: "axis" },
    s("line", { x1: 0, x2: "100%", y1: axisY, y2: axisY }),
    s("text", { x: 0, y: axisY + 18 + (flagged.length ? 14 : 0) }, byTime ? `${new Date(t0).toISOString().slice(0, 19)}Z` : "in message order"),
    s("text", { x: "100%", y: axisY + 18 + (flagged.length ? 14 : 0), "text-anchor": "end" }, byTime ? `last seen →` : "→")));
  return { svg, byTime, runs };
}

// ---- cards ---------------------------------------------------------------------------------

function issueList(issues) {
  return h("ul", { class: "issues" }, issues.map((i) =>
    h("li", { class: `issue sev-${i.severity}` },
      h("span", { class: "sev" }, i.severity), " ",
      h("code", { class: "issue-code" }, i.code), " ", ruleNode(i.code), " at ",
      h("code", { class: "issue-path", title: "JSON Pointer into the message" }, i.path === "" ? '"" (whole message)' : i.path),
      h("span", { class: "issue-message" }, i.message))));
}

function pairText(report, pair) {
  const after = pair && pair.ms !== null && pair.ms !== undefined ? ` after ${pair.ms} ms` : "";
  if (report.rpc === "request") return pair ? `answered by #${pair.index} (line ${pair.line})${after}` : "no answer in the transcript";
  if (report.rpc === "result" || report.rpc === "error") return pair ? `answers #${pair.index} (line ${pair.line})${after}` : "answers no request seen";
  return null;
}

function messageItem({ line, text, report, pair }) {
  const what = `${report.rpc}${report.method ? ` · ${report.method}` : ""}`;
  const paired = pairText(report, pair);
  return h("li", { class: `message ${report.issues.length ? "has-issues" : "clean"}`, "data-index": report.index },
    h("div", { class: "message-head" },
      h("span", { class: "msg-no" }, `#${report.index}`), " ",
      h("span", { class: "msg-what" }, what), " ",
      h("span", { class: "msg-kind" }, report.kind), " ",
      h("span", { class: "msg-line" }, `line ${line}`), " ",
      paired ? h("span", { class: "msg-pair" }, paired) : null, " ",
      report.issues.length ? null : h("span", { class: "ok" }, "✓ no issues")),
    report.issues.length ? issueList(report.issues) : null,
    h("details", {}, h("summary", {}, "Message JSON"), h("pre", {}, text)));
}

function counts(reports) {
  let errors = 0, warnings = 0;
  for (const r of reports) for (const i of r.issues) i.severity === "error" ? errors++ : warnings++;
  return { errors, warnings };
}

/** "Created by tools/call NAME with arguments …", from the request paired with the task's creation. */
function creatorLine(creator) {
  if (!creator) return h("p", { class: "creator hint" }, "The tools/call that created this task is not in the transcript.");
  let params = {};
  try {
    params = JSON.parse(creator.text).params ?? {};
  } catch {
    params = {};
  }
  return h("p", { class: "creator" }, "Created by ", h("code", {}, "tools/call"), " ",
    h("code", { class: "creator-tool" }, String(params.name ?? "?")), " with arguments ",
    h("code", { class: "creator-args" }, JSON.stringify(params.arguments ?? {})),
    h("span", { class: "hint" }, ` (message #${creator.report.index}, line ${creator.line})`));
}

function taskCard(timeline, messages, reportsByIndex, creator = null) {
  const mine = messages.filter((m) => m.report.taskIds.includes(timeline.taskId));
  const { errors, warnings } = counts(mine.map((m) => m.report));
  const { svg, byTime } = timelineSvg(timeline, reportsByIndex, mine.filter((m) => m.report.issues.length));
  const final = timeline.finalStatus ?? "none";
  const headingId = `task-${Math.random().toString(36).slice(2)}`;
  return h("article", { class: "card task-card", "data-task-id": timeline.taskId, "aria-labelledby": headingId },
    h("h3", { id: headingId }, "Task ", h("code", { class: "task-id" }, timeline.taskId)),
    h("p", { class: "badges" },
      h("span", { class: "badge" }, `version ${timeline.version ?? "unknown"}`),
      h("span", { class: `badge final st-${final}` }, "final status: ", h("strong", { class: "final-status" }, final)),
      h("span", { class: `badge ${errors ? "bad" : ""}` }, `${errors} error${errors === 1 ? "" : "s"}`),
      h("span", { class: `badge ${warnings ? "warn" : ""}` }, `${warnings} warning${warnings === 1 ? "" : "s"}`)),
    creatorLine(creator),
    h("figure", { class: "timeline-figure" }, svg,
      h("figcaption", {}, (byTime
        ? "Statuses over time (UTC, seconds since the task was created); dots are the messages that showed them."
        : "Statuses in message order: the times shown are unreadable or not in order, so they are not drawn to scale.") +
        (errors + warnings ? " Red triangles: messages with issues." : ""))),
    h("p", { class: "hint" }, "Requests and their answers are paired by id and method; the time between them shows when the transcript has times (live mode's \"Export with times\"): plain JSON-RPC lines have none."),
    h("h4", {}, `Messages about this task (${mine.length})`),
    h("ol", { class: "messages" }, mine.map(messageItem)));
}

function conversationCard(messages, total = messages.length) {
  const { errors, warnings } = counts(messages.map((m) => m.report));
  return h("article", { class: "card conversation-card", "aria-labelledby": "conv-heading" },
    h("h3", { id: "conv-heading" }, "Conversation"),
    h("p", { class: "badges" },
      h("span", { class: `badge ${errors ? "bad" : ""}` }, `${errors} error${errors === 1 ? "" : "s"}`),
      h("span", { class: `badge ${warnings ? "warn" : ""}` }, `${warnings} warning${warnings === 1 ? "" : "s"}`)),
    h("p", { class: "hint" }, "Messages with issues that are not about a task this conversation created."),
    h("ol", { class: "messages" }, messages.map(messageItem)),
    total > messages.length ? h("p", { class: "hint" }, `…and ${(total - messages.length).toLocaleString("en-US")} more such messages (the first ${messages.length} are shown; the counts above are theirs).`) : null);
}

/** The summary per protocol version: { version: { messages, tasks, errors, warnings } }. */
function summaryTable(versions) {
  const rows = Object.entries(versions);
  return h("div", { class: "table-wrap" }, h("table", { class: "summary" },
    h("caption", {}, "Summary per protocol version"),
    h("thead", {}, h("tr", {}, ["Version", "Messages", "Tasks", "Errors", "Warnings"].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, rows.map(([v, r]) => h("tr", { "data-version": v },
      h("th", { scope: "row" }, v),
      h("td", { "data-col": "messages" }, String(r.messages)),
      h("td", { "data-col": "tasks" }, String(r.tasks)),
      h("td", { "data-col": "errors", class: r.errors ? "bad" : "" }, String(r.errors)),
      h("td", { "data-col": "warnings", class: r.warnings ? "warn" : "" }, String(r.warnings)))))));
}

function legend() {
  return h("ul", { class: "legend", "aria-label": "Timeline legend" }, STATUSES.map((st) => {
    const sw = s("svg", { width: 28, height: 12, "aria-hidden": "true", class: `st-${st}` },
      s("rect", { width: 28, height: 12, class: "bar", rx: 2 }),
      s("rect", { width: 28, height: 12, fill: `url(#pat-${st})`, rx: 2 }));
    return h("li", {}, sw, " ", st);
  }));
}

// ---- the large-transcript view: a worker reads, the page draws only what is visible ------------

/** Up to this many tasks every card is drawn (as before); beyond, only the selected task's. */
const CARDS_ALL = 60;
/** Height of one row of the task table (px; the CSS says the same). */
const ROW_PX = 36;
const STATUS_FILTERS = [...STATUSES, "none"];

let worker = null;
let jobNo = 0;
let reqNo = 0;
const waiting = new Map();
/** The transcript on screen. */
let view = null;

/**
 * The reader, started on first use. Its messages wait until it says "ready": a module worker
 * that awaits the wasm before setting `onmessage` would drop what arrives earlier.
 */
function getWorker() {
  if (worker) return worker;
  const w = new Worker(new URL("./transcript-worker.js", import.meta.url), { type: "module" });
  const queue = [];
  let ready = false;
  worker = { postMessage: (m) => (ready ? w.postMessage(m) : queue.push(m)) };
  w.onmessage = ({ data }) => {
    if (data.type === "ready") {
      ready = true;
      setRules(data.rules);
      for (const m of queue.splice(0)) w.postMessage(m);
      return;
    }
    if (data.req !== undefined) {
      const w = waiting.get(data.req);
      waiting.delete(data.req);
      if (w) data.error ? w.reject(new Error(data.error)) : w.resolve(data);
      return;
    }
    if (!view || data.job !== view.job) return;
    if (data.type === "progress") onProgress(data);
    else if (data.type === "done") onDone(data);
    else if (data.type === "error") fail(`read ${view.source}`, data.message);
  };
  w.onerror = (e) => fail("start the reader", e.message ?? "worker error");
  return worker;
}

/** Asks the worker something about the transcript on screen. */
function ask(type, extra = {}) {
  const req = ++reqNo;
  return new Promise((resolve, reject) => {
    waiting.set(req, { resolve, reject });
    getWorker().postMessage({ type, job: view.job, req, ...extra });
  });
}

const plural = (n, word) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/** Starts reading a transcript (`text`, or a `file`): the results area is rebuilt at once. */
function open({ text, file }, source) {
  const job = ++jobNo;
  const t0 = performance.now();
  view = { job, source, t0, rows: [], filtered: [], selected: null, done: false, first: null, versions: {}, lastIndex: 0, active: null, activeK: 0, activeCol: 0 };
  results.dataset.done = "false";
  delete results.dataset.firstMs;
  delete results.dataset.doneMs;
  results.dataset.source = source;
  status.textContent = `Reading ${source}…`;
  results.replaceChildren(
    h("h2", { id: "results-heading" }, "Results: ", h("span", { class: "source" }, source)),
    h("div", { class: "progress-line" },
      h("label", { for: "read-progress" }, "Read"), " ",
      h("progress", { id: "read-progress", max: "100", value: "0" }), " ",
      h("span", { id: "read-count", class: "hint" }, "starting…")),
    h("div", { id: "summary-box" }),
    taskTable(),
    h("section", { id: "task-detail", "aria-label": "The selected task", class: "cards" }),
    h("div", { id: "all-cards" }),
  );
  getWorker().postMessage(file ? { type: "open", job, source, file } : { type: "open", job, source, text });
}

function taskTable() {
  const opt = (v, label = v) => h("option", { value: v }, label);
  return h("section", { class: "task-table", "aria-labelledby": "tasks-title" },
    h("h3", { id: "tasks-title", class: "section-title" }, "Tasks (", h("span", { id: "task-count" }, "0"), ")"),
    h("form", { id: "task-filters", class: "filters", role: "search", "aria-label": "Filter the tasks" },
      h("div", { class: "filter" }, h("label", { for: "f-version" }, "Version"),
        h("select", { id: "f-version" }, opt("", "all"), opt("2025-11-25"), opt("2026-07-28"), opt("unknown"))),
      h("div", { class: "filter" }, h("label", { for: "f-status" }, "Status"),
        h("select", { id: "f-status" }, opt("", "all"), STATUS_FILTERS.map((st) => opt(st)))),
      h("div", { class: "filter check" }, h("input", { type: "checkbox", id: "f-issues" }), h("label", { for: "f-issues" }, "has issues")),
      h("div", { class: "filter grow" }, h("label", { for: "f-search" }, "Task id"),
        h("input", { type: "search", id: "f-search", spellcheck: "false", autocomplete: "off", placeholder: "part of a task id" })),
      h("button", { type: "button", id: "next-error" }, "Next error")),
    h("p", { id: "filter-count", class: "hint" }),
    h("div", { id: "task-grid", class: "vt", role: "grid", "aria-labelledby": "tasks-title", "aria-rowcount": "1", tabindex: "-1" },
      h("div", { class: "vt-row vt-head", role: "row", "aria-rowindex": "1" },
        ["Task", "Version", "Status", "Errors", "Warnings", "Messages"].map((c, i) =>
          h("span", { role: "columnheader", class: `c${i}` }, c))),
      h("div", { class: "vt-body" }, h("div", { class: "vt-space" }))));
}

function onProgress(d) {
  const pctRead = d.total ? Math.min(100, Math.round((d.bytes / d.total) * 100)) : 100;
  const bar = $("read-progress");
  if (bar) bar.value = pctRead;
  const count = $("read-count");
  const size = d.total >= 1e6 ? `${(d.total / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(d.total / 1e3))} KB`;
  if (count) count.textContent = `${pctRead}% of ${size}: ${plural(d.messages, "message")}, ${plural(d.errors, "error")}, ${plural(d.warnings, "warning")}`;
  if (d.rowsTotal !== undefined) {
    // Only the rows that changed come; the others stay as they were.
    if (d.rowsReset) view.rows = [];
    view.rows.length = d.rowsTotal;
    for (const [i, r] of d.rowsChanged) view.rows[i] = r;
    view.versions = d.versions;
    $("summary-box").replaceChildren(summaryTable(d.versions));
    applyFilters();
    if (view.first === null && view.rows.length) {
      view.first = performance.now() - view.t0;
      results.dataset.firstMs = String(Math.round(view.first));
    }
  }
}

async function onDone(d) {
  onProgress({ ...d, bytes: d.total });
  if (view.first === null) {
    view.first = performance.now() - view.t0;
    results.dataset.firstMs = String(Math.round(view.first));
  }
  view.done = true;
  const job = view.job;
  const extra = [];
  d.rows = view.rows;
  if (d.rows.length === 0) extra.push(h("p", { class: "hint" }, d.messages ? "No task was created or named in this transcript." : "The transcript has no messages."));
  if (d.rows.length) extra.push(legend());
  if (d.rows.length <= CARDS_ALL) {
    // Small enough: every card, as they always were.
    const all = await ask("all");
    if (!view || view.job !== job) return;
    const reportsByIndex = new Map(all.messages.map((m) => [m.report.index, m.report]));
    const byTask = groupByTask(all.messages);
    $("all-cards").replaceChildren(...extra, h("div", { class: "cards" },
      all.tasks.map((t) => taskCard(t, byTask.get(t.taskId) ?? [], reportsByIndex, all.creators[t.taskId] ?? null)),
      d.loose.length ? conversationCard(d.loose, d.looseCount) : null));
  } else {
    $("all-cards").replaceChildren(...extra, d.loose.length ? h("div", { class: "cards" }, conversationCard(d.loose, d.looseCount)) : "");
  }
  const { errors, warnings } = d;
  status.textContent = `${view.source}: ${plural(d.messages, "message")}, ${plural(d.rows.length, "task")}, ` +
    `${plural(errors, "error")}, ${plural(warnings, "warning")}.`;
  results.dataset.doneMs = String(Math.round(performance.now() - view.t0));
  results.dataset.done = "true";
}

function groupByTask(messages) {
  const by = new Map();
  for (const m of messages) for (const id of m.report.taskIds) (by.get(id) ?? by.set(id, []).get(id)).push(m);
  return by;
}

// ---- filters, the virtual table, "next error" ------------------------------------------------

function filters() {
  return {
    version: $("f-version")?.value ?? "",
    status: $("f-status")?.value ?? "",
    issues: $("f-issues")?.checked ?? false,
    search: ($("f-search")?.value ?? "").trim().toLowerCase(),
  };
}

function applyFilters() {
  if (!view) return;
  const f = filters();
  view.filtered = [];
  view.rows.forEach((r, i) => {
    if (f.version && r.version !== f.version) return;
    if (f.status && r.final !== f.status) return;
    if (f.issues && r.errors + r.warnings === 0) return;
    if (f.search && !r.taskId.toLowerCase().includes(f.search)) return;
    view.filtered.push(i);
  });
  $("task-count").textContent = view.rows.length.toLocaleString("en-US");
  const withErrors = view.filtered.reduce((n, i) => n + (view.rows[i].errors > 0 ? 1 : 0), 0);
  $("filter-count").textContent = `${plural(view.filtered.length, "task")} shown of ${view.rows.length.toLocaleString("en-US")}; ${plural(withErrors, "task")} with errors.`;
  const grid = $("task-grid");
  grid.setAttribute("aria-rowcount", String(view.filtered.length + 1));
  grid.dataset.rows = String(view.filtered.length);
  grid.querySelector(".vt-space").style.height = `${view.filtered.length * ROW_PX}px`;
  drawRows();
}

/**
 * Draws the rows in view (and 5 either side), and the active row (the grid's one Tab stop)
 * wherever it is. A row still in view and unchanged stays the same element, never moved; when a
 * redraw replaces the row that had focus, focus goes to its new element.
 */
function drawRows() {
  const grid = $("task-grid");
  if (!grid || !view) return;
  const body = grid.querySelector(".vt-body");
  const space = grid.querySelector(".vt-space");
  const first = Math.max(0, Math.floor(body.scrollTop / ROW_PX) - 5);
  const last = Math.min(view.filtered.length, Math.ceil((body.scrollTop + body.clientHeight) / ROW_PX) + 5);
  const hadFocus = space.contains(document.activeElement);
  const active = activeRow();
  const ks = [];
  if (active >= 0 && active < first) ks.push(active);
  for (let k = first; k < last; k++) ks.push(k);
  if (active >= last) ks.push(active);
  const old = new Map([...space.children].map((el) => [el.dataset.sig, el]));
  const rows = [];
  for (const k of ks) {
    const r = view.rows[view.filtered[k]];
    const sel = view.selected === r.taskId;
    const sig = `${k}|${r.taskId}|${r.version}|${r.final}|${r.errors}|${r.warnings}|${r.messages}|${sel}`;
    rows.push(old.get(sig) ?? h("div", {
      class: `vt-row${sel ? " selected" : ""}${r.errors ? " has-errors" : r.warnings ? " has-warnings" : ""}`,
      role: "row", "aria-rowindex": String(k + 2), "aria-selected": String(sel), "data-task-id": r.taskId, "data-sig": sig,
      style: `top:${k * ROW_PX}px`,
    },
    h("span", { role: "gridcell", class: "c0" }, h("button", { type: "button", class: "open-task link", "data-task-id": r.taskId, title: r.taskId, tabindex: "-1" }, r.taskId)),
    h("span", { role: "gridcell", class: "c1", tabindex: "-1" }, r.version),
    h("span", { role: "gridcell", class: `c2 st-text st-${r.final}`, tabindex: "-1" }, r.final),
    h("span", { role: "gridcell", class: `c3${r.errors ? " bad" : ""}`, tabindex: "-1" }, String(r.errors)),
    h("span", { role: "gridcell", class: `c4${r.warnings ? " warn" : ""}`, tabindex: "-1" }, String(r.warnings)),
    h("span", { role: "gridcell", class: "c5", tabindex: "-1" }, String(r.messages))));
  }
  const keep = new Set(rows);
  for (const el of [...space.children]) if (!keep.has(el)) el.remove();
  // The kept rows are in order already: insert the new ones around them, moving none.
  let cursor = space.firstElementChild;
  for (const el of rows) {
    if (el === cursor) cursor = cursor.nextElementSibling;
    else space.insertBefore(el, cursor);
  }
  rovingTabStop(space, hadFocus);
}

// The task table is a WAI-ARIA grid with one Tab stop (a roving tabindex): the active cell of the
// active row. Up/Down, PageUp/PageDown, Home/End (and Ctrl+Home/End) move between rows,
// Left/Right between the cells of a row, Enter opens the row's card. The active row is kept by
// task id: it survives the redraws of the virtual table (drawRows always draws it, in view or
// not), the rows the reader adds, and the filters (a row filtered out hands the Tab stop to the
// row now at its place, and takes it back when it shows again).

/** The filtered index of the active row (-1 when no row is shown). */
function activeRow() {
  const n = view.filtered.length;
  if (n === 0) return -1;
  const k = view.activeK ?? 0;
  if (view.active !== null && view.active !== undefined) {
    if (k < n && view.rows[view.filtered[k]].taskId === view.active) return k;
    const found = view.filtered.findIndex((i) => view.rows[i].taskId === view.active);
    if (found >= 0) return (view.activeK = found);
  }
  return Math.min(k, n - 1);
}

/** What takes focus in column `col` of a row: the button of the first cell, else the cell. */
function cellTarget(row, col) {
  const cells = row.querySelectorAll("[role=gridcell]");
  const cell = cells[col] && cells[col].getClientRects().length ? cells[col] : cells[0];
  return cell.querySelector("button") ?? cell;
}

/** The next column of a row in direction `dir` that is displayed (narrow screens hide some). */
function nextCol(row, col, dir) {
  const cells = [...row.querySelectorAll("[role=gridcell]")];
  for (let c = col + dir; c >= 0 && c < cells.length; c += dir) if (cells[c].getClientRects().length) return c;
  return col;
}

/** Gives the active cell tabindex 0 (every other -1); puts focus back if a redraw took it away. */
function rovingTabStop(space, hadFocus) {
  const k = activeRow();
  let target = null;
  for (const row of space.children) {
    const on = Number(row.getAttribute("aria-rowindex")) - 2 === k;
    row.classList.toggle("active", on);
    for (const el of row.querySelectorAll("button, [role=gridcell][tabindex]")) el.tabIndex = -1;
    if (on) target = cellTarget(row, view.activeCol ?? 0);
  }
  if (target) target.tabIndex = 0;
  if (hadFocus && target && !space.contains(document.activeElement)) target.focus({ preventScroll: true });
}

/** Makes filtered row `k`, column `col` the active cell, scrolled into view, and focuses it. */
function moveTo(k, col) {
  view.activeK = k;
  view.active = view.rows[view.filtered[k]].taskId;
  view.activeCol = col;
  const body = $("task-grid").querySelector(".vt-body");
  const top = k * ROW_PX;
  if (top < body.scrollTop) body.scrollTop = top;
  else if (top + ROW_PX > body.scrollTop + body.clientHeight) body.scrollTop = top + ROW_PX - body.clientHeight;
  drawRows();
  const row = $("task-grid").querySelector(`.vt-space .vt-row[aria-rowindex="${k + 2}"]`);
  if (row) cellTarget(row, col).focus({ preventScroll: true });
}

function gridKey(ev) {
  const row = ev.target.closest?.("#task-grid .vt-space .vt-row");
  if (!row || !view || ev.altKey || ev.metaKey) return;
  const n = view.filtered.length;
  const k = Number(row.getAttribute("aria-rowindex")) - 2;
  const body = $("task-grid").querySelector(".vt-body");
  const page = Math.max(1, Math.floor(body.clientHeight / ROW_PX) - 1);
  const col = view.activeCol ?? 0;
  const moves = {
    ArrowDown: [k + 1, col], ArrowUp: [k - 1, col], PageDown: [k + page, col], PageUp: [k - page, col],
    Home: [0, col], End: [n - 1, col], ArrowRight: [k, nextCol(row, col, 1)], ArrowLeft: [k, nextCol(row, col, -1)],
  };
  if (ev.key === "Enter") {
    // The task id's button opens the card itself (a click); the other cells do it here.
    if (ev.target.tagName !== "BUTTON") {
      ev.preventDefault();
      select(row.dataset.taskId);
    }
    return;
  }
  const to = moves[ev.key];
  if (!to || n === 0) return;
  ev.preventDefault();
  moveTo(Math.min(Math.max(to[0], 0), n - 1), to[1]);
}

/** Focus that lands in a row (a click, a screen reader's cursor) makes that cell the active one. */
function gridFocus(ev) {
  const row = ev.target.closest?.("#task-grid .vt-space .vt-row");
  if (!row || !view) return;
  const k = Number(row.getAttribute("aria-rowindex")) - 2;
  const cell = ev.target.closest("[role=gridcell]");
  view.activeK = k;
  view.active = row.dataset.taskId;
  view.activeCol = Math.max(0, [...row.querySelectorAll("[role=gridcell]")].indexOf(cell));
  rovingTabStop(row.parentElement, false);
}

/** Scrolls the table so that filtered row `k` is visible. */
function scrollToRow(k) {
  const body = $("task-grid").querySelector(".vt-body");
  const top = k * ROW_PX;
  if (top < body.scrollTop || top + ROW_PX > body.scrollTop + body.clientHeight) body.scrollTop = Math.max(0, top - ROW_PX * 2);
  drawRows();
}

/** Shows the card of task `taskId` (drawn from the worker's messages) and marks its row. */
async function select(taskId, { focus = true } = {}) {
  view.selected = taskId;
  const k = view.filtered.findIndex((i) => view.rows[i].taskId === taskId);
  if (k >= 0) {
    // The grid's Tab stop follows: back in the table, the keyboard is on this task's row.
    view.active = taskId;
    view.activeK = k;
    scrollToRow(k);
  } else drawRows();
  const drawn = document.querySelector(`#all-cards .task-card[data-task-id="${CSS.escape(taskId)}"]`);
  const detail = $("task-detail");
  let card = drawn;
  if (!drawn) {
    const job = view.job;
    const d = await ask("task", { taskId });
    if (!view || view.job !== job || view.selected !== taskId) return;
    if (!d.timeline) return;
    const reportsByIndex = new Map(d.messages.map((m) => [m.report.index, m.report]));
    card = taskCard(d.timeline, d.messages, reportsByIndex, d.creator);
    detail.replaceChildren(card);
  } else {
    detail.replaceChildren();
  }
  detail.dataset.taskId = taskId;
  card.classList.add("selected-card");
  for (const c of document.querySelectorAll(".task-card.selected-card")) if (c !== card) c.classList.remove("selected-card");
  // "Next error" (focus: "error") lands on the first error itself, else the card's heading.
  const target = (focus === "error" && card.querySelector(".issue.sev-error")) || card.querySelector("h3");
  target.setAttribute("tabindex", "-1");
  if (focus) target.focus();
}

function nextError() {
  if (!view || !view.filtered.length) return;
  const at = view.selected === null ? -1 : view.filtered.findIndex((i) => view.rows[i].taskId === view.selected);
  const n = view.filtered.length;
  for (let step = 1; step <= n; step++) {
    const k = (at + step) % n;
    const r = view.rows[view.filtered[k]];
    if (r.errors > 0) {
      const all = view.filtered.filter((i) => view.rows[i].errors > 0);
      const which = all.indexOf(view.filtered[k]) + 1;
      status.textContent = `Task ${r.taskId}: ${plural(r.errors, "error")} (${which} of ${all.length} tasks with errors).`;
      select(r.taskId, { focus: "error" });
      return;
    }
  }
  status.textContent = "No task shown has errors.";
}

results.addEventListener("input", (ev) => {
  if (ev.target.closest?.("#task-filters")) applyFilters();
});
results.addEventListener("change", (ev) => {
  if (ev.target.closest?.("#task-filters")) applyFilters();
});
results.addEventListener("submit", (ev) => {
  if (ev.target.id === "task-filters") ev.preventDefault();
});
results.addEventListener("click", (ev) => {
  const open = ev.target.closest?.("button.open-task");
  if (open) select(open.dataset.taskId);
  else if (ev.target.id === "next-error") nextError();
});
results.addEventListener("keydown", gridKey);
results.addEventListener("focusin", gridFocus);
results.addEventListener("scroll", (ev) => {
  if (ev.target.classList?.contains("vt-body")) requestAnimationFrame(drawRows);
}, true);

function fail(what, e) {
  status.textContent = `Could not ${what}: ${e instanceof Error ? e.message : e}`;
}

// ---- inputs --------------------------------------------------------------------------------

$("sample-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = $("sample").value;
  status.textContent = `Loading ${name}…`;
  try {
    const res = await fetch(`/pkg/samples/${encodeURIComponent(name)}`);
    if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
    open({ text: await res.text() }, name);
  } catch (e) {
    fail(`load ${name}`, e);
  }
});

$("paste-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const text = $("paste").value;
  if (text.trim() === "") {
    status.textContent = "Paste a transcript first: one JSON-RPC message per line.";
    return;
  }
  open({ text }, "pasted transcript");
});

function readFile(file) {
  open({ file }, file.name);
}

$("file").addEventListener("change", (ev) => {
  const file = ev.target.files?.[0];
  if (file) readFile(file);
});

const zone = $("drop-zone");
zone.addEventListener("dragover", (ev) => {
  ev.preventDefault();
  zone.classList.add("dragging");
});
zone.addEventListener("dragleave", () => zone.classList.remove("dragging"));
zone.addEventListener("drop", (ev) => {
  ev.preventDefault();
  zone.classList.remove("dragging");
  const file = ev.dataTransfer?.files?.[0];
  if (file) readFile(file);
  else {
    const text = ev.dataTransfer?.getData("text/plain");
    if (text) open({ text }, "dropped text");
  }
});

status.textContent = "Ready: pick a sample, a file, or paste a transcript.";
// Start the reader while the page is idle: starting a module worker costs the page one long task
// (about 100 ms), better paid before a file is chosen than after.
(window.requestIdleCallback ?? ((f) => setTimeout(f, 200)))(() => getWorker());
$("app").dataset.ready = "true";
