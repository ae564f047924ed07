// vitest config for the TypeScript SDK's own task tests (tests/sdk-upstream), run by
// tests/js/sdk-upstream.test.sh. SDK_STORE=control: the SDK's InMemoryTaskStore, as upstream;
// SDK_STORE=ours: the tests' import of the SDK's in-memory store module resolves to
// tests/sdk-upstream/ours/in-memory.ts (SdkTaskStore from the packed install, scripts/pack.sh).
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("../../", import.meta.url));
const store = process.env.SDK_STORE ?? "control";
if (store !== "control" && store !== "ours") throw new Error(`SDK_STORE must be control or ours, not ${store}`);

const alias = [
  // The copied tests live outside this folder: let them find vitest here.
  { find: /^vitest$/, replacement: fileURLToPath(new URL("./node_modules/vitest/dist/index.js", import.meta.url)) },
  // and supertest (test/server/index.test.ts); its servers listen on every interface, so the
  // runs happen in a network namespace with loopback only (tests/js/sdk-upstream.test.sh).
  { find: /^supertest$/, replacement: fileURLToPath(new URL("./node_modules/supertest/index.js", import.meta.url)) },
];
if (store === "ours") {
  alias.push(
    {
      find: /^@modelcontextprotocol\/sdk\/experimental\/tasks\/stores\/in-memory\.js$/,
      replacement: `${root}tests/sdk-upstream/ours/in-memory.ts`,
    },
    // The package as installed by scripts/pack.sh (its "node" import entry).
    { find: /^mcp-tasks-wasm\/server$/, replacement: `${root}tests/js/.tmp/install/node_modules/mcp-tasks-wasm/server/node.mjs` },
  );
}

export default defineConfig({
  root: `${root}tests/sdk-upstream`,
  resolve: { alias },
  test: {
    // As the SDK's own vitest.config.ts (its setup file only polyfills crypto for Node 18).
    globals: true,
    environment: "node",
    include: ["test/**/*.test.ts"],
  },
});
