// Vite 5 builds for targets without top-level await: the entry without it, "mcp-tasks-wasm/bytes",
// and `await init()` before the first call (no argument: the .wasm next to the module, which
// Vite emits, as it follows `new URL("…", import.meta.url)`).
import { init } from "mcp-tasks-wasm/bytes";
import { probeClient } from "./probe/client.js";

const serverUrl = new URL(location.href).searchParams.get("server");
init()
  .then(() => probeClient(serverUrl))
  .then(
    (result) => { globalThis.__probe = { ok: true, result }; },
    (error) => { globalThis.__probe = { ok: false, error: String((error && error.stack) || error) }; },
  );
