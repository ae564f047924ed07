// The program of the browser bundles: the client probe against the reference server named by the
// page's ?server= parameter; the outcome goes to globalThis.__probe for the test to read.
import { probeClient } from "./client.js";

const serverUrl = new URL(location.href).searchParams.get("server");
probeClient(serverUrl).then(
  (result) => { globalThis.__probe = { ok: true, result }; },
  (error) => { globalThis.__probe = { ok: false, error: String((error && error.stack) || error) }; },
);
