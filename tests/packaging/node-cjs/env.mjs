// Node CommonJS: the probes as CommonJS (`require("mcp-tasks-wasm")`, "mcp-tasks-wasm/server") in
// a project of "type": "commonjs", run by the machine's node. No configuration.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exec, lastJson, scratch } from "../lib.mjs";

export const kind = "server";

/** The probes' ESM written as CommonJS: one-line imports become require(), exports a list. */
function toCjs(text) {
  const names = [];
  return text
    .replace(/^import \{([^}]*)\} from "([^"]+)";$/gm, (_, list, from) =>
      `const {${list}} = require("${from.replace(/\.js$/, ".cjs")}");`)
    .replace(/^export async function (\w+)/gm, (_, fn) => { names.push(fn); return `async function ${fn}`; })
    + (names.length ? `\nmodule.exports = { ${names.join(", ")} };\n` : "");
}

export async function run({ serverUrl }) {
  const dir = await scratch("node-cjs", { type: "commonjs" });
  for (const f of readdirSync(join(dir, "probe")).filter((f) => f.endsWith(".js"))) {
    writeFileSync(join(dir, "probe", f.replace(/\.js$/, ".cjs")), toCjs(readFileSync(join(dir, "probe", f), "utf8")));
  }
  return lastJson(await exec(process.execPath, ["probe/node-main.cjs", serverUrl], { cwd: dir }));
}
