// The program of the browser bundles that take both entries: the client probe (main entry) and
// the server probe (mcp-tasks-wasm/server: TaskHost and TaskClient in the page); the outcome goes
// to globalThis.__probe.
import { probeClient } from "./client.js";
import { probeServer } from "./server.js";

const serverUrl = new URL(location.href).searchParams.get("server");
probeClient(serverUrl).then(async (client) => ({ ...client, ...(await probeServer()) })).then(
  (result) => { globalThis.__probe = { ok: true, result }; },
  (error) => { globalThis.__probe = { ok: false, error: String((error && error.stack) || error) }; },
);
