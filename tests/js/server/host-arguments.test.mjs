// TaskHost checks a call's `arguments` against the tool's inputSchema (js/server/tool-schema.ts
// over the core's ToolArgumentsSchema): JSON Schema and Standard Schema (zod 4.5.4 of tools/sdk2)
// given the way developers write them, refusals at registration, the answer in both eras, no task
// for bad arguments, the Standard Schema's output value reaching the handler, and (tsc --strict)
// the handler's `args` typed by a zod schema.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { request26 } from "../lib/messages.mjs";
// The classes' internal tables and bounds, read through their deliberate test hook
// (`@internal`, absent from the typings: js/core/internals.ts).
const internals = (o) => o[Symbol.for("mcp-tasks-wasm.internals")]();

const { TaskHost, McpHttpServer, validateMessage } = await import("../.tmp/install/server.mjs");
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..", "..");
const { z } = createRequire(join(root, "tools", "sdk2", "package.json"))("zod");

const V25 = "2025-11-25";
const V26 = "2026-07-28";
let nextId = 1;

const v25 = (params) => ({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params });
const v26 = (params, ext = true) => request26(nextId++, "tools/call", params, { ext });

async function call(host, request, ctx) {
  const response = await host.handle(request, ctx);
  const r = validateMessage(response, { inReplyTo: request.method, version: ctx.protocolVersion });
  assert.ok(r.valid, JSON.stringify(r.issues));
  return response;
}

const text = (r) => r.result.content.map((c) => c.text).join("\n");

test("a JSON Schema: bad arguments never reach prepare, the handler or a task, in both eras", async () => {
  const host = new TaskHost();
  let ran = 0;
  host.tool("add", {
    inputSchema: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer", maximum: 10 } }, required: ["a", "b"], additionalProperties: false },
    prepare: () => { ran += 1; },
  }, async ({ a, b }) => { ran += 1; return { content: [{ type: "text", text: String(a + b) }] }; });
  const bad = { a: "1", c: true };
  const cases = [
    [v25({ name: "add", arguments: bad }), { protocolVersion: V25, session: "s" }],
    [v25({ name: "add", arguments: bad, task: { ttl: 1000 } }), { protocolVersion: V25, session: "s" }],
    [v26({ name: "add", arguments: bad }, false), { protocolVersion: V26 }],
    [v26({ name: "add", arguments: bad }, true), { protocolVersion: V26 }],
  ];
  for (const [request, ctx] of cases) {
    const r = await call(host, request, ctx);
    assert.equal(r.result.isError, true);
    const t = text(r);
    assert.match(t, /^Invalid arguments for tool add: /);
    assert.match(t, /\/a: expected integer, found string/);
    assert.match(t, /\/b: missing required member "b"/);
    assert.match(t, /\/c: unexpected member "c"/);
  }
  assert.equal(ran, 0);
  assert.equal(host.server.listTasks?.({ protocolVersion: V25, session: "s" })?.tasks?.length ?? 0, 0);
  const ok = await call(host, v25({ name: "add", arguments: { a: 1, b: 2 } }), { protocolVersion: V25, session: "s" });
  assert.equal(text(ok), "3");
  assert.equal(ran, 2);
  // Absent arguments are `{}`: checked too.
  const none = await call(host, v25({ name: "add" }), { protocolVersion: V25, session: "s" });
  assert.match(text(none), /missing required member "a"/);
});

test("a call the protocol refuses keeps its JSON-RPC error", async () => {
  const host = new TaskHost();
  host.tool("must", { taskSupport: "required", inputSchema: { type: "object", properties: { n: { type: "number" } } } }, async () => ({ content: [] }));
  const r = await host.handle(v26({ name: "must", arguments: { n: "x" } }, false), { protocolVersion: V26 });
  assert.ok(r.error, JSON.stringify(r));
});

