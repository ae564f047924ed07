#!/usr/bin/env node
// An MCP server that hosts tasks with mcp-tasks-wasm, over Streamable HTTP on plain node:http.
//
//   bash scripts/build.sh                                  # builds pkg/ (the package)
//   node examples/conformance-server.mjs --port 3000       # serves http://127.0.0.1:3000/mcp
//
// It speaks protocol 2026-07-28 (stateless: every request carries its own `params._meta` with
// the protocol version and the client's capabilities) with the tasks extension
// `io.modelcontextprotocol/tasks`, answers with plain JSON (no SSE), and registers the fixture
// tools the official conformance suite (@modelcontextprotocol/conformance) expects; see
// scripts/conformance.sh. `--port 0` picks a free port; the first line printed names the URL.
//
// What is where: every task rule (when a `tools/call` becomes a task, -32021 for clients that
// did not declare the extension, `tasks/get|update|cancel`, input requests, cancellation, TTLs)
// lives in the package, behind `TaskHost`; the routing-header check (-32020) is the package's
// `validateMessage`. This file holds only the HTTP plumbing, `server/discover`, `tools/list`,
// and the tools themselves.

import http from "node:http";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";

// Users of the published package write:
//   import { TaskHost, validateMessage } from "mcp-tasks-wasm/server";
import { TaskHost, validateMessage } from "../pkg/server/node.mjs";

const PROTOCOL_VERSION = "2026-07-28";
const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
const SERVER_INFO = { name: "mcp-tasks-wasm-conformance-server", version: "0.1.0" };

