//! The reader of the fast path's typed structs ([`super::fast`]): serde_json asked only for
//! `deserialize_any`, and errors that format nothing.
//!
//! serde_json's typed requests (`deserialize_str`, `deserialize_struct`, …) build their "invalid
//! type" error with serde's `Unexpected` Display, which links core's `f64` Display and its
//! float-to-decimal tables (about 14 KB of code and data: BENCHMARKS.md "Size"), although the
//! fast path never shows an error (it only asks whether the text reads). Here every request
//! becomes `deserialize_any`, which answers by the next byte (errors: syntax only), and the
//! visitors' errors are [`Miss`], which carries nothing. What reads, and what does not, is what
//! `serde_json::from_str` gives, except that enums do not read (the fast path has none).

use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// True when `text` reads as a `T` with nothing after it (as `serde_json::from_str(text).is_ok()`).
pub fn reads<'de, T: Deserialize<'de>>(text: &'de str) -> bool {
    let mut d = serde_json::Deserializer::from_str(text);
    T::deserialize(AnyOnly(&mut d)).is_ok() && d.end().is_ok()
}

/// Why a text did not read: nothing more is said.
#[derive(Debug)]
pub struct Miss;

impl fmt::Display for Miss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not read")
    }
}

impl std::error::Error for Miss {}

impl de::Error for Miss {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Miss
    }
    fn invalid_type(_: de::Unexpected<'_>, _: &dyn de::Expected) -> Self {
        Miss
    }
    fn invalid_value(_: de::Unexpected<'_>, _: &dyn de::Expected) -> Self {
        Miss
    }
    fn invalid_length(_: usize, _: &dyn de::Expected) -> Self {
        Miss
    }
    fn unknown_variant(_: &str, _: &'static [&'static str]) -> Self {
        Miss
    }
    fn unknown_field(_: &str, _: &'static [&'static str]) -> Self {
        Miss
    }
    fn missing_field(_: &'static str) -> Self {
        Miss
    }
    fn duplicate_field(_: &'static str) -> Self {
        Miss
    }
}

/// A [`Miss`] as serde_json's error (a fixed text: nothing is formatted).
fn miss<E: de::Error>(_: Miss) -> E {
    E::custom("not read")
}

/// A deserializer that asks `D` for `deserialize_any` only (`Option`, newtypes and ignored
/// values keep their own requests, which build no type error).
struct AnyOnly<D>(D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for AnyOnly<D> {
    type Error = Miss;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Miss> {
        self.0.deserialize_any(Wrap(v)).map_err(|_| Miss)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Miss> {
        self.0.deserialize_option(Wrap(v)).map_err(|_| Miss)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, Miss> {
        self.0
            .deserialize_newtype_struct(name, Wrap(v))
            .map_err(|_| Miss)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Miss> {
        self.0.deserialize_ignored_any(Wrap(v)).map_err(|_| Miss)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map struct enum identifier
    }
}

/// The visitor `D` sees: hands each value on to `V`, and nested values through [`AnyOnly`].
struct Wrap<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<V::Value, E> {
        self.0.visit_bool(b).map_err(miss)
    }
    fn visit_i64<E: de::Error>(self, i: i64) -> Result<V::Value, E> {
        self.0.visit_i64(i).map_err(miss)
    }
    fn visit_u64<E: de::Error>(self, u: u64) -> Result<V::Value, E> {
        self.0.visit_u64(u).map_err(miss)
    }
    fn visit_f64<E: de::Error>(self, f: f64) -> Result<V::Value, E> {
        self.0.visit_f64(f).map_err(miss)
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<V::Value, E> {
        self.0.visit_str(s).map_err(miss)
    }
    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<V::Value, E> {
        self.0.visit_borrowed_str(s).map_err(miss)
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<V::Value, E> {
        self.0.visit_string(s).map_err(miss)
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit().map_err(miss)
    }
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none().map_err(miss)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(AnyOnly(d)).map_err(miss)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(AnyOnly(d)).map_err(miss)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, a: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(Elements(a)).map_err(miss)
    }
    fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(Members(a)).map_err(miss)
    }
}

/// The elements of an array, each read through [`AnyOnly`].
struct Elements<A>(A);

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Elements<A> {
    type Error = Miss;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Miss> {
        self.0.next_element_seed(Seed(seed)).map_err(|_| Miss)
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// The members of an object, keys and values read through [`AnyOnly`].
struct Members<A>(A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Members<A> {
    type Error = Miss;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Miss> {
        self.0.next_key_seed(Seed(seed)).map_err(|_| Miss)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Miss> {
        self.0.next_value_seed(Seed(seed)).map_err(|_| Miss)
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// A seed that reads through [`AnyOnly`].
struct Seed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(AnyOnly(d)).map_err(miss)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// Reads as `serde_json::from_str` reads, for every type of value and every wrong one.
    #[test]
    fn reads_as_serde_json_does() {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct S {
            a: u32,
            b: Option<String>,
            c: Vec<bool>,
            #[serde(default)]
            d: Option<f64>,
        }
        let texts = [
            r#"{"a":1,"b":"x","c":[true]}"#,
            r#"{"a":1,"b":null,"c":[],"d":2.5}"#,
            r#"{"a":1,"b":"x","c":[true]} "#,
            r#"{"a":1,"b":"x","c":[true]} x"#,
            r#"{"a":1.5,"b":"x","c":[true]}"#,
            r#"{"a":-1,"b":"x","c":[true]}"#,
            r#"{"a":1,"b":2,"c":[true]}"#,
            r#"{"a":1,"b":"x","c":[1]}"#,
            r#"{"a":1,"b":"x"}"#,
            r#"{"a":1,"b":"x","c":[],"e":0}"#,
            r#"{"a":1,"a":1,"b":"x","c":[]}"#,
            r#"[1,"x",[true]]"#,
            r#"{"a":1,"b":"x\u00e9","c":[false]}"#,
            r#"{"a":1,"b":"x","c":[true]"#,
            "null",
            "",
        ];
        for text in texts {
            assert_eq!(
                reads::<S>(text),
                serde_json::from_str::<S>(text).is_ok(),
                "{text}"
            );
        }
        assert!(reads::<Value>(r#"{"x":[1,2.5,"s",null,true,{}]}"#));
    }
}
