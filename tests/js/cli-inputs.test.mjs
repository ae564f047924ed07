// The `mcp-tasks` CLI on what real tools produce and in CI: the official MCP Inspector's protocol
// export (a JSON array), the inspector page's timed lines and the recorder's records
// ({"at", "from", "headers"?, "message"}), §D 50 on real polling, issue lines that name their
// file, GitHub Actions annotations, and the program reachable as `npx mcp-tasks-wasm` from the
// packed tarball. $MCP_TASKS_PKG_DIR points the tests at another package directory.
//
// The Inspector fixtures (tests/fixtures/inspector/) replay recorded traffic through the pairing
// of the Inspector 2.12's MessageLogState (a request entry holds its response and `duration`;
// notifications and unpaired responses are entries of their own) and its Protocol panel's
// Export, `JSON.stringify(messages, null, 2)`:
//   inspector-2.12-failing_job.json  the Inspector 2.12 CLI calling failing_job on the example
//                                    server (tests/peers/matrix-js.test.mjs, legacy era)
//   everything-polled-through-input-required.json  server-everything's research task as recorded
//                                    up to input_required, then polled ten times with tasks/get
//                                    and no tasks/result, as the Inspector 2.12 web client does
//
//   bash scripts/build.sh && bash scripts/pack.sh && node --test tests/js/cli-inputs.test.mjs
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { join, resolve } from "node:path";

const here = fileURLToPath(new URL(".", import.meta.url));
const pkgDir = resolve(process.env.MCP_TASKS_PKG_DIR ?? join(here, ".tmp/install/node_modules/mcp-tasks-wasm"));
const cli = join(pkgDir, "cli.mjs");
if (!existsSync(cli)) {
  throw new Error(`${cli} is missing: run \`bash scripts/build.sh && bash scripts/pack.sh\` (or set MCP_TASKS_PKG_DIR)`);
}
const root = join(here, "../..");
const fixture = (name) => join(root, "tests/fixtures/inspector", name);
const sample = (name) => join(root, "samples", name);