test("schemas that cannot be used are refused at registration, naming the tool and the place", () => {
  const host = new TaskHost();
  const h = async () => ({ content: [] });
  assert.throws(() => host.tool("t", { inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/Nope" } } } }, h),
    (e) => e instanceof TypeError && /tool t: inputSchema cannot be used: at \/properties\/a\/\$ref: \$ref "#\/\$defs\/Nope" points at nothing/.test(e.message));
  assert.throws(() => host.tool("t", { inputSchema: { properties: {} } }, h), /tool t: .*at \/type: an inputSchema must say "type": "object"/);
  assert.throws(() => host.tool("t", { inputSchema: "object" }, h), /tool t: .*must be a JSON Schema object/);
  // The SDK habit: a zod raw shape. Refused with what to write instead.
  assert.throws(() => host.tool("t", { inputSchema: { seconds: z.number() } }, h),
    (e) => e instanceof TypeError && /tool t: inputSchema looks like a zod shape \(\{ seconds: … \}\): write z\.object/.test(e.message));
  assert.throws(() => host.tool("t", { inputSchema: { "~standard": {} } }, h), /no validate function/);
  const tiny = new TaskHost({ maxInputSchemaNodes: 2 });
  assert.throws(() => tiny.tool("t", { inputSchema: { type: "object", properties: { a: {}, b: {}, c: {} } } }, h), /more than 2 subschemas/);
  assert.throws(() => new TaskHost({ maxArgumentCheckSteps: 0 }), /maxArgumentCheckSteps must be a positive integer/);
  assert.equal(internals(host).tools.size, 0);
});

test("hostile arguments against a recursive schema end with a refusal, not a hang", async () => {
  const host = new TaskHost({ maxArgumentCheckSteps: 5000 });
  host.tool("tree", { inputSchema: { type: "object", $defs: { n: { anyOf: [
    { type: "object", properties: { c: { $ref: "#/$defs/n" } }, allOf: [false] },
    { type: "object", properties: { c: { $ref: "#/$defs/n" } } },
  ] } }, properties: { c: { $ref: "#/$defs/n" } } } }, async () => ({ content: [] }));
  let v = {};
  for (let i = 0; i < 60; i++) v = { c: v };
  const r = await call(host, v26({ name: "tree", arguments: v }, false), { protocolVersion: V26 });
  assert.equal(r.result.isError, true);
  assert.match(text(r), /too complex to check/);
});

test("zod 4: published as JSON Schema, checked by the core, then its own validate gives the handler its value", async () => {
  const server = new McpHttpServer({ name: "s", version: "1" });
  let seen;
  server.tool("slow", {
    inputSchema: z.object({ seconds: z.number().min(0).default(1), label: z.string().regex(/^[a-z]+$/).optional() }),
  }, async (args) => { seen = args; return { content: [{ type: "text", text: `${args.seconds}` }] }; });
  const listed = internals(server).endpoint.tools.get("slow").descriptor.inputSchema;
  assert.equal(listed.type, "object");
  assert.deepEqual(listed.properties.seconds.type, "number");
  const host = server.host;
  const ctx = { protocolVersion: V26 };
  const bad = await call(host, v26({ name: "slow", arguments: { seconds: "seven" } }, false), ctx);
  assert.match(text(bad), /\/seconds: expected number, found string/); // the core's words
  // pattern is zod's to check (an annotation for the core): its issue, with its path as a pointer.
  const pat = await call(host, v26({ name: "slow", arguments: { seconds: 1, label: "A1" } }, false), ctx);
  assert.equal(pat.result.isError, true);
  assert.match(text(pat), /\/label: /);
  const ok = await call(host, v26({ name: "slow", arguments: {} }, false), ctx);
  assert.equal(ok.result.isError, undefined);
  assert.deepEqual(seen, { seconds: 1 }); // zod's default
  await server.close?.();
  // A validate that throws answers the same way: the handler does not run.
  const h2 = new TaskHost();
  let ran = false;
  h2.tool("boom", { inputSchema: z.object({ a: z.number() }).refine(() => { throw new Error("bug in a refinement"); }) }, async () => { ran = true; return { content: [] }; });
  const boom = await call(h2, v26({ name: "boom", arguments: { a: 1 } }, false), ctx);
  assert.equal(boom.result.isError, true);
  assert.match(text(boom), /validate threw: bug in a refinement/);
  assert.equal(ran, false);
});

test("tsc --strict: a zod schema types the handler's args; a wrong use does not compile", async () => {
  const install = join(root, "tests", "js", ".tmp", "install");
  const dir = join(install, "arg-types");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  symlinkSync(join(install, "node_modules", "mcp-tasks-wasm"), join(dir, "node_modules", "mcp-tasks-wasm"));
  symlinkSync(join(root, "tools", "sdk2", "node_modules", "zod"), join(dir, "node_modules", "zod"));
  assert.ok(existsSync(join(dir, "node_modules", "zod", "package.json")));
  writeFileSync(join(dir, "app.mts"), `
import { z } from "zod";
import { TaskHost, McpHttpServer } from "mcp-tasks-wasm/server";
const host = new TaskHost();
host.tool("slow", { inputSchema: z.object({ seconds: z.number(), label: z.string().optional() }) }, async (args) => {
  const s: number = args.seconds;
  const l: string | undefined = args.label;
  return { content: [{ type: "text", text: String(s) + (l ?? "") }] };
});
const server = new McpHttpServer({ name: "s", version: "1" });
server.tool("slow", { inputSchema: z.object({ n: z.number().default(1) }), taskSupport: "optional" }, async ({ n }) => ({ content: [{ type: "text", text: n.toFixed(1) }] }));
server.tool("json", { inputSchema: { type: "object", properties: { a: { type: "string" } } } }, async (args) => ({ content: [{ type: "text", text: String(args.a) }] }));
host.tool("wrong", { inputSchema: z.object({ seconds: z.number() }) }, async (args) => {
  // @ts-expect-error seconds is a number
  const s: string = args.seconds;
  return { content: [{ type: "text", text: s }] };
});
`);
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext", lib: ["es2022"], types: [], skipLibCheck: true }, files: ["app.mts"] }));
  const tsc = join(root, "node_modules", ".bin", "tsc");
  const out = await promisify(execFile)(tsc, ["-p", join(dir, "tsconfig.json"), "--pretty", "false"], { cwd: dir }).then((r) => r.stdout, (e) => `${e.stdout ?? ""}${e.stderr ?? ""}`);
  assert.deepEqual(out.split("\n").filter((l) => /error TS/.test(l)), []);
});
