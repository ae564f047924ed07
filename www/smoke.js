// Loads the package in a plain <script type=module> page and writes validation reports into
// the DOM. tests/browser/smoke.test.mjs drives this page in headless Chromium.
const status = document.getElementById("status");

const message = {
  jsonrpc: "2.0",
  id: 7,
  result: {
    taskId: "786512e2-9e0d-44bd-8f29-789f320fe840",
    status: "working",
    statusMessage: "The operation is now in progress.",
    createdAt: "2025-11-25T10:30:00Z",
    lastUpdatedAt: "2025-11-25T10:40:00Z",
    ttl: 60000,
    pollInterval: 5000,
  },
};

try {
  const { validateMessage, rules } = await import("mcp-tasks-wasm");
  const report = validateMessage(message, { inReplyTo: "tasks/get" });
  document.getElementById("message").textContent = JSON.stringify(message, null, 2);
  document.getElementById("report").textContent = JSON.stringify(report, null, 2);
  document.getElementById("report-not-json").textContent = JSON.stringify(
    validateMessage('{"jsonrpc": "2.0", '),
    null,
    2,
  );
  status.dataset.rules = String(rules().length);
  status.textContent = report.valid ? "valid" : "invalid";
} catch (e) {
  status.textContent = `error: ${e instanceof Error ? e.stack ?? e.message : e}`;
}
status.dataset.done = "true";
