// The `mcp-tasks` CLI (pkg/cli.mjs) on a large transcript: wall time, peak memory (maximum
// resident set size) and output shape, text and --json; with CLI_BEFORE, the CLI of another
// revision on the same file, in the same runs.
//
//   node bench/cli.mjs [--json bench/results/cli.json]
//   env CLI_BYTES    transcript size in bytes (default 50000000)
//       CLI_TASKS    tasks followed by the transcript (default 100)
//       CLI_RUNS     runs per command (default 3; the median is reported)
//       CLI_BEFORE   a git revision whose CLI (js/cli.mjs) runs next to this one (default: none)
//
// The transcript: bench/cli-transcript.mjs (healthy 2025-11-25 traffic: CLI_TASKS tasks created,
// then polled with tasks/get in rounds, then completed and their results fetched), written to a
// temporary directory and removed at the end. Every command is a fresh `node` process with its
// stdout going to a file (so the output's size and longest line are measured); the peak memory
// is GNU time's "Maximum resident set size" (`/usr/bin/time -v`), or, without it, the highest
// VmHWM read from /proc/<pid>/status every 10 ms (a sampling that can miss the very end).
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir, loadavg, cpus } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeTranscript } from "./cli-transcript.mjs";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(REPO, "pkg/cli.mjs");
const BYTES = Number(process.env.CLI_BYTES ?? 50_000_000);
const TASKS = Number(process.env.CLI_TASKS ?? 100);
const RUNS = Math.max(1, Number(process.env.CLI_RUNS ?? 3));
const BEFORE = process.env.CLI_BEFORE ?? "";
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;

const jsonOut = (() => {
  const i = process.argv.indexOf("--json");
  return i >= 0 ? process.argv[i + 1] : null;
})();

if (!existsSync(CLI)) {
  console.error("bench/cli: pkg/cli.mjs is missing: run bash scripts/build.sh");
  process.exit(1);
}

/** The size of a file's longest line (bytes), read in chunks. */
function longestLine(path) {
  const fd = openSync(path, "r");
  const buf = Buffer.allocUnsafe(1 << 20);
  let longest = 0;
  let cur = 0;
  let lines = 0;
  try {
    for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0; ) {
      let start = 0;
      for (let nl = buf.indexOf(10, start); nl !== -1 && nl < n; nl = buf.indexOf(10, start)) {
        longest = Math.max(longest, cur + nl - start);
        cur = 0;
        lines++;
        start = nl + 1;
      }
      cur += n - start;
    }
  } finally {
    closeSync(fd);
  }
  return { longest: Math.max(longest, cur), lines: lines + (cur > 0 ? 1 : 0) };
}

