//! `refuse!`: the visitor methods `serde_json`'s `deserialize_any` may call, each refusing the
//! value with an error that formats nothing. A hand-written visitor that asks only for
//! `deserialize_any` must define every one of them: serde's default methods format serde's
//! `Unexpected`, floats included, which links core's float formatting into the module (about
//! 10 KB gzip; BENCHMARKS.md "Size"). Used by the validator's fast path and the store's payload
//! probe.

/// Defines the refusing `visit_*` methods of the kinds named (`unit`, `bool`, `num`, `str`,
/// `seq`, `map`), each answering `Err($refusal())`: `refuse!('de, refused; unit, bool, num)`.
macro_rules! refuse {
    ($de:lifetime, $refusal:ident;) => {};
    ($de:lifetime, $refusal:ident; unit $(, $rest:ident)*) => {
        fn visit_unit<E: ::serde::de::Error>(self) -> Result<Self::Value, E> { Err($refusal()) }
        $crate::base::visit::refuse!($de, $refusal; $($rest),*);
    };
    ($de:lifetime, $refusal:ident; bool $(, $rest:ident)*) => {
        fn visit_bool<E: ::serde::de::Error>(self, _: bool) -> Result<Self::Value, E> { Err($refusal()) }
        $crate::base::visit::refuse!($de, $refusal; $($rest),*);
    };
    ($de:lifetime, $refusal:ident; num $(, $rest:ident)*) => {
        fn visit_u64<E: ::serde::de::Error>(self, _: u64) -> Result<Self::Value, E> { Err($refusal()) }
        fn visit_i64<E: ::serde::de::Error>(self, _: i64) -> Result<Self::Value, E> { Err($refusal()) }
        fn visit_f64<E: ::serde::de::Error>(self, _: f64) -> Result<Self::Value, E> { Err($refusal()) }
        $crate::base::visit::refuse!($de, $refusal; $($rest),*);
    };
    ($de:lifetime, $refusal:ident; str $(, $rest:ident)*) => {
        fn visit_str<E: ::serde::de::Error>(self, _: &str) -> Result<Self::Value, E> { Err($refusal()) }
        $crate::base::visit::refuse!($de, $refusal; $($rest),*);
    };
    ($de:lifetime, $refusal:ident; seq $(, $rest:ident)*) => {
        fn visit_seq<A: ::serde::de::SeqAccess<$de>>(self, _: A) -> Result<Self::Value, A::Error> { Err($refusal()) }
        $crate::base::visit::refuse!($de, $refusal; $($rest),*);
    };
    ($de:lifetime, $refusal:ident; map $(, $rest:ident)*) => {
        fn visit_map<A: ::serde::de::MapAccess<$de>>(self, _: A) -> Result<Self::Value, A::Error> { Err($refusal()) }
        $crate::base::visit::refuse!($de, $refusal; $($rest),*);
    };
}

pub(crate) use refuse;

/// A member name, read by `deserialize_any` and mapped by `F` as it is read:
/// `map.next_key_seed(MemberName(|name: &str| name == "isError"))`. serde_json reads member
/// names as strings whatever is asked; any other kind of key is refused without formatting it.
pub struct MemberName<F>(pub F);

/// The refusal of a key that is not a string (not from serde_json).
fn not_a_name<E: serde::de::Error>() -> E {
    E::custom("a member name must be a string")
}

impl<'de, T, F: FnOnce(&str) -> T> serde::de::DeserializeSeed<'de> for MemberName<F> {
    type Value = T;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, T, F: FnOnce(&str) -> T> serde::de::Visitor<'de> for MemberName<F> {
    type Value = T;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a member name")
    }
    fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<T, E> {
        Ok((self.0)(name))
    }
    refuse!('de, not_a_name; unit, bool, num, seq, map);
}
