// mcp-tasks-wasm/storage/redis: the TaskStorage contract (types.ts) on Redis, through `ioredis`
// (an optional peer dependency: `npm i ioredis`). Many processes may share one Redis: every write
// is one Lua script, so compare-and-set and the index updates are atomic.
//
// Keys, under a hash-tagged prefix `{<prefix>}` (one cluster slot):
//   {p}:t:<id>        hash: v (version), seq, sk (session key: "n" unbound, "s<session>"), live
//                     ("1" not terminal), em (its member of {p}:exp, "" none), rec (the JSON text)
//   {p}:all           sorted set: id by seq (the keyset of every record)
//   {p}:s:<sk>        sorted set: id by seq, per session
//   {p}:lv            sorted set: id by seq, the live records (schema 2: what the lease check reads)
//   {p}:exp           sorted set: "<seq, 16 digits>:<id>" by expiresAtMs (ties in seq order)
//   {p}:live          hash: sk → live records
//   {p}:seq           the sequence (INCR; raised by an insert with a larger seq)
//   {p}:schema        the schema version (2; from 1, `migrate` fills {p}:lv)
// The change feed is PUBLISH on `{p}:changes` from the writing script (only on success), heard
// by SUBSCRIBE on one extra connection.
import { StorageError, engineError, ChangeHub, recordKeys, checkId, checkIds, checkEntries, checkExpected, checkScope, checkCount, checkSession, checkListener, parseChange, parseRecord } from "./types.js";

export type StoredTask = import("./types.js").StoredTask;

export type Scope = import("./types.js").Scope;

export type ChangeListener = import("./types.js").ChangeListener;

export type TaskStorage = import("./types.js").TaskStorage;

export type ReplaceEntry = import("./types.js").ReplaceEntry;

export type RecordKeys = import("./types.js").RecordKeys;

/** An ioredis `Redis` instance. */
export type RedisClient = any;

export type IoRedisModule = { Redis: new (url: string, options: object) => RedisClient; };

export type RedisStorageOptions = {
  /** `redis://host:port[/db]`. */
  url: string;
  /**
   * The key prefix (default `mcp-tasks`; letters, digits, `-_.:`): several stores may share a Redis
   * under different prefixes.
   */
  prefix?: string;
  /** The `ioredis` module, when it should not be imported by name. */
  ioredis?: IoRedisModule;
};

/** The schema version this adapter writes. */
const SCHEMA_VERSION = 2;

const PUT = `
local P = KEYS[1]
local id = ARGV[1]
local tk = P .. ':t:' .. id
local cur = redis.call('HMGET', tk, 'v', 'sk', 'live', 'em', 'seq')
if ARGV[8] == '' then
  if cur[1] then return 0 end
elseif cur[1] ~= ARGV[8] then
  return 0
end
if cur[1] then
  if cur[3] == '1' then redis.call('HINCRBY', P .. ':live', cur[2], -1) end
  if cur[4] ~= '' then redis.call('ZREM', P .. ':exp', cur[4]) end
  redis.call('ZREM', P .. ':s:' .. cur[2], id)
end
redis.call('HSET', tk, 'v', ARGV[2], 'seq', ARGV[3], 'sk', ARGV[4], 'live', ARGV[5], 'em', ARGV[6], 'rec', ARGV[7])
redis.call('ZADD', P .. ':all', ARGV[3], id)
redis.call('ZADD', P .. ':s:' .. ARGV[4], ARGV[3], id)
if ARGV[6] ~= '' then redis.call('ZADD', P .. ':exp', ARGV[9], ARGV[6]) end
if ARGV[5] == '1' then
  redis.call('HINCRBY', P .. ':live', ARGV[4], 1)
  redis.call('ZADD', P .. ':lv', ARGV[3], id)
else
  redis.call('ZREM', P .. ':lv', id)
end
local s = tonumber(redis.call('GET', P .. ':seq') or '0')
if tonumber(ARGV[3]) > s then redis.call('SET', P .. ':seq', ARGV[3]) end
redis.call('PUBLISH', P .. ':changes', ARGV[10])
return 1
`;

