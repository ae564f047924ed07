// Writes BENCHMARKS.md from the JSON results of bench/run.sh.
//   node bench/report.mjs bench/results BENCHMARKS.md [all|MODE]
// The file: a header (contents and the Targets table, rebuilt on every run from the sections as
// they stand), then one section per benchmark, end-to-end ones first, each after its mark line
// `<!-- section NAME … -->`. A mode other than `all` rewrites the sections of that mode and keeps
// the others as they are; a section whose results are missing is kept too. The Targets table
// gathers the rows of each section's own "| target | status | current figure |" table, so a
// status is always that of the figures printed in its section.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { browserAppSection } from "./browser-app-report.mjs";
import { cliSection } from "./cli-report.mjs";
import { politenessSection, schedulerSection } from "./client-report.mjs";
import { hostileSection } from "./hostile-report.mjs";
import { inspectorSection } from "./inspector-report.mjs";
import { pushSection } from "./push-report.mjs";
import { commandAndMachine } from "./report-lib.mjs";
import { serverSection } from "./server-report.mjs";
import { sizeSection } from "./size-section.mjs";
import { storageSection } from "./storage-report.mjs";
import { storeSection } from "./store-report.mjs";
import { coldStartSection, validatorSection } from "./validator-report.mjs";

const [dir, outFile, mode = "all"] = process.argv.slice(2);
const load = (f) => (existsSync(resolve(dir, f)) ? JSON.parse(readFileSync(resolve(dir, f), "utf8")) : null);
// Every file, or null when one is missing; a name starting with "?" is optional (null if absent).
const loadAll = (...files) => {
  const all = files.map((f) => load(f.replace(/^\?/, "")));
  return all.every((x, i) => x || files[i].startsWith("?")) ? all : null;
};

// In file order. name: the mark's name; title: the heading while it has no figures; mode: the bench/run.sh mode that measures it; make: its
// lines from the results, or null when they are missing.
const SECTIONS = [
  { name: "server", title: "HTTP server: ours against the SDK's", group: "end", mode: "server", make: () => {
    const [server, storage] = ["server.json", "server-storage.json"].map(load);
    return server || storage ? serverSection({ server, storage }) : null;
  } },
  { name: "push", title: "Push against polling", group: "end", mode: "push", make: () => {
    const push = load("push.json");
    return push && pushSection({ push });
  } },
  { name: "politeness", title: "Task client: politeness against the SDK", group: "end", mode: "client", make: () => {
    const r = loadAll("client-meta.json", "?scheduler.json", "politeness.json");
    return r && politenessSection({ meta: r[0], sched: r[1], pol: r[2] });
  } },
  { name: "browser-app", title: "Browser app: what a page downloads", group: "end", mode: "browser", make: () => {
    const r = loadAll("browser-meta.json", "browser-app.json");
    return r && browserAppSection({ meta: r[0], app: r[1] });
  } },
  { name: "cold-start", title: "Cold start (Node)", group: "end", mode: "validator", make: () => {
    const r = loadAll("meta.json", "cold-start.json");
    return r && coldStartSection({ meta: r[0], cold: r[1] });
  } },
  { name: "validator", title: "Validator: `validateMessage` against zod and ajv", group: "parts", mode: "validator", make: () => {
    const r = loadAll("meta.json", "validate.json", "?profile.json", "?cpu-profile.json");
    return r && validatorSection({ meta: r[0], val: r[1], prof: r[2], cpu: r[3] });
  } },
  { name: "store", title: "Task store: our `TaskStore` against the SDK's `InMemoryTaskStore`", group: "parts", mode: "store", make: () => {
    const r = loadAll("store-meta.json", "store.json", "store-memory.json", "?store-profile.json");
    return r && storeSection({ meta: r[0], store: r[1], mem: r[2], prof: r[3] });
  } },
  { name: "scheduler", title: "Task scheduler", group: "parts", mode: "client", make: () => {
    const r = loadAll("client-meta.json", "scheduler.json", "?politeness.json");
    return r && schedulerSection({ meta: r[0], sched: r[1], pol: r[2] });
  } },
  { name: "storage", title: "Storage adapters: each next to its engine's own round trip", group: "parts", mode: "storage", make: () => {
    const st = load("storage.json");
    return st && storageSection({ st });
  } },
  { name: "hostile", title: "Hostile input: bounded memory, refusals before any copy", group: "parts", mode: "hostile", make: () => {
    const r = loadAll("hostile-meta.json", "hostile.json");
    return r && hostileSection({ meta: r[0], hostile: r[1] });
  } },
  { name: "cli", title: "CLI: `mcp-tasks check`", group: "parts", mode: "cli", make: () => {
    const cli = load("cli.json");
    return cli && cliSection({ cli });
  } },
  { name: "inspector", title: "Inspector: large transcripts in Chromium", group: "parts", mode: "inspector", make: () => {
    const inspector = load("inspector.json");
    return inspector && inspectorSection({ inspector });
  } },
  { name: "size", title: "Size", group: "parts", mode: "validator", make: () => {
    const r = loadAll("meta.json", "size.json");
    if (!r) return null;
    const [meta] = r;
    // The subsections' scripts rebuild the crate (minutes) and are not part of bench/run.sh: their
    // results count only when written after the package measured here was built.
    const fresh = (f) => (existsSync(resolve(dir, f)) && statSync(resolve(dir, f)).mtimeMs >= Date.parse(meta.pkgBuilt) ? load(f) : null);
    const machine = commandAndMachine({ command: "bash bench/run.sh validator", runs: "`node bench/size.mjs`; run `bash bench/size-profile.sh` and `bash bench/size-variants.sh` first for the subsections", date: meta.date, loads: [meta.loadStart, meta.loadEnd ?? meta.loadStart], node: meta.node, nproc: meta.nproc, cpu: meta.cpu });
    return sizeSection(r[1], fresh("size-profile.json"), fresh("size-variants.json"), machine);
  } },
];
const mark = (s) => `<!-- section ${s.name}: written by bench/report.mjs from \`bash bench/run.sh ${s.mode}\` -->`;

