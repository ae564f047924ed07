// The `mcp-tasks` CLI of the built package (pkg/cli.mjs, bin mcp-tasks) on the sample
// transcripts shipped with it. The package directory is $MCP_TASKS_PKG_DIR, by default ../../pkg
// relative to this file (run `bash scripts/build.sh` first).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join, resolve } from "node:path";

const here = fileURLToPath(new URL(".", import.meta.url));
const pkgDir = resolve(process.env.MCP_TASKS_PKG_DIR ?? join(here, "../../pkg"));
const cli = join(pkgDir, "cli.mjs");
if (!existsSync(cli)) {
  throw new Error(`${cli} is missing: run \`bash scripts/build.sh\` (or set MCP_TASKS_PKG_DIR)`);
}
// The samples as packaged; the repository's copy when the package has none.
const sampleDir = existsSync(join(pkgDir, "samples")) ? join(pkgDir, "samples") : join(here, "../../samples");
const sample = (name) => join(sampleDir, name);

function run(args, input) {
  const r = spawnSync(process.execPath, [cli, ...args], { input, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function runJson(args, input) {
  const r = run(["check", "--json", ...args], input);
  const docs = r.stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
  return { ...r, docs };
}

const codesOf = (doc) => new Set(doc.reports.flatMap((r) => r.issues.map((i) => i.code)));

const SAMPLES = {
  "v2025-healthy.jsonl": { code: 0, tasks: 2, codes: [] },
  "v2026-healthy.jsonl": { code: 0, tasks: 3, codes: [] },
  // Legal reorderings (a status notification before its CreateTaskResult, an overtaken poll).
  "v2025-reordered-healthy.jsonl": { code: 0, tasks: 2, codes: [] },
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
    if (want.code === 0) assert.doesNotMatch(r.stdout, /^line \d+/m);
    else assert.match(r.stdout, /^line \d+ {2}\S+ {2}error \S+ {2}\S+ {2}./m);
  });

  test(`check --json ${name}: tasks and codes`, () => {
    const r = runJson([sample(name)]);
    assert.equal(r.code, want.code, r.stderr);
    assert.equal(r.docs.length, 1);
    const [doc] = r.docs;
    assert.equal(doc.tasks.length, want.tasks);
    assert.equal(doc.messages, doc.reports.length);
    const codes = codesOf(doc);
    for (const c of want.codes) assert.ok(codes.has(c), `${name}: expected ${c}, got ${[...codes].join(", ")}`);
    if (want.code === 0) {
      assert.equal(doc.errors, 0, JSON.stringify([...codes]));
      assert.ok(doc.reports.every((rep) => rep.valid));
    }
    for (const rep of doc.reports) {
      assert.equal(typeof rep.line, "number");
      assert.equal(typeof rep.index, "number");
      assert.ok(Array.isArray(rep.taskIds));
      for (const i of rep.issues) assert.equal(typeof i.path, "string");
    }
    for (const t of doc.tasks) {
      assert.equal(typeof t.taskId, "string");
      assert.ok(t.events.length > 0);
      assert.ok(["create", "get", "list", "cancel", "notification", "result", "update"].includes(t.events[0].source));
    }
  });
}

test("the healthy V26 task goes working → input_required → update → working → completed", () => {
  const [doc] = runJson([sample("v2026-healthy.jsonl")]).docs;
  const t = doc.tasks[0];
  const seq = t.events.map((e) => e.status ?? e.source).filter((s, i, a) => s !== a[i - 1]);
  assert.deepEqual(seq, ["working", "input_required", "update", "working", "completed"]);
  assert.equal(t.finalStatus, "completed");
  assert.deepEqual(t.events.find((e) => e.source === "update").inputKeys, ["approver"]);
});

test("several files: one JSON object per file, exit 1 when any has errors", () => {
  const r = runJson([sample("v2025-healthy.jsonl"), sample("v2026-violations.jsonl")]);
  assert.equal(r.code, 1);
  assert.equal(r.docs.length, 2);
  assert.equal(r.docs[0].errors, 0);
  assert.ok(r.docs[1].errors > 0);
});

test("stdin (-), blank lines skipped, a line that is not JSON is reported", () => {
  const input = [
    '{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t"}}',
    "",
    "not json at all",
    '{"jsonrpc":"2.0","id":1,"result":{"taskId":"t","status":"working","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":null}}',
  ].join("\n");
  const r = runJson(["-"], input);
  assert.equal(r.code, 1);
  const [doc] = r.docs;
  assert.equal(doc.file, "(stdin)");
  assert.equal(doc.messages, 3);
  assert.deepEqual(
    doc.reports.map((x) => x.line),
    [1, 3, 4],
  );
  assert.equal(doc.reports[1].issues[0].code, "not-json");
  assert.equal(doc.reports[2].method, "tasks/get");
  const text = run(["check", "-"], input);
  assert.match(text.stdout, /^line 3 {2}Invalid {2}error not-json/m);
});

test("--version fixes the protocol version", () => {
  const r = runJson(["--version", "2026-07-28", sample("v2025-healthy.jsonl")]);
  assert.equal(r.code, 1);
  assert.ok(codesOf(r.docs[0]).has("history-version-switch"));
  const ok = runJson(["--version=2025-11-25", sample("v2025-healthy.jsonl")]);
  assert.equal(ok.code, 0);
});

test("usage and I/O errors exit 2", () => {
  assert.equal(run([]).code, 2);
  assert.equal(run(["check"]).code, 2);
  assert.equal(run(["frobnicate", "x"]).code, 2);
  assert.equal(run(["check", "--nope", sample("v2025-healthy.jsonl")]).code, 2);
  assert.equal(run(["check", "--version", "2024-01-01", sample("v2025-healthy.jsonl")]).code, 2);
  const missing = run(["check", join(sampleDir, "does-not-exist.jsonl")]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read/);
});

test("--help", () => {
  const r = run(["--help"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /mcp-tasks check/);
});
