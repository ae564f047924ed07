// Vite 5 targets browsers without top-level await: the entry without it, "mcp-tasks-wasm/bytes",
// initialised before the first call. The .wasm's URL comes from Vite's `?url` import of the
// package's export (dev server and build alike: the dev server's dependency pre-bundling moves the
// module, so a URL relative to it would miss). The README's "Bundlers" section shows these lines.
import { init } from "mcp-tasks-wasm/bytes";
import wasmUrl from "mcp-tasks-wasm/mcp_tasks_wasm_bg.wasm?url";
import { probeClient } from "./probe/client.js";

const serverUrl = new URL(location.href).searchParams.get("server");
init({ module_or_path: wasmUrl })
  .then(() => probeClient(serverUrl))
  .then(
    (result) => { globalThis.__probe = { ok: true, result }; },
    (error) => { globalThis.__probe = { ok: false, error: String((error && error.stack) || error) }; },
  );
