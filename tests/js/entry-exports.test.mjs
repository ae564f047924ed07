// What each entry of the installed package exports (scripts/build.sh: PUBLIC, and the helpers'
// index.ts): the runtime keys of every entry file (ESM of each runtime, CommonJS, /bytes) and
// the names its declarations export, against the lists below. The glue's internal exports (the
// byte boundary's __validate*, TaskServerCore, listPosition, ToolArgumentsSchema) are reachable
// only from the glue file the helpers import (tests/js/soak.test.mjs fuzzes them there).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const INSTALL = join(HERE, ".tmp/install");
const PKG = join(INSTALL, "node_modules/mcp-tasks-wasm");
if (!existsSync(PKG)) throw new Error("tests/js/.tmp/install is missing: run `bash scripts/build.sh && bash scripts/pack.sh`");
const ts = createRequire(join(HERE, "../../package.json"))("typescript");

const MAIN = [
  // the client module's glue
  "Conversation", "TaskScheduler", "convertCreateTaskResult", "convertTask", "rules",
  // js/core/validate.ts
  "validateMessage",
  // js/client/index.ts
  "TaskClient", "ToolTask", "TaskError", "TaskFailedError", "TaskCancelledError", "TaskExpiredError", "ProtocolError",
  "TaskSchedulerError", "requestVia", "HttpConnection", "HttpError", "RpcError", "TransportError", "VersionError",
].sort();
const SERVER = [...MAIN,
  // js/server/index.ts
  "TaskStore", "TaskServer", "SharedTaskServer", "TaskStoreError", "TaskHost", "SdkTaskStore", "McpHttpServer", "McpStdioServer", "McpServerTasks",
].sort();
const BYTES = ["init", "initSync"];
const INTERNAL = ["__validateBuffer", "__validateBufferAt", "__validateBytes", "__validateMemory", "__validateNewKnown",
  "__validateRoute", "__validateTemplate", "TaskServerCore", "listPosition", "ToolArgumentsSchema", "InitOutput"];

/** The names a declaration file exports: [values, types] (a class is both: counted a value). */
function declared(file) {
  const program = ts.createProgram([file], { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: [] });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const values = [], types = [];
  for (const sym of checker.getExportsOfModule(checker.getSymbolAtLocation(source))) {
    const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
    (target.flags & ts.SymbolFlags.Value ? values : types).push(sym.name);
  }
  return [values.sort(), types.sort()];
}

const entries = [
  // [label, runtime module file, declarations, expected values]
  ["main, Node ESM", "node.mjs", "node.d.mts", MAIN],
  ["main, browser", null, "browser.d.ts", MAIN],
  ["main, Deno", null, "deno.d.ts", MAIN],
  ["main, workerd", null, "workerd.d.ts", MAIN],
  ["main, /bytes", "bytes.js", "bytes.d.ts", [...MAIN, ...BYTES].sort()],
  ["main, CommonJS", "main.cjs", "main.d.cts", MAIN],
  ["server, Node ESM", "server/node.mjs", "server/node.d.mts", SERVER],
  ["server, browser", null, "server/browser.d.ts", SERVER],
  ["server, Deno", null, "server/deno.d.ts", SERVER],
  ["server, workerd", null, "server/workerd.d.ts", SERVER],
  ["server, /bytes", "server/bytes.js", "server/bytes.d.ts", [...SERVER, ...BYTES].sort()],
  ["server, CommonJS", "server/main.cjs", "server/main.d.cts", SERVER],
];

for (const [label, runtime, dts, expected] of entries) {
  test(`${label}: exports exactly its list, at run time and in ${dts}`, async () => {
    if (runtime) {
      const m = runtime.endsWith(".cjs") ? createRequire(join(PKG, "package.json"))(join(PKG, runtime)) : await import(pathToFileURL(join(PKG, runtime)).href);
      assert.deepEqual(Object.keys(m).filter((k) => k !== "default" || !runtime.endsWith(".cjs")).sort(), expected, runtime);
    }
    const [values, types] = declared(join(PKG, dts));
    assert.deepEqual(values, expected, `${dts}: values`);
    for (const name of INTERNAL) assert.ok(!types.includes(name) && !values.includes(name), `${dts} names ${name}`);
    // Every type the glue declares (its own module's), but the raw exports' InitOutput.
    const glue = readFileSync(join(PKG, dirname(dts) === "." ? "" : dirname(dts), "mcp_tasks_wasm.d.ts"), "utf8");
    for (const [, name] of glue.matchAll(/^export (?:interface|type) (\w+)/gm)) {
      if (["InitOutput", "InitInput", "SyncInitInput"].includes(name)) continue;
      assert.ok(types.includes(name), `${dts} exports the type ${name}`);
    }
  });
}

test("the bare specifiers resolve to these entries: no internal name from mcp-tasks-wasm or mcp-tasks-wasm/server", async () => {
  const main = await import(join(INSTALL, "esm.mjs"));
  const server = await import(join(INSTALL, "server.mjs"));
  const requireInstalled = createRequire(join(INSTALL, "package.json"));
  for (const m of [main, server, requireInstalled("mcp-tasks-wasm"), requireInstalled("mcp-tasks-wasm/server")]) {
    for (const name of INTERNAL) assert.equal(m[name], undefined, name);
  }
  assert.deepEqual(Object.keys(main).filter((k) => k !== "resolved").sort(), MAIN);
  assert.deepEqual(Object.keys(server).filter((k) => k !== "resolved").sort(), SERVER);
});
