// The packed package's type routing: each TypeScript resolution mode finds declarations for
// the entry it would load (node10 via top-level "types", node16 CJS and ESM via "exports",
// bundler via "browser"/"default", and the "./bytes" subpath). Complements types.test.mjs,
// which checks the generated wire types themselves.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const install = join(here, ".tmp", "install");
const tsc = join(here, "..", "..", "node_modules", ".bin", "tsc");

const use = `
const report: ValidationReport = validateMessage('{"jsonrpc":"2.0"}', { version: "2025-11-25" });
const ok: boolean = report.valid;
const codes: string[] = rules().map((r) => r.code);
export { ok, codes };
`;
const esm = `import { validateMessage, rules, type ValidationReport } from "mcp-tasks-wasm";\n${use}`;

const cases = [
  {
    name: "node10 (top-level types → node.d.cts)",
    options: { module: "commonjs", moduleResolution: "node10" },
    files: { "a.ts": esm },
  },
  {
    name: "node16: .cts require and .mts import",
    options: { module: "node16", moduleResolution: "node16" },
    files: {
      "a.cts": `import pkg = require("mcp-tasks-wasm");\ntype ValidationReport = pkg.ValidationReport;\nconst { validateMessage, rules } = pkg;\n${use}`,
      "b.mts": esm,
    },
  },
  {
    name: "bundler: main entry and ./bytes",
    options: { module: "esnext", moduleResolution: "bundler" },
    files: {
      "a.ts": esm,
      "b.ts": `import { init, initSync, validateMessage } from "mcp-tasks-wasm/bytes";\ndeclare const bytes: Uint8Array;\ninitSync({ module: bytes });\nvoid init;\nexport const r = validateMessage("{").issues.length;\n`,
    },
  },
];

for (const c of cases) {
  test(`types resolve: ${c.name}`, () => {
    assert.ok(existsSync(join(install, "node_modules", "mcp-tasks-wasm")), "run scripts/pack.sh first");
    const dir = join(install, `routing-${c.options.moduleResolution}`);
    mkdirSync(dir, { recursive: true });
    for (const [f, text] of Object.entries(c.files)) writeFileSync(join(dir, f), text);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: "es2022", lib: ["es2022", "dom"], types: [], skipLibCheck: false, ...c.options },
        files: Object.keys(c.files),
      }),
    );
    try {
      execFileSync(tsc, ["-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
    } catch (e) {
      assert.fail(`tsc reported errors:\n${e.stdout}${e.stderr}`);
    }
  });
}
