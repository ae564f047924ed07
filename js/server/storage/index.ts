// mcp-tasks-wasm/storage: the asynchronous storage contract (types.js) and its zero-setup
// in-memory implementation. The database adapters are their own entries (Node only):
// mcp-tasks-wasm/storage/sqlite, mcp-tasks-wasm/storage/postgres, mcp-tasks-wasm/storage/redis.
//
// Written in the subset scripts/esm-to-cjs.mjs converts; no `node:` module.
import { StorageError } from "./types.js";
import { MemoryStorage } from "./memory.js";

/**
 * @typedef {import("./types.js").TaskStorage} TaskStorage
 * @typedef {import("./types.js").StoredTask} StoredTask
 * @typedef {import("./types.js").Scope} Scope
 * @typedef {import("./types.js").Change} Change
 * @typedef {import("./types.js").ChangeListener} ChangeListener
 * @typedef {import("./types.js").StorageErrorKind} StorageErrorKind
 */

export { StorageError, MemoryStorage };
