// The storage contract kit (contract.mjs) on mcp-tasks-wasm/storage/redis (the installed package,
// `ioredis` from tools/storage), against a real redis-server started here (lib.mjs: 127.0.0.1, a
// free port, no persistence, stopped by PID after). Each test gets its own key prefix; the
// multi-process tests open the same prefix from worker processes.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { storageContract, record } from "./contract.mjs";
import { loadStorage, peer, startRedis, waitFor } from "./lib.mjs";

const { openRedisStorage, SCHEMA_VERSION } = await loadStorage("redis");
const server = await startRedis();
after(() => server.stop());

let n = 0;
let prefix = "";
const options = () => ({ url: server.url, prefix });

storageContract("redis", {
  open: async () => {
    prefix = `t${process.pid}-${n++}`;
    return openRedisStorage(options());
  },
  spec: async () => ({ adapter: "redis", options: options() }),
});

test("redis: the schema version is recorded, data survives a reopen, a newer schema is refused", async () => {
  prefix = `t${process.pid}-${n++}`;
  const s = await openRedisStorage(options());
  await s.putIfVersion(record("a", await s.nextSequence(), { session: "s", ttl: 5 }), null);
  await s.close();
  const again = await openRedisStorage(options());
  try {
    assert.equal((await again.get("a")).session, "s");
    const { Redis } = peer("ioredis");
    const r = new Redis(server.url);
    try {
      assert.equal(Number(await r.get(`{${prefix}}:schema`)), SCHEMA_VERSION);
      assert.deepEqual(await r.zrange(`{${prefix}}:exp`, 0, -1), ["0000000000000001:a"]);
      await r.set(`{${prefix}}:schema`, String(SCHEMA_VERSION + 1));
    } finally {
      r.disconnect();
    }
    await assert.rejects(openRedisStorage(options()), (e) => e.name === "StorageError" && e.kind === "schema");
  } finally {
    await again.close();
  }
});

test("redis: a prefix of schema 1 gets its live-record index filled on open (schema 2)", async () => {
  prefix = `t${process.pid}-${n++}`;
  const s = await openRedisStorage(options());
  for (let i = 1; i <= 2500; i++) await s.putIfVersion(record(`r${i}`, i, { status: i % 3 === 0 ? "completed" : "working" }), null);
  await s.close();
  const { Redis } = peer("ioredis");
  const r = new Redis(server.url);
  try {
    // As schema 1 left it: no index of live records.
    await r.del(`{${prefix}}:lv`);
    await r.set(`{${prefix}}:schema`, "1");
    const again = await openRedisStorage(options());
    try {
      assert.equal(Number(await r.get(`{${prefix}}:schema`)), 2);
      const live = [];
      for (let after = 0; ;) {
        const page = await again.rangeLive(after, 400);
        if (page.length === 0) break;
        after = page[page.length - 1].seq;
        live.push(...page.map((x) => x.seq));
      }
      assert.deepEqual(live, Array.from({ length: 2500 }, (_, i) => i + 1).filter((i) => i % 3 !== 0));
    } finally {
      await again.close();
    }
  } finally {
    r.disconnect();
  }
});

test("redis: the change feed resubscribes when its connection is killed", async () => {
  prefix = `t${process.pid}-${n++}`;
  const s = await openRedisStorage(options());
  const { Redis } = peer("ioredis");
  const admin = new Redis(server.url);
  try {
    const seen = [];
    await s.subscribe((c) => seen.push(c));
    await s.putIfVersion(record("a", 1), null);
    await waitFor(() => seen.length === 1, "the first change");
    assert.equal(await admin.client("KILL", "TYPE", "pubsub"), 1, "one subscriber connection was killed");
    let version = 1;
    await waitFor(async () => {
      await s.putIfVersion(record("a", 1, { version: version + 1 }), version);
      version++;
      // Every version above 1 was written after the kill: one of them arriving is the proof.
      return seen.some((c) => c.version > 1);
    }, "a change after the resubscription");
  } finally {
    admin.disconnect();
    await s.close();
  }
});

test("redis: bad options and an unreachable server are typed errors", async () => {
  await assert.rejects(openRedisStorage({}), (e) => e.kind === "invalid" && /url/.test(e.message));
  await assert.rejects(openRedisStorage({ url: server.url, prefix: "a b" }), (e) => e.kind === "invalid" && /prefix/.test(e.message));
  const url = server.url;
  await server.stop();
  await assert.rejects(openRedisStorage({ url }), (e) => e.kind === "engine");
});
