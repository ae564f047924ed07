#!/usr/bin/env node
// mcp-tasks (also installed as mcp-tasks-wasm): checks MCP conversations (JSON Lines transcripts,
// one JSON-RPC message or transcript record per line, or the official MCP Inspector's protocol
// export, a JSON array) against the Tasks rules of protocol 2025-11-25 and 2026-07-28. No
// dependencies beyond Node's built-ins; the rules live in the WebAssembly core (Conversation),
// never here. The CLI only frames the input into messages (lines are streamed: memory does not
// grow with the file, only with what the Conversation keeps, which is bounded), counts, prints
// and decides the exit status.

import { readFileSync } from "node:fs";
import { open as fsOpen } from "node:fs/promises";
import { isUtf8 } from "node:buffer";
import { parseArgs } from "node:util";
import { Conversation } from "./node.mjs";
import type { Issue, ObserveReport, ProtocolVersion, TaskTimeline } from "./node.mjs";
import { V25, V26 } from "./protocol.js";

const PROTOCOLS: readonly string[] = [V25, V26];
const FAIL_ON: readonly string[] = ["warning", "error"];
/** The Conversation's default `maxBytes`: a longer line is refused (`too-large`) unread. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** Output is written in pieces of about this many characters (and waits when stdout is full). */
const OUT_CHUNK = 64 * 1024;
/** Bytes read from a file at a time. */
const READ_CHUNK = 256 * 1024;
/** Default of --max-export-bytes: a JSON array file (an Inspector export) is read whole. */
const MAX_EXPORT_BYTES = 64 * 1024 * 1024;
const FORMATS: readonly string[] = ["text", "json", "github"];

const HELP = `mcp-tasks: check MCP Tasks conversations (protocol 2025-11-25 and 2026-07-28)

Usage:
  mcp-tasks check [options] FILE [FILE2 ...]
  mcp-tasks check [options] -              (read the conversation from stdin)
  mcp-tasks inspect [URL | -- COMMAND ARGS...]   the inspector page with a local bridge
                                           (mcp-tasks inspect --help)
  mcp-tasks record --record FILE [URL | -- COMMAND ARGS...]   record traffic to check
  mcp-tasks --help | --version
The package installs the same program as mcp-tasks-wasm: outside a project,
  npx mcp-tasks-wasm check FILE

Each file is one conversation, in one of these formats (told apart by the first character):
  JSON Lines   one JSON-RPC message per line, in the order sent, or per line a record of how it
               travelled: {"at", "from", "headers", "message"} (all but "message" optional; the
               inspector page's "Export with times" and the recorder write these). "from" is
               "client" or "server", "at" an RFC 3339 time, "headers" the HTTP headers, checked
               against a 2026-07-28 request. Blank lines are skipped; a line that is not JSON,
               not UTF-8 or larger than 16 MiB is reported.
  JSON array   the official MCP Inspector's protocol export ("Export" in its Protocol panel):
               [{"timestamp", "direction", "origin", "message", "response"?, "duration"?}, ...];
               each request and its response are checked in the order of their times. An array
               of messages or records is read too. The file is read whole (--max-export-bytes).
Responses are paired with requests by id, every message is validated knowing what it answers,
and every task is followed across the stream. JSON Lines are read line by line: memory does
not grow with the file size.

Options:
  --format FORMAT       text (default), json or github:
                          text    one line per issue, "FILE:LINE  kind  severity code  path
                                  message", a summary per file, then a timeline per task
                          json    NDJSON on stdout, one JSON object per line, written as the
                                  file is read:
                            {"type":"message","file","line",...ObserveReport}  per message with issues
                            {"type":"task","file",...TaskTimeline}             per task, at the end
                            {"type":"summary","file","messages","errors","warnings","tasks","issues"}
                                  the summary is the last line of each file ("issues": file-level
                                  issues, such as empty-input)
                          github  GitHub Actions workflow commands, one per issue
                                  ("::error file=FILE,line=LINE,title=CODE::message", ::warning),
                                  which the runner shows as annotations on the file; then the
                                  summary of each file
  --json                the same as --format json
  --fail-on LEVEL       exit 1 when an issue of LEVEL or worse is found: error (default) or
                        warning
  -q, --quiet           print only the summary of each file (with --format json: only the
                        summary lines)
  --protocol VERSION    fix the protocol version (${PROTOCOLS.join(" or ")}); by default the first
                        message that shows a version fixes it, and an initialize request
                        negotiates it anew (a client falling back from server/discover)
  --max-export-bytes N  the largest JSON array file read (default ${MAX_EXPORT_BYTES}, 64 MiB); a
                        larger one is reported (too-large) and not checked
  -h, --help            show this help
  -V, --version         print the version of mcp-tasks (the package's version)

An input with no message at all gets the warning empty-input.

Exit status:
  0  no issue at or above --fail-on
  1  issues at or above --fail-on were found (by default: errors)
  2  usage error, or a file could not be read
`;

