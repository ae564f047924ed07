// The `mcp-tasks` CLI of the packed package as a user installs it (scripts/pack.sh: npm pack +
// npm install into tests/js/.tmp/install; bin mcp-tasks → cli.mjs), on the sample transcripts
// shipped with it and on generated ones. $MCP_TASKS_PKG_DIR points the tests at another package
// directory (e.g. pkg/).
//
//   bash scripts/build.sh && bash scripts/pack.sh && node --test tests/js/cli.test.mjs
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { join, resolve } from "node:path";
import { writeTranscript } from "../../bench/cli-transcript.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const installed = join(here, ".tmp/install/node_modules/mcp-tasks-wasm");
const pkgDir = resolve(process.env.MCP_TASKS_PKG_DIR ?? installed);
const cli = join(pkgDir, "cli.mjs");
if (!existsSync(cli)) {
  throw new Error(`${cli} is missing: run \`bash scripts/build.sh && bash scripts/pack.sh\` (or set MCP_TASKS_PKG_DIR)`);
}
const pkgVersion = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")).version;
// The samples as packaged; the repository's copy when the package has none.
const sampleDir = existsSync(join(pkgDir, "samples")) ? join(pkgDir, "samples") : join(here, "../../samples");
const sample = (name) => join(sampleDir, name);

