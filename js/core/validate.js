// validateMessage over a byte boundary: JSON text goes into wasm memory by one
// TextEncoder.encodeInto into a reused buffer and is validated in one call that takes the options
// as numbers. The answer is one integer: a "valid, no issues" report seen before comes back as a
// shared frozen object (no report is built or parsed), any other report as JSON text in the same
// buffer, parsed once here. Anything this path does not handle itself (an object, `headers`,
// options it would have to refuse, a string with lone surrogates or over `maxBytes`) goes to the
// wasm-bindgen export, which gives the same reports and throws the same TypeErrors.
// Written in the subset scripts/esm-to-cjs.mjs converts.
import { validateMessage as validateAny, __validateBuffer, __validateBytes, __validateMemory, __validateNewKnown } from "./mcp_tasks_wasm.js";

/** @typedef {import("./mcp_tasks_wasm.js").ValidationReport} ValidationReport */
/** @typedef {import("./mcp_tasks_wasm.js").ValidateOptions} ValidateOptions */

/** Bytes kept for `inReplyTo` at the start of the buffer; the message follows. */
const REPLY_BYTES = 1024;
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
const NO_REPLY = 0xffffffff;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** `String.prototype.isWellFormed` (ES2024; older runtimes lack it). */
const isWellFormed = /** @type {{ isWellFormed?: (this: string) => boolean }} */ (/** @type {unknown} */ (String.prototype)).isWellFormed;

/** @type {WebAssembly.Memory | null} */
let memory = null;
/** The buffer's address and size in wasm memory. */
let address = 0;
let size = 0;
/** Views of the buffer: the `inReplyTo` area and the message area (remade when memory grows). */
let replyView = new Uint8Array(0);
let messageView = new Uint8Array(0);
/** The `inReplyTo` now in the buffer, and its length in bytes. */
/** @type {string | undefined} */
let lastReply;
let lastReplyLength = 0;
/** "Valid, no issues" reports by the number the core gave them. @type {ValidationReport[]} */
const known = [];

/** @param {number} want */
function grow(want) {
  size = Math.max(want, size * 2, 64 * 1024);
  address = __validateBuffer(size);
  lastReply = undefined;
  views();
}

function views() {
  const buffer = /** @type {WebAssembly.Memory} */ (memory).buffer;
  replyView = new Uint8Array(buffer, address, REPLY_BYTES);
  messageView = new Uint8Array(buffer, address + REPLY_BYTES, size - REPLY_BYTES);
}

/** @param {unknown} n */
function isU32(n) {
  return typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= 0xffffffff;
}

/**
 * Validates one MCP message of protocol 2025-11-25 or 2026-07-28: a JS value or a JSON string.
 * Never throws on a bad message: the report says what is wrong. Throws a `TypeError` only when
 * `options` itself is malformed. Pass the text as received when you have it (the fastest path);
 * a "valid, no issues" report may be a shared frozen object.
 *
 * @param {unknown} message
 * @param {ValidateOptions | null} [options]
 * @returns {ValidationReport}
 */
function validateMessage(message, options) {
  if (typeof message !== "string") return validateAny(message, options);
  let version = 0;
  let maxBytes = -1;
  let maxIssues = -1;
  /** @type {unknown} */
  let reply;
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
  if (memory === null) {
    memory = /** @type {WebAssembly.Memory} */ (__validateMemory());
    grow(0);
  }
  const need = REPLY_BYTES + Math.min(units * 3, max);
  if (need > size) grow(need);
  else if (messageView.buffer !== /** @type {WebAssembly.Memory} */ (memory).buffer) views();
  const done = encoder.encodeInto(message, messageView);
  if (done.read < units || done.written > max) return validateAny(message, options);
  let replyLength = NO_REPLY;
  if (typeof reply === "string") {
    if (reply !== lastReply) {
      lastReplyLength = encoder.encodeInto(reply, replyView).written;
      lastReply = reply;
    }
    replyLength = lastReplyLength;
  }
  // No `\u` escape and no U+FDD0: no lone surrogate for the core to carry (V8 scans faster).
  const plain = message.indexOf("\\u") < 0 && message.indexOf("\ufdd0") < 0;
  const answer = __validateBytes(REPLY_BYTES, done.written, replyLength, version, maxBytes, maxIssues, plain);
  if (answer > 0) {
    const report = known[answer];
    if (report !== undefined) return report;
    return validateAny(message, options);
  }
  // The report as JSON over the start of the buffer (which moved if the report was longer).
  const length = -answer;
  lastReply = undefined;
  if (length > size) grow(length);
  else if (messageView.buffer !== /** @type {WebAssembly.Memory} */ (memory).buffer) views();
  /** @type {ValidationReport} */
  const report = JSON.parse(decoder.decode(new Uint8Array(/** @type {WebAssembly.Memory} */ (memory).buffer, address, length)));
  if (report.valid && report.issues.length === 0) {
    const n = __validateNewKnown();
    if (n > 0) {
      Object.freeze(report.issues);
      known[n] = Object.freeze(report);
    }
  }
  return report;
}

export { validateMessage };
