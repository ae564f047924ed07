// A/B of two builds' cold start: fresh `node` processes, alternating A and B, each timing
// (performance.now) from before the import of DIR/node.mjs to after the first
// validateMessage(text, {inReplyTo}) of the small valid V25 `tasks/get` answer returns.
//
//   node bench/ab-cold-start.mjs DIR_A DIR_B      env COLD_RUNS (default 25)
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { buildMessages } from "./messages.mjs";

const dirs = process.argv.slice(2, 4);
if (dirs.length !== 2) throw new Error("usage: node bench/ab-cold-start.mjs DIR_A DIR_B");
const RUNS = Number(process.env.COLD_RUNS ?? 25);
const text = buildMessages().find((m) => m.id === "v25-get-valid").text;
const child = `const t0 = performance.now();
const { validateMessage } = await import(process.argv[1]);
const valid = validateMessage(process.argv[2], { inReplyTo: "tasks/get" }).valid;
console.log(performance.now() - t0, valid);`;
const ms = dirs.map(() => []);
for (let r = 0; r < RUNS; r++) {
  dirs.forEach((dir, i) => {
    const url = pathToFileURL(resolve(dir, "node.mjs")).href;
    const out = spawnSync(process.execPath, ["--input-type=module", "-e", child, url, text], { encoding: "utf8" });
    const [t, valid] = out.stdout.trim().split(" ");
    if (valid !== "true") throw new Error(`${dir}: ${out.stdout}${out.stderr}`);
    ms[i].push(Number(t));
  });
}
const at = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
dirs.forEach((dir, i) => console.log(`${dir}: median ${at(ms[i], 0.5).toFixed(1)} ms, p90 ${at(ms[i], 0.9).toFixed(1)} ms (${RUNS} runs)`));
