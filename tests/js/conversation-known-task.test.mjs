// Conversation.knownTask (a task created before the conversation's first message, §D 104: a
// client resuming the tasks whose ids it kept) through the wasm binding: requests about it are
// not history-unknown-task, in both versions and whichever way the message is given (text or
// object); an id with a lone surrogate is the id the messages carry, not another one; a
// non-string is a TypeError.
//
//   node --test tests/js/conversation-known-task.test.mjs   (after scripts/build.sh)
import { test } from "node:test";
import assert from "node:assert/strict";

const { Conversation } = await import("../../pkg/node.mjs");

const get = (id, taskId) => ({ jsonrpc: "2.0", id, method: "tasks/get", params: { taskId } });
const codes = (report) => report.issues.map((i) => i.code);

test("a task told to knownTask is not unknown; any other still is", () => {
  for (const version of ["2025-11-25", "2026-07-28"]) {
    const conv = new Conversation({ version });
    try {
      assert.equal(conv.knownTask("resumed"), true);
      assert.ok(!codes(conv.observe(get(1, "resumed"), { from: "client" })).includes("history-unknown-task"), version);
      assert.ok(!codes(conv.observe(JSON.stringify(get(2, "resumed")), { from: "client" })).includes("history-unknown-task"), version);
      assert.ok(codes(conv.observe(get(3, "other"), { from: "client" })).includes("history-unknown-task"), version);
      assert.deepEqual(conv.tasks().map((t) => t.taskId), ["resumed"]);
    } finally {
      conv.free();
    }
  }
});

test("lone surrogates: the id the messages carry, and no other", () => {
  const conv = new Conversation();
  try {
    assert.equal(conv.knownTask("a\ud800"), true);
    assert.ok(!codes(conv.observe(get(1, "a\ud800"))).includes("history-unknown-task"));
    assert.ok(!codes(conv.observe('{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"a\\ud800"}}')).includes("history-unknown-task"));
    assert.ok(codes(conv.observe(get(3, "a\udfff"))).includes("history-unknown-task"));
  } finally {
    conv.free();
  }
});

test("bounds and bad arguments", () => {
  const conv = new Conversation({ maxIdBytes: 4 });
  try {
    assert.equal(conv.knownTask("longer"), false);
    assert.deepEqual(conv.tasks(), []);
    for (const bad of [undefined, null, 1, {}, ["a"]]) assert.throws(() => conv.knownTask(bad), TypeError);
    assert.equal(conv.knownTask("ok"), true);
  } finally {
    conv.free();
  }
});
