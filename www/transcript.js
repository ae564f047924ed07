// The inspector's transcript mode: runs a `Conversation` of the package's browser entry over a
// JSONL transcript (a bundled sample, a file, or pasted text) and draws one card per task, with
// an SVG timeline of its statuses and the messages about it with their issues. Plain DOM and
// inline SVG; everything happens in the page.
import { Conversation } from "/pkg/browser.js";

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

/** Runs a Conversation over the transcript text: one report per non-blank line. */
export function analyse(text) {
  const conv = new Conversation();
  try {
    const messages = [];
    text.split(/\r?\n/).forEach((line, i) => {
      if (line.trim() === "") return;
      messages.push({ line: i + 1, text: line, report: conv.observe(line) });
    });
    return { messages, tasks: conv.tasks() };
  } finally {
    conv.free();
  }
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

function timelineSvg(timeline, reportsByIndex) {
  const { runs, times, byTime, t0, pos } = layout(timeline);
  const ROW = 40;
  const height = Math.max(runs.length, 1) * ROW + 34;
  const summary = runs.length
    ? runs.map((r) => `${r.status} from ${timeLabel(r.events[0].at, times[r.events[0].k], t0)}`).join(", then ")
    : "no status shown";
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
      g.append(s("circle", { cx: pct(Math.min(pos(e.k), 99.3)), cy: y + 26, r: 4, class: "mark" },
        s("title", {}, `message #${e.index} (${what}): ${e.status} at ${e.at ?? "no time"}${e.statusMessage ? `: ${e.statusMessage}` : ""}`)));
    }
    svg.append(g);
  });
  const axisY = runs.length * ROW + 8;
  svg.append(s("g", { class: "axis" },
    s("line", { x1: 0, x2: "100%", y1: axisY, y2: axisY }),
    s("text", { x: 0, y: axisY + 18 }, byTime ? `${new Date(t0).toISOString().slice(0, 19)}Z` : "in message order"),
    s("text", { x: "100%", y: axisY + 18, "text-anchor": "end" }, byTime ? `last seen →` : "→")));
  return { svg, byTime, runs };
}

// ---- cards ---------------------------------------------------------------------------------

function issueList(issues) {
  return h("ul", { class: "issues" }, issues.map((i) =>
    h("li", { class: `issue sev-${i.severity}` },
      h("span", { class: "sev" }, i.severity), " ",
      h("code", { class: "issue-code" }, i.code), " at ",
      h("code", { class: "issue-path", title: "JSON Pointer into the message" }, i.path === "" ? '"" (whole message)' : i.path),
      h("span", { class: "issue-message" }, i.message))));
}

function messageItem({ line, text, report }) {
  const what = `${report.rpc}${report.method ? ` · ${report.method}` : ""}`;
  return h("li", { class: `message ${report.issues.length ? "has-issues" : "clean"}`, "data-index": report.index },
    h("div", { class: "message-head" },
      h("span", { class: "msg-no" }, `#${report.index}`), " ",
      h("span", { class: "msg-what" }, what), " ",
      h("span", { class: "msg-kind" }, report.kind), " ",
      h("span", { class: "msg-line" }, `line ${line}`), " ",
      report.issues.length ? null : h("span", { class: "ok" }, "✓ no issues")),
    report.issues.length ? issueList(report.issues) : null,
    h("details", {}, h("summary", {}, "Message JSON"), h("pre", {}, text)));
}

function counts(reports) {
  let errors = 0, warnings = 0;
  for (const r of reports) for (const i of r.issues) i.severity === "error" ? errors++ : warnings++;
  return { errors, warnings };
}

