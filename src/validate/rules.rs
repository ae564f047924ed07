//! The rules table: every stable issue code, the TASKS-SPEC §D rule(s) it enforces, its
//! severity and what it means. One rule, one place: checks name a [`Code`], never a string.

use serde::Serialize;

use serde::Deserialize;
use tsify::Tsify;

/// How bad an issue is: MUST-level rules give errors, SHOULD-level rules warnings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

macro_rules! rules {
    ($( $variant:ident = $code:literal, $sev:ident, $rules:literal, $summary:literal; )*) => {
        /// A stable issue code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Code { $( $variant, )* }

        impl Code {
            /// The code as it appears in reports.
            pub fn as_str(self) -> &'static str {
                match self { $( Code::$variant => $code, )* }
            }
            /// The severity of an issue with this code.
            pub fn severity(self) -> Severity {
                match self { $( Code::$variant => Severity::$sev, )* }
            }
        }

        /// Every rule, in table order.
        pub const RULES: &[Rule] = &[
            $( Rule { code: $code, severity: Severity::$sev, spec: $rules, summary: $summary }, )*
        ];
    };
}

/// One row of the rules table (`rules()`).
#[derive(Debug, Clone, Copy, Serialize, Tsify)]
pub struct Rule {
    /// The issue code (`Issue.code`).
    pub code: &'static str,
    pub severity: Severity,
    /// The TASKS-SPEC rule numbers (§D) or sections it enforces.
    pub spec: &'static str,
    /// What the rule means.
    pub summary: &'static str,
}

