#!/usr/bin/env node
// An MCP server that hosts tasks with mcp-tasks-wasm, over Streamable HTTP on plain node:http.
//
//   bash scripts/build.sh                                  # builds pkg/ (the package)
//   node examples/conformance-server.mjs --port 3000       # serves http://127.0.0.1:3000/mcp
//
// Replicas (tasks in a storage every replica shares, see "Scale out" in docs/guides/storage-and-replicas.md):
//   --storage memory            (default) the tasks in this process's memory
//   --storage sqlite:PATH       a SQLite file (one machine; needs better-sqlite3 on Node < 22.5)
//   --storage postgres://…      Postgres (needs the `pg` package)
//   --storage redis://…         Redis (needs the `ioredis` package)
//   --storage shared-memory     the replicas' server over the in-memory TaskStorage (one process:
//                               what the shared machinery costs without a database; benchmarks)
//   --cursor-key HEX            32 hex digits, the same on every replica (tasks/list cursors);
//                               default $MCP_TASKS_CURSOR_KEY, else a random key (this replica only)
//   --lease-ms N                how long the lease on a running task's work lasts (default 30000);
//                               a replica that dies leaves its tasks `failed` once it runs out
//   --lease-grace-ms N          how much longer another replica waits (default 30000): the
//                               longest storage outage that fails no running task
//   --housekeeping-ms N         how often (at most) expired tasks are purged and lost leases
//                               failed, on requests (default 60000)
//   --replica-id NAME           this replica's name in its leases (default random)
//   --session-ttl-ms N          a 2025-11-25 session idle this long is ended (default 1800000)
//   --max-sessions N            at most N live 2025-11-25 sessions (default 10000)
//   --max-sessions-per-requestor N   at most N per client address (default 1000)
//   --max-live-tasks-per-requestor N  at most N live tasks of one caller without a session
//                               (2026-07-28; default 1000)
//   --routing-headers allow-missing   serve a 2026-07-28 request that leaves out Mcp-Method or
//                               Mcp-Name (some clients do) instead of -32020 (default strict, §D 97;
//                               docs/decisions/routing-headers.md)
// The storage client library is the package's optional peer: `npm i pg` / `npm i ioredis`, next
// to the package or in the current directory.
//
// One endpoint, both protocol eras, through the package's McpHttpServer:
//   2025-11-25: `initialize`, `Mcp-Session-Id`, tools with `execution.taskSupport`, task-augmented
//     `tools/call`, `tasks/get|result|list|cancel`, elicitation requests sent to the client on
//     the `tasks/result` stream while a task waits, `notifications/tasks/status`, DELETE.
//   2026-07-28: stateless requests with per-request `_meta`, `server/discover`, the tasks
//     extension `io.modelcontextprotocol/tasks`, MRTR before a task.
// It registers the fixture tools the official conformance suite (@modelcontextprotocol/conformance)
// expects; see scripts/conformance.sh. `--port 0` picks a free port; the first line printed
// names the URL.
//
// What is where: every task rule (when a `tools/call` becomes a task, -32021 for clients that
// did not declare the extension, `tasks/*`, input requests, cancellation, TTLs) lives in the
// package, behind `TaskHost`; sessions, SSE, the routing headers (-32020) and version
// negotiation are `McpHttpServer`. This file holds only the tools and the process plumbing.

import http from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";

// Users of the published package write:
//   import { McpHttpServer } from "mcp-tasks-wasm/server";
import { McpHttpServer, SharedTaskServer, TaskHost } from "../pkg/server/node.mjs";

// The tools (the same as examples/stdio-server.mjs serves): examples/tools.mjs.
import { TOOLS } from "./tools.mjs";

// ---- main --------------------------------------------------------------------------------------

const USAGE =
  "usage: node examples/conformance-server.mjs [--port PORT] [--storage memory|shared-memory|sqlite:PATH|postgres://…|redis://…]\n" +
  "         [--cursor-key HEX32] [--lease-ms N] [--lease-grace-ms N] [--housekeeping-ms N] [--replica-id NAME]\n" +
  "         [--session-ttl-ms N] [--max-sessions N] [--max-sessions-per-requestor N] [--max-live-tasks-per-requestor N]\n" +
  "         [--routing-headers strict|allow-missing]";

/** The value of `--name VALUE` or `--name=VALUE`, else `fallback`. */
function option(argv, name, fallback) {
  const i = argv.indexOf(`--${name}`);
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
}

function usage(what) {
  console.error(`${what}\n${USAGE}`);
  process.exit(2);
}

/** A non-negative integer option (or `undefined` when absent). */
function intOption(argv, name, min) {
  const value = option(argv, name, undefined);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) usage(`--${name}: must be an integer of at least ${min} (got ${JSON.stringify(value)})`);
  return n;
}

function portFromArgs(argv) {
  const value = option(argv, "port", "3000");
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`--port: must be 0-65535 (got ${JSON.stringify(value)})`);
  return port;
}

/**
 * A storage client library (`pg`, `ioredis`): as the package resolves it, else from the current
 * directory's node_modules.
 */
async function clientLibrary(name) {
  try {
    const mod = await import(name);
    return mod.default ?? mod;
  } catch {
    try {
      return createRequire(join(process.cwd(), "noop.js"))(name);
    } catch {
      usage(`this storage needs the \`${name}\` package: npm i ${name}`);
    }
  }
}

