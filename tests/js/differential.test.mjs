// Differential test: the validator against ajv running the official JSON Schemas.
//
//   node --test tests/js/differential.test.mjs
//
// Environment:
//   MCP_TASKS_PKG      the package entry to import (default ../../pkg/node.mjs from this file);
//                      a wasm-bindgen --target nodejs output (…/mcp_tasks_wasm.js) works too.
//   MCP_TASKS_SCHEMAS  the directory of the official schemas (default docs/spec/schemas from
//                      the repository root, a byte-exact copy: docs/spec/schemas/SOURCE.md).
//   MCP_TASKS_DIFF_OUT where to write the full list of disagreements as JSON (default: the OS
//                      temporary directory, mcp-tasks-differential.json).
//
// The corpus: tests/js/fixtures/valid/*.json, each
//   { version, inReplyTo?, schemaDef, schemaPart: "message"|"result"|"params",
//     extraSchemas?: [{schemaDef, schemaPart}], message }
// `schemaDef` names an official definition: for 2025-11-25 one of the core 2025 schema, for
// 2026-07-28 one of the tasks-extension schema, or of the core 2026 schema with a `core:` prefix.
// Every check applies to its part of the message (`message.result`, `message.params`, or the
// whole message); ajv's verdict is the conjunction of all checks.
//
// 1. Every fixture is valid for ajv (else the fixture is broken) and for the validator.
// 2. Every fixture yields deterministic mutants (each member deleted, each value replaced by
//    values of other types, strings by non-enum strings, numbers by out-of-range ones, values
//    wrapped in arrays and objects, objects given an unknown member, arrays given a null item).
//    A mutant that ajv rejects and the validator accepts is a failure: the validator must be at
//    least as strict as the official schemas. The validator may reject more (its rules are
//    stricter: timestamps, negative milliseconds, payload rules), which is only counted.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");
const FIXTURES = path.join(HERE, "fixtures", "valid");
const SCHEMAS = process.env.MCP_TASKS_SCHEMAS
  ? path.resolve(process.env.MCP_TASKS_SCHEMAS)
  : path.resolve(REPO, "docs/spec/schemas");
const PKG = process.env.MCP_TASKS_PKG
  ? pathToFileURL(path.resolve(process.env.MCP_TASKS_PKG)).href
  : new URL("../../pkg/node.mjs", import.meta.url).href;
const DIFF_OUT =
  process.env.MCP_TASKS_DIFF_OUT || path.join(os.tmpdir(), "mcp-tasks-differential.json");

if (!fs.existsSync(path.join(SCHEMAS, "tasks-extension", "schema.json"))) {
  throw new Error(`official schemas not found at ${SCHEMAS}`);
}

// ---------------------------------------------------------------------------------------------
// ajv over the official schemas

const SCHEMA_IDS = {
  v25: "https://modelcontextprotocol.io/schema/2025-11-25/schema.json",
  v26: "https://modelcontextprotocol.io/schema/2026-07-28/schema.json",
  ext: null, // the extension schema has its own $id
};

function makeAjv() {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
  const load = (rel, id) => {
    const schema = JSON.parse(fs.readFileSync(path.join(SCHEMAS, rel), "utf8"));
    const $id = id ?? schema.$id;
    ajv.addSchema({ ...schema, $id });
    return $id;
  };
  const ids = {
    v25: load("2025-11-25/schema.json", SCHEMA_IDS.v25),
    v26: load("2026-07-28/schema.json", SCHEMA_IDS.v26),
    ext: load("tasks-extension/schema.json", SCHEMA_IDS.ext),
  };
  const cache = new Map();
  /** The compiled validator of `def` for a fixture of `version`. */
  return (version, def) => {
    let origin;
    let name = def;
    const m = /^(core|ext|v25|v26):(.*)$/.exec(def);
    if (m) {
      name = m[2];
      origin = m[1] === "core" ? (version === "2025-11-25" ? "v25" : "v26") : m[1];
    } else {
      origin = version === "2025-11-25" ? "v25" : "ext";
    }
    const key = `${origin}#${name}`;
    if (!cache.has(key)) {
      const fn = ajv.getSchema(`${ids[origin]}#/$defs/${name}`);
      if (!fn) throw new Error(`no definition ${name} in the ${origin} schema`);
      cache.set(key, fn);
    }
    return cache.get(key);
  };
}

