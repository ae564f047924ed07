// Live mode's endpoint and its connection errors. `endpointOf` reads what was typed: a URL
// without a scheme (`localhost:4603/mcp`) is completed, to http:// for a loopback host and
// https:// otherwise (and the page says which); another scheme, or no URL at all, is an error
// that says what to type. `explain` turns a failed connection into what a page can honestly know:
// an HTTP status it could read; for a fetch that failed (a TypeError: the network or CORS, the
// browser does not say which) a `no-cors` probe tells "nothing answers" from "something answered
// but the browser hid its answer", which may be a 404 or a 403 as well as a server that does not
// allow this origin: the page cannot see which, and says so. Every explanation names the URL and
// what to try. Plain functions, no DOM.

/** What a browser page needs from a server on another origin (TaskClient's headers). */
const ALLOW_HEADERS = "Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID";
const EXPOSE_HEADERS = "Mcp-Session-Id";
/** How long the no-cors probe may take. */
const PROBE_MS = 5000;
const EXAMPLE = "http://127.0.0.1:3000/mcp";

const errorText = (e) => (e instanceof Error ? e.message : typeof e === "object" && e && "message" in e ? String(e.message) : String(e));

/** Whether `hostname` (of a URL) is this machine. */
function isLoopback(hostname) {
  return hostname === "localhost" || hostname.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === "[::1]";
}

/**
 * The endpoint typed in the form: `{ url, completed }` (`completed`: the scheme was added) or
 * `{ error }`, an explanation like `explain`'s.
 * @param {string} text
 */
export function endpointOf(text) {
  const typed = text.trim();
  const notUrl = {
    kind: "invalid-url",
    title: typed === "" ? "No endpoint given" : `“${typed}” is not a URL`,
    detail: "Live mode connects to a Streamable HTTP endpoint: an http:// or https:// URL with the server's host, port and path.",
    tryThis: `Enter the endpoint's full URL, for example ${EXAMPLE}.`,
  };
  if (typed === "" || /\s/.test(typed)) return { error: notUrl };
  // A scheme is letters then ":" not followed by a digit (`localhost:4603` is a host and a port).
  const scheme = /^([a-z][a-z0-9+.-]*):(?!\d)/i.exec(typed)?.[1]?.toLowerCase() ?? null;
  let candidate = typed;
  let completed = false;
  if (scheme === null) {
    let url;
    try {
      url = new URL(`http://${typed.replace(/^\/\//, "")}`);
    } catch {
      return { error: notUrl };
    }
    if (!isLoopback(url.hostname)) url.protocol = "https:";
    candidate = url.href;
    completed = true;
  } else if (scheme !== "http" && scheme !== "https") {
    return {
      error: {
        kind: "scheme",
        title: `${typed}: “${scheme}:” is not an HTTP scheme`,
        detail: "Live mode speaks Streamable HTTP: the endpoint is an http:// or https:// URL.",
        tryThis: `Write the endpoint with http:// or https://, for example ${EXAMPLE}.`,
      },
    };
  }
  try {
    const url = new URL(candidate);
    return { url: completed ? url.href : typed, completed };
  } catch {
    return { error: notUrl };
  }
}

/** Does anything answer at `url`? A `no-cors` fetch: an opaque answer (no status, no body) is an answer. */
async function reachable(url) {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), PROBE_MS);
  try {
    await fetch(url, { mode: "no-cors", cache: "no-store", credentials: "omit", signal: ac.signal });
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
}

/**
 * What went wrong reaching `url`: `{ kind, title, detail, tryThis, headers? }`, each naming the
 * URL and what to try (in `tryThis`, a command is between backquotes).
 * @param {unknown} e the error TaskClient (or a request) threw
 * @param {string} url
 * @param {string} [origin] the page's origin
 */
