// mcp-tasks-wasm inspect / record: the inspector page served from the installed package with a
// local bridge, and a recorder of MCP traffic. Node built-ins only (node:http, node:child_process,
// the global fetch); compiled to pkg/inspect.mjs and loaded by the CLI (js/cli.mts) on demand.
//
//   inspect URL          the page, and a bridge that forwards the page's Streamable HTTP exchanges
//                        to URL (adding --header / --bearer; Mcp-Session-Id and the MCP headers pass
//                        through both ways; SSE answers are streamed back as they come)
//   inspect -- CMD ...   the page, and a bridge that runs CMD as a stdio MCP server (started on the
//                        first bridged request, stopped with the launcher) and speaks Streamable
//                        HTTP to the page: each request POSTed is written to the child's stdin, its
//                        answer (and what the server sends meanwhile) comes back as an SSE stream
//   record URL           a recording proxy on 127.0.0.1 in front of URL, for any HTTP client
//   record -- CMD ...    a recording stdio pass-through: a client starts this instead of CMD
//
// Security (what a launcher that starts processes owes its user; the official Inspector's proxy
// once let any web page start processes through exactly this path): the server listens on
// 127.0.0.1 only; every /bridge/ request must carry the per-launch token (32 random bytes, given to
// the page in the URL fragment, which no browser sends anywhere) in the X-MCP-Bridge-Token header,
// so a cross-origin page must preflight, and OPTIONS is refused; a request whose Origin is not the
// launcher's own, whose Sec-Fetch-Site says another site, or whose Host is not the launcher's
// loopback address is refused with 403 before anything else happens (no process is started).
//
// --record FILE writes every message as one JSON line, `{"at", "from", "headers"?, "message"}`:
// the time (RFC 3339), "client" or "server", the HTTP headers of a client request (when HTTP;
// credentials redacted) and the JSON-RPC message: the page's "export with times" lines plus the
// headers, which `mcp-tasks check` reads.

import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, statSync } from "node:fs";
import type { WriteStream } from "node:fs";
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { delimiter, dirname, extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { RELATED_TASK as RELATED } from "./protocol.js";

/** The package's root (this file is pkg/inspect.mjs) and the page inside it. */
const PKG_ROOT = dirname(fileURLToPath(import.meta.url));
const WWW = join(PKG_ROOT, "www");
const TOKEN_HEADER = "x-mcp-bridge-token";
/** Default of --max-message-bytes: a request body, a stdout line, an SSE event recorded. */
const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Default of --max-queued: stdio server messages waiting for a page stream to carry them. */
const DEFAULT_MAX_QUEUED = 1000;
/** Request headers the bridge passes on to an HTTP server (the ones Streamable HTTP uses). */
const FORWARD_REQUEST = ["content-type", "accept", "mcp-protocol-version", "mcp-method", "mcp-name", "mcp-session-id", "last-event-id"];
/** Response headers passed back to the page. */
const FORWARD_RESPONSE = ["content-type", "mcp-session-id", "mcp-protocol-version", "cache-control", "www-authenticate", "retry-after"];
/** Recorded with their value replaced: credentials never land in a transcript. */
const SECRET_HEADERS = ["authorization", "proxy-authorization", "cookie"];
const REDACTED = "(redacted)";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".jsonl": "application/jsonl; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css; charset=utf-8",
};

const HELP = `mcp-tasks-wasm inspect: the inspector page, with a local bridge to an MCP server
mcp-tasks-wasm record: record the traffic of an MCP server

Usage:
  mcp-tasks-wasm inspect [options] [URL]           an HTTP server (Streamable HTTP), no CORS needed
  mcp-tasks-wasm inspect [options] -- CMD [ARG...] a stdio server (started by the bridge)
  mcp-tasks-wasm record --record FILE [options] URL            a recording proxy for HTTP clients
  mcp-tasks-wasm record --record FILE [options] -- CMD [ARG...] a recording stdio pass-through

Options:
  --port N              listen on 127.0.0.1:N (default 0: a free port)
  --header "Name: value"  sent with every request to the HTTP server (repeatable)
  --bearer TOKEN        sent as "Authorization: Bearer TOKEN"
  --no-open             do not open a browser (inspect)
  --record FILE         write every message as {"at","from","headers"?,"message"} lines (JSONL)
  --max-message-bytes N the largest request body or server message taken (default 16777216)
  --max-queued N        stdio server messages kept while no page stream is open (default 1000)
  -h, --help            show this help

The inspector listens on 127.0.0.1 only. Its URL carries a per-launch token in its fragment
(#bridge=...): the page sends it with every bridge request; a request without it gets 401, one
from another origin 403 (nothing is started). Stop with Ctrl-C: the stdio server stops too.
`;