const tmp = mkdtempSync(join(tmpdir(), "mcp-tasks-cli-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const file = (name, text) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

function run(args, input, nodeArgs = []) {
  const r = spawnSync(process.execPath, [...nodeArgs, cli, ...args], { input, encoding: "utf8", maxBuffer: 64 << 20 });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** `check --json ARGS`: every stdout line parsed (each must be JSON). */
function runJson(args, input) {
  const r = run(["check", "--json", ...args], input);
  const lines = r.stdout.split("\n");
  assert.equal(lines.pop(), "", "NDJSON ends with a newline");
  const docs = lines.map((l, i) => {
    try {
      return JSON.parse(l);
    } catch (e) {
      throw new Error(`stdout line ${i + 1} is not JSON: ${l.slice(0, 200)}`, { cause: e });
    }
  });
  return { ...r, docs };
}

/** The NDJSON lines of one file, checked for their order: messages, tasks, then one summary. */
function perFile(docs) {
  const files = [];
  let cur;
  for (const d of docs) {
    assert.ok(["message", "task", "summary"].includes(d.type), JSON.stringify(d).slice(0, 200));
    if (!cur) files.push((cur = { file: d.file, messages: [], tasks: [], summary: undefined }));
    assert.equal(d.file, cur.file);
    if (d.type === "message") {
      assert.equal(cur.tasks.length, 0, "message lines come before task lines");
      cur.messages.push(d);
    } else if (d.type === "task") cur.tasks.push(d);
    else {
      cur.summary = d;
      cur = undefined;
    }
  }
  assert.equal(cur, undefined, "the last line of each file is its summary");
  return files;
}

const codesOf = (f) => new Set(f.messages.flatMap((m) => m.issues.map((i) => i.code)));

const SAMPLES = {
  "v2025-healthy.jsonl": { code: 0, tasks: 2, codes: [] },
  "v2026-healthy.jsonl": { code: 0, tasks: 3, codes: [] },
  // Legal reorderings (a status notification before its CreateTaskResult, an overtaken poll).
  "v2025-reordered-healthy.jsonl": { code: 0, tasks: 2, codes: [] },
  // initialize offering 2026-07-28: the answer's version governs (2025-11-25 here, 2026-07-28 there).
  "v2025-negotiated-from-2026-offer.jsonl": { code: 0, tasks: 2, codes: [] },
  "v2026-negotiated-by-initialize.jsonl": { code: 0, tasks: 3, codes: [] },
  "v2025-violations.jsonl": {
    code: 1,
    tasks: 3,
    codes: [
      "task-negative-ms",
      "timestamp-format",
      "create-task-status",
      "cancel-status",
      "related-task-missing",
      "cancel-terminal",
      "history-leaves-terminal",
      "history-created-at-changed",
      "history-last-updated-backwards",
      "history-terminal-payload-changed",
      "history-task-id-mismatch",
      "history-unknown-task",
      "history-unmatched-response",
      "history-required-tool-answered",
      "history-empty-task-result",
    ],
  },
  "v2026-violations.jsonl": {
    code: 1,
    tasks: 3,
    codes: [
      "task-negative-ms",
      "timestamp-format",
      "result-type-missing",
      "result-type-task",
      "task-payload",
      "history-input-key-reused",
      "history-leaves-terminal",
      "history-create-task-undeclared",
      "history-terminal-payload-changed",
      "history-unknown-task",
      "history-task-id-mismatch",
      "history-version-switch",
      "history-duplicate-request-id",
      "history-cancel-terminal-refused",
      "task-zero-ms",
    ],
  },
};

for (const [name, want] of Object.entries(SAMPLES)) {
  test(`check ${name}: exit ${want.code}`, () => {
    const r = run(["check", sample(name)]);
    assert.equal(r.code, want.code, r.stdout + r.stderr);
    assert.match(r.stdout, new RegExp(`${name}: \\d+ messages, \\d+ errors?, \\d+ warnings?, ${want.tasks} tasks`));
    assert.match(r.stdout, /^task \S+ \((2025-11-25|2026-07-28)\): \w+ \d{2}:\d{2}:\d{2}/m);
    // Every issue line names its file: FILE:LINE.
    const issueLine = new RegExp(`^${sample(name).replace(/[.]/g, "\\.")}:\\d+ {2}\\S+ {2}error \\S+ {2}\\S+ {2}.`, "m");
    if (want.code === 0) assert.doesNotMatch(r.stdout, /:\d+ {2}/);
    else assert.match(r.stdout, issueLine);
  });

  test(`check --json ${name}: NDJSON message lines, task lines, a summary`, () => {
    const r = runJson([sample(name)]);
    assert.equal(r.code, want.code, r.stderr);
    const files = perFile(r.docs);
    assert.equal(files.length, 1);
    const [f] = files;
    const lineCount = readFileSync(sample(name), "utf8").split("\n").filter((l) => l.trim() !== "").length;
    assert.equal(f.summary.messages, lineCount);
    assert.equal(f.summary.tasks, want.tasks);
    assert.equal(f.tasks.length, want.tasks);
    const codes = codesOf(f);
    for (const c of want.codes) assert.ok(codes.has(c), `${name}: expected ${c}, got ${[...codes].join(", ")}`);
    // The summary counts what the message lines (and the timelines' held judgements) carry.
    const issues = f.messages.flatMap((m) => m.issues);
    const held = f.tasks.flatMap((t) => t.issues.filter((i) => i.code === "history-unknown-task"));
    assert.equal(f.summary.errors, [...issues, ...held].filter((i) => i.severity === "error").length);
    assert.equal(f.summary.warnings, [...issues, ...held].filter((i) => i.severity === "warning").length);
    if (want.code === 0) assert.equal(f.summary.errors, 0, JSON.stringify([...codes]));
    let prev = 0;
    for (const m of f.messages) {
      assert.equal(typeof m.line, "number");
      assert.ok(m.line > prev, "message lines in file order");
      prev = m.line;
      assert.equal(typeof m.index, "number");
      assert.ok(m.issues.length > 0, "only messages with issues get a line");
      assert.ok(Array.isArray(m.taskIds));
      for (const i of m.issues) assert.equal(typeof i.path, "string");
    }
    for (const t of f.tasks) {
      assert.equal(typeof t.taskId, "string");
      assert.ok(t.events.length > 0);
      assert.ok(["create", "get", "list", "cancel", "notification", "result", "update"].includes(t.events[0].source));
    }
  });
}

test("transcript records carry HTTP headers: a missing Mcp-Name is the requestor's header-missing", () => {
  const fixture = join(here, "../fixtures/transcripts/v2026-http-headers.jsonl");
  const r = runJson([fixture]);
  assert.equal(r.code, 1, r.stderr);
  const [f] = perFile(r.docs);
  const found = f.messages.flatMap((m) => m.issues.map((i) => `${m.line} ${i.code} ${i.path}`));
  assert.deepEqual(found, ["7 header-missing /params/taskId", "9 header-mismatch /params/taskId", "22 header-missing /params/taskId"]);
  assert.equal(f.summary.tasks, 3);
});

test("the healthy V26 task goes working → input_required → update → working → completed", () => {
  const [f] = perFile(runJson([sample("v2026-healthy.jsonl")]).docs);
  const t = f.tasks[0];
  const seq = t.events.map((e) => e.status ?? e.source).filter((s, i, a) => s !== a[i - 1]);
  assert.deepEqual(seq, ["working", "input_required", "update", "working", "completed"]);
  assert.equal(t.finalStatus, "completed");
  assert.deepEqual(t.events.find((e) => e.source === "update").inputKeys, ["approver"]);
});

test("several files: each its own conversation and summary, in order; exit 1 when any has errors", () => {
  const a = sample("v2025-healthy.jsonl");
  const b = sample("v2026-violations.jsonl");
  const r = runJson([a, b]);
  assert.equal(r.code, 1);
  const files = perFile(r.docs);
  assert.deepEqual(
    files.map((f) => f.file),
    [a, b],
  );
  assert.equal(files[0].summary.errors, 0);
  assert.ok(files[1].summary.errors > 0);
  const text = run(["check", a, b]);
  assert.equal(text.code, 1);
  const summaries = text.stdout.split("\n").filter((l) => /: \d+ messages?, /.test(l));
  assert.equal(summaries.length, 2);
  assert.ok(summaries[0].startsWith(`${a}: `) && summaries[1].startsWith(`${b}: `));
  // Healthy files together: exit 0.
  assert.equal(run(["check", a, sample("v2026-healthy.jsonl")]).code, 0);
});

const GET = '{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t"}}';
const GOT =
  '{"jsonrpc":"2.0","id":1,"result":{"taskId":"t","status":"working","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":null}}';

test("stdin (-): blank lines skipped, CRLF accepted, a line that is not JSON or not UTF-8 is reported", () => {
  const input = Buffer.concat([
    Buffer.from(`${GET}\r\n\r\n   \nnot json at all\n${GOT}\r\n`),
    Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]), // "{\xff\xfe}": not UTF-8
  ]);
  const r = runJson(["-"], input);
  assert.equal(r.code, 1);
  const [f] = perFile(r.docs);
  assert.equal(f.file, "(stdin)");
  assert.equal(f.summary.messages, 4);
  assert.deepEqual(
    f.messages.map((m) => [m.line, m.issues[0].code]),
    [
      [1, "history-unknown-task"],
      [4, "not-json"],
      [6, "not-json"],
    ],
  );
  assert.match(f.messages[2].issues[0].message, /not UTF-8/);
  assert.equal(f.tasks[0].events[0].status, "working"); // line 5 (after a CRLF line) was read
  const text = run(["check", "-"], input);
  assert.equal(text.code, 1);
  assert.match(text.stdout, /^\(stdin\):4 {2}Invalid {2}error not-json/m);
  assert.match(text.stdout, /^\(stdin\): 4 messages, 2 errors, 1 warning, 1 task$/m);
});

test("a line over 16 MiB is refused as too-large without being kept; the next lines are read", () => {
  const big = file("huge-line.jsonl", `{"jsonrpc":"2.0","method":"x","params":{"pad":"${"a".repeat(17 * 1024 * 1024)}"}}\n${GET}\n${GOT}\n`);
  const r = runJson([big]);
  assert.equal(r.code, 1);
  const [f] = perFile(r.docs);
  assert.equal(f.summary.messages, 3);
  assert.equal(f.messages[0].line, 1);
  assert.equal(f.messages[0].issues[0].code, "too-large");
  assert.equal(f.messages[1].line, 2);
  assert.equal(f.tasks.length, 1);
});

test("--fail-on: warnings fail only with --fail-on warning; errors fail with both", () => {
  const warnOnly = file("warn-only.jsonl", `${GET}\n${GOT}\n`);
  const def = run(["check", warnOnly]);
  assert.equal(def.code, 0, def.stdout);
  assert.match(def.stdout, /0 errors, 1 warning/);
  assert.equal(run(["check", "--fail-on", "error", warnOnly]).code, 0);
  assert.equal(run(["check", "--fail-on", "warning", warnOnly]).code, 1);
  assert.equal(run(["check", "--fail-on=warning", warnOnly]).code, 1);
  assert.equal(run(["check", "--fail-on", "warning", sample("v2025-violations.jsonl")]).code, 1);
  assert.equal(run(["check", "--fail-on", "error", sample("v2025-violations.jsonl")]).code, 1);
  assert.equal(run(["check", "--fail-on", "warning", sample("v2025-healthy.jsonl")]).code, 0);
  const bad = run(["check", "--fail-on", "info", warnOnly]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--fail-on "info": use warning or error/);
});

test("--quiet: only the summaries (text and NDJSON), the same exit status", () => {
  const files = [sample("v2025-violations.jsonl"), sample("v2025-healthy.jsonl")];
  const text = run(["check", "--quiet", ...files]);
  assert.equal(text.code, 1);
  const lines = text.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 2, text.stdout);
  for (const [i, l] of lines.entries()) assert.match(l, new RegExp(`^${files[i].replace(/[.]/g, "\\.")}: \\d+ messages, \\d+ errors?, \\d+ warnings?, \\d+ tasks$`));
  const json = runJson(["-q", ...files]);
  assert.equal(json.code, 1);
  assert.deepEqual(
    json.docs.map((d) => d.type),
    ["summary", "summary"],
  );
  assert.ok(json.docs[0].errors > 0);
});

