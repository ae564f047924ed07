// The example servers' tools (examples/conformance-server.mjs over Streamable HTTP,
// examples/stdio-server.mjs over stdio): the fixture tools the official conformance suite
// (@modelcontextprotocol/conformance) expects. Each entry is `{ name, handler, ...options }`:
//   for (const { name, handler, ...options } of TOOLS) app.tool(name, options, handler);
// The handlers use only what the package hands them (arguments, ToolContext): the same tool runs
// on any transport.

import { setTimeout as sleep } from "node:timers/promises";

/** An error a tool throws to end its call with a JSON-RPC error (a `failed` task). */
export class RpcError extends Error {
  /** @param {number} code @param {string} message @param {unknown} [data] */
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

// ---- the tools ---------------------------------------------------------------------------------
//
// `taskSupport`: 2025-11-25, the tool's `execution.taskSupport`; 2026-07-28, the server's policy:
// "forbidden" (always synchronous), "optional" (a task when the client opts in) or "required"
// (only as a task; other calls get -32601 / -32021 from the package).

const text = (/** @type {string} */ t) => ({ content: [{ type: "text", text: t }] });

/** An `elicitation/create` request for a form with the given properties. */
function elicit(message, properties) {
  return {
    method: "elicitation/create",
    params: {
      mode: "form",
      message,
      requestedSchema: { type: "object", properties, required: Object.keys(properties) },
    },
  };
}

/** Whether the client declared `name` (e.g. elicitation): per request (2026) or at initialize (2025). */
function clientCan(ctx, name) {
  return Boolean(ctx.clientCapabilities?.[name]);
}

export const TOOLS = [
  {
    name: "greet",
    description: "Says hello (always synchronous).",
    inputSchema: { type: "object", properties: { name: { type: "string" } } },
    taskSupport: "forbidden",
    handler: ({ name }) => text(`Hello, ${name ?? "World"}!`),
  },
  {
    name: "slow_compute",
    description: "Sleeps `seconds` seconds, then answers; stops when its task is cancelled.",
    inputSchema: {
      type: "object",
      properties: { seconds: { type: "number", minimum: 0 }, label: { type: "string" } },
    },
    taskSupport: "optional",
    handler: async ({ seconds = 1, label = "compute" }, { signal }) => {
      // The signal aborts on tasks/cancel: sleep() then rejects and the work stops. The task is
      // already `cancelled` in the store; what the handler returns afterwards is discarded.
      await sleep(Number(seconds) * 1000, undefined, { signal });
      return text(`${label}: done after ${seconds} s`);
    },
  },
  {
    name: "progress_job",
    description:
      "Works in `steps` steps of `stepMs` ms, reporting each as progress (notifications/progress for the call's token, 2025-11-25) and as the task's status message; stops when cancelled.",
    inputSchema: {
      type: "object",
      properties: { steps: { type: "integer", minimum: 1, maximum: 100 }, stepMs: { type: "number", minimum: 0 } },
    },
    taskSupport: "optional",
    handler: async ({ steps = 3, stepMs = 200 }, ctx) => {
      for (let i = 1; i <= steps; i++) {
        await sleep(Number(stepMs), undefined, { signal: ctx.signal });
        ctx.progress(i, steps, `step ${i} of ${steps}`);
        ctx.setStatusMessage(`step ${i} of ${steps}`);
      }
      return text(`progress_job: ${steps} steps done`);
    },
  },
  {
    name: "failing_job",
    description: "Runs for about a second, then reports a tool execution error (isError).",
    inputSchema: { type: "object", properties: {} },
    taskSupport: "required",
    handler: async (_args, { signal }) => {
      await sleep(1000, undefined, { signal });
      // A tool execution error is a result: the task ends `completed` with `isError: true`.
      return { ...text("failing_job: the job failed (as it always does)"), isError: true };
    },
  },
  {
    name: "protocol_error_job",
    description: "Ends with a JSON-RPC error (the task ends `failed`).",
    inputSchema: { type: "object", properties: {} },
    taskSupport: "optional",
    handler: async (_args, { signal }) => {
      await sleep(200, undefined, { signal });
      // A thrown { code, message } is a JSON-RPC error: the task ends `failed` with it.
      throw new RpcError(-32603, "protocol_error_job: internal error (on purpose)");
    },
  },
  {
    name: "confirm_delete",
    description: "Asks the user (one elicitation) before pretending to delete `filename`.",
    inputSchema: { type: "object", properties: { filename: { type: "string" } } },
    taskSupport: "optional",
    handler: async ({ filename = "file.txt" }, ctx) => {
      if (!clientCan(ctx, "elicitation")) {
        return { ...text("confirm_delete needs a client that supports elicitation"), isError: true };
      }
      // In a 2026-07-28 task, requestInput puts the task in `input_required` with these input
      // requests (the client answers with tasks/update); in a 2025-11-25 task it sends a real
      // elicitation/create to the client (on the tasks/result stream); in a synchronous call it
      // asks in the call itself (2026: an InputRequiredResult; 2025: on the call's stream).
      const { confirm } = await ctx.requestInput(
        { confirm: elicit(`Delete ${filename}?`, { confirm: { type: "boolean" } }) },
        `waiting for confirmation to delete ${filename}`,
      );
      const yes = confirm?.action === "accept" && confirm?.content?.confirm !== false;
      return text(yes ? `Deleted ${filename}` : `Kept ${filename}`);
    },
  },
  {
    name: "multi_input",
    description: "Asks two questions at once (two input requests outstanding together).",
    inputSchema: { type: "object", properties: {} },
    taskSupport: "optional",
    handler: async (_args, ctx) => {
      if (!clientCan(ctx, "elicitation")) {
        return { ...text("multi_input needs a client that supports elicitation"), isError: true };
      }
      const answers = await ctx.requestInput({
        name: elicit("What is your name?", { name: { type: "string" } }),
        confirm: elicit("Shall I go on?", { confirm: { type: "boolean" } }),
      });
      return text(`multi_input: got ${Object.keys(answers).sort().join(" and ")}`);
    },
  },
  {
    name: "test_tool_with_task",
    description: "Asks for the user's name first (before any task exists), then greets them from a task.",
    inputSchema: { type: "object", properties: {} },
    taskSupport: "required",
    // Input gathered *before* the task exists (§D 83): under 2026-07-28 the first call is
    // answered with an InputRequiredResult (MRTR, SEP-2322) and the retry carrying
    // `inputResponses` and the echoed `requestState` creates the task; under 2025-11-25 the
    // elicitation goes out on the call's own stream. A client that did not declare the tasks
    // extension is refused (-32021) before anything is asked (§D 78).
    prepare: async (_args, { requestInput }) => {
      const { user_name } = await requestInput({ user_name: elicit("What is your name?", { name: { type: "string" } }) });
      return user_name?.content?.name ?? "stranger";
    },
    handler: async (_args, { prepared, signal }) => {
      await sleep(200, undefined, { signal });
      return text(`Hello, ${prepared}! (from a task)`);
    },
  },
];
