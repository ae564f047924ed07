//! JSON text in and out, by this crate's own means where serde_json's would cost size:
//!
//! * [`parse`]: text into a `serde_json::Value` tree, read by this crate's own visitor, which
//!   asks for `deserialize_any` only. `Value`'s own `Deserialize` impl asks for a typed
//!   `deserialize_str` on one branch, whose refusal formats serde's `Unexpected`, floats
//!   included, and links core's float formatting into the module (about 10 KB gzip;
//!   BENCHMARKS.md "Size"). The tree is the one serde_json builds: numbers as `Number`s (a float
//!   that `Number` cannot hold, none from JSON text, as `null`), the last of duplicate members
//!   kept, serde_json's recursion limit (128 levels) and its error messages unchanged.
//! * [`to_text`] and [`verbatim`]: a value written as JSON text with pieces of JSON text
//!   (checked already) written into it as they are, the job of serde_json's `raw_value` feature
//!   without it (that feature adds the same typed `deserialize_str` inside serde_json, and reads
//!   an object whose first member is named `$serde_json::private::RawValue` as the raw value it
//!   names: the text `{"$serde_json::private::RawValue":"1"}` became the number `1`).

use std::cell::RefCell;
use std::rc::Rc;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Serialize, Serializer};
use serde_json::{Map, Number, Value};

use crate::base::visit::MemberName;

/// Parses JSON text (one value, whitespace around it allowed) into a `Value` tree.
pub fn parse(text: &str) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Tree.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

thread_local! {
    /// While [`to_text`] writes: the verbatim pieces met so far, in the order written (`None`
    /// when no `to_text` is writing).
    static PIECES: RefCell<Option<Vec<Rc<str>>>> = const { RefCell::new(None) };
}

/// What [`verbatim`] writes in a piece's place: a `u128` (nothing else this crate serializes
/// is one; `Value` numbers are at most 64 bits), its digits replaced by the piece afterwards.
const PLACEHOLDER: u128 = u128::MAX;
const PLACEHOLDER_DIGITS: &[u8] = b"340282366920938463463374607431768211455";

/// `value` as JSON text (as `serde_json::to_string` writes it), with the pieces its
/// [`verbatim`] calls gave written in as they are.
pub fn to_text<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let outer = PIECES.with(|p| p.replace(Some(Vec::new())));
    let text = serde_json::to_string(value);
    let pieces = PIECES.with(|p| p.replace(outer)).unwrap_or_default();
    let text = text?;
    if pieces.is_empty() {
        return Ok(text);
    }
    Ok(splice(&text, &pieces))
}

/// Writes `piece` (one JSON value's text, checked by its owner) into the text [`to_text`] is
/// writing, as it is; into any other serializer it is not written, and the serializer is given
/// back (`Err`) for the owner to write the value as a tree.
pub fn verbatim<S: Serializer>(piece: &Rc<str>, s: S) -> Result<Result<S::Ok, S::Error>, S> {
    let taken = PIECES.with(|p| match p.borrow_mut().as_mut() {
        Some(pieces) => {
            pieces.push(Rc::clone(piece));
            true
        }
        None => false,
    });
    if taken {
        Ok(s.serialize_u128(PLACEHOLDER))
    } else {
        Err(s)
    }
}

