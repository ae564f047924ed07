// The storage contract kit (contract.mjs) on mcp-tasks-wasm/storage/sqlite (the installed
// package), with the driver this Node picks: node:sqlite on Node 22.13+, else better-sqlite3 (from
// tools/storage, compiled for the machine's Node). scripts/test.sh runs this file on the
// machine's Node 20 (better-sqlite3) and on the Node 22 of tools/conformance (node:sqlite). Each
// test gets its own file; the multi-process tests share it.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storageContract, record } from "./contract.mjs";
import { loadStorage } from "./lib.mjs";
// The classes' internal tables and bounds, read through their deliberate test hook
// (`@internal`, absent from the typings: js/core/internals.ts).
const internals = (o) => o[Symbol.for("mcp-tasks-wasm.internals")]();

const { openSqliteStorage, SCHEMA_VERSION } = await loadStorage("sqlite");
const dir = mkdtempSync(join(tmpdir(), "mcp-tasks-sqlite-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const [major, minor] = process.versions.node.split(".").map(Number);
const hasNodeSqlite = major > 22 || (major === 22 && minor >= 13);
const drivers = hasNodeSqlite ? ["node:sqlite"] : ["better-sqlite3"];

let n = 0;
for (const driver of drivers) {
  let path = "";
  storageContract(`sqlite (${driver})`, {
    open: async () => {
      path = join(dir, `t${n++}.db`);
      const s = await openSqliteStorage({ path, driver });
      assert.equal(s.driver, driver);
      return s;
    },
    spec: async () => ({ adapter: "sqlite", options: { path, driver } }),
  });
}

test(`sqlite: without a driver option, ${hasNodeSqlite ? "node:sqlite" : "better-sqlite3"} is chosen on Node ${process.versions.node}`, async () => {
  const s = await openSqliteStorage({ path: join(dir, `t${n++}.db`) });
  assert.equal(s.driver, hasNodeSqlite ? "node:sqlite" : "better-sqlite3");
  await s.close();
});

test("sqlite: the schema version is PRAGMA user_version; data survives a reopen; a newer schema is refused", async () => {
  const path = join(dir, `t${n++}.db`);
  const s = await openSqliteStorage({ path });
  await s.putIfVersion(record("a", await s.nextSequence(), { session: "s" }), null);
  await s.close();
  const again = await openSqliteStorage({ path });
  assert.equal((await again.get("a")).session, "s");
  assert.equal(await again.lastSequence(), 1);
  internals(again).db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
  await again.close();
  await assert.rejects(openSqliteStorage({ path }), (e) => e.name === "StorageError" && e.kind === "schema");
});

test("sqlite: a file of schema 1 gets the live-record index on open (schema 2)", async () => {
  const path = join(dir, `t${n++}.db`);
  const s = await openSqliteStorage({ path });
  await s.putIfVersion(record("a", 1), null);
  internals(s).db.exec("DROP INDEX mcp_tasks_liveseq");
  internals(s).db.exec("PRAGMA user_version = 1");
  await s.close();
  const again = await openSqliteStorage({ path });
  try {
    assert.equal(Number(internals(again).db.prepare("PRAGMA user_version").get().user_version), SCHEMA_VERSION);
    assert.equal(internals(again).db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'mcp_tasks_liveseq'").get().n, 1);
    assert.deepEqual((await again.rangeLive(0, 10)).map((r) => r.id), ["a"]);
  } finally {
    await again.close();
  }
});

test("sqlite: bad options are typed errors", async () => {
  await assert.rejects(openSqliteStorage({}), (e) => e.kind === "invalid" && /path/.test(e.message));
  await assert.rejects(openSqliteStorage({ path: join(dir, "x.db"), driver: "sqlite4" }), (e) => e.kind === "invalid" && /driver/.test(e.message));
  await assert.rejects(openSqliteStorage({ path: join(dir, "x.db"), table: "1x" }), (e) => e.kind === "invalid" && /table/.test(e.message));
  await assert.rejects(openSqliteStorage({ path: join(dir, "no/such/dir/x.db") }), (e) => e.kind === "engine");
});

test("sqlite: a write waiting for another connection's write lock does not block the event loop", async () => {
  const path = join(dir, `t${n++}.db`);
  const s = await openSqliteStorage({ path, busyTimeoutMs: 2000 });
  // Another connection (as another process would) holds the write lock.
  const other = await openSqliteStorage({ path });
  internals(other).db.exec("BEGIN IMMEDIATE");
  let ticks = 0;
  let settled = false;
  const tick = setInterval(() => ticks++, 1);
  try {
    const write = s.putIfVersion(record("a", 1), null).finally(() => (settled = true));
    for (let i = 0; i < 20 && ticks < 3; i++) await new Promise((r) => setTimeout(r, 5));
    assert.ok(ticks > 0, "timers ran while the write waited for the lock");
    assert.equal(settled, false, "the write is still waiting (not failed)");
    internals(other).db.exec("COMMIT");
    assert.equal(await write, true, "stored once the lock was released");
    assert.equal((await s.get("a")).id, "a");
    // Held past busyTimeoutMs: an engine error naming the wait, the event loop free meanwhile.
    internals(other).db.exec("BEGIN IMMEDIATE");
    const before = ticks;
    await assert.rejects(s.putIfVersion(record("b", 2), null), (e) => e.name === "StorageError" && e.kind === "engine" && /locked.*busyTimeoutMs/.test(e.message));
    assert.ok(ticks > before, "timers ran during the whole wait");
    internals(other).db.exec("ROLLBACK");
  } finally {
    clearInterval(tick);
    await other.close();
    await s.close();
  }
});

test("sqlite: every commit waits for the disk (synchronous FULL), also on a file already in WAL mode", async () => {
  const path = join(dir, `t${n++}.db`);
  const first = await openSqliteStorage({ path });
  await first.putIfVersion(record("a", 1), null);
  await first.close();
  // Reopened: better-sqlite3 (SQLITE_DEFAULT_WAL_SYNCHRONOUS=1) would open it with NORMAL.
  const s = await openSqliteStorage({ path });
  try {
    assert.equal(Number(internals(s).db.prepare("PRAGMA synchronous").get().synchronous), 2, "the main connection");
    // The writer thread's connection, through the write it commits.
    assert.equal(await s.putIfVersion(record("b", 2), null), true);
    assert.equal((await s.get("b")).id, "b");
  } finally {
    await s.close();
  }
});