test("empty input: a warning (empty-input), which --fail-on warning turns into exit 1", () => {
  const empty = file("empty.jsonl", "");
  const blank = file("blank.jsonl", "\n  \r\n\n");
  for (const f of [empty, blank]) {
    const r = run(["check", f]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /warning empty-input/);
    assert.match(r.stdout, /: 0 messages, 0 errors, 1 warning, 0 tasks$/m);
    assert.equal(run(["check", "--fail-on", "warning", f]).code, 1);
  }
  const j = runJson(["-"], "");
  assert.equal(j.code, 0);
  assert.deepEqual(j.docs, [
    {
      type: "summary",
      file: "(stdin)",
      messages: 0,
      errors: 0,
      warnings: 1,
      tasks: 0,
      issues: [{ severity: "warning", code: "empty-input", path: "", message: "no message: the input is empty or holds only blank lines" }],
    },
  ]);
  assert.equal(run(["check", "--quiet", "--fail-on", "warning", "-"], "").code, 1);
});

test("--protocol fixes the protocol version", () => {
  const r = runJson(["--protocol", "2026-07-28", sample("v2025-healthy.jsonl")]);
  assert.equal(r.code, 1);
  assert.ok(codesOf(perFile(r.docs)[0]).has("history-version-switch"));
  assert.equal(runJson(["--protocol=2025-11-25", sample("v2025-healthy.jsonl")]).code, 0);
  const bad = run(["check", "--protocol", "2024-01-01", sample("v2025-healthy.jsonl")]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown protocol version "2024-01-01"/);
});