const DELETE = `
local P = KEYS[1]
local id = ARGV[1]
local tk = P .. ':t:' .. id
local cur = redis.call('HMGET', tk, 'v', 'sk', 'live', 'em', 'rec')
if not cur[1] then return false end
redis.call('DEL', tk)
redis.call('ZREM', P .. ':all', id)
redis.call('ZREM', P .. ':lv', id)
redis.call('ZREM', P .. ':s:' .. cur[2], id)
if cur[4] ~= '' then redis.call('ZREM', P .. ':exp', cur[4]) end
if cur[3] == '1' then
  if redis.call('HINCRBY', P .. ':live', cur[2], -1) <= 0 then redis.call('HDEL', P .. ':live', cur[2]) end
end
redis.call('PUBLISH', P .. ':changes', '{"kind":"delete","id":' .. cjson.encode(id) .. ',"version":' .. cur[1] .. '}')
return cur[5]
`;

const RANGE = `
local P = KEYS[1]
local ids = redis.call('ZRANGEBYSCORE', P .. ':' .. ARGV[1], '(' .. ARGV[2], '+inf', 'LIMIT', 0, ARGV[3])
local out = {}
for i, id in ipairs(ids) do
  local rec = redis.call('HGET', P .. ':t:' .. id, 'rec')
  if rec then out[#out + 1] = rec end
end
return out
`;

// Schema 1 → 2: adds the live records after seq ARGV[1] (at most ARGV[2]) to {p}:lv; answers
// the last seq read, or -1 at the end.
const FILL_LIVE = `
local P = KEYS[1]
local ids = redis.call('ZRANGEBYSCORE', P .. ':all', '(' .. ARGV[1], '+inf', 'WITHSCORES', 'LIMIT', 0, ARGV[2])
local last = -1
for i = 1, #ids, 2 do
  local id = ids[i]
  last = ids[i + 1]
  if redis.call('HGET', P .. ':t:' .. id, 'live') == '1' then redis.call('ZADD', P .. ':lv', last, id) end
end
return tostring(last)
`;

const sessionKey = (session: string | null) => (session === null ? "n" : `s${session}`);


async function importIoredis(): Promise<IoRedisModule> {
  const name = "ioredis";
  try {
    const mod = await import(name);
    return ((mod.Redis ? mod : mod.default) as IoRedisModule);
  } catch (e) {
    throw new StorageError("missing_client", "mcp-tasks-wasm/storage/redis needs the `ioredis` package: npm i ioredis", e);
  }
}

/** Sets up or migrates the schema, for `open…Storage` (a `#private` method, not on the instances). */
let migrate: (s: RedisStorage) => Promise<void>;

/** @implements {TaskStorage} */
class RedisStorage {
  static {
    migrate = (s) => s.#migrate();
  }

  name: string;
  #redis: RedisClient;
  #p: string;
  #channel: string;
  #hub: ChangeHub;
  #subscriber: Promise<RedisClient> | null;
  #closed: boolean;
  constructor(redis: RedisClient, prefix: string) {
    this.name = "redis";
    this.#redis = redis;
    this.#p = `{${prefix}}`;
    this.#channel = `${this.#p}:changes`;
    this.#hub = new ChangeHub();
    this.#subscriber = null;
    this.#closed = false;
    redis.defineCommand("mcpTasksPut", { numberOfKeys: 1, lua: PUT });
    redis.defineCommand("mcpTasksDelete", { numberOfKeys: 1, lua: DELETE });
    redis.defineCommand("mcpTasksRange", { numberOfKeys: 1, lua: RANGE });
    redis.defineCommand("mcpTasksFillLive", { numberOfKeys: 1, lua: FILL_LIVE });
  }

