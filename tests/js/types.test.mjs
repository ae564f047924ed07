// Runs `tsc --strict` over tests/types/wire-types.ts against the packed, installed package:
// correct literals type-check, and every `@ts-expect-error` line really is a type error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const install = join(here, ".tmp", "install");
const tsc = join(root, "node_modules", ".bin", "tsc");

for (const resolution of [
  { module: "nodenext", moduleResolution: "nodenext" },
  { module: "esnext", moduleResolution: "bundler" },
]) {
  test(`generated types, tsc --strict, moduleResolution ${resolution.moduleResolution}`, () => {
    assert.ok(existsSync(join(install, "node_modules", "mcp-tasks-wasm")), "run scripts/pack.sh first");
    const dir = join(install, `types-${resolution.moduleResolution}`);
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(root, "tests", "types", "wire-types.ts"), join(dir, "wire-types.ts"));
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "es2022",
          lib: ["es2022", "dom"],
          ...resolution,
          types: [],
          skipLibCheck: false,
        },
        files: ["wire-types.ts"],
      }),
    );
    let out = "";
    try {
      out = execFileSync(tsc, ["-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
    } catch (e) {
      assert.fail(`tsc reported errors:\n${e.stdout}${e.stderr}`);
    }
    assert.equal(out.trim(), "");
  });
}
