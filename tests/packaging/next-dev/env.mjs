// Next.js 16 dev server (`next dev`, Turbopack): the project of tests/packaging/next, the route
// fetched and the page opened in headless Chromium, as after a build.
import { runNext } from "../next/env.mjs";

export const kind = "server";

export function run(options) {
  return runNext("next-dev", null, options);
}
