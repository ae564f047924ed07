// `mcp-tasks-wasm inspect` and `record` (js/inspect.mts), run from the installed package as npx
// runs its bin (tests/js/.tmp/install), as child processes, each stopped by its PID:
// - the page and the package are served from the install, on 127.0.0.1 only;
// - the bridge's security: no or a wrong token 401; another Origin, a cross-site fetch, a foreign
//   Host or a preflight 403, and no process is started by them;
// - a stdio server behind the bridge (TaskClient over Streamable HTTP to /bridge/mcp): a task
//   followed to its result in both eras, an elicitation routed to the tasks/result stream, a
//   reconnect (second initialize) keeps the stdio session, the child stopped with the launcher;
// - an HTTP server that allows no browser origin and wants a bearer token, through the bridge
//   (--bearer, --header, Mcp-Session-Id both ways);
// - --record and `record` (HTTP proxy, stdio pass-through): {at, from, headers?, message} lines
//   that `mcp-tasks check` passes with 0 errors, credentials redacted.
//   bash scripts/build.sh && bash scripts/pack.sh && node --test tests/js/inspect.test.mjs
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TaskClient } from "./.tmp/install/esm.mjs";
import { BIN, PKG_DIR, STDIO_SERVER, alive, bearerServer, launch, start, stop, stopAll, waitFor } from "./inspect/lib.mjs";

const dir = mkdtempSync(join(tmpdir(), "mcp-inspect-"));
after(async () => {
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
});

/** A fetch that adds the launch's token (what www/bridge.js does). */
const withToken = (token) => (input, init = {}) => fetch(input, { ...init, headers: { ...(init.headers ?? {}), "X-MCP-Bridge-Token": token } });

/** The transcript's lines, parsed. */
const lines = (file) => readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));

/** `mcp-tasks check FILE` with the installed CLI: its exit status and output. */
function check(file) {
  const r = spawnSync(process.execPath, [join(PKG_DIR, "cli.mjs"), "check", file], { encoding: "utf8" });
  return { status: r.status, out: r.stdout + r.stderr };
}

/** The local addresses listening on `port` (Linux /proc/net/tcp{,6}), as hex. */
function listening(port) {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  const out = [];
  for (const f of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (!existsSync(f)) continue;
    for (const l of readFileSync(f, "utf8").split("\n").slice(1)) {
      const [, local, , state] = l.trim().split(/\s+/);
      if (state === "0A" && local?.endsWith(`:${hex}`)) out.push(local.split(":")[0]);
    }
  }
  return out;
}

