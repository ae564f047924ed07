// The inspector with large transcripts (docs/decisions/inspector-large-transcripts.md): the time
// from choosing a file to the first
// task rows in the table, and to the whole file read and drawn, for seeded 5 MB and 50 MB
// 2025-11-25 transcripts (bench/inspector-transcript.mjs), in headless Chromium (Debian's
// /usr/bin/chromium through playwright-core, as the browser tests), each run a fresh page. Also
// the longest task on the page's main thread while the file is read (PerformanceObserver
// "longtask": how long the page could not answer the user at worst).
//
//   node bench/inspector.mjs [--json OUT.json]
//   env: INSPECTOR_SIZES (default 5000000,50000000), INSPECTOR_RUNS (default 3), INSPECTOR_SEED (1)
//
// The transcripts are written to bench/results/inspector/ (git-ignored), never committed.
import { mkdirSync, writeFileSync, statSync, openSync, writeSync, closeSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { execSync } from "node:child_process";
import { lines } from "./inspector-transcript.mjs";
import { launchChromium } from "../tests/browser/chromium.mjs";
import { startServer, ROOT } from "../scripts/serve.mjs";

const args = process.argv.slice(2);
const jsonOut = args.includes("--json") ? args[args.indexOf("--json") + 1] : null;
const SIZES = (process.env.INSPECTOR_SIZES ?? "5000000,50000000").split(",").map(Number);
const RUNS = Number(process.env.INSPECTOR_RUNS ?? 3);
const SEED = Number(process.env.INSPECTOR_SEED ?? 1);
const DIR = new URL("results/inspector/", import.meta.url);
mkdirSync(DIR, { recursive: true });

function write(bytes) {
  const file = new URL(`transcript-${bytes}-${SEED}.jsonl`, DIR).pathname;
  const fd = openSync(file, "w");
  let n = 0;
  let chunk = [];
  for (const line of lines({ bytes, seed: SEED })) {
    chunk.push(line);
    n++;
    if (chunk.length >= 4096) {
      writeSync(fd, `${chunk.join("\n")}\n`);
      chunk = [];
    }
  }
  if (chunk.length) writeSync(fd, `${chunk.join("\n")}\n`);
  closeSync(fd);
  return { file, bytes: statSync(file).size, lines: n };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await startServer({ port: 0 });
const browser = await launchChromium();
const chromiumVersion = browser.version();
const loadStart = loadavg();
const results = [];
try {
  for (const size of SIZES) {
    const t = write(size);
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(`${server.url}www/`);
      await page.waitForSelector("#app[data-ready=true]", { timeout: 60_000 });
      await page.evaluate(() => {
        window.__long = [];
        new PerformanceObserver((l) => window.__long.push(...l.getEntries().map((e) => [e.startTime, e.duration]))).observe({ type: "longtask" });
        window.__t0 = performance.now();
      });
      await page.setInputFiles("#file", t.file);
      await page.waitForSelector("#results[data-done=true]", { timeout: 900_000 });
      const r = await page.evaluate(() => {
        const res = document.getElementById("results");
        return {
          firstMs: Number(res.dataset.firstMs),
          doneMs: Number(res.dataset.doneMs),
          tasks: Number(document.getElementById("task-grid").dataset.rows),
          rowsDrawn: document.querySelectorAll("#task-grid .vt-space .vt-row").length,
          elements: document.getElementsByTagName("*").length,
          longestTaskMs: Math.max(0, ...window.__long.map((l) => l[1])),
          // Long tasks after the first rows were drawn (while the rest of the file was read).
          longestAfterFirstMs: Math.max(0, ...window.__long.filter((l) => l[0] - window.__t0 > Number(res.dataset.firstMs)).map((l) => l[1])),
          status: document.getElementById("status").textContent,
        };
      });
      if (errors.length) throw new Error(`page errors: ${errors.join("; ")}`);
      runs.push(r);
      process.stdout.write(`${(t.bytes / 1e6).toFixed(1)} MB run ${i + 1}: first rows ${r.firstMs} ms, all ${r.doneMs} ms, longest main-thread task ${r.longestTaskMs.toFixed(0)} ms (after the first rows: ${r.longestAfterFirstMs.toFixed(0)} ms), ${r.tasks} tasks, ${r.elements} elements (${r.status})\n`);
      await page.close();
    }
    results.push({
      bytes: t.bytes, lines: t.lines, command: `node bench/inspector-transcript.mjs t.jsonl ${size} ${SEED}`,
      tasks: runs[0].tasks, elements: median(runs.map((r) => r.elements)), rowsDrawn: runs[0].rowsDrawn,
      firstMs: runs.map((r) => r.firstMs), doneMs: runs.map((r) => r.doneMs), longestTaskMs: runs.map((r) => r.longestTaskMs),
      longestAfterFirstMs: runs.map((r) => r.longestAfterFirstMs),
      medianFirstMs: median(runs.map((r) => r.firstMs)), medianDoneMs: median(runs.map((r) => r.doneMs)), medianLongestTaskMs: median(runs.map((r) => r.longestTaskMs)),
      medianLongestAfterFirstMs: median(runs.map((r) => r.longestAfterFirstMs)),
    });
  }
} finally {
  await browser.close();
  await server.close();
}
const sh = (c) => {
  try {
    return execSync(c, { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    return "";
  }
};
const out = {
  date: new Date().toISOString(), nproc: cpus().length, cpu: cpus()[0]?.model ?? "", node: process.version, chromium: chromiumVersion,
  gitHead: sh("git rev-parse --short HEAD"), runs: RUNS, seed: SEED, loadStart, loadEnd: loadavg(), results,
};
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(out, null, 2));
