// A tool's `inputSchema` as developers write it (a JSON Schema object, or a Standard Schema such
// as a zod 4 object), turned into the JSON Schema `tools/list` shows and compiled once by the
// core (ToolArgumentsSchema), which checks every call's `arguments` in both eras. No schema
// library is imported: a Standard Schema converts itself (`~standard.jsonSchema.input`, Standard
// JSON Schema, as @modelcontextprotocol/server does) and validates itself (`~standard.validate`,
// run after the core's check for its output value: defaults, transforms).
//
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild). Web APIs only.
import { ToolArgumentsSchema } from "./mcp_tasks_wasm.js";

type JsonObject = Record<string, unknown>;

/** One problem a Standard Schema reports (https://standardschema.dev, v1). */
export type StandardSchemaIssue = {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey; }> | undefined;
};

/** What a Standard Schema's `validate` answers. */
export type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined; }
  | { readonly issues: ReadonlyArray<StandardSchemaIssue>; };

/**
 * A Standard Schema (v1): zod 4, Valibot, ArkType… `jsonSchema` is Standard JSON Schema, which
 * the package needs to publish the schema in `tools/list` (zod ≥ 4.2 has it).
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output; } | undefined;
    readonly jsonSchema?: {
      readonly input: (options: { readonly target: string; }) => Record<string, unknown>;
    };
  };
}

/** The output type of a Standard Schema (what the tool handler receives). */
export type StandardSchemaOutput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["output"];

/** A tool's `inputSchema`: a JSON Schema object (`"type": "object"` at its root) or a Standard Schema. */
export type ToolInputSchema = JsonObject | StandardSchemaV1;

/** Bounds of tool schemas and of argument checks (TaskHost options). */
export type ToolSchemaLimits = {
  /** Most subschemas one `inputSchema` may hold (default 10,000; more is refused at registration). */
  maxInputSchemaNodes?: number;
  /** Most steps one check of a call's `arguments` may take (default 1,000,000; more: the call is refused). */
  maxArgumentCheckSteps?: number;
};

/** An argument problem: a JSON Pointer into `arguments` (`""`: the whole object) and why. */
export type ArgumentIssue = { pointer: string; message: string; };

/** What a check answers: the arguments for the handler, or the issues. */
export type ArgumentsVerdict =
  | { ok: true; args: JsonObject; }
  | { ok: false; issues: ArgumentIssue[]; omitted: number; };

/** The JSON Schema draft a Standard Schema is asked for (MCP's default dialect). */
const JSON_SCHEMA_TARGET = "draft-2020-12";

