// esbuild --platform=node (CommonJS, esbuild's default there): the Node probe bundled into one
// file in dist/, run by node from there, with nothing copied. No configuration.
import { exec, lastJson, scratch, tool } from "../lib.mjs";

export const kind = "server";

export async function run({ serverUrl }) {
  const dir = await scratch("esbuild-node");
  await exec(tool("esbuild/bin/esbuild"), ["probe/node-main.js", "--bundle", "--platform=node", "--outfile=dist/main.cjs"], { cwd: dir });
  return lastJson(await exec(process.execPath, ["dist/main.cjs", serverUrl], { cwd: dir }));
}