test("--version prints the package's version; given a protocol date it is a usage error", () => {
  for (const args of [["--version"], ["-V"], ["check", "--version", sample("v2025-healthy.jsonl")]]) {
    const r = run(args);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${pkgVersion}\n`);
  }
  for (const args of [
    ["check", "--version", "2026-07-28", sample("v2025-healthy.jsonl")],
    ["check", "--version=2025-11-25", sample("v2025-healthy.jsonl")],
    ["--version", "2025-11-25"],
  ]) {
    const r = run(args);
    assert.equal(r.code, 2, args.join(" "));
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /--version prints the version of mcp-tasks .*use --protocol 20\d\d-\d\d-\d\d/);
  }
});

test("the installed bin runs (shebang, symlink) and reads the installed package's version", (t) => {
  const bin = join(pkgDir, "../.bin/mcp-tasks");
  if (!existsSync(bin)) return t.skip(`no ${bin}: not an npm install`);
  const r = spawnSync(bin, ["--version"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, `${pkgVersion}\n`);
});

test("usage and I/O errors exit 2", () => {
  const usage = [[], ["check"], ["frobnicate", "x"], ["check", "--nope", sample("v2025-healthy.jsonl")], ["check", "--json=yes", "x"], ["check", "-", "-"], ["check", "--fail-on"]];
  for (const args of usage) {
    const r = run(args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, /^mcp-tasks: .*\nTry 'mcp-tasks --help'\.\n$/);
    assert.equal(r.stdout, "");
  }
  const missing = run(["check", join(tmp, "does-not-exist.jsonl")]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read .*does-not-exist\.jsonl: ENOENT/);
  const dir = run(["check", tmp]);
  assert.equal(dir.code, 2);
  assert.match(dir.stderr, /cannot read .*: EISDIR/);
  // The readable files are still checked; I/O wins over issues in the exit status.
  const mixed = runJson([sample("v2025-violations.jsonl"), join(tmp, "does-not-exist.jsonl"), sample("v2025-healthy.jsonl")]);
  assert.equal(mixed.code, 2);
  assert.equal(perFile(mixed.docs).length, 2);
});

test("--help documents the flags and the exit codes", () => {
  const r = run(["--help"]);
  assert.equal(r.code, 0);
  assert.equal(r.stderr, "");
  for (const s of ["mcp-tasks check", "--json", "--fail-on", "--quiet", "--protocol", "--version", "empty-input"]) assert.ok(r.stdout.includes(s), s);
  assert.match(r.stdout, /^ {2}0 {2}no issue at or above --fail-on$/m);
  assert.match(r.stdout, /^ {2}1 {2}issues at or above --fail-on were found/m);
  assert.match(r.stdout, /^ {2}2 {2}usage error, or a file could not be read$/m);
});

// Memory: a 50 MB transcript of healthy traffic (10 long-running tasks, polled over and over:
// the Conversation's own memory is bounded, 1000 events per task, so it is full after ~4 MB).
// A whole-file read holds the 50 MB text plus its split lines and does not fit a 96 MB V8 heap
// (the CLI before streaming aborted there); streaming does, and its peak RSS on 50 MB is
// about what it is on 5 MB.
test("memory stays flat in the file size (50 MB transcript, 96 MB V8 heap)", (t) => {
  const small = join(tmp, "small.jsonl");
  const large = join(tmp, "large.jsonl");
  writeTranscript(small, { bytes: 5_000_000, tasks: 10 });
  const { lines } = writeTranscript(large, { bytes: 50_000_000, tasks: 10 });
  t.after(() => rmSync(large, { force: true }));
  assert.ok(statSync(large).size > 49_000_000);
  const heap = ["--max-old-space-size=96"];
  // Plain options first (so the CLI before streaming fails here for its memory, not a flag).
  const text = run(["check", large], undefined, heap);
  assert.equal(text.code, 0, `${text.signal ?? ""} ${text.stderr.slice(0, 2000)}`);
  const textLines = text.stdout.trimEnd().split("\n");
  assert.equal(textLines[0], `${large}: ${lines} messages, 0 errors, 0 warnings, 10 tasks`);
  assert.equal(textLines.length, 11);
  const quiet = run(["check", "--quiet", large], undefined, heap);
  assert.equal(quiet.code, 0, `${quiet.signal ?? ""} ${quiet.stderr.slice(0, 2000)}`);
  assert.equal(quiet.stdout, `${textLines[0]}\n`);
  const json = run(["check", "--json", large], undefined, heap);
  assert.equal(json.code, 0, `${json.signal ?? ""} ${json.stderr.slice(0, 2000)}`);
  const out = json.stdout.trimEnd().split("\n");
  assert.equal(out.length, 11); // 10 task lines, 1 summary; no message has an issue
  assert.deepEqual(JSON.parse(out[10]), { type: "summary", file: large, messages: lines, errors: 0, warnings: 0, tasks: 10, issues: [] });

  // Peak RSS (GNU time's "Maximum resident set size"), when /usr/bin/time is there.
  if (!existsSync("/usr/bin/time")) return t.diagnostic("no /usr/bin/time: peak RSS not compared");
  const peak = (f, flag) => {
    const r = spawnSync("/usr/bin/time", ["-v", process.execPath, cli, "check", flag, f], { encoding: "utf8", maxBuffer: 64 << 20 });
    assert.equal(r.status, 0, r.stderr.slice(0, 2000));
    const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
    assert.ok(m, r.stderr);
    return Number(m[1]) * 1024;
  };
  for (const flag of ["--quiet", "--json"]) {
    const growth = peak(large, flag) - peak(small, flag);
    t.diagnostic(`${flag}: peak RSS on 50 MB minus on 5 MB = ${(growth / 1e6).toFixed(1)} MB`);
    // The file grew by 45 MB; reading it whole would grow the peak by more than that.
    assert.ok(growth < 15e6, `${flag}: peak RSS grew by ${(growth / 1e6).toFixed(1)} MB from a 5 MB to a 50 MB file`);
  }
});
