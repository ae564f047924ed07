// What a browser app that calls task tools downloads: the app bundled for the browser with esbuild
// (minified, ESM), and the .wasm modules its bundle loads, gzip -9 (zlib level 9) per file, summed.
//   node bench/browser-app.mjs [--pkg DIR] [--json FILE]
// The app (bench/browser-app/client.js): TaskClient.connect and a callTool, no MCP SDK. For scale,
// app.js is the same next to the SDK 1.32.2 client with its task schemas, app-server.js that
// one importing mcp-tasks-wasm/server too (both modules load), and client-conversation.js the
// first importing Conversation too (the main module loads next to the browser module).
// The package is pkg/ (or --pkg DIR, e.g. an older build); the SDK is the root's pinned one;
// esbuild is tools/ts's (pinned with its lock). KB = 1,000 bytes. The figures go in BENCHMARKS.md
// ("Browser app"); tests/js/browser-app-size.test.mjs only checks that they are computed.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({ options: { pkg: { type: "string" }, json: { type: "string" } } });
const PKG = resolve(args.pkg ?? join(ROOT, "pkg"));
if (!existsSync(join(PKG, "browser.js"))) throw new Error(`${PKG}/browser.js is missing: run bash scripts/build.sh`);
const esbuild = createRequire(join(ROOT, "tools/ts/package.json"))("esbuild");
const sdkVersion = JSON.parse(readFileSync(join(ROOT, "node_modules/@modelcontextprotocol/sdk/package.json"), "utf8")).version;

const gz = (buf) => gzipSync(buf, { level: 9 }).length;

// The package as an app sees it: node_modules/mcp-tasks-wasm → PKG (its "exports", browser
// conditions); everything else (the SDK, zod) from the root's node_modules.
const work = mkdtempSync(join(tmpdir(), "mcp-tasks-browser-app-"));
try {
  mkdirSync(join(work, "node_modules"));
  symlinkSync(PKG, join(work, "node_modules/mcp-tasks-wasm"), "dir");
  const apps = {
    "TaskClient.connect + callTool (main entry)": "client.js",
    "the same next to the SDK client and its task schemas": "app.js",
    "the same, importing mcp-tasks-wasm/server too": "app-server.js",
    "TaskClient and Conversation (main entry)": "client-conversation.js",
  };
  const results = {};
  for (const [label, file] of Object.entries(apps)) {
    writeFileSync(join(work, file), readFileSync(join(ROOT, "bench/browser-app", file)));
    const out = await esbuild.build({
      entryPoints: [join(work, file)],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      nodePaths: [join(ROOT, "node_modules")],
      absWorkingDir: work,
      preserveSymlinks: true, // metafile paths through node_modules/mcp-tasks-wasm
      write: false,
      outfile: join(work, "out", file),
      logLevel: "error",
      metafile: true,
    });
    const js = out.outputFiles.find((f) => f.path.endsWith(".js")).contents;
    const text = Buffer.from(js).toString("utf8");
    // The modules the bundle loads: the `new URL("./…_bg.wasm", import.meta.url)` of the package's
    // files that esbuild kept (it leaves them as they are: the .wasm is copied next to the bundle),
    // found by name in the package (each module's file name is its own). A file a bundler drops
    // (package.json "sideEffects", nothing of it imported) fetches nothing.
    const wasm = [];
    for (const u of new Set(Array.from(text.matchAll(/new URL\(["'](?:\.\/)?([A-Za-z0-9_]+_bg\.wasm)["']/g), (m) => m[1]))) {
      const found = ["", "browser/", "server/"].map((d) => `${d}${u}`).filter((f) => existsSync(join(PKG, f)));
      if (found.length !== 1) throw new Error(`${file}: the bundle fetches ${u}, found ${found.length} times in ${PKG}`);
      wasm.push(found[0]);
    }
    wasm.sort();
    if (wasm.length === 0) throw new Error(`${file}: the bundle loads no .wasm`);
    const wasmSizes = Object.fromEntries(wasm.map((w) => {
      const buf = readFileSync(join(PKG, w));
      return [w, { raw: buf.length, gzip: gz(buf) }];
    }));
    // The files esbuild kept (metafile "inputs" also lists the files it dropped).
    const inputs = Object.entries(Object.values(out.metafile.outputs)[0].inputs).filter(([, i]) => i.bytesInOutput > 0).map(([f]) => f);
    const sdk = inputs.filter((i) => i.includes("@modelcontextprotocol/sdk/") || /node_modules\/(zod|ajv|ajv-formats|fast-deep-equal|json-schema-traverse|fast-uri|pkce-challenge|eventsource-parser)\//.test(i));
    const ours = inputs.filter((i) => i.includes("node_modules/mcp-tasks-wasm/"));
    results[label] = {
      app: file,
      js: { raw: js.length, gzip: gz(js) },
      wasm: wasmSizes,
      total: { gzip: gz(js) + Object.values(wasmSizes).reduce((a, s) => a + s.gzip, 0) },
      inputs: { sdk: sdk.length, package: ours.length },
      // The glue of the task store core (wasm-bindgen calls its methods as wasm.taskservercore_*).
      storeGlue: /taskservercore_/.test(text),
      // The glue of the conversation checker (wasm.conversation_new, …).
      conversationGlue: /conversation_new/.test(text),
    };
  }
  const kb = (n) => (n / 1000).toFixed(1);
  console.log(`# browser app (esbuild ${esbuild.version}, --bundle --minify --platform=browser --format=esm; SDK ${sdkVersion}; gzip -9 per file; KB = 1,000 bytes)`);
  for (const [label, r] of Object.entries(results)) {
    const w = Object.entries(r.wasm).map(([f, s]) => `${f} ${kb(s.gzip)}`).join(" + ");
    console.log(`  ${label}: JS ${kb(r.js.gzip)} + ${w} = ${kb(r.total.gzip)} KB gzip`);
  }
  if (args.json) {
    mkdirSync(dirname(resolve(args.json)), { recursive: true });
    writeFileSync(args.json, `${JSON.stringify({ esbuild: esbuild.version, sdk: sdkVersion, pkg: PKG, results }, null, 2)}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
