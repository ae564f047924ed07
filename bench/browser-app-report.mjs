// The "Browser app" section of BENCHMARKS.md, from bench/results/browser-meta.json and
// browser-app.json (bench/browser-app.mjs, bash bench/run.sh browser). Used by bench/report.mjs.
import { commandAndMachine, kb, targetTable } from "./report-lib.mjs";

export function browserAppSection({ meta, app }) {
  const L = ["## Browser app: what a page downloads", ""];
  L.push(
    `The app \`bench/browser-app/client.js\` (\`TaskClient.connect\` and a \`callTool\`) bundled with esbuild ${app.esbuild} (\`--bundle --minify --platform=browser --format=esm\`), plus the \`.wasm\` files its bundle fetches; gzip -9 per file, summed (KB = 1,000 bytes).\n` +
      `For scale, the same next to the SDK ${app.sdk} client and its task schemas, that app importing the server entry too, and the first app importing \`Conversation\`.`,
  );
  L.push("");
  L.push(...commandAndMachine({ command: "bash bench/run.sh browser", runs: "`node bench/browser-app.mjs`", date: meta.date, loads: [meta.loadStart, meta.loadEnd ?? meta.loadStart], node: meta.node, nproc: meta.nproc, cpu: meta.cpu }));
  L.push(`- Package: \`pkg/\` at ${meta.gitHead}${meta.srcDirty ? " (uncommitted changes)" : ""}. Byte counts do not depend on the load.`);
  L.push("");
  L.push("| app | JS bundle | .wasm | total gzip |");
  L.push("|---|---:|---:|---:|");
  for (const [label, r] of Object.entries(app.results)) {
    const wasm = Object.entries(r.wasm).map(([f, s]) => `${kb(s.gzip)} \`${f.split("/").pop()}\``).join(" + ");
    L.push(`| ${label} | ${kb(r.js.gzip)} | ${wasm} | **${kb(r.total.gzip)}** |`);
  }
  L.push("");
  L.push("- In browsers the main entry loads the browser module (validator, converters, scheduler; no conversation checker, no store); `conversation.js` fetches the client module only for an app that imports `Conversation` ([browser-module.md](docs/decisions/browser-module.md)).");
  L.push("");
  const first = Object.values(app.results).find((r) => r.app === "client.js");
  if (first) L.push(...targetTable([["Browser app with `TaskClient.connect` ≤ 160 KB gzip, JS and wasm", first.total.gzip <= 160_000, kb(first.total.gzip)]]));
  return L;
}
