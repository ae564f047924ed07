//! The server's answers as they cross to the JS classes (js/server/store.ts): the answer of
//! `finishToolCall` as JSON text, its task as [`crate::store::answer::TaskView`], and its
//! declared shape ([`FinishOutcome`]).

use serde::Serialize;
use tsify::Tsify;

use crate::model::TaskStatus;
use crate::store::answer::{StoreTask, TaskView};

use super::tools::Finished;

/// The answer of `finishToolCall`.
#[derive(Debug, Serialize, Tsify)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum FinishOutcome {
    /// The outcome is stored; `task` is terminal now.
    Stored { task: Box<StoreTask> },
    /// The task was already terminal (typically cancelled first): the outcome is discarded.
    AlreadyTerminal { status: TaskStatus },
    /// The task is gone (expired or removed).
    Gone,
}

/// [`Finished`] as it crosses (the declared shape: the bindings' `FinishOutcome`).
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum WireFinish<'a> {
    /// Boxed: a task view (its V25 task written out) is far larger than the other variants.
    Stored {
        task: Box<TaskView<'a>>,
    },
    AlreadyTerminal {
        status: TaskStatus,
    },
    Gone,
}

impl<'a> From<&'a Finished> for WireFinish<'a> {
    fn from(finished: &'a Finished) -> Self {
        match finished {
            Finished::Stored(record) => WireFinish::Stored {
                task: Box::new(TaskView::from(record.as_ref())),
            },
            Finished::AlreadyTerminal { status } => WireFinish::AlreadyTerminal { status: *status },
            Finished::Gone => WireFinish::Gone,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use serde_json::json;

    use super::*;

    #[test]
    fn a_result_outcome_crosses_tagged_by_kind() {
        use crate::model::common::JsonRpcError;
        use crate::server::ResultOutcome;
        let text = |o: &ResultOutcome| serde_json::to_value(o).unwrap();
        assert_eq!(text(&ResultOutcome::Pending), json!({"kind": "pending"}));
        let result = json!({"content": []}).as_object().cloned().unwrap();
        assert_eq!(
            text(&ResultOutcome::Result { result }),
            json!({"kind": "result", "result": {"content": []}})
        );
        let error = JsonRpcError {
            code: -32602,
            message: "no".into(),
            data: None,
        };
        assert_eq!(
            text(&ResultOutcome::Error { error }),
            json!({"kind": "error", "error": {"code": -32602, "message": "no"}})
        );
    }

    #[test]
    fn finished_crosses_tagged_by_kind() {
        let text = |f: &Finished| serde_json::to_value(WireFinish::from(f)).unwrap();
        assert_eq!(text(&Finished::Gone), json!({"kind": "gone"}));
        assert_eq!(
            text(&Finished::AlreadyTerminal {
                status: TaskStatus::Cancelled
            }),
            json!({"kind": "already-terminal", "status": "cancelled"})
        );
    }
}
