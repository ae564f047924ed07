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
