// validateMessage over a byte boundary: JSON text goes into wasm memory by one
// TextEncoder.encodeInto into a reused buffer and is validated in one call that takes the options
// as numbers; the answer is the report as JSON text in the same buffer, decoded and parsed once
// (the one encoding of a report, as the wasm-bindgen export's). A parsed value crosses as its
// `JSON.stringify` text when that text is all the value is. Anything this path does not carry
// (`headers`, options it would have to refuse, a value `JSON.stringify` refuses or may have
// written a `null` for what was not one, a string with lone surrogates or over `maxBytes`) goes
// to the export, which gives the same reports and throws the same TypeErrors. The rules are the
// core's (src/validate): this file converts and routes, and never makes a report.
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).
import { validateMessage as validateAny, __validateBuffer, __validateBytes, __validateMemory, __validateBufferAt } from "./mcp_tasks_wasm.js";

export type ValidationReport = import("./mcp_tasks_wasm.js").ValidationReport;
export type ValidateOptions = import("./mcp_tasks_wasm.js").ValidateOptions;

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
/** A view of the whole wasm memory as u32 words (remade when memory grows). */
let memoryWords = new Uint32Array(0);
/** Where (in u32 units) the core notes the buffer's address (`__validateBufferAt`). */
let bufferAt = 0;
/** The last `inReplyTo` and its UTF-8 bytes (at most `REPLY_BYTES`: longer ones take the export). */
let replyText: string | undefined;
let replyBytes = new Uint8Array(0);

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
  // Memory grew (its old views are detached: length 0), or the buffer moved (a longer answer
  // than the buffer, or a direct call of __validateBuffer): both are read without a call, at the
  // address where the core notes it.
  if (memoryWords.length === 0) views();
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

function isU32(n: unknown) {
  return typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= 0xffffffff;
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
 * The JSON text the export would read of a value that is not a string, when it is all the value
 * is: undefined when `JSON.stringify` refuses it (a cycle, a BigInt, a throwing getter or
 * `toJSON`: the export says which), has no text for it, or may have written a `null` for what was
 * not one (the export reports where). A route, never a report: the reports are the core's.
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

/**
 * Validates one MCP message of protocol 2025-11-25 or 2026-07-28: a JS value or a JSON string.
 * Never throws on a bad message: the report says what is wrong. Throws a `TypeError` only when
 * `options` itself is malformed. Pass the text as received when you have it (no
 * `JSON.stringify`).
 */
function validateMessage(message: unknown, options?: ValidateOptions | null): ValidationReport {
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
  // A value crosses as its JSON text (JSON.stringify escapes lone surrogates: well-formed).
  const text = typeof message === "string" ? message : jsonText(message);
  if (text === undefined) return validateAny(message, options);
  const max = maxBytes < 0 ? DEFAULT_MAX_BYTES : maxBytes;
  const units = text.length;
  // Too large, or lone surrogates (which UTF-8 cannot carry): the export's own path.
  if (units > max || isWellFormed === undefined || !isWellFormed.call(text)) return validateAny(message, options);
  if (!room(REPLY_BYTES + Math.min(units * 3, max))) return validateAny(message, options);
  const done = encoder.encodeInto(text, messageView);
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
  const answer = __validateBytes(REPLY_BYTES, done.written, replyLength, version, maxBytes, maxIssues);
  return answer < 0 ? readJson(-answer) : validateAny(message, options);
}

/**
 * What js/core/observe.ts (`Conversation.observe` over the same buffer) uses of this byte path.
 * @internal
 */
export const bytePath = {
  REPLY_BYTES,
  isWellFormed,
  jsonText,
  room,
  readJson,
  /** Encodes `text` into the message area of the buffer (after `room`). */
  encode: (text: string) => encoder.encodeInto(text, messageView),
};

export { validateMessage };
