// The "ours" run: the SDK's in-memory store module, as the tests import it
// ('@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js'), is replaced by this one
// (an alias in tools/sdk-tests/vitest.config.mjs). It is the import line a user writes to switch:
// SdkTaskStore under the SDK's name, constructed by the tests exactly as they construct the SDK's
// (`new InMemoryTaskStore()`, no options). The message queue stays the SDK's own.
export { SdkTaskStore as InMemoryTaskStore } from 'mcp-tasks-wasm/server';
export { InMemoryTaskMessageQueue } from '@modelcontextprotocol/sdk/experimental/tasks/index.js';
