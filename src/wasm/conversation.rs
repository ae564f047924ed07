//! `Conversation`: the history checker over a stream of messages.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use crate::conversation::{
    self as core, ConversationOptions, ObserveOptions, ObserveReport, Sender,
};

use super::input::js_to_json;
use super::validate::to_js;

/// Follows one MCP conversation (protocol 2025-11-25 or 2026-07-28) message by message: pairs
/// responses with requests, validates each message with what the conversation tells, and
/// follows every task, reporting histories no single message shows (a task leaving a terminal
/// status, a changed `createdAt`, a reused `inputRequests` key, …).
#[wasm_bindgen(js_name = Conversation)]
pub struct Conversation {
    inner: core::Conversation,
}

#[wasm_bindgen(js_class = Conversation)]
impl Conversation {
    /// A new conversation. `options.version` fixes the protocol version; otherwise the first
    /// message that shows one does. Everything it remembers is bounded (`maxTasks` 10 000,
    /// `maxPending` 10 000, `maxEventsPerTask` 1000, `maxIdBytes` 1024, `maxKeptBytes` 64 MiB by
    /// default): the oldest is forgotten first, and a `history-bound` warning says what. Throws
    /// only when `options` is malformed.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<Ts<ConversationOptions>>) -> Result<Conversation, JsValue> {
        let options = read_options(options)?;
        Ok(Conversation {
            inner: core::Conversation::new(options),
        })
    }

    /// Observes the next message (a JS value or a JSON string). Never throws on a bad message:
    /// the report says what is wrong, and the message still counts. `options.from` (`"client"` or
    /// `"server"`) names the sender, so that a response pairs with the other side's request of
    /// its id (both sides number their own requests); throws a `TypeError` on a malformed option.
    /// The message may be a transcript record, `{message, from?, headers?, at?}`: its sender,
    /// the HTTP headers it came with (checked against a 2026-07-28 request) and when it was
    /// recorded (RFC 3339, the `seenAt` of the task events it adds).
    pub fn observe(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "unknown")] message: JsValue,
        options: Option<Ts<ObserveOptions>>,
    ) -> Result<Ts<ObserveReport>, JsValue> {
        let from = read_observe_options(options)?;
        let report = match js_to_json(&message, self.inner.max_bytes()) {
            Ok(value) => self.inner.observe_from(&value, from),
            Err(report) => self.inner.observe_rejected(report),
        };
        Ok(Ts::new_unchecked(to_js(&report)?))
    }

    /// Internal (js/core/validate.ts, the byte path of `observe`): observes the `len` bytes of
    /// the validator's buffer from `text_at` (UTF-8 JSON text, as `observe` of a string), sent
    /// by `from` 0 (not said), 1 (`"client"`) or 2 (`"server"`). Answers minus the length of the
    /// report as JSON text, written at the start of the buffer; 0 (nothing observed) when the
    /// text is over the conversation's `maxBytes`: `observe` itself then says how; `i32::MIN`
    /// when the report could not be written (an internal error).
    #[wasm_bindgen(js_name = __observeBytes)]
    pub fn observe_bytes(&mut self, text_at: u32, len: u32, from: u32) -> i32 {
        super::validate::with_buffer(|buf| self.inner.observe_bytes(buf, text_at, len, from))
    }

    /// Every task seen so far, in the order first seen, with its events and history issues.
    /// Read it once the conversation is over: a notification about a task no `CreateTaskResult`
    /// named yet is judged here (`history-unknown-task`), not in the notification's report,
    /// since the `CreateTaskResult` may have been overtaken.
    #[wasm_bindgen(unchecked_return_type = "TaskTimeline[]")]
    pub fn tasks(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.tasks())
    }

    /// Tells the conversation about a task created before its first message (a client that
    /// follows again, after a restart, the tasks whose ids it kept): requests naming it are not
    /// `history-unknown-task`. `false` for an id over `maxIdBytes` (not followed). Throws a
    /// `TypeError` when `taskId` is not a string.
    #[wasm_bindgen(js_name = knownTask)]
    pub fn known_task(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
    ) -> Result<bool, JsValue> {
        // Typed `string`, but JS may pass anything. Lone surrogates are carried as the ids of
        // parsed messages carry them, so the id matches the one in later requests.
        let id = task_id
            .as_string()
            .map(|text| super::input::carried(&task_id, text))
            .ok_or_else(|| super::input::bad("knownTask: taskId must be a string".to_string()))?;
        Ok(self.inner.known_task(&id))
    }
}

fn read_options(options: Option<Ts<ConversationOptions>>) -> Result<ConversationOptions, JsValue> {
    let Some(o) =
        super::input::Members::of(options.map_or(JsValue::UNDEFINED, JsValue::from), "options")?
    else {
        return Ok(ConversationOptions::default());
    };
    Ok(ConversationOptions {
        version: o.version("version")?,
        max_bytes: o.u32("maxBytes")?,
        max_issues: o.u32("maxIssues")?,
        max_tasks: o.u32("maxTasks")?,
        max_pending: o.u32("maxPending")?,
        max_events_per_task: o.u32("maxEventsPerTask")?,
        max_id_bytes: o.u32("maxIdBytes")?,
        max_kept_bytes: o.u32("maxKeptBytes")?,
    })
}

fn read_observe_options(options: Option<Ts<ObserveOptions>>) -> Result<Option<Sender>, JsValue> {
    let Some(o) =
        super::input::Members::of(options.map_or(JsValue::UNDEFINED, JsValue::from), "options")?
    else {
        return Ok(None);
    };
    o.strict("from", "\"client\" or \"server\"", |v| {
        v.as_string().as_deref().and_then(Sender::parse)
    })
}
