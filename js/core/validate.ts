// validateMessage over a byte boundary: JSON text goes into wasm memory by one
// TextEncoder.encodeInto into a reused buffer and is validated in one call that takes the options
// as numbers. The answer is one integer: a "valid, no issues" report seen before comes back as a
// shared frozen object (no report is built or parsed); the issues of a 2025-11-25 task's members
// as numbers only (template numbers, task indexes and spans of the message text: readTemplated,
// no text decoded); any other report compactly in the same buffer (a few numbers and its strings
// as one UTF-8 text, decoded once: readCompact), or, rarely, as JSON text parsed once here.
// Anything this path does not handle itself (an object, `headers`, options it would have to
// refuse, a string with lone surrogates or over `maxBytes`) goes to the wasm-bindgen export,
// which gives the same reports and throws the same TypeErrors.
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).
import { validateMessage as validateAny, Conversation, __validateBuffer, __validateBytes, __validateMemory, __validateNewKnown, __validateTemplate, __validateBufferAt } from "./mcp_tasks_wasm.js";

export type ValidationReport = import("./mcp_tasks_wasm.js").ValidationReport;
export type ValidateOptions = import("./mcp_tasks_wasm.js").ValidateOptions;
export type ObserveOptions = import("./mcp_tasks_wasm.js").ObserveOptions;
export type ObserveReport = import("./mcp_tasks_wasm.js").ObserveReport;

