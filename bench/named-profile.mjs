// What the CPU-profile scripts share (bench/cpu-profile.mjs, bench/store-profile.mjs): a copy of
// a raw cargo build with its function names kept (the packaged .wasm has none), a child process
// run under `node --cpu-prof`, and the walk of the profile's samples as root-first stacks. Each
// script keeps its own stages and how it charges a sample to one.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { resolve } from "node:path";

/**
 * Makes `dir` hold wasm-bindgen's `--target web` output of `raw` (the cargo .wasm), optimised
 * with `wasm-opt -Oz -g` so the names stay. Answers `{ rawNewer }` (whether `raw` is newer than
 * the packaged `pkgWasm`, i.e. may not be the measured code), or `null` after printing why it is
 * skipped (no raw build, no wasm-bindgen).
 * @param {{ repo: string, raw: string, pkgWasm: string, dir: string, label: string }} o
 */
export function namedCopy({ repo, raw, pkgWasm, dir, label }) {
  if (!existsSync(raw)) {
    console.log(`# ${label}: skipped (no raw cargo output at ${raw}; run scripts/build.sh)`);
    return null;
  }
  const rawNewer = statSync(raw).mtimeMs > statSync(pkgWasm).mtimeMs + 60_000;
  const run = (cmd, args) => {
    const p = spawnSync(cmd, args, { encoding: "utf8" });
    if (p.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${p.stderr || p.error}`);
  };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const wasm = resolve(dir, "mcp_tasks_wasm_bg.wasm");
  try {
    run("wasm-bindgen", ["--target", "web", "--out-dir", dir, "--out-name", "mcp_tasks_wasm", raw]);
    run(resolve(repo, "node_modules/.bin/wasm-opt"), ["-Oz", "-g", wasm, "-o", wasm]);
  } catch (e) {
    console.log(`# ${label}: skipped (${e.message.split("\n")[0]})`);
    return null;
  }
  return { rawNewer };
}

/**
 * Runs `script --child ...args` under `node --cpu-prof` into `dir`; answers its stdout and the
 * profile file.
 * @param {{ repo: string, script: string, dir: string, args: string[] }} o
 */
export function profiledChild({ repo, script, dir, args }) {
  mkdirSync(dir, { recursive: true });
  const p = spawnSync(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${dir}`, script, "--child", ...args], { cwd: repo, encoding: "utf8" });
  if (p.status !== 0) throw new Error(p.stderr);
  const name = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (!name) throw new Error(`no .cpuprofile in ${dir}`);
  return { stdout: p.stdout, file: resolve(dir, name) };
}

/**
 * Every sample of a `.cpuprofile` as `{ d, chain }`: its time (µs) and the function names of its
 * stack, root first. `name(callFrame)` names a frame (default: its `functionName`).
 * @param {string} file
 * @param {(frame: { functionName: string, lineNumber: number, url: string }) => string} [name]
 */
export function profileStacks(file, name = (f) => f.functionName || "") {
  const p = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  return p.samples.map((id, i) => {
    const chain = [];
    for (let x = id; x !== undefined; x = parent.get(x)) chain.push(name(byId.get(x).callFrame));
    return { d: p.timeDeltas[i] ?? 0, chain: chain.reverse() };
  });
}
