// The page's side of `mcp-tasks-wasm inspect`'s bridge. The launcher opens this page as
// http://127.0.0.1:PORT/#bridge=TOKEN: the token (per launch, random) is taken out of the URL at
// once (the fragment then reads #live), kept in this tab's sessionStorage (a reload keeps working;
// no other tab or origin sees it), and sent in X-MCP-Bridge-Token with every request to the
// launcher's /bridge/ endpoints, which refuse any request without it (401) or from another origin
// (403). /bridge/config tells the endpoint the page then connects to (/bridge/mcp: Streamable HTTP,
// forwarded to the server the launcher was given, or a stdio server it runs) and what is behind it.
// Opened any other way (no token), nothing here sends anything: `bridge` is null and
// `bridgeFetch` is the plain fetch.

const KEY = "mcp-tasks-inspector/bridge-token";
const HEADER = "X-MCP-Bridge-Token";

function takeToken() {
  const m = /^#bridge=([A-Za-z0-9_-]{16,128})$/.exec(location.hash);
  if (m) {
    try {
      sessionStorage.setItem(KEY, m[1]);
    } catch {
      // no storage: the token lives as long as the page
    }
    history.replaceState(null, "", `${location.pathname}${location.search}#live`);
    return m[1];
  }
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

const token = takeToken();

/** `{ endpoint, mode, target, command, headers, recording }` from the launcher, or null. */
async function loadConfig() {
  if (!token) return null;
  try {
    const res = await fetch("/bridge/config", { headers: { [HEADER]: token }, cache: "no-store" });
    if (res.ok) return await res.json();
  } catch {
    // no launcher behind this origin any more
  }
  // A token of an earlier launch (the launcher restarted on the same port): forget it.
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing kept
  }
  return null;
}

/** The launcher's bridge, when the page was opened by it. */
export const bridge = await loadConfig();

/**
 * The bridge's MCP endpoint as an absolute URL (what the page connects to), or null (also when the
 * launcher was given no server: the page is then used as without it).
 */
export const bridgeEndpoint = bridge && bridge.mode !== "none" ? new URL(bridge.endpoint, location.href).href : null;

/** `fetch`, with the token added to the launcher's /bridge/ requests (and only to those). */
export function bridgeFetch(input, init = {}) {
  if (!bridge) return fetch(input, init);
  const url = new URL(typeof input === "string" ? input : input.url, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith("/bridge/")) return fetch(input, init);
  const headers = new Headers(init.headers ?? {});
  headers.set(HEADER, token);
  return fetch(input, { ...init, headers });
}

/** What is behind the bridge, said under the endpoint field. */
function describe() {
  const form = document.getElementById("endpoint-form");
  if (!bridge || !form) return;
  const what = bridge.mode === "stdio" ? `the stdio server ${bridge.command.join(" ")} (run by the launcher)`
    : bridge.mode === "http" ? `${bridge.target}${bridge.headers.length ? ` (with ${bridge.headers.join(", ")})` : ""}`
    : "nothing (the launcher was given no server)";
  const note = document.createElement("p");
  note.id = "bridge-note";
  note.className = "hint";
  note.textContent = `Opened by mcp-tasks-wasm inspect: this endpoint is the launcher's bridge to ${what}${bridge.recording ? ", recording every message" : ""}.`;
  form.append(note);
}
describe();