/** The options of `check`. */
type CheckOptions = {
  json: boolean;
  github: boolean;
  quiet: boolean;
  failOn: string;
  protocol: string | undefined;
  maxExportBytes: number;
  files: string[];
};
type CommandLine = { command: "help" } | { command: "version" } | { command: "check"; opts: CheckOptions };
/** A line of the input: its bytes, or only its length when over the limit. */
type Line = { number: number; buf: Buffer; tooLong?: undefined } | { number: number; tooLong: number; buf?: undefined };
/** A message's report: the Conversation's, or the CLI's own for a line it refuses (no index). */
type Report = Omit<ObserveReport, "index"> & { index: number | null };
/** One message of the input, as JSON text, or the CLI's report on input it refuses; its line. */
type Item = { line: number; text: string; report?: undefined } | { line: number; report: Report; text?: undefined };

class UsageError extends Error {}
/** The input could not be read (open or read failed): exit 2. */
class ReadError extends Error {
  constructor(cause: unknown) {
    const c = cause as { code?: string; message?: string } | null | undefined;
    super(c?.code ?? c?.message ?? String(cause), { cause });
  }
}

const OPTIONS = ({
  json: { type: "boolean" },
  format: { type: "string" },
  "max-export-bytes": { type: "string" },
  quiet: { type: "boolean", short: "q" },
  "fail-on": { type: "string" },
  protocol: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
} as const);

function parseCommandLine(argv: string[]): CommandLine {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true, tokens: true });
  } catch (e) {
    // `--version=2025-11-25`: the old meaning of --version.
    const m = /^--version=(.*)$/.exec(argv.find((a) => a.startsWith("--version=")) ?? "");
    if (m) throw new UsageError(oldVersionMessage(m[1]));
    throw new UsageError((e as Error).message);
  }
  const { values, positionals, tokens } = parsed;
  // `--version 2025-11-25`: --version used to fix the protocol version; it now prints the
  // program's version. Refuse the old use clearly rather than print a version and ignore the date.
  tokens.forEach((t, i) => {
    const next = tokens[i + 1];
    if (t.kind === "option" && t.name === "version" && next?.kind === "positional" && /^\d{4}-\d{2}-\d{2}$/.test(next.value)) {
      throw new UsageError(oldVersionMessage(next.value));
    }
  });
  if (values.help) return { command: "help" };
  if (values.version) return { command: "version" };
  const failOn = values["fail-on"] ?? "error";
  if (!FAIL_ON.includes(failOn)) throw new UsageError(`--fail-on ${JSON.stringify(failOn)}: use warning or error`);
  const protocol = values.protocol;
  if (protocol !== undefined && !PROTOCOLS.includes(protocol)) {
    throw new UsageError(`unknown protocol version ${JSON.stringify(protocol)}: use --protocol ${PROTOCOLS.join(" or ")}`);
  }
  const format = values.format ?? (values.json ? "json" : "text");
  if (!FORMATS.includes(format)) throw new UsageError(`--format ${JSON.stringify(format)}: use ${FORMATS.join(", ")}`);
  if (values.json && format !== "json") throw new UsageError(`--json and --format ${format} disagree`);
  const maxText = values["max-export-bytes"];
  const maxExportBytes = maxText === undefined ? MAX_EXPORT_BYTES : Number(maxText);
  if (!/^\d+$/.test(maxText ?? "0") || !Number.isSafeInteger(maxExportBytes) || maxExportBytes < 1) {
    throw new UsageError(`--max-export-bytes ${JSON.stringify(maxText)}: use a positive number of bytes`);
  }
  const [command, ...files] = positionals;
  if (command === undefined) throw new UsageError("no command given");
  if (command !== "check") throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  if (files.length === 0) throw new UsageError("check needs at least one FILE (or - for stdin)");
  if (files.filter((f) => f === "-").length > 1) throw new UsageError("stdin (-) can be read only once");
  return {
    command,
    opts: { json: format === "json", github: format === "github", quiet: !!values.quiet, failOn, protocol, maxExportBytes, files },
  };
}

