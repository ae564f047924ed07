// node scripts/build-ts.mjs PKG WORK SERVER(0|1)
//
// Compiles the TypeScript helpers into PKG (called by scripts/build.sh once the glue is there):
//
//   js/core/*.ts, js/client/*.ts   → PKG/*.js + *.d.ts          (the main entry's helpers)
//   js/core/*.ts, js/server/*.ts   → PKG/server/*.js + *.d.ts   (SERVER=1: validate.ts over the
//                                    server module; a stub per shared client helper,
//                                    `export * from "../client.js"`: one copy in the package)
//   js/core/validate.ts            → PKG/browser/validate.js    (over the browser entry's module)
//   js/server/storage/*.ts         → PKG/storage/*.js + *.d.ts  (ES modules only)
//   js/cli.mts                     → PKG/cli.mjs                (with @types/node)
//   js/inspect.mts                 → PKG/inspect.mjs            (the CLI's inspect/record, loaded on demand)
//
// tsc (the root's typescript, --strict) type-checks and emits the ES modules and declarations from
// a work tree laid out as PKG is (WORK: the sources next to a copy of the glue's declarations);
// esbuild (tools/ts) compiles each emitted ES module of the main and server entries to its
// CommonJS twin *.cjs, every relative import kept external and pointed at the twin (the web glue
// ./mcp_tasks_wasm.js at the nodejs glue ./node.cjs); the *.d.cts twins are the declarations with
// the same module specifiers rewritten by the TypeScript parser (no text substitution).
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const [PKG, WORK] = process.argv.slice(2, 4).map((p) => p && resolve(p));
const SERVER = process.argv[4] ?? "1";
if (!PKG || !WORK) {
  console.error("usage: node scripts/build-ts.mjs PKG WORK [SERVER]");
  process.exit(2);
}
const NAME = "mcp_tasks_wasm";
const TSC = join(ROOT, "node_modules", ".bin", "tsc");
const TOOLS = join(ROOT, "tools", "ts", "node_modules");
if (!existsSync(join(TOOLS, "esbuild")) || !existsSync(join(TOOLS, "@types", "node"))) {
  console.error("build-ts: tools/ts is not installed: run scripts/setup.sh");
  process.exit(1);
}
const esbuild = createRequire(join(TOOLS, "esbuild", "package.json"))("esbuild");
const ts = createRequire(join(ROOT, "node_modules", "typescript", "package.json"))("typescript");

const tsFiles = (dir) => readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")).sort();
const say = (s) => console.log(`build: ${s}`);

// ---- the work tree, laid out as PKG ---------------------------------------------------------------
rmSync(WORK, { recursive: true, force: true });
const layout = [
  { out: "", from: ["js/core", "js/client"], cjs: true },
  // js/core (validate.ts) in both: each wraps the byte boundary of its own entry's module.
  ...(SERVER === "1" ? [{ out: "server", from: ["js/core", "js/server"], cjs: true, shared: ".." }] : []),
  // The browser entry's module (no Conversation: observe.ts is not there): validate.ts over it.
  { out: "browser", from: ["js/core"], only: ["validate.ts"], cjs: false },
  { out: "storage", from: ["js/server/storage"], cjs: false },
];
const compiled = []; // work-relative .ts files
for (const part of layout) {
  const dir = join(WORK, part.out);
  mkdirSync(dir, { recursive: true });
  for (const from of part.from) {
    for (const f of tsFiles(join(ROOT, from))) {
      if (part.only && !part.only.includes(f)) continue;
      copyFileSync(join(ROOT, from, f), join(dir, f));
      compiled.push(join(part.out, f));
    }
  }
  if (part.out !== "storage") copyFileSync(join(PKG, part.out, `${NAME}.d.ts`), join(dir, `${NAME}.d.ts`));
  if (part.shared) {
    // One copy of each shared helper in the package: this entry's module of the same name
    // re-exports it (the server helpers import ./client.js, ./types.js, …).
    for (const from of ["js/client"]) {
      for (const f of tsFiles(join(ROOT, from))) {
        if (f === "index.ts") continue;
        const js = `${part.shared}/${f.replace(/\.ts$/, ".js")}`;
        writeFileSync(join(dir, f), `// The shared helper ${js} (one copy in the package).\nexport * from "${js}";\n`);
        compiled.push(join(part.out, f));
      }
    }
  }
}

