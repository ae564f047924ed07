// Node ESM: `import ... from "mcp-tasks-wasm"` and "mcp-tasks-wasm/server" in a project of
// "type": "module", run by the machine's node (>= 20). No configuration.
import { exec, lastJson, scratch } from "../lib.mjs";

export const kind = "server";

export async function run({ serverUrl }) {
  const dir = await scratch("node-esm");
  return lastJson(await exec(process.execPath, ["probe/node-main.js", serverUrl], { cwd: dir }));
}