function oldVersionMessage(value: string | undefined): string {
  return `--version prints the version of mcp-tasks and takes no value; to fix the protocol version use --protocol ${value}`;
}

function programVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
  if (typeof pkg.version !== "string") throw new Error("package.json has no version");
  return pkg.version;
}

/** Buffered stdout: writes in pieces and waits for "drain" when the pipe is full. */
class Out {
  parts: string[];
  size: number;
  constructor() {
    this.parts = [];
    this.size = 0;
  }
  /** Queues `text`; answers a promise to await when the buffer is full, else undefined. */
  put(text: string): Promise<void> | undefined {
    this.parts.push(text);
    this.size += text.length;
    return this.size >= OUT_CHUNK ? this.flush() : undefined;
  }
  flush(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    const text = this.parts.join("");
    this.parts = [];
    this.size = 0;
    return new Promise<void>((resolve) => {
      if (process.stdout.write(text)) resolve();
      else process.stdout.once("drain", resolve);
    });
  }
}

/**
 * The lines of a byte stream, as Buffers without their "\n" (nor a "\r" before it), each with
 * its 1-based number; a line longer than `max` bytes is not kept: it comes as
 * `{ tooLong: byteCount }`. Memory: one chunk of the stream plus at most `max` bytes.
 */
async function* lines(stream: AsyncIterable<Buffer>, max = MAX_LINE_BYTES): AsyncGenerator<Line> {
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let tooLong = false;
  let number = 0;
  const finish = (tail: Buffer): Line => {
    number++;
    if (tooLong) {
      const n = carryBytes + tail.length;
      carry = [];
      carryBytes = 0;
      tooLong = false;
      return { number, tooLong: n };
    }
    let buf = carry.length === 0 ? tail : Buffer.concat([...carry, tail]);
    carry = [];
    carryBytes = 0;
    if (buf.length > 0 && buf[buf.length - 1] === 0x0d) buf = buf.subarray(0, buf.length - 1);
    if (buf.length > max) return { number, tooLong: buf.length };
    return { number, buf };
  };
  const chunks: AsyncIterator<Buffer> = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next;
      try {
        next = await chunks.next();
      } catch (e) {
        throw new ReadError(e);
      }
      if (next.done) break;
      const chunk = next.value;
      let start = 0;
      for (let nl = chunk.indexOf(0x0a, start); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
        yield finish(chunk.subarray(start, nl));
        start = nl + 1;
      }
      const rest = chunk.subarray(start);
      if (rest.length === 0) continue;
      carryBytes += rest.length;
      if (tooLong) continue;
      if (carryBytes > max + 1) {
        // Longer than any acceptable line (+1 for a "\r"): stop keeping it, count the rest.
        tooLong = true;
        carry = [];
      } else {
        // A copy: the reader reuses its chunk.
        carry.push(Buffer.from(rest));
      }
    }
    if (carryBytes > 0 || tooLong) yield finish(Buffer.alloc(0));
  } finally {
    // Stopped early (or done): let the reader close its file.
    await chunks.return?.();
  }
}

/** A report for a line the CLI refuses before the Conversation sees it (same shape). */
function inputReport(code: string, message: string): Report {
  return {
    index: null,
    valid: false,
    version: null,
    versionSource: "none",
    kind: "Invalid",
    rpc: "invalid",
    method: null,
    issues: [{ severity: "error", code, path: "", message }],
    taskIds: [],
  };
}

