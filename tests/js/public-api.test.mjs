// The public API of the JS classes is a deliberate list. The published declarations of each entry
// (the packed package, as a user's TypeScript reads them) are read with the TypeScript checker:
// every class an entry exports has exactly the public members listed here (its own and those it
// inherits from our classes; `Error`'s are left out), so a new public member is a change of this
// file. Internal state is `#private` (`#private;` in the typings, nothing named) or, where a sibling
// module of ours or a test needs it, reached through the one `@internal` accessor
// `instance[Symbol.for("mcp-tasks-wasm.internals")]()`, absent from the typings. At run time, `in`
// and `Object.keys` on real instances show nothing but the listed members.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, ".tmp", "install", "node_modules", "mcp-tasks-wasm");
const ts = createRequire(join(here, "..", "..", "node_modules", "typescript", "package.json"))("typescript");

const main = await import("./.tmp/install/esm.mjs");
const server = await import("./.tmp/install/server.mjs");
const storage = await import(pathToFileURL(join(pkg, "storage", "index.js")).href);

// Instance members, then static members (besides `prototype`), by class.
const CLIENT = {
  TaskClient: [
    ["request", "protocolVersion", "connection", "receiver", "callTool", "startTool", "resume", "follow", "notify", "handleRequest", "events", "serialize", "pending", "pushed", "close"],
    ["connect", "over", "restore"],
  ],
  ToolTask: [["taskId", "done", "status", "result", "settle", "cancel", "onProgress", "progress"], []],
  TaskError: [["name", "taskId", "status"], []],
  TaskFailedError: [["name", "code", "data", "error", "statusMessage", "result", "taskId", "status"], []],
  TaskCancelledError: [["name", "delivered", "cause", "deliveryError", "taskId", "status"], []],
  TaskExpiredError: [["name", "taskId", "status"], []],
  ProtocolError: [["name", "issues", "taskId", "status", "statusMessage", "result"], []],
  TaskSchedulerError: [["kind"], []],
  HttpConnection: [
    ["url", "headers", "protocolVersion", "serverCapabilities", "serverInfo", "sessionId", "onnotification", "onrequest", "onerror", "closed", "maxMessageBytes", "idleTimeoutMs", "maxResumes", "connect", "request", "notify", "close", "openStream"],
    ["open"],
  ],
  HttpError: [["name", "status", "body", "retryAfterMs"], []],
  RpcError: [["name", "code", "data", "status", "retryAfterMs"], []],
  TransportError: [["name", "kind", "limit", "location"], []],
  VersionError: [["name", "requested", "supported"], []],
};
const STORE = ["create", "get", "list", "setStatus", "raiseInput", "takeInput", "complete", "fail", "failWithToolResult", "resultOf", "cancel", "remove", "sweep"];
const SERVER = {
  ...CLIENT,
  TaskStore: [["free", ...STORE, "snapshot", "takeChanges"], ["restore"]],
  TaskServer: [["handle", "settle", "beginToolCall", "planToolCall", "finishToolCall", "syncToolResponse", "getTask", "free", ...STORE, "snapshot", "takeChanges"], ["checkInputRequests", "restore"]],
  SharedTaskServer: [["watchChanges", "handle", "settle", "planToolCall", "syncToolResponse", "beginToolCall", "finishToolCall", "getTask", ...STORE, "close"], ["open", "checkInputRequests"]],
  TaskStoreError: [["name", "code", "kind", "data"], []],
  TaskHost: [["server", "now", "tool", "ownerOf", "watch", "handle", "sweep", "stopExpired", "idle", "close"], []],
  SdkTaskStore: [["store", "createTask", "getTask", "storeTaskResult", "getTaskResult", "updateTaskStatus", "listTasks", "sweep", "getAllTasks", "cleanup"], []],
  McpHttpServer: [["host", "fetch", "node", "tool", "sweep", "close"], []],
  McpStdioServer: [["host", "tool", "serve", "close"], []],
  McpServerTasks: [["host", "tool", "attach", "wrap"], []],
};
// The storage contract (TaskStorage), what every adapter has and nothing else.
const CONTRACT = ["name", "get", "getMany", "putEachIfVersion", "putIfVersion", "delete", "rangeAfter", "rangeLive", "expired", "countLive", "nextSequence", "nextSequenceWithLive", "lastSequence", "subscribe", "close"];
const STORAGE = { StorageError: [["name", "kind"], []], MemoryStorage: [CONTRACT, []] };
const ADAPTERS = { sqlite: "SqliteStorage", postgres: "PostgresStorage", redis: "RedisStorage" };
// Beyond the contract: SQLite's driver; the optional clause 14 (insertNew) on SQLite and Postgres.
const EXTRA = { sqlite: ["driver", "insertNew"], postgres: ["insertNew"], redis: [] };

/** The exported classes of each declaration file, by name: [instance members, static members]. */
function declaredClasses(files) {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts"],
    types: [],
  });
  const checker = program.getTypeChecker();
  const ours = (p) => (p.declarations ?? []).some((d) => !program.isSourceFileDefaultLibrary(d.getSourceFile()));
  const names = (type) => checker.getPropertiesOfType(type)
    .filter((p) => ours(p) && p.name !== "prototype" && !p.name.startsWith("#") && !p.name.startsWith("__#") && !p.name.startsWith("__@"))
    .map((p) => p.name)
    .sort();
  const out = new Map();
  for (const file of files) {
    const classes = {};
    for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)))) {
      const s = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (!(s.flags & ts.SymbolFlags.Class)) continue;
      // The wasm-bindgen glue's classes (generated: free, [Symbol.dispose], the bound methods; its
      // declaration files begin with the tslint marker it writes).
      if (s.declarations[0].getSourceFile().text.includes("/* tslint:disable */")) continue;
      classes[exported.name] = [names(checker.getDeclaredTypeOfSymbol(s)), names(checker.getTypeOfSymbolAtLocation(s, s.declarations[0]))];
    }
    out.set(file, classes);
  }
  return out;
}

