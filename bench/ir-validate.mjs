// Instructions per validateMessage(text, {inReplyTo}) call, JS and wasm together, counted by
// callgrind (a count does not depend on the machine's load, unlike a time): runs N calls of one
// bench message on the package in DIR. Run it under valgrind twice and take the difference:
//
//   for n in 20000 40000; do valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//     node bench/ir-validate.mjs pkg v25-get-bad-status $n 2>&1 | grep refs; done
//
// (instructions per call = the difference of the two totals ÷ 20000; JIT warm-up is in both.)
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { buildMessages } from "./messages.mjs";

const [dir = "pkg", id = "v25-get-valid", count = "10000"] = process.argv.slice(2);
const { validateMessage } = await import(pathToFileURL(resolve(dir, "node.mjs")).href);
const m = buildMessages().find((x) => x.id === id);
if (!m) throw new Error(`no message ${id}`);
const opts = { inReplyTo: m.inReplyTo };
let valid = 0;
// Warm-up (the same in every run), then the N counted calls.
for (let i = 0; i < 20000; i++) if (validateMessage(m.text, opts).valid) valid++;
for (let i = 0, n = Number(count); i < n; i++) if (validateMessage(m.text, opts).valid) valid++;
console.log(`${id}: ${valid} valid`);
