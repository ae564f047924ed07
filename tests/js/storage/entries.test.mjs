// The storage entries of the installed package: where they are exported, what they load, and what
// happens without their optional peer (a typed error naming the package to install).
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./lib.mjs";

const PKG = join(ROOT, "tests/js/.tmp/install/node_modules/mcp-tasks-wasm");
const manifest = JSON.parse(readFileSync(join(PKG, "package.json"), "utf8"));

/** The static and dynamic import specifiers of a module's source (comments stripped). */
function imports(file) {
  const src = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const found = [];
  for (const m of src.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"/gm)) found.push(m[1]);
  for (const m of src.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)) found.push(m[1]);
  return found;
}

test("each storage entry is a subpath export; the peers are optional", () => {
  for (const sub of ["", "/sqlite", "/postgres", "/redis"]) {
    const e = manifest.exports[`./storage${sub}`];
    assert.ok(e, `./storage${sub} is exported`);
    assert.match(e.default, /^\.\/storage\/[a-z]+\.js$/);
    assert.match(e.types, /^\.\/storage\/[a-z]+\.d\.ts$/);
  }
  for (const peer of ["pg", "ioredis", "better-sqlite3"]) {
    assert.ok(manifest.peerDependencies[peer], `${peer} is a peer dependency`);
    assert.equal(manifest.peerDependenciesMeta[peer]?.optional, true, `${peer} is optional`);
    assert.equal(manifest.dependencies?.[peer], undefined, `${peer} is not a dependency`);
  }
});

test("the main and server entries never load the storage modules; the storage entry imports no node: module", () => {
  const seen = new Set();
  const walk = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of imports(file)) {
      if (spec.startsWith("./") || spec.startsWith("../")) walk(join(file, "..", spec));
    }
  };
  for (const entry of ["browser.js", "deno.js", "node.mjs", "server/browser.js", "server/deno.js", "server/node.mjs"]) walk(join(PKG, entry));
  const graph = [...seen].map((f) => f.slice(PKG.length + 1));
  assert.ok(graph.includes("server/index.js"), "the walk follows the helpers");
  assert.deepEqual(graph.filter((f) => f.startsWith("storage/")), [], "no storage module in the main or server graph");
  // mcp-tasks-wasm/storage (contract + MemoryStorage) runs anywhere: relative static imports only.
  for (const f of ["index.js", "types.js"]) {
    assert.deepEqual(imports(join(PKG, "storage", f)).filter((s) => !s.startsWith("./")), [], `storage/${f} imports only its siblings`);
  }
  // MemoryStorage's records live in the server module (src/store/storage.rs, one in-memory
  // storage): at its first call it loads the server entry (which initialises the module for the
  // platform) and takes the class from that entry's glue; at load, only its siblings.
  const memory = imports(join(PKG, "storage/memory.js"));
  assert.deepEqual(memory.filter((s) => !s.startsWith("./")), ["mcp-tasks-wasm/server", "../server/mcp_tasks_wasm.js"], "storage/memory.js: the server module, nothing else");
  assert.doesNotMatch(readFileSync(join(PKG, "storage/memory.js"), "utf8"), /^\s*import\s[^(]*from\s+"(?!\.\/)/m, "storage/memory.js: no static import outside its folder");
  // The adapters import their client library by name when opened, never at load.
  for (const f of readdirSync(join(PKG, "storage")).filter((f) => f.endsWith(".js") && f !== "memory.js")) {
    assert.deepEqual(imports(join(PKG, "storage", f)).filter((s) => !s.startsWith("./")), [], `storage/${f} has no static import of a package`);
  }
});

test("without its optional peer, an adapter loads and opening it rejects with missing_client naming the package", async () => {
  // A copy outside any node_modules that holds pg, ioredis or better-sqlite3.
  const dir = mkdtempSync(join(tmpdir(), "mcp-tasks-nopeer-"));
  try {
    cpSync(join(PKG, "storage"), join(dir, "storage"), { recursive: true });
    const url = (f) => pathToFileURL(join(dir, "storage", f)).href;
    const { openPostgresStorage } = await import(url("postgres.js"));
    await assert.rejects(openPostgresStorage({ connectionString: "postgres://127.0.0.1:1/x" }), (e) => e.name === "StorageError" && e.kind === "missing_client" && /npm i pg/.test(e.message));
    const { openRedisStorage } = await import(url("redis.js"));
    await assert.rejects(openRedisStorage({ url: "redis://127.0.0.1:1" }), (e) => e.kind === "missing_client" && /npm i ioredis/.test(e.message));
    const { openSqliteStorage } = await import(url("sqlite.js"));
    await assert.rejects(openSqliteStorage({ path: join(dir, "x.db"), driver: "better-sqlite3" }), (e) => e.kind === "missing_client" && /better-sqlite3/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a strict TypeScript consumer gets the contract's types from every storage entry (node16 and bundler resolution)", () => {
  const tsc = join(ROOT, "node_modules/.bin/tsc");
  const use = `import { MemoryStorage, StorageError, type TaskStorage, type StoredTask, type Change } from "mcp-tasks-wasm/storage";
import { openSqliteStorage } from "mcp-tasks-wasm/storage/sqlite";
import { openPostgresStorage } from "mcp-tasks-wasm/storage/postgres";
import { openRedisStorage } from "mcp-tasks-wasm/storage/redis";
export async function f(): Promise<number> {
  const all: TaskStorage[] = [new MemoryStorage(), await openSqliteStorage({ path: "x.db" }),
    await openPostgresStorage({ connectionString: "postgres://127.0.0.1:1/x", table: "t" }),
    await openRedisStorage({ url: "redis://127.0.0.1:1" })];
  const t: StoredTask = { id: "a", version: 1, seq: 1, status: "working", createdAtMs: 0, ttlMs: null };
  const ok: boolean = await all[0]!.putIfVersion(t, null);
  const un: () => Promise<void> = await all[0]!.subscribe((c: Change) => void c.version);
  await un();
  // @ts-expect-error: a scope is { kind: "all" } or { kind: "session", session }
  await all[0]!.rangeAfter({ kind: "sessions" }, 0, 1);
  try { await all[0]!.get("a"); } catch (e) { if (e instanceof StorageError) return e.kind === "closed" ? 1 : 2; }
  return ok ? 0 : 3;
}
`;
  for (const [name, options] of [["node16", { module: "node16", moduleResolution: "node16" }], ["bundler", { module: "esnext", moduleResolution: "bundler" }]]) {
    const dir = join(ROOT, "tests/js/.tmp/install", `storage-types-${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "a.mts"), use);
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "es2022", lib: ["es2022", "dom"], types: [], skipLibCheck: false, ...options }, files: ["a.mts"] }));
    try {
      execFileSync(tsc, ["-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
    } catch (e) {
      assert.fail(`tsc (${name}) reported errors:\n${e.stdout}${e.stderr}`);
    }
  }
});