export async function explain(e, url, origin = location.origin) {
  let server = url;
  let path = "";
  let hostname = "";
  try {
    ({ origin: server, pathname: path, hostname } = new URL(url));
  } catch {
    // not a URL: named as typed
  }
  const err = /** @type {any} */ (e);
  const message = errorText(e);
  const status = typeof err?.status === "number" ? err.status : null;
  const curl = `curl -i ${url}`;
  if (err?.name === "VersionError") {
    return { kind: "version", title: `No protocol version in common with ${url}`, detail: message, tryThis: "Set “Protocol version” to negotiate, or to the version the server speaks." };
  }
  if (status === 404) {
    return { kind: "http-404", title: `HTTP 404 from ${url}: no MCP endpoint at this path`, detail: `${server} answered 404 Not Found for ${path || "/"}. (${message})`, tryThis: `Check the path (the example server's is /mcp: ${EXAMPLE}); \`${curl}\` shows what the server answers.` };
  }
  if (status === 403) {
    return { kind: "http-403", title: `HTTP 403 from ${url}: the server refused this page`, detail: `${server} answered 403 Forbidden. A server that checks the Origin header must allow ${origin}. (${message})`, tryThis: `Allow ${origin} on the server (the package's McpHttpServer: its allowedOrigins option), or open this page from an origin the server allows.` };
  }
  if (status === 401) {
    return { kind: "http-401", title: `HTTP 401 from ${url}: the server wants credentials`, detail: message, tryThis: "This page sends no credentials (no Authorization header): use an endpoint that does not require them, or a proxy in front of it that adds them." };
  }
  if (status !== null && status >= 400) {
    return { kind: `http-${status}`, title: `HTTP ${status} from ${url}`, detail: message, tryThis: `The server's log says why; \`${curl}\` shows its whole answer; the message log below has the exchange.` };
  }
  if (err?.name === "RpcError") {
    return { kind: "rpc", title: `${url} answered a JSON-RPC error (${err.code})`, detail: message, tryThis: "This is the server's own answer: is this an MCP endpoint that speaks 2026-07-28 or 2025-11-25? The message log below has the exchange." };
  }
  if (err?.name === "TransportError" && err.cause instanceof TypeError) {
    if (location.protocol === "https:" && url.startsWith("http:") && !isLoopback(hostname)) {
      return { kind: "mixed", title: `This https page may not fetch ${url}`, detail: `The browser blocks requests from a page loaded over https to plain http:// (mixed content). (${message})`, tryThis: "Use the server's https:// URL, or open this page over http:// (node scripts/serve.mjs)." };
    }
    if (!(await reachable(url))) {
      return { kind: "refused", title: `Nothing answers at ${url}`, detail: `The connection to ${server} failed: refused, no network, or the host name does not resolve. (${message})`, tryThis: `Is the server running, on this host and port? For example \`node examples/conformance-server.mjs --port 3000\`, then ${EXAMPLE}.` };
    }
    // Something answered. Without CORS headers for this origin the browser hides the status and
    // the body from the page (a no-cors answer is opaque; Resource Timing reports status 0 too).
    return {
      kind: "hidden",
      title: `${server} answered, but the browser hid the answer from this page`,
      detail: `The answer to ${url} (or to the OPTIONS preflight before it) carries no CORS headers allowing this page's origin, ${origin}, so the page can see neither its status nor its body. From a page these look the same: a wrong path (404) or a refusal (403) answered without CORS headers, and an MCP endpoint that does not allow other origins.`,
      tryThis: `See the real answer outside the browser: \`curl -i -X OPTIONS ${url} -H 'Origin: ${origin}' -H 'Access-Control-Request-Method: POST'\` (the preflight) or \`${curl}\`. If the path is right, the server must answer (the preflight too) with:`,
      headers: `Access-Control-Allow-Origin: ${origin}\nAccess-Control-Allow-Methods: GET, POST, DELETE, OPTIONS\nAccess-Control-Allow-Headers: ${ALLOW_HEADERS}\nAccess-Control-Expose-Headers: ${EXPOSE_HEADERS}`,
    };
  }
  if (err?.name === "TransportError" && err.kind === "invalid") {
    return { kind: "invalid", title: `${url} did not answer with JSON-RPC`, detail: message, tryThis: `Check that ${url} is an MCP endpoint (Streamable HTTP), not a web page; the message log below shows what came back.` };
  }
  if (err?.name === "TransportError" && err.kind === "redirect") {
    return { kind: "redirect", title: `${url} redirected elsewhere`, detail: message, tryThis: "Enter the URL the server redirects to." };
  }
  if (err?.name === "TransportError" && err.kind === "timeout") {
    return { kind: "timeout", title: `No answer from ${url} in time`, detail: message, tryThis: "Is the server busy or stuck? Its log says; try again." };
  }
  return { kind: "other", title: `Could not talk to ${url}`, detail: message, tryThis: "The message log below has the exchange; the browser's console may say more." };
}