/** The TaskStorage `--storage` names, or `null` for the in-memory default. */
async function openStorage(spec) {
  if (spec === "memory") return null;
  if (spec === "shared-memory") {
    const { MemoryStorage } = await import("../pkg/storage/index.js");
    return new MemoryStorage();
  }
  if (spec.startsWith("sqlite:")) {
    const { openSqliteStorage } = await import("../pkg/storage/sqlite.js");
    return openSqliteStorage({ path: spec.slice("sqlite:".length) });
  }
  if (spec.startsWith("postgres://") || spec.startsWith("postgresql://")) {
    const { openPostgresStorage } = await import("../pkg/storage/postgres.js");
    return openPostgresStorage({ connectionString: spec, pg: await clientLibrary("pg") });
  }
  if (spec.startsWith("redis://") || spec.startsWith("rediss://")) {
    const { openRedisStorage } = await import("../pkg/storage/redis.js");
    return openRedisStorage({ url: spec, ioredis: await clientLibrary("ioredis") });
  }
  return usage(`--storage: must be memory, shared-memory, sqlite:PATH, postgres://… or redis://… (got ${JSON.stringify(spec)})`);
}

const argv = process.argv.slice(2);
const port = portFromArgs(argv);
const housekeepingMs = intOption(argv, "housekeeping-ms", 1);
const sessionTtlMs = intOption(argv, "session-ttl-ms", 1);
const maxSessions = intOption(argv, "max-sessions", 0);
const maxSessionsPerRequestor = intOption(argv, "max-sessions-per-requestor", 0);
const maxLiveTasksPerRequestor = intOption(argv, "max-live-tasks-per-requestor", 0);
const routingHeaders = option(argv, "routing-headers", undefined);
if (routingHeaders !== undefined && routingHeaders !== "strict" && routingHeaders !== "allow-missing") {
  usage(`--routing-headers: must be strict or allow-missing (got ${JSON.stringify(routingHeaders)})`);
}
/** Options of the TaskHost (here or inside McpHttpServer). */
const hostOptions = maxLiveTasksPerRequestor !== undefined ? { maxLiveTasksPerRequestor } : {};
const storage = await openStorage(option(argv, "storage", "memory")).catch((e) => usage(`--storage: ${e.message}`));
/** The shared store of the replicas (`null`: the in-memory default). */
let shared = null;
/** Its `cursorKey` (the example's requestState key is derived from it). */
let sharedKey = null;
if (storage !== null) {
  let cursorKey = option(argv, "cursor-key", process.env.MCP_TASKS_CURSOR_KEY);
  if (cursorKey === undefined) {
    cursorKey = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    console.error("warning: no --cursor-key (or MCP_TASKS_CURSOR_KEY): tasks/list cursors work on this replica only");
  }
  if (!/^[0-9a-f]{32}$/.test(cursorKey)) usage("--cursor-key: must be 32 lowercase hex digits");
  shared = await SharedTaskServer.open(storage, {
    cursorKey,
    leaseMs: intOption(argv, "lease-ms", 3),
    leaseGraceMs: intOption(argv, "lease-grace-ms", 0),
    replicaId: option(argv, "replica-id", undefined),
  });
  sharedKey = cursorKey;
}

/**
 * The MRTR `requestState` signing key of the replicas: derived from the cursor key (one secret
 * for both), so that a 2026-07-28 call answered with an InputRequiredResult by one replica may be
 * retried on another.
 */
async function requestStateKey(cursorKey) {
  const bytes = new TextEncoder().encode(`mcp-tasks-wasm example: requestState key from ${cursorKey}`);
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

const app = new McpHttpServer({
  name: "mcp-tasks-wasm-conformance-server",
  version: "0.1.0",
  path: "/mcp",
  ...(shared
    ? { host: new TaskHost({ ...hostOptions, server: shared, requestState: { key: await requestStateKey(sharedKey) } }) }
    : { hostOptions }),
  ...(housekeepingMs !== undefined ? { housekeepingMs } : {}),
  ...(sessionTtlMs !== undefined ? { sessionTtlMs } : {}),
  ...(maxSessions !== undefined ? { maxSessions } : {}),
  ...(maxSessionsPerRequestor !== undefined ? { maxSessionsPerRequestor } : {}),
  ...(routingHeaders !== undefined ? { routingHeaders } : {}),
});
for (const { name, handler, ...options } of TOOLS) app.tool(name, options, handler);

const server = http.createServer(app.node);

server.listen(port, "127.0.0.1", () => {
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  console.log(`MCP tasks server listening on http://127.0.0.1:${port}/mcp`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, async () => {
    // A bounded graceful shutdown: what has not closed after 10 s is abandoned (the process exits
    // all the same, saying so), as a supervisor would do with SIGKILL.
    const grace = setTimeout(() => {
      console.error(`shutdown: still closing after 10 s (${shared ? "storage" : "server"}); exiting`);
      process.exit(1);
    }, 10_000);
    server.close();
    await app.close(); // ends the open streams, aborts the running tasks' work
    await shared?.close(); // the tasks stay in the storage
    server.closeAllConnections();
    clearTimeout(grace);
    process.exit(0);
  });
}