const tmp = mkdtempSync(join(tmpdir(), "mcp-tasks-cli-inputs-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const file = (name, text) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

function run(args, input) {
  const r = spawnSync(process.execPath, [cli, ...args], { input, encoding: "utf8", maxBuffer: 64 << 20 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `check --json ARGS`: the NDJSON lines. */
function runJson(args) {
  const r = run(["check", "--json", ...args]);
  return { ...r, docs: r.stdout.trimEnd().split("\n").filter(Boolean).map((l) => JSON.parse(l)) };
}

const summaryOf = (docs) => docs.find((d) => d.type === "summary");
const issuesOf = (docs) => docs.filter((d) => d.type === "message").flatMap((m) => m.issues.map((i) => ({ line: m.line, ...i })));

/** A sample's messages as records, `at` one second apart, `from` told by the message's role. */
function records(name, extra = () => ({})) {
  const messages = readFileSync(sample(name), "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
  const serverAsks = new Set();
  return messages.map((m, i) => {
    let from;
    if ("method" in m) {
      from = m.method.startsWith("notifications/tasks") || m.method === "elicitation/create" ? "server" : "client";
      if (from === "server" && "id" in m) serverAsks.add(JSON.stringify(m.id));
    } else from = serverAsks.delete(JSON.stringify(m.id)) ? "client" : "server";
    return { at: new Date(Date.UTC(2026, 11, 1, 10, 0, i)).toISOString(), from, message: m, ...extra(m) };
  });
}
const jsonl = (rs) => `${rs.map((r) => JSON.stringify(r)).join("\n")}\n`;

// ---- the official MCP Inspector's protocol export ----------------------------------------------

test("an Inspector 2.12 protocol export (JSON array) is read: its messages and responses, no not-json", () => {
  const path = fixture("inspector-2.12-failing_job.json");
  const entries = JSON.parse(readFileSync(path, "utf8"));
  const responses = entries.filter((e) => e.response).length;
  const r = runJson([path]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const s = summaryOf(r.docs);
  assert.equal(s.messages, entries.length + responses);
  assert.equal(s.messages, 10);
  assert.deepEqual([s.errors, s.warnings, s.tasks], [0, 0, 1]);
  const [task] = r.docs.filter((d) => d.type === "task");
  assert.equal(task.finalStatus, "failed");
  // Each message carries the export's time (the entry's timestamp; a response's + duration).
  assert.deepEqual(
    task.events.map((e) => [e.source, e.status, e.seenAt]),
    [
      ["create", "working", new Date(Date.parse(entries[3].timestamp) + entries[3].duration).toISOString()],
      ["notification", "failed", entries[4].timestamp],
      ["get", "failed", new Date(Date.parse(entries[5].timestamp) + entries[5].duration).toISOString()],
    ],
  );
  const text = run(["check", path]);
  assert.equal(text.code, 0);
  assert.match(text.stdout, /inspector-2\.12-failing_job\.json: 10 messages, 0 errors, 0 warnings, 1 task/);
});

test("an export's issues name the line of the entry, and of its response member", () => {
  const entries = JSON.parse(readFileSync(fixture("inspector-2.12-failing_job.json"), "utf8"));
  // The tasks/get answer about another task than asked (history-task-id-mismatch, an error).
  entries[5].response.result.taskId = "someone-else";
  const path = file("mismatch.json", JSON.stringify(entries, null, 2));
  const r = runJson([path]);
  assert.equal(r.code, 1);
  const lines = readFileSync(path, "utf8").split("\n");
  const [issue] = issuesOf(r.docs).filter((i) => i.code === "history-task-id-mismatch");
  assert.ok(issue, JSON.stringify(r.docs));
  assert.match(lines[issue.line - 1], /^ {4}"response": \{$/);
  // An entry that is not JSON-RPC is checked as such; the others still are.
  const broken = file("broken.json", JSON.stringify([...entries.slice(0, 4), { id: "x", timestamp: entries[4].timestamp, direction: "notification", origin: "server", message: { method: 7 } }], null, 2));
  const b = runJson([broken]);
  assert.equal(b.code, 1);
  assert.equal(summaryOf(b.docs).tasks, 1);
  const bad = issuesOf(b.docs).find((i) => i.code === "jsonrpc-method");
  assert.ok(bad, JSON.stringify(b.docs));
  assert.match(readFileSync(broken, "utf8").split("\n")[bad.line - 1], /^ {2}\{$/);
});

test("an export is observed in the order of its times: a response after what happened while its request was open", () => {
  // tasks/result asked at 10:00:01 and answered at 10:00:09 (duration), polls between: in the
  // export's order the result would come first and the working polls after it would look like
  // the task leaving its terminal status.
  const t = (s) => `2025-11-25T10:00:0${s}.000Z`;
  const task = (status, s) => ({ taskId: "t1", status, createdAt: t(0), lastUpdatedAt: t(s), ttl: 60000, pollInterval: 1000 });
  const entries = [
    { id: "1", timestamp: t(0), direction: "request", origin: "client", message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", arguments: {}, task: {} } }, response: { jsonrpc: "2.0", id: 1, result: { task: task("working", 0) } }, duration: 5 },
    { id: "2", timestamp: t(1), direction: "request", origin: "client", message: { jsonrpc: "2.0", id: 2, method: "tasks/result", params: { taskId: "t1" } }, response: { jsonrpc: "2.0", id: 2, result: { content: [], _meta: { "io.modelcontextprotocol/related-task": { taskId: "t1" } } } }, duration: 8000 },
    { id: "3", timestamp: t(2), direction: "request", origin: "client", message: { jsonrpc: "2.0", id: 3, method: "tasks/get", params: { taskId: "t1" } }, response: { jsonrpc: "2.0", id: 3, result: task("working", 2) }, duration: 5 },
    { id: "4", timestamp: t(8), direction: "notification", origin: "server", message: { jsonrpc: "2.0", method: "notifications/tasks/status", params: task("completed", 8) } },
  ];
  const r = runJson([file("ordered.json", JSON.stringify(entries, null, 2))]);
  assert.deepEqual(issuesOf(r.docs), []);
  assert.equal(r.code, 0);
  const [timeline] = r.docs.filter((d) => d.type === "task");
  assert.deepEqual(
    timeline.events.map((e) => e.source),
    ["create", "get", "notification", "result"],
  );
});

test("a JSON array file: too large for --max-export-bytes is refused; JSON Lines starting with a batch stay lines", () => {
  const path = fixture("inspector-2.12-failing_job.json");
  const small = runJson(["--max-export-bytes", "1000", path]);
  assert.equal(small.code, 1);
  assert.deepEqual(issuesOf(small.docs).map((i) => [i.line, i.code]), [[1, "too-large"]]);
  assert.match(issuesOf(small.docs)[0].message, /--max-export-bytes \(1000\)/);
  assert.equal(run(["check", "--max-export-bytes", "0", path]).code, 2);
  assert.equal(run(["check", "--max-export-bytes", "1e3", path]).code, 2);
  // A JSON-RPC batch on the first line of JSON Lines: not one array, so lines (a batch is refused).
  const lines = file("batch-first.jsonl", `[{"jsonrpc":"2.0","method":"ping","id":1}]\n{"jsonrpc":"2.0","id":1,"result":{}}\n`);
  const b = runJson([lines]);
  assert.equal(summaryOf(b.docs).messages, 2);
  assert.deepEqual(issuesOf(b.docs).map((i) => [i.line, i.code]), [[1, "not-object"], [2, "history-unmatched-response"]]);
  // An empty array is an empty input.
  const empty = runJson([file("empty.json", " [ ]\n")]);
  assert.equal(summaryOf(empty.docs).issues[0].code, "empty-input");
});

// ---- timed lines (the page's "Export with times") and recorder lines -----------------------------

test("the page's timed lines {at, from, message} check like bare messages, with the times on the timeline", () => {
  for (const name of ["v2025-healthy.jsonl", "v2026-healthy.jsonl"]) {
    const rs = records(name);
    const r = runJson([file(`timed-${name}`, jsonl(rs))]);
    assert.deepEqual(issuesOf(r.docs), [], name);
    assert.equal(r.code, 0);
    assert.equal(summaryOf(r.docs).messages, rs.length);
    for (const t of r.docs.filter((d) => d.type === "task")) {
      for (const e of t.events) assert.equal(e.seenAt, rs[e.index].at, `${name} ${t.taskId} event ${e.index}`);
    }
  }
  // Events with no lastUpdatedAt (a tasks/result answer) show when they were recorded.
  const text = run(["check", file("timed-text.jsonl", jsonl(records("v2025-healthy.jsonl")))]);
  assert.equal(text.code, 0, text.stdout);
  assert.match(text.stdout, /→ completed 10:30:09 → result 10:00:\d\d(\.\d+)?$/m);
});

test("a record's at that is not RFC 3339 is the warning record-time, on its line", () => {
  const rs = records("v2025-healthy.jsonl");
  rs[3].at = "1 Dec 2026 10:00";
  rs[5].at = 1764583200000;
  const r = runJson([file("bad-at.jsonl", jsonl(rs))]);
  assert.equal(r.code, 0);
  assert.deepEqual(issuesOf(r.docs).map((i) => [i.line, i.code, i.severity]), [
    [4, "record-time", "warning"],
    [6, "record-time", "warning"],
  ]);
  assert.equal(run(["check", "--fail-on", "warning", file("bad-at-2.jsonl", jsonl(rs))]).code, 1);
});

test("recorder lines {at, from, headers, message}: the headers of 2026-07-28 requests are checked (§D 76, 111)", () => {
  const headersOf = (m) => {
    if (!("method" in m) || !("id" in m) || !m.params?._meta) return {};
    const h = { "content-type": "application/json", "mcp-method": m.method, "mcp-protocol-version": "2026-07-28" };
    if (typeof m.params.taskId === "string") h["mcp-name"] = m.params.taskId;
    else if (m.method === "tools/call") h["mcp-name"] = m.params.name;
    return { headers: h };
  };
  const rs = records("v2026-healthy.jsonl", headersOf);
  const ok = runJson([file("recorded.jsonl", jsonl(rs))]);
  assert.deepEqual(issuesOf(ok.docs), []);
  assert.equal(ok.code, 0);
  const get = rs.findIndex((x) => x.message.method === "tasks/get");
  delete rs[get].headers["mcp-name"];
  const bad = runJson([file("recorded-bad.jsonl", jsonl(rs))]);
  assert.equal(bad.code, 1);
  assert.deepEqual(issuesOf(bad.docs).map((i) => [i.line, i.code]), [[get + 1, "header-missing"]]);
});

// ---- §D 50 on real polling --------------------------------------------------------------------

test("§D 50: polling tasks/get ten times through input_required without tasks/result is one warning", () => {
  const path = fixture("everything-polled-through-input-required.json");
  const r = runJson([path]);
  assert.equal(r.code, 0, r.stdout);
  const found = issuesOf(r.docs).filter((i) => i.code === "history-input-required-not-fetched");
  assert.equal(found.length, 1, JSON.stringify(issuesOf(r.docs)));
  assert.equal(found[0].severity, "warning");
  assert.match(found[0].message, /tasks\/result at once.*§D 50/);
  // On the line of the second tasks/get sent after the task showed input_required: a status
  // notification showed it, tasks/get id 5 was the first, id 6 the second.
  const entries = JSON.parse(readFileSync(path, "utf8"));
  const k = entries.findIndex((e) => e.message.method === "tasks/get" && e.message.id === 6);
  const lines = readFileSync(path, "utf8").split("\n");
  const entryLine = lines.findIndex((l, i) => l === "  {" && lines[i + 1] === `    "id": "${entries[k].id}",`) + 1;
  assert.ok(entryLine > 0);
  assert.equal(found[0].line, entryLine);
  assert.equal(summaryOf(r.docs).warnings, 1);
  assert.equal(run(["check", "--fail-on", "warning", path]).code, 1);
  // The healthy samples call tasks/result: nothing.
  for (const name of ["v2025-healthy.jsonl", "v2025-reordered-healthy.jsonl"]) assert.equal(run(["check", "--fail-on", "warning", sample(name)]).code, 0);
});

// ---- CI: the file on every issue line, GitHub annotations ----------------------------------------

test("every issue line names its file: FILE:LINE, and FILE for task and file-level issues", () => {
  const a = sample("v2025-violations.jsonl");
  const b = file("unknown.jsonl", `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/tasks/status", params: { taskId: "t9", status: "working", createdAt: "2025-11-25T10:00:00Z", lastUpdatedAt: "2025-11-25T10:00:00Z", ttl: null } })}\n`);
  const c = file("empty.jsonl", "");
  const r = run(["check", a, b, c]);
  assert.equal(r.code, 1);
  const issueLines = r.stdout.split("\n").filter((l) => / (error|warning) [a-z-]+ /.test(l));
  assert.ok(issueLines.length > 10);
  for (const l of issueLines) assert.ok(l.startsWith(`${a}:`) || l.startsWith(`${b}  task t9`) || l.startsWith(`${c}  warning empty-input`), l);
  assert.match(r.stdout, new RegExp(`^${a.replace(/[.]/g, "\\.")}:11 {2}GetTaskResult {2}error history-leaves-terminal {2}/result/status {2}`, "m"));
});

test("--format github: a workflow command per issue (file, line, code), then the summaries", () => {
  const a = sample("v2025-violations.jsonl");
  const json = runJson([a]);
  const r = run(["check", "--format", "github", a]);
  assert.equal(r.code, 1);
  const out = r.stdout.trimEnd().split("\n");
  const commands = out.filter((l) => l.startsWith("::"));
  const issues = issuesOf(json.docs);
  assert.equal(commands.length, issues.length);
  commands.forEach((c, k) => {
    const i = issues[k];
    const m = /^::(error|warning) file=([^,]+),line=(\d+),title=([a-z0-9-]+)::(.+)$/.exec(c);
    assert.ok(m, c);
    assert.deepEqual([m[1], m[2], Number(m[3]), m[4]], [i.severity, a, i.line, i.code]);
    assert.ok(!/[\r\n]/.test(m[5]));
  });
  assert.deepEqual(out.filter((l) => !l.startsWith("::")), [`${a}: 40 messages, 12 errors, 3 warnings, 3 tasks`]);
  // Escaping: "%", ":" and "," in a file name; a newline in a message; no line for file-level issues.
  const odd = file("a,b:c%d.jsonl", `{"jsonrpc":"2.0","method":"x\\ny","params":{"taskId":"q"}}\n`);
  const e = run(["check", "--format=github", odd, file("nothing.jsonl", "")]);
  const [first] = e.stdout.split("\n");
  assert.ok(first.startsWith(`::`), first);
  assert.ok(first.includes(`file=${odd.replace(/%/g, "%25").replace(/:/g, "%3A").replace(/,/g, "%2C")},line=1,`), first);
  assert.match(e.stdout, /^::warning file=[^,]*nothing\.jsonl,title=empty-input::no message/m);
  // --json is --format json; conflicting choices and unknown formats are usage errors.
  assert.equal(run(["check", "--format", "json", a]).stdout, json.stdout);
  for (const args of [["--format", "xml"], ["--json", "--format", "github"]]) {
    const u = run(["check", ...args, a]);
    assert.equal(u.code, 2, args.join(" "));
    assert.match(u.stderr, /--format|--json/);
  }
  const help = run(["--help"]).stdout;
  assert.match(help, /npx mcp-tasks-wasm check/);
  assert.match(help, /--format FORMAT {7}text \(default\), json or github/);
});

// ---- npx mcp-tasks-wasm ---------------------------------------------------------------------------

test("npx mcp-tasks-wasm: the packed tarball runs under the package's own name, outside a project, offline", (t) => {
  const packed = join(here, ".tmp");
  const tgz = existsSync(packed) ? readdirSync(packed).find((f) => /^mcp-tasks-wasm-.*\.tgz$/.test(f)) : undefined;
  if (!tgz || process.env.MCP_TASKS_PKG_DIR) {
    t.skip("no packed tarball (run scripts/pack.sh)");
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "mcp-tasks-npx-"));
  try {
    const npm = (args) =>
      spawnSync("npm", ["exec", "--offline", "--yes", "--package", join(packed, tgz), "--", ...args], {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, npm_config_cache: join(dir, ".npm"), npm_config_update_notifier: "false" },
      });
    assert.ok(!existsSync(join(dir, "package.json")));
    const ok = npm(["mcp-tasks-wasm", "check", sample("v2025-healthy.jsonl")]);
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /v2025-healthy\.jsonl: 24 messages, 0 errors, 0 warnings, 2 tasks/);
    const bad = npm(["mcp-tasks-wasm", "check", "--format", "github", sample("v2026-violations.jsonl")]);
    assert.equal(bad.status, 1);
    assert.match(bad.stdout, /^::error file=/m);
    // The old name stays.
    assert.equal(npm(["mcp-tasks", "--version"]).stdout.trim(), JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")).version);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
