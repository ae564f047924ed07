// Raw HTTP for the server's process tests (not a test file: no `.test.` in the name): one JSON-RPC
// message POSTed over node:http, the answer read whole, so a test can also destroy the request
// mid-flight (a client that hangs up) or send it from another loopback address.
import http from "node:http";

/** The JSON-RPC message of an HTTP answer: its JSON body, or the last message of its SSE body. */
export function messageOf(headers, raw) {
  if (String(headers["content-type"] ?? "").startsWith("text/event-stream")) {
    const data = raw.split("\n").filter((l) => l.startsWith("data: "));
    return data.length ? JSON.parse(data.at(-1).slice(6)) : null;
  }
  return raw ? JSON.parse(raw) : null;
}

/**
 * POSTs `message` as JSON to `target` through `fetchFn` (a fetch, or a handler of a `Request`
 * called with `info` too): `{ status, body, headers }`, `body` the answer's JSON-RPC message.
 */
export async function post(target, message, headers = {}, fetchFn = fetch, info = undefined) {
  const res = await fetchFn(
    new Request(target, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(message),
    }),
    info,
  );
  const raw = await res.text();
  return { status: res.status, body: messageOf({ "content-type": res.headers.get("content-type") }, raw), headers: res.headers };
}

/**
 * POSTs `message` (an object, or text sent as is) with node:http's `options` (`agent`,
 * `localAddress`, …): `{ request, answer }`, `answer` resolving with `{ status, body, headers }`
 * (rejecting when the connection fails).
 */
export function open(url, message, headers = {}, options = {}) {
  const body = typeof message === "string" ? message : JSON.stringify(message);
  let request;
  const answer = new Promise((resolve, reject) => {
    request = http.request(
      url,
      {
        ...options,
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Content-Length": Buffer.byteLength(body), ...headers },
      },
      (res) => {
        let raw = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (raw += d));
        res.on("end", () => {
          try {
            resolve({ status: res.statusCode, body: messageOf(res.headers, raw), headers: res.headers });
          } catch (e) {
            reject(e);
          }
        });
        res.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
  return { request, answer };
}
