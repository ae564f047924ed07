// The packed package (scripts/pack.sh) as a Node project consumes it, with the tools pinned in
// tools/types-matrix (scripts/setup.sh installs them):
//
//   - its published declarations (every *.d.ts, *.d.cts and *.d.mts, and the main and server
//     entries imported from an .mts and a .cts) compile under `tsc --strict` without skipLibCheck,
//     without the DOM lib, against @types/node 20, 22, 24 and 26 (a global that only some majors
//     declare, such as CryptoKey before 25, breaks the others);
//   - an esbuild --platform=node bundle (CommonJS and ESM) of a script importing the main and the
//     server entries runs after its dist/ is moved away from node_modules and is run from another
//     directory, in the two ways the "Bundlers" section of docs/guides/packaging.md gives: the .wasm copied next to
//     the bundle, or embedded with --loader:.wasm=binary and the bytes entries.
//
//   node --test tests/packaging/types-matrix.test.mjs
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { ROOT, TMP, exec, tarball } from "./lib.mjs";

const TOOLS = join(ROOT, "tools/types-matrix/node_modules");
const TSC = join(ROOT, "node_modules/.bin/tsc");
const ESBUILD = join(TOOLS, "esbuild/bin/esbuild");
const NODE_MAJORS = [20, 22, 24, 26];
const DIR = join(TMP, "types-matrix");
const PKG = join(DIR, "node_modules/mcp-tasks-wasm");
/** Scratch directories outside the repository (no node_modules above them), removed at the end. */
const away = [];

before(async () => {
  for (const f of ["esbuild/bin/esbuild", ...NODE_MAJORS.map((m) => `types-node-${m}/package.json`)]) {
    if (!existsSync(join(TOOLS, f))) throw new Error(`tools/types-matrix/node_modules/${f} is missing: run scripts/setup.sh`);
  }
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  writeFileSync(join(DIR, "package.json"), `${JSON.stringify({ name: "types-matrix", private: true, type: "module" })}\n`);
  await exec("npm", ["install", "--offline", "--no-audit", "--no-fund", "--no-package-lock", tarball()], { cwd: DIR });
});
after(() => {
  for (const d of away) rmSync(d, { recursive: true, force: true });
});

/** Every declaration file the package ships, relative to its directory. */
function declarations(dir = PKG, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && e.name !== "node_modules") declarations(p, out);
    else if (/\.d\.(ts|cts|mts)$/.test(e.name)) out.push(relative(PKG, p));
  }
  return out.sort();
}

const consumerMts = `import { validateMessage, TaskClient } from "mcp-tasks-wasm";
import { TaskHost, McpHttpServer } from "mcp-tasks-wasm/server";
const host = new TaskHost({ requestState: { key: new Uint8Array(32) } });
const app = new McpHttpServer({ name: "s", version: "1", host });
export const used = [validateMessage("{}").valid, TaskClient, app];
`;
const consumerCts = `import main = require("mcp-tasks-wasm");
import server = require("mcp-tasks-wasm/server");
export const used = [main.validateMessage("{}").valid, server.TaskHost];
`;

// Two tsc runs at a time (each is single-threaded).
describe("published declarations", { concurrency: 2 }, () => {
for (const major of NODE_MAJORS) {
  test(`the declarations compile under tsc --strict (no skipLibCheck, no DOM) with @types/node ${major}`, async () => {
    const dir = join(DIR, `node-${major}`);
    mkdirSync(join(dir, "types"), { recursive: true });
    symlinkSync(join(TOOLS, `types-node-${major}`), join(dir, "types/node"));
    writeFileSync(join(dir, "consumer.mts"), consumerMts);
    writeFileSync(join(dir, "consumer.cts"), consumerCts);
    const files = declarations();
    assert.ok(files.length > 40, `the package ships declarations (found ${files.length})`);
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
      compilerOptions: {
        strict: true, noEmit: true, skipLibCheck: false, target: "es2022", lib: ["es2022"],
        module: "nodenext", moduleResolution: "nodenext", types: ["node"], typeRoots: ["./types"],
      },
      files: ["consumer.mts", "consumer.cts", ...files.map((f) => relative(dir, join(PKG, f)))],
    }, null, 2));
    let out = "";
    try {
      out = await exec(TSC, ["-p", dir], { cwd: dir });
    } catch (e) {
      out = /** @type {Error} */ (e).message;
    }
    assert.equal(out.trim(), "", `tsc with @types/node ${major}:\n${out}`);
  });
}
});