/** Runs `node ARGS` once with stdout into `outFile`: { ms, rssKB, code }. */
async function measure(args, outFile) {
  const fd = openSync(outFile, "w");
  try {
    const t0 = performance.now();
    if (TIME) {
      const r = spawnSync(TIME, ["-v", process.execPath, ...args], { stdio: ["ignore", fd, "pipe"], encoding: "utf8", maxBuffer: 16 << 20 });
      const ms = performance.now() - t0;
      const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
      if (!m) throw new Error(`no maximum RSS in the output of /usr/bin/time -v:\n${r.stderr.slice(-2000)}`);
      // GNU time reports the command's exit status as its own.
      return { ms, rssKB: Number(m[1]), code: r.status };
    }
    const child = spawn(process.execPath, args, { stdio: ["ignore", fd, "inherit"] });
    let hwm = 0;
    const sample = () => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (m) hwm = Math.max(hwm, Number(m[1]));
      } catch {
        // exited
      }
    };
    const timer = setInterval(sample, 10);
    const code = await new Promise((res) => child.on("exit", (c) => res(c)));
    clearInterval(timer);
    return { ms: performance.now() - t0, rssKB: hwm, code };
  } finally {
    closeSync(fd);
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const dir = mkdtempSync(join(tmpdir(), "mcp-tasks-bench-cli-"));
try {
  const transcript = join(dir, "traffic.jsonl");
  const gen = writeTranscript(transcript, { bytes: BYTES, tasks: TASKS });
  console.log(`bench/cli: ${transcript}: ${gen.bytes.toLocaleString("en-US")} bytes, ${gen.lines.toLocaleString("en-US")} lines, ${gen.tasks} tasks, ${gen.polls.toLocaleString("en-US")} polls`);

  // The CLI before streaming, from git, importing the built package's node.mjs.
  let before = null;
  if (BEFORE) {
    const src = spawnSync("git", ["show", `${BEFORE}:js/cli.mjs`], { cwd: REPO, encoding: "utf8" });
    if (src.status === 0) {
      before = join(dir, "cli-before.mjs");
      writeFileSync(before, src.stdout.replace(/from "\.\/node\.mjs"/, `from ${JSON.stringify(pathToFileURL(join(REPO, "pkg/node.mjs")).href)}`));
    } else {
      console.log(`bench/cli: no js/cli.mjs at ${BEFORE}: the before-streaming CLI is not measured`);
    }
  }
  const commands = [
    { id: "text", who: "ours", args: [CLI, "check", transcript], shown: "node pkg/cli.mjs check traffic.jsonl" },
    { id: "json", who: "ours", args: [CLI, "check", "--json", transcript], shown: "node pkg/cli.mjs check --json traffic.jsonl" },
    { id: "quiet", who: "ours", args: [CLI, "check", "--quiet", transcript], shown: "node pkg/cli.mjs check --quiet traffic.jsonl" },
  ];
  if (before) {
    commands.push(
      { id: "before-text", who: "before", args: [before, "check", transcript], shown: `node cli.mjs@${BEFORE} check traffic.jsonl` },
      { id: "before-json", who: "before", args: [before, "check", "--json", transcript], shown: `node cli.mjs@${BEFORE} check --json traffic.jsonl` },
    );
  }
  const loadStart = loadavg();
  const results = {};
  for (const c of commands) results[c.id] = { ...c, args: undefined, ms: [], rssKB: [], codes: [] };
  for (let run = 0; run < RUNS; run++) {
    // Interleaved, run by run, so that a change of load hits every command alike.
    for (const c of commands) {
      const out = join(dir, `${c.id}.out`);
      const m = await measure(c.args, out);
      const r = results[c.id];
      r.ms.push(m.ms);
      r.rssKB.push(m.rssKB);
      r.codes.push(m.code);
      if (run === 0) {
        const { longest, lines } = longestLine(out);
        r.outBytes = statSync(out).size;
        r.outLines = lines;
        r.longestLine = longest;
      }
      rmSync(out, { force: true });
    }
  }
  for (const r of Object.values(results)) {
    r.medianMs = median(r.ms);
    r.medianRssKB = median(r.rssKB);
    console.log(
      `${r.id.padEnd(12)} ${(r.medianMs / 1000).toFixed(2).padStart(6)} s  max RSS ${(r.medianRssKB / 1024).toFixed(0).padStart(5)} MiB  ` +
        `exit ${[...new Set(r.codes)].join("/")}  output ${r.outBytes.toLocaleString("en-US")} bytes in ${r.outLines.toLocaleString("en-US")} lines, longest ${r.longestLine.toLocaleString("en-US")}  (${r.shown})`,
    );
  }
  const doc = {
    date: new Date().toISOString(),
    node: process.version,
    nproc: cpus().length,
    cpu: cpus()[0]?.model ?? "",
    loadStart,
    loadEnd: loadavg(),
    runs: RUNS,
    memoryBy: TIME ? "/usr/bin/time -v" : "/proc VmHWM sampling",
    before: before ? BEFORE : null,
    transcript: { ...gen, command: `node bench/cli-transcript.mjs traffic.jsonl ${BYTES} ${TASKS}` },
    results,
  };
  if (jsonOut) {
    mkdirSync(dirname(jsonOut), { recursive: true });
    writeFileSync(jsonOut, JSON.stringify(doc, null, 2));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
