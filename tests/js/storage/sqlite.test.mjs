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
  again.db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
  await again.close();
  await assert.rejects(openSqliteStorage({ path }), (e) => e.name === "StorageError" && e.kind === "schema");
});

test("sqlite: bad options are typed errors", async () => {
  await assert.rejects(openSqliteStorage({}), (e) => e.kind === "invalid" && /path/.test(e.message));
  await assert.rejects(openSqliteStorage({ path: join(dir, "x.db"), driver: "sqlite4" }), (e) => e.kind === "invalid" && /driver/.test(e.message));
  await assert.rejects(openSqliteStorage({ path: join(dir, "x.db"), table: "1x" }), (e) => e.kind === "invalid" && /table/.test(e.message));
  await assert.rejects(openSqliteStorage({ path: join(dir, "no/such/dir/x.db") }), (e) => e.kind === "engine");
});
