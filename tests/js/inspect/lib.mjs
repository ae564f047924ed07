// What the launcher's tests share: the installed package's bin (as npx runs it), starting
// `inspect` / `record` as child processes and reading the URL they print, and stopping every
// child by its PID. Not a test file itself.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const INSTALL = fileURLToPath(new URL("../.tmp/install/", import.meta.url));
export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const PKG_DIR = `${INSTALL}node_modules/mcp-tasks-wasm/`;
/** The bin npx runs: mcp-tasks-wasm when the package names it so, else mcp-tasks (same file). */
export const BIN = [`${INSTALL}node_modules/.bin/mcp-tasks-wasm`, `${INSTALL}node_modules/.bin/mcp-tasks`].find((b) => existsSync(b));
if (!BIN) throw new Error("the package is not installed: run bash scripts/build.sh && bash scripts/pack.sh");
export const STDIO_SERVER = `${ROOT}examples/stdio-server.mjs`;
export const BEARER_SERVER = fileURLToPath(new URL("./bearer-server.mjs", import.meta.url));

/**
 * Waits for `re` in a child's output (stdout or stderr) so far and to come; rejects if it exits
 * first.
 */
export function waitFor(child, re, stream = "stdout") {
  const now = (child[`${stream}Text`] ?? "").match(re);
  if (now) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    let out = child[`${stream}Text`] ?? "";
    const on = (d) => {
      out += d;
      const m = out.match(re);
      if (m) {
        child[stream].off("data", on);
        resolve(m);
      }
    };
    child[stream].on("data", on);
    child.once("exit", (code) => reject(new Error(`exited (${code}) before printing ${re}: ${out}`)));
  });
}

/** Every child a test started, stopped by its PID in `stopAll`. */
const started = new Set();

export function start(cmd, args, options = {}) {
  const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
  started.add(child);
  child.stderrText = "";
  child.stdoutText = "";
  child.stderr?.on("data", (d) => (child.stderrText += d));
  child.stdout?.on("data", (d) => (child.stdoutText += d));
  child.exited = new Promise((done) => child.once("exit", (code, signal) => done({ code, signal })));
  return child;
}

/** Starts the launcher: `{ child, url, base, token }` once it printed its URL. */
export async function launch(args) {
  const child = start(BIN, ["inspect", "--no-open", ...args]);
  const [url] = await waitFor(child, /http:\/\/127\.0\.0\.1:\d+\/#bridge=[A-Za-z0-9_-]+/);
  const u = new URL(url);
  return { child, url, base: u.origin, token: u.hash.slice("#bridge=".length) };
}

/** Starts the bearer server: `{ child, url }`. */
export async function bearerServer(token) {
  const child = start(process.execPath, [BEARER_SERVER, token]);
  const [url] = await waitFor(child, /http:\/\/127\.0\.0\.1:\d+\/mcp/);
  return { child, url };
}

/** Whether a process with this PID is alive. */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops a child by PID (SIGTERM, then SIGKILL) and waits for it. */
export async function stop(child) {
  if (!started.has(child)) return;
  started.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const t = setTimeout(() => child.kill("SIGKILL"), 5000);
  await child.exited;
  clearTimeout(t);
}

export async function stopAll() {
  await Promise.all([...started].map(stop));
}
