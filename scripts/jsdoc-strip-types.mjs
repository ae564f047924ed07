// node scripts/jsdoc-strip-types.mjs [js/…/FILE.ts...]   (default: every helper in js/)
//
// After scripts/jsdoc-to-ts.mjs: takes the JSDoc types the TypeScript annotations now carry out of
// the comments, in place, comments only: `@param {T} name desc` → `@param name desc`, `@returns {T}
// desc` → `@returns desc`, `@type {T}` dropped (its prose kept; a comment left empty goes, with its
// line), `@template {C} [S=D]` → `@template [S=D]`, `@callback`/`@typedef`/`@property` leftovers
// dropped; a tag left without a description is dropped (a `@param` whose `name.x` members are
// documented stays). `@throws {E}` and `@implements {I}` are left as they are. Check afterwards
// that the code is unchanged: every file prints the same without comments (TypeScript's printer).
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { execSync } from "node:child_process";
import { fileURLToPath } from "node:url";
const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const ts = createRequire(ROOT + "/node_modules/typescript/package.json")("typescript");
const files = process.argv.length > 2
  ? process.argv.slice(2).map((f) => path.relative(ROOT, path.resolve(f)))
  : execSync("git ls-files 'js/*.ts' 'js/*.mts' 'js/**/*.ts'", { cwd: ROOT, encoding: "utf8" }).trim().split("\n");
const TAGS = "param|arg|argument|returns|return|type|template|this|typedef|callback|property|prop|satisfies";
const log = [];

function stripBraces(c) {
  // `@tag {T}` -> `@tag ` (braces matched), for the tags whose type TS now carries
  const re = new RegExp(`@(${TAGS})\\b(\\s*)\\{`, "g");
  let out = "", last = 0, m;
  while ((m = re.exec(c))) {
    let i = m.index + m[0].length, depth = 1;
    while (i < c.length && depth) { if (c[i] === "{") depth++; else if (c[i] === "}") depth--; i++; }
    if (depth) throw new Error("unbalanced " + c);
    let j = i; while (c[j] === " ") j++;
    out += c.slice(last, m.index) + "@" + m[1] + (/^[\n*\/]/.test(c.slice(j)) || j >= c.length ? "" : " ");
    last = j; re.lastIndex = j;
  }
  return out + c.slice(last);
}

