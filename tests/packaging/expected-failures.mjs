// THE place where matrix rows are marked as expected to fail, with the reason. A row listed here
// must still fail, with an error matching `match`: when it passes, the test fails and asks for
// its line to be removed here (so a fix is never left unnoticed).
//
// Each entry: environment name → { reason, match }.
const SAME_WASM_NAME = {
  reason: "the main and the server entry name their .wasm alike (mcp_tasks_wasm_bg.wasm): in one bundle " +
    "that takes both, for a bundler that leaves new URL(…, import.meta.url) alone, one entry loads the " +
    "other's module (fixed by the wasm layout change of the wt-z branch; then update wasm-copies.mjs)",
  match: /function import requires a callable|taskserver_new is not a function|is not a function/,
};

export const EXPECTED_FAILURES = {
  "esbuild-browser-server": SAME_WASM_NAME,
  "rollup-server": SAME_WASM_NAME,
};
