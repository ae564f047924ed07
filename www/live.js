// The inspector's live mode: talks to a running MCP server over Streamable HTTP (2026-07-28),
// lists its tools, calls one with the package's TaskClient and shows its task as it runs: each
// poll (its time and the gap since the previous one, so the interval, backoff and jitter are
// visible), status changes, poll errors, input requests as forms (answered through
// `tasks/update` by the client), Cancel, and the final result. After every event the client's
// `serialize()` and the endpoint are saved in localStorage; a reload restores the client and
// follows the pending tasks again. Plain DOM; also switches between the two modes.
import { TaskClient, TaskCancelledError } from "/pkg/browser.js";

const V26 = "2026-07-28";
const STORE = "mcp-tasks-inspector/live/1";
const META = {
  "io.modelcontextprotocol/protocolVersion": V26,
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} }, elicitation: {} },
};

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
const say = (text) => (liveStatus.textContent = text);
const errorText = (e) => (e instanceof Error ? e.message : typeof e === "object" && e && "message" in e ? String(e.message) : String(e));

// ---- modes ----------------------------------------------------------------------------------------

function setMode(mode) {
  const live = mode === "live";
  $("transcript-mode").hidden = live;
  $("live-mode").hidden = !live;
  for (const [id, on] of [["mode-transcript", !live], ["mode-live", live]]) {
    $(id).setAttribute("aria-pressed", String(on));
    $(id).classList.toggle("current", on);
  }
  if (live && location.hash !== "#live") history.replaceState(null, "", "#live");
  if (!live && location.hash === "#live") history.replaceState(null, "", location.pathname);
}
$("mode-transcript").addEventListener("click", () => setMode("transcript"));
$("mode-live").addEventListener("click", () => {
  setMode("live");
  $("endpoint").focus();
});

// ---- transport ------------------------------------------------------------------------------------

/** Per-task record of polls, and who asked which input (by the identity of its params object). */
const polls = new Map();
const inputOwner = new WeakMap();
/** The card of a call, by the identity of its arguments object (callTool passes it through). */
const callOwner = new WeakMap();
/** Cards by task id. */
const cards = new Map();

let rpcId = 1;

/** One JSON-RPC request over Streamable HTTP (JSON or a one-message SSE answer). */
function httpRequest(endpoint) {
  return async (method, params) => {
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": V26, "Mcp-Method": method };
    if (typeof params.taskId === "string") headers["Mcp-Name"] = params.taskId;
    else if (method === "tools/call") headers["Mcp-Name"] = params.name;
    const started = Date.now();
    if (method === "tasks/get") notePoll(params.taskId, started);
    let res;
    try {
      res = await fetch(endpoint, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: rpcId++, method, params }) });
    } catch (e) {
      throw new Error(`${method}: the server cannot be reached (${errorText(e)})`);
    }
    const retry = Number(res.headers.get("retry-after"));
    const text = await res.text();
    let message;
    try {
      const body = (res.headers.get("content-type") ?? "").includes("text/event-stream")
        ? text.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5)).at(-1)
        : text;
      message = JSON.parse(body ?? "");
    } catch {
      throw Object.assign(new Error(`${method}: HTTP ${res.status}, not JSON-RPC`), Number.isFinite(retry) && retry >= 0 && res.status === 429 ? { retryAfterMs: retry * 1000 } : {});
    }
    if (message.error) throw Object.assign(new Error(message.error.message), message.error);
    const result = message.result;
    // Who owns what: the task a call created, the task (or call) an input request belongs to.
    if (method === "tools/call" && result && typeof result === "object") {
      const card = callOwner.get(params.arguments);
      const taskId = result.task?.taskId ?? (result.resultType === "task" ? result.taskId : undefined);
      if (card && typeof taskId === "string") bindTask(card, taskId);
      if (card) for (const req of Object.values(result.inputRequests ?? {})) if (req?.params) inputOwner.set(req.params, card);
    }
    if (method === "tasks/get" && result && typeof result === "object") {
      notePollAnswer(params.taskId, result, started);
      const card = cards.get(params.taskId);
      if (card) for (const req of Object.values(result.inputRequests ?? {})) if (req?.params) inputOwner.set(req.params, card);
    }
    if (method === "tasks/update") logTo(cards.get(params.taskId), "update", `tasks/update sent: ${Object.keys(params.inputResponses ?? {}).join(", ")}`);
    if (method === "tasks/cancel") logTo(cards.get(params.taskId), "cancel", "tasks/cancel sent");
    return result;
  };
}