class UsageError extends Error {}

type Options = {
  command: "inspect" | "record";
  port: number;
  headers: Record<string, string>;
  secrets: Set<string>;
  open: boolean;
  record: string | null;
  url: string | null;
  argv: string[] | null;
  maxMessageBytes: number;
  maxQueued: number;
};

function parse(argv: string[]): Options | "help" {
  const command = argv[0];
  if (command !== "inspect" && command !== "record") throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  const dash = argv.indexOf("--");
  const own = dash === -1 ? argv.slice(1) : argv.slice(1, dash);
  const child = dash === -1 ? null : argv.slice(dash + 1);
  let parsed;
  try {
    parsed = parseArgs({
      args: own,
      allowPositionals: true,
      strict: true,
      options: {
        port: { type: "string" },
        header: { type: "string", multiple: true },
        bearer: { type: "string" },
        "no-open": { type: "boolean" },
        record: { type: "string" },
        out: { type: "string" },
        "max-message-bytes": { type: "string" },
        "max-queued": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const v = parsed.values;
  if (v.help) return "help";
  const int = (name: string, value: string | undefined, fallback: number, min: number, max: number) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new UsageError(`--${name} ${JSON.stringify(value)}: use an integer from ${min} to ${max}`);
    return n;
  };
  const headers: Record<string, string> = {};
  const secrets = new Set(SECRET_HEADERS);
  for (const h of v.header ?? []) {
    const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*)$/.exec(h);
    if (!m || /[\r\n\0]/.test(m[2])) throw new UsageError(`--header ${JSON.stringify(h)}: use "Name: value"`);
    const name = m[1].toLowerCase();
    if (["host", "content-length", "connection", "transfer-encoding"].includes(name)) throw new UsageError(`--header ${m[1]}: set by the bridge itself`);
    headers[name] = m[2];
    secrets.add(name);
  }
  if (v.bearer !== undefined) {
    if (/[\r\n\0]/.test(v.bearer)) throw new UsageError("--bearer: the token has a line break");
    headers.authorization = `Bearer ${v.bearer}`;
  }
  if (parsed.positionals.length > 1) throw new UsageError(`one URL at most (got ${parsed.positionals.join(" ")})`);
  const url = parsed.positionals[0] ?? null;
  if (url !== null && child !== null) throw new UsageError("give a URL or -- COMMAND, not both");
  if (child !== null && child.length === 0) throw new UsageError("-- needs a command");
  if (url !== null) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new UsageError(`${JSON.stringify(url)} is not a URL (for example http://127.0.0.1:3000/mcp)`);
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new UsageError(`${url}: use an http: or https: URL`);
  }
  const record = v.record ?? v.out ?? null;
  if (command === "record") {
    if (record === null) throw new UsageError("record needs --record FILE");
    if (url === null && child === null) throw new UsageError("record needs a URL or -- COMMAND");
  }
  return {
    command,
    port: int("port", v.port, 0, 0, 65535),
    headers,
    secrets,
    open: !v["no-open"],
    record,
    url,
    argv: child,
    maxMessageBytes: int("max-message-bytes", v["max-message-bytes"], DEFAULT_MAX_MESSAGE_BYTES, 1024, 1 << 30),
    maxQueued: int("max-queued", v["max-queued"], DEFAULT_MAX_QUEUED, 1, 1_000_000),
  };
}

// ---- the transcript ------------------------------------------------------------------------------

/** Writes one `{"at","from","headers"?,"message"}` line per message. */
class Recorder {
  #out: WriteStream;
  #failed = false;
  constructor(file: string) {
    this.#out = createWriteStream(file, { flags: "w" });
    this.#out.on("error", (e) => {
      if (!this.#failed) process.stderr.write(`mcp-tasks-wasm: cannot write ${file}: ${e.message}\n`);
      this.#failed = true;
    });
  }
  write(from: "client" | "server", message: unknown, headers?: Record<string, string>) {
    if (this.#failed) return;
    const line = { at: new Date().toISOString(), from, ...(headers ? { headers } : {}), message };
    this.#out.write(`${JSON.stringify(line)}\n`);
  }
  close(): Promise<void> {
    return new Promise((done) => this.#out.end(() => done()));
  }
}

/** The headers a request carried, for the transcript: credentials redacted. */
function recordedHeaders(headers: Record<string, string>, secrets: Set<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = secrets.has(k) ? REDACTED : v;
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The messages of a JSON body (one, or a batch); [] for anything else. */
function messagesOf(text: string): unknown[] {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return [];
  }
  return (Array.isArray(v) ? v : [v]).filter(isObject);
}

/**
 * Reads an SSE stream's text in pieces and hands on each event's data. An event over `max`
 * characters is skipped (it is still passed to the client unchanged; only not recorded).
 */
class SseTap {
  #buffer = "";
  #data: string[] = [];
  #size = 0;
  #max: number;
  #onData: (data: string) => void;
  constructor(max: number, onData: (data: string) => void) {
    this.#max = max;
    this.#onData = onData;
  }
  push(text: string) {
    this.#buffer += text;
    let end;
    while ((end = this.#buffer.search(/\r\n|\r|\n/)) !== -1) {
      if (end === this.#buffer.length - 1 && this.#buffer[end] === "\r") break; // a "\r\n" cut in two
      const line = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + (this.#buffer.startsWith("\r\n", end) ? 2 : 1));
      if (line === "") {
        if (this.#data.length > 0 && this.#size <= this.#max) this.#onData(this.#data.join("\n"));
        this.#data = [];
        this.#size = 0;
      } else if (line.startsWith("data:")) {
        const d = line.slice(5).replace(/^ /, "");
        this.#size += d.length;
        if (this.#size <= this.#max) this.#data.push(d);
      }
    }
    if (this.#buffer.length > this.#max) this.#buffer = ""; // a line longer than any message kept
  }
}

// ---- HTTP: forwarding to the server -------------------------------------------------------------------

/** Reads a request body up to `max` bytes; null when over it. */
async function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) return null;
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}) {
  if (res.headersSent) return res.end();
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...extra });
  res.end(text);
}

/**
 * Forwards one exchange to `target`: the MCP request headers the client sent plus `extra`, the
 * body, and streams the answer back (JSON, or SSE as it comes), recording both sides.
 */
async function forward(req: IncomingMessage, res: ServerResponse, target: string, opts: Options, rec: Recorder | null) {
  const method = req.method ?? "GET";
  if (!["GET", "POST", "DELETE"].includes(method)) return sendJson(res, 405, { error: `method ${method} is not forwarded (GET, POST, DELETE)` }, { allow: "GET, POST, DELETE" });
  let body: Buffer | null = null;
  if (method === "POST") {
    body = await readBody(req, opts.maxMessageBytes);
    if (body === null) return sendJson(res, 413, { error: `the request body is over the bridge's limit of ${opts.maxMessageBytes} bytes (--max-message-bytes)`, limit: "max-message-bytes" });
  }
  const headers: Record<string, string> = {};
  for (const name of FORWARD_REQUEST) {
    const v = req.headers[name];
    if (typeof v === "string") headers[name] = v;
  }
  Object.assign(headers, opts.headers);
  if (rec && body !== null) {
    const seen = recordedHeaders(headers, opts.secrets);
    for (const m of messagesOf(body.toString("utf8"))) rec.write("client", m, seen);
  }
  const ac = new AbortController();
  res.on("close", () => ac.abort());
  let upstream: Response;
  try {
    upstream = await fetch(target, { method, headers, body: body === null ? undefined : new Uint8Array(body), redirect: "manual", signal: ac.signal });
  } catch (e) {
    if (ac.signal.aborted) return;
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return sendJson(res, 502, { error: `the bridge could not reach ${target}: ${cause?.code ?? cause?.message ?? (e as Error).message}` });
  }
  const out: Record<string, string> = {};
  for (const name of FORWARD_RESPONSE) {
    const v = upstream.headers.get(name);
    if (v !== null) out[name] = v;
  }
  res.writeHead(upstream.status, out);
  if (!upstream.body) return res.end();
  const type = (upstream.headers.get("content-type") ?? "").toLowerCase();
  const sse = type.startsWith("text/event-stream");
  const decoder = new TextDecoder();
  const tap = rec && sse ? new SseTap(opts.maxMessageBytes, (data) => {
    for (const m of messagesOf(data)) rec.write("server", m);
  }) : null;
  const kept: string[] = [];
  let keptSize = 0;
  try {
    for await (const chunk of upstream.body as unknown as AsyncIterable<Uint8Array>) {
      if (rec) {
        const text = decoder.decode(chunk, { stream: true });
        if (tap) tap.push(text);
        else if (keptSize <= opts.maxMessageBytes) {
          kept.push(text);
          keptSize += text.length;
        }
      }
      if (!res.write(chunk)) await new Promise<void>((ok) => { res.once("drain", ok); res.once("close", ok); });
      if (res.destroyed) break;
    }
  } catch {
    // the client went away, or the server's stream broke: end ours
  }
  if (rec && !sse && keptSize <= opts.maxMessageBytes) {
    kept.push(decoder.decode());
    for (const m of messagesOf(kept.join(""))) rec.write("server", m);
  }
  res.end();
}

// ---- stdio: a child process behind a Streamable HTTP endpoint ---------------------------------------

/** A page stream the bridge writes SSE events to: a POST's answer, or the GET stream. */
type Stream = { res: ServerResponse; ids: Set<string>; taskIds: Set<string>; closed: boolean };

const idKey = (id: unknown) => JSON.stringify(id ?? null);

/** Splits a byte stream into lines (without "\n", "\r\n"); a line over `max` bytes is reported, not kept. */
function lineSplitter(max: number, onLine: (line: string) => void, onTooLong: (bytes: number) => void) {
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  return (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (tooLong || size + piece.length > max) onTooLong(size + piece.length);
      else {
        const line = Buffer.concat([...parts, piece]).toString("utf8");
        onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
      }
      parts = [];
      size = 0;
      tooLong = false;
    }
    const rest = chunk.subarray(start);
    size += rest.length;
    if (size > max) {
      tooLong = true;
      parts = [];
    } else if (rest.length) parts.push(Buffer.from(rest));
  };
}

class StdioBridge {
  #argv: string[];
  #opts: Options;
  #rec: Recorder | null;
  child: ChildProcess | null = null;
  /** Requests sent to the child and not answered yet: the stream their answer goes to. */
  #pending = new Map<string, Stream>();
  /** Open page streams, oldest first. */
  #streams: Stream[] = [];
  #standalone: Stream | null = null;
  /** Server messages that came while no page stream was open. */
  #queue: Record<string, unknown>[] = [];
  /** The child's answer to the first `initialize` (its one 2025-11-25 session). */
  #initialized: unknown = null;
  #initializeId: string | null = null;
  #swallowInitialized = false;

  constructor(argv: string[], opts: Options, rec: Recorder | null) {
    this.#argv = argv;
    this.#opts = opts;
    this.#rec = rec;
  }

  /** Starts the child when it is not running. */
  #ensure(): ChildProcess {
    if (this.child) return this.child;
    const [cmd, ...args] = this.#argv;
    const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "inherit"] });
    this.child = child;
    this.#initialized = null;
    this.#initializeId = null;
    child.on("spawn", () => process.stderr.write(`mcp-tasks-wasm: stdio server started (pid ${child.pid}): ${this.#argv.join(" ")}\n`));
    child.on("error", (e) => process.stderr.write(`mcp-tasks-wasm: could not run ${cmd}: ${e.message}\n`));
    child.stdin?.on("error", () => {});
    const split = lineSplitter(this.#opts.maxMessageBytes, (line) => this.#fromChild(line), (n) => {
      process.stderr.write(`mcp-tasks-wasm: the stdio server wrote a line of ${n} bytes, over --max-message-bytes ${this.#opts.maxMessageBytes}: dropped\n`);
    });
    child.stdout?.on("data", split);
    child.on("close", (code, signal) => {
      if (this.child === child) this.child = null;
      process.stderr.write(`mcp-tasks-wasm: stdio server exited (${signal ?? `code ${code}`}); the next request starts it again\n`);
      for (const [key, stream] of this.#pending) {
        this.#send(stream, { jsonrpc: "2.0", id: JSON.parse(key), error: { code: -32603, message: `the stdio server exited (${signal ?? `code ${code}`}) before answering`, data: { bridge: "stdio-exit" } } });
        this.#answered(stream, key);
      }
      this.#pending.clear();
    });
    return child;
  }

  /** A line the child wrote: a response goes to its request's stream, the rest is routed. */
  #fromChild(line: string) {
    if (line.trim() === "") return;
    let m: unknown;
    try {
      m = JSON.parse(line);
    } catch {
      process.stderr.write(`mcp-tasks-wasm: the stdio server wrote a line that is not JSON: ${line.slice(0, 200)}\n`);
      return;
    }
    if (!isObject(m)) return;
    this.#rec?.write("server", m);
    if (typeof m.method !== "string" && "id" in m) {
      const key = idKey(m.id);
      if (this.#initializeId === key && isObject(m.result)) this.#initialized = m.result;
      const stream = this.#pending.get(key);
      if (!stream) return; // its request's stream went away
      this.#pending.delete(key);
      this.#send(stream, m);
      this.#answered(stream, key);
      return;
    }
    this.#route(m);
  }

  /** A server request or notification: to the stream of the task it names, the GET stream, the newest. */
  #route(m: Record<string, unknown>) {
    const params = isObject(m.params) ? m.params : {};
    const meta = isObject(params._meta) ? params._meta : {};
    const related = isObject(meta[RELATED]) ? meta[RELATED].taskId : typeof params.taskId === "string" ? params.taskId : undefined;
    const open = this.#streams.filter((s) => !s.closed);
    const stream = (typeof related === "string" ? open.find((s) => s.taskIds.has(related)) : undefined) ?? (this.#standalone && !this.#standalone.closed ? this.#standalone : undefined) ?? open.at(-1);
    if (stream) return this.#send(stream, m);
    if (this.#queue.length >= this.#opts.maxQueued) {
      const dropped = this.#queue.shift();
      process.stderr.write(`mcp-tasks-wasm: no page stream open and ${this.#opts.maxQueued} messages waiting (--max-queued): dropped the oldest\n`);
      // A request dropped is answered, so the server does not wait for it forever.
      if (dropped && typeof dropped.method === "string" && "id" in dropped) {
        this.#write({ jsonrpc: "2.0", id: dropped.id, error: { code: -32603, message: `no client stream took this request: the bridge's queue of ${this.#opts.maxQueued} messages (--max-queued) is full`, data: { limit: "max-queued" } } });
      }
    }
    this.#queue.push(m);
  }

  #send(stream: Stream, m: unknown) {
    if (stream.closed) return;
    stream.res.write(`event: message\ndata: ${JSON.stringify(m)}\n\n`);
  }

  #answered(stream: Stream, key: string) {
    stream.ids.delete(key);
    if (stream.ids.size === 0 && stream !== this.#standalone) this.#close(stream);
  }

  #close(stream: Stream) {
    if (stream.closed) return;
    stream.closed = true;
    stream.res.end();
    this.#streams = this.#streams.filter((s) => s !== stream);
    if (this.#standalone === stream) this.#standalone = null;
  }

  #open(res: ServerResponse): Stream {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
    res.flushHeaders();
    const stream: Stream = { res, ids: new Set(), taskIds: new Set(), closed: false };
    res.on("close", () => {
      if (stream.closed) return;
      stream.closed = true;
      this.#streams = this.#streams.filter((s) => s !== stream);
      if (this.#standalone === stream) this.#standalone = null;
      for (const key of stream.ids) this.#pending.delete(key);
    });
    this.#streams.push(stream);
    return stream;
  }

  #flushQueue(stream: Stream) {
    const queued = this.#queue;
    this.#queue = [];
    for (const m of queued) this.#send(stream, m);
  }

  #write(m: unknown) {
    this.#ensure().stdin?.write(`${JSON.stringify(m)}\n`);
  }

  async handle(req: IncomingMessage, res: ServerResponse) {
    const method = req.method ?? "GET";
    if (method === "DELETE") {
      // The stdio server's one session lives as long as the process: nothing to end.
      res.writeHead(200, { "cache-control": "no-store" });
      return res.end();
    }
    if (method === "GET") {
      if (!String(req.headers.accept ?? "").includes("text/event-stream")) return sendJson(res, 406, { error: "GET opens the event stream: accept text/event-stream" });
      this.#ensure();
      if (this.#standalone) this.#close(this.#standalone);
      const stream = this.#open(res);
      this.#standalone = stream;
      this.#flushQueue(stream);
      return;
    }
    if (method !== "POST") return sendJson(res, 405, { error: `method ${method}: use POST, GET or DELETE` }, { allow: "GET, POST, DELETE" });
    const body = await readBody(req, this.#opts.maxMessageBytes);
    if (body === null) return sendJson(res, 413, { error: `the request body is over the bridge's limit of ${this.#opts.maxMessageBytes} bytes (--max-message-bytes)`, limit: "max-message-bytes" });
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      return sendJson(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the body is not JSON" } });
    }
    const messages = (Array.isArray(parsed) ? parsed : [parsed]).filter(isObject);
    if (messages.length === 0) return sendJson(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: no JSON-RPC message in the body" } });
    const requests = messages.filter((m) => typeof m.method === "string" && "id" in m);
    // A second `initialize` (the page reloaded) while the child lives: the stdio server's one
    // session goes on; the page is told so with the answer the child gave to the first.
    if (requests.length === 1 && messages.length === 1 && requests[0].method === "initialize" && this.child && this.#initialized !== null) {
      this.#swallowInitialized = true;
      return sendJson(res, 200, { jsonrpc: "2.0", id: requests[0].id, result: this.#initialized });
    }
    const child = this.#ensure();
    if (requests.length === 0) {
      for (const m of messages) {
        if (this.#swallowInitialized && m.method === "notifications/initialized") {
          this.#swallowInitialized = false;
          continue;
        }
        this.#rec?.write("client", m);
        this.#write(m);
      }
      res.writeHead(202, { "cache-control": "no-store" });
      return res.end();
    }
    const stream = this.#open(res);
    for (const r of requests) {
      const key = idKey(r.id);
      stream.ids.add(key);
      this.#pending.set(key, stream);
      if (r.method === "initialize") this.#initializeId = key;
      const params = isObject(r.params) ? r.params : {};
      if (typeof params.taskId === "string") stream.taskIds.add(params.taskId);
    }
    this.#flushQueue(stream);
    for (const m of messages) {
      this.#rec?.write("client", m);
      if (child.stdin?.writable) child.stdin.write(`${JSON.stringify(m)}\n`);
    }
  }

  /** Stops the child: SIGTERM, then SIGKILL if it is still there after `graceMs`. */
  stop(graceMs = 2000): Promise<void> {
    const child = this.child;
    for (const s of [...this.#streams]) this.#close(s);
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((done) => {
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      child.once("close", () => {
        clearTimeout(timer);
        done();
      });
      child.stdin?.end();
      child.kill("SIGTERM");
    });
  }
}

// ---- the launcher's server -----------------------------------------------------------------------

/** The same token, compared in constant time. */
function sameToken(given: unknown, token: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A file of the package: `/pkg/…` from its root, anything else from www/. Null when outside. */
function staticFile(pathname: string): string | null {
  let base = WWW;
  let rel = pathname;
  if (pathname.startsWith("/pkg/")) {
    base = PKG_ROOT;
    rel = pathname.slice(4);
  }
  if (rel.endsWith("/")) rel += "index.html";
  const file = resolve(join(base, rel));
  if (!file.startsWith(base + sep)) return null;
  if (!(extname(file) in TYPES)) return null;
  return file;
}

function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string) {
  if (req.method !== "GET" && req.method !== "HEAD") return sendJson(res, 405, { error: "the page's files are read with GET" }, { allow: "GET, HEAD" });
  const file = staticFile(pathname);
  const info = file ? (() => {
    try {
      return statSync(file);
    } catch {
      return null;
    }
  })() : null;
  if (!file || !info || !info.isFile()) return sendJson(res, 404, { error: `not found: ${pathname}` });
  res.writeHead(200, {
    "content-type": TYPES[extname(file)],
    "content-length": String(info.size),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
  });
  if (req.method === "HEAD") return res.end();
  createReadStream(file).pipe(res);
}

/** Starts the inspector: the page, /bridge/config and /bridge/mcp. */
async function inspect(opts: Options): Promise<{ url: string; stop: () => Promise<void>; server: Server; stdio: StdioBridge | null }> {
  if (!existsSync(join(WWW, "index.html"))) throw new UsageError(`the inspector page is not in this package (${WWW}): reinstall mcp-tasks-wasm`);
  const token = randomBytes(32).toString("base64url");
  const rec = opts.record ? new Recorder(opts.record) : null;
  const stdio = opts.argv ? new StdioBridge(opts.argv, opts, rec) : null;
  let origin = "";
  let hosts: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    // DNS rebinding: only the loopback names of this very port.
    if (!hosts.includes(String(req.headers.host ?? ""))) return sendJson(res, 403, { error: "the Host header is not the launcher's (127.0.0.1 or localhost and its port)" });
    if (!url.pathname.startsWith("/bridge/")) return serveStatic(req, res, url.pathname);
    // The bridge: only the launcher's own page, and only with this launch's token.
    const from = req.headers.origin;
    if (from !== undefined && from !== origin) return sendJson(res, 403, { error: `requests from ${from} are refused: only ${origin} may use this bridge` });
    const site = req.headers["sec-fetch-site"];
    if (site !== undefined && site !== "same-origin" && site !== "none") return sendJson(res, 403, { error: `a ${site} request is refused: only ${origin} may use this bridge` });
    if (req.method === "OPTIONS") return sendJson(res, 403, { error: "no cross-origin use of the bridge" });
    if (!sameToken(req.headers[TOKEN_HEADER], token)) return sendJson(res, 401, { error: `the bridge needs this launch's token in ${TOKEN_HEADER} (open the URL the launcher printed)` });
    if (url.pathname === "/bridge/config") {
      return sendJson(res, 200, {
        endpoint: "/bridge/mcp",
        mode: stdio ? "stdio" : opts.url ? "http" : "none",
        target: opts.url,
        command: opts.argv,
        headers: Object.keys(opts.headers),
        recording: opts.record !== null,
      });
    }
    if (url.pathname !== "/bridge/mcp") return sendJson(res, 404, { error: `not found: ${url.pathname}` });
    if (stdio) return void stdio.handle(req, res).catch((e) => sendJson(res, 500, { error: String(e) }));
    if (opts.url) return void forward(req, res, opts.url, opts, rec).catch((e) => sendJson(res, 500, { error: String(e) }));
    return sendJson(res, 404, { error: "the launcher was started without a server: give a URL or -- COMMAND" });
  });
  const port = await listen(server, opts.port);
  origin = `http://127.0.0.1:${port}`;
  hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  const url = `${origin}/#bridge=${token}`;
  const stop = async () => {
    server.closeAllConnections?.();
    await new Promise<void>((done) => server.close(() => done()));
    await stdio?.stop();
    await rec?.close();
  };
  return { url, stop, server, stdio };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => {
      const a = server.address();
      ok(typeof a === "object" && a ? a.port : port);
    });
  });
}

/** The platform's opener, if there is one; never fails. */
function openBrowser(url: string) {
  const which = (cmd: string) => (process.env.PATH ?? "").split(delimiter).some((d) => d && existsSync(join(d, cmd)));
  let cmd: string | null = null;
  let args: string[] = [];
  if (process.platform === "darwin") [cmd, args] = ["open", [url]];
  else if (process.platform === "win32") [cmd, args] = ["cmd", ["/c", "start", '""', url.replace(/&/g, "^&")]];
  else if (which("xdg-open")) [cmd, args] = ["xdg-open", [url]];
  if (!cmd) return process.stderr.write("mcp-tasks-wasm: no browser opener found: open the URL above\n");
  try {
    const p = spawn(cmd, args, { stdio: "ignore", detached: true });
    p.on("error", () => process.stderr.write("mcp-tasks-wasm: could not open a browser: open the URL above\n"));
    p.unref();
  } catch {
    process.stderr.write("mcp-tasks-wasm: could not open a browser: open the URL above\n");
  }
}

// ---- record ---------------------------------------------------------------------------------------------

/** A recording proxy for HTTP clients: every path is forwarded to the URL. */
async function recordHttp(opts: Options, target: string, rec: Recorder): Promise<{ url: string; stop: () => Promise<void> }> {
  let hosts: string[] = [];
  const server = createServer((req, res) => {
    if (!hosts.includes(String(req.headers.host ?? ""))) return sendJson(res, 403, { error: "the Host header is not the proxy's (127.0.0.1 or localhost and its port)" });
    // No web page may use the proxy (it adds the --header / --bearer credentials): a browser
    // request carries an Origin, an MCP client in a process does not.
    if (req.headers.origin !== undefined) return sendJson(res, 403, { error: "requests from web pages (with an Origin header) are refused by the recording proxy" });
    forward(req, res, target, opts, rec).catch((e) => sendJson(res, 500, { error: String(e) }));
  });
  const port = await listen(server, opts.port);
  hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  return {
    url: `http://127.0.0.1:${port}${new URL(target).pathname}`,
    stop: async () => {
      server.closeAllConnections?.();
      await new Promise<void>((done) => server.close(() => done()));
      await rec.close();
    },
  };
}

/** A recording stdio pass-through: our stdin to the child's, its stdout to ours, each line recorded. */
function recordStdio(argv: string[], opts: Options, rec: Recorder): Promise<number> {
  const [cmd, ...args] = argv;
  const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "inherit"] });
  const note = (what: "client" | "server") => (line: string) => {
    if (line.trim() === "") return;
    try {
      const m = JSON.parse(line);
      if (isObject(m) || Array.isArray(m)) for (const one of Array.isArray(m) ? m : [m]) rec.write(what, one);
    } catch {
      // not JSON: passed on, not recorded
    }
  };
  const tooLong = (n: number) => process.stderr.write(`mcp-tasks-wasm: a line of ${n} bytes (over --max-message-bytes) passed on, not recorded\n`);
  const fromClient = lineSplitter(opts.maxMessageBytes, note("client"), tooLong);
  const fromServer = lineSplitter(opts.maxMessageBytes, note("server"), tooLong);
  child.stdin.on("error", () => {});
  process.stdin.on("data", (chunk: Buffer) => {
    fromClient(chunk);
    child.stdin.write(chunk);
  });
  process.stdin.on("end", () => child.stdin.end());
  child.stdout.on("data", (chunk: Buffer) => {
    fromServer(chunk);
    process.stdout.write(chunk);
  });
  const stopChild = () => child.kill("SIGTERM");
  process.once("SIGINT", stopChild);
  process.once("SIGTERM", stopChild);
  return new Promise((done) => {
    child.on("error", (e) => {
      process.stderr.write(`mcp-tasks-wasm: could not run ${cmd}: ${e.message}\n`);
      rec.close().then(() => done(2));
    });
    child.on("close", (code, signal) => {
      process.stdin.pause();
      rec.close().then(() => done(code ?? (signal ? 1 : 0)));
    });
  });
}

