// A TypeScript user's file that puts a TaskClient over the real SDK `Client` classes compiles
// with `tsc --strict` and WITHOUT skipLibCheck: SDK 1.32.2 (`@modelcontextprotocol/sdk`, the root
// install) and SDK 2.4.0 (`@modelcontextprotocol/client`, tools/sdk2), each through
// `TaskClient.over(client)` and `requestVia(client, ResultSchema, { inputRequests })`, against
// the packed package's declarations (tests/js/.tmp/install, scripts/pack.sh). The SDKs are
// reached through a node_modules of symlinks next to the files, as an app would install them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const install = join(here, ".tmp", "install");
const dir = join(install, "sdk-types");
const tsc = join(root, "node_modules", ".bin", "tsc");
const typeRoots = join(root, "tools", "dx", "node_modules", "@types");

const FILES = {
  "v1.mts": `
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { TaskClient, requestVia, type CallToolResult } from "mcp-tasks-wasm";

const sdkClient = new Client({ name: "app", version: "1.0.0" }, { capabilities: { elicitation: {} } });
await sdkClient.connect(new StdioClientTransport({ command: "node", args: ["server.mjs"] }));
const handlers = { elicitation: async () => ({ action: "accept", content: { name: "Ada" } }) };
const client: TaskClient = TaskClient.over(sdkClient, { handlers });
const result: CallToolResult = await client.callTool("greet", { name: "Ada" });
const via = new TaskClient({ request: requestVia(sdkClient, ResultSchema, { inputRequests: { elicitation: ElicitRequestSchema } }), handlers });
export { result, via };
`,
  "v2.mts": `
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ElicitRequestSchema, ResultSchema } from "@modelcontextprotocol/core";
import { TaskClient, requestVia, type CallToolResult } from "mcp-tasks-wasm";

const http = new Client({ name: "app", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
await http.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1:3000/mcp")));
const stdio = new Client({ name: "app", version: "1.0.0" }, { capabilities: { elicitation: {} } });
await stdio.connect(new StdioClientTransport({ command: "node", args: ["server.mjs"] }));
const handlers = { elicitation: async () => ({ action: "accept", content: { name: "Ada" } }) };
const a: CallToolResult = await TaskClient.over(http).callTool("greet");
const b: CallToolResult = await TaskClient.over(stdio, { handlers }).callTool("greet");
const via = new TaskClient({ request: requestVia(stdio, ResultSchema, { inputRequests: { elicitation: ElicitRequestSchema } }), handlers });
export { a, b, via };
`,
};

/** tsc's diagnostics, one line each. */
const diagnostics = (async () => {
  assert.ok(existsSync(join(install, "node_modules", "mcp-tasks-wasm")), "run `bash scripts/build.sh && bash scripts/pack.sh` first");
  const sdk2 = join(root, "tools", "sdk2", "node_modules", "@modelcontextprotocol");
  assert.ok(existsSync(join(sdk2, "client", "package.json")), "tools/sdk2 is not installed: run scripts/setup.sh");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "node_modules", "@modelcontextprotocol"), { recursive: true });
  symlinkSync(join(install, "node_modules", "mcp-tasks-wasm"), join(dir, "node_modules", "mcp-tasks-wasm"));
  symlinkSync(join(root, "node_modules", "@modelcontextprotocol", "sdk"), join(dir, "node_modules", "@modelcontextprotocol", "sdk"));
  for (const p of ["client", "core"]) symlinkSync(join(sdk2, p), join(dir, "node_modules", "@modelcontextprotocol", p));
  for (const [name, code] of Object.entries(FILES)) writeFileSync(join(dir, name), code);
  const config = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: "es2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      // SDK 1.32.2's own declarations name DOM types (HeadersInit): its users compile with the
      // DOM lib. The package's declarations alone need none (package-types.test.mjs).
      lib: ["es2022", "dom"],
      types: ["node"],
      typeRoots: [typeRoots],
      skipLibCheck: false,
    },
    files: Object.keys(FILES),
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config, null, 2));
  const out = await promisify(execFile)(tsc, ["-p", join(dir, "tsconfig.json"), "--pretty", "false"], { cwd: dir, maxBuffer: 1 << 24 }).then(
    (r) => r.stdout,
    (e) => `${e.stdout ?? ""}${e.stderr ?? ""}`,
  );
  return out.split("\n").filter((l) => /error TS/.test(l));
})();
diagnostics.catch(() => {});

for (const name of Object.keys(FILES)) {
  test(`${name}: TaskClient.over and requestVia over the real SDK ${name === "v1.mts" ? "1.32.2" : "2.4.0"} Client compile under --strict`, async () => {
    assert.deepEqual((await diagnostics).filter((l) => l.startsWith(name)), []);
  });
}

test("no other diagnostic (the package's declarations, the SDKs', the configuration), skipLibCheck off", async () => {
  assert.deepEqual((await diagnostics).filter((l) => !Object.keys(FILES).some((n) => l.startsWith(n))), []);
});
