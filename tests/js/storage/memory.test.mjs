// The storage contract kit (contract.mjs) on MemoryStorage, from the installed package's
// `mcp-tasks-wasm/storage` entry. Memory is one process's: no multi-process tests.
import { storageContract } from "./contract.mjs";
import { loadStorage } from "./lib.mjs";

const { MemoryStorage } = await loadStorage("");

storageContract("memory", { open: async () => new MemoryStorage() });