function taskCard(timeline, messages, reportsByIndex) {
  const mine = messages.filter((m) => m.report.taskIds.includes(timeline.taskId));
  const { errors, warnings } = counts(mine.map((m) => m.report));
  const { svg, byTime } = timelineSvg(timeline, reportsByIndex);
  const final = timeline.finalStatus ?? "none";
  const headingId = `task-${Math.random().toString(36).slice(2)}`;
  return h("article", { class: "card task-card", "data-task-id": timeline.taskId, "aria-labelledby": headingId },
    h("h3", { id: headingId }, "Task ", h("code", { class: "task-id" }, timeline.taskId)),
    h("p", { class: "badges" },
      h("span", { class: "badge" }, `version ${timeline.version ?? "unknown"}`),
      h("span", { class: `badge final st-${final}` }, "final status: ", h("strong", { class: "final-status" }, final)),
      h("span", { class: `badge ${errors ? "bad" : ""}` }, `${errors} error${errors === 1 ? "" : "s"}`),
      h("span", { class: `badge ${warnings ? "warn" : ""}` }, `${warnings} warning${warnings === 1 ? "" : "s"}`)),
    h("figure", { class: "timeline-figure" }, svg,
      h("figcaption", {}, byTime
        ? "Statuses over time (UTC, seconds since the task was created); dots are the messages that showed them."
        : "Statuses in message order: the times shown are unreadable or not in order, so they are not drawn to scale.")),
    h("h4", {}, `Messages about this task (${mine.length})`),
    h("ol", { class: "messages" }, mine.map(messageItem)));
}

function conversationCard(messages) {
  const { errors, warnings } = counts(messages.map((m) => m.report));
  return h("article", { class: "card conversation-card", "aria-labelledby": "conv-heading" },
    h("h3", { id: "conv-heading" }, "Conversation"),
    h("p", { class: "badges" },
      h("span", { class: `badge ${errors ? "bad" : ""}` }, `${errors} error${errors === 1 ? "" : "s"}`),
      h("span", { class: `badge ${warnings ? "warn" : ""}` }, `${warnings} warning${warnings === 1 ? "" : "s"}`)),
    h("p", { class: "hint" }, "Messages with issues that are not about a task this conversation created."),
    h("ol", { class: "messages" }, messages.map(messageItem)));
}

function summaryTable(messages, tasks) {
  const rows = new Map();
  const row = (v) => rows.get(v) ?? rows.set(v, { messages: 0, tasks: 0, errors: 0, warnings: 0 }).get(v);
  for (const { report } of messages) {
    const r = row(report.version ?? "unknown");
    r.messages++;
    for (const i of report.issues) i.severity === "error" ? r.errors++ : r.warnings++;
  }
  for (const t of tasks) row(t.version ?? "unknown").tasks++;
  return h("div", { class: "table-wrap" }, h("table", { class: "summary" },
    h("caption", {}, "Summary per protocol version"),
    h("thead", {}, h("tr", {}, ["Version", "Messages", "Tasks", "Errors", "Warnings"].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, [...rows].map(([v, r]) => h("tr", { "data-version": v },
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

/** Analyses `text` and replaces the results with the cards. */
function show(text, source) {
  results.dataset.done = "false";
  const { messages, tasks } = analyse(text);
  const reportsByIndex = new Map(messages.map((m) => [m.report.index, m.report]));
  const known = new Set(tasks.map((t) => t.taskId));
  const loose = messages.filter((m) => m.report.issues.length && !m.report.taskIds.some((id) => known.has(id)));
  const { errors, warnings } = counts(messages.map((m) => m.report));

  results.replaceChildren(...[
    h("h2", { id: "results-heading" }, "Results: ", h("span", { class: "source" }, source)),
    messages.length ? summaryTable(messages, tasks) : h("p", {}, "The transcript has no messages."),
    tasks.length ? legend() : null,
    h("h3", { class: "section-title" }, `Tasks (${tasks.length})`),
    tasks.length ? null : h("p", { class: "hint" }, "No task was created or named in this transcript."),
    h("div", { class: "cards" },
      tasks.map((t) => taskCard(t, messages, reportsByIndex)),
      loose.length ? conversationCard(loose) : null),
  ].filter(Boolean));
  results.dataset.source = source;
  results.dataset.done = "true";
  status.textContent = `${source}: ${messages.length} messages, ${tasks.length} task${tasks.length === 1 ? "" : "s"}, ` +
    `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}.`;
}

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
    show(await res.text(), name);
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
  show(text, "pasted transcript");
});

async function readFile(file) {
  try {
    show(await file.text(), file.name);
  } catch (e) {
    fail(`read ${file.name}`, e);
  }
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
    if (text) show(text, "dropped text");
  }
});

status.textContent = "Ready: pick a sample, a file, or paste a transcript.";
$("app").dataset.ready = "true";
