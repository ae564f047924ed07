// The protocol's names and numbers, declared once for every helper (client and server): the
// versions, the `_meta` keys, the JSON-RPC error codes. The Rust core owns the same values
// (src/model/common.rs, src/validate/rules.rs); these are the JS side's one copy of them.
// Internal: no entry re-exports this module.

export const V25 = "2025-11-25";
export const V26 = "2026-07-28";

/** The extension a 2026-07-28 peer declares for tasks (`capabilities.extensions`, §D 2). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
/** `_meta` keys of 2026-07-28 requests and answers. */
export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
export const META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
/** The `_meta` key naming the task a message is about (2025-11-25). */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** A server-side bound was reached (too many sessions, streams): `data` names it. */
export const SERVER_BUSY = -32000;
/** The `Mcp-Session-Id` names no session (2025-11-25 over HTTP). */
export const SESSION_NOT_FOUND = -32001;
/** The store's code for a live-task cap (StoreError::SessionCapReached, src/store/error.rs). */
export const TASK_LIMIT = -32010;
export const HEADER_MISMATCH = -32020;
export const MISSING_CAPABILITY = -32021;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** The versions a client offers and accepts in `initialize` (2025-11-25 and older), newest first. */
export const INITIALIZE_VERSIONS = [V25, "2025-06-18", "2025-03-26", "2024-11-05"];
