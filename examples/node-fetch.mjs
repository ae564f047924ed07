// node:http → a web-standard fetch handler (what @modelcontextprotocol/node's toNodeHandler
// does), for the SDK v2 servers served here on node:http (examples/sdk2-server.mjs and the
// peers' fixture tests/peers/fixtures/sdk2-server.mjs).

/**
 * A node:http request listener: each IncomingMessage becomes a web `Request` (aborted when the
 * client hangs up), handed to `handle(request, parsedBody)` (`parsedBody`: the body as JSON,
 * `undefined` when empty or not JSON); the `Response` it answers is written back as it streams.
 */
export function nodeToFetch(handle) {
  return async (req, res) => {
    try {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const body = Buffer.concat(chunks);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
      const abort = new AbortController();
      res.once("close", () => abort.abort());
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers,
        body: body.length > 0 && req.method !== "GET" && req.method !== "HEAD" ? body : undefined,
        signal: abort.signal,
      });
      let parsedBody;
      try {
        parsedBody = body.length > 0 ? JSON.parse(body.toString("utf8")) : undefined;
      } catch {}
      const response = await handle(request, parsedBody);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) for await (const chunk of response.body) res.write(chunk);
      res.end();
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    }
  };
}
