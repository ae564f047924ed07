// Hostile traffic for the memory soak (tests/js/soak.test.mjs) and the "Hostile input" section
// of BENCHMARKS.md (bench/hostile.mjs): each driver takes the package entry (its classes) and a
// message count, sends that many hostile messages or operations to one component with its
// default bounds, and answers the counts to check against those bounds.

const T0 = Date.UTC(2026, 0, 1);

/**
 * Conversation: every fifth message is an unanswered request (maxPending), a status of a new
 * task (maxTasks), a status of one task polled forever (maxEventsPerTask), a status with an id
 * longer than maxIdBytes, or text that is not a message.
 */
export function driveConversation({ Conversation }, n) {
  const conversation = new Conversation({ version: "2025-11-25" });
  const mega = "x".repeat(2048); // longer than maxIdBytes (1024)
  const status = (taskId, i) =>
    `{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"${taskId}","status":"working","statusMessage":"m${i}","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":60000}}`;
  let bounded = 0;
  for (let i = 0; i < n; i++) {
    let message;
    switch (i % 5) {
      case 0: // a request never answered: pending
        message = `{"jsonrpc":"2.0","id":${i},"method":"tasks/get","params":{"taskId":"t${i}"}}`;
        break;
      case 1: // a new task each time
        message = status(`task-${i}`, i);
        break;
      case 2: // one task polled forever: its history
        message = status("hot", i);
        break;
      case 3: // an id longer than maxIdBytes
        message = status(mega + i, i);
        break;
      default: // not JSON / not a message
        message = i % 2 ? `{"jsonrpc":"2.0","id":` : `[1,2,${i}]`;
    }
    const report = conversation.observe(message);
    if (report.issues.some((issue) => issue.code === "history-bound")) bounded++;
  }
  const tasks = conversation.tasks();
  const hot = tasks.find((t) => t.taskId === "hot");
  const figures = { tasks: tasks.length, hotEvents: hot?.events.length ?? 0, hotOmitted: hot?.omittedEvents ?? 0, bounded };
  conversation.free();
  return figures;
}

/**
 * TaskServer: tools/call tasks from 10 sessions (maxLiveTasksPerSession set to 100: the bound at
 * work with a store that stays small; the default, 10,000, bounds the same way), tasks/get of unknown
 * ids, forged cursors, tasks/update with unsolicited responses, ids that are objects and lone
 * surrogates, tasks/result, notifications, unknown methods.
 */
export function driveServer({ TaskServer }, n) {
  const srv = new TaskServer({ maxLiveTasksPerSession: 100 });
  const sessions = 10;
  const created = [];
  let refused = 0;
  for (let i = 0; i < n; i++) {
    const now = T0 + i;
    const session = `s${(i >> 3) % sessions}`;
    const ctx = { protocolVersion: i % 2 ? "2025-11-25" : "2026-07-28", session, now };
    const meta = { "io.modelcontextprotocol/protocolVersion": ctx.protocolVersion };
    switch (i % 8) {
      case 0: {
        // tools/call as a task: capped at maxLiveTasksPerSession (100) live tasks per session.
        const call = { jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "t", arguments: { q: "x".repeat(100) }, task: { ttl: 2 ** 40 }, _meta: meta } };
        const out = srv.beginToolCall(call, { ...ctx, protocolVersion: "2025-11-25" }, "optional");
        if (out.kind === "task") created.push(out.taskId);
        else refused++;
        break;
      }
      case 1:
        srv.handle({ jsonrpc: "2.0", id: i, method: "tasks/get", params: { taskId: i.toString(16).padStart(32, "0"), _meta: meta } }, ctx);
        break;
      case 2:
        srv.handle({ jsonrpc: "2.0", id: i, method: "tasks/list", params: { cursor: (i * 7919).toString(16).padStart(32, "f") } }, { ...ctx, protocolVersion: "2025-11-25" });
        break;
      case 3:
        srv.handle({ jsonrpc: "2.0", id: i, method: "tasks/update", params: { taskId: created.at(-1) ?? "x", inputResponses: { [`k${i}`]: { action: "accept", content: { a: "y".repeat(200) } } }, _meta: meta } }, { ...ctx, protocolVersion: "2026-07-28" });
        break;
      case 4:
        srv.handle({ jsonrpc: "2.0", id: { o: i }, method: "tasks/cancel", params: { taskId: "\ud83d".repeat(40) } }, ctx);
        break;
      case 5:
        srv.handle(`{"jsonrpc":"2.0","id":${i},"method":"tasks/result","params":{"taskId":"${created[i % (created.length || 1)] ?? "x"}"}}`, { ...ctx, protocolVersion: "2025-11-25" });
        break;
      case 6:
        srv.handle({ jsonrpc: "2.0", method: "notifications/tasks/status", params: { taskId: "z", status: "completed" } }, ctx);
        break;
      default:
        srv.handle({ jsonrpc: "2.0", id: i, method: `tasks/${i}`, params: [] }, ctx);
    }
  }
  const tasks = srv.snapshot().tasks.length;
  srv.free();
  return { tasks, created: created.length, refused, sessions };
}

/**
 * TaskScheduler: 1000 tracked tasks, then snapshots about other tasks, with unknown statuses,
 * long messages, TTLs and poll intervals past what timers hold, failed polls with huge
 * retryAfterMs, and nextDue.
 */
export function driveScheduler({ TaskScheduler }, n) {
  const keys = 1000;
  const sched = new TaskScheduler({ seed: 7 });
  for (let k = 0; k < keys; k++) sched.track(`k${k}`, { version: "2025-11-25", server: `srv${k % 10}` }, T0);
  let events = 0;
  const task = (i) => ({
    taskId: i % 3 ? `t${i}` : "y".repeat(5000), // another task's id, or a long one
    status: ["working", "input_required", "weird", 5][i % 4],
    statusMessage: "m".repeat(i % 2000),
    createdAt: "2025-11-25T10:00:00Z",
    lastUpdatedAt: new Date(T0 + i).toISOString(),
    ttl: i % 5 ? 60_000 : 2 ** 60,
    pollInterval: i % 7 ? 2 ** 31 + i : -1,
  });
  for (let i = 0; i < n; i++) {
    const key = `k${i % keys}`;
    const now = T0 + i;
    try {
      switch (i % 4) {
        case 0:
        case 1:
          events += sched.observe(key, task(i), now).length;
          break;
        case 2:
          events += sched.observeError(key, { code: -32603, message: "e".repeat(i % 3000), retryAfterMs: 2 ** 31 + i }, now).length;
          break;
        default:
          events += sched.nextDue(now, 100).length;
      }
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
    }
  }
  const figures = { size: sched.size, keys, events };
  sched.free();
  return figures;
}
