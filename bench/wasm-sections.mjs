// The code and data sections of a .wasm, raw and gzip -9 each (used by bench/size-profile.mjs,
// and by bench/size-variants.sh as `node bench/wasm-sections.mjs FILE.wasm`, which prints JSON).
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

/** @returns {{code?: {raw: number, gzip: number}, data?: {raw: number, gzip: number}}} */
export function wasmSections(wasm) {
  const sections = {};
  let p = 8;
  const leb = () => { let r = 0, s = 0, x; do { x = wasm[p++]; r |= (x & 0x7f) << s; s += 7; } while (x & 0x80); return r >>> 0; };
  while (p < wasm.length) {
    const id = wasm[p++];
    const len = leb();
    const name = { 10: "code", 11: "data" }[id];
    if (name) sections[name] = { raw: len, gzip: gzipSync(wasm.subarray(p, p + len), { level: 9 }).length };
    p += len;
  }
  return sections;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(wasmSections(readFileSync(process.argv[2]))));
}
