// Shared by the storage tests: loading the adapters from the packed, installed package (bare
// specifiers resolved by Node through its "exports"), real Postgres and Redis servers on
// 127.0.0.1 (throwaway data, free non-default ports, stopped by PID), and worker processes.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readdirSync, rmSync, chownSync, existsSync, symlinkSync, writeFileSync, renameSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(HERE, "../../..");
const INSTALL = join(ROOT, "tests/js/.tmp/install");
const PEERS = join(ROOT, "tools/storage/node_modules");
const PG_BIN = "/usr/lib/postgresql/15/bin";

/** @type {string | undefined} */
let fromSource;
/**
 * FROM_SOURCE=1: the adapters compiled from js/server/storage/*.ts by tsc alone (the build's
 * options), into `storage/` of a scratch directory laid out as the package (the peers linked
 * next to them): the database adapters' contract runs without a release build or a pack (they
 * import nothing of the wasm module). MemoryStorage runs on the server module (it loads
 * `mcp-tasks-wasm/server` at its first call): `server/` is linked to the installed package's,
 * else to pkg/server/ (a `scripts/build.sh` without the pack).
 */
function storageFromSource() {
  if (fromSource) return fromSource;
  mkdirSync(join(ROOT, "tests/js/.tmp"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, "tests/js/.tmp/storage-src-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  const src = join(ROOT, "js/server/storage");
  const files = readdirSync(src).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")).map((f) => join(src, f));
  const out = join(dir, "storage");
  const server = [join(INSTALL, "node_modules/mcp-tasks-wasm/server"), join(ROOT, "pkg/server")].find((d) => existsSync(join(d, "node.mjs")));
  if (server) symlinkSync(server, join(dir, "server"), "dir");
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "mcp-tasks-wasm", type: "module", private: true, exports: { "./server": "./server/node.mjs" } })}\n`);
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: {
      strict: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext", lib: ["es2022", "dom"],
      types: [], useDefineForClassFields: false, rootDir: src, outDir: out, newLine: "lf",
    },
    files,
  }));
  execFileSync(join(ROOT, "node_modules/.bin/tsc"), ["-p", join(dir, "tsconfig.json")], { stdio: "inherit" });
  mkdirSync(join(dir, "node_modules"));
  for (const peer of ["pg", "ioredis", "better-sqlite3"]) {
    if (existsSync(join(PEERS, peer))) symlinkSync(join(PEERS, peer), join(dir, "node_modules", peer), "dir");
  }
  fromSource = dir;
  return dir;
}

/**
 * The adapter entry `mcp-tasks-wasm/storage[/name]` of the installed package (FROM_SOURCE=1: of
 * the sources, see storageFromSource). Its optional peer
 * (pg, ioredis, better-sqlite3) is made resolvable the way a user has it: installed next to the
 * package (a link into tools/storage/node_modules, where scripts/setup.sh installs the pins).
 * @param {"" | "sqlite" | "postgres" | "redis"} name
 */
export async function loadStorage(name = "") {
  if (process.env.FROM_SOURCE === "1") return import(join(storageFromSource(), "storage", `${name || "index"}.js`));
  if (!existsSync(join(INSTALL, "node_modules/mcp-tasks-wasm/package.json"))) {
    throw new Error("the package is not installed in tests/js/.tmp/install: run scripts/build.sh and scripts/pack.sh");
  }
  if (!existsSync(PEERS)) throw new Error("tools/storage/node_modules is missing: run scripts/setup.sh");
  for (const peer of ["pg", "ioredis", "better-sqlite3"]) {
    const link = join(INSTALL, "node_modules", peer);
    if (!existsSync(link)) {
      try {
        symlinkSync(join(PEERS, peer), link, "dir");
      } catch (e) {
        if (e.code !== "EEXIST") throw e;
      }
    }
  }
  const spec = name ? `mcp-tasks-wasm/storage/${name}` : "mcp-tasks-wasm/storage";
  const shim = join(INSTALL, `storage-${name || "index"}.mjs`);
  if (!existsSync(shim)) {
    const tmp = `${shim}.${process.pid}`;
    writeFileSync(tmp, `// Written by tests/js/storage/lib.mjs: a bare import of the installed package.\nexport * from ${JSON.stringify(spec)};\n`);
    renameSync(tmp, shim);
  }
  return import(shim);
}

/**
 * Polls `check` (sync or async) until it is true; fails after `ms` (a deadline for a hang, not a
 * timing threshold).
 */
