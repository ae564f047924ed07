// An MCP server for the launcher's tests: the example tools over Streamable HTTP (the installed
// package's McpHttpServer) that wants `Authorization: Bearer <argv[2]>` (else 401) and allows no
// browser origin (a request with an Origin gets 403 and no CORS header): a page reaches it only
// through the launcher's bridge. Prints its URL, then one line per request it saw:
// `seen <method> <authorization> <mcp-session-id>`. Not a test file itself.
import http from "node:http";
import { McpHttpServer } from "../.tmp/install/server.mjs";
import { TOOLS } from "../../../examples/tools.mjs";

const token = process.argv[2];
const app = new McpHttpServer({ name: "bearer-server", version: "0.1.0", path: "/mcp", allowedOrigins: [] });
for (const { name, handler, ...options } of TOOLS) app.tool(name, options, handler);
const server = http.createServer((req, res) => {
  console.log(`seen ${req.method} ${req.headers.authorization ?? "-"} ${req.headers["mcp-session-id"] ?? "-"} ${req.headers.origin ?? "-"}`);
  if (req.headers.authorization !== `Bearer ${token}`) {
    res.writeHead(401, { "content-type": "application/json", "www-authenticate": "Bearer" });
    return res.end(JSON.stringify({ error: "a bearer token is required" }));
  }
  app.node(req, res);
});
server.listen(0, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${server.address().port}/mcp`));
process.once("SIGTERM", () => process.exit(0));