// JSON-RPC error codes this file answers itself (everything task-related comes from the package).
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const HEADER_MISMATCH = -32020;
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** An error a tool throws to end its call with a JSON-RPC error (a `failed` task). */
class RpcError extends Error {
  /** @param {number} code @param {string} message @param {unknown} [data] */
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

// ---- the tools ---------------------------------------------------------------------------------
//
// `taskSupport` is the server's policy for the tool under 2026-07-28: "forbidden" (always
// synchronous), "optional" (a task when the request declares the extension) or "required"
// (only as a task; other calls get -32021 from the package).

const text = (/** @type {string} */ t) => ({ content: [{ type: "text", text: t }] });

/** An `elicitation/create` input request for a form with the given properties. */
function elicit(message, properties) {
  return {
    method: "elicitation/create",
    params: {
      mode: "form",
      message,
      requestedSchema: { type: "object", properties, required: Object.keys(properties) },
    },
  };
}

/** Whether the request's own `_meta` declares the client capability `name` (e.g. elicitation). */
function clientCan(request, name) {
  return Boolean(request.params?._meta?.[META_CLIENT_CAPABILITIES]?.[name]);
}

const TOOLS = [
  {
    name: "greet",
    description: "Says hello (always synchronous).",
    inputSchema: { type: "object", properties: { name: { type: "string" } } },
    taskSupport: "forbidden",
    handler: ({ name }) => text(`Hello, ${name ?? "World"}!`),
  },
  {
    name: "slow_compute",
    description: "Sleeps `seconds` seconds, then answers; stops when its task is cancelled.",
    inputSchema: {
      type: "object",
      properties: { seconds: { type: "number", minimum: 0 }, label: { type: "string" } },
    },
    taskSupport: "optional",
    handler: async ({ seconds = 1, label = "compute" }, { signal }) => {
      // The signal aborts on tasks/cancel: sleep() then rejects and the work stops. The task is
      // already `cancelled` in the store; what the handler returns afterwards is discarded.
      await sleep(Number(seconds) * 1000, undefined, { signal });
      return text(`${label}: done after ${seconds} s`);
    },
  },
  {
    name: "failing_job",
    description: "Runs for about a second, then reports a tool execution error (isError).",
    inputSchema: { type: "object", properties: {} },
    taskSupport: "required",
    handler: async (_args, { signal }) => {
      await sleep(1000, undefined, { signal });
      // A tool execution error is a result: the task ends `completed` with `isError: true`.
      return { ...text("failing_job: the job failed (as it always does)"), isError: true };
    },
  },
  {
    name: "protocol_error_job",
    description: "Ends with a JSON-RPC error (the task ends `failed`).",
    inputSchema: { type: "object", properties: {} },
    taskSupport: "optional",
    handler: async (_args, { signal }) => {
      await sleep(200, undefined, { signal });
      // A thrown { code, message } is a JSON-RPC error: the task ends `failed` with it.
      throw new RpcError(-32603, "protocol_error_job: internal error (on purpose)");
    },
  },
  {
    name: "confirm_delete",
    description: "Asks the user (one elicitation) before pretending to delete `filename`.",
    inputSchema: { type: "object", properties: { filename: { type: "string" } } },
    taskSupport: "optional",
    handler: async ({ filename = "file.txt" }, ctx) => {
      if (!clientCan(ctx.request, "elicitation")) {
        return { ...text("confirm_delete needs a client that supports elicitation"), isError: true };
      }
      // requestInput puts the task in `input_required` with these input requests; the client
      // reads them from tasks/get and answers with tasks/update; then the promise resolves.
      const { confirm } = await ctx.requestInput(
        { confirm: elicit(`Delete ${filename}?`, { confirm: { type: "boolean" } }) },
        `waiting for confirmation to delete ${filename}`,
      );
      const yes = confirm?.action === "accept" && confirm?.content?.confirm !== false;
      return text(yes ? `Deleted ${filename}` : `Kept ${filename}`);
    },
  },
  {
    name: "multi_input",
    description: "Asks two questions at once (two input requests outstanding together).",
    inputSchema: { type: "object", properties: {} },
    taskSupport: "optional",
    handler: async (_args, ctx) => {
      if (!clientCan(ctx.request, "elicitation")) {
        return { ...text("multi_input needs a client that supports elicitation"), isError: true };
      }
      const answers = await ctx.requestInput({
        name: elicit("What is your name?", { name: { type: "string" } }),
        confirm: elicit("Shall I go on?", { confirm: { type: "boolean" } }),
      });
      return text(`multi_input: got ${Object.keys(answers).sort().join(" and ")}`);
    },
  },
  {
    name: "test_tool_with_task",
    description: "Asks for the user's name first (MRTR), then greets them from a task.",
    inputSchema: { type: "object", properties: {} },
    taskSupport: "required",
    // Multi-round tool call (MRTR, SEP-2322): input gathered *before* any task exists. The first
    // call is answered with an InputRequiredResult; the retry carrying `inputResponses` (and the
    // echoed `requestState`) goes to the host, which creates the task. See gatherInput below.
    inputs: { user_name: elicit("What is your name?", { name: { type: "string" } }) },
    handler: async (_args, { request, signal }) => {
      const name = request.params.inputResponses.user_name.content?.name ?? "stranger";
      await sleep(200, undefined, { signal });
      return text(`Hello, ${name}! (from a task)`);
    },
  },
];

const host = new TaskHost();
for (const t of TOOLS) host.tool(t.name, { taskSupport: t.taskSupport }, t.handler);

// Purge expired tasks now and then; unref'd so it never keeps the process alive.
setInterval(() => host.sweep(), 60_000).unref();

// ---- MRTR before a task (SEP-2322) -------------------------------------------------------------
//
// `requestState` is opaque to the client and comes back on the retry: sign it so that a forged
// or replayed-elsewhere state is refused. The key lives as long as the process.

const STATE_KEY = randomBytes(32);
const sign = (/** @type {string} */ s) => createHmac("sha256", STATE_KEY).update(s).digest("base64url");

function issueState(tool) {
  const body = Buffer.from(JSON.stringify({ tool, at: Date.now() })).toString("base64url");
  return `${body}.${sign(body)}`;
}

function stateIsValid(state, tool) {
  if (typeof state !== "string") return false;
  const [body, mac] = state.split(".");
  if (!body || !mac) return false;
  const want = Buffer.from(sign(body));
  const got = Buffer.from(mac);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return false;
  try {
    return JSON.parse(Buffer.from(body, "base64url").toString()).tool === tool;
  } catch {
    return false;
  }
}

/**
 * The MRTR round of a tool with `inputs`: `null` when the request already carries every answer
 * (the call proceeds), else the response to send now (an InputRequiredResult, or an error for a
 * forged `requestState`).
 */
function gatherInput(tool, request) {
  const params = request.params;
  const answers = params.inputResponses ?? {};
  const missing = Object.keys(tool.inputs).filter((k) => typeof answers[k] !== "object" || answers[k] === null);
  if (missing.length === 0) {
    if (!stateIsValid(params.requestState, tool.name)) {
      return rpcError(request.id, INVALID_PARAMS, "Invalid params: requestState is missing or was not issued by this server");
    }
    return null;
  }
  return {
    jsonrpc: "2.0",
    id: request.id,
    result: {
      resultType: "input_required",
      inputRequests: Object.fromEntries(missing.map((k) => [k, tool.inputs[k]])),
      requestState: issueState(tool.name),
    },
  };
}

// ---- one JSON-RPC request ----------------------------------------------------------------------

function rpcError(id, code, message, data) {
  return { jsonrpc: "2.0", id: id ?? null, error: data === undefined ? { code, message } : { code, message, data } };
}

/**
 * Answers one parsed JSON-RPC message that came with `headers`: `{ status, body }` (`body`
 * `null`: nothing to send, HTTP 202).
 */
async function answer(message, headers) {
  // The package's validator checks the message against 2026-07-28 and, with `headers`, the
  // standard headers (Mcp-Method = method; Mcp-Name = params.taskId on tasks/get|update|cancel,
  // or the tool's name; MCP-Protocol-Version = the version `_meta` names).
  const report = validateMessage(message, { version: PROTOCOL_VERSION, headers });
  if (report.rpc === "notification") return { status: 202, body: null };
  if (report.rpc !== "request") {
    return { status: 400, body: rpcError(message?.id, INVALID_REQUEST, "Invalid Request: expected a JSON-RPC request") };
  }
  const id = message.id;
  const issue = (code) => report.issues.find((i) => i.code === code);
  const mismatch = issue("header-mismatch");
  if (mismatch) return { status: 400, body: rpcError(id, HEADER_MISMATCH, `Header mismatch: ${mismatch.message}`) };
  const badMeta = issue("request-meta");
  if (badMeta) return { status: 400, body: rpcError(id, INVALID_PARAMS, `Invalid params: ${badMeta.message}`) };

  const requested = message.params._meta[META_PROTOCOL_VERSION];
  if (requested !== PROTOCOL_VERSION) {
    return {
      status: 400,
      body: rpcError(id, UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version", {
        supported: [PROTOCOL_VERSION],
        requested: String(requested),
      }),
    };
  }