// ---- tsc: ES modules and declarations --------------------------------------------------------------
const compilerOptions = {
  strict: true,
  target: "es2022",
  module: "nodenext",
  moduleResolution: "nodenext",
  // The helpers run in browsers, Deno, workerd and Node: web APIs only (no node: modules, no
  // @types/node); the declarations they produce are checked without DOM (package-types test).
  lib: ["es2022", "dom"],
  types: [],
  declaration: true,
  // Members marked `@internal` (used by a sibling module of ours, never by users) are left out of
  // the declarations: the typings carry the public API only (tests/js/public-api.test.mjs).
  stripInternal: true,
  // Fields are declared for the types only: the emitted classes assign them as the sources do.
  useDefineForClassFields: false,
  skipLibCheck: false,
  rootDir: WORK,
  outDir: PKG,
  newLine: "lf",
};
// ES modules, as in the package (module nodenext reads the nearest package.json's "type").
writeFileSync(join(WORK, "package.json"), `${JSON.stringify({ type: "module", private: true })}\n`);
writeFileSync(join(WORK, "tsconfig.json"), JSON.stringify({ compilerOptions, files: compiled }, null, 2));
say(`tsc --strict: ${compiled.length} helpers → ${relative(ROOT, PKG) || "."}/{,server/,storage/}*.js + .d.ts`);
try {
  execFileSync(TSC, ["-p", join(WORK, "tsconfig.json")], { stdio: "inherit" });
} catch {
  console.error("build-ts: ERROR: tsc could not type-check or compile the helpers");
  process.exit(1);
}

// ---- esbuild: the CommonJS twins ------------------------------------------------------------------
const toCjs = (spec) => (spec.endsWith(`/${NAME}.js`) ? spec.replace(`${NAME}.js`, "node.cjs") : spec.replace(/\.js$/, ".cjs"));
const externalTwins = {
  name: "external-cjs-twins",
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => (args.kind === "entry-point" ? undefined : { path: toCjs(args.path), external: true }));
  },
};
const cjsInputs = [];
for (const part of layout.filter((p) => p.cjs)) {
  for (const f of compiled.filter((c) => dirname(c) === (part.out || "."))) cjsInputs.push(join(PKG, f.replace(/\.ts$/, ".js")));
}
say(`esbuild: ${cjsInputs.length} CommonJS twins (*.cjs) and their declarations (*.d.cts)`);
await Promise.all(cjsInputs.map((input) =>
  esbuild.build({
    entryPoints: [input],
    outfile: input.replace(/\.js$/, ".cjs"),
    bundle: true, // one module in, one out: every import is external (the plugin)
    format: "cjs",
    platform: "neutral",
    target: "es2022",
    plugins: [externalTwins],
    logLevel: "error",
  })));

// The declarations' twins: the same text, each module specifier (import/export declarations and
// import("…") types) pointed at the CommonJS twin, as the TypeScript parser finds them.
function cjsDeclaration(file) {
  const text = readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const specs = [];
  const visit = (node) => {
    let lit;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) lit = node.moduleSpecifier;
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) lit = node.argument.literal;
    if (lit && ts.isStringLiteral(lit) && /^\.\.?\//.test(lit.text)) specs.push(lit);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  let out = text;
  for (const lit of specs.sort((a, b) => b.getStart(sf) - a.getStart(sf))) {
    out = out.slice(0, lit.getStart(sf)) + JSON.stringify(toCjs(lit.text)) + out.slice(lit.getEnd());
  }
  writeFileSync(file.replace(/\.d\.ts$/, ".d.cts"), out);
}
for (const input of cjsInputs) cjsDeclaration(input.replace(/\.js$/, ".d.ts"));

// ---- the CLI: Node only, with @types/node ---------------------------------------------------------
// It imports the package's Node entry (./node.mjs, next to it in PKG): the work tree gets that
// entry's declarations, so the CLI is checked against the helpers' sources.
copyFileSync(join(ROOT, "js", "cli.mts"), join(WORK, "cli.mts"));
copyFileSync(join(ROOT, "js", "inspect.mts"), join(WORK, "inspect.mts"));
copyFileSync(join(PKG, "node.d.mts"), join(WORK, "node.d.mts"));
const cliOut = join(WORK, ".cli");
writeFileSync(join(WORK, "tsconfig.cli.json"), JSON.stringify({
  compilerOptions: { ...compilerOptions, lib: ["es2022"], types: ["node"], typeRoots: [join(TOOLS, "@types")], declaration: false, outDir: cliOut },
  files: ["cli.mts", "inspect.mts"],
}, null, 2));
say("tsc --strict: js/cli.mts, js/inspect.mts → cli.mjs, inspect.mjs (lib es2022 + @types/node)");
try {
  execFileSync(TSC, ["-p", join(WORK, "tsconfig.cli.json")], { stdio: "inherit" });
} catch {
  console.error("build-ts: ERROR: tsc could not type-check or compile js/cli.mts");
  process.exit(1);
}
copyFileSync(join(cliOut, "cli.mjs"), join(PKG, "cli.mjs"));
copyFileSync(join(cliOut, "inspect.mjs"), join(PKG, "inspect.mjs"));
