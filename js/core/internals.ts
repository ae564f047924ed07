// The key of our classes' internal accessor: `instance[INTERNALS]()` gives what a sibling module
// of ours or a test must reach of a class's `#private` state (the tests' one deliberate hook;
// HACKING "Where a change goes", a public member of a JS class). Marked `@internal`: absent from
// the published typings; a symbol, so `Object.keys` and `in` on an instance show none of it.

/** @internal */
export const INTERNALS: unique symbol = Symbol.for("mcp-tasks-wasm.internals");