  async #run<T>(what: string, fn: (r: RedisClient) => Promise<T>): Promise<T> {
    if (this.#closed) throw new StorageError("closed", "the storage is closed");
    try {
      return await fn(this.#redis);
    } catch (e) {
      return engineError("redis", e, what);
    }
  }

  async #migrate() {
    await this.#run("schema", async (r) => {
      await r.setnx(`${this.#p}:schema`, String(SCHEMA_VERSION));
      const have = Number(await r.get(`${this.#p}:schema`));
      if (have > SCHEMA_VERSION) {
        throw new StorageError("schema", `redis: prefix ${this.#p} has schema version ${have}, newer than this adapter's ${SCHEMA_VERSION}: update mcp-tasks-wasm`);
      }
      if (have < 2) {
        // The live records' index, filled in slices (each one script: atomic with the writes).
        for (let after = "0"; after !== "-1";) after = String(await r.mcpTasksFillLive(this.#p, after, "1000"));
        await r.set(`${this.#p}:schema`, "2");
      }
      // Later versions migrate here (`if (have < 3) …`) and SET the new version.
    });
  }

  async get(id: string) {
    const key = `${this.#p}:t:${checkId(id)}`;
    const text = await this.#run<string | null>("get", (r) => r.hget(key, "rec"));
    return text === null ? null : parseRecord(text, `redis: ${id}`);
  }