function processComment(c) {
  // returns the new comment text ("" = remove), or c unchanged
  if (!new RegExp(`@(${TAGS})\\b`).test(c)) return c;
  const multi = c.includes("\n");
  const inner = c.slice(3, -2);
  let lines = inner.split("\n");
  let indent = "";
  if (multi) {
    const mid = lines.slice(1).map((l) => l.match(/^(\s*)\*/)).find(Boolean);
    indent = mid ? mid[1].replace(/ $/, "") : "";
    lines = lines.map((l, i) => (i === 0 ? l : l.replace(/^\s*\* ?/, "")).replace(/\s+$/, ""));
    if (lines[0].trim() === "") lines.shift(); else lines[0] = lines[0].replace(/^\s+/, "");
    while (lines.length && lines[lines.length - 1].trim() === "") lines.pop();
  } else lines = [inner.trim()];
  // pieces: split at tags (preceded by start or whitespace); remember if a piece starts a line
  const pieces = [];
  const tagRe = new RegExp(`(^|\\s)(?=@(${TAGS}|throws|see|example|deprecated|default|implements|link)\\b)`, "g");
  lines.forEach((line) => {
    let idx = 0, first = true, m; tagRe.lastIndex = 0;
    const starts = [];
    while ((m = tagRe.exec(line))) { const s = m.index + m[1].length; if (s > 0) starts.push(s); if (tagRe.lastIndex === m.index) tagRe.lastIndex++; }
    for (const s of [...starts, line.length]) {
      const part = line.slice(idx, s).trimEnd();
      if (part || first) pieces.push({ text: part, bol: first, cont: false });
      first = false; idx = s;
    }
  });
  // continuation lines (not starting with a tag) belong to the previous piece
  const merged = [];
  for (const p of pieces) {
    const isTag = /^@\w/.test(p.text);
    if (p.bol && !isTag && merged.length && /^@\w/.test(merged[merged.length - 1].text) && p.text.trim() !== "") { merged[merged.length - 1].text += "\n" + p.text; continue; }
    merged.push({ ...p });
  }
  const names = merged.map((p) => stripBraces(p.text).match(/^@(param|arg|argument)\s+\[?([\w$.]+)/)?.[2]).filter(Boolean);
  const keep = [];
  for (const p0 of merged) {
    let p = { ...p0, text: stripBraces(p0.text) };
    const m = p.text.match(/^@(\w+)\s*([\s\S]*)$/);
    if (m && new RegExp(`^(${TAGS})$`).test(m[1])) {
      const [, tag, rest] = m;
      const words = rest.trim().split(/\s+/).filter(Boolean);
      if (tag === "type" || tag === "this") { if (!rest.trim()) continue; p.text = rest.trim(); }
      else if (tag === "typedef" || tag === "callback" || tag === "property" || tag === "prop") { continue; }
      else if (tag === "returns" || tag === "return") { if (!rest.trim()) continue; }
      else if (tag === "template") { if (words.length <= 1) continue; }
      else if (tag === "param" || tag === "arg" || tag === "argument") {
        if (words.length <= 1) { const n = words[0]?.replace(/^\[|\]$/g, "").replace(/=.*/, ""); if (!names.some((x) => x.startsWith(n + "."))) continue; }
      }
    }
    keep.push(p);
  }
  // re-render
  const body = [];
  for (const p of keep) {
    if (p.text === "" && !p.bol) continue;
    if (body.length === 0 || p.bol || (multi && /^@\w/.test(p.text))) body.push(p.text); else body[body.length - 1] += " " + p.text;
  }
  const text = body.join("\n").split("\n").map((l) => l.replace(/\s+$/, ""));
  while (text.length && !text[0].trim()) text.shift();
  while (text.length && !text[text.length - 1].trim()) text.pop();
  if (!text.length) return "";
  if (!multi) return `/** ${text.join(" ")} */`;
  if (text.length === 1 && indent.length + text[0].length + 7 <= 100) return `/** ${text[0]} */`;
  return `/**\n${text.map((l) => `${indent} *${l ? " " + l : ""}`).join("\n")}\n${indent} */`;
}

let total = 0;
for (const f of files) {
  const text = fs.readFileSync(ROOT + "/" + f, "utf8");
  const sf = ts.createSourceFile(f, text, 99, true, f.endsWith(".mts") ? ts.ScriptKind.TS : ts.ScriptKind.TS);
  const ranges = new Map();
  const add = (rs) => (rs ?? []).forEach((r) => { if (text.startsWith("/**", r.pos) && !text.startsWith("/**/", r.pos)) ranges.set(r.pos, r.end); });
  const visit = (n) => { add(ts.getLeadingCommentRanges(text, n.pos)); add(ts.getTrailingCommentRanges(text, n.end)); n.getChildren(sf).forEach(visit); };
  visit(sf);
  const count = (text.match(/\/\*\*(?!\/)/g) ?? []).length;
  if (count !== ranges.size) log.push(`${f}: ${count} '/**' in text, ${ranges.size} comments found`);
  let out = text;
  for (const [pos, end] of [...ranges].sort((a, b) => b[0] - a[0])) {
    const c = text.slice(pos, end);
    const n = processComment(c);
    if (n === c) continue;
    total++;
    if (n) { out = out.slice(0, pos) + n + out.slice(end); continue; }
    const ls = out.lastIndexOf("\n", pos - 1) + 1;
    let le = out.indexOf("\n", end); if (le < 0) le = out.length;
    if (/^[ \t]*$/.test(out.slice(ls, pos)) && /^[ \t]*$/.test(out.slice(end, le))) out = out.slice(0, ls) + out.slice(le + 1);
    else { let e = end; while (out[e] === " ") e++; out = out.slice(0, pos) + out.slice(e); }
  }
  if (out !== text) fs.writeFileSync(ROOT + "/" + f, out);
}
log.push(`${total} comments changed`);
console.log(log.join("\n"));
