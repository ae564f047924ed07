// One copy of each JS helper across the entries (docs/decisions/packaging.md): the main entry
// (mcp-tasks-wasm) and
// the server entry (mcp-tasks-wasm/server) of the packed package (scripts/pack.sh, installed in
// tests/js/.tmp/install) export the same TaskClient, error classes, requestVia, HttpConnection,
// so `instanceof` works across them; the server entry has everything of the main one; each entry
// gives the shared helpers its own glue (its own module: the main entry's has no task store, the
// server entry's has), so /server alone needs no other .wasm and an app importing both works.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const INSTALL = join(dirname(fileURLToPath(import.meta.url)), ".tmp/install");
if (!existsSync(join(INSTALL, "node_modules/mcp-tasks-wasm"))) {
  throw new Error("tests/js/.tmp/install is missing: run `bash scripts/build.sh && bash scripts/pack.sh`");
}
const main = await import(join(INSTALL, "esm.mjs"));
const server = await import(join(INSTALL, "server.mjs"));
const requireInstalled = createRequire(join(INSTALL, "package.json"));
const mainCjs = requireInstalled("mcp-tasks-wasm");
const serverCjs = requireInstalled("mcp-tasks-wasm/server");

const HELPERS = ["TaskClient", "TaskError", "TaskFailedError", "TaskCancelledError", "TaskExpiredError", "ProtocolError",
  "TaskSchedulerError", "requestVia", "HttpConnection", "HttpError", "RpcError", "TransportError", "VersionError"];

test("the server entry exports everything of the main entry (ESM and CommonJS)", () => {
  const names = (m) => Object.keys(m).filter((k) => k !== "resolved" && k !== "default");
  assert.deepEqual(names(main).filter((k) => !(k in server)), []);
  assert.deepEqual(Object.keys(mainCjs).filter((k) => !(k in serverCjs)), []);
  for (const name of HELPERS) {
    assert.equal(typeof server[name], "function", `mcp-tasks-wasm/server exports ${name}`);
    assert.equal(typeof serverCjs[name], "function", `require("mcp-tasks-wasm/server").${name}`);
  }
});

test("each helper exists once: the main entry's and the server entry's are the same (ESM and CommonJS)", () => {
  for (const name of HELPERS) {
    assert.equal(server[name], main[name], `import: ${name}`);
    assert.equal(serverCjs[name], mainCjs[name], `require: ${name}`);
  }
});

/** A TaskHost with a tool that fails with a JSON-RPC error, and a TaskClient of CLIENT_MODULE over it. */
async function failedCall(serverModule, clientModule) {
  const host = new serverModule.TaskHost();
  host.tool("broken", { taskSupport: "optional" }, async () => {
    throw { code: -32603, message: "disk on fire" };
  });
  let id = 0;
  const client = new clientModule.TaskClient({
    request: async (method, params) => {
      const response = await host.handle({ jsonrpc: "2.0", id: ++id, method, params }, { protocolVersion: "2026-07-28" });
      if (response.error) throw Object.assign(new Error(response.error.message), response.error);
      return response.result;
    },
  });
  try {
    return await client.callTool("broken", {}, { task: {} }).then(() => null, (e) => e);
  } finally {
    client.close();
  }
}

test("instanceof works across entries: a TaskFailedError thrown by the server entry's TaskClient is the main entry's", async () => {
  const error = await failedCall(server, server);
  assert.ok(error instanceof main.TaskFailedError, `got ${error}`);
  assert.ok(error instanceof main.TaskError);
  assert.ok(error instanceof server.TaskFailedError);
  const fromMain = await failedCall(server, main);
  assert.ok(fromMain instanceof server.TaskFailedError, `got ${fromMain}`);
});

test("CommonJS too: the server entry's TaskClient throws the main entry's TaskFailedError", async () => {
  const error = await failedCall(serverCjs, serverCjs);
  assert.ok(error instanceof mainCjs.TaskFailedError, `got ${error}`);
});

