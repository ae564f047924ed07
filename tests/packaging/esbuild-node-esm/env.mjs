// esbuild --platform=node --format=esm: the Node probe bundled into one ES module in dist/, run
// by node from there, with nothing copied. No configuration.
import { exec, lastJson, scratch, tool } from "../lib.mjs";

export const kind = "server";

export async function run({ serverUrl }) {
  const dir = await scratch("esbuild-node-esm");
  await exec(tool("esbuild/bin/esbuild"), ["probe/node-main.js", "--bundle", "--platform=node", "--format=esm", "--outfile=dist/main.mjs"], { cwd: dir });
  return lastJson(await exec(process.execPath, ["dist/main.mjs", serverUrl], { cwd: dir }));
}
