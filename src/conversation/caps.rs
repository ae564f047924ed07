//! What a client declared it can answer, for §D 98: a server surfaces an input request
//! (elicitation, sampling, roots) only to a client that declared that capability, at
//! `initialize` (2025-11-25) or in the request's own `_meta` clientCapabilities (2026-07-28).
//! Likewise under 2025-11-25 for task augmentation: a request type is task-augmented only
//! where the receiver listed it in `capabilities.tasks.requests` (§D 40, 47).
//! Kept as a few bits: what the rules need, nothing more.

use serde_json::{Map, Value};

/// `elicitation` in form mode: `elicitation: {}` (form only, as 2025-11-25 reads an empty
/// object) or `elicitation.form`.
const FORM: u8 = 1;
/// `elicitation.url`.
const URL: u8 = 2;
/// `sampling`.
const SAMPLING: u8 = 4;
/// `roots`.
const ROOTS: u8 = 8;

/// The input capabilities a `ClientCapabilities` object declares.
pub(crate) fn declared(caps: Option<&Map<String, Value>>) -> u8 {
    let Some(caps) = caps else {
        return 0;
    };
    let mut bits = 0;
    if let Some(e) = caps.get("elicitation").and_then(Value::as_object) {
        if e.is_empty() || e.contains_key("form") {
            bits |= FORM;
        }
        if e.contains_key("url") {
            bits |= URL;
        }
    }
    if caps.get("sampling").is_some_and(Value::is_object) {
        bits |= SAMPLING;
    }
    if caps.get("roots").is_some_and(Value::is_object) {
        bits |= ROOTS;
    }
    bits
}

/// The capability an input request of `method` with `params` needs: its bit and its name as
/// a client declares it; `None` for a method that is no input request.
pub(crate) fn needed(
    method: &str,
    params: Option<&Map<String, Value>>,
) -> Option<(u8, &'static str)> {
    match method {
        "elicitation/create" => {
            let mode = params.and_then(|p| p.get("mode")).and_then(Value::as_str);
            Some(if mode == Some("url") {
                (URL, "elicitation.url")
            } else {
                (FORM, "elicitation (form mode)")
            })
        }
        "sampling/createMessage" => Some((SAMPLING, "sampling")),
        "roots/list" => Some((ROOTS, "roots")),
        _ => None,
    }
}

/// `tasks.requests.tools.call` (2025-11-25 task augmentation, §D 40, 47).
const AUGMENT_TOOLS: u8 = 1;
/// `tasks.requests.elicitation.create`.
const AUGMENT_ELICIT: u8 = 2;
/// `tasks.requests.sampling.createMessage`.
const AUGMENT_SAMPLING: u8 = 4;

/// The request types a 2025-11-25 `capabilities` object (client's or server's) accepts as
/// task-augmented (`tasks.requests`, exhaustive: anything not listed is not augmentable).
pub(crate) fn augmentable(caps: Option<&Map<String, Value>>) -> u8 {
    let requests = caps
        .and_then(|c| c.get("tasks"))
        .and_then(|t| t.get("requests"))
        .and_then(Value::as_object);
    let Some(requests) = requests else {
        return 0;
    };
    let has = |group: &str, leaf: &str| {
        requests
            .get(group)
            .and_then(|g| g.get(leaf))
            .is_some_and(Value::is_object)
    };
    let mut bits = 0;
    if has("tools", "call") {
        bits |= AUGMENT_TOOLS;
    }
    if has("elicitation", "create") {
        bits |= AUGMENT_ELICIT;
    }
    if has("sampling", "createMessage") {
        bits |= AUGMENT_SAMPLING;
    }
    bits
}

/// The `tasks.requests` leaf a task-augmented request of `method` needs: its bit, its name, and
/// whether the receiver is the server (`tools/call`) or the client; `None` for a method that is
/// not augmentable.
pub(crate) fn augment_needed(method: &str) -> Option<(u8, &'static str, bool)> {
    match method {
        "tools/call" => Some((AUGMENT_TOOLS, "tasks.requests.tools.call", true)),
        "elicitation/create" => Some((AUGMENT_ELICIT, "tasks.requests.elicitation.create", false)),
        "sampling/createMessage" => Some((
            AUGMENT_SAMPLING,
            "tasks.requests.sampling.createMessage",
            false,
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bits() {
        let caps = |v: Value| declared(v.as_object());
        assert_eq!(caps(json!({})), 0);
        assert_eq!(caps(json!({"elicitation": {}})), FORM);
        assert_eq!(caps(json!({"elicitation": {"url": {}}})), URL);
        assert_eq!(
            caps(json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}})),
            FORM | URL | SAMPLING | ROOTS
        );
        let url = json!({"mode": "url"});
        assert_eq!(
            needed("elicitation/create", url.as_object()).map(|n| n.0),
            Some(URL)
        );
        assert_eq!(needed("elicitation/create", None).map(|n| n.0), Some(FORM));
        assert_eq!(needed("tools/call", None), None);
        let aug = |v: Value| augmentable(v.as_object());
        assert_eq!(aug(json!({"tasks": {}})), 0);
        assert_eq!(
            aug(
                json!({"tasks": {"requests": {"tools": {"call": {}}, "sampling": {"createMessage": {}}}}})
            ),
            AUGMENT_TOOLS | AUGMENT_SAMPLING
        );
        assert_eq!(
            aug(json!({"tasks": {"requests": {"elicitation": {"create": true}}}})),
            0
        );
    }
}
