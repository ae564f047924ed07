// esbuild --format=iife: a classic script, so no top-level await and no import.meta.url. The
// entry without top-level await ("mcp-tasks-wasm/bytes"), initialised with the .wasm's URL.
import { init } from "mcp-tasks-wasm/bytes";
import { probeClient } from "./probe/client.js";

const serverUrl = new URL(location.href).searchParams.get("server");
init({ module_or_path: "./mcp_tasks_wasm_bg.wasm" })
  .then(() => probeClient(serverUrl))
  .then(
    (result) => { globalThis.__probe = { ok: true, result }; },
    (error) => { globalThis.__probe = { ok: false, error: String((error && error.stack) || error) }; },
  );