function partOf(message, part) {
  switch (part) {
    case "message":
      return message;
    case "result":
      return message !== null && typeof message === "object" && !Array.isArray(message)
        ? message.result
        : undefined;
    case "params":
      return message !== null && typeof message === "object" && !Array.isArray(message)
        ? message.params
        : undefined;
    default:
      throw new Error(`unknown schemaPart ${part}`);
  }
}

const PART_PREFIX = { message: "", result: "/result", params: "/params" };

/** ajv's verdict on a (possibly mutated) message: every check of the fixture must pass. */
function ajvCheck(schemaFor, fixture, message) {
  const checks = [{ schemaDef: fixture.schemaDef, schemaPart: fixture.schemaPart }].concat(
    fixture.extraSchemas ?? [],
  );
  for (const [i, c] of checks.entries()) {
    const value = partOf(message, c.schemaPart);
    // An extra check whose part is gone: the main check (which requires it) decides.
    if (value === undefined && i > 0) continue;
    const validate = schemaFor(fixture.version, c.schemaDef);
    if (!validate(value)) {
      const errors = (validate.errors ?? [])
        .slice(0, 3)
        .map((e) => `${PART_PREFIX[c.schemaPart]}${e.instancePath} ${e.message}`);
      return { valid: false, errors: [`${c.schemaDef}: ${errors.join("; ")}`] };
    }
  }
  return { valid: true, errors: [] };
}

// ---------------------------------------------------------------------------------------------
// Mutations

const REPLACEMENTS = [
  ["null", null],
  ["0", 0],
  ["1.5", 1.5],
  ["-1", -1],
  ['"x"', "x"],
  ["true", true],
  ["[]", []],
  ["{}", {}],
];

const clone = (v) => (v === undefined ? undefined : structuredClone(v));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const escapeToken = (t) => String(t).replaceAll("~", "~0").replaceAll("/", "~1");

/** Every node of `root` as [pointer tokens, value], depth first, root first. */
function* nodes(value, tokens = []) {
  yield [tokens, value];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* nodes(value[i], [...tokens, i]);
  } else if (value !== null && typeof value === "object") {
    for (const k of Object.keys(value)) yield* nodes(value[k], [...tokens, k]);
  }
}

/** The mutations of one node: [label, fn(parent, key) applied to a clone]. */
function mutationsOf(value, isRoot) {
  const out = [];
  if (!isRoot) out.push(["delete", "delete"]);
  for (const [label, r] of REPLACEMENTS) {
    if (!same(r, value)) out.push([`= ${label}`, { set: r }]);
  }
  if (typeof value === "string") {
    out.push(['= "x-not-an-enum-value"', { set: "x-not-an-enum-value" }]);
    out.push(['= ""', { set: "" }]);
  }
  if (typeof value === "number") {
    out.push(["= 2^53", { set: 2 ** 53 }]);
    out.push(["= -2^53", { set: -(2 ** 53) }]);
    out.push(["= 1e300", { set: 1e300 }]);
    out.push([`= "${value}"`, { set: String(value) }]);
  }
  if (typeof value === "boolean") out.push([`= ${!value}`, { set: !value }]);
  out.push(["wrap in array", { set: [value] }]);
  out.push(["wrap in object", { set: { value } }]);
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    out.push(["add member", { set: { ...value, "x-mutant": 1 } }]);
  }
  if (Array.isArray(value)) {
    out.push(["append null", { set: [...value, null] }]);
    out.push(["append {}", { set: [...value, {}] }]);
  }
  return out;
}

/** Deterministic mutants of the fixture's main schema part, in the context of the message. */
function* mutants(fixture) {
  const prefix = fixture.schemaPart === "message" ? [] : [fixture.schemaPart];
  const part = partOf(fixture.message, fixture.schemaPart);
  const isMessagePart = fixture.schemaPart === "message";
  for (const [tokens, value] of nodes(part)) {
    const full = [...prefix, ...tokens];
    const pointer = full.map((t) => "/" + escapeToken(t)).join("");
    for (const [label, op] of mutationsOf(value, full.length === 0)) {
      // Replacing the method of a request or notification by another string makes another
      // kind of message that the fixture's definition does not describe: not comparable.
      if (
        isMessagePart &&
        full.length === 1 &&
        full[0] === "method" &&
        op !== "delete" &&
        typeof op.set === "string"
      ) {
        continue;
      }
      let message;
      if (full.length === 0) {
        message = clone(op.set);
      } else {
        message = clone(fixture.message);
        let parent = message;
        for (const t of full.slice(0, -1)) parent = parent[t];
        const key = full[full.length - 1];
        if (op === "delete") {
          if (Array.isArray(parent)) parent.splice(key, 1);
          else delete parent[key];
        } else {
          parent[key] = clone(op.set);
        }
      }
      yield { pointer, label, message };
    }
  }
}

