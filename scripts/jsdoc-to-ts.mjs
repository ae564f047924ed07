// node scripts/jsdoc-to-ts.mjs FILE.ts...
//
// For merging: turns helpers still written as JSDoc-typed JavaScript (a branch that edited
// js/**/*.js before the move to TypeScript; rename detection brings its text to the .ts file)
// into TypeScript, in place, as the move itself did (the commit "JSDoc types moved into
// TypeScript annotations, mechanically"): TypeScript's own codefixes convertTypedefToType and
// annotateWithTypeFromJSDoc, JSDoc casts `/** @type {T} */ (x)` into `(x as T)`, class fields
// declared from the types `tsc --checkJs` infers, `@typedef`s kept type aliases and exported.
// The other helpers are read as they are (TypeScript). What it cannot do (e.g. `@callback`,
// `@this`, a closure whose `never` control flow needs an annotated declaration) shows as tsc
// errors in the next build: fix those by hand, as the commit after the move did.
// Needs a built pkg/ (the glue's declarations).
import fs, { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const ts = createRequire(path.join(ROOT, "node_modules", "typescript", "package.json"))("typescript");
const given = process.argv.slice(2).map((f) => path.resolve(f));
if (given.length === 0) {
  console.error("usage: node scripts/jsdoc-to-ts.mjs js/…/FILE.ts...");
  process.exit(2);
}
if (!existsSync(path.join(ROOT, "pkg", "mcp_tasks_wasm.d.ts"))) {
  console.error("jsdoc-to-ts: build pkg/ first (bash scripts/build.sh)");
  process.exit(1);
}

// The layout of the package (as scripts/build-ts.mjs lays it out): js/core + js/client at the
// top, js/server in server/ (with stubs for the shared helpers), js/server/storage in storage/.
const work = mkdtempSync(path.join(tmpdir(), "jsdoc-to-ts-"));
const places = [["js/core", ""], ["js/client", ""], ["js/server", "server"], ["js/server/storage", "storage"]];
const back = new Map(); // work path -> repository path
for (const [from, to] of places) {
  mkdirSync(path.join(work, to), { recursive: true });
  for (const f of readdirSync(path.join(ROOT, from)).filter((n) => n.endsWith(".ts"))) {
    copyFileSync(path.join(ROOT, from, f), path.join(work, to, f));
    back.set(path.join(work, to, f), path.join(ROOT, from, f));
  }
}
copyFileSync(path.join(ROOT, "js", "cli.mts"), path.join(work, "cli.mts"));
back.set(path.join(work, "cli.mts"), path.join(ROOT, "js", "cli.mts"));
copyFileSync(path.join(ROOT, "pkg", "mcp_tasks_wasm.d.ts"), path.join(work, "mcp_tasks_wasm.d.ts"));
copyFileSync(path.join(ROOT, "pkg", "node.d.mts"), path.join(work, "node.d.mts"));
writeFileSync(path.join(work, "server", "mcp_tasks_wasm.d.ts"), 'export * from "../mcp_tasks_wasm.js";\n');
for (const from of ["js/core", "js/client"]) {
  for (const f of readdirSync(path.join(ROOT, from)).filter((n) => n.endsWith(".ts") && n !== "index.ts")) {
    writeFileSync(path.join(work, "server", f), `export * from "../${f.replace(/\.ts$/, ".js")}";\n`);
  }
}
writeFileSync(path.join(work, "package.json"), '{ "type": "module" }\n');
const repoToWork = new Map([...back].map(([w, r]) => [r, w]));
const abs = given.map((f) => {
  const w = repoToWork.get(f);
  if (!w) {
    console.error(`jsdoc-to-ts: ${f} is not a helper (js/core, js/client, js/server, js/server/storage, js/cli.mts)`);
    process.exit(2);
  }
  return w;
});

// ---- phase 1: the given files read as JavaScript (the others stay TypeScript) ----------------
const jsDir = `${work}-js`;
cpSync(work, jsDir, { recursive: true });
const toJs = (f) => path.join(jsDir, path.relative(work, f)).replace(/\.ts$/, ".js").replace(/\.mts$/, ".mjs");
for (const f of abs) fs.renameSync(path.join(jsDir, path.relative(work, f)), toJs(f));
const jsFiles = abs.map(toJs);
const prog = ts.createProgram(jsFiles, {
  allowJs: true, checkJs: true, strict: true, noEmit: true, target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, lib: ["lib.es2022.d.ts", "lib.dom.d.ts"], types: [],
});
const checker = prog.getTypeChecker();
const FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;

const texts = new Map();
for (let i = 0; i < abs.length; i++) {
  const sf = prog.getSourceFile(jsFiles[i]);
  const text = sf.text;
  const edits = []; // {pos, end, text}
  const visit = (node) => {
    if (ts.isParenthesizedExpression(node) && node.jsDoc?.length) {
      const tag = ts.getJSDocTypeTag(node);
      if (tag) {
        const doc = node.jsDoc[node.jsDoc.length - 1];
        const t = text.slice(tag.typeExpression.type.pos, tag.typeExpression.type.end).trim();
        // delete the comment (and one following space), insert " as T" before ")"
        let end = doc.end;
        while (text[end] === " ") end++;
        edits.push({ pos: doc.getStart(sf), end, text: "" });
        const inner = node.expression;
        const wrap = ts.isBinaryExpression(inner) || ts.isConditionalExpression(inner) || ts.isArrowFunction(inner) || ts.isYieldExpression(inner);
        if (wrap) edits.push({ pos: inner.getStart(sf), end: inner.getStart(sf), text: "(" });
        edits.push({ pos: node.end - 1, end: node.end - 1, text: `${wrap ? ")" : ""} as ${t}` });
      }
    }
    if (ts.isParameter(node) && !node.initializer && !node.questionToken && !node.dotDotDotToken) {
      const tags = ts.getJSDocParameterTags(node);
      const tag = tags[0];
      if (tag && (tag.isBracketed || (tag.typeExpression && ts.isJSDocOptionalType(tag.typeExpression.type)))) {
        edits.push({ pos: node.name.end, end: node.name.end, text: "?" });
      }
    }
    if ((ts.isClassDeclaration(node) || ts.isClassExpression(node))) {
      const sym = node.name ? checker.getSymbolAtLocation(node.name) : checker.getTypeAtLocation(node).symbol;
      const decls = [];
      if (sym) {
        const inst = checker.getDeclaredTypeOfSymbol(sym);
        for (const p of inst.getProperties()) {
          const d = p.valueDeclaration;
          if (!d || !(ts.isBinaryExpression(d) || ts.isPropertyAccessExpression(d))) continue;
          if (d.getSourceFile() !== sf || d.pos < node.pos || d.end > node.end) continue;
          const stmt = ts.isBinaryExpression(d) ? d.parent : d.parent?.parent;
          const tag = stmt ? ts.getJSDocTypeTag(stmt) : undefined;
          let t;
          if (tag) t = text.slice(tag.typeExpression.type.pos, tag.typeExpression.type.end).trim();
          else t = checker.typeToString(checker.getTypeOfSymbolAtLocation(p, node), node, FLAGS);
          // assigned in the constructor?
          let inCtor = false;
          for (let n = d; n && n !== node; n = n.parent) if (ts.isConstructorDeclaration(n)) inCtor = true;
          const ro = (p.flags & ts.SymbolFlags.Optional) ? "?" : "";
          decls.push(`  ${p.name}${ro}${inCtor ? "" : "!"}: ${t};`);
        }
      }
      if (decls.length) {
        const open = text.indexOf("{", node.members.pos - 1);
        const brace = node.members.pos; // just after "{"
        edits.push({ pos: brace, end: brace, text: "\n" + decls.join("\n") });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  edits.sort((a, b) => b.pos - a.pos || b.end - a.end);
  let out = text;
  for (const e of edits) out = out.slice(0, e.pos) + e.text + out.slice(e.end);
  texts.set(abs[i], out);
}

// ---- phase 2: language service codefixes in TS mode
const versions = new Map();
const host = {
  getScriptFileNames: () => abs,
  getScriptVersion: (f) => String(versions.get(f) ?? 0),
  getScriptSnapshot: (f) => {
    const t = texts.get(f) ?? (fs.existsSync(f) ? fs.readFileSync(f, "utf8") : undefined);
    return t === undefined ? undefined : ts.ScriptSnapshot.fromString(t);
  },
  getCurrentDirectory: () => work,
  getCompilationSettings: () => ({ strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, lib: ["lib.es2022.d.ts", "lib.dom.d.ts"], types: [] }),
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: (f) => texts.has(f) || fs.existsSync(f),
  readFile: (f) => texts.get(f) ?? fs.readFileSync(f, "utf8"),
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const ls = ts.createLanguageService(host, ts.createDocumentRegistry());
const fmt = ts.getDefaultFormatCodeSettings();
fmt.indentSize = 2; fmt.tabSize = 2; fmt.convertTabsToSpaces = true;
const prefs = { quotePreference: "double" };
function apply(fixId) {
  for (const f of abs) {
    for (let round = 0; round < 3; round++) {
      const res = ls.getCombinedCodeFix({ type: "file", fileName: f }, fixId, fmt, prefs);
      const ch = res.changes.filter((c) => c.fileName === f).flatMap((c) => c.textChanges);
      if (!ch.length) break;
      let t = texts.get(f);
      for (const c of [...ch].sort((a, b) => b.span.start - a.span.start)) t = t.slice(0, c.span.start) + c.newText + t.slice(c.span.start + c.span.length);
      texts.set(f, t);
      versions.set(f, (versions.get(f) ?? 0) + 1);
    }
  }
}
apply("convertTypedefToType");
apply("annotateWithTypeFromJSDoc");
for (const f of abs) {
  const sf = ts.createSourceFile(f, texts.get(f), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const ins = [];
  for (const st of sf.statements) {
    if ((ts.isTypeAliasDeclaration(st) || ts.isInterfaceDeclaration(st)) && !st.modifiers?.length) ins.push({ p: st.getStart(sf), t: "export " });
    if (ts.isInterfaceDeclaration(st) && !st.heritageClauses) {
      // a JSDoc typedef is a type alias (implicit index signature): keep it one
      const kw = st.getStart(sf);
      const nameEnd = st.typeParameters ? st.typeParameters.end + 1 : st.name.end;
      ins.push({ p: kw, e: kw + "interface".length, t: "type" });
      ins.push({ p: nameEnd, t: " =" });
      ins.push({ p: st.end, t: ";" });
    }
  }
  let t = texts.get(f);
  for (const x of ins.sort((a, b) => b.p - a.p || (b.e ?? 0) - (a.e ?? 0))) t = t.slice(0, x.p) + x.t + t.slice(x.e ?? x.p);
  texts.set(f, t);
}
for (const f of abs) writeFileSync(back.get(f), texts.get(f));
rmSync(work, { recursive: true, force: true });
rmSync(jsDir, { recursive: true, force: true });
console.log(`jsdoc-to-ts: ${abs.length} file(s) converted; now build (tsc reports what needs a hand)`);
