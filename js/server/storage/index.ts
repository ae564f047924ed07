// mcp-tasks-wasm/storage: the asynchronous storage contract (types.ts) and its zero-setup
// in-memory implementation. The database adapters are their own entries (Node only):
// mcp-tasks-wasm/storage/sqlite, mcp-tasks-wasm/storage/postgres, mcp-tasks-wasm/storage/redis.
//
// TypeScript, compiled by scripts/build-ts.mjs (tsc; an ES module only); no `node:` module.
import { StorageError } from "./types.js";
import { MemoryStorage } from "./memory.js";

export type TaskStorage = import("./types.js").TaskStorage;

export type StoredTask = import("./types.js").StoredTask;

export type Scope = import("./types.js").Scope;

export type Change = import("./types.js").Change;

export type ChangeListener = import("./types.js").ChangeListener;

export type StorageErrorKind = import("./types.js").StorageErrorKind;

export { StorageError, MemoryStorage };