test("inspect serves the page and the package from the install, on 127.0.0.1 only", async (t) => {
  const l = await launch([]);
  try {
    const port = Number(new URL(l.base).port);
    if (existsSync("/proc/net/tcp")) assert.deepEqual(listening(port), ["0100007F"], "bound to 127.0.0.1, nothing else");
    else t.diagnostic("no /proc/net/tcp: the bound address is not checked");
    const page = await fetch(`${l.base}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /MCP Tasks inspector/);
    for (const p of ["/live.js", "/bridge.js", "/transcript.js", "/inspector.css", "/pkg/browser.js", "/pkg/mcp_tasks_wasm_bg.wasm", "/pkg/samples/v2025-healthy.jsonl"]) {
      assert.equal((await fetch(`${l.base}${p}`)).status, 200, p);
    }
    for (const p of ["/smoke.html", "/pkg/../../package.json", "/pkg/%2e%2e/%2e%2e/package.json", "/pkg/x/..%2f..%2f..%2fpackage.json"]) {
      assert.equal((await fetch(`${l.base}${p}`)).status, 404, p);
    }
    const raw = spawnSync("curl", ["-s", "--path-as-is", "-o", "/dev/null", "-w", "%{http_code}", `${l.base}/pkg/../../../package.json`], { encoding: "utf8" });
    if (raw.status === 0) assert.equal(raw.stdout, "404", "no path out of the package");
    assert.equal(readFileSync(join(PKG_DIR, "www", "index.html"), "utf8"), readFileSync(new URL("../../www/index.html", import.meta.url), "utf8"), "www/ is in the package");
    assert.ok(!existsSync(join(PKG_DIR, "www", "smoke.html")), "the smoke page stays out");
  } finally {
    await stop(l.child);
  }
});

test("the bridge: no token 401, another origin 403, and no process is started by a refused request", async () => {
  const marker = join(dir, "started");
  // The "server" writes a marker when started: a refused request must not start it.
  const l = await launch(["--", process.execPath, "-e", "require('fs').writeFileSync(process.argv[1], 'started'); process.stdin.resume()", marker]);
  try {
    const mcp = `${l.base}/bridge/mcp`;
    const body = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
    const post = (headers) => fetch(mcp, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
    assert.equal((await fetch(`${l.base}/bridge/config`)).status, 401);
    assert.equal((await post({})).status, 401);
    assert.equal((await post({ "x-mcp-bridge-token": "x".repeat(l.token.length) })).status, 401);
    assert.equal((await post({ "x-mcp-bridge-token": l.token.slice(1) })).status, 401);
    // A web page on another port of the same host, even with the token: 403.
    const other = await post({ "x-mcp-bridge-token": l.token, origin: "http://127.0.0.1:1" });
    assert.equal(other.status, 403);
    assert.match((await other.json()).error, /only http:\/\/127\.0\.0\.1:\d+ may use this bridge/);
    assert.equal((await post({ "x-mcp-bridge-token": l.token, origin: "http://localhost.evil.example" })).status, 403);
    assert.equal((await post({ "x-mcp-bridge-token": l.token, origin: "null" })).status, 403);
    // A simple (no-preflight) cross-site POST as a browser sends it: no token, text/plain.
    assert.equal((await fetch(mcp, { method: "POST", headers: { "content-type": "text/plain", origin: "http://evil.example" }, body })).status, 403);
    assert.equal((await post({ "x-mcp-bridge-token": l.token, "sec-fetch-site": "cross-site" })).status, 403);
    assert.equal((await post({ "x-mcp-bridge-token": l.token, "sec-fetch-site": "same-site" })).status, 403);
    assert.equal((await fetch(mcp, { method: "OPTIONS", headers: { origin: "http://evil.example", "access-control-request-method": "POST" } })).status, 403);
    // DNS rebinding: a foreign name for the same address.
    const rebound = spawnSync("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", `Host: evil.example:${new URL(l.base).port}`, "-H", `x-mcp-bridge-token: ${l.token}`, `${l.base}/bridge/config`], { encoding: "utf8" });
    if (rebound.status === 0) assert.equal(rebound.stdout, "403");
    assert.ok(!existsSync(marker), "no refused request started the server");
    assert.doesNotMatch(l.child.stderrText, /started/);
    // The launcher's own page (its origin, its token) does start it.
    const ok = await post({ "x-mcp-bridge-token": l.token, origin: l.base, "sec-fetch-site": "same-origin" });
    assert.equal(ok.status, 202);
    await waitFor(l.child, /stdio server started \(pid \d+\)/, "stderr").catch(() => {});
    for (let i = 0; i < 100 && !existsSync(marker); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(existsSync(marker));
    const config = await (await fetch(`${l.base}/bridge/config`, { headers: { "x-mcp-bridge-token": l.token } })).json();
    assert.equal(config.mode, "stdio");
    assert.equal(config.endpoint, "/bridge/mcp");
  } finally {
    await stop(l.child);
  }
});

test("a stdio server behind the bridge: tasks followed in both eras, elicitation, one session across reconnects; the child stops with the launcher", async () => {
  const file = join(dir, "stdio.jsonl");
  const l = await launch(["--record", file, "--", process.execPath, STDIO_SERVER]);
  let pid;
  try {
    const endpoint = `${l.base}/bridge/mcp`;
    const c26 = await TaskClient.connect(endpoint, { fetch: withToken(l.token), push: false });
    try {
      assert.equal(c26.connection.protocolVersion, "2026-07-28");
      const r = await c26.callTool("slow_compute", { seconds: 0.3, label: "stdio" }, { task: {} });
      assert.equal(r.content[0].text, "stdio: done after 0.3 s");
    } finally {
      await c26.close();
    }
    pid = Number(l.child.stderrText.match(/stdio server started \(pid (\d+)\)/)?.[1]);
    assert.ok(pid > 0 && alive(pid));
    const asked = [];
    const handlers = { elicitation: async (p) => (asked.push(p.message), { action: "accept", content: { confirm: true } }) };
    const c25 = await TaskClient.connect(endpoint, { fetch: withToken(l.token), protocolVersion: "2025-11-25", handlers, push: false });
    try {
      const r = await c25.callTool("slow_compute", { seconds: 0.3, label: "s25" }, { task: {} });
      assert.equal(r.content[0].text, "s25: done after 0.3 s");
      const d = await c25.callTool("confirm_delete", { filename: "b.txt" }, { task: {} });
      assert.equal(d.content[0].text, "Deleted b.txt");
      assert.deepEqual(asked, ["Delete b.txt?"]);
    } finally {
      await c25.close();
    }
    // A page reload initializes again: the stdio process's one session goes on (its tasks too).
    const again = await TaskClient.connect(endpoint, { fetch: withToken(l.token), protocolVersion: "2025-11-25", push: false });
    try {
      const listed = await again.connection.request("tasks/list", {});
      // The two tasks of the first 2025-11-25 connection (the 2026-07-28 one is not in its session).
      assert.equal(listed.tasks.length, 2, JSON.stringify(listed));
      assert.deepEqual(listed.tasks.map((t) => t.status), ["completed", "completed"]);
    } finally {
      await again.close();
    }
    assert.equal(l.child.stderrText.match(/stdio server started/g).length, 1, "one process for every connection");
  } finally {
    await stop(l.child);
  }
  assert.ok(!alive(pid), `the stdio server (pid ${pid}) stopped with the launcher`);
  const recorded = lines(file);
  assert.ok(recorded.length >= 10);
  for (const r of recorded) {
    assert.deepEqual(Object.keys(r).filter((k) => k !== "headers"), ["at", "from", "message"]);
    assert.match(r.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(r.from === "client" || r.from === "server");
  }
  assert.ok(recorded.some((r) => r.from === "server" && r.message.method === "elicitation/create"));
});

test("an HTTP server with no CORS and a bearer token, through the bridge: --bearer, --header, Mcp-Session-Id; --record passes the checker", async () => {
  const server = await bearerServer("s3cret");
  const file = join(dir, "http.jsonl");
  const l = await launch([server.url, "--bearer", "s3cret", "--header", "X-Trace: t-1", "--record", file]);
  try {
    // The server itself refuses a request without the token, and a browser origin.
    assert.equal((await fetch(server.url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status, 401);
    const endpoint = `${l.base}/bridge/mcp`;
    const c26 = await TaskClient.connect(endpoint, { fetch: withToken(l.token), push: false });
    try {
      assert.equal(c26.connection.protocolVersion, "2026-07-28");
      const r = await c26.callTool("slow_compute", { seconds: 0.3, label: "http" }, { task: {} });
      assert.equal(r.content[0].text, "http: done after 0.3 s");
    } finally {
      await c26.close();
    }
    const seen = server.child.stdoutText.split("\n").filter((s) => s.startsWith("seen POST"));
    assert.ok(seen.length >= 3);
    for (const s of seen.slice(1)) assert.match(s, /^seen POST Bearer s3cret - -$/, "the bearer added, no Origin passed on");
  } finally {
    await stop(l.child);
  }
  const recorded = lines(file);
  const requests = recorded.filter((r) => r.from === "client");
  assert.ok(requests.length >= 3);
  for (const r of requests) {
    assert.equal(r.headers.authorization, "(redacted)");
    assert.equal(r.headers["x-trace"], "(redacted)");
    assert.equal(r.headers["mcp-protocol-version"], "2026-07-28");
    assert.equal(r.headers["mcp-method"], r.message.method);
  }
  assert.ok(readFileSync(file, "utf8").includes("http: done after 0.3 s"), readFileSync(file, "utf8"));
  assert.ok(!readFileSync(file, "utf8").includes("s3cret"), "no credential in the transcript");
  const c = check(file);
  assert.equal(c.status, 0, c.out);
  assert.match(c.out, / 0 errors, 0 warnings, 1 task/);

  // 2025-11-25: the session id the server gives comes back to the client and goes on to the server.
  const file25 = join(dir, "http25.jsonl");
  const l25 = await launch([server.url, "--bearer", "s3cret", "--record", file25]);
  try {
    const c25 = await TaskClient.connect(`${l25.base}/bridge/mcp`, { fetch: withToken(l25.token), protocolVersion: "2025-11-25", push: false });
    let session;
    try {
      session = c25.connection.sessionId;
      assert.match(session ?? "", /./, "the session id passed back to the page");
      const r = await c25.callTool("slow_compute", { seconds: 0.3, label: "h25" }, { task: {} });
      assert.equal(r.content[0].text, "h25: done after 0.3 s");
    } finally {
      await c25.close();
    }
    assert.ok(server.child.stdoutText.includes(`seen POST Bearer s3cret ${session} -`));
    assert.ok(server.child.stdoutText.includes(`seen DELETE Bearer s3cret ${session} -`));
  } finally {
    await stop(l25.child);
  }
  const r25 = lines(file25).filter((r) => r.from === "client" && r.message.method !== "initialize");
  assert.ok(r25.every((r) => typeof r.headers["mcp-session-id"] === "string"));
  const c25 = check(file25);
  assert.equal(c25.status, 0, c25.out);
  await stop(server.child);
});

test("record URL: a recording proxy for HTTP clients (bearer added, web pages refused); record -- CMD: a stdio pass-through", async () => {
  const server = await bearerServer("p4ss");
  const file = join(dir, "proxy.jsonl");
  const proxy = start(BIN, ["record", "--record", file, "--bearer", "p4ss", server.url]);
  try {
    const [, url] = await waitFor(proxy, /proxy (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    assert.equal((await fetch(url, { method: "POST", headers: { origin: "http://evil.example", "content-type": "text/plain" }, body: "{}" })).status, 403);
    const client = await TaskClient.connect(url, { push: false });
    try {
      const r = await client.callTool("slow_compute", { seconds: 0.2, label: "proxy" }, { task: {} });
      assert.equal(r.content[0].text, "proxy: done after 0.2 s");
    } finally {
      await client.close();
    }
  } finally {
    await stop(proxy);
    await stop(server.child);
  }
  const recorded = lines(file);
  assert.ok(recorded.filter((r) => r.from === "client").every((r) => r.headers?.authorization === "(redacted)" && r.headers["mcp-method"] === r.message.method));
  const c = check(file);
  assert.equal(c.status, 0, c.out);
  assert.match(c.out, / 0 errors, 0 warnings, 1 task/);

  // stdio: a client runs `record -- CMD` in place of CMD; the bytes pass unchanged both ways.
  const sfile = join(dir, "stdio-pass.jsonl");
  const pass = start(BIN, ["record", "--record", sfile, "--", process.execPath, STDIO_SERVER], { stdio: ["pipe", "pipe", "pipe"] });
  try {
    const send = (m) => pass.stdin.write(`${JSON.stringify(m)}\n`);
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { tasks: {} }, clientInfo: { name: "t", version: "1" } } });
    await waitFor(pass, /"id":1,"result"/);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "greet", arguments: { name: "pipe" } } });
    await waitFor(pass, /Hello, pipe!/);
    pass.stdin.end();
    const { code } = await pass.exited;
    assert.equal(code, 0);
  } finally {
    await stop(pass);
  }
  const s = lines(sfile);
  assert.deepEqual(s.map((r) => `${r.from} ${r.message.method ?? r.message.id}`), ["client initialize", "server 1", "client notifications/initialized", "client tools/call", "server 2"]);
  const sc = check(sfile);
  assert.equal(sc.status, 0, sc.out);
});

test("the bridge's bounds: a body over --max-message-bytes gets 413; over --max-queued, the oldest server request is answered", async () => {
  // A stdio "server" that, once started, sends 4 requests while no page stream is open, then
  // logs (to stderr, the launcher's) each line it reads.
  const script = [
    "const rl = require('readline').createInterface({ input: process.stdin });",
    "for (let i = 1; i <= 4; i++) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: 's' + i, method: 'ping' }) + '\\n');",
    "rl.on('line', (l) => process.stderr.write('child read ' + l + '\\n'));",
  ].join("\n");
  const l = await launch(["--max-message-bytes", "2048", "--max-queued", "2", "--", process.execPath, "-e", script]);
  try {
    const mcp = `${l.base}/bridge/mcp`;
    const headers = { "content-type": "application/json", "x-mcp-bridge-token": l.token };
    const big = await fetch(mcp, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/x", params: { pad: "x".repeat(4096) } }) });
    assert.equal(big.status, 413);
    assert.deepEqual(await big.json(), { error: "the request body is over the bridge's limit of 2048 bytes (--max-message-bytes)", limit: "max-message-bytes" });
    assert.equal((await fetch(mcp, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).status, 202);
    const answered = await waitFor(l.child, /child read (\{.*"id":"s2".*\})/, "stderr");
    const first = JSON.parse(l.child.stderrText.match(/child read (\{.*"id":"s1".*\})/)[1]);
    assert.equal(first.error.code, -32603);
    assert.equal(first.error.data.limit, "max-queued");
    assert.equal(JSON.parse(answered[1]).error.data.limit, "max-queued");
    // The two kept are handed to the next stream the page opens.
    const ac = new AbortController();
    const stream = await fetch(mcp, { headers: { ...headers, accept: "text/event-stream" }, signal: ac.signal });
    assert.equal(stream.status, 200);
    const reader = stream.body.getReader();
    let text = "";
    while (!text.includes('"s4"')) text += new TextDecoder().decode((await reader.read()).value);
    ac.abort();
    assert.deepEqual([...text.matchAll(/"id":"(s\d)"/g)].map((m) => m[1]), ["s3", "s4"]);
  } finally {
    await stop(l.child);
  }
});

test("the browser: the platform opener gets the URL; without one the launcher only prints it", async () => {
  if (process.platform !== "linux") return;
  const bin = join(dir, "bin");
  const bare = join(dir, "bare");
  mkdirSync(bin);
  mkdirSync(bare);
  const opened = join(dir, "opened");
  writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\necho "$@" > ${JSON.stringify(opened)}\n`, { mode: 0o755 });
  for (const d of [bin, bare]) symlinkSync(process.execPath, join(d, "node"));
  const withOpener = start(BIN, ["inspect"], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
  try {
    const [url] = await waitFor(withOpener, /http:\/\/127\.0\.0\.1:\d+\/#bridge=\S+/);
    for (let i = 0; i < 100 && !existsSync(opened); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(readFileSync(opened, "utf8").trim(), url);
  } finally {
    await stop(withOpener);
  }
  const without = start(BIN, ["inspect"], { env: { ...process.env, PATH: bare } });
  try {
    const [url] = await waitFor(without, /http:\/\/127\.0\.0\.1:\d+\/#bridge=\S+/);
    await waitFor(without, /no browser opener found/, "stderr");
    assert.equal((await fetch(new URL("/", url))).status, 200, "still serving");
  } finally {
    await stop(without);
  }
});

test("usage errors exit 2 and say why", () => {
  for (const [args, re] of [
    [["inspect", "not a url"], /not a URL/],
    [["inspect", "http://127.0.0.1:1/mcp", "--", "node"], /not both/],
    [["inspect", "--header", "no colon"], /Name: value/],
    [["inspect", "--port", "99999"], /--port/],
    [["record", "http://127.0.0.1:1/mcp"], /--record FILE/],
  ]) {
    const r = spawnSync(BIN, args, { encoding: "utf8" });
    assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, re);
  }
  const help = spawnSync(BIN, ["inspect", "--help"], { encoding: "utf8" });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /--bearer TOKEN/);
});