// A script of both entries: a validation and a TaskHost tool call answered in process.
const probe = (imports, init = "") => `${imports}
${init}
const host = new TaskHost({});
host.tool("t", { taskSupport: "optional" }, async () => ({ content: [{ type: "text", text: "ok" }] }));
host.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: {} } }, { protocolVersion: "2025-11-25" })
  .then((r) => console.log(JSON.stringify({ valid: validateMessage('{"jsonrpc":"2.0","id":1,"result":{}}').valid, text: r.result.content[0].text })));
`;

/** Bundles `source` with esbuild `args`, moves dist/ out of the tree, runs it from another directory. */
async function bundleAndRunElsewhere(name, source, args, copyWasm) {
  const project = join(DIR, name);
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, "main.mjs"), source);
  const out = args.includes("--format=esm") ? "dist/main.mjs" : "dist/main.cjs";
  await exec(ESBUILD, ["main.mjs", "--bundle", "--platform=node", `--outfile=${out}`, "--log-level=warning", ...args], { cwd: project });
  const deployed = mkdtempSync(join(tmpdir(), `mcp-tasks-${name}-`));
  const cwd = mkdtempSync(join(tmpdir(), `mcp-tasks-${name}-cwd-`));
  away.push(deployed, cwd);
  cpSync(join(project, "dist"), join(deployed, "dist"), { recursive: true });
  // Each entry has its own module: the main entry's and the server entry's .wasm.
  if (copyWasm) {
    cpSync(join(PKG, "mcp_tasks_wasm_bg.wasm"), join(deployed, "dist/mcp_tasks_wasm_bg.wasm"));
    cpSync(join(PKG, "server/mcp_tasks_server_bg.wasm"), join(deployed, "dist/mcp_tasks_server_bg.wasm"));
  }
  return JSON.parse((await exec(process.execPath, [join(deployed, out)], { cwd })).trim().split("\n").at(-1));
}

const plain = probe(`import { validateMessage } from "mcp-tasks-wasm";\nimport { TaskHost } from "mcp-tasks-wasm/server";`);
for (const format of ["cjs", "esm"]) {
  test(`esbuild --platform=node --format=${format}: the bundle runs elsewhere with the .wasm copied next to it`, async () => {
    const got = await bundleAndRunElsewhere(`esbuild-copy-${format}`, plain, [`--format=${format}`], true);
    assert.deepEqual(got, { valid: true, text: "ok" });
  });
}

test("esbuild --platform=node: without the .wasm next to it, a moved bundle says how to fix it", async () => {
  await assert.rejects(bundleAndRunElsewhere("esbuild-nocopy", plain, ["--format=esm"], false),
    /mcp_tasks_(wasm|server)_bg\.wasm is neither next to .* copy the \.wasm next to it/s);
});

test("esbuild --platform=node --loader:.wasm=binary: one self-contained file (the bytes entries)", async () => {
  const embedded = probe(
    `import bytes from "mcp-tasks-wasm/mcp_tasks_wasm_bg.wasm";
import serverBytes from "mcp-tasks-wasm/server/mcp_tasks_server_bg.wasm";
import { initSync, validateMessage } from "mcp-tasks-wasm/bytes";
import { initSync as initServerSync, TaskHost } from "mcp-tasks-wasm/server/bytes";`,
    "initSync({ module: bytes });\ninitServerSync({ module: serverBytes });",
  );
  const got = await bundleAndRunElsewhere("esbuild-embed", embedded, ["--format=esm", "--loader:.wasm=binary", "--target=node20"], false);
  assert.deepEqual(got, { valid: true, text: "ok" });
});
