// Next.js 16 built with webpack instead of Turbopack (`next build --webpack`): the project of
// tests/packaging/next, otherwise the same.
import { runNext } from "../next/env.mjs";

export const kind = "server";

export function run(options) {
  return runNext("next-webpack", ["--webpack"], options);
}