/** `10:30:05` from an RFC 3339 timestamp (with its zone when not UTC); the raw text otherwise. */
function clock(at: unknown): string | undefined {
  if (typeof at !== "string") return undefined;
  const m = /T(\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:\d{2})?$/i.exec(at);
  if (!m) return at;
  return m[2] && m[2].toUpperCase() !== "Z" && m[2] !== "+00:00" ? `${m[1]}${m[2]}` : m[1];
}

/** `working 10:30:00 → input_required 10:30:05 [name] → update [name] → …` */
function timeline(task: TaskTimeline): string {
  const steps: string[] = [];
  let last: string | undefined;
  for (const e of task.events) {
    const keys = e.inputKeys && e.inputKeys.length ? ` [${e.inputKeys.join(", ")}]` : "";
    if (e.status === null || e.status === undefined) {
      const what = ({ update: "update", cancel: "cancel requested", result: "result" } as Record<string, string>)[e.source];
      // When it was recorded (a transcript record's `at`): these events carry no lastUpdatedAt.
      const seen = clock(e.seenAt);
      steps.push(`${what ?? e.source}${seen ? ` ${seen}` : ""}${keys}`);
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
  const n = task.issues.length + (task.omittedIssues ?? 0);
  const issues = n ? `  (${n} history issue${n === 1 ? "" : "s"})` : "";
  return `task ${task.taskId} (${task.version ?? "version unknown"}): ${steps.join(" → ") || "(no status seen)"}${issues}`;
}

const pathText = (p: string) => (p === "" ? "(root)" : p);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * A GitHub Actions workflow command for one issue (`::error file=F,line=N,title=CODE::text`,
 * `::warning`), which the runner shows as an annotation on the file and line. Values are
 * escaped as the runner reads them (`%`, CR, LF; in properties also `:` and `,`).
 */
function annotation(issue: Issue, file: string, line: number | undefined, text: string): string {
  const data = (v: string) => v.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const prop = (v: string) => data(v).replace(/:/g, "%3A").replace(/,/g, "%2C");
  const at = line === undefined ? "" : `,line=${line}`;
  return `::${issue.severity} file=${prop(file)}${at},title=${prop(issue.code)}::${data(text)}\n`;
}

/** Bytes read at most, all whitespace, to tell a file's format before reading it as lines. */
const SNIFF_BYTES = 1024 * 1024;

/**
 * The messages of one input, each with its line. The first character tells the format: `[`
 * is a JSON array (the official MCP Inspector's protocol export), read whole
 * (`maxExportBytes` at most) by `exportItems`; anything else is JSON Lines, streamed.
 */
async function* items(stream: AsyncIterable<Buffer>, maxExportBytes: number): AsyncGenerator<Item> {
  const chunks: AsyncIterator<Buffer> = stream[Symbol.asyncIterator]();
  const next = async () => {
    try {
      return await chunks.next();
    } catch (e) {
      throw new ReadError(e);
    }
  };
  try {
    // Copies: the reader reuses its chunk.
    const head: Buffer[] = [];
    let size = 0;
    let first = -1;
    let done = false;
    while (first === -1 && size <= SNIFF_BYTES) {
      const n = await next();
      if (n.done) {
        done = true;
        break;
      }
      const c = Buffer.from(n.value);
      let i = size === 0 && c[0] === 0xef && c[1] === 0xbb && c[2] === 0xbf ? 3 : 0; // a byte order mark
      while (i < c.length && (c[i] === 0x20 || c[i] === 0x0a || c[i] === 0x0d || c[i] === 0x09)) i++;
      if (i < c.length) first = c[i];
      head.push(c);
      size += c.length;
    }
    if (first !== 0x5b) {
      const rest = async function* () {
        yield* head;
        for (let n = done ? undefined : await next(); n && !n.done; n = await next()) yield n.value;
      };
      yield* lineItems(rest());
      return;
    }
    while (!done && size <= maxExportBytes) {
      const n = await next();
      if (n.done) break;
      size += n.value.length;
      if (size <= maxExportBytes) head.push(Buffer.from(n.value));
    }
    if (size > maxExportBytes) {
      const why = `the file, a JSON array, is larger than --max-export-bytes (${maxExportBytes}): it is read whole, so it is not checked`;
      yield { line: 1, report: inputReport("too-large", why) };
      return;
    }
    const buf = Buffer.concat(head);
    if (!isUtf8(buf)) {
      yield { line: 1, report: inputReport("not-json", "the file is not UTF-8") };
      return;
    }
    const found = exportItems(buf.toString("utf8").replace(/^\ufeff/, ""));
    // Not one array after all: JSON Lines whose first line is a batch.
    if (found === null) yield* lineItems((async function* () { yield buf; })());
    else yield* found;
  } finally {
    await chunks.return?.();
  }
}

/** The non-blank lines of a stream (`lines`), or the CLI's report on a line it refuses. */
async function* lineItems(stream: AsyncIterable<Buffer>): AsyncGenerator<Item> {
  for await (const l of lines(stream)) {
    if (l.tooLong !== undefined) {
      yield { line: l.number, report: inputReport("too-large", `the message has ${l.tooLong} bytes, more than the limit of ${MAX_LINE_BYTES}`) };
    } else if (!isUtf8(l.buf)) {
      yield { line: l.number, report: inputReport("not-json", "the line is not UTF-8") };
    } else {
      let text = l.buf.toString("utf8");
      if (l.number === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a byte order mark
      if (text.trim() !== "") yield { line: l.number, text };
    }
  }
}

/** One element of a top-level JSON array: its text, its line, and the line of its `response` member. */
type Element = { text: string; line: number; responseLine: number | undefined };

/**
 * The elements of `text` if it is one JSON array (with their lines), else null. A scan of the
 * nesting and strings only; each element is parsed on its own (a broken one is reported as
 * not-json, the others are checked).
 */
function arrayElements(text: string): Element[] | null {
  const ws = (i: number) => {
    while (i < text.length && " \t\r\n".includes(text.charAt(i))) i++;
    return i;
  };
  let counted = 0;
  let line = 1;
  const lineAt = (pos: number) => {
    for (let nl = text.indexOf("\n", counted); nl !== -1 && nl < pos; nl = text.indexOf("\n", nl + 1)) line++;
    counted = Math.max(counted, pos);
    return line;
  };
  let i = ws(0);
  if (text.charAt(i) !== "[") return null;
  i = ws(i + 1);
  const out: Element[] = [];
  if (text.charAt(i) === "]") return ws(i + 1) === text.length ? out : null;
  for (;;) {
    const start = i;
    let depth = 0;
    let responseAt = -1;
    for (;;) {
      if (i >= text.length) return null;
      const c = text.charAt(i);
      if (c === '"') {
        let end = text.indexOf('"', i + 1);
        for (;;) {
          if (end === -1) return null;
          let k = end - 1;
          while (text.charAt(k) === "\\") k--;
          if ((end - 1 - k) % 2 === 0) break;
          end = text.indexOf('"', end + 1);
        }
        if (depth === 1 && responseAt === -1 && text.slice(i + 1, end) === "response" && text.charAt(ws(end + 1)) === ":") responseAt = i;
        i = end + 1;
        if (depth === 0) break;
      } else if (c === "{" || c === "[") {
        depth++;
        i++;
      } else if (c === "}" || c === "]") {
        if (depth === 0) break;
        depth--;
        i++;
        if (depth === 0) break;
      } else if (depth === 0 && (c === "," || " \t\r\n".includes(c))) {
        break;
      } else {
        i++;
      }
    }
    const element = { text: text.slice(start, i), line: lineAt(start), responseLine: undefined as number | undefined };
    if (responseAt !== -1) element.responseLine = lineAt(responseAt);
    out.push(element);
    i = ws(i);
    if (text.charAt(i) === ",") {
      i = ws(i + 1);
      continue;
    }
    if (text.charAt(i) === "]" && ws(i + 1) === text.length) return out;
    return null;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The messages of a JSON array file, or null when the text is not one array. An element is
 * an entry of the official MCP Inspector's protocol export (its Protocol panel's "Export",
 * whole or a section: `{id, timestamp, direction: "request" | "response" | "notification",
 * origin: "client" | "server", message, response?, duration?}`, a request holding the
 * response paired with it),
 * a transcript record or a bare message. An entry becomes the record of its message and one of
 * its response (sent by the other side, `duration` ms later); all are observed in the order of
 * their times (an answer after what happened while its request was open), the export's order
 * where times are equal or missing.
 */
function exportItems(text: string): Item[] | null {
  const elements = arrayElements(text);
  if (elements === null) return null;
  type Timed = { item: Item; time: number; answer?: true };
  const timed: Timed[] = [];
  for (const e of elements) {
    let v: unknown;
    try {
      v = JSON.parse(e.text);
    } catch {
      timed.push({ item: { line: e.line, report: inputReport("not-json", "the element is not JSON") }, time: NaN });
      continue;
    }
    if (!isObject(v) || "jsonrpc" in v || !isObject(v.message) || !("direction" in v || "origin" in v)) {
      const at = isObject(v) && typeof v.at === "string" ? Date.parse(v.at) : NaN;
      timed.push({ item: { line: e.line, text: e.text }, time: at });
      continue;
    }
    const from = v.origin === "client" || v.origin === "server" ? v.origin : undefined;
    const time = typeof v.timestamp === "string" ? Date.parse(v.timestamp) : NaN;
    timed.push({ item: { line: e.line, text: JSON.stringify({ at: v.timestamp, from, message: v.message }) }, time });
    if (isObject(v.response)) {
      const duration = typeof v.duration === "number" && v.duration >= 0 ? v.duration : 0;
      const answered = time + duration;
      const at = Number.isFinite(answered) && Math.abs(answered) <= 8.64e15 ? new Date(answered).toISOString() : undefined;
      const other = from === "client" ? "server" : from === "server" ? "client" : undefined;
      timed.push({ item: { line: e.responseLine ?? e.line, text: JSON.stringify({ at, from: other, message: v.response }) }, time: answered, answer: true });
    }
  }
  // A missing time is the one of the entry before (the export's order); then a stable sort.
  let last = -Infinity;
  for (const t of timed) {
    if (!Number.isFinite(t.time)) t.time = last;
    else if (!t.answer) last = t.time;
  }
  return timed.sort((a, b) => a.time - b.time).map((t) => t.item);
}

/**
 * Checks one conversation, printing as it goes. Answers the summary, or throws the read error
 * (an I/O error; what was printed so far stays printed).
 */
async function checkStream(name: string, stream: AsyncIterable<Buffer>, opts: CheckOptions, out: Out) {
  const conversation = new Conversation(opts.protocol ? { version: opts.protocol as ProtocolVersion } : undefined);
  try {
    let messages = 0;
    let errors = 0;
    let warnings = 0;
    const count = (issue: Issue) => {
      if (issue.severity === "error") errors++;
      else warnings++;
    };
    for await (const item of items(stream, opts.maxExportBytes)) {
      const report: Report = item.report ?? conversation.observe(item.text);
      messages++;
      if (report.issues.length === 0) continue;
      report.issues.forEach(count);
      if (opts.quiet) continue;
      let pending: Promise<void> | undefined;
      if (opts.json) {
        pending = out.put(`${JSON.stringify({ type: "message", file: name, line: item.line, ...report })}\n`);
      } else {
        for (const issue of report.issues) {
          const text = opts.github
            ? annotation(issue, name, item.line, `${report.kind} ${pathText(issue.path)}: ${issue.message}`)
            : `${name}:${item.line}  ${report.kind}  ${issue.severity} ${issue.code}  ${pathText(issue.path)}  ${issue.message}\n`;
          pending = out.put(text) ?? pending;
        }
      }
      if (pending) await pending;
    }
    const tasks = conversation.tasks();
    // Every history issue of a timeline was in a message's report already, except one: a
    // notification naming a task no CreateTaskResult named is judged only at the end
    // (history-unknown-task, held until the conversation is over).
    const held: { task: string; issue: Issue }[] = [];
    for (const t of tasks) for (const i of t.issues) if (i.code === "history-unknown-task") held.push({ task: t.taskId, issue: i });
    for (const h of held) count(h.issue);
    /** File-level issues. */
    const issues: Issue[] = [];
    if (messages === 0) {
      issues.push({ severity: "warning", code: "empty-input", path: "", message: "no message: the input is empty or holds only blank lines" });
    }
    issues.forEach(count);
    if (!opts.quiet && opts.github) {
      for (const h of held) await out.put(annotation(h.issue, name, undefined, `task ${h.task} ${pathText(h.issue.path)}: ${h.issue.message}`));
      for (const i of issues) await out.put(annotation(i, name, undefined, i.message));
    } else if (!opts.quiet && !opts.json) {
      for (const h of held) await out.put(`${name}  task ${h.task}  ${h.issue.severity} ${h.issue.code}  ${pathText(h.issue.path)}  ${h.issue.message}\n`);
      for (const i of issues) await out.put(`${name}  ${i.severity} ${i.code}  ${i.message}\n`);
    }
    const summary = { file: name, messages, errors, warnings, tasks: tasks.length, issues };
    if (opts.json) {
      if (!opts.quiet) for (const t of tasks) await out.put(`${JSON.stringify({ type: "task", file: name, ...t })}\n`);
      await out.put(`${JSON.stringify({ type: "summary", ...summary })}\n`);
    } else {
      await out.put(
        `${name}: ${plural(messages, "message")}, ${plural(errors, "error")}, ${plural(warnings, "warning")}, ${plural(tasks.length, "task")}\n`,
      );
      if (!opts.quiet && !opts.github) for (const t of tasks) await out.put(`${timeline(t)}\n`);
    }
    return summary;
  } finally {
    conversation.free();
  }
}

/**
 * Opens a file (or stdin for "-") as an async iterable of chunks; rejects with a ReadError.
 * A file is read into one reused buffer (each chunk is valid until the next is asked for, which
 * `lines` respects): no garbage per chunk, so memory stays flat however large the file.
 */
async function open(file: string): Promise<AsyncIterable<Buffer>> {
  if (file === "-") return process.stdin;
  let handle: import("node:fs/promises").FileHandle;
  try {
    handle = await fsOpen(file, "r");
  } catch (e) {
    throw new ReadError(e);
  }
  return (async function* () {
    const buf = Buffer.allocUnsafe(READ_CHUNK);
    try {
      for (;;) {
        const { bytesRead } = await handle.read(buf, 0, buf.length, null);
        if (bytesRead === 0) return;
        yield buf.subarray(0, bytesRead);
      }
    } finally {
      await handle.close();
    }
  })();
}

/** The program: one case per subcommand given first; the rest (check, --help, --version) below. */
async function main(argv: string[]): Promise<number> {
  switch (argv[0]) {
    case "inspect":
    case "record":
      return (await import("./inspect.mjs")).main(argv);
    default:
      return check(argv);
  }
}

/** `check FILE...` (options anywhere), `--help`, `--version`. */
async function check(argv: string[]): Promise<number> {
  let parsed: CommandLine;
  try {
    parsed = parseCommandLine(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`mcp-tasks: ${e.message}\nTry 'mcp-tasks --help'.\n`);
      return 2;
    }
    throw e;
  }
  if (parsed.command === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  if (parsed.command === "version") {
    process.stdout.write(`${programVersion()}\n`);
    return 0;
  }
  const { opts } = parsed;
  const out = new Out();
  let ioError = false;
  let failed = false;
  let first = true;
  for (const file of opts.files) {
    const name = file === "-" ? "(stdin)" : file;
    if (!first && !opts.json && !opts.github && !opts.quiet) await out.put("\n");
    first = false;
    try {
      const stream = await open(file);
      const summary = await checkStream(name, stream, opts, out);
      if (summary.errors > 0 || (opts.failOn === "warning" && summary.warnings > 0)) failed = true;
    } catch (e) {
      if (!(e instanceof ReadError)) throw e;
      await out.flush();
      process.stderr.write(`mcp-tasks: cannot read ${file}: ${e.message}\n`);
      ioError = true;
    }
  }
  await out.flush();
  if (ioError) return 2;
  return failed ? 1 : 0;
}

process.stdout.on("error", (e) => {
  if ((e as NodeJS.ErrnoException).code === "EPIPE") process.exit(process.exitCode ?? 0);
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
