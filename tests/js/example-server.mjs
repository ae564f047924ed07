// Starts examples/conformance-server.mjs on a free port for a test (the example, the client and
// the inspector tests share it). Not a test file itself (no `.test.` in the name).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const EXAMPLE = fileURLToPath(new URL("../../examples/conformance-server.mjs", import.meta.url));

/**
 * Runs the example with `--port 0` and resolves once it listens: `{ url, process }`, `url` being
 * its `http://127.0.0.1:PORT/mcp` endpoint. Kill `process` when done.
 * @param {string[]} [args] More arguments of the example.
 * @param {string[]} [nodeArgs] Arguments of node itself (e.g. `--max-old-space-size=64`).
 */
export async function startExample(args = [], nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, EXAMPLE, "--port", "0", ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
      if (m) resolve(m[0]);
    });
    child.once("exit", (code) => reject(new Error(`the example exited (${code}) before listening`)));
  });
  return { url, process: child };
}
