// The JS helpers of the server entry (mcp-tasks-wasm/server), re-exported by every entry file
// next to the wasm-bindgen glue. Written in the subset scripts/esm-to-cjs.mjs converts.
import { TaskHost } from "./host.js";
import { SdkTaskStore } from "./sdk.js";

export { TaskHost, SdkTaskStore };