function isRecord(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isStandard(v: unknown): v is StandardSchemaV1 {
  return (typeof v === "object" || typeof v === "function") && v !== null && "~standard" in v;
}

function pointerOf(path: StandardSchemaIssue["path"]): string {
  let p = "";
  for (const seg of path ?? []) {
    const key = typeof seg === "object" && seg !== null ? seg.key : seg;
    p += "/" + String(key).replace(/~/g, "~0").replace(/\//g, "~1");
  }
  return p;
}

/**
 * The JSON Schema to publish for `schema`, and the Standard Schema when one was given. Throws a
 * TypeError saying what to write for a zod raw shape (`{ seconds: z.number() }`) or a Standard
 * Schema that cannot describe itself as JSON Schema: never a broken schema in `tools/list`.
 */
function published(tool: string, schema: unknown): { json: unknown; standard: StandardSchemaV1 | undefined; } {
  if (schema === undefined) return { json: { type: "object" }, standard: undefined };
  if (isStandard(schema)) {
    const std = schema["~standard"];
    if (typeof std?.validate !== "function") throw new TypeError(`tool ${tool}: inputSchema has "~standard" but no validate function (not a Standard Schema)`);
    if (typeof std.jsonSchema?.input !== "function") {
      throw new TypeError(`tool ${tool}: inputSchema is a Standard Schema of "${String(std.vendor)}" that cannot describe itself as JSON Schema (no ~standard.jsonSchema): use a version that implements Standard JSON Schema (zod >= 4.2) or give a JSON Schema object`);
    }
    let json: unknown;
    try {
      json = std.jsonSchema.input({ target: JSON_SCHEMA_TARGET });
    } catch (e) {
      throw new TypeError(`tool ${tool}: inputSchema cannot be converted to JSON Schema: ${e instanceof Error ? e.message : String(e)}`);
    }
    // As @modelcontextprotocol/server: a root without `type` (a union of objects) is an object.
    if (isRecord(json) && json.type === undefined) json = { type: "object", ...json };
    return { json, standard: schema };
  }
  if (isRecord(schema) && Object.values(schema).some(isStandard)) {
    const names = Object.keys(schema).filter((k) => isStandard(schema[k]));
    throw new TypeError(`tool ${tool}: inputSchema looks like a zod shape ({ ${names.slice(0, 3).map((n) => `${n}: …`).join(", ")} }): write z.object({ ... }) (a Standard Schema) or a JSON Schema object ({ type: "object", properties: { ... } })`);
  }
  return { json: schema, standard: undefined };
}

/**
 * A tool's `inputSchema`, compiled once at registration; `check` answers for each call, the
 * same in both eras. Throws a TypeError naming the tool (and a JSON Pointer into the schema)
 * for a schema that cannot be used.
 */
export class ToolArguments {
  /** The JSON Schema `tools/list` shows. */
  readonly jsonSchema: JsonObject;
  readonly #compiled: ToolArgumentsSchema;
  readonly #standard: StandardSchemaV1 | undefined;
  readonly #anyObject: boolean;

  constructor(tool: string, schema: unknown, limits: ToolSchemaLimits = {}) {
    const { json, standard } = published(tool, schema);
    this.#compiled = new ToolArgumentsSchema(tool, json, limits.maxInputSchemaNodes, limits.maxArgumentCheckSteps);
    this.jsonSchema = json as JsonObject;
    this.#standard = standard;
    this.#anyObject = this.#compiled.acceptsAnyObject();
  }

  /**
   * Checks a call's `arguments`: the core's check first (bounded, the same everywhere), then,
   * for a Standard Schema, its own `validate` for the value the handler receives (defaults,
   * transforms) and whatever it checks beyond JSON Schema (refinements, `pattern`).
   */
  check(args: JsonObject): ArgumentsVerdict | Promise<ArgumentsVerdict> {
    if (this.#anyObject) {
      // The core found the schema takes every object (`{ type: "object" }`, the default): no
      // crossing into wasm for the usual call.
      if (isRecord(args) && this.#standard === undefined) return { ok: true, args };
    }
    const ours = this.#compiled.check(args);
    if (!ours.valid) return { ok: false, issues: ours.issues, omitted: ours.omitted };
    if (this.#standard === undefined) return { ok: true, args };
    return this.#theirs(this.#standard, args);
  }

  async #theirs(standard: StandardSchemaV1, args: JsonObject): Promise<ArgumentsVerdict> {
    let result: StandardSchemaResult<unknown>;
    try {
      result = await standard["~standard"].validate(args);
    } catch (e) {
      // A validate that throws (a refinement's bug) answers like one that reports: no handler runs.
      return { ok: false, issues: [{ pointer: "", message: `the inputSchema's validate threw: ${e instanceof Error ? e.message : String(e)}` }], omitted: 0 };
    }
    if (result.issues) {
      const issues = result.issues.slice(0, 20).map((i) => ({ pointer: pointerOf(i.path), message: String(i.message) }));
      return { ok: false, issues, omitted: Math.max(0, result.issues.length - issues.length) };
    }
    return { ok: true, args: (isRecord(result.value) ? result.value : args) as JsonObject };
  }

  /** Frees the compiled schema (a tool registered again replaces it). */
  free() {
    this.#compiled.free();
  }
}

/** The tool execution error (SEP-1303: `isError`, so the model can correct its call) for bad arguments. */
export function invalidArgumentsResult(tool: string, issues: ArgumentIssue[], omitted: number): JsonObject {
  const lines = issues.map((i) => `${i.pointer === "" ? "(arguments)" : i.pointer}: ${i.message}`);
  if (omitted > 0) lines.push(`(${omitted} more)`);
  return {
    content: [{ type: "text", text: `Invalid arguments for tool ${tool}: ${lines.join("; ")}` }],
    isError: true,
  };
}