export async function waitFor(check, what, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A client library from tools/storage (for the tests' own direct looks at the engine). */
export const peer = createRequire(join(PEERS, "x.js"));

/** Opens a storage from a spec (what a worker process gets). */
export async function openSpec(spec) {
  switch (spec.adapter) {
    case "sqlite":
      return (await loadStorage("sqlite")).openSqliteStorage(spec.options);
    case "postgres":
      return (await loadStorage("postgres")).openPostgresStorage(spec.options);
    case "redis":
      return (await loadStorage("redis")).openRedisStorage(spec.options);
    default:
      throw new Error(`unknown adapter ${spec.adapter}`);
  }
}

/** Every process started here, stopped by PID at exit (also when a test fails). */
const children = new Set();
process.on("exit", () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

/** A free TCP port on 127.0.0.1 (never a service's default port). */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once `re` shows in the child's output; rejects if it exits first. */
function waitForLine(child, re, what) {
  return new Promise((resolve, reject) => {
    let out = "";
    const onData = (d) => {
      out += d;
      if (re.test(out)) {
        child.stdout?.off("data", onData);
        child.stderr?.off("data", onData);
        resolve(out);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code, signal) => reject(new Error(`${what} exited (${code ?? signal}) before it was ready:\n${out}`)));
  });
}

/** Stops a child by its PID and waits for it. */
async function stop(child, signal = "SIGTERM") {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once("exit", r));
  process.kill(child.pid, signal);
  const timer = setTimeout(() => child.exitCode === null && child.signalCode === null && process.kill(child.pid, "SIGKILL"), 10_000);
  await gone;
  clearTimeout(timer);
  children.delete(child);
}

/**
 * A throwaway Postgres 15 (Debian's postgresql package): initdb into a temporary directory, on
 * 127.0.0.1 at a free port, trust authentication, no Unix socket outside that directory. Run as
 * the `postgres` user when this process is root (initdb refuses root).
 */
export async function startPostgres() {
  if (!existsSync(join(PG_BIN, "postgres"))) throw new Error(`${PG_BIN}/postgres is missing: run scripts/setup.sh (apt-get install postgresql)`);
  const dir = mkdtempSync(join(tmpdir(), "mcp-tasks-pg-"));
  /** @type {{ uid?: number, gid?: number }} */
  const as = {};
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
    Object.assign(as, { uid, gid });
  }
  const data = join(dir, "data");
  execFileSync(join(PG_BIN, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"], { ...as, cwd: dir, stdio: "pipe" });
  const port = await freePort();
  const child = spawn(join(PG_BIN, "postgres"), ["-D", data, "-h", "127.0.0.1", "-p", String(port), "-k", dir, "-c", "fsync=off", "-c", "max_connections=200"], { ...as, cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  try {
    await waitForLine(child, /database system is ready to accept connections/, "postgres");
  } catch (e) {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pid: child.pid,
    async stop() {
      await stop(child, "SIGINT"); // fast shutdown
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A throwaway Redis (Debian's redis-server): 127.0.0.1, a free port, no persistence. */
export async function startRedis() {
  const dir = mkdtempSync(join(tmpdir(), "mcp-tasks-redis-"));
  const port = await freePort();
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no", "--protected-mode", "yes"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  child.once("error", () => {});
  try {
    await waitForLine(child, /Ready to accept connections/, "redis-server");
  } catch (e) {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      await stop(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts tests/js/storage/worker.mjs on a storage spec with a job; resolves once it has opened
 * the storage. `go()` starts the job; `result` resolves with its JSON answer.
 */
export async function spawnWorker(spec, job) {
  const child = spawn(process.execPath, [join(HERE, "worker.mjs"), JSON.stringify({ spec, job })], { stdio: ["pipe", "pipe", "pipe"] });
  children.add(child);
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (d) => (out += d));
  child.stderr.setEncoding("utf8").on("data", (d) => (err += d));
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const ready = new Promise((resolve, reject) => {
    const check = () => {
      if (out.includes("ready\n")) resolve(undefined);
    };
    child.stdout.on("data", check);
    exited.then(({ code, signal }) => reject(new Error(`worker exited (${code ?? signal}) before it was ready: ${err}`)));
  });
  await ready;
  const result = exited.then(({ code, signal }) => {
    children.delete(child);
    if (code !== 0) throw new Error(`worker ${job.job} failed (${code ?? signal}): ${err}`);
    const last = out.trim().split("\n").pop() ?? "";
    return JSON.parse(last);
  });
  return {
    pid: child.pid,
    go: () => child.stdin.end("go\n"),
    result,
  };
}
