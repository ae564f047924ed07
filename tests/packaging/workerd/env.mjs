// An edge runtime from npm: workerd (Cloudflare Workers) through `wrangler dev` in local mode,
// on the Node 22 of tools/conformance (wrangler needs Node >= 22.12). No wrangler.toml: the
// script and a compatibility date on the command line (the "Bundlers" table of docs/guides/packaging.md). The
// worker runs both probes and answers them as JSON.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { NODE22, freePort, scratch, start, tool } from "../lib.mjs";

export const kind = "server";

export async function run({ serverUrl }) {
  if (!existsSync(NODE22)) throw new Error(`${NODE22} is missing (wrangler needs Node >= 22.12): run scripts/setup.sh`);
  const dir = await scratch("workerd");
  const port = await freePort();
  const inspector = await freePort();
  const env = {
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_LOG_PATH: join(dir, ".wrangler/logs"),
    XDG_CONFIG_HOME: join(dir, ".config"),
    CI: "1",
    // No fetch of the `Request.cf` placeholder from the network: only 127.0.0.1 is reached.
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
  };
  const server = start(NODE22, [tool("wrangler/bin/wrangler.js"), "dev", "worker.js", "--compatibility-date", "2026-11-01",
    "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspector), "--show-interactive-dev-session=false"],
  { cwd: dir, env, ready: /Ready on/ });
  try {
    await server.ready;
    const response = await fetch(`http://127.0.0.1:${port}/?server=${encodeURIComponent(serverUrl)}`);
    const text = await response.text();
    let outcome;
    try { outcome = JSON.parse(text); } catch { throw new Error(`the worker answered ${response.status}: ${text}\n${server.output()}`); }
    if (!outcome.ok) throw new Error(`the worker failed: ${outcome.error}\n${server.output()}`);
    return outcome.result;
  } finally {
    await server.stop();
  }
}
