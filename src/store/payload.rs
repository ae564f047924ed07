//! [`Payload`]: a result (a `CallToolResult`, or what another request returned) as a record
//! holds it: its JSON text, checked once, shared between the revisions of a task.
//!
//! A result is written back far more often than it is looked into (every answer of a completed
//! task carries it; the rules only ask whether it has `isError: true`), so it is kept as text
//! and written verbatim instead of as a `serde_json::Value`
//! tree: taking one in builds no tree (a map of the tree costs an allocation of over 256 bytes,
//! a slow one in a store's fragmented heap) and writing it out walks nothing
//! ([`crate::base::json::verbatim`], where the answers are written by
//! [`crate::base::json::to_text`]; any other serializer is given the tree). The text is the
//! caller's JSON with its lone surrogates carried ([`crate::validate::surrogates`]), so answers
//! restore them as they restore those of any other string. What needs the members (a snapshot,
//! V25 `tasks/result`, the diagnostic of a tool error) parses it: [`Payload::object`].

use std::rc::Rc;

use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::{Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::base::visit::{refuse, MemberName};
use crate::model::common::JsonObject;

/// A result as a record holds it (see the module docs). Cloning shares its text.
#[derive(Clone)]
pub struct Payload {
    /// The JSON text of an object (no whitespace around it), lone surrogates carried.
    text: Rc<str>,
    /// Whether the object has `isError: true` (its last `isError` member, as `serde_json` reads
    /// duplicate members).
    is_error: bool,
}

/// Why JSON text is not a payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayloadError {
    /// Nested deeper than 128 levels.
    TooDeep,
    /// Not JSON (`serde_json`'s message).
    NotJson(String),
    /// JSON, but not an object.
    NotObject,
}

impl std::fmt::Display for PayloadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PayloadError::TooDeep => f.write_str("the JSON nests deeper than 128 levels"),
            PayloadError::NotJson(why) => write!(f, "not JSON: {why}"),
            PayloadError::NotObject => f.write_str("not an object"),
        }
    }
}

/// Whether a tool result reports a tool error (`isError: true`).
pub fn is_tool_error(result: &JsonObject) -> bool {
    result.get("isError") == Some(&Value::Bool(true))
}

/// The deepest nesting of arrays and objects a `serde_json::Value` is read with (its recursion
/// limit of 128 refuses one more).
const MAX_NESTING: usize = 127;

/// How deep arrays and objects nest in JSON text (valid JSON: strings are skipped by their
/// quotes and escapes), and whether the text may hold a member named `isError`: a string spelled
/// `isError`, or a `\u` escape (which may spell it).
fn scan(text: &str) -> (usize, bool) {
    let b = text.as_bytes();
    let (mut depth, mut deepest, mut named) = (0usize, 0usize, false);
    // Where the string being read starts (after its quote).
    let mut string: Option<usize> = None;
    let mut escaped = false;
    for (i, &c) in b.iter().enumerate() {
        if let Some(start) = string {
            if escaped {
                escaped = false;
                named |= c == b'u';
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                named |= b.get(start..i) == Some(b"isError".as_slice());
                string = None;
            }
            continue;
        }
        match c {
            b'"' => string = Some(i + 1),
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    (deepest, named)
}

/// Reads a JSON object's `isError` member, skipping everything else (no tree is built).
/// Only `deserialize_any` is asked for, and every kind of value but an object is refused here
/// without formatting it: serde's default refusals format `Unexpected`, floats included, which
/// would link core's float formatting into the module.
struct Probe;

/// The refusal of a payload that is JSON but not an object (a `Data` error of `serde_json`).
const NOT_OBJECT: &str = "not an object";

fn not_object<E: serde::de::Error>() -> E {
    E::custom(NOT_OBJECT)
}

impl<'de> Visitor<'de> for Probe {
    type Value = bool;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let mut is_error = false;
        while let Some(key) = map.next_key_seed(MemberName(|name: &str| name == "isError"))? {
            if key {
                is_error = map.next_value_seed(crate::base::json::Tree)? == Value::Bool(true);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(is_error)
    }
    refuse!('de, not_object; unit, bool, num, str, seq);
}

/// The top-level object's `isError: true` (its last `isError` member, as `serde_json` reads
/// duplicate members), read from checked JSON text.
fn probe(text: &str) -> Result<bool, PayloadError> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.deserialize_any(Probe).map_err(|e| {
        if e.classify() == serde_json::error::Category::Data {
            PayloadError::NotObject
        } else {
            PayloadError::NotJson(e.to_string())
        }
    })
}

impl Payload {
    /// A payload from JSON text whose lone surrogates are carried already
    /// ([`crate::validate::surrogates::carry`]): checked to be one JSON object (serde_json's
    /// limit of 128 levels of nesting included), without building a tree.
    pub fn from_carried_text(text: String) -> Result<Payload, PayloadError> {
        // One parse checks the text (serde_json's own reading, no tree).
        serde_json::from_str::<IgnoredAny>(&text)
            .map_err(|e| PayloadError::NotJson(e.to_string()))?;
        // Kept without the JSON whitespace around it: an object is `{…}`.
        let json_space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
        let trimmed = text.trim_matches(json_space);
        if !trimmed.starts_with('{') {
            return Err(PayloadError::NotObject);
        }
        // serde_json skips values it ignores without recursion, so without its depth limit:
        // the limit a `Value` tree has is checked here.
        let (deepest, named) = scan(trimmed);
        if deepest > MAX_NESTING {
            return Err(PayloadError::TooDeep);
        }
        // Only a member named `isError` can make it a tool error: a text that spells no such
        // string (neither plainly nor with a `\u` escape) is not read a second time.
        let is_error = named && probe(trimmed)?;
        let text: Rc<str> = if trimmed.len() == text.len() {
            Rc::from(text)
        } else {
            Rc::from(trimmed)
        };
        Ok(Payload { text, is_error })
    }

    /// A payload of `object` (written as JSON text).
    pub fn from_object(object: &JsonObject) -> Payload {
        // A `Map` of `Value`s always serializes (its keys are strings).
        let text = serde_json::to_string(object).unwrap_or_else(|_| "{}".to_string());
        Payload {
            text: Rc::from(text),
            is_error: is_tool_error(object),
        }
    }

    /// Whether it has `isError: true` (a tool error result).
    pub fn is_error(&self) -> bool {
        self.is_error
    }

    /// Its JSON text (lone surrogates carried).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Its members, parsed from the text.
    pub fn object(&self) -> JsonObject {
        match crate::base::json::parse(self.text()) {
            Ok(Value::Object(map)) => map,
            _ => JsonObject::new(),
        }
    }
}

impl From<JsonObject> for Payload {
    fn from(object: JsonObject) -> Self {
        Payload::from_object(&object)
    }
}

/// Written verbatim into the JSON text of [`crate::base::json::to_text`]; as the object into any
/// other serializer.
impl Serialize for Payload {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match crate::base::json::verbatim(&self.text, s) {
            Ok(written) => written,
            Err(s) => self.object().serialize(s),
        }
    }
}

/// Equal when their texts are (the store compares records it wrote itself).
impl PartialEq for Payload {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.text, &other.text) || self.text() == other.text()
    }
}