// The sections as the file holds them now, by name (any order).
/** @type {Map<string, string>} */
const previous = new Map();
const old = existsSync(outFile) ? readFileSync(outFile, "utf8") : "";
const marks = [...old.matchAll(/^<!-- section ([\w-]+):.*-->$/gm)];
marks.forEach((m, i) => previous.set(m[1], old.slice(m.index + m[0].length, marks[i + 1]?.index ?? old.length).trim()));

const texts = SECTIONS.map((s) => {
  const fresh = mode === "all" || mode === s.mode ? s.make() : null;
  const text = fresh ? fresh.join("\n").trim() : previous.get(s.name);
  return { ...s, text: text || `## ${s.title}\n\nNot measured yet: \`bash bench/run.sh ${s.mode}\`.` };
});

// GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens.
const heading = (t) => t.match(/^## (.*)$/m)?.[1] ?? "";
const anchor = (h) => `#${h.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-")}`;
const plain = (h) => h.replace(/`/g, "");

const H = [];
H.push("# Benchmarks");
H.push("");
H.push("Generated by `bash bench/run.sh` (all sections, about 25 minutes) or `bash bench/run.sh MODE` (the sections of one mode; the others are kept); do not edit by hand. Raw results: `bench/results/*.json` (git-ignored).");
H.push("Each section says what it measures, the command, the machine (date, 1-minute load at its start and end, Node, cores) and the current figures. Ratios are ours ÷ theirs, measured in the same run.");
H.push("");
H.push("## Contents");
H.push("");
for (const [group, title] of [["end", "End to end"], ["parts", "Components"]]) {
  H.push(`- ${title}:`);
  for (const s of texts.filter((x) => x.group === group)) H.push(`  - [${plain(heading(s.text))}](${anchor(heading(s.text))})`);
}
H.push("- [Targets](#targets)");
H.push("");
H.push("## Targets");
H.push("");
/** The Targets rows, each linking to its section through `base` (the file's own anchors: ""). */
const targets = (base) => {
  const rows = ["| target | status | current figure | section |", "|---|---|---|---|"];
  for (const s of texts) {
    let inTable = false;
    for (const line of s.text.split("\n")) {
      if (line === "| target | status | current figure |") inTable = true;
      else if (!line.startsWith("|")) inTable = false;
      else if (inTable && !line.startsWith("|---")) {
        rows.push(`${line} [${plain(heading(s.text)).replace(/:.*/, "")}](${base}${anchor(heading(s.text))}) |`);
      }
    }
  }
  return rows;
};
H.push(...targets(""));
H.push("");

writeFileSync(outFile, `${H.join("\n")}\n${texts.map((s) => `${mark(s)}\n\n${s.text}\n`).join("\n")}`);

// docs/guides/figures.md (shipped in the package, linked from the README): the same Targets rows,
// written from the same sections, so the guide never holds figures of its own.
const GUIDE = resolve(dirname(fileURLToPath(import.meta.url)), "../docs/guides/figures.md");
writeFileSync(GUIDE, [
  "# Figures",
  "",
  "Written by `bench/report.mjs` with [BENCHMARKS.md](../../BENCHMARKS.md), from the same run (do not edit by hand): each of the",
  "project's targets, its status and the current figure. The tables, the commands and the machine of each",
  "measurement are in the section the row links to.",
  "",
  ...targets("../../BENCHMARKS.md"),
  "",
].join("\n"));
