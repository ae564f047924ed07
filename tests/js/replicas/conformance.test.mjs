// The official conformance suite (scripts/conformance.sh, @modelcontextprotocol/conformance)
// against examples/conformance-server.mjs with its tasks in a shared storage: `--storage` a real
// Postgres, then a real Redis (started here on 127.0.0.1 with throwaway data, stopped by PID).
// The same scenarios and the same expected-failures list as the in-memory run
// (tests/js/conformance.test.sh): SharedTaskServer answers as TaskServer does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { startPostgres, startRedis, ROOT } from "../storage/lib.mjs";

for (const engine of ["postgres", "redis"]) {
  test(`conformance suite: the example server with --storage ${engine}`, async (t) => {
    const db = engine === "postgres" ? await startPostgres() : await startRedis();
    try {
      const child = spawn("bash", [join(ROOT, "scripts/conformance.sh")], {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          ...process.env,
          // The example loads the storage client (pg, ioredis) from here when the package cannot.
          NODE_PATH: join(ROOT, "tools/storage/node_modules"),
          CONFORMANCE_SERVER_ARGS: `--storage ${db.url} --cursor-key 0123456789abcdef0123456789abcdef`,
        },
      });
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (d) => (out += d));
      child.stderr.setEncoding("utf8").on("data", (d) => (out += d));
      const code = await new Promise((resolve) => child.once("exit", (c, s) => resolve(c ?? s)));
      const summary = out.split("\n").filter((l) => l.startsWith("conformance:")).join("\n");
      t.diagnostic(summary);
      assert.equal(code, 0, out.slice(-4000));
      assert.match(out, /conformance: passed/);
    } finally {
      await db.stop();
    }
  });
}