impl std::fmt::Debug for Payload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn text_is_checked_once_and_written_verbatim() {
        let p = Payload::from_carried_text(r#"{"content":[],"isError":true}"#.into()).unwrap();
        assert!(p.is_error());
        assert_eq!(
            crate::base::json::to_text(&p).unwrap(),
            r#"{"content":[],"isError":true}"#
        );
        assert_eq!(
            p.object(),
            json!({"content": [], "isError": true})
                .as_object()
                .unwrap()
                .clone()
        );
        let last =
            Payload::from_carried_text(r#"{"isError":true,"isError":false}"#.into()).unwrap();
        assert!(
            !last.is_error(),
            "the last duplicate member counts, as serde_json reads it"
        );
        assert!(!Payload::from_carried_text(r#"{"isError":"true"}"#.into())
            .unwrap()
            .is_error());
        assert_eq!(
            Payload::from_carried_text("[1]".into()),
            Err(PayloadError::NotObject)
        );
        assert_eq!(
            Payload::from_carried_text("1".into()),
            Err(PayloadError::NotObject)
        );
        assert!(matches!(
            Payload::from_carried_text("{".into()),
            Err(PayloadError::NotJson(_))
        ));
        assert!(matches!(
            Payload::from_carried_text("{} x".into()),
            Err(PayloadError::NotJson(_))
        ));
        assert!(
            Payload::from_carried_text(r#"{"is\u0045rror":true}"#.into())
                .unwrap()
                .is_error(),
            "a member name spelled with escapes is read"
        );
        assert!(
            !Payload::from_carried_text(r#"{"a":"isError","b":"\u0001"}"#.into())
                .unwrap()
                .is_error()
        );
        assert_eq!(
            Payload::from_carried_text(" [1] ".into()),
            Err(PayloadError::NotObject)
        );
        assert_eq!(
            crate::base::json::to_text(&Payload::from_carried_text(" {} ".into()).unwrap())
                .unwrap(),
            "{}"
        );
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(200), "]".repeat(200));
        assert_eq!(Payload::from_carried_text(deep), Err(PayloadError::TooDeep));
    }

    // The depth limit is the one `validate::parse` (a `Value` tree) keeps, to the level.
    #[test]
    fn nesting_is_limited_as_for_a_value() {
        for depth in 120..135 {
            let text = format!("{{\"a\":{}{}}}", "[".repeat(depth), "]".repeat(depth));
            let tree = crate::validate::parse(&text, usize::MAX).is_ok();
            let payload = Payload::from_carried_text(text).is_ok();
            assert_eq!(payload, tree, "depth {depth}");
        }
    }

    #[test]
    fn an_object_becomes_text_and_back() {
        let o = json!({"content": [{"type": "text", "text": "x"}], "isError": true});
        let p = Payload::from_object(o.as_object().unwrap());
        assert!(p.is_error());
        assert_eq!(Value::Object(p.object()), o);
        assert_eq!(serde_json::to_value(&p).unwrap(), o);
        assert_eq!(p.clone(), p);
    }
}
