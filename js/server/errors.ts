// TaskStoreError: what every store operation of TaskStore / TaskServer throws when the store
// refuses (unknown task, invalid cursor, already terminal, session cap, …). A malformed argument
// throws a TypeError instead. TypeScript, compiled by scripts/build-ts.mjs.

export type StoreErrorKind = import("./mcp_tasks_wasm.js").StoreErrorKind;

/**
 * A store error: `{ code, message, data? }` is the JSON-RPC error to answer the request with,
 * `kind` says which error it is (stable, for code to test). `error instanceof TaskStoreError`
 * and `error.name === "TaskStoreError"` both hold.
 *
 * Codes: -32602 (`not_found`, `invalid_cursor`, `already_terminal`, `too_large` with
 * `data: { maxRequestBytes }` or `{ maxSnapshotBytes }`), -32010 (`session_cap_reached`, with
 * `data: { limit }`), -32603 (host bugs, conflicts, invalid snapshots, no random source).
 */
class TaskStoreError extends Error {
  name: string;
  code: number;
  kind: StoreErrorKind;
  data: unknown;
  constructor(message: string, info: { code: number; kind: StoreErrorKind; data?: unknown; }) {
    super(message);
    this.name = "TaskStoreError";
    /** The JSON-RPC error code. */
    this.code = info.code;
    /** Which store error this is. */
    this.kind = info.kind;
    /** The JSON-RPC error's `data`, when it has one. */
    this.data = undefined;
    if (info.data === undefined) delete this.data;
    else this.data = info.data;
  }
}

/**
 * What a core call threw, as thrown to the caller: the core's store errors (plain `Error`s named
 * "TaskStoreError") become `TaskStoreError`s; anything else (a `TypeError`, …) is unchanged.
 */
function storeError(e: unknown): unknown {
  if (e instanceof Error && e.name === "TaskStoreError" && !(e instanceof TaskStoreError)) {
    const m = (e as Error & { code: number, kind: StoreErrorKind, data?: unknown });
    return new TaskStoreError(m.message, m);
  }
  return e;
}

export { TaskStoreError, storeError };

/**
 * When `e` refused `outcome` as too large to store (`too_large`: over `maxRequestBytes`), the
 * outcome to store instead: a JSON-RPC error (-32603) saying the result was too large, with its
 * size and the limit (`data: { resultBytes, maxRequestBytes }`), so the task fails at once
 * rather than staying `working` until its TTL. Otherwise `null`.
 */
function resultTooLarge(e: unknown, outcome: unknown): { error: { code: number; message: string; data: { resultBytes: number; maxRequestBytes: unknown; }; }; } | null {
  if (!(e instanceof TaskStoreError) || e.kind !== "too_large") return null;
  const o = (typeof outcome === "object" && outcome !== null ? outcome : {}) as { result?: unknown; error?: unknown };
  const what = o.result !== undefined ? "result" : "error";
  let bytes = -1;
  try {
    bytes = new TextEncoder().encode(JSON.stringify(o.result !== undefined ? o.result : o.error) ?? "").length;
  } catch {
    // not JSON (a cycle): the size stays unknown
  }
  const limit = (e.data as { maxRequestBytes?: unknown } | undefined)?.maxRequestBytes ?? null;
  const size = bytes >= 0 ? `${bytes} bytes of JSON` : "its size unknown";
  return {
    error: {
      code: -32603,
      message: `Internal error: the tool's ${what} is too large to store (${size}; the limit is ${limit === null ? "maxRequestBytes" : `${String(limit)} bytes, maxRequestBytes`})`,
      data: { resultBytes: bytes, maxRequestBytes: limit },
    },
  };
}

export { resultTooLarge };
