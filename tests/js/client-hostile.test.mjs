// TaskClient against hostile or failing servers (issue 10), from the packed package, the server
// side being the package's own TaskHost in the same process (its answers tampered where the item
// needs a lying server):
// - item 10: a `tasks/get` answer about another task (other taskId, same createdAt) is a
//   ProtocolError, never that task's result (§D 34);
// - item 11: a `pollIntervalMs` or `retryAfterMs` of 2^31 ms or more never reaches setTimeout
//   (node's mock timers fire such a delay after 1 ms, as real ones do): no wake-up storm;
// - item 12: `restore` of a state that does not add up is refused with a TypeError naming the
//   field, before any request;
// - item 16: a cancel that never reached the server is reported as not delivered (after retries),
//   never as `cancelled`.
import { test, mock } from "node:test";
import assert from "node:assert/strict";
import { flush, virtualClock } from "./virtual-clock.mjs";

const { TaskClient, TaskCancelledError, ProtocolError } = await import("./.tmp/install/esm.mjs");
const { TaskHost } = await import("./.tmp/install/server.mjs");

const V26 = "2026-07-28";
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const MAX_TIMER_MS = 2 ** 31 - 1;

const text = (t) => ({ content: [{ type: "text", text: t }] });

/**
 * A request function to `host` (V26, no session) that records `{ method, params }` and lets the
 * test rewrite an exchange: `tamper(method, params, send)` answers instead (send = the real one).
 */
function wire(host, { tamper } = {}) {
  const sent = [];
  let id = 1;
  const send = async (method, params) => {
    const response = await host.handle({ jsonrpc: "2.0", id: id++, method, params }, { protocolVersion: V26 });
    assert.ok(response, `${method}: the host did not answer`);
    if (response.error) throw Object.assign(new Error(response.error.message), response.error);
    return response.result;
  };
  const request = async (method, params) => {
    sent.push({ method, params });
    return tamper ? tamper(method, params, send) : send(method, params);
  };
  return { request, sent, count: (m) => sent.filter((s) => s.method === m).length };
}

function gate() {
  let open;
  const promise = new Promise((r) => (open = r));
  return { promise, open };
}

// ---- item 10 -----------------------------------------------------------------------------------

test("item 10: a tasks/get answer about another task (same createdAt) is a ProtocolError, not that task's result (§D 34)", async () => {
  const now = T0;
  const host = new TaskHost({ now: () => now });
  const hold = gate();
  host.tool("mine", {}, async () => {
    await hold.promise;
    return text("my result");
  });
  host.tool("theirs", {}, () => text("THEIR result"));
  const direct = wire(host);
  const theirs = await direct.request("tools/call", { name: "theirs", arguments: {}, _meta: { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } } });
  await host.idle();
  // The lying server answers every tasks/get with the other task (created at the same instant).
  const lying = wire(host, { tamper: (method, params, send) => (method === "tasks/get" ? send(method, { ...params, taskId: theirs.taskId }) : send(method, params)) });
  const clock = virtualClock(T0);
  const client = new TaskClient({ request: lying.request, protocolVersion: V26, clock });
  const events = [];
  (async () => {
    for await (const e of client.events()) events.push(e);
  })();
  const call = client.callTool("mine", {});
  call.catch(() => {});
  await clock.advance(5_000);
  await assert.rejects(call, (e) => {
    assert.ok(e instanceof ProtocolError, String(e));
    assert.match(e.message, /another task/);
    assert.notEqual(e.taskId, theirs.taskId);
    assert.equal(e.result.taskId, theirs.taskId);
    return true;
  });
  assert.ok(lying.count("tasks/get") >= 1);
  assert.equal(events.some((e) => e.type === "completed"), false, "never completed with the other task's result");
  hold.open();
  client.close();
  await host.close();
});
