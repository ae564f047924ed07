// Deno (npm's deno, pinned at the root): the scratch project's package.json and node_modules, as
// `deno run` finds them (no `npm:` download), the "deno" export condition. The only permission is
// the network to 127.0.0.1 for the TaskClient call: loading the .wasm needs none.
import { join } from "node:path";
import { DENO, exec, lastJson, scratch } from "../lib.mjs";

export const kind = "server";

export async function run({ serverUrl }) {
  const dir = await scratch("deno");
  const env = { DENO_DIR: join(dir, ".deno"), DENO_NO_UPDATE_CHECK: "1" };
  return lastJson(await exec(DENO, ["run", "--allow-net=127.0.0.1", "probe/node-main.js", serverUrl], { cwd: dir, env }));
}
