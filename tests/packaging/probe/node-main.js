// The program of the server-side environments (Node ESM and CJS, Deno, Node bundles): both probes,
// one JSON line on stdout. The reference server's URL is the first argument. No top-level await:
// bundles for Node default to CommonJS.
import { probeClient } from "./client.js";
import { probeServer } from "./server.js";

const serverUrl = (globalThis.Deno ? globalThis.Deno.args : globalThis.process.argv.slice(2))[0];
probeClient(serverUrl).then(async (client) => {
  console.log(JSON.stringify({ ...client, ...(await probeServer()) }));
}, (error) => {
  console.error(error);
  globalThis.process ? (globalThis.process.exitCode = 1) : globalThis.Deno.exit(1);
});