/** Resolves on SIGINT or SIGTERM. */
const stopped = () => new Promise<void>((done) => {
  process.once("SIGINT", () => done());
  process.once("SIGTERM", () => done());
});

/** `mcp-tasks-wasm inspect|record ...`: answers the exit status. */
export async function main(argv: string[]): Promise<number> {
  let opts: Options | "help";
  try {
    opts = parse(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`mcp-tasks-wasm: ${e.message}\nTry 'mcp-tasks-wasm ${argv[0]} --help'.\n`);
    return 2;
  }
  if (opts === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  if (opts.command === "record") {
    const rec = new Recorder(opts.record as string);
    if (opts.argv) return recordStdio(opts.argv, opts, rec);
    const proxy = await recordHttp(opts, opts.url as string, rec);
    process.stdout.write(`mcp-tasks-wasm record: proxy ${proxy.url} -> ${opts.url}, recording to ${opts.record}\n`);
    await stopped();
    await proxy.stop();
    return 0;
  }
  let launched;
  try {
    launched = await inspect(opts);
  } catch (e) {
    if (!(e instanceof UsageError) && (e as NodeJS.ErrnoException).code !== "EADDRINUSE") throw e;
    process.stderr.write(`mcp-tasks-wasm: ${(e as Error).message}\n`);
    return 2;
  }
  const what = opts.argv ? `stdio server: ${opts.argv.join(" ")} (started on the first request)` : opts.url ? `server: ${opts.url}` : "no server given: enter an endpoint in the page (it must allow CORS)";
  process.stdout.write(`mcp-tasks-wasm inspect: ${launched.url}\n  ${what}${opts.record ? `\n  recording to ${opts.record}` : ""}\n  Ctrl-C stops it.\n`);
  if (opts.open) openBrowser(launched.url);
  // A stdio child never outlives the launcher, however it ends.
  process.once("exit", () => launched.stdio?.child?.kill("SIGKILL"));
  await stopped();
  await launched.stop();
  return 0;
}
