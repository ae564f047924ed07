#!/usr/bin/env node
// mcp-tasks: checks MCP conversations (JSON Lines transcripts, one JSON-RPC message per line)
// against the Tasks rules of protocol 2025-11-25 and 2026-07-28. No dependencies beyond Node's
// built-ins; the rules live in the WebAssembly core (Conversation), never here.

import { readFile } from "node:fs/promises";
import { Conversation } from "./node.mjs";

const VERSIONS = ["2025-11-25", "2026-07-28"];

const HELP = `mcp-tasks: check MCP Tasks conversations (protocol 2025-11-25 and 2026-07-28)

Usage:
  mcp-tasks check [options] FILE.jsonl [FILE2.jsonl ...]
  mcp-tasks check [options] -              (read the conversation from stdin)
  mcp-tasks --help

Each file is one conversation: one JSON-RPC message per line, in the order sent (blank lines are
skipped; a line that is not JSON is reported). Responses are paired with requests by id, every
message is validated knowing what it answers, and every task is followed across the stream.

Options:
  --json             print one JSON object per file and line: { file, messages, errors,
                     warnings, reports: [{ line, ...ObserveReport }], tasks: TaskTimeline[] }
  --version VERSION  fix the protocol version (${VERSIONS.join(" or ")}); by default the first
                     message that shows a version fixes it, and an initialize request
                     negotiates it anew (a client falling back from server/discover)
  -h, --help         show this help

Output (text): one line per issue, "line N  kind  severity code  path  message", a summary per
file, then a timeline per task.

Exit status: 0 no error-severity issue, 1 errors were found, 2 usage or I/O error.
`;

class UsageError extends Error {}

function parseArgs(argv) {
  const opts = { json: false, version: undefined, files: [], help: false };
  let command;
  let endOfOptions = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!endOfOptions && arg === "--") {
      endOfOptions = true;
    } else if (!endOfOptions && (arg === "-h" || arg === "--help")) {
      opts.help = true;
    } else if (!endOfOptions && arg === "--json") {
      opts.json = true;
    } else if (!endOfOptions && (arg === "--version" || arg.startsWith("--version="))) {
      const value = arg === "--version" ? argv[++i] : arg.slice("--version=".length);
      if (value === undefined) throw new UsageError("--version needs a value");
      if (!VERSIONS.includes(value)) {
        throw new UsageError(`unknown protocol version ${JSON.stringify(value)}: use ${VERSIONS.join(" or ")}`);
      }
      opts.version = value;
    } else if (!endOfOptions && arg.startsWith("-") && arg !== "-") {
      throw new UsageError(`unknown option ${arg}`);
    } else if (command === undefined) {
      command = arg;
    } else {
      opts.files.push(arg);
    }
  }
  if (opts.help) return { command: "help", opts };
  if (command === undefined) throw new UsageError("no command given");
  if (command !== "check") throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  if (opts.files.length === 0) throw new UsageError("check needs at least one FILE (or - for stdin)");
  return { command, opts };
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** Runs one conversation over the lines of `text`. */
function checkText(text, version) {
  const conversation = new Conversation(version ? { version } : undefined);
  const reports = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    reports.push({ line: i + 1, ...conversation.observe(line) });
  });
  const tasks = conversation.tasks();
  conversation.free();
  let errors = 0;
  let warnings = 0;
  for (const r of reports) {
    for (const issue of r.issues) {
      if (issue.severity === "error") errors++;
      else warnings++;
    }
  }
  return { messages: reports.length, errors, warnings, reports, tasks };
}

/** `10:30:05` from an RFC 3339 timestamp (with its zone when not UTC); the raw text otherwise. */
function clock(at) {
  if (typeof at !== "string") return undefined;
  const m = /T(\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:\d{2})?$/i.exec(at);
  if (!m) return at;
  return m[2] && m[2].toUpperCase() !== "Z" && m[2] !== "+00:00" ? `${m[1]}${m[2]}` : m[1];
}

/** `working 10:30:00 → input_required 10:30:05 [name] → update [name] → …` */
function timeline(task) {
  const steps = [];
  let last;
  for (const e of task.events) {
    const keys = e.inputKeys && e.inputKeys.length ? ` [${e.inputKeys.join(", ")}]` : "";
    if (e.status === null || e.status === undefined) {
      const what = { update: "update", cancel: "cancel requested", result: "result" }[e.source];
      steps.push((what ?? e.source) + keys);
      // After an answer, the same input_required again is worth showing.
      if (e.source === "update") last = undefined;
      continue;
    }
    // Repeated sightings of the same status are polls, not transitions: show the first.
    const key = `${e.status}${keys}`;
    if (last === key) continue;
    last = key;
    const time = clock(e.at);
    steps.push(`${e.status}${time ? ` ${time}` : ""}${keys}`);
  }
  const issues = task.issues.length ? `  (${task.issues.length} history issue${task.issues.length === 1 ? "" : "s"})` : "";
  return `task ${task.taskId} (${task.version ?? "version unknown"}): ${steps.join(" → ") || "(no status seen)"}${issues}`;
}

function textReport(name, result) {
  const out = [];
  for (const r of result.reports) {
    for (const issue of r.issues) {
      out.push(
        `line ${r.line}  ${r.kind}  ${issue.severity} ${issue.code}  ${issue.path === "" ? "(root)" : issue.path}  ${issue.message}`,
      );
    }
  }
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  out.push(
    `${name}: ${plural(result.messages, "message")}, ${plural(result.errors, "error")}, ` +
      `${plural(result.warnings, "warning")}, ${plural(result.tasks.length, "task")}`,
  );
  for (const task of result.tasks) out.push(timeline(task));
  return out.join("\n") + "\n";
}

function write(text) {
  return new Promise((resolve) => {
    if (!process.stdout.write(text)) process.stdout.once("drain", resolve);
    else resolve();
  });
}

async function main(argv) {
  let parsed;
  try {
    parsed = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`mcp-tasks: ${e.message}\nTry 'mcp-tasks --help'.\n`);
      return 2;
    }
    throw e;
  }
  if (parsed.command === "help") {
    await write(HELP);
    return 0;
  }
  const { opts } = parsed;
  let ioError = false;
  let anyErrors = false;
  let first = true;
  for (const file of opts.files) {
    let text;
    try {
      text = file === "-" ? await readStdin() : await readFile(file, "utf8");
    } catch (e) {
      process.stderr.write(`mcp-tasks: cannot read ${file}: ${e.code ?? e.message}\n`);
      ioError = true;
      continue;
    }
    const name = file === "-" ? "(stdin)" : file;
    const result = checkText(text, opts.version);
    if (result.errors > 0) anyErrors = true;
    if (opts.json) {
      await write(JSON.stringify({ file: name, ...result }) + "\n");
    } else {
      await write((first ? "" : "\n") + textReport(name, result));
    }
    first = false;
  }
  if (ioError) return 2;
  return anyErrors ? 1 : 0;
}

process.stdout.on("error", (e) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw e;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`mcp-tasks: internal error: ${e && e.stack ? e.stack : e}\n`);
    process.exitCode = 2;
  },
);
