// JSON-RPC requests as the tests send them (not a test file itself: no `.test.` in the name).

const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";

/**
 * A 2026-07-28 request: its `_meta` names the version and the client's capabilities `caps`,
 * with the tasks extension declared unless `ext` is false.
 */
export function request26(id, method, params = {}, { ext = true, caps = {} } = {}) {
  return {
    jsonrpc: "2.0",
    id,
    method,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": V26,
        "io.modelcontextprotocol/clientCapabilities": ext ? { ...caps, extensions: { [EXT]: {} } } : caps,
      },
    },
  };
}

/** A 2025-11-25 request (without `params` when they are undefined). */
export function request25(id, method, params) {
  return { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) };
}
