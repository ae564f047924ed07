// One copy of each JS helper across the entries (issue 12): the main entry (mcp-tasks-wasm) and
// the server entry (mcp-tasks-wasm/server) of the packed package (scripts/pack.sh, installed in
// tests/js/.tmp/install) export the same TaskClient, error classes, requestVia, HttpConnection,
// so `instanceof` works across them; the server entry has everything of the main one; each entry
// gives the shared helpers its own glue, so /server alone needs no other .wasm.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
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
  "requestVia", "HttpConnection", "HttpError", "RpcError", "TransportError", "VersionError"];

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
    initSync({ module: readFileSync(createRequire(import.meta.url).resolve("mcp-tasks-wasm/server/mcp_tasks_wasm_bg.wasm")) });
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
