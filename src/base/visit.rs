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
