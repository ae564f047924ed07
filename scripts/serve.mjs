#!/usr/bin/env node
// A tiny static file server for the browser pages (www/) and the built package (pkg/).
// Serves the repository root on 127.0.0.1 only, `.wasm` as application/wasm.
//
//   node scripts/serve.mjs [port]        (or PORT=8080; default 8080; 0 picks a free port)
//   then open http://127.0.0.1:8080/www/ (the inspector) or /www/smoke.html
//
// Tests import { startServer } and pass port 0.
import { createServer } from "node:http";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".cjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".jsonl": "application/jsonl; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css; charset=utf-8",
  ".ts": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * Starts the server. Resolves to { server, port, url, close() }.
 * @param {{ port?: number, root?: string, log?: boolean }} [options]
 */
export function startServer({ port = 8080, root = ROOT, log = false } = {}) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    const send = (status, body) => {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
      res.end(body);
    };
    try {
      if (req.method !== "GET" && req.method !== "HEAD") return send(405, "method not allowed\n");
      let pathname = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
      if (pathname.endsWith("/")) pathname += "index.html";
      const file = resolve(join(base, pathname));
      if (file !== base && !file.startsWith(base.endsWith(sep) ? base : base + sep)) {
        return send(403, "forbidden\n");
      }
      const info = await stat(file).catch(() => null);
      if (!info || !info.isFile()) return send(404, `not found: ${pathname}\n`);
      res.writeHead(200, {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "content-length": info.size,
        "cache-control": "no-store",
      });
      if (log) console.log(`${req.method} ${pathname}`);
      if (req.method === "HEAD") return res.end();
      createReadStream(file).pipe(res);
    } catch (e) {
      send(400, `bad request: ${e instanceof Error ? e.message : e}\n`);
    }
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const actual = typeof address === "object" && address ? address.port : port;
      ok({
        server,
        port: actual,
        url: `http://127.0.0.1:${actual}/`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] ?? process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: bad port ${process.argv[2] ?? process.env.PORT}`);
    process.exit(2);
  }
  const { url } = await startServer({ port, log: true });
  console.log(`serving ${ROOT} on ${url} (open ${url}www/ for the inspector)`);
}