rules! {
    // ---- input and JSON-RPC envelope ------------------------------------------------------
    NotJson = "not-json", Error, "input", "The text is not JSON (or not UTF-8).";
    TooDeep = "too-deep", Error, "input", "The JSON nests deeper than the validator's limit (128 levels).";
    TooLarge = "too-large", Error, "input", "The message is larger than `options.maxBytes` (default 16 MiB of UTF-8).";
    IssuesTruncated = "issues-truncated", Warning, "input", "The message has more issues than `options.maxIssues` (default 100): the first ones are listed, this one counts the rest (and whether errors are among them).";
    RecordTime = "record-time", Warning, "input", "A transcript record's `at` (when the message was recorded) is not an RFC 3339 date-time with a time zone.";
    NotJsonValue = "not-json-value", Error, "input", "A JS value that JSON cannot carry (NaN, Infinity, undefined in an array, BigInt, a cycle).";
    NotObject = "not-object", Error, "JSON-RPC", "A message must be a JSON object (batches were removed from MCP).";
    JsonRpcVersion = "jsonrpc-version", Error, "JSON-RPC", "`jsonrpc` must be the string \"2.0\".";
    JsonRpcId = "jsonrpc-id", Error, "JSON-RPC", "A request or response `id` must be a string or an integer.";
    JsonRpcShape = "jsonrpc-shape", Error, "JSON-RPC", "The members do not make a request, notification, result or error.";
    JsonRpcMethod = "jsonrpc-method", Error, "JSON-RPC", "`method` must be a string.";
    JsonRpcParams = "jsonrpc-params", Error, "JSON-RPC", "`params` must be an object.";
    JsonRpcResult = "jsonrpc-result", Error, "JSON-RPC", "`result` must be an object.";
    JsonRpcError = "jsonrpc-error", Error, "JSON-RPC", "`error` must be an object with an integer `code` and a string `message`.";
    VersionUnknown = "version-unknown", Warning, "§C", "The protocol version could not be told from options, `_meta` or shape; the closest version was used.";
    VersionMismatch = "version-mismatch", Error, "§C", "The message uses a method, member or shape of the other protocol version.";
    UnsupportedProtocolVersion = "protocol-version", Warning, "§B.a", "`_meta` names a protocol version other than 2025-11-25 or 2026-07-28.";
    ToolCallParams = "tool-call-params", Error, "§A.b, §B.b", "`tools/call` params: `name` is a string, `arguments` an object (the call a task is made of).";
    CallToolResult = "call-tool-result", Error, "§A.b, §B.b", "A synchronous `tools/call` answer is a CallToolResult (`content` array, …) per the official schema.";
    // ---- tasks, both versions ------------------------------------------------------------
    TaskIdType = "task-id-type", Error, "1, 63", "`taskId` must be a string.";
    TaskRequiredMember = "task-required-member", Error, "2, 63", "A task lacks one of `taskId`, `status`, `createdAt`, `lastUpdatedAt`.";
    TaskTtlMissing = "task-ttl-missing", Error, "2, 25, 63", "`ttl` (V25) / `ttlMs` (V26) is required on every task, as `null` when unlimited.";
    TaskStatusEnum = "task-status-enum", Error, "3, 63", "`status` must be one of working, input_required, completed, failed, cancelled.";
    TaskTtlType = "task-ttl-type", Error, "4, 63", "`ttl` / `ttlMs` must be an integer number of milliseconds or `null`.";
    TaskPollIntervalType = "task-poll-interval-type", Error, "4, 63", "`pollInterval` / `pollIntervalMs` must be an integer number of milliseconds.";
    TaskNegativeMs = "task-negative-ms", Error, "4, 65", "Milliseconds (`ttl`, `ttlMs`, `pollInterval`, `pollIntervalMs`) must not be negative.";
    TaskZeroMs = "task-zero-ms", Error, "65", "Under 2026-07-28 `ttlMs` is `null` or a positive integer and `pollIntervalMs` a positive integer (conformance): 0 is refused (it invites a polling storm).";
    TaskStatusMessageType = "task-status-message-type", Error, "4, 63", "`statusMessage` must be a string.";
    TimestampFormat = "timestamp-format", Error, "5, 64", "`createdAt` / `lastUpdatedAt` must be RFC 3339 (ISO 8601) date-times with a time zone.";
    TimestampOrder = "timestamp-order", Error, "28 (derived)", "`lastUpdatedAt` must not be before `createdAt`.";
    ParamsTaskId = "params-task-id", Error, "8, 71", "`tasks/get|result|cancel|update` need `params.taskId`, a string.";
    // ---- 2025-11-25 ----------------------------------------------------------------------
    CreateTaskNested = "create-task-nested", Error, "6", "A V25 `CreateTaskResult` holds the task nested under `task`.";
    CreateTaskStatus = "create-task-status", Error, "7, 19", "A V25 task is created in `working`.";
    ListParams = "list-params", Error, "9", "`tasks/list` params: `cursor`, if present, is a string.";
    ListResult = "list-result", Error, "9", "`tasks/list` result: `tasks` is an array of tasks, `nextCursor` a string.";
    TaskMetadata = "task-metadata", Error, "10", "`params.task` is an object whose optional `ttl` is a non-negative integer.";
    TaskMetadataMethod = "task-metadata-method", Warning, "10, 40", "`params.task` only augments `tools/call`, `sampling/createMessage` and `elicitation/create`.";
    ToolTaskSupport = "tool-task-support", Error, "11", "`Tool.execution.taskSupport` is one of forbidden, optional, required.";
    CapabilityLeaf = "capability-leaf", Error, "12", "Leaves under `capabilities.tasks` are objects (`{}`), not booleans.";
    RelatedTaskShape = "related-task-shape", Error, "13", "`_meta[\"io.modelcontextprotocol/related-task\"]` is `{ taskId: string }`.";
    RelatedTaskMissing = "related-task-missing", Error, "14", "A `tasks/result` answer carries the related-task `_meta` with the requested `taskId`.";
    RelatedTaskDiscouraged = "related-task-discouraged", Warning, "15, 43, 52", "`tasks/get|list|cancel` and `notifications/tasks/status` should not carry the related-task `_meta`.";
    CancelStatus = "cancel-status", Error, "16, 23", "A V25 `tasks/cancel` answer shows `status: \"cancelled\"`.";
    CancelTerminal = "cancel-terminal", Error, "17, 22", "A V25 `tasks/cancel` of a terminal task is answered with error -32602, never a result.";
    ProgressToken = "progress-token", Error, "§A.a", "A V25 request's `params._meta.progressToken` is a string or an integer (schema `ProgressToken`).";
    // ---- 2026-07-28 ----------------------------------------------------------------------
    ResultTypeMissing = "result-type-missing", Error, "58, 115", "Every 2026 result has `resultType` (a client reads a missing one as \"complete\").";
    ResultTypeTask = "result-type-task", Error, "59", "`resultType: \"task\"` only on a `CreateTaskResult`; a `CreateTaskResult` has exactly that.";
    ResultTypeComplete = "result-type-complete", Error, "60", "`tasks/get`, `tasks/update`, `tasks/cancel` answers have `resultType: \"complete\"`.";
    ResultTypeUnknown = "result-type-unknown", Error, "61, 115", "`resultType` is one of complete, input_required, task (a string).";
    CreateTaskMethod = "create-task-method", Error, "62, 101", "A `CreateTaskResult` only answers `tools/call`.";
    LegacyMember = "legacy-member", Error, "66", "No V25 `ttl` / `pollInterval` and no nested `task` wrapper on V26 tasks.";
    TaskPayload = "task-payload", Error, "67, 85", "input_required ⇒ `inputRequests` object; completed ⇒ `result` object; failed ⇒ `error` {code, message}.";
    TaskPayloadForbidden = "task-payload-forbidden", Error, "68", "Members that must not be there: `result` on failed, payloads on `CreateTaskResult`, `requestState`, task members on acks.";
    TaskPayloadUnexpected = "task-payload-unexpected", Warning, "67 (derived)", "A payload member of another status (e.g. `result` on a working task).";
    FailedNotRpcError = "failed-not-rpc-error", Error, "69, 91", "`failed` means a JSON-RPC error; a tool result (`isError`) belongs in a completed task.";
    InputRequests = "input-requests", Error, "70, 98", "`inputRequests` maps keys to bare elicitation/create, sampling/createMessage or roots/list requests.";
    InputResponses = "input-responses", Error, "71", "`tasks/update` needs `inputResponses`: keys to ElicitResult, CreateMessageResult or ListRootsResult.";
    RequestMeta = "request-meta", Error, "72, 100", "Every 2026 request has `params._meta` with protocolVersion and clientCapabilities.";
    ExtensionNotDeclared = "extension-not-declared", Error, "77, 79, 100", "A `tasks/*` request whose `_meta` clientCapabilities do not declare the tasks extension (the server must answer -32021).";
    MissingCapabilityData = "missing-capability-data", Error, "73", "A -32021 error carries `data.requiredCapabilities`, naming the tasks extension for tasks.";
    SubscriptionTaskIds = "subscription-task-ids", Error, "74", "`notifications.taskIds` of `subscriptions/listen` and its acknowledgement is an array of strings.";
    LegacyCapability = "legacy-capability", Error, "75, 80", "A 2026 server advertises `capabilities.extensions[\"io.modelcontextprotocol/tasks\"]` = {}, never `capabilities.tasks`.";
    HeaderMismatch = "header-mismatch", Error, "76, 97, 111, §B.f", "HTTP `Mcp-Method` equals `method`, `Mcp-Name` equals `params.taskId` (or the `tools/call` name, the `resources/read` uri), `MCP-Protocol-Version` equals the version `_meta` names (Base64 sentinel decoded).";
    HeaderMissing = "header-missing", Error, "76, 97, 111, §B.f", "An HTTP 2026-07-28 request without `Mcp-Method`, `MCP-Protocol-Version` (when `_meta` names one), or `Mcp-Name` on `tasks/get|update|cancel`: the requestor's omission (a strict server answers -32020).";
    RetiredErrorCode = "retired-error-code", Warning, "§B.f, §E 13", "A pre-release error code (-32003, -32001, -32004) or a retired 2025 code under 2026-07-28.";
    InnerResultType = "inner-result-type", Warning, "§E 3", "The `result` of a completed task should have no `resultType` or \"complete\".";
    // ---- conversion between versions ------------------------------------------------------
    ConversionLossy = "conversion-lossy", Warning, "§C", "Converting between versions dropped or reinterpreted a member (reported, never guessed).";
    ConversionImpossible = "conversion-impossible", Error, "§C", "The value has no counterpart in the target version (e.g. a V26 task created in another status than working).";
    // ---- whole conversations -------------------------------------------------------------
    LeavesTerminal = "history-leaves-terminal", Error, "20, 93", "A task left a terminal status.";
    CreatedAtChanged = "history-created-at-changed", Error, "28 (derived), §E 18", "A task's `createdAt` changed.";
    LastUpdatedBackwards = "history-last-updated-backwards", Warning, "28 (derived), §E 18", "An answer to a request sent after a task showed a later `lastUpdatedAt` shows an earlier one (monotonic `lastUpdatedAt` is never stated, §E 18; an older snapshot that merely overtook a newer one on another stream is no issue).";
    TerminalPayloadChanged = "history-terminal-payload-changed", Error, "20, 21, 93", "A terminal task's payload (result, error, status message) changed.";
    InputKeyReused = "history-input-key-reused", Error, "87", "An `inputRequests` key was reused for a different request, or after it was answered.";
    UnknownTask = "history-unknown-task", Warning, "35, 86", "A request names a task the conversation never saw; a notification about a task no `CreateTaskResult` named (held on the task's timeline until one does).";
    UnmatchedResponse = "history-unmatched-response", Warning, "JSON-RPC", "A response whose `id` matches no request seen before.";
    DuplicateRequestId = "history-duplicate-request-id", Warning, "JSON-RPC", "A request reused the `id` of a request still awaiting its answer.";
    VersionSwitch = "history-version-switch", Error, "§C", "An answer whose shape belongs to the other version than the conversation's.";
    CreateTaskUndeclared = "history-create-task-undeclared", Error, "77", "A `CreateTaskResult` answered a request whose `_meta` did not declare the extension.";
    TaskIdMismatch = "history-task-id-mismatch", Error, "14, 34", "An answer names another task than the request asked about.";
    EmptyTaskResult = "history-empty-task-result", Error, "30", "A V25 `tasks/result` answer is what the request would have returned: a CallToolResult (`content` array) for a `tools/call` task, and never a result with neither `content` nor `isError` for a task seen `failed`.";
    RequiredToolAnswered = "history-required-tool-answered", Error, "41, §E 11", "A plain (non-augmented) `tools/call` of a tool whose `tools/list` entry says `taskSupport: \"required\"` is answered with error -32601 (-32600 accepted, §E 11), never a result.";
    ForbiddenToolTask = "history-forbidden-tool-task", Warning, "41", "A task-augmented `tools/call` of a tool whose `tools/list` entry forbids tasks (`taskSupport` `\"forbidden\"` or absent) should be refused with -32601 (SHOULD), not answered with a `CreateTaskResult`.";
    ForbiddenToolCode = "history-forbidden-tool-code", Warning, "41", "A task-augmented `tools/call` of a tool whose `tools/list` entry forbids tasks should be answered with error -32601.";
    AugmentUndeclared = "history-augment-undeclared", Warning, "47", "A 2025-11-25 task-augmented request (`params.task`) of a type the receiver's `initialize` capabilities do not list in `tasks.requests` (`tools.call` for the server, `elicitation.create` / `sampling.createMessage` for the client).";
    TaskUndeclaredType = "history-task-undeclared", Error, "40", "A 2025-11-25 `CreateTaskResult` answered a task-augmented request of a type the receiver did not list in its `tasks.requests`: it must process the request normally and ignore `params.task`.";
    InputUndeclared = "history-input-undeclared", Warning, "98", "An input request (`elicitation/create`, `sampling/createMessage`, `roots/list`) surfaced to a client that did not declare that capability: at `initialize` under 2025-11-25, in the request's own `_meta` clientCapabilities under 2026-07-28 (`inputRequests`); url-mode elicitation needs `elicitation.url`.";
    InputRequiredNotFetched = "history-input-required-not-fetched", Warning, "50", "A 2025-11-25 requestor polled `tasks/get` a second time while the task showed `input_required`, and never called `tasks/result` for it: on `input_required` it should call `tasks/result` at once (the receiver delivers its input requests through it). Once per task.";
    CancelTerminalRefused = "history-cancel-terminal-refused", Error, "90, §E 4", "A 2026-07-28 `tasks/cancel` of a task known to be terminal is acknowledged with `{resultType: \"complete\"}`, not refused with an error.";
    HistoryBound = "history-bound", Warning, "bounds", "A bound of the conversation was reached (`maxTasks`, `maxPending`, `maxIdBytes`, `maxKeptBytes`): the task or request named was forgotten, or an id too long is not followed; later history checks about it are not made.";
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn codes_are_unique_and_kebab_case() {
        let mut seen = HashSet::new();
        for r in RULES {
            assert!(seen.insert(r.code), "duplicate code {}", r.code);
            assert!(r
                .code
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'));
        }
    }
}
