#!/usr/bin/env node
// Writes the package's README (PKG/README.md), the page the npm registry shows, from the
// repository's README.md (scripts/build.sh runs it once PKG holds every file it ships):
//
// - install first: the "## Quick start" section (npm install, the first examples) comes right
//   after the title; the repository's opening (the commands of a checkout) follows as "## From a
//   checkout of the repository";
// - no relative link: the registry page has no repository to resolve them against (the project
//   has no public URL, so none is invented). A link or picture to a file the package ships (the
//   guides, docs/guides/*.md, ship for this) becomes https://unpkg.com/NAME@VERSION/FILE (that
//   version's copy); a link to a file it does not ship
//   becomes its text; a picture it does not ship becomes its description, in italics. In-page
//   anchors (#bundlers) stay. Code blocks and code spans are never touched.
//
// tests/js/registry-readme.test.mjs checks the packed README. Usage:
//   node scripts/registry-readme.mjs README.md PKG
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, normalize } from "node:path";

const [source, pkgDir] = process.argv.slice(2);
if (!source || !pkgDir) {
  console.error("usage: node scripts/registry-readme.mjs README.md PKG");
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
const base = `https://unpkg.com/${manifest.name}@${manifest.version}/`;

/** Whether `path` (relative to the package root) is a file `npm pack` ships: it is in PKG and named by `files`. */
function shipped(path) {
  const p = normalize(path).replace(/^\.\//, "");
  if (p.startsWith("..") || !existsSync(join(pkgDir, p)) || !statSync(join(pkgDir, p)).isFile()) return false;
  if (["package.json", "README.md"].includes(p) || /^LICEN[CS]E/i.test(p)) return true;
  return (manifest.files ?? []).some((f) => {
    const entry = f.replace(/^\.\//, "").replace(/\/$/, "");
    return p === entry || p.startsWith(`${entry}/`);
  });
}

/** @param {string} target @returns {"keep" | string | null} the new URL, "keep", or null (not shipped) */
function rewrite(target) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#")) return "keep";
  const [path, hash = ""] = target.split(/(?=#)/);
  return shipped(decodeURI(path)) ? `${base}${path.replace(/^\.\//, "")}${hash}` : null;
}

/** Rewrites the links of one line of prose; code spans are untouched (a link's text may hold one). @param {string} line */
function proseLine(line) {
  /** @type {string[]} */
  const spans = [];
  const masked = line.replace(/(`+)[^`]*?\1/g, (span) => `\u0000${spans.push(span) - 1}\u0000`);
  return masked
    .replace(/<img\s[^>]*?src="([^"]+)"[^>]*>/g, (tag, src) => {
      const to = rewrite(src);
      if (to === "keep") return tag;
      if (to !== null) return tag.replace(`src="${src}"`, `src="${to}"`);
      const alt = tag.match(/alt="([^"]*)"/)?.[1] ?? "a picture";
      return `*(Picture in the repository, not in the package: ${alt}.)*`;
    })
    .replace(/<a\s[^>]*?href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/g, (tag, href, text) => {
      const to = rewrite(href);
      return to === "keep" ? tag : to !== null ? tag.replace(`href="${href}"`, `href="${to}"`) : text;
    })
    .replace(/(!?)\[((?:[^\][]|\[[^\]]*\])*)\]\(([^)\s]+)\)/g, (link, bang, text, target) => {
      const to = rewrite(target);
      if (to === "keep") return link;
      if (to !== null) return `${bang}[${text}](${to})`;
      return bang ? `*(Picture in the repository, not in the package: ${text}.)*` : text;
    })
    .replace(/\u0000(\d+)\u0000/g, (_, i) => spans[Number(i)]);
}

/** Rewrites every line outside fenced code blocks. @param {string} text */
function links(text) {
  let fence = null;
  return text
    .split("\n")
    .map((line) => {
      const m = line.match(/^(```+|~~~+)/);
      if (m && (fence === null || line.startsWith(fence))) {
        fence = fence === null ? m[1] : null;
        return line;
      }
      return fence === null ? proseLine(line) : line;
    })
    .join("\n");
}

/** Moves "## Quick start" first (after the title); the opening follows it under its own heading. @param {string} text */
function installFirst(text) {
  const sections = text.split(/\n(?=## )/);
  const head = sections[0];
  const use = sections.findIndex((s) => /^## Quick start\b/.test(s));
  const titleEnd = head.indexOf("\n");
  if (!head.startsWith("# ") || use < 1 || titleEnd < 0) {
    throw new Error("registry-readme: README.md must start with its `# ` title and have a `## Quick start` section");
  }
  const title = head.slice(0, titleEnd);
  const opening = head.slice(titleEnd + 1).trim();
  const rest = sections.filter((_, i) => i !== 0 && i !== use);
  return [
    `${title}\n`,
    sections[use].trimEnd() + "\n",
    opening ? `## From a checkout of the repository\n\n${opening}\n` : null,
    ...rest,
  ]
    .filter((s) => s !== null)
    .join("\n");
}

const out = links(installFirst(readFileSync(source, "utf8")));
writeFileSync(join(pkgDir, "README.md"), out);