const sorted = (table) => Object.fromEntries(Object.entries(table).map(([k, [i, s]]) => [k, [[...i].sort(), [...s].sort()]]).sort(([a], [b]) => a.localeCompare(b)));

test("the published typings: each exported class has exactly its listed public members, no internal one", () => {
  const entries = {
    "node.d.mts": CLIENT,
    "main.d.cts": CLIENT,
    "browser.d.ts": CLIENT,
    "server/node.d.mts": SERVER,
    "server/main.d.cts": SERVER,
    "server/browser.d.ts": SERVER,
    "storage/index.d.ts": STORAGE,
    ...Object.fromEntries(Object.entries(ADAPTERS).map(([f, c]) => [`storage/${f}.d.ts`, { [c]: [[...CONTRACT, ...EXTRA[f]], []], StorageError: STORAGE.StorageError }])),
  };
  const files = Object.keys(entries).map((f) => join(pkg, f));
  const found = declaredClasses(files);
  for (const [f, expected] of Object.entries(entries)) {
    assert.deepEqual(sorted(found.get(join(pkg, f))), sorted(expected), `${f}: the public members changed (update this list if that is deliberate)`);
  }
});

test("the published typings name no internal member and no accessor key", async () => {
  const { readFileSync, readdirSync } = await import("node:fs");
  const dts = (dir) => readdirSync(dir).filter((f) => /\.d\.c?ts$|\.d\.mts$/.test(f)).map((f) => join(dir, f));
  for (const file of [...dts(pkg), ...dts(join(pkg, "server")), ...dts(join(pkg, "storage"))]) {
    const text = readFileSync(file, "utf8");
    assert.doesNotMatch(text, /INTERNALS|mcp-tasks-wasm\.internals|@internal/, file);
  }
});

/** Every name `in` finds on `value` (own and inherited, to Object.prototype/Error.prototype). */
function reachable(value) {
  const names = new Set();
  for (let o = value; o !== null && o !== Object.prototype && o !== Error.prototype; o = Object.getPrototypeOf(o)) {
    for (const k of Object.getOwnPropertyNames(o)) if (k !== "constructor") names.add(k);
  }
  return names;
}

function assertOnlyPublic(instance, [members], label) {
  const allowed = new Set([...members, "message", "stack", "cause"]);
  const extra = [...reachable(instance)].filter((k) => !allowed.has(k));
  assert.deepEqual(extra, [], `${label}: \`in\` finds members that are not public`);
  for (const k of Object.keys(instance)) assert.ok(allowed.has(k), `${label}: Object.keys shows ${k}`);
  // The one internal accessor is a symbol: no string key shows it.
  assert.ok(!Object.keys(instance).some((k) => k.includes("internal")), label);
}

test("at run time: `in` and Object.keys on instances show only the public members", async () => {
  const request = async (method) => (method === "tools/call" ? { content: [{ type: "text", text: "sync" }] } : {});
  const client = new main.TaskClient({ request });
  for (const gone of ["tasks", "listeners", "wake", "loop", "scheduler", "session", "handlers", "clock", "push"]) {
    assert.ok(!(gone in client), `TaskClient.${gone} is internal`);
  }
  assertOnlyPublic(client, CLIENT.TaskClient, "TaskClient");
  const toolTask = await client.startTool("t", {});
  assertOnlyPublic(toolTask, CLIENT.ToolTask, "ToolTask");
  await client.close();
  assertOnlyPublic(new main.HttpConnection("http://127.0.0.1:1/mcp"), CLIENT.HttpConnection, "HttpConnection");

  const host = new server.TaskHost();
  assertOnlyPublic(host, SERVER.TaskHost, "TaskHost");
  const app = new server.McpHttpServer({ name: "n", version: "1" });
  for (const gone of ["sessions", "replies", "endpoint", "subscriptions"]) assert.ok(!(gone in app), `McpHttpServer.${gone} is internal`);
  assertOnlyPublic(app, SERVER.McpHttpServer, "McpHttpServer");
  await app.close();
  const stdio = new server.McpStdioServer({ name: "n", version: "1" });
  assertOnlyPublic(stdio, SERVER.McpStdioServer, "McpStdioServer");
  await stdio.close();
  assertOnlyPublic(new server.McpServerTasks({ name: "n", version: "1" }), SERVER.McpServerTasks, "McpServerTasks");
  const sdkStore = new server.SdkTaskStore();
  assertOnlyPublic(sdkStore, SERVER.SdkTaskStore, "SdkTaskStore");
  sdkStore.cleanup();
  const memory = new storage.MemoryStorage();
  assertOnlyPublic(memory, STORAGE.MemoryStorage, "MemoryStorage");
  const shared = await server.SharedTaskServer.open(memory, { cursorKey: "0123456789abcdef0123456789abcdef" });
  assertOnlyPublic(shared, SERVER.SharedTaskServer, "SharedTaskServer");
  await shared.close();
  const store = new server.TaskServer();
  assertOnlyPublic(store, SERVER.TaskServer, "TaskServer");
  store.free();
});