function notePoll(taskId, at) {
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

function notePollAnswer(taskId, task, started) {
  const card = cards.get(taskId);
  if (!card) return;
  const hint = typeof task.pollInterval === "number" ? `, server suggests ${task.pollInterval} ms` : "";
  const last = card.querySelector(".events li.ev-poll:last-child .ev-text");
  if (last) last.textContent += ` → ${task.status} in ${Date.now() - started} ms${hint}`;
}

// ---- cards ---------------------------------------------------------------------------------------

let cardNo = 0;

function makeCard(tool, args, note) {
  const n = ++cardNo;
  const card = h("article", { class: "card live-card", "data-status": "calling", "data-statuses": "", "data-tool": tool, "aria-labelledby": `live-card-${n}-h` });
  card.append(
    h("h4", { id: `live-card-${n}-h` }, h("code", {}, tool), " ", h("span", { class: "task-id" }, note ?? "calling…")),
    h("p", { class: "live-line" }, "Status: ", h("strong", { class: "live-status" }, "calling"), h("span", { class: "resumed" })),
    h("p", { class: "hint args" }, `arguments: ${JSON.stringify(args)}`),
    h("div", { class: "input-area" }),
    h("div", { class: "card-actions" }, h("button", { type: "button", class: "cancel secondary" }, "Cancel")),
    h("details", { class: "log", open: true }, h("summary", {}, "Events"), h("ol", { class: "events" })),
    h("div", { class: "outcome" }),
  );
  tasksBox.prepend(card);
  return card;
}

function bindTask(card, taskId) {
  if (card.dataset.taskId === taskId) return;
  card.dataset.taskId = taskId;
  cards.set(taskId, card);
  card.querySelector(".task-id").textContent = `task ${taskId}`;
  meta.tasks[taskId] = { tool: card.dataset.tool, args: card.querySelector(".args").textContent };
}

function logTo(card, kind, text) {
  if (!card) return;
  const list = card.querySelector(".events");
  list.append(h("li", { class: `ev-${kind}` }, h("span", { class: "ev-kind" }, kind), " ", h("span", { class: "ev-text" }, text)));
  if (list.children.length > 200) list.firstElementChild.remove();
}

function setStatus(card, status) {
  if (!card) return;
  card.dataset.status = status;
  card.querySelector(".live-status").textContent = status;
  const seen = card.dataset.statuses ? card.dataset.statuses.split(" ") : [];
  if (seen.at(-1) !== status) card.dataset.statuses = [...seen, status].join(" ");
}

function finishCard(card, status, body) {
  setStatus(card, status);
  card.querySelector(".cancel").disabled = true;
  card.querySelector(".input-area").replaceChildren();
  card.querySelector(".outcome").replaceChildren(h("h5", {}, status === "completed" ? "Result" : "Outcome"), h("pre", { class: "result" }, body));
  if (card.dataset.taskId) delete meta.tasks[card.dataset.taskId];
  save();
}

function resultText(result) {
  const texts = Array.isArray(result?.content) ? result.content.filter((c) => c?.type === "text").map((c) => c.text) : [];
  return `${result?.isError ? "(tool error) " : ""}${texts.join("\n") || JSON.stringify(result, null, 2)}`;
}

/** Waits for a call (or a followed task) and shows how it ended. */
async function settle(card, promise) {
  try {
    const result = await promise;
    finishCard(card, "completed", resultText(result));
  } catch (e) {
    // A cancel that never reached the server is not a cancelled task: the task may still run.
    if ((e instanceof TaskCancelledError || e?.name === "TaskCancelledError") && e.delivered === false) {
      finishCard(card, "cancel-failed", `The cancel did not reach the server: the task may still be running there. (${errorText(e)})`);
    } else if (e instanceof TaskCancelledError || e?.name === "TaskCancelledError") finishCard(card, "cancelled", errorText(e));
    else if (e?.name === "AbortError" && !card.dataset.taskId) finishCard(card, "cancelled", "cancelled before a task existed");
    else if (e?.name === "TaskExpiredError") finishCard(card, "expired", errorText(e));
    else finishCard(card, "failed", errorText(e));
  }
}

function wireCancel(card, ac) {
  card.querySelector(".cancel").addEventListener("click", () => {
    logTo(card, "cancel", "cancel requested");
    card.querySelector(".cancel").disabled = true;
    ac.abort();
  });
}

// ---- input requests --------------------------------------------------------------------------------

let formNo = 0;

/** An accessible form for an elicitation's `requestedSchema`; resolves with the ElicitResult. */
function askUser(params) {
  const card = inputOwner.get(params) ?? tasksBox.querySelector(".live-card");
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
  if (card) logTo(card, "input", `input requested: ${params.message ?? ""}`);
  return new Promise((resolve) => {
    const done = (answer, note) => {
      form.replaceWith(h("p", { class: "hint answered" }, note));
      if (card) logTo(card, "input", note);
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

// ---- the client, its events and persistence ------------------------------------------------------------

let client = null;
let endpoint = "";
/** What the page knows of each pending task (its tool, its arguments), saved with the client. */
const meta = { tasks: {} };

function save() {
  if (!client) return;
  try {
    localStorage.setItem(STORE, JSON.stringify({ endpoint, client: client.serialize(), tasks: meta.tasks }));
  } catch {
    // storage full or blocked: live mode still works, it just won't survive a reload
  }
}

async function pump(c) {
  for await (const ev of c.events()) {
    const card = cards.get(ev.taskId);
    switch (ev.type) {
      case "created":
        setStatus(card, ev.status ?? "working");
        logTo(card, "created", `task created (${ev.status})${typeof ev.task?.pollInterval === "number" ? `, pollInterval ${ev.task.pollInterval} ms` : ""}`);
        break;
      case "status":
        setStatus(card, ev.status);
        logTo(card, "status", `status: ${ev.status}${ev.task?.statusMessage ? ` (${ev.task.statusMessage})` : ""}`);
        break;
      case "input-required":
        break; // the handler draws the form
      case "poll-error":
        logTo(card, "error", `poll error: ${errorText(ev.error)} (the next poll backs off)`);
        break;
      case "cancel-failed":
        logTo(card, "cancel-failed", "cancel not delivered: the server could not be reached after retries; no longer followed");
        break;
      case "stuck":
        logTo(card, "stuck", `no change for a long time (still ${ev.status})`);
        break;
      default:
        logTo(card, ev.type, `${ev.type}${ev.status ? ` (${ev.status})` : ""}`);
    }
    save();
  }
}

function newClient(url, state) {
  client?.close();
  endpoint = url;
  const options = { request: httpRequest(url), handlers: { elicitation: askUser }, server: new URL(url).host };
  client = state ? TaskClient.restore(state, options) : new TaskClient(options);
  pump(client);
  return client;
}

// ---- tools ------------------------------------------------------------------------------------------

async function listTools(url) {
  say(`Listing the tools of ${url}…`);
  toolsBox.dataset.ready = "false";
  const request = httpRequest(url);
  const result = await request("tools/list", { _meta: META });
  const tools = Array.isArray(result.tools) ? result.tools : [];
  toolsBox.replaceChildren(...tools.map(toolForm));
  toolsBox.dataset.ready = "true";
  say(`${tools.length} tools at ${url}.`);
}

function toolForm(tool) {
  const name = String(tool.name);
  const props = tool.inputSchema?.properties ?? {};
  const form = h("form", { class: "tool panel", "data-tool": name, "aria-labelledby": `tool-${name}-h` });
  form.append(h("h4", { id: `tool-${name}-h` }, h("code", {}, name)));
  if (tool.description) form.append(h("p", { class: "hint" }, tool.description));
  const fields = [];
  for (const [prop, schema] of Object.entries(props)) {
    const id = `arg-${name}-${prop}`;
    let input;
    if (schema.type === "boolean") {
      input = h("input", { type: "checkbox", id, name: prop });
      form.append(h("div", { class: "check" }, input, h("label", { for: id }, prop)));
    } else {
      if (schema.type === "string") input = h("input", { type: "text", id, name: prop });
      else if (schema.type === "number" || schema.type === "integer") input = h("input", { type: "number", id, name: prop, step: "any", min: schema.minimum });
      else input = h("textarea", { id, name: prop, rows: "2", spellcheck: "false", placeholder: "JSON" });
      form.append(h("div", { class: "field" }, h("label", { for: id }, prop, h("span", { class: "hint" }, ` (${schema.type ?? "JSON"})`)), input));
    }
    fields.push({ prop, schema, input });
  }
  form.append(h("button", { type: "submit", class: "call" }, `Call ${name}`));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const args = {};
    try {
      for (const { prop, schema, input } of fields) {
        if (schema.type === "boolean") args[prop] = input.checked;
        else if (input.value === "") continue;
        else if (schema.type === "string") args[prop] = input.value;
        else if (schema.type === "number" || schema.type === "integer") args[prop] = Number(input.value);
        else args[prop] = JSON.parse(input.value);
      }
    } catch (e) {
      say(`${name}: an argument is not JSON (${errorText(e)})`);
      return;
    }
    call(name, args);
  });
  return form;
}

function call(name, args) {
  const card = makeCard(name, args);
  callOwner.set(args, card);
  const ac = new AbortController();
  wireCancel(card, ac);
  say(`Calling ${name}…`);
  settle(card, client.callTool(name, args, { signal: ac.signal })).then(() => {
    if (!card.dataset.taskId) logTo(card, "result", "answered without a task");
    say(`${name}: ${card.dataset.status}.`);
  });
}

$("endpoint-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const url = $("endpoint").value.trim();
  try {
    new URL(url);
  } catch {
    say("That is not a URL.");
    return;
  }
  try {
    if (!client || url !== endpoint) newClient(url, null);
    await listTools(url);
    save();
  } catch (e) {
    say(`Could not list the tools: ${errorText(e)}`);
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
  const resume = Array.isArray(saved?.client?.tasks) && saved.client.tasks.length > 0;
  if (location.hash === "#live" || resume) setMode("live");
  if (saved && typeof saved.endpoint === "string" && saved.endpoint) $("endpoint").value = saved.endpoint;
  // Nothing is sent unless live mode is open or a task is pending: transcript mode stays offline.
  if (saved && typeof saved.endpoint === "string" && saved.endpoint && (resume || location.hash === "#live")) {
    try {
      newClient(saved.endpoint, saved.client);
      Object.assign(meta.tasks, saved.tasks ?? {});
      const pending = client.pending();
      for (const taskId of pending) {
        const info = meta.tasks[taskId] ?? { tool: "?", args: "" };
        const card = makeCard(info.tool, {}, `task ${taskId}`);
        card.querySelector(".args").textContent = info.args;
        bindTask(card, taskId);
        card.querySelector(".resumed").textContent = " (resumed after a reload)";
        card.dataset.resumed = "true";
        setStatus(card, "resumed");
        logTo(card, "resumed", `restored from this browser's storage at ${clock(Date.now())}; following again`);
        const ac = new AbortController();
        wireCancel(card, ac);
        settle(card, client.follow(taskId, { signal: ac.signal }));
      }
      if (pending.length) say(`Resumed ${pending.length} task${pending.length === 1 ? "" : "s"} at ${saved.endpoint}.`);
      await listTools(saved.endpoint).catch((e) => say(`Could not list the tools: ${errorText(e)}`));
      if (pending.length) say(`Resumed ${pending.length} task${pending.length === 1 ? "" : "s"} at ${saved.endpoint}.`);
    } catch (e) {
      say(`Could not restore the saved session: ${errorText(e)}`);
      localStorage.removeItem(STORE);
    }
  }
  $("live-mode").dataset.ready = "true";
}

start();