  switch (message.method) {
    case "server/discover":
      return ok(id, {
        supportedVersions: [PROTOCOL_VERSION],
        // The tasks extension, and never the legacy `capabilities.tasks` block.
        capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
        serverInfo: SERVER_INFO,
        cacheScope: "public",
        ttlMs: 0,
      });
    case "tools/list":
      return ok(id, {
        tools: TOOLS.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
        cacheScope: "public",
        ttlMs: 0,
      });
    case "ping":
      return ok(id, {});
    case "tools/call": {
      const tool = TOOLS.find((t) => t.name === message.params.name);
      if (!tool) return { status: 200, body: rpcError(id, INVALID_PARAMS, `Invalid params: unknown tool ${JSON.stringify(message.params.name)}`) };
      if (tool.inputs) {
        const early = gatherInput(tool, message);
        if (early) return { status: statusOf(early), body: early };
      }
      break;
    }
  }

  // tools/call and tasks/*: the host answers (a sync result, a CreateTaskResult, a task, an ack,
  // or the error the rules call for); `null` means the message is not for it.
  const ctx = { protocolVersion: PROTOCOL_VERSION }; // no `session`: this demo has no authorization
  const response = await host.handle(message, ctx);
  if (response) return { status: statusOf(response), body: response };
  return { status: 200, body: rpcError(id, METHOD_NOT_FOUND, `Method not found: ${message.method}`) };
}

