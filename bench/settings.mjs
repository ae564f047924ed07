// What the timed micro-benchmarks (bench/store.mjs, bench/validate.mjs) share: the command
// line's values and the run lengths the environment sets.
//   env BENCH_RUNS  timed runs per contender (default 7, at least 5)
//       BENCH_MS    target ms per timed run (default 150); the warm-up lasts twice that, 300 ms at least

const args = process.argv.slice(2);

/** The value after `name` on the command line (`--json FILE`), if given. */
export const argVal = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
export const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 7));
export const RUN_MS = Number(process.env.BENCH_MS ?? 150);
export const WARM_MS = Math.max(300, RUN_MS * 2);