// ---------------------------------------------------------------------------------------------

function loadFixtures() {
  return fs
    .readdirSync(FIXTURES)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ file: f, ...JSON.parse(fs.readFileSync(path.join(FIXTURES, f), "utf8")) }));
}

async function loadValidator() {
  const mod = await import(PKG);
  const fn = mod.validateMessage ?? mod.default?.validateMessage;
  if (typeof fn !== "function") throw new Error(`${PKG} exports no validateMessage`);
  return fn;
}

function optionsOf(fixture) {
  const o = { version: fixture.version };
  if (fixture.inReplyTo) o.inReplyTo = fixture.inReplyTo;
  return o;
}

const summary = (report) =>
  report.issues
    .filter((i) => i.severity === "error")
    .map((i) => `${i.code} at ${i.path || "/"}: ${i.message}`)
    .join("; ");

test("differential: validator vs ajv on the official schemas", async (t) => {
  const fixtures = loadFixtures();
  assert.ok(fixtures.length >= 20, `expected a corpus of fixtures in ${FIXTURES}`);
  const schemaFor = makeAjv();
  const validateMessage = await loadValidator();

  await t.test("every fixture is valid for ajv and for the validator", () => {
    const problems = [];
    for (const f of fixtures) {
      for (const key of ["version", "schemaDef", "schemaPart", "message"]) {
        if (f[key] === undefined) problems.push(`${f.file}: missing "${key}"`);
      }
      const a = ajvCheck(schemaFor, f, f.message);
      if (!a.valid) problems.push(`${f.file}: ajv rejects the fixture (broken fixture): ${a.errors}`);
      const r = validateMessage(f.message, optionsOf(f));
      if (!r.valid) problems.push(`${f.file}: the validator rejects it: ${summary(r)}`);
      if (r.version !== f.version) {
        problems.push(`${f.file}: the validator reports version ${r.version}, expected ${f.version}`);
      }
    }
    assert.equal(problems.length, 0, "\n" + problems.join("\n"));
  });

  await t.test("every mutant ajv rejects, the validator rejects", () => {
    const misses = [];
    let total = 0;
    let ajvRejected = 0;
    let oursRejected = 0;
    let oursOnly = 0;
    const oursOnlyByCode = new Map();
    for (const f of fixtures) {
      const opts = optionsOf(f);
      for (const m of mutants(f)) {
        total++;
        const a = ajvCheck(schemaFor, f, m.message);
        const r = validateMessage(m.message, opts);
        if (!a.valid) ajvRejected++;
        if (!r.valid) oursRejected++;
        if (!a.valid && r.valid) {
          misses.push({ fixture: f.file, pointer: m.pointer || "/", mutation: m.label, ajv: a.errors[0] });
        } else if (a.valid && !r.valid) {
          oursOnly++;
          for (const i of r.issues.filter((i) => i.severity === "error")) {
            oursOnlyByCode.set(i.code, (oursOnlyByCode.get(i.code) ?? 0) + 1);
          }
        }
      }
    }
    t.diagnostic(
      `${fixtures.length} fixtures, ${total} mutants: ajv rejected ${ajvRejected}, the validator ` +
        `rejected ${oursRejected}; rejected by the validator only: ${oursOnly}; ` +
        `accepted by the validator although ajv rejects: ${misses.length}`,
    );
    if (oursOnlyByCode.size > 0) {
      const codes = [...oursOnlyByCode].sort((x, y) => y[1] - x[1]);
      t.diagnostic(`validator-only rejections by code: ${codes.map(([c, n]) => `${c} ${n}`).join(", ")}`);
    }
    fs.writeFileSync(DIFF_OUT, JSON.stringify(misses, null, 1));
    if (misses.length > 0) {
      // Group by fixture and path: one line each, with the mutations and ajv's first error.
      const groups = new Map();
      for (const d of misses) {
        const k = `${d.fixture} ${d.pointer}`;
        if (!groups.has(k)) groups.set(k, { muts: [], ajv: d.ajv });
        groups.get(k).muts.push(d.mutation);
      }
      const lines = [...groups].map(
        ([k, g]) => `  ${k}: [${g.muts.join(", ")}] — ajv: ${g.ajv}`,
      );
      assert.fail(
        `${misses.length} mutants that ajv rejects were accepted by the validator ` +
          `(${groups.size} fixture paths; full list in ${DIFF_OUT}):\n${lines.join("\n")}`,
      );
    }
  });
});
