// bench/browser-app/app.js, importing the server entry too: both modules load.
export * from "./app.js";
export { TaskHost } from "mcp-tasks-wasm/server";