/** Bytes kept for `inReplyTo` at the start of the buffer; the message follows. */
const REPLY_BYTES = 1024;
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
const NO_REPLY = 0xffffffff;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** `String.prototype.isWellFormed` (ES2024; older runtimes lack it). */
const isWellFormed = ((String.prototype as unknown) as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** What is read of the module's `WebAssembly.Memory` (declared here: no DOM lib needed). */
type WasmMemory = { readonly buffer: ArrayBuffer };
let memory: WasmMemory | null = null;
/** The buffer's address and size in wasm memory. */
let address = 0;
let size = 0;
/** Views of the buffer: the `inReplyTo` area and the message area (remade when memory grows). */
let replyView = new Uint8Array(0);
let messageView = new Uint8Array(0);
/** Views of the whole wasm memory, for compact answers (remade when memory grows). */
let wordsView = new DataView(new ArrayBuffer(0));
let memoryBytes = new Uint8Array(0);
let memoryWords = new Uint32Array(0);
/** Where (in u32 units) the core notes the buffer's address (`__validateBufferAt`). */
let bufferAt = 0;
/** The last `inReplyTo` and its UTF-8 bytes (at most `REPLY_BYTES`: longer ones take the export). */
let replyText: string | undefined;
let replyBytes = new Uint8Array(0);
/** "Valid, no issues" reports by the number the core gave them. */
const known: ValidationReport[] = [];

/**
 * Grows the buffer to at least `want` bytes (doubling when it can); false when wasm memory cannot
 * hold that much (the buffer is then as it was, and the caller takes the export's own path).
 */
function grow(want: number): boolean {
  let next = Math.max(want, size * 2, 64 * 1024);
  let at = __validateBuffer(next);
  if (at === 0 && next > want) at = __validateBuffer((next = want));
  if (at === 0) return false;
  size = next;
  address = at;
  views();
  return true;
}

function views() {
  const buffer = (memory as WasmMemory).buffer;
  replyView = new Uint8Array(buffer, address, REPLY_BYTES);
  messageView = new Uint8Array(buffer, address + REPLY_BYTES, size - REPLY_BYTES);
  wordsView = new DataView(buffer);
  memoryBytes = new Uint8Array(buffer);
  memoryWords = new Uint32Array(buffer);
}

/**
 * Makes the buffer hold at least `need` bytes, and the views see the memory as it is now; false
 * when wasm memory cannot hold that much.
 */
function room(need: number): boolean {
  if (memory === null) {
    memory = (__validateMemory() as WasmMemory);
    bufferAt = __validateBufferAt() >>> 2;
    if (!grow(0)) {
      memory = null;
      return false;
    }
  }
  if (need > size) return grow(need);
  // Memory grew (its old views are detached: length 0), or the buffer moved (nothing here moves
  // it without knowing, but the exports are public and a direct call of __validateBuffer could
  // have): both are read without a call, the address where the core notes it.
  if (memoryBytes.length === 0) views();
  const at = memoryWords[bufferAt];
  if (at !== address) {
    address = at;
    views();
  }
  return true;
}

/**
 * The JSON text of `length` bytes the core wrote at the start of the buffer (which moved if the
 * text was longer than the buffer), parsed.
 */
function readJson(length: number): any {
  room(length);
  return JSON.parse(decoder.decode(new Uint8Array((memory as WasmMemory).buffer, address, length)));
}

const VERSIONS = [null, "2025-11-25", "2026-07-28"];
const SOURCES = ["option", "meta", "shape", "none"];
const RPCS = ["request", "notification", "result", "error", "invalid"];
const SEVERITIES = ["error", "warning"];

/**
 * The report the core wrote compactly at the start of the buffer (the layout is described at
 * `write_compact` in src/wasm/validate.rs): a fresh object, as JSON.parse would have built it.
 * The buffer did not move (the core writes a compact answer only where it fits), but memory may
 * have grown during the call.
 */
function readCompact(): ValidationReport {
  if (memoryBytes.length === 0) views();
  const dv = wordsView;
  const head = dv.getUint32(address, true);
  const n = dv.getUint32(address + 4, true);
  const textBytes = dv.getUint32(address + 8, true);
  const hasMethod = (head >> 8) & 1;
  const textAt = address + 4 * (4 + hasMethod + 4 * n);
  const text = decoder.decode(memoryBytes.subarray(textAt, textAt + textBytes));
  let w = address + 12;
  let t = dv.getUint32(w, true);
  const kind = text.slice(0, t);
  let method: string | null = null;
  if (hasMethod === 1) {
    const end = t + dv.getUint32((w += 4), true);
    method = text.slice(t, end);
    t = end;
  }
  const issues: ValidationReport["issues"] = [];
  for (let i = 0; i < n; i++) {
    const severity = (SEVERITIES[dv.getUint32((w += 4), true)] as "error" | "warning");
    const code = text.slice(t, (t += dv.getUint32((w += 4), true)));
    const path = text.slice(t, (t += dv.getUint32((w += 4), true)));
    const message = text.slice(t, (t += dv.getUint32((w += 4), true)));
    issues.push({ severity, code, path, message });
  }
  return {
    valid: (head & 1) === 1,
    version: (VERSIONS[(head >> 1) & 3] as ValidationReport["version"]),
    versionSource: (SOURCES[(head >> 3) & 3] as ValidationReport["versionSource"]),
    kind,
    rpc: (RPCS[(head >> 5) & 7] as ValidationReport["rpc"]),
    method,
    issues,
  };
}

/** An issue template of `__validateTemplate`, by its number. */
type Template = { code: string; severity: "error" | "warning"; path: string; prefix: string; suffix: string };
/**
 * The templates asked for so far, by [`slot`] of their number: a dense array (numbers go up to a
 * few thousand, and an array assigned so far apart turns into a dictionary, slower to read).
 */
const TEMPLATE_SLOTS = 32 * 128;
const templates: (Template | undefined)[] = new Array(TEMPLATE_SLOTS).fill(undefined);
/** The answer of a templated report (`TEMPLATED` in src/wasm/validate.rs). */
const TEMPLATED = 1 << 30;

/** Where template `n` (kind << 8 | member << 4 | type, the type < 8) is kept. */
function slot(n: number) {
  return (n >>> 8) * 128 + ((n >>> 4) & 15) * 8 + (n & 7);
}

/** Template `n`, asked of the core once; undefined for a number it does not know. */
function template(n: number): Template | undefined {
  const parts = __validateTemplate(n).split("\0");
  if (parts.length < 4) return undefined;
  const t: Template = { code: parts[0], severity: parts[1] === "warning" ? "warning" : "error", path: parts[2], prefix: parts[3], suffix: parts[4] ?? "" };
  if ((n & 8) === 0 && slot(n) < TEMPLATE_SLOTS) templates[slot(n)] = t;
  return t;
}

/**
 * The report the core wrote as numbers where the message was (the layout is described at
 * `write_templated` in src/wasm/validate.rs): the issues of a 2025-11-25 task's members, each a
 * template, the index of its task and the span of `message` its value is (an ASCII text: byte
 * offsets are string offsets); null if a template is unknown. Read as u32 words of wasm memory
 * (the buffer and the words are 4-aligned; wasm is little-endian, as the hosts that run it).
 */
function readTemplated(message: string, reply: unknown): ValidationReport | null {
  if (memoryBytes.length === 0) views();
  // (The allocator aligns the buffer; were it not, the export answers.)
  if ((address & 3) !== 0) return null;
  const words = memoryWords;
  let w = (address + REPLY_BYTES) >>> 2;
  const n = words[w];
  const head = words[w + 1];
  const list = (head & 1) === 1;
  const issues: ValidationReport["issues"] = [];
  let valid = true;
  for (let i = 0; i < n; i++) {
    w += 2;
    const number = words[w];
    const t = ((number & 8) === 0 ? templates[slot(number)] : undefined) ?? template(number);
    if (t === undefined) return null;
    const a = words[w + 2];
    const b = words[w + 3];
    const path = list ? "/result/tasks/" + words[w + 1] + t.path : "/result" + t.path;
    if (t.severity === "error") valid = false;
    issues.push({ severity: t.severity, code: t.code, path, message: a === b ? t.prefix + t.suffix : t.prefix + message.slice(a, b) + t.suffix });
    w += 2;
  }
  return {
    valid,
    version: "2025-11-25",
    versionSource: (head & 2) !== 0 ? "shape" : "option",
    kind: list ? "ListTasksResult" : "GetTaskResult",
    rpc: "result",
    method: typeof reply === "string" ? reply : null,
    issues,
  };
}

function isU32(n: unknown) {
  return typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= 0xffffffff;
}

/**
 * Validates one MCP message of protocol 2025-11-25 or 2026-07-28: a JS value or a JSON string.
 * Never throws on a bad message: the report says what is wrong. Throws a `TypeError` only when
 * `options` itself is malformed. Pass the text as received when you have it (the fastest path);
 * a "valid, no issues" report may be a shared frozen object.
 */
function validateMessage(message: unknown, options?: ValidateOptions | null): ValidationReport {
  if (typeof message !== "string") return validateObject(message, options);
  let version = 0;
  let maxBytes = -1;
  let maxIssues = -1;
  let reply: unknown;
  if (options !== undefined && options !== null) {
    if (typeof options !== "object" || Array.isArray(options) || options.headers !== undefined) return validateAny(message, options);
    const v = options.version;
    if (v === "2025-11-25") version = 1;
    else if (v === "2026-07-28") version = 2;
    else if (v !== undefined) return validateAny(message, options);
    reply = options.inReplyTo;
    if (reply !== undefined && (typeof reply !== "string" || reply.length * 3 > REPLY_BYTES)) return validateAny(message, options);
    const mb = options.maxBytes;
    if (mb !== undefined) {
      if (!isU32(mb)) return validateAny(message, options);
      maxBytes = mb;
    }
    const mi = options.maxIssues;
    if (mi !== undefined) {
      if (!isU32(mi)) return validateAny(message, options);
      maxIssues = mi;
    }
  }
  const max = maxBytes < 0 ? DEFAULT_MAX_BYTES : maxBytes;
  const units = message.length;
  // Too large, or lone surrogates (which UTF-8 cannot carry): the export's own path.
  if (units > max || isWellFormed === undefined || !isWellFormed.call(message)) return validateAny(message, options);
  if (!room(REPLY_BYTES + Math.min(units * 3, max))) return validateAny(message, options);
  const done = encoder.encodeInto(message, messageView);
  if (done.read < units || done.written > max) return validateAny(message, options);
  let replyLength = NO_REPLY;
  if (typeof reply === "string") {
    // Encoded when it changed, copied into the buffer every call (a few bytes, a loop: cheaper
    // than `encodeInto` at this size): whatever is in the buffer may have been written since by an
    // answer, or by any other caller of the internal exports.
    if (reply !== replyText) {
      replyBytes = encoder.encode(reply);
      replyText = reply;
    }
    const bytes = replyBytes, view = replyView;
    replyLength = bytes.length;
    for (let i = 0; i < replyLength; i++) view[i] = bytes[i];
  }
  // No `\u` escape and no U+FDD0: no lone surrogate for the core to carry (V8 scans faster).
  const plain = message.indexOf("\\u") < 0 && message.indexOf("\ufdd0") < 0;
  // ASCII (the message and `inReplyTo`): the core may answer spans of the text as byte offsets.
  const ascii = done.written === units && (typeof reply !== "string" || replyLength === reply.length);
  const answer = __validateBytes(REPLY_BYTES, done.written, replyLength, version, maxBytes, maxIssues, (plain ? 1 : 0) | (ascii ? 2 : 0));
  if (answer === TEMPLATED) return readTemplated(message, reply) ?? validateAny(message, options);
  if (answer > 0) {
    const report = known[answer];
    if (report !== undefined) return report;
    return validateAny(message, options);
  }
  const report: ValidationReport = answer === 0 ? readCompact() : readJson(-answer);
  if (report.valid && report.issues.length === 0) {
    const n = __validateNewKnown();
    if (n > 0) {
      Object.freeze(report.issues);
      known[n] = Object.freeze(report);
    }
  }
  return report;
}

// ---- parsed objects -----------------------------------------------------------------------------
//
// A parsed object would cross as JSON.stringify text. The commonest valid answers (a 2025-11-25
// `tasks/get` task or `tasks/list` list, the shapes of the core's typed fast path) are recognised
// here without serialising: a plain object with exactly the known members of the right JSON
// types, checked as the core checks them (status, RFC 3339 timestamps in order, milliseconds),
// gives the report the core would give; anything else goes to the byte path as its JSON text, or,
// at any doubt, to the export itself. tests/js/validate-paths.test.mjs holds all to the same
// reports.

const TASK_KEYS = new Set(["taskId", "status", "statusMessage", "createdAt", "lastUpdatedAt", "ttl", "pollInterval"]);
const STATUSES = new Set(["working", "input_required", "completed", "failed", "cancelled"]);

/** "Valid, no issues" reports of the object path, by version source, kind and method. */
const objectReports: Map<string, ValidationReport> = new Map();

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype && !("toJSON" in v);
}