test("the server entry alone (no main entry imported) runs a TaskClient on its own glue", async () => {
  const program = `
    import { TaskClient, TaskHost } from "mcp-tasks-wasm/server";
    const host = new TaskHost();
    host.tool("square", { taskSupport: "optional" }, async ({ n }) => ({ content: [{ type: "text", text: String(n * n) }] }));
    let id = 0;
    const client = new TaskClient({ request: async (method, params) => {
      const r = await host.handle({ jsonrpc: "2.0", id: ++id, method, params }, { protocolVersion: "2026-07-28" });
      if (r.error) throw Object.assign(new Error(r.error.message), r.error);
      return r.result;
    } });
    const result = await client.callTool("square", { n: 9 }, { task: {} });
    client.close();
    console.log(result.content[0].text);`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", program], { cwd: INSTALL });
  assert.equal(stdout.trim(), "81");
});

test("the entries without top-level await (/bytes) give the shared helpers their glue once initialised", async () => {
  const program = `
    import { readFileSync } from "node:fs";
    import { createRequire } from "node:module";
    import { TaskClient, TaskHost, initSync } from "mcp-tasks-wasm/server/bytes";
    const request = async () => ({});
    let before;
    try { new TaskClient({ request }); } catch (e) { before = e.message; }
    initSync({ module: readFileSync(createRequire(import.meta.url).resolve("mcp-tasks-wasm/server/mcp_tasks_server_bg.wasm")) });
    const host = new TaskHost();
    host.tool("square", { taskSupport: "optional" }, async ({ n }) => ({ content: [{ type: "text", text: String(n * n) }] }));
    let id = 0;
    const client = new TaskClient({ request: async (method, params) => {
      const r = await host.handle({ jsonrpc: "2.0", id: ++id, method, params }, { protocolVersion: "2026-07-28" });
      if (r.error) throw Object.assign(new Error(r.error.message), r.error);
      return r.result;
    } });
    const result = await client.callTool("square", { n: 4 }, { task: {} });
    client.close();
    console.log(JSON.stringify({ before, after: result.content[0].text }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", program], { cwd: INSTALL });
  const { before, after } = JSON.parse(stdout);
  assert.match(before, /the WebAssembly module is not loaded yet: .* call init\(\) or initSync\(\) first/);
  assert.equal(after, "16");
});

// ---- exported error classes --------------------------------------------------------------------

const PKG = join(INSTALL, "node_modules/mcp-tasks-wasm");
const storage = {
  index: await import(join(INSTALL, "node_modules/mcp-tasks-wasm/storage/index.js")),
  sqlite: await import(join(INSTALL, "node_modules/mcp-tasks-wasm/storage/sqlite.js")),
  postgres: await import(join(INSTALL, "node_modules/mcp-tasks-wasm/storage/postgres.js")),
  redis: await import(join(INSTALL, "node_modules/mcp-tasks-wasm/storage/redis.js")),
};

/** The error classes the package's ES modules declare (`class XError extends …`), by file. */
function declaredErrors() {
  /** @type {Map<string, string>} */
  const found = new Map();
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith(".js")) {
        for (const m of readFileSync(path, "utf8").matchAll(/\bclass (\w+Error) extends\b/g)) found.set(m[1], path.slice(PKG.length + 1));
      }
    }
  };
  walk(PKG);
  return found;
}

test("every error class the package declares is exported by each entry that can throw it", () => {
  const declared = declaredErrors();
  // The classes of the shared helpers (js/client): thrown by TaskClient, HttpConnection and the
  // scheduler, which both entries export; TaskStoreError by the server entry's store classes;
  // StorageError by every storage entry.
  const where = {
    TaskError: ["main", "server"], TaskFailedError: ["main", "server"], TaskCancelledError: ["main", "server"],
    TaskExpiredError: ["main", "server"], ProtocolError: ["main", "server"], TaskSchedulerError: ["main", "server"],
    HttpError: ["main", "server"], RpcError: ["main", "server"], TransportError: ["main", "server"], VersionError: ["main", "server"],
    TaskStoreError: ["server"],
    StorageError: ["storage", "storage/sqlite", "storage/postgres", "storage/redis"],
  };
  assert.deepEqual([...declared.keys()].filter((name) => !(name in where)), [], "an error class no entry is known to export");
  const entries = { main, server, mainCjs, serverCjs, storage: storage.index, "storage/sqlite": storage.sqlite, "storage/postgres": storage.postgres, "storage/redis": storage.redis };
  for (const [name, list] of Object.entries(where)) {
    assert.ok(declared.has(name), `${name} is declared in the package`);
    for (const entry of list) {
      assert.equal(typeof entries[entry][name], "function", `${entry} exports ${name}`);
      if (entry === "main" || entry === "server") assert.equal(typeof entries[`${entry}Cjs`][name], "function", `${entry} (CommonJS) exports ${name}`);
    }
  }
  for (const e of ["storage/sqlite", "storage/postgres", "storage/redis"]) assert.equal(entries[e].StorageError, storage.index.StorageError, `${e}: one StorageError`);
});

test("TaskSchedulerError: what a TaskScheduler of either entry throws is an instance of either entry's class (ESM and CommonJS)", () => {
  for (const [label, a, b] of [["ESM", main, server], ["CommonJS", mainCjs, serverCjs]]) {
    for (const m of [a, b]) {
      const s = new m.TaskScheduler({ jitter: 0 });
      s.track("k", {}, 0);
      const twice = (() => { try { s.track("k", {}, 0); } catch (e) { return e; } })();
      assert.ok(twice instanceof a.TaskSchedulerError && twice instanceof b.TaskSchedulerError, `${label}: ${twice}`);
      assert.equal(twice.kind, "already_tracked");
      const bad = (() => { try { m.TaskScheduler.restore("{oops"); } catch (e) { return e; } })();
      assert.ok(bad instanceof a.TaskSchedulerError, `${label}: ${bad}`);
      assert.equal(bad.kind, "invalid_state");
      // A malformed argument is a TypeError, not a TaskSchedulerError.
      const typeError = (() => { try { new m.TaskScheduler({ floorMs: 1 }); } catch (e) { return e; } })();
      assert.ok(typeError instanceof TypeError && !(typeError instanceof a.TaskSchedulerError), `${label}: ${typeError}`);
    }
    const made = new a.TaskSchedulerError("made by hand", "invalid_state");
    assert.ok(made instanceof b.TaskSchedulerError && made instanceof Error);
    assert.equal(made.name, "TaskSchedulerError");
  }
});

test("TaskStoreError: thrown by TaskStore, TaskServer and SdkTaskStore of the server entry (ESM and CommonJS)", async () => {
  for (const [label, m] of [["ESM", server], ["CommonJS", serverCjs]]) {
    const store = new m.TaskStore();
    const missing = (() => { try { store.get("nope", { now: 0 }); } catch (e) { return e; } })();
    assert.ok(missing instanceof m.TaskStoreError, `${label}: ${missing}`);
    assert.equal(missing.kind, "not_found");
    const sdk = new m.SdkTaskStore();
    const viaSdk = await sdk.getTaskResult("nope").then(() => null, (e) => e);
    assert.ok(viaSdk instanceof m.TaskStoreError, `${label}: ${viaSdk}`);
    assert.equal(viaSdk.code, -32602);
    // A failed task's stored error is the package's TaskFailedError, with the work's message.
    const task = await sdk.createTask({}, 1, { method: "tools/call", params: {} });
    await sdk.updateTaskStatus(task.taskId, "failed", "it broke");
    const failed = await sdk.getTaskResult(task.taskId).then(() => null, (e) => e);
    assert.ok(failed instanceof m.TaskFailedError && failed instanceof main.TaskError === (m === server), `${label}: ${failed}`);
    assert.deepEqual([failed.code, failed.message, failed.taskId], [-32603, "it broke", task.taskId]);
    sdk.cleanup();
  }
});

test("StorageError: what a storage throws is the class every storage entry exports", async () => {
  const s = new storage.index.MemoryStorage();
  const bad = await Promise.resolve().then(() => s.get(42)).then(() => null, (e) => e);
  assert.ok(bad instanceof storage.sqlite.StorageError, String(bad));
  assert.equal(bad.kind, "invalid");
});