/// `text` with its placeholders (number tokens outside strings spelled as [`PLACEHOLDER`]),
/// in order, replaced by `pieces`.
fn splice(text: &str, pieces: &[Rc<str>]) -> String {
    let extra: usize = pieces.iter().map(|p| p.len()).sum();
    let mut out = String::with_capacity(text.len() + extra);
    let b = text.as_bytes();
    let mut pieces = pieces.iter();
    let (mut from, mut i) = (0, 0);
    let (mut in_string, mut escaped) = (false, false);
    while let Some(&c) = b.get(i) {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_string = false;
            }
        } else if c == b'"' {
            in_string = true;
        } else if b.get(i..i + PLACEHOLDER_DIGITS.len()) == Some(PLACEHOLDER_DIGITS) {
            if let (Some(piece), Some(before)) = (pieces.next(), text.get(from..i)) {
                out.push_str(before);
                out.push_str(piece);
                i += PLACEHOLDER_DIGITS.len();
                from = i;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(text.get(from..).unwrap_or_default());
    out
}

/// The seed (and visitor) of one value of the tree: `map.next_value_seed(Tree)` reads a member's
/// value as [`parse`] reads text.
#[derive(Clone, Copy)]
pub struct Tree;

impl<'de> DeserializeSeed<'de> for Tree {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Tree {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }
    fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }
    fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<Value, E> {
        Ok(Number::from_f64(n).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }
    fn visit_string<E: serde::de::Error>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(Tree)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members = Map::new();
        while let Some(key) = map.next_key_seed(MemberName(str::to_owned))? {
            let value = map.next_value_seed(Tree)?;
            members.insert(key, value);
        }
        Ok(Value::Object(members))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// serde_json's own reading, for comparison (its `Value` impl).
    fn theirs(text: &str) -> Result<Value, String> {
        serde_json::from_str::<Value>(text).map_err(|e| e.to_string())
    }

    #[test]
    fn builds_the_tree_serde_json_builds() {
        for text in [
            "null",
            " true ",
            "false",
            "0",
            "-0",
            "-0.0",
            "1.5",
            "1e300",
            "-1e-300",
            "9007199254740993",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            r#""a\u00e9\ud83d\ude00\n""#,
            "[]",
            "{}",
            r#"[1, "x", null, [{}], {"a": [true]}]"#,
            r#"{"b": 1, "a": 2, "b": 3}"#,
            r#"{"": {"": ""}}"#,
            r#"{"a\u0062": 1}"#,
            "[1,]",
            "{\"a\":1,}",
            "[1] x",
            "",
            "nul",
            r#"{"a" 1}"#,
            r#""\ud800""#,
            "1e400",
            "[1, 2",
        ] {
            assert_eq!(
                parse(text).map_err(|e| e.to_string()),
                theirs(text),
                "{text:?}"
            );
        }
    }

    #[test]
    fn the_recursion_limit_is_serde_jsons() {
        for depth in 125..131 {
            let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            assert_eq!(
                parse(&text).map_err(|e| e.to_string()),
                theirs(&text),
                "depth {depth}"
            );
            let text = format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth));
            assert_eq!(
                parse(&text).map_err(|e| e.to_string()),
                theirs(&text),
                "depth {depth}"
            );
        }
    }

    // serde_json's `Value` reads this object as the raw value it names (with `raw_value`);
    // it is an object with one member, which is what the text says.
    #[test]
    fn a_member_named_like_serde_jsons_raw_token_is_a_member() {
        let text = r#"{"$serde_json::private::RawValue":"1"}"#;
        let mut expected = Map::new();
        expected.insert(
            "$serde_json::private::RawValue".to_string(),
            Value::String("1".to_string()),
        );
        assert_eq!(parse(text).unwrap(), Value::Object(expected));
    }

    /// A piece of JSON text written verbatim by `to_text`, as the tree elsewhere.
    struct Piece(Rc<str>);

    impl Serialize for Piece {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match verbatim(&self.0, s) {
                Ok(written) => written,
                Err(s) => parse(&self.0)
                    .map_err(serde::ser::Error::custom)?
                    .serialize(s),
            }
        }
    }

    #[derive(Serialize)]
    struct Answer {
        before: String,
        pieces: Vec<Piece>,
        after: String,
        n: u64,
    }

    fn answer(before: &str, pieces: &[&str], after: &str) -> Answer {
        Answer {
            before: before.into(),
            pieces: pieces.iter().map(|p| Piece(Rc::from(*p))).collect(),
            after: after.into(),
            n: u64::MAX,
        }
    }

    #[test]
    fn pieces_are_written_in_as_they_are() {
        let digits = std::str::from_utf8(PLACEHOLDER_DIGITS).unwrap();
        assert_eq!(digits, PLACEHOLDER.to_string());
        for (before, pieces, after) in [
            ("", vec![], ""),
            ("a", vec![r#"{"b": [1, 2.50, "\u00e9"]}"#], "c"),
            (
                digits,
                vec![r#"{"x":"340282366920938463463374607431768211455"}"#, "[]"],
                digits,
            ),
            ("\"\\", vec!["1", "{ }", "null", "\"q\\\"\""], "\\\""),
        ] {
            let a = answer(before, &pieces, after);
            let text = to_text(&a).unwrap();
            let expected = format!(
                r#"{{"before":{},"pieces":[{}],"after":{},"n":18446744073709551615}}"#,
                serde_json::to_string(before).unwrap(),
                pieces.join(","),
                serde_json::to_string(after).unwrap(),
            );
            assert_eq!(text, expected);
            // Elsewhere, the tree: the same value.
            assert_eq!(serde_json::to_value(&a).unwrap(), parse(&expected).unwrap());
            assert_eq!(
                parse(&serde_json::to_string(&a).unwrap()).unwrap(),
                parse(&expected).unwrap()
            );
        }
    }

    #[test]
    fn to_text_inside_to_text_keeps_each_ones_pieces() {
        struct Nested;
        impl Serialize for Nested {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let inner =
                    to_text(&answer("i", &["[1]"], "j")).map_err(serde::ser::Error::custom)?;
                s.serialize_str(&inner)
            }
        }
        #[derive(Serialize)]
        struct Outer {
            a: Piece,
            nested: Nested,
            b: Piece,
        }
        let text = to_text(&Outer {
            a: Piece(Rc::from("{}")),
            nested: Nested,
            b: Piece(Rc::from("[2]")),
        })
        .unwrap();
        assert_eq!(
            text,
            r#"{"a":{},"nested":"{\"before\":\"i\",\"pieces\":[[1]],\"after\":\"j\",\"n\":18446744073709551615}","b":[2]}"#
        );
        // And none is left behind for a later serializer.
        assert_eq!(
            serde_json::to_string(&Piece(Rc::from("[3]"))).unwrap(),
            "[3]"
        );
    }
}
