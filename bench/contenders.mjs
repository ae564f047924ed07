// The three validators, set up once (outside any timed loop).
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, resolve } from "node:path";
import { SCHEMA_FILES } from "./messages.mjs";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export function schemaPath(key) {
  return resolve(REPO, SCHEMA_FILES[key]);
}

// ajv 2020 over the official schemas. Formats ("uri", "byte", "uri-template") are not validated:
// the messages carry none, and the SDK's ajv-formats is not a root dependency.
export async function makeAjv() {
  const { default: Ajv2020 } = await import("ajv/dist/2020.js");
  const byKey = {};
  for (const key of Object.keys(SCHEMA_FILES)) {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const schema = JSON.parse(readFileSync(schemaPath(key), "utf8"));
    const id = schema.$id ?? `urn:bench:${key}`;
    ajv.addSchema(schema, id);
    byKey[key] = { ajv, id };
  }
  const cache = new Map();
  return function compiled({ schema, def }) {
    const k = `${schema}#${def}`;
    if (!cache.has(k)) {
      const { ajv, id } = byKey[schema];
      const fn = ajv.getSchema(`${id}#/$defs/${def}`);
      if (!fn) throw new Error(`ajv: no definition ${def} in ${schema}`);
      cache.set(k, fn);
    }
    return cache.get(k);
  };
}

export async function makeZod() {
  const types = await import("@modelcontextprotocol/sdk/types.js");
  return (name) => {
    const s = types[name];
    if (!s || typeof s.safeParse !== "function") throw new Error(`SDK types.js has no zod schema ${name}`);
    return s;
  };
}

export async function makeOurs() {
  const mod = await import(pathToFileURL(resolve(REPO, "pkg/node.mjs")).href);
  return mod.validateMessage;
}