function daysInMonth(y: number, m: number) {
  return m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [31, 0, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

/** The decimal number of `s` from `at` for `n` digits, or -1. */
function digits(s: string, at: number, n: number) {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/**
 * A timestamp as seconds since 1970 and nanoseconds (`out[0]`, `out[1]`), or false when outside
 * the strict subset of RFC 3339 the core surely accepts: `YYYY-MM-DDTHH:MM:SS`, an optional
 * fraction of 1–9 digits, then `Z` or `±HH:MM` (upper-case T and Z).
 */
function instant(s: unknown, out: number[]) {
  if (typeof s !== "string" || s.length < 20 || s.length > 35) return false;
  const y = digits(s, 0, 4), mo = digits(s, 5, 2), d = digits(s, 8, 2), h = digits(s, 11, 2), mi = digits(s, 14, 2), se = digits(s, 17, 2);
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return false;
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59) return false;
  let i = 19;
  let nanos = 0;
  if (s.charCodeAt(i) === 46) {
    let n = 0;
    for (i++; n < 10; i++, n++) {
      const c = s.charCodeAt(i) - 48;
      if (!(c >= 0 && c <= 9)) break;
      nanos = nanos * 10 + c;
    }
    if (n < 1 || n > 9) return false;
    for (; n < 9; n++) nanos *= 10;
  }
  let offset = 0;
  const z = s.charCodeAt(i);
  if (z === 90) {
    if (s.length !== i + 1) return false;
  } else if (z === 43 || z === 45) {
    const oh = digits(s, i + 1, 2), om = digits(s, i + 4, 2);
    if (s.length !== i + 6 || s.charCodeAt(i + 3) !== 58 || oh < 0 || oh > 23 || om < 0 || om > 59) return false;
    offset = (z === 45 ? -1 : 1) * (oh * 3600 + om * 60);
  } else return false;
  // Days since 1970-01-01 of the proleptic Gregorian date (H. Hinnant's days_from_civil).
  const yy = mo <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  out[0] = (era * 146097 + doe - 719468) * 86400 + h * 3600 + mi * 60 + se - offset;
  out[1] = nanos;
  return true;
}

const created = [0, 0];
const updated = [0, 0];

/** A 2025-11-25 millisecond member the core accepts: a non-negative integer. */
function isMs(v: unknown) {
  return typeof v === "number" && Number.isInteger(v) && v >= 0;
}

/**
 * Bytes of JSON text a value of these members takes at most (a string unit is at most 6 bytes,
 * `\uXXXX`; a number at most 24).
 */
function strBytes(s: string) {
  return s.length * 6 + 3;
}

/**
 * Whether `t` is a 2025-11-25 task the core finds nothing wrong with; answers the most bytes its
 * JSON takes, or -1.
 */
function task25(t: unknown) {
  if (!isPlainObject(t)) return -1;
  let bytes = 2;
  let n = 0;
  for (const k in t) {
    if (!TASK_KEYS.has(k)) return -1;
    n++;
  }
  const { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttl, pollInterval } = t;
  if (typeof taskId !== "string" || typeof status !== "string" || !STATUSES.has(status)) return -1;
  bytes += strBytes(taskId) + 30;
  let required = 5;
  if (statusMessage !== undefined || "statusMessage" in t) {
    if (typeof statusMessage !== "string") return -1;
    bytes += strBytes(statusMessage) + 20;
    required++;
  }
  if (pollInterval !== undefined || "pollInterval" in t) {
    if (!isMs(pollInterval)) return -1;
    bytes += 40;
    required++;
  }
  if (!(ttl === null || isMs(ttl)) || n !== required) return -1;
  if (!instant(createdAt, created) || !instant(lastUpdatedAt, updated)) return -1;
  if (updated[0] < created[0] || (updated[0] === created[0] && updated[1] < created[1])) return -1;
  return bytes + 300;
}

/**
 * The report of a valid `tasks/get` or `tasks/list` answer given as an object, or null (ask the
 * core).
 */
function knownObject(message: unknown, options: unknown): ValidationReport | null {
  let source: "shape" | "option" = "shape";
  let reply: unknown;
  if (options !== undefined && options !== null) {
    if (!isPlainObject(options)) return null;
    for (const k in options) if (k !== "version" && k !== "inReplyTo" && k !== "maxIssues") return null;
    if (options.version !== undefined) {
      if (options.version !== "2025-11-25") return null;
      source = "option";
    }
    if (options.maxIssues !== undefined && !isU32(options.maxIssues)) return null;
    reply = options.inReplyTo;
    if (reply !== undefined && reply !== "tasks/get" && reply !== "tasks/list") return null;
  }
  if (!isPlainObject(message)) return null;
  let n = 0;
  for (const k in message) {
    if (k !== "jsonrpc" && k !== "id" && k !== "result") return null;
    n++;
  }
  const { jsonrpc, id, result } = message;
  if (n !== 3 || jsonrpc !== "2.0" || !(typeof id === "string" || Number.isInteger(id)) || !isPlainObject(result)) return null;
  const idBytes = typeof id === "string" ? strBytes(id) : 24;
  let kind;
  if (reply === "tasks/get" || (reply === undefined && "taskId" in result)) {
    const bytes = task25(result);
    if (bytes < 0 || bytes + idBytes + 40 > DEFAULT_MAX_BYTES) return null;
    kind = "GetTaskResult";
  } else {
    let m = 0;
    for (const k in result) {
      if (k !== "tasks" && k !== "nextCursor") return null;
      m++;
    }
    const { tasks, nextCursor } = result;
    if (!Array.isArray(tasks) || Object.getPrototypeOf(tasks) !== Array.prototype || "toJSON" in tasks) return null;
    let bytes = idBytes + 60;
    if (nextCursor !== undefined || "nextCursor" in result) {
      if (typeof nextCursor !== "string") return null;
      bytes += strBytes(nextCursor) + 16;
      m--;
    }
    if (m !== 1) return null;
    for (let i = 0; i < tasks.length; i++) {
      const b = task25(tasks[i]);
      if (b < 0) return null;
      bytes += b;
      if (bytes > DEFAULT_MAX_BYTES) return null;
    }
    kind = "ListTasksResult";
  }
  const method = typeof reply === "string" ? reply : null;
  const key = `${source} ${kind} ${method}`;
  let report = objectReports.get(key);
  if (report === undefined) {
    const fresh: ValidationReport = { valid: true, version: "2025-11-25", versionSource: source, kind, rpc: "result", method, issues: [] };
    Object.freeze(fresh.issues);
    report = Object.freeze(fresh);
    objectReports.set(key, report);
  }
  return report;
}

/**
 * Whether `JSON.stringify` of `v` keeps every value it writes as `null` a real `null` (the
 * export reports a `NaN`, `±Infinity`, or an `undefined`, function or symbol array element, which
 * JSON would send as `null`): plain objects and arrays only, no `toJSON`, at most 64 levels
 * deep; anything else answers false (the export's walk decides).
 */
function nullsAreNull(v: unknown, depth: number): boolean {
  if (typeof v === "number") return Number.isFinite(v);
  if (typeof v !== "object" || v === null) return true;
  if (depth > 64 || "toJSON" in v) return false;
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return false;
    for (let i = 0; i < v.length; i++) {
      const e = v[i];
      if (e === undefined || typeof e === "function" || typeof e === "symbol" || !nullsAreNull(e, depth + 1)) return false;
    }
    return true;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const k of Object.keys(v)) if (!nullsAreNull((v as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}

/**
 * `validateMessage` of a value that is not a string: a recognised valid answer without
 * serialising; else its `JSON.stringify` text through the byte path (the export takes the same
 * text: the reports are the same), unless the text may hold a `null` that was not one (then, and
 * for what `JSON.stringify` refuses, the export itself).
 */
function validateObject(message: unknown, options: ValidateOptions | null | undefined): ValidationReport {
  const known = knownObject(message, options);
  if (known !== null) return known;
  const text = jsonText(message);
  return text === undefined ? validateAny(message, options) : validateMessage(text, options);
}

/**
 * The JSON text the exports would read of a value that is not a string, when it is all the value
 * is: undefined when `JSON.stringify` refuses it (a cycle, a BigInt, a throwing getter or
 * `toJSON`: the export says which), has no text for it, or may have written a `null` for what was
 * not one (the export reports where).
 */
function jsonText(message: unknown): string | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(message);
  } catch {
    return undefined;
  }
  if (typeof text !== "string" || (text.includes("null") && !nullsAreNull(message, 0))) return undefined;
  return text;
}

// ---- Conversation.observe over the same bytes ---------------------------------------------------
//
// A string message crosses as validateMessage's does (one encodeInto into the buffer, one call,
// `from` as a number) and its report comes back as JSON text in the buffer; so does an object's
// JSON text, when that is all the object is (`jsonText`). Other objects, odd options,
// lone surrogates, very long texts and texts over the conversation's `maxBytes` take the method
// wasm-bindgen generated, which gives the same reports and throws the same TypeErrors.

const observeAny = Conversation.prototype.observe;
/** Longer strings (in UTF-16 units) take the generated method: no buffer of 3 bytes a unit. */
const OBSERVE_MAX_UNITS = 4 * 1024 * 1024;
const INTERNAL = -2147483648;

/**
 * Observes the next message (a JS value or a JSON string). Never throws on a bad message: the
 * report says what is wrong, and the message still counts. `options.from` (`"client"` or
 * `"server"`) names the sender; throws a `TypeError` on a malformed option.
 */
function observe(this: Conversation, message: unknown, options?: ObserveOptions | null): ObserveReport {
  // An object crosses as its JSON text when that is all it is (the method reads the same text).
  const text = typeof message === "string" ? message : jsonText(message);
  if (text === undefined) return observeAny.call(this, message, options);
  let from = 0;
  if (options !== undefined && options !== null) {
    if (typeof options !== "object" || Array.isArray(options)) return observeAny.call(this, message, options);
    const f = options.from;
    if (f === "client") from = 1;
    else if (f === "server") from = 2;
    else if (f !== undefined) return observeAny.call(this, message, options);
  }
  const units = text.length;
  if (units > OBSERVE_MAX_UNITS || isWellFormed === undefined || !isWellFormed.call(text)) return observeAny.call(this, message, options);
  if (!room(REPLY_BYTES + units * 3)) return observeAny.call(this, message, options);
  const done = encoder.encodeInto(text, messageView);
  if (done.read < units) return observeAny.call(this, message, options);
  const answer = this.__observeBytes(REPLY_BYTES, done.written, from);
  if (answer === 0) return observeAny.call(this, message, options);
  if (answer === INTERNAL) throw new Error("internal: cannot convert the result");
  return readJson(-answer);
}

Conversation.prototype.observe = observe;

export { validateMessage };