function ok(id, result) {
  return { status: 200, body: { jsonrpc: "2.0", id, result: { resultType: "complete", ...result } } };
}

/** HTTP 400 for the errors the transport says so for (-32020 … -32022, malformed requests). */
function statusOf(response) {
  const code = response.error?.code;
  return [PARSE_ERROR, INVALID_REQUEST, -32020, -32021, -32022].includes(code) ? 400 : 200;
}

// ---- HTTP --------------------------------------------------------------------------------------

const MAX_BODY = 4 * 1024 * 1024;

/** Origin check against DNS rebinding: a browser page from elsewhere may not talk to us. */
function originAllowed(origin) {
  if (origin === undefined) return true;
  try {
    return ["localhost", "127.0.0.1", "[::1]"].includes(new URL(origin).hostname);
  } catch {
    return false;
  }
}

function send(res, status, body) {
  if (body && body.result && typeof body.result === "object") {
    // Every result says which server produced it (SHOULD, 2026-07-28).
    body.result._meta = { ...body.result._meta, [META_SERVER_INFO]: SERVER_INFO };
  }
  const payload = body === null ? "" : JSON.stringify(body);
  res.writeHead(status, body === null ? {} : { "Content-Type": "application/json" });
  res.end(payload);
}

async function onRequest(req, res) {
  const path = new URL(req.url ?? "/", "http://localhost").pathname;
  if (path !== "/mcp") return send(res, 404, rpcError(null, INVALID_REQUEST, "Not found: the endpoint is /mcp"));
  if (!originAllowed(req.headers.origin)) return send(res, 403, rpcError(null, INVALID_REQUEST, "Forbidden origin"));
  // CORS for the allowed (local) origins only, so a page served on another local port (the
  // inspector's live mode) may call us: the preflight allows the MCP headers.
  if (req.headers.origin !== undefined) {
    res.setHeader("Access-Control-Allow-Origin", req.headers.origin);
    res.setHeader("Vary", "Origin");
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        "Access-Control-Allow-Methods": "POST",
        "Access-Control-Allow-Headers": "Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name",
        "Access-Control-Max-Age": "600",
      });
      return res.end();
    }
  }
  if (req.method !== "POST") {
    res.setHeader("Allow", "POST");
    return send(res, 405, rpcError(null, INVALID_REQUEST, "Method not allowed: POST JSON-RPC requests to /mcp"));
  }

  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY) return send(res, 413, rpcError(null, INVALID_REQUEST, "Request body too large"));
    chunks.push(chunk);
  }
  let message;
  try {
    message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return send(res, 400, rpcError(null, PARSE_ERROR, "Parse error: the body is not JSON"));
  }

  // Header values as strings, names lower-case (Node already lower-cases them).
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([, v]) => typeof v === "string"));
  try {
    const { status, body } = await answer(message, headers);
    send(res, status, body);
  } catch (e) {
    console.error("request failed:", e);
    send(res, 500, rpcError(message?.id, -32603, "Internal error"));
  }
}

// ---- main --------------------------------------------------------------------------------------

function portFromArgs(argv) {
  const i = argv.indexOf("--port");
  const value = i >= 0 ? argv[i + 1] : (argv.find((a) => a.startsWith("--port="))?.slice(7) ?? "3000");
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`usage: node examples/conformance-server.mjs [--port PORT]  (got ${JSON.stringify(value)})`);
    process.exit(2);
  }
  return port;
}

const server = http.createServer((req, res) => {
  onRequest(req, res).catch((e) => {
    console.error("request failed:", e);
    if (!res.headersSent) res.destroy();
  });
});

server.listen(portFromArgs(process.argv.slice(2)), "127.0.0.1", () => {
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  console.log(`MCP tasks server listening on http://127.0.0.1:${port}/mcp`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, async () => {
    server.close();
    server.closeAllConnections();
    await host.close(); // aborts the running tasks' work
    process.exit(0);
  });
}
