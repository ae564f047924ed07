// Conversation.observe over validateMessage's byte boundary (js/core/validate.ts): installed on
// the glue's Conversation when this module is imported, by every entry file that exports
// Conversation (and, in browsers, by conversation.js, which loads the module that has it). Its own
// file because the browser entry's module has no Conversation (docs/decisions/browser-module.md):
// validate.ts is compiled against that module too.
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).
import { Conversation } from "./mcp_tasks_wasm.js";
import { bytePath } from "./validate.js";

type ObserveOptions = import("./mcp_tasks_wasm.js").ObserveOptions;
type ObserveReport = import("./mcp_tasks_wasm.js").ObserveReport;

const { REPLY_BYTES, isWellFormed, jsonText, room, readJson, encode } = bytePath;

// ---- Conversation.observe over the same bytes ---------------------------------------------------
//
// A string message crosses as validateMessage's does (one encodeInto into the buffer, one call,
// `from` as a number) and its report comes back as JSON text in the buffer; so does a value's
// JSON text, when that is all the value is (`jsonText`). Other values, odd options, lone
// surrogates, very long texts and texts over the conversation's `maxBytes` take the method
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
  // A value crosses as its JSON text when that is all it is (the method reads the same text).
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
  const done = encode(text);
  if (done.read < units) return observeAny.call(this, message, options);
  const answer = this.__observeBytes(REPLY_BYTES, done.written, from);
  if (answer === 0) return observeAny.call(this, message, options);
  if (answer === INTERNAL) throw new Error("internal: cannot convert the result");
  return readJson(-answer);
}

Conversation.prototype.observe = observe;
