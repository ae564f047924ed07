// Next.js 16, app router, no next.config: `next build` (Turbopack, the default), then `next start`
// on 127.0.0.1. The server route (app/api/probe/route.js, Node.js runtime) runs both probes; the
// page's Client Component runs the client probe in headless Chromium.
import { browserProbe, exec, freePort, scratch, start, tool } from "../lib.mjs";

export const kind = "server";

export function run(options) {
  return runNext("next", [], options);
}

/**
 * `next build` with BUILD_FLAGS then `next start`, or, with BUILD_FLAGS null, `next dev`.
 * @param {string} name @param {string[] | null} buildFlags
 */
export async function runNext(name, buildFlags, { serverUrl, getBrowser }) {
  const dir = await scratch(name, { project: "next" });
  const env = { NEXT_TELEMETRY_DISABLED: "1" };
  if (buildFlags) await exec(process.execPath, [tool("next/dist/bin/next"), "build", ...buildFlags], { cwd: dir, env });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = start(process.execPath, [tool("next/dist/bin/next"), buildFlags ? "start" : "dev", "--hostname", "127.0.0.1", "--port", String(port)],
    { cwd: dir, env, ready: /Ready in/ });
  try {
    await server.ready;
    const response = await fetch(`${base}/api/probe?server=${encodeURIComponent(serverUrl)}`);
    const outcome = await response.json();
    if (!outcome.ok) throw new Error(`the server route failed: ${outcome.error}`);
    const client = await browserProbe(await getBrowser(), `${base}/?server=${encodeURIComponent(serverUrl)}`);
    return { ...client, ...outcome.result, remote: client.remote === outcome.result.remote ? client.remote : `${client.remote} / ${outcome.result.remote}` };
  } finally {
    await server.stop();
  }
}