  /** The arguments of the PUT script. */
  #putArgs(record: StoredTask, k: RecordKeys, want: number | null): string[] {
    const member = k.expiresAtMs === null ? "" : `${String(k.seq).padStart(16, "0")}:${k.id}`;
    const change = JSON.stringify({ kind: "put", id: k.id, version: k.version });
    return [k.id, String(k.version), String(k.seq), sessionKey(k.session), k.live ? "1" : "0", member, JSON.stringify(record), want === null ? "" : String(want), String(k.expiresAtMs ?? 0), change];
  }

  async putIfVersion(record: StoredTask, expected: number | null) {
    const k = recordKeys(record);
    const want = checkExpected(expected);
    const args = this.#putArgs(record, k, want);
    const ok = await this.#run("putIfVersion", (r) => r.mcpTasksPut(this.#p, ...args));
    return Number(ok) === 1;
  }

  async getMany(ids: string[]) {
    const keys = checkIds(ids);
    if (keys.length === 0) return this.#run("getMany", async () => []);
    const texts: Array<string | null> = await this.#run("getMany", async (r) => {
      const replies: Array<[Error | null, string | null]> = await keys.reduce((p, id) => p.hget(`${this.#p}:t:${id}`, "rec"), r.pipeline()).exec();
      return replies.map(([e, v]) => {
        if (e) throw e;
        return v;
      });
    });
    return texts.map((t, i) => (t === null ? null : parseRecord(t, `redis: ${keys[i]}`)));
  }

  /** Every replacement in one pipeline (each the PUT script: a compare-and-set of its own). */
  async putEachIfVersion(entries: ReplaceEntry[]) {
    const checked = checkEntries(entries);
    if (checked.length === 0) return this.#run("putEachIfVersion", async () => []);
    return this.#run("putEachIfVersion", async (r) => {
      const replies: Array<[Error | null, unknown]> = await checked.reduce((p, e) => p.mcpTasksPut(this.#p, ...this.#putArgs(e.record, e.keys, e.expected)), r.pipeline()).exec();
      return replies.map(([e, v]) => {
        if (e) throw e;
        return Number(v) === 1;
      });
    });
  }

  async delete(id: string) {
    const text = await this.#run<string | null>("delete", (r) => r.mcpTasksDelete(this.#p, checkId(id)));
    return text === null ? null : parseRecord(text, `redis: ${id}`);
  }

  async rangeAfter(scope: Scope, after: number, limit: number) {
    const s = checkScope(scope);
    checkCount(after, "after");
    checkCount(limit, "limit");
    const set = s.kind === "all" ? "all" : `s:${sessionKey(s.session)}`;
    const texts: string[] = limit === 0 ? await this.#run("rangeAfter", async () => []) : await this.#run("rangeAfter", (r) => r.mcpTasksRange(this.#p, set, String(after), String(limit)));
    return texts.map((t) => parseRecord(t, "redis: rangeAfter"));
  }

  async rangeLive(after: number, limit: number) {
    checkCount(after, "after");
    checkCount(limit, "limit");
    const texts: string[] = limit === 0 ? await this.#run("rangeLive", async () => []) : await this.#run("rangeLive", (r) => r.mcpTasksRange(this.#p, "lv", String(after), String(limit)));
    return texts.map((t) => parseRecord(t, "redis: rangeLive"));
  }

  async expired(nowMs: number, limit: number) {
    checkCount(nowMs, "nowMs");
    checkCount(limit, "limit");
    if (limit === 0) return this.#run("expired", async () => []);
    const members: string[] = await this.#run("expired", (r) => r.zrangebyscore(`${this.#p}:exp`, "-inf", `(${nowMs}`, "LIMIT", 0, limit));
    return members.map((m) => m.slice(17));
  }

  async countLive(session: string | null) {
    const sk = sessionKey(checkSession(session));
    const n = await this.#run("countLive", (r) => r.hget(`${this.#p}:live`, sk));
    return Math.max(0, Number(n ?? 0));
  }

  async nextSequence() {
    return Number(await this.#run("nextSequence", (r) => r.incr(`${this.#p}:seq`)));
  }

  /** Clause 13: one pipeline. */
  async nextSequenceWithLive(session: string | null) {
    const sk = sessionKey(checkSession(session));
    const replies: Array<[Error | null, unknown]> = await this.#run("nextSequenceWithLive", (r) => r.pipeline().incr(`${this.#p}:seq`).hget(`${this.#p}:live`, sk).exec());
    for (const [e] of replies) if (e) engineError("redis", e, "nextSequenceWithLive");
    return { sequence: Number(replies[0]?.[1]), live: Math.max(0, Number(replies[1]?.[1] ?? 0)) };
  }

  async lastSequence() {
    return Number((await this.#run("lastSequence", (r) => r.get(`${this.#p}:seq`))) ?? 0);
  }

  /** The SUBSCRIBE connection, opened at the first subscription. */
  #listen() {
    if (!this.#subscriber) {
      this.#subscriber = (async () => {
        const sub = this.#redis.duplicate();
        sub.on("message", (channel: string, message: string) => {
          const change = channel === this.#channel ? parseChange(message) : null;
          if (change) this.#hub.emit(change);
        });
        sub.on("error", (e: unknown) => console.error("redis storage: the SUBSCRIBE connection failed:", e));
        await sub.connect();
        await sub.subscribe(this.#channel);
        return sub;
      })();
      this.#subscriber.catch(() => {
        this.#subscriber = null;
      });
    }
    return this.#subscriber;
  }

  async subscribe(listener: ChangeListener) {
    const l = checkListener(listener);
    await this.#run("SUBSCRIBE", () => this.#listen());
    this.#hub.add(l);
    return async () => {
      this.#hub.remove(l);
    };
  }

  async close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#hub.listeners.clear();
    const sub = this.#subscriber;
    this.#subscriber = null;
    if (sub) await sub.then((s) => s.quit()).catch(() => {});
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}

/** Opens (and creates or migrates) a Redis storage. */
async function openRedisStorage(options: RedisStorageOptions): Promise<RedisStorage> {
  if (typeof options !== "object" || options === null || typeof options.url !== "string") {
    throw new StorageError("invalid", "options.url: must be a redis:// URL");
  }
  const { url, prefix = "mcp-tasks" } = options;
  if (typeof prefix !== "string" || !/^[A-Za-z0-9_.:-]{1,64}$/.test(prefix)) {
    throw new StorageError("invalid", "options.prefix: must be 1-64 letters, digits or -_.:");
  }
  const { Redis } = options.ioredis ?? (await importIoredis());
  // While the server is away, operations fail at once (no queue) and the client reconnects.
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: (n: number) => Math.min(100 * n, 2000) });
  redis.on("error", () => {}); // reported through the failing operations
  try {
    await redis.connect();
  } catch (e) {
    redis.disconnect();
    return engineError("redis", e, `connect to ${url}`);
  }
  const s = new RedisStorage(redis, prefix);
  try {
    await migrate(s);
  } catch (e) {
    redis.disconnect();
    throw e;
  }
  return s;
}

export { openRedisStorage, RedisStorage, SCHEMA_VERSION, StorageError };
